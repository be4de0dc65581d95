/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running a crash in a probed path, out of any probe handler: the bottom
 * layer under probe_ftrace.c, probe_kprobe.c and probe_return.c.
 *
 * A handler that sends its path into a crash claims a struct pc_path: a
 * copy of what the crash needs (so nothing reads the point afterwards,
 * and disarming may free it at once), the task that runs it, and a
 * reference on this module (so rmmod cannot free the code the path is
 * about to run).  The path never gives it back: it never returns.  The
 * slot goes back when its task dies: at the oops (a die notifier), when
 * it exits (the sched_process_exit tracepoint), or, failing those, when
 * the reclaim work (polling while any slot is held) finds it dead.
 */
#ifndef PROVOKE_CRASH_RUN_IN_PATH_H
#define PROVOKE_CRASH_RUN_IN_PATH_H

#include <linux/sched.h>

#include "provoke_crash.h"
#include "provoke_crash_parse.h"

/* SYMBOL, '+', 0x and 16 hex digits (or %return), NUL. */
#define PC_PLACE_MAX	(PC_SYMBOL_MAX + 20)

struct pc_path {
	struct task_struct *task;	/* NULL while free; holds a reference */
	const struct pc_crash_type *type;
	/* If the crash comes back: count the hit missed, by point id. */
	void (*missed)(unsigned long point_id);
	unsigned long point_id;
	unsigned long frame;		/* %return: the SP it returns with */
	unsigned long ret_addr;		/* %return: where it would return */
	/* x86-64's shifted %return: return_shift_x86.S reads the two. */
	unsigned long shift_resume;	/* where the function's body starts */
	unsigned long shift_bytes;	/* its stack arguments, copied down */
	unsigned long seq;		/* claim order: the newest wins a tie */
	unsigned int ms;		/* a stall's ms=; 0: its default */
	int stall_context;		/* a running stall's ftrace context; -1 */
	bool ran;			/* its crash was started */
	bool resumable;			/* %return: its caller may go on */
	/*
	 * %return, set when ->resumable: asked at the landing, with what
	 * the function returned, whether the crash runs; if not, the caller
	 * goes on with that value (the point was disarmed, or its retval
	 * conditions, decided there, turned the call away).
	 */
	bool (*land)(struct pc_path *path, unsigned long retval);
	char where[PC_PLACE_MAX];
};

/*
 * The deepest context (PC_CTX_*) of a path whose preemption count is
 * @count and whose interrupts are off if @irqs_off.  pc_context_now():
 * the running code's, not counting @levels of preemption its caller
 * added (ftrace's, for a callback).
 */
int pc_context_of(unsigned int count, bool irqs_off);
int pc_context_now(unsigned int levels);

/*
 * Whether @type can run, and complete, in @context; if not, logs why the
 * hit at @where is missed, the first time @told (a point's) is clear.
 */
bool pc_path_may_run(const struct pc_crash_type *type, int context,
		     const char *where, unsigned long *told);

/*
 * From a handler: a slot for current, or NULL (the hit is then missed).
 * If the crash comes back, the slot calls @missed(@point_id).
 */
struct pc_path *pc_path_claim(const struct pc_crash_type *type,
			      const char *where,
			      void (*missed)(unsigned long point_id),
			      unsigned long point_id);

/*
 * Whether current already stalls (delay, spin) in ftrace's recursion
 * @context: a hit of @type at @where is then in what that stall runs, and
 * must not nest a stall in it (logs why).  A stall marks its slot's
 * ->stall_context before it runs; the mark goes with the slot.
 */
bool pc_path_stalling(const struct pc_crash_type *type, const char *where,
		      int context);

/* The current task's diverted frame nearest at or above @sp. */
struct pc_path *pc_path_find_frame(unsigned long sp);

/*
 * Run the slot's crash; the path it replaced cannot go on: if the crash
 * does not happen, say so, count the hit missed, and BUG().
 */
void __noreturn pc_path_run(struct pc_path *path);

/*
 * Run the slot's crash in a path that can go on (an ftrace callback's
 * caller): if the crash does not happen, say so, count the hit missed
 * and return (a stall, which goes on by design, counts missed only if it
 * did not hold the path up its full time); the caller
 * then gives the slot back (pc_path_give_back(), with preemption off: the
 * module reference goes with it, and only ftrace's grace period then
 * keeps the module's code there until the callback is left) and the path
 * resumes.
 */
void pc_path_run_or_resume(struct pc_path *path);
void pc_path_give_back(struct pc_path *path);

/*
 * A %return landing: run the crash of each slot diverted at @frame,
 * @path (the newest) first, where the function returned @retval (its
 * return register), unless the slot's ->land() says no: then the slot is
 * given back and the caller goes on;
 * if it returns, say so, count the hit missed and give the slot back, so
 * that the caller goes on with what the function returned.  Only when
 * ->resumable (a C function, with an ftrace site: the landing keeps only
 * the return registers, and an assembly helper's caller may expect more;
 * not in the idle task, which RCU tasks does not wait for), and not if
 * the crash is deferred and never came (what it set up is still there):
 * else the path cannot resume, as pc_path_run().
 */
void pc_path_land(struct pc_path *path, unsigned long frame,
		  unsigned long retval);

/* Entered instead of the probed instruction, with the slot as argument. */
void __noreturn pc_redirected(struct pc_path *path);

/* Give back the slots of tasks that died without an oops. */
void pc_path_reclaim(void);

/* pc_path_init(), pc_path_drain() and pc_path_exit(): provoke_crash.h. */

#endif /* PROVOKE_CRASH_RUN_IN_PATH_H */
