# SPDX-License-Identifier: GPL-2.0
# The dump is usable, not only present (make check-long: PC_KDUMP_CRASH=1).
# For a sample of crashes on each x86-64 Debian kernel of the run, the
# capture kernel keeps its dump on a disk (tools/pc-kdump.sh), and the
# crash utility (8.0.6, built once: kdump_crash_tool), with the vmlinux of
# Debian's -dbg package (283 MB for 6.1, 318 MB for 6.12, kept in
# ~/.cache/provoke-crash/dbg), must show in bt of the panicking task the
# crash routine and, for a crash point, the probed function.  Sourced by
# tests/run; appends to kdump-crash.result.
# shellcheck shell=bash

# NAME TRIGGER-COMMAND FRAMES [STACK]: EREs that bt must show, and EREs
# that bt -t (every text address on the stack) must show.  pc_crash_panic
# ends in its call of panic(), which never returns: the return address on
# the stack is past its end, and crash names the frame above, the
# dispatcher pc_crash_run, as the kernel's own unwinder does with a "?".
# At an entry point, crash 8.0.2's unwinder stops at ftrace's trampoline
# (allocated at run time, no symbol, no unwind data) and goes on with
# stale words: the probed function is found as a return address on the
# stack (bt -t), not as a frame.
kdump_crash_samples=(
	"panic|pc-guest write \$D/panic 1|pc_crash_run panic"
	"null_dereference|pc-guest write \$D/null_dereference 1|pc_crash_null_dereference"
	"point_null_dereference|pc-guest write \$D/crashpoints '@sys@getppid null_dereference'; pc-guest hit getppid 1|pc_crash_null_dereference pc_entry_hit|@sys@getppid"
)

# kdump_crash_tool: crash 8.0.6, built once into the cache from Debian's
# source (trixie's; its tarball carries the gdb it links): Debian 12's
# crash 8.0.2 cannot open a 6.4 or later dump ("invalid structure member
# offset: module_core_size").  The tarball is pinned by its SHA-256.
kdump_crash_tool() {
	local cache=${XDG_CACHE_HOME:-$HOME/.cache}/provoke-crash/crash-8.0.6
	local tarball=crash_8.0.6.orig.tar.gz
	local sum=097c6c94ded7e24db4af58de24744bd28276d6f5bae0828bc6b6a02664c4282a
	[ -x "$cache/crash" ] && echo "$cache/crash" && return
	mkdir -p "$cache"
	if [ ! -s "$cache/$tarball" ]; then
		curl -fsS -o "$cache/$tarball.tmp" \
			"http://deb.debian.org/debian/pool/main/c/crash/$tarball" &&
			mv "$cache/$tarball.tmp" "$cache/$tarball" || return 1
	fi
	echo "$sum  $cache/$tarball" | sha256sum -c --quiet - || return 1
	rm -rf "$cache/src" && mkdir "$cache/src" &&
		tar -xzf "$cache/$tarball" -C "$cache/src" --strip-components=1 &&
		nice make -C "$cache/src" -j"$(nproc)" lzo >"$cache/build.log" 2>&1 &&
		cp "$cache/src/crash" "$cache/crash.tmp" && mv "$cache/crash.tmp" "$cache/crash" &&
		rm -rf "$cache/src" && echo "$cache/crash"
}

# kdump_crash_vmlinux REL: the debug vmlinux of REL, fetched once.
kdump_crash_vmlinux() {
	local rel=$1 cache=${XDG_CACHE_HOME:-$HOME/.cache}/provoke-crash/dbg deb
	local vmlinux=$cache/vmlinux-$rel
	[ -s "$vmlinux" ] && echo "$vmlinux" && return
	mkdir -p "$cache"
	deb=$(ls "$cache"/linux-image-"$rel"-dbg_*.deb 2>/dev/null | head -n 1)
	if [ -z "$deb" ]; then
		(cd "$cache" && apt-get download -q "linux-image-$rel-dbg" >/dev/null 2>&1) || return 1
		deb=$(ls "$cache"/linux-image-"$rel"-dbg_*.deb | head -n 1)
	fi
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/lib/debug/boot/vmlinux-$rel" >"$vmlinux.tmp" &&
		mv "$vmlinux.tmp" "$vmlinux" && echo "$vmlinux"
}

