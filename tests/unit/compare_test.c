// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the argN and retval conditions (module/parse_compare.c)
 * and the caller conditions (module/parse_caller.c): what each form
 * parses to and lists as, each refusal and its column, and what each
 * operator decides, run in user space under ASan and UBSan.
 */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "provoke_crash_parse.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct compare_case {
	const char *name;
	const char *line;
	int err;
	size_t pos;		/* column of the error */
	const char *opts;	/* on success: the conditions, as listed */
	const char *why;	/* on error: the reason, if given */
};

static const struct compare_case cases[] = {
	{ "arg_gt", "vfs_read report arg3>4096", 0, 0, " arg3>4096" },
	{ "arg_and_hex", "vfs_read report arg2&0x40", 0, 0, " arg2&0x40" },
	{ "arg_ne_zero", "vfs_read report arg1!=0", 0, 0, " arg1!=0" },
	{ "arg_each_op",
	  "f report arg1=1 arg2!=2 arg3<3 arg4<=4 arg5>5 arg6>=6 arg1&7", 0,
	  0, " arg1=1 arg2!=2 arg3<3 arg4<=4 arg5>5 arg6>=6 arg1&7" },
	{ "arg_negative", "f report arg1>=-1", 0, 0, " arg1>=-1" },
	{ "arg_long_min", "f report arg1>-9223372036854775808", 0, 0,
	  " arg1>-9223372036854775808" },
	{ "arg_ulong_max", "f report arg1=18446744073709551615", 0, 0,
	  " arg1=18446744073709551615" },
	{ "arg_hex_max", "f report arg4&0xFFFFFFFFFFFFFFFF", 0, 0,
	  " arg4&0xffffffffffffffff" },
	{ "arg_minus_zero", "f report arg1=-0", 0, 0, " arg1=0" },
	{ "arg_after_options", "f report times=-1 arg3>4096 pid=7", 0, 0,
	  " times=-1 pid=7 arg3>4096" },
	{ "arg_at_plus_zero", "f+0 report arg1=1", 0, 0, " arg1=1" },
	{ "retval_errno", "f%return report retval=-EIO", 0, 0,
	  " retval=-EIO" },
	{ "retval_negative", "f%return panic retval<0", 0, 0, " retval<0" },
	{ "retval_kernel_errno", "f%return report retval!=-ERESTARTSYS", 0, 0,
	  " retval!=-ERESTARTSYS" },
	{ "retval_two", "f%return report retval>=-4095 retval<0", 0, 0,
	  " retval>=-4095 retval<0" },
	{ "eight_compares",
	  "f report arg1=1 arg1=1 arg1=1 arg1=1 arg1=1 arg1=1 arg1=1 arg1=1",
	  0, 0, " arg1=1 arg1=1 arg1=1 arg1=1 arg1=1 arg1=1 arg1=1 arg1=1" },
	{ "width_s32", "f report arg2:s32<0", 0, 0, " arg2:s32<0" },
	{ "width_each",
	  "f report arg1:s8=-1 arg2:u8=255 arg3:s16<0 arg4:u16>1 arg5:u32&0x80000000 arg6:s64>=-1",
	  0, 0,
	  " arg1:s8=-1 arg2:u8=255 arg3:s16<0 arg4:u16>1 arg5:u32&0x80000000 arg6:s64>=-1" },
	{ "width_hex_pattern", "f report arg1:s32=0xffffffff", 0, 0,
	  " arg1:s32=0xffffffff" },
	{ "width_s8_min", "f report arg1:s8>=-128", 0, 0, " arg1:s8>=-128" },
	{ "width_retval_errno", "f%return report retval:s32=-EIO", 0, 0,
	  " retval:s32=-EIO" },
	{ "width_retval_u64", "f%return report retval:u64>4096", 0, 0,
	  " retval:u64>4096" },
	/* Refusals, each at its column. */
	{ "width_unknown", "f report arg1:i32=1", -EINVAL, 14, NULL,
	  "unknown width" },
	{ "width_empty", "f report arg1:=1", -EINVAL, 14, NULL,
	  "unknown width" },
	{ "width_longer", "f report arg1:s322=1", -EINVAL, 14, NULL,
	  "unknown width" },
	{ "width_u8_range", "f report arg1:u8=256", -ERANGE, 17, NULL,
	  "value out of range for its width" },
	{ "width_s8_range", "f report arg1:s8=128", -ERANGE, 17, NULL,
	  "value out of range for its width" },
	{ "width_s8_below", "f report arg1:s8>-129", -ERANGE, 17, NULL,
	  "value out of range for its width" },
	{ "width_unsigned_negative", "f report arg1:u32=-1", -ERANGE, 18, NULL,
	  "value out of range for its width" },
	{ "width_hex_too_wide", "f report arg1:s16&0x10000", -ERANGE, 18,
	  NULL, "value out of range for its width" },
	{ "width_s64_dec_above", "f report arg1:s64=18446744073709551615",
	  -ERANGE, 18, NULL, "value out of range for its width" },
	{ "width_retval_u32_errno", "f%return report retval:u32=-EIO",
	  -ERANGE, 27, NULL, "value out of range for its width" },
	{ "width_bad_key", "f report argx:s32=1", -EINVAL, 9, NULL,
	  "unknown option" },
	{ "width_retval_suffix", "f%return report retvalx=1", -EINVAL, 16,
	  NULL, "unknown option" },
	{ "arg_at_offset", "f+4 report arg1=1", -EINVAL, 11, NULL,
	  "argN is known at a function's entry only: not at +OFFSET or %return" },
	{ "arg_at_return", "f%return report arg1=1", -EINVAL, 16, NULL,
	  "argN is known at a function's entry only: not at +OFFSET or %return" },
	{ "retval_at_entry", "f report retval=0", -EINVAL, 9, NULL,
	  "retval is known at SYMBOL%return only" },
	{ "retval_at_offset", "f+0x10 report retval=0", -EINVAL, 14, NULL,
	  "retval is known at SYMBOL%return only" },
	{ "nine_compares",
	  "f report arg1=1 arg1=1 arg1=1 arg1=1 arg1=1 arg1=1 arg1=1 arg1=1 arg2=2",
	  -EINVAL, 65, NULL, "at most 8 argN and retval conditions" },
	{ "arg0", "f report arg0=1", -EINVAL, 9, NULL, "unknown option" },
	{ "arg7", "f report arg7=1", -EINVAL, 9, NULL, "unknown option" },
	{ "arg10", "f report arg10=1", -EINVAL, 9, NULL, "unknown option" },
	{ "arg_missing_value", "f report arg1>", -EINVAL, 14, NULL,
	  "missing value" },
	{ "arg_bad_digit", "f report arg1>40x", -EINVAL, 16, NULL,
	  "bad digit in value" },
	{ "arg_double_op", "f report arg1==1", -EINVAL, 14, NULL,
	  "bad digit in value" },
	{ "arg_unknown_op", "f report arg1!1", -EINVAL, 13, NULL,
	  "unknown operator" },
	{ "arg_bare_0x", "f report arg1=0x", -EINVAL, 14, NULL,
	  "missing value" },
	{ "arg_hex_overflow", "f report arg1=0x10000000000000000", -ERANGE, 14,
	  NULL, "value out of range (64 bits)" },
	{ "arg_dec_overflow", "f report arg1=18446744073709551616", -ERANGE,
	  14, NULL, "value out of range (64 bits)" },
	{ "arg_neg_overflow", "f report arg1=-9223372036854775809", -ERANGE,
	  14, NULL, "value out of range (64 bits)" },
	{ "arg_errno_name", "f report arg1=-EIO", -EINVAL, 15, NULL,
	  "bad digit in value" },
	{ "retval_unknown_errno", "f%return report retval=-EFOO", -EINVAL, 23,
	  NULL, "unknown errno name" },
	{ "retval_errno_prefix", "f%return report retval=-EI", -EINVAL, 23,
	  NULL, "unknown errno name" },
	{ "retval_errno_unsigned", "f%return report retval=EIO", -EINVAL, 23,
	  NULL, "bad digit in value" },
	{ "pid_takes_eq_only", "f report pid!=5", -EINVAL, 9, NULL,
	  "this key takes only '='" },
	{ "times_takes_eq_only", "f report times>1", -EINVAL, 9, NULL,
	  "this key takes only '='" },
	{ "comm_takes_eq_only", "f report comm&sh", -EINVAL, 9, NULL,
	  "this key takes only '='" },
	{ "no_operator", "f report arg1", -EINVAL, 9, NULL,
	  "expected KEY=VALUE or KEY OP VALUE" },
	/* caller= and caller!=, at any place, listed as written. */
	{ "caller_eq", "vfs_read report caller=ksys_read", 0, 0,
	  " caller=ksys_read" },
	{ "caller_ne", "vfs_read report caller!=ksys_read", 0, 0,
	  " caller!=ksys_read" },
	{ "caller_module", "f report caller=ext4:ext4_file_read_iter", 0, 0,
	  " caller=ext4:ext4_file_read_iter" },
	{ "caller_dotted", "f report caller=foo.isra.0", 0, 0,
	  " caller=foo.isra.0" },
	{ "caller_four", "f report caller=a caller!=b caller=c caller!=d", 0,
	  0, " caller=a caller!=b caller=c caller!=d" },
	{ "caller_at_offset", "f+4 report caller=g", 0, 0, " caller=g" },
	{ "caller_at_return", "f%return report caller=g retval<0", 0, 0,
	  " retval<0 caller=g" },
	{ "caller_last_in_listing", "f report caller=g pid=7 arg1=1", 0, 0,
	  " pid=7 arg1=1 caller=g" },
	{ "caller_five", "f report caller=a caller=b caller=c caller=d caller=e",
	  -EINVAL, 45, NULL, "at most 4 caller conditions" },
	{ "caller_lt", "f report caller<g", -EINVAL, 15, NULL,
	  "caller takes only = or !=" },
	{ "caller_le", "f report caller<=g", -EINVAL, 15, NULL,
	  "caller takes only = or !=" },
	{ "caller_ge", "f report caller>=g", -EINVAL, 15, NULL,
	  "caller takes only = or !=" },
	{ "caller_and", "f report caller&g", -EINVAL, 15, NULL,
	  "caller takes only = or !=" },
	{ "caller_bang", "f report caller!g", -EINVAL, 15, NULL,
	  "caller takes only = or !=" },
	{ "caller_empty", "f report caller=", -EINVAL, 16, NULL,
	  "expected a symbol name" },
	{ "caller_double_eq", "f report caller==g", -EINVAL, 16, NULL,
	  "expected a symbol name" },
	{ "caller_offset", "f report caller=g+4", -EINVAL, 17, NULL,
	  "caller takes a function's name only: no offset, no %return" },
	{ "caller_return", "f report caller!=g%return", -EINVAL, 18, NULL,
	  "caller takes a function's name only: no offset, no %return" },
	{ "caller_bad_char", "f report caller=g-h", -EINVAL, 17, NULL,
	  "caller takes a function's name only: no offset, no %return" },
	{ "caller_two_colons", "f report caller=a:b:c", -EINVAL, 19, NULL,
	  "one ':' at most (MODULE:SYMBOL)" },
	{ "caller_no_module", "f report caller=:g", -EINVAL, 16, NULL,
	  "expected a module name before ':'" },
	{ "caller_no_symbol", "f report caller=m:", -EINVAL, 18, NULL,
	  "expected a symbol name after ':'" },
	{ "caller_bad_module", "f report caller=m.x:g", -EINVAL, 17, NULL,
	  "bad character in module name" },
	{ "caller_suffix", "f report callers=g", -EINVAL, 9, NULL,
	  "unknown option" },
	{ "caller_prefix", "f report call=g", -EINVAL, 9, NULL,
	  "unknown option" },
	{ "caller_width", "f report caller:s32=g", -EINVAL, 9, NULL,
	  "unknown option" },
};

