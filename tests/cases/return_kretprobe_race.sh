# A %return point of a type that does not crash is a kretprobe: its
# handler runs as the function returns.  While the kretprobe is being
# unregistered, get_kretprobe() gives NULL for the instances still on
# their way back (arm64 6.1 has no rethook: there the instance outlives
# the probe).  Both vCPUs return from getppid() for ever while a writer
# arms and disarms such a point; then the module is unloaded while they
# still return through it.
# smp: 2
# expect-out: writer: cycle: [0-9]+ done, 0 errors
# expect-out: points after: 0
# expect-out: fired lines: [1-9][0-9]*
# expect-out: rmmod: ok
# expect-out: our kprobes after unload: 0
# expect-out: hitters: alive
# expect-out: tainted by an oops or a warning: no
# expect-out: PC-GUEST-END
# reject-out: dmesg-bad:
# reject: BUG:|Oops|WARNING:|FAIL:|general protection|Kernel panic
# shellcheck shell=dash
C=$D/crashpoints
N=${pc_cycles:-100}
P="@sys@getppid%return unaligned_load_store times=-1"
echo 1 >/proc/sys/kernel/printk
taskset -c 0 pc-guest hit getppid -1 >/dev/null &
h1=$!
taskset -c 1 pc-guest hit getppid -1 >/dev/null &
h2=$!
pc-guest cycle "$C" "$N" "$P" "!@sys@getppid%return" | sed 's/^/writer: /'
echo "points after: $(grep -c . "$C")"
pc-guest write "$C" "$P" >/dev/null
sleep 1
rmmod provoke_crash && echo "rmmod: ok"
echo 8 >/proc/sys/kernel/printk
echo "our kprobes after unload: $(grep -c getppid /sys/kernel/debug/kprobes/list)"
kill -0 $h1 && kill -0 $h2 && echo "hitters: alive"
kill $h1 $h2
wait
# The console was quiet and the log may have wrapped: the taint flags
# keep what happened (D: an oops, W: a warning).
t=$(cat /proc/sys/kernel/tainted)
[ $((t & 640)) = 0 ] && echo "tainted by an oops or a warning: no"
echo "fired lines: $(dmesg | grep -cE 'provoke_crash: @sys@getppid(%return)?: unaligned_load_store: ')"
dmesg | grep -E 'BUG:|Oops|WARNING:|FAIL:|general protection' | sed 's/^/dmesg-bad: /'
