# The soft-lockup types (unreachable_loop, spinlockup) are caught by an
# hrtimer on the stuck CPU, so they need the path's interrupts on.  In the
# tick (interrupts off) each is missed, with the reason logged, instead of
# spinning where no detector can ever report it: at the function entry
# (the ftrace callback sees the CPU's state) and at a breakpoint inside
# the function (the handler reads the trapped interrupt flag).  Two vCPUs:
# the tick comes on both.
# smp: 2
# boot: log_buf_len=1M
# expect: crashpoints: update_process_times: unreachable_loop missed: it needs irqs context at most, and the path is in atomic context here
# expect: crashpoints: update_process_times: spinlockup missed: it needs irqs context at most, and the path is in atomic context here
# expect: crashpoints: update_process_times\+0x[0-9a-f]+: unreachable_loop missed: it needs irqs context at most, and the path is in atomic context here
# expect: crashpoints: update_process_times\+0x[0-9a-f]+: spinlockup missed: it needs irqs context at most, and the path is in atomic context here
# expect-out: ^entry: update_process_times unreachable_loop times=-1 hits=([1-9][0-9]*) filtered=0 fired=0 missed=\1 context=path:irqs$
# expect-out: ^entry: update_process_times spinlockup times=-1 hits=([1-9][0-9]*) filtered=0 fired=0 missed=\1 context=path:irqs$
# expect-out: ^breakpoint: update_process_times\+0x[0-9a-f]+ unreachable_loop times=-1 hits=([1-9][0-9]*) filtered=0 fired=0 missed=\1 context=path:irqs$
# expect-out: ^breakpoint: update_process_times\+0x[0-9a-f]+ spinlockup times=-1 hits=([1-9][0-9]*) filtered=0 fired=0 missed=\1 context=path:irqs$
# expect-out: PC-GUEST-END
# reject: Kernel panic|Oops|kernel BUG|FAIL:|soft lockup
# shellcheck shell=dash
C=$D/crashpoints
try() {
	pc-guest write "$C" "$2 times=-1" >/dev/null
	sleep 2
	echo "$1: $(cat "$C")"
	pc-guest write "$C" "\n" >/dev/null
}
try entry "update_process_times unreachable_loop"
try entry "update_process_times spinlockup"
# The first offset past the entry that takes a breakpoint (a report type
# there lists context=nmi; the ftrace call site would list atomic).
echo update_process_times >"$D/offsets"
# shellcheck disable=SC2013 # offsets are words
for off in $(grep '^0x' "$D/offsets" | sed 's/^/+/'); do
	pc-guest write "$C" "update_process_times$off unaligned_load_store" >/dev/null || continue
	nmi=$(grep -c 'context=nmi' "$C")
	pc-guest write "$C" "\n" >/dev/null
	[ "$nmi" = 1 ] || continue
	try breakpoint "update_process_times$off unreachable_loop"
	try breakpoint "update_process_times$off spinlockup"
	break
done