static char why_buf[512];

static int check(const struct compare_case *c, char *why, size_t whylen)
{
	struct pc_parse_error error = { 0 };
	struct pc_line out;
	char opts[512];
	size_t used;
	int ret;

	memset(&out, 0x5a, sizeof(out));
	ret = pc_parse_line(c->line, strlen(c->line), &out, &error);
	if (ret != c->err) {
		snprintf(why, whylen, "returned %d, expected %d (%s)", ret,
			 c->err, ret ? error.why : "no error");
		return 0;
	}
	if (ret) {
		if (error.pos != c->pos || !error.why ||
		    (c->why && strcmp(error.why, c->why))) {
			snprintf(why, whylen, "error at column %zu (%s)",
				 error.pos, error.why);
			return 0;
		}
		return 1;
	}
	used = pc_conditions_format(&out.cond, opts, sizeof(opts));
	pc_callers_format(&out, opts, sizeof(opts), &used);
	if (strcmp(opts, c->opts) ||
	    !(out.cond.given & PC_OPT_CALLER) != !out.ncaller) {
		snprintf(why, whylen, "options '%.200s'", opts);
		return 0;
	}
	return 1;
}

/* What one parsed condition decides about @v. */
static int holds(const char *line, unsigned long v)
{
	struct pc_parse_error error;
	struct pc_line out;

	if (pc_parse_line(line, strlen(line), &out, &error) ||
	    out.cond.ncompare != 1)
		return -1;
	return pc_compare_holds(&out.cond.compare[0], v);
}

