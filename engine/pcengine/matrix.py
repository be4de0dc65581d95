# SPDX-License-Identifier: GPL-2.0
"""The crash-point matrix, generated from the crash-type table.

Every type at every kind of point (entry, +OFFSET, %return) on every
kind of path tests/paths/pc_paths.ko gives (task, preempt, rcu, softirq,
hardirq; nmi on x86-64).  Each cell has one of three outcomes, predicted
here from the table's context and fate alone, and checked against what
the kernel printed:

refused
    the write fails with EINVAL and its one log line (EOPNOTSUPP in a
    guest of one CPU, for a type that needs a second);
missed
    the hit counts as missed, with the reason logged;
fired
    the hit counts as fired, and the type's kernel text is in the log (a
    type that returns); or, where this kernel cannot catch it, missed
    with its "XFAIL: TYPE:" line.

A fatal type that would fire takes a guest of its own: those cells are
the matrix_fatal_* cases: all of them with ``--scope first`` (the
bench's default, on its first x86-64 kernel: a restored guest makes a
crash cheap) or ``full``; with ``sample`` or ``kernels``, a sample of
``--fatal`` of them picked by a hash of ``--seed`` (the bench passes the
commit: another sample each commit, the same on every run).  The other
cells are batched, one case per path, point kind and boot line: one
guest per path for a boot line with many cells, one for every path
otherwise.  A type that needs a second CPU is refused in
the batches, which have one; where it fires, its guest has 2 vCPUs.
A type that reports each place once a boot (the fortify, bounds and
overflow categories) fires once per kind of point in its path's guest.
The cells with a second CPU in the same path (every scope but
``sample``): pcengine.matrix_smp.  Not in the matrix: types of another
architecture, and a cell whose type this kernel cannot catch (a CONFIG_
option missing or defeating it).

A series' preparation (prepare_series.py) runs matrix.main(); the case
header keys are described at the top of tests/run.
"""

import argparse
import collections
import os
import re
import sys

from . import matrix_smp, run_cli
from .cases import FATAL, Kernel, needs_of, patterns, read_config, read_table

# The contexts, in the table's order (include/provoke_crash_defs.h).
RANK = {'task': 0, 'preempt': 1, 'irqs': 2, 'atomic': 3, 'nmi': 4}
KINDS = ('entry', 'offset', 'return')
SCOPES = ('sample', 'first', 'kernels', 'full')

Outcome = collections.namedtuple('Outcome', 'what need here', defaults=('', ''))
REFUSED = Outcome('refused')
# A type that needs a second CPU, in a guest of one: refused everywhere
# (pc_type_check_machine()); its cells on two CPUs are matrix_smp's and
# the fatal cases'.
ONE_CPU = Outcome('refused', 'a second CPU')
FIRED = Outcome('fired')

# What takes a fatal cell's guest down is in its header; a batch may
# meet none of these.
BATCH_REJECT = ('Kernel panic|Oops|kernel BUG|provoke_crash: FAIL:|soft lockup|'
                'sleeping function|scheduling while atomic')
# The place a batch cell's point is at, as the listing and the log say.
ANY_PLACE = r'pc_paths:pc_target_[a-z]+(\+0x[0-9a-f]+|%return)?'


def kernel_of(release, arch, config_path):
    return Kernel(release, arch, read_config(config_path), '', False)


class Paths(collections.namedtuple('Paths', 'names here')):
    """names: the kinds of path, in order; here: the context a hit on
    each path's target is in."""


def paths_of(kernel):
    # Without a preemption count nothing shows a task preemptible.
    task = 'preempt' if kernel.has('CONFIG_PREEMPT_COUNT') else 'irqs'
    here = {'task': task, 'preempt': 'irqs', 'rcu': 'irqs', 'softirq': 'irqs',
            'hardirq': 'atomic', 'nmi': 'nmi'}
    names = ['task', 'preempt', 'rcu', 'softirq', 'hardirq']
    if kernel.arch == 'amd64':
        names.append('nmi')
    return Paths(tuple(names), here)


