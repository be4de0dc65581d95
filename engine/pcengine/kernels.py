# SPDX-License-Identifier: GPL-2.0
"""The kernels a guest boots, and what the host needs to build for them.

A kernel series is "6.1" or "6.12" (Debian's x86-64 cloud kernels),
"6.1-rt" or "6.12-rt" (Debian's PREEMPT_RT kernels of those versions),
"arm64-6.1" or "arm64-6.12" (arm64 under emulation), or an x86-64
kernel of files: "debug" or "clang" (built here: builtkernel.py) or
IMAGE:TREE, a bzImage and the build tree (O= works) to build the module
against, which goes by its release's name.

A release's files are under its root: the host's own (/) for an x86-64
Debian kernel, a cache under PC_OUT for arm64 (Debian's arm64 packages
fetched and unpacked there, never installed), and a root of links under
PC_KERNEL_ROOTS for a kernel of files, laid out like an installed
Debian kernel's.  Nothing here touches the host kernel: the module is
only ever loaded in a guest.

    python3 -m pcengine.kernels build [FLAVOUR]   build or find the
                                                  debug (or clang) kernel
    python3 -m pcengine.kernels kernel-build FLAVOUR...
                                                  the bench's step: the
                                                  same, at low priority
    python3 -m pcengine.kernels fetch-arm64 SERIES
                                                  an arm64 release's
                                                  files (make arm64):
                                                  prints its headers' tree
"""

import glob
import os
import re
import subprocess
import sys
import time

from . import ROOT, SetupError, builtkernel, engine_env, kernelfiles, log, ramoops, run_cli, suites

# Debian packages per series: image and headers.  An arm64 series needs
# the amd64 headers of the same version too: they bring the
# arch-independent headers and the kbuild host tools that the arm64
# headers use.
SERIES_PACKAGES = {
    '6.1': ('linux-image-cloud-amd64', 'linux-headers-cloud-amd64'),
    '6.12': ('linux-image-6.12-cloud-amd64', 'linux-headers-6.12-cloud-amd64'),
    '6.1-rt': ('linux-image-rt-amd64', 'linux-headers-rt-amd64'),
    '6.12-rt': ('linux-image-6.12-rt-amd64', 'linux-headers-6.12-rt-amd64'),
}
ARM64_PACKAGES = ('qemu-system-arm', 'gcc-aarch64-linux-gnu', 'libc6-dev-arm64-cross')
# What every guest needs.  perl: a W=1 build runs scripts/kernel-doc,
# which needs more than perl-base.
BASE_PACKAGES = ('qemu-system-x86', 'busybox-static', 'cpio', 'gcc', 'make', 'libc6-dev',
                 'kmod', 'xz-utils', 'perl')
SERIES_HELP = ('6.1, 6.12, 6.1-rt, 6.12-rt, arm64-6.1, arm64-6.12, '
               + ', '.join(suites.SERIES))

# Where ramoops keeps its records: 1 MiB of the guest's 512 MiB, taken
# away from the kernel so that it survives a reset.  On x86 memmap=
# reserves the MiB at 256 MiB: not the top, where QEMU's -kernel puts the
# initramfs again at each reset (one of 16 MB, the bench's with the whole
# matrix, reached into the top MiB and wiped the records there).  QEMU's
# arm64 virt board puts RAM at 1 GiB and the initramfs low; arm64 has no
# memmap=, so mem= leaves the last MiB out.  The region given ramoops is
# the MiB less its last page.
RAMOOPS = {'amd64': ('memmap=1M$0x10000000', '0x10000000'),
           'arm64': ('mem=511M', '0x5ff00000')}
RAMOOPS_SIZE = '0xff000'


def out_of(env):
    """PC_OUT, made absolute (the module's build runs make -C in the
    kernel's tree); build/ when unset."""
    return os.path.abspath(env.get('PC_OUT') or os.path.join(ROOT, 'build'))


def roots_of(env):
    """Where kernels of files get their roots of links (exported, so
    that the VM runner under another PC_OUT finds the bench's)."""
    return env.get('PC_KERNEL_ROOTS') or os.path.join(out_of(env), 'kernels')


def series_arch(series):
    return 'arm64' if series.startswith('arm64-') else 'amd64'


