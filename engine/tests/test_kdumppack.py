# SPDX-License-Identifier: GPL-2.0
"""kdump's pieces (pcengine.kdumppack), without a guest: the boot line,
arm64's _text offset from a made PE header, what save() makes of a
capture's output, the tools copied with their libraries, why a release
has no kdump, and crash's download failing."""

import contextlib
import io
import os
import platform
import shutil
import struct
import subprocess
import tempfile
import unittest
import urllib.error
from unittest import mock

from fixtures import write
from pcengine import SetupError, kdumppack, kernels


class Host(kernels.Host):
    """A Host under a temporary PC_OUT that fetches nothing."""

    def __init__(self, out, root=False):
        super().__init__({'PC_OUT': out, 'PC_KERNEL_ROOTS': os.path.join(out, 'kernels')})
        self.root, self.fetched = root, []

    def is_root(self):
        return self.root

    def fetch_arm64(self, rel):
        self.fetched.append(rel)


class Cmdline(unittest.TestCase):
    def test_arm64_after_6_1_reserves_more(self):
        h = Host('/nonexistent')
        self.assertEqual(kdumppack.cmdline(h, '6.1.0-57-cloud-amd64'),
                         'crashkernel=128M pc_kdump=1')
        self.assertEqual(kdumppack.cmdline(h, '6.12.118+deb12-cloud-amd64', disk=True),
                         'crashkernel=128M pc_kdump=1 pc_dump_disk=1')
        self.assertEqual(kdumppack.cmdline(h, '6.1.0-57-arm64'), 'crashkernel=128M pc_kdump=1')
        self.assertEqual(kdumppack.cmdline(h, '6.12.118+deb12-arm64', True),
                         'crashkernel=192M pc_kdump=1 pc_dump_disk=1')

    def test_tools_root(self):
        h = Host('/o')
        self.assertEqual(kdumppack.tools_root(h, '6.1.0-57-cloud-amd64'), '')
        self.assertEqual(kdumppack.tools_root(h, '6.1.0-57-arm64'), '/o/arm64-kdump')


def pe_image(sections, signature=b'PE\0\0', opt=112):
    """An Image's first bytes: the DOS header's pointer at 60, the PE
    signature, the COFF header, an optional header and SECTIONS (name,
    virtual address)."""
    pe = 0x40
    data = bytearray(b'MZ'.ljust(pe, b'\0'))
    struct.pack_into('<I', data, 60, pe)
    data += signature + struct.pack('<HHIIIHH', 0xaa64, len(sections), 0, 0, 0, opt, 0)
    data += b'\0' * opt
    for name, address in sections:
        data += name.ljust(8, b'\0') + struct.pack('<IIIIIIHHI', 0x1000, address, 0, 0, 0, 0,
                                                   0, 0, 0)
    return bytes(data)


class TextOffset(unittest.TestCase):
    def offset(self, data):
        with tempfile.TemporaryDirectory() as d:
            write(os.path.join(d, 'Image'), data)
            return kdumppack.arm64_text_offset(os.path.join(d, 'Image'))

    def test_the_text_sections_address(self):
        self.assertEqual(self.offset(pe_image([(b'.reloc', 0x1000), (b'.text', 0x10000),
                                               (b'.data', 0x2000000)])), 0x10000)

    def test_none_without_a_pe_header_or_a_text_section(self):
        self.assertIsNone(self.offset(pe_image([(b'.text', 0x10000)], signature=b'XX\0\0')))
        self.assertIsNone(self.offset(pe_image([(b'.data', 0x10000)])))
        self.assertIsNone(self.offset(pe_image([(b'.text', 0x10000)])[:-30]))
        self.assertIsNone(self.offset(b'short'))
        self.assertIsNone(kdumppack.arm64_text_offset('/nonexistent/Image'))


