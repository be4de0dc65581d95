# SPDX-License-Identifier: GPL-2.0
"""The VM runner's cases of what a developer reaches for after the first
run: --json for a program, --module for their own driver, --gdb for a
debugger, and a run that waits for another's build saying so.  Each
takes the step's vmcases.Cases (CASES) and the series to run on."""

import json
import os
import re
import signal
import socket
import subprocess

from . import build, kernels, runner_json, waiting
from .vmcases_host import RUNNER, missing


def user_module(cases, series):
    """--module: the race example's module, built for SERIES, loaded
    before arming, and a point on its function fires; one whose
    vermagic names another release is refused on the host."""
    if not cases.wanted('module_own') and not cases.wanted('module_other_release'):
        return
    host = kernels.Host(dict(cases.env, PC_OUT=cases.build_dir))
    ko = build.test_module(host, host.kernel_release(series), 'race')
    ctl = '/sys/kernel/debug/pc-race/ctl'
    cases.check('module_own', 0, r'''^module: pc_race.ko loaded$
^pc_race:pc_race_copy null_dereference|provoke_crash: pc_race:pc_race_copy: null_dereference: 
the kernel crashed as asked: null_dereference''',
               '--kernel', series, '--module', ko,
               '--arm', 'pc_race:pc_race_copy null_dereference',
               '--run', 'echo alloc >%s; echo read >%s' % (ctl, ctl))
    other = os.path.join(cases.results, 'vm-other.ko')
    with open(other, 'wb') as f:
        f.write(b'\x7fELF\0license=GPL\0vermagic=9.9.9-other SMP mod_unload \0')
    cases.check('module_other_release', 2, r'''^provoke-crash-vm: --module '.*/vm-other.ko': built for 9.9.9-other, and the guest runs ''',
               '--kernel', series, '--module', other)

def json_verdict(cases, series):
    """--json: stdout is one object that meets runner_json's schema
    and says what the kernel printed (the default point's crash)."""
    name = 'json_verdict'
    if not cases.wanted(name):
        return
    env = cases.runner_env()
    p = subprocess.run([RUNNER, '--kernel', series, '--json'], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    text = p.stdout.decode('utf-8', 'surrogateescape')
    try:
        doc = json.loads(text)
    except ValueError as e:
        cases.result(name, 'stdout is not one JSON object: %s' % e, text)
        return
    facts = (
        (p.returncode == 0, 'exit status %d, expected 0' % p.returncode),
        (not runner_json.validate(doc, runner_json.SCHEMA),
         runner_json.validate(doc, runner_json.SCHEMA)),
        (doc['verdict'] == 'crashed', 'verdict %s' % doc['verdict']),
        ((doc['hit'] or {}).get('type') == 'null_dereference', 'hit %s' % doc['hit']),
        ((doc['crash'] or {}).get('line', '').startswith('BUG: kernel NULL pointer'),
         'crash %s' % doc['crash']),
        (any(p['fired'] == 1 for p in doc['points']), 'no point fired once'),
        (any(r['holds_report'] for r in doc['pstore']), 'no pstore record holds it'),
    )
    why = next((w for ok, w in facts if not ok), '')
    shown = ['verdict: %s (%d): %s' % (doc['verdict'], doc['status'], doc['summary'])]
    shown += ['point: ' + p['line'] for p in doc['points']]
    shown += ['pstore: %(name)s %(header)s, %(lines)d lines' % r for r in doc['pstore']]
    cases.result(name, why, ''.join(x + '\n' for x in shown) if not why else text)

def waits_said(cases, series):
    """A run that waits for another's lock says so, and whose, at
    once: this case holds SERIES' release lock, as another run's
    build would, until the runner's line comes, then lets it go."""
    name = 'waits_said'
    if not cases.wanted(name):
        return
    rel = kernels.Host(cases.env).kernel_release(series)
    env = cases.runner_env()
    with open(os.path.join(cases.build_dir, rel + '.lock'), 'a+') as lock:
        waiting.take(lock, 'the waits_said case')
        p = subprocess.Popen([RUNNER, '--kernel', series, '--arm', '@sys@getppid report'],
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        text = ''
        for line in iter(p.stdout.readline, b''):
            text += line.decode('utf-8', 'surrogateescape')
            if 'waiting for another run' in text:
                break
    text += p.communicate()[0].decode('utf-8', 'surrogateescape')
    why = 'exit status %d, expected 5' % p.returncode if p.returncode != 5 else missing(
        text, r'''^# waiting for another run to finish with %s.lock \(PID %d, since [0-9:]{8}, the waits_said case\)$
reported as asked''' % (re.escape(rel), os.getpid()))
    cases.result(name, why, text)


def gdb_stub(cases, series):
    """--gdb: once the runner says the guest waits for gdb, QEMU's stub
    answers a stop query ('?'); Ctrl-C (SIGINT to the run's process
    group, as a terminal sends it) ends the run, and the report and the
    verdict of the command's crash follow."""
    name = 'gdb_stub'
    if not cases.wanted(name):
        return
    port = '12%03d' % (os.getpid() % 1000)
    env = cases.runner_env(PC_GDB_PORT=port)
    p = subprocess.Popen([RUNNER, '--kernel', series, '--gdb'], env=env, start_new_session=True,
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    text, reply = '', b''
    for line in iter(p.stdout.readline, b''):
        text += line.decode('utf-8', 'surrogateescape')
        if line.startswith(b'# the guest waits for gdb'):
            try:
                with socket.create_connection(('127.0.0.1', int(port)), timeout=60) as s:
                    s.sendall(b'$?#3f')
                    while b'#' not in reply:
                        got = s.recv(100)
                        if not got:
                            break
                        reply += got
                    # Acknowledge, and detach: the guest goes on.
                    s.sendall(b'+$D#44')
            except OSError as e:
                text += 'gdb: %s\n' % e
            break
    os.killpg(p.pid, signal.SIGINT)
    text += p.communicate()[0].decode('utf-8', 'surrogateescape')
    text += 'gdb stub answered: %r\n' % reply
    why = 'exit status %d, expected 0' % p.returncode if p.returncode != 0 else missing(
        text, r'''^\+ gdb: QEMU's stub on 127.0.0.1:%s
^\+ boot: .*panic=0
^# the guest waits for gdb: its run is over
^gdb stub answered: b'\$[ST][0-9a-f]{2}
the kernel crashed as asked: null_dereference''' % port)
    cases.result(name, why, text)
