// SPDX-License-Identifier: GPL-2.0
/*
 * Arithmetic wrap-around: an addition past INT_MAX and one past UINT_MAX,
 * for UBSAN's wrap-around checks (CONFIG_UBSAN_SIGNED_WRAP, which 6.12
 * keeps behind BROKEN: the kernel builds with -fno-strict-overflow, so
 * signed wrap is defined; CONFIG_UBSAN_UNSIGNED_WRAP, which only 6.9 had).
 * This file is built with UBSAN.  Each sum is logged, so the compiler
 * must compute it; a wrapped value harms nothing.
 */
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/limits.h>

#include "../provoke_crash.h"

int pc_crash_overflow_signed(void)
{
	static atomic_t runs = ATOMIC_INIT(0);
	int value = INT_MAX - 2;

	if (!IS_ENABLED(CONFIG_UBSAN_SIGNED_WRAP)) {
		pc_expected_config("overflow_signed", "CONFIG_UBSAN_SIGNED_WRAP",
				   false);
		return -EOPNOTSUPP;
	}
	if (pc_ubsan_site("overflow_signed", &runs, 1) < 0)
		return -EAGAIN;
	OPTIMIZER_HIDE_VAR(value);
	value += 1;
	pr_info("overflow_signed: adding 4 to %d\n", value);
	value += 4;
	pr_info("overflow_signed: the sum wrapped to %d\n", value);
	return 0;
}

int pc_crash_overflow_unsigned(void)
{
	static atomic_t runs = ATOMIC_INIT(0);
	unsigned int value = UINT_MAX - 2;

	if (!IS_ENABLED(CONFIG_UBSAN_UNSIGNED_WRAP)) {
		pc_expected_config("overflow_unsigned",
				   "CONFIG_UBSAN_UNSIGNED_WRAP", false);
		return -EOPNOTSUPP;
	}
	if (pc_ubsan_site("overflow_unsigned", &runs, 1) < 0)
		return -EAGAIN;
	OPTIMIZER_HIDE_VAR(value);
	value += 1;
	pr_info("overflow_unsigned: adding 4 to %u\n", value);
	value += 4;
	pr_info("overflow_unsigned: the sum wrapped to %u\n", value);
	return 0;
}
