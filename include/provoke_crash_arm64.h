/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arm64 in the crash-type table (see provoke_crash_types.h), in two parts:
 *
 * PC_CRASH_TYPE: the types only arm64 has.  Their "needs" hold the word
 * "arm64": elsewhere the module refuses them with EOPNOTSUPP and a reason.
 *
 * PC_ARM64_EXPECT(name, expected...): the kernel text that proves a type
 * on arm64, where it differs from the x86-64 text in the main table (no
 * RIP:, no #PF: lines; "Internal error: Oops" and the fault decoder's
 * "Mem abort info" instead).  A type not listed here prints the same
 * text on both (a BUG() message, a panic string, a SLUB report).
 *
 * No include guard, like the main table: provoke_crash_types.h includes
 * it for PC_CRASH_TYPE, the tool includes it for PC_ARM64_EXPECT; the
 * macro an includer leaves undefined expands to nothing.
 */
#ifndef PC_ARM64_EXPECT
#define PC_ARM64_EXPECT(name, ...)
#define PC_ARM64_EXPECT_UNUSED
#endif

/* Accesses that arm64 refuses where x86-64 does not. */
PC_CRASH_TYPE(unaligned_exclusive, arm64, PC_CTX_NMI, PC_FATE_OOPS, "arm64",
	      "load-exclusive (LDXR) at an odd address: alignment fault",
	      "Unable to handle kernel paging request at virtual address",
	      "FSC = 0x21: alignment fault",
	      "Internal error: Oops: 0*96000021",
	      "pc_crash_unaligned_exclusive")
PC_CRASH_TYPE(pac_corruption, arm64, PC_CTX_NMI, PC_FATE_OOPS,
	      "arm64 CONFIG_ARM64_PTR_AUTH_KERNEL",
	      "return through a saved return address whose PAC was changed",
	      "pac_corruption: return address [0-9a-f]+ signed, PAC bit flipped",
	      "Oops - FPAC|Internal error: Oops: 0*86000004 ")

/* The shared types' texts on arm64. */
PC_ARM64_EXPECT(bugon,
		"kernel BUG at .*bugs\\.c",
		"Internal error: Oops - BUG: ")
PC_ARM64_EXPECT(null_dereference,
		"Unable to handle kernel NULL pointer dereference at virtual address 0+",
		"WnR = 1",
		"pc_crash_null_dereference")

#undef PC_ARM64_EXPECT
#ifdef PC_ARM64_EXPECT_UNUSED
#undef PC_ARM64_EXPECT_UNUSED
#endif
