# delay at a system call's entry holds the caller up ms=, by the guest's
# own monotonic clock, fires once (times=1), and lets the call return;
# the next call, not held up, is fast again.  comm= keeps the init
# shell's own calls out.  Without a preemption count (Debian's arm64
# 6.1) no path shows that it may sleep, and delay always misses at a
# point (the generated point_delay case): spin_atomic holds a system call
# up there.
# needs: CONFIG_PREEMPT_COUNT
# expect-out: ^armed: write: ok 
# expect-out: ^held: at least 250 ms$
# expect-out: ^after: under 250 ms$
# expect-out: ^listing: @sys@getppid delay ms=250 comm=pc-guest hits=2 eligible=2 filtered=1 fired=1 missed=0 context=path:preempt$
# expect: provoke_crash: @sys@getppid: delay: sleep ms= milliseconds
# expect: provoke_crash: delay: held up pc-guest\[[0-9]+\] on CPU [0-9]+ for [0-9]+ us \(ms=250\)
# expect-out: PC-GUEST-END
# reject: FAIL:|Oops|BUG:|WARNING:|sleeping function called|scheduling while atomic
# shellcheck shell=dash
C=$D/crashpoints
# ns LABEL: one getppid(), timed in the guest; its nanoseconds.
ns() {
	t=$(pc-guest time getppid 1)
	echo "$1: $t" >&2
	t=${t##*: }
	echo "${t%%.*}"
}
echo "armed: $(pc-guest write "$C" "@sys@getppid delay ms=250 comm=pc-guest")"
n=$(ns first)
if [ "$n" -ge 250000000 ]; then echo "held: at least 250 ms"; else echo "held: only $n ns"; fi
n=$(ns second)
if [ "$n" -lt 250000000 ]; then echo "after: under 250 ms"; else echo "after: $n ns"; fi
echo "listing: $(cat "$C")"
pc-guest write "$C" "\n" >/dev/null
