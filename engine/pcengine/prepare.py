# SPDX-License-Identifier: GPL-2.0
"""Which of a series' case files run, and in which guests.

A series' preparation (prepare_series.py) generates its case files
(pcengine.cases, pcengine.matrix, the hand-written ones) into its cases
directory, then asks this module what to do with them; then it builds the
module and packs the initramfs.  Here, in the order bash globs the directory:

- a case runs if PC_CASES matches it, the scope's table picks it
  (pcengine.scope) and PC_SHARD deals it to this run;
- it is skipped, unbooted, with its result written, when the kernel lacks
  a ``# needs:`` word (a CONFIG_ option, or a module as a file) or has no
  kdump lane for a ``# kdump: 1`` case; on a kernel without ramoops a
  pstore case loses its record's checks and counts as skipped;
- the ``# batch-ok`` cases share guests, one batch per boot line; the
  others get a guest each, the hand-written ones first (the races among
  them are the longest guests, which would end the run late);
- a guest that no other could restore from its saved state is marked to
  boot (``# fresh-boot:``): saving it would cost more than the boot.

Its answer, on standard output, one line each: ``dealt N`` (the shard's
count after this series), ``order SERIES-NAME`` (its results' names, in
KTAP order), ``job batch FILE``, ``job single FILE`` and ``job kdump
FILE`` (its guests, in order; a kdump case's boots a capture kernel
too), ``module twin|paths|race`` (the bench's modules a guest loads)
and ``lkdtm`` when the scope picks LKDTM's selftest on the series (the
preparation deals it after the cases, and prepares it).
"""

import argparse
import os
import re
import sys

from . import scope
from .scope import collated
from .cases import read_config
from .casefile import sed_lines as lines_of  # as awk reads them too

FRESH_LONE = '# fresh-boot: the only guest of its boot line, vCPUs and pstore here'
# Cases of a module of the bench, by what their text loads.
MODULE_MARKS = (('twin', 'provoke_crash_twin.ko'), ('paths', 'pc_paths.ko'),
                ('race', 'pc_race.ko'))


# Bytes kept as they are: a carriage return stays part of its line.
def read_text(path):
    with open(path, encoding='utf-8', errors='surrogateescape', newline='') as f:
        return f.read()


def write_text(path, text):
    with open(path, 'w', encoding='utf-8', errors='surrogateescape', newline='') as f:
        f.write(text)


def words(text):
    """Words as the shell splits them (space, tab and newline)."""
    return [w for w in re.split('[ \t\n]+', text) if w]


def awk_join(values, default=''):
    """Values joined as the bash's awk joined them: an empty one first
    takes no separator after it, and an empty result is DEFAULT."""
    joined = ''
    for v in values:
        joined = v if joined == '' else joined + '\034' + v
    return joined if joined != '' else default


class Header:
    """What the preparation reads of a case file."""

    def __init__(self, path):
        self.path = path
        self.name = os.path.basename(path)[:-3]
        text = read_text(path)
        lines = lines_of(text)
        self.empty = not lines
        self.needs = []
        boots = []
        for line in lines:
            if line.startswith('# needs: '):
                self.needs += words(line[len('# needs: '):])
            elif line.startswith('# boot:'):
                boots.append(line[len('# boot:'):])
        # The batches' key: every boot line.
        self.boot = awk_join(boots)
        self.pstore = any(line.startswith('# pstore: 1') for line in lines)
        self.kdump = any(line.startswith('# kdump: 1') for line in lines)
        self.batch_ok = any(line.startswith('# batch-ok') for line in lines)
        self.modules = [m for m, mark in MODULE_MARKS if mark in text]


def module_file(root, rel, module):
    """REL's module (a path under its kernel/ tree, no suffix) as a file,
    .ko or .ko.xz, under ROOT (pc_rel_root: '' for the system's), or
    None."""
    base = '%s/lib/modules/%s/kernel/%s' % (root, rel, module)
    for suffix in ('.ko', '.ko.xz'):
        if os.path.isfile(base + suffix):
            return base + suffix
    return None


