# SPDX-License-Identifier: GPL-2.0
"""Trim a saved log for engine/tests/consoles without changing its verdict.

Usage: python3 trim_console.py CASEFILE console|out LOG >TRIMMED

Kept: the first 5 lines, every line a check of the case's header for that
log could match, every report of UNASKED_RE and every marker (on the
console) and the last 30 lines (the failure report shows 25 and 15), in
their order.  The first match of each pattern stays the same line, so
judge.sh's verdict does not change (engine/tests/consoles/README.rst).
"""

import sys

sys.path.insert(0, __file__.rsplit('/tests/', 1)[0])

from pcengine import casefile, console, verdict  # noqa: E402


def keep(case_text, log, raw):
    lines = raw.split(b'\n')
    last_open = lines[-1] != b''
    if not last_open:
        lines.pop()
    pats = [c.pattern for c in casefile.checks(case_text) if c.log == log]
    if log == 'console':
        pats.append(verdict.UNASKED_RE)
    pats.append(r'PC-[A-Z]')
    kept = []
    for i, line in enumerate(lines):
        text = console.text_of(line)
        if (i < 5 or i >= len(lines) - 30
                or any(verdict.first_match(p, [text]) is not None for p in pats)):
            kept.append(line)
    return b'\n'.join(kept) + (b'' if last_open else b'\n')


if __name__ == '__main__':
    case_file, log, path = sys.argv[1:4]
    with open(case_file, 'rb') as f:
        case_text = f.read().decode('utf-8', 'surrogateescape')
    with open(path, 'rb') as f:
        sys.stdout.buffer.write(keep(case_text, log, f.read()))
