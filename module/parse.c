// SPDX-License-Identifier: GPL-2.0
/*
 * Parser for the crashpoints control file: plain C with no kernel or libc
 * calls, compiled into the module and into the user-space unit tests.
 *
 *   SYMBOL[+OFFSET|%return] TYPE [KEY=VALUE]...   arm a crash point
 *   !SYMBOL[+OFFSET|%return]                      disarm it
 *   (empty line)                                  disarm every point
 *
 * SYMBOL may be MODULE:SYMBOL, as in kprobe_events: the kernel's symbol
 * lookup looks in that module only.  OFFSET is decimal or 0x-prefixed
 * hex.  Blanks are spaces and tabs.
 * KEY is one of after, every, times, probability, pid, comm, cpu, ms; each
 * may be given once, and its value is a decimal number (comm: a task
 * name).  ms= is delay's and spin's only.
 * argN and retval take KEY OP VALUE and may repeat: parse_compare.c;
 * caller=SYMBOL and caller!=SYMBOL may repeat: parse_caller.c.
 */
#include "provoke_crash_defs.h"
#include "provoke_crash_parse.h"
#include "parse_private.h"

static const struct {
	const char *name;
} pc_type_names[PC_NR_CRASH_TYPES] = {
#define PC_CRASH_TYPE(_name, ...) { .name = #_name },
#include "provoke_crash_types.h"
};

const char *pc_crash_type_name(int index)
{
	if (index < 0 || index >= PC_NR_CRASH_TYPES)
		return NULL;
	return pc_type_names[index].name;
}

int pc_crash_type_index(const char *name, size_t len)
{
	int i;
	size_t j;

	for (i = 0; i < PC_NR_CRASH_TYPES; i++) {
		const char *t = pc_type_names[i].name;

		for (j = 0; j < len && t[j] && t[j] == name[j]; j++)
			;
		if (j == len && t[j] == '\0')
			return i;
	}
	return -1;
}

int pc_is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Characters that appear in kernel symbol names (including .cold, .isra). */
static int pc_is_symbol_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.';
}

int pc_digit_value(char c, unsigned int base)
{
	int v;

	if (c >= '0' && c <= '9')
		v = c - '0';
	else if (c >= 'a' && c <= 'f')
		v = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		v = c - 'A' + 10;
	else
		return -1;
	return v < (int)base ? v : -1;
}

int pc_fail(struct pc_parse_error *error, int err, size_t pos,
	    const char *why)
{
	error->err = err;
	error->pos = pos;
	error->why = why;
	error->what = NULL;
	error->what_len = 0;
	error->valid = NULL;
	return err;
}

/* The same, naming the @len bytes at @line[@pos] and what @valid is there. */
int pc_fail_named(struct pc_parse_error *error, int err, const char *line,
		  size_t pos, size_t len, const char *why, const char *valid)
{
	pc_fail(error, err, pos, why);
	error->what = line + pos;
	error->what_len = len;
	error->valid = valid;
	return err;
}

/* Parse an unsigned number at line[*pos], stopping at a blank or the end. */
static int pc_parse_offset(const char *line, size_t len, size_t *pos,
			   unsigned long *out, struct pc_parse_error *error)
{
	unsigned int base = 10;
	unsigned long value = 0;
	size_t start = *pos, i = *pos;

	if (i + 1 < len && line[i] == '0' &&
	    (line[i + 1] == 'x' || line[i + 1] == 'X')) {
		base = 16;
		i += 2;
	}
	if (i >= len || pc_is_blank(line[i]) || line[i] == '%')
		return pc_fail(error, -EINVAL, start, "missing offset after '+'");
	for (; i < len && !pc_is_blank(line[i]) && line[i] != '%'; i++) {
		int d = pc_digit_value(line[i], base);

		if (d < 0)
			return pc_fail(error, -EINVAL, i, "bad digit in offset");
		if (value > (PC_OFFSET_MAX - (unsigned long)d) / base)
			return pc_fail(error, -ERANGE, start,
				       "offset too large (at most 0xffffffff)");
		value = value * base + (unsigned long)d;
	}
	*out = value;
	*pos = i;
	return 0;
}

