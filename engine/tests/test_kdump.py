# SPDX-License-Identifier: GPL-2.0
"""A kdump guest's figures (pcengine.kdump) on a saved capture, and the
line it gives when the two kernels rate the CPU counter apart; held to
what the shell's awk (tools/pc-kdump.sh before the port) printed."""

import os
import tempfile
import unittest

import fixtures
from pcengine import kdump


class Note(unittest.TestCase):
    def test_a_saved_capture(self):
        out = fixtures.read(fixtures.path('pass_kdump', 'out'))
        self.assertEqual(kdump.note(out), '#   kdump: panic to capture kernel start 0.29 s'
                         ' (guest CPU counter), dump 21.4 MB\n')

    def test_counters_rated_apart_give_no_figure(self):
        out = ('PC-KDUMP-CLOCK up=2.5 ticks=1000 hz=2000000000\r\n'
               'PC-KDUMP-DMESG-BEGIN\n[    3.250000] Kernel panic\nPC-KDUMP-DMESG-END\n'
               'PC-KDUMP-CAPTURE up=1.0 ticks=9000 hz=2100000000\n'
               'PC-KDUMP-DUMP 2097152 bytes\n')
        self.assertEqual(kdump.note(out), '#   kdump: panic to capture kernel start unknown'
                         ' (the kernels rate the CPU counter at 2000 and 2100 MHz), dump 2.0 MB\n')

    def test_rates_one_percent_apart_still_give_a_figure(self):
        def line(hz, hz1):
            return kdump.note('PC-KDUMP-CLOCK up=0 ticks=0 hz=%d\nPC-KDUMP-DMESG-BEGIN\n'
                              '[    0.000000] x\nPC-KDUMP-DMESG-END\n'
                              'PC-KDUMP-CAPTURE up=0 ticks=%d hz=%d\n' % (hz, hz, hz1))
        self.assertIn('start 1.00 s', line(100, 101))
        self.assertIn('start 1.00 s', line(100, 99))
        self.assertIn('unknown', line(1000, 1011))
        self.assertIn('unknown', line(1000, 989))

    def test_values_are_read_as_awk_reads_them(self):
        # A leading number, and 0 for none.
        self.assertEqual([kdump._number(v) for v in ('1000x', '', None, '2.5e3')],
                         [1000.0, 0.0, 0.0, 2500.0])

    def test_nothing_without_a_capture_or_a_log(self):
        self.assertEqual(kdump.note(b'PC-KDUMP-CLOCK up=1 ticks=5 hz=7\n'), '')
        self.assertEqual(kdump.note('PC-KDUMP-CLOCK up=1 ticks=5 hz=7\n'
                                    'PC-KDUMP-CAPTURE up=1 ticks=9 hz=7\n'), '')


class Figures(unittest.TestCase):
    def test_a_line_per_capture_after_the_header(self):
        notes = {
            '6.1-kdump_bugon.result': 'ok 1 6.1/kdump_bugon\n#   kdump: panic to capture kernel '
            'start 1.03 s (guest CPU counter), dump 21.9 MB\n',
            '6.12-kdump_panic.result': 'ok 1 6.12/kdump_panic\n#   kdump: panic to capture '
            'kernel start unknown (the kernels rate the CPU counter at 2000 and 2100 MHz), dump '
            '22.0 MB\n',
            '6.1-point_bugon.result': '#   kdump: panic to capture kernel start 9 s (x), dump 1 MB\n',
            '6.1-kdump_none.result': 'not ok 1 6.1/kdump_none\n',
        }
        with tempfile.TemporaryDirectory() as d:
            self.assertEqual(kdump.figures(d), [])
            for name, text in notes.items():
                with open(os.path.join(d, name), 'w') as f:
                    f.write(text)
            self.assertEqual(kdump.figures(d), [
                kdump.FIGURES_HEADER,
                '#   6.1-kdump_bugon                                1.03 s   21.9 MB',
                '#   6.12-kdump_panic                             unknown s   22.0 MB'])


if __name__ == '__main__':
    unittest.main()
