# SPDX-License-Identifier: GPL-2.0
"""make bench: what an armed crash point that does not fire costs.

Boots a one-vCPU guest under QEMU -icount shift=0,sleep=off, where guest
time counts instructions (1 ns each) and repeats exactly, and times a
getppid() loop: with no hook, with an empty kprobe and an empty
ftrace_ops (modules built here), and with a provoke-crash point that
never fires (a pid that does not match; an after= never reached; a
caller= not on the stack, a stack walk each hit), at the entry, at an
offset that takes a breakpoint and at %return.  Then it times arming 100
points in one write and disarming them with one empty line, against one
write per point, and the one write with a fatal type (a redirecting
point) beside a non-fatal one.  A two-vCPU variant on plain TCG gives
the ratio to an unhooked run in the same guest.  A benchmark reports; it
does not pass or fail.  The guests' scripts are tests/bench/*.sh; they
print "RESULT name: value" lines.

    python3 -m pcengine.costbench     (make bench)

Environment: PC_KERNELS (default "6.1"), PC_BENCH_CALLS (default 200000),
PC_OUT.
"""

import glob
import os
import re
import shutil
import subprocess
import sys

from . import ROOT, SetupError, build, guest, initramfs, kernels, run_cli

HERE = os.path.join(ROOT, 'tests', 'bench')
HIT_ROWS = ('none', 'none-again', 'empty-kprobe', 'empty-ftrace-ops', 'point-pid-mismatch',
            'point-after-not-reached', 'point-caller-mismatch', 'empty-kprobe-offset',
            'point-offset-pid-mismatch', 'point-offset-report-pid-mismatch',
            'point-return-pid-mismatch', 'point-return-report-pid-mismatch')
ARM_ROWS = ('arm-100-one-write', 'points-armed', 'disarm-100-empty-line',
            'arm-100-one-write-each', 'disarm-100-one-write-each', 'points-left')


def values(path):
    """The guest's RESULT lines, by name (the first of each)."""
    found = {}
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            m = re.match(r'RESULT ([^:]*): (.*)', line.rstrip('\r\n'))
            if m and m.group(1) not in found:
                found[m.group(1)] = m.group(2).replace('\r', '')
    return found


def _num(text):
    """A figure's leading number; 0 where there is none, as awk reads
    it (a guest that printed something else still gets its report)."""
    try:
        return float(text.split()[0])
    except (AttributeError, IndexError, ValueError):
        return 0.0


def ratio(a, b):
    return '%.2f' % (a / b) if b > 0 else '-'


def ms(timewrite):
    m = re.match(r'timewrite: ([0-9.]*) ms', timewrite or '')
    return m.group(1) if m else ''


def report(rel, calls, icount, smp):
    """The report's lines, from the two guests' RESULT lines."""
    v, s = icount, smp
    none = _num(v.get('none'))
    kp_added = _num(v.get('empty-kprobe')) - none
    lines = ['# provoke-crash benchmark, Debian %s, getppid() x %s' % (rel, calls),
             '# one vCPU, QEMU -icount shift=0,sleep=off: guest ns = instructions',
             '%-34s %12s %12s %14s' % ('hook', 'ns/call', 'added ns', 'x empty kprobe')]
    for r in HIT_ROWS:
        # No offset took a breakpoint: no offset rows.
        if not v.get(r):
            continue
        added = _num(v[r]) - none
        lines.append('%-34s %12s %12s %14s' % (r, v[r], '%.1f' % added, ratio(added, kp_added)))
    lines.append("# offset rows' probe in kprobes' list: %s" % v.get('offset-probe', ''))
    lines.append('%-34s %s' % ('arm-1-first-write', v.get('arm-1-first-write', '')))
    lines.append('# arming and disarming 100 points (guest ms)')
    lines += ['%-34s %s' % (r, v.get(r, '')) for r in ARM_ROWS]
    lines += ['# the same 100 entries, non-fatal (report pid=1) and fatal (panic pid=2),',
              '# each after the same history (guest ms)',
              '%-34s %12s %12s %14s' % ('', 'non-fatal', 'fatal', 'fatal/non-fatal')]
    for r in ('arm-100-one-write', 'disarm-100-empty-line'):
        head, tail = r.split('-1', 1)[0], r.split('-100-', 1)[1]
        n, f = ms(v.get(r + '-again')), ms(v.get('%s-100-fatal-%s' % (head, tail)))
        lines.append('%-34s %12s %12s %14s' % (r, n, f, ratio(_num(f), _num(n))))
    lines.append('%-34s %s' % ('points-armed-fatal', v.get('points-armed-fatal', '')))
    lines.append("# two vCPUs, plain TCG, both calling at once (ns/call of each CPU's loop)")
    lines += ['%-34s %s' % (r, s.get(r, '')) for r in
              ('smp-none', 'smp-point-pid-mismatch', 'smp-none-again')]

    def mean(text):
        """The two CPUs' mean: ($1 + $2) / 2."""
        words = (text or '').split() + ['0', '0']
        return (_num(words[0]) + _num(words[1])) / 2
    lines.append('%-34s %s' % ('smp ratio point / none', ratio(
        mean(s.get('smp-point-pid-mismatch')), mean(s.get('smp-none')))))
    return lines


