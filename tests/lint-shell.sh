#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The tree's shell is shellcheck-clean (make check-shell; tests/lint runs
# it as lint/shellcheck): shellcheck -x, every severity, on every file
# below.  Each file names its shell (a shebang or "shellcheck shell=");
# the guest's (/init, the case files) is busybox ash, checked as dash.
# A disable is for one line, with its reason.  Every shell file of the
# tree must be in the list: a file ending in .sh or .bash-completion, or
# one whose first line runs a shell, that is not fails the gate.
# Prints the findings, or one line: how many files, no finding.
set -u
cd "$(dirname "$0")/.." || exit 1

files=(
	.ci/run
	tests/run tests/bench-step tests/lint tests/*.sh
	tests/bench/*.sh
	guest/init guest/capture-init guest/kdump-load.sh
	guest/pc-protocol.sh guest/vm.sh guest/lkdtm.sh
	tests/cases/*.sh
	tools/*.sh tools/*.bash-completion
)
# Not checked: what the bash generators wrote, kept byte for byte as the
# engine's tests hold their Python successors to it (engine/tests/).
not_checked='^engine/tests/'

# is_shell FILE: FILE is shell by its name or its first line.
is_shell() {
	local first=""
	case $1 in
	*.sh | *.bash-completion) return 0 ;;
	esac
	read -r first <"$1" 2>/dev/null
	[[ $first =~ ^#!.*[/\ ](ba|da)?sh(\ |$) ]]
}

if git rev-parse -q --verify HEAD >/dev/null 2>&1; then
	tree=$(git ls-files --cached --others --exclude-standard)
else
	tree=$(find . \( -path ./build -o -path ./.git \) -prune -o -type f -print | sed 's|^\./||')
fi
declare -A listed
for f in "${files[@]}"; do
	listed[$f]=1
done
missing=0
while IFS= read -r f; do
	[ -f "$f" ] || continue
	[[ $f =~ $not_checked ]] && continue
	is_shell "$f" || continue
	if [ -z "${listed[$f]:-}" ]; then
		echo "$f: a shell file that tests/lint-shell.sh does not check"
		missing=1
	fi
done <<<"$tree"

command -v shellcheck >/dev/null || {
	echo "shellcheck is not installed (apt-get install shellcheck)"
	exit 1
}
# A few files to a shellcheck, one shellcheck per CPU: -x parses what
# each file sources again, and tools/pc-vm-lib.sh is sourced by most.
printf '%s\0' "${files[@]}" | xargs -0 -n 4 -P "$(nproc)" shellcheck -x -f gcc
rc=$?
if [ $rc != 0 ] || [ $missing != 0 ]; then
	exit 1
fi
echo "shellcheck -x: ${#files[@]} shell files, no finding"
