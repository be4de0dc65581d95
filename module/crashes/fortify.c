// SPDX-License-Identifier: GPL-2.0
/*
 * CONFIG_FORTIFY_SOURCE: string and memory functions that know the size
 * of their destination (__builtin_object_size) check it at run time.
 * Each routine copies more than its destination holds, with a length or
 * a source the compiler cannot see (so that the build does not refuse
 * it), and the check must stop the copy: fortify_panic() and a BUG for a
 * whole object or a string, a field-spanning warning for memcpy() across
 * a member.
 *
 * Nothing is copied where no check would run: without FORTIFY_SOURCE the
 * routine says XFAIL; where the compiler does not know the destination's
 * size it refuses.  So the overrun itself never happens.
 */
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "../provoke_crash.h"

/* Two members: a copy can overrun the first and stay inside the struct. */
struct pc_fortify_pair {
	char first[8];
	char second[8];
};

/* Longer than any destination here, so that strings run past them. */
static const char pc_fortify_src[32] = "provoke-crash overruns its copy";

/* The length the copy asks for, out of the compiler's sight. */
static size_t pc_fortify_len(size_t len)
{
	OPTIMIZER_HIDE_VAR(len);
	return len;
}

/* 0 if the fortified copy would be checked; else says why not. */
static int pc_fortify_ready(const char *name, size_t known, size_t size)
{
	if (!IS_ENABLED(CONFIG_FORTIFY_SOURCE)) {
		pc_expected_config(name, "CONFIG_FORTIFY_SOURCE", false);
		return -EOPNOTSUPP;
	}
	if (known != size) {
		pr_err("%s: the compiler does not know the destination's %zu bytes: nothing to check\n",
		       name, size);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* Reached only when the check let the copy through. */
static int pc_fortify_survived(const char *name, const char *dst)
{
	pr_err("FAIL: %s: the copy went through (\"%.4s...\"): FORTIFY_SOURCE did not stop it\n",
	       name, dst);
	return 0;
}

/* The source string, out of the compiler's sight: checked at run time. */
static const char *pc_fortify_str(void)
{
	const char *src = pc_fortify_src;

	OPTIMIZER_HIDE_VAR(src);
	return src;
}

/*
 * strcat() checks with strlcat() bounded by the destination's size, and
 * panics when the result would not fit: nothing is written past it.
 */
int pc_crash_fortify_str_object(void)
{
	char dst[16] = "";
	int ret;

	ret = pc_fortify_ready("fortify_str_object", __builtin_object_size(dst, 1),
			       sizeof(dst));
	if (ret)
		return ret;
	strcat(dst, pc_fortify_str());
	return pc_fortify_survived("fortify_str_object", dst);
}

int pc_crash_fortify_str_member(void)
{
	struct pc_fortify_pair pair = { };
	int ret;

	ret = pc_fortify_ready("fortify_str_member",
			       __builtin_object_size(pair.first, 1),
			       sizeof(pair.first));
	if (ret)
		return ret;
	strcat(pair.first, pc_fortify_str());
	return pc_fortify_survived("fortify_str_member", pair.first);
}

int pc_crash_fortify_mem_object(void)
{
	char dst[16];
	int ret;

	ret = pc_fortify_ready("fortify_mem_object", __builtin_object_size(dst, 0),
			       sizeof(dst));
	if (ret)
		return ret;
	memcpy(dst, pc_fortify_src, pc_fortify_len(sizeof(dst) + 8));
	return pc_fortify_survived("fortify_mem_object", dst);
}

/*
 * The field-spanning warning is a WARN_ONCE of each inlined memcpy(), in
 * the module's own once-section, which clear_warn_once does not reset:
 * four call sites, taken in turn, warn for the first four runs of a boot.
 */
#define PC_SPAN_SITES	4

int pc_crash_fortify_mem_member(void)
{
	static atomic_t runs = ATOMIC_INIT(0);
	struct pc_fortify_pair pair = { };
	size_t len = pc_fortify_len(12);	/* past first, inside the struct */
	int ret, run;

	ret = pc_fortify_ready("fortify_mem_member",
			       __builtin_object_size(pair.first, 1),
			       sizeof(pair.first));
	if (ret)
		return ret;
	run = atomic_inc_return(&runs) - 1;
	switch (run) {
	case 0:
		memcpy(pair.first, pc_fortify_src, len);
		break;
	case 1:
		memcpy(pair.first, pc_fortify_src, len);
		break;
	case 2:
		memcpy(pair.first, pc_fortify_src, len);
		break;
	case 3:
		memcpy(pair.first, pc_fortify_src, len);
		break;
	default:
		pr_err("fortify_mem_member: its %d call sites have each warned once this boot (WARN_ONCE): no warning is left\n",
		       PC_SPAN_SITES);
		return -EAGAIN;
	}
	pr_info("fortify_mem_member: the copy spanned into the next member (\"%.4s\"), as the warning says\n",
		pair.second);
	return 0;
}

int pc_crash_fortify_strscpy(void)
{
	char dst[8];
	ssize_t len;
	int ret;

	ret = pc_fortify_ready("fortify_strscpy", __builtin_object_size(dst, 1),
			       sizeof(dst));
	if (ret)
		return ret;
	/* The size says 16 where dst holds 8, and the string is longer. */
	len = strscpy(dst, pc_fortify_src, pc_fortify_len(sizeof(dst) * 2));
	pr_err("FAIL: fortify_strscpy: strscpy() returned %zd: FORTIFY_SOURCE did not stop it\n",
	       len);
	return 0;
}
