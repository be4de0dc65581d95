# kdump_cpu1_while_cpu0_irqs_off on arm64: CPU 0 spins with interrupts
# off when CPU 1 panics.  arm64 stops other CPUs with an ordinary IPI
# (Debian builds 6.1 and 6.12 without pseudo-NMI), which a CPU with
# interrupts off never takes: the kernel says it failed to stop CPU 0,
# and that kdump will be unreliable, and jumps into the capture kernel all
# the same.  The capture
# works here; the case holds the kernel's words, so that a kernel that
# does stop CPU 0 fails it and is looked at.  No dump size is asked for:
# arm64 6.12's 52-bit VA is beyond Debian 12's makedumpfile.
# needs: CONFIG_ARM64
# smp: 2
# kdump: 1
# boot: oops=panic
# expect-out: PC-KDUMP-LOADED [0-9]+ bytes reserved
# expect-out: PC-KDUMP-DMESG-BEGIN
# expect-out: provoke_crash: trigger: hardlockup: 
# expect-out: provoke_crash: trigger: panic: 
# expect-out: Kernel panic - not syncing: provoke-crash: panic requested
# expect-out: CPU: 1 (UID: [0-9]+ )?PID: [0-9]+ Comm: pc-guest
# expect-out: SMP: failed to stop secondary CPUs 0$
# expect-out: Some CPUs may be stale, kdump will be unreliable
# expect-out: PC-KDUMP-DONE
# reject-out: PC-GUEST-END|PC-KDUMP-LOAD-FAILED|PC-KDUMP-NO-VMCORE
# reject: FAIL:
# The panicking process starts first and waits on CPU 1 for the spin's
# log line: once CPU 0 spins with interrupts off, anything that needs it
# waits for ever (a TLB-flush IPI, a module's init sections freed, and on
# arm64 6.1 even the fork and exec of a new process did), so after that
# CPU 1 only reads the log and writes.
# shellcheck shell=dash
taskset -c 1 pc-guest onlog 'trigger: hardlockup: ' "$D/panic" 1 &
sleep 0.5
taskset -c 0 pc-guest write "$D/hardlockup" 1
