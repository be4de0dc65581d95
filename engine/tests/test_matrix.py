# SPDX-License-Identifier: GPL-2.0
"""The crash-point matrix's cases (pcengine.matrix, matrix_smp): the
bytes the bash generators wrote for a slice of the table on two kernels,
the fatal sample, and the rules of a cell's outcome."""

import os
import subprocess
import sys
import tempfile
import unittest

import fixtures
from pcengine import cases, matrix

GOLDEN = os.path.join(fixtures.HERE, 'matrix')


def meta_of(rel):
    text = fixtures.text(os.path.join(GOLDEN, rel, 'meta'))
    return dict(line.split('=', 1) for line in text.split())


def kernel_of(rel):
    return matrix.kernel_of(rel, meta_of(rel)['arch'], os.path.join(GOLDEN, rel, 'config'))


def rows_of(rel):
    return cases.read_table(os.path.join(GOLDEN, rel, 'types.tsv'))


def made(rel, scope, **change):
    m = meta_of(rel)
    args = dict(scope=scope, seed=m['seed'], fatal_sample=int(m['fatal']))
    args.update(change)
    return matrix.matrix_cases(kernel_of(rel), rows_of(rel), **args)


def releases():
    return sorted(r for r in os.listdir(GOLDEN) if os.path.isdir(os.path.join(GOLDEN, r)))


def text(lines):
    return ''.join(line + '\n' for line in lines)


class AsTheBashWroteThem(unittest.TestCase):
    def expected(self, rel):
        d = os.path.join(GOLDEN, rel, 'expected')
        return {n: fixtures.text(os.path.join(d, n)) for n in os.listdir(d)}

    def test_kernels_scope_byte_for_byte(self):
        for rel in releases():
            found, expected = made(rel, 'kernels'), self.expected(rel)
            self.assertEqual(sorted(found), sorted(expected), rel)
            for name, lines in found.items():
                with self.subTest(kernel=rel, case=name):
                    self.assertEqual(text(lines), expected[name])

    def test_sample_scope_has_no_smp_cells(self):
        for rel in releases():
            found = made(rel, 'sample')
            self.assertEqual(sorted(found), sorted(n for n in self.expected(rel)
                                                   if not n.startswith('matrix_smp_')), rel)

    def test_full_scope_has_every_fatal_cell(self):
        for rel in releases():
            found = made(rel, 'full')
            fatal = fixtures.text(os.path.join(GOLDEN, rel, 'fatal-full')).split()
            self.assertEqual(sorted(n for n in found if n.startswith('matrix_fatal_')), fatal)
            # The sample's cells are the same files.
            for name, body in self.expected(rel).items():
                self.assertEqual(text(found[name]), body, name)


class Sample(unittest.TestCase):
    rel = '6.1.0-57-cloud-amd64'

    def fatal(self, **change):
        return sorted(n for n in made(self.rel, 'sample', **change)
                      if n.startswith('matrix_fatal_'))

    def test_the_seed_picks_the_sample(self):
        picks = {tuple(self.fatal(seed=s)) for s in ('a', 'b', 'c', 'd', 'e')}
        self.assertGreater(len(picks), 1)
        self.assertEqual(self.fatal(seed='a'), self.fatal(seed='a'))

    def test_size(self):
        self.assertEqual(self.fatal(fatal_sample=0), [])
        self.assertEqual(len(self.fatal(fatal_sample=9)), 9)
        self.assertEqual(len(self.fatal(fatal_sample=1000)), 17)

    def test_hash_is_the_awk_one(self):
        # h = h * 31 + code, mod 2^31 - 1; a tab counts 0.
        self.assertEqual(matrix.sample_hash('', 'ab'), 97 * 31 + 98)
        self.assertEqual(matrix.sample_hash('a', '\tb'), 97 * 31 * 31 + 98)


