// SPDX-License-Identifier: GPL-2.0
/*
 * refcount_t at REFCOUNT_SATURATED: once a counter has saturated, every
 * operation must leave it there (the object leaks for good), and warn.
 */
#include <linux/kernel.h>
#include <linux/refcount.h>

#include "../provoke_crash.h"
#include "refcount.h"

int pc_crash_refcount_inc_saturated(void)
{
	refcount_t ref = REFCOUNT_INIT(REFCOUNT_SATURATED);

	refcount_inc(&ref);
	return pc_refcount_check("refcount_inc_saturated", &ref,
				 PC_REFCOUNT_SATURATED);
}

int pc_crash_refcount_dec_saturated(void)
{
	refcount_t ref = REFCOUNT_INIT(REFCOUNT_SATURATED);

	refcount_dec(&ref);
	return pc_refcount_check("refcount_dec_saturated", &ref,
				 PC_REFCOUNT_SATURATED);
}

int pc_crash_refcount_add_saturated(void)
{
	refcount_t ref = REFCOUNT_INIT(REFCOUNT_SATURATED);

	refcount_add(8, &ref);
	return pc_refcount_check("refcount_add_saturated", &ref,
				 PC_REFCOUNT_SATURATED);
}

int pc_crash_refcount_inc_not_zero_saturated(void)
{
	refcount_t ref = REFCOUNT_INIT(REFCOUNT_SATURATED);

	if (!refcount_inc_not_zero(&ref))
		pr_err("refcount_inc_not_zero_saturated: a saturated counter was taken for zero\n");
	return pc_refcount_check("refcount_inc_not_zero_saturated", &ref,
				 PC_REFCOUNT_SATURATED);
}

int pc_crash_refcount_add_not_zero_saturated(void)
{
	refcount_t ref = REFCOUNT_INIT(REFCOUNT_SATURATED);

	if (!refcount_add_not_zero(8, &ref))
		pr_err("refcount_add_not_zero_saturated: a saturated counter was taken for zero\n");
	return pc_refcount_check("refcount_add_not_zero_saturated", &ref,
				 PC_REFCOUNT_SATURATED);
}

int pc_crash_refcount_dec_and_test_saturated(void)
{
	refcount_t ref = REFCOUNT_INIT(REFCOUNT_SATURATED);

	if (refcount_dec_and_test(&ref))
		pr_err("refcount_dec_and_test_saturated: a saturated counter said 'free it'\n");
	return pc_refcount_check("refcount_dec_and_test_saturated", &ref,
				 PC_REFCOUNT_SATURATED);
}

int pc_crash_refcount_sub_and_test_saturated(void)
{
	refcount_t ref = REFCOUNT_INIT(REFCOUNT_SATURATED);

	if (refcount_sub_and_test(8, &ref))
		pr_err("refcount_sub_and_test_saturated: a saturated counter said 'free it'\n");
	return pc_refcount_check("refcount_sub_and_test_saturated", &ref,
				 PC_REFCOUNT_SATURATED);
}