class Save(unittest.TestCase):
    DMESG = (b'boot\r\nPC-KDUMP-DMESG-BEGIN\r\n[    1.0] Kernel panic\r\n\r\n'
             b'PC-KDUMP-DMESG-END\r\n')

    def save(self, output, makedumpfile=None):
        with tempfile.TemporaryDirectory() as d:
            write(os.path.join(d, 'disk.img'), b'dump')
            write(os.path.join(d, 'out'), output)
            keep = os.path.join(d, 'keep')
            with mock.patch.object(kdumppack.subprocess, 'run', makedumpfile or self.fail):
                status = kdumppack.save(os.path.join(d, 'disk.img'), os.path.join(d, 'out'),
                                        keep)
            with open(os.path.join(keep, 'vmcore-dmesg.txt'), 'rb') as f:
                dmesg = f.read()
            return status, dmesg, sorted(os.listdir(keep)), os.path.exists(
                os.path.join(d, 'disk.img'))

    def test_no_capture(self):
        self.assertEqual(self.save(b'boot\nPC-KDUMP-DUMP 5\n'),
                         (1, b'', ['vmcore-dmesg.txt'], True))

    def test_a_log_and_no_dump(self):
        self.assertEqual(self.save(self.DMESG + b'PC-KDUMP-DUMP 0\r\n'),
                         (2, b'[    1.0] Kernel panic\n\n', ['vmcore-dmesg.txt'], True))

    def test_makedumpfile_failing_keeps_its_words_and_the_disk(self):
        def run(argv, stdin, stdout, stderr):
            stderr.write(b'not a flattened dump\n')
            return subprocess.CompletedProcess(argv, 1)
        self.assertEqual(self.save(self.DMESG + b'PC-KDUMP-DUMP 4096\n', run)[2:],
                         (['makedumpfile.log', 'vmcore-dmesg.txt'], True))

    def test_a_dump(self):
        def run(argv, stdin, stdout, stderr):
            self.assertEqual(argv[:2], ['makedumpfile', '-R'])
            with open(argv[2], 'wb') as f:
                f.write(stdin.read())
            return subprocess.CompletedProcess(argv, 0)
        self.assertEqual(self.save(self.DMESG + b'PC-KDUMP-DUMP 4096\n', run),
                         (0, b'[    1.0] Kernel panic\n\n', ['vmcore', 'vmcore-dmesg.txt'],
                          False))

    def test_a_log_cut_short_loses_its_last_line(self):
        # sed's range runs to the end; its last line is dropped as END's.
        self.assertEqual(self.save(b'PC-KDUMP-DMESG-BEGIN\na\nb')[:2], (2, b'a\n'))

    def test_disk(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'disk.img')
            write(path, b'old dump')
            self.assertEqual(kdumppack.disk(path),
                             ['-drive', 'file=%s,format=raw,if=virtio' % path])
            self.assertEqual(os.path.getsize(path), 256 << 20)
            with open(path, 'rb') as f:
                self.assertEqual(f.read(8), b'\0' * 8)


MULTIARCH = {'x86_64': 'x86_64-linux-gnu', 'aarch64': 'aarch64-linux-gnu'}.get(
    platform.machine())


@unittest.skipUnless(shutil.which('readelf') and MULTIARCH and
                     os.path.isdir('/usr/lib/' + str(MULTIARCH)), 'no readelf or multiarch libc')
class CopyBins(unittest.TestCase):
    def needed(self, elf):
        out = subprocess.run(['readelf', '-d', elf], stdout=subprocess.PIPE,
                             universal_newlines=True).stdout
        return [line.rsplit('[', 1)[1].rstrip(']') for line in out.splitlines()
                if '(NEEDED)' in line]

    def loader(self, elf):
        out = subprocess.run(['readelf', '-l', elf], stdout=subprocess.PIPE,
                             universal_newlines=True).stdout
        return out.split('program interpreter: ')[1].split(']')[0]

    def test_a_host_binary_with_its_libraries_and_loader(self):
        with tempfile.TemporaryDirectory() as root:
            kdumppack.copy_bins('', root, ['/usr/bin/env'])
            self.assertTrue(os.access(os.path.join(root, 'sbin', 'env'), os.X_OK))
            loader = self.loader('/usr/bin/env')
            self.assertTrue(os.path.isfile(root + loader))
            self.assertFalse(os.path.islink(root + loader))
            libs = [os.path.join(dp, f) for dp, _, fs in os.walk(root) for f in fs
                    if '/lib' in dp[len(root):]]
            names = {os.path.basename(p) for p in libs}
            self.assertIn('libc.so.6', names)
            for lib in libs + [os.path.join(root, 'sbin', 'env')]:
                for need in self.needed(lib):
                    self.assertIn(need, names, lib)

    def test_a_library_not_in_the_root(self):
        with tempfile.TemporaryDirectory() as d:
            write(os.path.join(d, 'from', 'bin', 'env'))
            shutil.copy('/usr/bin/env', os.path.join(d, 'from', 'bin', 'env'))
            # The loader is there, its libc is not.
            loader = self.loader('/usr/bin/env')
            write(os.path.join(d, 'from') + loader)
            with self.assertRaises(SetupError) as e:
                kdumppack.copy_bins(os.path.join(d, 'from'), os.path.join(d, 'root'),
                                    ['/bin/env'])
        self.assertRegex(e.exception.args[0], r'^libc\.so\.6, which .*/from/bin/env needs, '
                         r'is not in .*/from/\{,usr/\}lib/' + MULTIARCH + '$')


