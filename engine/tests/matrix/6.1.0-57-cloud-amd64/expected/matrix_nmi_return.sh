# generated crash-point matrix: path nmi, return points
# boot:
# batch-ok
# reject: Kernel panic|Oops|kernel BUG|provoke_crash: FAIL:|soft lockup|sleeping function|scheduling while atomic
# expect-out: ^T report listing: pc_paths:pc_target_[a-z]+(\+0x[0-9a-f]+|%return)? report times=-1 hits=1 filtered=0 fired=[01] missed=[01] context=
# expect-out: ^T report verdict: (fired/text|missed/xfail)$
# expect-out: ^T report log: .*(report: hit by [^ ]+\[[0-9]+\] on CPU [0-9]+|XFAIL: report: )
# expect: (report: hit by [^ ]+\[[0-9]+\] on CPU [0-9]+|XFAIL: report: )
# expect-out: ^T report log: .*(Call Trace:|XFAIL: report: )
# expect: (Call Trace:|XFAIL: report: )
# expect-out: ^T oops_softirq_context refused: write: error EINVAL
# expect-out: ^T oops_softirq_context log: .*crashpoints: pc_paths:pc_target_[a-z]+(\+0x[0-9a-f]+|%return)?: oops_softirq_context (cannot run in|needs a path in)
# expect-out: ^T rcu_stall refused: write: error EOPNOTSUPP
# expect-out: ^T rcu_stall log: .*crashpoints: pc_paths:pc_target_[a-z]+(\+0x[0-9a-f]+|%return)?: rcu_stall needs a second CPU to be seen, and only one is online
C=$D/crashpoints
insmod /pc_paths.ko 2>/dev/null
target=pc_paths:pc_target_nmi
place=$target%return
cell() {
	dmesg -c >/dev/null
	echo 1 >/sys/kernel/debug/clear_warn_once
	r=$(pc-guest write $C "$place $1 times=-1")
	case $r in
	*error*) echo "T $1 refused: $r" ;;
	*)
		pc-guest write /sys/kernel/debug/pc-paths/run "nmi 1" >/dev/null
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
cell report
cell oops_softirq_context
cell rcu_stall
