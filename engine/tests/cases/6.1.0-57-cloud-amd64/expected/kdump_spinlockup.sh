# generated from the crash-type table: spinlockup (hang, direct, kdump)
# boot: watchdog_thresh=1 softlockup_panic=1 oops=panic
# smp: 1
# kdump: 1
# expect-out: PC-KDUMP-LOADED [0-9]+ bytes reserved
# expect-out: PC-KDUMP-VMCORE [0-9]+ bytes
# expect-out: PC-KDUMP-DMESG-BEGIN
# expect-out: provoke_crash: trigger: spinlockup: 
# expect-out: watchdog: BUG: soft lockup - CPU#[0-9]+ stuck for
# expect-out: pc_crash_spinlockup
# expect-out: Kernel panic - not syncing: softlockup: hung tasks
# expect-out: PC-KDUMP-DUMP [1-9][0-9]+ bytes
# expect-out: PC-KDUMP-DONE
# reject-out: PC-GUEST-END|PC-KDUMP-LOAD-FAILED|PC-KDUMP-NO-VMCORE
# reject: FAIL:
pc-guest write $D/spinlockup 1
sleep 60
