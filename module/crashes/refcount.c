// SPDX-License-Identifier: GPL-2.0
/*
 * refcount_t misuse: each wrong move must leave the counter saturated
 * (REFCOUNT_SATURATED, so the object leaks instead of being freed while
 * in use) and print the matching "refcount_t:" warning.  The verdict line
 * carries LKDTM's words for it, so that LKDTM's selftest reads it too.
 * And two timings, refcount_t against atomic_t, where nothing goes wrong.
 */
#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
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

/*
 * Subtracting nothing from a dead counter.  6.12 warns of a use after
 * free and saturates it; 6.1's refcount_sub_and_test() takes old == 0
 * for the last reference going and says "free it", silently (6.12's
 * __refcount_sub_and_test() frees only from old > 0).
 */
int pc_crash_refcount_sub_and_test_zero(void)
{
	refcount_t ref = REFCOUNT_INIT(0);
	bool freed = refcount_sub_and_test(0, &ref);

	if (refcount_read(&ref) == 0 && freed) {
		pr_info("XFAIL: refcount_sub_and_test_zero: this kernel takes 0 - 0 at zero for the last reference, and warns of nothing\n");
		return -EOPNOTSUPP;
	}
	pc_refcount_no_free("refcount_sub_and_test_zero", freed);
	return pc_refcount_check("refcount_sub_and_test_zero", &ref,
				 PC_REFCOUNT_NEGATIVE);
}

/*
 * The timing types go up and down this many times: LKDTM's INT_MAX would
 * take minutes under QEMU's emulation; this is about a millisecond on
 * real hardware.
 */
#define PC_TIMING_OPS	(1024U * 1024U)

static void pc_timing_done(const char *what, u64 start, unsigned int left)
{
	u64 ns = ktime_get_ns() - start;

	/* The last decrement must be the one that reaches zero. */
	if (left)
		pr_err("FAIL: %s: out of sync up/down cycle: %u left\n",
		       what, left);
	else
		pr_info("%s: done: %u ops in %llu ns\n", what,
			2 * PC_TIMING_OPS - 1, ns);
}

int pc_crash_refcount_timing(void)
{
	refcount_t count = REFCOUNT_INIT(1);
	unsigned int i;
	u64 start;

	start = ktime_get_ns();
	for (i = 1; i < PC_TIMING_OPS; i++)
		refcount_inc(&count);
	for (i = PC_TIMING_OPS; i > 0; i--)
		if (refcount_dec_and_test(&count))
			break;
	pc_timing_done("refcount timing", start, i - 1);
	return 0;
}

int pc_crash_atomic_timing(void)
{
	atomic_t count = ATOMIC_INIT(1);
	unsigned int i;
	u64 start;

	start = ktime_get_ns();
	for (i = 1; i < PC_TIMING_OPS; i++)
		atomic_inc(&count);
	for (i = PC_TIMING_OPS; i > 0; i--)
		if (atomic_dec_and_test(&count))
			break;
	pc_timing_done("atomic timing", start, i - 1);
	return 0;
}
