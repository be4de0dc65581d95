# SPDX-License-Identifier: GPL-2.0
"""The verdict on one case, from what its guest printed.

casestep.py judges each case, and each part of a batch, with it;
``python3 -m pcengine.verdict`` judges a saved case's logs again by
hand.  It was a port of tests/judge.sh, line for line in what it
decides and prints:
the case header's expect and reject lines against the console and the
case's output, no report the case did not ask for (UNASKED_RE), a skip
from the header (``# skip:``) or from the guest (``PC-SKIP REASON``,
which a type's ``XFAIL:`` line becomes), a guest that timed out, and a
module that did not load.  The result text is what judge.sh wrote to
the case's .result file; engine/tests/test_verdict.py holds it to the
results judge.sh wrote on saved consoles.

Patterns are POSIX extended regular expressions (grep -E); Python's re
reads the ones the cases use the same way (back-references included).
A pattern re cannot compile matches nothing, as grep's error does.

One difference, on purpose: a log with a NUL byte was binary to
judge.sh's grep, which then printed no line (a report in it went unseen);
here it is text.  No console of the 727 compared had one.
"""

import argparse
import functools
import os
import re
import sys

from . import casefile, run_cli
from .console import lines_of, strip_kernel_prefix, text_of

# Reports no case asks for: our own machinery stopping the kernel before
# the type asked for could (a BUG in the module's point code, "cannot
# resume"), and the kernel's checkers (KASAN, KFENCE, lockdep, RCU,
# atomic sleep, UBSAN).  A case passes with one only if one of its
# "expect" patterns matches that very line, or an "after-crash" pattern
# matches it and it came after the crash began.
UNASKED_RE = (
    r'kernel BUG at [^ ]*/(run_in_path|probe_return|return_landing|return_landing_x86'
    r'|probe_ftrace|probe_kprobe|control|points|offsets|parse|core|crashtypes)\.c'
    r'|cannot resume: BUG'
    r'|BUG: KASAN:|BUG: KFENCE:|possible circular locking|possible recursive locking'
    r'|inconsistent lock state|suspicious RCU usage|sleeping function called from invalid context'
    r'|UBSAN:|BUG: using smp_processor_id|BUG: scheduling while atomic|WARNING: bad unlock balance'
    r'|Voluntary context switch within RCU read-side critical section'
)

TIMEOUT_STATUSES = (124, 137)
SHOWN_CONSOLE_LINES = 25
SHOWN_OUTPUT_LINES = 15
SHOWN_HIT_BYTES = 160


@functools.lru_cache(maxsize=None)
def _compile(pattern):
    try:
        return re.compile(pattern)
    except re.error:
        return None


def first_match(pattern, lines):
    """The first line the ERE matches (grep -E -m1), or None."""
    rx = _compile(pattern)
    if rx is None:
        return None
    for line in lines:
        if rx.search(line):
            return line
    return None


def _cut_bytes(text, n):
    """``cut -c1-N``: GNU cut counts bytes."""
    return text.encode('utf-8', 'surrogateescape')[:n].decode('utf-8', 'surrogateescape')


def crash_start(patterns, console_lines):
    """The index of the console line where the crash began: the first
    that the first ``# expect:`` pattern matches (None: no such line)."""
    rx = _compile(patterns[0]) if patterns else None
    if rx is None:
        return None
    for i, line in enumerate(console_lines):
        if rx.search(strip_kernel_prefix(line)):
            return i
    return None


def unasked_report(case_text, console_lines):
    """The first report (sorted, prefix stripped) that none of the case's
    ``# expect:`` patterns matches, and no ``# after-crash:`` pattern
    either once the crash began, or None.  A report the kernel prints in
    reaction to the crash (a task killed in an RCU read-side section
    sleeps on its way out) is asked for then, and only then: before the
    crash it is our own machinery's."""
    patterns = casefile.console_patterns(case_text)
    after = casefile.values(case_text, 'after-crash')
    start = crash_start(patterns, console_lines) if after else None
    reports = set()
    for i, line in enumerate(console_lines):
        if not _compile(UNASKED_RE).search(line):
            continue
        line = strip_kernel_prefix(line)
        if any(first_match(p, [line]) is not None for p in patterns):
            continue
        if start is not None and i > start and \
                any(first_match(p, [line]) is not None for p in after):
            continue
        reports.add(line)
    return min(reports) if reports else None