class Outcomes(unittest.TestCase):
    def paths(self, **change):
        k = kernel_of('6.1.0-57-cloud-amd64')
        return matrix.paths_of(k._replace(**change))

    def test_cells(self):
        p = self.paths()
        self.assertEqual(p.names, ('task', 'preempt', 'rcu', 'softirq', 'hardirq', 'nmi'))
        # A report type at any path's entry fires; a task one is refused.
        self.assertEqual(matrix.predict(p, 'nmi', 'entry', 'nmi', 'report'), matrix.FIRED)
        self.assertEqual(matrix.predict(p, 'task', 'entry', 'task', 'report'), matrix.REFUSED)
        # A breakpoint's handler is nmi: an atomic type is refused there.
        self.assertEqual(matrix.predict(p, 'task', 'offset', 'atomic', 'report'),
                         matrix.REFUSED)
        # A fatal type runs in the path, which may be too deep for it.
        self.assertEqual(matrix.predict(p, 'hardirq', 'entry', 'preempt', 'panic'),
                         matrix.Outcome('missed', 'preempt', 'atomic'))
        self.assertEqual(matrix.predict(p, 'task', 'return', 'preempt', 'panic'),
                         matrix.REFUSED)
        self.assertEqual(matrix.predict(p, 'task', 'entry', 'preempt', 'panic'), matrix.FIRED)

    def test_stalls(self):
        p = self.paths()
        # delay sleeps only where the path may; spin anywhere but NMI.
        self.assertEqual(matrix.predict(p, 'task', 'entry', 'preempt', 'stall'), matrix.FIRED)
        self.assertEqual(matrix.predict(p, 'rcu', 'entry', 'preempt', 'stall'),
                         matrix.Outcome('missed', 'preempt', 'irqs'))
        self.assertEqual(matrix.predict(p, 'hardirq', 'entry', 'atomic', 'stall'), matrix.FIRED)
        self.assertEqual(matrix.predict(p, 'nmi', 'entry', 'atomic', 'stall'),
                         matrix.Outcome('missed', 'atomic', 'nmi'))
        # Only the entry callback lets the path go on after it.
        for kind in ('offset', 'return'):
            for ctx in ('preempt', 'atomic'):
                self.assertEqual(matrix.predict(p, 'task', kind, ctx, 'stall'), matrix.REFUSED)

    def test_no_preempt_count_no_preemptible_task(self):
        k = kernel_of('6.1.0-57-cloud-amd64')
        p = self.paths(config=k.config - {'CONFIG_PREEMPT_COUNT'})
        self.assertEqual(matrix.predict(p, 'task', 'entry', 'preempt', 'panic'),
                         matrix.Outcome('missed', 'preempt', 'irqs'))

    def test_arm64_has_no_nmi_path(self):
        self.assertNotIn('nmi', self.paths(arch='arm64').names)

    def test_arm64_rcu_stall_with_interrupts_off_expects_the_task_dump(self):
        k = kernel_of('6.1.0-57-cloud-amd64')
        rows = rows_of('6.1.0-57-cloud-amd64')
        for arch, path, want, not_want in (
                ('arm64', 'hardirq', 'Task dump for CPU [0-9]+:', 'pc_crash_rcu_stall'),
                ('arm64', 'softirq', 'pc_crash_rcu_stall', 'Task dump for CPU'),
                ('amd64', 'hardirq', 'pc_crash_rcu_stall', 'Task dump for CPU')):
            found = matrix.matrix_cases(k._replace(arch=arch), rows, scope='full')
            text = ''.join(found['matrix_fatal_%s_entry_rcu_stall.sh' % path])
            with self.subTest(arch=arch, path=path):
                self.assertIn('# expect: ' + want, found['matrix_fatal_%s_entry_rcu_stall.sh'
                                                       % path])
                self.assertNotIn(not_want, text)

    def test_two_boot_lines_one_file_is_an_error(self):
        rows = rows_of('6.1.0-57-cloud-amd64')
        row = [r for r in rows if r.name == 'write_after_free'][0]
        twins = [row._replace(name='a', needs='CONFIG_SLUB_DEBUG slub_debug=FZPU_abcdefghijklmno1'),
                 row._replace(name='b', needs='CONFIG_SLUB_DEBUG slub_debug=FZPU_abcdefghijklmno2')]
        with self.assertRaises(ValueError):
            matrix.matrix_cases(kernel_of('6.1.0-57-cloud-amd64'), twins)


class CommandLine(unittest.TestCase):
    def run_matrix(self, *args):
        return subprocess.run([sys.executable, '-m', 'pcengine.matrix'] + list(args),
                              cwd=os.path.join(fixtures.ROOT, 'engine'),
                              stderr=subprocess.PIPE, text=True)

    def test_writes_the_files(self):
        rel = '6.12.118-pc-debug'
        d, m = os.path.join(GOLDEN, rel), meta_of(rel)
        with tempfile.TemporaryDirectory() as out:
            done = self.run_matrix('--types', os.path.join(d, 'types.tsv'), '--config',
                                   os.path.join(d, 'config'), '--release', rel, '--arch',
                                   m['arch'], '--scope', 'kernels', '--seed', m['seed'],
                                   '--out', out)
            self.assertEqual(done.returncode, 0, done.stderr)
            expected = os.path.join(d, 'expected')
            self.assertEqual(sorted(os.listdir(out)), sorted(os.listdir(expected)))
            for name in os.listdir(out):
                self.assertEqual(fixtures.read(os.path.join(out, name)),
                                 fixtures.read(os.path.join(expected, name)), name)

    def test_a_missing_table_fails_with_its_name(self):
        done = self.run_matrix('--types', 'no-such.tsv', '--config', os.devnull, '--release', 'r',
                               '--arch', 'amd64', '--out', '/tmp')
        self.assertEqual(done.returncode, 1)
        self.assertIn('no-such.tsv', done.stderr)


if __name__ == '__main__':
    unittest.main()
