# SPDX-License-Identifier: GPL-2.0
# Shared by tools/provoke-crash-vm and tests/run: find or install what a
# throw-away guest needs, build the module for a Debian kernel, pack a
# busybox initramfs and boot it in QEMU with a timeout.
#
# Nothing here touches the host kernel: the module is only ever loaded in
# the guest.

PC_ROOT=${PC_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
PC_OUT=${PC_OUT:-$PC_ROOT/build}

pc_log() { printf '# %s\n' "$*" >&2; }
pc_die() { printf 'provoke-crash: %s\n' "$*" >&2; exit 1; }

# Debian packages per kernel series: image and headers.
pc_kernel_packages() {
	case $1 in
	6.1) echo linux-image-cloud-amd64 linux-headers-cloud-amd64 ;;
	6.12) echo linux-image-6.12-cloud-amd64 linux-headers-6.12-cloud-amd64 ;;
	*) pc_die "unknown kernel series '$1' (use 6.1 or 6.12)" ;;
	esac
}

# Install what is missing (needs root and apt-get); quiet when all is there.
# Arguments are kernel series; PC_EXTRA_PACKAGES names more packages.
pc_install_deps() {
	local series pkgs=() p
	for p in qemu-system-x86 busybox-static cpio gcc make libc6-dev kmod xz-utils \
		${PC_EXTRA_PACKAGES:-}; do
		dpkg -s "$p" >/dev/null 2>&1 || pkgs+=("$p")
	done
	for series in "$@"; do
		for p in $(pc_kernel_packages "$series"); do
			dpkg -s "$p" >/dev/null 2>&1 || pkgs+=("$p")
		done
	done
	[ ${#pkgs[@]} -eq 0 ] && return 0
	[ "$(id -u)" = 0 ] || pc_die "missing packages: ${pkgs[*]} (run as root to install them)"
	pc_log "installing ${pkgs[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null || pc_die "apt-get update failed"
	apt-get install -y -q --no-install-recommends "${pkgs[@]}" >/dev/null ||
		pc_die "apt-get install ${pkgs[*]} failed"
}

# The newest installed kernel release of a series, e.g. 6.1.0-57-cloud-amd64.
pc_kernel_release() {
	local series=$1 v
	v=$(cd /boot && ls vmlinuz-"$series".*-cloud-amd64 2>/dev/null |
		sed 's/^vmlinuz-//' | sort -V | tail -n 1)
	[ -n "$v" ] || pc_die "no /boot/vmlinuz-$series.*-cloud-amd64 (install $(pc_kernel_packages "$series"))"
	echo "$v"
}

# Build the module and the guest helper for kernel release $1 into $PC_OUT/$1.
pc_build() {
	local rel=$1 dir=$PC_OUT/$1 log
	mkdir -p "$dir/src"
	rm -rf "$dir/src/module" "$dir/src/include" "$dir/src/twin"
	cp -r "$PC_ROOT/module" "$PC_ROOT/include" "$dir/src/"
	# The same code under another module name, to find the directory taken.
	cp -r "$dir/src/module" "$dir/src/twin"
	sed -i 's/provoke_crash/provoke_crash_twin/g' "$dir/src/twin/Kbuild"
	log=$dir/build.log
	: >"$log"
	for m in module twin; do
		make -C "/usr/src/linux-headers-$rel" M="$dir/src/$m" W=1 modules \
			>>"$log" 2>&1 || { cat "$log" >&2; pc_die "module build failed for $rel"; }
	done
	if grep -E 'warning:|error:' "$log" >&2; then
		pc_die "module build for $rel has warnings (see $log)"
	fi
	gcc -static -O2 -Wall -Wextra -Werror -o "$dir/pc-guest" \
		"$PC_ROOT/tests/guest/pc-guest.c" || pc_die "pc-guest build failed"
	gcc -static -O2 -Wall -Wextra -Werror -I"$PC_ROOT/include" \
		-o "$dir/provoke-crash" "$PC_ROOT/tools/provoke-crash.c" \
		"$PC_ROOT/tools/checks.c" ||
		pc_die "provoke-crash build failed"
}

# Pack $PC_OUT/$rel/initramfs.gz: busybox, the module, pc-guest, the tool,
# the ramoops module, an /init and the case scripts found in directory $2.
pc_pack_initramfs() {
	local rel=$1 cases=$2 dir=$PC_OUT/$1 root
	root=$dir/initramfs
	rm -rf "$root"
	mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,cases,usr/bin,usr/sbin}
	cp /bin/busybox "$root/bin/busybox"
	cp "$dir/src/module/provoke_crash.ko" "$dir/src/twin/provoke_crash_twin.ko" "$root/"
	cp "$dir/pc-guest" "$dir/provoke-crash" "$root/bin/"
	[ -n "$cases" ] && cp "$cases"/*.sh "$root/cases/"
	cp "$PC_ROOT/tests/guest/bad_input.tsv" "$root/"
	# Anything else the caller wants in the guest's root (the benchmark's
	# empty kprobe module).
	[ -n "${PC_EXTRA_FILES:-}" ] && cp $PC_EXTRA_FILES "$root/"
	cp "$PC_ROOT/tests/guest/init" "$root/init"
	# ramoops and what it needs, uncompressed for busybox insmod.
	for m in kernel/lib/reed_solomon/reed_solomon kernel/fs/pstore/ramoops; do
		if [ -f "/lib/modules/$rel/$m.ko" ]; then
			cp "/lib/modules/$rel/$m.ko" "$root/"
		elif [ -f "/lib/modules/$rel/$m.ko.xz" ]; then
			xz -dc "/lib/modules/$rel/$m.ko.xz" >"$root/$(basename "$m").ko"
		fi
	done
	chmod +x "$root/init"
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$dir/initramfs.gz"
}

# Does KVM really work here?  /dev/kvm may exist and still hang, so boot a
# guest to its first line with a short timeout; remember the answer.
pc_accel() {
	local log=$PC_OUT/kvm-probe.log rel
	if [ -z "${PC_ACCEL:-}" ]; then
		PC_ACCEL=tcg
		rel=$(cd /boot && ls vmlinuz-* 2>/dev/null | head -n 1)
		if [ -r /dev/kvm ] && [ -w /dev/kvm ] && [ -n "$rel" ]; then
			mkdir -p "$PC_OUT"
			# No initrd: a working guest panics at once and exits.
			timeout --kill-after=2 15 qemu-system-x86_64 -accel kvm \
				-m 256 -display none -no-reboot -monitor none \
				-kernel "/boot/$rel" -append "console=ttyS0 panic=-1" \
				-serial "file:$log" </dev/null >/dev/null 2>&1
			grep -q 'Kernel panic' "$log" 2>/dev/null && PC_ACCEL=kvm
		fi
		export PC_ACCEL
	fi
	echo "$PC_ACCEL"
}

# Where ramoops keeps its records: the top 1 MiB of the guest's 512 MiB,
# taken away from the kernel with memmap= so that it survives a reset.
PC_RAMOOPS_ADDR=0x1f000000
PC_RAMOOPS_CMDLINE="memmap=1M\$$PC_RAMOOPS_ADDR pc_ramoops=$PC_RAMOOPS_ADDR"

# pc_boot REL CASE TIMEOUT EXTRA_CMDLINE CONSOLE_LOG OUTPUT_LOG [SMP [PSTORE]]
# PC_QEMU_EXTRA adds QEMU options (the benchmark's -icount).
# Boots the guest, which runs /cases/CASE.sh; returns 124 on a timeout.
# With PSTORE=1 the guest reboots after the case (or its panic) instead of
# powering off, and the second boot prints what ramoops kept.
pc_boot() {
	local rel=$1 case=$2 timeout=$3 extra=$4 console=$5 output=$6 smp=${7:-1}
	local pstore=${8:-0} reboot=-no-reboot
	: >"$console"
	: >"$output"
	local accel
	accel=$(pc_accel)
	# TCG's default 1 GiB translation cache costs seconds of host time.
	[ "$accel" = tcg ] && accel=tcg,tb-size=256
	# Multi-threaded TCG mis-emulates cross-CPU code patching: a CPU can
	# run a half-patched ftrace call site and jump to 0 while another
	# enables or disables a kprobe (kprobe_events too).  One host thread
	# for all vCPUs keeps SMP guests truthful.
	[ "$accel" = tcg,tb-size=256 ] && [ "$smp" -gt 1 ] && accel=$accel,thread=single
	if [ "$pstore" = 1 ]; then
		reboot=
		extra="$extra $PC_RAMOOPS_CMDLINE panic=1"
	fi
	timeout --kill-after=5 "$timeout" qemu-system-x86_64 \
		-accel "$accel" -cpu max -smp "$smp" -m 512 \
		-display none $reboot -monitor none ${PC_QEMU_EXTRA:-} \
		-kernel "/boot/vmlinuz-$rel" -initrd "$PC_OUT/$rel/initramfs.gz" \
		-append "console=ttyS0 quiet panic=-1 pc_case=$case $extra" \
		-serial "file:$console" -serial "file:$output" \
		</dev/null >/dev/null 2>&1
}
