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
# The same, when the capture kernel is to keep the dump on a disk.
PC_KDUMP_DISK_CMDLINE="$PC_KDUMP_CMDLINE pc_dump_disk=1"

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

# pc_kdump_extra REL: $PC_OUT/REL/kdump-extra.gz, the second archive.
pc_kdump_extra() {
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
	# virtio-blk, for a disk to keep the dump on (PC_KDUMP_DISK).
	for m in virtio/virtio_ring virtio/virtio virtio/virtio_pci_legacy_dev \
		virtio/virtio_pci_modern_dev virtio/virtio_pci block/virtio_blk; do
		m=$from/lib/modules/$rel/kernel/drivers/$m
		if [ -f "$m.ko" ]; then
			cp "$m.ko" "$cap/"
		elif [ -f "$m.ko.xz" ]; then
			xz -dc "$m.ko.xz" >"$cap/$(basename "$m").ko"
		fi
	done
	(cd "$cap" && find . | cpio -o -H newc --quiet | gzip -1) >"$root/kdump/capture.gz"
	cp "$from/boot/vmlinuz-$rel" "$root/kdump/vmlinuz"
	cp "$PC_ROOT/tests/guest/kdump-load.sh" "$root/kdump/load.sh"
	pc_kdump_copy_bins "$root" /usr/sbin/kexec
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$dir/kdump-extra.gz"
}

# pc_kdump_pack REL: $PC_OUT/REL/initramfs-kdump.gz, after pc_pack_initramfs.
pc_kdump_pack() {
	pc_kdump_extra "$1" &&
		cat "$PC_OUT/$1/initramfs.gz" "$PC_OUT/$1/kdump-extra.gz" >"$PC_OUT/$1/initramfs-kdump.gz"
}

# pc_kdump_disk FILE: a QEMU option for a blank disk FILE that the capture
# kernel writes the dump onto (and pc_kdump_cmdline's pc_dump_disk=1 tells
# it to wait for it).
pc_kdump_disk() {
	rm -f "$1"
	truncate -s 256M "$1"
	echo "-drive file=$1,format=raw,if=virtio"
}

# pc_kdump_save DISK OUTPUT DIR: from a capture's disk and case output, DIR
# gets vmcore (kdump-compressed, makedumpfile -R), vmcore-dmesg.txt and
# capture.txt (the capture's figures).  Fails when there was no capture.
pc_kdump_save() {
	local disk=$1 output=$2 dir=$3
	mkdir -p "$dir"
	tr -d '\r' <"$output" | sed -n '/^PC-KDUMP-DMESG-BEGIN/,/^PC-KDUMP-DMESG-END/p' |
		sed '1d;$d' >"$dir/vmcore-dmesg.txt"
	[ -s "$dir/vmcore-dmesg.txt" ] || return 1
	makedumpfile -R "$dir/vmcore" <"$disk" >/dev/null 2>"$dir/makedumpfile.log" ||
		return 1
	rm -f "$disk" "$dir/makedumpfile.log"
}

# pc_kdump_note OUTPUT: the capture's figures, as a KTAP diagnostic: panic to
# capture-kernel start on the CPU counter both kernels share (the first
# kernel's reading when it loaded kdump, plus its log's last timestamp
# less its uptime then; the capture kernel's reading less its uptime),
# and the compressed dump's size.
pc_kdump_note() {
	tr -d '\r' <"$1" | awk '
		/^PC-KDUMP-CLOCK / { split($2, a, "="); c0 = a[2] / 1e9; split($3, a, "="); u0 = a[2] }
		/^PC-KDUMP-CAPTURE / { split($2, a, "="); c1 = a[2] / 1e9; split($3, a, "="); u1 = a[2] }
		/^PC-KDUMP-DMESG-BEGIN/ { in_log = 1; next }
		/^PC-KDUMP-DMESG-END/ { in_log = 0 }
		in_log && match($0, /^\[ *[0-9]+\.[0-9]+\]/) {
			t = substr($0, RSTART + 1, RLENGTH - 2) + 0
		}
		/^PC-KDUMP-DUMP / { size = $2 }
		END {
			if (c0 == "" || c1 == "" || t == "")
				exit
			printf "#   kdump: panic to capture kernel start %.2f s (guest CPU counter), dump %.1f MB\n",
				(c1 - u1) - (c0 + t - u0), size / 1048576
		}'
}
