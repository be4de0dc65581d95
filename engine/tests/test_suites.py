# SPDX-License-Identifier: GPL-2.0
"""Another suite's kernels: the chroot's command and the root of links."""

import os
import subprocess
import tempfile
import unittest

from pcengine import kernelfiles, suites


class InChroot(unittest.TestCase):
    def test_binds_at_the_same_path(self):
        argv = suites.in_chroot('/c', ['make', '-C', '/usr/src/h', 'M=/out/x'], ['/out', '/a b'])
        self.assertEqual(argv[:5], ['unshare', '--mount', '--', 'sh', '-c'])
        self.assertEqual(argv[6:], ['in-chroot', '/c', '2', '/out', '/a b',
                                    'make', '-C', '/usr/src/h', 'M=/out/x'])

    def test_the_script_binds_each_and_runs_the_rest(self):
        """The script itself, with echo for mount, mkdir and chroot."""
        argv = suites.in_chroot('/c', ['make', 'M=/o'], ['/o', '/a b'])
        script = argv[5].replace('mount ', 'echo mount ').replace('mkdir ', 'echo mkdir ')
        script = script.replace('exec chroot', 'echo chroot')
        out = subprocess.run(['sh', '-c', script] + argv[6:], stdout=subprocess.PIPE,
                             universal_newlines=True, check=True).stdout
        self.assertEqual(out.splitlines(), [
            'mount -t proc proc /c/proc', 'mkdir -p /c/o', 'mount --bind /o /c/o',
            'mkdir -p /c/a b', 'mount --bind /a b /c/a b', 'chroot /c make M=/o'])


class Series(unittest.TestCase):
    def test_each_series_names_a_known_suite(self):
        for name, s in suites.SERIES.items():
            self.assertIn(s.suite, suites.SUITES, name)
            self.assertTrue(name.replace('arm64-', '').startswith(s.version), name)
        self.assertEqual(suites.arch_of('arm64-7.2'), 'arm64')
        self.assertEqual(suites.arch_of('7.2-rt'), 'amd64')


class LinkRoot(unittest.TestCase):
    def lay(self, files, rel, split):
        """An unpacked kernel as sid (split) or bullseye lays it out."""
        mods = os.path.join(files, 'usr/lib/modules' if split else 'lib/modules', rel)
        os.makedirs(os.path.join(mods, 'kernel'))
        boot = mods if split else os.path.join(files, 'boot')
        os.makedirs(boot, exist_ok=True)
        for name in (('vmlinuz', 'config') if split else ('vmlinuz-' + rel, 'config-' + rel)):
            open(os.path.join(boot, name), 'w').close()
        bindir = os.path.join(files, 'usr/bin' if split else 'bin')
        os.makedirs(bindir)
        open(os.path.join(bindir, 'busybox'), 'w').close()

    def check(self, rel, split):
        with tempfile.TemporaryDirectory() as d:
            files, roots, croot = (os.path.join(d, x) for x in ('files', 'roots', 'croot'))
            self.lay(files, rel, split)
            suites.link_root(roots, rel, croot, files)
            root = os.path.join(roots, rel)
            self.assertEqual(suites.build_root(root), croot)
            self.assertTrue(os.path.isfile(os.path.join(root, 'boot/vmlinuz-' + rel)))
            self.assertTrue(os.path.isfile(os.path.join(root, 'boot/config-' + rel)))
            self.assertTrue(os.path.isdir(os.path.join(root, 'lib/modules', rel, 'kernel')))
            self.assertEqual(os.readlink(os.path.join(root, 'usr/src/linux-headers-' + rel)),
                             os.path.join(croot, 'usr/src/linux-headers-' + rel))
            return os.readlink(os.path.join(root, 'bin/busybox'))

    def test_sid_layout_arm64(self):
        self.assertTrue(self.check('7.2.13+deb14-arm64', True).endswith('files/usr/bin/busybox'))

    def test_bullseye_layout_amd64(self):
        self.assertEqual(self.check('5.10.0-32-cloud-amd64', False), '/bin/busybox')

    def test_no_chroot_for_the_host(self):
        self.assertIsNone(suites.build_root('/nonexistent'))


class CompilerMissing(unittest.TestCase):
    SID = ('CONFIG_CC_VERSION_TEXT="x86_64-linux-gnu-gcc-16 (Debian 16.2.0-4) 16.2.0"\n'
           'CONFIG_GCC_VERSION=160200\n')

    def missing(self, config, have=()):
        return kernelfiles.compiler_missing(config, gcc_major=lambda: 12,
                                            which=lambda name: name in have)

    def test_a_kernel_of_another_gcc_names_it(self):
        why = self.missing(self.SID)
        self.assertIn('built with x86_64-linux-gnu-gcc-16 (Debian 16.2.0-4) 16.2.0', why)
        self.assertIn("the host's gcc is 12 and it has no gcc-16", why)
        self.assertIsNone(self.missing(self.SID, have=('gcc-16',)))

    def test_the_hosts_own_gcc_is_enough(self):
        self.assertIsNone(self.missing('CONFIG_GCC_VERSION=120200\n'))

    def test_clang_needs_its_version_and_lld(self):
        config = 'CONFIG_CC_VERSION_TEXT="Debian clang version 19.1.7"\nCONFIG_CLANG_VERSION=190107\n'
        self.assertIn('no clang-19 (apt-get install clang-19 lld-19)', self.missing(config))
        self.assertIsNone(self.missing(config, have=('clang-19', 'ld.lld-19')))


if __name__ == '__main__':
    unittest.main()
