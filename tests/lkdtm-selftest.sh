# SPDX-License-Identifier: GPL-2.0
# LKDTM's own selftest, unchanged, against provoke-crash: its preparation,
# sourced by tests/bench-step.  run.sh and tests.txt come from Debian's linux-source-6.12
# (tools/testing/selftests/lkdtm), extracted once into $PC_OUT; each test
# is run.sh installed under the test's name, as the kselftest Makefile
# installs it, run from its directory.  It writes the name into
# /sys/kernel/debug/provoke-crash/DIRECT and judges the kernel log.
#
# One guest runs every test in tests.txt's order to the end, as a
# kselftest run does on one machine: no test may take the kernel down
# (through DIRECT, a name does not where LKDTM's own test does not:
# module/lkdtm.c), and no fresh guest hides one that does.  Every line of
# tests.txt must get run.sh's verdict (ok, FAIL, XFAIL, or the skip of a
# commented-out test), and the guest must still be up after the last
# one: a test that takes it down or hangs is "not ok", and so is each
# test after it, for want of a result.  The guest boots with the
# kernel-parameter equivalents of the selftest's config fragment
# (SLUB_DEBUG_ON, INIT_ON_FREE_DEFAULT_ON,
# RANDOMIZE_KSTACK_OFFSET_DEFAULT).  The busybox guest lacks comm, which
# run.sh uses: guest/comm.c is put in.
#
# The selftest's other program, stack-entropy.sh, runs first, as test 0
# (1000 REPORT_STACK samples; it needs at least 5 bits), with one change:
# busybox's dmesg has no --follow, and its shell runs applets before
# anything on PATH, so its "dmesg --follow" reads /dev/kmsg instead
# (records that end with the same words).
#
# What runs in the guest is guest/lkdtm.sh; the guest's boot line, its
# run and the report are the engine's (engine/pcengine/lkdtm.py, the
# bench's "lkdtm DIR" job, which casestep.py runs).
#
# Uses pc-vm-lib.sh; the series' preparation calls lkdtm_ready
# (engine/pcengine/prepare_series.py).
# shellcheck shell=bash

lkdtm_source=${PC_LKDTM_SOURCE:-/usr/src/linux-source-6.12.tar.xz}

# lkdtm_extract: run.sh, tests.txt and stack-entropy.sh into
# $PC_OUT/lkdtm-selftest, once per tarball.
lkdtm_extract() {
	local dir=$PC_OUT/lkdtm-selftest stamp top
	# The files taken are part of the stamp: a new one extracts again.
	stamp="$(stat -c '%s %Y' "$lkdtm_source" 2>/dev/null) run.sh tests.txt stack-entropy.sh" ||
		return 1
	[ -f "$dir/stamp" ] && [ "$(cat "$dir/stamp")" = "$stamp" ] && return 0
	rm -rf "$dir"
	mkdir -p "$dir"
	top=$(tar tJf "$lkdtm_source" 2>/dev/null | head -n 1 | cut -d/ -f1)
	tar xJf "$lkdtm_source" -C "$dir" --strip-components=5 \
		"$top/tools/testing/selftests/lkdtm/run.sh" \
		"$top/tools/testing/selftests/lkdtm/tests.txt" \
		"$top/tools/testing/selftests/lkdtm/stack-entropy.sh" || return 1
	echo "$stamp" >"$dir/stamp"
}

# lkdtm_pack REL: the release's initramfs (already packed by prepare_series)
# with the selftest, comm and the case added.
lkdtm_pack() {
	local rel=$1 dir=$PC_OUT/$1 cc root
	cc=$(pc_cross_prefix "$rel")gcc
	$cc -static -O2 -Wall -Wextra -Werror -o "$dir/comm" "$PC_ROOT/guest/comm.c" ||
		return 1
	root=$dir/initramfs-lkdtm
	rm -rf "$root"
	cp -a "$dir/initramfs" "$root"
	cp "$PC_OUT/lkdtm-selftest/run.sh" "$PC_OUT/lkdtm-selftest/tests.txt" "$dir/comm" "$root/"
	# Its one use of dmesg --follow, and nothing else, changes.
	sed 's|dmesg --follow|cat /dev/kmsg|' "$PC_OUT/lkdtm-selftest/stack-entropy.sh" \
		>"$root/stack-entropy.sh"
	[ "$(diff "$PC_OUT/lkdtm-selftest/stack-entropy.sh" "$root/stack-entropy.sh" | grep -c '^[<>]')" = 2 ] ||
		return 1
	cp "$PC_ROOT/guest/lkdtm.sh" "$root/cases/lkdtm_selftest.sh"
	(cd "$root" && find . | cpio -o -H newc --quiet) >"$dir/initramfs-lkdtm.cpio"
}

# lkdtm_ready REL SERIES RESULTS: extracts the selftest and packs its
# guest, with the tarball's name in the extracted directory's "source",
# and returns 0 when a guest is to run it; else 1, with its result
# written in RESULTS.  (Whether SERIES runs it at all, the scope, PC_CASES
# and PC_SHARD decide: engine/pcengine/prepare_series.py.)
lkdtm_ready() {
	local rel=$1 series=$2 results=$3
	if [ ! -r "$lkdtm_source" ]; then
		echo "ok $series/lkdtm_selftest # SKIP $lkdtm_source is not installed (linux-source-6.12)" \
			>"$results/$series-lkdtm_selftest.result"
		return 1
	fi
	if ! lkdtm_extract || ! lkdtm_pack "$rel" ||
		! basename "$lkdtm_source" >"$PC_OUT/lkdtm-selftest/source"; then
		echo "not ok $series/lkdtm_selftest # could not extract run.sh and tests.txt or pack the guest" \
			>"$results/$series-lkdtm_selftest.result"
		return 1
	fi
}
