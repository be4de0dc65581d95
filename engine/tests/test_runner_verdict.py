# SPDX-License-Identifier: GPL-2.0
"""The VM runner's report and verdict on saved work directories: what
the shell it replaced (pcv_scan, pcv_report, pcv_timing and pcv_verdict,
tools/pc-vm-runner.sh and pc-vm-verdict.sh before the switch) printed on
each, to the byte, with the same exit status (engine/tests/runner/README.rst)."""

import io
import os
import subprocess
import sys
import types
import unittest

import fixtures
from pcengine import console, runner_verdict

RUNNER = os.path.join(fixtures.HERE, 'runner')


def names():
    return sorted(n for n in os.listdir(RUNNER) if os.path.isdir(os.path.join(RUNNER, n)))


def args(name):
    """The run's own values (rc, timeout, kdump, the host's times)."""
    found = {}
    for line in fixtures.text(os.path.join(RUNNER, name, 'args')).split('\n'):
        if line:
            key, value = line.split('=', 1)
            found[key] = value
    return found


def run_main(argv):
    out = io.TextIOWrapper(io.BytesIO(), encoding='utf-8')
    err = io.TextIOWrapper(io.BytesIO(), encoding='utf-8')
    status = runner_verdict.main(argv, out, err)
    out.flush()
    err.flush()
    return out.buffer.getvalue(), err.buffer.getvalue(), status


def replay(name):
    """run, then with --kdump the verdict, as tools/provoke-crash-vm calls them."""
    a, work = args(name), os.path.join(RUNNER, name)
    kdump = ['--kdump'] if a['kdump'] == '1' else []
    out, err, status = run_main(['run', work, a['rc'], a['timeout'], '--timing',
                                 a['t0'], a['t1'], a['t2'], a['t3']] + kdump)
    if kdump:
        more, _, status = run_main(['verdict', work, a['rc'], a['timeout']])
        out += more
    return out, err, status


def expected(name, stem):
    return fixtures.read(os.path.join(RUNNER, name, stem))


class SavedRuns(unittest.TestCase):
    def test_fixtures_cover_each_kind_of_verdict(self):
        statuses = {int(expected(n, 'status')) for n in names()}
        for status in (runner_verdict.CRASHED, runner_verdict.SURVIVED, runner_verdict.TIMEOUT,
                       runner_verdict.REFUSED, runner_verdict.REPORTED):
            self.assertIn(status, statuses)
        self.assertTrue(any(os.path.exists(os.path.join(RUNNER, n, 'dump.log'))
                            for n in names()))

    def test_saved_output(self):
        for name in names():
            with self.subTest(run=name):
                out, err, status = replay(name)
                self.assertEqual(out.decode('utf-8', 'surrogateescape'),
                                 expected(name, 'expected').decode('utf-8', 'surrogateescape'))
                self.assertEqual(err, expected(name, 'expected.err'))
                self.assertEqual(status, int(expected(name, 'status')))

    def test_log_read_from_a_dump(self):
        """--kdump: where the console shows no crash, the verdict reads
        the log the capture kernel saved."""
        for name in names():
            dump = os.path.join(RUNNER, name, 'dump.log')
            if not os.path.exists(dump):
                continue
            with self.subTest(run=name):
                work = os.path.join(RUNNER, name)
                out, _, status = run_main(['verdict', work, '0', '0', '--log', dump])
                self.assertEqual(out, expected(name, 'expected.dump'))
                self.assertEqual(status, int(expected(name, 'status.dump')))
                out, _, _ = run_main(['credited', work, '--log', dump])
                self.assertTrue(out.strip())

    def test_command_line(self):
        """As tools/provoke-crash-vm runs it: python3 -P, the engine on PYTHONPATH."""
        name = names()[0]
        a = args(name)
        env = dict(os.environ, PYTHONPATH=os.path.join(fixtures.ROOT, 'engine'))
        done = subprocess.run([sys.executable, '-P', '-m', 'pcengine.runner_verdict', 'verdict',
                               os.path.join(RUNNER, name), a['rc'], a['timeout']],
                              env=env, stdout=subprocess.PIPE)
        self.assertEqual(done.returncode, int(expected(name, 'status')))
        self.assertTrue(expected(name, 'expected').endswith(done.stdout))
        done = subprocess.run([sys.executable, '-P', '-m', 'pcengine.runner_verdict', 'verdict'],
                              env=env, stderr=subprocess.PIPE)
        self.assertNotEqual(done.returncode, 0)
        self.assertIn(b'usage:', done.stderr)


class Parser(unittest.TestCase):
    def test_hit_and_its_task(self):
        lines = ['provoke_crash: __x64_sys_getppid: null_dereference: hit, crashing',
                 'BUG: kernel NULL pointer dereference, address: 0000000000000000',
                 'CPU: 0 PID: 57 Comm: pc-guest Not tainted 6.1.0-57-cloud-amd64 #1']
        self.assertEqual(console.module_hit(lines[0]), ('__x64_sys_getppid', 'null_dereference'))
        self.assertEqual(console.hit_task(lines, 0), ('pc-guest', '57'))
        self.assertEqual(console.crash_pid(lines, 1), '57')
        self.assertTrue(console.FATAL_RE.search(lines[1]))
        # The next hit line ends the search for the first one's task.
        self.assertIsNone(console.hit_task(lines[:1] + lines[:1] + lines[2:], 0))

    def test_dmesg_in_the_output_is_no_marker(self):
        out = console.out_records('[    1.5] PC-RUN-BEGIN\nPC-RUN-BEGIN\n')
        self.assertEqual([r.kind for r in out], ['kernel', 'marker'])

    def test_stretch_cut_short(self):
        got = console.stretches('PC-PSTORE-BEGIN a\nx\nPC-PSTORE-END\nPC-PSTORE-BEGIN b\ny\n',
                                'PC-PSTORE-BEGIN', 'PC-PSTORE-END')
        self.assertEqual(got, [('a', ['x'], True), ('b', ['y'], False)])


class Credit(unittest.TestCase):
    """Issue 42's third friction: a report's hit is a hit, not a crash,
    and each note is said once."""
    TABLE = {'report': ['report', 'bugs', 'atomic', 'report'],
             'bugon': ['bugon', 'bugs', 'atomic', 'oops']}

    def scan(self, *hits):
        found = [runner_verdict.Hit(i, 'vfs_read', t, 'init', '1', 'run', None)
                 for i, t in enumerate(hits)]
        return types.SimpleNamespace(hits=found, lines=[], crash=None, crash_pid=None,
                                     fail=None)

    def test_a_report_in_pid_1_is_the_runners_hit_said_once(self):
        lines, status = runner_verdict.verdict(self.scan('report', 'report'), [], self.TABLE,
                                               '0', '120')
        self.assertEqual(status, runner_verdict.SURVIVED)
        self.assertEqual(lines, [
            "note: not credited: vfs_read report hit by the runner's own shell (PID 1), not "
            "your command; narrow the point with comm= or pid=",
            "provoke-crash-vm: the kernel survived your command (the hit came from the "
            "runner's own steps, see the note)"])

    def test_a_crash_among_them_is_called_so(self):
        lines, _ = runner_verdict.verdict(self.scan('report', 'bugon'), [], self.TABLE, '0',
                                          '120')
        self.assertIn('(the crash came from', lines[-1])
