#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The bench's kernels built from source, cached outside the clone:
#   debug  Debian's linux-source-6.12 built for QEMU guests with KASAN,
#          lockdep, UBSAN, KFENCE and every option the crash-type table
#          needs (tools/debug-kernel.config), with gcc;
#   clang  the same source and fragment with clang 19 (LLVM=-19), less
#          what clang or TCG time rule out, plus kCFI and counted_by
#          (tools/clang-kernel.config, on top): the cfi and bounds types'
#          kernel.
# Sourced by tools/pc-vm-lib.sh; run directly it builds (or finds) the
# kernel and prints where it is:
#
#   tools/pc-debug-kernel.sh [clang]  # build or report "cached"
#   PC_KERNELS=debug tests/run        # the bench on it (or clang)
#
# The cache, one directory per flavour, source version and config:
#   ${XDG_CACHE_HOME:-~/.cache}/provoke-crash/FLAVOUR-VERSION-HASH/
#     source/            the unpacked linux-source tree
#     build/             the O= tree: bzImage, .config, Module.symvers,
#                        scripts; make -C build M=DIR modules works
#     modules/           make modules_install (lib/modules/RELEASE/...)
#     build.log          the whole build's output
#     stamp              written last: its presence means "done"

PC_DEBUG_PACKAGE=${PC_DEBUG_PACKAGE:-linux-source-6.12}
PC_DEBUG_TARBALL=${PC_DEBUG_TARBALL:-/usr/src/$PC_DEBUG_PACKAGE.tar.xz}
PC_BUILT_TOOLS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# The flavours and their fragments; the debug fragment's "# cannot:"
# lines also serve the clang kernel.
PC_BUILT_KERNELS=$PC_BUILT_TOOLS/built-kernels.tsv
PC_DEBUG_FRAGMENT=$PC_BUILT_TOOLS/debug-kernel.config
PC_CLANG_LLVM=${PC_CLANG_LLVM:--19}

# pc_built_kernel NAME: NAME is one of the flavours built here (a series
# of the bench that is neither Debian's nor given as files).
pc_built_kernel() {
	awk -v n="$1" '!/^#/ && $1 == n { f = 1 } END { exit !f }' "$PC_BUILT_KERNELS"
}

# pc_debug_fragments FLAVOUR: the config fragments, in merge order.
pc_debug_fragments() {
	local frags
	frags=$(awk -v n="$1" -v d="$PC_BUILT_TOOLS" '!/^#/ && $1 == n {
		for (i = 2; i <= NF; i++) printf "%s%s/%s", (i > 2 ? " " : ""), d, $i
		print ""
	}' "$PC_BUILT_KERNELS")
	[ -n "$frags" ] || pc_die "no kernel flavour '$1' to build ($(awk '!/^#/ { print $1 }' "$PC_BUILT_KERNELS" | paste -sd,))"
	echo "$frags"
}

# pc_debug_make FLAVOUR: make's variables for it.
pc_debug_make() {
	[ "$1" = clang ] && echo "LLVM=$PC_CLANG_LLVM"
	return 0
}

# What building FLAVOUR takes, for pc_install_deps (no dwarves: no BTF).
pc_debug_packages() {
	echo "$PC_DEBUG_PACKAGE" flex bison bc libelf-dev libssl-dev kmod xz-utils \
		"gcc-$(gcc -dumpversion 2>/dev/null || echo 12)-plugin-dev"
	[ "$1" = clang ] && echo "clang$PC_CLANG_LLVM lld$PC_CLANG_LLVM llvm$PC_CLANG_LLVM"
	return 0
}

# pc_debug_dir FLAVOUR: the cache directory for this flavour, source
# package and the fragments' values (their comments, such as the
# "cannot:" lines, do not change the build).  The version's "~" is kept
# out of the path.
pc_debug_dir() {
	local ver hash
	ver=$(dpkg-query -W -f='${Version}' "$PC_DEBUG_PACKAGE" 2>/dev/null) ||
		pc_die "$PC_DEBUG_PACKAGE is not installed"
	hash=$({ pc_debug_wanted "$1" && pc_debug_make "$1" && pc_debug_unbroken "$1"; } |
		sha256sum | cut -c1-12)
	echo "${XDG_CACHE_HOME:-$HOME/.cache}/provoke-crash/$1-${ver//[^A-Za-z0-9.+-]/_}-$hash"
}

