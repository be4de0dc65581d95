# SPDX-License-Identifier: GPL-2.0
"""kdump in a throw-away guest: what it boots with and what it leaves.

A kdump guest boots with crashkernel= and an initramfs made of the usual
one plus a second cpio archive (the kernel unpacks both): the kernel
image to load as the capture kernel, kexec and its libraries, and the
capture kernel's own small initramfs (guest/capture-init, vmcore-dmesg,
makedumpfile and their libraries).  The tools come from the host's
kexec-tools and makedumpfile packages on x86-64, from Debian's arm64 ones
on arm64 (unpacked under PC_OUT, never installed).  After the guest, its
disk gives the dump (save()).  The VM runner's --kdump (vm_kdump.py), the
bench's kdump lane (a series' preparation) and check-long's crash check
(kdumpcrash.py) use it, and the last two the crash utility (crash_tool())
with the kernel's vmlinux with DWARF (dbg_vmlinux()) to read a dump.

A release is named as kernels.Host names it; a path in a release's root
is root + '/boot/...' (the host's own root is '').
"""

import glob
import hashlib
import http.client
import os
import re
import shutil
import struct
import subprocess
import tempfile
import time
import urllib.request

from . import ROOT, SetupError, cache_of, cat, initramfs, log, waiting
from .kernels import version_key

# The guest's tools, as paths in their root (tools_root()).
BINS = ('/sbin/kexec', '/sbin/vmcore-dmesg', '/usr/bin/makedumpfile')
# The capture kernel's modules: virtio-blk, for a disk to keep the dump
# on, besides arm64's output port (initramfs.copy_out_modules).
CAPTURE_MODULES = ('drivers/virtio/virtio_ring', 'drivers/virtio/virtio',
                   'drivers/virtio/virtio_pci_legacy_dev', 'drivers/virtio/virtio_pci_modern_dev',
                   'drivers/virtio/virtio_pci', 'drivers/block/virtio_blk')
# The blank disk the capture kernel writes the dump onto.
DISK_SIZE = 256 << 20
# apt-cache depends' lines worth following for the arm64 tools: only
# lib* dependencies (and zlib's); the rest (perl, debconf) serve the
# packages' scripts, not the binaries.
DEPENDS_RE = re.compile(r' *\|?Depends: (lib[^ <>]*|zlib1g[^ ]*)$')

# crash 8.0.6, built once into the cache from Debian's source (trixie's;
# its tarball carries the gdb it links): Debian 12's crash 8.0.2 cannot
# open a 6.4 or later dump ("invalid structure member offset:
# module_core_size").  The tarball is pinned by its SHA-256.
CRASH_VERSION = '8.0.6'
CRASH_TARBALL = 'crash_8.0.6.orig.tar.gz'
CRASH_URL = 'http://deb.debian.org/debian/pool/main/c/crash/' + CRASH_TARBALL
CRASH_SHA256 = '097c6c94ded7e24db4af58de24744bd28276d6f5bae0828bc6b6a02664c4282a'
# What building crash needs (Host.install_deps' extra packages); urllib
# fetches the tarball.
CRASH_PACKAGES = ('g++', 'patch', 'bison', 'flex', 'texinfo', 'libncurses-dev', 'zlib1g-dev',
                  'liblzo2-dev')
# The pauses between tries of a download: curl --retry 3's.
RETRY_PAUSES = (1, 2, 4)


def cmdline(host, rel, disk=False):
    """The first kernel's command line for a kdump guest: the memory it
    reserves for the capture kernel (of its 512 MiB), and with DISK, that
    the capture kernel keeps the dump on a disk (see disk()).  arm64
    6.12's capture kernel (a 40 MB Image, every driver built in) ran out
    of memory in 128M, parsing its BTF."""
    mem = '192M' if host.rel_arch(rel) == 'arm64' and not rel.startswith('6.1.') else '128M'
    return 'crashkernel=%s pc_kdump=1%s' % (mem, ' pc_dump_disk=1' if disk else '')


def tools_root(host, rel):
    """The root the guest's tools come from: '' (the host's own) for an
    x86-64 guest."""
    return host.out + '/arm64-kdump' if host.rel_arch(rel) == 'arm64' else ''