static const struct {
	const char *line;
	unsigned long v;
	int holds;
} decide_cases[] = {
	{ "f report arg3>4096", 4097, 1 },
	{ "f report arg3>4096", 4096, 0 },
	/* < <= > >= are signed: -1 is not above 4096. */
	{ "f report arg3>4096", ~0UL, 0 },
	{ "f report arg1<0", ~0UL, 1 },
	{ "f report arg1<=-2", ~0UL, 0 },
	{ "f report arg1>=-2", ~0UL, 1 },
	/* = != & are unsigned: -1 is all bits set. */
	{ "f report arg1=-1", ~0UL, 1 },
	{ "f report arg1=0xffffffffffffffff", ~0UL, 1 },
	{ "f report arg1!=0", 0, 0 },
	{ "f report arg1!=0", 1, 1 },
	{ "f report arg2&0x40", 0x41, 1 },
	{ "f report arg2&0x41", 0x40, 0 },
	{ "f report arg2&0", 0, 1 },
	{ "f%return report retval=-EIO", 0UL - 5, 1 },
	{ "f%return report retval=-EIO", 5, 0 },
	{ "f%return report retval<0", 0UL - 1, 1 },
	{ "f%return report retval<0", 0, 0 },
	/* No width: all 64 bits, as the module never compares. */
	{ "f%return report retval<0", 0xfffffffbUL, 0 },
	/* A width: only its bits, whatever the register holds above. */
	{ "f report arg2:s32<0", 0xffffffffUL, 1 },
	{ "f report arg2:s32<0", 0x12345678ffffffffUL, 1 },
	{ "f report arg2:s32<0", 0xffffffff00000001UL, 0 },
	{ "f%return report retval:s32=-EIO", 0xfffffffbUL, 1 },
	{ "f%return report retval:s32=-EIO", 0xdeadbeeffffffffbUL, 1 },
	{ "f%return report retval:s32=-EIO", 0UL - 5, 1 },
	{ "f%return report retval:s64=-EIO", 0xfffffffbUL, 0 },
	/* Unsigned widths order as unsigned: -1 is above 4096. */
	{ "f report arg3:u64>4096", ~0UL, 1 },
	{ "f report arg3:u32>4096", 0xffffffff00000001UL, 0 },
	{ "f report arg1:u8=255", 0x1ffUL, 1 },
	{ "f report arg1:s8<0", 0x80UL, 1 },
	{ "f report arg1:s16>=-1", 0x7fffUL, 1 },
	{ "f report arg1:s32=0xffffffff", ~0UL, 1 },
	{ "f report arg5:u32&0x80000000", 0x180000000UL, 1 },
	{ "f report arg5:u32&0x80000000", 0x100000000UL, 0 },
};

