# A type that needs a second CPU to be seen (the table's "smp": a stall
# or lockup the other CPUs observe), armed or triggered where only one
# CPU is online: refused, with the reason and EOPNOTSUPP, before any
# hit.  On the only CPU, update_process_times rcu_stall once hung the
# guest with no report until it was killed (issue 39).  The kernel
# stays up, and nothing is left armed.
# smp: 1
# batch-ok
# expect: provoke_crash: crashpoints: update_process_times: rcu_stall needs a second CPU to be seen, and only one is online \(on the only CPU a stall hangs the machine with no report\)
# expect: provoke_crash: trigger: panic_stop_irqoff needs a second CPU to be seen, and only one is online
# expect-out: cpus: 1
# expect-out: arm: write: error EOPNOTSUPP
# expect-out: trigger: write: error EOPNOTSUPP
# expect-out: left armed: 0
# expect-out: PC-GUEST-END
# reject: Kernel panic|Oops|rcu_stall: |INFO: rcu|FAIL:
# shellcheck shell=dash
C=$D/crashpoints
echo "cpus: $(grep -c '^processor' /proc/cpuinfo)"
echo "arm: $(pc-guest write "$C" "update_process_times rcu_stall")"
echo "trigger: $(pc-guest write "$D/panic_stop_irqoff" 1)"
echo "left armed: $(grep -c . "$C")"
