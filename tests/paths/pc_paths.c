// SPDX-License-Identifier: GPL-2.0
/*
 * pc_paths: the kinds of path of the bench's crash-point matrix.
 *
 * Writing "KIND N" to /sys/kernel/debug/pc-paths/run calls KIND's target,
 * pc_target_KIND(), N times, each call in that kind of path, and returns
 * once all of them have happened.  One target per kind, so that a crash
 * point names the path by its symbol (pc_paths:pc_target_softirq):
 *
 *   task      in the writer, preemptible
 *   preempt   under a raw spinlock: preemption off, interrupts on (a
 *             raw one, so that PREEMPT_RT does not make it a sleeping lock)
 *   rcu       inside rcu_read_lock()
 *   softirq   from a tasklet
 *   hardirq   from a hard irq_work (a self-IPI): interrupts off
 *   nmi       from a local NMI handler (x86-64 only)
 *
 * "KIND N all" makes the N calls on every online CPU at once, each CPU's
 * from a kernel thread bound to it (task is then that thread's path), so
 * that another CPU is in the same path: the 2-CPU cells of the matrix.
 * Reading the file gives the count of target calls made so far.
 *
 * A kind the kernel cannot give is refused with EOPNOTSUPP.  A call that
 * did not come in time (its path crashed, or hangs) fails the write with
 * ETIMEDOUT.  For the bench only: it is never installed.
 */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/cpu.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>

/* How long one call in an interrupt may take to come. */
#define PC_PATHS_WAIT	(5 * HZ)

static atomic_t pc_target_calls = ATOMIC_INIT(0);

/*
 * The targets: a call site for ftrace, a few instructions for a kprobe
 * at an offset, and a return.  noinline and used: each keeps its name.
 */
#define PC_TARGET(kind)							\
	static noinline __used void pc_target_##kind(void)		\
	{								\
		atomic_inc(&pc_target_calls);				\
		barrier();						\
	}

PC_TARGET(task)
PC_TARGET(preempt)
PC_TARGET(rcu)
PC_TARGET(softirq)
PC_TARGET(hardirq)
PC_TARGET(nmi)

static DEFINE_RAW_SPINLOCK(pc_paths_lock);

static void pc_call_preempt(void)
{
	raw_spin_lock(&pc_paths_lock);
	pc_target_preempt();
	raw_spin_unlock(&pc_paths_lock);
}

static void pc_call_rcu(void)
{
	rcu_read_lock();
	pc_target_rcu();
	rcu_read_unlock();
}

/* Each CPU's own tasklet and irq_work: two CPUs may be in one path. */
struct pc_paths_cpu {
	struct tasklet_struct tasklet;
	struct completion softirq_done;
	struct irq_work hardirq_work;
};

static DEFINE_PER_CPU(struct pc_paths_cpu, pc_paths_cpus);

static void pc_softirq_fn(struct tasklet_struct *t)
{
	struct pc_paths_cpu *pc = container_of(t, struct pc_paths_cpu, tasklet);

	pc_target_softirq();
	complete(&pc->softirq_done);
}

static int pc_call_softirq(void)
{
	struct pc_paths_cpu *pc = get_cpu_ptr(&pc_paths_cpus);

	/* A tasklet runs on the CPU that scheduled it. */
	reinit_completion(&pc->softirq_done);
	tasklet_schedule(&pc->tasklet);
	put_cpu_ptr(&pc_paths_cpus);
	if (!wait_for_completion_timeout(&pc->softirq_done, PC_PATHS_WAIT))
		return -ETIMEDOUT;
	return 0;
}

static void pc_hardirq_fn(struct irq_work *work)
{
	pc_target_hardirq();
}

static int pc_call_hardirq(void)
{
	struct pc_paths_cpu *pc = get_cpu_ptr(&pc_paths_cpus);

	irq_work_queue(&pc->hardirq_work);
	put_cpu_ptr(&pc_paths_cpus);
	irq_work_sync(&pc->hardirq_work);
	return 0;
}

static void pc_paths_cpus_init(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct pc_paths_cpu *pc = per_cpu_ptr(&pc_paths_cpus, cpu);

		tasklet_setup(&pc->tasklet, pc_softirq_fn);
		init_completion(&pc->softirq_done);
		pc->hardirq_work = IRQ_WORK_INIT_HARD(pc_hardirq_fn);
	}
}

