# SPDX-License-Identifier: GPL-2.0
"""The scope's policy, kind by kind and variant by variant, on the real
hand-written cases; select() and --select, as a series' preparation
asks them."""

import os
import re
import subprocess
import sys
import tempfile
import unittest

import fixtures
from pcengine import scope

HAND = scope.hand_written(fixtures.ROOT)
KERNELS = '6.1 6.12 6.1-rt arm64-6.1 debug clang'.split()


def runs(series, name, kernels=KERNELS, **env):
    return scope.decide(series, name, kernels, scope.scope_vars(env), HAND)


class Kinds(unittest.TestCase):
    def test_first_x86_is_neither_built_nor_rt(self):
        self.assertEqual(scope.first_x86(['6.1-rt', 'debug', 'arm64-6.1', '6.12', '6.1']), '6.12')
        self.assertIsNone(scope.first_x86(['6.1-rt', 'clang', 'arm64-6.12']))
        self.assertEqual(scope.kind_of('6.12', KERNELS), 'x86')
        self.assertEqual(scope.kind_of('6.12', ['6.12']), 'first-x86')

    def test_every_kind_has_every_lane(self):
        self.assertEqual(set(scope.POLICY), {(k, ln) for k in scope.KINDS for ln in scope.LANES})

    def test_each_default_exclusion_says_why(self):
        for key, cell in scope.POLICY.items():
            if cell.default is not scope.ALL:
                self.assertTrue(cell.why, key)

    def test_lanes(self):
        self.assertEqual(scope.lane('matrix_smp_oops', HAND), 'matrix')
        self.assertEqual(scope.lane('kdump_panic_irqs_off', HAND), 'kdump')
        self.assertEqual(scope.lane('point_in_path', HAND), 'hand')
        self.assertEqual(scope.lane('point_bugon', HAND), 'types')
        self.assertEqual(scope.lane('lkdtm_selftest', HAND), 'lkdtm')


