/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The values used in the crash-type table (provoke_crash_types.h), and one
 * id per crash type.  Kernel and user space alike.
 */
#ifndef PROVOKE_CRASH_DEFS_H
#define PROVOKE_CRASH_DEFS_H

/*
 * Contexts, from the most to the least forgiving caller.  PREEMPT and
 * IRQS are for types whose crash comes later, from the scheduler or an
 * interrupt: they need a path that lets it come (checked at each hit).
 */
#define PC_CTX_TASK	0	/* may sleep: process context only */
#define PC_CTX_PREEMPT	1	/* preemptible: the crash comes at a schedule */
#define PC_CTX_IRQS	2	/* interrupts on: the crash comes from one */
#define PC_CTX_ATOMIC	3	/* preemption or interrupts off, not NMI */
#define PC_CTX_NMI	4	/* anywhere, even NMI or a breakpoint trap */

/* What a successful crash does to the kernel. */
#define PC_FATE_OOPS	0	/* oops: the current task dies, kernel stays up */
#define PC_FATE_PANIC	1	/* the machine goes down */
#define PC_FATE_REPORT	2	/* the kernel reports the damage and goes on */
#define PC_FATE_SILENT	3	/* nothing to detect on this architecture */
#define PC_FATE_HANG	4	/* never returns; a watchdog reports it */
#define PC_FATE_STALL	5	/* holds the path up for ms=, then it goes on */

/* How many expected-text patterns one crash type may list. */
#define PC_MAX_EXPECT	4

/* PC_TYPE_<name>: the index of each crash type, in table order. */
enum pc_type_id {
#define PC_CRASH_TYPE(name, ...) PC_TYPE_##name,
#include "provoke_crash_types.h"
	PC_NR_CRASH_TYPES
};

#endif /* PROVOKE_CRASH_DEFS_H */
