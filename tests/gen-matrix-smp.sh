# SPDX-License-Identifier: GPL-2.0
# The crash-point matrix's 2-CPU cells, sourced by tests/gen-matrix.sh:
# "on 2 vCPUs, with another CPU in the same path".  One guest of 2 vCPUs
# per kind of point (matrix_smp_entry, _offset, _return), each with every
# type that does not take the guest down, on three paths: task (a kernel
# thread per CPU), softirq and hardirq (interrupts off).  pc_paths.ko's
# "KIND M all" makes M calls on both CPUs at once, so that the two are
# in the path together, and hit the one point together.  Each cell:
#   refused  the write fails with EINVAL and its one log line, as on one
#            CPU;
#   missed   armed with times=T, every hit of both CPUs counts as missed
#            (hits = missed = the calls pc_paths made, filtered 0, fired
#            0: a claim given back is never lost), the reason logged;
#   fired    armed with times=T, T < the calls: exactly T fire, the rest
#            are filtered, none missed, and the type's routine ran T
#            times (its log line) with its kernel text; or, where this
#            kernel cannot catch the type, every hit missed with its
#            XFAIL line.
# Counters are held to what pc_paths counts, not to each other: the
# listing's filtered is hits - fired - missed by construction.
# Not in these cells, where they would fire: the types that take the
# guest down (the fatal cells), a type that needs a boot line of its own
# (slub_debug's, init_on_free's), and one that reports each place once
# a boot (fortify, bounds, overflow): the one-CPU matrix has them.
# Generated with PC_MATRIX_SCOPE=kernels or full only: three guests of
# about a minute each is more than CI's budget holds.
# Uses gen-matrix.sh's matrix_paths state, matrix_predict, matrix_needs
# and matrix_patterns.
# shellcheck shell=bash
# The case's own shell is written in single quotes on purpose:
# shellcheck disable=SC2016

# The paths of the 2-CPU cells, the calls each CPU makes per cell, and
# the times= each cell arms with (more than one CPU's calls, fewer than
# both CPUs': both CPUs must fire for it, and some hits are left over).
matrix_smp_paths="task softirq hardirq"
matrix_smp_cpus=2
matrix_smp_calls=3
matrix_smp_times=4

# matrix_smp_place PATH KIND: the ERE of the place a cell's point is at.
matrix_smp_place() {
	case $2 in
	entry) echo "pc_paths:pc_target_$1" ;;
	offset) echo "pc_paths:pc_target_$1\\+0x[0-9a-f]+" ;;
	return) echo "pc_paths:pc_target_$1%return" ;;
	esac
}

# matrix_smp_checks PATH KIND NAME OUTCOME PATTERNS: a cell's header lines.
matrix_smp_checks() {
	local path=$1 kind=$2 name=$3 outcome=$4 pats=$5 pat need here place t
	local h=$((matrix_smp_cpus * matrix_smp_calls)) n=$matrix_smp_times
	place=$(matrix_smp_place "$path" "$kind")
	t="^T $path $name"
	case $outcome in
	refused)
		echo "# expect-out: $t refused: write: error EINVAL"
		echo "# expect-out: $t log: .*crashpoints: $place: $name (cannot run in|needs a path in)"
		;;
	missed*)
		read -r _ need here <<<"$outcome"
		echo "# expect-out: $t listing: $place $name times=$n hits=$h filtered=0 fired=0 missed=$h context=[^ ]+ calls=$h runs=0$"
		echo "# expect-out: $t log: .*crashpoints: $place: $name missed: it needs $need context at most, and the path is in $here context here"
		;;
	fired)
		echo "# expect-out: $t listing: $place $name times=$n hits=$h (filtered=$((h - n)) fired=$n missed=0 context=[^ ]+ calls=$h runs=$n|filtered=0 fired=0 missed=$h context=[^ ]+ calls=$h runs=$h)$"
		echo "# expect-out: $t verdict: (fired/text|missed/xfail)$"
		while IFS= read -r pat; do
			[ -n "$pat" ] || continue
			echo "# expect-out: $t log: .*($pat|XFAIL: $name: )"
			echo "# expect: ($pat|XFAIL: $name: )"
		done <<<"$pats"
		;;
	esac
}

