# SPDX-License-Identifier: GPL-2.0
"""The cases generated from the crash-type table, for one kernel.

Each type is fired directly and at a crash point (direct_T, point_T),
with pstore for a fatal type fired directly; where it cannot run, the case that proves
it is refused (refused_T: another architecture) or missed (a point on a
kernel that cannot tell a preemptible path); and, where a capture kernel
can load, the kdump lane's cases (kdump_T, and kdump_point_T for the
point spread).  The table's row (``provoke-crash types --table``: name,
category, context, fate, needs, expect, description, LKDTM name) and the
kernel (its config, architecture, release, the syscall a case's own
pc-guest makes) decide every line.

A series' preparation (prepare_series.py) runs cases.main(); the case
header keys are described at the top of tests/run.
"""

import argparse
import collections
import os
import re
import sys

from . import run_cli

# Crash types also fired at a crash point in the kdump lane: one of each
# way a crash reaches kdump (panic(), an oops with oops=panic, BUG(), an
# oops in a hard interrupt).
KDUMP_POINT_TYPES = ('panic', 'null_dereference', 'bugon', 'oops_interrupt_context')
FATAL = ('oops', 'panic', 'hang')
ARCHES = ('x86_64', 'arm64', 'powerpc')

Row = collections.namedtuple('Row', 'name category context fate needs expect desc lkdtm')


class Kernel(collections.namedtuple('Kernel', 'release arch config hit_symbol kdump')):
    """arch: amd64 or arm64; config: the options built in or as modules;
    hit_symbol: the syscall entry only the case's pc-guest calls;
    kdump: whether a capture kernel can load here."""

    def has(self, option):
        return option in self.config

    @property
    def uname_arch(self):
        return 'x86_64' if self.arch == 'amd64' else self.arch


def config_of(path):
    """(the options a kernel config has as y or m, those it has as y),
    from one read of it."""
    found, built_in = set(), set()
    with open(path, encoding='utf-8', errors='surrogateescape') as f:
        for line in f:
            m = re.match(r'(CONFIG_[A-Za-z0-9_]+)=([ym])', line)
            if m:
                found.add(m.group(1))
                if m.group(2) == 'y':
                    built_in.add(m.group(1))
    return frozenset(found), frozenset(built_in)


def read_config(path):
    """The options a kernel config has as y or m."""
    return config_of(path)[0]


def read_table(path):
    rows = []
    with open(path, encoding='utf-8', errors='surrogateescape') as f:
        for line in f:
            fields = line.rstrip('\n').split('\t')
            if len(fields) == len(Row._fields):
                rows.append(Row(*fields))
    return rows


def patterns(kernel, expect, kdump=False):
    """A type's expected patterns (joined by " && " in the table).
    "CONFIG_X? PATTERN" is expected only where the kernel has CONFIG_X;
    "!kdump? PATTERN" only where no capture kernel is loaded (the oops
    path jumps into it before panic() prints its line)."""
    found = []
    for pat in expect.split(' && '):
        m = re.fullmatch(r'(CONFIG_[A-Z0-9_]+)\? (.*)', pat)
        if m:
            if not kernel.has(m.group(1)):
                continue
            pat = m.group(2)
        m = re.fullmatch(r'!kdump\? (.*)', pat)
        if m:
            if kdump:
                continue
            pat = m.group(1)
        found.append(pat)
    return found


Needs = collections.namedtuple('Needs', 'boot smp missing defeated arch')


