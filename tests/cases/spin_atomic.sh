# spin holds up an atomic path with its state as it is: under a raw
# spinlock (preemption off) and in a hard interrupt (interrupts off) it
# fires, and the write that waited for the call took the time, by the
# guest's clock; in an NMI it is missed, with the reason.  At a system
# call's entry it holds the caller up, on every kernel (delay needs a
# preemption count to know the path may sleep: not on arm64 6.1).
# expect-out: ^syscall: @sys@getppid spin ms=200 comm=pc-guest hits=1 eligible=1 filtered=0 fired=1 missed=0 context=path$
# expect-out: ^syscall took: at least 200 ms$
# expect: provoke_crash: spin: held up pc-guest\[[0-9]+\] on CPU [0-9]+ for [0-9]+ us \(ms=200\)
# expect-out: ^preempt: pc_paths:pc_target_preempt spin ms=300 hits=1 filtered=0 fired=1 missed=0 context=path$
# expect-out: ^preempt took: at least 300 ms$
# expect-out: ^hardirq: pc_paths:pc_target_hardirq spin ms=300 hits=1 filtered=0 fired=1 missed=0 context=path$
# expect-out: ^hardirq took: at least 300 ms$
# expect: provoke_crash: spin: held up [^ ]+\[[0-9]+\] on CPU [0-9]+ for [0-9]+ us \(ms=300\)
# expect@x86_64: provoke_crash: crashpoints: pc_paths:pc_target_nmi: spin missed: it needs atomic context at most, and the path is in nmi context here
# expect-out@x86_64: ^nmi: pc_paths:pc_target_nmi spin ms=300 hits=1 filtered=0 fired=0 missed=1 context=path$
# expect-out: PC-GUEST-END
# reject: FAIL:|Oops|BUG:|WARNING:|sleeping function called|scheduling while atomic|soft lockup
# shellcheck shell=dash
C=$D/crashpoints
P=/sys/kernel/debug/pc-paths/run
insmod /pc_paths.ko 2>/dev/null
# drive PATH: arm spin at PATH's target, call it once, list it, and say
# whether the driving write took ms=.
drive() {
	pc-guest write "$C" "pc_paths:pc_target_$1 spin ms=300" >/dev/null
	t=$(pc-guest timewrite "$P" "$1 1")
	echo "$1: $(cat "$C")"
	pc-guest write "$C" "\n" >/dev/null
	t=${t#timewrite: }
	t=${t%%.*}
	if [ "$t" -ge 300 ]; then echo "$1 took: at least 300 ms"; else echo "$1 took: $t ms"; fi
}
pc-guest write "$C" "@sys@getppid spin ms=200 comm=pc-guest" >/dev/null
t=$(pc-guest time getppid 1)
echo "syscall: $(cat "$C")"
pc-guest write "$C" "\n" >/dev/null
t=${t##*: }
t=${t%%.*}
if [ "$t" -ge 200000000 ]; then echo "syscall took: at least 200 ms"; else echo "syscall took: $t ns"; fi
drive preempt
drive hardirq
if [ "$(uname -m)" = x86_64 ]; then drive nmi; fi
