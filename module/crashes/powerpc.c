// SPDX-License-Identifier: GPL-2.0
/*
 * LKDTM's powerpc tests, WRITE_OPD (a write to a function descriptor,
 * which only 64-bit ELFv1 has), PPC_SLB_MULTIHIT (duplicate SLB
 * entries, which only Book3S-64 has) and PPC_RADIX_TLBIEL (a tlbiel
 * that only the radix MMU of Book3S-64 rejects).  This module is built for x86-64
 * and arm64 only: the table's "powerpc" need refuses both with
 * EOPNOTSUPP and a reason before these routines can run, and the DIRECT
 * file says XFAIL, as LKDTM does where the hardware lacks them.
 */
#include <linux/errno.h>
#include <linux/printk.h>

#include "../provoke_crash.h"

int pc_crash_write_opd(void)
{
	pr_err("XFAIL: write_opd: %s calls functions directly: no descriptors\n",
	       pc_this_arch());
	return -EOPNOTSUPP;
}

int pc_crash_slb_multihit(void)
{
	pr_err("XFAIL: slb_multihit: %s has no SLB\n", pc_this_arch());
	return -EOPNOTSUPP;
}

int pc_crash_radix_tlbiel(void)
{
	pr_err("XFAIL: radix_tlbiel: %s has no radix MMU\n", pc_this_arch());
	return -EOPNOTSUPP;
}
