# SPDX-License-Identifier: GPL-2.0
"""The VM runner's check of the points' names against the guest kernel's
System.map (pcengine.vm_symbols): each missing name is one line and
status 2, with what the user may have meant, before anything is built;
with no map (Debian's stub) the guest checks them."""

import contextlib
import io
import os
import tempfile
import types
import unittest

from pcengine import cases, vm_args, vm_symbols
from pcengine.vm_args import UsageError

REL = '6.1.0-57-cloud-amd64'
ARM64_REL = '6.1.0-57-arm64'
# A few lines of an x86-64 System.map, as mksysmap writes it.
X86_MAP = '''\
ffffffff81000000 T _stext
ffffffff81001c00 t page_to_section.isra.0
ffffffff81001c40 t page_to_section.cold
ffffffff81023950 t intel_pmu_check_event_constraints.part.0
ffffffff81058ac0 t uncore_box_ref.constprop.0.isra.0
ffffffff810d8e20 W mach_reboot_fixups
ffffffff8117a310 t __do_sys_getppid
ffffffff8117a310 T __x64_sys_getppid
ffffffff8117a330 T __ia32_sys_getppid
ffffffff8117a350 T __x64_sys_getpid
ffffffff8117a370 T __x64_sys_getpgid
ffffffff811c2f40 T vfs_read
ffffffff811c3120 T vfs_readv
ffffffff811c3480 T ksys_read
ffffffff811c3600 T vfs_write
ffffffff82200000 T _etext
ffffffff82c05000 D jiffies
ffffffff83a10000 B __bss_stop
'''
ARM64_MAP = '''\
ffff800008010000 T _stext
ffff8000080a1230 T __arm64_sys_getppid
ffff8000080a1290 T __arm64_sys_getpgid
ffff8000082b4e10 T vfs_read
'''
STUB = 'ffffffffffffffff B The real System.map is in the linux-image-<version>-dbg package\n'


def release(root, rel=REL, arch='amd64', config=frozenset()):
    """What vm_symbols reads of a vm_build.Release."""
    return types.SimpleNamespace(root=root, rel=rel, arch=arch,
                                 kernel=cases.Kernel(rel, arch, config, '', False))


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'w') as f:
        f.write(text)