def config_text(path):
    """A kernel config's text; '' when it cannot be read."""
    try:
        with open(path, encoding='utf-8', errors='surrogateescape') as f:
            return f.read()
    except OSError:
        return ''


def kbuild_llvm(config):
    """['LLVM=-N'] for a kernel built with clang N (its modules must be
    too; clang-N and lld-N must be installed), [] for gcc."""
    clang = kernelfiles.compiler_major(config_text(config), 'CLANG')
    return ['LLVM=-%d' % clang] if clang else []


def ramoops_cmdline(arch):
    reserve, address = RAMOOPS[arch]
    return '%s pc_ramoops=%s' % (reserve, address)


def ramoops_region(arch):
    """ADDR:SIZE:RECORD, as the guest's /init gives ramoops."""
    return '%s:%s:%#x' % (RAMOOPS[arch][1], RAMOOPS_SIZE, ramoops.RECORD_SIZE)


def ramoops_params(arch):
    """A kernel with ramoops built in (a kernel of files may have it so)
    gets on its command line what /init's insmod would have given it."""
    return ('ramoops.mem_address=%s ramoops.mem_size=%s ramoops.record_size=%#x '
            'ramoops.max_reason=2' % (RAMOOPS[arch][1], RAMOOPS_SIZE, ramoops.RECORD_SIZE))


# What differs between architectures in a case file, filled in per
# architecture: @sys@NAME, the system call's entry symbol (arm64 has no
# getpgrp system call: its libc, and pc-guest, call getpgid(0));
# @insn_offs@, offsets of whole instructions after the entry that take a
# breakpoint probe (arm64's +4 is the ftrace call site); @misaligned@,
# kprobes' errno for an offset inside an instruction.  A "# KEY@ARCH: "
# header line only counts on that architecture.
CASE_WORDS = {
    'amd64': ((b'@sys@', b'__x64_sys_'), (b'@insn_offs@', b'5 9'),
              (b'@misaligned@', b'EILSEQ')),
    'arm64': ((b'@sys@getpgrp', b'__arm64_sys_getpgid'), (b'@sys@', b'__arm64_sys_'),
              (b'@insn_offs@', b'8 12'), (b'@misaligned@', b'EINVAL')),
}
HEADER_ARCH = {'amd64': (b'x86_64', b'arm64'), 'arm64': (b'arm64', b'x86_64')}


def fill_case(arch, data):
    """DATA (bytes, a case file or an arm line) for ARCH."""
    ours, other = HEADER_ARCH[arch]
    keep = re.compile(rb'^# ([a-z-]*)@' + ours + rb': ')
    drop = re.compile(rb'^# [a-z-]*@' + other + rb': ')
    out = []
    for line in data.splitlines(keepends=True):
        for word, value in CASE_WORDS[arch]:
            line = line.replace(word, value)
        line = keep.sub(rb'# \1: ', line, count=1)
        if not drop.match(line):
            out.append(line)
    return b''.join(out)


