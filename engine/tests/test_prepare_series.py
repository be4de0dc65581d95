# SPDX-License-Identifier: GPL-2.0
"""A series' preparation (pcengine.prepare_series), without a build:
where a run and a listing write, the guest options it gives casestep.py,
and how LKDTM's selftest is dealt after the cases."""

import unittest
from unittest import mock

from pcengine import casestep, prepare_series

FACTS = dict(rel='6.1.0-57-cloud-amd64', arch='amd64', root='', config='/boot/config-6.1',
             case_sed='s/@sys@/__x64_sys_/g', kdump='ok', no_ramoops='', timeout='120',
             ramoops='memmap=1M$0x10000000 pc_ramoops=0x10000000',
             ramoops_params='ramoops.mem_address=0x10000000',
             ramoops_region='0x10000000:0xff000:0x20000',
             kdump_append='crashkernel=128M pc_kdump=1', end='end')


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
                mock.patch.object(casestep, 'read_config', return_value=frozenset()), \
                mock.patch('builtins.open', mock.mock_open(read_data='')):
            casestep.main(argv)
        o = run.call_args[0][0]
        self.assertEqual((o.series, o.accel, o.timeout, o.initrd, o.kdump_initrd),
                         ('6.1', 'tcg', 120, '/out/6.1.0-57-cloud-amd64/initramfs.cpio',
                          '/out/6.1.0-57-cloud-amd64/initramfs-kdump.cpio'))

    def test_arm64_is_emulated(self):
        text = series(PC_ACCEL='kvm').guest_options(dict(FACTS, arch='arm64'))
        self.assertIn('--accel=tcg\n', text)


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
