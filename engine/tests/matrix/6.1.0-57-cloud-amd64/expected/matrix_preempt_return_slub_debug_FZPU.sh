# generated crash-point matrix: path preempt, return points
# boot: slub_debug=FZPU
# batch-ok
# reject: Kernel panic|Oops|kernel BUG|provoke_crash: FAIL:|soft lockup|sleeping function|scheduling while atomic
# expect-out: ^T write_after_free listing: pc_paths:pc_target_[a-z]+(\+0x[0-9a-f]+|%return)? write_after_free times=-1 hits=1 filtered=0 fired=[01] missed=[01] context=
# expect-out: ^T write_after_free verdict: (fired/text|missed/xfail)$
# expect-out: ^T write_after_free log: .*(BUG kmalloc-1k |BUG: KFENCE: use-after-free write|BUG: KASAN: slab-use-after-free in pc_crash_write_after_free|XFAIL: write_after_free: )
# expect: (BUG kmalloc-1k |BUG: KFENCE: use-after-free write|BUG: KASAN: slab-use-after-free in pc_crash_write_after_free|XFAIL: write_after_free: )
# expect-out: ^T write_after_free log: .*((: |\[)Poison overwritten|KFENCE: use-after-free write|KASAN: slab-use-after-free|XFAIL: write_after_free: )
# expect: ((: |\[)Poison overwritten|KFENCE: use-after-free write|KASAN: slab-use-after-free|XFAIL: write_after_free: )
C=$D/crashpoints
insmod /pc_paths.ko 2>/dev/null
target=pc_paths:pc_target_preempt
place=$target%return
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
cell write_after_free
