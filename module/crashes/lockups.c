// SPDX-License-Identifier: GPL-2.0
/*
 * Lockups and stalls: a CPU or a task that never makes progress, for the
 * soft and hard lockup watchdogs, the hung-task detector and RCU's stall
 * detector to report.  None of these routines return.
 */
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/spinlock.h>

#include "../provoke_crash.h"

/* Spin here for ever; noinline so that stack traces name the culprit. */
static noinline void pc_spin_forever(void)
{
	for (;;)
		cpu_relax();
}

noinline int pc_crash_unreachable_loop(void)
{
	/* Preemption off: not even a preemptible kernel can move us away. */
	preempt_disable();
	pc_spin_forever();
	return 0;
}

/*
 * An idle system may have no RCU grace period going, and then a stuck CPU
 * stalls nothing: ask RCU for one.  Not with a callback: that would wait
 * on this CPU's list, which a CPU about to spin with interrupts off never
 * looks at again (unless callbacks are offloaded), and no grace period
 * would start until some other CPU queued one (minutes on an idle debug
 * kernel).  The request wakes RCU's kthread, which must run on another
 * CPU: the stall types need smp.
 */
static void pc_rcu_kick(void)
{
	start_poll_synchronize_rcu();
}

noinline int pc_crash_hardlockup(void)
{
	/* Other CPUs see the stall if a grace period waits for this one. */
	pc_rcu_kick();
	/* Interrupts off: the timer that feeds the watchdogs stops too. */
	local_irq_disable();
	pc_spin_forever();
	return 0;
}

static DEFINE_SPINLOCK(pc_lock_twice);

/* Sparse: the lock is taken twice and never released, on purpose. */
noinline int pc_crash_spinlockup(void)
	__acquires(&pc_lock_twice) __acquires(&pc_lock_twice)
{
	spin_lock(&pc_lock_twice);
	/* The lock is ours: the second acquisition spins for ever. */
	spin_lock(&pc_lock_twice);
	return 0;
}

noinline int pc_crash_hung_task(void)
{
	/* Nobody will ever wake us up. */
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		schedule();
	}
	return 0;
}

noinline int pc_crash_rcu_stall(void)
	__acquires(RCU)
{
	pc_rcu_kick();
	/* A reader that never leaves holds up that grace period for ever. */
	rcu_read_lock();
	preempt_disable();
	pc_spin_forever();
	return 0;
}

/*
 * ABBA: thread a takes lock a then b, thread b takes b then a.  Each waits
 * until the other holds its first lock, so the deadlock is certain.
 */
static DEFINE_MUTEX(pc_abba_a);
static DEFINE_MUTEX(pc_abba_b);
static DECLARE_COMPLETION(pc_abba_a_held);
static DECLARE_COMPLETION(pc_abba_b_held);

static int pc_abba_thread(void *data)
{
	bool is_a = data == &pc_abba_a;
	struct mutex *first = is_a ? &pc_abba_a : &pc_abba_b;
	struct mutex *second = is_a ? &pc_abba_b : &pc_abba_a;

	mutex_lock(first);
	complete(is_a ? &pc_abba_a_held : &pc_abba_b_held);
	wait_for_completion(is_a ? &pc_abba_b_held : &pc_abba_a_held);
	pr_info("deadlock: pc-abba-%c holds %c, wants %c\n",
		is_a ? 'a' : 'b', is_a ? 'a' : 'b', is_a ? 'b' : 'a');
	mutex_lock(second);
	/* Only reached if the other thread let go: it never does. */
	mutex_unlock(second);
	mutex_unlock(first);
	module_put_and_kthread_exit(0);
}

int pc_crash_deadlock(void)
{
	struct task_struct *a, *b;

	if (mutex_is_locked(&pc_abba_a) || mutex_is_locked(&pc_abba_b))
		return -EBUSY;
	reinit_completion(&pc_abba_a_held);
	reinit_completion(&pc_abba_b_held);
	/* Each thread pins the module: its code must outlive rmmod. */
	__module_get(THIS_MODULE);
	a = kthread_run(pc_abba_thread, &pc_abba_a, "pc-abba-a");
	if (IS_ERR(a)) {
		module_put(THIS_MODULE);
		return PTR_ERR(a);
	}
	__module_get(THIS_MODULE);
	b = kthread_run(pc_abba_thread, &pc_abba_b, "pc-abba-b");
	if (IS_ERR(b)) {
		module_put(THIS_MODULE);
		/* a waits for b's completion for ever: let it finish alone. */
		complete(&pc_abba_b_held);
		return PTR_ERR(b);
	}
	/* The two threads are stuck; the caller is not. */
	return -EINPROGRESS;
}
