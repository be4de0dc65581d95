/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interrupts, lockups and stalls in the crash-type table (see
 * provoke_crash_types.h, which includes this file in its place: one
 * table, split by subject to keep each file short).  No include guard.
 */

/* The same oops from each kind of interrupt: fatal there. */
PC_CRASH_TYPE(oops_interrupt_context, "", interrupts, PC_CTX_IRQS, PC_FATE_PANIC, "",
	      "NULL dereference from a hard interrupt (irq_work self-IPI)",
	      "oops_interrupt_context: in hardirq context: yes",
	      "BUG: kernel NULL pointer dereference",
	      "<IRQ>",
	      "!kdump? Kernel panic - not syncing: Fatal exception in interrupt")
PC_CRASH_TYPE(oops_softirq_context, "", interrupts, PC_CTX_PREEMPT, PC_FATE_PANIC, "",
	      "NULL dereference from a timer callback (softirq)",
	      "oops_softirq_context: in softirq context: yes",
	      "BUG: kernel NULL pointer dereference",
	      "run_timer_softirq",
	      "!kdump? Kernel panic - not syncing: Fatal exception in interrupt")
PC_CRASH_TYPE(oops_nmi_context, "", interrupts, PC_CTX_ATOMIC, PC_FATE_PANIC, "x86_64",
	      "NULL dereference from an NMI handler (self NMI through the APIC)",
	      "oops_nmi_context: in NMI context: yes",
	      "BUG: kernel NULL pointer dereference",
	      "<NMI>",
	      "!kdump? Kernel panic - not syncing: Fatal exception in interrupt")

PC_CRASH_TYPE(panic_in_hardirq, "PANIC_IN_HARDIRQ", interrupts, PC_CTX_IRQS, PC_FATE_PANIC, "",
	      "panic() from a hard-irq hrtimer callback",
	      "panic_in_hardirq: in hardirq context: yes",
	      "Kernel panic - not syncing: provoke-crash: panic_in_hardirq requested",
	      "__hrtimer_run_queues")
PC_CRASH_TYPE(bug_in_hardirq, "BUG_IN_HARDIRQ", interrupts, PC_CTX_IRQS, PC_FATE_PANIC, "",
	      "BUG() from a hard-irq hrtimer callback: an oops there is fatal",
	      "bug_in_hardirq: in hardirq context: yes",
	      "kernel BUG at .*interrupts\\.c",
	      "__hrtimer_run_queues",
	      "!kdump? Kernel panic - not syncing: Fatal exception in interrupt")
/*
 * Lockups and stalls: caught by the kernel's watchdogs and detectors.  A
 * type's context is the deepest where its detector still sees it: the
 * soft-lockup detector is an hrtimer on the stuck CPU, so the types it
 * catches need the path's interrupts on (irqs).
 */
PC_CRASH_TYPE(unreachable_loop, "SOFTLOCKUP LOOP", lockups, PC_CTX_IRQS, PC_FATE_HANG,
	      "CONFIG_SOFTLOCKUP_DETECTOR watchdog_thresh=1 softlockup_panic=1",
	      "spin forever without scheduling: soft lockup",
	      "watchdog: BUG: soft lockup - CPU#[0-9]+ stuck for",
	      "pc_crash_unreachable_loop",
	      "Kernel panic - not syncing: softlockup: hung tasks")
PC_CRASH_TYPE(hardlockup, "HARDLOCKUP", lockups, PC_CTX_ATOMIC, PC_FATE_HANG,
	      "CONFIG_HARDLOCKUP_DETECTOR smp rcupdate.rcu_cpu_stall_timeout=3 sysctl.kernel.panic_on_rcu_stall=1 hardlockup_panic=1",
	      "spin forever with interrupts off: hard lockup",
	      "Watchdog detected hard LOCKUP on cpu|rcu: INFO: rcu_(preempt|sched) detected stalls on CPUs",
	      "pc_crash_hardlockup",
	      "Kernel panic - not syncing: (Hard LOCKUP|RCU Stall)")
PC_CRASH_TYPE(spinlockup, "SPINLOCKUP", lockups, PC_CTX_IRQS, PC_FATE_HANG,
	      "CONFIG_SOFTLOCKUP_DETECTOR watchdog_thresh=1 softlockup_panic=1",
	      "take a spinlock that is already held: the CPU spins for ever",
	      "watchdog: BUG: soft lockup - CPU#[0-9]+ stuck for",
	      "pc_crash_spinlockup",
	      "Kernel panic - not syncing: softlockup: hung tasks",
	      "CONFIG_PROVE_LOCKING? WARNING: possible recursive locking detected")
PC_CRASH_TYPE(hung_task, "HUNG_TASK", lockups, PC_CTX_TASK, PC_FATE_HANG,
	      "CONFIG_DETECT_HUNG_TASK sysctl.kernel.hung_task_timeout_secs=2 hung_task_panic=1",
	      "sleep uninterruptibly for ever: hung task",
	      "INFO: task [^ ]+:[0-9]+ blocked for more than [0-9]+ seconds",
	      "pc_crash_hung_task",
	      "Kernel panic - not syncing: hung_task: blocked tasks")
