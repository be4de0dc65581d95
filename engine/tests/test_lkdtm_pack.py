# SPDX-License-Identifier: GPL-2.0
"""LKDTM's selftest's guest (pcengine.lkdtm_pack) from a made tarball:
the files taken once per tarball, the packed guest with its one changed
line, and the result line when it cannot be prepared."""

import io
import os
import shutil
import subprocess
import tarfile
import tempfile
import unittest

from pcengine import ROOT, lkdtm_pack

TOP = 'linux-source-6.12/'
SELFTEST = TOP + 'tools/testing/selftests/lkdtm/'
ENTROPY = b'#!/bin/sh\nlog=$(mktemp)\ndmesg --follow >"$log" & pid=$!\necho done\n'
# A fake gcc: the -o file, whatever it is given.
GCC = '#!/bin/sh\nwhile [ "$1" != -o ]; do shift; done\n{ echo comm >"$2"; } 2>/dev/null\n'


def make_tarball(path, members, mtime=1700000000):
    """PATH: a tar.xz of MEMBERS (name, data, mode), after its top
    directory."""
    with tarfile.open(path, 'w:xz') as tar:
        info = tarfile.TarInfo(TOP.rstrip('/'))
        info.type, info.mode = tarfile.DIRTYPE, 0o755
        tar.addfile(info)
        for name, data, mode in members:
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(data), mode, mtime
            tar.addfile(info, io.BytesIO(data))


SELFTEST_FILES = [(SELFTEST + 'run.sh', b'#!/bin/sh\necho run\n', 0o755),
                  (TOP + 'Makefile', b'all:\n', 0o644),
                  (SELFTEST + 'tests.txt', b'PANIC\n#EXHAUST_STACK\n', 0o644),
                  (SELFTEST + 'stack-entropy.sh', ENTROPY, 0o755),
                  (TOP + 'run.sh', b'not this one\n', 0o644)]


