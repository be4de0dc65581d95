# SPDX-License-Identifier: GPL-2.0
# Shared by tools/provoke-crash-vm and tests/run: find or install what a
# throw-away guest needs, build the module for a Debian kernel, pack a
# busybox initramfs and boot it in QEMU with a timeout.
#
# Nothing here touches the host kernel: the module is only ever loaded in
# the guest.
# shellcheck shell=bash

PC_ROOT=${PC_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
PC_OUT=${PC_OUT:-$PC_ROOT/build}
# Absolute: the module's build runs make -C in the kernel's tree.
case $PC_OUT in /*) ;; *) PC_OUT=$PWD/$PC_OUT ;; esac

# The engine's Python: Debian's own where it is, the one the engine is
# written for (Debian 12's 3.11 and its standard library).  It starts in
# 40 ms; a version manager's shim first on PATH (pyenv's) takes 0.3 s a
# call, and the bench makes one or more calls a case.
if [ -z "${PC_PYTHON:-}" ]; then
	PC_PYTHON=python3
	[ -x /usr/bin/python3 ] && PC_PYTHON=/usr/bin/python3
fi
export PC_PYTHON

# pc_engine MODULE ARGS...: python3 -m pcengine.MODULE ARGS...
pc_engine() {
	PYTHONPATH=$PC_ROOT/engine "$PC_PYTHON" -P -m "pcengine.$1" "${@:2}"
}

pc_log() { printf '# %s\n' "$*" >&2; }
pc_die() { printf 'provoke-crash: %s\n' "$*" >&2; exit 1; }

# Kernels given as files (IMAGE:TREE, the "debug" and "clang" kernels) get
# a root of links here, laid out like an installed Debian kernel's;
# exported, so the VM runner under another PC_OUT finds the bench's.
PC_KERNEL_ROOTS=${PC_KERNEL_ROOTS:-$PC_OUT/kernels}
export PC_KERNEL_ROOTS
. "$PC_ROOT/tools/pc-debug-kernel.sh"
. "$PC_ROOT/tools/pc-kernel-files.sh"
. "$PC_ROOT/tools/pc-accel.sh"
. "$PC_ROOT/tools/pc-initramfs.sh"

# A kernel series is "6.1" or "6.12" (x86-64, the host's own
# architecture; Debian's cloud kernels), "6.1-rt" or "6.12-rt" (Debian's
# PREEMPT_RT kernels of those versions) or "arm64-6.1" / "arm64-6.12"
# (arm64 under emulation),
# or an x86-64 kernel of files: "debug" or "clang" (built by
# tools/pc-debug-kernel.sh) or IMAGE:TREE, a bzImage and the build tree
# (O= works) to build the module against, which goes by its release's
# name (pc_series_name).
pc_series_arch() {
	case $1 in
	arm64-*) echo arm64 ;;
	*) echo amd64 ;;
	esac
}

# Debian packages per kernel series: image and headers.  An arm64 series
# needs the amd64 headers of the same version too: they bring the
# arch-independent headers and the kbuild host tools that the arm64
# headers use.
pc_kernel_packages() {
	case $1 in
	debug | clang) pc_debug_packages "$1"; return ;;
	*/* | *:*) return ;;
	esac
	[ -d "$PC_KERNEL_ROOTS/$1" ] && return
	case $1 in
	6.1 | arm64-6.1) echo linux-image-cloud-amd64 linux-headers-cloud-amd64 ;;
	6.12 | arm64-6.12) echo linux-image-6.12-cloud-amd64 linux-headers-6.12-cloud-amd64 ;;
	6.1-rt) echo linux-image-rt-amd64 linux-headers-rt-amd64 ;;
	6.12-rt) echo linux-image-6.12-rt-amd64 linux-headers-6.12-rt-amd64 ;;
	*) pc_die "unknown kernel series '$1' (use 6.1, 6.12, 6.1-rt, 6.12-rt, arm64-6.1 or arm64-6.12)" ;;
	esac
	case $1 in
	arm64-*) echo qemu-system-arm gcc-aarch64-linux-gnu libc6-dev-arm64-cross ;;
	esac
}

