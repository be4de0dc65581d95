# SPDX-License-Identifier: GPL-2.0
"""The bench's host gates (pcengine.gates): the docs check's cut of a
generated table, the shard check on given listings, and the JUnit
writer's own check against tests/ktap-junit."""

import contextlib
import io
import os
import tempfile
import unittest
from unittest import mock

from pcengine import gates

DOC = '''Title
.. BEGIN TYPES TABLE
row 1
row 2
.. END TYPES TABLE
after
.. BEGIN TYPES TABLE
row 3
.. END TYPES TABLE
'''


def lister(slices):
    """A fake tests/run listing: SLICES maps PC_SHARD to its lines."""
    def listing(results, s, series):
        lines = slices[s]
        return (1, [], 'provoke-crash: no such kernel') if lines is None else (0, lines, '')
    return listing


WHOLE = ['6.1-a', '6.1-b', '6.1-c', 'host gates', 'vm cases']


class Docs(unittest.TestCase):
    def test_the_tables_between_their_markers(self):
        # Every table of the mark, in order (a page has one today).
        self.assertEqual(gates.between(DOC, 'TYPES'), ['row 1', 'row 2', 'row 3'])
        self.assertEqual(gates.between(DOC, 'LKDTM'), [])


class Shards(unittest.TestCase):
    def check(self, one, two, whole=WHOLE):
        return gates.shard_partition('/nonexistent', '6.1',
                                     lister({'1/1': whole, '1/2': one, '2/2': two}))

    def test_disjoint_and_whole(self):
        self.assertEqual(self.check(['6.1-a', '6.1-c', 'host gates'], ['6.1-b', 'vm cases']),
                         ['ok host/shard_partition',
                          '# 6.1: 2 slices of 2/1, disjoint, together the 5 of PC_SHARD=1/1'])

    def test_what_breaks_it(self):
        cases = (
            ((['6.1-a', '6.1-b', 'host gates'], ['6.1-b', '6.1-c', 'vm cases']),
             '# in two slices: 6.1-b '),
            ((['6.1-a', '6.1-c', 'host gates'], ['vm cases']), '# slice 2/2 has no case'),
            ((['6.1-a', 'host gates'], ['6.1-b', 'vm cases']),
             '# the slices together differ from the whole run: +6.1-c '),
            ((['6.1-a', '6.1-c'], ['6.1-b', 'vm cases', 'host gates']),
             '# the host gates are not in slice 1/2'),
            ((['6.1-a', '6.1-c', 'host gates'], None),
             '# PC_LIST=1 PC_SHARD=2/2 failed: provoke-crash: no such kernel'),
        )
        for (one, two), why in cases:
            with self.subTest(why):
                self.assertEqual(self.check(one, two), ['not ok host/shard_partition', why])

    def test_no_series_skips(self):
        self.assertEqual(gates.shard_partition('/nonexistent', ''),
                         ['ok host/shard_partition # SKIP no Debian series in PC_KERNELS'])


class Failing(unittest.TestCase):
    def test_a_gate_that_cannot_run_fails_by_name_and_the_rest_run(self):
        with tempfile.TemporaryDirectory() as d:
            with mock.patch.object(gates, 'unit'), mock.patch.object(gates, 'fuzz'), \
                    mock.patch.object(gates, 'check_unit'), \
                    mock.patch('os.setpriority'), \
                    mock.patch.dict(os.environ, {'PC_STEP_SHARD_SERIES': ''}), \
                    contextlib.redirect_stderr(io.StringIO()):
                self.assertEqual(gates.main(['host-gates', '--results', d,
                                             '--host-tool', '/nonexistent/tool']), 0)
            with open(os.path.join(d, 'docs.result')) as f:
                self.assertEqual(f.read().split('\n')[0],
                                 'not ok docs/types_table_follows_the_table')
            with open(os.path.join(d, 'shard.result')) as f:
                self.assertIn('# SKIP no Debian series', f.read())


class JUnit(unittest.TestCase):
    def test_the_writer_keeps_every_result(self):
        with tempfile.TemporaryDirectory() as d:
            gates.junit_check(d)
            with open(os.path.join(d, 'junit.result')) as f:
                self.assertEqual(f.read(), 'ok host/junit_report\n')


if __name__ == '__main__':
    unittest.main()
