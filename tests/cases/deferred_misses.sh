# A type whose crash comes later (from an interrupt, a softirq or the
# scheduler) runs at a point only where the path lets it come; elsewhere
# the hit is counted as missed and the module says why, and the kernel
# stays up.  Paths: the tick (interrupts off), the timer softirq, and
# __d_lookup_rcu(), which a path walk calls under rcu_read_lock() (not
# preemptible).  Each deferred type in each of them where it cannot
# complete: the interrupt ones (oops_interrupt_context, panic_in_hardirq,
# bug_in_hardirq) with interrupts off, the preemption ones
# (oops_softirq_context, stack_end_corruption) in all three; where an
# interrupt one can complete, it fires (deferred_irq_in_softirq).  Two
# vCPUs: the tick comes on both, and a second process walks paths on the
# other CPU while the first does.
# smp: 2
# boot: log_buf_len=1M
# expect: crashpoints: update_process_times: oops_interrupt_context missed: it needs irqs context at most, and the path is in atomic context here
# expect: crashpoints: update_process_times: panic_in_hardirq missed: it needs irqs context at most, and the path is in atomic context here
# expect: crashpoints: update_process_times: bug_in_hardirq missed: it needs irqs context at most, and the path is in atomic context here
# expect: crashpoints: update_process_times: stack_end_corruption missed: it needs preempt context at most, and the path is in atomic context here
# expect: crashpoints: update_process_times: oops_softirq_context missed: it needs preempt context at most, and the path is in atomic context here
# expect: crashpoints: run_timer_softirq: oops_softirq_context missed: it needs preempt context at most, and the path is in irqs context here
# expect: crashpoints: run_timer_softirq: stack_end_corruption missed: it needs preempt context at most, and the path is in irqs context here
# expect: crashpoints: __d_lookup_rcu: oops_softirq_context missed: it needs preempt context at most, and the path is in irqs context here
# expect: crashpoints: __d_lookup_rcu: stack_end_corruption missed: it needs preempt context at most, and the path is in irqs context here
# expect-out: irqs-off: update_process_times oops_interrupt_context times=-1 hits=[1-9][0-9]* filtered=0 fired=0 missed=[1-9][0-9]* context=path:irqs
# expect-out: irqs-off: update_process_times panic_in_hardirq times=-1 hits=[1-9][0-9]* filtered=0 fired=0 missed=[1-9][0-9]* context=path:irqs
# expect-out: irqs-off: update_process_times bug_in_hardirq times=-1 hits=[1-9][0-9]* filtered=0 fired=0 missed=[1-9][0-9]* context=path:irqs
# expect-out: irqs-off: update_process_times stack_end_corruption times=-1 hits=[1-9][0-9]* filtered=0 fired=0 missed=[1-9][0-9]* context=path:preempt
# expect-out: irqs-off: update_process_times oops_softirq_context times=-1 hits=[1-9][0-9]* filtered=0 fired=0 missed=[1-9][0-9]* context=path:preempt
# expect-out: softirq: run_timer_softirq stack_end_corruption times=-1 hits=[1-9][0-9]* filtered=0 fired=0 missed=[1-9][0-9]* context=path:preempt
# expect-out: rcu: __d_lookup_rcu oops_softirq_context times=-1 comm=pc-guest hits=[1-9][0-9]* eligible=[1-9][0-9]* filtered=[0-9]+ fired=0 missed=[1-9][0-9]* context=path:preempt
# expect-out: softirq: run_timer_softirq oops_softirq_context times=-1 hits=[1-9][0-9]* filtered=0 fired=0 missed=[1-9][0-9]* context=path:preempt
# expect-out: rcu: __d_lookup_rcu stack_end_corruption times=-1 comm=pc-guest hits=[1-9][0-9]* eligible=[1-9][0-9]* filtered=[0-9]+ fired=0 missed=[1-9][0-9]* context=path:preempt
# expect-out: PC-GUEST-END
# reject: Kernel panic|Oops|kernel BUG|FAIL:
# reject-out: PC-NOT-DISARMED
# shellcheck shell=dash
C=$D/crashpoints
try() {
	taskset -c 1 sh -c 'while :; do pc-guest read /proc/version; done' >/dev/null &
	other=$!
	pc-guest write "$C" "$2 times=-1" >/dev/null
	[ -n "$3" ] && taskset -c 0 pc-guest read /proc/version >/dev/null
	sleep 2
	# Each line labeled: a point left over would show as its own.
	sed "s/^/$1: /" "$C"
	pc-guest write "$C" "\n" >/dev/null
	left=$(cat "$C")
	[ -z "$left" ] || echo "PC-NOT-DISARMED $left"
	kill $other
	wait $other 2>/dev/null
}
try irqs-off "update_process_times oops_interrupt_context"
try irqs-off "update_process_times panic_in_hardirq"
try irqs-off "update_process_times bug_in_hardirq"
try irqs-off "update_process_times stack_end_corruption"
try irqs-off "update_process_times oops_softirq_context"
try softirq "run_timer_softirq oops_softirq_context"
try softirq "run_timer_softirq stack_end_corruption"
try rcu "__d_lookup_rcu stack_end_corruption comm=pc-guest" read
try rcu "__d_lookup_rcu oops_softirq_context comm=pc-guest" read
# The preemption ones need the module's ftrace entry path, which a
# kernel with an older ftrace (5.10) lacks: refused there, with why.
dmesg | sed -n "s/.*provoke_crash: crashpoints: \(.*lacks the module's entry path.*\)/PC-SKIP \1/p" | head -n 1
