// SPDX-License-Identifier: GPL-2.0
/*
 * Stack corruption: overruns the stack protector must catch, accesses to
 * the guard pages around a vmap'ed stack, and the magic word at the end of
 * the stack that the scheduler checks; the canaries' own check (each
 * task its own), stackleak's erasing, and a fault on a stack pointer
 * that cannot take one: a double fault.
 */
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/sched/task_stack.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#ifdef CONFIG_X86_64
#include <linux/objtool.h>
#include <asm/orc_types.h>
#endif

#include "../compat.h"
#include "../provoke_crash.h"

/* Out of line, so that neither the compiler nor FORTIFY sees the size. */
static noinline void pc_fill(void *buf, size_t len)
{
	memset(buf, 0x78, len);
}

/*
 * The canary sits right above a char array (-fstack-protector puts
 * arrays next to it), so one word past the array reaches the canary and
 * stops short of the return address.
 */
noinline int pc_crash_corrupt_stack(void)
{
	char buf[16] __aligned(sizeof(long));

	/* buf escapes to pc_fill(), so the overrun cannot be optimised away. */
	pc_fill(buf, sizeof(buf) + sizeof(long));
	return 0;
}

/*
 * Plain -fstack-protector guards only char arrays; an int array is
 * guarded by -fstack-protector-strong alone.
 */
noinline int pc_crash_corrupt_stack_strong(void)
{
	int buf[4] __aligned(sizeof(long));

	pc_fill(buf, sizeof(buf) + sizeof(long));
	return 0;
}

/* Each level holds a 512-byte frame; the guard page ends the descent. */
static noinline unsigned long pc_recurse(unsigned long depth)
{
	char frame[512], *live = frame;
	unsigned long never = ULONG_MAX, below;

	/* A way out the compiler cannot rule out, but no stack reaches. */
	OPTIMIZER_HIDE_VAR(never);
	if (depth == never)
		return 0;
	pc_fill(frame, sizeof(frame));
	below = pc_recurse(depth + 1);
	/*
	 * The frame is read after the call through a pointer the compiler
	 * cannot see through: no tail call, no loop, the frame stays.
	 */
	OPTIMIZER_HIDE_VAR(live);
	return below + live[depth % sizeof(frame)];
}

int pc_crash_exhaust_stack(void)
{
	/* The result is used, so that the compiler keeps every level. */
	return pc_recurse(0) == 42 ? -EDOM : 0;
}

int pc_crash_stack_guard_page_leading(void)
{
	/* The lowest stack address, minus one: the guard page below. */
	const char *below = (const char *)task_stack_page(current) - 1;

	OPTIMIZER_HIDE_VAR(below);
	pr_info("stack_guard_page_leading: read at %p\n", below);
	return READ_ONCE(*below) ? 0 : 0;
}

int pc_crash_stack_guard_page_trailing(void)
{
	/* One past the highest stack address: nothing is mapped there. */
	const char *above = (const char *)task_stack_page(current) + THREAD_SIZE;

	OPTIMIZER_HIDE_VAR(above);
	pr_info("stack_guard_page_trailing: read at %p\n", above);
	return READ_ONCE(*above) ? 0 : 0;
}

int pc_crash_stack_end_corruption(void)
{
	unsigned long *end = end_of_stack(current);

	pr_info("stack_end_corruption: magic %s at %p\n",
		*end == STACK_END_MAGIC ? "intact" : "ALREADY BROKEN", end);
	/* The scheduler checks the magic each time it switches us out. */
	WRITE_ONCE(*end, 0);
	if (!preemptible())
		return -EINPROGRESS;
	schedule();
	pr_err("FAIL: stack_end_corruption: the scheduler did not notice (CONFIG_SCHED_STACK_END_CHECK)\n");
	return -EINPROGRESS;
}

#ifdef CONFIG_STACKPROTECTOR
/* The last task report_stack_canary saw, to compare the next one with. */
static DEFINE_SPINLOCK(pc_canary_lock);
static pid_t pc_canary_pid;
static unsigned long pc_canary_last;

/*
 * Is @canary in this frame, within a few words above a protected array
 * (where -fstack-protector puts it)?  The words are read through a
 * hidden pointer: they are this stack's, past the array's end.
 */
static noinline bool pc_canary_in_frame(unsigned long canary)
{
	unsigned long words[4] = { };
	unsigned long *p = words;
	int i;

	OPTIMIZER_HIDE_VAR(p);
	for (i = ARRAY_SIZE(words); i < ARRAY_SIZE(words) + 8; i++)
		if (READ_ONCE(p[i]) == canary)
			return true;
	return false;
}