/* Characters of a module's name: kbuild turns '-' into '_'. */
static int pc_is_module_char(char c)
{
	return pc_is_symbol_char(c) && c != '.';
}

/* SYMBOL or MODULE:SYMBOL: see parse_private.h. */
int pc_parse_name(const char *line, size_t len, size_t *pos, char *symbol,
		  size_t *module_len, struct pc_parse_error *error)
{
	size_t start = *pos, i = *pos, colon = len, n, j;

	while (i < len && (pc_is_symbol_char(line[i]) || line[i] == ':')) {
		if (line[i] == ':' && colon != len)
			return pc_fail(error, -EINVAL, i,
				       "one ':' at most (MODULE:SYMBOL)");
		if (line[i] == ':')
			colon = i;
		i++;
	}
	n = i - start;
	if (n == 0)
		return pc_fail(error, -EINVAL, start, "expected a symbol name");
	*module_len = 0;
	if (colon != len) {
		if (colon == start)
			return pc_fail(error, -EINVAL, start,
				       "expected a module name before ':'");
		if (colon + 1 == i)
			return pc_fail(error, -EINVAL, i,
				       "expected a symbol name after ':'");
		if (colon - start >= PC_MODULE_MAX)
			return pc_fail(error, -ENAMETOOLONG, start,
				       "module name too long");
		for (j = start; j < colon; j++)
			if (!pc_is_module_char(line[j]))
				return pc_fail(error, -EINVAL, j,
					       "bad character in module name");
		*module_len = colon - start;
	}
	if (n - (*module_len ? *module_len + 1 : 0) >= PC_KSYM_MAX)
		return pc_fail(error, -ENAMETOOLONG, start, "symbol name too long");
	for (j = 0; j < n; j++)
		symbol[j] = line[start + j];
	symbol[n] = '\0';
	*pos = i;
	return 0;
}

/* Parse [MODULE:]SYMBOL[+OFFSET|%return] at line[*pos] into @out. */
static int pc_parse_place(const char *line, size_t len, size_t *pos,
			  struct pc_line *out, struct pc_parse_error *error)
{
	size_t i = *pos;
	int ret;

	ret = pc_parse_name(line, len, &i, out->symbol, &out->module_len,
			    error);
	if (ret)
		return ret;
	out->offset = 0;
	out->on_return = 0;
	if (i < len && line[i] == '+') {
		i++;
		ret = pc_parse_offset(line, len, &i, &out->offset, error);
		if (ret)
			return ret;
		if (i < len && line[i] == '%')
			return pc_fail(error, -EINVAL, i,
				       "%return takes no offset: it probes the entry");
	} else if (i < len && line[i] == '%') {
		static const char word[] = "return";
		size_t w = 0;

		while (word[w] && i + 1 + w < len && line[i + 1 + w] == word[w])
			w++;
		if (word[w] || (i + 1 + w < len && !pc_is_blank(line[i + 1 + w])))
			return pc_fail(error, -EINVAL, i,
				       "expected %return after the symbol");
		out->on_return = 1;
		i += 1 + w;
	} else if (i < len && !pc_is_blank(line[i])) {
		return pc_fail(error, -EINVAL, i, "bad character in symbol");
	}
	*pos = i;
	return 0;
}

static size_t pc_skip_blanks(const char *line, size_t len, size_t i)
{
	while (i < len && pc_is_blank(line[i]))
		i++;
	return i;
}

int pc_parse_symbol(const char *line, size_t len, char *symbol,
		    struct pc_parse_error *error)
{
	size_t i = pc_skip_blanks(line, len, 0), module_len;
	int ret;

