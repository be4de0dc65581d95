// SPDX-License-Identifier: GPL-2.0
/*
 * Array bounds: an index one past a fixed-size array, which the
 * compiler's bounds sanitizer (CONFIG_UBSAN_BOUNDS) checks at run time.
 * This file alone of the crash routines is built with UBSAN: the check is
 * the point.  The store lands in the struct's next member, so a kernel
 * without the check is not damaged.
 */
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/kernel.h>

#include "../provoke_crash.h"

struct pc_bounds {
	int array[4];
	int next;	/* not a trailing array: the bound is enforced */
};

/*
 * UBSAN reports each place in the source once per boot: four stores,
 * taken in turn, are reported for the first four runs.
 */
#define PC_BOUNDS_SITES	4

int pc_crash_array_bounds(void)
{
	static atomic_t runs = ATOMIC_INIT(0);
	struct pc_bounds b = { };
	int index = ARRAY_SIZE(b.array);

	if (!IS_ENABLED(CONFIG_UBSAN_BOUNDS)) {
		pc_expected_config("array_bounds", "CONFIG_UBSAN_BOUNDS", false);
		return -EOPNOTSUPP;
	}
	OPTIMIZER_HIDE_VAR(index);
	switch (atomic_inc_return(&runs) - 1) {
	case 0:
		b.array[index] = 0x78;
		break;
	case 1:
		b.array[index] = 0x78;
		break;
	case 2:
		b.array[index] = 0x78;
		break;
	case 3:
		b.array[index] = 0x78;
		break;
	default:
		pr_err("array_bounds: UBSAN has reported each of its %d stores once this boot: no report is left\n",
		       PC_BOUNDS_SITES);
		return -EAGAIN;
	}
	pr_info("array_bounds: index %d stored past the array, as UBSAN reports\n",
		index);
	return 0;
}
