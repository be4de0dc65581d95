# SPDX-License-Identifier: GPL-2.0
# The VM runner's own cases, sourced by tests/run: tools/provoke-crash-vm is
# run on the host as a user runs it, and its exit status and output are
# checked.  Uses tests/run's $results, $kernels, $PC_OUT and pc-vm-lib.sh.
# shellcheck shell=bash

# vm_check NAME STATUS PATTERNS ARGS...: run the VM runner with ARGS as a
# user would; it must exit with STATUS and print every line of PATTERNS
# (EREs).  Appends the case's result to vm.result.
vm_check() {
	local name=$1 want=$2 pats=$3 log=$results/vm-$1.log why="" rc pat
	shift 3
	PC_OUT=$PC_OUT/vm "$PC_ROOT/tools/provoke-crash-vm" "$@" >"$log" 2>&1
	rc=$?
	[ $rc = "$want" ] || why="exit status $rc, expected $want"
	while IFS= read -r pat; do
		[ -n "$why" ] && break
		grep -Eq -- "$pat" "$log" || why="missing in its output: $pat"
	done <<<"$pats"
	if [ -z "$why" ]; then
		echo "ok vm/$name"
		if [ "$name" = readme_first_command ]; then
			# Its transcript: arm, hit, the oops's first lines, the
			# pstore record's, and the verdict.
			sed -n '1,/#PF: error_code/p' "$log" | sed 's/^/#   /'
			echo "#   ..."
			sed -n '/^=== pstore record/,/BUG: kernel NULL/p' "$log" | sed 's/^/#   /'
			echo "#   ..."
		else
			grep -E '^\+ |hits=' "$log" | sed 's/^/#   /'
		fi
		tail -n 1 "$log" | sed 's/^/#   /'
	else
		echo "not ok vm/$name"
		echo "# $why"
		tail -n 30 "$log" | sed 's/^/# /'
	fi >>"$results/vm.result"
	pc_log "done vm/$name"
}

# The README's first command, as a user runs it: it must end with the
# kernel's own report and the ramoops record read back after the reset.
# Then the runner's other verdicts: a point off the path survives (on the
# other x86-64 kernel, if the run has it), and a guest that never ends is
# killed and reported.
vm_case() {
	local series="" other="" s
	for s in $kernels; do
		[ "$(pc_series_arch "$s")" = amd64 ] || continue
		if [ -z "$series" ]; then series=$s; else other=$s; fi
	done
	if [ -z "$series" ]; then
		echo "ok vm/readme_first_command # SKIP no x86-64 series in PC_KERNELS" >"$results/vm.result"
		return
	fi
	vm_check readme_first_command 0 '^=== kernel report
provoke_crash: __x64_sys_getppid: null_dereference: 
BUG: kernel NULL pointer dereference
^PC-PSTORE-BEGIN dmesg-ramoops-0
^Oops#1 Part1
the kernel crashed as asked' --kernel "$series"
	vm_check survived 1 '__x64_sys_getpgid null_dereference hits=0 fired=0
^=== pstore record kept across the reboot
^\(none\)
provoke-crash-vm: the kernel survived$' \
		--kernel "${other:-$series}" --arm '@sys@getpgid null_dereference'
	vm_check timed_out 3 '^\+ run: sleep 600
provoke-crash-vm: timed out after 30s$' \
		--kernel "$series" --arm '@sys@getpgid report' --run 'sleep 600' --timeout 30
}