static void pc_paths_cpus_exit(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct pc_paths_cpu *pc = per_cpu_ptr(&pc_paths_cpus, cpu);

		tasklet_kill(&pc->tasklet);
		irq_work_sync(&pc->hardirq_work);
	}
}

#ifdef CONFIG_X86_64
#include <asm/apic.h>
#include <asm/nmi.h>

/* Set by the CPU that sends itself an NMI, cleared by its handler. */
static DEFINE_PER_CPU(atomic_t, pc_nmi_wanted);
static bool pc_nmi_registered;

static int pc_nmi_fn(unsigned int type, struct pt_regs *regs)
{
	/* NMI_LOCAL handlers see every local NMI: act on ours only. */
	if (!atomic_xchg(this_cpu_ptr(&pc_nmi_wanted), 0))
		return NMI_DONE;
	pc_target_nmi();
	return NMI_HANDLED;
}

/* Under pc_paths_mutex, before any call. */
static int pc_nmi_register(void)
{
	int ret;

	if (pc_nmi_registered)
		return 0;
	ret = register_nmi_handler(NMI_LOCAL, pc_nmi_fn, 0, "pc_paths");
	if (!ret)
		pc_nmi_registered = true;
	return ret;
}

static int pc_call_nmi(void)
{
	atomic_t *wanted = get_cpu_ptr(&pc_nmi_wanted);
	unsigned long waited;

	atomic_set(wanted, 1);
	apic->send_IPI_mask(cpumask_of(smp_processor_id()), NMI_VECTOR);
	put_cpu_ptr(&pc_nmi_wanted);
	for (waited = 0; atomic_read(wanted); waited++) {
		if (waited >= jiffies_to_msecs(PC_PATHS_WAIT))
			return -ETIMEDOUT;
		usleep_range(1000, 2000);
	}
	return 0;
}

static void pc_nmi_exit(void)
{
	if (pc_nmi_registered)
		unregister_nmi_handler(NMI_LOCAL, "pc_paths");
}
#else
static int pc_nmi_register(void)
{
	return -EOPNOTSUPP;
}

static int pc_call_nmi(void)
{
	return -EOPNOTSUPP;
}

static void pc_nmi_exit(void)
{
}
#endif

/* One call of @kind's target in its path: 0, or a negative errno. */
static int pc_call(const char *kind)
{
	if (!strcmp(kind, "task"))
		pc_target_task();
	else if (!strcmp(kind, "preempt"))
		pc_call_preempt();
	else if (!strcmp(kind, "rcu"))
		pc_call_rcu();
	else if (!strcmp(kind, "softirq"))
		return pc_call_softirq();
	else if (!strcmp(kind, "hardirq"))
		return pc_call_hardirq();
	else if (!strcmp(kind, "nmi"))
		return pc_call_nmi();
	else
		return -EINVAL;
	return 0;
}

/* One writer at a time: "all" uses every CPU's tasklet and irq_work. */
static DEFINE_MUTEX(pc_paths_mutex);

/*
 * A run on every CPU: its threads and the writer share it, and the last
 * of them to let go frees it (a writer that gave up waiting goes first).
 */
struct pc_paths_run {
	char kind[16];
	unsigned int n;
	atomic_t starting;	/* threads not yet at the start line */
	atomic_t left;		/* threads not yet done */
	refcount_t refs;
	int ret;		/* the first error of any thread */
	struct completion done;
};

static void pc_paths_run_put(struct pc_paths_run *run)
{
	if (refcount_dec_and_test(&run->refs))
		kfree(run);
}

static int pc_paths_thread(void *data)
{
	struct pc_paths_run *run = data;
	unsigned int i;
	int ret = 0;

	/* All CPUs start together, to be in the path at the same time. */
	atomic_dec(&run->starting);
	while (atomic_read(&run->starting))
		cond_resched();
	for (i = 0; i < run->n && !ret; i++)
		ret = pc_call(run->kind);
	if (ret)
		cmpxchg(&run->ret, 0, ret);
	if (atomic_dec_and_test(&run->left))
		complete(&run->done);
	pc_paths_run_put(run);
	return 0;
}

