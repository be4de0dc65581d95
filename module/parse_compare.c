// SPDX-License-Identifier: GPL-2.0
/*
 * The argN and retval conditions of a crash point line: KEY[:WIDTH] OP
 * VALUE, with no blanks, OP one of = != < <= > >= &, WIDTH one of s8 u8
 * s16 u16 s32 u32 s64 u64.  Shared with user space, as parse.c is.
 *
 * argN (N = 1 to 6) is the function's Nth argument as the calling
 * convention passes it, so it is only known at the function's entry;
 * retval is only known when it returns (%return).  VALUE is a decimal
 * (which may be negative) or 0x hex number; for retval also an errno
 * name, negated as functions return it: -EIO.
 */
#include "provoke_crash_parse.h"
#include "parse_private.h"

/* Kernel-internal codes that user space's <errno.h> leaves out. */
#ifndef ERESTARTSYS
#define ERESTARTSYS	512
#endif
#ifndef ENOTSUPP
#define ENOTSUPP	524
#endif

#define PC_ERRNO(name)	{ #name, name }

/* The errno names retval takes: those functions commonly return. */
static const struct {
	const char *name;
	int value;
} pc_errnos[] = {
	PC_ERRNO(EPERM), PC_ERRNO(ENOENT), PC_ERRNO(ESRCH), PC_ERRNO(EINTR),
	PC_ERRNO(EIO), PC_ERRNO(ENXIO), PC_ERRNO(E2BIG), PC_ERRNO(ENOEXEC),
	PC_ERRNO(EBADF), PC_ERRNO(ECHILD), PC_ERRNO(EAGAIN), PC_ERRNO(ENOMEM),
	PC_ERRNO(EACCES), PC_ERRNO(EFAULT), PC_ERRNO(EBUSY), PC_ERRNO(EEXIST),
	PC_ERRNO(EXDEV), PC_ERRNO(ENODEV), PC_ERRNO(ENOTDIR), PC_ERRNO(EISDIR),
	PC_ERRNO(EINVAL), PC_ERRNO(ENFILE), PC_ERRNO(EMFILE), PC_ERRNO(ENOTTY),
	PC_ERRNO(EFBIG), PC_ERRNO(ENOSPC), PC_ERRNO(ESPIPE), PC_ERRNO(EROFS),
	PC_ERRNO(EMLINK), PC_ERRNO(EPIPE), PC_ERRNO(EDOM), PC_ERRNO(ERANGE),
	PC_ERRNO(EDEADLK), PC_ERRNO(ENAMETOOLONG),
	PC_ERRNO(ENOTEMPTY), PC_ERRNO(ELOOP), PC_ERRNO(ENODATA),
	PC_ERRNO(ETIME), PC_ERRNO(EOVERFLOW), PC_ERRNO(EILSEQ),
	PC_ERRNO(EOPNOTSUPP), PC_ERRNO(EADDRINUSE), PC_ERRNO(ENETDOWN),
	PC_ERRNO(ECONNRESET), PC_ERRNO(ENOBUFS), PC_ERRNO(ETIMEDOUT),
	PC_ERRNO(ECONNREFUSED), PC_ERRNO(EALREADY), PC_ERRNO(EINPROGRESS),
	PC_ERRNO(ESTALE), PC_ERRNO(EDQUOT), PC_ERRNO(ECANCELED),
	PC_ERRNO(ERESTARTSYS), PC_ERRNO(ENOTSUPP),
};

/* No ARRAY_SIZE() in user space. */
#define PC_NR(a)	(sizeof(a) / sizeof((a)[0]))
#define PC_NR_ERRNOS	PC_NR(pc_errnos)

const char *pc_errno_name(unsigned int index)
{
	return index < PC_NR_ERRNOS ? pc_errnos[index].name : NULL;
}

/* The operators, longest first where one starts another. */
static const struct {
	const char *text;
	enum pc_cmp_op op;
} pc_ops[] = {
	{ "!=", PC_CMP_NE }, { "<=", PC_CMP_LE }, { ">=", PC_CMP_GE },
	{ "=", PC_CMP_EQ }, { "<", PC_CMP_LT }, { ">", PC_CMP_GT },
	{ "&", PC_CMP_AND },
};

#define PC_NR_OPS	PC_NR(pc_ops)

/* The widths KEY:WIDTH takes, as pc_compare.width. */
static const struct {
	const char *text;
	unsigned char width;
} pc_widths[] = {
	{ "s8", 8 | PC_WIDTH_SIGNED }, { "u8", 8 },
	{ "s16", 16 | PC_WIDTH_SIGNED }, { "u16", 16 },
	{ "s32", 32 | PC_WIDTH_SIGNED }, { "u32", 32 },
	{ "s64", 64 | PC_WIDTH_SIGNED }, { "u64", 64 },
};

#define PC_NR_WIDTHS	PC_NR(pc_widths)

