# kdump's hard case: a hard lockup found by the NMI watchdog, on a second
# CPU, captured.  Under QEMU's TCG there is no PMU to drive the perf NMI
# watchdog: the case then skips, in the kernel's own words (PC-SKIP), and
# the capture of the same lockup found by RCU's stall detector is
# kdump_hardlockup's.
# smp: 2
# kdump: 1
# boot: oops=panic hardlockup_panic=1 nmi_watchdog=1 watchdog_thresh=2
# needs: CONFIG_HARDLOCKUP_DETECTOR
# expect-out: PC-KDUMP-LOADED [0-9]+ bytes reserved
# expect-out: Watchdog detected hard LOCKUP on cpu 1
# expect-out: PC-KDUMP-DONE
# reject: FAIL:
if dmesg | grep -q 'NMI watchdog: Enabled'; then
	taskset -c 1 pc-guest write $D/hardlockup 1 &
	sleep 60
else
	echo "PC-SKIP no NMI watchdog here; the kernel said: $(dmesg | grep -m1 -i 'NMI watchdog' | sed 's/^\[[^]]*\] //')"
fi
