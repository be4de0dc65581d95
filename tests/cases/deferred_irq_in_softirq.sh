# The other side of deferred_misses: a hard-interrupt oops armed in the
# timer softirq, where interrupts are on, does run: the irq_work fires
# over the softirq and its oops is fatal there.
# pstore: 1
# expect: provoke_crash: run_timer_softirq: oops_interrupt_context: 
# expect: oops_interrupt_context: in hardirq context: yes
# expect: Kernel panic - not syncing: Fatal exception in interrupt
# expect-out: PC-PSTORE-BEGIN dmesg-ramoops-[0-9]+
# reject-out: PC-GUEST-END
# shellcheck shell=dash
C=$D/crashpoints
pc-guest write "$C" "run_timer_softirq oops_interrupt_context"
sleep 10
