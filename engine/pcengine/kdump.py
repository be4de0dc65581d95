# SPDX-License-Identifier: GPL-2.0
"""A kdump guest's figures, from its output log: how long the capture
kernel took to start after the panic, and the dump's size.

The time is read on the CPU counter both kernels share: the first
kernel's reading when it loaded kdump (``PC-KDUMP-CLOCK ticks= hz=
up=``), plus its log's last timestamp less its uptime then; the capture
kernel's reading (``PC-KDUMP-CAPTURE``) less its own uptime.  Each kernel
measures the counter's rate itself (TSC calibration, under TCG, on a
loaded host): one 6.12 capture came out at 581 s where its neighbours
took 1 s.  When the two rates differ by more than 1% there is no figure,
and the line says so.

``python3 -m pcengine.kdump note OUTPUT`` prints the line (nothing when
the log lacks what it needs); the bench's kdump cases and the VM runner's
``--kdump`` print it, and the bench's report ends with a table of them
(figures()).
"""

import argparse
import os
import re
import sys

from .console import lines_of, read_log, text_of

STAMP_RE = re.compile(r'^\[ *([0-9]+\.[0-9]+)\]')
# A value's number as awk reads it: its leading number, or 0.
NUMBER_RE = re.compile(r'[ \t\n]*([-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?)')


def _fields(line):
    """KEY=VALUE words after a marker."""
    found = {}
    for word in re.split(r'[ \t]+', line.strip(' \t'))[1:]:
        key, _, value = word.partition('=')
        found.setdefault(key, value.split('=')[0])
    return found


def _number(value):
    m = NUMBER_RE.match(value or '')
    return float(m.group(1)) if m else 0.0


def note(out):
    """The KTAP diagnostic line for the capture in OUT (the output log's
    bytes or text), or '' when it holds no capture's figures."""
    clock = capture = None
    stamp, size, in_log = None, 0.0, False
    for line in lines_of(text_of(out)):
        if line.startswith('PC-KDUMP-CLOCK '):
            clock = _fields(line)
        elif line.startswith('PC-KDUMP-CAPTURE '):
            capture = _fields(line)
        if line.startswith('PC-KDUMP-DMESG-BEGIN'):
            in_log = True
            continue
        if line.startswith('PC-KDUMP-DMESG-END'):
            in_log = False
        m = STAMP_RE.match(line) if in_log else None
        if m:
            stamp = float(m.group(1))
        if line.startswith('PC-KDUMP-DUMP '):
            words = re.split(r'[ \t]+', line.strip(' \t'))
            size = _number(words[1] if len(words) > 1 else '')
    if not clock or not capture or not clock.get('ticks') or not capture.get('ticks') \
            or stamp is None:
        return ''
    hz, hz1 = _number(clock.get('hz')), _number(capture.get('hz'))
    if hz <= 0 or hz1 <= 0:
        return ''
    if not 0.99 <= hz1 / hz <= 1.01:
        return ('#   kdump: panic to capture kernel start unknown (the kernels rate the CPU'
                ' counter at %.0f and %.0f MHz), dump %.1f MB\n'
                % (hz / 1e6, hz1 / 1e6, size / 1048576))
    took = ((_number(capture['ticks']) - _number(clock['ticks'])) / hz
            - _number(capture.get('up')) - (stamp - _number(clock.get('up'))))
    return ('#   kdump: panic to capture kernel start %.2f s (guest CPU counter), dump %.1f MB\n'
            % (took, size / 1048576))


FIGURES_HEADER = ('# kdump: panic to capture kernel start (s, guest CPU counter, paced by the '
                  'host clock under TCG) and dump size (MB, makedumpfile -d 23 or '
                  'pc_dump_level)')
FIGURE_RE = re.compile(r'#   kdump: panic to capture kernel start (-?[0-9.]+) s [^,]*, '
                       r'dump ([0-9.]+) MB|#   kdump: panic to capture kernel start (unknown) '
                       r'[^,]*, dump ([0-9.]+) MB')


def figures(results):
    """The bench's table of captures, after its KTAP lines: a line per
    kdump case's note (RESULTS/SERIES-kdump_*.result), with the header
    first; nothing when no case has a note."""
    rows = []
    names = sorted(n for n in os.listdir(results)
                   if '-kdump_' in n and n.endswith('.result')) if os.path.isdir(results) else []
    for name in names:
        for line in lines_of(read_log(os.path.join(results, name))):
            m = FIGURE_RE.match(line)
            if m:
                took, size = (m.group(1), m.group(2)) if m.group(1) else m.group(3, 4)
                rows.append('#   %-44s %6s s %6s MB' % (name[:-len('.result')], took, size))
    return [FIGURES_HEADER] + rows if rows else []


def main(argv=None):
    ap = argparse.ArgumentParser(prog='python3 -m pcengine.kdump',
                                 description=__doc__.split('\n')[0])
    sub = ap.add_subparsers(dest='command', required=True)
    n = sub.add_parser('note', help='the capture\'s figures, as a KTAP diagnostic line')
    n.add_argument('output', help='the guest\'s output log')
    args = ap.parse_args(argv)
    # A log the guest never wrote has no figures.
    sys.stdout.write(note(read_log(args.output)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
