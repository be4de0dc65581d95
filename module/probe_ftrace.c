// SPDX-License-Identifier: GPL-2.0
/*
 * The fast path for function-entry crash points: one ftrace_ops shared by
 * all of them, instead of a kprobe each.
 *
 * A kprobe on an ftrace call site costs a kprobe lookup, per-CPU kprobe
 * state and a full register save on every hit; this callback finds its
 * point in a small RCU hash table keyed by the call site and checks the
 * conditions, nothing more.  Arming many points in one write adds all
 * their call sites to the ops' filter at once, so the kernel patches the
 * text once, not once per point.
 *
 * The callback runs in the probed task, at the function's first
 * instruction.  The ops has no flags, so ftrace calls it straight from
 * the ops' trampoline (x86), or from ftrace_caller with the ops alone at
 * the site (arm64), and through its list function when the site is
 * shared: not through the assist function, whose guard, RCU check and
 * indirect call cost more than the rest of a hit that does not fire.  So
 * the callback guards itself, in two steps.  With interrupts off it
 * finds the point, counts the hit and checks pid, comm, cpu and the
 * arguments (argN), calling nothing: a hit turned away there costs that
 * alone.  An eligible hit
 * then needs RCU watching and the recursion lock (else it is missed),
 * and gives the path its interrupts back.  The callback then sees the
 * path's real state less the levels of preemption above it
 * (pc_entry_levels()), and decides whether the type can run, and
 * complete, there.  A fatal crash runs in the path: the callback gives
 * those levels back and never returns, so the oops shows the probed
 * function under the ftrace trampoline.
 *
 * Counting: each hit adds to hits in the cheap part.  One the conditions
 * turn away is filtered, which is not kept but read as hits - fired -
 * missed; one refused for recursion or RCU adds to missed (not eligible:
 * it never reached after= or every=); one that fires adds to fired, and
 * moves to missed if its crash cannot run.  So hits = filtered + fired +
 * missed holds for every hit.
 */
#include <linux/ftrace.h>
#include <linux/hashtable.h>
#include <linux/kprobes.h>
#include <linux/lockdep.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/trace_recursion.h>

#include "arch.h"
#include "compat.h"
#include "crashpoint.h"

/*
 * Live fast points by call site.  Written under pc_points_lock only.
 * The callback reads it with interrupts off, maybe where RCU does not
 * watch (a traced function on the way into idle), then, for an eligible
 * hit, with preemption off where RCU watches.  So a point taken out is
 * freed after an interrupt on every CPU, which waits out the first, and
 * an RCU grace period, which waits out the second (pc_entry_disable()).
 * The ops is static and stays registered until unload: ftrace sets its
 * trampoline before any site calls it, keeps it at the same address, and
 * frees it only at unregister, once every callback has left (tasks RCU,
 * which also waits out a callback where RCU does not watch).  A path slot
 * is run_in_path.c's: pc_path_give_back() ends the callback's use of it.
 */
static DEFINE_HASHTABLE(pc_entry_points, 7);
static int pc_entry_live;
static bool pc_entry_registered;

static struct ftrace_ops pc_entry_ops;

const bool pc_entry_fast_built = true;
const char *const pc_entry_advice = "arm it at the function entry";

/*
 * The levels of preemption the callback holds above the path's own: its
 * recursion lock's (always one: ftrace_test_recursion_trylock() disables
 * preemption once, with the transition bit too), and the list function's
 * when that called it (__ftrace_ops_list_func() holds one, under its
 * TRACE_LIST_START bit for this context, or under the transition bit
 * when that context bit is set already).  @caller is where the callback
 * returns to.  What this relies on:
 * - From the ops' own trampoline (x86: the site has no other ops) there
 *   is no list function.
 * - Any other caller is ftrace_caller or the list function.
 *   ftrace_caller calls the callback directly when the ops is the only
 *   one registered (arm64 6.1, ftrace_trace_function), or, on arm64 with
 *   DYNAMIC_FTRACE_WITH_CALL_OPS (6.4 on), when the ops is alone at the
 *   site: its literal ops is this one, since without flags
 *   ftrace_ops_get_func() is the callback itself.  Shared sites get
 *   ftrace_list_ops, whose func is the list function.  Neither direct
 *   call sets a list bit, so the list bit for this context tells.
 * - It tells wrong only for a direct call nested in another ftrace
 *   callback that a list function called in the same context: a point
 *   on a function that such a callback calls.  Then one level too many
 *   comes off, and if that callback held none of its own, a path with
 *   preemption off reads as preemptible.  Most callbacks take this same
 *   recursion lock, which holds a level.
 */
