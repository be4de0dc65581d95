# SPDX-License-Identifier: GPL-2.0
"""The VM runner's kernel release and its builds, each cached until
what it is made of changes: the host's tool (which reads the type
table), the module with pc-guest and the static tool, and the base
initramfs.  A repeat run builds nothing (vm.py runs these).

Two runners may share PC_OUT (two terminals, or the bench's runner
cases): what one builds for a release, under OUT/REL, is built under
that release's lock, and the host's tool under OUT/host.lock, so that
neither rebuilds the other's files under it.  The lock is a flock: it
goes with the process, however that ends."""

import hashlib
import os
import subprocess
import sys

from . import ROOT, SetupError, build, cases, cat, initramfs, kernels, waiting
from .build import HOST_TOOL_SOURCES
from .vm_io import read


class Release:
    """A kernel release: its arch (amd64, arm64), root of files, config,
    and ramoops' place in the guest.  An arm64 release's files (its
    config among them) are fetched on first use."""

    def __init__(self, env, series):
        self.host = host = kernels.Host(env)
        host.install_deps([series])
        self.rel = host.kernel_release(series)
        self.arch = host.rel_arch(self.rel)
        if self.arch == 'arm64':
            host.fetch_arm64(self.rel)
        self.root, self.config = host.rel_root(self.rel), host.rel_config(self.rel)
        self.ramoops = kernels.ramoops_cmdline(self.arch)
        self.ramoops_params = kernels.ramoops_params(self.arch)
        self.ramoops_region = kernels.ramoops_region(self.arch)
        options, built_in = cases.config_of(self.config)
        self.kernel = cases.Kernel(self.rel, self.arch, options, '', False)
        # Built in (a kernel of files may have it so): the boot line
        # gives ramoops what /init's insmod would have.
        self.ramoops_builtin = 'CONFIG_PSTORE_RAM' in built_in


def _hash_files(root, paths):
    h = hashlib.sha256()
    for path in paths:
        h.update(path.encode() + b'\0')
        with open(os.path.join(root, path), 'rb') as f:
            h.update(f.read())
    return h.hexdigest()[:16]


def _tree(root, tops, keep=lambda name: True):
    """The files under TOPS (relative to ROOT), sorted."""
    found = []
    for top in tops:
        if os.path.isfile(os.path.join(root, top)):
            found.append(top)
            continue
        for d, _, names in os.walk(os.path.join(root, top)):
            found += [os.path.relpath(os.path.join(d, n), root) for n in names if keep(n)]
    return sorted(found)


def _run(argv, **kw):
    """subprocess.run, with a program that is not there the setup's
    failure."""
    try:
        return subprocess.run(argv, **kw)
    except OSError as e:
        raise SetupError('%s: %s' % (argv[0], e.strerror))


def release_lock(out, rel):
    """REL's builds under OUT, one run at a time."""
    return waiting.locked(os.path.join(out, rel + '.lock'),
                          'building provoke_crash and the initramfs for ' + rel)


def host_tool(out):
    """The tool built for the host, which reads the table (types
    --table); rebuilt only when its sources change."""
    # Every C file of tools/: a new one (symbols.c) changes the key.
    srcs = _tree(ROOT, ['tools'], lambda n: n[-2:] in ('.c', '.h'))
    srcs += _tree(ROOT, ['module'], lambda n: n.startswith('parse') and n[-2:] in ('.c', '.h'))
    srcs += _tree(ROOT, ['include'], lambda n: n.endswith('.h'))
    tool = os.path.join(out, 'host', 'provoke-crash')
    key = _hash_files(ROOT, srcs)
    if read(tool + '.key') == key and os.access(tool, os.X_OK):
        return tool
    with waiting.locked(os.path.join(out, 'host.lock'), 'building the host tool'):
        # Built by another runner while this one waited.
        if read(tool + '.key') == key and os.access(tool, os.X_OK):
            return tool
        _build_tool(tool, key)
    return tool