/* The length of argN or retval at the start of @key (@n bytes), or 0. */
static size_t pc_key_name_len(const char *key, size_t n)
{
	static const char retval[] = "retval";
	size_t i;

	if (n >= 4 && key[0] == 'a' && key[1] == 'r' && key[2] == 'g' &&
	    key[3] >= '1' && key[3] <= '6')
		return 4;
	for (i = 0; i < n && retval[i] && retval[i] == key[i]; i++)
		;
	return retval[i] ? 0 : i;
}

unsigned int pc_compare_key(const char *key, size_t n)
{
	size_t name = pc_key_name_len(key, n);

	if (!name || (name < n && key[name] != ':'))
		return 0;
	return name == 4 ? (unsigned int)(key[3] - '0') : PC_KEY_RETVAL;
}

/* The :WIDTH of the key at line[key_pos], up to @end, into @c. */
static int pc_parse_width(const char *line, size_t key_pos, size_t end,
			  struct pc_compare *c, struct pc_parse_error *error)
{
	size_t i = key_pos + pc_key_name_len(line + key_pos, end - key_pos);
	unsigned int k;
	size_t n;

	if (i == end)
		return 0;
	i++;
	for (k = 0; k < PC_NR_WIDTHS; k++) {
		const char *text = pc_widths[k].text;

		for (n = 0; text[n] && i + n < end && line[i + n] == text[n]; n++)
			;
		if (!text[n] && i + n == end)
			break;
	}
	if (k == PC_NR_WIDTHS)
		return pc_fail_named(error, -EINVAL, line, i, end - i,
				     "unknown width",
				     "widths: s8 u8 s16 u16 s32 u32 s64 u64");
	c->width = pc_widths[k].width;
	c->width_given = 1;
	return 0;
}

int pc_compare_set_width(struct pc_compare *c, unsigned int width)
{
	unsigned int bits = PC_WIDTH_BITS(width);
	unsigned long v = c->value, max, half;
	int negative = c->form == PC_FORM_NEG || c->form == PC_FORM_ERRNO;
	int fits;

	max = bits < 8 * sizeof(long) ? (1UL << bits) - 1 : ~0UL;
	half = max >> 1;
	if (c->form == PC_FORM_HEX)
		fits = v <= max;	/* a bit pattern of the width */
	else if (!(width & PC_WIDTH_SIGNED))
		fits = !negative && v <= max;
	else
		fits = negative ? 0UL - v <= half + 1 : v <= half;
	if (!fits)
		return -ERANGE;
	c->width = (unsigned char)width;
	return 0;
}

/* -NAME at line[i], up to a blank: its index in pc_errnos, or -1. */
static int pc_errno_index(const char *line, size_t len, size_t i)
{
	unsigned int k;
	size_t n;

	for (k = 0; k < PC_NR_ERRNOS; k++) {
		const char *name = pc_errnos[k].name;

		for (n = 0; name[n] && i + n < len && line[i + n] == name[n]; n++)
			;
		if (!name[n] && (i + n == len || pc_is_blank(line[i + n])))
			return (int)k;
	}
	return -1;
}

/*
 * A number at line[*pos], up to a blank: decimal up to ULONG_MAX, or
 * down to LONG_MIN with a '-'; 0x hex up to 16 digits.  Sets @c's value
 * and form.
 */
static int pc_parse_value(const char *line, size_t len, size_t *pos,
			  struct pc_compare *c, struct pc_parse_error *error)
{
	size_t start = *pos, i = *pos;
	unsigned long value = 0, max = ~0UL;
	unsigned int base = 10;
	int negative = 0;

	c->form = PC_FORM_DEC;
	if (i < len && line[i] == '-') {
		negative = 1;
		/* The magnitude of LONG_MIN. */
		max = (~0UL >> 1) + 1;
		i++;
	} else if (i + 1 < len && line[i] == '0' &&
		   (line[i + 1] == 'x' || line[i + 1] == 'X')) {
		base = 16;
		c->form = PC_FORM_HEX;
		i += 2;
	}
	if (i >= len || pc_is_blank(line[i]))
		return pc_fail(error, -EINVAL, start, "missing value");
	for (; i < len && !pc_is_blank(line[i]); i++) {
		int d = pc_digit_value(line[i], base);

		if (d < 0)
			return pc_fail(error, -EINVAL, i, "bad digit in value");
		if (value > (max - (unsigned long)d) / base)
			return pc_fail(error, -ERANGE, start,
				       "value out of range (64 bits)");
		value = value * base + (unsigned long)d;
	}
	if (negative && value) {
		c->form = PC_FORM_NEG;
		value = 0UL - value;
	}
	c->value = value;
	*pos = i;
	return 0;
}

int pc_parse_compare(const char *line, size_t len, size_t *pos,
		     size_t key_pos, unsigned int key, int place,
		     struct pc_conditions *cond, struct pc_parse_error *error)
{
	size_t i = *pos, n, value_pos;
	struct pc_compare c = { .key = (unsigned char)key };
	unsigned int k;
	int index, ret;

