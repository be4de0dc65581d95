/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A crash point, shared by points.c and point_stage.c (the registry),
 * control.c (the control file), probe_kprobe.c (kprobe handlers) and
 * probe_ftrace.c (function-entry points through one ftrace_ops).
 */
#ifndef PROVOKE_CRASH_CRASHPOINT_H
#define PROVOKE_CRASH_CRASHPOINT_H

#include <linux/atomic.h>
#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/prandom.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/string.h>

#include "run_in_path.h"
#include "provoke_crash.h"
#include "provoke_crash_parse.h"

/*
 * " after=N every=N times=N probability=N pid=N comm=NAME cpu=N", then up
 * to PC_COMPARE_MAX " retval:s64>=VALUE" (at most 33 bytes each), NUL.
 */
#define PC_OPTIONS_MAX	(160 + PC_COMPARE_MAX * 34)

/*
 * A point's caller conditions, resolved when it is armed
 * (point_caller.c): each an address range [start, start + size) that a
 * hit looks for among the return addresses of its stack.  The range is
 * only compared, never read through.  A range in a module is emptied
 * (size 0, WRITE_ONCE()) by the module notifier, under pc_points_lock,
 * when that module goes away, or its init code when that is freed,
 * before the text can be reused: from then on caller= never holds and
 * caller!= always does.  Freed with its point (pc_point_free()).
 */
struct pc_caller_range {
	unsigned long start;
	unsigned long size;	/* READ_ONCE(): 0 once its code is gone */
	bool negate;		/* caller!= */
};

struct pc_callers {
	unsigned int n;
	struct pc_caller_range range[PC_CALLER_MAX];
	char listed[];		/* " caller=SYMBOL..." as written */
};

/*
 * Where a point is in its life.  control.c's writes change it, through
 * points.c and point_stage.c, under pc_points_lock and with
 * WRITE_ONCE(); the handlers read it without a lock (pc_point_counts()).
 * A write stages its lines, then commits them all or none:
 *
 *   STAGED   -> DROPPED   a later line of its write disarms it
 *   STAGED   -> LIVE      pc_points_enable() enabled its probe (back to
 *                         STAGED if another probe of the write fails)
 *   LIVE     -> ARMED     its write commits
 *   ARMED    -> DOOMED    a line of a write disarms it (back to ARMED if
 *                         that write fails)
 *   DOOMED   -> DISARMED  that write commits: it stops counting before
 *                         the write's new points start
 *
 * Only ARMED and DOOMED count hits, so one comparison tells a handler.
 * Its probe is enabled from LIVE on (a fast point is then in
 * probe_ftrace.c's table).  A point is freed, once its probes are out
 * and their handlers done: STAGED or DROPPED when its write fails,
 * DROPPED or DISARMED when it commits, in any state at unload.
 */
enum pc_point_state {
	PC_POINT_STAGED,	/* registered, disabled: by the write applied */
	PC_POINT_DROPPED,	/* staged, and disarmed again by that write */
	PC_POINT_LIVE,		/* enabled; hits ignored until the commit */
	PC_POINT_DISARMED,	/* enabled; hits ignored until it is freed */
	PC_POINT_ARMED,		/* committed: hits count */
	PC_POINT_DOOMED,	/* armed, disarmed by the write applied */
};

/*
 * A point lives on points.c's list, under pc_points_lock.  Handlers
 * reach it without a lock: a kprobe's through container_of() (unregister
 * waits for running handlers), a fast point's through probe_ftrace.c's RCU
 * table (freeing waits a grace period).  Nothing reads a point after its
 * handler returns but pc_point_missed_late(), which finds it by id on the
 * RCU list: a crash in the path runs from a copy (run_in_path.h).
 */
