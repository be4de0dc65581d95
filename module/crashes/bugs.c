// SPDX-License-Identifier: GPL-2.0
/*
 * Control-flow crashes: BUG(), WARN(), panic() and the CPU exceptions a
 * bad pointer or a bad division raises; and report, which only says that
 * a code path was reached, and report_stack, which says where on its
 * stack a system call runs.
 */
#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/smp.h>

#include "../provoke_crash.h"

int pc_crash_report(void)
{
	pr_info("report: hit by %s[%d] on CPU %d\n", current->comm,
		task_pid_nr(current), raw_smp_processor_id());
	dump_stack();
	return 0;
}

/*
 * How far below the top of the task's stack this frame sits.  With
 * randomize_kstack_offset each system call starts at a random depth:
 * LKDTM's stack-entropy.sh counts the distinct values of "Stack offset:"
 * after the last "Starting stack offset" line, which starts a run of one
 * writer.  The last writer's pid is only that line's trigger: a race
 * between two writers at worst prints it once more.
 */
static pid_t pc_report_stack_pid;

noinline int pc_crash_report_stack(void)
{
	unsigned long top = (unsigned long)task_stack_page(current) + THREAD_SIZE;
	unsigned long here = (unsigned long)__builtin_frame_address(0);
	pid_t pid = task_pid_nr(current);

	if (READ_ONCE(pc_report_stack_pid) != pid) {
		WRITE_ONCE(pc_report_stack_pid, pid);
		pr_info("report_stack: Starting stack offset tracking for pid %d\n",
			pid);
	}
	pr_info("report_stack: Stack offset: %lu\n", top - here);
	return 0;
}

int pc_crash_bugon(void)
{
	BUG();	/* BUG on purpose: the bugon type */
	return 0;
}

int pc_crash_warning(void)
{
	WARN_ON(1);
	return 0;
}

int pc_crash_warning_message(void)
{
	/* "message trigger": LKDTM's selftest looks for its own words. */
	WARN(1, "provoke-crash: warning_message requested (message trigger)\n");
	return 0;
}

int pc_crash_panic(void)
{
	panic("provoke-crash: panic requested\n");
	return 0;
}

int pc_crash_null_dereference(void)
{
	int *ptr = NULL;

	/* Hidden, so that the compiler cannot prove it NULL and drop the store. */
	OPTIMIZER_HIDE_VAR(ptr);
	WRITE_ONCE(*ptr, 0x2a);
	return 0;
}

int pc_crash_general_protection(void)
{
	/* Not a valid address on any x86-64 paging mode: #GP, not #PF. */
	unsigned long *ptr = (unsigned long *)0xdead4ead00000000UL;

	OPTIMIZER_HIDE_VAR(ptr);
	return READ_ONCE(*ptr) ? 0 : 0;
}

/* Where a result goes so that the compiler must compute it. */
static unsigned long pc_sink;

int pc_crash_divide_error(void)
{
	unsigned long num = 42, den = 0;

	/* Hidden, so that the division is done at run time. */
	OPTIMIZER_HIDE_VAR(den);
	WRITE_ONCE(pc_sink, num / den);
	return 0;
}
