# generated from the crash-type table: oops_softirq_context (panic, direct)
# boot:
# smp: 1
# pstore: 1
# expect: provoke_crash: trigger: oops_softirq_context: 
# expect: oops_softirq_context: in softirq context: yes
# expect: BUG: kernel NULL pointer dereference
# expect: run_timer_softirq
# expect: Kernel panic - not syncing: Fatal exception in interrupt
# reject: FAIL:
# reject-out: PC-GUEST-END
# expect-out: PC-PSTORE-BEGIN dmesg-ramoops-[0-9]+
# expect-out: oops_softirq_context: in softirq context: yes
# expect-out: BUG: kernel NULL pointer dereference
# expect-out: run_timer_softirq
# expect-out: Kernel panic - not syncing: Fatal exception in interrupt
pc-guest write $D/oops_softirq_context 1
