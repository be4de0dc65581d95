// SPDX-License-Identifier: GPL-2.0
/*
 * The same NULL dereference from each kind of interrupt: a hard interrupt
 * (an irq_work self-IPI), a softirq (a timer callback) and an NMI (a self
 * NMI through the local APIC).  An oops in any of them is fatal.  And a
 * panic() and a BUG() from a hard-irq hrtimer callback.
 */
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <linux/timer.h>

#include "../compat.h"
#include "../provoke_crash.h"

/*
 * Sleep where the caller may: on one CPU a busy wait would starve
 * ksoftirqd, which runs the timer softirq once it has been woken.
 */
static void pc_wait_ms(unsigned int ms)
{
	if (pc_may_sleep())
		msleep(ms);
	else
		mdelay(ms);
}

/*
 * Wait up to a second for @pending to clear; the interrupt should oops.
 * With @blocked (interrupts or softirqs off here) it can only come once
 * the caller has gone on: crash points never run it so (run_in_path.c).
 * @atomic: the caller's own context may not sleep (asked before any
 * preempt_disable() of the wait's own).
 */
static int pc_wait_interrupt(bool (*pending)(void), bool blocked, bool atomic)
{
	int ms;

	if (blocked)
		return -EINPROGRESS;
	for (ms = 0; ms < 1000 && pending(); ms++)
		pc_wait_ms(1);
	/* Still pending in atomic context: it may run once the caller returns. */
	if (pending() && atomic)
		return -EINPROGRESS;
	/*
	 * No longer pending means the handler has started, maybe on another
	 * CPU: give it time to oops before calling this a failure.
	 */
	pc_wait_ms(500);
	/* The oops is fatal in interrupt context: reaching here is a failure. */
	return 0;
}

static void pc_hardirq_oops(struct irq_work *work)
{
	pr_info("oops_interrupt_context: in hardirq context: %s\n",
		in_hardirq() ? "yes" : "NO");
	pc_crash_null_dereference();
}

static struct irq_work pc_hardirq_work = PC_IRQ_WORK_INIT_HARD(pc_hardirq_oops);

static bool pc_hardirq_pending(void)
{
	return pc_irq_work_is_pending(&pc_hardirq_work);
}

int pc_crash_oops_interrupt_context(void)
{
	/* irq_work raises a self-IPI: the handler runs in hard irq context. */
	irq_work_queue(&pc_hardirq_work);
	return pc_wait_interrupt(pc_hardirq_pending, irqs_disabled(),
				 !pc_may_sleep());
}

static void pc_softirq_oops(struct timer_list *timer)
{
	pr_info("oops_softirq_context: in softirq context: %s\n",
		in_serving_softirq() ? "yes" : "NO");
	pc_crash_null_dereference();
}

static DEFINE_TIMER(pc_softirq_timer, pc_softirq_oops);

static bool pc_softirq_pending(void)
{
	return timer_pending(&pc_softirq_timer);
}

int pc_crash_oops_softirq_context(void)
{
	/* Timer callbacks run from the TIMER softirq. */
	mod_timer(&pc_softirq_timer, jiffies + 1);
	return pc_wait_interrupt(pc_softirq_pending,
				 irqs_disabled() || in_softirq(), !pc_may_sleep());
}

/*
 * One hrtimer for both hrtimer types, in hard irq context even on RT.
 * It is armed once per load (the crash it makes is fatal): the first
 * caller to move pc_hrtimer_used from 0 sets it up and owns it, and sets
 * pc_hrtimer_bug, which says which crash the callback makes, before the
 * timer starts.  It is pinned, and the caller waits for it with
 * preemption off, so that it interrupts the path that asked and no
 * other task: on PREEMPT_RT, one that slept here let the console's
 * printer thread run, and a panic over the port lock it held hung.
 */
static struct hrtimer pc_hrtimer;
static bool pc_hrtimer_bug;
static atomic_t pc_hrtimer_used = ATOMIC_INIT(0);

