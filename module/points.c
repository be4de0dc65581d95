// SPDX-License-Identifier: GPL-2.0
/*
 * The point registry: the list of points and its lock, lookups on it,
 * and the transaction a write applies to it (enable the points it
 * staged, all or none; commit or abort; drop; free, one batch per wait).
 * A point is made and put on the list as STAGED by point_stage.c.
 *
 * Every function here but pc_point_missed_late(),
 * pc_point_missed_undecided() and pc_point_landed() runs under
 * pc_points_lock, the only writer of the list.  A point is
 * registered disabled and goes live only in pc_points_enable(), once its
 * whole write has been checked: a point that is refused, or whose write
 * is, never fires.
 *
 * The list is also an RCU list, for those three: a point
 * leaves it (list_del_rcu()) before its probes are taken out, and is
 * freed only after that has waited for a grace period.
 */
#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/rculist.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "points.h"

/*
 * The only lock on the list of points, on every point's state (written
 * under it, read by the handlers with READ_ONCE(): enum pc_point_state)
 * and on probe_ftrace.c's table.  Taken by control.c for a whole write,
 * a listing or the unload.
 */
DEFINE_MUTEX(pc_points_lock);
LIST_HEAD(pc_points);

/*
 * The armed point @id, under rcu_read_lock(); NULL once a write disarmed
 * it (it is freed by that write, its counters with it: a call diverted
 * before then counted once, at its entry, and nothing moves later).
 */
static struct pc_point *pc_point_find_armed(unsigned long id)
{
	struct pc_point *point;

	list_for_each_entry_rcu(point, &pc_points, list)
		if (point->id == id)
			return pc_point_counts(point) ? point : NULL;
	return NULL;
}

NOKPROBE_SYMBOL(pc_point_find_armed);

bool notrace pc_point_landed(struct pc_path *path, unsigned long retval)
{
	/* The path's own, before preemption goes off below. */
	int context = pc_context_now(0);
	struct pc_point *point;
	bool run = false;

	/*
	 * The landing may be preemptible: probability='s generator is
	 * per-CPU, and a handler's decision runs on one CPU.
	 */
	preempt_disable_notrace();
	rcu_read_lock();
	point = pc_point_find_armed(path->point_id);
	if (point && !(point->cond.given & PC_OPT_RETVAL)) {
		run = true;
	} else if (point && pc_retval_holds(&point->cond, retval) &&
		   pc_should_fire(point) &&
		   pc_point_fire(point, context) == PC_HIT_RUN_IN_PATH) {
		/* Decided: a crash that comes back moves it to missed. */
		path->missed = pc_point_missed_late;
		run = true;
	}
	rcu_read_unlock();
	preempt_enable_notrace();
	return run;
}

NOKPROBE_SYMBOL(pc_point_landed);

void notrace pc_point_missed_undecided(unsigned long id)
{
	struct pc_point *point;

	rcu_read_lock();
	list_for_each_entry_rcu(point, &pc_points, list)
		if (point->id == id) {
			atomic_long_inc(&point->missed);
			break;
		}
	rcu_read_unlock();
}

NOKPROBE_SYMBOL(pc_point_missed_undecided);

void notrace pc_point_missed_late(unsigned long id)
{
	struct pc_point *point;

	rcu_read_lock();
	list_for_each_entry_rcu(point, &pc_points, list)
		if (point->id == id) {
			pc_point_missed(point);
			break;
		}
	rcu_read_unlock();
}

NOKPROBE_SYMBOL(pc_point_missed_late);

/* WRITE_ONCE(): a handler may be reading it. */
static void pc_point_set(struct pc_point *point, enum pc_point_state state)
{
	WRITE_ONCE(point->state, state);
}

/* Whether the write being applied takes @point away. */
static bool pc_point_going(const struct pc_point *point)
{
	return point->state == PC_POINT_DROPPED ||
	       point->state == PC_POINT_DOOMED;
}

/* An entry point and a return point may share an address. */
struct pc_point *pc_find_by_addr(kprobe_opcode_t *addr, bool on_return,
				 const struct pc_point *self)
{
	struct pc_point *point;

	lockdep_assert_held(&pc_points_lock);
	list_for_each_entry(point, &pc_points, list)
		if (point != self && !pc_point_going(point) &&
		    point->rp.kp.addr == addr && point->on_return == on_return)
			return point;
	return NULL;
}

struct pc_point *pc_find_by_place(const struct pc_line *line)
{
	struct pc_point *point;

