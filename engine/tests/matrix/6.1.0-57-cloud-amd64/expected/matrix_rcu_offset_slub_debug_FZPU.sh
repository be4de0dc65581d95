# generated crash-point matrix: path rcu, offset points
# boot: slub_debug=FZPU
# batch-ok
# reject: Kernel panic|Oops|kernel BUG|provoke_crash: FAIL:|soft lockup|sleeping function|scheduling while atomic
# expect-out: ^offset: pc_paths:pc_target_rcu\+0x
# expect-out: ^T write_after_free refused: write: error EINVAL
# expect-out: ^T write_after_free log: .*crashpoints: pc_paths:pc_target_[a-z]+(\+0x[0-9a-f]+|%return)?: write_after_free (cannot run in|needs a path in)
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
cell write_after_free
