// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the control-line parser (module/parse.c), run in user
 * space under ASan and UBSan.  One table row per line: the input, the
 * errno expected (0 for success) and, on success, what it must mean.
 */
#include <stdio.h>
#include <string.h>

#include "provoke_crash_parse.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct parse_case {
	const char *name;
	const char *line;
	size_t len;		/* 0: strlen(line) */
	int err;
	enum pc_op op;
	const char *symbol;
	unsigned long offset;
	const char *type;
	size_t pos;		/* column of the error */
	const char *opts;	/* pc_conditions_format() of the result */
	int on_return;
};

static const struct parse_case cases[] = {
	{ "arm", "__x64_sys_getppid bugon", 0, 0, PC_OP_ARM,
	  "__x64_sys_getppid", 0, "bugon", 0 },
	{ "arm_blanks", " \tvfs_read\t panic  ", 0, 0, PC_OP_ARM,
	  "vfs_read", 0, "panic", 0 },
	{ "arm_decimal_offset", "vfs_read+12 null_dereference", 0, 0,
	  PC_OP_ARM, "vfs_read", 12, "null_dereference", 0 },
	{ "arm_hex_offset", "vfs_read+0x1F corrupt_stack", 0, 0, PC_OP_ARM,
	  "vfs_read", 0x1f, "corrupt_stack", 0 },
	{ "arm_dotted_symbol", "foo.isra.0 bugon", 0, 0, PC_OP_ARM,
	  "foo.isra.0", 0, "bugon", 0 },
	{ "disarm", "!vfs_read", 0, 0, PC_OP_DISARM, "vfs_read", 0, NULL, 0 },
	{ "disarm_offset", "!vfs_read+0x4", 0, 0, PC_OP_DISARM, "vfs_read", 4,
	  NULL, 0 },
	{ "empty_clears", "", 0, 0, PC_OP_CLEAR, NULL, 0, NULL, 0 },
	{ "blank_clears", "  \t ", 0, 0, PC_OP_CLEAR, NULL, 0, NULL, 0 },
	{ "missing_type", "vfs_read", 0, -EINVAL, 0, NULL, 0, NULL, 8 },
	{ "unknown_type", "vfs_read frobnicate", 0, -EINVAL, 0, NULL, 0, NULL,
	  9 },
	{ "type_prefix_is_unknown", "vfs_read bug", 0, -EINVAL, 0, NULL, 0,
	  NULL, 9 },
	{ "type_longer_is_unknown", "vfs_read bugonx", 0, -EINVAL, 0, NULL, 0,
	  NULL, 9 },
	{ "extra_token", "vfs_read bugon now", 0, -EINVAL, 0, NULL, 0, NULL,
	  15 },
	{ "disarm_with_type", "!vfs_read bugon", 0, -EINVAL, 0, NULL, 0, NULL,
	  10 },
	{ "bang_alone", "!", 0, -EINVAL, 0, NULL, 0, NULL, 1 },
	{ "no_symbol", "+4 bugon", 0, -EINVAL, 0, NULL, 0, NULL, 0 },
	{ "empty_offset", "vfs_read+ bugon", 0, -EINVAL, 0, NULL, 0, NULL, 9 },
	{ "hex_garbage", "vfs_read+0xzz bugon", 0, -EINVAL, 0, NULL, 0, NULL,
	  11 },
	{ "negative_offset", "vfs_read+-4 bugon", 0, -EINVAL, 0, NULL, 0, NULL,
	  9 },
	{ "bare_0x", "vfs_read+0x bugon", 0, -EINVAL, 0, NULL, 0, NULL, 9 },
	{ "offset_overflow", "vfs_read+0x10000000000000000 bugon", 0, -ERANGE,
	  0, NULL, 0, NULL, 9 },
	{ "decimal_overflow", "vfs_read+99999999999999999999 bugon", 0,
	  -ERANGE, 0, NULL, 0, NULL, 9 },
	{ "offset_max", "vfs_read+0xffffffff bugon", 0, 0, PC_OP_ARM,
	  "vfs_read", 0xffffffffUL, "bugon", 0 },
	/* struct kprobe's offset is 32 bits: more would be truncated. */
	{ "offset_above_32_bits", "vfs_read+0x100000000 bugon", 0, -ERANGE,
	  0, NULL, 0, NULL, 9 },
	{ "offset_64_bits", "vfs_read+0xffffffffffffffff bugon", 0, -ERANGE,
	  0, NULL, 0, NULL, 9 },
	{ "bad_symbol_char", "vfs-read bugon", 0, -EINVAL, 0, NULL, 0, NULL,
	  3 },
	{ "embedded_nul", "vfs_read\0 bugon", 15, -EINVAL, 0, NULL, 0, NULL,
	  8 },
	{ "nul_in_type", "vfs_read bug\0on", 15, -EINVAL, 0, NULL, 0, NULL,
	  9 },
	{ "nul_after_type", "vfs_read bugon\0\0x", 17, -EINVAL, 0, NULL, 0,
	  NULL, 9 },
	{ "control_char", "vfs_read\x01 bugon", 0, -EINVAL, 0, NULL, 0, NULL,
	  8 },
	{ "return", "vfs_read%return bugon", 0, 0, PC_OP_ARM, "vfs_read", 0,
	  "bugon", 0, "", 1 },
	{ "disarm_return", "!vfs_read%return", 0, 0, PC_OP_DISARM, "vfs_read",
	  0, NULL, 0, "", 1 },
	{ "return_with_offset", "vfs_read+4%return bugon", 0, -EINVAL, 0, NULL,
	  0, NULL, 10 },
	{ "return_upper_case", "vfs_read%RETURN bugon", 0, -EINVAL, 0, NULL, 0,
	  NULL, 8 },
	{ "return_longer", "vfs_read%returns bugon", 0, -EINVAL, 0, NULL, 0,
	  NULL, 8 },
	{ "return_cut", "vfs_read%ret", 0, -EINVAL, 0, NULL, 0, NULL, 8 },
	{ "defaults", "vfs_read bugon", 0, 0, PC_OP_ARM, "vfs_read", 0, "bugon",
	  0, "" },
	{ "counting_options",
	  "vfs_read bugon after=3 every=2 times=-1 probability=50", 0, 0,
	  PC_OP_ARM, "vfs_read", 0, "bugon", 0,
	  " after=3 every=2 times=-1 probability=50" },
	/* A NUL inside "retval" is no key: nothing reads past its name. */
	{ "retval_key_with_nul", "f%return report retval\0=1", 24, -EINVAL,
	  0, NULL, 0, NULL, 16 },
	{ "task_options", "vfs_read bugon pid=42 comm=sh cpu=1", 0, 0,
	  PC_OP_ARM, "vfs_read", 0, "bugon", 0, " pid=42 comm=sh cpu=1" },
	{ "options_any_order", "vfs_read bugon\tcpu=0  times=5 after=1", 0, 0,
	  PC_OP_ARM, "vfs_read", 0, "bugon", 0, " times=5 cpu=0" },
	{ "unknown_option", "vfs_read bugon when=3", 0, -EINVAL, 0, NULL, 0,
	  NULL, 15 },
	{ "option_prefix", "vfs_read bugon aft=3", 0, -EINVAL, 0, NULL, 0, NULL,
	  15 },
	{ "option_no_value", "vfs_read bugon after=", 0, -EINVAL, 0, NULL, 0,
	  NULL, 21 },
	{ "option_no_equals", "vfs_read bugon after", 0, -EINVAL, 0, NULL, 0,
	  NULL, 15 },
	{ "option_twice", "vfs_read bugon after=2 after=3", 0, -EINVAL, 0, NULL,
	  0, NULL, 23 },
	{ "after_zero", "vfs_read bugon after=0", 0, -ERANGE, 0, NULL, 0, NULL,
	  21 },
	{ "after_negative", "vfs_read bugon after=-2", 0, -ERANGE, 0, NULL, 0,
	  NULL, 21 },
	{ "after_overflow", "vfs_read bugon after=99999999999999999999", 0,
	  -ERANGE, 0, NULL, 0, NULL, 21 },
	{ "after_hex", "vfs_read bugon after=0x10", 0, -EINVAL, 0, NULL, 0,
	  NULL, 22 },
	{ "times_zero", "vfs_read bugon times=0", 0, -ERANGE, 0, NULL, 0, NULL,
	  21 },
	{ "times_minus_two", "vfs_read bugon times=-2", 0, -ERANGE, 0, NULL, 0,
	  NULL, 21 },
	{ "probability_101", "vfs_read bugon probability=101", 0, -ERANGE, 0,
	  NULL, 0, NULL, 27 },
	{ "probability_zero", "vfs_read bugon probability=0", 0, -ERANGE, 0,
	  NULL, 0, NULL, 27 },
	{ "pid_zero", "vfs_read bugon pid=0", 0, -ERANGE, 0, NULL, 0, NULL, 19 },
	{ "pid_too_big", "vfs_read bugon pid=4194305", 0, -ERANGE, 0, NULL, 0,
	  NULL, 19 },
	{ "cpu_too_big", "vfs_read bugon cpu=8192", 0, -ERANGE, 0, NULL, 0,
	  NULL, 19 },
	{ "comm_max", "vfs_read bugon comm=abcdefghijklmno", 0, 0, PC_OP_ARM,
	  "vfs_read", 0, "bugon", 0, " comm=abcdefghijklmno" },
	{ "comm_too_long", "vfs_read bugon comm=abcdefghijklmnop", 0,
	  -ENAMETOOLONG, 0, NULL, 0, NULL, 20 },
	{ "comm_empty", "vfs_read bugon comm=", 0, -EINVAL, 0, NULL, 0, NULL,
	  20 },
	{ "comm_control_char", "vfs_read bugon comm=a\x01b", 0, -EINVAL, 0,
	  NULL, 0, NULL, 21 },
	{ "option_nul", "vfs_read bugon pid=1\0", 21, -EINVAL, 0, NULL, 0, NULL,
	  20 },
	{ "module_symbol", "ext4:ext4_file_open bugon", 0, 0, PC_OP_ARM,
	  "ext4:ext4_file_open", 0, "bugon", 0 },
	{ "module_symbol_offset", "ext4:ext4_file_open+0x4 report", 0, 0,
	  PC_OP_ARM, "ext4:ext4_file_open", 4, "report", 0 },
	{ "module_disarm_return", "!ext4:ext4_file_open%return", 0, 0,
	  PC_OP_DISARM, "ext4:ext4_file_open", 0, NULL, 0, "", 1 },
	{ "module_empty", ":vfs_read bugon", 0, -EINVAL, 0, NULL, 0, NULL, 0 },
	{ "module_no_symbol", "ext4: bugon", 0, -EINVAL, 0, NULL, 0, NULL, 5 },
	{ "module_no_symbol_offset", "ext4:+4 bugon", 0, -EINVAL, 0, NULL, 0,
	  NULL, 5 },
	{ "module_two_colons", "a:b:c bugon", 0, -EINVAL, 0, NULL, 0, NULL, 3 },
	{ "module_dot", "ext.4:foo bugon", 0, -EINVAL, 0, NULL, 0, NULL, 3 },
	{ "module_dash", "ext-4:foo bugon", 0, -EINVAL, 0, NULL, 0, NULL, 3 },
	/* ms=: delay's and spin's, listed as written, first. */
	{ "ms_delay", "vfs_read delay times=-1 ms=250", 0, 0, PC_OP_ARM,
	  "vfs_read", 0, "delay", 0, " ms=250 times=-1" },
	{ "ms_default_listed", "vfs_read delay ms=100", 0, 0, PC_OP_ARM,
	  "vfs_read", 0, "delay", 0, " ms=100" },
	{ "ms_none", "vfs_read spin", 0, 0, PC_OP_ARM, "vfs_read", 0, "spin",
	  0, "" },
	{ "ms_min", "vfs_read delay ms=1", 0, 0, PC_OP_ARM, "vfs_read", 0,
	  "delay", 0, " ms=1" },
	{ "ms_max", "vfs_read delay ms=10000", 0, 0, PC_OP_ARM, "vfs_read", 0,
	  "delay", 0, " ms=10000" },
	{ "ms_spin_max", "vfs_read spin ms=1000", 0, 0, PC_OP_ARM, "vfs_read",
	  0, "spin", 0, " ms=1000" },
	{ "ms_zero", "vfs_read delay ms=0", 0, -ERANGE, 0, NULL, 0, NULL, 18 },
	{ "ms_too_long", "vfs_read delay ms=10001", 0, -ERANGE, 0, NULL, 0,
	  NULL, 18 },
	{ "ms_negative", "vfs_read delay ms=-5", 0, -ERANGE, 0, NULL, 0, NULL,
	  18 },
	{ "ms_hex", "vfs_read delay ms=0x10", 0, -EINVAL, 0, NULL, 0, NULL,
	  19 },
	{ "ms_twice", "vfs_read delay ms=5 ms=6", 0, -EINVAL, 0, NULL, 0, NULL,
	  20 },
	{ "ms_empty", "vfs_read delay ms=", 0, -EINVAL, 0, NULL, 0, NULL, 18 },
	{ "ms_operator", "vfs_read delay ms>5", 0, -EINVAL, 0, NULL, 0, NULL,
	  15 },
	{ "ms_spin_over_cap", "vfs_read spin ms=1001", 0, -EINVAL, 0, NULL, 0,
	  NULL, 14 },
	{ "ms_spin_2000", "vfs_read spin times=2 ms=2000", 0, -EINVAL, 0, NULL,
	  0, NULL, 22 },
	{ "ms_other_type", "vfs_read report ms=5", 0, -EINVAL, 0, NULL, 0,
	  NULL, 16 },
	{ "ms_fatal_type", "vfs_read bugon after=2 ms=5", 0, -EINVAL, 0, NULL,
	  0, NULL, 23 },
	/* The range is checked before the type: ms=0 is ERANGE anywhere. */
	{ "ms_zero_other_type", "vfs_read report ms=0", 0, -ERANGE, 0, NULL,
	  0, NULL, 19 },
	/* A NUL right after a whole key once made the key compare run on. */
	{ "key_then_nul", "vfs_read bugon pid\0x=1", 22, -EINVAL, 0, NULL, 0,
	  NULL, 15 },
};

