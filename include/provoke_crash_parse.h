/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The control-file line parser, shared by the module and user space.
 *
 * It has no kernel or libc dependencies beyond errno values, so that the
 * unit tests and a fuzzer can run exactly the code the module runs.
 */
#ifndef PROVOKE_CRASH_PARSE_H
#define PROVOKE_CRASH_PARSE_H

#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/types.h>
#else
#include <errno.h>
#include <stddef.h>
#endif

/* KSYM_NAME_LEN on the kernels we support (512 since 6.1). */
#define PC_SYMBOL_MAX	512

/* What one line of the control file asks for. */
enum pc_op {
	PC_OP_ARM,		/* SYMBOL[+OFFSET] TYPE */
	PC_OP_DISARM,		/* !SYMBOL[+OFFSET] */
	PC_OP_CLEAR,		/* empty line: disarm every point */
};

struct pc_line {
	enum pc_op op;
	char symbol[PC_SYMBOL_MAX];
	unsigned long offset;
	int type;		/* index into PC_CRASH_TYPES, for PC_OP_ARM */
};

/* Why a line was refused: an errno, the column (from 0) and a reason. */
struct pc_parse_error {
	int err;
	size_t pos;
	const char *why;
};

/*
 * Parse one line of @len bytes (no newline).  Returns 0 and fills @out, or
 * a negative errno and fills @error.
 */
int pc_parse_line(const char *line, size_t len, struct pc_line *out,
		  struct pc_parse_error *error);

/* Index of the crash type called @name (@len bytes), or -1. */
int pc_crash_type_index(const char *name, size_t len);

/* The name of crash type @index, or NULL when out of range. */
const char *pc_crash_type_name(int index);

#endif /* PROVOKE_CRASH_PARSE_H */
