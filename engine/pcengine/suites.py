# SPDX-License-Identifier: GPL-2.0
"""Debian kernels from suites other than the host's: each built with its
own suite's compiler.

Debian sid's 7.2 is built with gcc-16, and its kbuild tools need glibc
2.38; bullseye's 5.10 with gcc-10.  Neither compiler installs on Debian 12.  So a series of another suite gets:

- a private apt configuration (never the host's sources), which may
  accept a Release file past its Valid-Until date: the mirror here
  serves sid's late;
- a chroot of that suite made with mmdebstrap: the compiler, make and
  the amd64 headers installed, arm64's headers unpacked beside them
  (they use the amd64 kbuild tools of the same version), keyed by the
  versions of what it holds;
- the kernel's image, config and modules unpacked (never installed);
- a root of links for the release, as a kernel of files has one
  (kernelfiles.py), whose `chroot` link says where its module builds.

All of it is cached in ~/.cache/provoke-crash/suites/, built under a
lock and published whole.  Adding a series when Debian moves on is one
line of SERIES.
"""

import collections
import contextlib
import glob
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import time

from . import SetupError, cache_of, kernelfiles, log, waiting

Suite = collections.namedtuple('Suite', 'compiler cross stale_ok')
SUITES = {
    'sid': Suite('gcc-16', 'gcc-16-aarch64-linux-gnu', True),
    'forky': Suite('gcc-16', 'gcc-16-aarch64-linux-gnu', True),
    'bullseye': Suite('gcc-10', 'gcc-10-aarch64-linux-gnu', False),
}
# series: (suite, Debian's flavour, the version its release must have).
Series = collections.namedtuple('Series', 'suite flavour version')
SERIES = {
    '7.2': Series('sid', 'cloud-amd64', '7.2'),
    '7.2-rt': Series('sid', 'rt-amd64', '7.2'),
    'arm64-7.2': Series('sid', 'arm64', '7.2'),
    '5.10': Series('bullseye', 'cloud-amd64', '5.10'),
    'arm64-5.10': Series('bullseye', 'arm64', '5.10'),
}
MIRROR = 'http://deb.debian.org/debian'
# What the host needs for these: mmdebstrap makes the chroots.
HOST_PACKAGES = ('mmdebstrap',)
# apt's lists are taken again after a day.
LISTS_MAX_AGE = 24 * 3600


def is_suite_series(series):
    return series in SERIES


def arch_of(series):
    return 'arm64' if SERIES[series].flavour.endswith('arm64') else 'amd64'


