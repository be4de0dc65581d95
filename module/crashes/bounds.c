// SPDX-License-Identifier: GPL-2.0
/*
 * Array bounds: an index one past a fixed-size array, which the
 * compiler's bounds sanitizer (CONFIG_UBSAN_BOUNDS) checks at run time.
 * This file alone of the crash routines is built with UBSAN: the check is
 * the point.  The store lands in the struct's next member, so a kernel
 * without the check is not damaged.
 */
#include <linux/compiler.h>
#include <linux/kernel.h>

#include "../provoke_crash.h"

struct pc_bounds {
	int array[4];
	int next;	/* not a trailing array: the bound is enforced */
};

int pc_crash_array_bounds(void)
{
	struct pc_bounds b = { };
	int index = ARRAY_SIZE(b.array);

	OPTIMIZER_HIDE_VAR(index);
	b.array[index] = 0x78;
	if (!IS_ENABLED(CONFIG_UBSAN_BOUNDS)) {
		pc_expected_config("array_bounds", "CONFIG_UBSAN_BOUNDS", false);
		return -EOPNOTSUPP;
	}
	pr_info("array_bounds: index %d stored into the next member (0x%x), as UBSAN reports\n",
		index, READ_ONCE(b.next));
	return 0;
}
