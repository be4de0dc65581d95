/* SPDX-License-Identifier: GPL-2.0 */
/* The names a mistyped function may have meant, from /proc/kallsyms. */
#ifndef PC_TOOL_SYMBOLS_H
#define PC_TOOL_SYMBOLS_H

#include <stdio.h>

/*
 * Print to @out, a line each, what @name may have meant: @sys@NAME for a
 * system call's entry spelled for another architecture, a renamed copy
 * (.isra.0), the closest text symbols.  Returns how many lines it
 * printed, 0 for none, -1 without /proc/kallsyms.
 */
int pc_symbols_near(const char *name, FILE *out);

#endif /* PC_TOOL_SYMBOLS_H */
