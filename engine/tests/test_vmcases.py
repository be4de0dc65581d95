# SPDX-License-Identifier: GPL-2.0
"""The VM runner's own cases (pcengine.vmcases), without a guest: how a
case's output is held to its patterns, and what a passing case shows."""

import os
import re
import shlex
import unittest

from pcengine import vm_args, vmcases, vmcases_host
from test_vm_args import TABLE


def vm_args_error(words):
    """The line vm_args gives WORDS on the host (None for the mistakes
    it leaves to later steps: the table of another architecture, a tty)."""
    try:
        o = vm_args.parse(words)
        vm_args.check_conflicts(o, False)
        vm_args.check_kernel(o)
        vm_args.check_points(o, TABLE, vm_args.series_arch(o.series), 'provoke-crash-vm')
    except vm_args.UsageError as e:
        return str(e)
    return None

LOG = '''# accelerator: tcg (cached: no /dev/kvm, probed 2026-12-06)
=== in the guest (6.1.0-57-cloud-amd64, tcg, 1 vCPU)
+ arm: __x64_sys_getppid null_dereference
+ run: pc-guest hit getppid 1
[    3.57] BUG: kernel NULL pointer dereference, address: 0000000000000000
[    3.57] #PF: supervisor write access in kernel mode
[    3.57] #PF: error_code(0x0002) - not-present page
[    3.58] Oops: 0002 [#1] PREEMPT SMP NOPTI
=== call trace (reliable frames)
  __do_sys_getppid
__x64_sys_getppid null_dereference hits=1 filtered=0 fired=1 missed=0 context=path
provoke-crash-vm: the kernel crashed as asked: null_dereference, hit by pc-guest[103]
'''


class Patterns(unittest.TestCase):
    def test_each_line_an_ere_and_bang_must_not_appear(self):
        self.assertEqual(vmcases.missing(LOG, '^\\+ arm: __x64_sys_getppid\nhits=1 '), '')
        self.assertEqual(vmcases.missing(LOG, 'BUG: kernel\n!Oops: 0002'),
                         'unexpected in its output: Oops: 0002')
        self.assertEqual(vmcases.missing(LOG, r'crashed as asked: bugon'),
                         'missing in its output: crashed as asked: bugon')

    def test_each_mistake_is_one_command_line_and_its_error(self):
        for args, want in vmcases_host.BAD_OPTIONS:
            with self.subTest(args):
                words = shlex.split(args)
                self.assertTrue(words[0].startswith('--'))
                self.assertNotIn('\n', args)
                # The error line the runner prints for it today.
                error = vm_args_error(words)
                if error is not None:
                    self.assertRegex('provoke-crash-vm: ' + error, re.compile(want))


class Where(unittest.TestCase):
    def test_pc_out_as_the_shell_defaults_it(self):
        cases = vmcases.Cases({'PC_STEP_KERNELS': '6.1 arm64-6.1 debug 6.12'})
        self.assertEqual(cases.out, os.path.join(vmcases.ROOT, 'build'))
        self.assertEqual(cases.env['PC_OUT'], cases.out)
        self.assertEqual(cases.result_file, os.path.join(cases.out, 'results', 'vm.result'))
        self.assertEqual(cases.debian_x86(), ['6.1', '6.12'])


class Shown(unittest.TestCase):
    def test_the_readme_case_shows_its_transcript(self):
        lines = vmcases.shown('readme_first_command', LOG)
        self.assertEqual(lines[6], '[    3.57] #PF: error_code(0x0002) - not-present page')
        self.assertEqual(lines[7:10], ['...', '=== call trace (reliable frames)',
                                       '  __do_sys_getppid'])

    def test_other_cases_show_what_proves_them(self):
        self.assertEqual(vmcases.shown('false_pass', LOG + LOG), [
            '+ arm: __x64_sys_getppid null_dereference', '+ run: pc-guest hit getppid 1',
            '__x64_sys_getppid null_dereference hits=1 filtered=0 fired=1 missed=0 '
            'context=path',
            'provoke-crash-vm: the kernel crashed as asked: null_dereference, hit by '
            'pc-guest[103]'])
        self.assertEqual(vmcases.shown('accel_cache', 'a\nb\n'), ['a', 'b'])


if __name__ == '__main__':
    unittest.main()
