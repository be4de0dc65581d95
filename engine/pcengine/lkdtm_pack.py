# SPDX-License-Identifier: GPL-2.0
"""LKDTM's own selftest, unchanged, against provoke-crash: its guest,
prepared with a series (prepare_series.py calls ready()).  run.sh and
tests.txt come from Debian's linux-source of the series' own suite
(tools/testing/selftests/lkdtm): 6.12's for the host's kernels, 7.2's
for sid's, 5.10's for bullseye's (suites.linux_source), extracted once per release into
PC_OUT/REL/lkdtm-selftest; each test
is run.sh installed under the test's name, as the kselftest Makefile
installs it, run from its directory.  It writes the name into
/sys/kernel/debug/provoke-crash/DIRECT and judges the kernel log.

One guest runs every test in tests.txt's order to the end, as a
kselftest run does on one machine: no test may take the kernel down
(through DIRECT, a name does not where LKDTM's own test does not:
module/lkdtm.c), and no fresh guest hides one that does.  Every line of
tests.txt must get run.sh's verdict (ok, FAIL, XFAIL, or the skip of a
commented-out test), and the guest must still be up after the last
one: a test that takes it down or hangs is "not ok", and so is each
test after it, for want of a result.  The guest boots with the
kernel-parameter equivalents of the selftest's config fragment
(SLUB_DEBUG_ON, INIT_ON_FREE_DEFAULT_ON,
RANDOMIZE_KSTACK_OFFSET_DEFAULT).  The busybox guest lacks comm, which
run.sh uses: guest/comm.c is put in.

The selftest's other program, stack-entropy.sh, runs first, as test 0
(1000 REPORT_STACK samples; it needs at least 5 bits), with one change:
busybox's dmesg has no --follow, and its shell runs applets before
anything on PATH, so its "dmesg --follow" reads /dev/kmsg instead
(records that end with the same words).

What runs in the guest is guest/lkdtm.sh; the guest's boot line, its run
and the report are lkdtm.py's (the bench's "lkdtm DIR" job, which
casestep.py runs).  PC_LKDTM_SOURCE names the tarball
(default_source()).
"""

import os
import shutil
import subprocess
import tarfile

from . import ROOT, SetupError, suites
from .initramfs import pack_cpio

# The selftest's files, under the tarball's top directory.
SELFTEST = 'tools/testing/selftests/lkdtm'
FILES = ('run.sh', 'tests.txt', 'stack-entropy.sh')
# 5.10's selftest has no stack-entropy.sh (5.11).
OPTIONAL = ('stack-entropy.sh',)


def default_source(env=os.environ):
    return env.get('PC_LKDTM_SOURCE') or '/usr/src/linux-source-6.12.tar.xz'


def source_of(series, env=os.environ):
    """The tarball whose selftest SERIES runs: PC_LKDTM_SOURCE, else its
    own suite's linux-source (fetched once), else 6.12's."""
    if env.get('PC_LKDTM_SOURCE') or not suites.is_suite_series(series):
        return default_source(env)
    return suites.linux_source(series, env)


def selftest_dir(out, rel):
    return os.path.join(out, rel, 'lkdtm-selftest')


def _stamp(source):
    """What the extracted files came from: the tarball's size and mtime,
    and the files taken (a new one extracts again); None if no tarball."""
    try:
        st = os.stat(source)
    except OSError:
        return None
    return '%d %d %s' % (st.st_size, int(st.st_mtime), ' '.join(FILES))


def _members(source, dest):
    """FILES from the tarball SOURCE into DEST, as tar would put them
    there (mode, mtime); True when all were there but the optional ones."""
    left = set(FILES)
    with tarfile.open(source, 'r|xz') as tar:
        top = None
        for m in tar:
            if top is None:
                top = m.name.split('/')[0]
            name = m.name[len(top) + 1:] if m.name.startswith(top + '/') else ''
            base = os.path.basename(name)
            if base not in left or name != '%s/%s' % (SELFTEST, base) or not m.isfile():
                continue
            path = os.path.join(dest, base)
            with tar.extractfile(m) as f, open(path, 'wb') as out:
                shutil.copyfileobj(f, out)
            os.chmod(path, m.mode)
            os.utime(path, (m.mtime, m.mtime))
            left.discard(base)
            if not left:
                return True
    return not left - set(OPTIONAL)