/*
 * A symbol one byte too long for the kernel's KSYM_NAME_LEN, alone and
 * after the longest module name; a module name one byte too long.
 */
static int test_long_symbol(void)
{
	static char line[PC_SYMBOL_MAX + 16];
	struct pc_parse_error error;
	struct pc_line out;

	memset(line, 'a', PC_KSYM_MAX);
	memcpy(line + PC_KSYM_MAX, " bugon", sizeof(" bugon"));
	if (pc_parse_line(line, strlen(line), &out, &error) != -ENAMETOOLONG)
		return 0;
	/* One shorter fits. */
	memmove(line + PC_KSYM_MAX - 1, line + PC_KSYM_MAX,
		strlen(line + PC_KSYM_MAX) + 1);
	if (pc_parse_line(line, strlen(line), &out, &error) ||
	    strlen(out.symbol) != PC_KSYM_MAX - 1 || out.module_len)
		return 0;
	/* The longest module name, ':', the longest symbol. */
	memset(line, 'm', PC_MODULE_MAX - 1);
	line[PC_MODULE_MAX - 1] = ':';
	memset(line + PC_MODULE_MAX, 's', PC_KSYM_MAX - 1);
	memcpy(line + PC_MODULE_MAX + PC_KSYM_MAX - 1, " bugon", sizeof(" bugon"));
	if (pc_parse_line(line, strlen(line), &out, &error) ||
	    strlen(out.symbol) != PC_SYMBOL_MAX - 1 ||
	    out.module_len != PC_MODULE_MAX - 1)
		return 0;
	/* One more byte of symbol is too long. */
	memset(line + PC_MODULE_MAX, 's', PC_KSYM_MAX);
	memcpy(line + PC_MODULE_MAX + PC_KSYM_MAX, " bugon", sizeof(" bugon"));
	if (pc_parse_line(line, strlen(line), &out, &error) != -ENAMETOOLONG)
		return 0;
	/* And one more byte of module name. */
	memset(line, 'm', PC_MODULE_MAX);
	memcpy(line + PC_MODULE_MAX, ":vfs_read bugon", sizeof(":vfs_read bugon"));
	return pc_parse_line(line, strlen(line), &out, &error) == -ENAMETOOLONG &&
	       error.pos == 0 && !strcmp(error.why, "module name too long");
}

