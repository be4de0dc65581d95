// SPDX-License-Identifier: GPL-2.0
/*
 * refcount_t misuse: each wrong move must leave the counter saturated
 * (REFCOUNT_SATURATED, so the object leaks instead of being freed while
 * in use) and print the matching "refcount_t:" warning.
 */
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/refcount.h>

#include "../provoke_crash.h"

/* Say whether the counter ended saturated, as it must. */
static int pc_refcount_check(const char *name, refcount_t *ref)
{
	unsigned int now = refcount_read(ref);

	if (now == REFCOUNT_SATURATED)
		pr_info("%s: saturated at %#x\n", name, now);
	else
		pr_err("FAIL: %s: the counter reads %#x, not saturated: refcount_t does not protect\n",
		       name, now);
	return 0;
}

int pc_crash_refcount_inc_overflow(void)
{
	refcount_t ref = REFCOUNT_INIT(INT_MAX);

	refcount_inc(&ref);
	return pc_refcount_check("refcount_inc_overflow", &ref);
}

int pc_crash_refcount_add_overflow(void)
{
	refcount_t ref = REFCOUNT_INIT(INT_MAX - 1);

	refcount_add(4, &ref);
	return pc_refcount_check("refcount_add_overflow", &ref);
}

int pc_crash_refcount_dec_zero(void)
{
	refcount_t ref = REFCOUNT_INIT(1);

	/* Dropping the last reference without testing leaks the object. */
	refcount_dec(&ref);
	return pc_refcount_check("refcount_dec_zero", &ref);
}

int pc_crash_refcount_dec_negative(void)
{
	refcount_t ref = REFCOUNT_INIT(0);

	if (refcount_dec_and_test(&ref))
		pr_err("refcount_dec_negative: a dead counter said 'free it' again\n");
	return pc_refcount_check("refcount_dec_negative", &ref);
}

int pc_crash_refcount_inc_zero(void)
{
	refcount_t ref = REFCOUNT_INIT(0);

	refcount_inc(&ref);
	return pc_refcount_check("refcount_inc_zero", &ref);
}
