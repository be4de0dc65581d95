# SPDX-License-Identifier: GPL-2.0
"""provoke-crash's host engine: the bench's scheduler, its scope, the
cases made from the crash-type table, the guests (QEMU per architecture,
saved and restored), the console protocol and parser, the verdict on a
case and the KTAP report (see each module)."""

import os
import sys

# The provoke-crash checkout this engine is in.
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))


class SetupError(Exception):
    """A run could not start or a build failed: its line, or None when
    what failed said why already (on stderr)."""


def log(text):
    """A '# ' line on stderr: what a step does, beside its results."""
    print('# ' + text, file=sys.stderr, flush=True)


def write_lines(path, lines, mode='w'):
    """LINES, each with its newline, into PATH (bytes kept as read)."""
    with open(path, mode, encoding='utf-8', errors='surrogateescape') as f:
        f.write(''.join(line + '\n' for line in lines))


def run_cli(work):
    """A command line's work: an OSError (a file it could not read or
    write) is one line on stderr and exit status 1, not a traceback."""
    try:
        work()
    except OSError as e:
        print('provoke-crash: %s' % e, file=sys.stderr)
        return 1
    return 0