/* MODULE:SYMBOL keeps the whole text and knows where the module ends. */
static int test_module_len(void)
{
	static const char line[] = "provoke_crash_twin:pc_twin_target+8 report";
	struct pc_parse_error error;
	struct pc_line out;

	return !pc_parse_line(line, strlen(line), &out, &error) &&
	       !strcmp(out.symbol, "provoke_crash_twin:pc_twin_target") &&
	       out.module_len == strlen("provoke_crash_twin") &&
	       out.offset == 8 &&
	       !pc_parse_line("vfs_read bugon", 14, &out, &error) &&
	       out.module_len == 0;
}

/*
 * An unknown key is named (what, what_len) and told the valid keys; every
 * key that list names is one the parser takes, and it names them all.
 */
static int test_unknown_key_named(void)
{
	static const char line[] = "vfs_read bugon times=2 foo=1";
	struct pc_parse_error error;
	struct pc_line out;
	const char *list, *p;
	char probe[64], key[32];
	size_t n, keys = 0;

	if (pc_parse_line(line, strlen(line), &out, &error) != -EINVAL ||
	    error.pos != 23 || error.what_len != 3 ||
	    strncmp(error.what, "foo", 3) || !error.valid ||
	    strcmp(error.why, "unknown option"))
		return 0;
	list = strchr(error.valid, ':');
	if (!list)
		return 0;
	for (p = list + 1; *p; p += n) {
		p += strspn(p, " ,");
		n = strcspn(p, " ,");
		if (!n || n >= sizeof(key))
			break;
		memcpy(key, p, n);
		key[n] = '\0';
		/* "arg1 to arg6" */
		if (!strcmp(key, "to"))
			continue;
		/*
		 * comm and caller take a name, the others a number: 1 is
		 * both; retval is known at %return only, ms is delay's and
		 * spin's.
		 */
		snprintf(probe, sizeof(probe), "vfs_read%s %s %s=1",
			 strcmp(key, "retval") ? "" : "%return",
			 strcmp(key, "ms") ? "bugon" : "delay", key);
		if (pc_parse_line(probe, strlen(probe), &out, &error))
			return 0;
		keys++;
	}
	/* No key left out: eight options, arg1, arg6, retval, caller. */
	return keys == 12;
}

