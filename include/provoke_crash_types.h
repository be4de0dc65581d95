/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The crash-type table: the single source of truth for provoke-crash.
 *
 * The module builds its trigger files, its `types` listing and the control
 * file's type names from it; the tool, the documentation's table and the
 * test bench read it through `provoke-crash types --table`. Plain macros
 * only, so that it compiles in the kernel and in user space alike.
 *
 * It is one table in several files: the lockups' and refcount_t's rows
 * are included in their place (provoke_crash_lockups.h,
 * provoke_crash_refcount.h), arm64's at the end.
 *
 * Like arch/x86/include/asm/kvm-x86-ops.h it has no include guard: define
 * PC_CRASH_TYPE(name, lkdtm, category, context, fate, needs, description,
 * expected...), include this file, and it undefines PC_CRASH_TYPE again.
 * The PC_CTX_* and PC_FATE_* values come from provoke_crash_defs.h.
 *
 * name:     the trigger file and the word used on the control file.
 * lkdtm:    the LKDTM test names this type answers to on the DIRECT file,
 *           space-separated ("" for none): LKDTM's selftest and jobs run
 *           unchanged against provoke-crash (module/lkdtm.c).
 * category: the module/crashes/<category>.c file that implements it.
 * context:  the deepest context the routine may run in (see PC_CTX_*).
 * fate:     what the kernel does when it works (see PC_FATE_*).
 * needs:    what the kernel must have for the crash to be seen, as words:
 *           CONFIG_FOO (built in), CONFIG_A|CONFIG_B (either: an
 *           option renamed between kernels), !CONFIG_FOO (an option that
 *           defeats the type: the bench skips it there), name=value (a boot
 *           parameter; the bench boots with it), "smp" (a second CPU to
 *           observe it from), "cpu:FEATURE" (a CPU feature, by its x86
 *           /proc/cpuinfo flag; the bench and the VM runner boot QEMU's
 *           -cpu max, which has it, as arm64's has PXN and PAN),
 *           "x86_64", "arm64" or "powerpc" (the only architecture it
 *           runs on; the module refuses it elsewhere with EOPNOTSUPP).
 * expected: up to PC_MAX_EXPECT extended regular expressions that must all
 *           appear in the kernel log on x86-64 (provoke_crash_arm64.h holds
 *           arm64's where they differ) when the crash happened as
 *           named; "|" inside one gives alternatives (a warning reads
 *           "WARNING: CPU: 0 PID: 1 at file.c:N function" before 7.2
 *           and "WARNING: file.c:N at function, CPU#0: task/1" on it;
 *           SLUB's report reads
 *           "BUG cache: Poison overwritten" on 6.1 and "BUG cache: Object
 *           corrupt" with "[Poison overwritten]" on 6.12; on a KASAN
 *           kernel the heap types are KASAN's to report); "CONFIG_FOO? RE"
 *           is expected only on a kernel with CONFIG_FOO; "!kdump? RE"
 *           only without a capture kernel loaded (an oops that must be
 *           fatal jumps into it before panic() prints).  The module's
 *           build drops this column (the macro's variadic part): it stays
 *           here so that one entry says all there is to know of a type.
 */

/* No crash: proof that a code path is reached, before arming a real one. */
PC_CRASH_TYPE(report, "", bugs, PC_CTX_NMI, PC_FATE_REPORT, "",
	      "log who hit the point and a stack trace; nothing breaks",
	      "report: hit by [^ ]+\\[[0-9]+\\] on CPU [0-9]+",
	      "Call Trace:")
PC_CRASH_TYPE(report_stack, "REPORT_STACK", bugs, PC_CTX_TASK, PC_FATE_REPORT, "",
	      "log how far below the top of its stack the caller runs (kernel stack offset randomization)",
	      "report_stack: Stack offset: [0-9]+")

/*
 * Delays, for races: the path that hits the point is held up for ms=
 * milliseconds (100 by default), then goes on.  They run in the path
 * itself, so only at a function entry ftrace patches.
 */
PC_CRASH_TYPE(delay, "", delays, PC_CTX_PREEMPT, PC_FATE_STALL, "",
	      "sleep ms= milliseconds (msleep) where the path may sleep, then go on",
	      "delay: held up [^ ]+\\[[0-9]+\\] on CPU [0-9]+ for [0-9]+ us \\(ms=[0-9]+\\)")
PC_CRASH_TYPE(spin, "", delays, PC_CTX_ATOMIC, PC_FATE_STALL, "",
	      "busy-wait ms= milliseconds (at most 1000) with the path's interrupts and preemption as they are, then go on",
	      "spin: held up [^ ]+\\[[0-9]+\\] on CPU [0-9]+ for [0-9]+ us \\(ms=[0-9]+\\)")

/* Control flow: the kernel's own reports of a bug. */
PC_CRASH_TYPE(bugon, "BUG", bugs, PC_CTX_NMI, PC_FATE_OOPS, "",
	      "BUG(): a BUG oops (invalid opcode on x86-64, BRK on arm64) in the caller's context",
	      "kernel BUG at .*bugs\\.c",
	      "invalid opcode")
PC_CRASH_TYPE(warning, "WARNING", bugs, PC_CTX_NMI, PC_FATE_REPORT, "",
	      "WARN_ON(1): a warning with a stack trace, the kernel goes on",
	      "WARNING: (CPU: [0-9]+ PID: [0-9]+ at .*bugs\\.c.* |.*bugs\\.c:[0-9]+ at )pc_crash_warning",
	      "---\\[ end trace")
PC_CRASH_TYPE(warning_message, "WARNING_MESSAGE", bugs, PC_CTX_NMI, PC_FATE_REPORT, "",
	      "WARN(1, msg): a warning that carries a message",
	      "provoke-crash: warning_message requested \\(message trigger\\)",
	      "WARNING: (CPU: [0-9]+ PID: [0-9]+ at .*bugs\\.c.* |.*bugs\\.c:[0-9]+ at )pc_crash_warning_message",
	      "---\\[ end trace")
PC_CRASH_TYPE(panic, "PANIC", bugs, PC_CTX_NMI, PC_FATE_PANIC, "",
	      "panic() with a fixed message",
	      "Kernel panic - not syncing: provoke-crash: panic requested")
PC_CRASH_TYPE(null_dereference, "EXCEPTION", bugs, PC_CTX_NMI, PC_FATE_OOPS, "",
	      "store through a NULL pointer: page-fault oops",
	      "BUG: kernel NULL pointer dereference, address: 0+",
	      "#PF: supervisor write access in kernel mode",
	      "RIP: 0010:pc_crash_null_dereference")
PC_CRASH_TYPE(general_protection, "", bugs, PC_CTX_NMI, PC_FATE_OOPS, "",
	      "load through a non-canonical pointer: general protection fault",
	      "general protection fault, probably for non-canonical address 0xdead4ead00000000",
	      "RIP: 0010:pc_crash_general_protection")
PC_CRASH_TYPE(divide_error, "", bugs, PC_CTX_NMI, PC_FATE_OOPS, "x86_64",
	      "integer division by zero: divide-error trap",
	      "divide error: 0000",
	      "RIP: 0010:pc_crash_divide_error")

/* Interrupts, lockups and stalls, in their own file. */
#include "provoke_crash_lockups.h"

/* The stack: canaries, guard pages and the end-of-stack magic. */
PC_CRASH_TYPE(corrupt_stack, "CORRUPT_STACK", stack, PC_CTX_NMI, PC_FATE_PANIC,
	      "CONFIG_STACKPROTECTOR",
	      "overrun a char array into the canary (stack protector)",
	      "Kernel panic - not syncing: stack-protector:",
	      "Kernel stack is corrupted in: pc_crash_corrupt_stack")
PC_CRASH_TYPE(corrupt_stack_strong, "CORRUPT_STACK_STRONG",
	      stack, PC_CTX_NMI, PC_FATE_PANIC,
	      "CONFIG_STACKPROTECTOR_STRONG",
	      "overrun an int array, guarded only by -fstack-protector-strong",
	      "Kernel panic - not syncing: stack-protector:",
	      "Kernel stack is corrupted in: pc_crash_corrupt_stack_strong")
PC_CRASH_TYPE(exhaust_stack, "EXHAUST_STACK", stack, PC_CTX_ATOMIC, PC_FATE_PANIC,
	      "CONFIG_VMAP_STACK",
	      "recurse with big frames into the stack's guard page",
	      "BUG: (task |TASK |IRQ )?stack guard page was hit at",
	      "pc_recurse",
	      "!kdump? Kernel panic - not syncing: ")
PC_CRASH_TYPE(stack_guard_page_leading, "STACK_GUARD_PAGE_LEADING",
	      stack, PC_CTX_ATOMIC, PC_FATE_OOPS,
	      "CONFIG_VMAP_STACK",
	      "read the byte just below the task's stack (its guard page)",
	      "BUG: (task |TASK )?stack guard page was hit at",
	      "pc_crash_stack_guard_page_leading")
PC_CRASH_TYPE(stack_guard_page_trailing, "STACK_GUARD_PAGE_TRAILING",
	      stack, PC_CTX_ATOMIC, PC_FATE_OOPS,
	      "CONFIG_VMAP_STACK",
	      "read the byte just above the task's stack (unmapped)",
	      "BUG: unable to handle page fault for address",
	      "RIP: 0010:pc_crash_stack_guard_page_trailing")
PC_CRASH_TYPE(stack_end_corruption, "", stack, PC_CTX_PREEMPT, PC_FATE_PANIC,
	      "CONFIG_SCHED_STACK_END_CHECK",
	      "overwrite the magic at the stack's end, then schedule",
	      "Kernel panic - not syncing: corrupted stack end detected inside scheduler")

/* The heap: SLUB debugging, the page allocator, init_on_alloc/free. */
PC_CRASH_TYPE(overwrite_allocation, "SLAB_LINEAR_OVERFLOW OVERWRITE_ALLOCATION",
	      heap, PC_CTX_ATOMIC, PC_FATE_REPORT,
	      "CONFIG_SLUB_DEBUG slub_debug=FZPU",
	      "write one word past a kmalloc object",
	      "BUG kmalloc-1k |BUG: KFENCE: out-of-bounds write|BUG: KASAN: slab-out-of-bounds in pc_crash_overwrite_allocation",
	      "(Right )?Redzone overwritten|KFENCE: out-of-bounds|KASAN: slab-out-of-bounds")
PC_CRASH_TYPE(write_after_free, "WRITE_AFTER_FREE", heap, PC_CTX_ATOMIC, PC_FATE_REPORT,
	      "CONFIG_SLUB_DEBUG slub_debug=FZPU",
	      "write into a freed kmalloc object",
	      "BUG kmalloc-1k |BUG: KFENCE: use-after-free write|BUG: KASAN: slab-use-after-free in pc_crash_write_after_free",
	      "(: |\\[)Poison overwritten|KFENCE: use-after-free write|KASAN: slab-use-after-free")
PC_CRASH_TYPE(read_after_free, "READ_AFTER_FREE", heap, PC_CTX_ATOMIC, PC_FATE_REPORT,
	      "CONFIG_SLUB_DEBUG slub_debug=FZPU",
	      "read a freed kmalloc object: it must read as poison",
	      "read_after_free: the freed object reads as poison 0x6b|KASAN: slab-use-after-free")
PC_CRASH_TYPE(write_buddy_after_free, "WRITE_BUDDY_AFTER_FREE",
	      heap, PC_CTX_ATOMIC, PC_FATE_REPORT,
	      "CONFIG_PAGE_POISONING page_poison=1",
	      "write into a freed page, then allocate pages until it returns",
	      "pagealloc: memory corruption|KASAN: use-after-free in pc_crash_write_buddy")
PC_CRASH_TYPE(read_buddy_after_free, "READ_BUDDY_AFTER_FREE",
	      heap, PC_CTX_ATOMIC, PC_FATE_REPORT,
	      "init_on_free=1",
	      "read a freed page: init_on_free must have wiped it",
	      "read_buddy_after_free: the freed page reads as zero|KASAN: use-after-free in")
PC_CRASH_TYPE(double_free, "SLAB_FREE_DOUBLE", heap, PC_CTX_ATOMIC, PC_FATE_REPORT,
	      "CONFIG_SLUB_DEBUG slub_debug=FZPU",
	      "free the same slab object twice (one of its own cache, pc_double_free)",
	      "BUG pc_double_free |BUG: KASAN: double-free in pc_crash_double_free",
	      "Object already free|0 allocated objects but 1 are to be freed|KASAN: double-free")
PC_CRASH_TYPE(slab_free_wrong_cache, "SLAB_FREE_CROSS", heap, PC_CTX_TASK, PC_FATE_REPORT,
	      "CONFIG_SLUB_DEBUG slub_debug=FZPU",
	      "free an object to a cache it does not belong to",
	      "(slab cache\\. |kmem_cache_free\\()pc-wrong-b.* (from|different cache) pc-wrong-a")
PC_CRASH_TYPE(slab_free_page, "SLAB_FREE_PAGE", heap, PC_CTX_ATOMIC, PC_FATE_REPORT, "",
	      "kfree() a page that came from the page allocator",
	      "WARNING: (CPU: [0-9]+ PID: [0-9]+ at )?mm/sl[au]b(_common)?\\.c:[0-9]+ (at )?free_large_kmalloc",
	      "object pointer: 0x|page dumped because: Not a kmalloc allocation")
PC_CRASH_TYPE(slab_init_on_alloc, "SLAB_INIT_ON_ALLOC",
	      heap, PC_CTX_ATOMIC, PC_FATE_REPORT,
	      "CONFIG_INIT_ON_ALLOC_DEFAULT_ON !CONFIG_KASAN_GENERIC",
	      "reallocate a dirtied kmalloc object: it must come back zeroed",
	      "slab_init_on_alloc: the reused object reads as zero")
PC_CRASH_TYPE(buddy_init_on_alloc, "BUDDY_INIT_ON_ALLOC",
	      heap, PC_CTX_ATOMIC, PC_FATE_REPORT,
	      "CONFIG_INIT_ON_ALLOC_DEFAULT_ON",
	      "reallocate a dirtied page: it must come back zeroed",
	      "buddy_init_on_alloc: the reused page reads as zero")
PC_CRASH_TYPE(kfence_read_after_free, "KFENCE_READ_AFTER_FREE",
	      heap, PC_CTX_TASK, PC_FATE_REPORT,
	      "CONFIG_KFENCE kfence.sample_interval=10",
	      "read a freed object that KFENCE guards: a use-after-free read report",
	      "BUG: KFENCE: use-after-free read in pc_crash_kfence_read_after_free",
	      "Use-after-free read at 0x")

/* Linked lists: DEBUG_LIST and BUG_ON_DATA_CORRUPTION. */
PC_CRASH_TYPE(corrupt_list_add, "CORRUPT_LIST_ADD", lists, PC_CTX_NMI, PC_FATE_OOPS,
	      "CONFIG_DEBUG_LIST CONFIG_BUG_ON_DATA_CORRUPTION",
	      "list_add() next to an entry whose prev pointer was clobbered",
	      "list_add corruption\\. next->prev should be prev",
	      "kernel BUG at lib/list_debug\\.c")
PC_CRASH_TYPE(corrupt_list_del, "CORRUPT_LIST_DEL", lists, PC_CTX_NMI, PC_FATE_OOPS,
	      "CONFIG_DEBUG_LIST CONFIG_BUG_ON_DATA_CORRUPTION",
	      "list_del() of an entry whose neighbour was clobbered",
	      "list_del corruption\\. ",
	      "kernel BUG at lib/list_debug\\.c")

/* Memory permissions: read-only data, text, NX, SMEP/SMAP, NULL. */
PC_CRASH_TYPE(write_ro, "WRITE_RO", perms, PC_CTX_NMI, PC_FATE_OOPS,
	      "CONFIG_STRICT_MODULE_RWX",
	      "write to a const variable in .rodata",
	      "BUG: unable to handle page fault for address",
	      "#PF: error_code\\(0x0003\\) - permissions violation",
	      "RIP: 0010:pc_crash_write_ro")
PC_CRASH_TYPE(write_ro_after_init, "WRITE_RO_AFTER_INIT", perms, PC_CTX_NMI, PC_FATE_OOPS,
	      "CONFIG_STRICT_MODULE_RWX",
	      "write to a __ro_after_init variable",
	      "BUG: unable to handle page fault for address",
	      "#PF: error_code\\(0x0003\\) - permissions violation",
	      "RIP: 0010:pc_crash_write_ro_after_init")
PC_CRASH_TYPE(write_kern, "WRITE_KERN", perms, PC_CTX_NMI, PC_FATE_OOPS,
	      "CONFIG_STRICT_MODULE_RWX",
	      "write over a function's code",
	      "BUG: unable to handle page fault for address",
	      "#PF: error_code\\(0x0003\\) - permissions violation",
	      "RIP: 0010:pc_crash_write_kern")
PC_CRASH_TYPE(exec_data, "EXEC_DATA", perms, PC_CTX_NMI, PC_FATE_OOPS,
	      "CONFIG_STRICT_MODULE_RWX",
	      "call code copied into .data",
	      "kernel tried to execute NX-protected page - exploit attempt\\?",
	      "#PF: supervisor instruction fetch in kernel mode")
PC_CRASH_TYPE(exec_stack, "EXEC_STACK", perms, PC_CTX_NMI, PC_FATE_OOPS,
	      "CONFIG_STRICT_KERNEL_RWX",
	      "call code copied onto the stack",
	      "kernel tried to execute NX-protected page - exploit attempt\\?",
	      "#PF: supervisor instruction fetch in kernel mode")
PC_CRASH_TYPE(exec_kmalloc, "EXEC_KMALLOC", perms, PC_CTX_ATOMIC, PC_FATE_OOPS,
	      "CONFIG_STRICT_KERNEL_RWX",
	      "call code copied into a kmalloc object",
	      "kernel tried to execute NX-protected page - exploit attempt\\?",
	      "#PF: supervisor instruction fetch in kernel mode")
PC_CRASH_TYPE(exec_vmalloc, "EXEC_VMALLOC", perms, PC_CTX_TASK, PC_FATE_OOPS,
	      "CONFIG_STRICT_KERNEL_RWX",
	      "call code copied into vmalloc memory",
	      "kernel tried to execute NX-protected page - exploit attempt\\?",
	      "#PF: supervisor instruction fetch in kernel mode")
PC_CRASH_TYPE(exec_rodata, "EXEC_RODATA", perms, PC_CTX_NMI, PC_FATE_OOPS,
	      "CONFIG_STRICT_MODULE_RWX",
	      "call code that sits in .rodata",
	      "kernel tried to execute NX-protected page - exploit attempt\\?",
	      "#PF: supervisor instruction fetch in kernel mode")
PC_CRASH_TYPE(exec_userspace, "EXEC_USERSPACE", perms, PC_CTX_TASK, PC_FATE_OOPS,
	      "cpu:smep",
	      "call code in a user mapping of the current process (SMEP)",
	      "unable to execute userspace code \\(SMEP\\?\\)",
	      "#PF: supervisor instruction fetch in kernel mode")
PC_CRASH_TYPE(access_userspace, "ACCESS_USERSPACE", perms, PC_CTX_TASK, PC_FATE_OOPS,
	      "cpu:smap",
	      "read user memory without the uaccess helpers (SMAP)",
	      "BUG: unable to handle page fault for address: 0000[0-9a-f]+",
	      "#PF: supervisor read access in kernel mode",
	      "#PF: error_code\\(0x0001\\) - permissions violation")
PC_CRASH_TYPE(access_null, "ACCESS_NULL", perms, PC_CTX_NMI, PC_FATE_OOPS, "",
	      "load through a NULL pointer",
	      "BUG: kernel NULL pointer dereference, address: 0+",
	      "#PF: supervisor read access in kernel mode",
	      "RIP: 0010:pc_crash_access_null")
PC_CRASH_TYPE(exec_null, "EXEC_NULL", perms, PC_CTX_NMI, PC_FATE_OOPS, "",
	      "call a NULL function pointer",
	      "BUG: kernel NULL pointer dereference, address: 0+",
	      "#PF: supervisor instruction fetch in kernel mode")

/* refcount_t, in its own file. */
#include "provoke_crash_refcount.h"

/* Hardened usercopy: copies that overrun objects, frames or text. */
PC_CRASH_TYPE(usercopy_heap_size_to,
	      "USERCOPY_SLAB_SIZE_TO USERCOPY_HEAP_SIZE_TO",
	      usercopy, PC_CTX_TASK, PC_FATE_OOPS,
	      "CONFIG_HARDENED_USERCOPY",
	      "copy_to_user() of more than a kmalloc object holds",
	      "usercopy: Kernel memory exposure attempt detected from SLUB object 'kmalloc-64' \\(offset 0, size 128\\)",
	      "kernel BUG at mm/usercopy\\.c")
PC_CRASH_TYPE(usercopy_heap_size_from,
	      "USERCOPY_SLAB_SIZE_FROM USERCOPY_HEAP_SIZE_FROM",
	      usercopy, PC_CTX_TASK, PC_FATE_OOPS,
	      "CONFIG_HARDENED_USERCOPY",
	      "copy_from_user() of more than a kmalloc object holds",
	      "usercopy: Kernel memory overwrite attempt detected to SLUB object 'kmalloc-64' \\(offset 0, size 72\\)",
	      "kernel BUG at mm/usercopy\\.c")
PC_CRASH_TYPE(usercopy_heap_whitelist_to,
	      "USERCOPY_SLAB_WHITELIST_TO USERCOPY_HEAP_WHITELIST_TO",
	      usercopy, PC_CTX_TASK, PC_FATE_OOPS,
	      "CONFIG_HARDENED_USERCOPY",
	      "copy_to_user() from outside a cache's usercopy region",
	      "usercopy: Kernel memory exposure attempt detected from SLUB object 'pc-usercopy' \\(offset 0, size 16\\)",
	      "kernel BUG at mm/usercopy\\.c")
PC_CRASH_TYPE(usercopy_heap_whitelist_from,
	      "USERCOPY_SLAB_WHITELIST_FROM USERCOPY_HEAP_WHITELIST_FROM",
	      usercopy, PC_CTX_TASK, PC_FATE_OOPS,
	      "CONFIG_HARDENED_USERCOPY",
	      "copy_from_user() into outside a cache's usercopy region",
	      "usercopy: Kernel memory overwrite attempt detected to SLUB object 'pc-usercopy' \\(offset 0, size 16\\)",
	      "kernel BUG at mm/usercopy\\.c")
PC_CRASH_TYPE(usercopy_stack_frame_to, "USERCOPY_STACK_FRAME_TO",
	      usercopy, PC_CTX_TASK, PC_FATE_OOPS,
	      "CONFIG_HARDENED_USERCOPY CONFIG_ARCH_HAS_CURRENT_STACK_POINTER|CONFIG_UNWINDER_FRAME_POINTER",
	      "copy_to_user() from a stack frame that has returned",
	      "usercopy: Kernel memory exposure attempt detected from process stack",
	      "kernel BUG at mm/usercopy\\.c")
PC_CRASH_TYPE(usercopy_stack_frame_from, "USERCOPY_STACK_FRAME_FROM",
	      usercopy, PC_CTX_TASK, PC_FATE_OOPS,
	      "CONFIG_HARDENED_USERCOPY CONFIG_ARCH_HAS_CURRENT_STACK_POINTER|CONFIG_UNWINDER_FRAME_POINTER",
	      "copy_from_user() into a stack frame that has returned",
	      "usercopy: Kernel memory overwrite attempt detected to process stack",
	      "kernel BUG at mm/usercopy\\.c")
PC_CRASH_TYPE(usercopy_stack_beyond, "USERCOPY_STACK_BEYOND",
	      usercopy, PC_CTX_TASK, PC_FATE_OOPS,
	      "CONFIG_HARDENED_USERCOPY",
	      "copy_to_user() of a range that runs past the stack's end",
	      "usercopy: Kernel memory exposure attempt detected from process stack",
	      "kernel BUG at mm/usercopy\\.c")
PC_CRASH_TYPE(usercopy_kernel, "USERCOPY_KERNEL", usercopy, PC_CTX_TASK, PC_FATE_OOPS,
	      "CONFIG_HARDENED_USERCOPY",
	      "copy_to_user() of the kernel's own text",
	      "usercopy: Kernel memory exposure attempt detected from kernel text",
	      "kernel BUG at mm/usercopy\\.c")
PC_CRASH_TYPE(usercopy_vmalloc, "USERCOPY_VMALLOC", usercopy, PC_CTX_TASK, PC_FATE_OOPS,
	      "CONFIG_HARDENED_USERCOPY",
	      "copy_to_user() from a one-page vmalloc area, past its guard page",
	      "usercopy: Kernel memory exposure attempt detected from vmalloc \\(offset 0, size 8200\\)",
	      "kernel BUG at mm/usercopy\\.c")
PC_CRASH_TYPE(usercopy_folio, "USERCOPY_FOLIO", usercopy, PC_CTX_TASK, PC_FATE_OOPS,
	      "CONFIG_HARDENED_USERCOPY",
	      "copy_to_user() from the last page of a two-page folio, one word past it",
	      "usercopy: Kernel memory exposure attempt detected from page alloc \\(offset 4096, size 4104\\)",
	      "kernel BUG at mm/usercopy\\.c")

/* Fortified string and memory functions: copies past what the compiler knows. */
PC_CRASH_TYPE(fortify_str_object, "FORTIFY_STR_OBJECT",
	      fortify, PC_CTX_NMI, PC_FATE_OOPS, "CONFIG_FORTIFY_SOURCE",
	      "strcat() of a longer string than a whole stack array holds",
	      "strcat: detected buffer overflow|detected buffer overflow in strcat",
	      "kernel BUG at lib/string_helpers\\.c")
PC_CRASH_TYPE(fortify_str_member, "FORTIFY_STR_MEMBER",
	      fortify, PC_CTX_NMI, PC_FATE_OOPS, "CONFIG_FORTIFY_SOURCE",
	      "strcat() into a struct member, past its end but inside the struct",
	      "strcat: detected buffer overflow|detected buffer overflow in strcat",
	      "kernel BUG at lib/string_helpers\\.c")
PC_CRASH_TYPE(fortify_mem_object, "FORTIFY_MEM_OBJECT",
	      fortify, PC_CTX_NMI, PC_FATE_OOPS, "CONFIG_FORTIFY_SOURCE",
	      "memcpy() of more bytes than a whole stack array holds",
	      "memcpy: detected buffer overflow|detected buffer overflow in memcpy",
	      "kernel BUG at lib/string_helpers\\.c")
PC_CRASH_TYPE(fortify_mem_member, "FORTIFY_MEM_MEMBER",
	      fortify, PC_CTX_NMI, PC_FATE_REPORT, "CONFIG_FORTIFY_SOURCE",
	      "memcpy() across a struct member into the next: a warning, the copy goes on",
	      "memcpy: detected field-spanning write \\(size 12\\) of single field",
	      "WARNING: (CPU: [0-9]+ PID: [0-9]+ at )?.*fortify\\.c")
PC_CRASH_TYPE(fortify_strscpy, "FORTIFY_STRSCPY",
	      fortify, PC_CTX_NMI, PC_FATE_OOPS, "CONFIG_FORTIFY_SOURCE",
	      "strscpy() with a size larger than its destination, of a longer string",
	      "strscpy: detected buffer overflow|detected buffer overflow in strscpy",
	      "kernel BUG at lib/string_helpers\\.c")

/* The compiler's and the CPU's hardening: bounds, canaries, CFI, CR4. */
PC_CRASH_TYPE(array_bounds, "ARRAY_BOUNDS",
	      bounds, PC_CTX_ATOMIC, PC_FATE_REPORT, "CONFIG_UBSAN_BOUNDS",
	      "store one past the end of a fixed-size array member (UBSAN bounds check)",
	      "UBSAN: array-index-out-of-bounds in .*bounds\\.c",
	      "index 4 is out of range for type 'int ?\\[4\\]'")
PC_CRASH_TYPE(fam_bounds, "FAM_BOUNDS",
	      bounds, PC_CTX_ATOMIC, PC_FATE_REPORT, "CONFIG_UBSAN_BOUNDS CONFIG_CC_HAS_COUNTED_BY",
	      "store one past the count of a __counted_by flexible array (UBSAN bounds check)",
	      "UBSAN: array-index-out-of-bounds in .*bounds\\.c",
	      "index 8 is out of range for type")
PC_CRASH_TYPE(ptr_bounds, "PTR_BOUNDS", bounds, PC_CTX_ATOMIC, PC_FATE_REPORT,
	      "CONFIG_UBSAN_BOUNDS CONFIG_CC_HAS_COUNTED_BY_PTR",
	      "store one past the count of a __counted_by pointer member (UBSAN bounds check)",
	      "UBSAN: array-index-out-of-bounds in .*bounds\\.c",
	      "index 9 is out of range for type")
PC_CRASH_TYPE(overflow_signed, "OVERFLOW_SIGNED",
	      overflow, PC_CTX_ATOMIC, PC_FATE_REPORT, "CONFIG_UBSAN_SIGNED_WRAP",
	      "add past INT_MAX (UBSAN signed wrap-around check)",
	      "UBSAN: signed-integer-overflow in .*overflow\\.c")
PC_CRASH_TYPE(overflow_unsigned, "OVERFLOW_UNSIGNED",
	      overflow, PC_CTX_ATOMIC, PC_FATE_REPORT, "CONFIG_UBSAN_UNSIGNED_WRAP",
	      "add past UINT_MAX (UBSAN unsigned wrap-around check)",
	      "UBSAN: unsigned-integer-overflow in .*overflow\\.c")
PC_CRASH_TYPE(report_stack_canary, "REPORT_STACK_CANARY",
	      stack, PC_CTX_TASK, PC_FATE_REPORT, "CONFIG_STACKPROTECTOR",
	      "find the task's canary in a protected frame; each task must have its own",
	      "report_stack_canary: pid [0-9]+: its canary guards the frame, not init_task's")
PC_CRASH_TYPE(stackleak_erasing, "STACKLEAK_ERASING KSTACK_ERASE",
	      stack, PC_CTX_TASK, PC_FATE_REPORT, "CONFIG_GCC_PLUGIN_STACKLEAK|CONFIG_KSTACK_ERASE",
	      "check that the stack below the deepest point of this syscall is erased",
	      "stackleak_erasing: OK: the rest of the thread stack is properly erased")
PC_CRASH_TYPE(double_fault, "DOUBLE_FAULT",
	      stack, PC_CTX_ATOMIC, PC_FATE_PANIC, "x86_64",
	      "push onto a non-canonical stack pointer: the fault cannot be delivered",
	      "PANIC: double fault, error_code: 0x0",
	      "Call Trace:",
	      "!kdump? Kernel panic - not syncing: (Fatal exception in interrupt|Machine halted)")
PC_CRASH_TYPE(cfi_forward_proto, "CFI_FORWARD_PROTO",
	      cfi, PC_CTX_NMI, PC_FATE_OOPS, "CONFIG_CFI_CLANG",
	      "an indirect call through a pointer of another prototype (kCFI)",
	      "CFI failure at pc_cfi_call")
PC_CRASH_TYPE(unset_smep, "UNSET_SMEP",
	      perms, PC_CTX_ATOMIC, PC_FATE_REPORT, "x86_64 cpu:smep",
	      "clear SMEP in CR4: CR4 pinning must set it again",
	      "pinned CR4 bits changed: 0x",
	      "unset_smep: SMEP is still set in CR4")
PC_CRASH_TYPE(vmalloc_linear_overflow, "VMALLOC_LINEAR_OVERFLOW",
	      heap, PC_CTX_TASK, PC_FATE_OOPS, "",
	      "write one byte past a one-page vmalloc area, into its guard page",
	      "BUG: unable to handle page fault for address",
	      "#PF: supervisor write access in kernel mode",
	      "RIP: 0010:pc_crash_vmalloc_linear_overflow",
	      "CONFIG_KASAN_VMALLOC? BUG: KASAN: vmalloc-out-of-bounds")

/* Accesses that only some architectures refuse. */
PC_CRASH_TYPE(unaligned_load_store, "UNALIGNED_LOAD_STORE_WRITE",
	      access, PC_CTX_NMI, PC_FATE_SILENT, "",
	      "32-bit load and store at an odd address",
	      "unaligned_load_store: 0x[0-9a-f]{8} -> 0x[0-9a-f]{8} at an odd address, no fault")

/*
 * Tests of other architectures' protections, which LKDTM has: no build of
 * this module for them yet, so they are refused everywhere, with LKDTM's
 * XFAIL on the DIRECT file.
 */
PC_CRASH_TYPE(write_opd, "WRITE_OPD", powerpc, PC_CTX_NMI, PC_FATE_OOPS, "powerpc",
	      "write to a function descriptor in .opd (64-bit ELFv1 powerpc)",
	      "write_opd runs only on powerpc, and this kernel is ")
PC_CRASH_TYPE(slb_multihit, "PPC_SLB_MULTIHIT", powerpc, PC_CTX_NMI, PC_FATE_REPORT, "powerpc",
	      "insert duplicate SLB entries: the machine check must recover (64-bit Book3S powerpc)",
	      "slb_multihit runs only on powerpc, and this kernel is ")
PC_CRASH_TYPE(radix_tlbiel, "PPC_RADIX_TLBIEL", powerpc, PC_CTX_ATOMIC, PC_FATE_PANIC, "powerpc",
	      "a local TLB invalidation the radix MMU rejects: an unrecoverable machine check (64-bit Book3S powerpc)",
	      "radix_tlbiel runs only on powerpc, and this kernel is ")

/* The types only arm64 has, in their own table. */
#include "provoke_crash_arm64.h"

#undef PC_CRASH_TYPE
