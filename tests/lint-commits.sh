#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The commits since tests/commit-lint.base are in kernel style: subject
# "area: summary" of at most 72 characters, a blank line, a body that
# says why, lines of at most 72 (an indented quote may be longer), a
# "Tested:" paragraph, and nothing for checkpatch --strict to say about
# the message.  The commits up to the base are history, left alone.
# Prints one line per commit checked and exits 1 if any fails.
# Usage: tests/lint-commits.sh CHECKPATCH [BASE]
# (PC_COMMITS_MAX, default 30: check at most the newest N commits.)
set -u
checkpatch=$1
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 1
# Run as root (sudo tests/run) in a checkout that is not root's: trust it.
git() { command git -c safe.directory="$root" "$@"; }
base=${2:-$(sed -n 's/^\([0-9a-f]\{40\}\)$/\1/p' tests/commit-lint.base)}
max=${PC_COMMITS_MAX:-30}

# A clean clone of main has main only, maybe shallow: the base may be
# missing.  Then only HEAD is checked: it is newer than the base, or the
# base would be in the clone.
if git merge-base --is-ancestor "$base" HEAD 2>/dev/null; then
	range=("$base..HEAD")
else
	echo "# base ${base:0:12} is not in this clone's history: HEAD only"
	range=(-1 HEAD)
fi
commits=$(git rev-list --no-merges --max-count="$max" "${range[@]}") || exit 1

# message_errors COMMIT: what is wrong with COMMIT's message, one line
# per finding.
message_errors() {
	git log -1 --format=%B "$1" | awk '
		NR == 1 {
			if ($0 !~ /^[a-z0-9][a-z0-9\/_.+-]*: [^ ]/)
				print "subject is not \"area: summary\": " $0
			if (length($0) > 72)
				print "subject has " length($0) " characters (at most 72)"
			next
		}
		NR == 2 && $0 != "" { print "no blank line after the subject" }
		/^Tested:/ && prev == "" { tested = 1 }
		!tested && NR > 2 && $0 != "" { body = 1 }
		length($0) > 72 && $0 !~ /^[ \t]/ {
			print "line " NR " has " length($0) " characters (at most 72)"
		}
		{ prev = $0 }
		END {
			if (!body)
				print "no body before the Tested: paragraph"
			if (!tested)
				print "no \"Tested:\" paragraph"
		}'
	# checkpatch on the patch, keeping what it says about the message
	# (lines up to the "---" that ends it; the file gates check the
	# files).  Not asked for here: Signed-off-by, and EMAIL_SUBJECT,
	# which takes a subject naming the sparse or checkpatch gate for a
	# patch found by that tool.
	local end
	git format-patch -1 --stdout "$1" >"$tmp"
	end=$(grep -n -m 1 '^---$' "$tmp" | cut -d: -f1)
	perl "$checkpatch" --strict --no-tree --terse --show-types - <"$tmp" 2>&1 |
		awk -F: -v end="$end" '
			$1 == "-" && $2 + 0 <= end + 0 && $0 !~ /:EMAIL_SUBJECT:/ {
				sub(/^-:[0-9]+: /, "checkpatch: "); print
			}'
}

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
bad=0 n=0
for c in $commits; do
	n=$((n + 1))
	errors=$(message_errors "$c" | sed 's/^/    /')
	if [ -n "$errors" ]; then
		bad=$((bad + 1))
		echo "${c:0:12} $(git log -1 --format=%s "$c" | cut -c1-60): not kernel style"
		echo "$errors"
	fi
done
echo "commits since ${base:0:12}: $n checked (at most $max), $bad not in kernel style"
[ "$bad" = 0 ]
