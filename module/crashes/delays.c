// SPDX-License-Identifier: GPL-2.0
/*
 * Delays, for races: delay sleeps and spin busy-waits in the path that
 * hit the point, then let it go on.  Held up at one side of a race, a
 * path leaves the window open for the other side: ms= says how long.
 *
 * Each says how long it really held the path up, by the monotonic clock;
 * a delay cut short (it cannot be, but a hit counts as fired only when
 * the full time passed) returns -ETIME, and the hit counts as missed.
 */
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/nmi.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/timekeeping.h>

#include "../provoke_crash.h"
#include "provoke_crash_parse.h"

/*
 * What the stalls log, for every type and point at once: a stall on a hot
 * path with times=-1 fires as often as the path runs.  A fire logs its
 * lines (what it does, how long it took, and if short, by how much) or
 * none; a hit that cannot stall logs its one line.  The counters count
 * every hit regardless.
 * At most PC_STALL_LINES fires or refusals log in PC_STALL_WINDOW: a
 * two-CPU run of every path (the bench's) fires 16 stalls in a few
 * seconds and counts their lines.  Atomics, not __ratelimit(): its
 * trylock drops a line when two CPUs stall at once.
 */
#define PC_STALL_LINES	32
#define PC_STALL_WINDOW	(5 * HZ)

static atomic_t pc_stall_told = ATOMIC_INIT(0);
static unsigned long pc_stall_since;	/* jiffies; cmpxchg() moves it */

/* Whether this fire or refusal may log. */
static bool pc_stall_may_tell(void)
{
	unsigned long since = READ_ONCE(pc_stall_since);

	/* One CPU opens the next window; a count it misses is one line. */
	if (time_after(jiffies, since + PC_STALL_WINDOW) &&
	    cmpxchg(&pc_stall_since, since, jiffies) == since)
		atomic_set(&pc_stall_told, 0);
	return atomic_inc_return(&pc_stall_told) <= PC_STALL_LINES;
}

/* Say what @type does at @where, if this fire may log: whether it may. */
static bool pc_stall_begin(const struct pc_crash_type *type, const char *where)
{
	if (!pc_stall_may_tell())
		return false;
	pr_info("%s: %s: %s\n", where, type->name, type->description);
	return true;
}

/* Say how long the path was held up since @start: 0, or -ETIME if short. */
static int pc_held_up(const char *name, unsigned int ms, u64 start, bool tell)
{
	u64 took = ktime_get_mono_fast_ns() - start;

	if (tell)
		pr_info("%s: held up %s[%d] on CPU %d for %llu us (ms=%u)\n",
			name, current->comm, task_pid_nr(current),
			raw_smp_processor_id(), took / NSEC_PER_USEC, ms);
	if (took < (u64)ms * NSEC_PER_MSEC) {
		if (tell)
			pr_err("%s: held up %llu us, short of ms=%u\n", name,
			       took / NSEC_PER_USEC, ms);
		return -ETIME;
	}
	return 0;
}

/*
 * Only where the path may sleep: a point checks that at each hit, and
 * this is the last word, in the path's own state.  A task between
 * set_current_state() and schedule() may not sleep here either: msleep()
 * would leave it running, and its schedule() would not wait.
 */
static int pc_delay_run(const struct pc_crash_type *type, const char *where,
			unsigned int ms)
{
	bool tell;
	u64 start;

	if (!in_task() || rcu_preempt_depth() || irqs_disabled() ||
	    pc_task_state(current) != TASK_RUNNING ||
	    (IS_ENABLED(CONFIG_PREEMPT_COUNT) && !preemptible())) {
		if (pc_stall_may_tell())
			pr_warn("%s: delay: %s[%d] cannot sleep here (preempt_count %#x, interrupts %s, state %#x)\n",
				where, current->comm, task_pid_nr(current),
				preempt_count(),
				irqs_disabled() ? "off" : "on",
				pc_task_state(current));
		return -EAGAIN;
	}
	tell = pc_stall_begin(type, where);
	start = ktime_get_mono_fast_ns();
	msleep(ms);
	/*
	 * msleep() counts jiffies, which can run ahead of the clock that
	 * pc_held_up() reads (a two-vCPU TCG guest slept 99.4 ms of
	 * ms=100): sleep on until that clock has gone past ms= too.
	 */
	while (ktime_get_mono_fast_ns() - start < (u64)ms * NSEC_PER_MSEC)
		usleep_range(1000, 2000);
	return pc_held_up("delay", ms, start, tell);
}

/*
 * Interrupts and preemption stay as the path has them; the clock is the
 * NMI-safe one, read between short waits, so the spin lasts ms= however
 * the delay loop was calibrated (QEMU's TCG is slow to count, and on a
 * second vCPU udelay() may wait a tenth of what it says).  Only a clock
 * that stands still needs a bound of its own: with interrupts off, one
 * that only a tick moves (jiffies) never gets there.  So the waits in
 * which it did not move are counted, up to four times what ms= needs;
 * and all of them, up to forty times, for a clock that crawls.  A spin
 * asked for is no lockup: it keeps the hard-lockup detector fed, which
 * with watchdog_thresh=1 checks every 0.8 s.
 */
static int pc_spin_run(const struct pc_crash_type *type, const char *where,
		       unsigned int ms)
{
	bool tell = pc_stall_begin(type, where);
	u64 start = ktime_get_mono_fast_ns();
	u64 end = start + (u64)ms * NSEC_PER_MSEC;
	unsigned long still = (unsigned long)ms * 800;
	unsigned long all = (unsigned long)ms * 8000;
	u64 now = start;

	while (now < end && still && all--) {
		u64 last = now;

		udelay(5);
		if (irqs_disabled())
			touch_nmi_watchdog();
		now = ktime_get_mono_fast_ns();
		if (now == last)
			still--;
	}
	return pc_held_up("spin", ms, start, tell);
}

int pc_crash_stall(const struct pc_crash_type *type, const char *where,
		   unsigned int ms)
{
	if (!ms)
		ms = PC_MS_DEFAULT;
	if (type == &pc_crash_types[PC_TYPE_spin])
		return pc_spin_run(type, where,
				   min_t(unsigned int, ms, PC_SPIN_MS_MAX));
	return pc_delay_run(type, where, ms);
}

/*
 * The table's run routines, for its shape: pc_crash_run() sends a stall
 * to pc_crash_stall() itself, with the place and ms=.
 */
int pc_crash_delay(void)
{
	return pc_crash_stall(&pc_crash_types[PC_TYPE_delay], "trigger", 0);
}

int pc_crash_spin(void)
{
	return pc_crash_stall(&pc_crash_types[PC_TYPE_spin], "trigger", 0);
}
