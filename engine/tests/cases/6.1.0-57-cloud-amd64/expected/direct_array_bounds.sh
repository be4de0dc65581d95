# generated from the crash-type table: array_bounds (report, direct)
# boot:
# smp: 1
# expect: provoke_crash: trigger: array_bounds: 
# batch-ok
# skip: needs CONFIG_UBSAN_BOUNDS, which 6.1.0-57-cloud-amd64 lacks
dmesg -c >/dev/null
pc-guest write $D/array_bounds 1
dmesg | sed -n 's/.*provoke_crash: \(XFAIL: array_bounds: .*\)/PC-SKIP \1/p' | head -n 1
