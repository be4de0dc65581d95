# SPDX-License-Identifier: GPL-2.0
"""The KTAP report against tests/run's own code (ktap-reference.sh), on
a slice of a real run's results."""

import os
import shutil
import subprocess
import unittest

import fixtures
from pcengine import ktap

KTAP = os.path.join(fixtures.HERE, 'ktap')


def ours():
    text, tally = ktap.report(fixtures.text(os.path.join(KTAP, 'all')))
    return text + ktap.summary(tally) + '\n' + ktap.unit_results(
        fixtures.text(os.path.join(KTAP, 'unit.ktap')))


class Report(unittest.TestCase):
    def test_saved_reference(self):
        self.assertEqual(ours(), fixtures.text(os.path.join(KTAP, 'reference')))

    def test_tests_run_now(self):
        if not shutil.which('bash') or not os.path.exists(os.path.join(fixtures.ROOT, 'tests', 'run')):
            self.skipTest('no tests/run or bash')
        now = subprocess.run([os.path.join(fixtures.HERE, 'ktap-reference.sh'), KTAP],
                             stdout=subprocess.PIPE, check=True).stdout.decode()
        self.assertEqual(ours(), now)

    def test_tally(self):
        _, tally = ktap.report('ok a\n# x\nnot ok b\nok c # SKIP why\nok d\n')
        self.assertEqual(tally, ktap.Tally(2, 1, 1))
        self.assertEqual(ktap.summary(tally), '2 passed, 1 failed, 1 skipped')