static unsigned int notrace pc_entry_levels(unsigned long caller)
{
	unsigned int list = BIT(TRACE_LIST_START + trace_get_context_bit());

	if (caller - pc_entry_ops.trampoline < pc_entry_ops.trampoline_size)
		return 1;
	return 1 + !!(READ_ONCE(current->trace_recursion) & list);
}

/* The point of call site @ip whose hits count, or NULL. */
static __always_inline struct pc_point *pc_entry_find(unsigned long ip)
{
	struct pc_point *point;

	hash_for_each_possible_rcu_notrace(pc_entry_points, point, entry_node, ip)
		/*
		 * Not committed yet, or in a module that went away (kprobes
		 * marks the point's kprobe gone before the text can be
		 * reused): on to the next one.
		 */
		if (point->entry_ip == ip && pc_point_counts(point) &&
		    !(READ_ONCE(point->rp.kp.flags) & KPROBE_FLAG_GONE))
			return point;
	return NULL;
}

/*
 * A hit that passed pid, comm, cpu and argN, with the recursion lock held
 * and the path's interrupts back: caller, the rest of the conditions,
 * then the path's context, which is
 * the callback's less @levels.  The point stays until a grace period
 * has passed.
 */
static void notrace pc_entry_decide(struct pc_point *point,
				    unsigned int levels, int bit)
{
	struct pc_path *path;
	unsigned int i;
	bool stall;

	/* Last, and under the lock: the unwinder may hit a point too. */
	if (unlikely(point->cond.given & PC_OPT_CALLER) &&
	    !pc_callers_hold(point->callers, 0))
		return;
	if (!pc_should_fire(point))
		return;
	switch (pc_point_fire(point, pc_context_now(levels))) {
	case PC_HIT_FILTERED:
	case PC_HIT_MISSED:
		return;
	case PC_HIT_RUN_HERE:
		pc_point_run_here(point, 0);
		return;
	case PC_HIT_RUN_IN_PATH:
		break;
	}
	path = pc_path_claim(point->type, point->where, pc_point_missed_late,
			     point->id);
	if (!path) {
		pc_point_missed(point);
		return;
	}
	path->ms = point->cond.ms;
	stall = point->type->fate == PC_FATE_STALL;
	/* What pc_path_stalling() looks for, in this task's later hits. */
	if (stall)
		WRITE_ONCE(path->stall_context, trace_get_context_bit());
	/*
	 * A fatal crash never returns to ftrace: give the path back its own
	 * preemption state (the recursion bits for this context stay set:
	 * this task, which is to die, traces nothing more).  So does a
	 * stall (delay, spin), which then lets the path go on: it sleeps or
	 * spins in the path's own state, the slot's module reference
	 * keeping our code.  It also gives back the recursion lock while it
	 * waits, so that other tracers (and livepatch, which warns) still
	 * see what its task runs meanwhile; a hit of a stall in that, in
	 * this task and context, is missed instead of nesting (see
	 * pc_entry_eligible()).  Reached through the list function (a site
	 * shared with another ops), the list's own bit for this context
	 * stays set: its sites then nest one level only, as before.
	 * Nothing here reads the point again: it may be freed while the
	 * crash runs.  If the crash does not happen (the kernel lacks what
	 * the type needs), the slot counts the hit missed by the point's id,
	 * the levels are taken again and the traced function runs on.
	 */
	for (i = 0; i < levels; i++)
		preempt_enable_notrace();
	if (stall) {
		barrier();
		trace_recursion_clear(bit);
		barrier();
	}
	pc_path_run_or_resume(path);
	if (stall) {
		barrier();
		trace_recursion_set(bit);
		barrier();
	}
	for (i = 0; i < levels; i++)
		preempt_disable_notrace();
	pc_path_give_back(path);
}

/*
 * Whether a hit's argN conditions hold: loads only.  Out of line, as
 * regs_get_kernel_argument() brings a stack-protected path (for stack
 * arguments) that an eligible hit without argN should not pay for.
 */
static noinline bool notrace pc_entry_args_hold(struct pc_point *point,
						struct ftrace_regs *fregs)
{
	const struct pc_conditions *cond = &point->cond;
	unsigned int i;