def check_case(case_text, logs, names):
    """(why, matched): the first unmet header line ('' if none), and for
    each expected pattern met so far the line that met it, as shown under
    "ok".  logs and names map 'console' and 'out' to the log's lines and
    its file name."""
    matched = []
    for check in casefile.checks(case_text):
        hit = first_match(check.pattern, logs[check.log])
        if check.kind == 'expect':
            if hit is None:
                return 'missing in %s: %s' % (names[check.log], check.pattern), matched
            # Kernel lines lose their level and timestamp; long ones are
            # cut; a line that met two patterns is shown once.
            shown = '#   %s: %s' % (check.log, _cut_bytes(strip_kernel_prefix(hit),
                                                       SHOWN_HIT_BYTES))
            if shown not in matched:
                matched.append(shown)
        elif hit is not None:
            return 'unexpected in %s: %s' % (names[check.log], hit), matched
    report = unasked_report(case_text, logs['console'])
    if report is not None:
        return 'a report the case did not ask for: ' + report, matched
    return '', matched


def _tail(text, n):
    """``tail -n N | sed 's/^/# /'``: a last line with no newline stays so."""
    if not text:
        return ''
    parts = text.split('\n')
    last_open = parts[-1] != ''
    if not last_open:
        parts.pop()
    shown = ''.join('# %s\n' % p for p in parts[-n:])
    return shown[:-1] if last_open else shown


def judge(case_text, name, series, rc, console, out, guest_timeout, console_name, out_name):
    """The text of the case's result file.

    console and out are the logs as read (bytes or text), rc the guest's
    exit status, console_name and out_name the logs' file names (the
    result names them).
    """
    if isinstance(case_text, bytes):
        case_text = case_text.decode('utf-8', 'surrogateescape')
    raw_out = out.decode('utf-8', 'surrogateescape') if isinstance(out, bytes) else out
    console_text, out_text = text_of(console), text_of(out)
    logs = {'console': lines_of(console_text), 'out': lines_of(out_text)}
    names = {'console': console_name, 'out': out_name}
    matched = []
    if rc in TIMEOUT_STATUSES:
        why = 'guest timed out after %ss' % guest_timeout
    elif 'PC-INSMOD-FAILED' in raw_out:
        why = 'insmod failed'
    else:
        why, matched = check_case(case_text, logs, names)
    skip = casefile.skip_reason(case_text)
    # A case that finds at run time that it cannot test what it is for
    # says why (PC-SKIP): it is skipped, whatever else it would expect.
    skips = [line[len('PC-SKIP '):] for line in logs['out'] if line.startswith('PC-SKIP ')]
    if skips:
        skip = skips[0].rstrip('\n')
        report = unasked_report(case_text, logs['console'])
        why = '' if report is None else 'a report the case did not ask for: ' + report
    head = '%s/%s' % (series, name)
    if not why:
        lines = ['ok %s # SKIP %s' % (head, skip) if skip else 'ok ' + head]
        return '\n'.join(lines + matched) + '\n'
    return ('not ok %s\n# %s\n# --- console (last %d lines) ---\n%s'
            '# --- output (last %d lines) ---\n%s'
            % (head, why, SHOWN_CONSOLE_LINES, _tail(console_text, SHOWN_CONSOLE_LINES),
               SHOWN_OUTPUT_LINES, _tail(out_text, SHOWN_OUTPUT_LINES)))


def _read(path):
    with open(path, 'rb') as f:
        return f.read()


def main(argv=None):
    """A case's result file from its saved logs, as the bench writes it."""
    ap = argparse.ArgumentParser(
        prog='python3 -m pcengine.verdict',
        description='Judge one case from what its guest printed; write its result file.')
    ap.add_argument('case', help='the case file, as the guest ran it')
    ap.add_argument('series', help='the series, as the result names it')
    ap.add_argument('rc', type=int, help='the guest\'s exit status (124, 137: timed out)')
    ap.add_argument('console', help='the guest\'s console log')
    ap.add_argument('out', help='the case\'s own output')
    ap.add_argument('result', help='the result file to write')
    ap.add_argument('--timeout', default='120', help='the guest\'s time limit, as shown')
    args = ap.parse_args(argv)
    name = os.path.basename(args.case)
    name = name[:-3] if name.endswith('.sh') else name

    def work():
        text = judge(_read(args.case), name, args.series, args.rc, _read(args.console),
                     _read(args.out), args.timeout, os.path.basename(args.console),
                     os.path.basename(args.out))
        with open(args.result, 'w', encoding='utf-8', errors='surrogateescape') as f:
            f.write(text)
    return run_cli(work)


if __name__ == '__main__':
    sys.exit(main())
