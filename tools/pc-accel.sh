# SPDX-License-Identifier: GPL-2.0
# Which accelerator the x86-64 guests get, KVM or TCG, decided once per
# host: /dev/kvm may open and still never run a guest, and finding that
# out costs a 15 s probe.  The answer is cached, keyed by what makes it
# valid (the host kernel, /dev/kvm's device numbers, the QEMU version),
# and shared by the VM runner and the bench.  PC_ACCEL overrides it.
# Sourced by pc-vm-lib.sh.
# shellcheck shell=bash

PC_ACCEL_PROBE_SECONDS=15

pc_accel_cache() {
	echo "${XDG_CACHE_HOME:-$HOME/.cache}/provoke-crash/accel"
}

# pc_accel_key: one line; a cached answer holds only while it is equal.
pc_accel_key() {
	local dev=none
	[ -e /dev/kvm ] && dev=$(stat -L -c '%t:%T' /dev/kvm 2>/dev/null)
	printf 'kernel=%s kvm=%s qemu=%s\n' "$(uname -r)" "$dev" \
		"$(qemu-system-x86_64 --version 2>/dev/null | sed -n '1s/.*version \([^ ]*\).*/\1/p')"
}

# pc_accel_probe: boot a KVM guest to its first panic (no initrd: it
# panics at once and exits); prints "ACCEL<TAB>WHY".
pc_accel_probe() {
	local log rel="" f t0 t
	if [ ! -e /dev/kvm ]; then
		printf 'tcg\tno /dev/kvm\n'
		return
	fi
	if ! [ -r /dev/kvm ] || ! [ -w /dev/kvm ]; then
		printf 'tcg\t/dev/kvm is not read-write for uid %s\n' "$(id -u)"
		return
	fi
	for f in /boot/vmlinuz-*; do
		[ -f "$f" ] && rel=$f && break
	done
	if [ -z "$rel" ]; then
		printf 'tcg\tno kernel in /boot to probe KVM with\n'
		return
	fi
	pc_log "probing KVM (once per host, at most ${PC_ACCEL_PROBE_SECONDS} s; the answer goes to $(pc_accel_cache))"
	log=$(mktemp)
	t0=$(date +%s%N)
	timeout --kill-after=2 "$PC_ACCEL_PROBE_SECONDS" qemu-system-x86_64 -accel kvm \
		-m 256 -display none -no-reboot -monitor none \
		-kernel "$rel" -append "console=ttyS0 panic=-1" \
		-serial "file:$log" </dev/null >/dev/null 2>&1
	t=$((($(date +%s%N) - t0) / 100000000))
	if grep -q 'Kernel panic' "$log" 2>/dev/null; then
		printf 'kvm\ta KVM guest booted in %d.%d s\n' $((t / 10)) $((t % 10))
	else
		printf 'tcg\t/dev/kvm opens but a KVM guest did not boot in %s s\n' \
			"$PC_ACCEL_PROBE_SECONDS"
	fi
	rm -f "$log"
}

# pc_accel_pick: sets and exports PC_ACCEL (kvm or tcg) and sets
# PC_ACCEL_WHY, from PC_ACCEL, else the cache, else a probe (cached).
# The cache is four lines: key, accelerator, why, the probe's date.
pc_accel_pick() {
	local cache key answer why when
	if [ -n "${PC_ACCEL:-}" ]; then
		PC_ACCEL_WHY="PC_ACCEL=$PC_ACCEL"
		export PC_ACCEL
		return
	fi
	cache=$(pc_accel_cache)
	key=$(pc_accel_key)
	if [ "$(sed -n 1p "$cache" 2>/dev/null)" = "$key" ]; then
		{ read -r; read -r answer; read -r why; read -r when; } <"$cache"
		case $answer in
		kvm | tcg)
			PC_ACCEL=$answer PC_ACCEL_WHY="cached: $why, probed $when"
			export PC_ACCEL
			return
			;;
		esac
	fi
	IFS=$'\t' read -r answer why < <(pc_accel_probe)
	when=$(date -u +%F)
	mkdir -p "$(dirname "$cache")" &&
		printf '%s\n%s\n%s\n%s\n' "$key" "$answer" "$why" "$when" >"$cache.$$" &&
		mv -f "$cache.$$" "$cache"
	# shellcheck disable=SC2034 # PC_ACCEL_WHY is the callers'
	PC_ACCEL=$answer PC_ACCEL_WHY=$why
	export PC_ACCEL
}

# pc_accel: the answer on stdout, for callers in a command substitution.
pc_accel() {
	pc_accel_pick
	echo "$PC_ACCEL"
}
