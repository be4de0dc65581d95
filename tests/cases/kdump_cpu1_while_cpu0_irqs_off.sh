# kdump's hard case: CPU 0 spins with interrupts off (hardlockup's loop)
# when CPU 1 panics.  The crashing CPU must stop CPU 0 (x86 sends it an
# NMI) before it jumps into the capture kernel, whose log of the crashed
# kernel shows both.  arm64 6.1 has no NMI to send: see
# kdump_cpu1_while_cpu0_irqs_off_arm64.
# needs: CONFIG_X86_64
# smp: 2
# kdump: 1
# boot: oops=panic
# expect-out: PC-KDUMP-LOADED [0-9]+ bytes reserved
# expect-out: PC-KDUMP-DMESG-BEGIN
# expect-out: provoke_crash: trigger: hardlockup: 
# expect-out: provoke_crash: trigger: panic: 
# expect-out: Kernel panic - not syncing: provoke-crash: panic requested
# expect-out: CPU: 1 (UID: [0-9]+ )?PID: [0-9]+ Comm: pc-guest
# expect-out: PC-KDUMP-DUMP [1-9][0-9]+ bytes
# expect-out: PC-KDUMP-DONE
# reject-out: PC-GUEST-END|PC-KDUMP-LOAD-FAILED|PC-KDUMP-NO-VMCORE|failed to stop|kdump will be unreliable
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