	lockdep_assert_held(&pc_points_lock);
	list_for_each_entry(point, &pc_points, list)
		if (!pc_point_going(point) && point->rp.kp.offset == line->offset &&
		    point->on_return == !!line->on_return &&
		    !strcmp(point->symbol, line->symbol))
			return point;
	return NULL;
}

void pc_unregister(struct pc_point *point)
{
	if (pc_is_kretprobe(point))
		unregister_kretprobe(&point->rp);
	else
		unregister_kprobe(&point->rp.kp);
}

/* Hits kprobes could not hand to the handler (it was busy there). */
unsigned long pc_probe_missed(const struct pc_point *point)
{
	return point->rp.kp.nmissed +
	       (pc_is_kretprobe(point) ? point->rp.nmissed : 0);
}

/*
 * The points @match accepts, in list order, in a new array of *@n; NULL
 * with *@n set when there are none or the array cannot be allocated.
 */
static struct pc_point **pc_collect(bool (*match)(const struct pc_point *),
				    int *n)
{
	struct pc_point *point, **points;
	int count = 0, i = 0;

	lockdep_assert_held(&pc_points_lock);
	list_for_each_entry(point, &pc_points, list)
		count += match(point);
	*n = count;
	if (!count)
		return NULL;
	points = kvmalloc_array(count, sizeof(*points), GFP_KERNEL);
	if (points)
		list_for_each_entry(point, &pc_points, list)
			if (match(point))
				points[i++] = point;
	return points;
}

/* A fast point whose probe is enabled: in probe_ftrace.c's table. */
static bool pc_point_fast_live(const struct pc_point *point)
{
	return point->fast && point->state >= PC_POINT_LIVE;
}

/*
 * Free points, waiting for running handlers once per batch: one text
 * update and one grace period for the fast points, one grace period for
 * the kprobes and one for the kretprobes, not one per point.  A crash
 * already sent into its path runs from its own copy (run_in_path.h).
 */
static void pc_free_points(struct pc_point **points, int n)
{
	struct kretprobe **rps;
	struct kprobe **kps;
	struct pc_point **live;
	int i, nk = 0, nr = 0, nl = 0;

	/*
	 * Off the list first: taking the probes out waits for a grace
	 * period (each way below does), after which no RCU walk sees them.
	 */
	for (i = 0; i < n; i++)
		list_del_rcu(&points[i]->list);
	kps = kvmalloc_array(n, sizeof(*kps), GFP_KERNEL);
	rps = kvmalloc_array(n, sizeof(*rps), GFP_KERNEL);
	live = kvmalloc_array(n, sizeof(*live), GFP_KERNEL);
	if (!kps || !rps || !live) {
		/* Slow but sure: one point at a time. */
		for (i = 0; i < n; i++) {
			if (pc_point_fast_live(points[i]))
				pc_entry_disable(&points[i], 1);
			pc_unregister(points[i]);
		}
	} else {
		for (i = 0; i < n; i++) {
			if (pc_point_fast_live(points[i]))
				live[nl++] = points[i];
			if (pc_is_kretprobe(points[i]))
				rps[nr++] = &points[i]->rp;
			else
				kps[nk++] = &points[i]->rp.kp;
		}
		pc_entry_disable(live, nl);
		if (nk)
			unregister_kprobes(kps, nk);
		if (nr)
			unregister_kretprobes(rps, nr);
	}
	kvfree(kps);
	kvfree(rps);
	kvfree(live);
	for (i = 0; i < n; i++)
		pc_point_free(points[i]);
}

/* Free the points @match accepts, as one batch when memory allows. */
static void pc_free_matching(bool (*match)(const struct pc_point *))
{
	struct pc_point *point, *next, **points;
	int n;

	points = pc_collect(match, &n);
	if (points) {
		pc_free_points(points, n);
		kvfree(points);
		return;
	}
	list_for_each_entry_safe(point, next, &pc_points, list)
		if (match(point))
			pc_free_points(&point, 1);
}

static bool pc_staged_fast(const struct pc_point *point)
{
	return point->state == PC_POINT_STAGED && point->fast;
}

static bool pc_staged_kprobe(const struct pc_point *point)
{
	return point->state == PC_POINT_STAGED && !point->fast;
}

