// SPDX-License-Identifier: GPL-2.0
/*
 * The handlers of points that are kprobes: an offset, an entry that is
 * not an ftrace call site (or when the fast path is not there), and the
 * entry probe of a %return point.
 *
 * A fatal crash does not run in the handler (with preemption off, or in
 * the int3 or BRK trap, where every oops panics): the handler claims a
 * path slot and points the probed task's instruction pointer at
 * pc_redirected(), which runs the crash in the path's own context.  So
 * each hit checks the path's own context: a trap's handler sees it
 * exactly (the trap's own levels come off the preemption count, and the
 * interrupt flag is in the trapped registers); a probe on an ftrace call
 * site runs in an ftrace callback, whose levels of preemption vary, so
 * it sees the path's interrupts but not its preemption, and types that
 * need a preemptible path are refused there when armed (point_stage.c).
 */
#include <linux/kprobes.h>

#include "arch.h"
#include "crashpoint.h"

/*
 * The context a kprobe handler runs in: a probe on an ftrace call site
 * runs in the probed task with preemption off; any other probe starts as
 * a breakpoint trap, which the kernel treats like an NMI.
 */
int pc_probe_context(struct kprobe *kp)
{
	/* Set only on a kernel with CONFIG_KPROBES_ON_FTRACE. */
	if (kprobe_ftrace(kp))
		return PC_CTX_ATOMIC;
	return PC_CTX_NMI;
}

/*
 * The deepest context the probed path itself was in.  A type that runs
 * in the handler needs the handler's own (an optimized kprobe's is not a
 * trap: only its NMI state is known, and only NMI-safe types run there).
 */
static int pc_trapped_context(struct pc_point *point, struct pt_regs *regs)
{
	struct kprobe *kp = &point->rp.kp;

	if (!point->redirect)
		return in_nmi() ? PC_CTX_NMI : point->context;
	if (pc_probe_sees_preemption(kp))
		return pc_context_of(preempt_count() - pc_arch_trap_count(),
				     !pc_arch_regs_irqs_on(regs));
	/* In the path, under ftrace's unknown levels: at best irqs. */
	if (in_nmi())
		return PC_CTX_NMI;
	if (irqs_disabled() || in_hardirq())
		return PC_CTX_ATOMIC;
	return PC_CTX_IRQS;
}

NOKPROBE_SYMBOL(pc_trapped_context);

/* A kretprobe's handler, from the return trampoline: it runs there. */
static int pc_return_context(struct pc_point *point, struct pt_regs *regs)
{
	return in_nmi() ? PC_CTX_NMI : PC_CTX_ATOMIC;
}

NOKPROBE_SYMBOL(pc_return_context);

bool pc_compares_hold(const struct pc_conditions *cond, struct pt_regs *regs)
{
	const struct pc_compare *c;
	unsigned long value;
	unsigned int i;

	for (i = 0; i < cond->ncompare; i++) {
		c = &cond->compare[i];
		if (c->key == PC_KEY_RETVAL)
			value = regs_return_value(regs);
		else
			value = regs_get_kernel_argument(regs, c->key - 1);
		if (!pc_compare_holds(c, value))
			return false;
	}
	return true;
}

NOKPROBE_SYMBOL(pc_compares_hold);

/*
 * The entry of a call of a fatal %return point with retval conditions:
 * only pid, comm and cpu are known here.  The call is diverted, and its
 * landing decides the rest once retval holds (pc_point_landed()), so
 * that after=, every=, probability= and times= count only calls whose
 * retval matched.  A call that cannot be diverted is missed: it claimed
 * nothing.  A call its caller conditions turn away is filtered here.
 */
static int pc_return_hit_undecided(struct pc_point *point,
				   struct pt_regs *regs)
{
	if (!pc_hit_passes(point))
		return 0;
	/* The callers are the same at the return: no diversion for them. */
	if (unlikely(point->cond.given & PC_OPT_CALLER) &&
	    !pc_callers_hold(point->callers, pc_entry_link(regs)))
		return 0;
	switch (pc_return_divert(point, regs)) {
	case PC_DIVERT_NONE:
		atomic_long_inc(&point->missed);
		return 0;
	case PC_DIVERT_SWAPPED:
		return 0;
	case PC_DIVERT_SHIFTED:
		return 1;
	}
	return 0;
}

NOKPROBE_SYMBOL(pc_return_hit_undecided);

bool pc_retval_holds(const struct pc_conditions *cond, unsigned long reg)
{
	unsigned int i;

	for (i = 0; i < cond->ncompare; i++)
		if (!pc_compare_holds(&cond->compare[i], reg))
			return false;
	return true;
}

NOKPROBE_SYMBOL(pc_retval_holds);

/* Never called: its presence keeps kprobes from optimizing the probe. */
void pc_point_post(struct kprobe *kp, struct pt_regs *regs,
		   unsigned long flags)
{
}

int pc_point_hit(struct kprobe *kp, struct pt_regs *regs)
{
	struct pc_point *point = container_of(kp, struct pc_point, rp.kp);
	struct pc_path *path;

	/* Enabled, but its write has not committed (or will not). */
	if (!pc_point_counts(point))
		return 0;
	/* A fatal %return point with retval decides at the landing. */
	if (unlikely(point->cond.given & PC_OPT_RETVAL))
		return pc_return_hit_undecided(point, regs);
	/* At an entry: argN (a %return point's entry has none). */
	switch (pc_point_decide(point, pc_trapped_context, regs, PC_OPT_ARG,
				point->rp.kp.offset ? 0 : pc_entry_link(regs))) {
	case PC_HIT_FILTERED:
	case PC_HIT_MISSED:
		return 0;
	case PC_HIT_RUN_HERE:
		/* In a breakpoint's handler, the trap's levels are not the path's. */
		pc_point_run_here(point, pc_probe_sees_preemption(&point->rp.kp) ?
					 pc_arch_trap_count() : 0);
		return 0;
	case PC_HIT_RUN_IN_PATH:
		break;
	}
	if (point->on_return) {
		/* A fatal crash when the function returns: probe_return.c. */
		switch (pc_return_divert(point, regs)) {
		case PC_DIVERT_NONE:
			pc_point_missed(point);
			return 0;
		case PC_DIVERT_SWAPPED:
			return 0;
		case PC_DIVERT_SHIFTED:
			return 1;
		}
	}
	path = pc_path_claim(point->type, point->where, pc_point_missed_late,
			     point->id);
	if (!path) {
		pc_point_missed(point);
		return 0;
	}
	pc_arch_redirect(regs, pc_redirected, (unsigned long)path,
			 (unsigned long)kp->addr, !kprobe_ftrace(kp));
	/* regs' instruction pointer changed: kprobes must not single-step. */
	return 1;
}

/* The handlers themselves must never be probed: they would recurse. */
NOKPROBE_SYMBOL(pc_point_hit);

int pc_point_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *rp = pc_get_kretprobe(ri);
	struct pc_point *point;

	/* NULL while the kretprobe is being unregistered. */
	if (!rp)
		return 0;
	point = container_of(rp, struct pc_point, rp);
	/* Never PC_HIT_RUN_IN_PATH: fatal %return points are entry probes. */
	if (pc_point_counts(point) &&
	    pc_point_decide(point, pc_return_context, regs, PC_OPT_RETVAL, 0) ==
	    PC_HIT_RUN_HERE)
		pc_point_run_here(point, 0);
	return 0;
}

NOKPROBE_SYMBOL(pc_point_return);
