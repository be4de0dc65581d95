# SPDX-License-Identifier: GPL-2.0
# The crash-point matrix, generated from the crash-type table, sourced by
# tests/run: every type at every kind of point (entry, +OFFSET, %return)
# on every kind of path tests/paths/pc_paths.ko gives (task, preempt,
# rcu, softirq, hardirq; nmi on x86-64).  Each cell has one of three
# outcomes, predicted here from the table's context and fate alone, and
# checked against what the kernel printed:
#   refused  the write fails with EINVAL and its one log line;
#   missed   the hit counts as missed, with the reason logged;
#   fired    the hit counts as fired, and the type's kernel text is in
#            the log (a type that returns); or, where this kernel cannot
#            catch it, missed with its "XFAIL: TYPE:" line.
# A fatal type that would fire takes a guest of its own: those cells are
# the "matrix_fatal_*" cases, run in CI as a sample that changes with
# each commit (PC_MATRIX_SCOPE=full runs them all).  The other cells are
# batched, one case per path, point kind and boot line: one guest per
# path for a boot line with many cells, one for every path otherwise.
# The cells with a second CPU in the same path: tests/gen-matrix-smp.sh.
# A type that needs a second CPU is in the batches where it does not run
# (refused, missed); where it fires, its guest has 2 vCPUs.  A type that
# reports each place once a boot (the fortify, bounds and overflow
# categories) fires once per kind of point in its path's guest: at
# most three times, within the places it takes in turn (the bounds and
# overflow types, two to four, are atomic: +OFFSET refuses them).
# Not in the matrix: types of another architecture, and a cell whose
# type this kernel cannot catch (a CONFIG_ option missing or defeating
# it).
# Uses pc-vm-lib.sh's pc_rel_config and pc_rel_arch; reads the needs
# words and patterns as pc_needs and pc_type_patterns do (and as
# engine/pcengine/cases.py does for the types' own cases).
# shellcheck shell=bash
# The case's own shell is written in single quotes on purpose:
# shellcheck disable=SC2016

# shellcheck source=gen-matrix-smp.sh
. "$(dirname "${BASH_SOURCE[0]}")/gen-matrix-smp.sh"

# The contexts, in the table's order (include/provoke_crash_defs.h).
declare -A matrix_rank=([task]=0 [preempt]=1 [irqs]=2 [atomic]=3 [nmi]=4)
# The context a hit on each path's target is in (matrix_paths sets it).
declare -A matrix_here

# REL's options set (y or m), read once: the generator asks of every
# type, and a fork per question costs minutes on a busy host.
declare -A matrix_config

# matrix_paths REL: the paths of REL's matrix, into $matrix_path_list,
# and its options into matrix_config.
matrix_paths() {
	local task=preempt line
	matrix_config=()
	while IFS= read -r line; do
		[[ $line =~ ^(CONFIG_[A-Za-z0-9_]+)=[ym]$ ]] &&
			matrix_config[${BASH_REMATCH[1]}]=1
	done <"$(pc_rel_config "$1")"
	# Without a preemption count nothing shows a task preemptible.
	[ -n "${matrix_config[CONFIG_PREEMPT_COUNT]:-}" ] || task=irqs
	matrix_here=([task]=$task [preempt]=irqs [rcu]=irqs [softirq]=irqs [hardirq]=atomic [nmi]=nmi)
	matrix_path_list="task preempt rcu softirq hardirq"
	[ "$(pc_rel_arch "$1")" = amd64 ] && matrix_path_list="$matrix_path_list nmi"
	return 0
}

# matrix_predict PATH KIND CONTEXT FATE: sets $matrix_outcome to
# "refused", "missed NEEDED HERE" or "fired", as point_stage.c and the
# handlers decide.  No subshell: it runs for every cell.
matrix_predict() {
	local path=$1 kind=$2 ctx=$3 fate=$4 redirect=0 here handler
	case $fate in oops | panic | hang) [ "$ctx" != task ] && redirect=1 ;; esac
	here=${matrix_here[$path]}
	if [ $redirect = 0 ]; then
		# It runs in the handler, which is refused when armed if its
		# own context is deeper than the type's: the entry callback's
		# and the kretprobe trampoline's are atomic, a breakpoint's
		# nmi.  At a hit the callback checks the path's context, a
		# breakpoint's handler its own, the trampoline atomic or nmi.
		case $kind in
		offset) handler=nmi here=nmi ;;
		return) handler=atomic; [ "$path" = nmi ] || here=atomic ;;
		entry) handler=atomic ;;
		esac
		if ((matrix_rank[$handler] > matrix_rank[$ctx])); then
			matrix_outcome=refused
			return
		fi
	elif [ "$kind" = return ] && ((matrix_rank[$ctx] < matrix_rank[atomic])); then
		# A diverted return cannot see the context it returns in.
		matrix_outcome=refused
		return
	fi
	if ((matrix_rank[$here] > matrix_rank[$ctx])); then
		matrix_outcome="missed $ctx $here"
	else
		matrix_outcome=fired
	fi
}

