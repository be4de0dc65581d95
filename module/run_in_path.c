// SPDX-License-Identifier: GPL-2.0
/*
 * Running a crash in a probed path: the slots, the module reference they
 * hold, and the decision whether a type can run where a hit happened.
 * See run_in_path.h for the model.
 *
 * A slot is taken by cmpxchg() on ->task, in any context (NMI included);
 * its other fields are written by that task before it runs the path and
 * read only by that task afterwards.  ->task goes back to NULL, with the
 * task and module references dropped, exactly once: by the task itself
 * when it oopses (the die notifier) or exits (the sched_process_exit
 * tracepoint), or by pc_path_reclaim() (serialized by pc_reclaim_lock)
 * for a task that is already dead.
 */
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/irq_work.h>
#include <linux/kdebug.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/printk.h>
#include <linux/rcupdate.h>
#include <linux/sched/task.h>
#include <linux/string.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>

#include "run_in_path.h"

/* Crashes in progress at once: each holds a slot until its task dies. */
#define PC_PATH_SLOTS	64

/* How long a deferred crash may take to come before we call it lost. */
#define PC_PATH_WAIT_S	10

/* While a slot is held, how often to look for tasks that died. */
#define PC_RECLAIM_DELAY	(HZ / 4)

static struct pc_path pc_paths[PC_PATH_SLOTS];
static DEFINE_MUTEX(pc_reclaim_lock);
/* Numbers the claims (atomic: a claim may come from any context). */
static atomic_long_t pc_path_seq = ATOMIC_LONG_INIT(0);

/*
 * A claim may happen in NMI: it kicks an irq_work, which queues the
 * reclaim work; that runs again while any slot is held, so the slot of a
 * task that exits without an oops comes back soon after.
 */
static void pc_reclaim_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(pc_reclaim_work, pc_reclaim_fn);

static void pc_reclaim_kick(struct irq_work *work)
{
	queue_delayed_work(system_wq, &pc_reclaim_work, PC_RECLAIM_DELAY);
}

static DEFINE_IRQ_WORK(pc_reclaim_irq_work, pc_reclaim_kick);

/*
 * in_softirq() as well as @count's bits: on PREEMPT_RT a task's softirq
 * state is its own, not in the preemption count.  A trap leaves it as
 * the path's, as it does rcu_preempt_depth().
 */
int notrace pc_context_of(unsigned int count, bool irqs_off)
{
	if (count & NMI_MASK)
		return PC_CTX_NMI;
	if (irqs_off || (count & HARDIRQ_MASK))
		return PC_CTX_ATOMIC;
	/* Without a preemption count nothing says the path may schedule. */
	if ((count & (SOFTIRQ_MASK | PREEMPT_MASK)) || in_softirq() ||
	    !IS_ENABLED(CONFIG_PREEMPT_COUNT) || rcu_preempt_depth())
		return PC_CTX_IRQS;
	return PC_CTX_PREEMPT;
}

NOKPROBE_SYMBOL(pc_context_of);

int notrace pc_context_now(unsigned int levels)
{
	/* Without a preemption count, preempt_disable() adds nothing. */
	if (!IS_ENABLED(CONFIG_PREEMPT_COUNT))
		levels = 0;
	return pc_context_of(preempt_count() - levels * PREEMPT_OFFSET,
			     irqs_disabled());
}

NOKPROBE_SYMBOL(pc_context_now);

bool notrace pc_path_may_run(const struct pc_crash_type *type, int context,
			     const char *where, unsigned long *told)
{
	if (context <= type->context)
		return true;
	if (!test_and_set_bit(0, told))
		pr_warn("crashpoints: %s: %s missed: it needs %s context at most, and the path is in %s context here\n",
			where, type->name, pc_context_name(type->context),
			pc_context_name(context));
	return false;
}

NOKPROBE_SYMBOL(pc_path_may_run);

