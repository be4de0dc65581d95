# A load whose points= cannot all be armed arms nothing, not even for a
# moment.  Two processes call getppid() and getpgrp() for ever on two
# vCPUs while the module is loaded 30 times with a fatal %return point and
# a fast entry point on those paths, then a line naming no symbol: every
# load fails, nothing fires, and the module then loads and unloads.
# Busybox's insmod tries finit_module() and then init_module(): 60 loads.
# smp: 2
# expect-out: loads: 30 tried, 30 refused, 0 loaded
# expect-out: logged: 60
# expect-out: after: loaded, listing empty, unloaded
# expect-out: PC-GUEST-END
# reject-out: fired lines: [1-9]
# reject: Kernel panic|Oops|BUG:|FAIL:
# shellcheck shell=dash
rmmod provoke_crash
echo 1 >/proc/sys/kernel/printk
pc-guest hit getppid -1 >/dev/null &
h1=$!
pc-guest hit getpgrp -1 >/dev/null &
h2=$!
refused=0 loaded=0
for _ in $(seq 30); do
	if insmod /provoke_crash.ko 'points="@sys@getppid%return panic;@sys@getpgrp panic;pc_no_such_symbol bugon"' 2>/dev/null; then
		loaded=$((loaded + 1))
		rmmod provoke_crash
	else
		refused=$((refused + 1))
	fi
done
kill $h1 $h2
wait
echo 8 >/proc/sys/kernel/printk
echo "loads: 30 tried, $refused refused, $loaded loaded"
echo "logged: $(dmesg | grep -c "points=: not loading: the crash points given")"
echo "fired lines: $(dmesg | grep -c 'provoke_crash: @sys@')"
insmod /provoke_crash.ko && [ -z "$(cat "$D/crashpoints")" ] && rmmod provoke_crash &&
	echo "after: loaded, listing empty, unloaded"
