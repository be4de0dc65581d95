# generated crash-point matrix: bug_in_hardirq (panic) at a offset point on a rcu path
# boot:
# expect: bug_in_hardirq: in hardirq context: yes
# expect: kernel BUG at .*interrupts\.c
# expect: __hrtimer_run_queues
# expect: Kernel panic - not syncing: Fatal exception in interrupt
# after-crash: BUG: scheduling while atomic|sleeping function called from invalid context|Voluntary context switch within RCU read-side critical section
# reject: provoke_crash: FAIL:
# reject-out: PC-GUEST-END
C=$D/crashpoints
insmod /pc_paths.ko 2>/dev/null
target=pc_paths:pc_target_rcu
place=
echo $target >$D/offsets
for o in $(grep '^0x' $D/offsets); do
	pc-guest write $C "$target+$o unaligned_load_store" >/dev/null || continue
	n=$(grep -c 'context=nmi' $C)
	pc-guest write $C "\n" >/dev/null
	[ "$n" = 1 ] && place=$target+$o && break
done
echo "offset: ${place:-none}"
cell() {
	dmesg -c >/dev/null
	echo 1 >/sys/kernel/debug/clear_warn_once
	r=$(pc-guest write $C "$place $1 times=-1")
	case $r in
	*error*) echo "T $1 refused: $r" ;;
	*)
		pc-guest write /sys/kernel/debug/pc-paths/run "rcu 1" >/dev/null
		l=$(cat $C)
		echo "T $1 listing: $l"
		pc-guest write $C "\n" >/dev/null
		;;
	esac
	dmesg | sed "s/^/T $1 log: /"
	# Fired in its own words, or missed with its XFAIL line.
	x=text
	dmesg | grep -q "XFAIL: $1: " && x=xfail
	case $l in
	*" fired=1 missed=0 "*) echo "T $1 verdict: fired/$x" ;;
	*" fired=0 missed=1 "*) echo "T $1 verdict: missed/$x" ;;
	esac
	l=
}
pc-guest write $C "$place bug_in_hardirq" >/dev/null
pc-guest write /sys/kernel/debug/pc-paths/run "rcu 1"
