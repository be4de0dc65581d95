# SPDX-License-Identifier: GPL-2.0
"""The cases made from the crash-type table (pcengine.cases): the bytes
the bash generators wrote for a slice of the table on two kernels, and
the cases no kernel of the bench shows."""

import os
import subprocess
import sys
import tempfile
import unittest

import fixtures
from pcengine import cases

GOLDEN = os.path.join(fixtures.HERE, 'cases')


def kernel_of(rel, **change):
    d = os.path.join(GOLDEN, rel)
    meta = dict(line.split('=', 1) for line in fixtures.text(os.path.join(d, 'meta')).split())
    k = cases.Kernel(rel, meta['arch'], cases.read_config(os.path.join(d, 'config')),
                     meta['hit_symbol'], meta['kdump'] == '1')
    return k._replace(**change)


def rows_of(rel):
    return cases.read_table(os.path.join(GOLDEN, rel, 'types.tsv'))


def text(lines):
    return ''.join(line + '\n' for line in lines)


class AsTheBashWroteThem(unittest.TestCase):
    def test_every_file_byte_for_byte(self):
        for rel in sorted(os.listdir(GOLDEN)):
            if not os.path.isdir(os.path.join(GOLDEN, rel)):
                continue
            k = kernel_of(rel)
            made = {}
            for row in rows_of(rel):
                made.update(cases.cases_of(k, row))
            expected = os.path.join(GOLDEN, rel, 'expected')
            self.assertEqual(sorted(made), sorted(os.listdir(expected)), rel)
            for name, lines in made.items():
                with self.subTest(kernel=rel, case=name):
                    self.assertEqual(text(lines), fixtures.text(os.path.join(expected, name)))


class Kernels(unittest.TestCase):
    def case(self, name, kernel):
        row = [r for r in rows_of('6.1.0-57-cloud-amd64') if r.name == name.split('_', 1)[1]
               or r.name == name.split('_', 2)[-1]]
        found = {}
        for r in row:
            found.update(cases.cases_of(kernel, r))
        return text(found[name + '.sh'])

    def test_no_preempt_count_makes_the_point_miss(self):
        k = kernel_of('6.1.0-57-cloud-amd64')
        k = k._replace(config=k.config - {'CONFIG_PREEMPT_COUNT'})
        got = self.case('point_oops_softirq_context', k)
        self.assertIn('missed: it needs preempt context at most', got)
        self.assertIn('missed=1 context=path:preempt', got)
        self.assertNotIn('# pstore: 1', got)

    def test_arm64_6_12_dumps_no_52_bit_kernel(self):
        k = kernel_of('6.1.0-57-cloud-amd64', release='6.12.57-arm64', arch='arm64',
                      hit_symbol='__arm64_sys_getppid')
        k = k._replace(config=k.config | {'CONFIG_ARM64_VA_BITS_52'})
        got = self.case('kdump_bugon', k)
        self.assertIn('# expect-out: VA Bits 52 not supported\n', got)
        self.assertNotIn('PC-KDUMP-DUMP', got)
        self.assertIn('pc-guest write $D/bugon 1', got)
        # A 48-bit arm64 kernel (5.10, 6.1) is dumped: by its config, not
        # its version.
        k48 = k._replace(release='5.10.0-32-arm64',
                         config=k.config - {'CONFIG_ARM64_VA_BITS_52'})
        self.assertIn('PC-KDUMP-DUMP', self.case('kdump_bugon', k48))
        # pac_corruption is arm64's own: not refused there.
        self.assertIn('direct_pac_corruption.sh',
                      cases.cases_of(k, [r for r in rows_of('6.1.0-57-cloud-amd64')
                                         if r.name == 'pac_corruption'][0]))

    def test_no_kdump_lane_no_kdump_case(self):
        k = kernel_of('6.1.0-57-cloud-amd64', kdump=False)
        for row in rows_of('6.1.0-57-cloud-amd64'):
            self.assertFalse([n for n in cases.cases_of(k, row) if n.startswith('kdump_')])


class CommandLine(unittest.TestCase):
    def run_cases(self, *args):
        return subprocess.run([sys.executable, '-m', 'pcengine.cases'] + list(args),
                              cwd=os.path.join(fixtures.ROOT, 'engine'),
                              stderr=subprocess.PIPE, text=True)

    def test_writes_the_files(self):
        d = os.path.join(GOLDEN, '6.12.118-pc-debug')
        with tempfile.TemporaryDirectory() as out:
            done = self.run_cases('--types', os.path.join(d, 'types.tsv'), '--config',
                                  os.path.join(d, 'config'), '--release', '6.12.118-pc-debug',
                                  '--arch', 'amd64', '--hit-symbol', '__x64_sys_getppid',
                                  '--out', out)
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertEqual(sorted(os.listdir(out)), sorted(os.listdir(os.path.join(d, 'expected'))))

    def test_a_missing_table_fails_with_its_name(self):
        done = self.run_cases('--types', 'no-such.tsv', '--config', os.devnull, '--release', 'r',
                              '--arch', 'amd64', '--hit-symbol', 's', '--out', '/tmp')
        self.assertEqual(done.returncode, 1)
        self.assertIn('no-such.tsv', done.stderr)



class Config(unittest.TestCase):
    def test_one_read_gives_y_or_m_and_y(self):
        with tempfile.NamedTemporaryFile('w', suffix='.config') as f:
            f.write('CONFIG_A=y\nCONFIG_B=m\n# CONFIG_C is not set\nCONFIG_D="y"\n')
            f.flush()
            self.assertEqual(cases.config_of(f.name),
                             (frozenset({'CONFIG_A', 'CONFIG_B'}), frozenset({'CONFIG_A'})))
            self.assertEqual(cases.read_config(f.name), frozenset({'CONFIG_A', 'CONFIG_B'}))

if __name__ == '__main__':
    unittest.main()