	for (i = 0; i < cond->ncompare; i++)
		if (!pc_compare_holds(&cond->compare[i],
				      pc_ftrace_regs_argument(fregs,
							      cond->compare[i].key - 1)))
			return false;
	return true;
}

/*
 * A hit that passed pid, comm and cpu, interrupts still off.  First its
 * argN conditions, if it has any: a hit they turn away is filtered.
 * Then, with RCU not watching (on the way into idle) or the recursion
 * lock taken (a point in what a hit calls) it cannot run here: missed.
 * RCU first, as 6.12's lock warns without it when
 * CONFIG_FTRACE_VALIDATE_RCU_IS_WATCHING is set.  Out of line: a hit
 * turned away by pid, comm or cpu never pays for what this needs.
 */
static noinline void notrace pc_entry_eligible(struct pc_point *point,
					       unsigned long ip,
					       unsigned long parent_ip,
					       unsigned long flags,
					       unsigned long caller,
					       struct ftrace_regs *fregs)
{
	int bit = -1;

	if (unlikely(point->cond.given & PC_OPT_ARG) &&
	    !pc_entry_args_hold(point, fregs)) {
		raw_local_irq_restore(flags);
		return;
	}

	if (rcu_is_watching())
		bit = ftrace_test_recursion_trylock(ip, parent_ip);
	if (bit < 0) {
		/* Interrupts off until then: see the table. */
		atomic_long_inc(&point->missed);
		raw_local_irq_restore(flags);
		return;
	}
	raw_local_irq_restore(flags);
	/*
	 * A stall's hit in what a stall of this task runs, in this context:
	 * missed, as a recursion is (the stall gave the lock back).
	 */
	if (unlikely(point->type->fate == PC_FATE_STALL) &&
	    pc_path_stalling(point->type, point->where,
			     trace_get_context_bit())) {
		atomic_long_inc(&point->missed);
		ftrace_test_recursion_unlock(bit);
		return;
	}
	pc_entry_decide(point, pc_entry_levels(caller), bit);
	ftrace_test_recursion_unlock(bit);
}

/*
 * Raw interrupt flags: nothing here tells lockdep or the irq tracepoints,
 * which may not run where RCU does not watch.
 */
static void notrace pc_entry_hit(unsigned long ip, unsigned long parent_ip,
				 struct ftrace_ops *op,
				 struct ftrace_regs *fregs)
{
	struct pc_point *point;
	unsigned long flags;

	raw_local_irq_save(flags);
	point = pc_entry_find(ip);
	if (point && pc_hit_passes(point))
		pc_entry_eligible(point, ip, parent_ip, flags,
				  (unsigned long)__builtin_return_address(0),
				  fregs);
	else
		raw_local_irq_restore(flags);
}

/* No flags: ftrace calls the callback itself (see the top). */
static struct ftrace_ops pc_entry_ops = {
	.func = pc_entry_hit,
};

bool pc_entry_can_be_fast(struct pc_point *point)
{
	if (point->on_return || point->rp.kp.offset)
		return false;
	point->entry_ip = pc_arch_ftrace_site(&point->rp.kp);
	return point->entry_ip;
}

/* Whether a live point other than those of @points has the site @ip. */
static bool pc_entry_site_shared(unsigned long ip, struct pc_point **points,
				 int n)
{
	struct pc_point *point;
	int i;

	hash_for_each_possible(pc_entry_points, point, entry_node, ip) {
		if (point->entry_ip != ip)
			continue;
		for (i = 0; i < n && points[i] != point; i++)
			;
		if (i == n)
			return true;
	}
	return false;
}

/*
 * The call sites of @points in a new array (kvfree() it), *@nips of them;
 * with @unshared, only those that no live point outside @points keeps.
 */
static unsigned long *pc_entry_ips(struct pc_point **points, int n,
				   bool unshared, int *nips)
{
	unsigned long *ips = kvmalloc_array(n, sizeof(*ips), GFP_KERNEL);
	int i;

	*nips = 0;
	if (ips)
		for (i = 0; i < n; i++)
			if (!unshared ||
			    !pc_entry_site_shared(points[i]->entry_ip, points, n))
				ips[(*nips)++] = points[i]->entry_ip;
	return ips;
}

