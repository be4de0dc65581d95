# A delay gives ftrace's recursion lock back while it waits, so what its
# task runs meanwhile is still traced: the function tracer sees msleep()
# call schedule_timeout() in the held-up system call.  A stall point hit
# in that (a delay at schedule_timeout, caller=msleep) is missed with its
# reason, in the same task and context: it never nests a second stall in
# the first.  The outer delay fires once and holds its call up 100 ms.
# needs: CONFIG_PREEMPT_COUNT
# expect-out: ^armed: write: ok 
# expect-out: ^held: at least 100 ms$
# expect-out: ^outer: [^ ]*sys_getppid delay ms=100 comm=pc-guest hits=1 eligible=1 filtered=0 fired=1 missed=0 context=path:preempt$
# The guest's other waits in schedule_timeout are filtered (caller=).
# expect-out: ^inner: schedule_timeout delay ms=100 comm=pc-guest caller=msleep hits=[0-9]+ eligible=0 filtered=[0-9]+ fired=0 missed=1 context=path:preempt$
# expect-out: ^traced: [1-9][0-9]*$
# expect: provoke_crash: [^ ]*sys_getppid: delay: sleep ms= milliseconds
# expect: provoke_crash: delay: held up pc-guest\[[0-9]+\] on CPU [0-9]+ for [0-9]+ us \(ms=100\)
# expect: provoke_crash: crashpoints: schedule_timeout: delay missed: the task is held up in this context by a stall already \(at [^ ]*sys_getppid\), and this hit is in what that stall runs
# expect-out: PC-GUEST-END
# expect-out: ^held-up lines: 1$
# reject: FAIL:|Oops|BUG:|WARNING:
# shellcheck shell=dash
C=$D/crashpoints
dmesg -c >/dev/null
T=/sys/kernel/tracing
[ -e $T/trace ] || mount -t tracefs nodev $T
echo schedule_timeout >$T/set_ftrace_filter
echo function >$T/current_tracer
echo >$T/trace
echo "armed: $(pc-guest write "$C" "@sys@getppid delay ms=100 times=1 comm=pc-guest
schedule_timeout delay ms=100 comm=pc-guest caller=msleep")"
t=$(pc-guest time getppid 1)
t=${t##*: }
if [ "${t%%.*}" -ge 100000000 ]; then echo "held: at least 100 ms"; else echo "held: only $t ns"; fi
while read -r line; do
	case $line in
	*sys_getppid*) echo "outer: $line" ;;
	schedule_timeout*) echo "inner: $line" ;;
	esac
done <"$C"
echo "held-up lines: $(dmesg | grep -c 'delay: held up')"
# Before the tracer goes: nop empties the buffer.
echo "traced: $(grep -c 'pc-guest.*schedule_timeout <-msleep' $T/trace)"
echo nop >$T/current_tracer
pc-guest write "$C" "\n" >/dev/null
