# SPDX-License-Identifier: GPL-2.0
"""ramoops' records read from a guest's memory (pcengine.ramoops): two
real images, saved by QMP pmemsave from guests that crashed (6.1, an oops
in a child: a compressed record; 6.12, a panic), and the layout's edge
cases on made-up zones; and the QMP wait for the guest's stop."""

import argparse
import gzip
import json
import os
import struct
import subprocess
import tempfile
import unittest
import zlib

from pcengine import qemu, qmp, ramoops
import fixtures
from test_qmp import Proc, ok, serve

IMAGES = os.path.join(fixtures.HERE, 'ramoops')


def image(name):
    with gzip.open(os.path.join(IMAGES, name)) as f:
        return f.read()


def zone(text, start=None):
    """One zone's bytes: header and TEXT, a ring that starts at START."""
    size = ramoops.zones(0xff000)[1]
    data = bytearray(size - ramoops.HEADER.size)
    start = len(text) if start is None else start
    # The ring holds TEXT from START on, wrapped.
    cut = len(text) - start
    data[start:len(text)] = text[:cut]
    data[:start] = text[cut:]
    return ramoops.HEADER.pack(ramoops.SIG, start, len(text)) + bytes(data)


def region(*zones):
    offsets, size = ramoops.zones(0xff000)
    out = bytearray(0xff000)
    for at, z in zip(offsets, zones):
        out[at:at + size] = z.ljust(size, b'\0')
    return bytes(out)


class Records(unittest.TestCase):
    def test_the_layout_is_ramoops_own(self):
        # 0xff000 less 3 pages for console, ftrace and pmsg: 7 records
        # of 0x20000 fit; each zone gets an even seventh.
        offsets, size = ramoops.zones(0xff000)
        self.assertEqual(size, 0x24000)
        self.assertEqual(offsets, [n * 0x24000 for n in range(7)])

    def test_an_oops_on_6_1(self):
        found = ramoops.records(image('6.1-oops.bin.gz'))
        self.assertEqual([n for n, _ in found], ['dmesg-ramoops-0'])
        text = found[0][1].decode()
        self.assertTrue(text.startswith('Oops#1 Part1\n'))
        self.assertIn('provoke_crash: __x64_sys_getppid: null_dereference', text)
        self.assertIn('BUG: kernel NULL pointer dereference', text)

    def test_a_panic_on_6_12(self):
        found = ramoops.records(image('6.12-panic.bin.gz'))
        self.assertEqual([n for n, _ in found], ['dmesg-ramoops-0'])
        text = found[0][1].decode()
        self.assertTrue(text.startswith('Panic#1 Part1\n'))
        self.assertIn('Kernel panic - not syncing: provoke-crash: panic requested', text)

    def test_plain_wrapped_and_empty_zones(self):
        body = b'Oops#1 Part1\n<4>[    1.000000] one\n'
        packed = zlib.compressobj(wbits=-15)
        deflated = packed.compress(b'Panic#1 Part1\nx\n') + packed.flush()
        found = ramoops.records(region(
            zone(b'====1.000002-D\n' + body, start=7),
            zone(b''),
            zone(b'====2.000003-C\n' + deflated),
            b'\0' * 16))
        self.assertEqual(found, [('dmesg-ramoops-0', body),
                                 ('dmesg-ramoops-2', b'Panic#1 Part1\nx\n')])

    def test_a_bad_ring_or_deflate_is_said_not_raised(self):
        bad = bytearray(zone(b'====1.0-C\nnot deflate'))
        found = ramoops.records(region(bytes(bad)))
        self.assertIn(b'does not inflate', found[0][1])
        bad[4:8] = struct.pack('<i', 1 << 30)  # start past the zone
        self.assertEqual(ramoops.records(region(bytes(bad))), [])

    def test_marked_as_a_second_boot_prints_them(self):
        self.assertEqual(ramoops.marked([('dmesg-ramoops-0', b'a\nb')]),
                         b'PC-PSTORE-BEGIN dmesg-ramoops-0\na\nb\nPC-PSTORE-END\n'
                         b'PC-PSTORE-DONE\n')


