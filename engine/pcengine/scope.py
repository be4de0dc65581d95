# SPDX-License-Identifier: GPL-2.0
"""Which case runs on which kernel, and why not: the bench's scope as data.

One table, POLICY, read at a glance: for each kind of kernel and each
lane of cases, what runs by default, which scope variable widens it, and
why the rest is left out.  decide() applies it to one name, select() to a
series' candidates, listing() to a run's series in tests/run's order,
PC_CASES and PC_SHARD included.

A series' preparation (pcengine.prepare) calls select() once;
``python3 -m pcengine.scope --select SERIES --kernels "K..." --cases DIR``
prints the names of DIR's case files (and lkdtm_selftest) that SERIES runs,
by the scope variables in the environment.  PC_CASES and PC_SHARD are
applied there, which deals the run's cases in tests/run's order.

The candidate names come from the generators (pcengine.cases,
pcengine.matrix) and tests/cases/: which names exist on a kernel depends
on its crash-type table and its config, and the matrix's fatal sample on
the commit.  ``python3 -m pcengine.scope --list --prepared DIR`` reads
them from the cases directories that ``PC_LIST=1 tests/run`` prepared
under DIR (its $PC_OUT/list-I-of-N) and prints the same listing, from the
same environment (PC_KERNELS, PC_CASES, PC_SHARD, PC_*_SCOPE); --why adds
each name left out and the reason, as comments.  PC_CASES is read as a
Python regular expression: the bench's EREs mean the same, POSIX classes
such as [[:digit:]] do not.
"""

import argparse
import collections
import fnmatch
import locale
import os
import re
import subprocess
import sys

from . import ROOT


def built_kernels(path=os.path.join(ROOT, 'tools', 'built-kernels.tsv')):
    """The series whose kernel is built from source (builtkernel.py,
    cached), from the list the shell reads too: the longest preparation
    by far."""
    with open(path, encoding='utf-8') as f:
        return tuple(line.split()[0] for line in f
                     if line.strip() and not line.lstrip().startswith('#'))


BUILT_KERNELS = built_kernels()


def matches(pattern, text):
    """PC_CASES is an ERE: grep -E reads it, as the bash steps do."""
    return subprocess.run(['grep', '-Eq', '--', pattern], input=text + '\n', text=True,
                          stdout=subprocess.DEVNULL).returncode == 0


DEFAULT_KERNELS = '6.1 5.10 6.12 6.1-rt arm64-6.1 debug 7.2 7.2-rt arm64-7.2'

# The scope variables and their defaults (tests/run's).
SCOPE_DEFAULTS = {
    'PC_X86_SCOPE': 'slice',
    'PC_ARM64_SCOPE': 'slice',
    'PC_DEBUG_SCOPE': 'slice',
    'PC_KDUMP_SCOPE': 'slice',
    'PC_MATRIX_SCOPE': 'first',
}

# The slices.  Types are crash types (direct_T and point_T cases);
# names are whole case names.
ARM64_SLICE_TYPES = frozenset('''bugon panic null_dereference
    oops_interrupt_context write_after_free overwrite_allocation
    corrupt_stack unaligned_load_store'''.split())
# arm64's own types besides.
ARM64_ONLY_TYPES = frozenset('unaligned_exclusive pac_corruption'.split())
# arm64's hand-written slice: the crash-point machinery and refusals.
ARM64_SLICE_NAMES = frozenset('''point_in_path point_not_on_path
    point_return_oops return_pins_module return_nested return_kretprobe_race
    txn_refused_race deferred_misses counters_exact'''.split())
ARM64_SLICE_PATTERNS = ('refused_*', 'crashpoints_*')
# The debug kernel's types: the working slice and those Debian's kernels
# lack an option for.
DEBUG_SLICE_TYPES = frozenset('''bugon panic null_dereference
    oops_interrupt_context oops_softirq_context stack_end_corruption
    write_after_free double_free write_buddy_after_free corrupt_stack
    unaligned_load_store report array_bounds stackleak_erasing'''.split())
# Of those, fired directly too (not only at a point): the ones Debian's
# kernels cannot run.
DEBUG_DIRECT_TYPES = frozenset('''write_after_free double_free
    write_buddy_after_free array_bounds stackleak_erasing'''.split())
