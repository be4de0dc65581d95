// SPDX-License-Identifier: GPL-2.0
/*
 * The compatibility layer's code: what compat.h cannot bridge inline.
 */
#include <linux/cache.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/rcupdate.h>
#include <linux/rcupdate_wait.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#ifdef CONFIG_X86_64
#include <asm/special_insns.h>
#include <asm/tlbflush.h>
#endif

#include "compat.h"

#if defined(CONFIG_X86_64) && defined(PC_HAVE_CR4_UPDATE_EXPORT)
void pc_compat_init(void)
{
}

/* cr4_update_irqsoff() keeps the CPU's shadow of CR4 in step. */
int pc_cr4_clear_pinned(unsigned long bits, unsigned long *after)
{
	unsigned long flags;

	local_irq_save(flags);
	cr4_update_irqsoff(0, bits);
	*after = native_read_cr4();
	cr4_update_irqsoff(bits, 0);
	local_irq_restore(flags);
	return 0;
}
#elif defined(CONFIG_X86_64)
/* endbr64: the only instruction an indirect call may land on under IBT. */
static const u8 pc_endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };

typedef void (*pc_cr4_writer)(unsigned long cr4);

/*
 * native_write_cr4(), or NULL and why not: set once by pc_compat_init()
 * before any of the module's files exist, only read after.
 */
static pc_cr4_writer pc_native_write_cr4 __ro_after_init;
static const char *pc_native_write_cr4_why __ro_after_init = "not looked up";
static int pc_native_write_cr4_err __ro_after_init;

/*
 * native_write_cr4() itself, found by a disabled kprobe (it is not
 * exported; registering one sleeps, so at load, not in a crash that may
 * run in atomic context).  kprobes places the probe after an endbr64:
 * the function starts there.
 */
void pc_compat_init(void)
{
	struct kprobe kp = {
		.symbol_name = "native_write_cr4",
		.flags = KPROBE_FLAG_DISABLED,
	};
	u8 *start;
	int ret;

	ret = register_kprobe(&kp);
	if (ret) {
		pc_native_write_cr4_why = "kprobes cannot find native_write_cr4";
		pc_native_write_cr4_err = ret;
		return;
	}
	start = (u8 *)kp.addr;
	unregister_kprobe(&kp);
	if (!memcmp(start - sizeof(pc_endbr64), pc_endbr64, sizeof(pc_endbr64)))
		start -= sizeof(pc_endbr64);
	if (IS_ENABLED(CONFIG_X86_KERNEL_IBT) &&
	    memcmp(start, pc_endbr64, sizeof(pc_endbr64))) {
		pc_native_write_cr4_why =
			"native_write_cr4 takes no indirect call (IBT, no endbr64)";
		pc_native_write_cr4_err = -EOPNOTSUPP;
		return;
	}
	pc_native_write_cr4 = (pc_cr4_writer)start;
}

/* The same value is written back: the CPU's shadow of CR4 stays true. */
int pc_cr4_clear_pinned(unsigned long bits, unsigned long *after)
{
	pc_cr4_writer write_cr4 = pc_native_write_cr4;
	unsigned long flags, cr4;

	if (!write_cr4) {
		pr_err("cr4_update_irqsoff is not exported to modules here, and %s (%d)\n",
		       pc_native_write_cr4_why, pc_native_write_cr4_err);
		return pc_native_write_cr4_err ?: -EOPNOTSUPP;
	}
	local_irq_save(flags);
	cr4 = native_read_cr4();
	write_cr4(cr4 & ~bits);
	*after = native_read_cr4();
	write_cr4(cr4);
	local_irq_restore(flags);
	return 0;
}
#else
void pc_compat_init(void)
{
}
#endif

#ifdef PC_HAVE_START_POLL_RCU
void pc_rcu_start_grace_period(void)
{
	start_poll_synchronize_rcu();
}

void pc_compat_exit(void)
{
}
#else
/*
 * A worker that waits for a normal grace period, which starts one (not
 * synchronize_rcu(): it may expedite, and an expedited stall reads
 * otherwise).  Queued on another CPU: the caller's is about to stop.
 * The work is static; the workqueue owns it while pending or running,
 * and pc_compat_exit() waits for it before the module's text goes.  If
 * the stall it waits out never ends, the kernel does not come back to
 * unload the module.  Queueing takes the workqueue's and the scheduler's
 * locks: a point on code that holds one of them deadlocks here instead
 * of stalling as asked.
 */
static void pc_rcu_wait_grace_period(struct work_struct *work)
{
	wait_rcu_gp(call_rcu);
}

static DECLARE_WORK(pc_rcu_grace_work, pc_rcu_wait_grace_period);

void pc_rcu_start_grace_period(void)
{
	unsigned int cpu = get_cpu();
	unsigned int other = cpumask_any_but(cpu_online_mask, cpu);

	/* One CPU: no other to wait on this one; the stall types need smp. */
	if (other < nr_cpu_ids)
		queue_work_on(other, system_wq, &pc_rcu_grace_work);
	put_cpu();
}

void pc_compat_exit(void)
{
	flush_work(&pc_rcu_grace_work);
}
#endif
