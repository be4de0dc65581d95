# SPDX-License-Identifier: GPL-2.0
# The kdump lane, sourced by tests/run: each fatal crash type fired in a
# guest that has loaded a capture kernel (tools/pc-kdump.sh), judged on the
# crashed kernel's log as the capture kernel read it from /proc/vmcore.
# Uses pc_type_patterns (pc-vm-lib.sh), $hit_symbol and $results.
# shellcheck shell=bash

# Crash types also fired at a crash point in the kdump lane: one of each
# way a crash reaches kdump (panic(), an oops with oops=panic, BUG(), an
# oops in a hard interrupt).
kdump_point_types="panic null_dereference bugon oops_interrupt_context"
# Which kdump cases run on which kernel (slices: each way into the
# capture kernel) is the scope's table, engine/pcengine/scope.py.
# gen_kdump_cases DIR REL NAME FATE SMP BOOT EXPECT: kdump_NAME.sh (direct)
# and, for the point spread, kdump_point_NAME.sh.  oops=panic: an oops
# must end in the capture kernel, as on a production kdump machine.
gen_kdump_cases() {
	local dir=$1 rel=$2 name=$3 fate=$4 smp=$5 boot=$6 expect=$7 kind f
	case $fate in oops | panic | hang) ;; *) return ;; esac
	for kind in direct point; do
		if [ $kind = direct ]; then
			f=$dir/kdump_$name.sh
		else
			[[ " $kdump_point_types " == *" $name "* ]] || continue
			f=$dir/kdump_point_$name.sh
		fi
		{
			echo "# generated from the crash-type table: $name ($fate, $kind, kdump)"
			echo "# boot:$boot oops=panic"
			echo "# smp: $smp"
			echo "# kdump: 1"
			echo "# expect-out: PC-KDUMP-LOADED [0-9]+ bytes reserved"
			echo "# expect-out: PC-KDUMP-VMCORE [0-9]+ bytes"
			echo "# expect-out: PC-KDUMP-DMESG-BEGIN"
			if [ $kind = direct ]; then
				echo "# expect-out: provoke_crash: trigger: $name: "
			else
				echo "# expect-out: provoke_crash: $hit_symbol: $name: "
			fi
			pc_type_patterns "$rel" "$expect" kdump | sed 's/^/# expect-out: /'
			if [ "$(pc_rel_arch "$rel")" = arm64 ] && [[ $rel != 6.1.* ]]; then
				# Debian 12's makedumpfile (1.7.2) reads no 52-bit
				# VA arm64 kernel: the log is captured, no dump.
				echo "# expect-out: VA Bits 52 not supported"
			else
				echo "# expect-out: PC-KDUMP-DUMP [1-9][0-9]+ bytes"
			fi
			echo "# expect-out: PC-KDUMP-DONE"
			echo "# reject-out: PC-GUEST-END|PC-KDUMP-LOAD-FAILED|PC-KDUMP-NO-VMCORE"
			echo "# reject: FAIL:"
			if [ $kind = direct ]; then
				echo "pc-guest write \$D/$name 1"
			else
				echo "pc-guest write \$D/crashpoints \"$hit_symbol $name\""
				echo "pc-guest hit getppid 1"
			fi
			[ $fate = hang ] && echo "sleep 60"
		} >"$f"
	done
}
