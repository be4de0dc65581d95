# SPDX-License-Identifier: GPL-2.0
"""The KTAP report on a slice of a real run's results, against what the
bash tests/run wrote for them (the reference; the Python report agreed
with the bash code, run again, when the bash went)."""

import os
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

    def test_tally(self):
        _, tally = ktap.report('ok a\n# x\nnot ok b\nok c # SKIP why\nok d\n')
        self.assertEqual(tally, ktap.Tally(2, 1, 1))
        self.assertEqual(ktap.summary(tally), '2 passed, 1 failed, 1 skipped')
