# SPDX-License-Identifier: GPL-2.0
"""make bench's report (pcengine.costbench), from made RESULT lines:
added cost against the baseline, the ratio to an empty kprobe, the
fatal/non-fatal arming rows and the two-vCPU ratio; no guest."""

import os
import tempfile
import unittest

from pcengine import costbench

ICOUNT = '''RESULT none: 339.6
RESULT empty-kprobe: 539.6
RESULT point-pid-mismatch: 409.6\r
RESULT point-pid-mismatch: 1.0
RESULT offset-probe: [ftrace]
RESULT arm-100-one-write-again: timewrite: 115.00 ms for 1 write
RESULT arm-100-fatal-one-write: timewrite: 230.00 ms for 1 write
noise
'''
SMP = '''RESULT smp-none: 100 300
RESULT smp-point-pid-mismatch: 150 450
'''


class Report(unittest.TestCase):
    def test_rows(self):
        with tempfile.TemporaryDirectory() as d:
            paths = []
            for name, text in (('icount', ICOUNT), ('smp', SMP)):
                paths.append(os.path.join(d, name))
                with open(paths[-1], 'w') as f:
                    f.write(text)
            lines = costbench.report('6.1.0-57-cloud-amd64', '200000',
                                     *(costbench.values(p) for p in paths))
        self.assertEqual(lines[0], '# provoke-crash benchmark, Debian 6.1.0-57-cloud-amd64, '
                         'getppid() x 200000')
        # The first of a row's lines counts; rows with no value are left out.
        self.assertIn('%-34s %12s %12s %14s' % ('point-pid-mismatch', '409.6', '70.0', '0.35'),
                      lines)
        self.assertFalse([x for x in lines if x.startswith('point-offset')])
        self.assertIn("# offset rows' probe in kprobes' list: [ftrace]", lines)
        self.assertIn('%-34s %12s %12s %14s' % ('arm-100-one-write', '115.00', '230.00', '2.00'),
                      lines)
        self.assertIn('%-34s %12s %12s %14s' % ('disarm-100-empty-line', '', '', '-'), lines)
        self.assertEqual(lines[-1], '%-34s %s' % ('smp ratio point / none', '1.50'))


if __name__ == '__main__':
    unittest.main()
