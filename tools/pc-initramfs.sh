# SPDX-License-Identifier: GPL-2.0
# The guest's root: the kernel's own modules it needs (ramoops, and on
# arm64 the virtio port of the case's output), found where the system or
# the kernel's tree keeps them, and the initramfs packed around the
# module, the guest helpers, /init and the cases.  Sourced by
# tools/pc-vm-lib.sh, whose pc_rel_* it uses.
# shellcheck shell=bash

# pc_module_file REL MODULE: the file of REL's module (a path under its
# kernel/ tree, no suffix), .ko or .ko.xz, where the guests' modules come
# from: /lib/modules/REL for a Debian release, the root of links for a
# kernel of files (pc_kernel_files: its tree's, else the system's).
# Fails if REL has none (built in, not built, or not found).
pc_module_file() {
	local f
	f=$(pc_rel_root "$1")/lib/modules/$1/kernel/$2
	if [ -f "$f.ko" ]; then
		echo "$f.ko"
	elif [ -f "$f.ko.xz" ]; then
		echo "$f.ko.xz"
	else
		return 1
	fi
}

# pc_module_absent REL MODULE: nothing if REL has the module as a file;
# else why not, and where it was looked for.
pc_module_absent() {
	local rel=$1 m=$2 tree where
	pc_module_file "$rel" "$m" >/dev/null && return 0
	where=$(pc_rel_root "$rel")/lib/modules/$rel/kernel/$(dirname "$m")
	# A kernel of files: its tree, then the system's modules.
	tree=$(readlink "$(pc_rel_root "$rel")/usr/src/linux-headers-$rel" 2>/dev/null) &&
		where="$tree/$(dirname "$m") and /lib/modules/$rel/kernel/$(dirname "$m")"
	echo "no $(basename "$m").ko for $rel (looked in $where)"
}

# pc_ramoops_absent REL: nothing if a guest of REL can keep records in
# ramoops (built in, or ramoops.ko and reed_solomon.ko, which /init
# loads); else why not.
pc_ramoops_absent() {
	local rel=$1 why
	grep -qx 'CONFIG_PSTORE_RAM=y' "$(pc_rel_config "$rel")" 2>/dev/null && return 0
	if ! pc_has_config "$rel" CONFIG_PSTORE_RAM; then
		echo "$rel has no CONFIG_PSTORE_RAM"
		return 0
	fi
	why=$(pc_module_absent "$rel" fs/pstore/ramoops)
	[ -z "$why" ] && grep -qx 'CONFIG_REED_SOLOMON=m' "$(pc_rel_config "$rel")" &&
		why=$(pc_module_absent "$rel" lib/reed_solomon/reed_solomon)
	[ -z "$why" ] || echo "$why"
}

# pc_copy_modules REL DEST MODULE...: REL's modules (paths under its
# kernel/ tree, no suffix) into DEST, uncompressed for busybox insmod; a
# module REL does not have (built in, or not built) is left out.
pc_copy_modules() {
	local rel=$1 dest=$2 m f
	shift 2
	for m in "$@"; do
		f=$(pc_module_file "$rel" "$m") || continue
		case $f in
		*.xz) xz -dc "$f" >"$dest/$(basename "$m").ko" ;;
		*) cp "$f" "$dest/$(basename "$m").ko" ;;
		esac
	done
}

# pc_copy_out_modules REL DEST: on arm64, the modules of the port the
# case's output goes to (a virtio-serial port on the virt board's
# virtio-mmio bus; /init, and the capture kernel's, load what they find).
pc_copy_out_modules() {
	[ "$(pc_rel_arch "$1")" = arm64 ] || return 0
	pc_copy_modules "$1" "$2" drivers/virtio/virtio_mmio drivers/char/virtio_console
}

# Pack $PC_OUT/$rel/initramfs.cpio: busybox, the module, pc-guest, the tool,
# the ramoops module, an /init and the case scripts found in directory $2.
pc_pack_initramfs() {
	local rel=$1 cases=$2 dir=$PC_OUT/$1 root
	local from
	from=$(pc_rel_root "$rel")
	root=$dir/initramfs
	rm -rf "$root"
	mkdir -p "$root"/{bin,sbin,etc,proc,sys,dev,tmp,cases,usr/bin,usr/sbin}
	cp "$from/bin/busybox" "$root/bin/busybox"
	# Without their DWARF, 4.3 MB of each 4.7: every boot unpacks them,
	# every insmod reads them, and nothing in the guest reads it (a
	# vmcore is opened on the host, with the build's own .ko).
	local strip
	strip=$(pc_cross_prefix "$rel")strip
	"$strip" --strip-debug -o "$root/provoke_crash.ko" "$dir/src/module/provoke_crash.ko" ||
		pc_die "could not strip the module for $rel"
	if [ -f "$dir/src/twin/provoke_crash_twin.ko" ]; then
		"$strip" --strip-debug -o "$root/provoke_crash_twin.ko" \
			"$dir/src/twin/provoke_crash_twin.ko" || pc_die "could not strip the twin module for $rel"
	fi
	cp "$dir/pc-guest" "$dir/provoke-crash" "$root/bin/"
	[ -n "$cases" ] && cp "$cases"/*.sh "$root/cases/"
	sed "$(pc_case_sed "$rel")" "$PC_ROOT/guest/bad_input.tsv" >"$root/bad_input.tsv"
	# Anything else the caller wants in the guest's root (the benchmark's
	# empty kprobe module).
	# shellcheck disable=SC2086 # a list of paths, split into words
	[ -n "${PC_EXTRA_FILES:-}" ] && cp $PC_EXTRA_FILES "$root/"
	cp "$PC_ROOT/guest/init" "$root/init"
	cp "$PC_ROOT/guest/pc-protocol.sh" "$root/"
	# ramoops and what it needs; on arm64 also the virtio-serial port
	# that carries the case's output.
	pc_copy_modules "$rel" "$root" lib/reed_solomon/reed_solomon fs/pstore/ramoops
	pc_copy_out_modules "$rel" "$root"
	chmod +x "$root/init"
	# Not compressed: under TCG the guest's gunzip cost 0.3 s a boot
	# (0.6 s for a kdump guest's), more than QEMU's reading the archive.
	(cd "$root" && find . | cpio -o -H newc --quiet) >"$dir/initramfs.cpio"
}