	if (key == PC_KEY_RETVAL && place != PC_PLACE_RETURN)
		return pc_fail(error, -EINVAL, key_pos,
			       "retval is known at SYMBOL%return only");
	if (key != PC_KEY_RETVAL && place != PC_PLACE_ENTRY)
		return pc_fail(error, -EINVAL, key_pos,
			       "argN is known at a function's entry only: not at +OFFSET or %return");
	if (cond->ncompare >= PC_COMPARE_MAX)
		return pc_fail(error, -EINVAL, key_pos,
			       "at most 8 argN and retval conditions");
	for (k = 0; k < PC_NR_OPS; k++) {
		const char *text = pc_ops[k].text;

		for (n = 0; text[n] && i + n < len && line[i + n] == text[n]; n++)
			;
		if (!text[n])
			break;
	}
	if (k == PC_NR_OPS)
		return pc_fail_named(error, -EINVAL, line, i, 1,
				     "unknown operator",
				     "operators: = != < <= > >= &");
	ret = pc_parse_width(line, key_pos, i, &c, error);
	if (ret)
		return ret;
	c.op = (unsigned char)pc_ops[k].op;
	i += n;
	value_pos = i;
	index = -1;
	if (key == PC_KEY_RETVAL && i + 1 < len && line[i] == '-' &&
	    line[i + 1] == 'E') {
		index = pc_errno_index(line, len, i + 1);
		if (index < 0) {
			for (n = i; n < len && !pc_is_blank(line[n]); n++)
				;
			return pc_fail_named(error, -EINVAL, line, i, n - i,
					     "unknown errno name",
					     "errno names such as -EIO, -ENOMEM, -EINVAL, -ENOENT, -EAGAIN");
		}
	}
	if (index >= 0) {
		c.value = 0UL - (unsigned long)pc_errnos[index].value;
		c.form = PC_FORM_ERRNO;
		c.errno_index = (unsigned char)index;
		while (i < len && !pc_is_blank(line[i]))
			i++;
	} else {
		ret = pc_parse_value(line, len, &i, &c, error);
		if (ret)
			return ret;
	}
	if (c.width_given && pc_compare_set_width(&c, c.width))
		return pc_fail(error, -ERANGE, value_pos,
			       "value out of range for its width");
	cond->compare[cond->ncompare++] = c;
	cond->given |= key == PC_KEY_RETVAL ? PC_OPT_RETVAL : PC_OPT_ARG;
	*pos = i;
	return 0;
}

static void pc_put_hex(char *buf, size_t size, size_t *used, unsigned long v)
{
	char digits[20];
	int n = (int)sizeof(digits) - 1;

	digits[n] = '\0';
	do {
		digits[--n] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v);
	digits[--n] = 'x';
	digits[--n] = '0';
	pc_put(buf, size, used, digits + n);
}

/* An unsigned decimal: pc_put_number() takes a long. */
static void pc_put_unsigned(char *buf, size_t size, size_t *used,
			    unsigned long v)
{
	char digits[24];
	int n = (int)sizeof(digits) - 1;

	digits[n] = '\0';
	do {
		digits[--n] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	pc_put(buf, size, used, digits + n);
}

void pc_compares_format(const struct pc_conditions *cond, char *buf,
			size_t size, size_t *used)
{
	static const char *const op_text[] = {
		[PC_CMP_EQ] = "=", [PC_CMP_NE] = "!=", [PC_CMP_LT] = "<",
		[PC_CMP_LE] = "<=", [PC_CMP_GT] = ">", [PC_CMP_GE] = ">=",
		[PC_CMP_AND] = "&",
	};
	char key[6] = "argN";
	unsigned int i, k;

	for (i = 0; i < cond->ncompare && i < PC_COMPARE_MAX; i++) {
		const struct pc_compare *c = &cond->compare[i];

		key[3] = (char)('0' + c->key);
		pc_put(buf, size, used, " ");
		pc_put(buf, size, used,
		       c->key == PC_KEY_RETVAL ? "retval" : key);
		for (k = 0; c->width_given && k < PC_NR_WIDTHS; k++)
			if (pc_widths[k].width == c->width) {
				pc_put(buf, size, used, ":");
				pc_put(buf, size, used, pc_widths[k].text);
			}
		pc_put(buf, size, used, c->op <= PC_CMP_AND ? op_text[c->op] : "?");
		switch (c->form) {
		case PC_FORM_HEX:
			pc_put_hex(buf, size, used, c->value);
			break;
		case PC_FORM_NEG:
			pc_put_number(buf, size, used, (long)c->value);
			break;
		case PC_FORM_ERRNO:
			pc_put(buf, size, used, "-");
			pc_put(buf, size, used, pc_errno_name(c->errno_index));
			break;
		default:
			pc_put_unsigned(buf, size, used, c->value);
			break;
		}
	}
}