def arm64_packages(wanted):
    """WANTED and the library packages they depend on, and theirs, as
    apt-cache knows them for arm64: names, WANTED's first."""
    todo, pkgs = list(wanted), []
    while todo:
        p = todo.pop(0)
        if p in pkgs:
            continue
        pkgs.append(p)
        said = subprocess.run(
            ['apt-cache', 'depends', '--no-recommends', '--no-suggests', '--no-conflicts',
             '--no-breaks', '--no-replaces', '--no-enhances', p + ':arm64'],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, universal_newlines=True).stdout
        for line in said.splitlines():
            m = DEPENDS_RE.match(line)
            if m:
                dep = m.group(1)
                todo.append(dep[:-len(':arm64')] if dep.endswith(':arm64') else dep)
    return pkgs


def fetch_arm64_tools(host):
    """Debian's arm64 kexec-tools and makedumpfile, and the library
    packages they depend on, unpacked (never installed) into
    OUT/arm64-kdump; the debs are kept with the other arm64 ones
    (OUT/arm64-debs).  None when they are there; else why not."""
    dest, debs = host.out + '/arm64-kdump', host.out + '/arm64-debs'
    if os.access(dest + '/sbin/kexec', os.X_OK) and \
            os.access(dest + '/usr/bin/makedumpfile', os.X_OK):
        return None
    if not host.is_root():
        return 'arm64 kexec-tools and makedumpfile are not cached (run as root to fetch them)'
    pkgs = arm64_packages(('kexec-tools', 'makedumpfile'))
    os.makedirs(debs, exist_ok=True)
    os.makedirs(dest, exist_ok=True)
    log('fetching arm64 ' + ' '.join(pkgs))
    if subprocess.run(['apt-get', 'download', '-q'] + [p + ':arm64' for p in pkgs], cwd=debs,
                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode:
        return 'apt-get download of arm64 %s failed' % ' '.join(pkgs)
    for p in pkgs:
        # The newest, should an older download be there too.
        found = sorted(glob.glob('%s/%s_*_arm64.deb' % (glob.escape(debs), glob.escape(p))),
                       key=version_key)
        if not found or subprocess.run(['dpkg', '-x', found[-1], dest]).returncode:
            return 'could not unpack arm64 ' + p
    return None


def _readelf(option, elf):
    return subprocess.run(['readelf', option, elf], stdout=subprocess.PIPE,
                          universal_newlines=True, errors='surrogateescape').stdout.splitlines()


def copy_bins(frm, root, bins):
    """BINS (paths in the root FRM, '' for the host's) into ROOT/sbin
    with every shared library they load and the loader, at the paths the
    loader looks in.  Read from the ELF files (readelf reads any
    architecture's), not with ldd, which runs them: arm64's cannot run
    here.  Raises SetupError for a library not found."""
    os.makedirs(root + '/sbin', exist_ok=True)
    for b in bins:
        shutil.copy(frm + b, root + '/sbin/')
        copy_libs(frm, root, frm + b)


def copy_libs(frm, root, elf):
    """ELF's loader and libraries, and theirs, from FRM into ROOT."""
    multiarch = 'x86_64-linux-gnu'
    if any(re.search('Machine:.*AArch64', line) for line in _readelf('-h', elf)):
        multiarch = 'aarch64-linux-gnu'
    program = _readelf('-l', elf)
    for line in program:
        m = re.match(r'.*program interpreter: (.*)\]$', line)
        if m and not os.path.exists(root + m.group(1)):
            os.makedirs(root + os.path.dirname(m.group(1)), exist_ok=True)
            shutil.copy(frm + m.group(1), root + m.group(1))
    for line in _readelf('-d', elf):
        m = re.match(r'.*\(NEEDED\).*\[(.*)\]$', line)
        if not m:
            continue
        lib = m.group(1)
        where = '/lib/' + multiarch
        if not os.path.exists('%s%s/%s' % (frm, where, lib)):
            where = '/usr/lib/' + multiarch
        if not os.path.exists('%s%s/%s' % (frm, where, lib)):
            raise SetupError('%s, which %s needs, is not in %s/{,usr/}lib/%s'
                             % (lib, elf, frm, multiarch))
        to = '%s%s/%s' % (root, where, lib)
        if os.path.exists(to):
            continue
        os.makedirs(root + where, exist_ok=True)
        shutil.copy('%s%s/%s' % (frm, where, lib), to)
        copy_libs(frm, root, to)


def available(host, rel):
    """None when REL can have a kdump guest here; else why not.  Fetches
    an arm64 release's files on the way (its config comes with its
    image, fetched on first use; its tools), which raises SetupError
    when that fails."""
    arm64 = host.rel_arch(rel) == 'arm64'
    if arm64 and not os.path.isfile(host.rel_config(rel)):
        host.fetch_arm64(rel)
    try:
        with open(host.rel_config(rel), encoding='utf-8', errors='surrogateescape') as f:
            config = f.read()
    except OSError:
        config = ''
    for option in ('CONFIG_KEXEC', 'CONFIG_CRASH_DUMP', 'CONFIG_PROC_VMCORE'):
        if not re.search('^%s=y' % option, config, re.M):
            return '%s is built without %s' % (rel, option)
    if arm64:
        why = fetch_arm64_tools(host)
        if why:
            return why
    frm = tools_root(host, rel)
    for b in BINS:
        if not os.access(frm + b, os.X_OK):
            return '%s%s is missing (packages kexec-tools, makedumpfile)' % (frm, b)
    return None


def arm64_text_offset(image):
    """How far the kernel's _stext is from its _text, read from an arm64
    Image's PE/COFF header (its EFI stub): the .text section starts at the
    end of the header, which the linker script aligns to SEGMENT_ALIGN,
    and that is where _stext is.  guest/kdump-load.sh needs it: see
    there.  None when IMAGE has no PE header with a .text section."""
    try:
        with open(image, 'rb') as f:
            def read(offset, size):
                f.seek(offset)
                data = f.read(size)
                if len(data) != size:
                    raise ValueError
                return data
            pe, = struct.unpack('<I', read(60, 4))
            if read(pe, 2) != b'PE':
                return None
            nsec, = struct.unpack('<H', read(pe + 6, 2))
            opt, = struct.unpack('<H', read(pe + 20, 2))
            for i in range(nsec):
                sec = pe + 24 + opt + 40 * i
                if read(sec, 5) == b'.text':
                    return struct.unpack('<I', read(sec + 12, 4))[0]
    except (OSError, ValueError):
        pass
    return None


def extra(host, rel):
    """OUT/REL/kdump-extra.cpio, the second archive (after OUT/REL's
    pc-guest is built): OUT/REL/kdump-capture is the capture kernel's
    root, OUT/REL/kdump-extra the archive's.  Raises SetupError."""
    d = os.path.join(host.out, rel)
    frm, tools = host.rel_root(rel), tools_root(host, rel)
    root, cap = d + '/kdump-extra', d + '/kdump-capture'
    shutil.rmtree(root, ignore_errors=True)
    shutil.rmtree(cap, ignore_errors=True)
    os.makedirs(root + '/kdump')
    for sub in ('bin', 'sbin', 'usr/bin', 'usr/sbin', 'proc', 'sys', 'dev', 'tmp'):
        os.makedirs(os.path.join(cap, sub))
    shutil.copy(frm + '/bin/busybox', cap + '/bin/busybox')
    shutil.copy(d + '/pc-guest', cap + '/bin/')
    shutil.copy(ROOT + '/guest/capture-init', cap + '/init')
    shutil.copy(ROOT + '/guest/pc-protocol.sh', cap + '/')
    os.chmod(cap + '/init', os.stat(cap + '/init').st_mode | 0o111)
    copy_bins(tools, cap, ('/sbin/vmcore-dmesg', '/usr/bin/makedumpfile'))
    initramfs.copy_modules(host, rel, cap, CAPTURE_MODULES)
    initramfs.copy_out_modules(host, rel, cap)
    initramfs.pack_cpio(cap, root + '/kdump/capture.cpio')
    image = '%s/boot/vmlinuz-%s' % (frm, rel)
    shutil.copy(image, root + '/kdump/vmlinuz')
    if host.rel_arch(rel) == 'arm64':
        off = arm64_text_offset(image)
        if off is None:
            raise SetupError('%s: no PE/COFF .text section to place _text by' % image)
        with open(root + '/kdump/text-offset', 'w') as f:
            f.write('%d\n' % off)
    shutil.copy(ROOT + '/guest/kdump-load.sh', root + '/kdump/load.sh')
    copy_bins(tools, root, ('/sbin/kexec',))
    initramfs.pack_cpio(root, d + '/kdump-extra.cpio')


def initrd(host, rel, out, archives=()):
    """OUT, a kdump guest's initramfs: the ARCHIVES (default
    OUT/REL/initramfs.cpio), then extra()'s, one after the other."""
    d = os.path.join(host.out, rel)
    parts = list(archives) or [d + '/initramfs.cpio']
    cat(parts + [d + '/kdump-extra.cpio'], out)


def pack(host, rel):
    """OUT/REL/initramfs-kdump.cpio, after initramfs.pack()."""
    extra(host, rel)
    initrd(host, rel, os.path.join(host.out, rel, 'initramfs-kdump.cpio'))


def disk(path):
    """QEMU's options for a blank disk PATH (made here, sparse) that the
    capture kernel writes the dump onto; cmdline()'s pc_dump_disk=1 tells
    it to wait for it.  A list of words: shlex.join() them into a
    --qemu-extra string."""
    if os.path.lexists(path):
        os.unlink(path)
    with open(path, 'wb') as f:
        f.truncate(DISK_SIZE)
    return ['-drive', 'file=%s,format=raw,if=virtio' % path]


def save(disk_path, output, dest):
    """From a capture's disk and the case's output, DEST gets vmcore
    (kdump-compressed, makedumpfile -R) and vmcore-dmesg.txt, the log
    the capture kernel read; the disk goes.  0 when it did, 1 when there
    was no capture, 2 when the capture kernel read the log but kept no
    dump (makedumpfile.log in DEST, if it failed here).  A DEST that
    cannot be written keeps nothing: 1, as the shell's did."""
    try:
        os.makedirs(dest, exist_ok=True)
        return _save(disk_path, output, dest)
    except OSError as e:
        log('could not keep the capture in %s: %s' % (dest, e))
        return 1


def _save(disk_path, output, dest):
    with open(output, 'rb') as f:
        raw = f.read()
    # sed's /BEGIN/,/END/ ranges (a range without an END runs to the
    # end), less the first line and the last of them all.
    text = raw.replace(b'\r', b'')
    lines = text.split(b'\n')
    if text.endswith(b'\n'):
        lines.pop()
    found, on = [], False
    for line in lines:
        if on or line.startswith(b'PC-KDUMP-DMESG-BEGIN'):
            found.append(line)
            on = not (on and line.startswith(b'PC-KDUMP-DMESG-END'))
    dmesg = dest + '/vmcore-dmesg.txt'
    with open(dmesg, 'wb') as f:
        f.write(b''.join(line + b'\n' for line in found[1:-1]))
    if not os.path.getsize(dmesg):
        return 1
    if not re.search(rb'(?m)^PC-KDUMP-DUMP [1-9]', raw):
        return 2
    said = dest + '/makedumpfile.log'
    with open(disk_path, 'rb') as src, open(said, 'wb') as err:
        try:
            if subprocess.run(['makedumpfile', '-R', dest + '/vmcore'], stdin=src,
                              stdout=subprocess.DEVNULL, stderr=err).returncode:
                return 2
        except OSError as e:
            err.write(('makedumpfile: %s\n' % e.strerror).encode())
            return 2
    os.unlink(disk_path)
    os.unlink(said)
    return 0


def _nonempty(path):
    return os.path.isfile(path) and os.path.getsize(path) > 0


def _download(url, path):
    """URL into PATH; False when every try failed."""
    for pause in RETRY_PAUSES + (None,):
        try:
            with urllib.request.urlopen(url, timeout=60) as r, open(path, 'wb') as f:
                shutil.copyfileobj(r, f)
            return True
        except (OSError, http.client.HTTPException):
            if pause is None:
                return False
            time.sleep(pause)


def _sha256(path):
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        for block in iter(lambda: f.read(1 << 20), b''):
            h.update(block)
    return h.hexdigest()


def _build_crash(cache, tarball):
    """crash from TARBALL into CACHE/crash; make's output in build.log."""
    src = cache + '/src'
    shutil.rmtree(src, ignore_errors=True)
    os.mkdir(src)
    if subprocess.run(['tar', '-xzf', tarball, '-C', src, '--strip-components=1']).returncode:
        return
    with open(cache + '/build.log', 'wb') as said:
        if subprocess.run(['nice', 'make', '-C', src, '-j%d' % len(os.sched_getaffinity(0)),
                           'lzo'], stdout=said, stderr=subprocess.STDOUT).returncode:
            return
    if subprocess.run(['strip', '-o', cache + '/crash.tmp', src + '/crash']).returncode:
        return
    os.replace(cache + '/crash.tmp', cache + '/crash')
    shutil.rmtree(src)


def crash_tool(env):
    """(crash's path, None), built the first time (minutes); else (None,
    why not).  A lock keeps two runs from building into the same place."""
    cache = os.path.join(cache_of(env), 'crash-' + CRASH_VERSION)
    crash, tarball = cache + '/crash', os.path.join(cache, CRASH_TARBALL)
    try:
        os.makedirs(cache, exist_ok=True)
        lock = open(cache + '.lock', 'a+')
    except OSError as e:
        return None, 'could not lock %s.lock: %s' % (cache, e.strerror)
    with lock:
        waiting.take(lock, 'building crash %s' % CRASH_VERSION)
        if not os.access(crash, os.X_OK) and not _nonempty(tarball):
            tmp = tarball + '.tmp'
            if not _download(CRASH_URL, tmp) or _sha256(tmp) != CRASH_SHA256:
                if os.path.lexists(tmp):
                    os.unlink(tmp)
                return None, 'could not fetch %s (SHA-256 %s) from deb.debian.org' % (
                    CRASH_TARBALL, CRASH_SHA256)
            os.replace(tmp, tarball)
        if not os.access(crash, os.X_OK):
            _build_crash(cache, tarball)
    if not os.access(crash, os.X_OK):
        return None, 'crash %s did not build: see %s/build.log' % (CRASH_VERSION, cache)
    return crash, None


def dbg_vmlinux(host, rel):
    """The vmlinux with DWARF of REL, or None: a kernel of files' tree's
    own, or that of Debian's -dbg package, fetched once (283 MB for 6.1,
    318 MB for 6.12, kept in ~/.cache/provoke-crash/dbg)."""
    cache = os.path.join(cache_of(host.env), 'dbg')
    vmlinux = '%s/vmlinux-%s' % (cache, rel)
    own = os.path.join(host.roots, rel)
    if os.path.isdir(own):
        tree = '%s/usr/src/linux-headers-%s/vmlinux' % (own, rel)
        return tree if _nonempty(tree) else None
    if _nonempty(vmlinux):
        return vmlinux
    os.makedirs(cache, exist_ok=True)
    # One fetch at a time (the bench's crash check and a runner's --bt
    # may ask at once); the file appears whole, under its name, or not.
    with open(vmlinux + '.lock', 'a+') as lock:
        waiting.take(lock, 'fetching the vmlinux of %s' % rel)
        if _nonempty(vmlinux):
            return vmlinux
        return _fetch_vmlinux(cache, rel, vmlinux)


def _fetch_vmlinux(cache, rel, vmlinux):
    """Under the lock: what a fetch cut short left (a partial file of up
    to 600 MB) goes first; a package that does not unpack goes too, so
    that the next run downloads it again."""
    for old in glob.glob(os.path.join(glob.escape(cache), '.vmlinux-*')):
        os.unlink(old)
    pattern = '%s/linux-image-%s-dbg_*.deb' % (glob.escape(cache), glob.escape(rel))
    if not glob.glob(pattern) and subprocess.run(
            ['apt-get', 'download', '-q', 'linux-image-%s-dbg' % rel], cwd=cache,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode:
        return None
    debs = sorted(glob.glob(pattern))
    if not debs:
        return None
    fd, tmp = tempfile.mkstemp(dir=cache, prefix='.vmlinux-')
    try:
        with os.fdopen(fd, 'wb') as f:
            deb = subprocess.Popen(['dpkg-deb', '--fsys-tarfile', debs[0]],
                                   stdout=subprocess.PIPE)
            tar = subprocess.run(['tar', '-xO', './usr/lib/debug/boot/vmlinux-' + rel],
                                 stdin=deb.stdout, stdout=f)
            deb.stdout.close()
        if deb.wait() or tar.returncode:
            os.unlink(debs[0])
            return None
        os.replace(tmp, vmlinux)
        return vmlinux
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
