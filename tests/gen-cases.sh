# SPDX-License-Identifier: GPL-2.0
# Cases generated from the crash-type table, sourced by tests/run: each
# type fired directly and at a point (and, where it cannot run, the case
# that proves it is refused or missed).  Uses tests/run's has_config,
# $hit_symbol and $kdump_here, and tests/kdump-cases.sh.
# shellcheck shell=bash

# Write the generated cases of one crash type into directory $1: fired
# directly, and through a crash point unless it needs task context.  The
# type's "needs" words become the guest's command line (name=value), a
# second CPU (smp), or a skip when this kernel lacks a CONFIG_ option: the
# type still runs then, but only its start is checked.  Fatal types keep
# ramoops across the reset, and the record read back after it must hold
# the same kernel text.
gen_type_cases() {
	local dir=$1 rel=$2 name=$3 category=$4 context=$5 fate=$6 needs=$7 expect=$8
	local boot="" smp=1 missing="" defeated="" word pat f kind fatal=0 arch
	arch=$(pc_rel_arch "$rel")
	# The needs words (pc_needs, shared with the VM runner); !CONFIG_X:
	# the option defeats the type (e.g. KASAN's quarantine keeps a freed
	# object from coming back); cpu:FEATURE: QEMU's -cpu max has it.
	# shellcheck disable=SC2086
	pc_needs "$rel" $needs
	boot=$PC_NEED_BOOT smp=$PC_NEED_SMP missing=$PC_NEED_MISSING defeated=$PC_NEED_DEFEATED
	if [ -n "$PC_NEED_ARCH" ]; then
		gen_refused_case "$dir" "$name" "$PC_NEED_ARCH" "${arch/amd64/x86_64}"
		return
	fi
	case $fate in oops | panic | hang) fatal=1 ;; esac
	[ "$kdump_here" = 1 ] && [ -z "$missing$defeated" ] &&
		gen_kdump_cases "$dir" "$rel" "$name" "$fate" "$smp" "$boot" "$expect"
	# A fatal type's crash runs in the probed path, others in the probe
	# handler; a type whose crash comes later runs only where the path
	# lets it come (path:preempt, path:irqs), checked at each hit.
	local listed=atomic
	[ $fatal = 1 ] && [ "$context" != task ] && listed=path
	case $context in preempt | irqs) [ $fatal = 1 ] && listed=path:$context ;; esac
	for kind in direct point; do
		f=$dir/${kind}_$name.sh
		[ $kind = point ] && [ "$context" = task ] && continue
		# Without a preemption count no hit can be seen to be
		# preemptible: the point must miss, and say why.
		if [ $kind = point ] && [ "$context" = preempt ] &&
			! has_config "$rel" CONFIG_PREEMPT_COUNT; then
			gen_missed_case "$f" "$name" "$listed"
			continue
		fi
		{
			echo "# generated from the crash-type table: $name ($fate, $kind)"
			echo "# boot:$boot"
			echo "# smp: $smp"
			[ $fatal = 1 ] && echo "# pstore: 1"
			if [ $kind = direct ]; then
				echo "# expect: provoke_crash: trigger: $name: "
			else
				echo "# expect: provoke_crash: $hit_symbol: $name: "
				echo "# expect-out: $hit_symbol $name hits=0 filtered=0 fired=0 missed=0 context=$listed"
			fi
			[ $fatal = 0 ] && [ "$smp" = 1 ] && echo "# batch-ok"
			if [ -n "$missing" ]; then
				echo "# skip: needs$missing, which $rel lacks"
				# A fatal type that cannot crash here returns: at an
				# entry point the path it replaced goes on.
				if [ $kind = point ] && [ $fatal = 1 ]; then
					echo "# expect: crashpoints: $hit_symbol: $name returned: the path goes on"
					echo "# expect-out: PC-GUEST-END"
					echo "# reject: cannot resume"
				fi
			elif [ -n "$defeated" ]; then
				echo "# skip: $rel has$defeated, which defeats it"
			else
				pc_type_patterns "$rel" "$expect" | sed 's/^/# expect: /'
				echo "# reject: FAIL:"
				case $fate in
				panic | hang) echo "# reject-out: PC-GUEST-END" ;;
				*) echo "# expect-out: PC-GUEST-END" ;;
				esac
				if [ $kind = point ] && [ $fate != panic ] && [ $fate != hang ]; then
					echo "# expect-out: $hit_symbol $name hits=1 filtered=0 fired=1"
				fi
				if [ $fatal = 1 ]; then
					echo "# expect-out: PC-PSTORE-BEGIN dmesg-ramoops-[0-9]+"
					pc_type_patterns "$rel" "$expect" | sed 's/^/# expect-out: /'
				fi
			fi
			# A type that returns may find the kernel cannot catch
			# it here, from what really happened (XFAIL: and why):
			# a skip with that reason, never a pass.
			# Clear the log first, not count its lines: in a batch
			# guest the heap types' reports fill the ring buffer, and
			# a full buffer's line count stops growing.
			[ $fatal = 0 ] && echo "dmesg -c >/dev/null"
			if [ $kind = direct ]; then
				echo "pc-guest write \$D/$name 1"
			else
				echo "pc-guest write \$D/crashpoints \"$hit_symbol $name\""
				echo "cat \$D/crashpoints"
				echo "pc-guest hit getppid 1"
				echo "cat \$D/crashpoints"
			fi
			[ $fatal = 0 ] && echo "dmesg |" \
				"sed -n 's/.*provoke_crash: \\(XFAIL: $name: .*\\)/PC-SKIP \\1/p' | head -n 1"
			# A hang may leave the writer free (deadlock's threads are
			# stuck, not it): give the detector time before PC-GUEST-END.
			[ $fate = hang ] && echo "sleep 60"
		} >"$f"
	done
}

