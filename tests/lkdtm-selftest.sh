# SPDX-License-Identifier: GPL-2.0
# LKDTM's own selftest, unchanged, against provoke-crash: sourced by
# tests/run.  run.sh and tests.txt come from Debian's linux-source-6.12
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
# Uses tests/bench-step's $results, $filter, $order, $listing, $guest_timeout,
# in_shard and pc-vm-lib.sh (tests/prepare-series.sh calls lkdtm_prepare,
# tests/run forks lkdtm_run).
# shellcheck shell=bash

lkdtm_source=${PC_LKDTM_SOURCE:-/usr/src/linux-source-6.12.tar.xz}
lkdtm_boot="slub_debug=FZPU init_on_free=1 randomize_kstack_offset=on"

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

# lkdtm_guest_case: the guest's part, sourced by /init after insmod:
# install run.sh as each test (the kselftest Makefile's install), then run
# every test in order, each between markers on the output and in the
# kernel log; after the last, proof that the kernel and the module still
# answer.
lkdtm_guest_case() {
	cat <<'GUEST'
cp /comm /usr/bin/comm
mkdir -p /lkdtm
cp /tests.txt /lkdtm/tests.txt
for t in $(awk '{print $1}' /tests.txt | sed -e 's/#//'); do
	cp /run.sh "/lkdtm/$t.sh"
	chmod 0744 "/lkdtm/$t.sh"
done
cp /stack-entropy.sh /lkdtm/stack-entropy.sh
chmod 0755 /lkdtm/stack-entropy.sh
cd /lkdtm
echo "LKDTM-BEGIN 0 stack-entropy"
echo "LKDTM-BEGIN 0 stack-entropy" >/dev/kmsg
./stack-entropy.sh
echo "LKDTM-RC 0 stack-entropy $?"
i=0
for t in $(awk '{print $1}' tests.txt | sed -e 's/#//'); do
	i=$((i + 1))
	echo "LKDTM-BEGIN $i $t"
	echo "LKDTM-BEGIN $i $t" >/dev/kmsg
	"./$t.sh"
	echo "LKDTM-RC $i $t $?"
done
echo "LKDTM-DONE"
cd /
# Still up: a new process runs, and the module answers on DIRECT.
echo "LKDTM-UP $(cut -d' ' -f1 /proc/uptime) s, $(head -n 1 $D/DIRECT)"
GUEST
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
	lkdtm_guest_case >"$root/cases/lkdtm_selftest.sh"
	(cd "$root" && find . | cpio -o -H newc --quiet) >"$dir/initramfs-lkdtm.cpio"
}