struct pc_point {
	struct list_head list;
	struct hlist_node entry_node;	/* in probe_ftrace.c's table, by address */
	unsigned long entry_ip;		/* ftrace call site of an entry point */
	/*
	 * rp.kp is the probe; rp itself for %return.  An entry point on the
	 * fast path keeps its kprobe registered but disabled: it resolved the
	 * symbol and holds the place against a second point there.
	 */
	struct kretprobe rp;
	bool on_return;
	bool fast;		/* fires through probe_ftrace.c, not the kprobe */
	enum pc_point_state state;	/* READ_ONCE() without the lock */
	const struct pc_crash_type *type;
	int context;		/* PC_CTX_* the handler runs in */
	bool redirect;		/* the crash runs in the path: context=path */
	unsigned long id;	/* unique: how a crash in a path names it */
	/*
	 * Each hit is exactly one of filtered, fired or missed, so filtered
	 * is not kept: it is hits - fired - missed, once every handler is
	 * done (a hit that does not fire costs one atomic, not two).
	 */
	atomic_long_t hits;	/* every time the probe was hit while armed */
	/*
	 * Hits that passed pid, comm, cpu, the argN or retval conditions and
	 * the caller ones, and went on to after= and every=.  A fast point's
	 * hit that its callback must refuse (ftrace recursion, or RCU not
	 * watching) passed pid, comm, cpu and argN, and goes straight to
	 * missed, its callers unasked: it counts in hits and missed only
	 * (probe_ftrace.c).  A fatal %return point with retval
	 * counts a call in hits at its entry and decides the rest where it
	 * returns (pc_point_landed()): until then it shows as filtered.
	 */
	atomic_long_t eligible;
	atomic_long_t claimed;	/* firings granted against times= */
	atomic_long_t fired;	/* ran, and completed or never came back */
	atomic_long_t missed;	/* could not run there, or refused: above */
	unsigned long miss_told;	/* bit 0: the first such miss was logged */
	/*
	 * After the counters: pid, comm and cpu, which every hit reads, stay
	 * near hits, which every hit counts; the argN and retval conditions
	 * at its end come after them.
	 */
	struct pc_conditions cond;
	struct pc_callers *callers;	/* NULL without caller conditions */
	char where[PC_PLACE_MAX];	/* SYMBOL[+OFFSET|%return] as listed */
	char options[PC_OPTIONS_MAX];	/* as listed: the non-default ones */
	char symbol[PC_SYMBOL_MAX];
};

/* points.c: the lock on the list, the points' states, probe_ftrace's table. */
extern struct mutex pc_points_lock;

/* Whether a hit of @point counts: see enum pc_point_state. */
static __always_inline bool pc_point_counts(const struct pc_point *point)
{
	return READ_ONCE(point->state) >= PC_POINT_ARMED;
}

/* probability=: a per-CPU generator, safe in any context. */
DECLARE_PER_CPU(struct rnd_state, pc_rnd);

/* comm= without a call: strncmp() may itself be a traced function. */
static __always_inline bool pc_comm_is(const char *comm, const char *want)
{
	int i;

	for (i = 0; i < PC_COMM_MAX && want[i]; i++)
		if (comm[i] != want[i])
			return false;
	return i == PC_COMM_MAX || !comm[i];
}

/*
 * Count a hit, and whether it passes pid, comm and cpu: loads and one
 * atomic, no call, so that a handler may run it before its recursion
 * guard (probe_ftrace.c).
 */
static __always_inline bool pc_hit_passes(struct pc_point *point)
{
	const struct pc_conditions *cond = &point->cond;

	atomic_long_inc(&point->hits);
	if (cond->pid >= 0 && task_pid_nr(current) != cond->pid)
		return false;
	if (cond->comm[0] && !pc_comm_is(current->comm, cond->comm))
		return false;
	if (cond->cpu >= 0 && raw_smp_processor_id() != cond->cpu)
		return false;
	return true;
}

/*
 * Whether every argN (at an entry) or retval (at a kretprobe's return)
 * condition of @cond holds on a probe's registers (probe_kprobe.c).  Out
 * of line: the loop and its registers would cost every hit of every
 * point, given or not.
 */
bool pc_compares_hold(const struct pc_conditions *cond, struct pt_regs *regs);

/*
 * Whether every caller condition holds on the hit's stack: a walk of
 * PC_CALLER_FRAMES frames, the last and dearest check (point_caller.c;
 * any context a handler runs in).  Called only with PC_OPT_CALLER.
 */
bool pc_callers_hold(const struct pc_callers *callers, unsigned long link);

/*
 * Whether a hit that passed pid, comm, cpu, argN or retval and caller
 * passes the rest, in the documented order: after and every on the count of eligible hits, then
 * probability, then times.  Lock-free: atomics only, so any context may
 * run it.  times= is a claim that never goes past the limit, so a hit
 * turned away by it takes nothing; a claimed hit that then misses gives
 * its claim back (pc_point_missed()).
 */
