# SPDX-License-Identifier: GPL-2.0
# The dump is usable, not only present (make check-long: PC_KDUMP_CRASH=1).
# For a sample of crashes on each x86-64 Debian kernel of the run, the
# capture kernel keeps its dump on a disk (tools/pc-kdump.sh), and the
# crash utility (8.0.6, built once: pc_crash_tool), with the vmlinux of
# Debian's -dbg package (283 MB for 6.1, 318 MB for 6.12, kept in
# ~/.cache/provoke-crash/dbg), must show in bt of the panicking task the
# crash routine and, for a crash point, the probed function.  Sourced by
# tests/run; appends to kdump-crash.result.
# shellcheck shell=bash

# NAME TRIGGER-COMMAND FRAMES: EREs that bt must show (@sys@NAME is the
# system call's entry, as in the cases).  pc_crash_panic ends in its call
# of panic(), which never returns: the return address on the stack is past
# its end, and crash names the frame above, the dispatcher pc_crash_run,
# as the kernel's own unwinder does with a "?".  A routine that faults
# shows as crash's "exception RIP" line.  At an entry point crash's
# unwinder gets to ftrace's callback (pc_entry_eligible); past ftrace's
# trampoline, which has no ORC data, it scans the stack: the probed
# function may be missing there (it was on 6.1: crash named stale
# frames instead), the system call's entry frame is not.
kdump_crash_samples=(
	"panic|pc-guest write \$D/panic 1|pc_crash_run panic"
	"null_dereference|pc-guest write \$D/null_dereference 1|pc_crash_null_dereference"
	"point_null_dereference|pc-guest write \$D/crashpoints '@sys@getppid null_dereference'; pc-guest hit getppid 1|pc_crash_null_dereference pc_entry_eligible entry_SYSCALL_64"
)

# kdump_crash_case SERIES REL SAMPLE CRASH: one guest, one dump, one bt.
kdump_crash_case() {
	: "${results?}" "${guest_timeout?}" # tests/bench-step sets them
	local series=$1 rel=$2 crash=$4 name cmd frames dir case_dir vmlinux why="" f
	IFS='|' read -r name cmd frames <<<"$3"
	cmd=$(echo "$cmd" | sed "$(pc_case_sed "$rel")")
	frames=$(echo "$frames" | sed "$(pc_case_sed "$rel")")
	dir=$results/kdump-crash-$series-$name
	case_dir=$dir/cases
	mkdir -p "$case_dir"
	echo "$cmd" >"$case_dir/kc_$name.sh"
	if ! vmlinux=$(pc_dbg_vmlinux "$rel"); then
		echo "not ok kdump-crash/$series/$name"
		echo "# no vmlinux-$rel: apt-get download linux-image-$rel-dbg failed"
		return
	fi
	PC_INITRD=$dir/initramfs-kdump.cpio
	pc_kdump_initrd "$rel" "$PC_INITRD" "$PC_OUT/$rel/initramfs.cpio" \
		<(cd "$case_dir/.." && find cases | cpio -o -H newc --quiet)
	PC_INITRD=$PC_INITRD PC_QEMU_EXTRA=$(pc_kdump_disk "$dir/disk.img") \
		pc_boot "$rel" "kc_$name" "$guest_timeout" "$(pc_kdump_cmdline "$rel" disk) oops=panic" \
		"$dir/console" "$dir/out"
	if ! pc_kdump_save "$dir/disk.img" "$dir/out" "$dir"; then
		why="no dump was kept (see $dir/out)"
	else
		printf 'bt\nquit\n' | "$crash" -s "$vmlinux" "$dir/vmcore" >"$dir/bt.txt" 2>&1
		for f in $frames; do
			grep -Eq -- "$f" "$dir/bt.txt" || why="${why:+$why; }bt lacks $f"
		done
	fi
	if [ -z "$why" ]; then
		echo "ok kdump-crash/$series/$name"
		grep -E -- "$(echo "$frames" | tr ' ' '|')" "$dir/bt.txt" | head -n 4 | sed 's/^/#   bt: /'
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
	: "${kernels?}" # tests/bench-step sets them
	local series rel sample crash
	crash=$(pc_crash_tool)
	for series in $kernels; do
		pc_built_kernel "$series" && continue
		[ "$(pc_series_arch "$series")" = amd64 ] || continue
		rel=$(pc_kernel_release "$series")
		for sample in "${kdump_crash_samples[@]}"; do
			if [ -x "$crash" ]; then
				kdump_crash_case "$series" "$rel" "$sample" "$crash"
			else
				echo "not ok kdump-crash/$series/${sample%%|*}"
				echo "# $crash"
			fi
		done
	done >"$results/kdump-crash.result"
}
