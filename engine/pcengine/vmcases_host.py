# SPDX-License-Identifier: GPL-2.0
"""The VM runner's own cases that boot nothing (vmcases.py runs them
first): mistakes on the command line caught on the host, --help, the
build directory without PC_OUT, the command the errors point at, the
man page's synopsis, the bash completion, and the accelerator's cache.
CASES is the step's vmcases.Cases: where logs and results go."""

import os
import re
import shlex
import subprocess
import sys
import time

from .console import lines_of, read_log
from . import ROOT, engine_env

RUNNER = os.path.join(ROOT, 'tools', 'provoke-crash-vm')

# Mistakes the runner must catch on the host, before it builds or boots
# anything: each exits 2 within 5 s with one line that names it.
BAD_OPTIONS = (
    ('--timeout abc', "--timeout 'abc': give a whole number"),
    ('--smp 0', "--smp '0'"),
    ('--frobnicate', "unknown option '--frobnicate'"),
    ("--arm 'vfs_read nosuchtype'", "no crash type 'nosuchtype'"),
    ('--trigger nosuchtype', "no crash type 'nosuchtype'"),
    ("--arm 'vfs_read bugon' --trigger panic", '--arm and --trigger do not go together'),
    ('--trigger panic --run true', '--run and --trigger'),
    ("--arm 'vfs_read bugon colour=red'", r"unknown condition 'colour' \(after= every= times="),
    ("--arm 'vfs_read bugon times=x'", "bad value in 'times=x'"),
    ("--arm 'vfs_read bugon caller<=ksys_read'", "caller takes only = or != in 'caller<=ksys_read'"),
    ("--arm 'vfs_read bugon caller=a caller=b caller=c caller=d caller!=e'",
     'at most 4 caller conditions'),
    ("--arm 'vfs_read bugon caller=ksys_read+4'", r"bad name in 'caller=ksys_read\+4'"),
    ('--arm vfs_read', r"give 'SYMBOL\[\+OFFSET\|%return\] TYPE"),
    ("--arm 'vfs_read+4x bugon'", r"'vfs_read\+4x' is not SYMBOL"),
    ('--kernel 4.19', "--kernel '4.19': not a series"),
    ('--kernel /etc/hostname', 'give its build tree with --kdir'),
    ('--kernel /etc/hostname --kdir /tmp', 'not an x86-64 bzImage'),
    ('--kdir /tmp', '--kdir needs --kernel IMAGE'),
    ('--bt', '--bt needs --kdump'),
    ('--trigger pac_corruption', 'pac_corruption runs only on arm64'),
    ('--file /nonexistent/repro', "no file '/nonexistent/repro'"),
    ('--shell', '--shell needs a terminal'),
    ('--arm', '--arm needs a value'),
)
HELP_HAS = ('after=N every=N', 'probability=P pid=N comm=NAME cpu=N', '%return',
            '--kernel IMAGE --kdir DIR', '4 the module', '5 a point of a report',
            '(NAME: at most 15 characters', '--list-types', '(default build/vm/kdump-DATE)')


def bad_options(cases):
    """The option checks, --help, the build directory, the command the
    errors point at, the man page's synopsis and the bash completion."""
    if not cases.wanted('bad_options'):
        return
    said, why = [], ''
    for args, want in BAD_OPTIONS:
        t0 = time.monotonic()
        rc, text = cases.runner(shlex.split(args), stdin=subprocess.DEVNULL)
        ms = int((time.monotonic() - t0) * 1000)
        line = text.rstrip('\n')
        said.append('%s -> %d in %d ms: %s' % (args, rc, ms, line))
        if rc != 2:
            why = '%s: exit status %d, expected 2' % (args, rc)
        elif ms >= 5000:
            why = '%s: took %d ms' % (args, ms)
        elif len(lines_of(text)) != 1:
            why = '%s: not one line: %s' % (args, line)
        elif not re.search(want, line):
            why = "%s: no '%s' in: %s" % (args, want, line)
        if why:
            break
    if not why:
        _, text = cases.runner(['--help'])
        why = next(("--help lacks '%s'" % w for w in HELP_HAS if w not in text), '')
    why = why or default_build_dir(cases) or lists_types(cases, said) or man_synopsis() or \
        completion(cases, said)
    cases.result('bad_options', why, ''.join(x + '\n' for x in said))