def predict(paths, path, kind, ctx, fate):
    """The cell's outcome, as point_stage.c and the handlers decide."""
    here = paths.here[path]
    if fate == 'stall':
        # A stall (delay, spin) runs in the path and lets it go on: only
        # the entry callback can, and the hit checks the path's context.
        if kind != 'entry':
            return REFUSED
    elif fate not in FATAL or ctx == 'task':
        # It runs in the handler, which is refused when armed if its own
        # context is deeper than the type's: the entry callback's and
        # the kretprobe trampoline's are atomic, a breakpoint's nmi.  At
        # a hit the callback checks the path's context, a breakpoint's
        # handler its own, the trampoline atomic or nmi.
        handler = 'atomic'
        if kind == 'offset':
            handler = here = 'nmi'
        elif kind == 'return' and path != 'nmi':
            here = 'atomic'
        if RANK[handler] > RANK[ctx]:
            return REFUSED
    elif kind == 'return' and RANK[ctx] < RANK['atomic']:
        # A diverted return cannot see the context it returns in.
        return REFUSED
    if RANK[here] > RANK[ctx]:
        return Outcome('missed', ctx, here)
    return FIRED


def taken(kernel, row):
    """The type's needs, or None where the matrix leaves it out: another
    architecture's, an option missing or defeating it."""
    needs = needs_of(kernel, row.needs)
    if needs.arch or needs.missing or needs.defeated:
        return None
    return needs


OFFSET_SEARCH = r'''place=
echo $target >$D/offsets
for o in $(grep '^0x' $D/offsets); do
	pc-guest write $C "$target+$o unaligned_load_store" >/dev/null || continue
	n=$(grep -c 'context=nmi' $C)
	pc-guest write $C "\n" >/dev/null
	[ "$n" = 1 ] && place=$target+$o && break
done
echo "offset: ${place:-none}"'''

# Each cell clears the *_ONCE flags: refcount's saturation warning is
# one a boot, and two cells may ask for it.
CELL = r'''cell() {
	dmesg -c >/dev/null
	echo 1 >/sys/kernel/debug/clear_warn_once
	r=$(pc-guest write $C "$place $1 times=-1")
	case $r in
	*error*) echo "T $1 refused: $r" ;;
	*)
		pc-guest write /sys/kernel/debug/pc-paths/run "@PATH@ 1" >/dev/null
		l=$(cat $C)
		echo "T $1 listing: $l"
		pc-guest write $C "\n" >/dev/null
		;;
	esac
	dmesg | sed "s/^/T $1 log: /"
	# Fired in its own words, or missed with its XFAIL line.
	x=text
	dmesg | grep -q "XFAIL: $1: " && x=xfail
	case $l in
	*" fired=1 missed=0 "*) echo "T $1 verdict: fired/$x" ;;
	*" fired=0 missed=1 "*) echo "T $1 verdict: missed/$x" ;;
	esac
	l=
}'''


def prologue(path, kind):
    """The shell every matrix case starts with: cell TYPE arms TYPE at
    $place, drives the path once, lists the point and its log lines."""
    lines = ['C=$D/crashpoints', 'insmod /pc_paths.ko 2>/dev/null',
             'target=pc_paths:pc_target_' + path]
    if kind == 'entry':
        lines.append('place=$target')
    elif kind == 'return':
        lines.append('place=$target%return')
    else:
        # The first offset past the entry that takes a breakpoint (a
        # report type lists context=nmi there).
        lines += OFFSET_SEARCH.split('\n')
    return lines + CELL.replace('@PATH@', path).split('\n')


