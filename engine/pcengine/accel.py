# SPDX-License-Identifier: GPL-2.0
"""Which accelerator the x86-64 guests get, KVM or TCG, decided once per
host: /dev/kvm may open and still never run a guest, and finding that out
costs a 15 s probe.  The answer is cached, keyed by what makes it valid
(the host kernel, /dev/kvm's device numbers, the QEMU version), and shared
by the VM runner and the bench.  PC_ACCEL overrides it.

    python3 -m pcengine.accel     prints "ACCEL WHY" (kvm or tcg)

The cache is four lines: the key, the accelerator, why, the probe's date.
"""

import datetime
import functools
import glob
import os
import re
import subprocess
import sys
import tempfile
import time

from . import cache_of, log

PROBE_SECONDS = 15


def cache_path(env):
    return os.path.join(cache_of(env), 'accel')


@functools.lru_cache(maxsize=None)
def qemu_version():
    try:
        out = subprocess.run(['qemu-system-x86_64', '--version'], capture_output=True,
                             text=True).stdout
    except OSError:
        return ''
    found = re.search(r'version (\S+)', out.split('\n')[0])
    return found.group(1) if found else ''


def key(dev='/dev/kvm'):
    """One line; a cached answer holds only while it is equal."""
    numbers = 'none'
    if os.path.exists(dev):
        try:
            rdev = os.stat(dev).st_rdev
            numbers = '%x:%x' % (os.major(rdev), os.minor(rdev))
        except OSError:
            numbers = ''
    return 'kernel=%s kvm=%s qemu=%s' % (os.uname().release, numbers, qemu_version())


def probe(env, dev='/dev/kvm'):
    """Boot a KVM guest to its first panic (no initrd: it panics at once
    and exits): (accelerator, why)."""
    if not os.path.exists(dev):
        return 'tcg', 'no /dev/kvm'
    if not os.access(dev, os.R_OK | os.W_OK):
        return 'tcg', '/dev/kvm is not read-write for uid %d' % os.getuid()
    kernels = [f for f in sorted(glob.glob('/boot/vmlinuz-*')) if os.path.isfile(f)]
    if not kernels:
        return 'tcg', 'no kernel in /boot to probe KVM with'
    log('probing KVM (once per host, at most %d s; the answer goes to %s)'
        % (PROBE_SECONDS, cache_path(env)))
    with tempfile.NamedTemporaryFile(prefix='pc-accel-') as serial:
        start = time.monotonic()
        try:
            subprocess.run(['qemu-system-x86_64', '-accel', 'kvm', '-m', '256',
                            '-display', 'none', '-no-reboot', '-monitor', 'none',
                            '-kernel', kernels[0], '-append', 'console=ttyS0 panic=-1',
                            '-serial', 'file:' + serial.name],
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=PROBE_SECONDS)
        except subprocess.TimeoutExpired:
            pass
        except OSError as e:
            return 'tcg', 'no QEMU to probe KVM with (%s)' % e.strerror
        took = time.monotonic() - start
        if b'Kernel panic' in serial.read():
            return 'kvm', 'a KVM guest booted in %.1f s' % took
    return 'tcg', '/dev/kvm opens but a KVM guest did not boot in %d s' % PROBE_SECONDS


def pick(env, probe=probe, today=None):
    """(accelerator, why): PC_ACCEL, else the cache, else a probe, whose
    answer is cached."""
    if env.get('PC_ACCEL'):
        return env['PC_ACCEL'], 'PC_ACCEL=' + env['PC_ACCEL']
    path = cache_path(env)
    now = key()
    try:
        with open(path, errors='replace') as f:
            lines = f.read().split('\n')
    except OSError:
        lines = []
    if len(lines) >= 4 and lines[0] == now and lines[1] in ('kvm', 'tcg'):
        return lines[1], 'cached: %s, probed %s' % (lines[2], lines[3])
    accel, why = probe(env)
    when = today or datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d')
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        part = '%s.%d' % (path, os.getpid())
        with open(part, 'w') as f:
            f.write('%s\n%s\n%s\n%s\n' % (now, accel, why, when))
        os.replace(part, path)
    except OSError as e:
        log('could not cache the accelerator in %s: %s' % (path, e.strerror))
    return accel, why


def main():
    accel, why = pick(os.environ)
    print(accel, why)
    return 0


if __name__ == '__main__':
    sys.exit(main())