	ret = pc_parse_name(line, len, &i, symbol, &module_len, error);
	if (ret)
		return ret;
	if (i < len && !pc_is_blank(line[i]))
		return pc_fail(error, -EINVAL, i,
			       "only a function's name: no offset, no %return");
	i = pc_skip_blanks(line, len, i);
	if (i != len)
		return pc_fail(error, -EINVAL, i, "one name per line");
	return 0;
}

#define PC_LONG_MAX	((long)(~0UL >> 1))

/* A decimal number in [@min, @max] at line[*pos], up to a blank. */
static int pc_parse_decimal(const char *line, size_t len, size_t *pos,
			    long min, long max, const char *range,
			    long *out, struct pc_parse_error *error)
{
	size_t start = *pos, i = *pos;
	unsigned long value = 0;
	int negative = 0;
	long v;

	if (i < len && line[i] == '-') {
		negative = 1;
		i++;
	}
	if (i >= len || pc_is_blank(line[i]))
		return pc_fail(error, -EINVAL, start, "missing number");
	for (; i < len && !pc_is_blank(line[i]); i++) {
		int d = pc_digit_value(line[i], 10);

		if (d < 0)
			return pc_fail(error, -EINVAL, i, "bad digit in number");
		if (value > ((unsigned long)PC_LONG_MAX - (unsigned long)d) / 10)
			return pc_fail(error, -ERANGE, start, range);
		value = value * 10 + (unsigned long)d;
	}
	v = negative ? -(long)value : (long)value;
	if (v < min || v > max)
		return pc_fail(error, -ERANGE, start, range);
	*out = v;
	*pos = i;
	return 0;
}

static const struct pc_option {
	const char *key;
	unsigned int bit;
	long min, max;
	const char *range;
} pc_options[] = {
	{ "after", PC_OPT_AFTER, 1, PC_LONG_MAX, "after must be at least 1" },
	{ "every", PC_OPT_EVERY, 1, PC_LONG_MAX, "every must be at least 1" },
	{ "times", PC_OPT_TIMES, -1, PC_LONG_MAX,
	  "times must be -1 (no limit) or at least 1" },
	{ "probability", PC_OPT_PROBABILITY, 1, 100,
	  "probability is a percentage, 1 to 100" },
	{ "pid", PC_OPT_PID, 1, PC_PID_MAX, "pid must be 1 to 4194304" },
	{ "comm", PC_OPT_COMM, 0, 0, NULL },
	{ "cpu", PC_OPT_CPU, 0, PC_CPU_MAX, "cpu must be 0 to 8191" },
	{ "ms", PC_OPT_MS, 1, PC_MS_MAX, "ms must be 1 to 10000" },
	{ .key = NULL },
};

/* What an unknown key is told: the keys of pc_options, in its order. */
static const char pc_option_keys[] = {
	"valid keys: after, every, times, probability, pid, comm, cpu, arg1 to arg6, retval, caller, ms"
};

void pc_conditions_init(struct pc_conditions *cond)
{
	cond->after = 1;
	cond->every = 1;
	cond->times = 1;
	cond->probability = 100;
	cond->pid = -1;
	cond->cpu = -1;
	cond->comm[0] = '\0';
	cond->given = 0;
	cond->ncompare = 0;
	cond->ms = PC_MS_DEFAULT;
}

/* The first character of an operator (pc_parse_compare() reads it whole). */
static int pc_is_op_char(char c)
{
	return c == '=' || c == '!' || c == '<' || c == '>' || c == '&';
}

/* Whether the @n bytes at @key are @word. */
static int pc_key_is(const char *key, size_t n, const char *word)
{
	size_t i;

	for (i = 0; i < n && word[i] && word[i] == key[i]; i++)
		;
	return i == n && !word[i];
}

/* Parse one KEY=VALUE, or KEY OP VALUE, at line[*pos] into @out. */
static int pc_parse_option(const char *line, size_t len, size_t *pos,
			   int place, struct pc_line *out,
			   struct pc_parse_error *error)
{
	struct pc_conditions *cond = &out->cond;
	size_t start = *pos, i = *pos, k;
	const struct pc_option *opt = NULL;
	unsigned int key;
	long value;
	int ret;