def needs_of(kernel, words):
    """What the table's needs words ask of a guest: name=value words for
    its command line, a second CPU, the CONFIG_ options it lacks, the
    !CONFIG_ ones it has (they defeat the type), the one architecture the
    type runs on when it is not the kernel's.  cpu:FEATURE words ask for
    what QEMU's -cpu max has.  CONFIG_A|CONFIG_B: either will do (an
    option renamed between kernels)."""
    boot, missing, defeated, smp, arch = [], [], [], 1, ''
    for word in words.split():
        if word.startswith('CONFIG_') and '|' in word:
            if not any(kernel.has(w) for w in word.split('|')):
                missing.append(word.replace('|', ' or '))
        elif word.startswith('CONFIG_'):
            if not kernel.has(word):
                missing.append(word)
        elif word.startswith('!CONFIG_'):
            if kernel.has(word[1:]):
                defeated.append(word[1:])
        elif word == 'smp':
            smp = 2
        elif word.startswith('cpu:') or word == '-':
            pass
        elif word in ARCHES:
            if word != kernel.uname_arch:
                arch = word
        else:
            boot.append(word)
    return Needs(''.join(' ' + w for w in boot), smp, ''.join(' ' + w for w in missing),
                 ''.join(' ' + w for w in defeated), arch)


def refused_case(kernel, row, only):
    """A type for another architecture: the trigger and the control file
    both refuse it, with EOPNOTSUPP and a line naming both."""
    n, sym, here = row.name, kernel.hit_symbol, kernel.uname_arch
    return [
        '# generated from the crash-type table: %s (only on %s)' % (n, only),
        '# boot:',
        '# batch-ok',
        '# expect: provoke_crash: trigger: %s runs only on %s, and this kernel is %s'
        % (n, only, here),
        '# expect: provoke_crash: crashpoints: %s: %s runs only on %s, and this kernel is %s'
        % (sym, n, only, here),
        '# expect-out: trigger: write: error (EOPNOTSUPP|ENOTSUP) ',
        '# expect-out: point: write: error (EOPNOTSUPP|ENOTSUP) ',
        '# expect-out: listing: $',
        '# reject: FAIL:',
        'echo "trigger: $(pc-guest write $D/%s 1)"' % n,
        'echo "point: $(pc-guest write $D/crashpoints "%s %s")"' % (sym, n),
        'echo "listing: $(cat $D/crashpoints)"',
    ]


def entry_refused_skip(name):
    """The guest line that turns the refusal of type NAME at an entry
    point, where the kernel's ftrace is too old for the entry path it
    needs, into a skip with the module's reason."""
    return ("dmesg | sed -n 's/.*provoke_crash: crashpoints: [^ ]*: \\(%s .*"
            "lacks the module.s entry path.*\\)/PC-SKIP \\1/p' | head -n 1" % name)


def missed_case(kernel, row, listed):
    """A point whose type needs a preemptible path, on a kernel that
    cannot tell one: the hit counts as missed, the module says why, and
    the kernel stays up."""
    n, sym = row.name, kernel.hit_symbol
    return [
        '# generated from the crash-type table: %s (point, no CONFIG_PREEMPT_COUNT)' % n,
        '# boot:',
        '# expect: provoke_crash: crashpoints: %s: %s missed: it needs preempt context at'
        ' most, and the path is in irqs context here' % (sym, n),
        '# expect-out: %s %s hits=1 filtered=0 fired=0 missed=1 context=%s' % (sym, n, listed),
        '# expect-out: PC-GUEST-END',
        '# reject: FAIL:|Oops|Kernel panic',
        'pc-guest write $D/crashpoints "%s %s"' % (sym, n),
        entry_refused_skip(n),
        'pc-guest hit getppid 1',
        'cat $D/crashpoints',
    ]


