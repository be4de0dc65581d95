# SPDX-License-Identifier: GPL-2.0
# The builds of a series' preparation: the module, the bench's own
# modules and the initramfs.  What runs, skipped or in which guest, and
# the files the scheduler reads, are the engine's
# (engine/pcengine/prepare_series.py), which runs prepare_build.
# shellcheck shell=bash

# prepare_build REL CASES TWIN KDUMP [MODULE...]: the module for REL
# (TWIN=1: and its twin, which the dir_taken case loads), the bench's
# MODULEs (paths: the matrix's, race: the race example's), then REL's
# initramfs with CASES' case files and those modules in it, and with
# KDUMP=1 the kdump guests' initramfs too.  A new initramfs drops the
# guests saved from the last one.
prepare_build() {
	local rel=$1 cases=$2 twin=$3 kdump=$4 m extra=""
	shift 4
	pc_build "$rel" "$twin"
	rm -rf "$PC_OUT/$rel/snapshots"
	for m in "$@"; do
		bench_build_module "$rel" "$m"
		extra="$extra $PC_OUT/$rel/src/$m/pc_$m.ko"
	done
	PC_EXTRA_FILES="${PC_EXTRA_FILES:-}$extra" pc_pack_initramfs "$rel" "$cases"
	if [ "$kdump" = 1 ]; then
		pc_kdump_pack "$rel" || pc_die "packing the kdump guests' initramfs for $rel failed"
	fi
}

# bench_build_module REL NAME: tests/NAME/pc_NAME.ko (the matrix's paths,
# the race example's race) for REL, built as the module is (pc_build),
# into $PC_OUT/REL/src/NAME.
bench_build_module() {
	local rel=$1 name=$2 dir=$PC_OUT/$1/src/$2 kdir cross=()
	kdir=$(pc_rel_root "$rel")/usr/src/linux-headers-$rel
	mapfile -t cross < <(pc_kbuild_args "$rel")
	rm -rf "$dir"
	cp -r "$PC_ROOT/tests/$name" "$dir"
	make -C "$kdir" "${cross[@]}" M="$dir" W=1 modules >"$dir/build.log" 2>&1 ||
		{ cat "$dir/build.log" >&2; pc_die "pc_$name build failed for $rel"; }
	if grep -E 'warning:|error:' "$dir/build.log" >&2; then
		pc_die "pc_$name build for $rel has warnings (see $dir/build.log)"
	fi
}
