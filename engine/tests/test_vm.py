# SPDX-License-Identifier: GPL-2.0
"""The VM runner's run (pcengine.vm): what the types ask of the guest,
the guest's options (restored or booted, and where pstore is read), the
run's files for the guest, and the watcher of the console's milestones.
No guest: the runner's own cases (pcengine.vmcases) run those."""

import argparse
import contextlib
import fcntl
import io
import os
import tempfile
import time
import unittest
from unittest import mock

from fixtures import write
from pcengine import cases, vm, vm_build, vm_io, vm_kdump


def release(config=(), arch='amd64'):
    r = argparse.Namespace(rel='6.1.0-57-cloud-amd64', arch=arch, root='', config='/nonexistent',
                           ramoops_builtin=False,
                           ramoops='memmap=1M$0x10000000 pc_ramoops=0x10000000',
                           ramoops_params='ramoops.mem_address=0x10000000',
                           ramoops_region='0x10000000:0xff000:0x20000')
    r.kernel = cases.Kernel(r.rel, arch, frozenset(config), '', False)
    return r


TABLE = {
    'read_after_free': ['read_after_free', 'heap', 'task', 'report', 'slub_debug=FZPU', ''],
    'panic_stop_irqoff': ['panic_stop_irqoff', 'panic', 'task', 'panic', 'smp', ''],
    'unset_smep': ['unset_smep', 'cpu', 'atomic', 'report', 'x86_64 cpu:smep', ''],
    'kfence': ['kfence', 'heap', 'task', 'report', 'CONFIG_KFENCE slub_debug=FZPU', ''],
}


def options(**kw):
    o = argparse.Namespace(boot='', shell=False, kdump=False, gdb=False, arms=[], trigger='',
                           run='', files=[])
    vars(o).update(kw)
    return o


class Needs(unittest.TestCase):
    def test_boot_words_once_and_notes(self):
        boot, smp, notes = vm.needs(options(boot='quiet'), release(), TABLE,
                                    ['read_after_free', 'kfence', 'panic_stop_irqoff'], 0)
        self.assertEqual((boot, smp), ('slub_debug=FZPU quiet', 2))
        self.assertEqual(notes, ['6.1.0-57-cloud-amd64 lacks CONFIG_KFENCE, which kfence '
                                 'needs: its crash may not be seen',
                                 'panic_stop_irqoff needs a second CPU: 2 vCPUs'])

    def test_cpu_features_and_cpu_condition(self):
        boot, smp, notes = vm.needs(options(), release(), TABLE, ['unset_smep'], 3)
        self.assertEqual((boot.strip(), smp), ('', 3))
        self.assertEqual(notes, ["unset_smep needs the CPU's smep: QEMU's -cpu max has it",
                                 'cpu= asks for 3 vCPUs'])


class GuestOptions(unittest.TestCase):
    def setUp(self):
        self.env = {'PC_OUT': '/out', 'PC_ACCEL': 'tcg', 'HOME': '/home/u'}

    def opts(self, o, pstore, r=None):
        return vm.guest_options(o, r or release(), '/w', self.env, 'slub_debug=FZPU ', 2,
                                pstore, 120, '-icount shift=0')

    def test_restored_with_ramoops_read_by_the_host(self):
        g = self.opts(options(), 'ram')
        self.assertEqual((g.initrd, g.payload, g.dir, g.keep_saves, g.stdio),
                         ('/out/6.1.0-57-cloud-amd64/initramfs-base.cpio', '/w/run.cpio',
                          '/home/u/.cache/provoke-crash/vm-snapshots', 8, False))
        self.assertEqual(g.read_ramoops, '0x10000000:0xff000:0x20000')
        self.assertEqual(g.append, 'slub_debug=FZPU  memmap=1M$0x10000000 pc_ramoops=0x10000000')
        self.assertEqual((g.pstore, g.smp, g.kernel, g.case, g.qemu_extra, g.timeout),
                         (False, 2, '/boot/vmlinuz-6.1.0-57-cloud-amd64', 'vm',
                          '-icount shift=0', 120))

    def test_ramoops_built_in_gets_its_parameters_on_the_boot_line(self):
        r = release()
        r.ramoops_builtin = True
        self.assertTrue(self.opts(options(), 'ram', r).append.endswith(
            ' pc_ramoops=0x10000000 ramoops.mem_address=0x10000000'))

    def test_pstore_boot_and_no_saves(self):
        self.env['PC_SNAPSHOT'] = '0'
        g = self.opts(options(), '1')
        self.assertEqual((g.initrd, g.dir, g.pstore, g.read_ramoops),
                         ('/w/initrd', None, True, ''))
        self.assertTrue(g.append.endswith(' panic=1'))

    def test_shell_boots_on_the_terminal(self):
        g = self.opts(options(shell=True), 'ram')
        self.assertEqual((g.initrd, g.dir, g.stdio), ('/w/initrd', None, True))

    def test_kdump_keeps_no_pstore(self):
        g = self.opts(options(kdump=True), '0')
        self.assertEqual((g.dir, g.read_ramoops, g.append), (None, '', 'slub_debug=FZPU '))

    def test_arm64_is_emulated(self):
        self.assertEqual(self.opts(options(), 'ram', release(arch='arm64')).accel, 'tcg')