def kdump_case(kernel, row, kind, needs):
    """The type fired with a capture kernel loaded, judged on the crashed
    kernel's log as the capture kernel read it.  oops=panic: an oops must
    end in the capture kernel, as on a production kdump machine."""
    n, sym = row.name, kernel.hit_symbol
    lines = [
        '# generated from the crash-type table: %s (%s, %s, kdump)' % (n, row.fate, kind),
        '# boot:%s oops=panic' % needs.boot,
        '# smp: %d' % needs.smp,
        '# kdump: 1',
        '# expect-out: PC-KDUMP-LOADED [0-9]+ bytes reserved',
        '# expect-out: PC-KDUMP-VMCORE [0-9]+ bytes',
        '# expect-out: PC-KDUMP-DMESG-BEGIN',
        '# expect-out: provoke_crash: %s: %s: ' % ('trigger' if kind == 'direct' else sym, n),
    ]
    lines += ['# expect-out: ' + p for p in patterns(kernel, row.expect, kdump=True)]
    if kernel.arch == 'arm64' and kernel.has('CONFIG_ARM64_VA_BITS_52'):
        # Debian 12's makedumpfile (1.7.2) reads no 52-bit VA arm64
        # kernel (6.12 and 7.2; 5.10 and 6.1 are 48-bit): the log is
        # captured, no dump.
        lines.append('# expect-out: VA Bits 52 not supported')
    else:
        lines.append('# expect-out: PC-KDUMP-DUMP [1-9][0-9]+ bytes')
    lines += ['# expect-out: PC-KDUMP-DONE',
              '# reject-out: PC-GUEST-END|PC-KDUMP-LOAD-FAILED|PC-KDUMP-NO-VMCORE',
              '# reject: FAIL:']
    if kind == 'direct':
        lines.append('pc-guest write $D/%s 1' % n)
    else:
        lines += ['pc-guest write $D/crashpoints "%s %s"' % (sym, n), 'pc-guest hit getppid 1']
    if row.fate == 'hang':
        lines.append('sleep 60')
    return lines


def type_case(kernel, row, kind, needs, listed):
    """The type fired directly or at a point.  A type whose option the
    kernel lacks still runs, but only its start is checked, and it is a
    skip.  Fired directly, a fatal type keeps ramoops across the reset, and
    the record read back must hold the same kernel text: the pstore lane,
    once per fatal type and kernel.  At a point its proof is the console,
    so that its guest can be a restored one that no reset reboots."""
    n, sym = row.name, kernel.hit_symbol
    fatal = row.fate in FATAL
    pstore = fatal and kind == 'direct'
    lines = ['# generated from the crash-type table: %s (%s, %s)' % (n, row.fate, kind),
             '# boot:' + needs.boot,
             '# smp: %d' % needs.smp]
    if pstore:
        lines.append('# pstore: 1')
    if kind == 'direct':
        lines.append('# expect: provoke_crash: trigger: %s: ' % n)
    else:
        lines += ['# expect: provoke_crash: %s: %s: ' % (sym, n),
                  '# expect-out: %s %s hits=0 filtered=0 fired=0 missed=0 context=%s'
                  % (sym, n, listed)]
    if not fatal and needs.smp == 1:
        lines.append('# batch-ok')
    if needs.missing:
        lines.append('# skip: needs%s, which %s lacks' % (needs.missing, kernel.release))
        # A fatal type that cannot crash here returns: at an entry
        # point the path it replaced goes on.
        if kind == 'point' and fatal:
            lines += ['# expect: crashpoints: %s: %s returned: the path goes on' % (sym, n),
                      '# expect-out: PC-GUEST-END',
                      '# reject: cannot resume']
    elif needs.defeated:
        lines.append('# skip: %s has%s, which defeats it' % (kernel.release, needs.defeated))
    else:
        expected = patterns(kernel, row.expect)
        lines += ['# expect: ' + p for p in expected]
        lines.append('# reject: FAIL:')
        if row.fate in ('panic', 'hang'):
            lines.append('# reject-out: PC-GUEST-END')
        else:
            lines.append('# expect-out: PC-GUEST-END')
        if kind == 'point' and row.fate not in ('panic', 'hang'):
            lines.append('# expect-out: %s %s hits=1 filtered=0 fired=1' % (sym, n))
        if pstore:
            lines.append('# expect-out: PC-PSTORE-BEGIN dmesg-ramoops-[0-9]+')
            lines += ['# expect-out: ' + p for p in expected]
    # A type that returns may find the kernel cannot catch it here, from
    # what really happened (XFAIL: and why): a skip with that reason,
    # never a pass.  Clear the log first, not count its lines: in a
    # batch guest the heap types' reports fill the ring buffer, and a
    # full buffer's line count stops growing.
    if not fatal:
        lines.append('dmesg -c >/dev/null')
    if kind == 'direct':
        lines.append('pc-guest write $D/%s 1' % n)
    else:
        lines += ['pc-guest write $D/crashpoints "%s %s"' % (sym, n),
                  'cat $D/crashpoints',
                  entry_refused_skip(n),
                  'pc-guest hit getppid 1',
                  'cat $D/crashpoints']
    if not fatal:
        lines.append("dmesg | sed -n 's/.*provoke_crash: \\(XFAIL: %s: .*\\)/PC-SKIP \\1/p'"
                     ' | head -n 1' % n)
    # A hang may leave the writer free (deadlock's threads are stuck,
    # not it): give the detector time before PC-GUEST-END.
    if row.fate == 'hang':
        lines.append('sleep 60')
    return lines


