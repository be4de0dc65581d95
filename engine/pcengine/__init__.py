# SPDX-License-Identifier: GPL-2.0
"""provoke-crash's host engine: the bench's scheduler, its scope, the
cases made from the crash-type table, the guests (QEMU per architecture,
saved and restored), the console protocol and parser, the verdict on a
case and the KTAP report (see each module)."""

import sys


def run_cli(work):
    """A command line's work: an OSError (a file it could not read or
    write) is one line on stderr and exit status 1, not a traceback."""
    try:
        work()
    except OSError as e:
        print('provoke-crash: %s' % e, file=sys.stderr)
        return 1
    return 0