static __always_inline bool pc_should_fire(struct pc_point *point)
{
	const struct pc_conditions *cond = &point->cond;
	unsigned long n;

	n = atomic_long_inc_return(&point->eligible);
	if (n < cond->after)
		return false;
	if (cond->every > 1 && (n - cond->after) % cond->every)
		return false;
	if (cond->probability < 100 &&
	    prandom_u32_state(this_cpu_ptr(&pc_rnd)) % 100 >= cond->probability)
		return false;
	if (cond->times >= 0 &&
	    !atomic_long_add_unless(&point->claimed, 1, cond->times))
		return false;
	return true;
}

/*
 * A hit that passed the conditions but whose crash could not run, or
 * did not complete, where it happened: it moves from fired to missed and
 * gives back its claim on times=.
 */
static __always_inline void pc_point_missed(struct pc_point *point)
{
	atomic_long_dec(&point->fired);
	if (point->cond.times >= 0)
		atomic_long_dec(&point->claimed);
	atomic_long_inc(&point->missed);
}

/* What a handler does with a hit of an armed point. */
enum pc_hit {
	PC_HIT_FILTERED,	/* the conditions turned it away */
	PC_HIT_MISSED,		/* the type cannot run in the path's context */
	PC_HIT_RUN_HERE,	/* run the type in the handler */
	PC_HIT_RUN_IN_PATH,	/* send the path into the crash */
};

/*
 * A hit that passed every condition, in the path's @context: it counts
 * as fired at once (a fatal crash never comes back to say so); if the
 * type cannot run in @context, or the crash then cannot run or complete,
 * it moves to missed.
 */
static __always_inline enum pc_hit pc_point_fire(struct pc_point *point,
						 int context)
{
	atomic_long_inc(&point->fired);
	if (!pc_path_may_run(point->type, context, point->where,
			     &point->miss_told)) {
		pc_point_missed(point);
		return PC_HIT_MISSED;
	}
	return point->redirect ? PC_HIT_RUN_IN_PATH : PC_HIT_RUN_HERE;
}

/*
 * The one decision every kind of point makes for a hit of an armed
 * point, so that they count alike: each hit is exactly one of filtered,
 * fired or missed.  @context tells the path's context, asked only for a
 * hit that passed the conditions (the cost of a hit that does not fire
 * stays the conditions' alone).  @compares: which of argN (PC_OPT_ARG,
 * at an entry) and retval (PC_OPT_RETVAL, at a kretprobe's return)
 * @regs can tell; a point without them pays one bit test, and one more
 * for caller, whose stack walk comes last (@link: a return address
 * that only a register holds, or 0: pc_entry_link()).
 * probe_ftrace.c, which must guard itself after pid, comm, cpu and argN,
 * takes the same steps apart: pc_hit_passes() and its argN check, then
 * with its guard the caller check, pc_should_fire(), pc_point_fire().
 */
static __always_inline enum pc_hit
pc_point_decide(struct pc_point *point,
		int (*context)(struct pc_point *, struct pt_regs *),
		struct pt_regs *regs, unsigned int compares,
		unsigned long link)
{
	if (!pc_hit_passes(point))
		return PC_HIT_FILTERED;
	if (unlikely(point->cond.given & compares) &&
	    !pc_compares_hold(&point->cond, regs))
		return PC_HIT_FILTERED;
	if (unlikely(point->cond.given & PC_OPT_CALLER) &&
	    !pc_callers_hold(point->callers, link))
		return PC_HIT_FILTERED;
	if (!pc_should_fire(point))
		return PC_HIT_FILTERED;
	return pc_point_fire(point, context(point, regs));
}

/*
 * Run a type in the handler (PC_HIT_RUN_HERE); a crash that could not
 * run or did not complete counts as missed.  @trap: see pc_crash_run_at().
 */
static __always_inline void pc_point_run_here(struct pc_point *point,
					      unsigned int trap)
{
	int ret = pc_crash_run_at(point->type, point->where, point->cond.ms,
				  trap);

	if (!pc_crash_completed(point->type, ret))
		pc_point_missed(point);
}

/*
 * A path sent into its crash (PC_HIT_RUN_IN_PATH) whose crash did not
 * happen: count the hit as missed if its point still exists (points.c;
 * any context).  The slot names the point by its id: the point may have
 * been disarmed and freed while the crash ran.
 */
void pc_point_missed_late(unsigned long id);

/*
 * A fatal %return point's diverted call that never came back through its
 * landing, undecided (retval conditions): it counts as missed, having
 * claimed nothing (points.c; any context).
 */
void pc_point_missed_undecided(unsigned long id);

