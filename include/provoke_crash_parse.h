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
#define PC_KSYM_MAX	512

/* MODULE_NAME_LEN on 64-bit kernels: a module's name and its NUL. */
#define PC_MODULE_MAX	56

/* SYMBOL or MODULE:SYMBOL, as kprobe_events takes it, and its NUL. */
#define PC_SYMBOL_MAX	(PC_MODULE_MAX + PC_KSYM_MAX)

/* TASK_COMM_LEN: a task name and its NUL. */
#define PC_COMM_MAX	16

/* struct kprobe keeps the offset in an unsigned int. */
#define PC_OFFSET_MAX	0xffffffffUL

/* Options a line may give, as bits of pc_conditions.given. */
enum {
	PC_OPT_AFTER = 1 << 0,
	PC_OPT_EVERY = 1 << 1,
	PC_OPT_TIMES = 1 << 2,
	PC_OPT_PROBABILITY = 1 << 3,
	PC_OPT_PID = 1 << 4,
	PC_OPT_COMM = 1 << 5,
	PC_OPT_CPU = 1 << 6,
};

/*
 * When an armed point fires, checked in this order on each hit: pid, comm
 * and cpu decide whether the hit is eligible; eligible hits are counted;
 * the point fires on the after-th eligible hit and then on every every-th
 * one, each time with the given probability, and no more than "times"
 * times in all.
 */
struct pc_conditions {
	unsigned long after;		/* 1: from the first eligible hit */
	unsigned long every;		/* 1: every eligible hit from then on */
	long times;			/* 1; -1 for no limit */
	unsigned int probability;	/* percent, 100 */
	int pid;			/* -1: any task */
	int cpu;			/* -1: any CPU */
	char comm[PC_COMM_MAX];		/* "": any name */
	unsigned int given;		/* PC_OPT_* bits set on the line */
};

/* The largest pid the kernel hands out (PID_MAX_LIMIT on 64-bit). */
#define PC_PID_MAX	(4 * 1024 * 1024)

/* The largest CPU number the parser takes (NR_CPUS is at most 8192). */
#define PC_CPU_MAX	8191

/* What one line of the control file asks for. */
enum pc_op {
	PC_OP_ARM,		/* SYMBOL[+OFFSET] TYPE */
	PC_OP_DISARM,		/* !SYMBOL[+OFFSET] */
	PC_OP_CLEAR,		/* empty line: disarm every point */
};

struct pc_line {
	enum pc_op op;
	char symbol[PC_SYMBOL_MAX];	/* SYMBOL or MODULE:SYMBOL */
	size_t module_len;	/* MODULE:SYMBOL: the length of MODULE; else 0 */
	unsigned long offset;
	int on_return;		/* SYMBOL%return: fire when it returns */
	int type;		/* index into PC_CRASH_TYPES, for PC_OP_ARM */
	struct pc_conditions cond;	/* for PC_OP_ARM */
};

/*
 * Why a line was refused: an errno, the column (from 0) and a reason.
 * Where naming the culprit helps (an unknown option key or crash type),
 * @what points at its @what_len bytes in the line, and @valid says what
 * would be accepted there; else @what_len is 0 and @valid NULL.
 */
struct pc_parse_error {
	int err;
	size_t pos;
	const char *why;
	const char *what;
	size_t what_len;
	const char *valid;
};

/*
 * Parse one line of @len bytes (no newline).  Returns 0 and fills @out, or
 * a negative errno and fills @error.
 */
int pc_parse_line(const char *line, size_t len, struct pc_line *out,
		  struct pc_parse_error *error);

/*
 * Parse a line that holds only SYMBOL or MODULE:SYMBOL, between blanks,
 * into @symbol (PC_SYMBOL_MAX bytes): what the offsets file takes.
 * Returns 0, or a negative errno and fills @error.
 */
int pc_parse_symbol(const char *line, size_t len, char *symbol,
		    struct pc_parse_error *error);

/* The default conditions: fire once, on the first hit, anywhere. */
void pc_conditions_init(struct pc_conditions *cond);

/*
 * Write the options that differ from the defaults as " key=value..." into
 * @buf (@size bytes, always NUL-terminated); returns the length.
 */
size_t pc_conditions_format(const struct pc_conditions *cond, char *buf,
			    size_t size);

/* Index of the crash type called @name (@len bytes), or -1. */
int pc_crash_type_index(const char *name, size_t len);

/* The name of crash type @index, or NULL when out of range. */
const char *pc_crash_type_name(int index);

#endif /* PROVOKE_CRASH_PARSE_H */
