# SPDX-License-Identifier: GPL-2.0
"""A bench run's setup (pcengine.runsetup), without packages or builds:
where a run and a listing write, and the series' names."""

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
            with mock.patch.object(runsetup.Host, 'install_deps') as deps, \
                    mock.patch.object(runsetup.Host, 'series_name', side_effect=names), \
                    mock.patch.object(runsetup.subprocess, 'run', return_value=done):
                got = runsetup.setup(env)
            self.assertEqual(os.listdir(os.path.join(d, 'results')), [])
            self.assertEqual(deps.call_args[0][0], ['6.1', '/i:/t', 'debug'])
            self.assertIn('sparse', deps.call_args[0][1])
            return got, d

    def test_names_and_an_empty_results_directory(self):
        (names, scratch), d = self.run_setup(['6.1', '6.1.0-57-custom', 'debug'])
        self.assertEqual((names, scratch), (['6.1', '6.1.0-57-custom', 'debug'], d))

    def test_a_kernel_that_cannot_be_named_stops_the_run(self):
        with self.assertRaises(runsetup.SetupError):
            self.run_setup(['6.1', runsetup.SetupError('no kernel image /i')])


if __name__ == '__main__':
    unittest.main()
