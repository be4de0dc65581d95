# SPDX-License-Identifier: GPL-2.0
"""LKDTM's selftest report (pcengine.lkdtm) on saved guests' logs:
engine/tests/lkdtm holds the CI run's 6.1 and arm64-6.1 logs of the whole
selftest (cut to the markers, run.sh's verdict lines and what a failing
test shows), and four made from the 6.1 one: the kernel down in a test
(status 1), hung in it (124), a test without run.sh's verdict line and
one that failed, stack entropy low and the kernel not up after the last
test.  Each expected file is what the shell's lkdtm_report
printed on those logs before the report moved here (the guest's seconds
pinned to 0).  tests.txt is the list those runs had, cut to each line's
first word (the test's name, # before one that is commented out): the
report reads nothing else of it."""

import os
import unittest

import fixtures
from pcengine import console, lkdtm

HERE = os.path.join(fixtures.HERE, 'lkdtm')
SOURCE = 'linux-source-6.12.tar.xz'


def names():
    return sorted(n for n in os.listdir(HERE) if os.path.isdir(os.path.join(HERE, n)))


class Report(unittest.TestCase):
    def test_saved_logs(self):
        tests_txt = fixtures.text(os.path.join(HERE, 'tests.txt'))
        self.assertEqual(len(names()), 6)
        for name in names():
            with self.subTest(name):
                d = os.path.join(HERE, name)
                status = fixtures.text(os.path.join(d, 'meta')).split('=')[1].strip()
                series = 'arm64-6.1' if name == 'arm64' else '6.1'
                got = lkdtm.report(series, console.read_log(os.path.join(d, 'out.txt')),
                                   console.read_log(os.path.join(d, 'console.txt')),
                                   tests_txt, status, 360, 0, SOURCE)
                self.assertEqual(got, fixtures.text(os.path.join(d, 'expected')))

    def test_tests_in_order(self):
        found = lkdtm.tests('PANIC\n#PANIC_STOP_IRQOFF Crashes entire system\nBUG kernel BUG at\n')
        self.assertEqual(found, [('0', 'stack-entropy'), ('1', 'PANIC'),
                                 ('2', 'PANIC_STOP_IRQOFF'), ('3', 'BUG')])
        # 5.10's selftest has no stack-entropy.sh: test 0 is not run.
        self.assertEqual(lkdtm.tests('PANIC\n', entropy=False), [('1', 'PANIC')])

    def test_no_status_is_no_result_and_no_line_no_test(self):
        self.assertIsNone(lkdtm._status(['LKDTM-RC 3 BUG'], '3', 'BUG'))
        self.assertIsNone(lkdtm._status(['LKDTM-RC 3 BUG 0', 'LKDTM-RC 3 BUG'], '3', 'BUG'))
        self.assertEqual(lkdtm._status(['LKDTM-RC 3 BUG 4'], '3', 'BUG'), '4')
        self.assertEqual(lkdtm.tests(''), [('0', 'stack-entropy')])

    def test_a_guest_that_could_not_start(self):
        text = lkdtm.report('6.1', '', '', 'BUG\n', 'the guest could not start (see the run '
                            'log)', 360, 0, SOURCE)
        self.assertEqual(text.split('\n')[0], 'not ok 6.1/lkdtm/stack-entropy # no result: '
                         'the guest could not start (see the run log)')

    def test_verdict_lines(self):
        self.assertEqual(lkdtm._verdict('BUG', ['BUG: saw x', "BUG: missing 'y': [FAIL]"]),
                         "BUG: missing 'y': [FAIL]")
        self.assertEqual(lkdtm._verdict('stack-entropy', ['1%2%Bits of stack entropy: 7']),
                         'Bits of stack entropy: 7')
        self.assertEqual(lkdtm._verdict('BUG', ['BUGX: saw x']), '')


class NamesAnswered(unittest.TestCase):
    TESTS = 'BUG kernel BUG at\n#PANIC\nKSTACK_ERASE OK: the rest\n'

    def test_every_name_answered(self):
        self.assertEqual(lkdtm.names_line('7.2', self.TESTS, {'BUG', 'PANIC', 'KSTACK_ERASE'},
                                          'linux-source-7.2.tar.xz'),
                         "ok 7.2/lkdtm/names_answered # DIRECT answers all 3 names of "
                         "linux-source-7.2.tar.xz's tests.txt")

    def test_a_new_name_fails_by_name(self):
        line = lkdtm.names_line('7.2', self.TESTS, {'BUG', 'STACKLEAK_ERASING'}, 'src')
        self.assertEqual(line, "not ok 7.2/lkdtm/names_answered # src's tests.txt names "
                         "PANIC KSTACK_ERASE; DIRECT does not answer")


if __name__ == '__main__':
    unittest.main()
