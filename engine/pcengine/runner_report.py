# SPDX-License-Identifier: GPL-2.0
"""What the VM runner's user reads of a run (pcengine.runner_verdict
reads it): the command's output, the points' counters after it, the
kernel's report (once, from the console), its call trace, what pstore
kept (read by the host from ramoops' memory, or by a second boot), and
the times of the run's stretches."""

import os

from . import console

TRAMPOLINE = "  <- ftrace trampoline (calls the entry point's callback)"
# The context markers of a trace, shown as they are.
CONTEXTS = ('<TASK>', '<IRQ>', '</IRQ>', '<NMI>', '</NMI>', '<SOFTIRQ>', '</SOFTIRQ>')
# (x86-64's 'RIP:' starts a register dump, which trace() reads on.)
TRACE_ENDS = ('Modules linked in:', '---[', 'Code:')
# arm64's trampoline is ftrace's own code, with a symbol.
FTRACE_CODE = ('ftrace_call+', 'ftrace_regs_call+', 'ftrace_caller+', 'ftrace_regs_caller+')


def write(lines, stream):
    """LINES, each with its newline, as the logs' bytes were."""
    stream.flush()
    stream.buffer.write(''.join(line + '\n' for line in lines).encode('utf-8', 'surrogateescape'))
    stream.buffer.flush()


def _symbol_frame(line):
    """A frame 'SYMBOL+0xOFF/0xLEN [MODULE]': it starts with a letter or _
    and has '+0x' in it."""
    return bool(line) and (line[0].isascii() and (line[0].isalpha() or line[0] == '_')) \
        and '+0x' in line[1:]


# x86-64 prints a pt_regs met on the stack (an exception's, an
# interrupt's, the system call's) inside the trace: 'RIP:' and these.
REGS = ('Code:', 'RSP:', 'RAX:', 'RDX:', 'RBP:', 'R10:', 'R13:', 'FS:', 'CS:', 'CR2:',
        'DR0:', 'DR3:', 'PKRU:')
INTERRUPTED = '  <- RIP: where the task was interrupted'
# x86-64's kretprobe trampoline (rethook).  show_trace_log_lvl() prints
# the stack's word for the frame above it, which holds the trampoline's
# own address while the handlers run: %pB names the byte before it,
# the end of the function linked before it ('trace_clock_x86_tsc+0x20/0x20'
# on Debian's 6.1, 6.12 and 7.2).  The unwinder goes on from the real
# return address, which rethook put in the handler's pt_regs as ip: the
# last text address below that word, so the last '? ' line before it.
RETHOOK = 'arch_rethook_trampoline'
RETURNED_MARK = "  <- the kretprobe's return address"
RETURNED = RETURNED_MARK + ", '? %s' in its registers; " \
    "the kernel printed the trampoline's own there, as '%s'"
NOT_RETURNED = "  <- not a frame: the kretprobe trampoline's own address, named by " \
    "the byte before it; its return address is not printed"
HEADER = '=== call trace (reliable frames)'
RETHOOK_HEADER = "=== call trace (reliable frames, one read from a kretprobe's registers)"
NOT_A_FRAME_HEADER = '=== call trace (reliable frames, one marked not a frame)'


def _frame_name(line):
    """'  SYMBOL' or '  SYMBOL [MODULE]' of a frame's text."""
    name = line.split('+', 1)[0]
    module = line.rsplit('[', 1)[-1]
    if ' [' in line and line.endswith(']') and line.find(' [') < len(line) - 1:
        return '  %s [%s' % (name, module)
    return '  ' + name


def _at_end(line):
    """Whether frame text 'SYMBOL+0xOFF/0xLEN' is its function's end:
    %pB's name for a return address that is the next function's start."""
    try:
        off, size = line.split(' ', 1)[0].split('+', 1)[1].split('/', 1)
        return int(off, 16) == int(size, 16)
    except (IndexError, ValueError):
        return False