def default_build_dir(cases):
    """Without PC_OUT the runner builds under build/vm, where --help puts
    --kdump's dump: its host tool is rebuilt there."""
    key = os.path.join(ROOT, 'build', 'vm', 'host', 'provoke-crash.key')
    if os.path.exists(key):
        os.unlink(key)
    env = dict(cases.env)
    env.pop('PC_OUT', None)
    subprocess.run([RUNNER, '--trigger', 'nosuchtype'], env=env, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    if not os.path.exists(key):
        return ('without PC_OUT the runner did not build in build/vm, where --help puts '
                "--kdump's dump")
    return ''


def lists_types(cases, said):
    """An unknown type's error names a command that lists the types: run
    it."""
    _, text = cases.runner(['--trigger', 'nosuchtype'])
    m = re.search(r"; '(.*)' lists them$", text.rstrip('\n'))
    command = m.group(1) if m else ''
    said.append('lists the types: ' + command)
    if not command:
        return '--trigger nosuchtype names no command that lists the types'
    r = subprocess.run(shlex.split(command), env=dict(cases.env, PC_OUT=cases.build_dir),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if r.returncode or not re.search(rb'^read_after_free ', r.stdout, re.M):
        return "'%s' did not list read_after_free" % command
    return ''


def man_synopsis():
    """provoke-crash(8)'s synopsis of arm and disarm."""
    lines = lines_of(read_log(os.path.join(ROOT, 'tools', 'provoke-crash.8')))
    found = [lines[i + 1] for i, x in enumerate(lines[:-1])
             if re.fullmatch(r'\.B provoke-crash (arm|disarm)', x)]
    if len([x for x in found if '%return' in x]) != 2:
        return 'provoke-crash.8: the synopsis of arm or disarm lacks %return'
    return ''


def completion(cases, said):
    """The bash completion of a type, and (in an empty folder) of a
    kernel series."""
    script = os.path.join(ROOT, 'tools', 'provoke-crash-vm.bash-completion')
    empty = os.path.join(cases.results, 'vm-empty')
    os.makedirs(empty, exist_ok=True)
    for words, want in ((('--trigger', 'read_a'), 'read_after_free'),
                        (('--kernel', 'cl'), 'clang')):
        got = subprocess.run(
            ['bash', '-c', '. "$1"; COMP_WORDS=("$2" "$3" "$4"); COMP_CWORD=2\n'
             '_provoke_crash_vm; echo "${COMPREPLY[*]}"', '_', script, RUNNER, *words],
            cwd=empty, stdout=subprocess.PIPE, universal_newlines=True).stdout.strip()
        said.append('completion: %s -> %s' % (' '.join(words), got))
        if got != want:
            return "completion of '%s' gave '%s'" % (' '.join(words), got)
    return ''


def pick(env):
    """(accelerator, why, ms): the pick as the bench and the runner's
    shell make it, a process of its own (python3 -m pcengine.accel)."""
    t0 = time.monotonic()
    r = subprocess.run([sys.executable, '-P', '-m', 'pcengine.accel'], env=env,
                       stdout=subprocess.PIPE, universal_newlines=True)
    accel, _, why = r.stdout.strip().partition(' ')
    return accel, why, int((time.monotonic() - t0) * 1000)


def accel_cache(cases):
    """KVM is probed once per host: a second pick reads the cache that
    the bench and the runner share, with the same answer.  Its time is
    reported, not judged: on a shared machine a wall clock is noise, and
    "cached: ..., probed" already says no probe boot ran."""
    if not cases.wanted('accel_cache'):
        return
    env = engine_env(cases.env)
    env.pop('PC_ACCEL', None)
    first, first_why, _ = pick(env)
    second, second_why, ms = pick(env)
    said = ['first pick: %s (%s)' % (first, first_why),
            'second pick: %s (%s) in %d ms' % (second, second_why, ms)]
    why = ''
    if second != first:
        why = 'second pick %s, first %s (%s)' % (second, first, first_why)
    elif not re.match(r'cached: .*, probed ', second_why):
        why = 'second pick not from the cache: ' + second_why
    cases.result('accel_cache', why, ''.join(x + '\n' for x in said))