# The clang kernel's: what kCFI, counted_by and the compiler's checks catch.
CLANG_SLICE_TYPES = frozenset('''bugon null_dereference cfi_forward_proto
    array_bounds fam_bounds ptr_bounds overflow_signed overflow_unsigned
    fortify_str_object fortify_str_member fortify_mem_object
    fortify_mem_member fortify_strscpy'''.split())
# PREEMPT_RT: the paths its sleeping spinlocks and threaded interrupts
# change, one pstore record per kind of point and one capture.
RT_SLICE_NAMES = frozenset('''lockups_irqs_off return_exit_past_slots
    deferred_misses deferred_irq_in_softirq counters_exact
    crashpoints_rearm_fires_once direct_spinlockup point_spinlockup
    direct_panic point_bugon point_return_oops kdump_panic
    kdump_spinlockup'''.split())
# A PREEMPT_RT kernel after the first (7.2-rt beside 6.1-rt): what every
# rt kernel must show (lockups with interrupts off, the deferred hits,
# the return path, a spinlock lockup at a point, a panic and its
# capture); the rest of the rt slice runs on the first, and here in
# check-long.
RT_NEXT_NAMES = frozenset('''lockups_irqs_off deferred_misses
    deferred_irq_in_softirq point_spinlockup direct_panic point_return_oops
    kdump_panic'''.split())
# The kdump lane's slices, by the name after "kdump_" (each case boots
# two kernels; PC_KDUMP_SCOPE=full runs every fatal type everywhere).
# On an x86-64 kernel after the first (6.12 beside 6.1): each way a crash
# reaches the capture kernel that differs between kernel versions:
# panic(), an oops in NMI, hard and soft interrupt context and at a crash
# point, a double fault, a stack overflow, the hard lockup watchdog, and
# another CPU stuck with interrupts off (the NMI stop).
KDUMP_X86_SLICE = frozenset('''panic oops_nmi_context oops_interrupt_context
    point_null_dereference point_oops_interrupt_context double_fault
    exhaust_stack hardlockup_nmi_watchdog cpu1_while_cpu0_irqs_off'''.split())
# On the first x86-64 kernel, beside those: the other ways in (BUG(), a
# panic from a hard interrupt, with interrupts off and while other CPUs
# spin with them off, each lockup and stall detector's panic, an oops in
# a soft interrupt).  BUG() at a point, a plain oops, a panic at a point,
# a guard page and a list check reach it as others do (BUG(), an oops at
# a point, panic(), a stack overflow): they run in check-long.  Every
# fatal type runs there with pstore in CI.
KDUMP_FIRST_X86_SLICE = KDUMP_X86_SLICE | frozenset('''bugon
    oops_softirq_context panic_in_hardirq panic_irqs_off panic_stop_irqoff
    spinlockup hardlockup hung_task rcu_stall smp_call_lockup'''.split())
# On arm64, where each guest boots two kernels under emulation: panic(),
# an oops in a hard interrupt, a stack overflow, an oops at a crash point,
# a panic while CPU 0 spins with interrupts off, and a hard lockup for
# the watchdog (6.12's buddy detector; Debian's arm64 6.1 has no
# HARDLOCKUP_DETECTOR, and pcengine.cases makes no kdump case for a type
# whose option the kernel lacks).
KDUMP_ARM64_SLICE = frozenset('''panic oops_interrupt_context exhaust_stack
    point_null_dereference cpu1_while_cpu0_irqs_off_arm64
    hardlockup_nmi_watchdog'''.split())

# An x86-64 kernel between the first and the last of a run (5.10 and
# 6.12, with 6.1 first and 7.2 last): those two bracket it, so it runs the
# machinery that differs most between versions (the return path, the
# deferred hits, the counters), the slice's types, and a capture each
# by panic(), at a point and from a hard interrupt.
X86_MID_NAMES = frozenset('''point_in_path point_return_oops return_nested
    deferred_misses deferred_irq_in_softirq
    counters_exact crashpoints_rearm_fires_once lockups_irqs_off
    return_trace_inside'''.split())