/* An unknown crash type is named too; a known option is not named. */
static int test_unknown_type_named(void)
{
	static const char line[] = "vfs_read frobnicate";
	struct pc_parse_error error;
	struct pc_line out;

	if (pc_parse_line(line, strlen(line), &out, &error) != -EINVAL ||
	    error.what_len != 10 || strncmp(error.what, "frobnicate", 10) ||
	    !error.valid)
		return 0;
	return pc_parse_line("vfs_read bugon after=0", 22, &out, &error) ==
	       -ERANGE && error.what_len == 0 && !error.valid;
}

static const struct {
	const char *line;
	int err;
	const char *symbol;
	size_t pos;
} symbol_cases[] = {
	{ "vfs_read", 0, "vfs_read", 0 },
	{ " \tvfs_read \t", 0, "vfs_read", 0 },
	{ "ext4:ext4_file_open", 0, "ext4:ext4_file_open", 0 },
	{ "foo.isra.0", 0, "foo.isra.0", 0 },
	{ "", -EINVAL, NULL, 0 },
	{ "vfs_read+4", -EINVAL, NULL, 8 },
	{ "vfs_read%return", -EINVAL, NULL, 8 },
	{ "vfs_read bugon", -EINVAL, NULL, 9 },
	{ "vfs-read", -EINVAL, NULL, 3 },
	{ "ext4:", -EINVAL, NULL, 5 },
};