class Tmp(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        self.out = os.path.join(self.tmp, 'out')
        self.source = os.path.join(self.tmp, 'linux-source-6.12.tar.xz')
        self.sel = os.path.join(self.out, 'lkdtm-selftest')
        make_tarball(self.source, SELFTEST_FILES)

    def read(self, *path):
        with open(os.path.join(*path), 'rb') as f:
            return f.read()


class Extract(Tmp):
    def test_the_three_files_and_the_stamp(self):
        self.assertTrue(lkdtm_pack.extract(self.sel, self.source))
        d = self.sel
        self.assertEqual(sorted(os.listdir(d)),
                         ['run.sh', 'stack-entropy.sh', 'stamp', 'tests.txt'])
        self.assertEqual(self.read(d, 'run.sh'), b'#!/bin/sh\necho run\n')
        self.assertEqual(self.read(d, 'stack-entropy.sh'), ENTROPY)
        st = os.stat(os.path.join(d, 'run.sh'))
        self.assertEqual((st.st_mode & 0o777, st.st_mtime), (0o755, 1700000000))
        src = os.stat(self.source)
        self.assertEqual(self.read(d, 'stamp').decode(),
                         '%d %d run.sh tests.txt stack-entropy.sh\n'
                         % (src.st_size, int(src.st_mtime)))

    def test_once_per_tarball(self):
        self.assertTrue(lkdtm_pack.extract(self.sel, self.source))
        run = os.path.join(self.sel, 'run.sh')
        with open(run, 'w') as f:
            f.write('kept\n')
        self.assertTrue(lkdtm_pack.extract(self.sel, self.source))
        self.assertEqual(self.read(run), b'kept\n')
        # Another tarball (its mtime the stamp's) extracts again.
        os.utime(self.source, (1600000000, 1600000000))
        self.assertTrue(lkdtm_pack.extract(self.sel, self.source))
        self.assertEqual(self.read(run), b'#!/bin/sh\necho run\n')

    def test_without_stack_entropy(self):
        # 5.10's selftest: run.sh and tests.txt only.
        make_tarball(self.source, SELFTEST_FILES[:3])
        self.assertTrue(lkdtm_pack.extract(self.sel, self.source))
        self.assertEqual(sorted(os.listdir(self.sel)), ['run.sh', 'stamp', 'tests.txt'])

    def test_what_it_cannot_take(self):
        self.assertFalse(lkdtm_pack.extract(self.sel, os.path.join(self.tmp, 'none.tar.xz')))
        make_tarball(self.source, SELFTEST_FILES[:2])
        self.assertFalse(lkdtm_pack.extract(self.sel, self.source))
        self.assertFalse(os.path.exists(os.path.join(self.sel, 'stamp')))
        with open(self.source, 'wb') as f:
            f.write(b'not xz')
        self.assertFalse(lkdtm_pack.extract(self.sel, self.source))


@unittest.skipUnless(shutil.which('cpio'), 'no cpio')
class Pack(Tmp):
    def setUp(self):
        super().setUp()
        self.rel = '6.1.0-1-cloud-amd64'
        self.sel = lkdtm_pack.selftest_dir(self.out, self.rel)
        root = os.path.join(self.out, self.rel, 'initramfs')
        os.makedirs(os.path.join(root, 'cases'))
        with open(os.path.join(root, 'init'), 'w') as f:
            f.write('#!/bin/sh\n')
        self.gcc = os.path.join(self.tmp, 'fake-')
        with open(self.gcc + 'gcc', 'w') as f:
            f.write(GCC)
        os.chmod(self.gcc + 'gcc', 0o755)
        self.results = os.path.join(self.tmp, 'results')
        os.makedirs(self.results)

    def ready(self, rel=None, source=None):
        return lkdtm_pack.ready(self.out, rel or self.rel, 'six', self.results, self.gcc,
                                {'PC_LKDTM_SOURCE': source or self.source})

    def result(self):
        return self.read(self.results, 'six-lkdtm_selftest.result').decode()

    def listed(self):
        cpio = os.path.join(self.out, self.rel, 'initramfs-lkdtm.cpio')
        with open(cpio, 'rb') as f:
            return sorted(subprocess.run(['cpio', '-t', '--quiet'], stdin=f,
                                         stdout=subprocess.PIPE).stdout.decode().split())

    def test_ready(self):
        self.assertTrue(self.ready())
        self.assertEqual(self.listed(), ['.', 'cases', 'cases/lkdtm_selftest.sh', 'comm',
                                         'init', 'run.sh', 'stack-entropy.sh', 'tests.txt'])
        root = os.path.join(self.out, self.rel, 'initramfs-lkdtm')
        self.assertEqual(self.read(root, 'stack-entropy.sh'),
                         ENTROPY.replace(b'dmesg --follow', b'cat /dev/kmsg'))
        self.assertEqual(self.read(root, 'comm'), b'comm\n')
        self.assertEqual(self.read(root, 'cases', 'lkdtm_selftest.sh'),
                         self.read(ROOT, 'guest', 'lkdtm.sh'))
        self.assertEqual(self.read(self.sel, 'source'),
                         b'linux-source-6.12.tar.xz\n')
        self.assertFalse(os.listdir(self.results))

    def test_one_line_changes_or_none_is_packed(self):
        self.assertTrue(lkdtm_pack.extract(self.sel, self.source))
        entropy = os.path.join(self.sel, 'stack-entropy.sh')
        for text in (b'dmesg\n', ENTROPY + b'dmesg --follow\n'):
            with open(entropy, 'wb') as f:
                f.write(text)
            self.assertFalse(lkdtm_pack.pack(self.out, self.rel, self.gcc))

    def test_no_tarball_skips(self):
        none = os.path.join(self.tmp, 'none.tar.xz')
        self.assertFalse(self.ready(source=none))
        self.assertEqual(self.result(), 'ok six/lkdtm_selftest # SKIP %s is not installed'
                         ' (linux-source-6.12)\n' % none)

    def test_what_cannot_be_packed_fails(self):
        for rel, gcc in (('6.1.0-9-cloud-amd64', self.gcc), (self.rel, self.gcc + 'no-')):
            self.assertFalse(lkdtm_pack.ready(self.out, rel, 'six', self.results, gcc,
                                              {'PC_LKDTM_SOURCE': self.source}))
            self.assertEqual(self.result(), 'not ok six/lkdtm_selftest # could not extract'
                             ' run.sh and tests.txt or pack the guest\n')
            os.remove(os.path.join(self.results, 'six-lkdtm_selftest.result'))

    def test_default_source(self):
        self.assertEqual(lkdtm_pack.default_source({}), '/usr/src/linux-source-6.12.tar.xz')
        self.assertEqual(lkdtm_pack.default_source({'PC_LKDTM_SOURCE': '/x'}), '/x')


if __name__ == '__main__':
    unittest.main()
