# SPDX-License-Identifier: GPL-2.0
"""provoke-crash's host engine: the bench's scheduler, its scope, the
cases made from the crash-type table, the guests (QEMU per architecture,
saved and restored), the console protocol and parser, the verdict on a
case and the KTAP report (see each module)."""

import os
import shutil
import subprocess
import sys

# The provoke-crash checkout this engine is in.
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))


class SetupError(Exception):
    """A run could not start or a build failed: its line, or None when
    what failed said why already (on stderr)."""


def engine_env(env):
    """ENV for a child that runs an engine module (python3 -P -m
    pcengine.MODULE): the engine first on its path."""
    path = env.get('PYTHONPATH')
    engine = os.path.join(ROOT, 'engine')
    if path and path.split(os.pathsep)[0] == engine:
        return dict(env)
    return dict(env, PYTHONPATH=engine + (os.pathsep + path if path else ''))


def cache_of(env):
    """Where provoke-crash keeps what it fetches or builds once, across
    runs and checkouts: ~/.cache/provoke-crash, under XDG_CACHE_HOME when
    that is set."""
    base = env.get('XDG_CACHE_HOME') or \
        os.path.join(env.get('HOME') or os.path.expanduser('~'), '.cache')
    return os.path.join(base, 'provoke-crash')


def log(text):
    """A '# ' line on stderr: what a step does, beside its results."""
    print('# ' + text, file=sys.stderr, flush=True)


def read_text(path):
    """A text file's whole text (bytes that are not UTF-8 kept as read)."""
    with open(path, encoding='utf-8', errors='surrogateescape') as f:
        return f.read()


def cat(parts, out):
    """The files PARTS, one after another, into OUT (as cat(1)): a
    kernel unpacks cpio archives laid end to end, one over the other."""
    with open(out, 'wb') as dst:
        for part in parts:
            with open(part, 'rb') as src:
                shutil.copyfileobj(src, dst)


def logged(argv, log, **kw):
    """ARGV's status, its stdout and stderr in LOG."""
    with open(log, 'wb') as f:
        return subprocess.run(argv, stdout=f, stderr=subprocess.STDOUT, **kw).returncode


def write_lines(path, lines, mode='w'):
    """LINES, each with its newline, into PATH (bytes kept as read)."""
    with open(path, mode, encoding='utf-8', errors='surrogateescape') as f:
        f.write(''.join(line + '\n' for line in lines))


def run_cli(work):
    """A command line's work: a setup or build that failed (SetupError,
    which may have said why already), a file it could not read or write
    (OSError) or a helper that failed is one line on stderr and exit
    status 1, not a traceback."""
    try:
        work()
    except SetupError as e:
        if e.args and e.args[0]:
            print('provoke-crash: %s' % e.args[0], file=sys.stderr)
        return 1
    except (OSError, subprocess.CalledProcessError) as e:
        print('provoke-crash: %s' % e, file=sys.stderr)
        return 1
    return 0
