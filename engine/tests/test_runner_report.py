# SPDX-License-Identifier: GPL-2.0
"""The call trace the VM runner prints after a report, on real consoles
(engine/tests/traces/README.rst): at an entry, an offset and a %return
point on 6.1, 6.12 and 7.2, the point's function and its real caller
(ksys_read for vfs_read), never a word the stack merely held."""

import os
import unittest

import fixtures
from pcengine import console, runner_report, runner_verdict

TRACES = os.path.join(fixtures.HERE, 'traces')
KERNELS = ('6.1', '6.12', '7.2')
# Below the point's function, on every kernel: __x64_sys_read tail-calls
# ksys_read, so it is not on the stack.
SYSCALL = ['  ksys_read', '  do_syscall_64', '  entry_SYSCALL_64_after_hwframe']
# The module's frames (GCC's .cold parts of them differ by kernel).
PATH = {'6.1': ['  pc_crash_run.cold [provoke_crash]', '  pc_path_attempt [provoke_crash]'],
        '6.12': ['  pc_crash_run [provoke_crash]', '  pc_path_attempt [provoke_crash]'],
        '7.2': ['  pc_crash_run.cold [provoke_crash]', '  pc_path_attempt [provoke_crash]']}
REPORT = {'6.1': ['  dump_stack_lvl', '  pc_crash_report [provoke_crash]',
                  '  pc_crash_run.cold [provoke_crash]'],
          '6.12': ['  dump_stack_lvl', '  pc_crash_report [provoke_crash]',
                   '  pc_crash_run [provoke_crash]'],
          '7.2': ['  dump_stack_lvl', '  pc_crash_report [provoke_crash]',
                  '  pc_crash_run.cold [provoke_crash]']}
ENTRY = {'6.1': ('pc_path_run_or_resume', 'pc_entry_eligible.constprop.0', '0xffffffffc031b083'),
         '6.12': ('pc_path_run_or_resume', 'pc_entry_eligible.constprop.0', '0xffffffffc0473099'),
         '7.2': ('pc_path_run_or_resume.cold', 'pc_entry_eligible.isra.0', '0xffffffffc0419095')}
# What the kernel printed for the kretprobe's frame, and the return
# address in its registers.
RETHOOK = {'6.1': 'ksys_read+0x6b/0xf0', '6.12': 'ksys_read+0x6f/0xf0',
           '7.2': 'ksys_read+0x7b/0x110'}


def section(name):
    """The call trace section the runner prints for the saved console NAME."""
    text = console.text_of(console.read_log(os.path.join(TRACES, name + '.console')))
    scan = runner_verdict.Scan(text, {'null_dereference', 'report'})
    return runner_report.trace_section(scan.lines, scan.first(), min(scan.end, len(scan.lines)))


def returned(kernel):
    return ('  ksys_read' + runner_report.RETURNED % (RETHOOK[kernel],
                                                      'trace_clock_x86_tsc+0x20/0x20'))