/* What the offsets file takes: one name, nothing else. */
static int test_parse_symbol(char *why, size_t whylen)
{
	struct pc_parse_error error;
	char symbol[PC_SYMBOL_MAX];
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(symbol_cases); i++) {
		const char *line = symbol_cases[i].line;

		ret = pc_parse_symbol(line, strlen(line), symbol, &error);
		if (ret != symbol_cases[i].err ||
		    (!ret && strcmp(symbol, symbol_cases[i].symbol)) ||
		    (ret && error.pos != symbol_cases[i].pos)) {
			snprintf(why, whylen, "'%s': returned %d at %zu", line,
				 ret, ret ? error.pos : 0);
			return 0;
		}
	}
	return 1;
}

static int check(const struct parse_case *c, char *why, size_t whylen)
{
	size_t len = c->len ? c->len : strlen(c->line);
	struct pc_parse_error error = { 0 };
	struct pc_line out;
	int ret;

	memset(&out, 0x5a, sizeof(out));
	ret = pc_parse_line(c->line, len, &out, &error);
	if (ret != c->err) {
		snprintf(why, whylen, "returned %d, expected %d (%s)", ret,
			 c->err, ret ? error.why : "no error");
		return 0;
	}
	if (ret) {
		if (error.pos != c->pos || !error.why) {
			snprintf(why, whylen, "error at column %zu, expected %zu",
				 error.pos, c->pos);
			return 0;
		}
		return 1;
	}
	if (out.op != c->op) {
		snprintf(why, whylen, "op %d, expected %d", out.op, c->op);
		return 0;
	}
	if (c->symbol && (strcmp(out.symbol, c->symbol) ||
			  out.offset != c->offset)) {
		snprintf(why, whylen, "place %.64s+%lu", out.symbol, out.offset);
		return 0;
	}
	if (c->type && (out.type < 0 ||
			strcmp(pc_crash_type_name(out.type), c->type))) {
		snprintf(why, whylen, "type %d", out.type);
		return 0;
	}
	if (out.on_return != c->on_return) {
		snprintf(why, whylen, "on_return %d", out.on_return);
		return 0;
	}
	if (c->opts) {
		char opts[128];

		pc_conditions_format(&out.cond, opts, sizeof(opts));
		if (strcmp(opts, c->opts)) {
			snprintf(why, whylen, "options '%s'", opts);
			return 0;
		}
	}
	return 1;
}

