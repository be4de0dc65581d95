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
 * instruction.  ftrace calls it through its assist or list function
 * (FTRACE_OPS_FL_RCU): recursion guarded, RCU watching, and exactly one
 * level of preemption off.  So the callback sees the path's real state,
 * less that one level, and decides at each hit whether the type can run,
 * and complete, there.  A fatal crash runs in the path: the callback
 * gives the level back and never returns, so the oops shows the probed
 * function under the ftrace trampoline.
 */
#include <linux/ftrace.h>
#include <linux/hashtable.h>
#include <linux/kprobes.h>
#include <linux/lockdep.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "arch.h"
#include "crashpoint.h"

/*
 * Live fast points by call site.  Written under pc_points_lock only;
 * read by the callback, which runs with preemption off: an RCU read-side
 * section.  A point taken out is freed after synchronize_rcu().
 */
static DEFINE_HASHTABLE(pc_entry_points, 7);
static int pc_entry_live;
static bool pc_entry_registered;

/* The preemption level ftrace's assist or list function adds. */
#define PC_FTRACE_LEVELS	1

/* The path's context: the callback's own, less ftrace's level. */
static int notrace pc_entry_context(struct pc_point *point,
				    struct pt_regs *regs)
{
	return pc_context_now(PC_FTRACE_LEVELS);
}

static void notrace pc_entry_hit(unsigned long ip, unsigned long parent_ip,
				 struct ftrace_ops *op,
				 struct ftrace_regs *fregs)
{
	struct pc_point *point;
	struct pc_path *path;

	hash_for_each_possible_rcu_notrace(pc_entry_points, point, entry_node, ip) {
		/*
		 * Not this site, not committed yet, or in a module that
		 * went away (kprobes marks the point's kprobe gone before
		 * the text can be reused).
		 */
		if (point->entry_ip != ip || !pc_point_counts(point) ||
		    (READ_ONCE(point->rp.kp.flags) & KPROBE_FLAG_GONE))
			continue;
		switch (pc_point_decide(point, pc_entry_context, NULL)) {
		case PC_HIT_FILTERED:
		case PC_HIT_MISSED:
			return;
		case PC_HIT_RUN_HERE:
			pc_point_run_here(point);
			return;
		case PC_HIT_RUN_IN_PATH:
			break;
		}
		path = pc_path_claim(point->type, point->where,
				     pc_point_missed_late, point->id);
		if (!path) {
			pc_point_missed(point);
			return;
		}
		/*
		 * A fatal crash never returns to ftrace: give the path back
		 * its own preemption state (ftrace's recursion bit for this
		 * context stays set: this task, which is to die, traces
		 * nothing more).  Nothing here reads the point again: it
		 * may be freed while the crash runs.  If the crash does not
		 * happen (the kernel lacks what the type needs), the slot
		 * counts the hit missed by the point's id, ftrace's level
		 * is taken again and the traced function runs on.
		 */
		preempt_enable_notrace();
		pc_path_run_or_resume(path);
		preempt_disable_notrace();
		pc_path_give_back(path);
		return;
	}
}

static struct ftrace_ops pc_entry_ops = {
	.func = pc_entry_hit,
	.flags = FTRACE_OPS_FL_RCU | FTRACE_OPS_FL_RECURSION,
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
	/* The callback may still be looking at them: see the table. */
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