# matrix_needs ARCH WORD...: whether the matrix takes a type that needs
# WORDs (as pc_needs reads them): not another architecture's, no
# option missing or defeating it.  Sets $matrix_boot, and $matrix_cpus
# to 2 for a type that needs a second CPU, else 1.
matrix_needs() {
	local arch=$1 word
	shift
	matrix_boot="" matrix_cpus=1
	for word in "$@"; do
		case $word in
		CONFIG_*) [ -n "${matrix_config[$word]:-}" ] || return 1 ;;
		!CONFIG_*) [ -z "${matrix_config[${word#!}]:-}" ] || return 1 ;;
		smp) matrix_cpus=2 ;;
		x86_64 | arm64 | powerpc) [ "$word" = "$arch" ] || return 1 ;;
		cpu:* | - | '') ;;
		*) matrix_boot="$matrix_boot $word" ;;
		esac
	done
}

# matrix_patterns EXPECT: the type's patterns into $matrix_pats, one per
# line, as pc_type_patterns gives them on a guest without kdump.
matrix_patterns() {
	local rest=$1 pat
	matrix_pats=""
	while [ -n "$rest" ]; do
		pat=${rest%% && *}
		[ "$pat" = "$rest" ] && rest="" || rest=${rest#* && }
		if [[ $pat =~ ^(CONFIG_[A-Z0-9_]+)\?\ (.*)$ ]]; then
			[ -n "${matrix_config[${BASH_REMATCH[1]}]:-}" ] || continue
			pat=${BASH_REMATCH[2]}
		fi
		[[ $pat =~ ^!kdump\?\ (.*)$ ]] && pat=${BASH_REMATCH[1]}
		matrix_pats+="$pat"$'\n'
	done
}

# The shell every matrix case starts with: cell TYPE arms TYPE at $place,
# drives the path once, lists the point and its log lines.
matrix_prologue() {
	local path=$1 kind=$2
	printf '%s\n' 'C=$D/crashpoints' 'insmod /pc_paths.ko 2>/dev/null' \
		"target=pc_paths:pc_target_$path"
	case $kind in
	entry) printf '%s\n' 'place=$target' ;;
	return) printf '%s\n' 'place=$target%return' ;;
	offset)
		# The first offset past the entry that takes a breakpoint (a
		# report type lists context=nmi there).
		printf '%s\n' 'place=' 'echo $target >$D/offsets' \
			"for o in \$(grep '^0x' \$D/offsets); do" \
			'	pc-guest write $C "$target+$o unaligned_load_store" >/dev/null || continue' \
			"	n=\$(grep -c 'context=nmi' \$C)" \
			'	pc-guest write $C "\n" >/dev/null' \
			'	[ "$n" = 1 ] && place=$target+$o && break' \
			'done' 'echo "offset: ${place:-none}"'
		;;
	esac
	# Each cell clears the *_ONCE flags: refcount's saturation warning
	# is one a boot, and two cells may ask for it.
	printf '%s\n' 'cell() {' \
		'	dmesg -c >/dev/null' \
		'	echo 1 >/sys/kernel/debug/clear_warn_once' \
		'	r=$(pc-guest write $C "$place $1 times=-1")' \
		'	case $r in' \
		'	*error*) echo "T $1 refused: $r" ;;' \
		'	*)' \
		"		pc-guest write /sys/kernel/debug/pc-paths/run \"$path 1\" >/dev/null" \
		'		l=$(cat $C)' \
		'		echo "T $1 listing: $l"' \
		'		pc-guest write $C "\n" >/dev/null' \
		'		;;' \
		'	esac' \
		'	dmesg | sed "s/^/T $1 log: /"' \
		'	# Fired in its own words, or missed with its XFAIL line.' \
		'	x=text' \
		'	dmesg | grep -q "XFAIL: $1: " && x=xfail' \
		'	case $l in' \
		'	*" fired=1 missed=0 "*) echo "T $1 verdict: fired/$x" ;;' \
		'	*" fired=0 missed=1 "*) echo "T $1 verdict: missed/$x" ;;' \
		'	esac' \
		'	l=' \
		'}'
}

