# generated from the crash-type table: report (report, direct)
# boot:
# smp: 1
# expect: provoke_crash: trigger: report: 
# batch-ok
# expect: report: hit by [^ ]+\[[0-9]+\] on CPU [0-9]+
# expect: Call Trace:
# reject: FAIL:
# expect-out: PC-GUEST-END
dmesg -c >/dev/null
pc-guest write $D/report 1
dmesg | sed -n 's/.*provoke_crash: \(XFAIL: report: .*\)/PC-SKIP \1/p' | head -n 1
