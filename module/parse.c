// SPDX-License-Identifier: GPL-2.0
/*
 * Parser for the crashpoints control file: plain C with no kernel or libc
 * calls, compiled into the module and into the user-space unit tests.
 *
 *   SYMBOL[+OFFSET] TYPE   arm a crash point
 *   !SYMBOL[+OFFSET]       disarm it
 *   (empty line)           disarm every point
 *
 * OFFSET is decimal or 0x-prefixed hex.  Blanks are spaces and tabs.
 */
#include "provoke_crash_defs.h"
#include "provoke_crash_parse.h"

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

static int pc_is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Characters that appear in kernel symbol names (including .cold, .isra). */
static int pc_is_symbol_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.';
}

static int pc_digit_value(char c, unsigned int base)
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

static int pc_fail(struct pc_parse_error *error, int err, size_t pos,
		   const char *why)
{
	error->err = err;
	error->pos = pos;
	error->why = why;
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
	if (i >= len || pc_is_blank(line[i]))
		return pc_fail(error, -EINVAL, start, "missing offset after '+'");
	for (; i < len && !pc_is_blank(line[i]); i++) {
		int d = pc_digit_value(line[i], base);

		if (d < 0)
			return pc_fail(error, -EINVAL, i, "bad digit in offset");
		if (value > (~0UL - (unsigned long)d) / base)
			return pc_fail(error, -ERANGE, start, "offset too large");
		value = value * base + (unsigned long)d;
	}
	*out = value;
	*pos = i;
	return 0;
}

/* Parse SYMBOL[+OFFSET] at line[*pos] into @out. */
static int pc_parse_place(const char *line, size_t len, size_t *pos,
			  struct pc_line *out, struct pc_parse_error *error)
{
	size_t start = *pos, i = *pos, n;

	while (i < len && pc_is_symbol_char(line[i]))
		i++;
	n = i - start;
	if (n == 0)
		return pc_fail(error, -EINVAL, start, "expected a symbol name");
	if (n >= PC_SYMBOL_MAX)
		return pc_fail(error, -ENAMETOOLONG, start, "symbol name too long");
	for (size_t j = 0; j < n; j++)
		out->symbol[j] = line[start + j];
	out->symbol[n] = '\0';

	out->offset = 0;
	if (i < len && line[i] == '+') {
		int ret;

		i++;
		ret = pc_parse_offset(line, len, &i, &out->offset, error);
		if (ret)
			return ret;
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

int pc_parse_line(const char *line, size_t len, struct pc_line *out,
		  struct pc_parse_error *error)
{
	size_t i = pc_skip_blanks(line, len, 0), start;
	int ret;

	out->type = -1;
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
	if (out->type < 0)
		return pc_fail(error, -EINVAL, start, "unknown crash type");
	i = pc_skip_blanks(line, len, i);
	if (i != len)
		return pc_fail(error, -EINVAL, i, "unexpected text after type");
	return 0;
}
