# generated crash-point matrix, 2 CPUs in one path at once: offset points
# smp: 2
# boot: log_buf_len=4M
# reject: Kernel panic|Oops|kernel BUG|provoke_crash: FAIL:|soft lockup|sleeping function|scheduling while atomic|pc_paths: .*error
# reject: WARNING: .* at [^ ]*(kernel/kprobes|kernel/trace/[a-z_]+|/(run_in_path|probe_return|return_landing|return_landing_x86|probe_ftrace|probe_kprobe|control|points|offsets|parse|core|crashtypes))\.c
# reject-out: T [a-z]+ [a-z0-9_]+ drive: 
# expect-out: ^cpus: 2$
# expect-out: ^offset task: pc_paths:pc_target_task\+0x
# expect-out: ^offset softirq: pc_paths:pc_target_softirq\+0x
# expect-out: ^offset hardirq: pc_paths:pc_target_hardirq\+0x
# expect-out: ^T task report listing: pc_paths:pc_target_task\+0x[0-9a-f]+ report times=4 hits=6 (filtered=2 fired=4 missed=0 context=[^ ]+ calls=6 runs=4|filtered=0 fired=0 missed=6 context=[^ ]+ calls=6 runs=6)$
# expect-out: ^T task report verdict: (fired/text|missed/xfail)$
# expect-out: ^T task report log: .*(report: hit by [^ ]+\[[0-9]+\] on CPU [0-9]+|XFAIL: report: )
# expect: (report: hit by [^ ]+\[[0-9]+\] on CPU [0-9]+|XFAIL: report: )
# expect-out: ^T task report log: .*(Call Trace:|XFAIL: report: )
# expect: (Call Trace:|XFAIL: report: )
# expect-out: ^T softirq report listing: pc_paths:pc_target_softirq\+0x[0-9a-f]+ report times=4 hits=6 (filtered=2 fired=4 missed=0 context=[^ ]+ calls=6 runs=4|filtered=0 fired=0 missed=6 context=[^ ]+ calls=6 runs=6)$
# expect-out: ^T softirq report verdict: (fired/text|missed/xfail)$
# expect-out: ^T softirq report log: .*(report: hit by [^ ]+\[[0-9]+\] on CPU [0-9]+|XFAIL: report: )
# expect: (report: hit by [^ ]+\[[0-9]+\] on CPU [0-9]+|XFAIL: report: )
# expect-out: ^T softirq report log: .*(Call Trace:|XFAIL: report: )
# expect: (Call Trace:|XFAIL: report: )
# expect-out: ^T hardirq report listing: pc_paths:pc_target_hardirq\+0x[0-9a-f]+ report times=4 hits=6 (filtered=2 fired=4 missed=0 context=[^ ]+ calls=6 runs=4|filtered=0 fired=0 missed=6 context=[^ ]+ calls=6 runs=6)$
# expect-out: ^T hardirq report verdict: (fired/text|missed/xfail)$
# expect-out: ^T hardirq report log: .*(report: hit by [^ ]+\[[0-9]+\] on CPU [0-9]+|XFAIL: report: )
# expect: (report: hit by [^ ]+\[[0-9]+\] on CPU [0-9]+|XFAIL: report: )
# expect-out: ^T hardirq report log: .*(Call Trace:|XFAIL: report: )
# expect: (Call Trace:|XFAIL: report: )
# expect-out: ^T softirq oops_softirq_context listing: pc_paths:pc_target_softirq\+0x[0-9a-f]+ oops_softirq_context times=4 hits=6 filtered=0 fired=0 missed=6 context=[^ ]+ calls=6 runs=0$
# expect-out: ^T softirq oops_softirq_context log: .*crashpoints: pc_paths:pc_target_softirq\+0x[0-9a-f]+: oops_softirq_context missed: it needs preempt context at most, and the path is in irqs context here
# expect-out: ^T hardirq oops_softirq_context listing: pc_paths:pc_target_hardirq\+0x[0-9a-f]+ oops_softirq_context times=4 hits=6 filtered=0 fired=0 missed=6 context=[^ ]+ calls=6 runs=0$
# expect-out: ^T hardirq oops_softirq_context log: .*crashpoints: pc_paths:pc_target_hardirq\+0x[0-9a-f]+: oops_softirq_context missed: it needs preempt context at most, and the path is in atomic context here
# expect-out: ^T task array_bounds refused: write: error EINVAL
# expect-out: ^T task array_bounds log: .*crashpoints: pc_paths:pc_target_task\+0x[0-9a-f]+: array_bounds (cannot run in|needs a path in)
# expect-out: ^T softirq array_bounds refused: write: error EINVAL
# expect-out: ^T softirq array_bounds log: .*crashpoints: pc_paths:pc_target_softirq\+0x[0-9a-f]+: array_bounds (cannot run in|needs a path in)
# expect-out: ^T hardirq array_bounds refused: write: error EINVAL
# expect-out: ^T hardirq array_bounds log: .*crashpoints: pc_paths:pc_target_hardirq\+0x[0-9a-f]+: array_bounds (cannot run in|needs a path in)
# expect-out: ^T task vmalloc_linear_overflow refused: write: error EINVAL
# expect-out: ^T task vmalloc_linear_overflow log: .*crashpoints: pc_paths:pc_target_task\+0x[0-9a-f]+: vmalloc_linear_overflow (cannot run in|needs a path in)
# expect-out: ^T softirq vmalloc_linear_overflow refused: write: error EINVAL
# expect-out: ^T softirq vmalloc_linear_overflow log: .*crashpoints: pc_paths:pc_target_softirq\+0x[0-9a-f]+: vmalloc_linear_overflow (cannot run in|needs a path in)
# expect-out: ^T hardirq vmalloc_linear_overflow refused: write: error EINVAL
# expect-out: ^T hardirq vmalloc_linear_overflow log: .*crashpoints: pc_paths:pc_target_hardirq\+0x[0-9a-f]+: vmalloc_linear_overflow (cannot run in|needs a path in)
C=$D/crashpoints
P=/sys/kernel/debug/pc-paths/run
insmod /pc_paths.ko 2>/dev/null
echo "cpus: $(grep -c '^processor' /proc/cpuinfo)"
T=4 M=3 H=6
t=pc_paths:pc_target_task place_task=
echo $t >$D/offsets
for o in $(grep '^0x' $D/offsets); do
	pc-guest write $C "$t+$o unaligned_load_store" >/dev/null || continue
	n=$(grep -c 'context=nmi' $C)
	pc-guest write $C "\n" >/dev/null
	[ "$n" = 1 ] && place_task=$t+$o && break
