# SPDX-License-Identifier: GPL-2.0
"""The grid at the end of a run (pcengine.typegrid): what tests/matrix.sh
printed for a slice of a real 6.1 run's results, and what a failed,
skipped or missing result shows."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import fixtures

GOLDEN = os.path.join(fixtures.HERE, 'typegrid')


def run_grid(scratch, kernels):
    return subprocess.run([sys.executable, '-m', 'pcengine.typegrid', '--kernels', kernels,
                           '--scratch', scratch], cwd=os.path.join(fixtures.ROOT, 'engine'),
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)


class AsTheBashPrintedIt(unittest.TestCase):
    def test_byte_for_byte(self):
        done = run_grid(GOLDEN, '6.1 debug')
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout, fixtures.read(os.path.join(GOLDEN, 'expected')))


class Cells(unittest.TestCase):
    def setUp(self):
        self.scratch = tempfile.mkdtemp()
        shutil.copytree(GOLDEN, self.scratch, dirs_exist_ok=True)

    def tearDown(self):
        shutil.rmtree(self.scratch)

    def write(self, name, text):
        with open(os.path.join(self.scratch, 'results', name + '.result'), 'w') as f:
            f.write(text)

    def row(self, name):
        out = run_grid(self.scratch, '6.1').stdout.decode()
        return [line for line in out.split('\n') if line.startswith('# %s ' % name)][0]

    def test_failed_skipped_and_empty(self):
        self.write('6.1-direct_report', 'not ok 6.1/direct_report\n# why\n')
        self.write('6.1-point_report', 'ok 6.1/point_report # SKIP XFAIL: report: x\n')
        self.assertEqual(self.row('report').split()[3:], ['FAIL', 'skip', '-'])
        self.write('6.1-direct_report', '')
        self.assertEqual(self.row('report').split()[3], 'n/r')

    def test_kdump_point_shown_only_when_it_ran(self):
        self.write('6.1-kdump_point_bugon', 'not ok 6.1/kdump_point_bugon\n')
        self.assertEqual(self.row('bugon').split()[-1], 'pass+pt:FAIL')
        os.remove(os.path.join(self.scratch, 'results', '6.1-kdump_point_bugon.result'))
        self.assertEqual(self.row('bugon').split()[-1], 'pass')

    def test_refused_on_another_arch(self):
        self.write('6.1-refused_pac_corruption', 'not ok 6.1/refused_pac_corruption\n')
        self.assertEqual(self.row('pac_corruption').split()[3:], ['FAIL'])

    def test_a_series_left_unprepared_shows_n_r(self):
        os.remove(os.path.join(self.scratch, 'prep', '2.ready'))
        out = run_grid(self.scratch, '6.1 debug').stdout.decode().rstrip('\n').split('\n')
        # debug's table is not read: write_after_free, only in it, is gone.
        self.assertTrue(out[-1].startswith('# deadlock '), out[-1])
        self.assertTrue(out[-1].endswith('n/r       -         n/r'), out[-1])


if __name__ == '__main__':
    unittest.main()