X86_MID_KDUMP = frozenset('panic point_null_dereference oops_interrupt_context'.split())
# An arm64 kernel after the first (arm64-7.2 beside arm64-6.1): the
# crash-point machinery's core, the slice's types that every kernel
# must see, and two captures.
ARM64_NEXT_NAMES = frozenset('''point_in_path point_not_on_path
    point_return_oops return_nested counters_exact'''.split())
ARM64_NEXT_TYPES = frozenset('bugon panic null_dereference oops_interrupt_context'.split())
ARM64_NEXT_KDUMP = frozenset('panic point_null_dereference'.split())

LANES = ('hand', 'types', 'kdump', 'matrix', 'lkdtm')
KINDS = ('first-x86', 'x86', 'x86-mid', 'rt', 'rt-next', 'arm64', 'arm64-next', 'debug',
         'clang')


class Rule(collections.namedtuple('Rule', 'types names patterns kdump')):
    """What a cell runs: all (every field None), nothing (all empty), or
    the names that one of its fields matches."""

    def matches(self, name):
        if self.types is None:
            return True
        return (any(name in ('direct_' + t, 'point_' + t) for t in self.types)
                or name in self.names
                or any(fnmatch.fnmatchcase(name, p) for p in self.patterns)
                or (name.startswith('kdump_') and name[len('kdump_'):] in self.kdump))


def only(types=(), names=(), patterns=(), kdump=()):
    return Rule(frozenset(types), frozenset(names), tuple(patterns), frozenset(kdump))


ALL = Rule(None, None, None, None)
NONE = only()

# One cell: the default rule, the variable and values that run all of
# the lane instead (None: nothing does), and why the rest is left out.
Cell = collections.namedtuple('Cell', 'default widened_by wide_values why')

X86_FULL = ('PC_X86_SCOPE', ('full',))
ARM64_FULL = ('PC_ARM64_SCOPE', ('full',))
DEBUG_FULL = ('PC_DEBUG_SCOPE', ('full',))
KDUMP_FULL = ('PC_KDUMP_SCOPE', ('full',))
MATRIX_WIDE = ('PC_MATRIX_SCOPE', ('kernels', 'full'))
NEVER = (None, ())

WHY_MATRIX = 'the crash-point matrix runs on the first x86-64 kernel only'
WHY_TCG = 'slow under TCG'
WHY_BUILT_KDUMP = 'no kdump lane on a built kernel by default'
WHY_KFENCE = 'on a KASAN kernel KFENCE seldom serves the case\'s own allocations'