class Check(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name
        write(os.path.join(self.root, 'boot', 'System.map-' + REL), X86_MAP)
        write(os.path.join(self.root, 'boot', 'System.map-' + ARM64_REL), ARM64_MAP)

    def tearDown(self):
        self.tmp.cleanup()

    def error(self, *arms, r=None):
        """The line of the first name not there, or None; and what was
        logged."""
        o = vm_args.parse([w for a in arms for w in ('--arm', a)])
        said = io.StringIO()
        try:
            with contextlib.redirect_stderr(said):
                vm_symbols.check(o, r or release(self.root))
        except UsageError as e:
            self.assertEqual(e.status, 2)
            return str(e), said.getvalue()
        return None, said.getvalue()

    def line(self, *arms, r=None):
        return self.error(*arms, r=r)[0]

    def test_a_typo_is_refused_with_the_names_meant(self):
        self.assertEqual(self.line('vfs_reed null_dereference'),
                         "--arm 'vfs_reed null_dereference': no function 'vfs_reed' in "
                         "6.1.0-57-cloud-amd64's System.map (did you mean: vfs_read vfs_readv?)")
        self.assertEqual(self.line('zzzzzz bugon'),
                         "--arm 'zzzzzz bugon': no function 'zzzzzz' in 6.1.0-57-cloud-amd64's "
                         'System.map')

    def test_the_names_there_pass_at_any_place(self):
        self.assertEqual(self.error('vfs_read bugon', 'vfs_read+4 report', 'ksys_read%return bugon',
                                    'mach_reboot_fixups report', 'vfs_write report caller=ksys_read '
                                    'caller!=vfs_readv'), (None, ''))

    def test_a_system_call_spelled_for_one_arch_points_at_sys(self):
        self.assertEqual(self.line('sys_getppid null_dereference'),
                         "--arm 'sys_getppid null_dereference': no function 'sys_getppid' in "
                         "6.1.0-57-cloud-amd64's System.map: the system call's entry is "
                         '__x64_sys_getppid there; write @sys@getppid')
        self.assertRegex(self.line('__arm64_sys_getppid bugon'),
                         r"no function '__arm64_sys_getppid' .*entry is __x64_sys_getppid there; "
                         r'write @sys@getppid$')
        self.assertRegex(self.line('getppid bugon'), 'write @sys@getppid$')
        self.assertRegex(self.line('__x64_sys_getppid bugon', r=release(self.root, ARM64_REL,
                                                                         'arm64')),
                         "no function '__x64_sys_getppid' in 6.1.0-57-arm64's System.map: the "
                         "system call's entry is __arm64_sys_getppid there; write @sys@getppid$")
        self.assertRegex(self.line('sys_getppidd bugon'),
                         r'System.map \(did you mean: @sys@getppid @sys@getpid @sys@getpgid\?\)$')

    def test_sys_is_the_arch_entry(self):
        self.assertIsNone(self.line('@sys@getppid null_dereference'))
        self.assertIsNone(self.line('@sys@getppid bugon', '@sys@getpgrp report',
                                    r=release(self.root, ARM64_REL, 'arm64')))
        self.assertEqual(self.line('@sys@getppidd bugon'),
                         "--arm '@sys@getppidd bugon': no function '__x64_sys_getppidd' "
                         "(@sys@getppidd) in 6.1.0-57-cloud-amd64's System.map (did you mean: "
                         '@sys@getppid @sys@getpid @sys@getpgid?)')
        self.assertEqual(self.line('@sys@getpid bugon', r=release(self.root, ARM64_REL, 'arm64')),
                         "--arm '@sys@getpid bugon': no function '__arm64_sys_getpid' "
                         "(@sys@getpid) in 6.1.0-57-arm64's System.map (did you mean: "
                         '@sys@getppid @sys@getpgid?)')

    def test_a_renamed_function_names_its_copies(self):
        self.assertEqual(self.line('page_to_section bugon'),
                         "--arm 'page_to_section bugon': no function 'page_to_section' in "
                         "6.1.0-57-cloud-amd64's System.map, only the compiler's copies of it: "
                         'page_to_section.isra.0 (name one: kallsyms matches whole names)')
        self.assertRegex(self.line('uncore_box_ref report'),
                         "copies of it: uncore_box_ref.constprop.0.isra.0 ")
        self.assertIsNone(self.line('page_to_section.isra.0 bugon'))

    def test_under_clang_lto_a_plain_name_is_the_guests_to_judge(self):
        lto = release(self.root, config=frozenset(['CONFIG_LTO_CLANG']))
        self.assertIsNone(self.line('page_to_section bugon', r=lto))
        self.assertRegex(self.line('vfs_reed bugon', r=lto), r'did you mean: vfs_read')

    def test_callers_are_checked_and_modules_left_to_the_guest(self):
        self.assertEqual(self.line('vfs_read bugon caller=ksys_reed'),
                         "--arm 'vfs_read bugon caller=ksys_reed': caller=ksys_reed: no function "
                         "'ksys_reed' in 6.1.0-57-cloud-amd64's System.map (did you mean: "
                         'ksys_read?)')
        self.assertRegex(self.line('vfs_read report', 'vfs_write report caller!=@sys@getppidd'),
                         r"^--arm 'vfs_write report caller!=@sys@getppidd': caller!=@sys@getppidd:"
                         r" no function '__x64_sys_getppidd'")
        self.assertIsNone(self.line('ext4:ext4_file_read_iter bugon caller=ext4:nosuch'))

    def test_data_is_no_place(self):
        self.assertEqual(self.line('jiffies bugon'),
                         "--arm 'jiffies bugon': no function 'jiffies' in 6.1.0-57-cloud-amd64's "
                         "System.map ('jiffies' is there, but not as text: type D)")

    def test_the_first_missing_name_is_the_one_said(self):
        self.assertRegex(self.line('vfs_read bugon', 'vfs_wrote bugon', 'vfs_reed bugon'),
                         "^--arm 'vfs_wrote bugon': no function 'vfs_wrote'")

    def test_without_a_map_the_guest_checks_them(self):
        write(os.path.join(self.root, 'boot', 'System.map-' + REL), STUB)
        self.assertEqual(self.error('vfs_reed bugon'),
                         (None, '# symbols: no System.map for 6.1.0-57-cloud-amd64 (Debian\'s is '
                          'in linux-image-6.1.0-57-cloud-amd64-dbg): the guest checks them\n'))
        self.assertEqual(self.error('vfs_reed bugon', r=release(self.root, '6.12.9-mine')),
                         (None, '# symbols: no System.map for 6.12.9-mine: the guest checks '
                          'them\n'))
        # Nothing to check (a module's names), nothing read or said.
        self.assertEqual(self.error('ext4:nosuch bugon', r=release(self.root, '6.12.9-mine')),
                         (None, ''))

    def test_the_real_map_behind_debians_stub(self):
        """Debian's -dbg package's map, and a built tree's (a kernel of
        files: its root's headers link is the tree)."""
        write(os.path.join(self.root, 'boot', 'System.map-' + REL), STUB)
        write(os.path.join(self.root, 'usr/lib/debug/boot', 'System.map-' + REL), X86_MAP)
        self.assertRegex(self.line('vfs_reed bugon'), r'did you mean: vfs_read vfs_readv\?\)$')
        tree = os.path.join(self.root, 'usr/src/linux-headers-6.12.9-mine')
        write(os.path.join(tree, 'System.map'), X86_MAP)
        self.assertRegex(self.line('vfs_reed bugon', r=release(self.root, '6.12.9-mine')),
                         r"in 6.12.9-mine's System.map \(did you mean: vfs_read vfs_readv\?\)$")

    def test_a_whole_distribution_map(self):
        """A distribution kernel's map: 150,000 lines, 80,000 of them
        text.  How long it takes is a figure (0.3 s here), not a check:
        a test does not time."""
        lines = ['ffffffff8%07x %s fn_%d_%s\n' % (i, 'tTDr'[i % 4] if i % 7 else 'T', i,
                                                 'abcdefgh'[i % 8] * (i % 9)) for i in range(150000)]
        write(os.path.join(self.root, 'boot', 'System.map-' + REL), ''.join(lines) + X86_MAP)
        line = self.line('vfs_read report', 'vfs_reed bugon caller=ksys_read')
        self.assertRegex(line, r'did you mean: vfs_read vfs_readv\?\)$')


if __name__ == '__main__':
    unittest.main()
