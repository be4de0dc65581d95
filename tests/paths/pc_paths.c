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
 * A kind the kernel cannot give is refused with EOPNOTSUPP.  A call that
 * did not come in time (its path crashed, or hangs) fails the write with
 * ETIMEDOUT.  For the bench only: it is never installed.
 */
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
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

static DECLARE_COMPLETION(pc_softirq_done);

static void pc_softirq_fn(struct tasklet_struct *t)
{
	pc_target_softirq();
	complete(&pc_softirq_done);
}

static DECLARE_TASKLET(pc_softirq_tasklet, pc_softirq_fn);

static int pc_call_softirq(void)
{
	reinit_completion(&pc_softirq_done);
	tasklet_schedule(&pc_softirq_tasklet);
	if (!wait_for_completion_timeout(&pc_softirq_done, PC_PATHS_WAIT))
		return -ETIMEDOUT;
	return 0;
}

static void pc_hardirq_fn(struct irq_work *work)
{
	pc_target_hardirq();
}

static struct irq_work pc_hardirq_work = IRQ_WORK_INIT_HARD(pc_hardirq_fn);

static int pc_call_hardirq(void)
{
	irq_work_queue(&pc_hardirq_work);
	irq_work_sync(&pc_hardirq_work);
	return 0;
}

#ifdef CONFIG_X86_64
#include <asm/apic.h>
#include <asm/nmi.h>

static atomic_t pc_nmi_wanted = ATOMIC_INIT(0);
static bool pc_nmi_registered;

static int pc_nmi_fn(unsigned int type, struct pt_regs *regs)
{
	/* NMI_LOCAL handlers see every local NMI: act on ours only. */
	if (!atomic_xchg(&pc_nmi_wanted, 0))
		return NMI_DONE;
	pc_target_nmi();
	return NMI_HANDLED;
}

static int pc_call_nmi(void)
{
	unsigned long waited;
	int ret;

	if (!pc_nmi_registered) {
		ret = register_nmi_handler(NMI_LOCAL, pc_nmi_fn, 0, "pc_paths");
		if (ret)
			return ret;
		pc_nmi_registered = true;
	}
	atomic_set(&pc_nmi_wanted, 1);
	apic->send_IPI_mask(cpumask_of(get_cpu()), NMI_VECTOR);
	put_cpu();
	for (waited = 0; atomic_read(&pc_nmi_wanted); waited++) {
		if (waited >= jiffies_to_msecs(PC_PATHS_WAIT))
			return -ETIMEDOUT;
		msleep(1);
	}
	return 0;
}

static void pc_nmi_exit(void)
{
	if (pc_nmi_registered)
		unregister_nmi_handler(NMI_LOCAL, "pc_paths");
}
#else
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

/* One writer at a time: the completion and the NMI flag are shared. */
static DEFINE_MUTEX(pc_paths_mutex);

static ssize_t pc_paths_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char buf[32], kind[16];
	unsigned int n, i;
	int ret = 0;

	if (!count || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (sscanf(buf, "%15s %u", kind, &n) != 2 || !n || n > 1000) {
		pr_warn("pc_paths: write 'KIND N' (N 1 to 1000), not '%s'\n",
			strim(buf));
		return -EINVAL;
	}
	mutex_lock(&pc_paths_mutex);
	for (i = 0; i < n && !ret; i++)
		ret = pc_call(kind);
	mutex_unlock(&pc_paths_mutex);
	if (ret) {
		pr_warn("pc_paths: %s: call %u of %u: error %d\n", kind, i, n,
			ret);
		return ret;
	}
	return count;
}

static const struct file_operations pc_paths_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = pc_paths_write,
	.llseek = noop_llseek,
};

static struct dentry *pc_paths_dir;

static int __init pc_paths_init(void)
{
	pc_paths_dir = debugfs_create_dir("pc-paths", NULL);
	debugfs_create_file("run", 0200, pc_paths_dir, NULL, &pc_paths_fops);
	return 0;
}

static void __exit pc_paths_exit(void)
{
	debugfs_remove_recursive(pc_paths_dir);
	tasklet_kill(&pc_softirq_tasklet);
	irq_work_sync(&pc_hardirq_work);
	pc_nmi_exit();
}

module_init(pc_paths_init);
module_exit(pc_paths_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("The kinds of path of provoke-crash's crash-point matrix (bench only)");
