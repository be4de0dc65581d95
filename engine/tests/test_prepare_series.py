# SPDX-License-Identifier: GPL-2.0
"""A series' preparation (pcengine.prepare_series), without a build:
where a run and a listing write, the guest options it gives casestep.py,
and how LKDTM's selftest is dealt after the cases."""

import contextlib
import io
import os
import tempfile
import unittest
from unittest import mock

from pcengine import casestep, prepare_series

FACTS = dict(rel='6.1.0-57-cloud-amd64', arch='amd64', root='', config='/boot/config-6.1',
             kdump='ok', no_ramoops='', timeout='120',
             ramoops='memmap=1M$0x10000000 pc_ramoops=0x10000000',
             ramoops_params='ramoops.mem_address=0x10000000',
             ramoops_region='0x10000000:0xff000:0x20000',
             kdump_append='crashkernel=128M pc_kdump=1')


def series(**env):
    return prepare_series.Series(dict({'PC_OUT': '/out', 'PC_ACCEL': 'tcg'}, **env), 2, '6.1')


class Where(unittest.TestCase):
    def test_a_run_and_a_listing(self):
        s = series(PC_STEP_DEALT='7')
        self.assertEqual((s.scratch, s.results, s.prep, s.dealt, s.listing),
                         ('/out', '/out/results', '/out/prep', 7, False))
        s = series(PC_LIST='1', PC_SHARD='2/3')
        self.assertEqual((s.scratch, s.listing), ('/out/list-2-of-3', True))


class GuestOptions(unittest.TestCase):
    def test_casestep_reads_them(self):
        text = series(PC_GUEST_CMDLINE='-x pc_cycles=3', PC_SNAPSHOT='').guest_options(FACTS)
        self.assertIn('--append=-x pc_cycles=3\n', text)
        self.assertIn('--snapshot=1\n', text)
        self.assertIn('--kernel=/boot/vmlinuz-6.1.0-57-cloud-amd64\n', text)
        argv = ['single'] + text.splitlines() + ['/c/point_bugon.sh']
        with mock.patch.object(casestep, 'run_single') as run, \
                mock.patch.object(casestep, 'config_of',
                                  return_value=(frozenset(), frozenset())):
            casestep.main(argv)
        o = run.call_args[0][0]
        self.assertEqual((o.series, o.accel, o.timeout, o.initrd, o.kdump_initrd),
                         ('6.1', 'tcg', 120, '/out/6.1.0-57-cloud-amd64/initramfs.cpio',
                          '/out/6.1.0-57-cloud-amd64/initramfs-kdump.cpio'))

    def test_arm64_is_emulated(self):
        text = series(PC_ACCEL='kvm').guest_options(dict(FACTS, arch='arm64'))
        self.assertIn('--accel=tcg\n', text)


class Facts(unittest.TestCase):
    def test_what_the_kernel_gives(self):
        host = mock.Mock(rel_root=lambda rel: '', rel_arch=lambda rel: 'amd64',
                         rel_config=lambda rel: '/boot/config-' + rel,
                         kernel_release=lambda series: '6.1.0-57-cloud-amd64',
                         guest_timeout=lambda rel, t: t * 3)
        s = series(PC_TIMEOUT='100')
        s.host = host
        with mock.patch.object(prepare_series.kdumppack, 'available', return_value=None), \
                mock.patch.object(prepare_series.kdumppack, 'cmdline',
                                  return_value='crashkernel=128M pc_kdump=1'), \
                mock.patch.object(prepare_series.initramfs, 'ramoops_absent',
                                  return_value='no ramoops.ko'):
            f = s.facts()
        self.assertEqual((f['rel'], f['config'], f['kdump'], f['no_ramoops'], f['timeout']),
                         ('6.1.0-57-cloud-amd64', '/boot/config-6.1.0-57-cloud-amd64', 'ok',
                          'no ramoops.ko', '300'))
        self.assertEqual((f['ramoops_region'], f['kdump_append']),
                         ('0x10000000:0xff000:0x20000', 'crashkernel=128M pc_kdump=1'))