# matrix_cell_checks NAME OUTCOME PATTERNS: the case's header lines.
matrix_cell_checks() {
	local name=$1 outcome=$2 pats=$3 pat need here
	local place='pc_paths:pc_target_[a-z]+(\+0x[0-9a-f]+|%return)?'
	case $outcome in
	refused)
		echo "# expect-out: ^T $name refused: write: error EINVAL"
		echo "# expect-out: ^T $name log: .*crashpoints: $place: $name (cannot run in|needs a path in)"
		;;
	missed*)
		read -r _ need here <<<"$outcome"
		echo "# expect-out: ^T $name listing: $place $name times=-1 hits=1 filtered=0 fired=0 missed=1 context="
		echo "# expect-out: ^T $name log: .*crashpoints: $place: $name missed: it needs $need context at most, and the path is in $here context here"
		;;
	fired)
		# Or missed, where the kernel cannot catch it (XFAIL).
		echo "# expect-out: ^T $name listing: $place $name times=-1 hits=1 filtered=0 fired=[01] missed=[01] context="
		echo "# expect-out: ^T $name verdict: (fired/text|missed/xfail)$"
		while IFS= read -r pat; do
			[ -n "$pat" ] || continue
			echo "# expect-out: ^T $name log: .*($pat|XFAIL: $name: )"
			# The console has it too, for reports such as KASAN's
			# that a case must ask for.
			echo "# expect: ($pat|XFAIL: $name: )"
		done <<<"$pats"
		;;
	esac
}

