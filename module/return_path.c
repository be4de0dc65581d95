// SPDX-License-Identifier: GPL-2.0
/*
 * Fatal crashes at SYMBOL%return points, run where the function returns
 * to, in the probed task's own context.
 *
 * A kretprobe runs its handler from the return trampoline with kprobes'
 * per-CPU state set, and an oops there never clears it.  Later kprobes on
 * that CPU then count as missed, and on a kernel without
 * CONFIG_PREEMPT_COUNT (Debian's arm64 6.1) every kernel fault on user
 * memory on that CPU is "fixed up" as -EFAULT until something resets the
 * state: the next signal frame cannot be written, and init dies of
 * SIGSEGV.
 *
 * So a fatal type at a %return point is a kprobe at the function's entry.
 * A hit that fires swaps the return address for pc_return_landing() and
 * leaves the crash in a slot of its task; the function runs on, returns
 * into the landing, and the crash runs there, with the caller below it
 * and no kprobe state set.
 */
#include <linux/delay.h>
#include <linux/kprobes.h>
#include <linux/sched/task.h>

#include "crashpoint.h"

/* Each firing takes one until its function returns: plenty. */
#define PC_RETURN_SLOTS	16

struct pc_return_slot {
	struct task_struct *task;	/* NULL while free */
	const struct pc_crash_type *type;
	unsigned long ret_addr;		/* where the function would return */
	unsigned long *ret_slot;	/* x86: the stack slot that held it */
	char where[PC_PLACE_MAX];
};

static struct pc_return_slot pc_return_slots[PC_RETURN_SLOTS];

static struct pc_return_slot *pc_return_slot_of(struct task_struct *task)
{
	int i;

	for (i = 0; i < PC_RETURN_SLOTS; i++)
		if (READ_ONCE(pc_return_slots[i].task) == task)
			return &pc_return_slots[i];
	return NULL;
}

static void pc_return_landing(void);

#ifdef CONFIG_X86
/* At the function's first instruction the return address is on top. */
static void pc_swap_return(struct pc_return_slot *slot, struct pt_regs *regs)
{
	slot->ret_slot = (unsigned long *)regs->sp;
	slot->ret_addr = *slot->ret_slot;
	*slot->ret_slot = (unsigned long)pc_return_landing;
}

/*
 * The landing was entered by a return, just above the slot it popped:
 * the word the unwinder takes for its return address is the caller's,
 * which never runs again.  Make it the place the function returned to.
 */
static __always_inline void pc_show_caller(struct pc_return_slot *slot)
{
	slot->ret_slot[1] = slot->ret_addr;
}
#elif defined(CONFIG_ARM64)
/* Before the prologue runs, and signs it: the landing passes AUTIASP. */
static void pc_swap_return(struct pc_return_slot *slot, struct pt_regs *regs)
{
	slot->ret_addr = procedure_link_pointer(regs);
	procedure_link_pointer_set(regs, (unsigned long)pc_return_landing);
}

/* The landing's frame record holds its own address as the caller's. */
static __always_inline void pc_show_caller(struct pc_return_slot *slot)
{
	((unsigned long *)__builtin_frame_address(0))[1] = slot->ret_addr;
}
#else
static void pc_swap_return(struct pc_return_slot *slot, struct pt_regs *regs)
{
}

static __always_inline void pc_show_caller(struct pc_return_slot *slot)
{
}
#endif

/*
 * From the entry probe's handler, on a hit that fires: false when every
 * slot is taken (the hit then counts as missed).
 */
bool pc_return_divert(struct pc_point *point, struct pt_regs *regs)
{
	struct pc_return_slot *slot;
	int i;

	/* Held while the slot is: a slot's task is never freed under it. */
	get_task_struct(current);
	for (i = 0; i < PC_RETURN_SLOTS; i++) {
		slot = &pc_return_slots[i];
		if (cmpxchg(&slot->task, NULL, current))
			continue;
		slot->type = point->type;
		strscpy(slot->where, point->where, sizeof(slot->where));
		pc_swap_return(slot, regs);
		return true;
	}
	put_task_struct(current);
	return false;
}

/* Called from the probe handler: probing it would recurse. */
NOKPROBE_SYMBOL(pc_return_divert);

/*
 * Where the diverted function returns: in its task, as if the caller had
 * called the crash at the place the function returned to.  The caller
 * cannot go on: its return value never came.
 */
static noinline void pc_return_landing(void)
{
	struct pc_return_slot *slot = pc_return_slot_of(current);
	const struct pc_crash_type *type;
	char where[PC_PLACE_MAX];

	if (!slot) {
		pr_emerg("crashpoints: a %%return landing with no crash noted for %s[%d]: BUG\n",
			 current->comm, task_pid_nr(current));
		BUG();	/* BUG on purpose: no return address to go back to */
	}
	pc_show_caller(slot);
	type = slot->type;
	strscpy(where, slot->where, sizeof(where));
	/* Read the slot before another firing may take it. */
	smp_store_release(&slot->task, NULL);
	put_task_struct(current);
	pc_run_in_path(type, where);
}

/*
 * Unloading frees the landing's code: wait for every diverted function
 * to return into it, except in a task that died before it could.
 */
void pc_return_wait(void)
{
	struct task_struct *task;
	bool told = false;
	int i, left;

	do {
		left = 0;
		for (i = 0; i < PC_RETURN_SLOTS; i++) {
			task = READ_ONCE(pc_return_slots[i].task);
			if (!task)
				continue;
			if (READ_ONCE(task->exit_state)) {
				WRITE_ONCE(pc_return_slots[i].task, NULL);
				put_task_struct(task);
				continue;
			}
			left++;
		}
		if (left && !told) {
			pr_info("crashpoints: unloading waits for %d function(s) with a fired %%return point to return\n",
				left);
			told = true;
		}
		if (left)
			msleep(100);
	} while (left);
}
