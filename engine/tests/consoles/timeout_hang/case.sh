# generated from the crash-type table: hardlockup (hang, direct)
# boot: rcupdate.rcu_cpu_stall_timeout=3 sysctl.kernel.panic_on_rcu_stall=1 hardlockup_panic=1
# smp: 2
# pstore: 1
# expect: provoke_crash: trigger: hardlockup: 
# expect: Watchdog detected hard LOCKUP on cpu|rcu: INFO: rcu_(preempt|sched) detected stalls on CPUs
# expect: pc_crash_hardlockup
# expect: Kernel panic - not syncing: (Hard LOCKUP|RCU Stall)
# reject: FAIL:
# reject-out: PC-GUEST-END
# expect-out: PC-PSTORE-BEGIN dmesg-ramoops-[0-9]+
# expect-out: Watchdog detected hard LOCKUP on cpu|rcu: INFO: rcu_(preempt|sched) detected stalls on CPUs
# expect-out: pc_crash_hardlockup
# expect-out: Kernel panic - not syncing: (Hard LOCKUP|RCU Stall)
pc-guest write $D/hardlockup 1
sleep 60