	while (i < len && !pc_is_op_char(line[i]) && !pc_is_blank(line[i]))
		i++;
	if (i >= len || !pc_is_op_char(line[i]))
		return pc_fail(error, -EINVAL, start,
			       "expected KEY=VALUE or KEY OP VALUE");
	key = pc_compare_key(line + start, i - start);
	if (key || pc_key_is(line + start, i - start, "caller")) {
		ret = key ? pc_parse_compare(line, len, &i, start, key, place,
					     cond, error) :
			    pc_parse_caller(line, len, &i, start, out, error);
		if (!ret)
			*pos = i;
		return ret;
	}
	for (k = 0; pc_options[k].key; k++)
		if (pc_key_is(line + start, i - start, pc_options[k].key))
			opt = &pc_options[k];
	if (!opt)
		return pc_fail_named(error, -EINVAL, line, start, i - start,
				     "unknown option", pc_option_keys);
	if (line[i] != '=')
		return pc_fail_named(error, -EINVAL, line, start, i - start,
				     "this key takes only '='",
				     "argN and retval take = != < <= > >= &");
	if (cond->given & opt->bit)
		return pc_fail(error, -EINVAL, start, "option given twice");
	cond->given |= opt->bit;
	i++;

	if (opt->bit == PC_OPT_COMM) {
		size_t n;

		for (n = 0; i + n < len && !pc_is_blank(line[i + n]); n++) {
			if (n + 1 >= PC_COMM_MAX)
				return pc_fail(error, -ENAMETOOLONG, i,
					       "comm is at most 15 characters");
			if (line[i + n] < 0x21 || line[i + n] > 0x7e)
				return pc_fail(error, -EINVAL, i + n,
					       "bad character in comm");
			cond->comm[n] = line[i + n];
		}
		if (n == 0)
			return pc_fail(error, -EINVAL, i, "empty comm");
		cond->comm[n] = '\0';
		*pos = i + n;
		return 0;
	}

	ret = pc_parse_decimal(line, len, &i, opt->min, opt->max, opt->range,
			       &value, error);
	if (ret)
		return ret;
	if (opt->bit == PC_OPT_TIMES && value == 0)
		return pc_fail(error, -ERANGE, start + 6, opt->range);
	switch (opt->bit) {
	case PC_OPT_AFTER:
		cond->after = (unsigned long)value;
		break;
	case PC_OPT_EVERY:
		cond->every = (unsigned long)value;
		break;
	case PC_OPT_TIMES:
		cond->times = value;
		break;
	case PC_OPT_PROBABILITY:
		cond->probability = (unsigned int)value;
		break;
	case PC_OPT_PID:
		cond->pid = (int)value;
		break;
	case PC_OPT_CPU:
		cond->cpu = (int)value;
		break;
	case PC_OPT_MS:
		cond->ms = (unsigned int)value;
		break;
	}
	*pos = i;
	return 0;
}

/* Append @str to @buf at *@used, never past @size - 1. */
void pc_put(char *buf, size_t size, size_t *used, const char *str)
{
	while (*str && *used + 1 < size)
		buf[(*used)++] = *str++;
	buf[*used] = '\0';
}

