# Conditions decide which hits fire, in the documented order (pid, comm,
# cpu, after, every, probability, times); the listing shows them with the
# counters.  report fires without crashing.  points= arms at load.
# expect-out: after: @sys@getppid report after=3 times=-1 hits=5 filtered=2 fired=3 missed=0 context=atomic
# expect-out: every: @sys@getpgrp report after=2 every=3 times=-1 hits=10 filtered=7 fired=3 missed=0 context=atomic
# expect-out: times: @sys@getppid report times=2 hits=5 filtered=3 fired=2 missed=0 context=atomic
# expect-out: default: @sys@getppid report hits=4 filtered=3 fired=1 missed=0 context=atomic
# expect-out: pid other: @sys@sync report times=-1 pid=[0-9]+ hits=3 eligible=0 filtered=3 fired=0
# expect-out: pid match: @sys@sync report times=-1 pid=[0-9]+ hits=4 eligible=4 filtered=0 fired=4
# expect-out: comm match: @sys@getpgrp report times=-1 comm=pc-guest hits=3 eligible=3 filtered=0 fired=3
# expect-out: comm other: @sys@getpgrp report times=-1 comm=nobody hits=3 eligible=0 filtered=3 fired=0
# expect-out: cpu 0: @sys@getppid report times=-1 cpu=0 hits=2 eligible=2 filtered=0 fired=2
# expect-out: cpu 1: write: error ENODEV
# expect-out: probability: fired between 120 and 280 of 400
# expect-out: return: @sys@getppid%return report hits=1 filtered=0 fired=1 missed=0 context=atomic
# expect-out: return and entry: 2 points
# expect-out: at load: @sys@getppid report times=-1 hits=0 filtered=0 fired=0 missed=0 context=atomic
# expect-out: at load: @sys@getpgrp unaligned_load_store after=2 hits=0 filtered=0 fired=0 missed=0 context=atomic
# expect-out: bad at load: refused
# expect-out: PC-GUEST-END
# expect: provoke_crash: @sys@getppid%return: report: 
# expect: report: hit by pc-guest\[[0-9]+\] on CPU 0
# expect: provoke_crash: points=: not loading: the crash points given could not all be armed
# expect: provoke_crash: points=: piece 2 is empty: give each point once, separated by ';'
# expect-out: empty piece at load: refused
# reject: BUG:|Oops|WARNING:|FAIL:|Kernel panic
# shellcheck shell=dash
C=$D/crashpoints
try() {
	label=$1 line=$2 syscall=$3 n=$4
	pc-guest write "$C" "$line" >/dev/null
	pc-guest hit "$syscall" "$n" >/dev/null
	echo "$label: $(cat "$C")"
	pc-guest write "$C" "\n" >/dev/null
}
try after "@sys@getppid report after=3 times=-1" getppid 5
try every "@sys@getpgrp report every=3 after=2 times=-1" getpgrp 10
try times "@sys@getppid report times=2" getppid 5
try default "@sys@getppid report" getppid 4

# pid: a sleeping task's pid does not match pc-guest's; then a task that
# is told its own pid, and only then makes the calls.
sleep 30 &
other=$!
try "pid other" "@sys@sync report times=-1 pid=$other" sync 3
kill $other
mkfifo /tmp/go
(read -r _ </tmp/go; exec pc-guest hit sync 4 >/dev/null) &
me=$!
pc-guest write "$C" "@sys@sync report times=-1 pid=$me" >/dev/null
echo go >/tmp/go
wait $me
echo "pid match: $(cat "$C")"
pc-guest write "$C" "\n" >/dev/null

try "comm match" "@sys@getpgrp report times=-1 comm=pc-guest" getpgrp 3
try "comm other" "@sys@getpgrp report times=-1 comm=nobody" getpgrp 3
try "cpu 0" "@sys@getppid report times=-1 cpu=0" getppid 2
echo "cpu 1: $(pc-guest write "$C" "@sys@getppid report cpu=1")"

echo 1 >/proc/sys/kernel/printk
pc-guest write "$C" "@sys@getpgrp unaligned_load_store probability=50 times=-1" >/dev/null
pc-guest hit getpgrp 400 >/dev/null
fired=$(sed -n 's/.* fired=\([0-9]*\) .*/\1/p' "$C")
echo 8 >/proc/sys/kernel/printk
pc-guest write "$C" "\n" >/dev/null
if [ "$fired" -ge 120 ] && [ "$fired" -le 280 ]; then
	echo "probability: fired between 120 and 280 of 400 ($fired)"
else
	echo "probability: fired $fired of 400"
fi

try return "@sys@getppid%return report" getppid 1
pc-guest write "$C" "@sys@getppid%return report\n@sys@getppid bugon" >/dev/null
echo "return and entry: $(grep -c . "$C") points"
pc-guest write "$C" "\n" >/dev/null

rmmod provoke_crash
# The kernel splits module parameters at blanks unless they are quoted.
insmod /provoke_crash.ko 'points="@sys@getppid report times=-1;@sys@getpgrp unaligned_load_store after=2"'
sed 's/^/at load: /' "$C"
rmmod provoke_crash
insmod /provoke_crash.ko 'points="@sys@getppid report;pc_no_such_symbol bugon"' 2>/dev/null ||
	echo "bad at load: refused"
# An empty piece would disarm the points before it: refused.
insmod /provoke_crash.ko 'points="@sys@getppid report;;"' 2>/dev/null ||
	echo "empty piece at load: refused"
insmod /provoke_crash.ko
