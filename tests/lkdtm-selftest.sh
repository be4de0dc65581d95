# SPDX-License-Identifier: GPL-2.0
# LKDTM's own selftest, unchanged, against provoke-crash: sourced by
# tests/run.  run.sh and tests.txt come from Debian's linux-source-6.12
# (tools/testing/selftests/lkdtm), extracted once into $PC_OUT; each test
# is run.sh installed under the test's name, as the kselftest Makefile
# installs it, run from its directory.  It writes the name into
# /sys/kernel/debug/provoke-crash/DIRECT and judges the kernel log.
#
# One guest runs every test in tests.txt's order, as a kselftest run does
# in one boot (an oops kills only the writer).  A test that takes the
# kernel down ends the guest: it is judged on the console the way run.sh
# judges its log (its expected text, or XFAIL), and a new guest goes on
# from the next test.  The guest boots with the kernel-parameter
# equivalents of the selftest's config fragment (SLUB_DEBUG_ON,
# INIT_ON_FREE_DEFAULT_ON, RANDOMIZE_KSTACK_OFFSET_DEFAULT).  The busybox
# guest lacks comm, which run.sh uses: tests/guest/comm.c is put in.
#
# The selftest's other program, stack-entropy.sh, runs first in the first
# guest, as test 0 (1000 REPORT_STACK samples; it needs at least 5 bits),
# with one change: busybox's dmesg has no --follow, and its shell runs
# applets before anything on PATH, so its "dmesg --follow" reads
# /dev/kmsg instead (records that end with the same words).
#
# Uses tests/run's $results, $filter, $order, $listing, in_shard and
# pc-vm-lib.sh (tests/prepare-series.sh calls lkdtm_prepare, tests/run
# forks lkdtm_run).
# shellcheck shell=bash disable=SC2154

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
# the tests from number $pc_lkdtm_from on, each between markers on the
# output and in the kernel log.
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
if [ "${pc_lkdtm_from:-1}" -le 1 ]; then
	echo "LKDTM-BEGIN 0 stack-entropy"
	echo "LKDTM-BEGIN 0 stack-entropy" >/dev/kmsg
	./stack-entropy.sh
	echo "LKDTM-RC 0 stack-entropy $?"
fi
i=0
for t in $(awk '{print $1}' tests.txt | sed -e 's/#//'); do
	i=$((i + 1))
	[ "$i" -lt "${pc_lkdtm_from:-1}" ] && continue
	echo "LKDTM-BEGIN $i $t"
	echo "LKDTM-BEGIN $i $t" >/dev/kmsg
	"./$t.sh"
	echo "LKDTM-RC $i $t $?"
done
echo "LKDTM-DONE"
cd /
GUEST
}

