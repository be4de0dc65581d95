# SPDX-License-Identifier: GPL-2.0
"""The console parser on saved consoles."""

import shutil
import subprocess
import unittest

import fixtures
from pcengine import casefile, console, protocol


class Records(unittest.TestCase):
    def test_markers_of_a_pstore_boot(self):
        out = fixtures.read(fixtures.path('pass_bugon_pstore', 'out'))
        names = [r.name for r in console.markers(out)]
        self.assertEqual(names, ['PC-GUEST-START', 'PC-GUEST-END', 'PC-PSTORE-BEGIN',
                                 'PC-PSTORE-END', 'PC-PSTORE-DONE'])
        start = console.markers(out, 'PC-GUEST-START')[0]
        self.assertEqual(start.args.split()[0], 'direct_bugon')

    def test_pstore_record_holds_the_oops(self):
        out = fixtures.read(fixtures.path('pass_bugon_pstore', 'out'))
        records = console.pstore_records(out)
        self.assertEqual(list(records), ['dmesg-ramoops-0'])
        self.assertTrue(any('kernel BUG at' in line for line in records['dmesg-ramoops-0']))

    def test_kernel_lines(self):
        recs = console.parse(fixtures.read(fixtures.path('pass_bugon_pstore', 'console')))
        bug = [r for r in recs if r.kind == 'kernel' and r.message.startswith('kernel BUG at')]
        self.assertEqual(len(bug), 1)
        self.assertGreater(bug[0].stamp, 0)

    def test_kdump_capture(self):
        out = fixtures.read(fixtures.path('pass_kdump', 'out'))
        log = console.kdump_log(out)
        self.assertIsNotNone(log)
        self.assertTrue(any('BUG: kernel NULL pointer dereference' in line for line in log))
        dump = console.markers(out, 'PC-KDUMP-DUMP')[0]
        self.assertRegex(dump.args, r'^[1-9][0-9]* bytes$')

    def test_part_marker_on_the_console(self):
        recs = console.parse(fixtures.read(fixtures.path('batch_matrix', 'console')))
        parts = [r.args for r in recs if r.kind == 'marker' and r.name == 'PC-PART']
        batch = fixtures.text(fixtures.path('batch_matrix', 'batch.sh'))
        self.assertEqual(parts, casefile.values(batch, 'part'))
        self.assertTrue(all(r.stamp is not None for r in recs if r.name == 'PC-PART'))

    def test_every_marker_on_the_saved_consoles_is_defined(self):
        seen = set()
        for name in fixtures.names():
            for log in ('console', 'out'):
                data = fixtures.read(fixtures.path(name, log))
                for line in console.lines_of(console.text_of(data)):
                    msg = console.strip_kernel_prefix(line)
                    if msg.startswith('PC-'):
                        self.assertIsNotNone(protocol.parse_line(msg), line)
                        seen.add(protocol.parse_line(msg)[0])
        self.assertLessEqual({'PC-GUEST-START', 'PC-GUEST-END', 'PC-PSTORE-BEGIN', 'PC-SKIP',
                              'PC-KDUMP-DMESG-BEGIN', 'PC-PART'}, seen)

    def test_undefined_word_is_not_a_marker(self):
        self.assertIsNone(console.parse_record('PC-NOT-A-MARKER x').name)


class Parts(unittest.TestCase):
    def test_parts_as_tests_run_cuts_them(self):
        if not shutil.which('awk'):
            self.skipTest('no awk')
        batch = fixtures.text(fixtures.path('batch_matrix', 'batch.sh'))
        for log in ('console', 'out'):
            data = fixtures.read(fixtures.path('batch_matrix', log))
            for part in casefile.values(batch, 'part'):
                with self.subTest(log=log, part=part):
                    # The awk that cut a batch's logs before casestep.
                    awk = subprocess.run(
                        ['awk', '-v', 'p=PC-PART ' + part,
                         'index($0, "PC-PART ") { on = (substr($0, length($0) - length(p) + 1)'
                         ' == p); next } on'],
                        input=data.replace(b'\r', b''), stdout=subprocess.PIPE, check=True)
                    got = console.part_of(data, part)
                    self.assertTrue(got)
                    self.assertEqual(got, awk.stdout.decode('utf-8', 'surrogateescape'))


class HitContext(unittest.TestCase):
    # As 6.1 printed them (vm/credit_interrupt), and a stall's order.
    LINES = [
        'provoke_crash: update_process_times: bugon: BUG(): a BUG oops',
        'provoke_crash: update_process_times: in hardirq context, over init[103] on CPU 0',
        'invalid opcode: 0000 [#1] PREEMPT SMP NOPTI',
        'provoke_crash: process_one_work: in the kernel thread kworker/0:1[12] on CPU 0',
        'provoke_crash: process_one_work: softlockup: spinning 1000 ms',
        'provoke_crash: @sys@getppid: null_dereference: store through a NULL pointer',
        'CPU: 0 PID: 103 Comm: pc-guest',
    ]

    def test_interrupt_names_the_task_it_came_over(self):
        self.assertEqual(console.hit_context(self.LINES, 0, 'update_process_times'),
                         ('hardirq', 'init', '103'))

    def test_stall_line_comes_before_its_hit(self):
        self.assertEqual(console.hit_context(self.LINES, 4, 'process_one_work', stall=True),
                         ('kernel thread', 'kworker/0:1', '12'))

    def test_task_call_has_no_context(self):
        self.assertIsNone(console.hit_context(self.LINES, 5, '@sys@getppid'))

    def test_a_neighbours_line_is_not_the_hits(self):
        # A task's own hit after an interrupt's: the line before is the
        # other hit's.  A stall in a task, then the next stall's line.
        lines = ['provoke_crash: f: report: r',
                 'provoke_crash: f: in softirq context, over a[1] on CPU 0',
                 'provoke_crash: f: report: r']
        self.assertEqual(console.hit_context(lines, 0, 'f')[0], 'softirq')
        self.assertIsNone(console.hit_context(lines, 2, 'f'))
        stalls = ['provoke_crash: f: delay: 10 ms',
                  'provoke_crash: f: in hardirq context, over a[1] on CPU 0',
                  'provoke_crash: f: delay: 10 ms']
        self.assertIsNone(console.hit_context(stalls, 0, 'f', stall=True))
        self.assertEqual(console.hit_context(stalls, 2, 'f', stall=True)[0], 'hardirq')