PC_CRASH_TYPE(rcu_stall, "", lockups, PC_CTX_ATOMIC, PC_FATE_HANG,
	      "smp rcupdate.rcu_cpu_stall_timeout=3 sysctl.kernel.panic_on_rcu_stall=1",
	      "spin inside an RCU read-side section: RCU CPU stall",
	      "rcu: INFO: rcu_(preempt|sched) (self-)?detected stalls? on CPU",
	      "pc_crash_rcu_stall",
	      "Kernel panic - not syncing: RCU Stall")
PC_CRASH_TYPE(deadlock, "", lockups, PC_CTX_TASK, PC_FATE_HANG,
	      "CONFIG_DETECT_HUNG_TASK sysctl.kernel.hung_task_timeout_secs=2 hung_task_panic=1",
	      "two kernel threads take two mutexes in opposite order (ABBA)",
	      "deadlock: pc-abba-[ab] holds [ab], wants [ab]",
	      "INFO: task pc-abba-[ab]:[0-9]+ blocked for more than [0-9]+ seconds",
	      "Kernel panic - not syncing: hung_task: blocked tasks",
	      "CONFIG_PROVE_LOCKING? WARNING: possible circular locking dependency detected")
PC_CRASH_TYPE(smp_call_lockup, "SMP_CALL_LOCKUP", lockups, PC_CTX_TASK, PC_FATE_HANG,
	      "CONFIG_SOFTLOCKUP_DETECTOR smp watchdog_thresh=1 softlockup_panic=1",
	      "a cross-CPU function call whose handler never returns: the caller waits for ever",
	      "smp_call_lockup: CPU [0-9]+ calls CPU [0-9]+ and waits",
	      "watchdog: BUG: soft lockup - CPU#[0-9]+ stuck for",
	      "smp_call_function_single",
	      "Kernel panic - not syncing: softlockup: hung tasks")
PC_CRASH_TYPE(panic_stop_irqoff, "PANIC_STOP_IRQOFF", lockups, PC_CTX_TASK, PC_FATE_PANIC, "smp",
	      "panic() while every other CPU spins with interrupts off: only an NMI stops them",
	      "panic_stop_irqoff: CPU [0-9]+ panics, [0-9]+ other CPUs? spinning with interrupts off",
	      "Kernel panic - not syncing: provoke-crash: panic_stop_irqoff requested",
	      "!kdump? Shutting down cpus with NMI")

/* Deadlocks on folio locks, which lockdep does not track: hung tasks. */
PC_CRASH_TYPE(folio_lock_aa, "FOLIO_LOCK_AA", lockups, PC_CTX_TASK, PC_FATE_HANG,
	      "CONFIG_DETECT_HUNG_TASK sysctl.kernel.hung_task_timeout_secs=2 hung_task_panic=1",
	      "lock a folio that the caller already holds locked (AA)",
	      "folio_lock_aa: [^ ]+\\[[0-9]+\\] holds the folio lock, takes it again",
	      "INFO: task [^ ]+:[0-9]+ blocked for more than [0-9]+ seconds",
	      "folio_wait_bit_common",
	      "Kernel panic - not syncing: hung_task: blocked tasks")
PC_CRASH_TYPE(folio_lock_abba, "FOLIO_LOCK_ABBA", lockups, PC_CTX_TASK, PC_FATE_HANG,
	      "CONFIG_DETECT_HUNG_TASK sysctl.kernel.hung_task_timeout_secs=2 hung_task_panic=1",
	      "two kernel threads lock two folios in opposite order (ABBA)",
	      "folio_lock_abba: pc-folio-[ab] holds folio [ab], wants folio [ab]",
	      "INFO: task pc-folio-[ab]:[0-9]+ blocked for more than [0-9]+ seconds",
	      "folio_wait_bit_common",
	      "Kernel panic - not syncing: hung_task: blocked tasks")
PC_CRASH_TYPE(folio_mutex_lock_abba, "FOLIO_MUTEX_LOCK_ABBA", lockups, PC_CTX_TASK, PC_FATE_HANG,
	      "CONFIG_DETECT_HUNG_TASK sysctl.kernel.hung_task_timeout_secs=2 hung_task_panic=1",
	      "one thread locks a folio then a mutex, another the mutex then the folio",
	      "folio_mutex_lock_abba: pc-folio-[ab] holds (the folio|the mutex), wants (the folio|the mutex)",
	      "INFO: task pc-folio-[ab]:[0-9]+ blocked for more than [0-9]+ seconds",
	      "folio_wait_bit_common|__mutex_lock",
	      "Kernel panic - not syncing: hung_task: blocked tasks")