class Available(unittest.TestCase):
    ALL = b'CONFIG_KEXEC=y\nCONFIG_CRASH_DUMP=y\nCONFIG_PROC_VMCORE=y\n'
    REL = '6.1.0-57-arm64'

    def setUp(self):
        self.out = tempfile.mkdtemp()
        self.host = Host(self.out)
        self.config = os.path.join(self.out, 'arm64-root', 'boot', 'config-' + self.REL)

    def tearDown(self):
        shutil.rmtree(self.out)

    def tools(self, *bins):
        for b in bins:
            write(self.out + '/arm64-kdump' + b, mode=0o755)

    def test_a_config_without_each_option(self):
        for missing in ('CONFIG_KEXEC', 'CONFIG_CRASH_DUMP', 'CONFIG_PROC_VMCORE'):
            write(self.config, self.ALL.replace(missing.encode() + b'=y', b'# not set'))
            self.assertEqual(kdumppack.available(self.host, self.REL),
                             '%s is built without %s' % (self.REL, missing))
        write(self.config, self.ALL.replace(b'VMCORE=y', b'VMCORE=m'))
        self.assertIn('without CONFIG_PROC_VMCORE', kdumppack.available(self.host, self.REL))
        self.assertEqual(self.host.fetched, [])

    def test_an_arm64_config_not_fetched_yet_is_fetched(self):
        self.assertEqual(kdumppack.available(self.host, self.REL),
                         '%s is built without CONFIG_KEXEC' % self.REL)
        self.assertEqual(self.host.fetched, [self.REL])

    def test_arm64_tools_not_cached_and_no_root(self):
        write(self.config, self.ALL)
        self.tools('/sbin/kexec')
        self.assertEqual(kdumppack.available(self.host, self.REL),
                         'arm64 kexec-tools and makedumpfile are not cached (run as root to '
                         'fetch them)')

    def test_a_tool_missing(self):
        write(self.config, self.ALL)
        self.tools('/sbin/kexec', '/usr/bin/makedumpfile')
        self.assertEqual(kdumppack.available(self.host, self.REL),
                         '%s/arm64-kdump/sbin/vmcore-dmesg is missing (packages kexec-tools, '
                         'makedumpfile)' % self.out)
        self.tools('/sbin/vmcore-dmesg')
        self.assertIsNone(kdumppack.available(self.host, self.REL))


class Initrd(unittest.TestCase):
    def test_the_archives_then_the_extra_one(self):
        with tempfile.TemporaryDirectory() as d:
            h = Host(d)
            write(os.path.join(d, 'r', 'initramfs.cpio'), b'base')
            write(os.path.join(d, 'r', 'kdump-extra.cpio'), b'+extra')
            write(os.path.join(d, 'cases.cpio'), b'+cases')
            kdumppack.initrd(h, 'r', os.path.join(d, 'one'))
            kdumppack.initrd(h, 'r', os.path.join(d, 'two'), [
                os.path.join(d, 'r', 'initramfs.cpio'), os.path.join(d, 'cases.cpio')])
            made = []
            for name in ('one', 'two'):
                with open(os.path.join(d, name), 'rb') as f:
                    made.append(f.read())
        self.assertEqual(made, [b'base+extra', b'base+cases+extra'])


