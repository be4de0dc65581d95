# kdump's hard case: CPU 0 spins with interrupts off (hardlockup's loop)
# when CPU 1 panics.  The crashing CPU must stop CPU 0 (x86 sends it an
# NMI) before it jumps into the capture kernel, whose log of the crashed
# kernel shows both.
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
# reject-out: PC-GUEST-END|PC-KDUMP-LOAD-FAILED|PC-KDUMP-NO-VMCORE
# reject: FAIL:
# Soon after: a CPU that spins with interrupts off soon holds up the
# other too (any IPI to it waits for ever: a TLB flush, a module's init
# sections freed), and the panic must come first.
taskset -c 0 pc-guest write $D/hardlockup 1 &
sleep 0.5
taskset -c 1 pc-guest write $D/panic 1
