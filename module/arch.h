/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What differs between architectures when a probe sends the probed path
 * somewhere else: the one place with #ifdef CONFIG_X86_64 / CONFIG_ARM64.
 *
 * pc_arch_redirect(): make a trapped (int3, BRK) path call @fn(@arg), as if
 * the probed instruction at @at had called it.
 * pc_arch_trap_count(): what a breakpoint trap's entry adds to the
 * preemption count (the trapped path's is the rest).
 * pc_arch_regs_irqs_on(): whether the trapped path had interrupts on.
 * pc_arch_return_frame() / pc_arch_swap_return(): at a function's first
 * instruction, the stack pointer the function will return with (which
 * names its frame) and the swap of its return address for @landing.
 * pc_arch_ftrace_site(): the ftrace call site of the function whose entry
 * a registered kprobe is at, or 0 if it has none.
 * pc_arch_shift_return(): instead of the swap, run the function lower on
 * its stack, its return slot to the landing (x86-64 at an ftrace site).
 */
#ifndef PROVOKE_CRASH_ARCH_H
#define PROVOKE_CRASH_ARCH_H

#include <linux/hardirq.h>
#include <linux/kprobes.h>
#include <linux/ptrace.h>
#include <linux/sched/task_stack.h>

#if defined(CONFIG_X86_64)
#include <linux/uaccess.h>
#include <asm/ftrace.h>
#include <asm/text-patching.h>

#include "return_shift.h"

#define PC_CAN_REDIRECT	true

static inline void pc_arch_redirect(struct pt_regs *regs, void *fn,
				    unsigned long arg, unsigned long at,
				    bool push_return)
{
	/*
	 * An int3 probe: push a return address into the probed instruction,
	 * so that stack traces go on through the probed function (the int3
	 * entry leaves a gap below the trapped stack for this).  An ftrace
	 * probe cannot move the stack; its caller's frame shows instead.
	 */
	if (push_return)
		int3_emulate_push(regs, at + 1);
	/* Not inside the path's user access window: SMAP must see us. */
	regs->flags &= ~X86_EFLAGS_AC;
	regs->di = arg;
	instruction_pointer_set(regs, (unsigned long)fn);
}

/* The int3 entry counts itself as an NMI (irqentry_nmi_enter()). */
static inline unsigned int pc_arch_trap_count(void)
{
	return NMI_OFFSET + HARDIRQ_OFFSET;
}

static inline bool pc_arch_regs_irqs_on(struct pt_regs *regs)
{
	return regs->flags & X86_EFLAGS_IF;
}

/* At the first instruction the return address is on top of the stack. */
static inline unsigned long pc_arch_return_frame(struct pt_regs *regs)
{
	return regs->sp;
}

static inline unsigned long pc_arch_swap_return(struct pt_regs *regs,
						void *landing)
{
	unsigned long *slot = (unsigned long *)regs->sp;
	unsigned long ret = *slot;

	*slot = (unsigned long)landing;
	return ret;
}

/* kprobes chose ftrace for this place: it is an ftrace call site. */
static inline unsigned long pc_arch_ftrace_site(struct kprobe *kp)
{
	return kprobe_ftrace(kp) ? (unsigned long)kp->addr : 0;
}

/*
 * At an ftrace site, the probe may send the function's body through
 * pc_return_shift (return_shift.h), which runs it PC_SHIFT bytes lower:
 * where it goes on (past the ftrace call, whose callbacks all ran), and
 * how many bytes of stack arguments to copy down (all that can be there,
 * if the stack above the frame has them: a frame near the top of an
 * interrupt stack has a guard page above).  Not an int3 probe (the
 * probed instruction has not run), nor near the end of the task's
 * stack, which the gap could overflow: those swap.
 */
static inline bool pc_arch_shift_return(struct pt_regs *regs,
					struct kprobe *kp,
					unsigned long *resume,
					unsigned long *bytes)
{
	unsigned long stack = (unsigned long)task_stack_page(current);
	unsigned long args = regs->sp + sizeof(long), last;
	unsigned long used = regs->sp - stack;

	if (!kprobe_ftrace(kp))
		return false;
	if (used < THREAD_SIZE && used < PC_SHIFT + THREAD_SIZE / 8)
		return false;
	*bytes = PC_SHIFT_ARGS;
	/*
	 * On the task's stack its end bounds the copy, with no read: a
	 * fault in a kprobe handler, even a fixed-up one, counts as a
	 * kprobes miss before 5.14.  Elsewhere (an interrupt stack) the
	 * read stays, and such a fault still counts there.
	 */
	if (used < THREAD_SIZE)
		*bytes = min(*bytes, stack + THREAD_SIZE - args);
	else if ((args ^ (args + PC_SHIFT_ARGS - 1)) & PAGE_MASK &&
		 get_kernel_nofault(last, (unsigned long *)(args + PC_SHIFT_ARGS) - 1))
		*bytes = PAGE_ALIGN(args) - args;
	*resume = (unsigned long)kp->addr + MCOUNT_INSN_SIZE;
	instruction_pointer_set(regs, (unsigned long)pc_return_shift);
	return true;
}

/* x86-64's return address is on the stack at entry: the unwinder's. */
static inline unsigned long pc_entry_link(struct pt_regs *regs)
{
	return 0;
}

#elif defined(CONFIG_ARM64)
#include <asm/insn.h>

#define PC_CAN_REDIRECT	true

static inline void pc_arch_redirect(struct pt_regs *regs, void *fn,
				    unsigned long arg, unsigned long at,
				    bool push_return)
{
	/*
	 * A BRK probe, as if the probed instruction called @fn: the link
	 * register points back into the probed function, so that stack
	 * traces show it.  Nothing returns through it.
	 */
	procedure_link_pointer_set(regs, at + AARCH64_INSN_SIZE);
	regs->regs[0] = arg;
	instruction_pointer_set(regs, (unsigned long)fn);
}

/* The BRK's debug_exception_enter() disables preemption once. */
static inline unsigned int pc_arch_trap_count(void)
{
	return IS_ENABLED(CONFIG_PREEMPT_COUNT) ? PREEMPT_OFFSET : 0;
}

/* DAIF.I, and the priority mask with pseudo-NMI. */
static inline bool pc_arch_regs_irqs_on(struct pt_regs *regs)
{
	return interrupts_enabled(regs);
}

/* Before the prologue: the function returns with the same SP. */
static inline unsigned long pc_arch_return_frame(struct pt_regs *regs)
{
	return regs->sp;
}

/* Before the prologue signs it: the landing passes AUTIASP. */
static inline unsigned long pc_arch_swap_return(struct pt_regs *regs,
						void *landing)
{
	unsigned long ret = procedure_link_pointer(regs);

	procedure_link_pointer_set(regs, (unsigned long)landing);
	return ret;
}

/*
 * arm64 kprobes never use ftrace: find the function's ftrace call site
 * by its shape.  ftrace made the first of the two patchable NOPs (after a
 * BTI landing pad, if any) "mov x9, x30"; the second, a NOP or a BL to
 * ftrace_caller, is the call site, the ip the callback receives.
 */
#define PC_MOV_X9_X30	0xaa1e03e9
#define PC_NOP		0xd503201f

static inline unsigned long pc_arch_ftrace_site(struct kprobe *kp)
{
	const __le32 *insn = (const __le32 *)kp->addr;
	u32 site, first;
	int i;

	if (!IS_ENABLED(CONFIG_DYNAMIC_FTRACE))
		return 0;
	for (i = 0; i < 2; i++) {
		/*
		 * The probe's BRK may stand in the first instruction (it is
		 * enabled at a hit, or another probe there is): kprobes kept
		 * the original.
		 */
		first = i ? le32_to_cpu(insn[i]) : kp->opcode;
		if (first != PC_MOV_X9_X30)
			continue;
		site = le32_to_cpu(insn[i + 1]);
		if (site == PC_NOP || aarch64_insn_is_bl(site))
			return (unsigned long)&insn[i + 1];
	}
	return 0;
}

/* Only x86-64 shifts a diverted function (return_shift.h). */
static inline bool pc_arch_shift_return(struct pt_regs *regs,
					struct kprobe *kp,
					unsigned long *resume,
					unsigned long *bytes)
{
	return false;
}

/*
 * At a function's first instruction the return address is in the link
 * register alone: no frame record holds it yet, and the unwinder follows
 * frame records (point_caller.c).
 */
static inline unsigned long pc_entry_link(struct pt_regs *regs)
{
	return procedure_link_pointer(regs);
}

#else
#define PC_CAN_REDIRECT	false

static inline unsigned long pc_entry_link(struct pt_regs *regs)
{
	return 0;
}

static inline void pc_arch_redirect(struct pt_regs *regs, void *fn,
				    unsigned long arg, unsigned long at,
				    bool push_return)
{
}

static inline unsigned int pc_arch_trap_count(void)
{
	return 0;
}

static inline bool pc_arch_regs_irqs_on(struct pt_regs *regs)
{
	return !irqs_disabled();
}

static inline unsigned long pc_arch_return_frame(struct pt_regs *regs)
{
	return 0;
}

static inline unsigned long pc_arch_swap_return(struct pt_regs *regs,
						void *landing)
{
	return 0;
}

static inline unsigned long pc_arch_ftrace_site(struct kprobe *kp)
{
	return 0;
}

/* Only x86-64 shifts a diverted function (return_shift.h). */
static inline bool pc_arch_shift_return(struct pt_regs *regs,
					struct kprobe *kp,
					unsigned long *resume,
					unsigned long *bytes)
{
	return false;
}
#endif

#endif /* PROVOKE_CRASH_ARCH_H */
