# SPDX-License-Identifier: GPL-2.0
"""Split what a guest printed into the protocol's records.

Both channels (the kernel console and the case's output, see
pcengine.protocol) are read the same way: carriage returns dropped, then
one record per line.  A record is a marker (``PC-`` and a name, then its
arguments, on either channel, after the kernel's prefix on the console),
a kernel log line (``<L>[ seconds] message``), or other text.  Sections (pstore records,
the kdump capture's log, a batch's parts) are taken from the records.
"""

import collections
import re

from . import protocol

Record = collections.namedtuple('Record', 'kind text name args level stamp message')

# A kernel line's prefix: its level (console loglevel prefix, if kept)
# and its timestamp.  The verdict strips exactly this from the lines it shows.
KERNEL_PREFIX_RE = re.compile(r'^(<[0-9]+>)?\[ *([0-9]+\.[0-9]+)\] ')


def text_of(data):
    """The text of a log as the host reads it: bytes kept as they are
    (surrogate escapes), carriage returns dropped."""
    if isinstance(data, bytes):
        data = data.decode('utf-8', 'surrogateescape')
    return data.replace('\r', '')


def lines_of(text):
    """Lines as grep sees them: a last line without a newline counts."""
    lines = text.split('\n')
    if lines and lines[-1] == '':
        lines.pop()
    return lines


def strip_kernel_prefix(line):
    return KERNEL_PREFIX_RE.sub('', line, count=1)


def parse_record(line):
    m = KERNEL_PREFIX_RE.match(line)
    level = stamp = None
    message = line
    if m:
        level = int(m.group(1)[1:-1]) if m.group(1) else None
        stamp = float(m.group(2))
        message = line[m.end():]
    marker = protocol.parse_line(message)
    if marker:
        return Record('marker', line, marker[0], marker[1], level, stamp, message)
    return Record('kernel' if m else 'text', line, None, None, level, stamp, message)


def parse(data):
    """Every line of a log as a Record."""
    return [parse_record(line) for line in lines_of(text_of(data))]


def markers(data, name=None):
    """The marker records of a log, or those of one marker."""
    return [r for r in parse(data)
            if r.kind == 'marker' and (name is None or r.name == name)]


def sections(data, begin, end):
    """[(args of BEGIN, [lines])]: each stretch from a BEGIN marker line
    to its END (or to the end of the log, if it was cut short)."""
    found = []
    current = None
    for r in parse(data):
        if r.kind == 'marker' and r.name == begin:
            current = (r.args, [])
            found.append(current)
        elif r.kind == 'marker' and r.name == end:
            current = None
        elif current is not None:
            current[1].append(r.text)
    return found


def pstore_records(out):
    """{record name: its lines}: what ramoops kept, read on the second boot."""
    return dict(sections(out, 'PC-PSTORE-BEGIN', 'PC-PSTORE-END'))


def kdump_log(out):
    """The crashed kernel's log, as the capture kernel read it (or None)."""
    found = sections(out, 'PC-KDUMP-DMESG-BEGIN', 'PC-KDUMP-DMESG-END')
    return found[0][1] if found else None


def part_of(data, part):
    """A batch part's stretch of a log, as tests/bench-step's run_batch cuts it:
    after a line that ends with "PC-PART PART" up to the next line that
    holds "PC-PART " anywhere.  Returns the text, each line ending with a
    newline."""
    tag = 'PC-PART ' + part
    on = False
    kept = []
    for line in lines_of(text_of(data)):
        if 'PC-PART ' in line:
            on = line.endswith(tag)
            continue
        if on:
            kept.append(line + '\n')
    return ''.join(kept)
