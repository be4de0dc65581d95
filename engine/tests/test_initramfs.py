# SPDX-License-Identifier: GPL-2.0
"""The guest's root (pcengine.initramfs) and the builds for a release
(pcengine.build), on made files: which kernel modules a guest gets,
why ramoops is missing, what the archive holds, and a build's warnings;
no kernel is built and no guest boots."""

import contextlib
import io
import lzma
import os
import stat
import subprocess
import tempfile
import unittest

from pcengine import SetupError, build, initramfs, kernels

REL = '6.12.0-mine'


class Fixture(unittest.TestCase):
    """A kernel of files' root under PC_OUT/kernels, with a config."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.host = kernels.Host({'PC_OUT': self.dir.name})
        self.root = os.path.join(self.dir.name, 'kernels', REL)
        self.mods = os.path.join(self.root, 'lib/modules', REL, 'kernel')
        os.makedirs(os.path.join(self.root, 'boot'))

    def tearDown(self):
        self.dir.cleanup()

    def config(self, text):
        with open(os.path.join(self.root, 'boot', 'config-' + REL), 'w') as f:
            f.write(text)

    def module(self, path, data=b'\x7fELF', xz=False):
        f = os.path.join(self.mods, path + ('.ko.xz' if xz else '.ko'))
        os.makedirs(os.path.dirname(f), exist_ok=True)
        with (lzma.open(f, 'wb') if xz else open(f, 'wb')) as out:
            out.write(data)


class Modules(Fixture):
    def test_ramoops_built_in_as_a_module_or_missing(self):
        self.config('CONFIG_PSTORE_RAM=y\n')
        self.assertIsNone(initramfs.ramoops_absent(self.host, REL))
        self.config('CONFIG_PSTORE=y\n')
        self.assertEqual(initramfs.ramoops_absent(self.host, REL),
                         '%s has no CONFIG_PSTORE_RAM' % REL)
        self.config('CONFIG_PSTORE_RAM=m\nCONFIG_REED_SOLOMON=m\n')
        self.assertEqual(initramfs.ramoops_absent(self.host, REL),
                         'no ramoops.ko for %s (looked in %s/fs/pstore)' % (REL, self.mods))
        self.module('fs/pstore/ramoops')
        self.assertIn('no reed_solomon.ko', initramfs.ramoops_absent(self.host, REL))
        self.module('lib/reed_solomon/reed_solomon', xz=True)
        self.assertIsNone(initramfs.ramoops_absent(self.host, REL))

    def test_copied_uncompressed_and_only_those_there(self):
        self.module('fs/pstore/ramoops', b'ramoops', xz=True)
        dest = os.path.join(self.dir.name, 'dest')
        os.makedirs(dest)
        initramfs.copy_modules(self.host, REL, dest, initramfs.RAMOOPS_MODULES)
        self.assertEqual(os.listdir(dest), ['ramoops.ko'])
        with open(os.path.join(dest, 'ramoops.ko'), 'rb') as f:
            self.assertEqual(f.read(), b'ramoops')


class Pack(Fixture):
    def test_the_archive_holds_the_guest_s_root(self):
        d = os.path.join(self.dir.name, REL)
        for path in ('src/module/provoke_crash.ko', 'pc-guest', 'provoke-crash'):
            os.makedirs(os.path.dirname(os.path.join(d, path)), exist_ok=True)
            open(os.path.join(d, path), 'w').close()
        os.makedirs(os.path.join(self.root, 'bin'))
        open(os.path.join(self.root, 'bin', 'busybox'), 'w').close()
        self.module('fs/pstore/ramoops')
        # The payload disk's driver and bus (virtio built in, here).
        self.module('drivers/virtio/virtio_pci')
        self.module('drivers/block/virtio_blk', xz=True)
        cases = os.path.join(self.dir.name, 'cases')
        os.makedirs(cases)
        open(os.path.join(cases, 'point_bugon.sh'), 'w').close()
        open(os.path.join(cases, 'types.tsv'), 'w').close()
        # strip, as the cross prefix names it: a copy here.
        fake = os.path.join(self.dir.name, 'fake-')
        with open(fake + 'strip', 'w') as f:
            f.write('#!/bin/sh\ncp "$4" "$3"\n')
        os.chmod(fake + 'strip', stat.S_IRWXU)
        self.host.cross_prefix = lambda rel: fake
        initramfs.pack(self.host, REL, cases)
        with open(os.path.join(d, 'initramfs.cpio'), 'rb') as archive:
            listed = subprocess.run(['cpio', '-it', '--quiet'], stdin=archive,
                                    stdout=subprocess.PIPE, universal_newlines=True,
                                    check=True).stdout.split()
        for name in ('init', 'bin/busybox', 'bin/pc-guest', 'bin/provoke-crash',
                     'provoke_crash.ko', 'ramoops.ko', 'bad_input.tsv', 'pc-protocol.sh',
                     'cases/point_bugon.sh', 'disk/virtio_pci.ko', 'disk/virtio_blk.ko'):
            self.assertIn(name, listed)
        self.assertNotIn('cases/types.tsv', listed)
        # Not beside /init: /virtio*.ko there says the output is a
        # virtio port (arm64).
        self.assertEqual([n for n in listed if n.startswith('virtio')], [])
        self.assertNotIn('disk/virtio.ko', listed)
        self.assertNotIn('provoke_crash_twin.ko', listed)
        self.assertTrue(os.access(os.path.join(d, 'initramfs', 'init'), os.X_OK))
        with open(os.path.join(d, 'initramfs', 'bad_input.tsv'), 'rb') as f:
            self.assertNotIn(b'@sys@', f.read())


class Build(Fixture):
    """make -C the release's headers, a Makefile here that says what a
    build would."""

    def headers(self, recipe):
        h = os.path.join(self.root, 'usr/src', 'linux-headers-' + REL)
        os.makedirs(h)
        with open(os.path.join(h, 'Makefile'), 'w') as f:
            f.write('modules:\n\t%s\n' % recipe)
        self.config('')

    def failed_build(self, recipe, said):
        self.headers(recipe)
        with self.assertRaises(SetupError) as e, \
                contextlib.redirect_stderr(io.StringIO()) as err:
            build.test_module(self.host, REL, 'paths')
        self.assertIn(said, err.getvalue())
        return str(e.exception)

    def test_a_warning_fails_the_build(self):
        why = self.failed_build('@echo "x.c:1: warning: unused"', 'x.c:1: warning')
        self.assertEqual(why, 'pc_paths build for %s has warnings (see %s)' % (
            REL, os.path.join(self.dir.name, REL, 'src/paths/build.log')))

    def test_a_failed_build_says_which(self):
        self.assertEqual(self.failed_build('@echo broken; false', 'broken'), 'pc_paths build failed for %s' % REL)

    def test_a_clean_build_gives_the_module(self):
        self.headers('@touch $(M)/pc_paths.ko')
        ko = build.test_module(self.host, REL, 'paths')
        self.assertTrue(os.path.isfile(ko))


if __name__ == '__main__':
    unittest.main()