# The policy.  Kinds: first-x86 is the first x86-64 Debian (or files)
# kernel of PC_KERNELS, not rt; x86 the others; rt the PREEMPT_RT series;
# debug and clang the kernels built here (builtkernel.py).
# Lanes: hand (tests/cases/), types (direct_T, point_T and the generated
# refusals), kdump (kdump_*), matrix (matrix_*), lkdtm (the selftest).
POLICY = {
    ('first-x86', 'hand'): Cell(ALL, *NEVER, ''),
    ('first-x86', 'types'): Cell(ALL, *NEVER, ''),
    ('first-x86', 'kdump'): Cell(only(kdump=KDUMP_FIRST_X86_SLICE), *KDUMP_FULL,
                                 'each case boots two kernels: each way into the'
                                 ' capture kernel, every fatal type in check-long'),
    ('first-x86', 'matrix'): Cell(ALL, *NEVER, ''),
    ('first-x86', 'lkdtm'): Cell(ALL, *NEVER, ''),

    ('x86', 'hand'): Cell(ALL, *X86_FULL, ''),
    ('x86', 'types'): Cell(only(types=DEBUG_SLICE_TYPES | ARM64_SLICE_TYPES), *X86_FULL,
                           'another x86-64 kernel runs the debug and arm64 slices\' types'),
    ('x86', 'kdump'): Cell(only(kdump=KDUMP_X86_SLICE), *KDUMP_FULL,
                           'another x86-64 kernel runs the kdump paths that differ'
                           ' between versions'),
    ('x86', 'matrix'): Cell(NONE, *MATRIX_WIDE, WHY_MATRIX),
    ('x86', 'lkdtm'): Cell(ALL, *NEVER, ''),

    ('x86-mid', 'hand'): Cell(only(names=X86_MID_NAMES), *X86_FULL,
                              'the first and the last x86-64 kernels bracket it:'
                              ' the machinery that differs between versions'),
    ('x86-mid', 'types'): Cell(only(types=DEBUG_SLICE_TYPES | ARM64_SLICE_TYPES), *X86_FULL,
                               'another x86-64 kernel runs the debug and arm64 slices\' types'),
    ('x86-mid', 'kdump'): Cell(only(kdump=X86_MID_KDUMP), *KDUMP_FULL,
                               'the first and the last x86-64 kernels run the ways in'
                               ' that differ; this one three'),
    ('x86-mid', 'matrix'): Cell(NONE, *MATRIX_WIDE, WHY_MATRIX),
    ('x86-mid', 'lkdtm'): Cell(ALL, *NEVER, ''),

    ('rt', 'hand'): Cell(only(names=RT_SLICE_NAMES), *X86_FULL,
                         'PREEMPT_RT runs what it changes (the rt slice)'),
    ('rt', 'types'): Cell(only(names=RT_SLICE_NAMES), *X86_FULL,
                          'PREEMPT_RT runs what it changes (the rt slice)'),
    ('rt', 'kdump'): Cell(only(names=RT_SLICE_NAMES), *KDUMP_FULL,
                          'PREEMPT_RT runs one capture (the rt slice)'),
    ('rt', 'matrix'): Cell(NONE, *MATRIX_WIDE, WHY_MATRIX),
    ('rt', 'lkdtm'): Cell(NONE, *X86_FULL, 'PREEMPT_RT runs the LKDTM selftest in check-long'),

    ('rt-next', 'hand'): Cell(only(names=RT_NEXT_NAMES), *X86_FULL,
                              'a PREEMPT_RT kernel after the first runs the rt core'),
    ('rt-next', 'types'): Cell(only(names=RT_NEXT_NAMES), *X86_FULL,
                               'a PREEMPT_RT kernel after the first runs the rt core'),
    ('rt-next', 'kdump'): Cell(only(names=RT_NEXT_NAMES), *KDUMP_FULL,
                               'a PREEMPT_RT kernel after the first runs one capture'),
    ('rt-next', 'matrix'): Cell(NONE, *MATRIX_WIDE, WHY_MATRIX),
    ('rt-next', 'lkdtm'): Cell(NONE, *X86_FULL, 'PREEMPT_RT runs the LKDTM selftest in'
                               ' check-long'),

    ('arm64', 'hand'): Cell(only(names=ARM64_SLICE_NAMES, patterns=ARM64_SLICE_PATTERNS),
                            *ARM64_FULL, 'arm64 is ' + WHY_TCG + ': the crash-point machinery'),
    ('arm64', 'types'): Cell(only(types=ARM64_SLICE_TYPES | ARM64_ONLY_TYPES,
                                  patterns=ARM64_SLICE_PATTERNS),
                             *ARM64_FULL, 'arm64 is ' + WHY_TCG + ': a slice of types, its own'),
    ('arm64', 'kdump'): Cell(only(kdump=KDUMP_ARM64_SLICE), *KDUMP_FULL,
                             'arm64 boots two kernels under TCG: a slice of captures'),
    ('arm64', 'matrix'): Cell(NONE, *MATRIX_WIDE, WHY_MATRIX),
    ('arm64', 'lkdtm'): Cell(ALL, *NEVER, ''),

    ('arm64-next', 'hand'): Cell(only(names=ARM64_NEXT_NAMES), *ARM64_FULL,
                                 'arm64 is ' + WHY_TCG + ': the first arm64 kernel runs the'
                                 ' slice, this one the machinery\'s core'),
    ('arm64-next', 'types'): Cell(only(types=ARM64_NEXT_TYPES), *ARM64_FULL,
                                  'arm64 is ' + WHY_TCG + ': four types every kernel must see'),
    ('arm64-next', 'kdump'): Cell(only(kdump=ARM64_NEXT_KDUMP), *KDUMP_FULL,
                                  'arm64 boots two kernels under TCG: two captures'),
    ('arm64-next', 'matrix'): Cell(NONE, *MATRIX_WIDE, WHY_MATRIX),
    ('arm64-next', 'lkdtm'): Cell(NONE, *ARM64_FULL, 'the first arm64 kernel runs the LKDTM'
                                  ' selftest; this one in check-long'),

    # Hand-written cases: also see EXCLUDED and the debug-slice header.
    ('debug', 'hand'): Cell(ALL, *DEBUG_FULL, ''),
    ('debug', 'types'): Cell(only(names={'point_' + t for t in DEBUG_SLICE_TYPES} |
                                  {'direct_' + t for t in DEBUG_DIRECT_TYPES}),
                             *DEBUG_FULL,
                             'the KASAN kernel is ' + WHY_TCG + ': a slice of types'),
    ('debug', 'kdump'): Cell(NONE, *KDUMP_FULL, WHY_BUILT_KDUMP),
    ('debug', 'matrix'): Cell(NONE, *MATRIX_WIDE, WHY_MATRIX),
    ('debug', 'lkdtm'): Cell(NONE, *DEBUG_FULL, 'the KASAN kernel runs the LKDTM selftest'
                             ' in check-long'),

    ('clang', 'hand'): Cell(ALL, *NEVER, ''),
    ('clang', 'types'): Cell(only(types=CLANG_SLICE_TYPES), *NEVER,
                             'the clang kernel runs the types its compiler checks'),
    ('clang', 'kdump'): Cell(NONE, *KDUMP_FULL, WHY_BUILT_KDUMP),
    ('clang', 'matrix'): Cell(NONE, *MATRIX_WIDE, WHY_MATRIX),
    ('clang', 'lkdtm'): Cell(ALL, *NEVER, ''),
}

