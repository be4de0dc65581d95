/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What parse.c shares with parse_compare.c and parse_caller.c: the parser's own helpers,
 * outside the interface in provoke_crash_parse.h.
 */
#ifndef PROVOKE_CRASH_PARSE_PRIVATE_H
#define PROVOKE_CRASH_PARSE_PRIVATE_H

#include "provoke_crash_parse.h"

int pc_is_blank(char c);

/*
 * SYMBOL or MODULE:SYMBOL at line[*pos] into @symbol (PC_SYMBOL_MAX
 * bytes), the length of MODULE (0 without one) into *@module_len.
 */
int pc_parse_name(const char *line, size_t len, size_t *pos, char *symbol,
		  size_t *module_len, struct pc_parse_error *error);
int pc_digit_value(char c, unsigned int base);

/* Fill @error and return @err; the second names @len bytes at @pos. */
int pc_fail(struct pc_parse_error *error, int err, size_t pos,
	    const char *why);
int pc_fail_named(struct pc_parse_error *error, int err, const char *line,
		  size_t pos, size_t len, const char *why, const char *valid);

/* Append @str, or @value in decimal, to @buf at *@used (NUL-terminated). */
void pc_put(char *buf, size_t size, size_t *used, const char *str);
void pc_put_number(char *buf, size_t size, size_t *used, long value);

#endif /* PROVOKE_CRASH_PARSE_PRIVATE_H */