done
echo "offset task: ${place_task:-none}"
t=pc_paths:pc_target_softirq place_softirq=
echo $t >$D/offsets
for o in $(grep '^0x' $D/offsets); do
	pc-guest write $C "$t+$o unaligned_load_store" >/dev/null || continue
	n=$(grep -c 'context=nmi' $C)
	pc-guest write $C "\n" >/dev/null
	[ "$n" = 1 ] && place_softirq=$t+$o && break
done
echo "offset softirq: ${place_softirq:-none}"
t=pc_paths:pc_target_hardirq place_hardirq=
echo $t >$D/offsets
for o in $(grep '^0x' $D/offsets); do
	pc-guest write $C "$t+$o unaligned_load_store" >/dev/null || continue
	n=$(grep -c 'context=nmi' $C)
	pc-guest write $C "\n" >/dev/null
	[ "$n" = 1 ] && place_hardirq=$t+$o && break
done
echo "offset hardirq: ${place_hardirq:-none}"
cell() {
	dmesg -c >/dev/null
	echo 1 >/sys/kernel/debug/clear_warn_once
	eval "place=\$place_$1"
	r=$(pc-guest write $C "$place $2 times=$T")
	case $r in
	*error*) echo "T $1 $2 refused: $r" ;;
	*)
		c=$(cat $P)
		d=$(pc-guest write $P "$1 $M all")
		c=$(($(cat $P) - c))
		l=$(cat $C)
		pc-guest write $C "\n" >/dev/null
		n=$(dmesg | grep -cF "provoke_crash: $place: $2: ")
		echo "T $1 $2 listing: $l calls=$c runs=$n"
		case $d in *error*) echo "T $1 $2 drive: $d" ;; esac
		x=text
		dmesg | grep -q "XFAIL: $2: " && x=xfail
		case $l in
		*" fired=$T missed=0 "*) echo "T $1 $2 verdict: fired/$x" ;;
		*" fired=0 missed=$H "*) echo "T $1 $2 verdict: missed/$x" ;;
		esac
		;;
	esac
	dmesg | sed "s/^/T $1 $2 log: /"
}
cell task report
cell softirq report
cell hardirq report
cell softirq oops_softirq_context
cell hardirq oops_softirq_context
cell task array_bounds
cell softirq array_bounds
cell hardirq array_bounds
cell task vmalloc_linear_overflow
cell softirq vmalloc_linear_overflow
cell hardirq vmalloc_linear_overflow
