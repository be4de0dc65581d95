# delay where the path may not sleep: under a raw spinlock (preemption
# off) and in a hard interrupt, the hit counts as missed, with the reason
# logged once per point; in the writer's own path it sleeps, and the
# write that drove it took the time.  Nothing sleeps in atomic context.
# Without a preemption count even the task path misses: point_delay.
# needs: CONFIG_PREEMPT_COUNT
# expect-out: ^preempt: pc_paths:pc_target_preempt delay ms=200 times=-1 hits=2 filtered=0 fired=0 missed=2 context=path:preempt$
# expect: provoke_crash: crashpoints: pc_paths:pc_target_preempt: delay missed: it needs preempt context at most, and the path is in irqs context here
# expect-out: ^hardirq: pc_paths:pc_target_hardirq delay ms=200 times=-1 hits=2 filtered=0 fired=0 missed=2 context=path:preempt$
# expect: provoke_crash: crashpoints: pc_paths:pc_target_hardirq: delay missed: it needs preempt context at most, and the path is in atomic context here
# expect-out: ^task: pc_paths:pc_target_task delay ms=200 times=-1 hits=1 filtered=0 fired=1 missed=0 context=path:preempt$
# expect-out: ^task took: at least 200 ms$
# expect: provoke_crash: delay: held up pc-guest\[[0-9]+\] on CPU [0-9]+ for [0-9]+ us \(ms=200\)
# expect-out: PC-GUEST-END
# reject: FAIL:|Oops|BUG:|WARNING:|sleeping function called|scheduling while atomic
# shellcheck shell=dash
C=$D/crashpoints
P=/sys/kernel/debug/pc-paths/run
insmod /pc_paths.ko 2>/dev/null
# drive PATH N: arm delay at PATH's target, call it N times, list it;
# print how long the driving write took, in whole ms.
drive() {
	pc-guest write "$C" "pc_paths:pc_target_$1 delay ms=200 times=-1" >/dev/null
	t=$(pc-guest timewrite "$P" "$1 $2")
	echo "$1: $(cat "$C")"
	pc-guest write "$C" "\n" >/dev/null
	t=${t#timewrite: }
	echo "${t%%.*}" >"/tmp/took-$1"
}
dmesg -c >/dev/null
drive preempt 2
drive hardirq 2
drive task 1
if [ "$(cat /tmp/took-task)" -ge 200 ]; then echo "task took: at least 200 ms"; else echo "task took: $(cat /tmp/took-task) ms"; fi
