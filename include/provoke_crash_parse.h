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
	PC_OPT_ARG = 1 << 7,		/* one argN condition or more */
	PC_OPT_RETVAL = 1 << 8,		/* one retval condition or more */
	PC_OPT_CALLER = 1 << 9,		/* one caller condition or more */
	PC_OPT_MS = 1 << 12,		/* ms=: delay and spin only */
};

/*
 * ms=: how long delay and spin hold the path up, in milliseconds.  A
 * spin is capped below the soft-lockup detector's shortest window (2 x
 * watchdog_thresh, at least 2 s): a longer one is a lockup, and the
 * lockup types are for that.
 */
#define PC_MS_DEFAULT	100
#define PC_MS_MAX	10000
#define PC_SPIN_MS_MAX	1000

/*
 * argN and retval take KEY OP VALUE, OP one of these, in the value's
 * width (&: every bit of VALUE is set).  < <= > >= compare as signed if
 * the width is, else as unsigned.
 */
enum pc_cmp_op {
	PC_CMP_EQ,
	PC_CMP_NE,
	PC_CMP_LT,
	PC_CMP_LE,
	PC_CMP_GT,
	PC_CMP_GE,
	PC_CMP_AND,
};

/* pc_compare.key: 1 to 6 for arg1 to arg6, or this. */
#define PC_KEY_RETVAL	7

/* How many argN and retval conditions a line may give. */
#define PC_COMPARE_MAX	8

/* How a VALUE is listed: as it was written, up to case and zeros. */
enum pc_value_form {
	PC_FORM_DEC,		/* 4096 */
	PC_FORM_NEG,		/* -1 */
	PC_FORM_HEX,		/* 0x40 */
	PC_FORM_ERRNO,		/* -EIO: pc_compare.errno_index names it */
};

/*
 * pc_compare.width: how many low bits of the register the value has
 * (8, 16, 32 or 64), and PC_WIDTH_SIGNED if it is signed; 0 while not
 * known.  A register is not sign- or zero-extended past the width of
 * the value it holds (x86-64 and arm64 leave the upper bits undefined):
 * KEY:WIDTH gives it (arg2:s32), else the module reads it from the
 * function's prototype in BTF when the point is armed.
 */
#define PC_WIDTH_SIGNED		0x80
#define PC_WIDTH_BITS(w)	((w) & 0x7f)

struct pc_compare {
	unsigned long value;
	unsigned char key;		/* 1 to 6, or PC_KEY_RETVAL */
	unsigned char op;		/* enum pc_cmp_op */
	unsigned char form;		/* enum pc_value_form */
	unsigned char errno_index;	/* PC_FORM_ERRNO: in parse_compare.c */
	unsigned char width;		/* PC_WIDTH_*; 0: not known yet */
	unsigned char width_given;	/* KEY:WIDTH was written */
};

#ifdef __KERNEL__
#define PC_PARSE_INLINE	__always_inline
#else
#define PC_PARSE_INLINE	inline
#endif

/*
 * @v's low bits that @width names, sign- or zero-extended to a long; @v
 * itself when the width is 64 bits or not known.
 */
static PC_PARSE_INLINE unsigned long pc_compare_narrow(unsigned int width,
						       unsigned long v)
{
	unsigned int shift = 8 * sizeof(long) - PC_WIDTH_BITS(width);

	if (!PC_WIDTH_BITS(width) || !shift)
		return v;
	if (width & PC_WIDTH_SIGNED)
		return (unsigned long)((long)(v << shift) >> shift);
	return v << shift >> shift;
}

/* Whether @reg, an argument's or the return value's register, meets @c. */
static PC_PARSE_INLINE int pc_compare_holds(const struct pc_compare *c,
					    unsigned long reg)
{
	unsigned long v = pc_compare_narrow(c->width, reg);
	unsigned long value = pc_compare_narrow(c->width, c->value);
	int is_signed = !PC_WIDTH_BITS(c->width) ||
			(c->width & PC_WIDTH_SIGNED);

	switch (c->op) {
	case PC_CMP_EQ:
		return v == value;
	case PC_CMP_NE:
		return v != value;
	case PC_CMP_LT:
		return is_signed ? (long)v < (long)value : v < value;
	case PC_CMP_LE:
		return is_signed ? (long)v <= (long)value : v <= value;
	case PC_CMP_GT:
		return is_signed ? (long)v > (long)value : v > value;
	case PC_CMP_GE:
		return is_signed ? (long)v >= (long)value : v >= value;
	case PC_CMP_AND:
		return (v & value) == value;
	}
	return 0;
}

