/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place where kernel API differences are bridged.  Each
 * PC_HAVE_* flag comes from compat_probe.sh, which Kbuild runs on the
 * headers the module is built against: a flag says what the kernel has,
 * not which version it is.  The crash files use the pc_ names below.
 */
#ifndef PROVOKE_CRASH_COMPAT_H
#define PROVOKE_CRASH_COMPAT_H

#include <linux/ftrace.h>
#include <linux/hardirq.h>
#include <linux/hrtimer.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/timer.h>

/* A task's state word: ->__state since 5.14, ->state before. */
#ifdef PC_HAVE_TASK___STATE
#define pc_task_state(t)	READ_ONCE((t)->__state)
#else
#define pc_task_state(t)	READ_ONCE((t)->state)
#endif

/* in_hardirq() (5.11) is the old in_irq(). */
#ifndef in_hardirq
#define in_hardirq()		in_irq()
#endif

static inline void pc_hrtimer_setup(struct hrtimer *timer,
				    enum hrtimer_restart (*fn)(struct hrtimer *),
				    clockid_t clock, enum hrtimer_mode mode)
{
#ifdef PC_HAVE_HRTIMER_SETUP
	hrtimer_setup(timer, fn, clock, mode);
#else
	hrtimer_init(timer, clock, mode);
	timer->function = fn;
#endif
}

static inline int pc_timer_delete_sync(struct timer_list *timer)
{
#ifdef PC_HAVE_TIMER_DELETE_SYNC
	return timer_delete_sync(timer);
#else
	return del_timer_sync(timer);
#endif
}

/*
 * The @n-th argument (from 0) as an ftrace callback's registers hold it:
 * both arches save the argument registers for any ops.  Without
 * DYNAMIC_FTRACE_WITH_ARGS (arm64 6.1) ftrace_regs is a pt_regs; with
 * it, 6.1's x86-64 has no accessor yet but keeps one too.
 */
#if !defined(CONFIG_HAVE_DYNAMIC_FTRACE_WITH_ARGS)
#define pc_ftrace_regs_argument(fregs, n) \
	regs_get_kernel_argument(ftrace_get_regs(fregs), n)
#elif defined(ftrace_regs_get_argument) || defined(CONFIG_ARM64)
#define pc_ftrace_regs_argument(fregs, n) \
	ftrace_regs_get_argument(fregs, n)
#else
#define pc_ftrace_regs_argument(fregs, n) \
	regs_get_kernel_argument(&(fregs)->regs, n)
#endif

/*
 * Stack erasing: the gcc plugin's STACKLEAK became KSTACK_ERASE, with
 * its header and its poison renamed and its helpers kept.
 */
#ifdef PC_HAVE_KSTACK_ERASE_H
#include <linux/kstack_erase.h>
#define PC_STACK_ERASE_POISON	KSTACK_ERASE_POISON
#define PC_STACK_ERASE_CONFIG	"CONFIG_KSTACK_ERASE"
#ifdef CONFIG_KSTACK_ERASE
#define PC_HAVE_STACK_ERASE
#endif
#else
#include <linux/stackleak.h>
#define PC_STACK_ERASE_POISON	STACKLEAK_POISON
#define PC_STACK_ERASE_CONFIG	"CONFIG_GCC_PLUGIN_STACKLEAK"
#ifdef CONFIG_GCC_PLUGIN_STACKLEAK
#define PC_HAVE_STACK_ERASE
#endif
#endif

/* At load, in task context: look up what the kernel does not export. */
void pc_compat_init(void);

/*
 * x86-64: clear @bits in CR4 through the kernel's own write, which checks
 * the pinned bits, then write CR4 back as it was; *@after: CR4 in
 * between.  0, or a negative errno once it logged why it could not.
 */
int pc_cr4_clear_pinned(unsigned long bits, unsigned long *after);

#endif /* PROVOKE_CRASH_COMPAT_H */