class Prepare(unittest.TestCase):
    """The files the scheduler reads, from a preparation whose facts,
    builds, selftest's guest and case writers are stand-ins."""

    PLAN = ['dealt 5', 'order 6.1-point_bugon', 'order 6.1-matrix_task_entry',
            'job batch /c/zz_batch_1.sh', 'job single /c/point_bugon.sh', 'module paths',
            'lkdtm']

    def prepared(self, listing=False):
        calls = []

        def build(self, f, d, modules):
            calls.append('build ' + ' '.join(sorted(modules)))

        def ready(*args):
            calls.append('lkdtm_ready')
            return True

        def plan(argv, out, env):
            out.write(''.join(line + '\n' for line in self.PLAN))
            return 0

        with tempfile.TemporaryDirectory() as d:
            env = {'PC_OUT': d, 'PC_ACCEL': 'tcg', 'PC_SHARD': '1/1'}
            if listing:
                env['PC_LIST'] = '1'
            s = prepare_series.Series(env, 2, '6.1')
            os.makedirs(s.prep)
            with mock.patch.object(prepare_series.Series, 'facts', return_value=FACTS), \
                    mock.patch.object(prepare_series.Series, 'write_cases'), \
                    mock.patch.object(prepare_series.prepare, 'main', plan), \
                    mock.patch.object(prepare_series.Series, 'build', build), \
                    mock.patch.object(prepare_series.lkdtm_pack, 'ready', ready), \
                    contextlib.redirect_stderr(io.StringIO()):
                s.prepare()
            files = {n: prepare_series.prepare.read_text(os.path.join(s.prep, '2.' + n))
                     for n in ('order', 'jobs', 'dealt', 'ready')}
            return files, calls, d

    def test_a_run(self):
        files, calls, d = self.prepared()
        self.assertEqual(calls, ['build paths', 'lkdtm_ready'])
        self.assertEqual(files['order'], '6.1-point_bugon\n6.1-matrix_task_entry\n'
                         '6.1-lkdtm_selftest\n')
        self.assertEqual(files['jobs'], 'lkdtm %s/6.1.0-57-cloud-amd64/lkdtm-selftest\n'
                         'batch /c/zz_batch_1.sh\nsingle /c/point_bugon.sh\n' % d)
        self.assertEqual((files['dealt'], files['ready']), ('6\n', '6.1.0-57-cloud-amd64\n'))

    def test_a_listing_builds_nothing(self):
        files, calls, _ = self.prepared(listing=True)
        self.assertEqual(calls, [])
        self.assertTrue(files['order'].endswith('6.1-lkdtm_selftest\n'))
        self.assertEqual(files['dealt'], '6\n')


class Build(unittest.TestCase):
    """What a series' builds are asked for: the twin only where a case
    loads it, the bench's modules and PC_EXTRA_FILES in the initramfs,
    the kdump guests' archive only with kdump, the saved guests gone."""

    def built(self, modules, kdump='ok'):
        with tempfile.TemporaryDirectory() as d:
            s = prepare_series.Series({'PC_OUT': d, 'PC_EXTRA_FILES': '/x.ko'}, 1, '6.1')
            saved = os.path.join(d, FACTS['rel'], 'snapshots')
            os.makedirs(saved)
            with mock.patch.object(prepare_series.build, 'module') as module, \
                    mock.patch.object(prepare_series.build, 'test_module',
                                      side_effect=lambda h, rel, m: '/%s.ko' % m), \
                    mock.patch.object(prepare_series.initramfs, 'pack') as pack, \
                    mock.patch.object(prepare_series.kdumppack, 'pack') as kdump_pack:
                s.build(dict(FACTS, kdump=kdump), '/cases', modules)
            self.assertFalse(os.path.exists(saved))
        return module.call_args, pack.call_args[0][1:], kdump_pack.called

    def test_the_twin_the_modules_and_kdump(self):
        module, pack, kdump = self.built({'twin', 'race', 'paths'})
        self.assertEqual(module[1], {'twin': True})
        self.assertEqual(pack, (FACTS['rel'], '/cases', ['/paths.ko', '/race.ko', '/x.ko']))
        self.assertTrue(kdump)
        module, pack, kdump = self.built(set(), kdump='no CONFIG_KEXEC')
        self.assertEqual(module[1], {'twin': False})
        self.assertEqual(pack, (FACTS['rel'], '/cases', ['/x.ko']))
        self.assertFalse(kdump)


class Lkdtm(unittest.TestCase):
    def test_dealt_after_the_cases_in_its_slice(self):
        order = []
        s = series(PC_SHARD='1/2', PC_STEP_DEALT='4', PC_LIST='1')
        self.assertFalse(s.lkdtm('R', order))
        self.assertEqual((s.dealt, order), (5, ['6.1-lkdtm_selftest']))
        s = series(PC_SHARD='2/2', PC_STEP_DEALT='4', PC_LIST='1')
        self.assertFalse(s.lkdtm('R', order))
        self.assertEqual((s.dealt, order), (5, ['6.1-lkdtm_selftest']))
        s = series(PC_CASES='point_')
        self.assertFalse(s.lkdtm('R', order))
        self.assertEqual(s.dealt, 0)


if __name__ == '__main__':
    unittest.main()
