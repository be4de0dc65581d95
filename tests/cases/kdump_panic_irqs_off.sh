# kdump's hard case: panic with interrupts off, in a hard interrupt: a
# crash point on the scheduler tick panics from the timer interrupt, and
# the capture kernel still gets the crashed kernel's log (the trace runs
# through the timer interrupt: <IRQ> only when it came in kernel mode).
# kdump: 1
# boot: oops=panic
# expect-out: PC-KDUMP-LOADED [0-9]+ bytes reserved
# expect-out: PC-KDUMP-DMESG-BEGIN
# expect-out: provoke_crash: (scheduler_tick|sched_tick): panic: 
# expect-out: Kernel panic - not syncing: provoke-crash: panic requested
# expect-out: hrtimer_interrupt
# expect-out: PC-KDUMP-DUMP [1-9][0-9]+ bytes
# expect-out: PC-KDUMP-DONE
# reject-out: PC-GUEST-END|PC-KDUMP-LOAD-FAILED|PC-KDUMP-NO-VMCORE
# reject: FAIL:
# The tick's function: sched_tick since 6.11, scheduler_tick before.
# shellcheck shell=dash
tick=sched_tick
grep -q ' scheduler_tick$' /proc/kallsyms && tick=scheduler_tick
pc-guest write "$D/crashpoints" "$tick panic"
sleep 10