static enum hrtimer_restart pc_hrtimer_crash(struct hrtimer *timer)
{
	const char *name = pc_hrtimer_bug ? "bug_in_hardirq" : "panic_in_hardirq";

	pr_info("%s: in hardirq context: %s\n", name,
		in_hardirq() ? "yes" : "NO");
	if (pc_hrtimer_bug)
		BUG();	/* BUG on purpose: the bug_in_hardirq type */
	else
		panic("provoke-crash: panic_in_hardirq requested\n");
	return HRTIMER_NORESTART;
}

static bool pc_hrtimer_pending(void)
{
	return hrtimer_active(&pc_hrtimer);
}

static int pc_hrtimer_fire(bool bug)
{
	bool atomic = !pc_may_sleep();
	int ret;

	if (atomic_cmpxchg(&pc_hrtimer_used, 0, 1)) {
		pr_err("%s: the hard-irq timer was armed once already since the module was loaded\n",
		       bug ? "bug_in_hardirq" : "panic_in_hardirq");
		return -EBUSY;
	}
	pc_hrtimer_setup(&pc_hrtimer, pc_hrtimer_crash, CLOCK_MONOTONIC,
			 HRTIMER_MODE_REL_PINNED_HARD);
	pc_hrtimer_bug = bug;
	preempt_disable();
	hrtimer_start(&pc_hrtimer, ms_to_ktime(1), HRTIMER_MODE_REL_PINNED_HARD);
	ret = pc_wait_interrupt(pc_hrtimer_pending, irqs_disabled(), atomic);
	preempt_enable();
	return ret;
}

int pc_crash_panic_in_hardirq(void)
{
	return pc_hrtimer_fire(false);
}

int pc_crash_bug_in_hardirq(void)
{
	return pc_hrtimer_fire(true);
}

#ifdef CONFIG_X86
#include <asm/apic.h>
#include <asm/nmi.h>

static atomic_t pc_nmi_wanted = ATOMIC_INIT(0);

static int pc_nmi_oops(unsigned int type, struct pt_regs *regs)
{
	/* NMI_LOCAL handlers see every local NMI: only act on ours. */
	if (!atomic_xchg(&pc_nmi_wanted, 0))
		return NMI_DONE;
	pr_info("oops_nmi_context: in NMI context: %s\n",
		in_nmi() ? "yes" : "NO");
	pc_crash_null_dereference();
	return NMI_HANDLED;
}

static bool pc_nmi_pending(void)
{
	return atomic_read(&pc_nmi_wanted);
}

static atomic_t pc_nmi_registered = ATOMIC_INIT(0);

int pc_crash_oops_nmi_context(void)
{
	int ret;

	/* Registered once and kept: unregistering waits for RCU. */
	if (!atomic_xchg(&pc_nmi_registered, 1)) {
		ret = register_nmi_handler(NMI_LOCAL, pc_nmi_oops, 0,
					   "provoke_crash");
		if (ret) {
			atomic_set(&pc_nmi_registered, 0);
			return ret;
		}
	}
	atomic_set(&pc_nmi_wanted, 1);
	/* An NMI is delivered at once, even with interrupts off. */
	apic->send_IPI_mask(cpumask_of(get_cpu()), NMI_VECTOR);
	put_cpu();
	/* Interrupts off do not hold an NMI back; only an NMI does. */
	return pc_wait_interrupt(pc_nmi_pending, in_nmi(), !pc_may_sleep());
}

static void pc_nmi_exit(void)
{
	if (atomic_read(&pc_nmi_registered))
		unregister_nmi_handler(NMI_LOCAL, "provoke_crash");
}
#else
int pc_crash_oops_nmi_context(void)
{
	return -EOPNOTSUPP;
}

static void pc_nmi_exit(void)
{
}
#endif

void pc_interrupts_exit(void)
{
	if (atomic_read(&pc_hrtimer_used))
		hrtimer_cancel(&pc_hrtimer);
	pc_timer_delete_sync(&pc_softirq_timer);
	irq_work_sync(&pc_hardirq_work);
	pc_nmi_exit();
}
