# SPDX-License-Identifier: GPL-2.0
"""The VM runner's way to the shell it still shares with the bench
(tools/pc-vm-lib.sh, tools/pc-kdump.sh: packages, a kernel's files, the
module's build, the initramfs, kdump's pieces), and its two channels to
the user: stdout for the run, stderr for '# ' lines about the setup."""

import os
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
# Sourced for each step; a step's pc_die is the runner's: status 6.
PRELUDE = '''. "$PC_ROOT/tools/pc-vm-lib.sh" && . "$PC_ROOT/tools/pc-kdump.sh" || exit 6
pc_die() { printf 'provoke-crash-vm: %s\\n' "$*" >&2; exit 6; }
'''


class SetupError(Exception):
    """Setup failed (status 6): its line, or None when a step said why."""


def log(text):
    print('# ' + text, file=sys.stderr, flush=True)


def say(text=''):
    print(text, flush=True)


def step(env, script, *args, check=True):
    """SCRIPT run by bash after the shared shell is sourced, with ARGS as
    $1...: its stdout, without the last newline.  With CHECK a failure is
    the setup's (the step said why on stderr); without, (status, stdout)."""
    r = subprocess.run(['bash', '-c', PRELUDE + script, 'provoke-crash-vm', *args],
                       env=env, stdout=subprocess.PIPE, universal_newlines=True)
    out = r.stdout.rstrip('\n')
    if not check:
        return r.returncode, out
    if r.returncode != 0:
        raise SetupError(None)
    return out


def read(path):
    """A small file's text without its last newline; None if unreadable."""
    try:
        with open(path) as f:
            return f.read().rstrip('\n')
    except OSError:
        return None
