# Unloading disarms every point while both CPUs keep hitting them; reload
# works.  Two vCPUs on single-threaded TCG (see qemu.py).
# smp: 2
# expect-out: rmmod: ok
# expect-out: kprobes after unload: 0
# expect-out: reload: ok
# expect-out: fired lines: [1-9][0-9]*
# expect-out: log: unloaded
# expect-out: PC-GUEST-END
# reject-out: dmesg-bad:
# reject: BUG:|Oops|WARNING:|FAIL:|general protection|Kernel panic
# shellcheck shell=dash
C=$D/crashpoints
pc-guest write "$C" "@sys@getppid unaligned_load_store times=-1\n@sys@getpgid bugon\n@sys@getsid panic"
echo "kprobes armed: $(grep -c . /sys/kernel/debug/kprobes/list)"
# Keep the per-hit log lines in the ring buffer, off the slow console.
echo 1 >/proc/sys/kernel/printk
pc-guest hit getppid 400000 &
pc-guest hit getppid 400000 &
sleep 1
cat "$C"
rmmod provoke_crash && echo "rmmod: ok"
echo 8 >/proc/sys/kernel/printk
echo "kprobes after unload: $(grep -c . /sys/kernel/debug/kprobes/list)"
wait
insmod /provoke_crash.ko && echo "reload: ok"
cat "$D/crashpoints"
rmmod provoke_crash
# The console was quiet while points fired: check the whole log.
echo "fired lines: $(dmesg | grep -c 'provoke_crash: @sys@getppid: unaligned_load_store: ')"
dmesg | grep -q 'provoke_crash: unloaded' && echo "log: unloaded"
dmesg | grep -E 'BUG:|Oops|WARNING:|FAIL:|general protection' | sed 's/^/dmesg-bad: /'
