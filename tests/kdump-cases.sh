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
# On arm64, where each guest boots two kernels under emulation: panic(),
# an oops in a hard interrupt, a stack overflow (a panic from the
# overflow handler), an oops at a crash point, a panic while CPU 0 spins
# with interrupts off (arm64 6.1 cannot stop it), and a hard lockup for
# the watchdog (6.12's buddy detector).  No hardlockup type: Debian's
# arm64 6.1 has no HARDLOCKUP_DETECTOR, and a type whose option the
# kernel lacks gets no kdump case (gen-cases.sh).
kdump_arm64_cases="panic oops_interrupt_context exhaust_stack point_null_dereference
	cpu1_while_cpu0_irqs_off_arm64 hardlockup_nmi_watchdog"
# On an x86-64 kernel after the first (6.12 beside 6.1): each way a crash
# reaches the capture kernel that differs between kernel versions: panic(),
# an oops in NMI, hard and soft interrupt context and at a crash point, a
# double fault, a stack overflow, the hard lockup watchdog, and another
# CPU stuck with interrupts off (the NMI stop).
kdump_x86_slice_cases="panic oops_nmi_context oops_interrupt_context
	point_null_dereference point_oops_interrupt_context double_fault exhaust_stack
	hardlockup_nmi_watchdog cpu1_while_cpu0_irqs_off"
# On the first x86-64 kernel, beside those: the other ways in (BUG(), a
# panic from a hard interrupt, with interrupts off and while other CPUs
# spin with them off, each lockup and stall detector's panic, a guard
# page, a list check, a plain oops and one in a soft interrupt) and the
# point kinds.  Every fatal type runs there with pstore in CI, and with
# kdump in make check-long (PC_KDUMP_SCOPE=full).
kdump_first_x86_cases="$kdump_x86_slice_cases bugon point_bugon point_panic
	null_dereference oops_softirq_context panic_in_hardirq panic_irqs_off
	panic_stop_irqoff spinlockup hardlockup hung_task rcu_stall smp_call_lockup
	stack_guard_page_leading corrupt_list_add"
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
