# SPDX-License-Identifier: GPL-2.0
# How tests/run judges a case from what the guest printed, sourced by it:
# the header's expect/reject lines against the console and the output, and
# no report the case did not ask for.  Uses tests/run's $results and
# $guest_timeout.
# shellcheck shell=bash

# Reports no case asks for: our own machinery stopping the kernel before
# the type asked for could (a BUG in the module's point code, "cannot
# resume"), and the kernel's checkers (KASAN, KFENCE, lockdep, RCU, atomic
# sleep, UBSAN).  A case passes with one only if one of its "expect"
# patterns matches that very line.
unasked_re='kernel BUG at [^ ]*/(run_in_path|probe_return|return_landing|return_landing_x86|probe_ftrace|probe_kprobe|control|points|offsets|parse|core|crashtypes)\.c|cannot resume: BUG'
unasked_re+='|BUG: KASAN:|BUG: KFENCE:|possible circular locking|possible recursive locking'
unasked_re+='|inconsistent lock state|suspicious RCU usage|sleeping function called from invalid context'
unasked_re+='|UBSAN:|BUG: using smp_processor_id|BUG: scheduling while atomic|WARNING: bad unlock balance'

# check_unasked FILE CONSOLE: prints the first report of those that none of
# the case's console patterns asked for.
check_unasked() {
	local file=$1 console=$2 line pat asked
	while IFS= read -r line; do
		asked=0
		while IFS= read -r pat; do
			printf '%s\n' "$line" | grep -Eq -- "$pat" && asked=1 && break
		done < <(sed -n 's/^# expect: //p' "$file")
		if [ $asked = 0 ]; then
			echo "a report the case did not ask for: $line"
			return 1
		fi
	done < <(tr -d '\r' <"$console" | grep -E -- "$unasked_re" |
		sed -E 's/^(<[0-9]+>)?\[ *[0-9]+\.[0-9]+\] //' | sort -u)
	return 0
}

# check_case FILE CONSOLE OUTPUT MATCHED: prints the first unmet header
# line; writes to MATCHED, for each expected pattern, the first line that
# met it (the proof the KTAP output shows under "ok").
check_case() {
	local file=$1 console=$2 output=$3 matched=$4 key pat log where hit
	: >"$matched"
	while IFS= read -r line; do
		case $line in
		'# expect: '*) key=expect pat=${line#\# expect: } log=$console where=console ;;
		'# expect-out: '*) key=expect pat=${line#\# expect-out: } log=$output where=out ;;
		'# reject: '*) key=reject pat=${line#\# reject: } log=$console ;;
		'# reject-out: '*) key=reject pat=${line#\# reject-out: } log=$output ;;
		*) continue ;;
		esac
		if [ $key = expect ]; then
			if ! hit=$(tr -d '\r' <"$log" | grep -E -m1 -- "$pat"); then
				echo "missing in $(basename "$log"): $pat"
				return 1
			fi
			# Kernel lines lose their level and timestamp; long ones
			# are cut; a line that met two patterns is shown once.
			hit="#   $where: $(printf '%s' "$hit" |
				sed -E 's/^(<[0-9]+>)?\[ *[0-9]+\.[0-9]+\] //' | cut -c1-160)"
			grep -qxF -- "$hit" "$matched" || echo "$hit" >>"$matched"
		fi
		if [ $key = reject ] && tr -d '\r' <"$log" | grep -Eq -- "$pat"; then
			echo "unexpected in $(basename "$log"): $(tr -d '\r' <"$log" | grep -E -m1 -- "$pat")"
			return 1
		fi
	done <"$file"
	check_unasked "$file" "$console"
}

# judge_case FILE SERIES RC CONSOLE OUTPUT: write the case's result file
# from the guest's exit status and what it printed.
judge_case() {
	local file=$1 series=$2 rc=$3 console=$4 output=$5 name why skip res
	name=$(basename "$file" .sh)
	res=$results/$series-$name
	if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
		why="guest timed out after ${guest_timeout}s"
	elif grep -q PC-INSMOD-FAILED "$output"; then
		why="insmod failed"
	else
		why=$(check_case "$file" "$console" "$output" "$res.matched")
	fi
	skip=$(sed -n 's/^# skip: //p' "$file")
	# A case that finds at run time that it cannot test what it is for
	# says why (PC-SKIP): it is skipped, whatever else it would expect.
	if grep -q '^PC-SKIP ' "$output"; then
		skip=$(tr -d '\r' <"$output" | sed -n 's/^PC-SKIP //p' | head -n 1)
		why=$(check_unasked "$file" "$console")
	fi
	if [ -z "$why" ] && [ -n "$skip" ]; then
		echo "ok $series/$name # SKIP $skip" >"$res.result"
		cat "$res.matched" >>"$res.result"
	elif [ -z "$why" ]; then
		echo "ok $series/$name" >"$res.result"
		cat "$res.matched" >>"$res.result"
	else
		{
			echo "not ok $series/$name"
			echo "# $why"
			echo "# --- console (last 25 lines) ---"
			tr -d '\r' <"$console" | tail -n 25 | sed 's/^/# /'
			echo "# --- output (last 15 lines) ---"
			tr -d '\r' <"$output" | tail -n 15 | sed 's/^/# /'
		} >"$res.result"
	fi
	pc_log "done $series/$name"
}
