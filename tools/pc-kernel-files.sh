# SPDX-License-Identifier: GPL-2.0
# Kernels given as files, not as Debian packages: IMAGE:TREE (a bzImage
# and the build tree, O= works, that the module is built against), and
# the bench's own "debug" and "clang" kernels once built.  Sourced by
# tools/pc-vm-lib.sh, which owns $PC_KERNEL_ROOTS.
# shellcheck shell=bash

# pc_kernel_files IMAGE TREE: make the root of links for a kernel of
# files and print its release (the tree's UTS_RELEASE).
# ramoops and reed_solomon, when built as modules, come from the tree, or
# else from where the system keeps the release's modules,
# /lib/modules/REL/kernel/ (.ko or .ko.xz): a distribution's headers
# tree has no .ko at all.  With PSTORE_RAM built in, the guest's boot line
# takes ramoops' parameters instead (pc_ramoops_params; /init's insmod of them
# then fails, harmlessly); with no ramoops anywhere the bench's pstore
# checks skip (pc_ramoops_absent).  A link is only replaced when it
# changes: a running bench's guests may be reading through it.
pc_kernel_files() {
	local image=$1 tree=$2 rel root l t c m s
	[ -f "$image" ] || pc_die "no kernel image $image"
	{ [ -f "$tree/include/config/kernel.release" ] && [ -f "$tree/.config" ] &&
		[ -f "$tree/Module.symvers" ]; } ||
		pc_die "$tree is not a built kernel tree (needs .config, include/config/kernel.release, Module.symvers)"
	image=$(realpath "$image") tree=$(realpath "$tree")
	# The release the module's vermagic takes (Debian's headers keep the
	# upstream version in kernel.release).
	rel=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$tree/include/generated/utsrelease.h" 2>/dev/null)
	[ -n "$rel" ] || rel=$(cat "$tree/include/config/kernel.release")
	case $rel in
	*-arm64 | */* | '') pc_die "$tree: release '$rel' cannot name an x86-64 kernel here" ;;
	esac
	root=$PC_KERNEL_ROOTS/$rel
	mkdir -p "$root/boot" "$root/bin" "$root/usr/src" \
		"$root/lib/modules/$rel/kernel/lib/reed_solomon" \
		"$root/lib/modules/$rel/kernel/fs/pstore"
	for l in "boot/vmlinuz-$rel=$image" "boot/config-$rel=$tree/.config" \
		"usr/src/linux-headers-$rel=$tree" "bin/busybox=/bin/busybox"; do
		t=${l#*=} l=$root/${l%%=*}
		[ "$(readlink "$l")" = "$t" ] || ln -sfn "$t" "$l"
	done
	# Only modules of this configuration: a .ko left in the tree by an
	# earlier one (ramoops built in now) must not reach the guest.
	for l in REED_SOLOMON=lib/reed_solomon/reed_solomon PSTORE_RAM=fs/pstore/ramoops; do
		c=${l%%=*} m=${l#*=} t=""
		if grep -qx "CONFIG_$c=m" "$tree/.config"; then
			for t in "$tree/$m.ko" "/lib/modules/$rel/kernel/$m.ko" \
				"/lib/modules/$rel/kernel/$m.ko.xz" ""; do
				[ -z "$t" ] || [ -f "$t" ] && break
			done
		fi
		# The link keeps the file's suffix: pc_copy_modules unpacks
		# a .ko.xz.
		l=$root/lib/modules/$rel/kernel/$m
		for s in .ko .ko.xz; do
			if [ -n "$t" ] && [[ $t == *"$m$s" ]]; then
				[ "$(readlink "$l$s")" = "$t" ] || ln -sfn "$t" "$l$s"
			else
				rm -f "$l$s"
			fi
		done
	done
	echo "$rel"
}

# pc_kbuild_llvm CONFIG: "LLVM=-N" for a kernel built with clang N (its
# modules must be too; clang-N and lld-N must be installed), nothing for
# gcc.
pc_kbuild_llvm() {
	sed -n 's/^CONFIG_CLANG_VERSION=\([1-9][0-9]*\)[0-9]\{4\}$/LLVM=-\1/p' "$1"
}
