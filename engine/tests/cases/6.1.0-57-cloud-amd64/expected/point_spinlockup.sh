# generated from the crash-type table: spinlockup (hang, point)
# boot: watchdog_thresh=1 softlockup_panic=1
# smp: 1
# expect: provoke_crash: __x64_sys_getppid: spinlockup: 
# expect-out: __x64_sys_getppid spinlockup hits=0 filtered=0 fired=0 missed=0 context=path:irqs
# expect: watchdog: BUG: soft lockup - CPU#[0-9]+ stuck for
# expect: pc_crash_spinlockup
# expect: Kernel panic - not syncing: softlockup: hung tasks
# reject: FAIL:
# reject-out: PC-GUEST-END
pc-guest write $D/crashpoints "__x64_sys_getppid spinlockup"
cat $D/crashpoints
dmesg | sed -n 's/.*provoke_crash: crashpoints: [^ ]*: \(spinlockup .*lacks the module.s entry path.*\)/PC-SKIP \1/p' | head -n 1
pc-guest hit getppid 1
cat $D/crashpoints
sleep 60