class AptRoot:
    """A private apt configuration for SUITE, amd64 and arm64, under the
    cache: its lists, its downloads and an empty dpkg status."""

    def __init__(self, suite, env):
        self.suite = suite
        self.dir = os.path.join(cache_of(env), 'suites', 'apt-' + suite)
        self.conf = os.path.join(self.dir, 'apt.conf')

    def _write(self):
        """The configuration, each file replaced whole and only when it
        changes: an apt-get of another run reading it never finds it
        empty (it would fall back to the host's sources)."""
        for d in ('lists/partial', 'cache/archives/partial', 'debs'):
            os.makedirs(os.path.join(self.dir, d), exist_ok=True)
        _put(os.path.join(self.dir, 'sources.list'),
             'deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] '
             '%s %s main\n' % (MIRROR, self.suite))
        open(os.path.join(self.dir, 'status'), 'a').close()
        opts = ['Dir::Etc::sourcelist "%s/sources.list";' % self.dir,
                'Dir::Etc::sourceparts "-";',
                'Dir::State::lists "%s/lists";' % self.dir,
                'Dir::State::status "%s/status";' % self.dir,
                'Dir::Cache "%s/cache";' % self.dir,
                'APT::Architectures { "amd64"; "arm64"; };',
                'APT::Sandbox::User "root";']
        if SUITES[self.suite].stale_ok:
            opts.append('Acquire::Check-Valid-Until "false";')
        _put(self.conf, '\n'.join(opts) + '\n')

    def run(self, args, cwd=None):
        """apt-get or apt-cache ARGS under this configuration: stdout."""
        r = subprocess.run(args, env=dict(os.environ, APT_CONFIG=self.conf), cwd=cwd,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True)
        if r.returncode:
            last = r.stderr.strip().splitlines()[-1:] or ['status %d' % r.returncode]
            raise SetupError('%s (private %s sources) failed: %s' % (
                ' '.join(args[:2]), self.suite, last[0]))
        return r.stdout

    def update(self, force=False):
        """The lists, taken again after a day (or when FORCE), under
        the suite's lock: two runs never update at once."""
        stamp = os.path.join(self.dir, 'updated')
        with _lock(self.dir + '.lock'):
            self._write()
            if not force and os.path.isfile(stamp) and \
                    time.time() - os.stat(stamp).st_mtime < LISTS_MAX_AGE:
                return
            log('apt-get update (private %s sources)' % self.suite)
            self.run(['apt-get', 'update', '-q'])
            open(stamp, 'w').close()

    def version(self, package):
        """The candidate version of PACKAGE, or None."""
        m = re.search(r'^Version: (\S+)', self.run(['apt-cache', 'show', '--no-all-versions',
                                                    package]), re.M) if self.has(package) else None
        return m.group(1) if m else None

    def has(self, package):
        r = subprocess.run(['apt-cache', 'show', '--no-all-versions', package],
                           env=dict(os.environ, APT_CONFIG=self.conf),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return r.returncode == 0

    def release(self, flavour):
        """The release that Debian's linux-headers-FLAVOUR points to."""
        arch = ':arm64' if flavour.endswith('arm64') else ''
        text = self.run(['apt-cache', 'show', '--no-all-versions',
                         'linux-headers-%s%s' % (flavour, arch)])
        m = re.search(r'^Depends:.*?\blinux-headers-(\S+-%s)\b' % re.escape(flavour), text, re.M)
        if not m:
            raise SetupError('%s: linux-headers-%s names no release' % (self.suite, flavour))
        return m.group(1)

    @contextlib.contextmanager
    def downloaded(self, packages):
        """PACKAGES' .debs, the versions the lists name, in a directory
        of their own, removed after: their paths.  A version the mirror
        dropped since the lists were taken is fetched after an update."""
        d = tempfile.mkdtemp(dir=os.path.join(self.dir, 'debs'))
        try:
            try:
                self.run(['apt-get', 'download', '-q'] + packages, cwd=d)
            except SetupError:
                self.update(force=True)
                self.run(['apt-get', 'download', '-q'] + packages, cwd=d)
            found = []
            for p in packages:
                hits = glob.glob(os.path.join(d, '%s_*.deb' % p.split(':')[0].split('=')[0]))
                if len(hits) != 1:
                    raise SetupError('%s: apt-get download %s left %d .debs' % (
                        self.suite, p, len(hits)))
                found.append(hits[0])
            yield found
        finally:
            shutil.rmtree(d, ignore_errors=True)


def _put(path, text):
    """PATH holds TEXT, replaced whole, and only when it differs."""
    try:
        with open(path) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path))
    with os.fdopen(fd, 'w') as f:
        f.write(text)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)


def _lock(path):
    """An exclusive lock on PATH, held until the returned file closes."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    f = open(path, 'a+')
    waiting.take(f, 'preparing ' + os.path.basename(path)[:-len('.lock')])
    return f


def _chroot_packages(apt, suite, releases):
    """What the chroot holds, as PACKAGE=VERSION: the compiler, make,
    sparse and the amd64 headers, installed; arm64's headers, unpacked."""
    s = SUITES[suite]
    want = [s.compiler, 'make', 'libc6-dev', 'sparse']
    if any(r.endswith('-arm64') for r in releases):
        want.append(s.cross)
    want += ['linux-headers-' + r + (':arm64' if r.endswith('-arm64') else '')
             for r in releases]
    return ['%s=%s' % (p, apt.version(p) or '-') for p in want]


