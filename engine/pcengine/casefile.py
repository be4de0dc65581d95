# SPDX-License-Identifier: GPL-2.0
"""A case file's header: the ``# key: value`` lines tests/run reads.

The checks (expect, expect-out, reject, reject-out) are kept in file
order, as the verdict goes through them in that order and stops at the
first that fails.  The keys are described in tests/run's header.
"""

import collections

Check = collections.namedtuple('Check', 'kind log pattern')

# Header prefix: (kind, which log it is held against).
CHECKS = {
    '# expect: ': ('expect', 'console'),
    '# expect-out: ': ('expect', 'out'),
    '# reject: ': ('reject', 'console'),
    '# reject-out: ': ('reject', 'out'),
}


def read_lines(text):
    """Lines as bash's ``while IFS= read -r`` gives them: a last line with
    no newline after it is not read."""
    return text.split('\n')[:-1]


def sed_lines(text):
    """Lines as sed gives them: a last line with no newline is read too."""
    lines = text.split('\n')
    if lines[-1] == '':
        lines.pop()
    return lines


def checks(text):
    """The header's checks, in file order."""
    found = []
    for line in read_lines(text):
        for prefix, (kind, log) in CHECKS.items():
            if line.startswith(prefix):
                found.append(Check(kind, log, line[len(prefix):]))
                break
    return found


def values(text, key):
    """Every value of ``# KEY: value`` lines (``sed -n 's/^# KEY: //p'``)."""
    prefix = '# %s: ' % key
    return [line[len(prefix):] for line in sed_lines(text) if line.startswith(prefix)]


def console_patterns(text):
    """The ``# expect:`` patterns: a report on the console that one of
    them matches was asked for."""
    return values(text, 'expect')


def skip_reason(text):
    """The ``# skip:`` reason ('' if none; several lines joined, as the
    shell's command substitution joins them)."""
    return '\n'.join(values(text, 'skip')).rstrip('\n')
