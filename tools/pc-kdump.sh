# SPDX-License-Identifier: GPL-2.0
# kdump in a throw-away guest, sourced after pc-vm-lib.sh.  A kdump guest
# boots with crashkernel= and an initramfs made of the usual one plus a
# second cpio archive (the kernel unpacks both): the kernel image to load
# as the capture kernel, kexec and its libraries, and the capture kernel's
# own small initramfs (guest/capture-init, vmcore-dmesg, makedumpfile
# and their libraries).  The tools come from the host's kexec-tools and
# makedumpfile packages on x86-64, from Debian's arm64 ones on arm64.
# shellcheck shell=bash

# pc_kdump_cmdline REL [disk]: the first kernel's command line for a kdump
# guest: the memory it reserves for the capture kernel (of its 512 MiB),
# and with "disk", that the capture kernel keeps the dump on a disk.
# arm64 6.12's capture kernel (a 40 MB Image, every driver built in) ran
# out of memory in 128M, parsing its BTF.
pc_kdump_cmdline() {
	local mem=128M
	[ "$(pc_rel_arch "$1")" = arm64 ] && [[ $1 != 6.1.* ]] && mem=192M
	echo "crashkernel=$mem pc_kdump=1${2:+ pc_dump_disk=1}"
}
# The guest's tools, as paths in their root (pc_kdump_tools_root).
pc_kdump_bins="/sbin/kexec /sbin/vmcore-dmesg /usr/bin/makedumpfile"

# pc_kdump_tools_root REL: the root the guest's tools come from (empty:
# the host's own, for an x86-64 guest).
pc_kdump_tools_root() {
	if [ "$(pc_rel_arch "$1")" = arm64 ]; then
		echo "$PC_OUT/arm64-kdump"
	fi
}

# pc_kdump_fetch_arm64: Debian's arm64 kexec-tools and makedumpfile, and
# the library packages they depend on, unpacked (never installed) into
# $PC_OUT/arm64-kdump; the debs are kept with the other arm64 ones.  Only
# lib* dependencies are followed: the rest (perl, debconf) serve the
# packages' scripts, not the binaries.
pc_kdump_fetch_arm64() {
	local dir=$PC_OUT/arm64-kdump debs=$PC_OUT/arm64-debs todo pkgs=" " p
	[ -x "$dir/sbin/kexec" ] && [ -x "$dir/usr/bin/makedumpfile" ] && return 0
	[ "$(id -u)" = 0 ] || {
		echo "arm64 kexec-tools and makedumpfile are not cached (run as root to fetch them)"
		return 1
	}
	todo="kexec-tools makedumpfile"
	while [ -n "${todo// /}" ]; do
		read -r p todo <<<"$todo"
		[[ $pkgs == *" $p "* ]] && continue
		pkgs="$pkgs$p "
		todo="$todo $(apt-cache depends --no-recommends --no-suggests --no-conflicts \
			--no-breaks --no-replaces --no-enhances "$p:arm64" 2>/dev/null |
			sed -n 's/^ *|\{0,1\}Depends: \(lib[^ <>]*\|zlib1g[^ ]*\)$/\1/p' |
			sed 's/:arm64$//' | tr '\n' ' ')"
	done
	mkdir -p "$debs" "$dir"
	pc_log "fetching arm64${pkgs% }"
	# shellcheck disable=SC2046,SC2086 # one word per package
	(cd "$debs" && apt-get download -q $(printf '%s:arm64 ' $pkgs) >/dev/null 2>&1) || {
		echo "apt-get download of arm64${pkgs% } failed"
		return 1
	}
	for p in $pkgs; do
		dpkg -x "$(printf '%s\n' "$debs/${p}"_*_arm64.deb | sort -V | tail -n 1)" "$dir" || {
			echo "could not unpack arm64 $p"
			return 1
		}
	done
}

