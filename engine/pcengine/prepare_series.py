# SPDX-License-Identifier: GPL-2.0
"""A series' preparation for its guests: the bench's prepare step.

``python3 -m pcengine.prepare_series prepare K SERIES`` (the first word
names the scheduler's step) prepares the K-th series
of the run: its kernel (a built one is built here, at low priority,
beside the guests of the series before it), the cases generated from the
crash-type table (cases.py) and the matrix's (matrix.py), the
hand-written ones with the architecture's words filled in, which of them
run and in which guests (prepare.py), the builds and the initramfs
(build.py, initramfs.py, kdumppack.py), and LKDTM's selftest's guest
when the scope picks it.  The scheduler (bench.py) prepares the series
one after another while the guests of those already prepared run.

It writes, under SCRATCH/prep: K.order (its results' names, in KTAP
order), K.jobs (a guest a line: "lkdtm DIR", "batch FILE", "single FILE"
or "kdump FILE"), K.guest (casestep.py's options for the series, a line
each), K.dealt (PC_SHARD's count after it; it starts from PC_STEP_DEALT)
and last K.ready, its kernel release.  A case that needs what the kernel
lacks gets its SKIP result here, unbooted.  The environment is the
bench's (tests/run): PC_OUT, PC_CASES, PC_SHARD, PC_LIST,
PC_STEP_KERNELS, PC_MATRIX_SCOPE, PC_MATRIX_FATAL, PC_TIMEOUT,
PC_SNAPSHOT, PC_GUEST_CMDLINE, PC_QEMU_EXTRA, PC_ACCEL.
"""

import io
import os
import shutil
import subprocess
import sys

from . import (ROOT, SetupError, accel, build, cases, initramfs, kdumppack,
               kernels, lkdtm_pack, log, matrix, prepare, run_cli, scope)
from .kernels import out_of
from .runsetup import scratch_of

class Stop(SetupError):
    """The preparation failed: its line (or None when a step said why)."""