class SavedTraces(unittest.TestCase):
    def test_entry(self):
        for kernel in KERNELS:
            with self.subTest(kernel=kernel):
                resume, eligible, trampoline = ENTRY[kernel]
                self.assertEqual(section(kernel + '-entry-null_dereference'), [
                    runner_report.HEADER, '  <TASK>'] + PATH[kernel] + [
                    '  %s [provoke_crash]' % resume, '  %s [provoke_crash]' % eligible,
                    '  ' + trampoline + runner_report.TRAMPOLINE, '  vfs_read'] + SYSCALL)

    def test_offset(self):
        """The module's own path: its redirection out of the int3
        handler returns into the probed function."""
        for kernel in KERNELS:
            with self.subTest(kernel=kernel):
                self.assertEqual(section(kernel + '-offset-null_dereference'), [
                    runner_report.HEADER, '  <TASK>'] + PATH[kernel] + [
                    '  pc_path_run [provoke_crash]', '  pc_redirected [provoke_crash]',
                    '  vfs_read'] + SYSCALL)

    def test_offset_in_the_int3_handler(self):
        """A report in kprobes' int3 handler: the trace goes on past the
        trap's registers, from the function their RIP stopped."""
        for kernel in KERNELS:
            with self.subTest(kernel=kernel):
                self.assertEqual(section(kernel + '-offset-report'), [
                    runner_report.HEADER, '  <TASK>'] + REPORT[kernel] + [
                    '  pc_point_hit [provoke_crash]', '  aggr_pre_handler',
                    '  kprobe_int3_handler', '  exc_int3', '  asm_exc_int3',
                    '  vfs_read' + runner_report.INTERRUPTED] + SYSCALL)

    def test_return(self):
        """The module's landing: vfs_read has returned, its caller
        called the crash."""
        for kernel in KERNELS:
            with self.subTest(kernel=kernel):
                self.assertEqual(section(kernel + '-return-null_dereference'), [
                    runner_report.HEADER, '  <TASK>'] + PATH[kernel] + [
                    '  pc_path_land [provoke_crash]',
                    '  pc_return_landed_shifted [provoke_crash]'] + SYSCALL)

    def test_return_in_a_kretprobe(self):
        """A report in a kretprobe's handler: the kernel printed the
        trampoline's address (%pB: 'trace_clock_x86_tsc+0x20/0x20', the
        function before it) where ksys_read is; the summary names the
        return address from the kretprobe's registers, marked, and says
        so in its header."""
        for kernel in KERNELS:
            with self.subTest(kernel=kernel):
                got = section(kernel + '-return-report')
                self.assertEqual(got, [
                    runner_report.RETHOOK_HEADER, '  <TASK>'] + REPORT[kernel] + [
                    '  pc_point_return [provoke_crash]', '  kretprobe_rethook_handler',
                    '  rethook_trampoline_handler', '  arch_rethook_trampoline_callback',
                    '  arch_rethook_trampoline', returned(kernel)] + SYSCALL[1:])
                self.assertFalse(any(line.startswith('  trace_clock_x86_tsc') for line in got))


RETHOOK_TRACE = ['Call Trace:', ' <TASK>', ' pc_point_return+0x16e/0x270 [provoke_crash]',
                 ' kretprobe_rethook_handler+0x44/0x60', ' arch_rethook_trampoline+0x2c/0x60',
                 ' ? ksys_read+0x6b/0xf0', ' trace_clock_x86_tsc+0x20/0x20',
                 ' do_syscall_64+0x5d/0x90', ' </TASK>']


class Trace(unittest.TestCase):
    def test_trampoline_address_without_its_return_address(self):
        """No '? ' line left to read: the kernel's line stays, marked as
        no frame, and the header says so."""
        lines = RETHOOK_TRACE[:5] + RETHOOK_TRACE[6:]
        got = runner_report.trace_section(lines, 0, len(lines))
        self.assertEqual(got[0], runner_report.NOT_A_FRAME_HEADER)
        self.assertEqual(got[5:], ['  trace_clock_x86_tsc+0x20/0x20' + runner_report.NOT_RETURNED,
                                   '  do_syscall_64'])

    def test_function_end_elsewhere_is_a_frame(self):
        """A call at a function's very end (a noreturn callee) is a real
        frame: only above the kretprobe trampoline is it its address."""
        lines = RETHOOK_TRACE[:4] + RETHOOK_TRACE[5:]
        self.assertEqual(runner_report.trace(lines, 0, len(lines))[3:],
                         ['  trace_clock_x86_tsc', '  do_syscall_64'])

    def test_user_registers_end_the_trace(self):
        """Without </TASK> (5.10), the syscall's user registers end the
        task's frames: a later trace's frames are not this one's."""
        lines = ['Call Trace:', ' ksys_read+0x6b/0xf0', 'RIP: 0033:0x47b6fd',
                 'Code: 07 31 c0', 'RSP: 002b:00007ffec1077398 EFLAGS: 00000246',
                 'R13: 000000003ee050f0 R14: 0000000000000000 R15: 0000000000000000',
                 'provoke_crash: vfs_read: report: log who hit the point',
                 ' dump_stack_lvl+0x44/0x5c']
        self.assertEqual(runner_report.trace(lines, 0, len(lines)), ['  ksys_read'])

    def test_arm64_code_line_ends_the_trace(self):
        lines = ['Call trace:', ' pc_crash_bugon+0x8/0x10 [provoke_crash]',
                 ' el0t_64_sync+0x18c/0x190', 'Code: d503233f (d4210000)', ' x+0x1/0x2']
        self.assertEqual(runner_report.trace(lines, 0, len(lines)),
                         ['  pc_crash_bugon [provoke_crash]', '  el0t_64_sync'])


if __name__ == '__main__':
    unittest.main()
