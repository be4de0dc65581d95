# SPDX-License-Identifier: GPL-2.0
"""The engine's way to the shell that still does the bench's and the VM
runner's builds (tools/pc-vm-lib.sh, tools/pc-kdump.sh: packages, a
kernel's files, the module's build, the initramfs, kdump's pieces), and
the runner's two channels to the user: stdout for the run, stderr for
'# ' lines about the setup."""

import subprocess

from . import ROOT

# Sourced for each step (and MORE, files under ROOT); a step's pc_die
# names the program and exits with its setup status (the runner's 6).
PRELUDE = '''for f in tools/pc-vm-lib.sh tools/pc-kdump.sh %(more)s; do
	. "$PC_ROOT/$f" || exit %(status)d
done
pc_die() { printf '%(program)s: %%s\\n' "$*" >&2; exit %(status)d; }
'''


class SetupError(Exception):
    """Setup failed (status 6): its line, or None when a step said why."""


def say(text=''):
    print(text, flush=True)


def step(env, script, *args, check=True, program='provoke-crash-vm', status=6, more=''):
    """SCRIPT run by bash after the shared shell is sourced, with ARGS as
    $1...: its stdout, without the last newline.  With CHECK a failure is
    the setup's (the step said why on stderr); without, (status, stdout)."""
    prelude = PRELUDE % dict(more=more, status=status, program=program)
    r = subprocess.run(['bash', '-c', prelude + script, program, *args],
                       env=dict(env, PC_ROOT=ROOT), stdout=subprocess.PIPE,
                       universal_newlines=True)
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


def bench_step(env, script, *args, check=True):
    """step() for the bench's own steps: its pc_die says provoke-crash
    and exits 1, and the bench's shell (LKDTM's selftest's guest, a
    series' builds) is sourced too."""
    return step(env, script, *args, check=check, program='provoke-crash', status=1,
                more='tests/lkdtm-selftest.sh tests/prepare-series.sh')


def sed(script, data):
    """DATA (bytes, kept as they are) through the case files' sed script
    (pc_case_sed): @sys@NAME and the rest, for a release's architecture."""
    return subprocess.run(['sed', script], input=data, stdout=subprocess.PIPE,
                          check=True).stdout