/*
 * A call site never called.  The filter holds it from the first point on,
 * so it never goes empty (an ops with an empty filter traces every
 * function), and the ops stays registered until unload: unregistering a
 * module's ops waits for every task to leave its trampoline (tasks RCU),
 * a tenth of a second or more, which disarming the last point would pay.
 */
static noinline void __used pc_entry_parked(void)
{
	barrier();
}

/*
 * Register the ops on its first call sites, with the parking one.  On
 * failure the filter is emptied again (its hashes are freed at unload
 * only: ftrace_free_filter() leaves the ops pointing at them).  The
 * parking site is given by address, which ftrace maps from the
 * function's start to its call site: by name, ftrace would look up the
 * name of every call site in the kernel, 70 ms on a one-vCPU guest.
 */
static int pc_entry_register(unsigned long *ips, int n)
{
	int ret;

	ret = ftrace_set_filter_ip(&pc_entry_ops, (unsigned long)pc_entry_parked,
				   0, 0);
	if (ret) {
		pr_warn("crashpoints: ftrace has no call site in pc_entry_parked(): error %d\n",
			ret);
		return ret;
	}
	ret = ftrace_set_filter_ips(&pc_entry_ops, ips, n, 0, 0);
	if (!ret)
		ret = register_ftrace_function(&pc_entry_ops);
	if (ret) {
		pr_warn("crashpoints: ftrace refused the callback: error %d\n",
			ret);
		ftrace_set_filter(&pc_entry_ops, NULL, 0, 1);
		return ret;
	}
	pc_entry_registered = true;
	return 0;
}

int pc_entry_enable(struct pc_point **points, int n)
{
	unsigned long *ips;
	int i, nips, ret;

	if (!n)
		return 0;
	lockdep_assert_held(&pc_points_lock);
	ips = pc_entry_ips(points, n, false, &nips);
	if (!ips)
		return -ENOMEM;
	if (pc_entry_registered) {
		ret = ftrace_set_filter_ips(&pc_entry_ops, ips, nips, 0, 0);
		if (ret)
			pr_warn("crashpoints: ftrace refused the call sites: error %d\n",
				ret);
	} else {
		ret = pc_entry_register(ips, nips);
	}
	kvfree(ips);
	if (ret)
		return ret;
	/*
	 * Into the table once ftrace took the sites: a site patched before
	 * its point is there finds nothing and returns (and the point is not
	 * armed before its write commits anyway).
	 */
	for (i = 0; i < n; i++)
		hash_add_rcu(pc_entry_points, &points[i]->entry_node,
			     points[i]->entry_ip);
	pc_entry_live += n;
	return 0;
}

/* Run on each CPU by pc_entry_disable(): it has had its interrupts on. */
static void pc_entry_interrupted(void *unused)
{
}

void pc_entry_disable(struct pc_point **points, int n)
{
	unsigned long *ips;
	int i, nips = 0;

	if (!n)
		return;
	lockdep_assert_held(&pc_points_lock);
	/*
	 * Out of the filter go the sites no other point keeps (a point
	 * re-armed in the same write shares its site with the old one).
	 * Out of the table, the callback ignores a site; so if trimming the
	 * filter fails, a stale site only costs a lookup.
	 */
	ips = pc_entry_ips(points, n, true, &nips);
	/*
	 * ftrace stops at the first address that is no longer a call site
	 * (its module went away): then one at a time, the others still go.
	 */
	if (!ips || (nips && ftrace_set_filter_ips(&pc_entry_ops, ips, nips, 1, 0)))
		for (i = 0; i < n; i++)
			if (!pc_entry_site_shared(points[i]->entry_ip, points, n))
				ftrace_set_filter_ip(&pc_entry_ops,
						     points[i]->entry_ip, 1, 0);
	kvfree(ips);
	for (i = 0; i < n; i++)
		hash_del_rcu(&points[i]->entry_node);
	pc_entry_live -= n;
	/*
	 * The callback may still be looking at them (see the table): first
	 * with interrupts off, which an interrupt on every CPU waits out,
	 * then with preemption off, which a grace period does.
	 */
	on_each_cpu(pc_entry_interrupted, NULL, 1);
	synchronize_rcu();
}

/* At unload, every point gone: the one wait for the trampoline's users. */
void pc_entry_exit(void)
{
	if (pc_entry_registered)
		unregister_ftrace_function(&pc_entry_ops);
	pc_entry_registered = false;
	ftrace_free_filter(&pc_entry_ops);
}
