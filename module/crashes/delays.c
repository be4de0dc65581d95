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
#include <linux/delay.h>
#include <linux/nmi.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/timekeeping.h>

#include "../provoke_crash.h"
#include "provoke_crash_parse.h"

/* Say how long the path was held up since @start: 0, or -ETIME if short. */
static int pc_held_up(const char *name, unsigned int ms, u64 start)
{
	u64 took = ktime_get_mono_fast_ns() - start;

	pr_info("%s: held up %s[%d] on CPU %d for %llu us (ms=%u)\n", name,
		current->comm, task_pid_nr(current), raw_smp_processor_id(),
		took / NSEC_PER_USEC, ms);
	if (took < (u64)ms * NSEC_PER_MSEC) {
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
static int pc_delay_run(unsigned int ms)
{
	u64 start;

	if (!in_task() || rcu_preempt_depth() || irqs_disabled() ||
	    READ_ONCE(current->__state) != TASK_RUNNING ||
	    (IS_ENABLED(CONFIG_PREEMPT_COUNT) && !preemptible())) {
		pr_warn_ratelimited("delay: %s[%d] cannot sleep here (preempt_count %#x, interrupts %s)\n",
				    current->comm, task_pid_nr(current),
				    preempt_count(),
				    irqs_disabled() ? "off" : "on");
		return -EAGAIN;
	}
	start = ktime_get_mono_fast_ns();
	msleep(ms);
	return pc_held_up("delay", ms, start);
}

/*
 * Interrupts and preemption stay as the path has them; the clock is the
 * NMI-safe one, read between short waits, so the spin lasts ms= however
 * the delay loop was calibrated (QEMU's TCG is slow to count).  With
 * interrupts off, a clock that only a tick moves (jiffies) never gets
 * there: the waits are counted too, four times what ms= needs.  A spin
 * asked for is no lockup: it keeps the hard-lockup detector fed, which
 * with watchdog_thresh=1 checks every 0.8 s.
 */
static int pc_spin_run(unsigned int ms)
{
	u64 start = ktime_get_mono_fast_ns();
	u64 end = start + (u64)ms * NSEC_PER_MSEC;
	unsigned long waits = (unsigned long)ms * 800;

	while (ktime_get_mono_fast_ns() < end && waits--) {
		udelay(5);
		if (irqs_disabled())
			touch_nmi_watchdog();
	}
	return pc_held_up("spin", ms, start);
}

int pc_crash_stall(const struct pc_crash_type *type, unsigned int ms)
{
	if (!ms)
		ms = PC_MS_DEFAULT;
	if (type == &pc_crash_types[PC_TYPE_spin])
		return pc_spin_run(min_t(unsigned int, ms, PC_SPIN_MS_MAX));
	return pc_delay_run(ms);
}

/* The trigger files: the default time. */
int pc_crash_delay(void)
{
	return pc_delay_run(PC_MS_DEFAULT);
}

int pc_crash_spin(void)
{
	return pc_spin_run(PC_MS_DEFAULT);
}