# pc_debug_wanted FLAVOUR: the fragments' wanted values, the last one's
# winning: "CONFIG_X=VALUE" lines, and "CONFIG_X=n" for "is not set" ones.
pc_debug_wanted() {
	local frags
	frags=$(pc_debug_fragments "$1") || exit 1
	# shellcheck disable=SC2086 # a list of paths, split into words
	sed -n -e 's/^\(CONFIG_[A-Z0-9_]*=.*\)$/\1/p' \
		-e 's/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1=n/p' $frags |
		tac | awk -F= '!seen[$1]++' | tac
}

# pc_debug_unbroken FLAVOUR: the options whose "depends on BROKEN" the
# fragments' "# unbreak: CONFIG_X why" lines drop from the source tree (an
# experimental option whose help says to drop that line to try it).
pc_debug_unbroken() {
	# shellcheck disable=SC2046 # a list of paths, split into words
	sed -n 's/^# unbreak: CONFIG_\([A-Z0-9_]*\) .*/\1/p' $(pc_debug_fragments "$1")
}

# pc_debug_unbreak FLAVOUR SRC: drops the one "depends on BROKEN" line of
# the Kconfig entry of each pc_debug_unbroken option in the tree SRC (the
# entry ends at the next line that starts one, or a menu, an if or a
# source); fails if the option is not defined in exactly one file or its
# entry has no such line.
pc_debug_unbreak() {
	local sym file before
	for sym in $(pc_debug_unbroken "$1"); do
		file=$(grep -rlxF --include='Kconfig*' "config $sym" "$2")
		[ -n "$file" ] && [ "$(echo "$file" | wc -l)" = 1 ] || return 1
		before=$(wc -l <"$file")
		sed -i -E "/^config $sym\$/,/^(config|menuconfig|choice|endchoice|menu|endmenu|if|endif|comment|source)([[:space:]]|\$)/{/^[[:space:]]*depends on BROKEN\$/d}" "$file"
		[ "$(wc -l <"$file")" = $((before - 1)) ] || return 1
		pc_log "$1 kernel: dropped 'depends on BROKEN' from $sym (${file#"$2"/})"
	done
}

