// SPDX-License-Identifier: GPL-2.0
/*
 * Stack corruption: overruns the stack protector must catch, accesses to
 * the guard pages around a vmap'ed stack, and the magic word at the end of
 * the stack that the scheduler checks.
 */
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/string.h>

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
