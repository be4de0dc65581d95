# SPDX-License-Identifier: GPL-2.0
"""The bench's KTAP report, as tests/run writes it.

The results (each case's .result, the unit tests' lines, the gates') are
put one after another; the report numbers the "ok"/"not ok" lines in
that order under a "KTAP version 1" header and a plan, and keeps the
diagnostic lines between them as they are.  A result whose line holds
"# SKIP" counts as skipped.
"""

import collections
import re

Tally = collections.namedtuple('Tally', 'passed failed skipped')

_RESULT_RE = re.compile(r'^(not )?ok ')
_UNIT_RE = re.compile(r'^(not )?ok [0-9]+ ')


def unit_results(unit_ktap):
    """The C unit tests' KTAP as the bench's results: numbers dropped,
    names put under unit/."""
    return ''.join(_UNIT_RE.sub(lambda m: (m.group(1) or '') + 'ok unit/', line) + '\n'
                   for line in unit_ktap.split('\n') if _RESULT_RE.match(line))


def report(results):
    """(KTAP text, Tally) of the results' text."""
    parts = results.split('\n')
    # The plan counts a last line with no newline; the loop does not
    # read it (bash's read).
    plan = sum(1 for p in parts if _RESULT_RE.match(p))
    read = parts[:-1]
    out = ['KTAP version 1', '1..%d' % plan]
    n = passed = failed = skipped = 0
    for line in read:
        if line.startswith('ok '):
            n += 1
            if '# SKIP' in line:
                skipped += 1
            else:
                passed += 1
            out.append('ok %d %s' % (n, line[3:]))
        elif line.startswith('not ok '):
            n += 1
            failed += 1
            out.append('not ok %d %s' % (n, line[7:]))
        else:
            out.append(line)
    return '\n'.join(out) + '\n', Tally(passed, failed, skipped)


def summary(tally):
    """The run's last line."""
    return '%d passed, %d failed, %d skipped' % tally