def extract(d, source):
    """run.sh, tests.txt and stack-entropy.sh into D, once per tarball;
    False if it could not."""
    stamp = _stamp(source)
    if stamp is None:
        return False
    try:
        with open(os.path.join(d, 'stamp')) as f:
            if f.read().rstrip('\n') == stamp:
                return True
    except OSError:
        pass
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    try:
        if not _members(source, d):
            return False
    except (OSError, EOFError, tarfile.TarError):
        return False
    with open(os.path.join(d, 'stamp'), 'w') as f:
        f.write(stamp + '\n')
    return True


def _entropy(sel, root):
    """stack-entropy.sh into ROOT: its one use of dmesg --follow, and
    nothing else, changes; False if that use is not there."""
    with open(os.path.join(sel, 'stack-entropy.sh'), 'rb') as f:
        lines = f.read().split(b'\n')
    changed = [line.replace(b'dmesg --follow', b'cat /dev/kmsg', 1) for line in lines]
    with open(os.path.join(root, 'stack-entropy.sh'), 'wb') as f:
        f.write(b'\n'.join(changed))
    return sum(a != b for a, b in zip(lines, changed)) == 1


def pack(out, rel, cross_prefix):
    """OUT/REL/initramfs-lkdtm.cpio: the release's initramfs (already
    packed by the series' preparation) with the selftest, comm (built
    with CROSS_PREFIX's gcc) and the case added; False if it could not."""
    d, sel = os.path.join(out, rel), selftest_dir(out, rel)
    comm = os.path.join(d, 'comm')
    try:
        if subprocess.run([cross_prefix + 'gcc', '-static', '-O2', '-Wall', '-Wextra',
                           '-Werror', '-o', comm, os.path.join(ROOT, 'guest', 'comm.c')]
                          ).returncode:
            return False
        root = os.path.join(d, 'initramfs-lkdtm')
        shutil.rmtree(root, ignore_errors=True)
        shutil.copytree(os.path.join(d, 'initramfs'), root, symlinks=True)
        for f in (os.path.join(sel, 'run.sh'), os.path.join(sel, 'tests.txt'), comm):
            shutil.copy(f, root)
        if os.path.exists(os.path.join(sel, 'stack-entropy.sh')) and not _entropy(sel, root):
            return False
        shutil.copy(os.path.join(ROOT, 'guest', 'lkdtm.sh'),
                    os.path.join(root, 'cases', 'lkdtm_selftest.sh'))
        pack_cpio(root, os.path.join(d, 'initramfs-lkdtm.cpio'))
    except (OSError, SetupError):
        return False
    return True


def ready(out, rel, series, results, cross_prefix, env=os.environ):
    """Extracts the selftest (from ENV's PC_LKDTM_SOURCE) and packs its
    guest for the release REL of SERIES, with the tarball's name in the
    extracted directory's 'source': True when a guest is to run it; else
    False, with its result written in RESULTS.  (Whether SERIES runs it
    at all, the scope, PC_CASES and PC_SHARD decide: prepare_series.py.)"""
    result = os.path.join(results, '%s-lkdtm_selftest.result' % series)
    sel = selftest_dir(out, rel)
    try:
        source = source_of(series, env)
    except SetupError as e:
        source, why = None, e.args[0] if e.args else 'no reason given'
    if source is None:
        line = 'not ok %s/lkdtm_selftest # its linux-source: %s' % (series, why)
    elif not os.access(source, os.R_OK):
        line = 'ok %s/lkdtm_selftest # SKIP %s is not installed (linux-source-6.12)' % (
            series, source)
    elif extract(sel, source) and pack(out, rel, cross_prefix) and _name(sel, source):
        return True
    else:
        line = ('not ok %s/lkdtm_selftest # could not extract run.sh and tests.txt or pack'
                ' the guest' % series)
    with open(result, 'w') as f:
        f.write(line + '\n')
    return False


def _name(sel, source):
    try:
        with open(os.path.join(sel, 'source'), 'w') as f:
            f.write(os.path.basename(source) + '\n')
    except OSError:
        return False
    return True