int main(void)
{
	size_t n = ARRAY_SIZE(cases), i;
	int failed = 0, ok;
	char why[256];

	printf("KTAP version 1\n1..%zu\n", n + 6);
	for (i = 0; i < n; i++) {
		why[0] = '\0';
		ok = check(&cases[i], why, sizeof(why));
		printf("%sok %zu parse_%s\n", ok ? "" : "not ", i + 1,
		       cases[i].name);
		if (!ok)
			printf("# %s\n", why);
		failed += !ok;
	}
	ok = test_long_symbol();
	printf("%sok %zu parse_long_symbol\n", ok ? "" : "not ", n + 1);
	failed += !ok;
	ok = pc_crash_type_index("report", 6) == 0 &&
	     !pc_crash_type_name(-1) &&
	     pc_crash_type_name(pc_crash_type_index("panic", 5));
	printf("%sok %zu type_lookup\n", ok ? "" : "not ", n + 2);
	failed += !ok;
	ok = test_module_len();
	printf("%sok %zu parse_module_len\n", ok ? "" : "not ", n + 3);
	failed += !ok;
	ok = test_unknown_key_named();
	printf("%sok %zu parse_unknown_key_named\n", ok ? "" : "not ", n + 4);
	failed += !ok;
	ok = test_unknown_type_named();
	printf("%sok %zu parse_unknown_type_named\n", ok ? "" : "not ", n + 5);
	failed += !ok;
	why[0] = '\0';
	ok = test_parse_symbol(why, sizeof(why));
	printf("%sok %zu parse_symbol_only\n", ok ? "" : "not ", n + 6);
	if (!ok)
		printf("# %s\n", why);
	failed += !ok;
	printf("# unit tests done\n");
	return failed ? 1 : 0;
}