class Root(unittest.TestCase):
    def test_the_guests_files(self):
        with tempfile.TemporaryDirectory() as work, tempfile.NamedTemporaryFile() as f:
            f.write(b'repro')
            f.flush()
            o = options(arms=['@sys@getppid bugon', 'vfs_read report'], run='echo hi',
                        files=[f.name, f.name + ':/opt/r'])
            with contextlib.redirect_stderr(io.StringIO()) as err:
                arms = vm.write_root(o, release(), work)
            self.assertIn('# file: %s -> /opt/r' % f.name, err.getvalue())
            pc = os.path.join(work, 'root', 'pc')
            self.assertEqual(arms, '__x64_sys_getppid bugon\nvfs_read report\n')
            self.assertEqual(sorted(os.listdir(pc)), ['arm', 'run.sh', 'trigger'])
            self.assertEqual(vm.read(os.path.join(pc, 'run.sh')), 'echo hi')
            self.assertEqual(os.path.getsize(os.path.join(pc, 'trigger')), 0)
            for where in ('root/' + os.path.basename(f.name), 'opt/r'):
                self.assertEqual(vm.read(os.path.join(work, 'root', where)), 'repro')
            self.assertTrue(os.path.isfile(os.path.join(work, 'root', 'cases', 'vm.sh')))


class Watch(unittest.TestCase):
    def test_begin_then_crash(self):
        with tempfile.TemporaryDirectory() as d:
            log, events = os.path.join(d, 'console.log'), os.path.join(d, 'events')
            w = vm.Watcher(log, events)
            w.start()
            with open(log, 'w') as f:
                f.write('[    1.0] Oops: before the run\n[    2.0] PC-RUN-BEGIN\n')
            time.sleep(0.5)
            with open(log, 'a') as f:
                f.write('[    3.0] Kernel panic - not syncing: x\n')
            w.join(5)
            w.done.set()
            names = [line.split()[0] for line in vm.read(events).split('\n')]
            self.assertEqual(names, ['begin', 'crash'])


class KdumpSaid(unittest.TestCase):
    def test_every_block_as_sed_ranges_cut_it(self):
        text = ('x\nPC-KDUMP-DUMP 0 bytes\nmakedumpfile: no space\nPC-KDUMP-DONE\ny\n'
                'PC-KDUMP-DUMP 0 bytes\nagain\n')
        self.assertEqual(vm_kdump._dump_said(text)[1:-1],
                         ['makedumpfile: no space', 'PC-KDUMP-DONE', 'PC-KDUMP-DUMP 0 bytes'])


class Errors(unittest.TestCase):
    def test_a_missing_program_is_the_setups_failure(self):
        with self.assertRaises(vm_build.SetupError) as e:
            vm_build._run(['/nonexistent/gcc'])
        self.assertEqual(str(e.exception), '/nonexistent/gcc: No such file or directory')

    def test_the_work_directory_goes_and_a_bad_option_is_one_line(self):
        with contextlib.redirect_stderr(io.StringIO()) as err:
            status = vm.main(['provoke-crash-vm', '--smp', 'x'])
        self.assertEqual((status, err.getvalue()),
                         (2, "provoke-crash-vm: --smp 'x': give a whole number from 1 to 8\n"))


class Locks(unittest.TestCase):
    def test_a_release_s_builds_wait_for_another_runner_s(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'out', '6.1.0-57-cloud-amd64.lock')
            with vm_build.release_lock(os.path.join(d, 'out'), '6.1.0-57-cloud-amd64'):
                with open(path) as other:
                    with self.assertRaises(BlockingIOError):
                        fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
            with open(path) as other:
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)

    def test_the_host_tool_built_while_waiting_is_taken(self):
        with tempfile.TemporaryDirectory() as d:
            calls = []

            def build(tool, key):
                calls.append(key)
                write(tool, '', 0o755)
                write(tool + '.key', key + '\n')
            with mock.patch.object(vm_build, '_build_tool', build):
                tool = vm_build.host_tool(d)
                self.assertEqual(vm_build.host_tool(d), tool)
            self.assertEqual(len(calls), 1)


class WorkFiles(unittest.TestCase):
    def test_a_small_file_without_its_last_newline(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'how')
            write(path, 'restored (saved guest k)\n\n')
            self.assertEqual(vm_io.read(path), 'restored (saved guest k)')
            self.assertIsNone(vm_io.read(os.path.join(d, 'none')))


if __name__ == '__main__':
    unittest.main()