# lkdtm_expect NAME: run.sh's expected text for test NAME ("call trace:"
# when tests.txt gives none).
lkdtm_expect() {
	local line expect
	line=$(grep -E "^#?$1( |\$)" "$PC_OUT/lkdtm-selftest/tests.txt")
	expect=$(echo "$line" | cut -s -d' ' -f2-)
	expect=${expect#repeat:* }
	echo "${expect:-call trace:}"
}

# lkdtm_run REL SERIES: one guest for the whole selftest; writes the
# series' result file (lkdtm_report).
lkdtm_run() {
	: "${results?}" "${guest_timeout?}" # tests/bench-step sets them
	local rel=$1 series=$2 res=$results/$2-lkdtm_selftest rc start=$SECONDS boot=$lkdtm_boot
	# One KASAN report per boot otherwise: the tests after the first
	# would find none.
	pc_has_config "$rel" CONFIG_KASAN && boot="$boot kasan_multi_shot"
	PC_INITRD=$PC_OUT/$rel/initramfs-lkdtm.cpio pc_boot "$rel" lkdtm_selftest \
		"$((guest_timeout * 3))" "$boot" "$res.console" "$res.out"
	rc=$?
	tr -d '\r' <"$res.out" >"$res.out.txt"
	tr -d '\r' <"$res.console" >"$res.console.txt"
	lkdtm_report "$series" "$res" "$rc" "$((guest_timeout * 3))" "$start" >"$res.result"
	pc_log "done $series/lkdtm_selftest"
}

# lkdtm_tests: every test the guest runs, as "NUM NAME": stack-entropy
# as 0, then each line of tests.txt, commented out or not.
lkdtm_tests() {
	echo "0 stack-entropy"
	awk '{ sub(/^#/, "", $1); print NR, $1 }' "$PC_OUT/lkdtm-selftest/tests.txt"
}

# lkdtm_report SERIES RES STATUS LIMIT START: one KTAP line per test with
# run.sh's verdict under it, one for the guest being up after the last
# test, then the totals: pass / XFAIL / SKIP / fail.
lkdtm_report() {
	local series=$1 res=$2 status=$3 limit=$4 start=$5 num name rc seg verdict xfail
	local pass=0 nxfail=0 skip=0 fail=0 fails="" lost="" after=0 why
	while read -r num name; do
		rc=$(awk -v n="$num" -v t="$name" '$1 == "LKDTM-RC" && $2 == n && $3 == t { print $4 }' \
			"$res.out.txt" | tail -n 1)
		if [ -z "$rc" ]; then
			# No result: the test that was running when the guest
			# went down or hung, or one after it.
			fail=$((fail + 1))
			if [ -n "$lost" ]; then
				after=$((after + 1))
				echo "not ok $series/lkdtm/$name # no result: the guest did not get past $lost"
				continue
			fi
			lost=$name fails="${fails:+$fails, }$name"
			if [ "$status" = 124 ] || [ "$status" = 137 ]; then
				why="the guest hung in it (timed out after ${limit}s)"
			elif grep -qxF "LKDTM-BEGIN $num $name" "$res.out.txt"; then
				why="the kernel went down in it (guest status $status)"
			else
				why="the guest never started it (guest status $status)"
			fi
			echo "not ok $series/lkdtm/$name # no result: $why"
			# The console from its marker on.
			awk -v b="LKDTM-BEGIN $num $name" \
				'index($0, b) && substr($0, length($0) - length(b) + 1) == b { on = 1 } on' \
				"$res.console.txt" | tail -n 20 | sed 's/^/# /'
			continue
		fi
		seg=$(awk -v b="LKDTM-BEGIN $num $name" \
			'$0 == b { on = 1; next } /^LKDTM-RC / { on = 0 } on' "$res.out.txt")
		verdict=$(grep -E "^$name: (saw|missing) |^Skipping $name: |^Skipped: test '$name' " <<<"$seg" | tail -n 1)
		# stack-entropy.sh's, after its progress (the console is a tty).
		[ "$name" = stack-entropy ] &&
			verdict=$(grep -oE 'Bits of stack entropy: [0-9]+|Stack entropy is low.*' <<<"$seg" | tail -n 1)
		xfail=$(grep -m1 -o 'XFAIL: .*' <<<"$seg")
		if [ -z "$verdict" ]; then
			# An exit status without run.sh's word on it is no result.
			fail=$((fail + 1)) fails="${fails:+$fails, }$name"
			echo "not ok $series/lkdtm/$name # exit status $rc without run.sh's verdict line"
			tail -n 12 <<<"$seg" | sed 's/^/# /'
			continue
		fi
		case $rc in
		0) pass=$((pass + 1)); echo "ok $series/lkdtm/$name" ;;
		4)
			if [ -n "$xfail" ] && grep -q "saw 'XFAIL'" <<<"$verdict"; then
				nxfail=$((nxfail + 1))
				echo "ok $series/lkdtm/$name # SKIP $xfail"
			else
				skip=$((skip + 1))
				echo "ok $series/lkdtm/$name # SKIP $verdict"
			fi
			;;
		*) fail=$((fail + 1)) fails="${fails:+$fails, }$name"; echo "not ok $series/lkdtm/$name" ;;
		esac
		echo "#   $verdict"
		[ "$rc" != 0 ] && [ "$rc" != 4 ] && tail -n 12 <<<"$seg" | sed 's/^/# /'
	done < <(lkdtm_tests)
	# The kernel still up after the last test, as kselftest's next suite
	# would find it.
	if grep -q '^LKDTM-DONE' "$res.out.txt" && grep -q '^LKDTM-UP .*Available crash types:' "$res.out.txt"; then
		echo "ok $series/lkdtm/up_after_last_test"
		echo "#   $(grep -m1 '^LKDTM-UP ' "$res.out.txt" | sed 's/^LKDTM-UP /up at /')"
	else
		[ "$after" = 0 ] || fails="$fails and the $after after it, without a result"
		fail=$((fail + 1)) fails="${fails:+$fails; }up_after_last_test"
		echo "not ok $series/lkdtm/up_after_last_test # the guest was not up after the last test${lost:+ (down or hung in $lost)}"
		[ -n "$lost" ] || tail -n 12 "$res.console.txt" | sed 's/^/# /'
	fi
	echo "# LKDTM selftest ($(basename "$lkdtm_source")'s run.sh and tests.txt, unchanged) on $series:" \
		"$pass pass, $nxfail XFAIL, $skip SKIP, $fail fail${fails:+ ($fails)};" \
		"one guest, $((SECONDS - start)) s"
}

# lkdtm_prepare REL SERIES: whether this series runs the selftest (the
# series' preparation calls it after packing the initramfs, when the
# scope's table has it on SERIES: not on debug and rt by default): extracts and
# packs it and returns 0 when a guest is to run it (lkdtm_run); else 1,
# with its result already written when it has one.
lkdtm_prepare() {
	: "${filter?}" "${listing?}" # tests/bench-step sets them
	local rel=$1 series=$2
	echo "$series/lkdtm_selftest" | grep -Eq -- "$filter" || return 1
	in_shard || return 1
	order+=("$series-lkdtm_selftest")
	[ "$listing" = 1 ] && return 1
	if [ ! -r "$lkdtm_source" ]; then
		echo "ok $series/lkdtm_selftest # SKIP $lkdtm_source is not installed (linux-source-6.12)" \
			>"$results/$series-lkdtm_selftest.result"
		return 1
	fi
	if ! lkdtm_extract || ! lkdtm_pack "$rel"; then
		echo "not ok $series/lkdtm_selftest # could not extract run.sh and tests.txt or pack the guest" \
			>"$results/$series-lkdtm_selftest.result"
		return 1
	fi
}