int pc_crash_report_stack_canary(void)
{
	unsigned long canary = current->stack_canary;
	pid_t pid = task_pid_nr(current), last;
	bool same;

	if (!pc_canary_in_frame(canary)) {
		pr_err("FAIL: report_stack_canary: pid %d: its canary is not in a protected frame\n",
		       pid);
		return 0;
	}
	if (canary == init_task.stack_canary) {
		pr_err("FAIL: report_stack_canary: pid %d: its canary is init_task's\n",
		       pid);
		return 0;
	}
	pr_info("report_stack_canary: pid %d: its canary guards the frame, not init_task's\n",
		pid);
	spin_lock(&pc_canary_lock);
	last = pc_canary_pid;
	same = canary == pc_canary_last;
	pc_canary_pid = pid;
	pc_canary_last = canary;
	spin_unlock(&pc_canary_lock);
	/* LKDTM's words: its selftest runs this twice, from two tasks. */
	if (last && last != pid && !same)
		pr_info("report_stack_canary: ok: stack canaries differ between pid %d and pid %d\n",
			last, pid);
	else if (last && last != pid)
		pr_err("FAIL: report_stack_canary: pid %d and pid %d have the same canary\n",
		       last, pid);
	return 0;
}
#else
int pc_crash_report_stack_canary(void)
{
	pc_expected_config("report_stack_canary", "CONFIG_STACKPROTECTOR", false);
	return -EOPNOTSUPP;
}
#endif

#ifdef PC_HAVE_STACK_ERASE
/*
 * The stack below the deepest point this system call has reached was
 * erased when the last one returned: from the top of that poison down to
 * the stack's end, every word must be the erasing's poison.
 */
int pc_crash_stackleak_erasing(void)
{
	unsigned long low = stackleak_task_low_bound(current);
	unsigned long high = min(current->lowest_stack, current_stack_pointer);
	unsigned long top, p, dirty = 0;

	if (high <= low || high > stackleak_task_high_bound(current)) {
		pr_err("FAIL: stackleak_erasing: the lowest stack pointer %#lx is outside the stack\n",
		       high);
		return 0;
	}
	top = stackleak_find_top_of_poison(low, high);
	for (p = low; p < top; p += sizeof(unsigned long))
		if (*(unsigned long *)p != PC_STACK_ERASE_POISON)
			dirty++;
	if (dirty)
		pr_err("FAIL: stackleak_erasing: %lu words below the poison's top are not erased\n",
		       dirty);
	else
		pr_info("stackleak_erasing: OK: the rest of the thread stack is properly erased (%lu bytes)\n",
			top - low);
	return 0;
}
#else
int pc_crash_stackleak_erasing(void)
{
	pc_expected_config("stackleak_erasing", PC_STACK_ERASE_CONFIG, false);
	return -EOPNOTSUPP;
}
#endif

#ifdef CONFIG_X86_64
/*
 * objtool: the stack is unknown while RSP changes (objtool before 6.4
 * takes the move as it is, and refuses stack operations after that
 * hint), then a fresh one, a return address's worth, for the push.  ud2
 * ends the path: the push never comes back.
 */
#ifdef UNWIND_HINT_TYPE_UNDEFINED
#define PC_UNWIND_UNDEFINED UNWIND_HINT(UNWIND_HINT_TYPE_UNDEFINED, 0, 0, 0)
#define PC_UNWIND_FRESH UNWIND_HINT(UNWIND_HINT_TYPE_CALL, ORC_REG_SP, 8, 0)
#else
#define PC_UNWIND_UNDEFINED ""
#define PC_UNWIND_FRESH UNWIND_HINT(ORC_REG_SP, 8, UNWIND_HINT_TYPE_CALL, 0)
#endif

/*
 * A push onto a non-canonical stack pointer raises #SS, whose delivery
 * pushes onto the same stack and faults again: a double fault, which
 * runs on its own IST stack, reports and panics.
 */
int pc_crash_double_fault(void)
{
	unsigned long bad = 0xdead000000000000UL;

	local_irq_disable();
	asm volatile(PC_UNWIND_UNDEFINED "\n\t"
		     "movq %0, %%rsp\n\t"
		     PC_UNWIND_FRESH "\n\t"
		     "pushq $0\n\t"
		     "ud2" : : "r" (bad) : "memory");
	unreachable();
}
#else
int pc_crash_double_fault(void)
{
	return -EOPNOTSUPP;	/* the table says x86_64: refused before */
}
#endif