class Host:
    """Where this run keeps its kernels' files (PC_OUT, the roots of
    links) and how it reaches each release's."""

    def __init__(self, env):
        self.env = env
        self.out = out_of(env)
        self.roots = roots_of(env)

    @staticmethod
    def is_root():
        return os.getuid() == 0

    def _own_root(self, rel):
        return os.path.isdir(os.path.join(self.roots, rel))

    def kernel_packages(self, series):
        """The Debian packages SERIES needs; none for a kernel of files."""
        if series in ('debug', 'clang'):
            return builtkernel.packages(series, self.env)
        if suites.is_suite_series(series):
            return list(suites.HOST_PACKAGES) + (
                list(ARM64_PACKAGES) if suites.arch_of(series) == 'arm64' else [])
        if '/' in series or ':' in series or self._own_root(series):
            return []
        want = SERIES_PACKAGES.get(series[len('arm64-'):] if series in
                                   ('arm64-6.1', 'arm64-6.12') else series)
        if want is None:
            raise SetupError("unknown kernel series '%s' (use %s)" % (series, SERIES_HELP))
        return list(want) + (list(ARM64_PACKAGES) if series.startswith('arm64-') else [])

    def install_deps(self, series, extra=()):
        """Install what is missing for SERIES (needs root and apt-get);
        quiet when all is there."""
        want = list(BASE_PACKAGES) + list(extra)
        for s in series:
            want += self.kernel_packages(s)
        # One dpkg-query for all (a dpkg -s each took a quarter second).
        r = subprocess.run(['dpkg-query', '-W', '-f=${db:Status-Status}:${Package} '] + want,
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           universal_newlines=True)
        have = set(r.stdout.split())
        missing = [p for p in dict.fromkeys(want) if 'installed:' + p not in have]
        if not missing:
            return
        if not self.is_root():
            raise SetupError('missing packages: %s (run as root to install them)'
                             % ' '.join(missing))
        log('installing ' + ' '.join(missing))
        env = dict(self.env, DEBIAN_FRONTEND='noninteractive')
        if apt(['update', '-q'], env):
            raise SetupError('apt-get update failed')
        if apt(['install', '-y', '-q', '--no-install-recommends'] + missing, env):
            raise SetupError('apt-get install %s failed' % ' '.join(missing))

    def series_name(self, series):
        """The name SERIES goes by in results: IMAGE:TREE becomes its
        release.  The debug and clang kernels are built later (a
        series' preparation); here only what they come from is checked."""
        if series in ('debug', 'clang'):
            builtkernel.cache_dir(series, self.env)
            return series
        if ':' in series:
            image, tree = series.split(':', 1)
            return self.kernel_files(image, tree)
        if '/' in series:
            raise SetupError("kernel '%s': give a kernel of files as IMAGE:TREE" % series)
        return series

    def kernel_release(self, series):
        """The newest installed release of SERIES, e.g.
        6.1.0-57-cloud-amd64 (6.1.0-57-rt-amd64 for 6.1-rt); for arm64 the
        same version's generic flavour, 6.1.0-57-arm64.  A kernel of
        files (built first for debug and clang) goes by its release."""
        if series in ('debug', 'clang'):
            return self.kernel_files(*builtkernel.build(series, self.env))
        if ':' in series:
            return self.kernel_files(*series.split(':', 1))
        if suites.is_suite_series(series):
            return suites.prepare(series, self.roots, self.env)
        if self._own_root(series):
            return series
        version, flavour = series[len('arm64-'):] if series.startswith('arm64-') else series, \
            'cloud-amd64'
        if version.endswith('-rt'):
            version, flavour = version[:-3], 'rt-amd64'
        prefix = '/boot/vmlinuz-'
        found = [p[len(prefix):] for p in glob.glob('%s%s.*-%s' % (prefix, version, flavour))]
        if not found:
            raise SetupError('no /boot/vmlinuz-%s.*-%s (install %s)' % (
                version, flavour, ' '.join(self.kernel_packages(series))))
        rel = max(found, key=version_key)
        if series.startswith('arm64-'):
            return rel[:-len('-cloud-amd64')] + '-arm64'
        return rel

    def kernel_files(self, image, tree):
        """The root of links for a kernel of files, and its release.  A
        link is only replaced when it changes: a running bench's guests
        may be reading through it."""
        return kernelfiles.link_root(self.roots, image, tree)

    def rel_arch(self, rel):
        """A kernel of files is x86-64 (kernelfiles.py refuses others);
        another suite's arm64 release has a root of its own."""
        return 'arm64' if rel.endswith('-arm64') else 'amd64'

    def rel_root(self, rel):
        """'' for the host's own files: a path is root + '/boot/...'."""
        if self._own_root(rel):
            return os.path.join(self.roots, rel)
        return os.path.join(self.out, 'arm64-root') if self.rel_arch(rel) == 'arm64' else ''

    def rel_config(self, rel):
        return '%s/boot/config-%s' % (self.rel_root(rel), rel)

    def headers(self, rel):
        return '%s/usr/src/linux-headers-%s' % (self.rel_root(rel), rel)

    def has_config(self, rel, option):
        """REL was built with OPTION (y or m)."""
        return re.search('^%s=[ym]' % option, config_text(self.rel_config(rel)), re.M) is not None

    def build_root(self, rel):
        """The chroot REL's modules build in (another suite's
        compiler), or None for the host."""
        return suites.build_root(self.rel_root(rel)) if self._own_root(rel) else None

    def make(self, rel, args, binds=()):
        """make -C REL's headers ARGS, as REL's kernel was built: in its
        suite's chroot, with PC_OUT and BINDS (host directories the build
        reads or writes) at the same paths inside."""
        croot = self.build_root(rel)
        if not croot:
            return ['make', '-C', self.headers(rel)] + self.kbuild_args(rel) + list(args)
        argv = ['make', '-C', '/usr/src/linux-headers-' + rel] + self.kbuild_args(rel) + list(args)
        return suites.in_chroot(croot, argv, [self.out] + list(binds))

    def cross_prefix(self, rel):
        return 'aarch64-linux-gnu-' if self.rel_arch(rel) == 'arm64' else ''

    def kbuild_args(self, rel):
        """make's arguments to build a module for REL as its kernel was
        built: the cross compiler, and LLVM= for a clang-built kernel."""
        cross = self.cross_prefix(rel)
        args = ['ARCH=arm64', 'CROSS_COMPILE=' + cross] if cross else []
        return args + kbuild_llvm(self.rel_config(rel)) + self._kbuild_gcc(rel)

    def _kbuild_gcc(self, rel):
        """['CC=gcc-N'] for a kernel of files built with a gcc the
        host has only as gcc-N (kernelfiles.compiler_missing let it in)."""
        if self.build_root(rel) or self.rel_arch(rel) != 'amd64':
            return []
        gcc = kernelfiles.compiler_major(config_text(self.rel_config(rel)), 'GCC')
        if not gcc or gcc == kernelfiles.host_gcc_major():
            return []
        return ['CC=gcc-%d' % gcc]

    def guest_timeout(self, rel, seconds):
        """The bench's time limit for one guest.  KASAN and lockdep (the
        debug kernel) slow a TCG guest down, most with two vCPUs on one
        host thread: the race case ran 90 s alone, and did not end within
        120 s beside another guest on a busy host."""
        kasan = re.search('^CONFIG_KASAN=y', config_text(self.rel_config(rel)), re.M)
        return seconds * 3 if kasan else seconds

    def _fetched(self, rel):
        return '%s/.fetched-%s' % (self.rel_root(rel), rel)

    def _kbuild(self, rel):
        """Where the arm64 headers' scripts link points, under /usr/lib:
        the amd64 headers' kbuild tools of the same version."""
        try:
            kbuild = os.readlink(self.headers(rel) + '/scripts')
        except OSError:
            return None
        kbuild = kbuild[len('../../lib/'):] if kbuild.startswith('../../lib/') else kbuild
        return kbuild[:-len('/scripts')] if kbuild.endswith('/scripts') else kbuild

    def fetch_arm64(self, rel):
        """An arm64 release into the cache: kernel image, headers and a
        static arm64 busybox, from Debian's arm64 archive with apt-get
        download.  The headers' kbuild link points at the host's amd64
        kbuild tools."""
        root, debs = self.rel_root(rel), os.path.join(self.out, 'arm64-debs')
        if self._own_root(rel) or os.path.isfile(self._fetched(rel)):
            return
        # Fetched before the stamp was written: whole if its last step,
        # the kbuild link, is there.
        if (os.path.isfile('%s/boot/vmlinuz-%s' % (root, rel))
                and os.access(root + '/bin/busybox', os.X_OK)
                and os.path.exists('%s/usr/lib/%s' % (root, self._kbuild(rel) or '-'))):
            open(self._fetched(rel), 'w').close()
            return
        if not self.is_root():
            raise SetupError('arm64 packages for %s are not cached (run as root to fetch them)'
                             % rel)
        foreign = subprocess.run(['dpkg', '--print-foreign-architectures'],
                                 stdout=subprocess.PIPE, universal_newlines=True).stdout
        if 'arm64' not in foreign.split():
            log('adding the arm64 architecture to dpkg')
            if (subprocess.run(['dpkg', '--add-architecture', 'arm64']).returncode
                    or apt(['update', '-q'])):
                raise SetupError('could not add the arm64 architecture')
        os.makedirs(debs, exist_ok=True)
        os.makedirs(root, exist_ok=True)
        log('fetching arm64 ' + rel)
        want = ['linux-image-%s-unsigned:arm64' % rel, 'linux-headers-%s:arm64' % rel,
                'busybox-static:arm64']
        if apt(['download', '-q'] + want, cwd=debs, quiet=True) and (
                apt(['update', '-q']) or apt(['download', '-q'] + want, cwd=debs, quiet=True)):
            raise SetupError('apt-get download of the arm64 packages for %s failed' % rel)
        for pattern in ('linux-image-%s-unsigned_*.deb' % rel, 'linux-headers-%s_*.deb' % rel,
                        'busybox-static_*_arm64.deb'):
            for deb in sorted(glob.glob(os.path.join(debs, pattern))):
                if subprocess.run(['dpkg', '-x', deb, root]).returncode:
                    raise SetupError('could not unpack ' + deb)
        kbuild = self._kbuild(rel)
        if not kbuild or not os.path.isdir('/usr/lib/' + kbuild):
            raise SetupError("/usr/lib/%s is missing (the amd64 headers of %s's version)"
                             % (kbuild, rel))
        os.makedirs(os.path.dirname('%s/usr/lib/%s' % (root, kbuild)), exist_ok=True)
        kernelfiles.link('%s/usr/lib/%s' % (root, kbuild), '/usr/lib/' + kbuild)
        # Last: an unpacking cut short is not taken for the release.
        open(self._fetched(rel), 'w').close()