def cell_checks(name, outcome, pats):
    """A batch cell's header lines."""
    if outcome == ONE_CPU:
        return ['# expect-out: ^T %s refused: write: error EOPNOTSUPP' % name,
                '# expect-out: ^T %s log: .*crashpoints: %s: %s needs a second CPU to be seen, '
                'and only one is online' % (name, ANY_PLACE, name)]
    if outcome.what == 'refused':
        return ['# expect-out: ^T %s refused: write: error EINVAL' % name,
                '# expect-out: ^T %s log: .*crashpoints: %s: %s (cannot run in|needs a path in)'
                % (name, ANY_PLACE, name)]
    if outcome.what == 'missed':
        return ['# expect-out: ^T %s listing: %s %s times=-1 hits=1 filtered=0 fired=0 missed=1'
                ' context=' % (name, ANY_PLACE, name),
                '# expect-out: ^T %s log: .*crashpoints: %s: %s missed: it needs %s context at'
                ' most, and the path is in %s context here'
                % (name, ANY_PLACE, name, outcome.need, outcome.here)]
    # Or missed, where the kernel cannot catch it (XFAIL).
    lines = ['# expect-out: ^T %s listing: %s %s times=-1 hits=1 filtered=0 fired=[01]'
             ' missed=[01] context=' % (name, ANY_PLACE, name),
             '# expect-out: ^T %s verdict: (fired/text|missed/xfail)$' % name]
    for pat in filter(None, pats):
        # The console has it too, for reports such as KASAN's that a
        # case must ask for.
        lines += ['# expect-out: ^T %s log: .*(%s|XFAIL: %s: )' % (name, pat, name),
                  '# expect: (%s|XFAIL: %s: )' % (pat, name)]
    return lines


def batch_case(path, kind, boot, cells, pats):
    # A boot line with many cells that drive the path (the plain one,
    # slub_debug's) takes a guest per path (pc_matrix= only tells the
    # batches apart: all in one took over 120 s); one with few shares a
    # guest for every path.  (The bash generator counted one line more
    # than the driving cells: the threshold is 3 of them.)
    driving = sum(1 for _, outcome in cells if outcome.what != 'refused')
    lines = ['# generated crash-point matrix: path %s, %s points' % (path, kind),
             '# boot: pc_matrix=%s%s' % (path, boot) if driving >= 3 else '# boot:' + boot,
             '# batch-ok',
             '# reject: ' + BATCH_REJECT]
    if kind == 'offset':
        lines.append(r'# expect-out: ^offset: pc_paths:pc_target_%s\+0x' % path)
    for name, outcome in cells:
        lines += cell_checks(name, outcome, pats[name])
    lines += prologue(path, kind)
    return lines + ['cell ' + name for name, _ in cells]


# Where the kernel words a type's report differently in one context: the
# variant of one of its expected patterns, by (type, arch, path).  arm64
# has no NMI here (6.1, no pseudo-NMI): the RCU stall report cannot take
# the stack of a CPU that spins with interrupts off, and dumps the task
# on that CPU instead (its saved stack, not ours).
VARIANTS = {
    ('rcu_stall', 'arm64', 'hardirq'): {'pc_crash_rcu_stall': 'Task dump for CPU [0-9]+:'},
}


def variant(pats, name, arch, path):
    """The expected patterns of type NAME on ARCH at a PATH."""
    instead = VARIANTS.get((name, arch, path), {})
    return [instead.get(p, p) for p in pats]


def fatal_case(cell, pats):
    path, kind, row, cpus, boot = cell
    lines = ['# generated crash-point matrix: %s (%s) at a %s point on a %s path'
             % (row.name, row.fate, kind, path),
             '# boot:' + boot]
    if cpus != 1:
        lines.append('# smp: %d' % cpus)
    lines += ['# expect: ' + p for p in pats if p]
    # A task killed holding a lock, or in an RCU reader, says so on its
    # way out: after the crash began, and never before it.
    if path in ('preempt', 'rcu'):
        lines.append('# after-crash: BUG: scheduling while atomic|sleeping function called'
                     ' from invalid context%s'
                     % ('|Voluntary context switch within RCU read-side critical section'
                        if path == 'rcu' else ''))
    lines.append('# reject: provoke_crash: FAIL:')
    # An oops kills only the writer in a task's path; anywhere else, and
    # for a panic or a hang, the guest goes down.
    if not (row.fate == 'oops' and path in ('task', 'preempt', 'rcu')):
        lines.append('# reject-out: PC-GUEST-END')
    lines += prologue(path, kind)
    lines += ['pc-guest write $C "$place %s" >/dev/null' % row.name,
              'pc-guest write /sys/kernel/debug/pc-paths/run "%s 1"' % path]
    if row.fate == 'hang':
        lines.append('sleep 60')
    return lines


