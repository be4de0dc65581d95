#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# judge-reference.sh [--write] FIXTURE...: what tests/judge.sh decides on
# a saved console (engine/tests/consoles/NAME: case.sh, console, out,
# meta), on stdout, or into the fixture's "result" with --write.  A batch
# fixture (batch.sh, parts/PART.sh) is cut into its parts as tests/run's
# run_batch cuts it, and each part judged.  --write also records which
# judge.sh made the results (consoles/judge.sh.sha256).  The Python
# verdict's tests compare with both.
# shellcheck source-path=SCRIPTDIR/../..
set -u
here=$(cd "$(dirname "$0")" && pwd)
write=0
[ "${1:-}" = --write ] && write=1 && shift
# judge.sh's inputs from tests/run: its result directory, the guest's
# time limit, and its log function.
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
# shellcheck disable=SC2317 # judge_case calls it
pc_log() { :; }
# shellcheck source=tests/judge.sh
. "$here/../../tests/judge.sh"
for fixture in "$@"; do
	# shellcheck disable=SC2034 # judge_case reads guest_timeout
	series='' name='' rc=0 guest_timeout=120
	# shellcheck source=/dev/null
	. "$fixture/meta"
	mkdir -p "$results/$name"
	parts=$name
	if [ -f "$fixture/batch.sh" ]; then
		parts=$(sed -n 's/^# part: //p' "$fixture/batch.sh")
		cp "$fixture"/parts/*.sh "$results/$name/"
		for part in $parts; do
			for log in console out; do
				# tests/run's run_batch, word for word.
				tr -d '\r' <"$fixture/$log" | awk -v p="PC-PART $part" \
					'index($0, "PC-PART ") { on = (substr($0, length($0) - length(p) + 1) == p); next } on' \
					>"$results/$series-$part.$log"
			done
		done
	else
		cp "$fixture/case.sh" "$results/$name/$name.sh"
		cp "$fixture/console" "$results/$series-$name.console"
		cp "$fixture/out" "$results/$series-$name.out"
	fi
	for part in $parts; do
		judge_case "$results/$name/$part.sh" "$series" "$rc" \
			"$results/$series-$part.console" "$results/$series-$part.out"
		cat "$results/$series-$part.result"
	done >"$results/$name.all"
	if [ $write = 1 ]; then
		cp "$results/$name.all" "$fixture/result"
	else
		cat "$results/$name.all"
	fi
done
[ $write = 1 ] && (cd "$here/../.." && sha256sum tests/judge.sh) >"$here/consoles/judge.sh.sha256"
exit 0
