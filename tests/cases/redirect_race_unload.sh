# Redirected hits racing disarm and rmmod.  Two respawning processes hit
# getppid() on two vCPUs, where a null_dereference point for them only is
# armed and disarmed 50 times; then it is armed again and the module
# unloaded while they still hit.  Every oops is null_dereference's own,
# none comes from the module's machinery; rmmod succeeds once the crashes
# in flight have ended (each holds a module reference until its oops),
# and the module loads again.
# smp: 2
# boot: log_buf_len=8M
# expect-out: cycle: 50 done, 0 errors
# expect-out: rmmod: ok
# expect-out: reload: ok
# expect-out: oopses: [1-9][0-9]*
# expect-out: PC-GUEST-END
# reject-out: dmesg-bad:
# reject: Kernel panic|FAIL:
# shellcheck shell=dash
C=$D/crashpoints
cp /bin/pc-guest /tmp/pc-hitter
echo 1 >/proc/sys/kernel/printk
(while :; do /tmp/pc-hitter hit getppid 1000 >/dev/null 2>&1; done) &
l1=$!
(while :; do /tmp/pc-hitter hit getppid 1000 >/dev/null 2>&1; done) &
l2=$!
pc-guest cycle "$C" 50 "@sys@getppid null_dereference comm=pc-hitter times=-1" "!@sys@getppid"
pc-guest write "$C" "@sys@getppid null_dereference comm=pc-hitter times=-1" >/dev/null
sleep 1
i=0
until rmmod provoke_crash 2>/dev/null; do
	i=$((i + 1))
	[ $i -ge 100 ] && break
	usleep 100000
done
[ $i -lt 100 ] && echo "rmmod: ok"
kill $l1 $l2
wait
insmod /provoke_crash.ko && echo "reload: ok"
echo 8 >/proc/sys/kernel/printk
echo "oopses: $(dmesg | grep -c 'BUG: kernel NULL pointer dereference')"
dmesg | grep -E 'kernel BUG at|cannot resume|BUG: KASAN|circular locking|suspicious RCU|sleeping function|UBSAN|general protection|WARNING:' |
	sed 's/^/dmesg-bad: /' | head -n 5
