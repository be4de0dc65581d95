/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The crash-type table: the single source of truth for provoke-crash.
 *
 * The module builds its trigger files, its `types` listing and the control
 * file's type names from it; the tool and the test bench read it through
 * `provoke-crash types --table`. Plain macros only, so that it compiles in
 * the kernel and in user space alike.
 *
 * X(name, category, context, fate, description, expected kernel text)
 *
 * name:     the trigger file and the word used on the control file.
 * category: the module/crashes/<category>.c file that implements it.
 * context:  the deepest context the routine may run in (see PC_CTX_*).
 * fate:     what the kernel does when it works (see PC_FATE_*).
 * expected: extended regular expressions, joined by " && ", that must all
 *           appear in the kernel log on x86-64 when the crash happened as
 *           named; "|" inside one gives alternatives (SLUB's report reads
 *           "BUG cache: Poison overwritten" on 6.1 and "BUG cache: Object
 *           corrupt" with "[Poison overwritten]" on 6.12).
 */
#ifndef PROVOKE_CRASH_TYPES_H
#define PROVOKE_CRASH_TYPES_H

/* Contexts, from the most to the least forgiving caller. */
#define PC_CTX_TASK	0	/* may sleep: process context only */
#define PC_CTX_ATOMIC	1	/* preemption or interrupts off, not NMI */
#define PC_CTX_NMI	2	/* anywhere, even NMI or a breakpoint trap */

/* What a successful crash does to the kernel. */
#define PC_FATE_OOPS	0	/* oops: the current task dies, kernel stays up */
#define PC_FATE_PANIC	1	/* the machine goes down */
#define PC_FATE_REPORT	2	/* the kernel reports the damage and goes on */
#define PC_FATE_SILENT	3	/* nothing to detect on this architecture */

#define PC_CRASH_TYPES(X)						\
	X(bugon, bugs, PC_CTX_NMI, PC_FATE_OOPS,			\
	  "BUG(): an invalid-opcode oops in the caller's context",	\
	  "kernel BUG at .*bugs\\.c && invalid opcode")			\
	X(panic, bugs, PC_CTX_NMI, PC_FATE_PANIC,			\
	  "panic() with a fixed message",				\
	  "Kernel panic - not syncing: provoke-crash: panic requested")	\
	X(null_dereference, bugs, PC_CTX_NMI, PC_FATE_OOPS,		\
	  "store through a NULL pointer: page-fault oops",		\
	  "BUG: kernel NULL pointer dereference, address: 0+ && "	\
	  "RIP: 0010:pc_crash_null_dereference")			\
	X(oops_interrupt_context, bugs, PC_CTX_NMI, PC_FATE_PANIC,	\
	  "NULL dereference from a hard interrupt (irq_work self-IPI)",	\
	  "oops_interrupt_context: in hardirq context && "		\
	  "BUG: kernel NULL pointer dereference && <IRQ> && "		\
	  "Kernel panic - not syncing: Fatal exception in interrupt")	\
	X(write_after_free, heap, PC_CTX_ATOMIC, PC_FATE_REPORT,	\
	  "write into a freed kmalloc object (needs slub_debug=P)",	\
	  "BUG kmalloc-1k |BUG: KFENCE: use-after-free write && "	\
	  "(: |\\[)Poison overwritten|BUG: KFENCE: use-after-free write") \
	X(overwrite_allocation, heap, PC_CTX_ATOMIC, PC_FATE_REPORT,	\
	  "write one word past a kmalloc object (needs slub_debug=Z)",	\
	  "BUG kmalloc-1k |BUG: KFENCE: out-of-bounds write && "	\
	  "(: |\\[)(Right )?Redzone overwritten|"			\
	  "BUG: KFENCE: out-of-bounds write")				\
	X(corrupt_stack, stack, PC_CTX_NMI, PC_FATE_PANIC,		\
	  "overrun a stack array into the canary (stack protector)",	\
	  "Kernel panic - not syncing: stack-protector: "		\
	  "Kernel stack is corrupted in: pc_crash_corrupt_stack")	\
	X(unaligned_load_store, access, PC_CTX_NMI, PC_FATE_SILENT,	\
	  "32-bit load and store at an odd address",			\
	  "unaligned_load_store: loaded 0x[0-9a-f]{8} and stored "	\
	  "0x[0-9a-f]{8} at an unaligned address without a fault")

#define PC_COUNT_ONE(name, ...) + 1
#define PC_NR_CRASH_TYPES (0 PC_CRASH_TYPES(PC_COUNT_ONE))

#endif /* PROVOKE_CRASH_TYPES_H */
