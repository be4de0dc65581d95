// SPDX-License-Identifier: GPL-2.0
/*
 * Lockups and stalls: a CPU or a task that never makes progress, for the
 * soft and hard lockup watchdogs, the hung-task detector and RCU's stall
 * detector to report; and a panic that must stop CPUs spinning with
 * interrupts off.  None of them returns but to say it could not start,
 * or (deadlock, the folio ABBA types) once threads it started are stuck.
 */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pagemap.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <linux/stop_machine.h>

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
 * kernel).  The request (compat.h) wakes RCU's kthread, or before 5.12 a
 * worker that waits for a grace period, either on another CPU: the stall
 * types need smp.
 */
static void pc_rcu_kick(void)
{
	pc_rcu_start_grace_period();
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

/*
 * On PREEMPT_RT a spinlock_t is a sleeping lock (an rtmutex): taking it
 * again would block, not spin, with preemption on, and no watchdog would
 * ever see it (the bench's guests waited for their time limit).  A
 * raw_spinlock_t spins there as everywhere, with preemption off: the
 * soft-lockup detector reports it, and lockdep's recursion check on a
 * PROVE_LOCKING kernel.
 */
#ifdef CONFIG_PREEMPT_RT
static DEFINE_RAW_SPINLOCK(pc_lock_twice);
#define pc_spin_lock_twice()	raw_spin_lock(&pc_lock_twice)
#else
static DEFINE_SPINLOCK(pc_lock_twice);
#define pc_spin_lock_twice()	spin_lock(&pc_lock_twice)
#endif

/* Sparse: the lock is taken twice and never released, on purpose. */
noinline int pc_crash_spinlockup(void)
	__acquires(&pc_lock_twice) __acquires(&pc_lock_twice)
{
	pc_spin_lock_twice();
	/* The lock is ours: the second acquisition spins for ever. */
	pc_spin_lock_twice();
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

/*
 * Start the two sides of a deadlock, both or neither: a side alone would
 * wait for ever for the other, having printed the first line of a
 * deadlock that never comes.  Both are created before either runs; each
 * running side holds a module reference (its code must outlive rmmod)
 * and drops it only if it ever gets out (module_put_and_kthread_exit()).
 */
static int pc_start_pair(const char *type, int (*fn)(void *), void *a_data,
			 void *b_data, const char *a_name, const char *b_name)
{
	struct task_struct *a, *b;

	a = kthread_create(fn, a_data, "%s", a_name);
	if (IS_ERR(a)) {
		pr_err("%s: cannot start %s: error %ld\n", type, a_name, PTR_ERR(a));
		return PTR_ERR(a);
	}
	b = kthread_create(fn, b_data, "%s", b_name);
	if (IS_ERR(b)) {
		pr_err("%s: cannot start %s: error %ld\n", type, b_name, PTR_ERR(b));
		/* Never woken: it exits without running fn. */
		kthread_stop(a);
		return PTR_ERR(b);
	}
	__module_get(THIS_MODULE);
	__module_get(THIS_MODULE);
	wake_up_process(a);
	wake_up_process(b);
	return 0;
}

int pc_crash_deadlock(void)
{
	int ret;

	if (mutex_is_locked(&pc_abba_a) || mutex_is_locked(&pc_abba_b))
		return -EBUSY;
	reinit_completion(&pc_abba_a_held);
	reinit_completion(&pc_abba_b_held);
	ret = pc_start_pair("deadlock", pc_abba_thread, &pc_abba_a, &pc_abba_b,
			    "pc-abba-a", "pc-abba-b");
	/* The two threads are stuck; the caller is not. */
	return ret ? ret : -EINPROGRESS;
}

/* The cross-CPU call's handler: its CPU spins in hard irq context. */
static void pc_smp_call_spin(void *unused)
{
	pc_spin_forever();
}

noinline int pc_crash_smp_call_lockup(void)
{
	unsigned int cpu, target;

	/* The target must stay online while we wait for it. */
	cpus_read_lock();
	cpu = get_cpu();
	target = cpumask_any_but(cpu_online_mask, cpu);
	if (target >= nr_cpu_ids) {
		put_cpu();
		cpus_read_unlock();
		pr_err("smp_call_lockup: no other CPU online\n");
		return -ENODEV;
	}
	pr_info("smp_call_lockup: CPU %u calls CPU %u and waits\n", cpu, target);
	/* Waits with preemption off for a handler that never returns. */
	smp_call_function_single(target, pc_smp_call_spin, NULL, 1);
	put_cpu();
	cpus_read_unlock();
	return 0;
}

/*
 * Run on every online CPU by stop_machine(), interrupts off: the last to
 * arrive panics, the others spin.  Only an NMI can stop them (x86-64's
 * NMI fallback, arm64's pseudo-NMI or IPI_CPU_STOP_NMI).  @arg counts
 * the arrivals; stop_machine() keeps the set of CPUs fixed.
 */
static int pc_panic_stop_cpu(void *arg)
{
	atomic_t *arrived = arg;
	unsigned int others = num_online_cpus() - 1;

	if (atomic_inc_return(arrived) == others + 1) {
		pr_info("panic_stop_irqoff: CPU %d panics, %u other CPU%s spinning with interrupts off\n",
			raw_smp_processor_id(), others, others == 1 ? "" : "s");
		panic("provoke-crash: panic_stop_irqoff requested\n");
	}
	pc_spin_forever();
	return 0;
}

int pc_crash_panic_stop_irqoff(void)
{
	atomic_t arrived = ATOMIC_INIT(0);

	if (num_online_cpus() < 2) {
		pr_err("panic_stop_irqoff: no other CPU online to stop\n");
		return -ENODEV;
	}
	return stop_machine(pc_panic_stop_cpu, &arrived, cpu_online_mask);
}

#ifdef PC_HAVE_FOLIO_LOCK
/*
 * Folio locks (PG_locked), which lockdep does not see: a deadlock on them
 * is for the hung-task detector to find.  The folios are never unlocked
 * nor freed; the first folio type to run owns them (pc_folio_used) and
 * sets them up before its threads start, which only read them.
 */
static struct folio *pc_folio_a, *pc_folio_b;
static DEFINE_MUTEX(pc_folio_mutex);
static DECLARE_COMPLETION(pc_folio_a_held);
static DECLARE_COMPLETION(pc_folio_b_held);
static atomic_t pc_folio_used = ATOMIC_INIT(0);

static int pc_folio_claim(const char *name)
{
	if (atomic_cmpxchg(&pc_folio_used, 0, 1)) {
		pr_err("%s: a folio deadlock was made already since the module was loaded\n",
		       name);
		return -EBUSY;
	}
	pc_folio_a = folio_alloc(GFP_KERNEL, 0);
	pc_folio_b = folio_alloc(GFP_KERNEL, 0);
	if (!pc_folio_a || !pc_folio_b) {
		if (pc_folio_a)
			folio_put(pc_folio_a);
		if (pc_folio_b)
			folio_put(pc_folio_b);
		atomic_set(&pc_folio_used, 0);
		return -ENOMEM;
	}
	return 0;
}

noinline int pc_crash_folio_lock_aa(void)
{
	int ret = pc_folio_claim("folio_lock_aa");

	if (ret)
		return ret;
	folio_lock(pc_folio_a);
	pr_info("folio_lock_aa: %s[%d] holds the folio lock, takes it again\n",
		current->comm, task_pid_nr(current));
	/* Sleeps uninterruptibly on the lock it holds, for ever. */
	folio_lock(pc_folio_a);
	return 0;
}

/* Side a and side b of a folio deadlock: with_mutex puts the mutex in b's place. */
struct pc_folio_side {
	bool is_a;
	bool with_mutex;
};

static struct pc_folio_side pc_folio_sides[2][2] = {
	{ { true, false }, { false, false } },
	{ { true, true }, { false, true } },
};

static void pc_folio_side_lock(bool lock_a, bool with_mutex)
{
	if (lock_a)
		folio_lock(pc_folio_a);
	else if (with_mutex)
		mutex_lock(&pc_folio_mutex);
	else
		folio_lock(pc_folio_b);
}

static const char *pc_folio_lock_name(bool lock_a, bool with_mutex)
{
	if (with_mutex)
		return lock_a ? "the folio" : "the mutex";
	return lock_a ? "folio a" : "folio b";
}

/*
 * Each side takes its own lock, waits until the other holds its own,
 * then takes the other's: the deadlock is certain.
 */
static int pc_folio_thread(void *data)
{
	const struct pc_folio_side *side = data;

	pc_folio_side_lock(side->is_a, side->with_mutex);
	complete(side->is_a ? &pc_folio_a_held : &pc_folio_b_held);
	wait_for_completion(side->is_a ? &pc_folio_b_held : &pc_folio_a_held);
	pr_info("%s: pc-folio-%c holds %s, wants %s\n",
		side->with_mutex ? "folio_mutex_lock_abba" : "folio_lock_abba",
		side->is_a ? 'a' : 'b',
		pc_folio_lock_name(side->is_a, side->with_mutex),
		pc_folio_lock_name(!side->is_a, side->with_mutex));
	pc_folio_side_lock(!side->is_a, side->with_mutex);
	/* Never reached: both sides always start (pc_start_pair()). */
	module_put_and_kthread_exit(0);
}

static int pc_folio_abba(bool with_mutex)
{
	struct pc_folio_side *sides = pc_folio_sides[with_mutex];
	const char *type = with_mutex ? "folio_mutex_lock_abba" : "folio_lock_abba";
	int ret;

	ret = pc_folio_claim(type);
	if (ret)
		return ret;
	ret = pc_start_pair(type, pc_folio_thread, &sides[0], &sides[1],
			    "pc-folio-a", "pc-folio-b");
	if (ret) {
		/* No thread ran: the folios are unused, and free again. */
		folio_put(pc_folio_a);
		folio_put(pc_folio_b);
		atomic_set(&pc_folio_used, 0);
		return ret;
	}
	/* The two threads are stuck; the caller is not. */
	return -EINPROGRESS;
}

int pc_crash_folio_lock_abba(void)
{
	return pc_folio_abba(false);
}

int pc_crash_folio_mutex_lock_abba(void)
{
	return pc_folio_abba(true);
}
#else
/* Before 5.16 a page lock is not a folio lock: nothing to name. */
static int pc_no_folios(const char *name)
{
	pr_err("XFAIL: %s: this kernel has no folios (5.16)\n", name);
	return -EOPNOTSUPP;
}

int pc_crash_folio_lock_aa(void)
{
	return pc_no_folios("folio_lock_aa");
}

int pc_crash_folio_lock_abba(void)
{
	return pc_no_folios("folio_lock_abba");
}

int pc_crash_folio_mutex_lock_abba(void)
{
	return pc_no_folios("folio_mutex_lock_abba");
}
#endif