class Policy(unittest.TestCase):
    def test_first_x86_runs_every_lane(self):
        for name in ('direct_double_fault', 'refused_pac_corruption', 'kdump_bugon',
                     'matrix_fatal_x', 'lockdown', 'lkdtm_selftest'):
            self.assertEqual(runs('6.1', name), (True, ''), name)

    def test_the_long_races_run_on_the_first_x86_debug_and_arm64(self):
        for name in scope.X86_LONG_RACES:
            self.assertIn(name, HAND)
            self.assertEqual(runs('6.1', name), (True, ''), name)
            self.assertEqual(runs('debug', name), (True, ''), name)
            self.assertEqual(runs('6.12', name), (False, scope.WHY_RACE), name)
            self.assertEqual(runs('6.12', name, PC_X86_SCOPE='full'), (True, ''), name)
        self.assertTrue(runs('arm64-6.1', 'txn_refused_race')[0])
        # The short ones stay.
        self.assertTrue(runs('6.12', 'redirect_race_unload')[0])

    def test_other_x86_runs_the_slices_types(self):
        self.assertTrue(runs('6.12', 'point_stackleak_erasing')[0])
        self.assertTrue(runs('6.12', 'direct_overwrite_allocation')[0])
        self.assertTrue(runs('6.12', 'lockdown')[0])
        ok, why = runs('6.12', 'direct_double_fault')
        self.assertFalse(ok)
        self.assertIn('PC_X86_SCOPE=full', why)
        self.assertFalse(runs('6.12', 'refused_pac_corruption')[0])
        self.assertTrue(runs('6.12', 'direct_double_fault', PC_X86_SCOPE='full')[0])

    def test_other_x86_kdump_slice(self):
        self.assertTrue(runs('6.12', 'kdump_double_fault')[0])
        self.assertTrue(runs('6.12', 'kdump_cpu1_while_cpu0_irqs_off')[0])
        self.assertFalse(runs('6.12', 'kdump_bugon')[0])
        self.assertFalse(runs('6.12', 'kdump_bugon', PC_X86_SCOPE='full')[0])
        self.assertTrue(runs('6.12', 'kdump_bugon', PC_KDUMP_SCOPE='full')[0])

    def test_rt_runs_its_slice_unless_x86_full(self):
        self.assertTrue(runs('6.1-rt', 'lockups_irqs_off')[0])
        self.assertTrue(runs('6.1-rt', 'direct_spinlockup')[0])
        self.assertTrue(runs('6.1-rt', 'kdump_panic')[0])
        for name in ('lockdown', 'direct_bugon', 'kdump_bugon', 'lkdtm_selftest'):
            self.assertFalse(runs('6.1-rt', name)[0], name)
        self.assertTrue(runs('6.1-rt', 'lockdown', PC_X86_SCOPE='full')[0])
        self.assertTrue(runs('6.1-rt', 'lkdtm_selftest', PC_X86_SCOPE='full')[0])
        # The capture lane is PC_KDUMP_SCOPE's, not PC_X86_SCOPE's.
        self.assertFalse(runs('6.1-rt', 'kdump_bugon', PC_X86_SCOPE='full')[0])
        self.assertTrue(runs('6.1-rt', 'kdump_bugon', PC_KDUMP_SCOPE='full')[0])
        # Alone, it is still no first x86-64 kernel.
        self.assertFalse(runs('6.1-rt', 'lockdown', kernels=['6.1-rt'])[0])

    def test_arm64_slice(self):
        for name in ('crashpoints_hints', 'refused_double_fault', 'point_return_oops',
                     'direct_pac_corruption', 'point_unaligned_exclusive',
                     'direct_corrupt_stack', 'kdump_exhaust_stack',
                     'kdump_cpu1_while_cpu0_irqs_off_arm64', 'lkdtm_selftest'):
            self.assertTrue(runs('arm64-6.1', name)[0], name)
        for name in ('lockdown', 'direct_double_free', 'kdump_double_fault', 'matrix_x'):
            self.assertFalse(runs('arm64-6.1', name)[0], name)
        self.assertTrue(runs('arm64-6.1', 'lockdown', PC_ARM64_SCOPE='full')[0])
        self.assertTrue(runs('arm64-6.1', 'direct_double_free', PC_ARM64_SCOPE='full')[0])
        self.assertFalse(runs('arm64-6.1', 'kdump_panic_irqs_off', PC_ARM64_SCOPE='full')[0])
        self.assertTrue(runs('arm64-6.1', 'kdump_panic_irqs_off', PC_KDUMP_SCOPE='full')[0])

    def test_debug_slice_and_its_headers(self):
        self.assertTrue(runs('debug', 'lockdown')[0])
        self.assertTrue(runs('debug', 'direct_write_buddy_after_free')[0])
        self.assertFalse(runs('debug', 'direct_cfi_forward_proto')[0])
        self.assertFalse(runs('debug', 'refused_pac_corruption')[0])
        headed = [n for n, text in HAND.items() if scope.header_reason(text)]
        self.assertTrue(headed)
        for name in headed:
            ok, why = runs('debug', name)
            self.assertFalse(ok)
            self.assertIn(scope.header_reason(HAND[name]), why)
            self.assertTrue(runs('6.12', name)[0])
            self.assertTrue(runs('debug', name, PC_DEBUG_SCOPE='full')[0])
        self.assertFalse(runs('debug', 'kfence_heap')[0])
        self.assertFalse(runs('debug', 'lkdtm_selftest')[0])
        self.assertFalse(runs('debug', 'kdump_panic')[0])
        for name in ('kfence_heap', 'lkdtm_selftest', 'direct_cfi_forward_proto'):
            self.assertTrue(runs('debug', name, PC_DEBUG_SCOPE='full')[0], name)
        self.assertFalse(runs('debug', 'kdump_panic', PC_DEBUG_SCOPE='full')[0])

    def test_clang_runs_what_its_compiler_checks(self):
        self.assertTrue(runs('clang', 'point_fortify_strscpy')[0])
        self.assertTrue(runs('clang', 'types_listing')[0])
        self.assertTrue(runs('clang', 'lkdtm_selftest')[0])
        self.assertFalse(runs('clang', 'direct_double_free')[0])
        self.assertFalse(runs('clang', 'direct_double_free', PC_DEBUG_SCOPE='full')[0])
        self.assertFalse(runs('clang', 'kfence_heap', PC_DEBUG_SCOPE='full')[0])
        self.assertTrue(runs('clang', 'kdump_panic', PC_KDUMP_SCOPE='full')[0])

    def test_matrix_on_every_kernel_when_widened(self):
        for series in KERNELS:
            self.assertEqual(runs(series, 'matrix_x')[0], series == '6.1', series)
            self.assertTrue(runs(series, 'matrix_x', PC_MATRIX_SCOPE='kernels')[0])
            self.assertTrue(runs(series, 'matrix_x', PC_MATRIX_SCOPE='full')[0])


class Listing(unittest.TestCase):
    CANDIDATES = {s: ['direct_bugon', 'direct_double_fault', 'lockdown', 'matrix_x']
                  for s in KERNELS}

    def listed(self, **env):
        entries = scope.listing(KERNELS, self.CANDIDATES, HAND, env)
        return scope.listing_lines(entries, env)

    def test_shards_deal_the_whole_run(self):
        whole = self.listed()
        self.assertEqual(whole[-2:], ['host gates', 'vm cases'])
        one, two = self.listed(PC_SHARD='1/2'), self.listed(PC_SHARD='2/2')
        self.assertEqual(one[-1], 'host gates')
        self.assertEqual(two[-1], 'vm cases')
        self.assertEqual(one[:-1][0::1], whole[:-2][0::2])
        self.assertEqual(two[:-1], whole[:-2][1::2])

    def test_cases_filter_and_lkdtm_after_each_series(self):
        lines = self.listed(PC_CASES='^6.1/')
        self.assertEqual(lines, ['6.1-direct_bugon', '6.1-direct_double_fault', '6.1-lockdown',
                                 '6.1-matrix_x', '6.1-lkdtm_selftest', 'host gates', 'vm cases'])

    def test_why_lines_name_each_left_out(self):
        entries = scope.listing(KERNELS, self.CANDIDATES, HAND, {})
        lines = scope.listing_lines(entries, {}, why=True)
        self.assertIn('# 6.12-matrix_x: ' + scope.WHY_MATRIX
                      + ' (PC_MATRIX_SCOPE=kernels or full runs all)', lines)
        self.assertEqual(len([ln for ln in lines if ln.startswith('# ')]),
                         len([e for e in entries if not e.runs]))

    def test_bad_shard(self):
        for text in ('0/2', '3/2', '1', 'a/b'):
            self.assertRaises(ValueError, scope.parse_shard, text)


