# SPDX-License-Identifier: GPL-2.0
"""Kernels given as files, not as Debian packages: IMAGE:TREE (a bzImage
and the build tree, O= works, that the module is built against), and
the bench's own debug and clang kernels once built (builtkernel.py).

Each gets a root of links under PC_KERNEL_ROOTS, laid out like an
installed Debian kernel's, so that everything else reaches its files as
it reaches a Debian release's (kernels.Host.rel_root).  ramoops and
reed_solomon, when built as modules, come from the tree, or else from
where the system keeps the release's modules, /lib/modules/REL/kernel/
(.ko or .ko.xz): a distribution's headers tree has no .ko at all.  With
PSTORE_RAM built in, the guest's boot line takes ramoops' parameters
instead (kernels.ramoops_params; /init's insmod of them then fails,
harmlessly); with no ramoops anywhere the bench's pstore checks skip
(initramfs.ramoops_absent).
"""

import os
import re
import secrets
import shutil
import subprocess

from . import SetupError, read_text

# The modules taken from the tree or the system, by their option.
MODULES = (('REED_SOLOMON', 'lib/reed_solomon/reed_solomon'),
           ('PSTORE_RAM', 'fs/pstore/ramoops'))


def release_of(tree):
    """The release the module's vermagic takes: UTS_RELEASE (Debian's
    headers keep the upstream version in kernel.release)."""
    try:
        m = re.search(r'^#define UTS_RELEASE "(.*)"$',
                      read_text(os.path.join(tree, 'include/generated/utsrelease.h')), re.M)
        if m:
            return m.group(1)
    except OSError:
        pass
    return read_text(os.path.join(tree, 'include/config/kernel.release')).strip()


def host_gcc_major(cc='gcc'):
    """The major version of the host's CC, or None."""
    try:
        out = subprocess.run([cc, '-dumpversion'], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, universal_newlines=True).stdout
    except OSError:
        return None
    m = re.match(r'(\d+)', out)
    return int(m.group(1)) if m else None


def compiler_major(config, name):
    """The major version of the compiler NAME ('GCC' or 'CLANG') that
    built a kernel of CONFIG's text, or None when another built it."""
    m = re.search(r'^CONFIG_%s_VERSION=([1-9][0-9]*)[0-9]{4}$' % name, config, re.M)
    return int(m.group(1)) if m else None


def compiler_missing(config, gcc_major=host_gcc_major, which=shutil.which):
    """Why the host cannot build modules for a kernel of CONFIG's text
    (the compiler that built it, by its version text), or None."""
    text = re.search(r'^CONFIG_CC_VERSION_TEXT="(.*)"$', config, re.M)
    text = text.group(1) if text else 'an unknown compiler'
    clang = compiler_major(config, 'CLANG')
    if clang:
        need = 'clang-%d' % clang
        return None if which(need) and which('ld.lld-%d' % clang) else (
            'it was built with %s; the host has no %s (apt-get install %s lld-%d)'
            % (text, need, need, clang))
    gcc = compiler_major(config, 'GCC')
    if not gcc or gcc == gcc_major():
        return None
    need = 'gcc-%d' % gcc
    if which(need):
        return None
    return ('it was built with %s; the host\'s gcc is %s and it has no %s: build on a host '
            'that has it, or use a Debian series of that suite (its chroot has it)'
            % (text, gcc_major(), need))


def link(path, target):
    """PATH -> TARGET, replaced only when it changes, and then at once:
    a guest reading through it, or another run linking the same, never
    finds it missing."""
    try:
        if os.readlink(path) == target:
            return
    except OSError:
        pass
    tmp = '%s.%s.tmp' % (path, secrets.token_hex(6))
    os.symlink(target, tmp)
    try:
        os.replace(tmp, path)
    except OSError:
        os.unlink(tmp)
        raise


def link_root(roots, image, tree):
    """Make the root of links for IMAGE and TREE under ROOTS; its release."""
    if not os.path.isfile(image):
        raise SetupError('no kernel image ' + image)
    if not all(os.path.isfile(os.path.join(tree, f)) for f in
               ('include/config/kernel.release', '.config', 'Module.symvers')):
        raise SetupError('%s is not a built kernel tree (needs .config, '
                         'include/config/kernel.release, Module.symvers)' % tree)
    why = compiler_missing(read_text(os.path.join(tree, '.config')))
    if why:
        raise SetupError('%s: %s' % (tree, why))
    image, tree = os.path.realpath(image), os.path.realpath(tree)
    rel = release_of(tree)
    if not rel or rel.endswith('-arm64') or '/' in rel:
        raise SetupError("%s: release '%s' cannot name an x86-64 kernel here" % (tree, rel))
    root = os.path.join(roots, rel)
    modules = os.path.join(root, 'lib/modules', rel, 'kernel')
    for d in ('boot', 'bin', 'usr/src', 'lib/modules/%s/kernel/lib/reed_solomon' % rel,
              'lib/modules/%s/kernel/fs/pstore' % rel):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    for path, target in (('boot/vmlinuz-' + rel, image),
                         ('boot/config-' + rel, os.path.join(tree, '.config')),
                         ('usr/src/linux-headers-' + rel, tree),
                         ('bin/busybox', '/bin/busybox')):
        link(os.path.join(root, path), target)
    config = read_text(os.path.join(tree, '.config'))
    # Only modules of this configuration: a .ko left in the tree by an
    # earlier one (ramoops built in now) must not reach the guest.
    for option, module in MODULES:
        found = None
        if re.search('^CONFIG_%s=m$' % option, config, re.M):
            for f in (os.path.join(tree, module + '.ko'),
                      '/lib/modules/%s/kernel/%s.ko' % (rel, module),
                      '/lib/modules/%s/kernel/%s.ko.xz' % (rel, module)):
                if os.path.isfile(f):
                    found = f
                    break
        # The link keeps the file's suffix: initramfs.copy_modules
        # unpacks a .ko.xz.
        for suffix in ('.ko', '.ko.xz'):
            path = os.path.join(modules, module + suffix)
            if found and found.endswith(module + suffix):
                link(path, found)
            elif os.path.lexists(path):
                os.unlink(path)
    return rel
