#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# ktap-reference.sh DIR: tests/run's own KTAP code on DIR/all (results one
# after another) and DIR/unit.ktap (the C unit tests' report), on stdout:
# the report, the summary line, then the unit tests' results as the bench
# lists them.  The code is read out of tests/run, not copied, so the
# Python report (pcengine.ktap) is held to what tests/run really does.
set -u
here=$(cd "$(dirname "$0")" && pwd)
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
cp "$1/all" "$results/all"
# The block from 'echo "KTAP version 1"' to '} >"$results/ktap"'.
# shellcheck disable=SC2016 # a sed address, not an expansion
block=$(sed -n '/^\techo "KTAP version 1"$/,/^} >"\$results\/ktap"$/p' "$here/../../tests/run")
[ -n "$block" ] || { echo "ktap-reference.sh: the KTAP block is not in tests/run" >&2; exit 1; }
# shellcheck disable=SC2034 # the block counts with n
pass=0 fail=0 skip=0 n=0
eval "{
$block"
cat "$results/ktap"
echo "$pass passed, $fail failed, $skip skipped"
# tests/run's unit lines, the same way.
unit=$(sed -n '/grep -E .*results\/unit.ktap" | sed/p' "$here/../../tests/run" | sed 's/^\t*//')
[ -n "$unit" ] || { echo "ktap-reference.sh: the unit lines are not in tests/run" >&2; exit 1; }
cp "$1/unit.ktap" "$results/unit.ktap"
eval "$unit"