def sample_hash(seed, line):
    """The bash generator's awk hash of the seed and a fatal cell's line
    (path, kind, type, fate, CPUs, boot line, tab-separated): a
    printable character counts its code, any other 0."""
    h = 0
    for c in seed + line:
        o = ord(c)
        h = (h * 31 + (o if 32 <= o < 127 else 0)) % 2147483647
    return h


def sample(fatal, seed, n):
    """The n fatal cells of the lowest hash, in hash order."""
    keyed = []
    for cell in fatal:
        path, kind, row, cpus, boot = cell
        line = '\t'.join((path, kind, row.name, row.fate, str(cpus), boot))
        keyed.append((sample_hash(seed, line), line, cell))
    keyed.sort(key=lambda k: k[:2])
    return [k[2] for k in keyed[:max(n, 0)]]


def batch_file(path, kind, boot):
    word = re.sub('[^A-Za-z0-9]', '_', boot[1:] if boot.startswith(' ') else boot)
    return 'matrix_%s_%s%s.sh' % (path, kind, '_' + word[:24] if word else '')


def matrix_cases(kernel, rows, scope='first', seed='none', fatal_sample=4):
    """{file name: lines} of the matrix's cases on the kernel."""
    paths = paths_of(kernel)
    batches = {}
    fatal = []
    pats = {}
    for row in rows:
        needs = taken(kernel, row)
        if needs is None:
            continue
        pats[row.name] = patterns(kernel, row.expect)
        for path in paths.names:
            for kind in KINDS:
                outcome = predict(paths, path, kind, row.context, row.fate)
                if outcome.what == 'fired' and row.fate in FATAL:
                    fatal.append((path, kind, row, needs.smp, needs.boot))
                    continue
                # A batch guest has one CPU; the boot line is for where
                # the type runs: a second CPU's type is refused in one.
                if needs.smp != 1:
                    outcome, boot = ONE_CPU, ''
                else:
                    boot = needs.boot
                batches.setdefault((path, kind, boot), []).append((row.name, outcome))
    found = {}
    for (path, kind, boot), cells in batches.items():
        name = batch_file(path, kind, boot)
        if name in found:
            raise ValueError('two boot lines of the matrix make %s' % name)
        found[name] = batch_case(path, kind, boot, cells, pats)
    if scope not in ('first', 'full'):
        fatal = sample(fatal, seed, fatal_sample)
    for cell in fatal:
        path, kind, row = cell[:3]
        name = 'matrix_fatal_%s_%s_%s.sh' % (path, kind, row.name)
        found[name] = fatal_case(cell, variant(pats[row.name], row.name, kernel.arch, path))
    if scope != 'sample':
        found.update(matrix_smp.smp_cases(kernel, rows, paths))
    return found


def write_cases(found, out):
    for name, lines in found.items():
        with open(os.path.join(out, name), 'w', encoding='utf-8',
                  errors='surrogateescape') as f:
            f.write(''.join(line + '\n' for line in lines))


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog='python3 -m pcengine.matrix',
        description="Write the crash-point matrix's cases for one kernel.")
    ap.add_argument('--types', required=True, help='provoke-crash types --table, for the arch')
    ap.add_argument('--config', required=True, help="the kernel's config file")
    ap.add_argument('--release', required=True)
    ap.add_argument('--arch', required=True, choices=('amd64', 'arm64'))
    ap.add_argument('--scope', choices=SCOPES, default='first',
                    help='PC_MATRIX_SCOPE: sample (of the fatal cells), first (every '
                    'cell; the bench runs it on its first x86-64 kernel only), kernels '
                    '(a sample and the 2-CPU cells, on every kernel), full (every cell, '
                    'every kernel)')
    ap.add_argument('--seed', default='none',
                    help='picks the fatal cells of a sample (the bench: the commit)')
    ap.add_argument('--fatal', type=int, default=4, metavar='N',
                    help='fatal cells in a sample (PC_MATRIX_FATAL)')
    ap.add_argument('--out', required=True, help="the series' cases directory")
    args = ap.parse_args(argv)

    def work():
        kernel = kernel_of(args.release, args.arch, args.config)
        write_cases(matrix_cases(kernel, read_table(args.types), args.scope, args.seed,
                                 args.fatal), args.out)
    return run_cli(work)


if __name__ == '__main__':
    sys.exit(main())