# gen_missed_case FILE NAME LISTED: a point whose type needs a preemptible
# path, on a kernel that cannot tell one: the hit is counted as missed, the
# module says why, and the kernel stays up.
gen_missed_case() {
	local f=$1 name=$2 listed=$3
	{
		echo "# generated from the crash-type table: $name (point, no CONFIG_PREEMPT_COUNT)"
		echo "# boot:"
		echo "# expect: provoke_crash: crashpoints: $hit_symbol: $name missed: it needs preempt context at most, and the path is in irqs context here"
		echo "# expect-out: $hit_symbol $name hits=1 filtered=0 fired=0 missed=1 context=$listed"
		echo "# expect-out: PC-GUEST-END"
		echo "# reject: FAIL:|Oops|Kernel panic"
		echo "pc-guest write \$D/crashpoints \"$hit_symbol $name\""
		echo "pc-guest hit getppid 1"
		echo "cat \$D/crashpoints"
	} >"$f"
}

# A type for another architecture: the trigger and the control file both
# refuse it, with EOPNOTSUPP and a log line that names both architectures.
gen_refused_case() {
	local dir=$1 name=$2 only=$3 here=$4
	{
		echo "# generated from the crash-type table: $name (only on $only)"
		echo "# boot:"
		echo "# batch-ok"
		echo "# expect: provoke_crash: trigger: $name runs only on $only, and this kernel is $here"
		echo "# expect: provoke_crash: crashpoints: $hit_symbol: $name runs only on $only, and this kernel is $here"
		echo "# expect-out: trigger: write: error (EOPNOTSUPP|ENOTSUP) "
		echo "# expect-out: point: write: error (EOPNOTSUPP|ENOTSUP) "
		echo "# expect-out: listing: \$"
		echo "# reject: FAIL:"
		echo "echo \"trigger: \$(pc-guest write \$D/$name 1)\""
		echo "echo \"point: \$(pc-guest write \$D/crashpoints \"$hit_symbol $name\")\""
		echo "echo \"listing: \$(cat \$D/crashpoints)\""
	} >"$dir/refused_$name.sh"
}