class Series:
    """The K-th series of the run, being prepared."""

    def __init__(self, env, k, series):
        self.env, self.k, self.series = env, k, series
        self.env['PC_OUT'] = out_of(env)
        self.host = kernels.Host(self.env)
        self.shard = scope.parse_shard(env.get('PC_SHARD') or '1/1')
        self.listing = env.get('PC_LIST') == '1'
        self.scratch = scratch_of(env)
        self.results = os.path.join(self.scratch, 'results')
        self.prep = os.path.join(self.scratch, 'prep')
        self.filter = env.get('PC_CASES') or '.'
        self.dealt = int(env.get('PC_STEP_DEALT') or 0)

    def facts(self):
        """What the preparation needs of the series' kernel.  A kernel
        built here is built apart, at the lowest priority: it takes what
        the guests of the series before it leave."""
        host = self.host
        kernels.build_apart([self.series], self.env)
        rel = host.kernel_release(self.series)
        arch = host.rel_arch(rel)
        why_no_kdump = kdumppack.available(host, rel)
        return dict(
            rel=rel, arch=arch, root=host.rel_root(rel), config=host.rel_config(rel),
            kdump=why_no_kdump or 'ok', no_ramoops=initramfs.ramoops_absent(host, rel) or '',
            timeout=str(host.guest_timeout(rel, int(self.env.get('PC_TIMEOUT') or 120))),
            ramoops=kernels.ramoops_cmdline(arch), ramoops_params=kernels.ramoops_params(arch),
            ramoops_region=kernels.ramoops_region(arch),
            kdump_append=kdumppack.cmdline(host, rel))

    def build(self, f, d, modules):
        """The module (and its twin, which the dir_taken case loads), the
        bench's MODULES, then the initramfs with D's case files and
        those modules in it, and with kdump the kdump guests' too.  A
        new initramfs drops the guests saved from the last one."""
        host, rel = self.host, f['rel']
        build.module(host, rel, twin='twin' in modules)
        shutil.rmtree(os.path.join(host.out, rel, 'snapshots'), ignore_errors=True)
        extra = [build.test_module(host, rel, m) for m in ('paths', 'race') if m in modules]
        extra += self.env.get('PC_EXTRA_FILES', '').split()
        initramfs.pack(host, rel, d, extra)
        if f['kdump'] == 'ok':
            kdumppack.pack(host, rel)

    def write_cases(self, f, d):
        """The table's cases, the matrix's and the hand-written ones, for
        the kernel F, into D."""
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        types = os.path.join(d, 'types.tsv')
        with open(types, 'w') as out:
            tool = os.path.join(self.scratch, 'host', 'provoke-crash')
            if subprocess.run([tool, 'types', '--table', '--arch', f['arch']],
                              stdout=out).returncode:
                raise Stop('the host tool could not print the table for %s' % f['arch'])
        hit = kernels.fill_case(f['arch'], b'@sys@getppid\n').decode().strip()
        common = ['--types', types, '--config', f['config'], '--release', f['rel'],
                  '--arch', f['arch']]
        # Each type fired directly, at a point and with kdump, or refused.
        if cases.main(common + ['--hit-symbol', hit, '--out', d]
                      + (['--kdump'] if f['kdump'] == 'ok' else [])):
            raise Stop("writing the table's cases for %s failed (why: above)" % f['rel'])
        # The crash-point matrix: the sample of its fatal cells changes
        # with each commit.
        head = subprocess.run(['git', '-C', ROOT, 'rev-parse', 'HEAD'], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, universal_newlines=True)
        if matrix.main(common + ['--scope', self.env.get('PC_MATRIX_SCOPE') or 'first',
                                 '--fatal', self.env.get('PC_MATRIX_FATAL') or '4',
                                 '--seed', head.stdout.strip() if head.returncode == 0
                                 else 'none', '--out', d]):
            raise Stop("writing the matrix's cases for %s failed (why: above)" % f['rel'])
        hand = os.path.join(ROOT, 'tests', 'cases')
        for name in sorted(os.listdir(hand)):
            if name.endswith('.sh'):
                with open(os.path.join(hand, name), 'rb') as src:
                    data = kernels.fill_case(f['arch'], src.read())
                with open(os.path.join(d, name), 'wb') as dst:
                    dst.write(data)

    def plan(self, f, d):
        """prepare.py's answer, as (word, value) pairs."""
        argv = ['--series', self.series, '--release', f['rel'],
                '--root-of-release=' + f['root'], '--config', f['config'], '--cases', d,
                '--kernels', self.env.get('PC_STEP_KERNELS', ''), '--filter=' + self.filter,
                '--shard', '%d/%d' % self.shard, '--dealt', str(self.dealt),
                '--results', self.results, '--no-ramoops=' + f['no_ramoops']]
        if f['kdump'] != 'ok':
            argv.append('--kdump-why=' + f['kdump'])
        if self.listing:
            argv.append('--listing')
        out = io.StringIO()
        if prepare.main(argv, out, self.env):
            raise Stop('preparing the cases of %s failed (why: above)' % self.series)
        return [tuple(line.split(' ', 1)) + ('',) * (' ' not in line)
                for line in out.getvalue().splitlines()]

    def lkdtm(self, rel, order):
        """LKDTM's selftest, when the scope picked it: dealt after the
        cases; True when a guest is to run it."""
        name = '%s/lkdtm_selftest' % self.series
        if not scope.matches(self.filter, name):
            return False
        self.dealt += 1
        if (self.dealt - 1) % self.shard[1] + 1 != self.shard[0]:
            return False
        order.append('%s-lkdtm_selftest' % self.series)
        if self.listing:
            return False
        return lkdtm_pack.ready(self.env['PC_OUT'], rel, self.series, self.results,
                                self.host.cross_prefix(rel), self.env)

    def guest_options(self, f):
        """casestep.py's options for the series' guests, as --opt=VALUE
        (a value may start with a dash)."""
        e, rel, d = self.env, f['rel'], os.path.join(self.env['PC_OUT'], f['rel'])
        picked = 'tcg' if f['arch'] == 'arm64' else accel.pick(e)[0]
        options = (
            ('series', self.series), ('results', self.results), ('timeout', f['timeout']),
            ('config', f['config']), ('arch', f['arch']), ('accel', picked),
            ('kernel', '%s/boot/vmlinuz-%s' % (f['root'], rel)),
            ('initrd', os.path.join(d, 'initramfs.cpio')),
            ('snapshots', os.path.join(d, 'snapshots')),
            ('snapshot', e.get('PC_SNAPSHOT') or '1'), ('append', e.get('PC_GUEST_CMDLINE', '')),
            ('qemu-extra', e.get('PC_QEMU_EXTRA', '')), ('ramoops', f['ramoops']),
            ('ramoops-params', f['ramoops_params']), ('ramoops-region', f['ramoops_region']),
            ('kdump-append', f['kdump_append']),
            ('kdump-initrd', os.path.join(d, 'initramfs-kdump.cpio')))
        return ''.join('--%s=%s\n' % kv for kv in options)

    def prepare(self):
        f = self.facts()
        rel = f['rel']
        if f['kdump'] != 'ok':
            log('no kdump lane on %s: %s' % (rel, f['kdump']))
        if f['no_ramoops']:
            log('no pstore checks on %s: %s' % (rel, f['no_ramoops']))
        d = os.path.join(self.scratch, rel, 'cases')
        self.write_cases(f, d)
        order, jobs, modules, lkdtm = [], [], set(), False
        for word, value in self.plan(f, d):
            if word == 'dealt':
                self.dealt = int(value)
            elif word == 'order':
                order.append(value)
            elif word == 'job':
                jobs.append(value)
            elif word == 'module':
                modules.add(value)
            elif word == 'lkdtm':
                lkdtm = True
        if not self.listing:
            log('building for ' + rel)
            self.build(f, d, modules)
        if lkdtm and self.lkdtm(rel, order):
            jobs.insert(0, 'lkdtm ' + lkdtm_pack.selftest_dir(self.env['PC_OUT'], rel))
        base = os.path.join(self.prep, str(self.k))
        with open(base + '.guest', 'w') as out:
            out.write(self.guest_options(f))
        for suffix, lines in (('.order', order), ('.jobs', jobs), ('.dealt', [self.dealt]),
                              ('.ready', [rel])):
            with open(base + suffix, 'w') as out:
                out.write(''.join('%s\n' % x for x in lines if x != ''))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 3 or argv[0] != 'prepare' or not argv[1].isdigit():
        sys.exit('usage: python3 -m pcengine.prepare_series prepare K SERIES')
    return run_cli(lambda: Series(dict(os.environ), int(argv[1]), argv[2]).prepare())


if __name__ == '__main__':
    sys.exit(main())