# gen_matrix_cases DIR REL: the matrix's cases of release REL into DIR,
# from DIR/types.tsv.  Of the fatal cells that fire, PC_MATRIX_SCOPE=full
# writes all; otherwise $PC_MATRIX_FATAL (default 4) of them, picked by
# the commit: a different sample each commit, the same on every run.
gen_matrix_cases() {
	local dir=$1 rel=$2 path kind name category context fate needs expect arch
	local key f seed line driving outcome fatal=$dir/matrix.fatal
	local -A cells patterns boots
	matrix_paths "$rel"
	arch=$(pc_rel_arch "$rel")
	arch=${arch/amd64/x86_64}
	: >"$fatal"
	while IFS=$'\t' read -r name category context fate needs expect _desc; do
		# shellcheck disable=SC2086 # the needs are words
		matrix_needs "$arch" $needs || continue
		matrix_patterns "$expect"
		patterns[$name]=$matrix_pats
		for path in $matrix_path_list; do
			for kind in entry offset return; do
				matrix_predict "$path" "$kind" "$context" "$fate"
				case $fate/$matrix_outcome in
				oops/fired | panic/fired | hang/fired)
					printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$path" "$kind" "$name" \
						"$fate" "$matrix_cpus" "$matrix_boot" >>"$fatal"
					;;
				*/fired)
					# A batch guest has one CPU.
					[ "$matrix_cpus" = 1 ] || continue
					;;&
				*)
					# Its boot line is for where it runs: a
					# second CPU's type never runs in a batch.
					line=$matrix_boot
					[ "$matrix_cpus" = 1 ] || line=""
					key="$path $kind ${line// /+}"
					boots[$key]=$line
					cells[$key]+="$name $matrix_outcome"$'\n'
					;;
				esac
			done
		done
	done <"$dir/types.tsv"
	# The batched cells: one case per path, kind and boot line.
	for key in "${!cells[@]}"; do
		read -r path kind _ <<<"$key"
		line=${boots[$key]# }
		line=${line//[^A-Za-z0-9]/_}
		f=$dir/matrix_${path}_${kind}${line:+_${line:0:24}}.sh
		{
			echo "# generated crash-point matrix: path $path, $kind points"
			# A boot line with many cells that drive the path (the
			# plain one, slub_debug's) takes a guest per path (pc_matrix= only tells the
			# batches apart: all in one took over 120 s); one with
			# few shares a guest for every path.
			driving=$(grep -cv ' refused$' <<<"${cells[$key]}")
			if [ "$driving" -gt 3 ]; then
				echo "# boot: pc_matrix=$path${boots[$key]}"
			else
				echo "# boot:${boots[$key]}"
			fi
			echo "# batch-ok"
			echo "# reject: Kernel panic|Oops|kernel BUG|provoke_crash: FAIL:|soft lockup|sleeping function|scheduling while atomic"
			[ "$kind" = offset ] && echo "# expect-out: ^offset: pc_paths:pc_target_$path\+0x"
			while read -r name outcome; do
				[ -n "$name" ] && matrix_cell_checks "$name" "$outcome" "${patterns[$name]}"
			done <<<"${cells[$key]}"
			matrix_prologue "$path" "$kind"
			while read -r name _; do
				[ -n "$name" ] && echo "cell $name"
			done <<<"${cells[$key]}"
		} >"$f"
	done
	# The fatal cells that fire, a guest each: all, or a sample picked by
	# a hash of the commit and the cell (one awk: no fork per cell).
	if [ "${PC_MATRIX_SCOPE:-sample}" != full ]; then
		seed=$(git -C "$PC_ROOT" rev-parse HEAD 2>/dev/null || echo none)
		awk -v s="$seed" -v n="${PC_MATRIX_FATAL:-4}" '
			BEGIN { for (i = 32; i < 127; i++) ord[sprintf("%c", i)] = i }
			{ t = s $0; h = 0
			  for (i = 1; i <= length(t); i++) h = (h * 31 + ord[substr(t, i, 1)]) % 2147483647
			  print h "\t" $0 }' "$fatal" | sort -n | head -n "${PC_MATRIX_FATAL:-4}" |
			cut -f2- >"$fatal.sample"
		mv "$fatal.sample" "$fatal"
	fi
	while IFS=$'\t' read -r path kind name fate cpus line; do
		f=$dir/matrix_fatal_${path}_${kind}_$name.sh
		{
			echo "# generated crash-point matrix: $name ($fate) at a $kind point on a $path path"
			echo "# boot:$line"
			[ "$cpus" = 1 ] || echo "# smp: $cpus"
			while IFS= read -r expect; do
				[ -n "$expect" ] && echo "# expect: $expect"
			done <<<"${patterns[$name]}"
			# A task killed holding a lock says so on its way out.
			case $path in preempt | rcu)
				echo "# expect: ${patterns[$name]%%$'\n'*}|BUG: scheduling while atomic|sleeping function called from invalid context"
				;;
			esac
			echo "# reject: provoke_crash: FAIL:"
			# An oops kills only the writer in a task's path; anywhere
			# else, and for a panic or a hang, the guest goes down.
			case $fate/$path in
			oops/task | oops/preempt | oops/rcu) ;;
			*) echo "# reject-out: PC-GUEST-END" ;;
			esac
			matrix_prologue "$path" "$kind"
			echo "pc-guest write \$C \"\$place $name\" >/dev/null"
			echo "pc-guest write /sys/kernel/debug/pc-paths/run \"$path 1\""
			[ "$fate" = hang ] && echo "sleep 60"
		} >"$f"
	done <"$fatal"
	gen_matrix_smp_cases "$dir" "$rel"
}

# matrix_build_paths REL: tests/paths/pc_paths.ko for REL, built as the
# module is (pc_build), into $PC_OUT/REL/src/paths.
matrix_build_paths() {
	local rel=$1 dir=$PC_OUT/$1/src/paths kdir cross=() m
	kdir=$(pc_rel_root "$rel")/usr/src/linux-headers-$rel
	[ "$(pc_rel_arch "$rel")" = arm64 ] && cross=(ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-)
	m=$(pc_kbuild_llvm "$(pc_rel_config "$rel")")
	[ -n "$m" ] && cross+=("$m")
	rm -rf "$dir"
	cp -r "$PC_ROOT/tests/paths" "$dir"
	make -C "$kdir" "${cross[@]}" M="$dir" W=1 modules >"$dir/build.log" 2>&1 ||
		{ cat "$dir/build.log" >&2; pc_die "pc_paths build failed for $rel"; }
	if grep -E 'warning:|error:' "$dir/build.log" >&2; then
		pc_die "pc_paths build for $rel has warnings (see $dir/build.log)"
	fi
}
