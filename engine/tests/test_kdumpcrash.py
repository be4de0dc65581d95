# SPDX-License-Identifier: GPL-2.0
"""check-long's crash check of sample dumps (pcengine.kdumpcrash),
without a guest: which kernels it takes, and a crash tool that could not
be built fails each sample by name."""

import contextlib
import io
import os
import re
import tempfile
import unittest
from unittest import mock

from pcengine import kdumpcrash


class Run(unittest.TestCase):
    def tools(self, crash, why):
        """The packages there, and crash_tool's answer."""
        return (mock.patch.object(kdumpcrash.Host, 'install_deps'),
                mock.patch.object(kdumpcrash.Host, 'kernel_release', lambda h, s: 'rel-' + s),
                mock.patch.object(kdumpcrash.kdumppack, 'crash_tool', return_value=(crash, why)))

    def test_no_crash_tool_fails_each_sample_of_each_debian_x86_kernel(self):
        deps, release, crash = self.tools(None, 'could not fetch crash_8.0.6.orig.tar.gz')
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, 'results'))
            with deps, release, crash:
                kdumpcrash.Check({'PC_OUT': d}).run(['6.1', 'arm64-6.1', 'debug', '6.12'])
            with open(os.path.join(d, 'results', 'kdump-crash.result')) as f:
                lines = f.read().splitlines()
        self.assertEqual(lines[:2], ['not ok kdump-crash/6.1/panic',
                                     '# could not fetch crash_8.0.6.orig.tar.gz'])
        self.assertEqual([x for x in lines if x.startswith('not ok')],
                         ['not ok kdump-crash/%s/%s' % (s, n) for s in ('6.1', '6.12')
                          for n in ('panic', 'null_dereference', 'point_null_dereference')])

    def test_a_sample_that_fails_to_run_fails_by_name_and_the_rest_run(self):
        deps, release, crash = self.tools('/bin/true', None)

        def case(self, series, rel, sample, crash):
            if sample[0] == 'panic':
                raise kdumpcrash.SetupError(None)
            return ['ok kdump-crash/%s/%s' % (series, sample[0])]

        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, 'results'))
            with deps, release, crash, mock.patch.object(kdumpcrash.Check, 'case', case), \
                    contextlib.redirect_stderr(io.StringIO()):
                kdumpcrash.Check({'PC_OUT': d}).run(['6.1'])
            with open(os.path.join(d, 'results', 'kdump-crash.result')) as f:
                lines = f.read().splitlines()
        self.assertEqual(lines, [
            'not ok kdump-crash/6.1/panic',
            '# a step failed (its line is in the run log)',
            'ok kdump-crash/6.1/null_dereference', 'ok kdump-crash/6.1/point_null_dereference'])

    def test_each_frame_is_an_ere(self):
        for name, cmd, frames in kdumpcrash.SAMPLES:
            self.assertIn('pc-guest', cmd)
            for f in frames.split():
                re.compile(f)


if __name__ == '__main__':
    unittest.main()
