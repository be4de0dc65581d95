# generated from the crash-type table: oops_softirq_context (panic, direct, kdump)
# boot: oops=panic
# smp: 1
# kdump: 1
# expect-out: PC-KDUMP-LOADED [0-9]+ bytes reserved
# expect-out: PC-KDUMP-VMCORE [0-9]+ bytes
# expect-out: PC-KDUMP-DMESG-BEGIN
# expect-out: provoke_crash: trigger: oops_softirq_context: 
# expect-out: oops_softirq_context: in softirq context: yes
# expect-out: BUG: kernel NULL pointer dereference
# expect-out: run_timer_softirq
# expect-out: PC-KDUMP-DUMP [1-9][0-9]+ bytes
# expect-out: PC-KDUMP-DONE
# reject-out: PC-GUEST-END|PC-KDUMP-LOAD-FAILED|PC-KDUMP-NO-VMCORE
# reject: FAIL:
pc-guest write $D/oops_softirq_context 1