def trace(lines, start, end):
    """The first call trace after line START (before END): reliable frames
    only ('? ' frames are stack leftovers).  An address with no symbol in
    the module area is the ftrace trampoline that calls the entry
    point's callback (0xffffffffc0... with KASLR, 0xffffffffa0...
    without), reliable or not.  A kernel pt_regs inside the trace (an
    int3 probe's, an interrupt's) gives the frame its RIP stopped, and
    the trace goes on below it; a user one ends the task's frames.
    Above x86-64's kretprobe trampoline, the return address the kernel
    unwound from, not the trampoline's address it printed."""
    shown, on, regs, last, leftover = [], False, None, None, None
    for line in lines[start:end]:
        if not on:
            on = line in ('Call Trace:', 'Call trace:')
            continue
        if line.startswith(' '):
            line = line[1:]
        if regs is not None:
            if line.startswith(REGS):
                continue
            if regs == 'user':
                break
            regs = None
        if line.startswith('RIP: '):
            regs = 'kernel' if line.startswith('RIP: 0010:') else 'user'
            rip = line[len('RIP: 0010:'):]
            if regs == 'kernel' and rip:
                shown.append((_frame_name(rip) if _symbol_frame(rip) else '  ' + rip)
                             + INTERRUPTED)
                last, leftover = None, None
            continue
        if line.startswith('? ') and not _module_address(line[2:]):
            leftover = line[2:]
            continue
        if line == '</TASK>' or line.startswith(TRACE_ENDS):
            break
        if line in CONTEXTS:
            shown.append('  ' + line)
        elif _module_address(line) or (line.startswith('? ') and _module_address(line[2:])):
            shown.append('  ' + line + TRAMPOLINE)
        elif line.startswith(FTRACE_CODE):
            shown.append('  ' + line.split('+', 1)[0] + TRAMPOLINE)
        elif not _symbol_frame(line):
            continue
        elif last == RETHOOK and _at_end(line):
            if leftover is not None and _symbol_frame(leftover):
                shown.append(_frame_name(leftover) + RETURNED % (leftover, line))
            else:
                shown.append('  ' + line + NOT_RETURNED)
        else:
            shown.append(_frame_name(line))
        last, leftover = line.split('+', 1)[0], None
    return shown


def trace_section(lines, start, end):
    """The report's call trace section: its header and trace()'s lines
    (none without a trace); the header says when a frame was read from a
    kretprobe's registers."""
    frames = trace(lines, start, end)
    if not frames:
        return []
    if any(RETURNED_MARK in f for f in frames):
        return [RETHOOK_HEADER] + frames
    if any(f.endswith(NOT_RETURNED) for f in frames):
        return [NOT_A_FRAME_HEADER] + frames
    return [HEADER] + frames


def _module_address(line):
    return line.startswith('0xffffffff') and line[10:11] in tuple('abcdef')


def guest_output(out):
    """The command's output: after the start marker, up to the end
    marker or, after a panic, which leaves none, to the next boot's
    (pstore's or the capture kernel's); the refusal's own lines aside."""
    shown, on = [], False
    for r in out:
        name = r.name if r.kind == 'marker' else ''
        if name == 'PC-RUN-BEGIN':
            on = True
            continue
        if not on:
            continue
        if name == 'PC-RUN-END' or name.split('-')[1:2] in (['PSTORE'], ['KDUMP']):
            break
        if name not in ('PC-ARM-REFUSED', 'PC-TRIGGER-REFUSED', 'PC-WHY'):
            shown.append(r.text)
    return shown


def pstore_records(out_text):
    """Each ramoops record as (NAME, its lines): its markers, its lines
    without the kernel's prefixes, no trailing empty line; its header is
    the second line, if it has one."""
    records = []
    for name, lines, closed in console.stretches(out_text, 'PC-PSTORE-BEGIN', 'PC-PSTORE-END'):
        record = ['PC-PSTORE-BEGIN ' + name] + [console.strip_kernel_prefix(line) for line in lines]
        if closed:
            record.append('PC-PSTORE-END')
        while len(record) > 1 and record[-1] == '':
            record.pop()
        records.append((name, record))
    return records


def pstore(out_text, first_line):
    """Each ramoops record: its name, header and size, and either that it
    holds the report above (FIRST_LINE: the report's first line) and its
    crash lines, or its last lines.  The report is not printed again."""
    shown = []
    for name, record in pstore_records(out_text):
        head = '%s: %s, %d lines; ' % (name, record[1] if len(record) > 1 else '', len(record))
        if first_line is not None and first_line in record:
            shown.append(head + 'it holds the report above, from: ' + first_line)
            crash = [line for line in record if console.FATAL_RE.search(line)]
            shown += ['  ' + line for line in crash[:3]]
        else:
            shown.append(head + 'its last lines:')
            shown += ['  ' + line for line in record[-12:]]
    return shown


