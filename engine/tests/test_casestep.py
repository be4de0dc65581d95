# SPDX-License-Identifier: GPL-2.0
"""The bench's guest step (pcengine.casestep): a case file's header made
into the guest's options, and a batch's saved logs cut into its parts'
results, with no QEMU run (guest.run is a stand-in that writes the saved
logs)."""

import argparse
import os
import shutil
import tempfile
import unittest
from unittest import mock

import fixtures
from pcengine import casestep, guest


def options(tmp, **change):
    o = argparse.Namespace(
        series='6.1', results=tmp, timeout=120, arch='amd64', accel='tcg', kernel='K',
        initrd='I', snapshots=os.path.join(tmp, 'snap'), snapshot='1', append='pc_cycles=3',
        qemu_extra='', ramoops='memmap=1M$0x10000000 pc_ramoops=0x10000000',
        ramoops_params='ramoops.mem_address=0x10000000', ramoops_region='0x10000000:0xff000:0x20000',
        options=frozenset(), ramoops_builtin=False,
        kdump_append='crashkernel=128M pc_kdump=1', kdump_initrd='KI')
    vars(o).update(change)
    return o


class Header(unittest.TestCase):
    def spec(self, header, **change):
        with tempfile.TemporaryDirectory() as tmp:
            return casestep.guest_spec(options(tmp, **change), header, 'c', tmp + '/r')

    def test_a_plain_case_restores_with_the_run_s_boot_line(self):
        s = self.spec('# expect: x\necho hi\n')
        self.assertEqual((s.append, s.smp, s.pstore, s.read_ramoops, s.fresh_boot, s.timeout),
                         (' pc_cycles=3', 1, False, '', '', 120))
        self.assertEqual((s.case, s.console, s.how), ('c', s.console, s.console[:-8] + '.how'))

    def test_boot_lines_vcpus_and_a_reason_to_boot(self):
        s = self.spec('# boot: a=1\n# boot: b\n# smp: 2\n# fresh-boot: the stack\'s entropy\n')
        self.assertEqual(s.append, 'a=1 b  pc_cycles=3')
        # Two vCPUs on one host thread: twice the time.
        self.assertEqual((s.smp, s.timeout, s.fresh_boot), (2, 240, "the stack's entropy"))

    def test_pstore_reboots_and_keeps_ramoops(self):
        s = self.spec('# pstore: 1\n')
        self.assertTrue(s.pstore)
        self.assertEqual(s.append, ' pc_cycles=3 memmap=1M$0x10000000 pc_ramoops=0x10000000'
                         ' panic=1')
        s = self.spec('# pstore: 1\n', ramoops_builtin=True)
        self.assertIn(' ramoops.mem_address=0x10000000 panic=1', s.append)

    def test_pstore_ram_is_read_by_the_host(self):
        s = self.spec('# pstore: ram\n')
        self.assertEqual((s.pstore, s.read_ramoops), (False, '0x10000000:0xff000:0x20000'))
        self.assertNotIn('panic=1', s.append)

    def test_kasan_and_no_snapshots(self):
        s = self.spec('', options=frozenset({'CONFIG_KASAN'}), snapshot='0')
        self.assertTrue(s.append.endswith(' kasan_multi_shot'))
        self.assertEqual(s.fresh_boot, 'PC_SNAPSHOT=0')

    def test_a_kdump_case_boots_with_its_capture_kernel(self):
        with tempfile.TemporaryDirectory() as tmp:
            s = casestep.kdump_spec(options(tmp), '# kdump: 1\n# pstore: 1\n# smp: 2\n', 'k',
                                    tmp + '/r')
            a = casestep.kdump_spec(options(tmp, arch='arm64'), '# kdump: 1\n', 'k', tmp + '/r')
        # No ramoops, no restore: two kernels boot.
        self.assertEqual((s.append, s.initrd, s.pstore, s.read_ramoops, s.dir, s.fresh_boot),
                         (' pc_cycles=3 crashkernel=128M pc_kdump=1', 'KI', False, '', None,
                          'kdump: a capture kernel'))
        self.assertEqual((s.timeout, a.timeout), (240, 240))

    def test_a_batch_has_up_to_three_guests_time(self):
        self.assertEqual([casestep.case_limit(120, 1, n) for n in (1, 2, 3, 9)],
                         [120, 240, 360, 360])
        self.assertEqual(casestep.case_limit(120, 2, 9), 720)