/* Make the kprobes of this write live, or none of them. */
static int pc_enable_kprobes(void)
{
	struct pc_point *point;
	int ret = 0;

	list_for_each_entry(point, &pc_points, list) {
		if (!pc_staged_kprobe(point))
			continue;
		ret = enable_kprobe(&point->rp.kp);
		if (ret) {
			pr_warn("crashpoints: %s: the kernel refused to enable the probe: error %d\n",
				point->where, ret);
			break;
		}
		pc_point_set(point, PC_POINT_LIVE);
	}
	if (ret)
		list_for_each_entry(point, &pc_points, list)
			if (point->state == PC_POINT_LIVE && !point->fast) {
				disable_kprobe(&point->rp.kp);
				pc_point_set(point, PC_POINT_STAGED);
			}
	return ret;
}

/*
 * Enable the points this write staged (STAGED -> LIVE): the fast ones in
 * one batch, then the kprobes; all or none.
 */
int pc_points_enable(void)
{
	struct pc_point **fast;
	int i, n, ret;

	lockdep_assert_held(&pc_points_lock);
	fast = pc_collect(pc_staged_fast, &n);
	if (!fast && n)
		return -ENOMEM;
	ret = pc_entry_enable(fast, n);
	if (!ret) {
		for (i = 0; i < n; i++)
			pc_point_set(fast[i], PC_POINT_LIVE);
		ret = pc_enable_kprobes();
		if (ret) {
			pc_entry_disable(fast, n);
			for (i = 0; i < n; i++)
				pc_point_set(fast[i], PC_POINT_STAGED);
		}
	}
	kvfree(fast);
	return ret;
}

/* A line of the write disarms @point: STAGED or ARMED, as found. */
void pc_point_drop(struct pc_point *point)
{
	lockdep_assert_held(&pc_points_lock);
	if (point->state == PC_POINT_STAGED)
		pc_point_set(point, PC_POINT_DROPPED);
	else if (point->state == PC_POINT_ARMED)
		pc_point_set(point, PC_POINT_DOOMED);
}

/* A line of the write disarms every point. */
void pc_points_drop_all(void)
{
	struct pc_point *point;

	lockdep_assert_held(&pc_points_lock);
	list_for_each_entry(point, &pc_points, list)
		pc_point_drop(point);
}

/*
 * Whether this write disarms a point at a place it also arms: kprobes
 * runs every handler at one address on one hit, so the old point must
 * stop, for every handler, before the new one starts.
 */
static bool pc_rearms_a_place(void)
{
	struct pc_point *old, *point;

	list_for_each_entry(old, &pc_points, list) {
		if (old->state != PC_POINT_DISARMED)
			continue;
		list_for_each_entry(point, &pc_points, list)
			if (point->state == PC_POINT_LIVE &&
			    point->rp.kp.addr == old->rp.kp.addr &&
			    point->on_return == old->on_return)
				return true;
	}
	return false;
}

/* Move every point in state @from to @to. */
static void pc_points_move(enum pc_point_state from, enum pc_point_state to)
{
	struct pc_point *point;

	list_for_each_entry(point, &pc_points, list)
		if (point->state == from)
			pc_point_set(point, to);
}

static bool pc_committed_away(const struct pc_point *point)
{
	return point->state == PC_POINT_DROPPED ||
	       point->state == PC_POINT_DISARMED;
}

static bool pc_never_armed(const struct pc_point *point)
{
	return point->state == PC_POINT_STAGED ||
	       point->state == PC_POINT_DROPPED;
}

/*
 * Commit a write whose points are enabled: the points it disarms stop
 * counting before its new ones start (one place is never armed twice at
 * once), then they are freed.
 */
void pc_points_commit(void)
{
	lockdep_assert_held(&pc_points_lock);
	pc_points_move(PC_POINT_DOOMED, PC_POINT_DISARMED);
	/* No hit may fire both an old point and its new one. */
	if (pc_rearms_a_place())
		synchronize_rcu();
	pc_points_move(PC_POINT_LIVE, PC_POINT_ARMED);
	pc_free_matching(pc_committed_away);
}

/*
 * Roll back a write that failed: its staged points are freed (they never
 * fired) and the points it disarmed never stopped.
 */
void pc_points_abort(void)
{
	lockdep_assert_held(&pc_points_lock);
	pc_free_matching(pc_never_armed);
	pc_points_move(PC_POINT_DOOMED, PC_POINT_ARMED);
}

static bool pc_any(const struct pc_point *point)
{
	return true;
}

/* At unload: every point, whatever its state. */
void pc_points_free_all(void)
{
	lockdep_assert_held(&pc_points_lock);
	pc_free_matching(pc_any);
}
