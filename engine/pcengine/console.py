# SPDX-License-Identifier: GPL-2.0
"""Split what a guest printed into the protocol's records.

Both channels (the kernel console and the case's output, see
pcengine.protocol) are read the same way: carriage returns dropped, then
one record per line.  A record is a marker (``PC-`` and a name, then its
arguments, on either channel, after the kernel's prefix on the console),
a kernel log line (``<L>[ seconds] message``), or other text.  Sections (pstore records,
the kdump capture's log, a batch's parts) are taken from the records.
The VM runner reads the module's hit lines (with the task that hit), and
the kernel's crash lines, with the patterns at the end.
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


def read_log(path):
    """A log file's text, as text_of gives it; a missing one is empty."""
    try:
        with open(path, 'rb') as f:
            return text_of(f.read())
    except FileNotFoundError:
        return ''


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


def out_records(data):
    """The case output's records.  There a marker starts its line: a
    kernel line the command printed (dmesg's) stays a kernel line, even
    when its message is a marker."""
    return [r._replace(kind='kernel', name=None, args=None)
            if r.kind == 'marker' and r.text != r.message else r for r in parse(data)]


def markers(data, name=None):
    """The marker records of a log, or those of one marker."""
    return [r for r in parse(data)
            if r.kind == 'marker' and (name is None or r.name == name)]


def stretches(data, begin, end):
    """[(args of BEGIN, [lines], closed)]: each stretch from a BEGIN
    marker line to its END (closed), or to the end of the log, if it
    was cut short."""
    found = []
    current = None
    for r in parse(data):
        if r.kind == 'marker' and r.name == begin:
            current = [r.args, [], False]
            found.append(current)
        elif r.kind == 'marker' and r.name == end:
            if current is not None:
                current[2] = True
            current = None
        elif current is not None:
            current[1].append(r.text)
    return [tuple(s) for s in found]


def sections(data, begin, end):
    """[(args of BEGIN, [lines])]: each stretch from a BEGIN marker line
    to its END (or to the end of the log, if it was cut short)."""
    return [(args, lines) for args, lines, closed in stretches(data, begin, end)]


def pstore_records(out):
    """{record name: its lines}: what ramoops kept, read on the second boot."""
    return dict(sections(out, 'PC-PSTORE-BEGIN', 'PC-PSTORE-END'))


def kdump_log(out):
    """The crashed kernel's log, as the capture kernel read it (or None)."""
    found = sections(out, 'PC-KDUMP-DMESG-BEGIN', 'PC-KDUMP-DMESG-END')
    return found[0][1] if found else None


def part_of(data, part):
    """A batch part's stretch of a log, as casestep.run_batch cuts it:
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


# What the module and the kernel print about a hit and a crash, as the
# VM runner reads it.  A hit: "provoke_crash: WHERE: TYPE: ...", WHERE
# the point, DIRECT(NAME) or the trigger file.
MODULE_HIT_RE = re.compile(r'^provoke_crash: ([^ ]+): ([a-z0-9_]+): ')
# The task: the module's "hit by COMM[PID]", or the report's header.
HIT_BY_RE = re.compile(r'hit by (.+)\[([0-9]+)\]')
TASK_RE = re.compile(r'PID: ([0-9]+) Comm: ([^ ]+)')
# Where a hit ran when not in a task's own call: the module's line after
# the hit line (before a stall's), "WHERE: in softirq context, over
# COMM[PID] on CPU N" or "WHERE: in the kernel thread COMM[PID] on CPU N".
HIT_CONTEXT_RE = re.compile(r'^provoke_crash: ([^ ]+): in (?:(nmi|hardirq|softirq) context, '
                            r'over|the (kernel thread)) (.+)\[([0-9]+)\] on CPU')
# The kernel's own words for a crash (not a report it goes on after).
FATAL_RE = re.compile(
    'Oops: |Kernel panic - not syncing|kernel BUG at|BUG: kernel NULL pointer|BUG: unable to handle'
    '|Unable to handle kernel|general protection fault|divide error: |BUG: soft lockup'
    '|Watchdog detected hard LOCKUP|detected stalls on CPU|INFO: task .* blocked for more than'
    '|stack-protector: Kernel stack is corrupted')
# The end of a boot: a reset or a power-off.
BOOT_END_RE = re.compile(r'reboot: (Restarting system|Power down)|Rebooting in [0-9]+ seconds')


def module_hit(message):
    """(WHERE, TYPE) of a module's hit line, or None."""
    m = MODULE_HIT_RE.match(message)
    return m.groups() if m else None


def hit_context(messages, at, where, stall=False, span=4):
    """(CONTEXT, COMM, PID) of the hit on line AT at WHERE when it ran in
    an interrupt (nmi, hardirq, softirq: COMM[PID] the task it came over)
    or a kernel thread ('kernel thread'); None in a task's own call.  A
    STALL's line is the one just before its hit line; any other type's
    comes after it, before the next hit line."""
    if stall:
        lines = messages[at - 1:at] if at else []
    else:
        lines = []
        for line in messages[at + 1:at + 1 + span]:
            if MODULE_HIT_RE.match(line):
                break
            lines.append(line)
    for line in lines:
        m = HIT_CONTEXT_RE.match(line)
        if m and m.group(1) == where:
            return m.group(2) or m.group(3), m.group(4), m.group(5)
    return None


def hit_task(messages, at, span=80):
    """(COMM, PID) of the hit on line AT: the first task line after it,
    within SPAN lines, before the next hit line; or None."""
    for line in messages[at + 1:at + span]:
        m = HIT_BY_RE.search(line)
        if m:
            return m.group(1), m.group(2)
        m = TASK_RE.search(line)
        if m:
            return m.group(2), m.group(1)
        if MODULE_HIT_RE.match(line):
            break
    return None


def crash_pid(messages, at, span=40):
    """The PID in the report of the crash on line AT (from that line on,
    within SPAN lines), or None."""
    for line in messages[at:at + span]:
        m = TASK_RE.search(line)
        if m:
            return m.group(1)
    return None