# lkdtm_pack REL: the release's initramfs (already packed by prepare_series)
# with the selftest, comm and the case added.
lkdtm_pack() {
	local rel=$1 dir=$PC_OUT/$1 cc=gcc root
	[ "$(pc_rel_arch "$rel")" = arm64 ] && cc=aarch64-linux-gnu-gcc
	$cc -static -O2 -Wall -Wextra -Werror -o "$dir/comm" "$PC_ROOT/tests/guest/comm.c" ||
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

# lkdtm_run REL SERIES: guests until every test has a verdict; writes the
# series' result file: one KTAP line per test, run.sh's verdict line
# under it, and the totals.
lkdtm_run() {
	local rel=$1 series=$2 res=$results/$2-lkdtm_selftest from=1 n k=0 rc
	local name num out con start=$SECONDS down="" expect boot=$lkdtm_boot
	# One KASAN report per boot otherwise: the tests after the first
	# would find none.
	pc_has_config "$rel" CONFIG_KASAN && boot="$boot kasan_multi_shot"
	n=$(awk '{print $1}' "$PC_OUT/lkdtm-selftest/tests.txt" | wc -l)
	: >"$res.tests"
	while [ "$from" -le "$n" ]; do
		k=$((k + 1))
		out=$res.$k.out con=$res.$k.console
		PC_INITRD=$PC_OUT/$rel/initramfs-lkdtm.cpio pc_boot "$rel" lkdtm_selftest \
			"$((guest_timeout * 3))" "$boot pc_lkdtm_from=$from" "$con" "$out" 1 0
		rc=$?
		tr -d '\r' <"$out" >"$out.txt"
		# Every test with its exit status.
		awk '/^LKDTM-RC / { print $2, $3, $4 }' "$out.txt" >>"$res.tests"
		grep -q '^LKDTM-DONE' "$out.txt" && break
		# The test that took the kernel down: judged on the console
		# from its marker on, with run.sh's expected text.
		read -r num name < <(awk '/^LKDTM-BEGIN / { n = $2; t = $3 } /^LKDTM-RC / { n = "" }
			END { if (n != "") print n, t }' "$out.txt")
		if [ -z "${num:-}" ]; then
			echo "guest $k (from test $from) ran no test: status $rc" >"$res.setup"
			tail -n 20 "$con" >>"$res.setup"
			break
		fi
		expect=$(lkdtm_expect "$name")
		if tr -d '\r' <"$con" | sed -n "/LKDTM-BEGIN $num $name\$/,\$p" | grep -Eqi -- "$expect"; then
			echo "$num $name 0 down" >>"$res.tests"
		elif tr -d '\r' <"$con" | sed -n "/LKDTM-BEGIN $num $name\$/,\$p" | grep -Eqi XFAIL:; then
			echo "$num $name 4 down" >>"$res.tests"
		else
			echo "$num $name 1 down" >>"$res.tests"
		fi
		down="$down $name"
		from=$((num + 1))
	done
	lkdtm_report "$series" "$res" "$k" "$start" "$down" >"$res.result"
	pc_log "done $series/lkdtm_selftest"
}

# lkdtm_report SERIES RES GUESTS START DOWN: one KTAP line per test with
# run.sh's verdict under it, then the totals: pass / XFAIL / SKIP / fail.
lkdtm_report() {
	local series=$1 res=$2 k=$3 start=$4 down=$5 num name rc how verdict seg xfail
	local pass=0 nxfail=0 skip=0 fail=0 fails=""
	while read -r num name rc how; do
		# run.sh's verdict and the XFAIL: line of this test's log,
		# between its markers (on the console, for a test that took
		# the kernel down).
		if [ "${how:-}" = down ]; then
			seg=$(cat "$res".*.console | tr -d '\r' | awk -v b="LKDTM-BEGIN $num $name" \
				'index($0, b) && substr($0, length($0) - length(b) + 1) == b { on = 1; next }
				/LKDTM-BEGIN / { on = 0 } on')
			verdict="the kernel went down; judged on the console as run.sh judges its log:"
			verdict="$verdict $([ "$rc" = 0 ] && echo saw || echo "no") '$(lkdtm_expect "$name")'"
		else
			seg=$(cat "$res".*.out.txt | awk -v b="LKDTM-BEGIN $num $name" \
				'$0 == b { on = 1; next } /^LKDTM-RC / { on = 0 } on')
			verdict=$(grep -E "^$name: (saw|missing) |^Skipping $name: |^Skipped: test '$name' " <<<"$seg" | tail -n 1)
			# stack-entropy.sh's, after its progress (the console is a tty).
			[ "$name" = stack-entropy ] &&
				verdict=$(grep -oE 'Bits of stack entropy: [0-9]+|Stack entropy is low.*' <<<"$seg" | tail -n 1)
		fi
		xfail=$(grep -m1 -o 'XFAIL: .*' <<<"$seg")
		case $rc in
		0) pass=$((pass + 1)); echo "ok $series/lkdtm/$name" ;;
		4)
			if [ -n "$xfail" ] && { grep -q "saw 'XFAIL'" <<<"$verdict" || [ "${how:-}" = down ]; }; then
				nxfail=$((nxfail + 1))
				echo "ok $series/lkdtm/$name # SKIP $xfail"
			else
				skip=$((skip + 1))
				echo "ok $series/lkdtm/$name # SKIP $verdict"
			fi
			;;
		*) fail=$((fail + 1)) fails="$fails $name"; echo "not ok $series/lkdtm/$name" ;;
		esac
		[ -n "$verdict" ] && echo "#   $verdict"
		if [ "$rc" != 0 ] && [ "$rc" != 4 ]; then
			tail -n 12 <<<"$seg" | sed 's/^/# /'
		fi
	done < <(sort -n -u -k1,1 "$res.tests")
	if [ -s "$res.setup" ]; then
		echo "not ok $series/lkdtm/setup"
		sed 's/^/# /' "$res.setup"
	fi
	echo "# LKDTM selftest ($(basename "$lkdtm_source")'s run.sh and tests.txt, unchanged) on $series:" \
		"$pass pass, $nxfail XFAIL, $skip SKIP, $fail fail${fails:+ (}${fails# }${fails:+)};" \
		"$k guest(s)${down:+, kernel down in}${down}; $((SECONDS - start)) s"
}

# lkdtm_prepare REL SERIES: whether this series runs the selftest (the
# series' preparation calls it after packing the initramfs): extracts and
# packs it and returns 0 when a guest is to run it (lkdtm_run); else 1,
# with its result already written when it has one.
lkdtm_prepare() {
	local rel=$1 series=$2
	echo "$series/lkdtm_selftest" | grep -Eq -- "$filter" || return 1
	# The debug kernel (KASAN, lockdep) runs it in check-long only.
	[ "$series" = debug ] && [ "${PC_DEBUG_SCOPE:-slice}" != full ] && return 1
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