/* N calls of @kind on every online CPU at once: 0, or a negative errno. */
static int pc_call_all(const char *kind, unsigned int n)
{
	struct task_struct **threads;
	struct pc_paths_run *run;
	int cpu, nr = 0, i, ret = 0;

	threads = kcalloc(nr_cpu_ids, sizeof(*threads), GFP_KERNEL);
	run = kzalloc(sizeof(*run), GFP_KERNEL);
	if (!threads || !run) {
		kfree(threads);
		kfree(run);
		return -ENOMEM;
	}
	strscpy(run->kind, kind, sizeof(run->kind));
	run->n = n;
	init_completion(&run->done);
	cpus_read_lock();
	atomic_set(&run->starting, num_online_cpus());
	atomic_set(&run->left, num_online_cpus());
	refcount_set(&run->refs, num_online_cpus() + 1);
	/* All made before any is woken: none waits on one never made. */
	for_each_online_cpu(cpu) {
		threads[nr] = kthread_create_on_cpu(pc_paths_thread, run, cpu,
						    "pc_paths/%u");
		if (IS_ERR(threads[nr])) {
			ret = PTR_ERR(threads[nr]);
			break;
		}
		nr++;
	}
	/* A thread stopped before it ran never calls its function. */
	for (i = 0; i < nr; i++) {
		if (ret)
			kthread_stop(threads[i]);
		else
			wake_up_process(threads[i]);
	}
	cpus_read_unlock();
	kfree(threads);
	if (ret) {
		kfree(run);
		return ret;
	}
	/* Each call may take PC_PATHS_WAIT; a whole run, no more than n. */
	if (!wait_for_completion_timeout(&run->done, (n + 1) * PC_PATHS_WAIT))
		ret = -ETIMEDOUT;
	else
		ret = run->ret;
	pc_paths_run_put(run);
	return ret;
}

static ssize_t pc_paths_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char buf[32], kind[16], mode[8] = "";
	unsigned int n, i;
	int ret = 0, words;

	if (!count || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	words = sscanf(buf, "%15s %u %7s", kind, &n, mode);
	if (words < 2 || !n || n > 1000 || (words == 3 && strcmp(mode, "all"))) {
		pr_warn("pc_paths: write 'KIND N' or 'KIND N all' (N 1 to 1000), not '%s'\n",
			strim(buf));
		return -EINVAL;
	}
	mutex_lock(&pc_paths_mutex);
	if (!strcmp(kind, "nmi"))
		ret = pc_nmi_register();
	i = 0;
	if (!ret && words == 3)
		ret = pc_call_all(kind, n);
	else
		for (; i < n && !ret; i++)
			ret = pc_call(kind);
	mutex_unlock(&pc_paths_mutex);
	if (ret) {
		if (words == 3)
			pr_warn("pc_paths: %s: %u calls on every CPU: error %d\n",
				kind, n, ret);
		else
			pr_warn("pc_paths: %s: call %u of %u: error %d\n", kind,
				i, n, ret);
		return ret;
	}
	return count;
}

/* The calls of every target so far, to hold a point's hits to. */
static ssize_t pc_paths_read(struct file *file, char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char buf[16];
	int len = scnprintf(buf, sizeof(buf), "%d\n",
			    atomic_read(&pc_target_calls));

	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static const struct file_operations pc_paths_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = pc_paths_read,
	.write = pc_paths_write,
	.llseek = default_llseek,
};

static struct dentry *pc_paths_dir;

static int __init pc_paths_init(void)
{
	pc_paths_cpus_init();
	pc_paths_dir = debugfs_create_dir("pc-paths", NULL);
	debugfs_create_file("run", 0600, pc_paths_dir, NULL, &pc_paths_fops);
	return 0;
}

static void __exit pc_paths_exit(void)
{
	debugfs_remove_recursive(pc_paths_dir);
	pc_paths_cpus_exit();
	pc_nmi_exit();
}

module_init(pc_paths_init);
module_exit(pc_paths_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("The kinds of path of provoke-crash's crash-point matrix (bench only)");
