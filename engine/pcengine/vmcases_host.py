# SPDX-License-Identifier: GPL-2.0
"""The VM runner's own cases that boot nothing (vmcases.py runs them
first): mistakes on the command line caught on the host, a point's name
checked against the kernel's System.map, --help, the build directory
without PC_OUT, the command the errors point at, the man page's
synopsis, the bash completion, and the accelerator's cache.  CASES is
the step's vmcases.Cases: where logs and results go."""

import os
import re
import shlex
import subprocess
import sys
import time

from .console import lines_of, read_log
from . import ROOT, engine_env, kernels

RUNNER = os.path.join(ROOT, 'tools', 'provoke-crash-vm')


def missing(text, patterns):
    """Why TEXT fails PATTERNS (EREs a line each; one that starts with !
    must not appear), or ''."""
    lines = lines_of(text)
    for pat in patterns.split('\n'):
        if pat.startswith('!'):
            if any(re.search(pat[1:], line) for line in lines):
                return 'unexpected in its output: ' + pat[1:]
        elif not any(re.search(pat, line) for line in lines):
            return 'missing in its output: ' + pat
    return ''

# Mistakes the runner must catch on the host, before it builds or boots
# anything: each exits 2 with one line that names it, nothing built.
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
    # Issue 42's frictions 6 and 7: the module's words, before a guest.
    ("--arm 'vfs_read bugon arg3 > 100'", "'arg3': write each condition as one word"),
    ("--arm 'vfs_read bugon arg0>1'", "'arg0>1': the arguments are arg1 to arg6"),
    ("--arm 'vfs_read bugon arg7>1'", "'arg7>1': the arguments are arg1 to arg6"),
    ("--arm 'vfs_read bugon every=0'", 'every must be at least 1'),
    ('--trigger SOFTLOCKUP', "'SOFTLOCKUP' is LKDTM's name for the crash type unreachable_loop"),
    ('--gdb --kdump', '--gdb goes with a run, not --kdump'),
    ('--module /etc/hostname', r"--module '/etc/hostname': give a FILE\.ko"),
)
HELP_HAS = ('after=N every=N', 'probability=P pid=N comm=NAME cpu=N', '%return',
            '--kernel IMAGE --kdir DIR', '4 the module', '5 a point of a report',
            '(NAME: at most 15 characters', '--list-types', '(default build/vm/kdump-DATE)')


def bad_options(cases):
    """The option checks, --help, the build directory, the command the
    errors point at, the man page's synopsis and the bash completion;
    the symbols' case first (vmcases.main starts the host's cases
    here)."""
    symbol_typo(cases)
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
        elif re.search(r'^# (building|starting the guest)|^=== in the guest', text, re.M):
            # The fact behind "fast": nothing was built or booted (the
            # time is shown, never checked).
            why = '%s: it built or booted before refusing' % args
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


# A few lines of an x86-64 System.map: Debian's own is a stub (its -dbg
# package has the real one).
SYMBOLS_MAP = (
    'ffffffff81000000 T _stext\n'
    'ffffffff8117a310 t __do_sys_getppid\n'
    'ffffffff8117a310 T __x64_sys_getppid\n'
    'ffffffff811c2f40 T vfs_read\n'
    'ffffffff811c3120 T vfs_readv\n'
    'ffffffff82200000 T _etext\n')


def symbols_tree(cases, rel):
    """A kernel of files to give the runner: Debian's REL's image, and a
    tree of its config, an empty Module.symvers and SYMBOLS_MAP, whose
    release is REL-symbols.  Its root of links is made under the case's
    own PC_KERNEL_ROOTS."""
    tree = os.path.join(cases.results, 'vm-symbols-tree')
    os.makedirs(os.path.join(tree, 'include', 'config'), exist_ok=True)
    with open('/boot/config-' + rel) as f:
        config = f.read()
    for name, text in (('.config', config), ('Module.symvers', ''), ('System.map', SYMBOLS_MAP),
                       ('include/config/kernel.release', rel + '-symbols\n')):
        with open(os.path.join(tree, name), 'w') as f:
            f.write(text)
    return tree


def refused(env, argv, want):
    """The runner with ARGV: (what it said, with how long it took, a
    figure shown, never checked; why that is not status 2 and WANT's one
    line, or '')."""
    t0 = time.monotonic()
    r = subprocess.run([RUNNER] + argv, env=env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    ms = int((time.monotonic() - t0) * 1000)
    lines = lines_of(r.stdout.decode('utf-8', 'surrogateescape'))
    said = '+ %s -> %d in %d ms: %s' % (shlex.join(argv[-2:]), r.returncode, ms,
                                        ' | '.join(lines))
    if r.returncode != 2:
        return said, 'exit status %d, expected 2' % r.returncode
    if lines != ['provoke-crash-vm: ' + want]:
        return said, 'not the one line: ' + want
    return said, ''


def symbol_typo(cases):
    """A typo in a point's name, or a system call spelled for one
    architecture, is refused on the host from the kernel's System.map:
    exit 2, one line, nothing built."""
    if not cases.wanted('symbol_typo'):
        return
    series = cases.debian_x86()
    rel = kernels.Host(cases.env).kernel_release(series[0]) if series else ''
    if not rel or not os.path.isfile('/boot/vmlinuz-' + rel):
        cases.skip('symbol_typo', 'no Debian x86-64 kernel in /boot')
        return
    kernel = ['--kernel', '/boot/vmlinuz-' + rel, '--kdir', symbols_tree(cases, rel)]
    env = dict(cases.env, PC_OUT=cases.build_dir,
               PC_KERNEL_ROOTS=os.path.join(cases.results, 'vm-symbols-roots'))
    where = "in %s-symbols's System.map" % rel
    said, why = [], ''
    for point, want in (
            ('vfs_reed null_dereference',
             "no function 'vfs_reed' %s (did you mean: vfs_read vfs_readv?)" % where),
            ('sys_getppid null_dereference',
             "no function 'sys_getppid' %s: the system call's entry is __x64_sys_getppid "
             'there; write @sys@getppid' % where)):
        line, why = refused(env, kernel + ['--arm', point], "--arm '%s': %s" % (point, want))
        said.append(line)
        if why:
            break
    cases.result('symbol_typo', why, ''.join(x + '\n' for x in said))


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
