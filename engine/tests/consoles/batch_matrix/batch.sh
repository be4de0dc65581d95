# batch of 3: cases that leave the kernel up
# boot: pc_matrix=nmi init_on_free=1
# part: matrix_nmi_entry_init_on_free_1
# part: matrix_nmi_offset_init_on_free_1
# part: matrix_nmi_return_init_on_free_1
echo 'PC-PART matrix_nmi_entry_init_on_free_1'
echo 'PC-PART matrix_nmi_entry_init_on_free_1' >/dev/kmsg
echo 1 >/sys/kernel/debug/clear_warn_once
C=$D/crashpoints
insmod /pc_paths.ko 2>/dev/null
target=pc_paths:pc_target_nmi
place=$target
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
cell read_buddy_after_free
pc-guest write $D/crashpoints '\n' >/dev/null
echo PC-GUEST-END
echo 'PC-PART matrix_nmi_offset_init_on_free_1'
echo 'PC-PART matrix_nmi_offset_init_on_free_1' >/dev/kmsg
echo 1 >/sys/kernel/debug/clear_warn_once
C=$D/crashpoints
insmod /pc_paths.ko 2>/dev/null
target=pc_paths:pc_target_nmi
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
cell read_buddy_after_free
pc-guest write $D/crashpoints '\n' >/dev/null
echo PC-GUEST-END
echo 'PC-PART matrix_nmi_return_init_on_free_1'
echo 'PC-PART matrix_nmi_return_init_on_free_1' >/dev/kmsg
echo 1 >/sys/kernel/debug/clear_warn_once
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
cell read_buddy_after_free
pc-guest write $D/crashpoints '\n' >/dev/null
echo PC-GUEST-END
