# SPDX-License-Identifier: GPL-2.0
"""The guest's root: the kernel's own modules it needs (ramoops, the
saved guest's payload disk, and on arm64 the virtio port of the case's
output), found where the system or
the kernel's tree keeps them, and the initramfs packed around the
module, the guest helpers, /init and the cases."""

import lzma
import os
import shutil
import subprocess

from . import ROOT, SetupError, kernels

# On arm64 the case's output goes to a virtio-serial port on the virt
# board's virtio-mmio bus; /init, and the capture kernel's, load what
# they find.
# The output port's modules, in load order; one the kernel builds in is
# left out.  virtio and virtio_ring are modules on 5.10, built in later.
ARM64_OUT_MODULES = ('drivers/virtio/virtio', 'drivers/virtio/virtio_ring',
                     'drivers/virtio/virtio_mmio', 'drivers/char/virtio_console')
RAMOOPS_MODULES = ('lib/reed_solomon/reed_solomon', 'fs/pstore/ramoops')
# A saved guest's payload disk (qemu.payload_disk()), a virtio-blk device:
# its driver and, on x86-64, the virtio-pci bus it sits on, in load
# order (virtio needs virtio_ring on 6.1; the two virtio_pci libraries
# are modules of their own from 5.14).  On arm64 it sits on virtio-mmio,
# whose modules the output port's list has.  They go to /disk/, which
# /init loads before a save only (no other guest has the disk): the
# names do not mix with arm64's /virtio_mmio.ko, which tells /init its
# output is a virtio port.
DISK_MODULES = {
    'amd64': ('drivers/virtio/virtio_ring', 'drivers/virtio/virtio',
              'drivers/virtio/virtio_pci_legacy_dev', 'drivers/virtio/virtio_pci_modern_dev',
              'drivers/virtio/virtio_pci', 'drivers/block/virtio_blk'),
    'arm64': ('drivers/block/virtio_blk',),
}


def module_file(host, rel, module):
    """REL's MODULE (a path under its kernel/ tree, no suffix) as a
    file, .ko or .ko.xz: /lib/modules/REL for a Debian release, the root
    of links for a kernel of files; None if REL has none (built in, not
    built, or not found)."""
    base = '%s/lib/modules/%s/kernel/%s' % (host.rel_root(rel), rel, module)
    for f in (base + '.ko', base + '.ko.xz'):
        if os.path.isfile(f):
            return f
    return None


def module_absent(host, rel, module):
    """None if REL has MODULE as a file; else why not, and where it was
    looked for."""
    if module_file(host, rel, module):
        return None
    sub = os.path.dirname(module)
    where = '%s/lib/modules/%s/kernel/%s' % (host.rel_root(rel), rel, sub)
    # A kernel of files: its tree, then the system's modules.
    try:
        tree = os.readlink(host.headers(rel))
        where = '%s/%s and /lib/modules/%s/kernel/%s' % (tree, sub, rel, sub)
    except OSError:
        pass
    return 'no %s.ko for %s (looked in %s)' % (os.path.basename(module), rel, where)


def ramoops_absent(host, rel):
    """None if a guest of REL can keep records in ramoops (built in, or
    ramoops.ko and reed_solomon.ko, which /init loads); else why not."""
    config = kernels.config_text(host.rel_config(rel))
    lines = config.splitlines()
    if 'CONFIG_PSTORE_RAM=y' in lines:
        return None
    if not host.has_config(rel, 'CONFIG_PSTORE_RAM'):
        return '%s has no CONFIG_PSTORE_RAM' % rel
    why = module_absent(host, rel, 'fs/pstore/ramoops')
    if why is None and 'CONFIG_REED_SOLOMON=m' in lines:
        why = module_absent(host, rel, 'lib/reed_solomon/reed_solomon')
    return why


def copy_modules(host, rel, dest, modules):
    """REL's MODULES into DEST, uncompressed for busybox insmod; one REL
    does not have (built in, or not built) is left out."""
    for module in modules:
        f = module_file(host, rel, module)
        if f is None:
            continue
        to = os.path.join(dest, os.path.basename(module) + '.ko')
        if f.endswith('.xz'):
            try:
                with lzma.open(f) as src, open(to, 'wb') as dst:
                    shutil.copyfileobj(src, dst)
            except lzma.LZMAError as e:
                raise SetupError('could not unpack %s: %s' % (f, e))
        else:
            shutil.copyfile(f, to)


