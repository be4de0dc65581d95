// SPDX-License-Identifier: GPL-2.0
/*
 * refcount_t misuse: each wrong move must leave the counter saturated
 * (REFCOUNT_SATURATED, so the object leaks instead of being freed while
 * in use) and print the matching "refcount_t:" warning.  The verdict line
 * carries LKDTM's words for it, so that LKDTM's selftest reads it too.
 */
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/refcount.h>

#include "../provoke_crash.h"
#include "refcount.h"

int pc_refcount_check(const char *name, refcount_t *ref, const char *verdict)
{
	unsigned int now = refcount_read(ref);

	if (now == REFCOUNT_SATURATED)
		pr_info("%s: saturated at %#x: %s\n", name, now, verdict);
	else
		pr_err("FAIL: %s: the counter reads %#x, not saturated: refcount_t does not protect\n",
		       name, now);
	return 0;
}

/* The "*_and_test() said free it" slip, which must not happen here. */
static void pc_refcount_no_free(const char *name, bool freed)
{
	if (freed)
		pr_err("%s: a dead counter said 'free it' again\n", name);
}

int pc_crash_refcount_inc_overflow(void)
{
	refcount_t ref = REFCOUNT_INIT(INT_MAX);

	refcount_inc(&ref);
	return pc_refcount_check("refcount_inc_overflow", &ref,
				 PC_REFCOUNT_OVERFLOW);
}

int pc_crash_refcount_add_overflow(void)
{
	refcount_t ref = REFCOUNT_INIT(INT_MAX - 1);

	refcount_add(4, &ref);
	return pc_refcount_check("refcount_add_overflow", &ref,
				 PC_REFCOUNT_OVERFLOW);
}

int pc_crash_refcount_inc_not_zero_overflow(void)
{
	refcount_t ref = REFCOUNT_INIT(INT_MAX);

	if (!refcount_inc_not_zero(&ref))
		pr_err("refcount_inc_not_zero_overflow: INT_MAX was taken for zero\n");
	return pc_refcount_check("refcount_inc_not_zero_overflow", &ref,
				 PC_REFCOUNT_OVERFLOW);
}

int pc_crash_refcount_add_not_zero_overflow(void)
{
	refcount_t ref = REFCOUNT_INIT(INT_MAX - 1);

	if (!refcount_add_not_zero(4, &ref))
		pr_err("refcount_add_not_zero_overflow: INT_MAX - 1 was taken for zero\n");
	return pc_refcount_check("refcount_add_not_zero_overflow", &ref,
				 PC_REFCOUNT_OVERFLOW);
}

int pc_crash_refcount_dec_zero(void)
{
	refcount_t ref = REFCOUNT_INIT(1);

	/* Dropping the last reference without testing leaks the object. */
	refcount_dec(&ref);
	return pc_refcount_check("refcount_dec_zero", &ref, PC_REFCOUNT_ZERO);
}

int pc_crash_refcount_dec_negative(void)
{
	refcount_t ref = REFCOUNT_INIT(0);

	refcount_dec(&ref);
	return pc_refcount_check("refcount_dec_negative", &ref,
				 PC_REFCOUNT_NEGATIVE);
}

int pc_crash_refcount_dec_and_test_negative(void)
{
	refcount_t ref = REFCOUNT_INIT(0);

	pc_refcount_no_free("refcount_dec_and_test_negative",
			    refcount_dec_and_test(&ref));
	return pc_refcount_check("refcount_dec_and_test_negative", &ref,
				 PC_REFCOUNT_NEGATIVE);
}

int pc_crash_refcount_sub_and_test_negative(void)
{
	refcount_t ref = REFCOUNT_INIT(1);

	pc_refcount_no_free("refcount_sub_and_test_negative",
			    refcount_sub_and_test(3, &ref));
	return pc_refcount_check("refcount_sub_and_test_negative", &ref,
				 PC_REFCOUNT_NEGATIVE);
}

int pc_crash_refcount_inc_zero(void)
{
	refcount_t ref = REFCOUNT_INIT(0);

	refcount_inc(&ref);
	return pc_refcount_check("refcount_inc_zero", &ref, PC_REFCOUNT_ZERO);
}

int pc_crash_refcount_add_zero(void)
{
	refcount_t ref = REFCOUNT_INIT(0);

	refcount_add(3, &ref);
	return pc_refcount_check("refcount_add_zero", &ref, PC_REFCOUNT_ZERO);
}