def module_absent(root, rel, module):
    """'' if REL has MODULE as a file; else why not, and where it was
    looked for (initramfs.module_absent)."""
    if module_file(root, rel, module):
        return ''
    d = os.path.dirname(module) or '.'
    where = '%s/lib/modules/%s/kernel/%s' % (root, rel, d)
    try:
        tree = os.readlink('%s/usr/src/linux-headers-%s' % (root, rel))
        where = '%s/%s and /lib/modules/%s/kernel/%s' % (tree, d, rel, d)
    except OSError:
        pass
    return 'no %s.ko for %s (looked in %s)' % (os.path.basename(module), rel, where)


def unmet(h, config, root, rel):
    """Why the kernel cannot run case H by its ``# needs:`` words (CONFIG
    holds the options set y or m), or ''."""
    missing, modwhy = [], ''
    for word in h.needs:
        if word.endswith('.ko'):
            modwhy = modwhy or module_absent(root, rel, word[:-3])
        elif word.startswith('!'):
            if word[1:] in config:
                missing.append(word)
        elif word not in config:
            missing.append(word)
    if missing:
        return 'needs %s, which %s does not meet' % (' '.join(missing), rel)
    return modwhy


def pstore_unchecked(path, why):
    """A pstore case for a kernel without ramoops: no reset, and no
    expect-out lines from its PC-PSTORE-BEGIN on (the record's); what the
    crash printed is still checked, and the case, unless it skips
    already, is skipped for WHY."""
    kept, record, skip = [], False, False
    for line in lines_of(read_text(path)):
        if line.startswith('# pstore: '):
            continue
        if line.startswith('# expect-out: PC-PSTORE-BEGIN'):
            record = True
        if record and line.startswith('# expect-out: '):
            continue
        if line.startswith('# skip: '):
            skip = True
        kept.append(line)
    if not skip:
        kept.append('# skip: %s: the crash is checked, its pstore record is not' % why)
    write_text(path, ''.join(line + '\n' for line in kept))


def make_batch(path, members):
    """One guest's script for MEMBERS (case files that leave the kernel
    up): the first one's boot line, a ``# part:`` line each, then each
    body between the markers that cut the logs into parts."""
    names = [os.path.basename(m)[:-3] for m in members]
    texts = [lines_of(read_text(m)) for m in members]
    out = ['# batch of %d: cases that leave the kernel up' % len(members)]
    out += [line for line in texts[0] if line.startswith('# boot:')][:1]
    out += ['# part: ' + n for n in names]
    for name, lines in zip(names, texts):
        out += ["echo 'PC-PART %s'" % name,
                "echo 'PC-PART %s' >/dev/kmsg" % name,
                'echo 1 >/sys/kernel/debug/clear_warn_once']
        out += [line for line in lines if line and not line.startswith('#')]
        out += ["pc-guest write $D/crashpoints '\\n' >/dev/null", 'echo PC-GUEST-END']
    write_text(path, ''.join(line + '\n' for line in out))


def guest_key(path):
    """(kdump, fresh, key): what a guest saved for the case file is made
    of, as the bench's guests differ (its boot lines, vCPUs and pstore;
    pcengine.snapshot keys on the rest), and whether it boots anyway."""
    lines = lines_of(read_text(path))

    def values(prefix, default):
        return awk_join([line[len(prefix):] for line in lines if line.startswith(prefix)],
                        default)
    kdump = any(line.startswith('# kdump: 1') for line in lines)
    fresh = any(line.startswith('# fresh-boot:') for line in lines)
    key = (values('# boot: ', ''), values('# smp: ', '1'), values('# pstore: ', '0'))
    return kdump, fresh, key


def mark_lone_guests(paths):
    """A guest that no other case of the series could restore boots: its
    file gets a ``# fresh-boot:`` line.  (A kdump case, and one whose
    header asks for a fresh boot, boot anyway, and count for no key.)"""
    keys, uses = {}, {}
    for p in paths:
        kdump, fresh, key = keys[p] = guest_key(p)
        if not (kdump or fresh):
            uses[key] = uses.get(key, 0) + 1
    for p in paths:
        kdump, fresh, key = keys[p]
        if uses.get(key, 0) == 1 and not fresh:
            with open(p, 'a', encoding='utf-8') as f:
                f.write(FRESH_LONE + '\n')


