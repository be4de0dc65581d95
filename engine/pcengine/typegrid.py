# SPDX-License-Identifier: GPL-2.0
"""The grid printed at the end of a run, after the KTAP lines: every
crash type of the table, fired directly, at a point and with kdump, on
every kernel of the run, as KTAP diagnostics.

The scheduler (bench.py) prints it; ``python3 -m pcengine.typegrid
--kernels "K..." --scratch DIR``: the K-th series' release is in
DIR/prep/K.ready, its table in DIR/REL/cases/types.tsv, and each case's
result in DIR/results/SERIES-CASE.result.
"""

import argparse
import os
import sys

from . import run_cli

FATAL = ('oops', 'panic', 'hang')

LEGEND = """# crash types x (direct, point, kdump) x kernel: pass, skip (reason on
# its KTAP line), FAIL; '-' needs task context, so it is never armed at
# a point, or is not fatal, so kdump has nothing to capture; 'refused'
# runs on another arch only; n/r not in this run.  kdump is the type
# fired directly with a capture kernel loaded ('+pt': at a point too)
"""


def read_text(path):
    try:
        with open(path, encoding='utf-8', errors='surrogateescape') as f:
            return f.read()
    except FileNotFoundError:
        return None


class Results:
    """The run's results: SERIES-CASE.result files under a directory."""

    def __init__(self, directory):
        self.directory = directory

    def text(self, series, case):
        """The result's text; None when it is missing or empty."""
        return read_text(os.path.join(self.directory, '%s-%s.result' % (series, case))) or None

    def cell(self, series, case):
        """What became of one generated case, from its first line."""
        text = self.text(series, case)
        if text is None:
            return 'n/r'
        first = text.split('\n', 1)[0]
        if first.startswith('not ok'):
            return 'FAIL'
        if '# SKIP' in first:
            return 'skip'
        return 'pass'


def read_types(path):
    """(name, context, fate) of each row of a types.tsv; none when the
    series left no table."""
    text = read_text(path)
    rows = []
    for line in (text or '').split('\n'):
        fields = line.split('\t')
        if len(fields) >= 4 and fields[0]:
            rows.append((fields[0], fields[2], fields[3]))
    return rows


def grid(series_tables, results):
    """The grid's lines; series_tables: (series, its table's rows) in
    the run's order.  A type is shown with the context and fate of the
    first table that has it."""
    ctx, fatal, seen = {}, set(), []
    for _, rows in series_tables:
        for name, context, fate in rows:
            if name in ctx:
                continue
            ctx[name] = context
            if fate in FATAL:
                fatal.add(name)
            seen.append(name)
    names = [s for s, _ in series_tables]
    head = 'type                        ctx   ' + ''.join(
        ' %-9s %-9s %-9s' % (s, '', '') for s in names)
    lines = LEGEND.split('\n')[:-1]
    lines.append(('# ' + head).rstrip(' '))
    lines.append('# %-28s %-6s' % ('', '') + ''.join(
        ' %-9s %-9s %-9s' % ('direct', 'point', 'kdump') for _ in names))
    for name in seen:
        cells = ''
        for series in names:
            kd = '-'
            if name in fatal:
                kd = results.cell(series, 'kdump_' + name)
                if results.text(series, 'kdump_point_' + name) is not None:
                    pt = results.cell(series, 'kdump_point_' + name)
                    kd += '+pt' + ('' if pt == 'pass' else ':' + pt)
            if results.text(series, 'refused_' + name) is not None:
                refused = results.cell(series, 'refused_' + name).replace('pass', 'refused', 1)
                cells += ' %-9s %-9s %-9s' % (refused, '', '')
            elif ctx[name] == 'task':
                cells += ' %-9s %-9s %-9s' % (results.cell(series, 'direct_' + name), '-', kd)
            else:
                cells += ' %-9s %-9s %-9s' % (results.cell(series, 'direct_' + name),
                                              results.cell(series, 'point_' + name), kd)
        lines.append(('# %-28s %-6s%s' % (name, ctx[name], cells)).rstrip(' '))
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog='python3 -m pcengine.typegrid',
        description='Print the crash types x (direct, point, kdump) x kernel grid of a run.')
    ap.add_argument('--kernels', required=True, help='the run\'s series, in its order')
    ap.add_argument('--scratch', required=True,
                    help='the run\'s directory: prep/K.ready, REL/cases/types.tsv, results/')
    args = ap.parse_args(argv)

    def work():
        tables = []
        for k, series in enumerate(args.kernels.split(), 1):
            rel = (read_text(os.path.join(args.scratch, 'prep', '%d.ready' % k)) or '').strip()
            rows = read_types(os.path.join(args.scratch, rel, 'cases', 'types.tsv')) if rel else []
            tables.append((series, rows))
        results = Results(os.path.join(args.scratch, 'results'))
        sys.stdout.write(''.join(line + '\n' for line in grid(tables, results)))
    return run_cli(work)


if __name__ == '__main__':
    sys.exit(main())