class Select(unittest.TestCase):
    """What a series' preparation asks: a series' case files in, the
    names it runs out, lkdtm_selftest among them."""

    NAMES = ['direct_bugon', 'direct_double_fault', 'kdump_panic', 'kdump_bugon',
             'lockdown', 'lockups_irqs_off', 'matrix_x']

    def test_select_keeps_order_and_adds_lkdtm(self):
        self.assertEqual(scope.select('6.1', self.NAMES, KERNELS, {}, HAND),
                         self.NAMES + ['lkdtm_selftest'])
        self.assertEqual(scope.select('6.1-rt', self.NAMES, KERNELS, {}, HAND),
                         ['kdump_panic', 'lockups_irqs_off'])
        self.assertEqual(scope.select('6.1-rt', self.NAMES, KERNELS,
                                      {'PC_X86_SCOPE': 'full'}, HAND),
                         ['direct_bugon', 'direct_double_fault', 'kdump_panic',
                          'lockdown', 'lockups_irqs_off', 'lkdtm_selftest'])

    def test_command_line_reads_the_cases_directory(self):
        with tempfile.TemporaryDirectory() as cases:
            for n in self.NAMES + ['zz_batch_1']:
                open(os.path.join(cases, n + '.sh'), 'w').close()
            open(os.path.join(cases, 'types.tsv'), 'w').close()
            env = {k: v for k, v in os.environ.items() if not k.startswith('PC_')}
            env['PC_KDUMP_SCOPE'] = 'full'
            out = subprocess.run(
                [sys.executable, '-m', 'pcengine.scope', '--select', '6.12',
                 '--kernels', ' '.join(KERNELS), '--cases', cases],
                cwd=os.path.join(fixtures.ROOT, 'engine'), env=env, check=True,
                stdout=subprocess.PIPE, text=True).stdout.split()
        self.assertEqual(out, ['direct_bugon', 'kdump_bugon', 'kdump_panic', 'lockdown',
                               'lockups_irqs_off', 'lkdtm_selftest'])

    def test_command_line_needs_its_arguments(self):
        done = subprocess.run([sys.executable, '-m', 'pcengine.scope', '--select', '6.1'],
                              cwd=os.path.join(fixtures.ROOT, 'engine'),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.assertEqual(done.returncode, 2)
        self.assertIn('--select needs --kernels and --cases', done.stderr)


class KindsInARun(unittest.TestCase):
    def test_the_default_run(self):
        kernels = scope.DEFAULT_KERNELS.split()
        self.assertEqual({s: scope.kind_of(s, kernels) for s in kernels}, {
            '6.1': 'first-x86', '5.10': 'x86-mid', '6.12': 'x86-mid', '7.2': 'x86', '6.1-rt': 'rt',
            '7.2-rt': 'rt-next', 'arm64-6.1': 'arm64', 'arm64-7.2': 'arm64-next',
            'debug': 'debug'})

    def test_one_kernel_of_a_kind_is_that_kind(self):
        self.assertEqual(scope.kind_of('6.12', ['6.1', '6.12']), 'x86')
        self.assertEqual(scope.kind_of('arm64-7.2', ['6.1', 'arm64-7.2']), 'arm64')
        self.assertEqual(scope.kind_of('6.12', ['6.1']), 'x86')

    def test_a_mid_kernel_runs_its_slice(self):
        kernels, v = ['6.1', '6.12', '7.2'], scope.scope_vars({})
        self.assertTrue(scope.decide('6.12', 'return_nested', kernels, v, {'return_nested': ''})[0])
        runs, why = scope.decide('6.12', 'bad_input', kernels, v, {'bad_input': ''})
        self.assertFalse(runs)
        self.assertIn('bracket it', why)
        self.assertTrue(scope.decide('7.2', 'bad_input', kernels, v, {'bad_input': ''})[0])
        self.assertTrue(scope.decide('6.12', 'bad_input', kernels,
                                     scope.scope_vars({'PC_X86_SCOPE': 'full'}),
                                     {'bad_input': ''})[0])


class SameDefaultsAsTheShell(unittest.TestCase):
    """tests/run's comment gives PC_KERNELS' default: the scope's."""

    def test_default_kernels(self):
        with open(os.path.join(fixtures.ROOT, 'tests/run')) as f:
            m = re.search(r'^# Environment: PC_KERNELS \(default "([^"]*)"', f.read(), re.M)
        self.assertEqual(m.group(1), scope.DEFAULT_KERNELS)


if __name__ == '__main__':
    unittest.main()
