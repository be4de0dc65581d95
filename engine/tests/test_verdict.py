# SPDX-License-Identifier: GPL-2.0
"""The verdict on saved consoles: what tests/judge.sh (the shell verdict
it replaced) decided on each, to the byte; and its command line, which
judges a saved case again."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import fixtures
from pcengine import casefile, console, verdict


def judge_fixture(name):
    m = fixtures.meta(name)
    if os.path.exists(fixtures.path(name, 'batch.sh')):
        batch = fixtures.text(fixtures.path(name, 'batch.sh'))
        results = []
        for part in casefile.values(batch, 'part'):
            stem = '%s-%s' % (m['series'], part)
            results.append(verdict.judge(
                fixtures.text(fixtures.path(name, 'parts', part + '.sh')), part, m['series'],
                m['rc'], console.part_of(fixtures.read(fixtures.path(name, 'console')), part),
                console.part_of(fixtures.read(fixtures.path(name, 'out')), part),
                m['guest_timeout'], stem + '.console', stem + '.out'))
        return ''.join(results)
    stem = '%s-%s' % (m['series'], m['name'])
    return verdict.judge(fixtures.text(fixtures.path(name, 'case.sh')), m['name'], m['series'],
                         m['rc'], fixtures.read(fixtures.path(name, 'console')),
                         fixtures.read(fixtures.path(name, 'out')), m['guest_timeout'],
                         stem + '.console', stem + '.out')


class SavedConsoles(unittest.TestCase):
    def test_fixtures_cover_each_kind_of_verdict(self):
        firsts = [fixtures.text(fixtures.path(n, 'result')).split('\n')[0]
                  for n in fixtures.names()]
        whys = ' '.join(fixtures.text(fixtures.path(n, 'result')) for n in fixtures.names())
        self.assertTrue(any(f.startswith('ok ') and '# SKIP' not in f for f in firsts))
        self.assertTrue(any('# SKIP XFAIL: ' in f for f in firsts))
        self.assertTrue(any(f.startswith('not ok ') for f in firsts))
        for why in ('# missing in ', '# a report the case did not ask for: ',
                    '# guest timed out after '):
            self.assertIn(why, whys)

    def test_saved_result(self):
        for name in fixtures.names():
            with self.subTest(fixture=name):
                self.assertEqual(judge_fixture(name),
                                 fixtures.text(fixtures.path(name, 'result')))

    def test_command_line_writes_the_result_file(self):
        name = 'pass_bugon_pstore'
        m = fixtures.meta(name)
        with tempfile.TemporaryDirectory() as d:
            result, case = os.path.join(d, 'r'), os.path.join(d, m['name'] + '.sh')
            shutil.copy(fixtures.path(name, 'case.sh'), case)
            subprocess.run([sys.executable, '-m', 'pcengine.verdict', '--timeout', '120',
                            case, m['series'], str(m['rc']),
                            fixtures.path(name, 'console'), fixtures.path(name, 'out'),
                            result], cwd=os.path.join(fixtures.ROOT, 'engine'), check=True)
            got = fixtures.text(result)
        # The saved result names the logs as the run's files were named.
        want = fixtures.text(fixtures.path(name, 'result'))
        self.assertEqual(got.split('\n')[0], want.split('\n')[0])
        self.assertEqual(got.replace('console', 'C').replace('out', 'O'),
                         want.replace('console', 'C').replace('out', 'O'))

    def test_command_line_fails_on_a_missing_log(self):
        done = subprocess.run([sys.executable, '-m', 'pcengine.verdict', 'no-case.sh', '6.1',
                               '0', 'no-console', 'no-out', os.devnull],
                              cwd=os.path.join(fixtures.ROOT, 'engine'),
                              stderr=subprocess.PIPE, text=True)
        self.assertEqual(done.returncode, 1)
        self.assertIn('no-case.sh', done.stderr)


class Rules(unittest.TestCase):
    """The rules one at a time, on a saved pass."""

    def setUp(self):
        self.case = fixtures.text(fixtures.path('pass_bugon_pstore', 'case.sh'))
        self.console = fixtures.read(fixtures.path('pass_bugon_pstore', 'console'))
        self.out = fixtures.read(fixtures.path('pass_bugon_pstore', 'out'))

    def judge(self, case=None, rc=0, out=None):
        return verdict.judge(case or self.case, 'direct_bugon', '6.1', rc, self.console,
                             self.out if out is None else out, 120, 'c', 'o')

    def test_passes(self):
        self.assertTrue(self.judge().startswith('ok 6.1/direct_bugon\n#   console: '))

    def test_reject_fails_with_the_line(self):
        got = self.judge(self.case + '# reject: invalid opcode\n')
        self.assertRegex(got.split('\n')[1], r'^# unexpected in c: \[ *[0-9.]+\] provoke_crash: trigger: bugon: .*invalid opcode')

    def test_skip_header_keeps_the_proof(self):
        got = self.judge(self.case + '# skip: a reason\n')
        self.assertTrue(got.startswith('ok 6.1/direct_bugon # SKIP a reason\n#   console: '))

    def test_insmod_failed(self):
        got = self.judge(out=b'PC-GUEST-START x\nPC-INSMOD-FAILED\nPC-GUEST-END\n')
        self.assertEqual(got.split('\n')[1], '# insmod failed')

    def test_guest_skip_beats_a_timeout(self):
        got = self.judge(rc=137, out=self.out + b'PC-SKIP not here\n')
        self.assertEqual(got, 'ok 6.1/direct_bugon # SKIP not here\n')

    def test_bad_pattern_is_missing(self):
        got = self.judge('# expect: (\n')
        self.assertEqual(got.split('\n')[1], '# missing in c: (')

    def test_after_crash_is_asked_only_after_the_crash(self):
        case = ('# expect: kernel BUG at\n'
                '# after-crash: sleeping function called from invalid context\n')
        splat = b'[    9.1] BUG: sleeping function called from invalid context at x\n'
        crash = b'[    9.2] kernel BUG at mm/x.c:1!\n'
        self.console = crash + splat
        self.assertTrue(self.judge(case).startswith('ok '))
        self.console = splat + crash
        self.assertEqual(self.judge(case).split('\n')[1],
                         '# a report the case did not ask for: BUG: sleeping function'
                         ' called from invalid context at x')

    def test_last_line_without_newline_is_not_read(self):
        self.assertEqual(len(casefile.checks('# expect: a\n# expect: b')), 1)
