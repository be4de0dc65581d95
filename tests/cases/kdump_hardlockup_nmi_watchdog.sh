# kdump's hard case: a hard lockup on a second CPU, found by the kernel's
# hard-lockup detector (the nmi_watchdog sysctl's: perf's NMI watchdog, or
# the buddy detector, a CPU's hrtimer watching the next CPU's, which arm64
# 6.12 has), that panics (nmi_watchdog=panic), captured.  Under QEMU's TCG
# there is no PMU to drive perf's: the case then skips, in the kernel's own
# words (PC-SKIP), and the capture of the same lockup found by RCU's stall
# detector is kdump_hardlockup's.  No dump size is asked for: arm64 6.12's
# 52-bit VA is beyond Debian 12's makedumpfile.
# smp: 2
# kdump: 1
# boot: oops=panic nmi_watchdog=panic watchdog_thresh=2
# needs: CONFIG_HARDLOCKUP_DETECTOR
# expect-out: PC-KDUMP-LOADED [0-9]+ bytes reserved
# expect-out: PC-KDUMP-DMESG-BEGIN
# expect-out: provoke_crash: trigger: hardlockup: 
# expect-out: Watchdog detected hard LOCKUP on cpu 1
# expect-out: Kernel panic - not syncing: Hard LOCKUP
# expect-out: PC-KDUMP-DONE
# reject-out: PC-GUEST-END|PC-KDUMP-LOAD-FAILED|PC-KDUMP-NO-VMCORE
# reject: FAIL:
# A perf watchdog says it is on; the buddy says nothing, but its sysctl is
# writable only when a detector is there (6.12; 6.1 keeps it writable, and
# says "permanently disabled" when perf's cannot run).
# shellcheck shell=dash
why=$(dmesg | grep -m1 -i 'watchdog permanently disabled' | sed 's/^\[[^]]*\] //')
if [ -z "$why" ] && [ "$(stat -c %a /proc/sys/kernel/nmi_watchdog)" != 644 ]; then
	why="/proc/sys/kernel/nmi_watchdog is read-only: no hard-lockup detector"
fi
if [ -n "$why" ]; then
	echo "PC-SKIP no hard-lockup detector here; the kernel said: $why"
else
	echo "PC-DETECTOR $(dmesg | grep -m1 'NMI watchdog: Enabled' || echo 'no NMI watchdog message: buddy')"
	taskset -c 1 pc-guest write "$D/hardlockup" 1 &
	sleep 60
fi
