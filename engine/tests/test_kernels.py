# SPDX-License-Identifier: GPL-2.0
"""The kernels a guest boots (pcengine.kernels, pcengine.kernelfiles):
series, releases, their files, the case files' words per architecture
and the roots of links of kernels given as files; no package is
installed and no guest boots."""

import os
import tempfile
import unittest
from unittest import mock

from pcengine import SetupError, kernelfiles, kernels

CASE = b'''# expect@x86_64: x86 only
# expect@arm64: arm64 only
# needs: CONFIG_KPROBES
provoke-crash arm "@sys@getpgrp+@insn_offs@ bugon" # @misaligned@
hit @sys@getppid'''


class CaseWords(unittest.TestCase):
    def test_amd64(self):
        self.assertEqual(kernels.fill_case('amd64', CASE), b'''# expect: x86 only
# needs: CONFIG_KPROBES
provoke-crash arm "__x64_sys_getpgrp+5 9 bugon" # EILSEQ
hit __x64_sys_getppid''')

    def test_arm64_has_no_getpgrp(self):
        self.assertEqual(kernels.fill_case('arm64', CASE), b'''# expect: arm64 only
# needs: CONFIG_KPROBES
provoke-crash arm "__arm64_sys_getpgid+8 12 bugon" # EINVAL
hit __arm64_sys_getppid''')


class Facts(unittest.TestCase):
    def test_llvm_only_for_a_clang_kernel(self):
        with tempfile.NamedTemporaryFile('w') as f:
            f.write('CONFIG_CC_IS_CLANG=y\nCONFIG_CLANG_VERSION=190107\n')
            f.flush()
            self.assertEqual(kernels.kbuild_llvm(f.name), ['LLVM=-19'])
        self.assertEqual(kernels.kbuild_llvm('/nonexistent'), [])

    def test_ramoops_per_arch(self):
        self.assertEqual(kernels.ramoops_cmdline('amd64'),
                         'memmap=1M$0x10000000 pc_ramoops=0x10000000')
        self.assertEqual(kernels.ramoops_cmdline('arm64'), 'mem=511M pc_ramoops=0x5ff00000')
        self.assertEqual(kernels.ramoops_region('arm64'), '0x5ff00000:0xff000:0x20000')
        self.assertEqual(kernels.ramoops_params('amd64'),
                         'ramoops.mem_address=0x10000000 ramoops.mem_size=0xff000 '
                         'ramoops.record_size=0x20000 ramoops.max_reason=2')

    def test_newest_release_by_number(self):
        self.assertEqual(max(['6.1.0-9-cloud-amd64', '6.1.0-57-cloud-amd64',
                              '6.1.0-10-cloud-amd64'], key=kernels.version_key),
                         '6.1.0-57-cloud-amd64')