def chroot(suite, releases, env):
    """The chroot of SUITE that builds modules for RELEASES: made once
    per set of package versions, under a lock, and published whole."""
    apt = AptRoot(suite, env)
    pkgs = _chroot_packages(apt, suite, releases)
    missing = [p for p in pkgs if p.endswith('=-')]
    if missing:
        raise SetupError('%s has no %s' % (suite, ', '.join(p[:-2] for p in missing)))
    key = hashlib.sha256((suite + '\n' + '\n'.join(sorted(pkgs))).encode()).hexdigest()[:16]
    base = os.path.join(cache_of(env), 'suites')
    root = os.path.join(base, '%s-%s' % (suite, key))
    if _whole(root, releases):
        return root
    with _lock(root + '.lock'):
        if _whole(root, releases):
            return root
        tmp = root + '.tmp'
        shutil.rmtree(tmp, ignore_errors=True)
        log('making a %s chroot with %s (mmdebstrap, a few minutes; kept in %s)'
            % (suite, SUITES[suite].compiler, base))
        installed = [p for p in pkgs if ':arm64=' not in p]
        argv = ['mmdebstrap', '--variant=apt', '--mode=root', '-q',
                '--include=' + ','.join(installed)]
        if SUITES[suite].stale_ok:
            argv.append('--aptopt=Acquire::Check-Valid-Until "false"')
        r = subprocess.run(argv + [suite, tmp, MIRROR], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, universal_newlines=True)
        if r.returncode:
            shutil.rmtree(tmp, ignore_errors=True)
            raise SetupError('mmdebstrap of %s failed: %s' % (suite, r.stdout[-2000:]))
        arm64 = [p for p in pkgs if ':arm64=' in p]
        if arm64:
            with apt.downloaded(arm64) as debs:
                for deb in debs:
                    _unpack(deb, tmp)
        _sparse_check(tmp)
        if not all(os.path.isdir(os.path.join(tmp, 'usr/src/linux-headers-' + r))
                   for r in releases):
            raise SetupError('the %s chroot lacks the headers of %s' % (suite, ' '.join(releases)))
        open(os.path.join(tmp, '.complete'), 'w').close()
        shutil.rmtree(root, ignore_errors=True)
        os.rename(tmp, root)
    return root


# What C=1 asks of the checker before it runs it: 7.2's Makefile runs
# scripts/checker-valid.sh, which Debian's headers do not ship, and
# without it sparse is silently off.  Ours answers as the kernel's does:
# 1 when the checker runs and reports no error on code it must accept.
SPARSE_CHECK = '''#!/bin/sh
# provoke-crash: Debian's headers lack the kernel's checker-valid.sh.
command -v "$1" >/dev/null 2>&1 || exit 1
f=$(mktemp --suffix=.c)
printf 'static inline int u(const int *q)\\n{\\n\\t__typeof_unqual__(*q) v = *q;\\n\\treturn v;\\n}\\n' >"$f"
if "$@" "$f" 2>&1 | grep -q error; then echo 0; else echo 1; fi
rm -f "$f"
'''


def _sparse_check(root):
    """The checker test C=1 runs, where a headers tree lacks it: made
    with the chroot, before it is published."""
    for scripts in glob.glob(os.path.join(root, 'usr/src/linux-headers-*-common/scripts')):
        path = os.path.join(scripts, 'checker-valid.sh')
        if not os.path.exists(path):
            with open(path, 'w') as f:
                f.write(SPARSE_CHECK)
            os.chmod(path, 0o755)


def _whole(root, releases):
    """ROOT is a published chroot with the headers of RELEASES."""
    return os.path.isfile(os.path.join(root, '.complete')) and all(
        os.path.isdir(os.path.join(root, 'usr/src/linux-headers-' + r)) for r in releases)


def _unpack(deb, dest):
    if subprocess.run(['dpkg-deb', '-x', deb, dest]).returncode:
        raise SetupError('could not unpack ' + deb)


def _kernel_packages(apt, rel):
    """The packages with REL's image, config and modules: sid's split
    ones (linux-binary-, -modules-, -base-), or the older one image."""
    arch = ':arm64' if rel.endswith('-arm64') else ''
    split = ['linux-binary-' + rel, 'linux-modules-' + rel, 'linux-base-' + rel]
    if apt.has('linux-binary-%s%s' % (rel, arch)):
        return [p + arch for p in split]
    if arch and apt.has('linux-image-%s-unsigned:arm64' % rel):
        return ['linux-image-%s-unsigned:arm64' % rel]
    return ['linux-image-%s%s' % (rel, arch)]


def _first(root, paths):
    for p in paths:
        if os.path.exists(os.path.join(root, p)):
            return os.path.join(root, p)
    raise SetupError('%s: none of %s' % (root, ', '.join(paths)))


def kernel_files(suite, rel, env):
    """REL's image, config and modules, unpacked once per package
    version (a rebuild may keep the release's name): their directory."""
    apt = AptRoot(suite, env)
    pkgs = _kernel_packages(apt, rel)
    version = apt.version(pkgs[0])
    if not version:
        raise SetupError('%s has no %s' % (suite, pkgs[0]))
    d = os.path.join(cache_of(env), 'suites', 'kernel-%s_%s' % (
        rel, re.sub(r'[^A-Za-z0-9.+-]', '_', version)))
    if os.path.isfile(os.path.join(d, '.complete')):
        return d
    with _lock(d + '.lock'):
        if os.path.isfile(os.path.join(d, '.complete')):
            return d
        tmp = d + '.tmp'
        shutil.rmtree(tmp, ignore_errors=True)
        log('fetching %s from %s' % (rel, suite))
        if rel.endswith('-arm64'):
            pkgs.append('busybox-static:arm64')
        with apt.downloaded(pkgs) as debs:
            for deb in debs:
                _unpack(deb, tmp)
        open(os.path.join(tmp, '.complete'), 'w').close()
        shutil.rmtree(d, ignore_errors=True)
        os.rename(tmp, d)
    return d