struct pc_path *notrace pc_path_claim(const struct pc_crash_type *type,
				      const char *where,
				      void (*missed)(unsigned long point_id),
				      unsigned long point_id)
{
	struct pc_path *path;
	int i;

	/* Fails once rmmod has begun: no new path into our code then. */
	if (!try_module_get(THIS_MODULE))
		return NULL;
	/* Taken before the slot shows the task: reclaim may drop it. */
	get_task_struct(current);
	for (i = 0; i < PC_PATH_SLOTS; i++) {
		path = &pc_paths[i];
		if (READ_ONCE(path->task) || cmpxchg(&path->task, NULL, current))
			continue;
		path->type = type;
		path->missed = missed;
		path->point_id = point_id;
		path->ret_addr = 0;
		path->ms = 0;
		WRITE_ONCE(path->stall_context, -1);
		path->ran = false;
		path->resumable = false;
		path->land = NULL;
		path->seq = atomic_long_inc_return(&pc_path_seq);
		strscpy(path->where, where, sizeof(path->where));
		irq_work_queue(&pc_reclaim_irq_work);
		return path;
	}
	/* Not the last reference: current holds its own. */
	put_task_struct(current);
	module_put(THIS_MODULE);
	pr_warn_ratelimited("crashpoints: %s: %s missed: all %d crashes-in-progress slots are taken\n",
			    where, type->name, PC_PATH_SLOTS);
	return NULL;
}

NOKPROBE_SYMBOL(pc_path_claim);

bool notrace pc_path_stalling(const struct pc_crash_type *type,
			      const char *where, int context)
{
	struct pc_path *path;
	int i;

	/* current's own slots: only current marks them, or frees them. */
	for (i = 0; i < PC_PATH_SLOTS; i++) {
		path = &pc_paths[i];
		if (READ_ONCE(path->task) == current &&
		    READ_ONCE(path->stall_context) == context) {
			pr_warn_ratelimited("crashpoints: %s: %s missed: the task is held up in this context by a stall already (at %s), and this hit is in what that stall runs\n",
					    where, type->name, path->where);
			return true;
		}
	}
	return false;
}

NOKPROBE_SYMBOL(pc_path_stalling);

struct pc_path *pc_path_find_frame(unsigned long sp)
{
	struct pc_path *path, *best = NULL;
	int i;

	for (i = 0; i < PC_PATH_SLOTS; i++) {
		path = &pc_paths[i];
		if (READ_ONCE(path->task) != current || !path->frame ||
		    path->frame < sp)
			continue;
		/*
		 * Innermost first; on one frame (a function that a diverted
		 * one tail-called, diverted too) the newest diversion.
		 */
		if (!best || path->frame < best->frame ||
		    (path->frame == best->frame && path->seq > best->seq))
			best = path;
	}
	return best;
}

/*
 * Exactly once per slot: whoever moves ->task from @task to NULL.  ->frame
 * is cleared first: a free slot never matches a landing's lookup, and the
 * next owner finds it 0 (a %return diversion sets it after claiming).
 *
 * @ended: the task is ending (an oops, an exit, or found dead).  A crash
 * it never started then never will: a %return diversion whose function
 * never came back through the landing (the task died inside it, of an
 * exit or of another crash; or a BPF fexit or livepatch trampoline on it
 * returned past our shim).  That hit fired on paper only: it counts as
 * missed, with a line.  ->ran and ->where are the task's own, and it is
 * gone, dying or in do_exit() here.
 */
static void pc_path_release(struct pc_path *path, struct task_struct *task,
			    bool ended)
{
	bool unlanded;

	if (READ_ONCE(path->task) != task)
		return;
	unlanded = ended && READ_ONCE(path->frame) && !READ_ONCE(path->ran);
	WRITE_ONCE(path->frame, 0);
	WRITE_ONCE(path->stall_context, -1);
	if (cmpxchg(&path->task, task, NULL) != task)
		return;
	if (unlanded) {
		pr_warn_ratelimited("crashpoints: %s: %s missed: its task ended before the function returned through its landing (or another trampoline on it returned past ours)\n",
				    path->where, path->type->name);
		path->missed(path->point_id);
	}
	put_task_struct(task);
	module_put(THIS_MODULE);
}

/*
 * Run the crash; what it returned, once a deferred one had its time.  A
 * crash sent into a path is fatal: if it comes back at all, it did not
 * happen, and its hit is missed.
 */
