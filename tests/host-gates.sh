# SPDX-License-Identifier: GPL-2.0
# The bench's host-side gates, sourced by tests/bench-step: the parser's unit
# tests, a bounded fuzzing run, the JUnit writer's own check, make
# check-unit, the docs check and the shard check, on the host while the
# guests boot (slice 1 of a sharded run).  Uses
# tests/bench-step's $results, $here, $host_tool and $kernels.
# shellcheck shell=bash

host_gates() {
	: "${results?}" "${here?}" "${host_tool?}" # tests/bench-step sets them
	{
		"$PC_ROOT/tests/unit/parse_test"
		"$PC_ROOT/tests/unit/compare_test"
	} >"$results/unit.ktap" 2>&1
	fuzz_seconds=${PC_FUZZ_SECONDS:-30}
	if make -s -C "$PC_ROOT/tests/fuzz" run FUZZ_SECONDS="$fuzz_seconds" >"$results/fuzz.log" 2>&1; then
		{
			echo "ok fuzz/parse_line"
			echo "# $(grep -Eo 'Done [0-9]+ runs' "$results/fuzz.log" | tail -n 1) in ${fuzz_seconds}s, no finding"
		} >"$results/fuzz.result"
	else
		{
			echo "not ok fuzz/parse_line"
			grep -E 'ERROR|SUMMARY|Test unit written|^ +#[0-9] ' "$results/fuzz.log" |
				head -n 15 | sed 's/^/# /'
		} >"$results/fuzz.result"
	fi

	# The JUnit writer keeps every result: a sample with a pass, a
	# failure with its diagnostics and a skip parses as XML with them.
	if printf '%s\n' 'ok 1 a/p' 'not ok 2 a/f <&>' '# why' 'ok 3 b/s # SKIP no X' |
		"$here/ktap-junit" | "$PC_PYTHON" -c '
import sys, xml.etree.ElementTree as E
t = E.parse(sys.stdin).getroot()
assert (t.get("tests"), t.get("failures"), t.get("skipped")) == ("3", "1", "1")
f = t.find("testcase[@name=\"f <&>\"]/failure")
assert f is not None and f.text == "why\n"
' 2>"$results/junit-check.log"; then
		echo "ok host/junit_report" >"$results/junit.result"
	else
		{
			echo "not ok host/junit_report"
			sed 's/^/# /' "$results/junit-check.log"
		} >"$results/junit.result"
	fi

	# The tests that need no guest (make check-unit: the parser's unit
	# tests, the host engine's on saved consoles, pyflakes); their line
	# goes with the JUnit check's, in a file tests/run reads.
	if make -s -C "$PC_ROOT" check-unit >"$results/check-unit.log" 2>&1; then
		echo "ok host/check_unit" >>"$results/junit.result"
	else
		{
			echo "not ok host/check_unit"
			tail -n 15 "$results/check-unit.log" | sed 's/^/# /'
		} >>"$results/junit.result"
	fi

	# Documentation follows the table: the generated tables in
	# Documentation/provoke-crash/ are what `provoke-crash types --rst`
	# and `--lkdtm-rst` print (`make docs` writes them).
	local doc mark opt
	: >"$results/docs.diff"
	for doc in "crash-types.rst TYPES --rst" "lkdtm.rst LKDTM --lkdtm-rst"; do
		read -r doc mark opt <<<"$doc"
		diff -u --label "Documentation/provoke-crash/$doc" --label "provoke-crash types $opt" \
			<(sed -n "/^\.\. BEGIN $mark TABLE/,/^\.\. END $mark TABLE/p" \
				"$PC_ROOT/Documentation/provoke-crash/$doc" | sed '1d;$d') \
			<("$host_tool" types "$opt") >>"$results/docs.diff"
	done
	if [ ! -s "$results/docs.diff" ]; then
		echo "ok docs/types_table_follows_the_table" >"$results/docs.result"
	else
		{
			echo "not ok docs/types_table_follows_the_table"
			echo "# Documentation/provoke-crash/ differs from 'provoke-crash types' (make docs):"
			head -n 20 "$results/docs.diff" | sed 's/^/# /'
		} >"$results/docs.result"
	fi
	shard_partition >"$results/shard.result"
}

# shard_partition: PC_SHARD's slices, as tests/run itself lists them
# (PC_LIST=1, nothing booted), are disjoint and together are the whole
# run (PC_SHARD=1/1), each non-empty: the host gates in the first, the VM
# runner's cases in the last.  On the run's first Debian series (a
# listing makes every case file of a series: a minute on a busy host),
# which the scheduler names in PC_STEP_SHARD_SERIES (pcengine.bench).
shard_partition() {
	local dir=$results/shards s k=() n=2 i why="" counts=""
	s=${PC_STEP_SHARD_SERIES:-}
	[ -n "$s" ] && k=("$s")
	if [ ${#k[@]} = 0 ]; then
		echo "ok host/shard_partition # SKIP no Debian series in PC_KERNELS"
		return
	fi
	mkdir -p "$dir"
	for s in 1/1 $(seq -f "%g/$n" 1 $n); do
		PC_LIST=1 PC_SHARD=$s PC_KERNELS="${k[*]}" PC_CASES=. "$here/run" \
			>"$dir/${s/\//-of-}" 2>"$dir/${s/\//-of-}.log" ||
			why="PC_LIST=1 PC_SHARD=$s failed: $(tail -n 1 "$dir/${s/\//-of-}.log")"
	done
	if [ -z "$why" ]; then
		for i in $(seq 1 $n); do
			s=$(grep -cv -e '^host gates$' -e '^vm cases$' -e '^$' "$dir/$i-of-$n")
			[ "$s" -gt 0 ] || why="slice $i/$n has no case"
			counts="$counts${counts:+/}$s"
		done
		s=$(sort "$dir"/*-of-$n | uniq -d | head -n 3 | tr '\n' ' ')
		[ -n "$s" ] && why="in two slices: $s"
		diff <(sort "$dir"/*-of-$n) <(sort "$dir/1-of-1") >"$dir/diff" ||
			why="the slices together differ from the whole run: $(head -n 3 "$dir/diff" | tr '\n' ' ')"
		grep -qx 'host gates' "$dir/1-of-$n" || why="the host gates are not in slice 1/$n"
		grep -qx 'vm cases' "$dir/$n-of-$n" || why="the VM runner's cases are not in slice $n/$n"
	fi
	if [ -n "$why" ]; then
		echo "not ok host/shard_partition"
		echo "# $why"
	else
		echo "ok host/shard_partition"
		echo "# ${k[*]}: $n slices of $counts, disjoint, together the $(wc -l <"$dir/1-of-1") of PC_SHARD=1/1"
	fi
}
