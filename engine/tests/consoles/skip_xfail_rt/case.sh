# generated from the crash-type table: stackleak_erasing (report, direct)
# boot:
# smp: 1
# expect: provoke_crash: trigger: stackleak_erasing: 
# batch-ok
# skip: needs CONFIG_GCC_PLUGIN_STACKLEAK, which 6.1.0-57-rt-amd64 lacks
dmesg -c >/dev/null
pc-guest write $D/stackleak_erasing 1
dmesg | sed -n 's/.*provoke_crash: \(XFAIL: stackleak_erasing: .*\)/PC-SKIP \1/p' | head -n 1
