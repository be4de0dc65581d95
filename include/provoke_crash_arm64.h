/* SPDX-License-Identifier: GPL-2.0 */
/*
 * arm64 in the crash-type table (see provoke_crash_types.h), in two parts:
 *
 * PC_CRASH_TYPE: the types only arm64 has.  Their "needs" hold the word
 * "arm64": elsewhere the module refuses them with EOPNOTSUPP and a reason.
 *
 * PC_ARM64_EXPECT(name, expected...): the kernel text that proves a type
 * on arm64, where it differs from the x86-64 text in the main table (no
 * RIP:, no #PF: lines; "Unable to handle kernel ...", the fault decoder's
 * FSC and WnR and "Internal error: Oops: <ESR>" instead; kmalloc(64) is
 * a kmalloc-128 object on 6.1, whose smallest cache follows arm64's DMA
 * alignment, and kmalloc-64 on 6.12; a CPU spinning with interrupts off
 * cannot be made to print its stack without pseudo-NMIs, so hardlockup's
 * proof is the detector's report and the panic).
 * A type not listed here prints the same text on both (a BUG() message,
 * a panic string, a SLUB report).
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
PC_CRASH_TYPE(unaligned_exclusive, "", arm64, PC_CTX_NMI, PC_FATE_OOPS, "arm64",
	      "load-exclusive (LDXR) at an odd address: alignment fault",
	      "Unable to handle kernel paging request at virtual address",
	      "FSC = 0x21: alignment fault",
	      "Internal error: Oops: 0*96000021",
	      "pc_crash_unaligned_exclusive")
PC_CRASH_TYPE(pac_corruption, "CORRUPT_PAC CFI_BACKWARD",
	      arm64, PC_CTX_NMI, PC_FATE_OOPS,
	      "arm64 CONFIG_ARM64_PTR_AUTH_KERNEL",
	      "return through a saved return address whose PAC was changed",
	      "pac_corruption: return address [0-9a-f]+ signed, PAC bit flipped",
	      "Oops - FPAC|Internal error: Oops: 0*86000004 ")

/* The shared types' texts on arm64, in the main table's order. */
PC_ARM64_EXPECT(report,
		"report: hit by [^ ]+\\[[0-9]+\\] on CPU [0-9]+",
		"Call trace:")
PC_ARM64_EXPECT(bugon,
		"kernel BUG at .*bugs\\.c",
		"Internal error: Oops - BUG: ")
PC_ARM64_EXPECT(null_dereference,
		"Unable to handle kernel NULL pointer dereference at virtual address 0+",
		"WnR = 1",
		"pc : pc_crash_null_dereference")
PC_ARM64_EXPECT(general_protection,
		"Unable to handle kernel paging request at virtual address dead4ead00000000",
		"pc : pc_crash_general_protection")
PC_ARM64_EXPECT(oops_interrupt_context,
		"oops_interrupt_context: in hardirq context: yes",
		"Unable to handle kernel NULL pointer dereference",
		"ipi_handler",
		"!kdump? Kernel panic - not syncing: Oops: Fatal exception in interrupt")
PC_ARM64_EXPECT(oops_softirq_context,
		"oops_softirq_context: in softirq context: yes",
		"Unable to handle kernel NULL pointer dereference",
		"run_timer_softirq",
		"!kdump? Kernel panic - not syncing: Oops: Fatal exception in interrupt")
PC_ARM64_EXPECT(bug_in_hardirq,
		"bug_in_hardirq: in hardirq context: yes",
		"kernel BUG at .*interrupts\\.c",
		"__hrtimer_run_queues",
		"!kdump? Kernel panic - not syncing: Oops - BUG: Fatal exception in interrupt")
PC_ARM64_EXPECT(hardlockup,
		"Watchdog detected hard LOCKUP on cpu|rcu: INFO: rcu_(preempt|sched) detected stalls on CPUs",
		"Kernel panic - not syncing: (Hard LOCKUP|RCU Stall)")
PC_ARM64_EXPECT(panic_stop_irqoff,
		"panic_stop_irqoff: CPU [0-9]+ panics, [0-9]+ other CPUs? spinning with interrupts off",
		"Kernel panic - not syncing: provoke-crash: panic_stop_irqoff requested")