def build_apart(series, env):
    """The kernels of SERIES that are built here, built (or found) in a
    process of their own at the lowest priority: the kernel-build step,
    which the caller waits for.  Only that process is niced; the
    caller's own builds after it are not slowed."""
    built = [s for s in series if builtkernel.built_kernel(s)]
    if not built:
        return
    status = subprocess.run([sys.executable, '-P', '-m', 'pcengine.kernels', 'kernel-build']
                            + built, env=engine_env(env)).returncode
    if status:
        raise SetupError('building the %s kernel failed (%s)' % (
            ' and '.join(built), 'why: above' if status > 0 else 'signal %d' % -status))


def version_key(rel):
    """sort -V's order, near enough for releases: numbers as numbers."""
    return [int(x) if x.isdigit() else x for x in re.split(r'(\d+)', rel)]


def apt(args, env=None, cwd=None, quiet=True):
    """apt-get ARGS' status, its output dropped."""
    out = subprocess.DEVNULL if quiet else None
    return subprocess.run(['apt-get'] + args, env=env, cwd=cwd, stdout=out,
                          stderr=out if args[0] == 'download' else None).returncode


def build_main(argv, env):
    """make debug-kernel and make clang-kernel: build or find the
    kernel, then say where everything is."""
    flavour = argv[0] if argv else 'debug'
    Host(env).install_deps([flavour])
    start = time.time()
    image, tree = builtkernel.build(flavour, env)
    for line in builtkernel.report(flavour, image, tree, int(time.time() - start)):
        print(line)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] not in ('build', 'kernel-build', 'fetch-arm64') or (
            argv[0] == 'build' and len(argv) > 2) or (
            argv[0] == 'fetch-arm64' and (len(argv) != 2 or series_arch(argv[1]) != 'arm64')):
        sys.exit('usage: python3 -m pcengine.kernels build [debug|clang]\n'
                 '       python3 -m pcengine.kernels kernel-build FLAVOUR...\n'
                 '       python3 -m pcengine.kernels fetch-arm64 arm64-6.1|arm64-6.12')
    env = dict(os.environ)

    def work():
        if argv[0] == 'build':
            build_main(argv[1:], env)
        elif argv[0] == 'fetch-arm64':
            host = Host(env)
            host.install_deps(argv[1:])
            rel = host.kernel_release(argv[1])
            host.fetch_arm64(rel)
            print(host.headers(rel))
        else:
            # It takes what the guests leave, and slows none of them
            # towards its time limit (a two-core host runs two guests).
            os.setpriority(os.PRIO_PROCESS, 0, 19)
            for flavour in argv[1:]:
                builtkernel.build(flavour, env)
    return run_cli(work)


if __name__ == '__main__':
    sys.exit(main())