def cases_of(kernel, row):
    """{file name: lines} of one type's cases on the kernel."""
    needs = needs_of(kernel, row.needs)
    if needs.arch:
        return {'refused_%s.sh' % row.name: refused_case(kernel, row, needs.arch)}
    fatal = row.fate in FATAL
    found = {}
    if kernel.kdump and not (needs.missing or needs.defeated) and fatal:
        found['kdump_%s.sh' % row.name] = kdump_case(kernel, row, 'direct', needs)
        if row.name in KDUMP_POINT_TYPES:
            found['kdump_point_%s.sh' % row.name] = kdump_case(kernel, row, 'point', needs)
    # A fatal type's crash runs in the probed path, and so does a stall
    # (delay, spin), others in the probe handler; a type that needs the
    # path preemptible or its interrupts on (a crash that comes later, a
    # sleep) runs only where the path is so (path:preempt, path:irqs),
    # checked at each hit.
    listed = 'atomic'
    in_path = (fatal and row.context != 'task') or row.fate == 'stall'
    if in_path:
        listed = 'path'
    if in_path and row.context in ('preempt', 'irqs'):
        listed = 'path:' + row.context
    found['direct_%s.sh' % row.name] = type_case(kernel, row, 'direct', needs, listed)
    if row.context != 'task':
        # Without a preemption count no hit can be seen to be
        # preemptible: the point must miss, and say why.
        if row.context == 'preempt' and not kernel.has('CONFIG_PREEMPT_COUNT'):
            found['point_%s.sh' % row.name] = missed_case(kernel, row, listed)
        else:
            found['point_%s.sh' % row.name] = type_case(kernel, row, 'point', needs, listed)
    return found


def write_cases(kernel, rows, out):
    for row in rows:
        for name, lines in cases_of(kernel, row).items():
            with open(os.path.join(out, name), 'w', encoding='utf-8',
                      errors='surrogateescape') as f:
                f.write(''.join(line + '\n' for line in lines))


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog='python3 -m pcengine.cases',
        description='Write the cases the crash-type table makes for one kernel.')
    ap.add_argument('--types', required=True, help='provoke-crash types --table, for the arch')
    ap.add_argument('--config', required=True, help="the kernel's config file")
    ap.add_argument('--release', required=True)
    ap.add_argument('--arch', required=True, choices=('amd64', 'arm64'))
    ap.add_argument('--hit-symbol', required=True,
                    help="the syscall entry only the case's own pc-guest calls")
    ap.add_argument('--kdump', action='store_true', help='a capture kernel can load here')
    ap.add_argument('--out', required=True, help='the series\' cases directory')
    args = ap.parse_args(argv)

    def work():
        kernel = Kernel(args.release, args.arch, read_config(args.config), args.hit_symbol,
                        args.kdump)
        write_cases(kernel, read_table(args.types), args.out)
    return run_cli(work)


if __name__ == '__main__':
    sys.exit(main())
