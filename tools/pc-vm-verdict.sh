# SPDX-License-Identifier: GPL-2.0
# The VM runner's kdump verdict (tools/provoke-crash-vm): after the
# console's verdict (the engine's: pcengine.runner_verdict), what the
# capture kernel saved.  Sourced after pc-vm-runner.sh and pc-kdump.sh.
# shellcheck shell=bash

# pcv_kdump_verdict STATUS WORK REL KEEP TABLE VERDICT: after the engine's
# verdict on the console (its STATUS and lines, VERDICT), what the capture
# kernel saved:
# KEEP gets the dump, the log read from it and the capture's figures, and
# a crash counts only when that log shows the crashed type's expected
# text.  Where the console shows no crash but the dump has a log, the
# verdict is the log's: an oops in NMI context, say, goes straight to the
# capture kernel before the console shows it.
pcv_kdump_verdict() {
	local status=$1 work=$2 rel=$3 keep=$4 table=$5 verdict=$6 type pat missing="" log=()
	echo "=== kdump capture"
	pc_kdump_save "$work/disk.img" "$work/out.log" "$keep"
	case $? in
	0)
		# Only a hit credited to the user's command counts from the dump:
		# its crash lines alone may name any interrupted task.
		if [ "$status" != "$PCV_CRASHED" ] && [ -s "$keep/vmcore-dmesg.txt" ] &&
			[ -n "$(pcv_engine credited "$work" --log "$keep/vmcore-dmesg.txt")" ]; then
			echo "note: the console shows no crash of yours; the verdict reads the log from the dump"
			log=(--log "$keep/vmcore-dmesg.txt")
			verdict=$(pcv_engine verdict "$work" 0 0 "${log[@]}")
			status=$?
		fi
		printf '%s\n' "$verdict"
		;;
	2)
		printf '%s\n' "$verdict"
		echo "provoke-crash-vm: the capture kernel read the crashed kernel's log (in $keep/vmcore-dmesg.txt), but kept no dump; makedumpfile said:"
		tr -d '\r' <"$work/out.log" | sed -n '/^PC-KDUMP-DUMP /,/^PC-KDUMP-DONE/p' | sed '1d;$d;s/^/  /'
		exit "$PCV_NO_CAPTURE"
		;;
	*)
		printf '%s\n' "$verdict"
		echo "(none: no capture kernel ran, or it saved nothing; the console is in $keep if --keep)"
		[ "$status" = "$PCV_CRASHED" ] && {
			echo "provoke-crash-vm: the kernel crashed as asked, but kdump did not capture it"
			exit "$PCV_NO_CAPTURE"
		}
		exit "$status"
		;;
	esac
	pc_kdump_note "$work/out.log" | sed 's/^#   //' | tee "$keep/capture.txt"
	echo "saved in $keep: vmcore ($(stat -c %s "$keep/vmcore") bytes), vmcore-dmesg.txt, capture.txt"
	if [ -n "${PCV_CRASH_TOOL:-}" ]; then
		# crash's bt with no task is the panicking task's.
		echo "=== bt of the task that crashed (crash -s $PCV_VMLINUX $keep/vmcore)"
		printf 'bt\nquit\n' | "$PCV_CRASH_TOOL" -s "$PCV_VMLINUX" "$keep/vmcore" 2>&1 | tee "$keep/bt.txt"
	fi
	[ "$status" = "$PCV_CRASHED" ] || exit "$status"
	type=$(pcv_engine credited "$work" "${log[@]}")
	[ -n "$type" ] || type=$(sed -n 1p "$work/root/pc/trigger" 2>/dev/null)
	if [ -n "$type" ]; then
		while IFS= read -r pat; do
			grep -Eq -- "$pat" "$keep/vmcore-dmesg.txt" || missing="$missing
  $pat"
		done < <(pc_type_patterns "$rel" "$(pcv_type_field "$table" "$type" 6)" kdump)
	fi
	if [ -n "$missing" ]; then
		echo "provoke-crash-vm: the kernel crashed, but the log read from the dump lacks $type's lines:$missing"
		exit "$PCV_NO_CAPTURE"
	fi
	echo "provoke-crash-vm: kdump captured the crash: the log read from the dump shows ${type:-it}"
	exit "$PCV_CRASHED"
}