# pc_debug_verify FLAVOUR CONFIG: every wanted value is in CONFIG, and so
# is every symbol a fragment's "# must: CONFIG_X why" line names (what the
# compiler gives, not an option); for the debug kernel also every CONFIG_
# word that the crash-type table (outside its comments) and the case
# files' "# needs:" lines ask for is y, but those the fragment's
# "# cannot: CONFIG_X why" lines name; prints the ones that are not.
pc_debug_verify() {
	local flavour=$1 config=$2 want sym val have bad=() cannot
	cannot=$(sed -n 's/^# cannot: \(CONFIG_[A-Z0-9_]*\) .*/\1/p' "$PC_DEBUG_FRAGMENT")
	while IFS= read -r want; do
		sym=${want%%=*} val=${want#*=}
		have=$(sed -n "s/^$sym=//p" "$config")
		[ -z "$have" ] && grep -q "^# $sym is not set" "$config" && have=n
		[ -z "$have" ] && [ "$val" = n ] && have=n
		[ "$have" = "$val" ] || bad+=("$sym=$val (got ${have:-nothing})")
	done < <(pc_debug_wanted "$flavour")
	# shellcheck disable=SC2046,SC2013 # paths and names are words
	for sym in $(sed -n 's/^# must: \(CONFIG_[A-Z0-9_]*\) .*/\1/p' $(pc_debug_fragments "$flavour")); do
		grep -qx "$sym=y" "$config" || bad+=("$sym=y (a must: line asks for it)")
	done
	# The clang kernel is for the types that need clang, not every need.
	[ "$flavour" = debug ] && for sym in $({ grep -v '^ *\(/\*\|\*\)' "$PC_ROOT/include/provoke_crash_types.h"
		grep -h '^# needs:' "$PC_ROOT"/tests/cases/*.sh; } |
		grep -o 'CONFIG_[A-Z0-9_]*' | sort -u); do
		echo "$cannot" | grep -qx "$sym" && continue
		grep -qx "$sym=y" "$config" || bad+=("$sym=y (a needs column or line asks for it)")
	done
	[ ${#bad[@]} -eq 0 ] && return 0
	printf '%s\n' "${bad[@]}"
	return 1
}

# pc_debug_kernel FLAVOUR: build that kernel unless the cache has it,
# then set PC_DEBUG_IMAGE and PC_DEBUG_TREE.  Progress goes to stderr; a
# failed build stops with the log's tail.  One build at a time per cache
# directory (flock), so two benches can ask at once.  The source tree is
# unpacked once per flavour (O= builds leave it clean).
pc_debug_kernel() {
	local flavour=$1 dir src b log start bad rc lock frags make_vars
	dir=$(pc_debug_dir "$flavour") || exit 1
	frags=$(pc_debug_fragments "$flavour") || exit 1
	make_vars=$(pc_debug_make "$flavour")
	src=$dir/source b=$dir/build log=$dir/build.log
	PC_DEBUG_IMAGE=$b/arch/x86/boot/bzImage PC_DEBUG_TREE=$b
	if [ -f "$dir/stamp" ]; then
		pc_log "$flavour kernel: cached: $dir"
		return 0
	fi
	mkdir -p "$dir" || pc_die "cannot create $dir"
	exec {lock}>"$dir.lock"
	flock "$lock"
	if [ -f "$dir/stamp" ]; then
		exec {lock}>&-
		pc_log "$flavour kernel: cached: $dir (built by another run)"
		return 0
	fi
	start=$(date +%s)
	pc_log "$flavour kernel: building in $dir (log: $log)"
	: >"$log"
	# Unpack once; an interrupted unpack starts again from scratch.
	if [ ! -f "$src/.pc-unpacked" ]; then
		rm -rf "$src" "$src.tmp"
		mkdir -p "$src.tmp"
		tar -C "$src.tmp" --strip-components=1 -xf "$PC_DEBUG_TARBALL" ||
			pc_die "could not unpack $PC_DEBUG_TARBALL"
		pc_debug_unbreak "$flavour" "$src.tmp" ||
			pc_die "$flavour kernel: an unbreak: line's option has no 'depends on BROKEN' to drop"
		touch "$src.tmp/.pc-unpacked"
		mv "$src.tmp" "$src"
	fi
	mkdir -p "$b"
	# shellcheck disable=SC2086 # a list of paths, split into words
	cp $frags "$dir/"
	{
		# ARCH=x86_64: with ARCH=x86, tinyconfig is a 32-bit config.
		# shellcheck disable=SC2086 # make variables, split into words
		make -C "$src" O="$b" ARCH=x86_64 $make_vars tinyconfig &&
			"$src/scripts/kconfig/merge_config.sh" -m -O "$b" "$b/.config" $frags &&
			make -C "$src" O="$b" $make_vars olddefconfig
	} >>"$log" 2>&1 || { tail -n 30 "$log" >&2; pc_die "$flavour kernel: configuration failed"; }
	if ! bad=$(pc_debug_verify "$flavour" "$b/.config"); then
		printf '%s\n' "$bad" | sed 's/^/  /' >&2
		pc_die "$flavour kernel: these options did not stick after olddefconfig (fix $frags)"
	fi
	pc_log "$flavour kernel: config verified; make -j$(nproc) (13 minutes on 2 idle cores, more on a busy host)"
	# shellcheck disable=SC2086 # make variables, split into words
	make -C "$src" O="$b" $make_vars -j"$(nproc)" all >>"$log" 2>&1
	rc=$?
	if [ $rc = 0 ]; then
		rm -rf "$dir/modules"
		# shellcheck disable=SC2086 # make variables, split into words
		make -C "$src" O="$b" $make_vars INSTALL_MOD_PATH="$dir/modules" modules_install >>"$log" 2>&1
		rc=$?
	fi
	if [ $rc != 0 ]; then
		grep -E 'error|Error' "$log" | tail -n 20 >&2
		pc_die "$flavour kernel: build failed (see $log)"
	fi
	echo "release $(cat "$b/include/config/kernel.release") built in $(($(date +%s) - start))s" \
		>"$dir/stamp"
	exec {lock}>&-
	pc_log "$flavour kernel: $(cat "$dir/stamp")"
}

# Run directly: build or report, then say where everything is.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -u
	# shellcheck source=/dev/null # pc-vm-lib.sh sources this file: no loop
	. "$(dirname "$0")/pc-vm-lib.sh"
	flavour=${1:-debug}
	pc_install_deps "$flavour"
	start=$(date +%s)
	pc_debug_kernel "$flavour"
	dir=$(pc_debug_dir "$flavour")
	echo "$flavour kernel $(cat "$PC_DEBUG_TREE/include/config/kernel.release") ($(($(date +%s) - start))s)"
	echo "  image:   $PC_DEBUG_IMAGE"
	echo "  tree:    $PC_DEBUG_TREE   (make -C it M=DIR modules)"
	echo "  modules: $dir/modules/lib/modules"
	echo "  log:     $dir/build.log"
	echo "  bench:   PC_KERNELS=$flavour tests/run   or   PC_KERNELS=$PC_DEBUG_IMAGE:$PC_DEBUG_TREE tests/run"
fi
