# A function entry that other ftrace users trace too: the function tracer,
# filtered to it, and a kprobe event there (on x86-64 a kprobe on the same
# ftrace call site).  The site is shared, so ftrace calls the point's
# callback through its list function, which holds a level of preemption
# of its own.  Every user sees every call; the point counts each hit once
# (filtered by pid=, or fired), and sees the path's own context: not
# preemptible under rcu_read_lock() in __d_lookup_rcu() (a type that needs
# a preemptible path is missed there), preemptible at a syscall's entry,
# where that type fires last (its oops in a softirq panics the guest).
# expect-out: ^shared: tracer=function kprobe=(yes|no) filter: .*sys_getppid .*__d_lookup_rcu
# expect-out@x86_64: ^shared: tracer=function kprobe=yes filter: 
# arm64's kprobes never use ftrace: there the point is a BRK probe.
# expect-out@x86_64: ^filtered: @sys@getppid report times=-1 pid=[0-9]+ hits=5 eligible=0 filtered=5 fired=0 missed=0 context=atomic$
# expect-out@arm64: ^filtered: @sys@getppid report times=-1 pid=[0-9]+ hits=5 eligible=0 filtered=5 fired=0 missed=0 context=nmi$
# expect-out@x86_64: ^fired: @sys@getppid report times=-1 hits=3 filtered=0 fired=3 missed=0 context=atomic$
# expect-out@arm64: ^fired: @sys@getppid report times=-1 hits=3 filtered=0 fired=3 missed=0 context=nmi$
# expect-out: ^traced: 8$
# expect-out@x86_64: ^kprobe hits: 8$
# expect-out: ^rcu: __d_lookup_rcu oops_softirq_context times=-1 comm=pc-guest hits=[1-9][0-9]* eligible=([1-9][0-9]*) filtered=[0-9]+ fired=0 missed=\1 context=path:preempt$
# expect-out: ^rcu traced: [1-9][0-9]*$
# expect-out: ^fatal: @sys@getppid oops_softirq_context hits=0 filtered=0 fired=0 missed=0 context=path:preempt$
# expect: crashpoints: __d_lookup_rcu: oops_softirq_context missed: it needs preempt context at most, and the path is in irqs context here
# expect: provoke_crash: @sys@getppid: oops_softirq_context: 
# expect: oops_softirq_context: in softirq context: yes
# expect: Kernel panic - not syncing
# reject: the path is in (atomic|nmi|preempt) context here|@sys@getppid: oops_softirq_context missed|FAIL:
# shellcheck shell=dash
C=$D/crashpoints
T=/sys/kernel/tracing
[ -e $T/trace ] || mount -t tracefs nodev $T
case $(uname -m) in
x86_64) sym=__x64_sys_getppid ;;
*) sym=__arm64_sys_getppid ;;
esac
# On arm64 6.1 kprobes cannot take an ftrace call site: the event, if
# the kernel takes it, is a breakpoint beside it.
kp=no
if echo "p:pcshared $sym" >>$T/kprobe_events 2>/dev/null &&
	echo "p:pcrcu __d_lookup_rcu" >>$T/kprobe_events 2>/dev/null; then
	echo 1 >$T/events/kprobes/enable && kp=yes
fi
# By name ftrace may list the syscall under another alias: a glob.
echo '*sys_getppid' >$T/set_ftrace_filter
echo __d_lookup_rcu >>$T/set_ftrace_filter
echo function >$T/current_tracer
echo >$T/trace
echo "shared: tracer=$(cat $T/current_tracer) kprobe=$kp filter: $(tr '\n' ' ' <$T/set_ftrace_filter)"

sleep 30 &
other=$!
pc-guest write "$C" "@sys@getppid report times=-1 pid=$other" >/dev/null
pc-guest hit getppid 5 >/dev/null
echo "filtered: $(cat "$C")"
pc-guest write "$C" "\n" >/dev/null
kill $other
pc-guest write "$C" "@sys@getppid report times=-1" >/dev/null
pc-guest hit getppid 3 >/dev/null
echo "fired: $(cat "$C")"
pc-guest write "$C" "\n" >/dev/null
echo "traced: $(grep -c "sys_getppid <-" $T/trace)"
[ $kp = yes ] &&
	echo "kprobe hits: $(awk '$1 == "pcshared" { print $2 }' $T/kprobe_profile)"

echo >$T/trace
pc-guest write "$C" "__d_lookup_rcu oops_softirq_context times=-1 comm=pc-guest" >/dev/null
pc-guest read /proc/version >/dev/null
echo "rcu: $(cat "$C")"
pc-guest write "$C" "\n" >/dev/null
echo "rcu traced: $(grep -c ': __d_lookup_rcu <-' $T/trace)"

pc-guest write "$C" "@sys@getppid oops_softirq_context" >/dev/null
echo "fatal: $(cat "$C")"
pc-guest hit getppid 1
