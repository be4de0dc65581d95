# SPDX-License-Identifier: GPL-2.0
# Which accelerator the x86-64 guests get, KVM or TCG: the engine decides
# (engine/pcengine/accel.py), once per host, and caches the answer that
# the VM runner and the bench share.  PC_ACCEL overrides it.
# Sourced by pc-vm-lib.sh.
# shellcheck shell=bash

# pc_accel_pick: sets and exports PC_ACCEL (kvm or tcg) and sets
# PC_ACCEL_WHY, from PC_ACCEL, else the cache, else a probe (cached).
pc_accel_pick() {
	local line
	# Given (the bench passes its pick to every guest): no Python start.
	if [ -n "${PC_ACCEL:-}" ]; then
		# shellcheck disable=SC2034 # PC_ACCEL_WHY is the callers'
		PC_ACCEL_WHY="PC_ACCEL=$PC_ACCEL"
		export PC_ACCEL
		return
	fi
	line=$(pc_engine accel) || pc_die "could not pick an accelerator (engine/pcengine/accel.py)"
	# shellcheck disable=SC2034 # PC_ACCEL_WHY is the callers'
	PC_ACCEL=${line%% *} PC_ACCEL_WHY=${line#* }
	export PC_ACCEL
}

# pc_accel: the answer on stdout, for callers in a command substitution.
pc_accel() {
	pc_accel_pick
	echo "$PC_ACCEL"
}
