# generated from the crash-type table: oops_softirq_context (panic, point)
# boot:
# smp: 1
# expect: provoke_crash: __x64_sys_getppid: oops_softirq_context: 
# expect-out: __x64_sys_getppid oops_softirq_context hits=0 filtered=0 fired=0 missed=0 context=path:preempt
# expect: oops_softirq_context: in softirq context: yes
# expect: BUG: kernel NULL pointer dereference
# expect: run_timer_softirq
# expect: Kernel panic - not syncing: Fatal exception in interrupt
# reject: FAIL:
# reject-out: PC-GUEST-END
pc-guest write $D/crashpoints "__x64_sys_getppid oops_softirq_context"
cat $D/crashpoints
dmesg | sed -n 's/.*provoke_crash: crashpoints: [^ ]*: \(oops_softirq_context .*lacks the module.s entry path.*\)/PC-SKIP \1/p' | head -n 1
pc-guest hit getppid 1
cat $D/crashpoints