# Names a kernel kind leaves out of its default rule's ALL, and why (the
# wide rule still runs them).
EXCLUDED = {
    ('debug', 'kfence_heap'): WHY_KFENCE,
    ('clang', 'kfence_heap'): WHY_KFENCE,
}
# The long SMP races (two vCPUs on one host thread: 20 to 80 s each) run
# on the first x86-64 kernel and the debug kernel (KASAN, lockdep), and
# two of them on arm64; another x86-64 kernel runs them with
# PC_X86_SCOPE=full.
WHY_RACE = ('a long SMP race: it runs on the first x86-64 kernel and the debug kernel'
            ' (PC_X86_SCOPE=full runs it)')
X86_LONG_RACES = ('arm_disarm_race', 'load_refused_race', 'return_kretprobe_race',
                  'txn_refused_race')
EXCLUDED.update({('x86', name): WHY_RACE for name in X86_LONG_RACES})
# A hand-written case's "# debug-slice: no: WHY" line leaves it out of the
# debug kernel's default scope.
DEBUG_SLICE_HEADER = '# debug-slice: no'

LKDTM = 'lkdtm_selftest'


def series_kind(series):
    """The kind of kernel a series is, the first x86-64 one aside."""
    if series in ('debug', 'clang'):
        return series
    if series.endswith('-rt'):
        return 'rt'
    if series.startswith('arm64-'):
        return 'arm64'
    return 'x86'


def first_x86(kernels):
    """The first x86-64 kernel neither built here nor PREEMPT_RT."""
    for s in kernels:
        if series_kind(s) == 'x86':
            return s
    return None


def kind_of(series, kernels):
    """The kind of SERIES in a run of KERNELS: the first x86-64 kernel
    aside, an x86-64 one between the first and the last is x86-mid, an
    arm64 one after the first is arm64-next."""
    if series == first_x86(kernels):
        return 'first-x86'
    kind = series_kind(series)
    same = [s for s in kernels if series_kind(s) == kind]
    if series not in same:
        return kind
    if kind == 'x86' and series != same[-1]:
        return 'x86-mid'
    if kind == 'arm64' and series != same[0]:
        return 'arm64-next'
    if kind == 'rt' and series != same[0]:
        return 'rt-next'
    return kind


def lane(name, hand):
    """The lane a case name is in; hand: the hand-written cases' names."""
    if name.startswith('matrix_'):
        return 'matrix'
    if name.startswith('kdump_'):
        return 'kdump'
    if name == LKDTM:
        return 'lkdtm'
    return 'hand' if name in hand else 'types'


