# generated crash-point matrix: oops_softirq_context (panic) at a entry point on a task path
# boot:
# expect: oops_softirq_context: in softirq context: yes
# expect: BUG: kernel NULL pointer dereference
# expect: run_timer_softirq
# expect: Kernel panic - not syncing: Fatal exception in interrupt
# reject: provoke_crash: FAIL:
# reject-out: PC-GUEST-END
C=$D/crashpoints
insmod /pc_paths.ko 2>/dev/null
target=pc_paths:pc_target_task
place=$target
cell() {
	dmesg -c >/dev/null
	echo 1 >/sys/kernel/debug/clear_warn_once
	r=$(pc-guest write $C "$place $1 times=-1")
	case $r in
	*error*) echo "T $1 refused: $r" ;;
	*)
		pc-guest write /sys/kernel/debug/pc-paths/run "task 1" >/dev/null
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
pc-guest write $C "$place oops_softirq_context" >/dev/null
pc-guest write /sys/kernel/debug/pc-paths/run "task 1"
