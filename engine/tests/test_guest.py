# SPDX-License-Identifier: GPL-2.0
"""QEMU's command line per architecture (pcengine.qemu), what a saved
guest is keyed by (pcengine.snapshot) and when a case restores or boots
(pcengine.guest), with no QEMU run."""

import argparse
import base64
import os
import socket
import subprocess
import tempfile
import time
import unittest
from unittest import mock

from pcengine import guest, qemu, snapshot


def spec(tmp, **change):
    kernel, initrd = os.path.join(tmp, 'vmlinuz'), os.path.join(tmp, 'initrd')
    for f in (kernel, initrd):
        with open(f, 'w') as out:
            out.write('x')
    o = argparse.Namespace(arch='amd64', accel='tcg', smp=1, kernel=kernel, initrd=initrd,
                           append='', pstore=False, qemu_extra='', case='point_bugon',
                           console=os.path.join(tmp, 'c'), out=os.path.join(tmp, 'o'),
                           timeout=5, stdio=False, dir=os.path.join(tmp, 'snap'),
                           fresh_boot='', how=os.path.join(tmp, 'how'), payload=None,
                           keep_saves=0, read_ramoops='')
    vars(o).update(change)
    return o


def pairs(argv, option):
    return [argv[i + 1] for i, a in enumerate(argv) if a == option]


class CommandLine(unittest.TestCase):
    def test_x86_ports_are_serial_ports_in_order(self):
        a = qemu.argv('amd64', 'tcg', 1, 'K', 'I', 'pc_case=x', 'C', 'O',
                      command_socket='S', qmp_socket='Q')
        self.assertEqual(a[0], 'qemu-system-x86_64')
        # ttyS0 the console, ttyS1 the output, ttyS2 the command port.
        self.assertEqual(pairs(a, '-serial'), ['chardev:pccon', 'chardev:pcout', 'chardev:pccmd'])
        self.assertIn('file,id=pccon,path=C,append=on', pairs(a, '-chardev'))
        self.assertIn('socket,id=pccmd,path=S,server=on,wait=off', pairs(a, '-chardev'))
        self.assertEqual(pairs(a, '-append'), ['console=ttyS0 pc_case=x'])
        self.assertEqual(pairs(a, '-qmp'), ['unix:Q,server=on,wait=off'])
        self.assertIn('-no-reboot', a)
        # No NIC, VGA or IDE: nothing uses them.
        self.assertIn('-nodefaults', a)

    def test_arm64_ports_are_virtio_serial(self):
        a = qemu.argv('arm64', 'tcg', 2, 'K', 'I', '', 'C', 'O', command_socket='S', reboot=True)
        self.assertEqual(pairs(a, '-serial'), ['chardev:pccon'])
        self.assertEqual(pairs(a, '-device'), ['virtio-serial-device',
                                               'virtserialport,chardev=pcout,name=pc.out',
                                               'virtserialport,chardev=pccmd,name=pc.cmd'])
        self.assertTrue(pairs(a, '-append')[0].startswith('console=ttyAMA0 '))
        self.assertNotIn('-no-reboot', a)

    def test_tcg_is_tuned_and_smp_runs_on_one_thread(self):
        self.assertEqual(qemu.accel_option('tcg', 1), 'tcg,tb-size=256')
        self.assertEqual(qemu.accel_option('tcg', 2), 'tcg,tb-size=256,thread=single')
        self.assertEqual(qemu.accel_option('kvm', 2), 'kvm')

    def test_the_payload_disk_is_virtio_blk_on_each_bus(self):
        for arch, device in (('amd64', 'virtio-blk-pci'), ('arm64', 'virtio-blk-device')):
            a = qemu.argv(arch, 'tcg', 1, 'K', 'I', '', 'C', 'O', command_socket='S', disk='D')
            self.assertEqual(pairs(a, '-drive'), [
                'if=none,id=pcdisk,file=D,format=raw,readonly=on,size=%d'
                % qemu.PAYLOAD_DISK_SIZE])
            self.assertEqual(pairs(a, '-device')[:1],
                             ['%s,drive=pcdisk,serial=pc-payload' % device])
            # A booted guest has none.
            self.assertEqual(pairs(qemu.argv(arch, 'tcg', 1, 'K', 'I', '', 'C', 'O'), '-drive'),
                             [])

    def test_stdio_console_has_the_monitor(self):
        a = qemu.argv('amd64', 'tcg', 1, 'K', 'I', '', 'C', 'O', stdio=True)
        self.assertIn('stdio,id=pccon,mux=on,signal=off,logfile=C', pairs(a, '-chardev'))
        self.assertEqual(pairs(a, '-mon'), ['chardev=pccon'])
        self.assertNotIn('-monitor', a)