def copy_out_modules(host, rel, dest):
    if host.rel_arch(rel) == 'arm64':
        copy_modules(host, rel, dest, ARM64_OUT_MODULES)


def copy_disk_modules(host, rel, root):
    """The payload disk's modules into ROOT/disk (those REL has as
    files)."""
    dest = os.path.join(root, 'disk')
    os.makedirs(dest, exist_ok=True)
    copy_modules(host, rel, dest, DISK_MODULES[host.rel_arch(rel)])


def pack_cpio(root, out, top='.'):
    """ROOT's tree (or its directory TOP, by that name) into OUT, a newc
    cpio archive.  Not compressed: under
    TCG the guest's gunzip cost 0.3 s a boot (0.6 s for a kdump guest's),
    more than QEMU's reading the archive."""
    with open(out, 'wb') as f:
        find = subprocess.Popen(['find', top], cwd=root, stdout=subprocess.PIPE)
        cpio = subprocess.run(['cpio', '-o', '-H', 'newc', '--quiet'], cwd=root,
                              stdin=find.stdout, stdout=f)
        find.stdout.close()
        if find.wait() or cpio.returncode:
            raise SetupError('could not pack %s' % root)


def _copy(src, dst):
    shutil.copy(src, dst)


def pack(host, rel, cases=None, extra=()):
    """OUT/REL/initramfs.cpio: busybox, the module (and its twin, if
    built), pc-guest, the tool, ramoops, an /init, the case files in the
    directory CASES and the EXTRA files (the bench's own modules)."""
    d = os.path.join(host.out, rel)
    root = os.path.join(d, 'initramfs')
    shutil.rmtree(root, ignore_errors=True)
    for sub in ('bin', 'sbin', 'etc', 'proc', 'sys', 'dev', 'tmp', 'cases', 'usr/bin',
                'usr/sbin'):
        os.makedirs(os.path.join(root, sub))
    _copy(host.rel_root(rel) + '/bin/busybox', os.path.join(root, 'bin/busybox'))
    # Without their DWARF, 4.3 MB of each 4.7: every boot unpacks them,
    # every insmod reads them, and nothing in the guest reads it (a
    # vmcore is opened on the host, with the build's own .ko).
    strip = host.cross_prefix(rel) + 'strip'
    for name, ko in (('module', 'provoke_crash'), ('twin', 'provoke_crash_twin')):
        src = os.path.join(d, 'src', name, ko + '.ko')
        if name == 'twin' and not os.path.isfile(src):
            continue
        if subprocess.run([strip, '--strip-debug', '-o', os.path.join(root, ko + '.ko'),
                           src]).returncode:
            raise SetupError('could not strip the %s for %s'
                             % ('module' if name == 'module' else 'twin module', rel))
    for f in ('pc-guest', 'provoke-crash'):
        _copy(os.path.join(d, f), os.path.join(root, 'bin'))
    if cases:
        for name in sorted(os.listdir(cases)):
            if name.endswith('.sh'):
                _copy(os.path.join(cases, name), os.path.join(root, 'cases'))
    with open(os.path.join(ROOT, 'guest', 'bad_input.tsv'), 'rb') as f:
        data = kernels.fill_case(host.rel_arch(rel), f.read())
    with open(os.path.join(root, 'bad_input.tsv'), 'wb') as f:
        f.write(data)
    for f in extra:
        _copy(f, root)
    _copy(os.path.join(ROOT, 'guest', 'init'), os.path.join(root, 'init'))
    _copy(os.path.join(ROOT, 'guest', 'pc-protocol.sh'), root)
    copy_modules(host, rel, root, RAMOOPS_MODULES)
    copy_out_modules(host, rel, root)
    copy_disk_modules(host, rel, root)
    os.chmod(os.path.join(root, 'init'), 0o755)
    pack_cpio(root, os.path.join(d, 'initramfs.cpio'))
