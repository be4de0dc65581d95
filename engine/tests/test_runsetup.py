# SPDX-License-Identifier: GPL-2.0
"""A bench run's setup (pcengine.runsetup), without packages or builds:
where a run and a listing write, and the series' names the shell gives."""

import os
import tempfile
import unittest
from unittest import mock

from pcengine import runsetup


class Scratch(unittest.TestCase):
    def test_a_run_and_a_listing(self):
        self.assertEqual(runsetup.scratch_of({'PC_OUT': '/o'}), '/o')
        self.assertEqual(runsetup.scratch_of({}), os.path.join(runsetup.ROOT, 'build'))
        self.assertEqual(runsetup.scratch_of({'PC_OUT': '/o', 'PC_LIST': '1', 'PC_SHARD': '2/3'}),
                         '/o/list-2-of-3')


class Setup(unittest.TestCase):
    def run_setup(self, names):
        done = mock.Mock(returncode=0)
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, 'results'))
            open(os.path.join(d, 'results', 'old.result'), 'w').close()
            env = {'PC_OUT': d, 'PC_KERNELS': '6.1 /i:/t debug'}
            with mock.patch.object(runsetup, 'step', return_value=names) as step, \
                    mock.patch.object(runsetup.subprocess, 'run', return_value=done):
                got = runsetup.setup(env)
            self.assertEqual(os.listdir(os.path.join(d, 'results')), [])
            self.assertEqual(step.call_args[0][3:], ('6.1', '/i:/t', 'debug'))
            return got, d

    def test_names_and_an_empty_results_directory(self):
        (names, scratch), d = self.run_setup('6.1\n6.1.0-57-custom\ndebug')
        self.assertEqual((names, scratch), (['6.1', '6.1.0-57-custom', 'debug'], d))

    def test_a_name_missing_stops_the_run(self):
        with self.assertRaises(runsetup.SetupError):
            self.run_setup('6.1\ndebug')


if __name__ == '__main__':
    unittest.main()
