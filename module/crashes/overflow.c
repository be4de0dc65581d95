// SPDX-License-Identifier: GPL-2.0
/*
 * Arithmetic wrap-around: an addition past INT_MAX and one past UINT_MAX,
 * for UBSAN's wrap-around checks (CONFIG_UBSAN_SIGNED_WRAP, which 6.12
 * keeps behind BROKEN: the kernel builds with -fno-strict-overflow, so
 * signed wrap is defined, and only clang checks it there; the bench's
 * clang kernel drops that line.  CONFIG_UBSAN_UNSIGNED_WRAP: only 6.9 had
 * it).
 * This file is built with UBSAN.  Each sum is logged, so the compiler
 * must compute it; a wrapped value harms nothing.
 */
#include <linux/atomic.h>
#include <linux/build_bug.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/limits.h>

#include "../provoke_crash.h"

/*
 * UBSAN reports each place once (a flag in this module's data, until it is
 * reloaded): two places for each type, one per run, so that one load can
 * run it directly and at a point (the bench's shared guest does).  Not
 * inlined, so that each keeps its own check.
 */
#define PC_WRAP_SITES	2

static noinline int pc_signed_add_site0(int value)
{
	return value + 4;
}

static noinline int pc_signed_add_site1(int value)
{
	return value + 4;
}

static noinline unsigned int pc_unsigned_add_site0(unsigned int value)
{
	return value + 4;
}

static noinline unsigned int pc_unsigned_add_site1(unsigned int value)
{
	return value + 4;
}

int pc_crash_overflow_signed(void)
{
	static atomic_t runs = ATOMIC_INIT(0);
	int value = INT_MAX - 2;
	int site;

	if (!IS_ENABLED(CONFIG_UBSAN_SIGNED_WRAP)) {
		pc_expected_config("overflow_signed", "CONFIG_UBSAN_SIGNED_WRAP",
				   false);
		return -EOPNOTSUPP;
	}
	site = pc_ubsan_site("overflow_signed", &runs, PC_WRAP_SITES);
	if (site < 0)
		return -EAGAIN;
	OPTIMIZER_HIDE_VAR(value);
	value += 1;
	pr_info("overflow_signed: adding 4 to %d\n", value);
	BUILD_BUG_ON(PC_WRAP_SITES != 2);
	if (site)
		value = pc_signed_add_site1(value);
	else
		value = pc_signed_add_site0(value);
	pr_info("overflow_signed: the sum wrapped to %d\n", value);
	return 0;
}

int pc_crash_overflow_unsigned(void)
{
	static atomic_t runs = ATOMIC_INIT(0);
	unsigned int value = UINT_MAX - 2;
	int site;

	if (!IS_ENABLED(CONFIG_UBSAN_UNSIGNED_WRAP)) {
		pc_expected_config("overflow_unsigned",
				   "CONFIG_UBSAN_UNSIGNED_WRAP", false);
		return -EOPNOTSUPP;
	}
	site = pc_ubsan_site("overflow_unsigned", &runs, PC_WRAP_SITES);
	if (site < 0)
		return -EAGAIN;
	OPTIMIZER_HIDE_VAR(value);
	value += 1;
	pr_info("overflow_unsigned: adding 4 to %u\n", value);
	BUILD_BUG_ON(PC_WRAP_SITES != 2);
	if (site)
		value = pc_unsigned_add_site1(value);
	else
		value = pc_unsigned_add_site0(value);
	pr_info("overflow_unsigned: the sum wrapped to %u\n", value);
	return 0;
}
