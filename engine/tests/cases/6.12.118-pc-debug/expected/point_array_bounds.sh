# generated from the crash-type table: array_bounds (report, point)
# boot:
# smp: 1
# expect: provoke_crash: __x64_sys_getppid: array_bounds: 
# expect-out: __x64_sys_getppid array_bounds hits=0 filtered=0 fired=0 missed=0 context=atomic
# batch-ok
# expect: UBSAN: array-index-out-of-bounds in .*bounds\.c
# expect: index 4 is out of range for type 'int ?\[4\]'
# reject: FAIL:
# expect-out: PC-GUEST-END
# expect-out: __x64_sys_getppid array_bounds hits=1 filtered=0 fired=1
dmesg -c >/dev/null
pc-guest write $D/crashpoints "__x64_sys_getppid array_bounds"
cat $D/crashpoints
dmesg | sed -n 's/.*provoke_crash: crashpoints: [^ ]*: \(array_bounds .*lacks the module.s entry path.*\)/PC-SKIP \1/p' | head -n 1
pc-guest hit getppid 1
cat $D/crashpoints
dmesg | sed -n 's/.*provoke_crash: \(XFAIL: array_bounds: .*\)/PC-SKIP \1/p' | head -n 1
