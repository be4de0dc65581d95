# generated from the crash-type table: array_bounds (report, direct)
# boot:
# smp: 1
# expect: provoke_crash: trigger: array_bounds: 
# batch-ok
# expect: UBSAN: array-index-out-of-bounds in .*bounds\.c
# expect: index 4 is out of range for type 'int ?\[4\]'
# reject: FAIL:
# expect-out: PC-GUEST-END
dmesg -c >/dev/null
pc-guest write $D/array_bounds 1
dmesg | sed -n 's/.*provoke_crash: \(XFAIL: array_bounds: .*\)/PC-SKIP \1/p' | head -n 1
