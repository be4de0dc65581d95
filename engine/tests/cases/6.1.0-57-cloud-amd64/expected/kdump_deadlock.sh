# generated from the crash-type table: deadlock (hang, direct, kdump)
# boot: sysctl.kernel.hung_task_timeout_secs=2 hung_task_panic=1 oops=panic
# smp: 1
# kdump: 1
# expect-out: PC-KDUMP-LOADED [0-9]+ bytes reserved
# expect-out: PC-KDUMP-VMCORE [0-9]+ bytes
# expect-out: PC-KDUMP-DMESG-BEGIN
# expect-out: provoke_crash: trigger: deadlock: 
# expect-out: deadlock: pc-abba-[ab] holds [ab], wants [ab]
# expect-out: INFO: task pc-abba-[ab]:[0-9]+ blocked for more than [0-9]+ seconds
# expect-out: Kernel panic - not syncing: hung_task: blocked tasks
# expect-out: PC-KDUMP-DUMP [1-9][0-9]+ bytes
# expect-out: PC-KDUMP-DONE
# reject-out: PC-GUEST-END|PC-KDUMP-LOAD-FAILED|PC-KDUMP-NO-VMCORE
# reject: FAIL:
pc-guest write $D/deadlock 1
sleep 60