/*
 * A width set after parsing, as the module sets one it read from BTF:
 * its own range, and then only its bits count.
 */
static int test_set_width(void)
{
	struct pc_parse_error error;
	struct pc_line out;
	struct pc_compare *c = &out.cond.compare[0];
	const char *line = "f%return report retval=-EIO";

	if (pc_parse_line(line, strlen(line), &out, &error))
		return 0;
	if (c->width || c->width_given ||
	    pc_compare_set_width(c, 32) != -ERANGE || c->width ||
	    pc_compare_set_width(c, 32 | PC_WIDTH_SIGNED) ||
	    !pc_compare_holds(c, 0xfffffffbUL))
		return 0;
	line = "f report arg3>4096";
	if (pc_parse_line(line, strlen(line), &out, &error) ||
	    pc_compare_holds(c, ~0UL) || pc_compare_set_width(c, 64) ||
	    !pc_compare_holds(c, ~0UL))
		return 0;
	/* The listing shows the condition as written, not the width. */
	pc_conditions_format(&out.cond, why_buf, sizeof(why_buf));
	return !strcmp(why_buf, " arg3>4096");
}

int main(void)
{
	size_t n = ARRAY_SIZE(cases), d = ARRAY_SIZE(decide_cases), i;
	int failed = 0, ok;
	char why[320];

	printf("KTAP version 1\n1..%zu\n", n + d + 2);
	for (i = 0; i < n; i++) {
		why[0] = '\0';
		ok = check(&cases[i], why, sizeof(why));
		printf("%sok %zu compare_%s\n", ok ? "" : "not ", i + 1,
		       cases[i].name);
		if (!ok)
			printf("# %s\n", why);
		failed += !ok;
	}
	for (i = 0; i < d; i++) {
		ok = holds(decide_cases[i].line, decide_cases[i].v) ==
		     decide_cases[i].holds;
		printf("%sok %zu compare_decide_%zu\n", ok ? "" : "not ",
		       n + i + 1, i + 1);
		if (!ok)
			printf("# '%s' on %#lx\n", decide_cases[i].line,
			       decide_cases[i].v);
		failed += !ok;
	}
	ok = test_set_width();
	printf("%sok %zu compare_set_width\n", ok ? "" : "not ", n + d + 1);
	failed += !ok;
	ok = pc_errno_name(0) && !pc_errno_name(255);
	printf("%sok %zu compare_errno_names\n", ok ? "" : "not ", n + d + 2);
	failed += !ok;
	printf("# compare tests done\n");
	return failed ? 1 : 0;
}