def report(run, kdump, stream):
    """Write the report's sections to STREAM.  Refused points or trigger:
    only the output (the verdict says why)."""
    scan, out = run.scan, run.out
    names = {r.name for r in out if r.kind == 'marker'}
    write(['=== guest output'] + guest_output(out), stream)
    if names & {'PC-ARM-REFUSED', 'PC-TRIGGER-REFUSED'}:
        return
    points = [r.args for r in out if r.kind == 'marker' and r.name == 'PC-POINT']
    if points:
        write(['=== points after the run'] + points, stream)
    write(['=== kernel report'], stream)
    first = scan.first()
    if first is None:
        write(['(none: no hit, no crash after the start marker)'], stream)
    else:
        # The console's lines as they came, kernel prefixes kept; a last
        # line cut short stays without its newline.
        last = min(scan.end, len(scan.records) - 1)
        shown = [r.text for r in scan.records[first:last + 1]]
        text = ''.join(line + '\n' for line in shown)
        if last == len(scan.records) - 1 and not scan.text.endswith('\n'):
            text = text[:-1]
        stream.flush()
        stream.buffer.write(text.encode('utf-8', 'surrogateescape'))
        section = trace_section(scan.lines, first, min(scan.end, len(scan.lines)))
        if section:
            write(section, stream)
    # With --kdump the capture kernel takes the reset's place.
    if kdump:
        return
    if 'PC-PSTORE-RAM' in names:
        write(["=== pstore record in ramoops' memory, read by the host after the crash"],
              stream)
    else:
        write(['=== pstore record kept across the reboot'], stream)
    if 'PC-NO-OOPS' in names:
        write(['(none: no oops and no panic, so no reboot)'], stream)
    elif 'PC-PSTORE-BEGIN' not in names:
        write(['(none)'], stream)
    else:
        first_line = scan.lines[first] if first is not None else None
        write(pstore(run.out_text.rstrip('\n') + '\n', first_line), stream)


def _stamp(scan, at):
    """The guest's clock on console line AT, if it has one."""
    if at is None or at >= len(scan.records):
        return None
    return scan.records[at].stamp


def _event(text, name):
    for line in console.lines_of(text):
        if line.startswith(name + ' '):
            return float(line[len(name) + 1:])
    return None


def timing(run, times, kdump):
    """One line: checks, build and pack, boot (or restore) to the start
    marker, the crash after it, the rest (panic, reboot, the second boot
    reading pstore, or the host reading ramoops' memory; with kdump the
    capture); without a crash, the run to
    power-off; without a start marker, the guest's whole time, and that
    it never got there.  The watcher's host times (events) miss a run
    that ends within its poll: then the guest's own clock gives the
    spans."""
    t0, t1, t2, t3 = (float(t) for t in times)
    scan = run.scan
    how = console.lines_of(console.read_log(os.path.join(run.work, 'how')))
    start = 'boot'
    if any(line.startswith('restored') for line in how):
        start = 'restore'
    if any(line.startswith('restored ') and ', saved now' in line for line in how):
        start = 'save and restore'
    events = console.read_log(os.path.join(run.work, 'events'))
    b, c = _event(events, 'begin'), _event(events, 'crash')
    gb, gc, ge = _stamp(scan, scan.begin), _stamp(scan, scan.crash), _stamp(scan, scan.end)
    end = 'capture and dump' if kdump else 'reboot'
    if 'PC-PSTORE-RAM' in {r.name for r in run.out if r.kind == 'marker'}:
        end = 'reset and pstore read'
    # A first boot that powered off was QEMU's last.
    if scan.end >= len(scan.lines) or 'Power down' not in scan.lines[scan.end]:
        ge = None
    if b is None and gb is not None:
        if c is not None and gc is not None:
            b = c - (gc - gb)
        elif ge is not None:
            b = t3 - (ge - gb)
        else:
            b = t2 + gb
    if c is None and scan.crash is not None and gc is not None and b is not None:
        c = b + (gc - gb)
    line = '# time: checks %.1fs, build %.1fs, ' % (t1 - t0, t2 - t1)
    if b is None:
        line += 'guest %.1fs: no start marker, nothing ran' % (t3 - t2)
    elif c is not None:
        line += '%s %.1fs, crash %.1fs, %s %.1fs' % (start, b - t2, c - b, end, t3 - c)
    else:
        line += '%s %.1fs, no crash: run and power-off %.1fs' % (start, b - t2, t3 - b)
    return line + ', total %.1fs' % (t3 - t0)