class CrashTool(unittest.TestCase):
    def setUp(self):
        self.cache = tempfile.mkdtemp()
        self.env = {'XDG_CACHE_HOME': self.cache, 'HOME': '/nonexistent'}
        self.dir = os.path.join(self.cache, 'provoke-crash', 'crash-8.0.6')

    def tearDown(self):
        shutil.rmtree(self.cache)

    def test_the_download_failing(self):
        tries = []

        def urlopen(url, timeout):
            tries.append(url)
            raise urllib.error.URLError('no network')
        with mock.patch.object(kdumppack.urllib.request, 'urlopen', urlopen), \
                mock.patch.object(kdumppack.time, 'sleep'), \
                mock.patch.object(kdumppack.subprocess, 'run', self.fail):
            self.assertEqual(kdumppack.crash_tool(self.env), (
                None, 'could not fetch crash_8.0.6.orig.tar.gz (SHA-256 097c6c94ded7e24db4af58de2'
                '4744bd28276d6f5bae0828bc6b6a02664c4282a) from deb.debian.org'))
        self.assertEqual(tries, [kdumppack.CRASH_URL] * 4)
        self.assertEqual(os.listdir(self.dir), [])

    def test_a_tarball_of_another_sum_is_dropped(self):
        with mock.patch.object(kdumppack.urllib.request, 'urlopen',
                               lambda url, timeout: io.BytesIO(b'not crash')), \
                mock.patch.object(kdumppack.subprocess, 'run', self.fail):
            path, why = kdumppack.crash_tool(self.env)
        self.assertIsNone(path)
        self.assertIn('could not fetch', why)
        self.assertEqual(os.listdir(self.dir), [])

    def test_a_built_crash_is_kept(self):
        write(os.path.join(self.dir, 'crash'), mode=0o755)
        with mock.patch.object(kdumppack.urllib.request, 'urlopen', self.fail), \
                mock.patch.object(kdumppack.subprocess, 'run', self.fail):
            self.assertEqual(kdumppack.crash_tool(self.env), (os.path.join(self.dir, 'crash'),
                                                              None))

    def test_a_failed_build_says_where_its_log_is(self):
        write(os.path.join(self.dir, 'crash_8.0.6.orig.tar.gz'), b'tarball')
        with mock.patch.object(kdumppack.subprocess, 'run',
                               lambda argv, **kw: subprocess.CompletedProcess(argv, 2)), \
                contextlib.redirect_stderr(io.StringIO()):
            self.assertEqual(kdumppack.crash_tool(self.env), (
                None, 'crash 8.0.6 did not build: see %s/build.log' % self.dir))


class DbgVmlinux(unittest.TestCase):
    def test_a_kernel_of_files_and_the_cache(self):
        with tempfile.TemporaryDirectory() as d:
            h = Host(d)
            h.env = dict(h.env, XDG_CACHE_HOME=os.path.join(d, 'cache'))
            os.makedirs(os.path.join(d, 'kernels', '6.13.0-pc'))
            self.assertIsNone(kdumppack.dbg_vmlinux(h, '6.13.0-pc'))
            tree = os.path.join(d, 'kernels', '6.13.0-pc', 'usr', 'src',
                                'linux-headers-6.13.0-pc', 'vmlinux')
            write(tree, b'ELF')
            self.assertEqual(kdumppack.dbg_vmlinux(h, '6.13.0-pc'), tree)
            cached = os.path.join(d, 'cache', 'provoke-crash', 'dbg',
                                  'vmlinux-6.1.0-57-cloud-amd64')
            write(cached, b'ELF')
            with mock.patch.object(kdumppack.subprocess, 'run', self.fail):
                self.assertEqual(kdumppack.dbg_vmlinux(h, '6.1.0-57-cloud-amd64'), cached)

    def test_a_fetch_cut_short_and_a_package_that_does_not_unpack(self):
        # A partial file of an earlier fetch goes; a .deb that does not
        # unpack goes too (the next run downloads it again); nothing
        # takes the vmlinux's name.
        rel = '6.1.0-57-cloud-amd64'
        with tempfile.TemporaryDirectory() as d:
            h = Host(d)
            h.env = dict(h.env, XDG_CACHE_HOME=os.path.join(d, 'cache'))
            dbg = os.path.join(d, 'cache', 'provoke-crash', 'dbg')
            write(os.path.join(dbg, '.vmlinux-old'), b'partial')
            deb = os.path.join(dbg, 'linux-image-%s-dbg_1_amd64.deb' % rel)
            write(deb, b'cut short')
            bin_dir = os.path.join(d, 'bin')
            write(os.path.join(bin_dir, 'dpkg-deb'), '#!/bin/sh\nexit 2\n', 0o755)
            write(os.path.join(bin_dir, 'tar'), '#!/bin/sh\ncat >/dev/null\n', 0o755)
            with mock.patch.dict(os.environ, PATH=bin_dir + os.pathsep + os.environ['PATH']):
                self.assertIsNone(kdumppack.dbg_vmlinux(h, rel))
            self.assertEqual(sorted(os.listdir(dbg)), ['vmlinux-%s.lock' % rel])


if __name__ == '__main__':
    unittest.main()