def scope_vars(env):
    return {k: env.get(k) or v for k, v in SCOPE_DEFAULTS.items()}


def header_reason(text):
    """The reason a "# debug-slice: no" line gives, or None."""
    for line in text.split('\n'):
        if line.startswith(DEBUG_SLICE_HEADER):
            return line[len(DEBUG_SLICE_HEADER):].lstrip(': ') or 'its debug-slice line'
    return None


def decide(series, name, kernels, variables, hand):
    """(runs, why): whether NAME runs on SERIES by the policy, and if not,
    why.  hand maps each hand-written case's name to its file's text."""
    kind = kind_of(series, kernels)
    cell = POLICY[(kind, lane(name, hand))]
    var, wide = cell.widened_by, cell.wide_values
    if var and variables[var] in wide:
        return True, ''
    if not cell.default.matches(name):
        how = ' (%s=%s runs all)' % (var, ' or '.join(wide)) if var else ''
        return False, cell.why + how
    why = EXCLUDED.get((kind, name))
    if why:
        return False, why
    if kind == 'debug' and name in hand:
        why = header_reason(hand[name])
        if why:
            return False, 'its debug-slice line: ' + why
    return True, ''


def select(series, names, kernels, env, hand):
    """The names of NAMES (a series' candidates) and the LKDTM selftest
    that SERIES runs by the policy, in NAMES' order."""
    variables = scope_vars(env)
    return [n for n in list(names) + [LKDTM]
            if decide(series, n, kernels, variables, hand)[0]]


def case_names(cases):
    """The case files' names in a series' cases directory (tests/run's
    batches, made after the scope, left out)."""
    return sorted(f[:-3] for f in os.listdir(cases)
                  if f.endswith('.sh') and not f.startswith('zz_batch_'))


Entry = collections.namedtuple('Entry', 'series name runs why')


def parse_shard(text):
    m = re.fullmatch(r'([0-9]+)/([0-9]+)', text)
    if not m or not 1 <= int(m.group(1)) <= int(m.group(2)):
        raise ValueError('PC_SHARD=%s: expected I/N with 1 <= I <= N' % text)
    return int(m.group(1)), int(m.group(2))


def listing(kernels, candidates, hand, env):
    """Every candidate of each series, in tests/run's order, as Entry:
    runs says whether it is in this run (scope, PC_CASES and PC_SHARD).
    candidates maps a series to its case names in the order its cases
    directory globs them; the LKDTM selftest follows each series'."""
    variables = scope_vars(env)
    pattern = re.compile(env.get('PC_CASES') or '.')
    shard_i, shard_n = parse_shard(env.get('PC_SHARD') or '1/1')
    dealt = 0
    entries = []
    for series in kernels:
        for name in list(candidates[series]) + [LKDTM]:
            if not pattern.search('%s/%s' % (series, name)):
                entries.append(Entry(series, name, False, 'PC_CASES does not match'))
                continue
            runs, why = decide(series, name, kernels, variables, hand)
            if runs:
                dealt += 1
                if (dealt - 1) % shard_n + 1 != shard_i:
                    runs, why = False, 'dealt to slice %d of PC_SHARD' % ((dealt - 1) % shard_n + 1)
            entries.append(Entry(series, name, runs, why))
    return entries


def listing_lines(entries, env, why=False):
    """The lines PC_LIST=1 tests/run prints; with why, each name left out
    as a comment line after its series' names."""
    shard_i, shard_n = parse_shard(env.get('PC_SHARD') or '1/1')
    lines = ['%s-%s' % (e.series, e.name) for e in entries if e.runs]
    if why:
        lines += ['# %s-%s: %s' % (e.series, e.name, e.why) for e in entries if not e.runs]
    if shard_i == 1:
        lines.append('host gates')
    if shard_i == shard_n:
        lines.append('vm cases')
    return lines


def hand_written(root):
    """The hand-written cases under ROOT/tests/cases: name -> text."""
    d = os.path.join(root, 'tests', 'cases')
    found = {}
    for f in os.listdir(d):
        if f.endswith('.sh'):
            with open(os.path.join(d, f), encoding='utf-8', errors='surrogateescape') as fh:
                found[f[:-3]] = fh.read()
    return found