class Wait(unittest.TestCase):
    def test_an_exit_is_seen_and_a_deadline_kills(self):
        proc = subprocess.Popen(['sh', '-c', 'exit 3'])
        self.assertEqual(qemu.wait(proc, time.monotonic() + 30), 3)
        proc = subprocess.Popen(['sleep', '30'])
        started = time.monotonic()
        self.assertEqual(qemu.wait(proc, started + 0.2), 124)
        self.assertLess(time.monotonic() - started, 5)
        self.assertEqual(proc.returncode, -9)


class Key(unittest.TestCase):
    def test_whatever_makes_the_guest_changes_the_key(self):
        with tempfile.TemporaryDirectory() as tmp:
            o = spec(tmp)
            key = snapshot.snapshot_key(o)

            def changed(**change):
                return snapshot.snapshot_key(argparse.Namespace(**{**vars(o), **change}))
            self.assertEqual(key, changed())
            for change in ({'append': 'nokaslr'}, {'smp': 2}, {'pstore': True},
                           {'qemu_extra': '-icount shift=0'}, {'arch': 'arm64'}):
                self.assertNotEqual(key, changed(**change), change)
            # Not the case: every case of one key shares the saved guest.
            self.assertEqual(key, changed(case='direct_panic', console='x', out='y'))
            # A new initramfs (prepared again) is another guest.
            os.utime(o.initrd, ns=(1, 1))
            self.assertNotEqual(key, snapshot.snapshot_key(o))
            key = snapshot.snapshot_key(o)
            # So is a guest of other devices: a disk of another size.
            with mock.patch.object(qemu, 'PAYLOAD_DISK_SIZE', 32 << 20):
                self.assertNotEqual(key, snapshot.snapshot_key(o))
            self.assertEqual(key, snapshot.snapshot_key(o))

    def test_the_saved_guest_has_the_payload_disk(self):
        with tempfile.TemporaryDirectory() as tmp:
            a = snapshot._saved_argv(spec(tmp), 'C', 'O', 'SOCKETS')
            self.assertEqual(pairs(a, '-drive')[0].split(',')[2], 'file=SOCKETS/disk')


class Prune(unittest.TestCase):
    def test_the_newest_stay_and_the_locks_too(self):
        with tempfile.TemporaryDirectory() as tmp:
            for i in range(5):
                for ext in ('.mig', '.console', '.lock'):
                    with open(os.path.join(tmp, 'k%d%s' % (i, ext)), 'w'):
                        pass
                os.utime(os.path.join(tmp, 'k%d.mig' % i), (i, i))
            snapshot.prune(tmp, 2)
            left = sorted(os.listdir(tmp))
            self.assertEqual([f for f in left if f.endswith('.mig')], ['k3.mig', 'k4.mig'])
            self.assertEqual(len([f for f in left if f.startswith('k') and f.endswith('.lock')]), 5)
            self.assertNotIn('k0.console', left)

    def test_a_saved_guest_goes_whole(self):
        with tempfile.TemporaryDirectory() as tmp:
            for i in range(2):
                for ext in snapshot.SAVED_FILES:
                    with open(os.path.join(tmp, 'k%d%s' % (i, ext)), 'w'):
                        pass
                os.utime(os.path.join(tmp, 'k%d.mig' % i), (i, i))
            snapshot.prune(tmp, 1)
            self.assertEqual(sorted(f for f in os.listdir(tmp) if f.startswith('k0')), [])
            self.assertIn('.disk', snapshot.SAVED_FILES)
            # Put aside: saved again, the disk asked again.
            snapshot.forget(spec(tmp, dir=tmp), 'k1')
            self.assertEqual(sorted(f for f in os.listdir(tmp) if f.startswith('k1.')),
                             ['k1.bad', 'k1.console', 'k1.failed', 'k1.lock', 'k1.out',
                              'k1.qemu'])