def _build_tool(tool, key):
    os.makedirs(os.path.dirname(tool), exist_ok=True)
    if os.path.exists(tool + '.key'):
        os.unlink(tool + '.key')
    r = _run(['gcc', '-O0', '-I' + os.path.join(ROOT, 'include'), '-o', tool,
              *(os.path.join(ROOT, s) for s in HOST_TOOL_SOURCES)],
             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
    if r.returncode != 0:
        sys.stderr.write(''.join(r.stdout.splitlines(True)[:5]))
        raise SetupError('could not build the tool that reads the crash-type table '
                         "(gcc's first lines above)")
    with open(tool + '.key', 'w') as f:
        f.write(key + '\n')


def build_cached(out, r):
    """The module, pc-guest and the tool for release R (no twin),
    skipped when the sources, the kernel's build tree and the compiler
    are those of the last build here: 'cached' or 'built'."""
    d = os.path.join(out, r.rel)
    symvers = os.path.join(r.root + '/usr/src/linux-headers-' + r.rel, 'Module.symvers')
    try:
        st = os.stat(symvers)
        stamp = '%d.%d' % (st.st_size, st.st_mtime)
    except OSError:
        stamp = ''
    gcc = _run(['gcc', '-dumpfullversion'], stdout=subprocess.PIPE,
               universal_newlines=True).stdout.strip()
    srcs = _tree(ROOT, ['module', 'include', 'guest/pc-guest.c', 'tools'],
                 lambda n: n[-2:] in ('.c', '.h') or n in ('Kbuild', 'Makefile'))
    key = '%s %s %s %s' % (_hash_files(ROOT, srcs), r.rel, stamp, gcc)
    if (read(os.path.join(d, 'build.key')) == key
            and os.path.isfile(os.path.join(d, 'src/module/provoke_crash.ko'))
            and os.access(os.path.join(d, 'pc-guest'), os.X_OK)):
        return 'cached'
    for stale in ('build.key', 'initramfs-base.key'):
        if os.path.exists(os.path.join(d, stale)):
            os.unlink(os.path.join(d, stale))
    build.module(r.host, r.rel, twin=False)
    with open(os.path.join(d, 'build.key'), 'w') as f:
        f.write(key + '\n')
    return 'built'


def pack_initrd(out, r, work):
    """WORK/initrd: the release's base archive (busybox, the module, the
    tools, /init; packed once per build) and this run's (WORK/root: the
    script, the files given with --file, as WORK/run.cpio), one after the
    other; the kernel unpacks both.  A restored guest gets run.cpio alone,
    on its command port."""
    d = os.path.join(out, r.rel)
    base = os.path.join(d, 'initramfs-base.cpio')
    busybox = os.path.join(r.root or '/', 'bin/busybox')
    packed = [f for f in _tree(ROOT, ['guest', 'engine/pcengine/initramfs.py',
                                      'engine/pcengine/kernels.py']) if f not in RUN_ONLY]
    key = '%s %d %s' % (read(os.path.join(d, 'build.key')), os.stat(busybox).st_mtime,
                        _hash_files(ROOT, packed))
    if read(os.path.join(d, 'initramfs-base.key')) != key or not os.path.isfile(base):
        initramfs.pack(r.host, r.rel)
        os.replace(os.path.join(d, 'initramfs.cpio'), base)
        with open(os.path.join(d, 'initramfs-base.key'), 'w') as f:
            f.write(key + '\n')
    initramfs.pack_cpio(os.path.join(work, 'root'), os.path.join(work, 'run.cpio'))
    cat((base, os.path.join(work, 'run.cpio')), os.path.join(work, 'initrd'))


# Guest files that are not in the base archive: a change to them keeps
# the saved guests (this run's script comes in run.cpio).
RUN_ONLY = ('guest/vm.sh', 'guest/lkdtm.sh')
