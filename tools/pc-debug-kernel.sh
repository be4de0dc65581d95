#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The bench's "debug" kernel: Debian's linux-source-6.12 built for QEMU
# guests with KASAN, lockdep, UBSAN, KFENCE and every option the crash-type
# table needs (tests/debug-kernel.config), cached outside the clone.
# Sourced by tools/pc-vm-lib.sh; run directly it builds (or finds) the
# kernel and prints where it is:
#
#   tools/pc-debug-kernel.sh          # build or report "cached"
#   PC_KERNELS=debug tests/run        # the bench on it
#
# The cache, one directory per source version and config fragment:
#   ${XDG_CACHE_HOME:-~/.cache}/provoke-crash/debug-VERSION-HASH/
#     source/            the unpacked linux-source tree
#     build/             the O= tree: bzImage, .config, Module.symvers,
#                        scripts; make -C build M=DIR modules works
#     modules/           make modules_install (lib/modules/RELEASE/...)
#     build.log          the whole build's output
#     stamp              written last: its presence means "done"

PC_DEBUG_PACKAGE=${PC_DEBUG_PACKAGE:-linux-source-6.12}
PC_DEBUG_TARBALL=${PC_DEBUG_TARBALL:-/usr/src/$PC_DEBUG_PACKAGE.tar.xz}
PC_DEBUG_FRAGMENT=${PC_DEBUG_FRAGMENT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/tests/debug-kernel.config}

# What building it takes, for pc_install_deps (no dwarves: no BTF).
pc_debug_packages() {
	echo "$PC_DEBUG_PACKAGE" flex bison bc libelf-dev libssl-dev kmod xz-utils \
		"gcc-$(gcc -dumpversion 2>/dev/null || echo 12)-plugin-dev"
}

# The cache directory for this source package and the fragment's values
# (its comments, such as the "cannot:" lines, do not change the build).
# The version's "~" is kept out of the path.
pc_debug_dir() {
	local ver hash
	ver=$(dpkg-query -W -f='${Version}' "$PC_DEBUG_PACKAGE" 2>/dev/null) ||
		pc_die "$PC_DEBUG_PACKAGE is not installed"
	hash=$(pc_debug_wanted | sha256sum | cut -c1-12)
	echo "${XDG_CACHE_HOME:-$HOME/.cache}/provoke-crash/debug-${ver//[^A-Za-z0-9.+-]/_}-$hash"
}

# The fragment's wanted values: "CONFIG_X=VALUE" lines, and "CONFIG_X=n"
# for its "is not set" lines.
pc_debug_wanted() {
	sed -n -e 's/^\(CONFIG_[A-Z0-9_]*=.*\)$/\1/p' \
		-e 's/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1=n/p' "$PC_DEBUG_FRAGMENT"
}