def boot(host, rel, case, smp, calls, log, qemu_extra=''):
    o = guest.options(['run', '--arch', host.rel_arch(rel), '--accel', 'tcg', '--smp', str(smp),
                       '--kernel', '%s/boot/vmlinuz-%s' % (host.rel_root(rel), rel),
                       '--initrd', os.path.join(host.out, rel, 'initramfs.cpio'),
                       '--append', 'pc_calls=%s' % calls, '--qemu-extra=' + qemu_extra,
                       '--case', case, '--console', log + '.console', '--out', log + '.out',
                       '--timeout', '900'])
    if guest.run(o):
        raise SetupError('the %s guest did not finish (see %s.console)' % (
            'icount' if smp == 1 else 'two-vCPU', log))
    return values(log + '.out')


def bench(host, series, calls):
    rel = host.kernel_release(series)
    out = os.path.join(host.out, 'bench')
    build.module(host, rel)
    # The empty kprobe and ftrace_ops, built as the module is.
    kprobe = os.path.join(out, 'kprobe-' + rel)
    shutil.rmtree(kprobe, ignore_errors=True)
    shutil.copytree(os.path.join(HERE, 'empty_kprobe'), kprobe)
    with open(kprobe + '.log', 'wb') as f:
        if subprocess.run(host.make(rel, ['-s', 'M=' + kprobe, 'W=1', 'modules']),
                          stdout=f,
                          stderr=subprocess.STDOUT).returncode:
            raise SetupError('empty kprobe build failed (see %s.log)' % kprobe)
    cases = os.path.join(out, 'cases-' + rel)
    os.makedirs(cases, exist_ok=True)
    for f in glob.glob(os.path.join(HERE, 'bench_*.sh')):
        shutil.copy(f, cases)
    initramfs.pack(host, rel, cases, [os.path.join(kprobe, 'pc_bench_%s.ko' % m)
                                      for m in ('kprobe', 'ftrace')])
    icount = boot(host, rel, 'bench_icount', 1, calls, os.path.join(out, series + '-icount'),
                  '-icount shift=0,sleep=off')
    smp = boot(host, rel, 'bench_smp', 2, calls, os.path.join(out, series + '-smp'),
               host.env.get('PC_QEMU_EXTRA', ''))
    return report(rel, calls, icount, smp)


def main():
    env = dict(os.environ)
    host = kernels.Host(env)
    series = (env.get('PC_KERNELS') or '6.1').split()

    def work():
        host.install_deps(series)
        os.makedirs(os.path.join(host.out, 'bench'), exist_ok=True)
        for s in series:
            print('\n'.join(bench(host, s, env.get('PC_BENCH_CALLS') or '200000')), flush=True)
    return run_cli(work)


if __name__ == '__main__':
    sys.exit(main())