def linux_source(series, env):
    """SERIES' suite's linux-source tarball, fetched and taken out of
    its package once: its path."""
    s = SERIES[series]
    apt = AptRoot(s.suite, env)
    apt.update()
    package = 'linux-source-' + s.version
    version = apt.version(package)
    if not version:
        raise SetupError('%s has no %s' % (s.suite, package))
    path = os.path.join(cache_of(env), 'suites', '%s_%s.tar.xz' % (
        package, re.sub(r'[^A-Za-z0-9.+-]', '_', version)))
    if os.path.isfile(path):
        return path
    with _lock(path + '.lock'):
        if os.path.isfile(path):
            return path
        log('fetching %s from %s' % (package, s.suite))
        tmp = path + '.tmp'
        with apt.downloaded([package]) as (deb,), open(tmp, 'wb') as out:
            tar = subprocess.Popen(['dpkg-deb', '--fsys-tarfile', deb], stdout=subprocess.PIPE)
            ok = subprocess.run(['tar', '-xO', './usr/src/%s.tar.xz' % package],
                                stdin=tar.stdout, stdout=out).returncode == 0
            tar.stdout.close()
            ok = tar.wait() == 0 and ok
        if not ok:
            os.unlink(tmp)
            raise SetupError('could not take %s.tar.xz out of its package' % package)
        os.rename(tmp, path)
    return path


def prepare(series, roots, env):
    """SERIES' chroot, kernel files and root of links under ROOTS: its
    release."""
    s = SERIES[series]
    apt = AptRoot(s.suite, env)
    apt.update()
    rel = apt.release(s.flavour)
    if not rel.startswith(s.version + '.'):
        raise SetupError("%s's %s kernel is %s now, not %s: add a series for it "
                         "(engine/pcengine/suites.py)" % (s.suite, s.flavour, rel, s.version))
    # One chroot for all of the suite's series: their headers together.
    rels = sorted({rel} | {apt.release(o.flavour) for o in SERIES.values()
                           if o.suite == s.suite})
    croot = chroot(s.suite, rels, env)
    files = kernel_files(s.suite, rel, env)
    link_root(roots, rel, croot, files)
    return rel


def link_root(roots, rel, croot, files):
    """ROOTS/REL laid out like an installed Debian kernel's, its files
    in FILES and its headers in the chroot CROOT."""
    root = os.path.join(roots, rel)
    for d in ('boot', 'bin', 'usr/src', 'lib/modules'):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    mods = _first(files, ('usr/lib/modules/' + rel, 'lib/modules/' + rel))
    busybox = (_first(files, ('usr/bin/busybox', 'bin/busybox')) if rel.endswith('-arm64')
               else '/bin/busybox')
    for path, target in (
            ('boot/vmlinuz-' + rel, _first(files, ('boot/vmlinuz-' + rel, mods[len(files) + 1:]
                                                   + '/vmlinuz'))),
            ('boot/config-' + rel, _first(files, ('boot/config-' + rel,
                                                  mods[len(files) + 1:] + '/config'))),
            ('lib/modules/' + rel, mods),
            ('usr/src/linux-headers-' + rel, os.path.join(croot, 'usr/src/linux-headers-' + rel)),
            ('bin/busybox', busybox),
            ('chroot', croot)):
        kernelfiles.link(os.path.join(root, path), target)


def build_root(root):
    """The chroot a release's modules build in (its root's `chroot`
    link), or None: the host builds them."""
    try:
        return os.readlink(os.path.join(root, 'chroot'))
    except OSError:
        return None


def in_chroot(croot, argv, binds):
    """ARGV run inside the chroot CROOT, with /proc (objtool reads it) and
    each host directory in BINDS at the same path: a make -C and M= mean
    the same inside as outside."""
    script = '''set -e
root=$1
n=$2
shift 2
mount -t proc proc "$root/proc"
while [ "$n" -gt 0 ]; do
	mkdir -p "$root$1"
	mount --bind "$1" "$root$1"
	shift
	n=$((n - 1))
done
exec chroot "$root" "$@"'''
    return (['unshare', '--mount', '--', 'sh', '-c', script, 'in-chroot', croot, str(len(binds))]
            + list(binds) + list(argv))