# pc_debug_verify CONFIG: every wanted value is in CONFIG, and every
# CONFIG_ word that the crash-type table (outside its comments) and the
# case files' "# needs:" lines ask for is y, but those the fragment's
# "# cannot: CONFIG_X why" lines name; prints the ones that are not.
pc_debug_verify() {
	local config=$1 want sym val have bad=() cannot
	cannot=$(sed -n 's/^# cannot: \(CONFIG_[A-Z0-9_]*\) .*/\1/p' "$PC_DEBUG_FRAGMENT")
	while IFS= read -r want; do
		sym=${want%%=*} val=${want#*=}
		have=$(sed -n "s/^$sym=//p" "$config")
		[ -z "$have" ] && grep -q "^# $sym is not set" "$config" && have=n
		[ -z "$have" ] && [ "$val" = n ] && have=n
		[ "$have" = "$val" ] || bad+=("$sym=$val (got ${have:-nothing})")
	done < <(pc_debug_wanted)
	for sym in $({ grep -v '^ *\(/\*\|\*\)' "$PC_ROOT/include/provoke_crash_types.h"
		grep -h '^# needs:' "$PC_ROOT"/tests/cases/*.sh; } |
		grep -o 'CONFIG_[A-Z0-9_]*' | sort -u); do
		echo "$cannot" | grep -qx "$sym" && continue
		grep -qx "$sym=y" "$config" || bad+=("$sym=y (a needs column or line asks for it)")
	done
	[ ${#bad[@]} -eq 0 ] && return 0
	printf '%s\n' "${bad[@]}"
	return 1
}

# pc_debug_kernel: build the debug kernel unless the cache has it, then
# set PC_DEBUG_IMAGE and PC_DEBUG_TREE.  Progress goes to stderr; a
# failed build stops with the log's tail.  One build at a time per cache
# directory (flock), so two benches can ask at once.
pc_debug_kernel() {
	local dir src b log start bad rc lock
	dir=$(pc_debug_dir) || exit 1
	src=$dir/source b=$dir/build log=$dir/build.log
	PC_DEBUG_IMAGE=$b/arch/x86/boot/bzImage PC_DEBUG_TREE=$b
	if [ -f "$dir/stamp" ]; then
		pc_log "debug kernel: cached: $dir"
		return 0
	fi
	mkdir -p "$dir" || pc_die "cannot create $dir"
	exec {lock}>"$dir.lock"
	flock "$lock"
	if [ -f "$dir/stamp" ]; then
		exec {lock}>&-
		pc_log "debug kernel: cached: $dir (built by another run)"
		return 0
	fi
	start=$(date +%s)
	pc_log "debug kernel: building in $dir (log: $log)"
	: >"$log"
	# Unpack once; an interrupted unpack starts again from scratch.
	if [ ! -f "$src/.pc-unpacked" ]; then
		rm -rf "$src" "$src.tmp"
		mkdir -p "$src.tmp"
		tar -C "$src.tmp" --strip-components=1 -xf "$PC_DEBUG_TARBALL" ||
			pc_die "could not unpack $PC_DEBUG_TARBALL"
		touch "$src.tmp/.pc-unpacked"
		mv "$src.tmp" "$src"
	fi
	mkdir -p "$b"
	cp "$PC_DEBUG_FRAGMENT" "$dir/debug-kernel.config"
	{
		# ARCH=x86_64: with ARCH=x86, tinyconfig is a 32-bit config.
		make -C "$src" O="$b" ARCH=x86_64 tinyconfig &&
			"$src/scripts/kconfig/merge_config.sh" -m -O "$b" "$b/.config" \
				"$dir/debug-kernel.config" &&
			make -C "$src" O="$b" olddefconfig
	} >>"$log" 2>&1 || { tail -n 30 "$log" >&2; pc_die "debug kernel: configuration failed"; }
	if ! bad=$(pc_debug_verify "$b/.config"); then
		echo "$bad" | sed 's/^/  /' >&2
		pc_die "debug kernel: these options did not stick after olddefconfig (fix $PC_DEBUG_FRAGMENT)"
	fi
	pc_log "debug kernel: config verified; make -j$(nproc) (13 minutes on 2 idle cores, more on a busy host)"
	make -C "$src" O="$b" -j"$(nproc)" all >>"$log" 2>&1
	rc=$?
	if [ $rc = 0 ]; then
		rm -rf "$dir/modules"
		make -C "$src" O="$b" INSTALL_MOD_PATH="$dir/modules" modules_install >>"$log" 2>&1
		rc=$?
	fi
	if [ $rc != 0 ]; then
		grep -E 'error|Error' "$log" | tail -n 20 >&2
		pc_die "debug kernel: build failed (see $log)"
	fi
	echo "release $(cat "$b/include/config/kernel.release") built in $(($(date +%s) - start))s" \
		>"$dir/stamp"
	exec {lock}>&-
	pc_log "debug kernel: $(cat "$dir/stamp")"
}

# Run directly: build or report, then say where everything is.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -u
	. "$(dirname "$0")/pc-vm-lib.sh"
	pc_install_deps debug
	start=$(date +%s)
	pc_debug_kernel
	dir=$(pc_debug_dir)
	echo "debug kernel $(cat "$PC_DEBUG_TREE/include/config/kernel.release") ($(($(date +%s) - start))s)"
	echo "  image:   $PC_DEBUG_IMAGE"
	echo "  tree:    $PC_DEBUG_TREE   (make -C it M=DIR modules)"
	echo "  modules: $dir/modules/lib/modules"
	echo "  log:     $dir/build.log"
	echo "  bench:   PC_KERNELS=debug tests/run   or   PC_KERNELS=$PC_DEBUG_IMAGE:$PC_DEBUG_TREE tests/run"
fi