# kdump_crash_case SERIES REL SAMPLE: one guest, one dump, one bt.
kdump_crash_case() {
	local series=$1 rel=$2 name cmd frames stack dir case_dir vmlinux crash why="" f
	IFS='|' read -r name cmd frames stack <<<"$3"
	cmd=$(echo "$cmd" | sed "$(pc_case_sed "$rel")")
	stack=$(echo "$stack" | sed "$(pc_case_sed "$rel")")
	dir=$results/kdump-crash-$series-$name
	case_dir=$dir/cases
	mkdir -p "$case_dir"
	echo "$cmd" >"$case_dir/kc_$name.sh"
	if ! crash=$(kdump_crash_tool); then
		echo "not ok kdump-crash/$series/$name"
		echo "# crash 8.0.6 could not be built (see ~/.cache/provoke-crash/crash-8.0.6)"
		return
	fi
	if ! vmlinux=$(kdump_crash_vmlinux "$rel"); then
		echo "not ok kdump-crash/$series/$name"
		echo "# no vmlinux-$rel: apt-get download linux-image-$rel-dbg failed"
		return
	fi
	PC_INITRD=$dir/initramfs-kdump.gz
	pc_kdump_initrd "$rel" "$PC_INITRD" "$PC_OUT/$rel/initramfs.gz" \
		<(cd "$case_dir/.." && find cases | cpio -o -H newc --quiet | gzip -1)
	PC_INITRD=$PC_INITRD PC_QEMU_EXTRA=$(pc_kdump_disk "$dir/disk.img") \
		pc_boot "$rel" "kc_$name" "$guest_timeout" "$PC_KDUMP_DISK_CMDLINE oops=panic" \
		"$dir/console" "$dir/out" 1 0
	if ! pc_kdump_save "$dir/disk.img" "$dir/out" "$dir"; then
		why="no dump was kept (see $dir/out)"
	else
		printf 'bt\nquit\n' | "$crash" -s "$vmlinux" "$dir/vmcore" >"$dir/bt.txt" 2>&1
		for f in $frames; do
			grep -Eq -- "$f" "$dir/bt.txt" || why="${why:+$why; }bt lacks $f"
		done
		if [ -n "$stack" ]; then
			printf 'bt -t\nquit\n' | "$crash" -s "$vmlinux" "$dir/vmcore" >"$dir/bt-t.txt" 2>&1
			for f in $stack; do
				grep -Eq -- "$f" "$dir/bt-t.txt" || why="${why:+$why; }bt -t lacks $f"
			done
		fi
	fi
	if [ -z "$why" ]; then
		echo "ok kdump-crash/$series/$name"
		grep -E -- "$(echo "$frames" | tr ' ' '|')" "$dir/bt.txt" | head -n 4 | sed 's/^/#   bt: /'
		[ -z "$stack" ] || grep -E -- "$(echo "$stack" | tr ' ' '|')" "$dir/bt-t.txt" |
			head -n 2 | sed 's/^/#   bt -t: /'
		echo "#   vmcore: $(stat -c %s "$dir/vmcore") bytes"
		rm -f "$dir/vmcore"
	else
		echo "not ok kdump-crash/$series/$name"
		echo "# $why"
		tail -n 15 "$dir/bt.txt" 2>/dev/null | sed 's/^/# /'
	fi
}

# kdump_crash_check: every sample on every x86-64 Debian kernel of the run.
kdump_crash_check() {
	local series rel sample
	for series in $kernels; do
		pc_built_kernel "$series" && continue
		[ "$(pc_series_arch "$series")" = amd64 ] || continue
		rel=$(pc_kernel_release "$series")
		for sample in "${kdump_crash_samples[@]}"; do
			kdump_crash_case "$series" "$rel" "$sample"
		done
	done >"$results/kdump-crash.result"
}
