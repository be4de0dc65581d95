# SPDX-License-Identifier: GPL-2.0
"""Another suite's kernels: the chroot's command and the root of links."""

import os
import tempfile
import unittest

from pcengine import suites


class InChroot(unittest.TestCase):
    def test_binds_at_the_same_path(self):
        argv = suites.in_chroot('/c', ['make', '-C', '/usr/src/h', 'M=/out/x'], ['/out'])
        self.assertEqual(argv[:5], ['unshare', '--mount', '--', 'sh', '-c'])
        script = argv[5]
        self.assertIn('mount -t proc proc "$0/proc"', script)
        self.assertIn('mkdir -p "$0/out" && mount --bind "/out" "$0/out"', script)
        self.assertTrue(script.endswith('exec chroot "$0" "$@"'))
        self.assertEqual(argv[6:], ['/c', 'make', '-C', '/usr/src/h', 'M=/out/x'])


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
        os.makedirs(os.path.join(files, 'bin'))
        open(os.path.join(files, 'bin/busybox'), 'w').close()

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
        self.assertTrue(self.check('7.2.13+deb14-arm64', True).endswith('files/bin/busybox'))

    def test_bullseye_layout_amd64(self):
        self.assertEqual(self.check('5.10.0-32-cloud-amd64', False), '/bin/busybox')

    def test_no_chroot_for_the_host(self):
        self.assertIsNone(suites.build_root('/nonexistent'))


if __name__ == '__main__':
    unittest.main()