static int pc_path_attempt(struct pc_path *path)
{
	int ret, waited;

	WRITE_ONCE(path->ran, true);
	ret = pc_crash_run(path->type, path->where, path->ms);

	/*
	 * A deferred crash comes from the scheduler or an interrupt, which
	 * pc_path_may_run() made sure can happen here.
	 */
	for (waited = 0; ret == -EINPROGRESS && waited < PC_PATH_WAIT_S;
	     waited++) {
		if (pc_may_sleep())
			msleep(1000);
		else
			mdelay(1000);
	}
	path->missed(path->point_id);
	return ret;
}

static void pc_path_cannot_resume(struct pc_path *path, int ret)
{
	pr_emerg("crashpoints: %s: %s %s, and the path it replaced cannot resume: BUG\n",
		 path->where, path->type->name,
		 ret == -EINPROGRESS ? "never came" : "returned");
}

void pc_path_run_or_resume(struct pc_path *path)
{
	int ret;

	/* A stall goes on by design: it fired if it held the path up. */
	if (path->type->fate == PC_FATE_STALL) {
		WRITE_ONCE(path->ran, true);
		if (pc_crash_run(path->type, path->where, path->ms))
			path->missed(path->point_id);
		return;
	}
	ret = pc_path_attempt(path);

	pr_warn("crashpoints: %s: %s %s: the path goes on\n", path->where,
		path->type->name, ret == -EINPROGRESS ? "never came" : "returned");
}

void pc_path_give_back(struct pc_path *path)
{
	pc_path_release(path, current, false);
}

/*
 * Set once a landing gave its slot back and went on in our text: its
 * module reference is gone while it still runs a few instructions here.
 * pc_path_exit() then waits for every task to pass a voluntary switch
 * (RCU tasks: a task preempted in our text has not), the way ftrace
 * waits before an ops' trampoline goes.
 */
static bool pc_path_resumed;

static void pc_path_land_one(struct pc_path *path, unsigned long retval)
{
	int ret;

	if (!path->resumable)
		pc_path_run(path);
	/* Not this time: the function returns as if never diverted. */
	if (path->land && !path->land(path, retval)) {
		WRITE_ONCE(pc_path_resumed, true);
		pc_path_give_back(path);
		return;
	}
	ret = pc_path_attempt(path);
	if (ret == -EINPROGRESS) {
		pc_path_cannot_resume(path, ret);
		BUG();	/* BUG on purpose: a deferred crash may still come */
	}
	pr_warn("crashpoints: %s: %s returned: the path goes on\n",
		path->where, path->type->name);
	/* Nothing from here to the landing's return may sleep. */
	WRITE_ONCE(pc_path_resumed, true);
	pc_path_give_back(path);
}

/*
 * A diverted function that tail-called another diverted one shares its
 * frame: each diversion of @frame lands, the newest (@path) first.
 */
void pc_path_land(struct pc_path *path, unsigned long frame,
		  unsigned long retval)
{
	do {
		pc_path_land_one(path, retval);
		path = pc_path_find_frame(frame);
	} while (path && path->frame == frame);
}

void __noreturn pc_path_run(struct pc_path *path)
{
	pc_path_cannot_resume(path, pc_path_attempt(path));
	BUG();	/* BUG on purpose: the path cannot resume */
}

void __noreturn pc_redirected(struct pc_path *path)
{
	pc_path_run(path);
}

/*
 * An oops ends its task: it never runs our code again, so its slots and
 * their module references go back (rmmod works after an oops at a point).
 */
static int pc_path_died(struct notifier_block *nb, unsigned long val,
			void *data)
{
	int i;

	if (val != DIE_OOPS)
		return NOTIFY_DONE;
	for (i = 0; i < PC_PATH_SLOTS; i++)
		if (READ_ONCE(pc_paths[i].task) == current)
			pc_path_release(&pc_paths[i], current, true);
	return NOTIFY_DONE;
}

static struct notifier_block pc_path_die_nb = {
	.notifier_call = pc_path_died,
};

/*
 * A task in do_exit() never returns into a frame its slots divert (every
 * one is a caller of do_exit(), which does not return): it gives them
 * back itself, before its parent can reap it.  Left to the reclaim, the
 * slot of a task that exits stayed taken until a later poll found the
 * task dead, a quarter second or more: back-to-back exits could then run
 * out of slots, and on PREEMPT_RT (the exit's tail preemptible, the
 * poll's timer and work threads beside the exits) they did.  A context
 * that interrupts this task ends its own diversions before we go on.
 */