/*
 * A resumable %return landing's ->land(), with the function's return
 * register @retval: whether the crash runs (points.c; any context).
 * The call's hit was counted at the entry.  If a write disarmed the
 * point since, the function returns.  With retval conditions the landing
 * decides them, then after=, every=, probability=, times= and the path's
 * context, as an entry does.
 */
bool pc_point_landed(struct pc_path *path, unsigned long retval);

/* Whether every retval condition of @cond holds on return register @reg. */
bool pc_retval_holds(const struct pc_conditions *cond, unsigned long reg);

/*
 * btf_width.c, for a registered point: give each argN and retval
 * condition without KEY:WIDTH the width of the function's argument or
 * return value in BTF; 0, or -EINVAL (logged) where it is not known, or
 * -ERANGE where the value does not fit it.
 */
int pc_point_widths(struct pc_point *point);

/*
 * probe_kprobe.c: the kprobe and kretprobe handlers.
 */
int pc_point_hit(struct kprobe *kp, struct pt_regs *regs);
void pc_point_post(struct kprobe *kp, struct pt_regs *regs,
		   unsigned long flags);
int pc_point_return(struct kretprobe_instance *ri, struct pt_regs *regs);
int pc_probe_context(struct kprobe *kp);

/*
 * Whether a kprobe's handler can tell if the path was preemptible: a
 * breakpoint trap can, a probe on an ftrace call site (whose levels of
 * preemption vary) cannot.
 */
static __always_inline bool pc_probe_sees_preemption(struct kprobe *kp)
{
	return !kprobe_ftrace(kp);
}

/*
 * probe_return.c.  pc_return_divert(): make the function whose entry
 * @regs is at return into the point's crash; false if it cannot.
 *
 * return_landing_x86.c or return_landing.c, as Kbuild picks: where the
 * function returns, pc_return_landing (assembly that hands over to
 * pc_return_landed() on x86-64, pc_return_landed_c() on arm64).  If the
 * crash does not happen, the landing returns to the function's caller
 * with the function's return value: struct pc_return_value on x86-64
 * (%rax, %rdx), the address to go on at on arm64 (its stub keeps x0, x1).
 */
struct pc_return_value {
	unsigned long ax, dx;
};

enum pc_divert {
	PC_DIVERT_NONE,		/* no slot: the hit is missed */
	PC_DIVERT_SWAPPED,	/* its return address is the landing */
	PC_DIVERT_SHIFTED,	/* it runs lower: regs' ip changed */
};

enum pc_divert pc_return_divert(struct pc_point *point, struct pt_regs *regs);

/*
 * A landing found no slot: no return address to go back to.  Inline, so
 * that objtool sees in each landing's own file that it does not return.
 */
#define pc_return_no_slot()						\
	do {								\
		pr_emerg("crashpoints: a %%return landing with no crash noted for %s[%d]: BUG\n", \
			 current->comm, task_pid_nr(current));		\
		BUG();	/* BUG on purpose: nowhere to return to */	\
	} while (0)
void pc_return_landing(void);
unsigned long pc_return_landed_c(unsigned long *record);
struct pc_return_value pc_return_landed(unsigned long *ret_slot,
					unsigned long ax, unsigned long dx);

/*
 * probe_ftrace.c.  pc_entry_can_be_fast(): whether a registered (disabled)
 * entry kprobe's place can fire through the shared ftrace_ops instead; if
 * so, it sets the point's entry_ip.
 * pc_entry_enable(): make points live, all or none, patching every call
 * site in one text update.  pc_entry_disable(): take live points out and
 * wait until the callback cannot see them (an interrupt on every CPU,
 * then an RCU grace period).
 * pc_entry_exit(): unregister the ops, once every point is gone.
 */
bool pc_entry_can_be_fast(struct pc_point *point);
int pc_entry_enable(struct pc_point **points, int n);
void pc_entry_disable(struct pc_point **points, int n);
void pc_entry_exit(void);

/*
 * Where a refused type could be armed instead: "the function entry" if
 * this build has the fast path, else an offset past the ftrace call (an
 * int3 probe sees the path's whole context); for the log lines.  Set by
 * probe_ftrace.c or probe_entry_kprobe.c, whichever this build has.
 */
extern const bool pc_entry_fast_built;
extern const char *const pc_entry_advice;
/* Why a build has no fast path: the words each refusal ends with. */
#define PC_NO_ENTRY_PATH	"this ftrace lacks the module's entry path (5.18's API)"

#endif /* PROVOKE_CRASH_CRASHPOINT_H */
