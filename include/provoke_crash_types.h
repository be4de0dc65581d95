/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The crash-type table: the single source of truth for provoke-crash.
 *
 * The module builds its trigger files, its `types` listing and the control
 * file's type names from it; the tool and the test bench read it through
 * `provoke-crash types --table`. Plain macros only, so that it compiles in
 * the kernel and in user space alike.
 *
 * Like arch/x86/include/asm/kvm-x86-ops.h it has no include guard: define
 * PC_CRASH_TYPE(name, category, context, fate, description, expected...),
 * include this file, and it undefines PC_CRASH_TYPE again.  The PC_CTX_*
 * and PC_FATE_* values come from provoke_crash_defs.h.
 *
 * name:     the trigger file and the word used on the control file.
 * category: the module/crashes/<category>.c file that implements it.
 * context:  the deepest context the routine may run in (see PC_CTX_*).
 * fate:     what the kernel does when it works (see PC_FATE_*).
 * expected: up to PC_MAX_EXPECT extended regular expressions that must all
 *           appear in the kernel log on x86-64 when the crash happened as
 *           named; "|" inside one gives alternatives (SLUB's report reads
 *           "BUG cache: Poison overwritten" on 6.1 and "BUG cache: Object
 *           corrupt" with "[Poison overwritten]" on 6.12).
 */
PC_CRASH_TYPE(bugon, bugs, PC_CTX_NMI, PC_FATE_OOPS,
	      "BUG(): an invalid-opcode oops in the caller's context",
	      "kernel BUG at .*bugs\\.c",
	      "invalid opcode")
PC_CRASH_TYPE(panic, bugs, PC_CTX_NMI, PC_FATE_PANIC,
	      "panic() with a fixed message",
	      "Kernel panic - not syncing: provoke-crash: panic requested")
PC_CRASH_TYPE(null_dereference, bugs, PC_CTX_NMI, PC_FATE_OOPS,
	      "store through a NULL pointer: page-fault oops",
	      "BUG: kernel NULL pointer dereference, address: 0+",
	      "RIP: 0010:pc_crash_null_dereference")
PC_CRASH_TYPE(oops_interrupt_context, bugs, PC_CTX_NMI, PC_FATE_PANIC,
	      "NULL dereference from a hard interrupt (irq_work self-IPI)",
	      "oops_interrupt_context: in hardirq context: yes",
	      "BUG: kernel NULL pointer dereference",
	      "<IRQ>",
	      "Kernel panic - not syncing: Fatal exception in interrupt")
PC_CRASH_TYPE(write_after_free, heap, PC_CTX_ATOMIC, PC_FATE_REPORT,
	      "write into a freed kmalloc object (needs slub_debug=P)",
	      "BUG kmalloc-1k |BUG: KFENCE: use-after-free write",
	      "(: |\\[)Poison overwritten|BUG: KFENCE: use-after-free write")
PC_CRASH_TYPE(overwrite_allocation, heap, PC_CTX_ATOMIC, PC_FATE_REPORT,
	      "write one word past a kmalloc object (needs slub_debug=Z)",
	      "BUG kmalloc-1k |BUG: KFENCE: out-of-bounds write",
	      "(: |\\[)(Right )?Redzone overwritten|BUG: KFENCE: out-of-bounds")
PC_CRASH_TYPE(corrupt_stack, stack, PC_CTX_NMI, PC_FATE_PANIC,
	      "overrun a stack array into the canary (stack protector)",
	      "Kernel panic - not syncing: stack-protector:",
	      "Kernel stack is corrupted in: pc_crash_corrupt_stack")
PC_CRASH_TYPE(unaligned_load_store, access, PC_CTX_NMI, PC_FATE_SILENT,
	      "32-bit load and store at an odd address",
	      "unaligned_load_store: 0x[0-9a-f]{8} -> 0x[0-9a-f]{8} at an odd address, no fault")

#undef PC_CRASH_TYPE