# pc_kdump_copy_bins FROM ROOT BIN...: BINs (paths in the root FROM) into
# ROOT/sbin with every shared library they load and the loader, at the
# paths the loader looks in.  Read from the ELF files (readelf reads any
# architecture's), not ldd, which runs them: arm64's cannot run here.
pc_kdump_copy_bins() {
	local from=$1 root=$2 bin
	shift 2
	mkdir -p "$root/sbin"
	for bin in "$@"; do
		cp "$from$bin" "$root/sbin/" && pc_kdump_copy_libs "$from" "$root" "$from$bin" ||
			return 1
	done
}

# pc_kdump_copy_libs FROM ROOT ELF: ELF's loader and libraries, and theirs.
pc_kdump_copy_libs() {
	local from=$1 root=$2 elf=$3 lib dir multiarch
	multiarch=x86_64-linux-gnu
	readelf -h "$elf" | grep -q 'Machine:.*AArch64' && multiarch=aarch64-linux-gnu
	lib=$(readelf -l "$elf" | sed -n 's/.*program interpreter: \(.*\)]$/\1/p')
	if [ -n "$lib" ] && [ ! -e "$root$lib" ]; then
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$from$lib" "$root$lib" || return 1
	fi
	for lib in $(readelf -d "$elf" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p'); do
		dir=/lib/$multiarch
		[ -e "$from$dir/$lib" ] || dir=/usr/lib/$multiarch
		[ -e "$from$dir/$lib" ] || {
			pc_log "$lib, which $elf needs, is not in $from/{,usr/}lib/$multiarch"
			return 1
		}
		[ -e "$root$dir/$lib" ] && continue
		mkdir -p "$root$dir"
		cp -L "$from$dir/$lib" "$root$dir/$lib" &&
			pc_kdump_copy_libs "$from" "$root" "$root$dir/$lib" || return 1
	done
}

# pc_kdump_available REL: why REL cannot have a kdump guest here, if so
# (fetches arm64's tools on the way).
pc_kdump_available() {
	local tool from
	# An arm64 kernel's config comes with its image, fetched on first use.
	[ "$(pc_rel_arch "$1")" = arm64 ] && [ ! -f "$(pc_rel_config "$1")" ] &&
		pc_fetch_arm64 "$1"
	for tool in CONFIG_KEXEC CONFIG_CRASH_DUMP CONFIG_PROC_VMCORE; do
		grep -q "^$tool=y" "$(pc_rel_config "$1")" || {
			echo "$1 is built without $tool"
			return 1
		}
	done
	if [ "$(pc_rel_arch "$1")" = arm64 ]; then
		pc_kdump_fetch_arm64 || return 1
	fi
	from=$(pc_kdump_tools_root "$1")
	for tool in $pc_kdump_bins; do
		[ -x "$from$tool" ] || {
			echo "$from$tool is missing (packages kexec-tools, makedumpfile)"
			return 1
		}
	done
}

# pc_arm64_text_offset IMAGE: how far the kernel's _stext is from its
# _text, read from an arm64 Image's PE/COFF header (its EFI stub): the
# .text section starts at the end of the header, which the linker script
# aligns to SEGMENT_ALIGN, and that is where _stext is.  kdump-load.sh
# needs it: see there.
pc_arm64_text_offset() {
	local image=$1 pe nsec opt sec i
	pe=$(pc_file_uint "$image" 60 4)
	[ "$(od -An -c -j "$pe" -N 2 "$image" | tr -d ' ')" = PE ] || return 1
	nsec=$(pc_file_uint "$image" $((pe + 6)) 2)
	opt=$(pc_file_uint "$image" $((pe + 20)) 2)
	for ((i = 0; i < nsec; i++)); do
		sec=$((pe + 24 + opt + 40 * i))
		if [ "$(od -An -c -j "$sec" -N 5 "$image" | tr -d ' ')" = .text ]; then
			pc_file_uint "$image" $((sec + 12)) 4
			return
		fi
	done
	return 1
}

# pc_file_uint FILE OFFSET SIZE: the little-endian unsigned integer there.
pc_file_uint() {
	od -An -t "u$3" -j "$2" -N "$3" "$1" | tr -d ' '
}

# pc_kdump_extra REL: $PC_OUT/REL/kdump-extra.cpio, the second archive.
pc_kdump_extra() {
	local rel=$1 dir=$PC_OUT/$1 from tools root cap image off
	from=$(pc_rel_root "$rel")
	tools=$(pc_kdump_tools_root "$rel")
	root=$dir/kdump-extra
	cap=$dir/kdump-capture
	rm -rf "$root" "$cap"
	mkdir -p "$root/kdump" "$cap"/{bin,sbin,usr/bin,usr/sbin,proc,sys,dev,tmp}
	cp "$from/bin/busybox" "$cap/bin/busybox"
	cp "$dir/pc-guest" "$cap/bin/"
	cp "$PC_ROOT/guest/capture-init" "$cap/init"
	cp "$PC_ROOT/guest/pc-protocol.sh" "$cap/"
	chmod +x "$cap/init"
	pc_kdump_copy_bins "$tools" "$cap" /sbin/vmcore-dmesg /usr/bin/makedumpfile || return 1
	# virtio-blk, for a disk to keep the dump on (PC_KDUMP_DISK), and
	# arm64's output port.
	pc_copy_modules "$rel" "$cap" drivers/virtio/virtio_ring drivers/virtio/virtio \
		drivers/virtio/virtio_pci_legacy_dev drivers/virtio/virtio_pci_modern_dev \
		drivers/virtio/virtio_pci drivers/block/virtio_blk
	pc_copy_out_modules "$rel" "$cap"
	(cd "$cap" && find . | cpio -o -H newc --quiet) >"$root/kdump/capture.cpio"
	image=$from/boot/vmlinuz-$rel
	cp "$image" "$root/kdump/vmlinuz"
	if [ "$(pc_rel_arch "$rel")" = arm64 ]; then
		off=$(pc_arm64_text_offset "$image") || {
			pc_log "$image: no PE/COFF .text section to place _text by"
			return 1
		}
		echo "$off" >"$root/kdump/text-offset"
	fi
	cp "$PC_ROOT/guest/kdump-load.sh" "$root/kdump/load.sh"
	pc_kdump_copy_bins "$tools" "$root" /sbin/kexec || return 1
	(cd "$root" && find . | cpio -o -H newc --quiet) >"$dir/kdump-extra.cpio"
}

# pc_kdump_initrd REL OUT [ARCHIVE...]: OUT, a kdump guest's initramfs:
# the ARCHIVEs (default REL's initramfs.cpio), then pc_kdump_extra's.
pc_kdump_initrd() {
	local rel=$1 out=$2
	shift 2
	[ $# -gt 0 ] || set -- "$PC_OUT/$rel/initramfs.cpio"
	cat "$@" "$PC_OUT/$rel/kdump-extra.cpio" >"$out"
}

# pc_kdump_pack REL: $PC_OUT/REL/initramfs-kdump.cpio, after pc_pack_initramfs.
pc_kdump_pack() {
	pc_kdump_extra "$1" && pc_kdump_initrd "$1" "$PC_OUT/$1/initramfs-kdump.cpio"
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
# capture.txt (the capture's figures).  Fails (1) when there was no
# capture, and (2) when the capture kernel read the log but kept no dump.
pc_kdump_save() {
	local disk=$1 output=$2 dir=$3
	mkdir -p "$dir"
	tr -d '\r' <"$output" | sed -n '/^PC-KDUMP-DMESG-BEGIN/,/^PC-KDUMP-DMESG-END/p' |
		sed '1d;$d' >"$dir/vmcore-dmesg.txt"
	[ -s "$dir/vmcore-dmesg.txt" ] || return 1
	grep -q '^PC-KDUMP-DUMP [1-9]' "$output" || return 2
	makedumpfile -R "$dir/vmcore" <"$disk" >/dev/null 2>"$dir/makedumpfile.log" ||
		return 2
	rm -f "$disk" "$dir/makedumpfile.log"
}

# pc_kdump_note OUTPUT: the capture's figures, as a KTAP diagnostic (the
# time from the panic to the capture kernel's start, the dump's size):
# engine/pcengine/kdump.py.
pc_kdump_note() {
	pc_engine kdump note "$1"
}

# What building crash needs (pc_install_deps' PC_EXTRA_PACKAGES).
# shellcheck disable=SC2034 # read by the runner (--bt) and the bench
PC_CRASH_PACKAGES="curl g++ patch bison flex texinfo libncurses-dev zlib1g-dev liblzo2-dev"

# pc_crash_tool: crash 8.0.6, built once into the cache from Debian's
# source (trixie's; its tarball carries the gdb it links): Debian 12's
# crash 8.0.2 cannot open a 6.4 or later dump ("invalid structure member
# offset: module_core_size").  The tarball is pinned by its SHA-256; a
# lock keeps two runs from building into the same place.  On failure it
# prints why on stdout and returns 1.
pc_crash_tool() {
	local cache=${XDG_CACHE_HOME:-$HOME/.cache}/provoke-crash/crash-8.0.6
	local tarball=crash_8.0.6.orig.tar.gz
	local sum=097c6c94ded7e24db4af58de24744bd28276d6f5bae0828bc6b6a02664c4282a
	mkdir -p "$cache" && exec {lock}>"$cache.lock" && flock "$lock" || return 1
	if [ ! -x "$cache/crash" ] && [ ! -s "$cache/$tarball" ]; then
		if ! curl -fsS --retry 3 -o "$cache/$tarball.tmp" \
			"http://deb.debian.org/debian/pool/main/c/crash/$tarball" 2>/dev/null ||
			! echo "$sum  $cache/$tarball.tmp" | sha256sum -c --quiet - >/dev/null 2>&1; then
			rm -f "$cache/$tarball.tmp"
			echo "could not fetch $tarball (SHA-256 $sum) from deb.debian.org"
			exec {lock}>&-
			return 1
		fi
		mv "$cache/$tarball.tmp" "$cache/$tarball"
	fi
	if [ ! -x "$cache/crash" ]; then
		rm -rf "$cache/src" && mkdir "$cache/src" &&
			tar -xzf "$cache/$tarball" -C "$cache/src" --strip-components=1 &&
			nice make -C "$cache/src" -j"$(nproc)" lzo >"$cache/build.log" 2>&1 &&
			strip -o "$cache/crash.tmp" "$cache/src/crash" && mv "$cache/crash.tmp" "$cache/crash" &&
			rm -rf "$cache/src"
	fi
	exec {lock}>&-
	[ -x "$cache/crash" ] || { echo "crash 8.0.6 did not build: see $cache/build.log"; return 1; }
	echo "$cache/crash"
}

# pc_dbg_vmlinux REL: the vmlinux with DWARF of REL: a built tree's own,
# or that of Debian's -dbg package, fetched once (283 MB for 6.1, 318 MB
# for 6.12, kept in ~/.cache/provoke-crash/dbg).
pc_dbg_vmlinux() {
	local rel=$1 cache=${XDG_CACHE_HOME:-$HOME/.cache}/provoke-crash/dbg deb
	local vmlinux=$cache/vmlinux-$rel tree
	tree=$PC_KERNEL_ROOTS/$rel/usr/src/linux-headers-$rel
	if [ -d "$PC_KERNEL_ROOTS/$rel" ]; then
		[ -s "$tree/vmlinux" ] && echo "$tree/vmlinux" && return
		return 1
	fi
	[ -s "$vmlinux" ] && echo "$vmlinux" && return
	mkdir -p "$cache"
	deb=$(find "$cache" -maxdepth 1 -name "linux-image-$rel-dbg_*.deb" | sort | head -n 1)
	if [ -z "$deb" ]; then
		(cd "$cache" && apt-get download -q "linux-image-$rel-dbg" >/dev/null 2>&1) || return 1
		deb=$(find "$cache" -maxdepth 1 -name "linux-image-$rel-dbg_*.deb" | sort | head -n 1)
	fi
	dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/lib/debug/boot/vmlinux-$rel" >"$vmlinux.tmp" &&
		mv "$vmlinux.tmp" "$vmlinux" && echo "$vmlinux"
}
