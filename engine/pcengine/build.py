# SPDX-License-Identifier: GPL-2.0
"""The module and the guest's helpers, built for one kernel release
into OUT/REL: the module (and its twin, the same code under another
name, which only the bench's dir_taken case loads), pc-guest and the
static tool; and the bench's own test modules (tests/NAME/pc_NAME.ko:
the matrix's paths, the race example's race)."""

import os
import re
import shutil
import subprocess
import sys

from . import ROOT, SetupError, cat

# The tool checks an arm line with the module's own parser.
HOST_TOOL_SOURCES = ('tools/provoke-crash.c', 'tools/checks.c', 'tools/symbols.c', 'module/parse.c',
                     'module/parse_compare.c', 'module/parse_caller.c')
WARNING = re.compile(r'warning:|error:')


def _make_module(host, rel, src, log, jobs=None):
    """make -C REL's headers M=SRC W=1 modules, its output in LOG: a Popen."""
    argv = host.make(rel, ['M=' + src, 'W=1'] + (['-j%d' % jobs] if jobs else []) + ['modules'])
    with open(log, 'wb') as f:
        return subprocess.Popen(argv, stdout=f, stderr=subprocess.STDOUT)


def _judge(log, status, what, rel):
    """A build is good only without a warning: its log's findings on
    stderr, and why it is not."""
    with open(log, encoding='utf-8', errors='replace') as f:
        text = f.read()
    if status:
        sys.stderr.write(text)
        raise SetupError('%s failed for %s' % (what, rel))
    found = [line for line in text.splitlines() if WARNING.search(line)]
    if found:
        sys.stderr.write(''.join(line + '\n' for line in found))
        raise SetupError('%s for %s has warnings (see %s)' % (what, rel, log))


def static(host, rel, out, sources, includes=()):
    """SOURCES (under ROOT) into the static program OUT, for REL's
    architecture, with every warning an error."""
    cc = host.cross_prefix(rel) + 'gcc'
    argv = [cc, '-static', '-O2', '-Wall', '-Wextra', '-Werror'] + [
        '-I' + os.path.join(ROOT, i) for i in includes] + ['-o', out] + [
        os.path.join(ROOT, s) for s in sources]
    if subprocess.run(argv).returncode:
        raise SetupError('%s build failed' % os.path.basename(out))


def module(host, rel, twin=True):
    """The module and the guest helpers for REL into OUT/REL."""
    d = os.path.join(host.out, rel)
    src = os.path.join(d, 'src')
    if host.rel_arch(rel) == 'arm64':
        host.fetch_arm64(rel)
    os.makedirs(src, exist_ok=True)
    for sub in ('module', 'include', 'twin'):
        shutil.rmtree(os.path.join(src, sub), ignore_errors=True)
    for sub in ('module', 'include'):
        shutil.copytree(os.path.join(ROOT, sub), os.path.join(src, sub), symlinks=True)
    names = ['module']
    if twin:
        shutil.copytree(os.path.join(src, 'module'), os.path.join(src, 'twin'), symlinks=True)
        kbuild = os.path.join(src, 'twin', 'Kbuild')
        with open(kbuild) as f:
            text = f.read()
        with open(kbuild, 'w') as f:
            f.write(text.replace('provoke_crash', 'provoke_crash_twin'))
        names.append('twin')
    # The module and its twin at once, each on every CPU: a series'
    # build is what its guests wait for.
    log = os.path.join(d, 'build.log')
    builds = []
    try:
        for m in names:
            builds.append((m, _make_module(host, rel, os.path.join(src, m), '%s.%s' % (log, m),
                                           len(os.sched_getaffinity(0)))))
    finally:
        # One that could not start: the other is not left running.
        if len(builds) < len(names):
            for _, p in builds:
                p.kill()
                p.wait()
    failed = [m for m, p in builds if p.wait()]
    cat(['%s.%s' % (log, m) for m, _ in builds], log)
    for m, _ in builds:
        os.unlink('%s.%s' % (log, m))
    _judge(log, failed, 'module build', rel)
    static(host, rel, os.path.join(d, 'pc-guest'), ['guest/pc-guest.c'])
    static(host, rel, os.path.join(d, 'provoke-crash'), HOST_TOOL_SOURCES, ['include'])


def test_module(host, rel, name):
    """tests/NAME/pc_NAME.ko for REL, built as the module is, into
    OUT/REL/src/NAME; its path."""
    d = os.path.join(host.out, rel, 'src', name)
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(os.path.join(ROOT, 'tests', name), d, symlinks=True)
    log = os.path.join(d, 'build.log')
    _judge(log, _make_module(host, rel, d, log).wait(), 'pc_%s build' % name, rel)
    return os.path.join(d, 'pc_%s.ko' % name)
