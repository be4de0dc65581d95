# generated from the crash-type table: deadlock (hang, direct)
# boot: sysctl.kernel.hung_task_timeout_secs=2 hung_task_panic=1
# smp: 1
# pstore: 1
# expect: provoke_crash: trigger: deadlock: 
# expect: deadlock: pc-abba-[ab] holds [ab], wants [ab]
# expect: INFO: task pc-abba-[ab]:[0-9]+ blocked for more than [0-9]+ seconds
# expect: Kernel panic - not syncing: hung_task: blocked tasks
# reject: FAIL:
# reject-out: PC-GUEST-END
# expect-out: PC-PSTORE-BEGIN dmesg-ramoops-[0-9]+
# expect-out: deadlock: pc-abba-[ab] holds [ab], wants [ab]
# expect-out: INFO: task pc-abba-[ab]:[0-9]+ blocked for more than [0-9]+ seconds
# expect-out: Kernel panic - not syncing: hung_task: blocked tasks
pc-guest write $D/deadlock 1
sleep 60