class Options(unittest.TestCase):
    def test_the_series_options_are_read_from_a_file_line_by_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            config = os.path.join(tmp, 'config')
            with open(config, 'w') as f:
                f.write('CONFIG_KASAN=y\nCONFIG_PSTORE_RAM=y\n')
            # As prepare_series.py's guest_options writes them.
            lines = ['--series=6.1', '--results=' + tmp, '--timeout=120', '--config=' + config,
                     '--arch=amd64', '--accel=tcg', '--kernel=K', '--initrd=I',
                     '--snapshots=S', '--snapshot=1', '--append=', '--qemu-extra=-icount shift=0',
                     '--ramoops=memmap=1M$0x10000000 pc_ramoops=0x10000000',
                     '--ramoops-params=ramoops.mem_address=0x10000000',
                     '--ramoops-region=0x10000000:0xff000:0x20000',
                     '--kdump-append=crashkernel=128M pc_kdump=1', '--kdump-initrd=KI']
            with open(os.path.join(tmp, '1.guest'), 'w') as f:
                f.write(''.join(line + '\n' for line in lines))
            case = os.path.join(tmp, 'direct_x.sh')
            with open(case, 'w') as f:
                f.write('# pstore: 1\n# expect-out: hi\necho hi\n')
            with mock.patch.object(guest, 'run', return_value=0) as run:
                casestep.main(['single', '@' + os.path.join(tmp, '1.guest'), case])
            spec = run.call_args[0][0]
            self.assertEqual((spec.qemu_extra, spec.append),
                             ('-icount shift=0', '  kasan_multi_shot memmap=1M$0x10000000 '
                              'pc_ramoops=0x10000000 ramoops.mem_address=0x10000000 panic=1'))

    def test_a_kdump_case_s_result_has_the_capture_s_figures(self):
        with tempfile.TemporaryDirectory() as tmp:
            case = os.path.join(tmp, 'kdump_panic.sh')
            with open(case, 'w') as f:
                f.write('# kdump: 1\n# expect-out: PC-KDUMP-DONE\n')

            def fake_run(spec):
                shutil.copy(fixtures.path('pass_kdump', 'out'), spec.out)
                open(spec.console, 'w').close()
                with open(spec.how, 'w') as f:
                    f.write('booted (kdump: a capture kernel), 20.00 s\n')
                return 0
            with mock.patch.object(guest, 'run', side_effect=fake_run) as run:
                casestep.run_single(options(tmp), case, kdump_case=True)
            result = fixtures.text(os.path.join(tmp, '6.1-kdump_panic.result'))
        self.assertEqual(run.call_args[0][0].initrd, 'KI')
        self.assertTrue(result.startswith('ok 6.1/kdump_panic\n'), result)
        self.assertTrue(result.endswith(
            '#   kdump: panic to capture kernel start 0.29 s (guest CPU counter), dump 21.4 MB\n'
            '# guest: booted (kdump: a capture kernel), 20.00 s\n'), result)

    def test_a_guest_that_cannot_start_is_a_failed_case(self):
        with tempfile.TemporaryDirectory() as tmp:
            case = os.path.join(tmp, 'direct_x.sh')
            with open(case, 'w') as f:
                f.write('# expect-out: hi\necho hi\n')
            with mock.patch.object(guest, 'run', side_effect=FileNotFoundError('qemu')), \
                    mock.patch('traceback.print_exc'):
                casestep.run_single(options(tmp), case)
            result = fixtures.text(os.path.join(tmp, '6.1-direct_x.result'))
        self.assertTrue(result.startswith('not ok 6.1/direct_x\n# missing in 6.1-direct_x.out'),
                        result)
        self.assertTrue(result.endswith('# guest: not run (FileNotFoundError: qemu)\n'), result)

    def test_a_header_that_makes_no_sense_fails_its_case(self):
        with tempfile.TemporaryDirectory() as tmp:
            case = os.path.join(tmp, 'direct_x.sh')
            with open(case, 'w') as f:
                f.write('# pstore: yes\n')
            with mock.patch.object(guest, 'run') as run, mock.patch('traceback.print_exc'):
                casestep.run_single(options(tmp), case)
            result = fixtures.text(os.path.join(tmp, '6.1-direct_x.result'))
        self.assertFalse(run.called)
        self.assertIn("# guest: not run (ValueError: # pstore: 'yes': expected 0, 1 or ram)",
                      result)


class Batch(unittest.TestCase):
    def test_each_part_is_judged_on_its_own_stretch(self):
        name = 'batch_matrix'
        with tempfile.TemporaryDirectory() as tmp:
            cases = os.path.join(tmp, 'cases')
            shutil.copytree(fixtures.path(name, 'parts'), cases)
            batch = os.path.join(cases, 'zz_batch_11.sh')
            shutil.copy(fixtures.path(name, 'batch.sh'), batch)

            def fake_run(spec):
                shutil.copy(fixtures.path(name, 'console'), spec.console)
                shutil.copy(fixtures.path(name, 'out'), spec.out)
                with open(spec.how, 'w') as f:
                    f.write('restored (saved guest 0123456789abcdef), 9.50 s\n')
                return 0
            with mock.patch.object(guest, 'run', side_effect=fake_run) as run:
                casestep.run_batch(options(tmp), batch)
            parts = sorted(f[:-3] for f in os.listdir(cases) if f.startswith('matrix_'))
            self.assertEqual(run.call_args[0][0].timeout, 360)
            got = ''
            for part in parts:
                text = fixtures.text(os.path.join(tmp, '6.1-%s.result' % part))
                how = '# guest: restored (saved guest 0123456789abcdef), 9.50 s (batch zz_batch_11)\n'
                self.assertTrue(text.endswith(how), text)
                got += text[:-len(how)]
            # What the shell step wrote, before the guest lines.
            self.assertEqual(got, fixtures.text(fixtures.path(name, 'result')))


if __name__ == '__main__':
    unittest.main()