# Install what is missing (needs root and apt-get); quiet when all is there.
# Arguments are kernel series; PC_EXTRA_PACKAGES names more packages.  perl:
# a W=1 build runs scripts/kernel-doc, which needs more than perl-base.
pc_install_deps() {
	local series want=() pkgs=() p
	# shellcheck disable=SC2206 # package names are words
	want=(qemu-system-x86 busybox-static cpio gcc make libc6-dev kmod xz-utils perl
		${PC_EXTRA_PACKAGES:-})
	for series in "$@"; do
		# shellcheck disable=SC2207 # package names are words; || sees the status
		want+=($(pc_kernel_packages "$series")) || return 1
	done
	# One dpkg-query for all (a dpkg -s each took a quarter second).
	local have
	have=" $(dpkg-query -W -f='${db:Status-Status}:${Package} ' "${want[@]}" 2>/dev/null) "
	for p in "${want[@]}"; do
		[[ $have == *" installed:$p "* ]] || pkgs+=("$p")
	done
	[ ${#pkgs[@]} -eq 0 ] && return 0
	[ "$(id -u)" = 0 ] || pc_die "missing packages: ${pkgs[*]} (run as root to install them)"
	pc_log "installing ${pkgs[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q >/dev/null || pc_die "apt-get update failed"
	apt-get install -y -q --no-install-recommends "${pkgs[@]}" >/dev/null ||
		pc_die "apt-get install ${pkgs[*]} failed"
}

# pc_series_name SERIES: the name a series goes by in results and KTAP
# lines: IMAGE:TREE becomes its release; "debug" is built (or found in
# the cache) here, once, so that a failed build stops the caller.
pc_series_name() {
	case $1 in
	# Built later (tests/run starts it in the background); here only
	# what it is built from is checked.
	debug | clang) pc_debug_dir "$1" >/dev/null && echo "$1" ;;
	*:*) pc_kernel_files "${1%%:*}" "${1#*:}" ;;
	*/*) pc_die "kernel '$1': give a kernel of files as IMAGE:TREE" ;;
	*) echo "$1" ;;
	esac
}

# The newest installed kernel release of a series, e.g. 6.1.0-57-cloud-amd64
# (6.1.0-57-rt-amd64 for 6.1-rt); for arm64 the same version's generic
# flavour, e.g. 6.1.0-57-arm64.  For a kernel of files, its release.
pc_kernel_release() {
	local series=$1 v version flavour=cloud-amd64
	case $series in
	debug | clang)
		pc_debug_kernel "$series"
		pc_kernel_files "$PC_DEBUG_IMAGE" "$PC_DEBUG_TREE"
		return
		;;
	*:*)
		pc_kernel_files "${series%%:*}" "${series#*:}"
		return
		;;
	esac
	if [ -d "$PC_KERNEL_ROOTS/$series" ]; then
		echo "$series"
		return
	fi
	version=${series#arm64-}
	case $version in
	*-rt) version=${version%-rt} flavour=rt-amd64 ;;
	esac
	v=$(find /boot -maxdepth 1 -name "vmlinuz-$version.*-$flavour" -printf '%f\n' 2>/dev/null |
		sed 's/^vmlinuz-//' | sort -V | tail -n 1)
	[ -n "$v" ] || pc_die "no /boot/vmlinuz-$version.*-$flavour (install $(pc_kernel_packages "$series"))"
	case $series in
	arm64-*) echo "${v%-cloud-amd64}-arm64" ;;
	*) echo "$v" ;;
	esac
}

# Where a release's files are: / for the host's own architecture, a
# cache under $PC_OUT for arm64 (unpacked there, never installed), and
# the root of links under $PC_KERNEL_ROOTS for a kernel of files.
pc_rel_arch() {
	[ -d "$PC_KERNEL_ROOTS/$1" ] && echo amd64 && return
	case $1 in
	*-arm64) echo arm64 ;;
	*) echo amd64 ;;
	esac
}
pc_rel_root() {
	if [ -d "$PC_KERNEL_ROOTS/$1" ]; then
		echo "$PC_KERNEL_ROOTS/$1"
	elif [ "$(pc_rel_arch "$1")" = arm64 ]; then
		echo "$PC_OUT/arm64-root"
	fi
}
pc_rel_config() { echo "$(pc_rel_root "$1")/boot/config-$1"; }
# pc_cross_prefix REL: the toolchain prefix for REL's architecture
# (aarch64-linux-gnu- on arm64, nothing on the host's own x86-64).
pc_cross_prefix() {
	[ "$(pc_rel_arch "$1")" = arm64 ] && echo aarch64-linux-gnu-
	return 0
}
# pc_kbuild_args REL: make's arguments, one a line, to build a module
# for REL as its kernel was built: cross compiler, and LLVM= for a
# clang-built kernel.
pc_kbuild_args() {
	local cross
	cross=$(pc_cross_prefix "$1")
	[ -n "$cross" ] && printf '%s\n' ARCH=arm64 "CROSS_COMPILE=$cross"
	pc_kbuild_llvm "$(pc_rel_config "$1")"
}

# Fetch an arm64 release into the cache: kernel image, headers and a
# static arm64 busybox, from Debian's arm64 archive with apt-get download.
# The headers' kbuild link points at the host's amd64 kbuild tools.
pc_fetch_arm64() {
	local rel=$1 root debs kbuild
	root=$(pc_rel_root "$rel")
	debs=$PC_OUT/arm64-debs
	[ -f "$root/boot/vmlinuz-$rel" ] && [ -d "$root/usr/src/linux-headers-$rel" ] &&
		[ -x "$root/bin/busybox" ] && return 0
	[ "$(id -u)" = 0 ] || pc_die "arm64 packages for $rel are not cached (run as root to fetch them)"
	if ! dpkg --print-foreign-architectures | grep -qx arm64; then
		pc_log "adding the arm64 architecture to dpkg"
		{ dpkg --add-architecture arm64 && apt-get update -q >/dev/null; } ||
			pc_die "could not add the arm64 architecture"
	fi
	mkdir -p "$debs" "$root"
	pc_log "fetching arm64 $rel"
	(cd "$debs" && apt-get download -q "linux-image-$rel-unsigned:arm64" \
		"linux-headers-$rel:arm64" busybox-static:arm64 >/dev/null 2>&1 ||
		{ apt-get update -q >/dev/null && apt-get download -q \
			"linux-image-$rel-unsigned:arm64" "linux-headers-$rel:arm64" \
			busybox-static:arm64 >/dev/null 2>&1; }) ||
		pc_die "apt-get download of the arm64 packages for $rel failed"
	for d in "$debs"/linux-image-"$rel"-unsigned_*.deb "$debs"/linux-headers-"$rel"_*.deb \
		"$debs"/busybox-static_*_arm64.deb; do
		dpkg -x "$d" "$root" || pc_die "could not unpack $d"
	done
	kbuild=$(readlink "$root/usr/src/linux-headers-$rel/scripts")
	kbuild=${kbuild#../../lib/}
	kbuild=${kbuild%/scripts}
	[ -d "/usr/lib/$kbuild" ] || pc_die "/usr/lib/$kbuild is missing (the amd64 headers of $rel's version)"
	mkdir -p "$root/usr/lib"
	ln -sfn "/usr/lib/$kbuild" "$root/usr/lib/$kbuild"
}

# pc_build REL [TWIN]: build the module and the guest helpers for kernel
# release REL into $PC_OUT/REL; TWIN=0 leaves out the twin module (only
# the bench's dir_taken case loads it).

pc_build() {
	local rel=$1 twin=${2:-1} dir=$PC_OUT/$1 log kdir cc cross=() pids failed
	kdir=$(pc_rel_root "$rel")/usr/src/linux-headers-$rel
	[ "$(pc_rel_arch "$rel")" = arm64 ] && pc_fetch_arm64 "$rel"
	cc=$(pc_cross_prefix "$rel")gcc
	mapfile -t cross < <(pc_kbuild_args "$rel")
	mkdir -p "$dir/src"
	rm -rf "$dir/src/module" "$dir/src/include" "$dir/src/twin"
	cp -r "$PC_ROOT/module" "$PC_ROOT/include" "$dir/src/"
	# The same code under another module name, to find the directory taken.
	if [ "$twin" = 1 ]; then
		cp -r "$dir/src/module" "$dir/src/twin"
		sed -i 's/provoke_crash/provoke_crash_twin/g' "$dir/src/twin/Kbuild"
	fi
	log=$dir/build.log
	# The module and its twin at once, each on every CPU: a series'
	# build is what its guests wait for.
	pids=()
	rm -f "$log".*
	for m in module $([ "$twin" = 1 ] && echo twin); do
		make -C "$kdir" "${cross[@]}" M="$dir/src/$m" W=1 -j"$(nproc)" modules \
			>"$log.$m" 2>&1 &
		pids+=($!)
	done
	failed=0
	for m in "${pids[@]}"; do
		wait "$m" || failed=1
	done
	cat "$log".* >"$log"
	rm -f "$log".*
	[ $failed = 0 ] || { cat "$log" >&2; pc_die "module build failed for $rel"; }
	if grep -E 'warning:|error:' "$log" >&2; then
		pc_die "module build for $rel has warnings (see $log)"
	fi
	$cc -static -O2 -Wall -Wextra -Werror -o "$dir/pc-guest" \
		"$PC_ROOT/guest/pc-guest.c" || pc_die "pc-guest build failed"
	$cc -static -O2 -Wall -Wextra -Werror -I"$PC_ROOT/include" \
		-o "$dir/provoke-crash" "$PC_ROOT/tools/provoke-crash.c" \
		"$PC_ROOT/tools/checks.c" "$PC_ROOT/module/parse.c" \
		"$PC_ROOT/module/parse_compare.c" \
		"$PC_ROOT/module/parse_caller.c" ||
		pc_die "provoke-crash build failed"
}

# pc_has_config REL CONFIG_X: the kernel REL was built with CONFIG_X (y or m).
pc_has_config() {
	grep -Eq "^$2=[ym]" "$(pc_rel_config "$1")"
}

# Case files say what differs between architectures with placeholders;
# this sed script fills them in for release $1's architecture:
#   @sys@NAME      the system call's entry symbol (__x64_sys_NAME).  arm64
#                  has no getpgrp system call: its libc, and pc-guest, call
#                  getpgid(0) instead.
#   @insn_offs@    offsets of whole instructions after the entry that take
#                  a breakpoint probe (arm64's +4 is the ftrace call site).
#   @misaligned@   kprobes' errno for an offset inside an instruction.
#   "# KEY@ARCH: " header lines only count on that architecture.
pc_case_sed() {
	case $(pc_rel_arch "$1") in
	arm64)
		printf '%s %s %s\n' 's/@sys@getpgrp/__arm64_sys_getpgid/g; s/@sys@/__arm64_sys_/g;' \
			's/@insn_offs@/8 12/g; s/@misaligned@/EINVAL/g;' \
			's/^# \([a-z-]*\)@arm64: /# \1: /; /^# [a-z-]*@x86_64: /d'
		;;
	*)
		printf '%s %s %s\n' 's/@sys@/__x64_sys_/g;' \
			's/@insn_offs@/5 9/g; s/@misaligned@/EILSEQ/g;' \
			's/^# \([a-z-]*\)@x86_64: /# \1: /; /^# [a-z-]*@arm64: /d'
		;;
	esac
}

# Where ramoops keeps its records: 1 MiB of the guest's 512 MiB, taken
# away from the kernel so that it survives a reset.  On x86 memmap=
# reserves the MiB at 256 MiB: not the top, where QEMU's -kernel puts the
# initramfs again at each reset (one of 16 MB, the bench's with the whole
# matrix, reached into the top MiB and wiped the records there).  QEMU's
# arm64 virt board puts RAM at 1 GiB and the initramfs low; arm64 has no
# memmap=, so mem= leaves the last MiB out.
pc_ramoops_cmdline() {
	case $1 in
	arm64) echo "mem=511M pc_ramoops=0x5ff00000" ;;
	*) echo "memmap=1M\$0x10000000 pc_ramoops=0x10000000" ;;
	esac
}

# ramoops' record size, as guest/init gives the module (the host reads
# the records with it: engine/pcengine/ramoops.py).
PC_RAMOOPS_RECORD=0x20000

# ramoops' memory on ARCH: ADDR:SIZE (guest/init gives the module that
# size, the reserved MiB less its last page).
pc_ramoops_region() {
	echo "$(pc_ramoops_cmdline "$1" | sed 's/.*pc_ramoops=//'):0xff000"
}

# A kernel with ramoops built in (a kernel of files may have it so) gets
# on its command line what /init's insmod would have given the module.
pc_ramoops_params() {
	local region
	region=$(pc_ramoops_region "$1")
	echo "ramoops.mem_address=${region%:*} ramoops.mem_size=${region#*:}" \
		"ramoops.record_size=$PC_RAMOOPS_RECORD ramoops.max_reason=2"
}

# pc_guest_timeout REL SECONDS: the bench's time limit for one guest.
# KASAN and lockdep (the debug kernel) slow a TCG guest down, most with
# two vCPUs on one host thread: the race case ran 90 s alone, and did not
# end within 120 s beside another guest on a busy host; its boot to
# insmod took 19 s there, 6 s alone.
pc_guest_timeout() {
	if grep -q '^CONFIG_KASAN=y' "$(pc_rel_config "$1")" 2>/dev/null; then
		echo $(($2 * 3))
	else
		echo "$2"
	fi
}

# pc_boot REL CASE TIMEOUT EXTRA_CMDLINE CONSOLE_LOG OUTPUT_LOG [SMP]
# Boots a guest for /cases/CASE.sh, without pstore, through the engine
# (engine/pcengine/guest.py, whose qemu.py has QEMU's command line per
# architecture): make bench's guests (tests/bench/run).  The bench's
# cases, LKDTM's selftest, the kdump lane's crash check and the VM runner
# call the engine themselves.  Returns
# QEMU's status, 124 on a timeout.  PC_QEMU_EXTRA adds QEMU options;
# PC_INITRD boots another initramfs than the release's.
pc_boot() {
	local rel=$1 arch accel=tcg
	arch=$(pc_rel_arch "$rel")
	[ "$arch" = arm64 ] || accel=$(pc_accel)
	pc_engine guest run --arch "$arch" --accel "$accel" --smp "${7:-1}" \
		--kernel "$(pc_rel_root "$rel")/boot/vmlinuz-$rel" \
		--initrd "${PC_INITRD:-$PC_OUT/$rel/initramfs.cpio}" \
		--append "$4" --qemu-extra "${PC_QEMU_EXTRA:-}" --case "$2" \
		--console "$5" --out "$6" --timeout "$3"
}
