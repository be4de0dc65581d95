# SPDX-License-Identifier: GPL-2.0
# The crash-type matrix printed at the end of a run, sourced by tests/run.
# Uses tests/bench-step's $kernels, $results and $PC_OUT.
# shellcheck shell=bash

# matrix_cell SERIES CASE: what became of one generated case.
matrix_cell() {
	: "${results?}" # tests/bench-step sets them
	local r=$results/$1-$2.result
	if [ ! -s "$r" ]; then
		echo "n/r"
	elif head -n 1 "$r" | grep -q '^not ok'; then
		echo "FAIL"
	elif head -n 1 "$r" | grep -q '# SKIP'; then
		echo "skip"
	else
		echo "pass"
	fi
}

# print_matrix: every crash type of the table, fired directly and at a
# point, on every kernel of the run, as KTAP diagnostics.
print_matrix() {
	: "${kernels?}" # tests/bench-step sets them
	local series rel name context fate seen="" head="type                        ctx   " cells kd
	local -A ctx=() fatal=()
	for series in $kernels; do
		head="$head $(printf '%-9s %-9s %-9s' "$series" "" "")"
		rel=$(pc_kernel_release "$series")
		while IFS=$'\t' read -r name _ context fate _; do
			[ -n "${ctx[$name]:-}" ] && continue
			ctx[$name]=$context
			case $fate in oops | panic | hang) fatal[$name]=1 ;; esac
			seen="$seen $name"
		done <"$PC_OUT/$rel/cases/types.tsv"
	done
	echo "# crash types x (direct, point, kdump) x kernel: pass, skip (reason on"
	echo "# its KTAP line), FAIL; '-' needs task context, so it is never armed at"
	echo "# a point, or is not fatal, so kdump has nothing to capture; 'refused'"
	echo "# runs on another arch only; n/r not in this run.  kdump is the type"
	echo "# fired directly with a capture kernel loaded ('+pt': at a point too)"
	echo "$head" | sed 's/^/# /; s/ *$//'
	echo "# $(printf '%-28s %-6s' '' '')$(for series in $kernels; do printf ' %-9s %-9s %-9s' direct point kdump; done)"
	for name in $seen; do
		cells=""
		for series in $kernels; do
			kd=-
			if [ -n "${fatal[$name]:-}" ]; then
				kd=$(matrix_cell "$series" "kdump_$name")
				[ -s "$results/$series-kdump_point_$name.result" ] &&
					kd="$kd+pt$(matrix_cell "$series" "kdump_point_$name" | sed 's/^pass$//; s/^/:/; s/^:$//')"
			fi
			if [ -s "$results/$series-refused_$name.result" ]; then
				cells="$cells $(printf '%-9s %-9s %-9s' \
					"$(matrix_cell "$series" "refused_$name" | sed 's/pass/refused/')" "" "")"
			elif [ "${ctx[$name]}" = task ]; then
				cells="$cells $(printf '%-9s %-9s %-9s' "$(matrix_cell "$series" "direct_$name")" - "$kd")"
			else
				cells="$cells $(printf '%-9s %-9s %-9s' "$(matrix_cell "$series" "direct_$name")" \
					"$(matrix_cell "$series" "point_$name")" "$kd")"
			fi
		done
		printf '# %-28s %-6s%s\n' "$name" "${ctx[$name]}" "$cells" | sed 's/ *$//'
	done
}