class Stop(unittest.TestCase):
    def test_a_paused_guest_stops_at_its_reset(self):
        a = qemu.argv('amd64', 'tcg', 1, 'K', 'I', '', 'C', 'O', pause=True)
        self.assertIn('reboot=shutdown,shutdown=pause', a)
        self.assertNotIn('-no-reboot', a)

    def test_the_stop_is_waited_for_as_an_event(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, 'qmp')
            events = ''.join(json.dumps({'event': e}) + '\n' for e in ('STOP', 'SHUTDOWN'))
            _, t = serve(path, [ok() + events, ok()])
            mon = qmp.QMP(path, Proc())
            deadline = qmp.time.monotonic() + 5
            self.assertEqual(mon.wait_event(('SHUTDOWN',), deadline), {'event': 'SHUTDOWN'})
            self.assertIsNone(mon.wait_event(('SHUTDOWN',), qmp.time.monotonic() + 0.1))
            mon.close()
            t.join(5)


class FakeQEMU:
    """What ramoops.wait asks of QEMU: a QMP monitor that announces the
    guest's stop (after STOP_AFTER seconds), answers pmemsave by
    writing IMAGE (or an error), and quits; and the process."""

    def __init__(self, path, image, stop_after=0.0, pmemsave_error=None):
        self.returncode = None

        def answer(cmd, f):
            name = cmd['execute']
            if name == 'qmp_capabilities':
                f.write(ok())
                f.flush()
                qmp.time.sleep(stop_after)
                f.write(json.dumps({'event': 'SHUTDOWN'}) + '\n')
            elif name == 'pmemsave' and pmemsave_error:
                f.write(json.dumps({'error': {'desc': pmemsave_error}}) + '\n')
            elif name == 'pmemsave':
                with open(cmd['arguments']['filename'], 'wb') as out:
                    out.write(image[:cmd['arguments']['size']])
                f.write(ok())
            elif name == 'quit':
                f.write(ok())
                f.flush()
                self.returncode = 0
                return False
            return True

        self.sent, self.thread = serve(path, answer)

    @property
    def got(self):
        """The names of the commands the client sent, in order."""
        return [cmd['execute'] for cmd in self.sent]

    def poll(self):
        return self.returncode

    def wait(self, timeout=None):
        if self.returncode is None:
            self.thread.join(timeout)
        if self.returncode is None:
            raise subprocess.TimeoutExpired('qemu', timeout)
        return self.returncode

    def kill(self):
        self.returncode = -9


class Wait(unittest.TestCase):
    def run_wait(self, deadline, **fake):
        with tempfile.TemporaryDirectory() as tmp:
            path, out = os.path.join(tmp, 'qmp'), os.path.join(tmp, 'out')
            with open(out, 'wb') as f:
                f.write(b'PC-RUN-END 0\n')
            proc = FakeQEMU(path, image('6.1-oops.bin.gz'), **fake)
            mon = qmp.QMP(path, proc)
            o = argparse.Namespace(read_ramoops='0x1f000000:0xff000:0x20000', out=out)
            status = ramoops.wait(o, proc, mon, deadline)
            with open(out, 'rb') as f:
                return status, f.read(), proc.got

    def test_the_stopped_guest_is_read_and_quits_with_no_time_limit(self):
        status, out, got = self.run_wait(None)
        self.assertEqual(status, 0)
        self.assertEqual(got, ['qmp_capabilities', 'pmemsave', 'quit'])
        self.assertTrue(out.startswith(b'PC-RUN-END 0\nPC-PSTORE-RAM 0x1f000000 0xff000\n'
                                       b'PC-PSTORE-BEGIN dmesg-ramoops-0\nOops#1 Part1\n'))
        self.assertTrue(out.endswith(b'PC-PSTORE-END\nPC-PSTORE-DONE\n'))

    def test_a_guest_that_never_stops_times_out(self):
        status, out, got = self.run_wait(qmp.time.monotonic() + 0.2, stop_after=5)
        self.assertEqual((status, out, got), (124, b'PC-RUN-END 0\n', ['qmp_capabilities']))

    def test_a_failed_read_kills_the_paused_qemu(self):
        status, out, got = self.run_wait(None, pmemsave_error='no such address')
        self.assertEqual((status, out, got), (-9, b'PC-RUN-END 0\n',
                                              ['qmp_capabilities', 'pmemsave']))


if __name__ == '__main__':
    unittest.main()
