# generated crash-point matrix: rcu_stall (hang) at a offset point on a preempt path
# boot: rcupdate.rcu_cpu_stall_timeout=3 sysctl.kernel.panic_on_rcu_stall=1
# smp: 2
# expect: rcu: INFO: rcu_(preempt|sched) (self-)?detected stalls? on CPU
# expect: pc_crash_rcu_stall
# expect: Kernel panic - not syncing: RCU Stall
# after-crash: BUG: scheduling while atomic|sleeping function called from invalid context
# reject: provoke_crash: FAIL:
# reject-out: PC-GUEST-END
C=$D/crashpoints
insmod /pc_paths.ko 2>/dev/null
target=pc_paths:pc_target_preempt
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
		pc-guest write /sys/kernel/debug/pc-paths/run "preempt 1" >/dev/null
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
pc-guest write $C "$place rcu_stall" >/dev/null
pc-guest write /sys/kernel/debug/pc-paths/run "preempt 1"
sleep 60