void pc_put_number(char *buf, size_t size, size_t *used, long value)
{
	char digits[24];
	unsigned long v = value < 0 ? 0UL - (unsigned long)value : (unsigned long)value;
	int n = (int)sizeof(digits) - 1;

	digits[n] = '\0';
	do {
		digits[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	if (value < 0)
		digits[--n] = '-';
	pc_put(buf, size, used, digits + n);
}

size_t pc_conditions_format(const struct pc_conditions *cond, char *buf,
			    size_t size)
{
	size_t used = 0;

	if (!size)
		return 0;
	buf[0] = '\0';
	if (cond->given & PC_OPT_MS) {
		pc_put(buf, size, &used, " ms=");
		pc_put_number(buf, size, &used, cond->ms);
	}
	if (cond->after != 1) {
		pc_put(buf, size, &used, " after=");
		pc_put_number(buf, size, &used, (long)cond->after);
	}
	if (cond->every != 1) {
		pc_put(buf, size, &used, " every=");
		pc_put_number(buf, size, &used, (long)cond->every);
	}
	if (cond->times != 1) {
		pc_put(buf, size, &used, " times=");
		pc_put_number(buf, size, &used, cond->times);
	}
	if (cond->probability != 100) {
		pc_put(buf, size, &used, " probability=");
		pc_put_number(buf, size, &used, cond->probability);
	}
	if (cond->pid >= 0) {
		pc_put(buf, size, &used, " pid=");
		pc_put_number(buf, size, &used, cond->pid);
	}
	if (cond->comm[0]) {
		pc_put(buf, size, &used, " comm=");
		pc_put(buf, size, &used, cond->comm);
	}
	if (cond->cpu >= 0) {
		pc_put(buf, size, &used, " cpu=");
		pc_put_number(buf, size, &used, cond->cpu);
	}
	pc_compares_format(cond, buf, size, &used);
	return used;
}

/*
 * ms= (at line[@pos]) is delay's and spin's, and a spin is capped: a
 * longer one is a lockup.
 */
static int pc_check_ms(const struct pc_line *out, size_t pos,
		       struct pc_parse_error *error)
{
	if (out->type != PC_TYPE_delay && out->type != PC_TYPE_spin)
		return pc_fail(error, -EINVAL, pos,
			       "ms= is for delay and spin only");
	if (out->type == PC_TYPE_spin && out->cond.ms > PC_SPIN_MS_MAX)
		return pc_fail(error, -EINVAL, pos,
			       "spin is capped at ms=1000, below the soft-lockup detector's shortest window: a longer spin is a lockup (the lockup types are for that)");
	return 0;
}

int pc_parse_line(const char *line, size_t len, struct pc_line *out,
		  struct pc_parse_error *error)
{
	size_t i = pc_skip_blanks(line, len, 0), start, ms_pos = 0;
	int ret, place;

	out->type = -1;
	out->on_return = 0;
	out->module_len = 0;
	out->ncaller = 0;
	pc_conditions_init(&out->cond);
	if (i == len) {
		out->op = PC_OP_CLEAR;
		return 0;
	}

	out->op = PC_OP_ARM;
	if (line[i] == '!') {
		out->op = PC_OP_DISARM;
		i++;
	}
	ret = pc_parse_place(line, len, &i, out, error);
	if (ret)
		return ret;
	i = pc_skip_blanks(line, len, i);

	if (out->op == PC_OP_DISARM) {
		if (i != len)
			return pc_fail(error, -EINVAL, i,
				       "nothing may follow a disarm");
		return 0;
	}

	if (i == len)
		return pc_fail(error, -EINVAL, i, "missing crash type");
	start = i;
	while (i < len && !pc_is_blank(line[i]))
		i++;
	out->type = pc_crash_type_index(line + start, i - start);
	place = out->on_return ? PC_PLACE_RETURN :
		out->offset ? PC_PLACE_OFFSET : PC_PLACE_ENTRY;
	if (out->type < 0)
		return pc_fail_named(error, -EINVAL, line, start, i - start,
				     "unknown crash type",
				     "the types file lists them");
	for (i = pc_skip_blanks(line, len, i); i < len;
	     i = pc_skip_blanks(line, len, i)) {
		unsigned int given = out->cond.given;
		size_t at = i;

		ret = pc_parse_option(line, len, &i, place, out, error);
		if (ret)
			return ret;
		if ((out->cond.given ^ given) & PC_OPT_MS)
			ms_pos = at;
	}
	if (out->cond.given & PC_OPT_MS)
		return pc_check_ms(out, ms_pos, error);
	return 0;
}
