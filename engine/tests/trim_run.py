# SPDX-License-Identifier: GPL-2.0
"""Copy a VM runner's work directory (PCV_KEEP_WORK) into
engine/tests/runner, trimmed.

Usage: python3 trim_run.py SAVED_WORK_DIR FIXTURE_DIR [DUMP_LOG]

Kept: the console's first 3 lines and the first boot from its start
marker to the line that ends the boot (at most 200 lines when none
does); each pstore record's (and the log a kdump capture read) first 3
lines, its lines of the module and of a crash, and its last 15; the table's rows of the types the console
names; the rest of the run's small files as they are.  The expected
output is made from the trimmed files (engine/tests/runner/README.rst),
so the trimming cannot change it.
"""

import os
import shutil
import sys

sys.path.insert(0, __file__.rsplit('/tests/', 1)[0])

from pcengine import console, runner_verdict  # noqa: E402


def read(path):
    with open(path, 'rb') as f:
        return f.read().decode('utf-8', 'surrogateescape')


def write(path, text):
    with open(path, 'wb') as f:
        f.write(text.encode('utf-8', 'surrogateescape'))


def raw_lines(text):
    """Lines with their carriage returns, and whether the last one ends."""
    lines = text.split('\n')
    closed = lines[-1] == ''
    if closed:
        lines.pop()
    return lines, closed


def trim_console(text, names):
    scan = runner_verdict.Scan(console.text_of(text), names)
    lines, closed = raw_lines(text)
    begin = scan.begin if scan.begin is not None else max(len(lines) - 30, 0)
    end = scan.end if scan.end < len(lines) else min(len(lines) - 1, begin + 199)
    kept = lines[:min(3, begin)] + lines[begin:end + 1]
    last_open = end == len(lines) - 1 and not closed
    return '\n'.join(kept) + ('' if last_open else '\n')


# The long sections of the output: what ramoops kept, the log a capture
# kernel read from the dump.
SECTIONS = {'PC-PSTORE-BEGIN': 'PC-PSTORE-END', 'PC-KDUMP-DMESG-BEGIN': 'PC-KDUMP-DMESG-END'}


def trim_out(text):
    lines, closed = raw_lines(text)
    kept, record = [], None
    for line in lines + [None]:
        r = console.parse_record(line.replace('\r', '')) if line is not None else None
        if r and r.kind == 'marker' and r.name in SECTIONS:
            kept.append(line)
            record = []
            continue
        if record is not None and (r is None or (r.kind == 'marker' and r.name in SECTIONS.values())):
            keep = [i for i, ln in enumerate(record)
                    if i < 3 or i >= len(record) - 15 or 'provoke_crash: ' in ln
                    or console.FATAL_RE.search(ln)]
            kept += [record[i] for i in keep]
            record = None
        if line is None:
            break
        if record is not None:
            record.append(line)
        else:
            kept.append(line)
    return '\n'.join(kept) + ('\n' if closed else '')


def main(src, dst, dump=None):
    os.makedirs(dst, exist_ok=True)
    table_text = read(os.path.join(src, 'table'))
    table = runner_verdict.read_table(os.path.join(src, 'table'))
    text = read(os.path.join(src, 'console.log'))
    named = {hit[1] for hit in (console.module_hit(r.message) for r in console.parse(text)) if hit}
    trigger = os.path.join(src, 'root', 'pc', 'trigger')
    if os.path.exists(trigger):
        named |= set(console.lines_of(read(trigger)))
    write(os.path.join(dst, 'console.log'), trim_console(text, set(table)))
    write(os.path.join(dst, 'out.log'), trim_out(read(os.path.join(src, 'out.log'))))
    write(os.path.join(dst, 'table'), ''.join(line + '\n' for line in console.lines_of(table_text)
                                              if line.split('\t')[0] in named))
    for name in ('events', 'how', 'args'):
        if os.path.exists(os.path.join(src, name)):
            shutil.copy(os.path.join(src, name), os.path.join(dst, name))
    if dump:
        write(os.path.join(dst, 'dump.log'), trim_console(read(dump), set(table)))


if __name__ == '__main__':
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.split('\n\n')[1])
    main(*sys.argv[1:])
