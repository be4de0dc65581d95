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
#include <linux/irq_work.h>
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/timer.h>

/* A task's state word: ->__state since 5.14, ->state before. */
#ifdef PC_HAVE_TASK___STATE
#define pc_task_state(t)	READ_ONCE((t)->__state)
#else
#define pc_task_state(t)	((unsigned int)READ_ONCE((t)->state))
#endif

/* KFENCE (5.12): without it no address is KFENCE's. */
#ifdef PC_HAVE_KFENCE_H
#include <linux/kfence.h>
#define pc_is_kfence_address(addr)	is_kfence_address(addr)
#else
#define pc_is_kfence_address(addr)	false
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

/*
 * An irq_work that runs in hard irq context even on PREEMPT_RT.  Before
 * 5.11 the work's flags were its own atomic_t, with the same bits.
 */
#ifdef PC_HAVE_IRQ_WORK_INIT_HARD
#define PC_IRQ_WORK_INIT_HARD(fn)	IRQ_WORK_INIT_HARD(fn)
#define pc_irq_work_is_pending(w)	irq_work_is_pending(w)
#else
#define PC_IRQ_WORK_INIT_HARD(fn) \
	{ .flags = ATOMIC_INIT(IRQ_WORK_HARD_IRQ), .func = (fn) }
#define pc_irq_work_is_pending(w) \
	(atomic_read(&(w)->flags) & IRQ_WORK_PENDING)
#endif

/* A kretprobe instance's kretprobe: ->rp before get_kretprobe() (5.11). */
#ifdef PC_HAVE_GET_KRETPROBE
#define pc_get_kretprobe(ri)	get_kretprobe(ri)
#else
#define pc_get_kretprobe(ri)	((ri)->rp)
#endif

/*
 * BTF kinds are ABI: their numbers never change.  Name the ones newer
 * than the headers, which the running kernel's BTF then never holds.
 */
#ifdef PC_HAVE_BTF_KIND_FLOAT
#define PC_BTF_KIND_FLOAT	BTF_KIND_FLOAT
#else
#define PC_BTF_KIND_FLOAT	16
#endif
#ifdef PC_HAVE_BTF_KIND_DECL_TAG
#define PC_BTF_KIND_DECL_TAG	BTF_KIND_DECL_TAG
#else
#define PC_BTF_KIND_DECL_TAG	17
#endif
#ifdef PC_HAVE_BTF_KIND_TYPE_TAG
#define PC_BTF_KIND_TYPE_TAG	BTF_KIND_TYPE_TAG
#else
#define PC_BTF_KIND_TYPE_TAG	18
#endif
#ifdef PC_HAVE_BTF_KIND_ENUM64
#define PC_BTF_KIND_ENUM64	BTF_KIND_ENUM64
#else
#define PC_BTF_KIND_ENUM64	19
#endif
/* An ENUM64 member: name_off, val_lo32, val_hi32. */
#define PC_BTF_ENUM64_SIZE	(3 * sizeof(__u32))

/*
 * x86-64's unwind hint for a function's entry, as a string for inline
 * asm; before 5.12 only linux/objtool.h's UNWIND_HINT() had one.
 */
#if defined(CONFIG_X86_64) && !defined(PC_HAVE_UNWIND_HINT_FUNC_C)
#include <linux/objtool.h>
#include <asm/orc_types.h>
#define UNWIND_HINT_FUNC \
	UNWIND_HINT(ORC_REG_SP, 8, UNWIND_HINT_TYPE_FUNC, 0)
#endif

/* Folios (5.16): without them the folio lock types say XFAIL. */
#ifdef PC_HAVE_FOLIO
#define PC_HAVE_FOLIO_LOCK
#endif

/*
 * Have RCU start a grace period now, without waiting for it: through
 * start_poll_synchronize_rcu() (5.12), or before it a work item on
 * another online CPU that waits for one.
 */
void pc_rcu_start_grace_period(void);

/*
 * At load, in task context: look up what the kernel does not export.
 * At unload: wait for the work the layer queued.
 */
void pc_compat_init(void);
void pc_compat_exit(void);

/*
 * x86-64: clear @bits in CR4 through the kernel's own write, which checks
 * the pinned bits, then write CR4 back as it was; *@after: CR4 in
 * between.  0, or a negative errno once it logged why it could not.
 */
int pc_cr4_clear_pinned(unsigned long bits, unsigned long *after);

#endif /* PROVOKE_CRASH_COMPAT_H */