/*
 * The frame pc_recurse() makes is first written in it or in pc_fill(),
 * wherever the randomized stack offset puts the guard page; or in the
 * memset() they call, where it is out of line (7.2 built with gcc-16:
 * pc is __pi_memset_generic, lr is ours).
 */
PC_ARM64_EXPECT(exhaust_stack,
		"Insufficient stack space to handle exception!",
		"(pc|lr) : pc_(recurse|fill)\\+",
		"Kernel panic - not syncing: kernel stack overflow")
PC_ARM64_EXPECT(stack_guard_page_leading,
		"Unable to handle kernel paging request at virtual address",
		"pc : pc_crash_stack_guard_page_leading")
PC_ARM64_EXPECT(stack_guard_page_trailing,
		"Unable to handle kernel paging request at virtual address",
		"pc : pc_crash_stack_guard_page_trailing")
PC_ARM64_EXPECT(write_ro,
		"Unable to handle kernel write to read-only memory at virtual address",
		"Internal error: Oops: 0*9600004f",
		"pc : pc_crash_write_ro")
PC_ARM64_EXPECT(write_ro_after_init,
		"Unable to handle kernel write to read-only memory at virtual address",
		"Internal error: Oops: 0*9600004f",
		"pc : pc_crash_write_ro_after_init")
PC_ARM64_EXPECT(write_kern,
		"Unable to handle kernel write to read-only memory at virtual address",
		"Internal error: Oops: 0*9600004f",
		"pc : pc_crash_write_kern")
PC_ARM64_EXPECT(exec_data,
		"Unable to handle kernel execute from non-executable memory at virtual address",
		"Internal error: Oops: 0*8600000f")
PC_ARM64_EXPECT(exec_stack,
		"Unable to handle kernel execute from non-executable memory at virtual address",
		"Internal error: Oops: 0*8600000f")
PC_ARM64_EXPECT(exec_kmalloc,
		"Unable to handle kernel execute from non-executable memory at virtual address",
		"Internal error: Oops: 0*8600000f")
PC_ARM64_EXPECT(exec_vmalloc,
		"Unable to handle kernel execute from non-executable memory at virtual address",
		"Internal error: Oops: 0*8600000f")
PC_ARM64_EXPECT(exec_rodata,
		"Unable to handle kernel execute from non-executable memory at virtual address",
		"Internal error: Oops: 0*8600000f")
PC_ARM64_EXPECT(exec_userspace,
		"Unable to handle kernel execution of user memory at virtual address 0000[0-9a-f]+",
		"Internal error: Oops: 0*8600000f")
PC_ARM64_EXPECT(access_userspace,
		"Unable to handle kernel access to user memory outside uaccess routines at virtual address 0000[0-9a-f]+",
		"FSC = 0x0f: level 3 permission fault")
PC_ARM64_EXPECT(access_null,
		"Unable to handle kernel NULL pointer dereference at virtual address 0+",
		"WnR = 0",
		"pc : pc_crash_access_null")
PC_ARM64_EXPECT(exec_null,
		"Unable to handle kernel NULL pointer dereference at virtual address 0+",
		"Internal error: Oops: 0*8600000[4-7] ",
		"pc : 0x0$")
PC_ARM64_EXPECT(usercopy_heap_size_to,
		"usercopy: Kernel memory exposure attempt detected from SLUB object ('kmalloc-128' \\(offset 0, size 256|'kmalloc-64' \\(offset 0, size 128)\\)",
		"kernel BUG at mm/usercopy\\.c")
PC_ARM64_EXPECT(usercopy_heap_size_from,
		"usercopy: Kernel memory overwrite attempt detected to SLUB object ('kmalloc-128' \\(offset 0, size 136|'kmalloc-64' \\(offset 0, size 72)\\)",
		"kernel BUG at mm/usercopy\\.c")
PC_ARM64_EXPECT(vmalloc_linear_overflow,
		"Unable to handle kernel paging request at virtual address",
		"WnR = 1",
		"pc : pc_crash_vmalloc_linear_overflow",
		"CONFIG_KASAN_VMALLOC? BUG: KASAN: vmalloc-out-of-bounds")

#undef PC_ARM64_EXPECT
#ifdef PC_ARM64_EXPECT_UNUSED
#undef PC_ARM64_EXPECT_UNUSED
#endif