static void pc_path_task_exit(void *unused, struct task_struct *task)
{
	int i;

	for (i = 0; i < PC_PATH_SLOTS; i++)
		if (READ_ONCE(pc_paths[i].task) == task)
			pc_path_release(&pc_paths[i], task, true);
}

/* sched_process_exit: not exported, so found by name. */
static struct tracepoint *pc_exit_tp;

static void pc_find_exit_tp(struct tracepoint *tp, void *unused)
{
	if (!strcmp(tp->name, "sched_process_exit"))
		pc_exit_tp = tp;
}

static void pc_exit_hook_add(void)
{
	int ret;

	for_each_kernel_tracepoint(pc_find_exit_tp, NULL);
	if (!pc_exit_tp) {
		pr_info("crashpoints: no sched_process_exit tracepoint: a slot comes back only once its task is found dead\n");
		return;
	}
	ret = tracepoint_probe_register(pc_exit_tp, pc_path_task_exit, NULL);
	if (ret) {
		pr_info("crashpoints: sched_process_exit refused our probe (error %d): a slot comes back only once its task is found dead\n",
			ret);
		pc_exit_tp = NULL;
	}
}

static void pc_exit_hook_remove(void)
{
	if (!pc_exit_tp)
		return;
	tracepoint_probe_unregister(pc_exit_tp, pc_path_task_exit, NULL);
	/* A task may still run the probe: it is our code. */
	tracepoint_synchronize_unregister();
	pc_exit_tp = NULL;
}

/*
 * TASK_DEAD is set before the task's last schedule: it is gone only once
 * it is off its CPU (on_cpu clears, with release, after that switch).  A
 * UP kernel has no on_cpu: there the CPU runs us, not the dead task.
 */
static bool pc_task_off_cpu(struct task_struct *task)
{
#ifdef CONFIG_SMP
	/* Pairs with the release that clears on_cpu after the switch. */
	return !smp_load_acquire(&task->on_cpu);
#else
	return true;
#endif
}

void pc_path_reclaim(void)
{
	struct task_struct *task;
	bool dead;
	int i;

	mutex_lock(&pc_reclaim_lock);
	for (i = 0; i < PC_PATH_SLOTS; i++) {
		/*
		 * The die notifier may drop the slot's reference under us;
		 * the task itself is freed only after a grace period.
		 */
		rcu_read_lock();
		task = READ_ONCE(pc_paths[i].task);
		dead = task && (pc_task_state(task) & TASK_DEAD) &&
		       pc_task_off_cpu(task);
		rcu_read_unlock();
		if (dead)
			pc_path_release(&pc_paths[i], task, true);
	}
	mutex_unlock(&pc_reclaim_lock);
}

static bool pc_path_any_held(void)
{
	int i;

	for (i = 0; i < PC_PATH_SLOTS; i++)
		if (READ_ONCE(pc_paths[i].task))
			return true;
	return false;
}

static void pc_reclaim_fn(struct work_struct *work)
{
	pc_path_reclaim();
	if (pc_path_any_held())
		queue_delayed_work(system_wq, &pc_reclaim_work,
				   PC_RECLAIM_DELAY);
}

/*
 * A load that fails frees our code regardless of references: wait until
 * every task sent into a path has died (their slots then come back).
 */
void pc_path_drain(void)
{
	bool told = false;

	for (;;) {
		pc_path_reclaim();
		if (!pc_path_any_held())
			return;
		if (!told)
			pr_info("crashpoints: the load failed: waiting for the tasks sent into a crash to end\n");
		told = true;
		msleep(100);
	}
}

int pc_path_init(void)
{
	int ret = register_die_notifier(&pc_path_die_nb);

	if (!ret)
		pc_exit_hook_add();
	return ret;
}

void pc_path_exit(void)
{
	/* No slot is held (each holds a module reference): none is claimed. */
	irq_work_sync(&pc_reclaim_irq_work);
	cancel_delayed_work_sync(&pc_reclaim_work);
	unregister_die_notifier(&pc_path_die_nb);
	pc_exit_hook_remove();
	if (READ_ONCE(pc_path_resumed))
		synchronize_rcu_tasks();
}
