# SPDX-License-Identifier: GPL-2.0
# The VM runner's verdicts (tools/provoke-crash-vm): the last line and
# the exit status, read from what pcv_scan found on the guest's console,
# and with --kdump from what the capture kernel saved.  Sourced after
# pc-vm-runner.sh and pc-kdump.sh.
# shellcheck shell=bash

# pcv_credited TABLE: the index of the first hit credited to the user's
# command (while it ran, not in PID 1) of a fatal type, if any: the
# crash the verdicts name.
pcv_credited() {
	local k
	for k in "${!PCV_HIT_AT[@]}"; do
		if [ "${PCV_HIT_WHEN[k]}" = run ] && [ "${PCV_HIT_PID[k]}" != 1 ]; then
			case $(pcv_type_field "$1" "${PCV_HIT_TYPE[k]}" 4) in
			oops | panic | hang) echo "$k" && return ;;
			esac
		fi
	done
}

# pcv_verdict WORK RC TIMEOUT TABLE: the last line and the exit status.
# A crash counts when a hit of a fatal type, or a crash line, came after
# the start marker, before the end marker, in a task other than PID 1.
pcv_verdict() {
	local work=$1 rc=$2 timeout=$3 table=$4 out k pid fate credited="" report="" own=""
	out=$(tr -d '\r' <"$work/out.log")
	if printf '%s\n' "$out" | grep -q '^PC-INSMOD-FAILED'; then
		echo "provoke-crash-vm: the guest could not load the module (see the console: --keep DIR)"
		exit "$PCV_SETUP"
	fi
	if printf '%s\n' "$out" | grep -Eq '^PC-(ARM|TRIGGER)-REFUSED'; then
		k=$(printf '%s\n' "$out" | grep -E '^(write: error|PC-WHY)' |
			sed -E 's/^PC-WHY (\[ *[0-9.]+\] )?//')
		echo "provoke-crash-vm: the module refused $(printf '%s\n' "$out" |
			grep -q '^PC-ARM-REFUSED' && echo "to arm the points" || echo "the trigger"); nothing ran:"
		printf '%s\n' "${k:-(the module logged no reason)}" | sed 's/^/  /'
		exit "$PCV_REFUSED"
	fi
	# "by COMM[PID]" where the console named the task.
	by() { [ -n "${PCV_HIT_PID[$1]}" ] && echo ", hit by ${PCV_HIT_COMM[$1]}[${PCV_HIT_PID[$1]}]"; }
	for k in "${!PCV_HIT_AT[@]}"; do
		pid=${PCV_HIT_PID[k]} fate=$(pcv_type_field "$table" "${PCV_HIT_TYPE[k]}" 4)
		if [ "${PCV_HIT_WHEN[k]}" != run ] || [ "$pid" = 1 ]; then
			own="$own ${PCV_HIT_TYPE[k]}"
			echo "note: not credited: ${PCV_HIT_WHERE[k]} ${PCV_HIT_TYPE[k]} hit by" \
				"$([ "$pid" = 1 ] && echo "the runner's own shell (PID 1)" || echo "${PCV_HIT_COMM[k]:-a task}[${pid:-?}]")" \
				"$([ "${PCV_HIT_WHEN[k]}" != run ] && echo "after your command ended" || echo "after arming");" \
				"narrow the point with comm= or pid="
			continue
		fi
		case $fate in
		oops | panic | hang) ;;
		*) [ -z "$report" ] && report=$k ;;
		esac
	done
	credited=$(pcv_credited "$table")
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		[ -n "$credited" ] && echo "note: ${PCV_HIT_TYPE[credited]} was hit$(by "$credited"), and the guest never ended"
		echo "provoke-crash-vm: timed out after ${timeout}s"
		exit "$PCV_TIMEOUT"
	fi
	if [ -n "$credited" ] && [ -n "$PCV_CRASH_AT" ] && [ "$PCV_CRASH_PID" != 1 ]; then
		# A name written to DIRECT runs its type, wherever the points are.
		k=${PCV_HIT_WHERE[credited]}
		if [[ $k == 'DIRECT('*')' ]]; then
			k=${k#DIRECT(}
			echo "provoke-crash-vm: the kernel crashed from DIRECT, not at an armed point:" \
				"${k%)} (${PCV_HIT_TYPE[credited]})$(by "$credited" | sed 's/ hit by / written by /'):" \
				"${PCV_LINES[PCV_CRASH_AT]}"
		else
			echo "provoke-crash-vm: the kernel crashed as asked: ${PCV_HIT_TYPE[credited]}$(by "$credited"):" \
				"${PCV_LINES[PCV_CRASH_AT]}"
		fi
		exit "$PCV_CRASHED"
	fi
	if [ -n "$PCV_FAIL" ]; then
		echo "provoke-crash-vm: the kernel survived: ${PCV_FAIL#provoke_crash: }"
		exit "$PCV_SURVIVED"
	fi
	if [ -z "$credited" ] && [ -n "$PCV_CRASH_AT" ] && [ -n "$PCV_CRASH_PID" ] && [ "$PCV_CRASH_PID" != 1 ]; then
		echo "provoke-crash-vm: the kernel crashed while your command ran, but not at an armed point: ${PCV_LINES[PCV_CRASH_AT]}"
		exit "$PCV_CRASHED"
	fi
	if [ -n "$report" ]; then
		echo "provoke-crash-vm: reported as asked, the kernel went on: ${PCV_HIT_TYPE[report]}$(by "$report")"
		exit "$PCV_REPORTED"
	fi
	if [ -n "$own" ]; then
		echo "provoke-crash-vm: the kernel survived your command (the crash came from the runner's own steps, see the note)"
	else
		echo "provoke-crash-vm: the kernel survived"
	fi
	exit "$PCV_SURVIVED"
}

# pcv_kdump_verdict STATUS WORK REL KEEP TABLE VERDICT: after pcv_verdict's
# STATUS and lines (VERDICT) on the console, what the capture kernel saved:
# KEEP gets the dump, the log read from it and the capture's figures, and
# a crash counts only when that log shows the crashed type's expected
# text.  Where the console shows no crash but the dump has a log, the
# verdict is the log's: an oops in NMI context, say, goes straight to the
# capture kernel before the console shows it.
pcv_kdump_verdict() {
	local status=$1 work=$2 rel=$3 keep=$4 table=$5 verdict=$6 type pat k missing=""
	echo "=== kdump capture"
	pc_kdump_save "$work/disk.img" "$work/out.log" "$keep"
	case $? in
	0)
		if [ "$status" != "$PCV_CRASHED" ] && [ -s "$keep/vmcore-dmesg.txt" ]; then
			# Only a hit credited to the user's command counts from the
			# dump: its crash lines alone may name any interrupted task.
			pcv_scan "$work" "$table" "$keep/vmcore-dmesg.txt"
			if [ -n "$(pcv_credited "$table")" ]; then
				echo "note: the console shows no crash of yours; the verdict reads the log from the dump"
				verdict=$(pcv_verdict "$work" 0 0 "$table")
				status=$?
			else
				pcv_scan "$work" "$table"
			fi
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
	k=$(pcv_credited "$table")
	type=${k:+${PCV_HIT_TYPE[k]}}
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