class CommandPort(unittest.TestCase):
    def test_a_name_alone(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.assertEqual(snapshot.case_message(spec(tmp)), b'point_bugon\n')

    def test_a_payload_on_the_disk_is_its_size(self):
        with tempfile.TemporaryDirectory() as tmp:
            payload = os.path.join(tmp, 'run.cpio')
            open(payload, 'wb').close()
            self.assertEqual(snapshot.case_message(spec(tmp, case='vm', payload=payload), 512),
                             b'vm +disk 512\n')

    def test_a_payload_is_counted_base64_lines(self):
        with tempfile.TemporaryDirectory() as tmp:
            payload = os.path.join(tmp, 'run.cpio')
            data = bytes(range(256)) * 3
            with open(payload, 'wb') as f:
                f.write(data)
            msg = snapshot.case_message(spec(tmp, case='vm', payload=payload)).split(b'\n')
            body = msg[1:-1]
            self.assertEqual(msg[0], b'vm +payload %d' % len(body))
            self.assertEqual(msg[-1], b'')
            # What the guest's tty reads line by line: no line is long.
            self.assertTrue(all(0 < len(line) <= 76 for line in body))
            self.assertEqual(base64.decodebytes(b'\n'.join(body)), data)


class PayloadDisk(unittest.TestCase):
    def test_the_archive_at_offset_0_of_a_sparse_disk(self):
        with tempfile.TemporaryDirectory() as tmp:
            payload, disk = os.path.join(tmp, 'run.cpio'), os.path.join(tmp, 'disk')
            data = os.urandom(70000)
            with open(payload, 'wb') as f:
                f.write(data)
            self.assertEqual(snapshot.write_disk(disk, payload), len(data))
            st = os.stat(disk)
            self.assertEqual(st.st_size, qemu.PAYLOAD_DISK_SIZE)
            self.assertLess(st.st_blocks * 512, 1 << 20)
            with open(disk, 'rb') as f:
                self.assertEqual(f.read(len(data) + 10), data + bytes(10))
            # Empty: every restore without files, and the save.
            self.assertEqual(snapshot.write_disk(disk), 0)
            with open(disk, 'rb') as f:
                self.assertEqual(f.read(4096), bytes(4096))
            self.assertEqual(os.path.getsize(disk), qemu.PAYLOAD_DISK_SIZE)

    def test_an_archive_past_the_disk_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            payload = os.path.join(tmp, 'run.cpio')
            with open(payload, 'wb') as f:
                f.truncate(qemu.PAYLOAD_DISK_SIZE + 1)
            with self.assertRaisesRegex(ValueError, 'do not fit the payload disk'):
                snapshot.write_disk(os.path.join(tmp, 'disk'), payload)

    def test_the_files_limit_leaves_room_and_is_one_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            a, b = os.path.join(tmp, 'a'), os.path.join(tmp, 'b')
            for f, size in ((a, snapshot.FILES_MAX - 10), (b, 10)):
                with open(f, 'wb') as out:
                    out.truncate(size)
            self.assertIsNone(snapshot.files_too_big([a, b]))
            self.assertIsNone(snapshot.files_too_big([]))
            with open(b, 'wb') as out:
                out.truncate(11)
            self.assertEqual(snapshot.files_too_big([a, b]),
                             '63.0 MiB of files; a run carries at most 63 MiB of them '
                             '(on a 64 MiB disk)')
            self.assertLessEqual(snapshot.FILES_MAX, qemu.PAYLOAD_DISK_SIZE - (1 << 20))

    def test_the_save_asks_whether_the_guest_read_the_disk(self):
        mon = mock.Mock()
        stats = [{'device': 'other', 'stats': {'rd_operations': 9}},
                 {'device': 'pcdisk', 'stats': {'rd_operations': 0}}]
        mon.execute.return_value = stats
        self.assertFalse(snapshot._read_disk(mon))
        mon.execute.assert_called_with('query-blockstats')
        stats[1]['stats']['rd_operations'] = 2
        self.assertTrue(snapshot._read_disk(mon))
        mon.execute.return_value = []
        self.assertFalse(snapshot._read_disk(mon))


class RestoreSends(unittest.TestCase):
    """What a restore gives the guest: the disk's file, then the
    message on the command port (served here, as QEMU would)."""

    def restore(self, tmp, on_disk, payload):
        o = spec(tmp, case='vm', payload=payload)
        path = os.path.join(tmp, 'saved')
        exts = ('.mig', '.ram', '.console', '.out') + (('.disk',) if on_disk else ())
        for ext in exts:
            with open(path + ext, 'w') as f:
                f.write('x')
        seen = {}

        def start(cmd, errors, pass_fds=()):
            chardev = next(c for c in pairs(cmd, '-chardev') if c.startswith('socket,id=pccmd'))
            seen['server'] = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            seen['server'].bind(chardev.split('path=')[1].split(',')[0])
            seen['server'].listen(1)
            seen['disk'] = pairs(cmd, '-drive')[0].split('file=')[1].split(',')[0]
            return mock.Mock()

        def wait(o, proc, mon, deadline):
            conn = seen['server'].accept()[0]
            conn.settimeout(5)
            data = b''
            while not data.endswith(b'\n'):
                chunk = conn.recv(65536)
                if not chunk:
                    break
                data += chunk
            seen['message'] = data
            with open(seen['disk'], 'rb') as f:
                seen['head'] = f.read(16)
            seen['size'] = os.path.getsize(seen['disk'])
            conn.close()
            seen['server'].close()
            return 0

        with mock.patch.object(snapshot, '_qemu', side_effect=start), \
                mock.patch.object(snapshot.qmp, 'QMP'), \
                mock.patch.object(snapshot.ramoops, 'wait', side_effect=wait):
            self.assertEqual(snapshot.restore(o, path), (0, None))
        return seen

    def test_files_go_on_the_disk_of_a_guest_that_reads_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            payload = os.path.join(tmp, 'run.cpio')
            with open(payload, 'wb') as f:
                f.write(b'070701' + bytes(1000))
            seen = self.restore(tmp, True, payload)
            self.assertEqual(seen['message'], b'vm +disk 1006\n')
            self.assertEqual(seen['head'], b'070701' + bytes(10))
            self.assertEqual(seen['size'], qemu.PAYLOAD_DISK_SIZE)

    def test_a_guest_with_no_disk_driver_gets_them_on_the_port(self):
        with tempfile.TemporaryDirectory() as tmp:
            payload = os.path.join(tmp, 'run.cpio')
            with open(payload, 'wb') as f:
                f.write(b'070701' + bytes(1000))
            seen = self.restore(tmp, False, payload)
            self.assertTrue(seen['message'].startswith(b'vm +payload '))
            # Its disk is there all the same, empty: the saved devices.
            self.assertEqual((seen['head'], seen['size']), (bytes(16), qemu.PAYLOAD_DISK_SIZE))

    def test_a_case_without_files_sends_its_name(self):
        with tempfile.TemporaryDirectory() as tmp:
            seen = self.restore(tmp, True, None)
            self.assertEqual(seen['message'], b'vm\n')
            self.assertEqual(seen['head'], bytes(16))

    def test_files_that_do_not_fit_boot_the_case(self):
        with tempfile.TemporaryDirectory() as tmp:
            payload = os.path.join(tmp, 'run.cpio')
            with open(payload, 'wb') as f:
                f.truncate(qemu.PAYLOAD_DISK_SIZE + 1)
            o = spec(tmp, case='vm', payload=payload)
            path = os.path.join(tmp, 'saved')
            for ext in ('.mig', '.ram', '.console', '.out', '.disk'):
                with open(path + ext, 'w') as f:
                    f.write('x')
            with mock.patch.object(snapshot, '_qemu') as start:
                status, why = snapshot.restore(o, path)
            self.assertEqual(status, None)
            self.assertIn('do not fit the payload disk', why)
            self.assertFalse(start.called)


class RestoreArgv(unittest.TestCase):
    def argv(self, **change):
        with tempfile.TemporaryDirectory() as tmp:
            o = spec(tmp, **change)
            path = os.path.join(tmp, 'saved')
            for ext in ('.mig', '.ram', '.console', '.out'):
                with open(path + ext, 'w') as f:
                    f.write('x')
            with mock.patch.object(snapshot, '_qemu', side_effect=OSError('stop')) as start:
                self.assertEqual(snapshot.restore(o, path)[0], None)
            return start.call_args[0][0]

    def test_the_kernel_is_in_the_saved_ram(self):
        a = self.argv()
        self.assertNotIn('-kernel', a)
        self.assertEqual(a[-3:], ['-S', '-incoming', 'defer'])

    def test_a_guest_whose_ramoops_the_host_reads_stops_at_its_reset(self):
        a = self.argv(read_ramoops='0x10000000:0xff000:0x20000')
        self.assertNotIn('-kernel', a)
        self.assertEqual(pairs(a, '-action'), ['reboot=shutdown,shutdown=pause'])

    def test_a_pstore_guest_boots_it_again_at_its_reset(self):
        a = self.argv(pstore=True)
        self.assertEqual(len(pairs(a, '-kernel')), 1)
        self.assertNotIn('-no-reboot', a)


class RestoreOrBoot(unittest.TestCase):
    def run_case(self, tmp, saved=('path', None, None), restored=(7, None), began=True,
                 **change):
        o = spec(tmp, **change)
        with mock.patch.object(snapshot, 'ensure', return_value=saved) as ensure, \
                mock.patch.object(snapshot, 'restore', return_value=restored) as restore, \
                mock.patch.object(snapshot, 'case_began', return_value=began), \
                mock.patch.object(snapshot, 'forget') as forget, \
                mock.patch.object(guest, 'boot', return_value=9) as boot:
            status = guest.run(o)
        # A saved guest that did not restore, or hung before its case,
        # is put aside.
        self.assertEqual(forget.called, restore.called and (
            restored[0] is None or (restored[0] == 124 and not began)))
        with open(o.how) as f:
            return status, f.read(), ensure.called, restore.called, boot.called

    def test_a_case_restores_where_a_saved_guest_serves(self):
        with tempfile.TemporaryDirectory() as tmp:
            status, how, ensured, restored, booted = self.run_case(tmp)
            self.assertEqual((status, ensured, restored, booted), (7, True, True, False))
            self.assertRegex(how, r'^restored \(saved guest [0-9a-f]{16}\), [0-9.]+ s\n$')

    def test_the_first_restore_says_it_saved(self):
        with tempfile.TemporaryDirectory() as tmp:
            how = self.run_case(tmp, saved=('path', None, 5.84))[1]
            self.assertRegex(how, r'^restored \(saved guest [0-9a-f]{16}, saved now in 5.8 s\), ')

    def test_a_fresh_boot_says_why(self):
        with tempfile.TemporaryDirectory() as tmp:
            status, how, ensured, _, booted = self.run_case(tmp, fresh_boot='kdump')
            self.assertEqual((status, ensured, booted), (9, False, True))
            self.assertTrue(how.startswith('booted (kdump), '))

    def test_a_failed_save_boots_and_says_why(self):
        with tempfile.TemporaryDirectory() as tmp:
            status, how, _, restored, booted = self.run_case(
                tmp, saved=(None, 'the guest was not ready within 5 s', None))
            self.assertEqual((status, restored, booted), (9, False, True))
            self.assertIn('booted (no saved guest: the guest was not ready within 5 s)', how)

    def test_a_failed_restore_boots_and_says_why(self):
        with tempfile.TemporaryDirectory() as tmp:
            status, how, _, restored, booted = self.run_case(
                tmp, restored=(None, 'restoring it failed: migration failed'))
            self.assertEqual((status, restored, booted), (9, True, True))
            self.assertRegex(how, r'^booted \(saved guest [0-9a-f]{16}: restoring it failed: '
                             r'migration failed\), ')

    def test_a_restore_that_ends_before_its_case_began_boots_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, 'c'), 'w') as f:
                f.write('traps: PANIC: double fault\n')
            status, how, _, restored, booted = self.run_case(tmp, restored=(0, None),
                                                             began=False)
            self.assertEqual((status, restored, booted), (9, True, True))
            self.assertRegex(how, r'^booted \(saved guest [0-9a-f]{16} ended before its case '
                             r'began, status 0: its console is c\.restore\), ')
            with open(os.path.join(tmp, 'c.restore')) as f:
                self.assertEqual(f.read(), 'traps: PANIC: double fault\n')
            how = self.run_case(tmp, restored=(124, None), began=False)[1]
            self.assertIn('ended before its case began, status 124, put aside:', how)

    def test_the_case_began_when_init_said_so_after_the_save(self):
        with tempfile.TemporaryDirectory() as tmp:
            o = spec(tmp)
            before = b'PC-GUEST-START - R\n'  # as if the save's own boot said it
            for after, began in ((b'', False), (b'PC-GUEST-START point_bugon R\r\n', True)):
                with open(o.out, 'wb') as f:
                    f.write(before + after)
                self.assertEqual(snapshot.case_began(o, len(before)), began)
            os.unlink(o.out)
            self.assertFalse(snapshot.case_began(o, 0))

    def test_no_directory_or_a_terminal_boots(self):
        with tempfile.TemporaryDirectory() as tmp:
            self.assertEqual(self.run_case(tmp, dir=None)[:2][0], 9)
            self.assertEqual(self.run_case(tmp, stdio=True)[0], 9)


if __name__ == '__main__':
    unittest.main()
