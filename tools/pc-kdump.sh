# SPDX-License-Identifier: GPL-2.0
# kdump in a throw-away guest, sourced after pc-vm-lib.sh.  A kdump guest
# boots with crashkernel= and an initramfs made of the usual one plus a
# second cpio archive (the kernel unpacks both): the kernel image to load
# as the capture kernel, kexec and its libraries, and the capture kernel's
# own small initramfs (tests/guest/capture-init, vmcore-dmesg, makedumpfile
# and their libraries).  x86-64 only for now: the tools come from the
# host's kexec-tools and makedumpfile packages.
# shellcheck shell=bash

# Memory the guest reserves for the capture kernel (of its 512 MiB).
PC_KDUMP_CMDLINE="crashkernel=128M pc_kdump=1"

# pc_kdump_copy_bins ROOT BIN...: BINs into ROOT/sbin with every shared
# library they load, at the paths the dynamic loader looks in.
pc_kdump_copy_bins() {
	local root=$1 bin lib
	shift
	mkdir -p "$root/sbin"
	for bin in "$@"; do
		cp "$bin" "$root/sbin/"
		for lib in $(ldd "$bin" | grep -o '/[^ ]*'); do
			mkdir -p "$root$(dirname "$lib")"
			cp -L "$lib" "$root$lib"
		done
	done
}

# pc_kdump_available REL: why REL cannot have a kdump guest here, if so.
pc_kdump_available() {
	local tool
	[ "$(pc_rel_arch "$1")" = amd64 ] || {
		echo "the kdump guest is x86-64 only so far"
		return 1
	}
	for tool in CONFIG_KEXEC CONFIG_CRASH_DUMP CONFIG_PROC_VMCORE; do
		grep -q "^$tool=y" "$(pc_rel_config "$1")" || {
			echo "$1 is built without $tool"
			return 1
		}
	done
	for tool in /usr/sbin/kexec /usr/sbin/vmcore-dmesg /usr/bin/makedumpfile; do
		[ -x $tool ] || {
			echo "$tool is missing (packages kexec-tools, makedumpfile)"
			return 1
		}
	done
}

# pc_kdump_pack REL: $PC_OUT/REL/initramfs-kdump.gz, after pc_pack_initramfs.
pc_kdump_pack() {
	local rel=$1 dir=$PC_OUT/$1 from root cap
	from=$(pc_rel_root "$rel")
	root=$dir/kdump-extra
	cap=$dir/kdump-capture
	rm -rf "$root" "$cap"
	mkdir -p "$root/kdump" "$cap"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp}
	cp "$from/bin/busybox" "$cap/bin/busybox"
	cp "$dir/pc-guest" "$cap/bin/"
	cp "$PC_ROOT/tests/guest/capture-init" "$cap/init"
	chmod +x "$cap/init"
	pc_kdump_copy_bins "$cap" /usr/sbin/vmcore-dmesg /usr/bin/makedumpfile
	(cd "$cap" && find . | cpio -o -H newc --quiet | gzip -1) >"$root/kdump/capture.gz"
	cp "$from/boot/vmlinuz-$rel" "$root/kdump/vmlinuz"
	cp "$PC_ROOT/tests/guest/kdump-load.sh" "$root/kdump/load.sh"
	pc_kdump_copy_bins "$root" /usr/sbin/kexec
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$dir/kdump-extra.gz"
	cat "$dir/initramfs.gz" "$dir/kdump-extra.gz" >"$dir/initramfs-kdump.gz"
}
