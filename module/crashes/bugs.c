// SPDX-License-Identifier: GPL-2.0
/*
 * Control-flow crashes: BUG(), panic(), a NULL dereference, and the same
 * dereference from a real hard interrupt.
 */
#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/delay.h>
#include <linux/irq_work.h>
#include <linux/irqflags.h>
#include <linux/kernel.h>
#include <linux/preempt.h>

#include "../provoke_crash.h"

int pc_crash_bugon(void)
{
	BUG();
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

static void pc_irq_oops(struct irq_work *work)
{
	pr_info("oops_interrupt_context: in hardirq context: %s\n",
		in_hardirq() ? "yes" : "NO");
	pc_crash_null_dereference();
}

static struct irq_work pc_irq_oops_work = IRQ_WORK_INIT_HARD(pc_irq_oops);

int pc_crash_oops_interrupt_context(void)
{
	int ms;

	/* irq_work raises a self-IPI: the handler runs in hard irq context. */
	irq_work_queue(&pc_irq_oops_work);

	/* With interrupts off it fires as soon as they are back on. */
	if (irqs_disabled())
		return -EINPROGRESS;

	for (ms = 0; ms < 1000 && irq_work_is_pending(&pc_irq_oops_work); ms++)
		mdelay(1);
	/* The oops is fatal in interrupt context: reaching here is a failure. */
	return 0;
}