/*
 * When an armed point fires, checked in this order on each hit: pid, comm,
 * cpu, the argN (at an entry) or retval (at %return) conditions, then the
 * caller conditions (a stack walk) decide whether the hit is eligible;
 * eligible hits are counted;
 * the point fires on the after-th eligible hit and then on every every-th
 * one, each time with the given probability, and no more than "times"
 * times in all.
 */
struct pc_conditions {
	/* First what every hit reads: one cache line in struct pc_point. */
	int pid;			/* -1: any task */
	int cpu;			/* -1: any CPU */
	char comm[PC_COMM_MAX];		/* "": any name */
	unsigned int given;		/* PC_OPT_* bits set on the line */
	unsigned int probability;	/* percent, 100 */
	unsigned long after;		/* 1: from the first eligible hit */
	unsigned long every;		/* 1: every eligible hit from then on */
	long times;			/* 1; -1 for no limit */
	unsigned int ncompare;		/* argN and retval conditions, */
	unsigned int ms;		/* ms=, or PC_MS_DEFAULT */
	struct pc_compare compare[PC_COMPARE_MAX];	/* all must hold */
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

/*
 * How many caller= and caller!= conditions a line may give: each costs a
 * pass over the hit's stack, and a grace period when it is armed.
 */
#define PC_CALLER_MAX	4

/*
 * caller=SYMBOL: SYMBOL's code must be on the hit's kernel stack (within
 * PC_CALLER_FRAMES frames); caller!=SYMBOL: it must not.  The module
 * looks the name up when the point is armed.
 */
struct pc_caller {
	char symbol[PC_SYMBOL_MAX];	/* SYMBOL or MODULE:SYMBOL */
	unsigned char negate;		/* caller!= */
};

/* The frames of the hit's stack a caller condition looks at. */
#define PC_CALLER_FRAMES	32

struct pc_line {
	enum pc_op op;
	char symbol[PC_SYMBOL_MAX];	/* SYMBOL or MODULE:SYMBOL */
	size_t module_len;	/* MODULE:SYMBOL: the length of MODULE; else 0 */
	unsigned long offset;
	int on_return;		/* SYMBOL%return: fire when it returns */
	int type;		/* index into PC_CRASH_TYPES, for PC_OP_ARM */
	struct pc_conditions cond;	/* for PC_OP_ARM */
	/*
	 * The caller conditions, for PC_OP_ARM (cond.given has
	 * PC_OPT_CALLER): here, not in cond, as a point keeps only their
	 * addresses, and cond is copied into every point.
	 */
	unsigned int ncaller;
	struct pc_caller caller[PC_CALLER_MAX];
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

/*
 * parse_compare.c: parse the OP VALUE of argN or retval (@key) at
 * line[*pos], the KEY just before it, into @cond; @place: the line's
 * place, PC_PLACE_*.  Its errno names: pc_errno_name() gives the name at
 * an index, or NULL.
 */
enum {
	PC_PLACE_ENTRY,		/* SYMBOL, or SYMBOL+0 */
	PC_PLACE_OFFSET,	/* SYMBOL+OFFSET */
	PC_PLACE_RETURN,	/* SYMBOL%return */
};

int pc_parse_compare(const char *line, size_t len, size_t *pos,
		     size_t key_pos, unsigned int key, int place,
		     struct pc_conditions *cond, struct pc_parse_error *error);
const char *pc_errno_name(unsigned int index);

/*
 * argN (1 to 6) or retval, alone or with :WIDTH after it, in the @n
 * bytes at @key: its pc_compare.key, or 0.
 */
unsigned int pc_compare_key(const char *key, size_t n);

/*
 * Give @c the width @width (PC_WIDTH_*): 0, or -ERANGE when its value
 * does not fit that width (a bit pattern in 0x hex does: 0xffffffff for
 * s32 is -1).  The module calls it with a width read from BTF.
 */
int pc_compare_set_width(struct pc_compare *c, unsigned int width);

/* Append " KEY OP VALUE" for each of @cond's compares to @buf. */
void pc_compares_format(const struct pc_conditions *cond, char *buf,
			size_t size, size_t *used);

/*
 * parse_caller.c: parse the OP SYMBOL of caller at line[*pos], the key
 * at @key_pos, into @out.  pc_callers_format(): append " caller=SYMBOL"
 * or " caller!=SYMBOL" for each of @out's, as written, to @buf.
 */
int pc_parse_caller(const char *line, size_t len, size_t *pos,
		    size_t key_pos, struct pc_line *out,
		    struct pc_parse_error *error);
void pc_callers_format(const struct pc_line *out, char *buf, size_t size,
		       size_t *used);

/* Index of the crash type called @name (@len bytes), or -1. */
int pc_crash_type_index(const char *name, size_t len);

/* The name of crash type @index, or NULL when out of range. */
const char *pc_crash_type_name(int index);

#endif /* PROVOKE_CRASH_PARSE_H */