def collated(names, suffix=''):
    """NAMES in the order bash globs and sort(1) sort the file names
    NAME+SUFFIX: by the collation of LC_COLLATE (C's, where that locale
    is not installed)."""
    try:
        locale.setlocale(locale.LC_COLLATE, '')
    except locale.Error:
        locale.setlocale(locale.LC_COLLATE, 'C')
    return sorted(names, key=lambda n: locale.strxfrm(n + suffix))


def prepared_candidates(prepared, raw_kernels):
    """(kernels, candidates) from a listing's scratch directory: the K-th
    series' release is in prep/K.ready, its case files in REL/cases, in
    bash's glob order (the collation of LC_COLLATE).  A kernel given as
    IMAGE:TREE goes by its release, as in tests/run."""
    kernels, candidates = [], {}
    for k, series in enumerate(raw_kernels, 1):
        with open(os.path.join(prepared, 'prep', '%d.ready' % k)) as f:
            rel = f.read().strip()
        name = rel if ':' in series else series
        names = case_names(os.path.join(prepared, rel, 'cases'))
        kernels.append(name)
        candidates[name] = collated(names, '.sh')
    return kernels, candidates


def table_lines():
    """POLICY as text: one line per kind and lane."""
    def show(rule):
        if rule.types is None:
            return 'all'
        parts = ['%d types' % len(rule.types)] if rule.types else []
        parts += ['%d names' % len(rule.names)] if rule.names else []
        parts += list(rule.patterns)
        parts += ['%d kdump' % len(rule.kdump)] if rule.kdump else []
        return ', '.join(parts) or 'none'
    lines = []
    for (kind, ln), cell in POLICY.items():
        wide = '%s=%s' % (cell.widened_by, '|'.join(cell.wide_values)) if cell.widened_by else '-'
        why = cell.why
        if ln == 'hand':
            but = sorted(n for k, n in EXCLUDED if k == kind)
            but += ['"%s" cases' % DEBUG_SLICE_HEADER] if kind == 'debug' else []
            why = 'all but ' + ', '.join(but) if but else why
        lines.append('%-10s %-6s %-34s %-28s %s' % (kind, ln, show(cell.default), wide, why))
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(prog='python3 -m pcengine.scope',
                                 description='The bench\'s scope: its table, or a listing.')
    ap.add_argument('--select', metavar='SERIES',
                    help='print the names SERIES runs: its --cases and lkdtm_selftest')
    ap.add_argument('--kernels', metavar='"K..."',
                    help='with --select: the run\'s series, in order (the first x86-64)')
    ap.add_argument('--cases', metavar='DIR', help='with --select: the series\' case files')
    ap.add_argument('--list', action='store_true',
                    help='print what PC_LIST=1 tests/run prints, from the environment')
    ap.add_argument('--prepared', metavar='DIR',
                    help='a listing\'s $PC_OUT/list-I-of-N: the candidate case files')
    ap.add_argument('--why', action='store_true', help='add each name left out, and why')
    ap.add_argument('--root', default=os.path.join(os.path.dirname(__file__), '..', '..'),
                    help='the provoke-crash checkout (its tests/cases)')
    args = ap.parse_args(argv)
    if args.select:
        if not (args.kernels and args.cases):
            ap.error('--select needs --kernels and --cases')
        try:
            names = case_names(args.cases)
        except OSError as e:
            print('provoke-crash: %s' % e, file=sys.stderr)
            return 1
        chosen = select(args.select, names, args.kernels.split(), os.environ,
                        hand_written(args.root))
        print('\n'.join(chosen))
        return 0
    if not args.list:
        print('\n'.join(table_lines()))
        return 0
    if not args.prepared:
        ap.error('--list needs --prepared DIR (the generators are not ported yet)')
    env = os.environ
    try:
        parse_shard(env.get('PC_SHARD') or '1/1')
        kernels, candidates = prepared_candidates(
            args.prepared, (env.get('PC_KERNELS') or DEFAULT_KERNELS).split())
    except (ValueError, OSError) as e:
        print('provoke-crash: %s' % e, file=sys.stderr)
        return 1
    entries = listing(kernels, candidates, hand_written(args.root), env)
    print('\n'.join(listing_lines(entries, env, args.why)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