# The guest's shell: the place of each path's point, then cell PATH TYPE.
matrix_smp_prologue() {
	local kind=$1 path
	printf '%s\n' 'C=$D/crashpoints' 'P=/sys/kernel/debug/pc-paths/run' \
		'insmod /pc_paths.ko 2>/dev/null' \
		"echo \"cpus: \$(grep -c '^processor' /proc/cpuinfo)\"" \
		"T=$matrix_smp_times M=$matrix_smp_calls H=$((matrix_smp_cpus * matrix_smp_calls))"
	for path in $matrix_smp_paths; do
		case $kind in
		entry) echo "place_$path=pc_paths:pc_target_$path" ;;
		return) echo "place_$path=pc_paths:pc_target_$path%return" ;;
		offset)
			# The first offset past the entry that takes a breakpoint.
			printf '%s\n' "t=pc_paths:pc_target_$path place_$path=" \
				'echo $t >$D/offsets' \
				"for o in \$(grep '^0x' \$D/offsets); do" \
				'	pc-guest write $C "$t+$o unaligned_load_store" >/dev/null || continue' \
				"	n=\$(grep -c 'context=nmi' \$C)" \
				'	pc-guest write $C "\n" >/dev/null' \
				"	[ \"\$n\" = 1 ] && place_$path=\$t+\$o && break" \
				'done' "echo \"offset $path: \${place_$path:-none}\""
			;;
		esac
	done
	printf '%s\n' 'cell() {' \
		'	dmesg -c >/dev/null' \
		'	echo 1 >/sys/kernel/debug/clear_warn_once' \
		'	eval "place=\$place_$1"' \
		'	r=$(pc-guest write $C "$place $2 times=$T")' \
		'	case $r in' \
		'	*error*) echo "T $1 $2 refused: $r" ;;' \
		'	*)' \
		'		c=$(cat $P)' \
		'		d=$(pc-guest write $P "$1 $M all")' \
		'		c=$(($(cat $P) - c))' \
		'		l=$(cat $C)' \
		'		pc-guest write $C "\n" >/dev/null' \
		'		n=$(dmesg | grep -cF "provoke_crash: $place: $2: ")' \
		'		echo "T $1 $2 listing: $l calls=$c runs=$n"' \
		'		case $d in *error*) echo "T $1 $2 drive: $d" ;; esac' \
		'		x=text' \
		'		dmesg | grep -q "XFAIL: $2: " && x=xfail' \
		'		case $l in' \
		'		*" fired=$T missed=0 "*) echo "T $1 $2 verdict: fired/$x" ;;' \
		'		*" fired=0 missed=$H "*) echo "T $1 $2 verdict: missed/$x" ;;' \
		'		esac' \
		'		;;' \
		'	esac' \
		'	dmesg | sed "s/^/T $1 $2 log: /"' \
		'}'
}

# gen_matrix_smp_cases DIR REL: the 2-CPU cells of release REL into DIR,
# from DIR/types.tsv; after gen_matrix_cases (its matrix_paths state).
gen_matrix_smp_cases() {
	local dir=$1 rel=$2 arch kind path f name category context fate needs expect
	local cells
	local -A patterns
	[ "${PC_MATRIX_SCOPE:-sample}" = sample ] && return 0
	arch=$(pc_rel_arch "$rel")
	arch=${arch/amd64/x86_64}
	for kind in entry offset return; do
		f=$dir/matrix_smp_$kind.sh
		cells=""
		while IFS=$'\t' read -r name category context fate needs expect _desc; do
			# shellcheck disable=SC2086 # the needs are words
			matrix_needs "$arch" $needs || continue
			matrix_patterns "$expect"
			patterns[$name]=${matrix_pats?}
			for path in $matrix_smp_paths; do
				matrix_predict "$path" "$kind" "$context" "$fate"
				case $fate/${matrix_outcome?} in
				oops/fired | panic/fired | hang/fired) continue ;;
				esac
				# A type that reports each place once a boot
				# would fire 4 times on each of 3 paths.
				case $matrix_outcome/$category in
				fired/fortify | fired/bounds | fired/overflow) continue ;;
				esac
				[ "$matrix_outcome" = fired ] && [ -n "$matrix_boot" ] && continue
				cells+="$path $name $matrix_outcome"$'\n'
			done
		done <"$dir/types.tsv"
		{
			echo "# generated crash-point matrix, 2 CPUs in one path at once: $kind points"
			echo "# smp: $matrix_smp_cpus"
			echo "# boot: log_buf_len=4M"
			echo "# reject: Kernel panic|Oops|kernel BUG|provoke_crash: FAIL:|soft lockup|sleeping function|scheduling while atomic|pc_paths: .*error"
			echo "# reject: WARNING: .* at [^ ]*(kernel/kprobes|kernel/trace/[a-z_]+|/(run_in_path|probe_return|return_landing|return_landing_x86|probe_ftrace|probe_kprobe|control|points|offsets|parse|core|crashtypes))\\.c"
			echo "# reject-out: T [a-z]+ [a-z0-9_]+ drive: "
			echo "# expect-out: ^cpus: $matrix_smp_cpus$"
			if [ "$kind" = offset ]; then
				for path in $matrix_smp_paths; do
					echo "# expect-out: ^offset $path: pc_paths:pc_target_$path\\+0x"
				done
			fi
			while read -r path name outcome; do
				[ -n "$name" ] && matrix_smp_checks "$path" "$kind" "$name" "$outcome" \
					"${patterns[$name]}"
			done <<<"$cells"
			matrix_smp_prologue "$kind"
			while read -r path name _; do
				[ -n "$name" ] && echo "cell $path $name"
			done <<<"$cells"
		} >"$f"
	done
}
