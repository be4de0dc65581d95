// SPDX-License-Identifier: GPL-2.0
/*
 * The handlers of points that are kprobes: an offset, an entry that is
 * not an ftrace call site (or when the fast path is not there), and the
 * entry probe of a %return point.
 *
 * A fatal crash does not run in the handler (with preemption off, or in
 * the int3 or BRK trap, where every oops panics): the handler claims a
 * path slot and points the probed task's instruction pointer at
 * pc_redirected(), which runs the crash in the path's own context.  A
 * handler cannot see the trapped path's preemption state, so types whose
 * crash comes later (PC_CTX_PREEMPT, PC_CTX_IRQS) are refused at such
 * points when armed (points.c); what is checked here, at each hit, is
 * whether the path was in NMI.
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

/* The deepest context the probed path itself was in, as far as we see. */
static int pc_trapped_context(struct kprobe *kp)
{
	if (pc_probe_context(kp) == PC_CTX_NMI)
		return pc_arch_trap_in_nmi() ? PC_CTX_NMI : PC_CTX_ATOMIC;
	return in_nmi() ? PC_CTX_NMI : PC_CTX_ATOMIC;
}

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
	if (!READ_ONCE(point->armed) || !pc_point_counts(point))
		return 0;
	if (!pc_path_may_run(point->type, pc_trapped_context(kp),
			     point->where, &point->miss_told)) {
		pc_point_missed(point);
		return 0;
	}
	if (point->on_return) {
		/* A fatal crash when the function returns: return_path.c. */
		if (!pc_return_divert(point, regs))
			pc_point_missed(point);
		return 0;
	}
	if (!point->redirect) {
		pc_crash_run(point->type, point->where);
		return 0;
	}
	path = pc_path_claim(point->type, point->where);
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
	struct kretprobe *rp = get_kretprobe(ri);
	struct pc_point *point;

	/* NULL while the kretprobe is being unregistered. */
	if (!rp)
		return 0;
	point = container_of(rp, struct pc_point, rp);
	if (!READ_ONCE(point->armed) || !pc_point_counts(point))
		return 0;
	if (!pc_path_may_run(point->type, in_nmi() ? PC_CTX_NMI : PC_CTX_ATOMIC,
			     point->where, &point->miss_told))
		pc_point_missed(point);
	else
		pc_crash_run(point->type, point->where);
	return 0;
}

NOKPROBE_SYMBOL(pc_point_return);