def plan(args, env, out):
    """Decide, write the skips, batches and marks; print the answer."""
    cases = args.cases
    files = collated(f for f in os.listdir(cases) if f.endswith('.sh') and not f.startswith('.'))
    headers = [Header(os.path.join(cases, f)) for f in files]
    headers = [h for h in headers if not h.empty]
    picked = set(scope.select(args.series, scope.case_names(cases), args.kernels.split(),
                              env, scope.hand_written(args.root)))
    wanted = re.compile(args.filter)
    shard_i, shard_n = scope.parse_shard(args.shard)
    config = read_config(args.config)
    hand_dir = os.path.join(args.root, 'tests', 'cases')
    dealt = args.dealt
    order, modules, batched, hand, singles, kdumps = [], set(), [], [], [], set()
    for h in headers:
        if not wanted.search('%s/%s' % (args.series, h.name)) or h.name not in picked:
            continue
        dealt += 1
        if (dealt - 1) % shard_n + 1 != shard_i:
            continue
        order.append('%s-%s' % (args.series, h.name))
        why = unmet(h, config, args.root_of_release, args.release)
        if not why:
            if args.no_ramoops and h.pstore:
                pstore_unchecked(h.path, args.no_ramoops)
            if h.kdump and args.kdump_why is not None:
                why = 'no kdump guest on %s: %s' % (args.release, args.kdump_why)
        if why:
            write_text(os.path.join(args.results, '%s-%s.result' % (args.series, h.name)),
                       'ok %s/%s # SKIP %s\n' % (args.series, h.name, why))
            continue
        modules.update(h.modules)
        if h.kdump:
            kdumps.add(h.path)
        if h.batch_ok:
            batched.append(h)
        elif os.path.isfile(os.path.join(hand_dir, h.name + '.sh')):
            hand.append(h.path)
        else:
            singles.append(h.path)
    singles = hand + singles
    batches = []
    if not args.listing:
        boots = {}
        for h in batched:
            boots.setdefault(h.boot, []).append(h.path)
        for i, boot in enumerate(collated(boots), 1):
            batches.append(os.path.join(cases, 'zz_batch_%d.sh' % i))
            make_batch(batches[-1], boots[boot])
        mark_lone_guests(batches + singles)
    if any('-matrix_' in n for n in order):
        modules.add('paths')
    print('dealt %d' % dealt, file=out)
    for n in order:
        print('order ' + n, file=out)
    for f in batches:
        print('job batch ' + f, file=out)
    for f in singles:
        print('job %s %s' % ('kdump' if f in kdumps else 'single', f), file=out)
    for m in sorted(modules):
        print('module ' + m, file=out)
    if scope.LKDTM in picked:
        print('lkdtm', file=out)


def main(argv=None, out=None, env=None):
    """The command line; OUT gets the answer (default stdout); ENV holds
    the scope's variables (default the environment)."""
    ap = argparse.ArgumentParser(
        prog='python3 -m pcengine.prepare',
        description='Which of a series\' case files run, and in which guests.')
    ap.add_argument('--series', required=True, help='the series, as results name it')
    ap.add_argument('--release', required=True, help='its kernel release')
    ap.add_argument('--root-of-release', required=True, metavar='DIR',
                    help='where its modules are: DIR/lib/modules/REL (pc_rel_root)')
    ap.add_argument('--config', required=True, help='its kernel config')
    ap.add_argument('--cases', required=True, metavar='DIR', help='its case files')
    ap.add_argument('--kernels', required=True, help='the run\'s series, in order')
    ap.add_argument('--filter', default='.', help='PC_CASES: an ERE on SERIES/NAME')
    ap.add_argument('--shard', default='1/1', help='PC_SHARD: I/N')
    ap.add_argument('--dealt', type=int, default=0,
                    help='the cases the scope picked in the series before')
    ap.add_argument('--results', required=True, metavar='DIR', help='where skips are written')
    ap.add_argument('--kdump-why', metavar='WHY',
                    help='the kernel has no kdump lane, for WHY')
    ap.add_argument('--no-ramoops', metavar='WHY', default='',
                    help='the kernel cannot keep ramoops records, for WHY')
    ap.add_argument('--listing', action='store_true',
                    help='PC_LIST=1: decide only; no batch is written')
    ap.add_argument('--root', default=os.path.join(os.path.dirname(__file__), '..', '..'),
                    help='the provoke-crash checkout (its tests/cases)')
    args = ap.parse_args(argv)
    try:
        plan(args, os.environ if env is None else env, out or sys.stdout)
    except (OSError, ValueError, re.error) as e:
        print('provoke-crash: %s' % e, file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
