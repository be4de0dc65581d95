# generated from the crash-type table: report (report, point)
# boot:
# smp: 1
# expect: provoke_crash: __x64_sys_getppid: report: 
# expect-out: __x64_sys_getppid report hits=0 filtered=0 fired=0 missed=0 context=atomic
# batch-ok
# expect: report: hit by [^ ]+\[[0-9]+\] on CPU [0-9]+
# expect: Call Trace:
# reject: FAIL:
# expect-out: PC-GUEST-END
# expect-out: __x64_sys_getppid report hits=1 filtered=0 fired=1
dmesg -c >/dev/null
pc-guest write $D/crashpoints "__x64_sys_getppid report"
cat $D/crashpoints
dmesg | sed -n 's/.*provoke_crash: crashpoints: [^ ]*: \(report .*lacks the module.s entry path.*\)/PC-SKIP \1/p' | head -n 1
pc-guest hit getppid 1
cat $D/crashpoints
dmesg | sed -n 's/.*provoke_crash: \(XFAIL: report: .*\)/PC-SKIP \1/p' | head -n 1