class Releases(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.host = kernels.Host({'PC_OUT': self.dir.name})

    def tearDown(self):
        self.dir.cleanup()

    def test_where_each_release_s_files_are(self):
        h = self.host
        self.assertEqual((h.rel_arch('6.1.0-57-cloud-amd64'), h.rel_root('6.1.0-57-cloud-amd64')),
                         ('amd64', ''))
        self.assertEqual(h.rel_config('6.1.0-57-cloud-amd64'), '/boot/config-6.1.0-57-cloud-amd64')
        arm = os.path.join(self.dir.name, 'arm64-root')
        self.assertEqual((h.rel_arch('6.1.0-57-arm64'), h.rel_root('6.1.0-57-arm64')),
                         ('arm64', arm))
        self.assertEqual(h.cross_prefix('6.1.0-57-arm64'), 'aarch64-linux-gnu-')
        self.assertEqual(h.kbuild_args('6.1.0-57-arm64'),
                         ['ARCH=arm64', 'CROSS_COMPILE=aarch64-linux-gnu-'])
        own = os.path.join(self.dir.name, 'kernels', '6.12.1-mine')
        os.makedirs(own)
        self.assertEqual((h.rel_arch('6.12.1-mine'), h.rel_root('6.12.1-mine')), ('amd64', own))
        self.assertEqual(h.kernel_release('6.12.1-mine'), '6.12.1-mine')
        self.assertEqual(h.kernel_packages('6.12.1-mine'), [])

    def test_packages_per_series(self):
        h = self.host
        self.assertEqual(h.kernel_packages('6.1-rt'),
                         ['linux-image-rt-amd64', 'linux-headers-rt-amd64'])
        self.assertEqual(h.kernel_packages('arm64-6.12')[:2],
                         ['linux-image-6.12-cloud-amd64', 'linux-headers-6.12-cloud-amd64'])
        self.assertIn('qemu-system-arm', h.kernel_packages('arm64-6.12'))
        self.assertEqual(h.kernel_packages('/i:/t'), [])
        with self.assertRaises(SetupError) as e:
            h.kernel_packages('6.2')
        self.assertIn("unknown kernel series '6.2'", str(e.exception))

    def test_the_newest_installed_release_and_arm64_s_name_for_it(self):
        boot = ['/boot/vmlinuz-6.1.0-9-cloud-amd64', '/boot/vmlinuz-6.1.0-57-cloud-amd64']
        with mock.patch.object(kernels.glob, 'glob', return_value=boot) as g:
            self.assertEqual(self.host.kernel_release('6.1'), '6.1.0-57-cloud-amd64')
            self.assertEqual(self.host.kernel_release('arm64-6.1'), '6.1.0-57-arm64')
        self.assertEqual(g.call_args[0][0], '/boot/vmlinuz-6.1.*-cloud-amd64')
        with mock.patch.object(kernels.glob, 'glob', return_value=[]):
            with self.assertRaises(SetupError) as e:
                self.host.kernel_release('6.12-rt')
        self.assertEqual(str(e.exception), 'no /boot/vmlinuz-6.12.*-rt-amd64 (install '
                         'linux-image-6.12-rt-amd64 linux-headers-6.12-rt-amd64)')

    def test_a_path_is_not_a_series(self):
        with self.assertRaises(SetupError) as e:
            self.host.series_name('/boot/vmlinuz')
        self.assertIn('give a kernel of files as IMAGE:TREE', str(e.exception))

    def test_missing_packages_need_root(self):
        done = mock.Mock(stdout='installed:cpio installed:gcc ')
        with mock.patch.object(kernels.subprocess, 'run', return_value=done), \
                mock.patch.object(kernels.Host, 'is_root', return_value=False):
            with self.assertRaises(SetupError) as e:
                self.host.install_deps(['6.1'])
        self.assertIn('missing packages: qemu-system-x86 busybox-static make', str(e.exception))
        self.assertIn('linux-headers-cloud-amd64 (run as root', str(e.exception))


class BuildApart(unittest.TestCase):
    def test_only_built_kernels_in_a_child_and_its_failure(self):
        done = []

        def run(argv, env):
            done.append((argv[3:], env['PYTHONPATH'].split(os.pathsep)[0]))
            return mock.Mock(returncode=status)
        status = 0
        with mock.patch.object(kernels.subprocess, 'run', run):
            kernels.build_apart(['6.1', 'arm64-6.1'], {})
            kernels.build_apart(['debug', '6.1', 'clang'], {})
            status = -9
            with self.assertRaises(SetupError) as e:
                kernels.build_apart(['debug'], {})
        self.assertEqual(done[0], (['pcengine.kernels', 'kernel-build', 'debug', 'clang'],
                                   os.path.join(kernels.ROOT, 'engine')))
        self.assertEqual(str(e.exception), 'building the debug kernel failed (signal 9)')


class Arm64(unittest.TestCase):
    def test_fetched_before_the_stamp_counts_when_whole(self):
        with tempfile.TemporaryDirectory() as d:
            host = kernels.Host({'PC_OUT': d})
            rel = '6.1.0-57-arm64'
            root = os.path.join(d, 'arm64-root')
            headers = os.path.join(root, 'usr/src/linux-headers-' + rel)
            for path in ('boot/vmlinuz-' + rel, 'bin/busybox'):
                os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
                with open(os.path.join(root, path), 'w'):
                    pass
            os.chmod(os.path.join(root, 'bin/busybox'), 0o755)
            os.makedirs(headers)
            os.symlink('../../lib/linux-kbuild-6.1/scripts', os.path.join(headers, 'scripts'))
            with mock.patch.object(kernels.Host, 'is_root', return_value=False):
                # The kbuild link, its last step, is missing: not whole.
                with self.assertRaises(SetupError):
                    host.fetch_arm64(rel)
                os.makedirs(os.path.join(root, 'usr/lib/linux-kbuild-6.1'))
                host.fetch_arm64(rel)
            self.assertTrue(os.path.isfile(os.path.join(root, '.fetched-' + rel)))


class KernelFiles(unittest.TestCase):
    """A kernel given as IMAGE:TREE gets a root of links."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        d = self.dir.name
        self.image, self.tree = os.path.join(d, 'bzImage'), os.path.join(d, 'tree')
        self.roots = os.path.join(d, 'roots')
        for sub in ('include/config', 'include/generated', 'fs/pstore'):
            os.makedirs(os.path.join(self.tree, sub))
        self.write(self.image, '')
        self.write('include/config/kernel.release', '6.12.0\n')
        self.write('include/generated/utsrelease.h', '#define UTS_RELEASE "6.12.0-mine"\n')
        self.write('Module.symvers', '')
        self.write('fs/pstore/ramoops.ko', '')

    def tearDown(self):
        self.dir.cleanup()

    def write(self, path, text):
        with open(os.path.join(self.tree, path), 'w') as f:
            f.write(text)

    def test_links_and_the_modules_of_this_configuration(self):
        self.write('.config', 'CONFIG_PSTORE_RAM=m\n')
        rel = kernelfiles.link_root(self.roots, self.image, self.tree)
        self.assertEqual(rel, '6.12.0-mine')
        root = os.path.join(self.roots, rel)
        self.assertEqual(os.readlink(os.path.join(root, 'usr/src/linux-headers-' + rel)),
                         os.path.realpath(self.tree))
        ko = os.path.join(root, 'lib/modules', rel, 'kernel/fs/pstore/ramoops.ko')
        self.assertEqual(os.readlink(ko), os.path.realpath(self.tree) + '/fs/pstore/ramoops.ko')
        # Built in now: the .ko left in the tree must not reach a guest.
        self.write('.config', 'CONFIG_PSTORE_RAM=y\n')
        kernelfiles.link_root(self.roots, self.image, self.tree)
        self.assertFalse(os.path.lexists(ko))

    def test_a_link_is_replaced_whole(self):
        path = os.path.join(self.dir.name, 'link')
        kernelfiles.link(path, '/a')
        kernelfiles.link(path, '/b')
        self.assertEqual(os.readlink(path), '/b')
        os.makedirs(path + '-dir/x')
        with self.assertRaises(OSError):
            kernelfiles.link(path + '-dir', '/c')
        self.assertEqual(sorted(os.listdir(self.dir.name)),
                         ['bzImage', 'link', 'link-dir', 'tree'])

    def test_what_is_not_a_kernel_of_files(self):
        with self.assertRaises(SetupError) as e:
            kernelfiles.link_root(self.roots, self.image, self.tree)
        self.assertIn('is not a built kernel tree', str(e.exception))
        self.write('.config', '')
        self.write('include/generated/utsrelease.h', '#define UTS_RELEASE "6.1.0-57-arm64"\n')
        with self.assertRaises(SetupError) as e:
            kernelfiles.link_root(self.roots, self.image, self.tree)
        self.assertIn("release '6.1.0-57-arm64' cannot name an x86-64 kernel", str(e.exception))
        with self.assertRaises(SetupError):
            kernelfiles.link_root(self.roots, self.image + '.no', self.tree)


if __name__ == '__main__':
    unittest.main()
