// SPDX-License-Identifier: GPL-2.0
/*
 * Crashes only arm64 has (provoke_crash_arm64.h): an exclusive access at
 * an odd address, which arm64 always faults on, and a return through a
 * return address whose pointer-authentication code no longer matches.
 * Elsewhere the module refuses them before they get here.
 */
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/kernel.h>

#include "../provoke_crash.h"

#ifdef CONFIG_ARM64
#include <asm/cpufeature.h>

int pc_crash_unaligned_exclusive(void)
{
	/* Aligned storage, so that +1 is odd whatever the stack holds. */
	u64 words[2] __aligned(16) = { 0, 0 };
	u8 *odd = (u8 *)words + 1;
	u32 val;

	OPTIMIZER_HIDE_VAR(odd);
	/*
	 * Plain loads may be unaligned on arm64; load-exclusive never may,
	 * whatever the CPU's LSE2 support does for atomics.
	 */
	asm volatile("ldxr	%w0, [%1]\n"
		     "clrex"
		     : "=&r" (val) : "r" (odd) : "memory");
	pr_err("unaligned_exclusive: LDXR at %p read %#x without a fault\n",
	       odd, val);
	return 0;
}

/*
 * Flip one bit of the PAC in this frame's saved return address: the
 * epilogue's AUTIASP then fails.  With FEAT_FPAC that traps at once;
 * without, the return address is made invalid and RET faults on it.
 */
static noinline int pc_pac_victim(void)
{
	unsigned long *saved_lr = (unsigned long *)__builtin_frame_address(0) + 1;

	pr_info("pac_corruption: return address %lx signed, PAC bit flipped\n",
		READ_ONCE(*saved_lr));
	WRITE_ONCE(*saved_lr, *saved_lr ^ BIT(54));
	return 0;
}

/*
 * Without the kernel's own return addresses signed there is no PAC to
 * flip: the flipped bit would only make a bad address, no proof of PAC.
 */
int pc_crash_pac_corruption(void)
{
	if (!IS_ENABLED(CONFIG_ARM64_PTR_AUTH_KERNEL)) {
		pc_expected_config("pac_corruption", "CONFIG_ARM64_PTR_AUTH_KERNEL",
				   false);
		return -EOPNOTSUPP;
	}
	if (!system_supports_address_auth()) {
		pr_err("XFAIL: pac_corruption: this CPU has no address authentication (FEAT_PAuth; or arm64.nopauth turned it off): return addresses are not signed\n");
		return -EOPNOTSUPP;
	}
	return pc_pac_victim();
}
#else
int pc_crash_unaligned_exclusive(void)
{
	return -EOPNOTSUPP;
}

int pc_crash_pac_corruption(void)
{
	return -EOPNOTSUPP;
}
#endif
