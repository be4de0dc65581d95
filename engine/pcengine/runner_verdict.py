# SPDX-License-Identifier: GPL-2.0
"""The VM runner's reading of a run (tools/provoke-crash-vm): what the
guest's console shows of the user's command, and the verdict, its last
line and exit status.

The runner keeps a run's files in one work directory: ``console.log``
and ``out.log`` (the two channels, see pcengine.protocol), ``table``
(``provoke-crash types --table``), ``events`` (the host's times of the
start marker and the crash), ``how`` (booted or restored).  The report
itself is pcengine.runner_report.

A crash counts when a hit of a fatal type, or a crash line, came after
the start marker, before the end marker, in a task other than PID 1 (the
runner's own shell, whose steps are not the user's command).
"""

import collections
import os
import sys

from . import console, runner_report
from .runner_report import write

# Exit statuses, as the runner's --help and provoke-crash(8) give them.
CRASHED, SURVIVED, USAGE, TIMEOUT, REFUSED, REPORTED, SETUP, NO_CAPTURE = range(8)

# A hit: its console line, WHERE and TYPE from it, its task (COMM and
# PID, or None), WHEN: 'run' while the command ran, else 'after', and
# CONTEXT: None in a task's own call, else nmi, hardirq, softirq (COMM
# and PID the task the interrupt came over) or 'kernel thread'.
Hit = collections.namedtuple('Hit', 'at where type comm pid when context')

FATAL_FATES = ('oops', 'panic', 'hang')


def read_table(path):
    """{type: its table fields}: the first line of each type."""
    table = {}
    for line in console.lines_of(console.read_log(path)):
        fields = line.split('\t')
        table.setdefault(fields[0], fields)
    return table


def fate(table, name):
    fields = table.get(name, ())
    return fields[3] if len(fields) > 3 else ''


class Scan:
    """The first boot's console, read after the start marker: each module
    hit line with its task, the first crash line and its PID, the last
    FAIL line of the module while the command ran, and the line that
    ends the boot (end, the number of lines if none)."""

    def __init__(self, text, names, stalls=()):
        self.text = text
        self.records = console.parse(text)
        self.lines = [r.message for r in self.records]
        self.begin = self.crash = self.crash_pid = self.fail = None
        self.end = len(self.lines)
        self.hits = []
        phase = 0
        for i, r in enumerate(self.records):
            line = r.message
            if phase == 0:
                if r.kind == 'marker' and r.name == 'PC-RUN-BEGIN':
                    phase, self.begin = 1, i
                continue
            if phase == 1 and r.kind == 'marker' and r.name == 'PC-RUN-END':
                phase = 2
                continue
            if console.BOOT_END_RE.search(line):
                self.end = i
                break
            if phase == 1 and 'provoke_crash: FAIL: ' in line:
                self.fail = line
            hit = console.module_hit(line)
            if hit and hit[1] in names and hit[0] != 'crashpoints':
                ctx = console.hit_context(self.lines, i, hit[0], hit[1] in stalls)
                comm, pid = ctx[1:] if ctx else \
                    console.hit_task(self.lines, i) or (None, None)
                self.hits.append(Hit(i, hit[0], hit[1], comm, pid,
                                     'run' if phase == 1 else 'after', ctx and ctx[0]))
            if self.crash is None and phase == 1 and console.FATAL_RE.search(line):
                self.crash = i
                self.crash_pid = console.crash_pid(self.lines, i)

    def first(self):
        """The report's first line: the first hit or the crash, whichever
        came first (None: neither)."""
        found = [at for at in (self.hits[0].at if self.hits else None, self.crash)
                 if at is not None]
        return min(found) if found else None


def own(hit):
    """Whether HIT is the command's: while it ran, in an interrupt or a
    kernel thread (the path ran then, whatever task it came over), or in
    a task's call other than PID 1's (the runner's own shell)."""
    return hit.when == 'run' and (hit.context is not None or hit.pid != '1')


def credited(scan, table):
    """The first hit credited to the user's command, of a fatal type, if
    any: the crash the verdicts name."""
    for hit in scan.hits:
        if own(hit) and fate(table, hit.type) in FATAL_FATES:
            return hit
    return None


def by(hit, words='hit by'):
    """", hit by COMM[PID]" where the console named the task; ", hit in
    softirq context (over COMM[PID])" or ", hit in the kernel thread
    COMM[PID]" where the module said the hit was not a task's call."""
    if hit.context == 'kernel thread':
        return ', hit in the kernel thread %s[%s]' % (hit.comm, hit.pid)
    if hit.context:
        return ', hit in %s context (over %s[%s])' % (hit.context, hit.comm, hit.pid)
    return ', %s %s[%s]' % (words, hit.comm, hit.pid) if hit.pid is not None else ''


def refusal(out):
    """The verdict's lines when the module refused the points or the
    trigger (nothing ran), else None."""
    names = {r.name for r in out if r.kind == 'marker'}
    if not names & {'PC-ARM-REFUSED', 'PC-TRIGGER-REFUSED'}:
        return None
    why = []
    for r in out:
        if r.kind == 'marker' and r.name == 'PC-WHY':
            why.append(console.strip_kernel_prefix(r.args))
        elif r.text.startswith('write: error'):
            why.append(r.text)
    while why and why[-1] == '':
        why.pop()
    what = 'to arm the points' if 'PC-ARM-REFUSED' in names else 'the trigger'
    lines = ['provoke-crash-vm: the module refused %s; nothing ran:' % what]
    return lines + ['  ' + w for w in (why or ['(the module logged no reason)'])]


def verdict(scan, out, table, rc, timeout):
    """([lines], status): the notes and the last line, and the exit status."""
    if any(r.kind == 'marker' and r.name == 'PC-INSMOD-FAILED' for r in out):
        return (['provoke-crash-vm: the guest could not load the module '
                 '(see the console: --keep DIR)'], SETUP)
    failed = [r.args for r in out if r.kind == 'marker' and r.name == 'PC-MODULE-FAILED']
    if failed:
        name, _, why = failed[0].partition(' ')
        return (['provoke-crash-vm: the guest could not load your module %s: %s' % (name, why)]
                + ['  ' + console.strip_kernel_prefix(r.args) for r in out
                   if r.kind == 'marker' and r.name == 'PC-WHY'], SETUP)
    refused = refusal(out)
    if refused:
        return refused, REFUSED
    lines, runners, report = [], False, None
    for hit in scan.hits:
        if not own(hit):
            # A report's hit is no crash: the verdict says which it was,
            # a crash if any was.
            if fate(table, hit.type) in FATAL_FATES or not runners:
                runners = 'crash' if fate(table, hit.type) in FATAL_FATES else 'hit'
            if hit.context:
                task = by(hit)[2:]
            else:
                task = 'hit by ' + ("the runner's own shell (PID 1)" if hit.pid == '1' else
                                    '%s[%s]' % (hit.comm or 'a task', hit.pid or '?'))
            task += ' after your command ended' if hit.when != 'run' else ', not your command'
            note = ('note: not credited: %s %s %s; narrow the point with '
                    'comm= or pid=' % (hit.where, hit.type, task))
            if note not in lines:
                lines.append(note)
        elif report is None and fate(table, hit.type) not in FATAL_FATES:
            report = hit
    hit = credited(scan, table)
    if rc in ('124', '137'):
        if hit:
            lines.append('note: %s was hit%s, and the guest never ended' % (hit.type, by(hit)))
        return lines + ['provoke-crash-vm: timed out after %ss' % timeout], TIMEOUT
    crash_line = scan.lines[scan.crash] if scan.crash is not None else None
    if hit and crash_line is not None and (hit.context or scan.crash_pid != '1'):
        # A name written to DIRECT runs its type, wherever the points are.
        if hit.where.startswith('DIRECT(') and hit.where.endswith(')'):
            lines.append('provoke-crash-vm: the kernel crashed from DIRECT, not at an armed '
                         'point: %s (%s)%s: %s' % (hit.where[len('DIRECT('):-1], hit.type,
                                                    by(hit, 'written by'), crash_line))
        else:
            lines.append('provoke-crash-vm: the kernel crashed as asked: %s%s: %s'
                         % (hit.type, by(hit), crash_line))
        return lines, CRASHED
    if scan.fail is not None:
        fail = scan.fail
        if fail.startswith('provoke_crash: '):
            fail = fail[len('provoke_crash: '):]
        return lines + ['provoke-crash-vm: the kernel survived: ' + fail], SURVIVED
    if not hit and crash_line is not None and scan.crash_pid not in (None, '1'):
        return lines + ['provoke-crash-vm: the kernel crashed while your command ran, but '
                        'not at an armed point: ' + crash_line], CRASHED
    if report:
        return lines + ['provoke-crash-vm: reported as asked, the kernel went on: %s%s'
                        % (report.type, by(report))], REPORTED
    if runners:
        return lines + ["provoke-crash-vm: the kernel survived your command (the %s came "
                        "from the runner's own steps, see the note)" % runners], SURVIVED
    return lines + ['provoke-crash-vm: the kernel survived'], SURVIVED


class Run:
    """A run's work directory, read: the table, the scan of the console
    (or of LOG, the crashed kernel's log read from a dump), the output."""

    def __init__(self, work, log=None):
        self.work = work
        self.table = read_table(os.path.join(work, 'table'))
        self.scan = Scan(console.read_log(log or os.path.join(work, 'console.log')),
                         set(self.table), {n for n in self.table if fate(self.table, n) == 'stall'})
        self.out_text = console.read_log(os.path.join(work, 'out.log'))
        # The output as the shell's $(...) held it: trailing newlines off.
        self.out = console.out_records(self.out_text.rstrip('\n') + '\n')

    def verdict(self, rc, timeout):
        return verdict(self.scan, self.out, self.table, rc, timeout)


USAGE_TEXT = '''usage: python3 -m pcengine.runner_verdict COMMAND WORK ...
  run WORK RC TIMEOUT [--kdump] [--timing T0 T1 T2 T3]
      the report (and the times, on stderr); then, without --kdump, the
      verdict and its exit status
  verdict WORK RC TIMEOUT [--log LOG]   the verdict alone (LOG: the log
      read from a dump, instead of the console)
  credited WORK [--log LOG]             the type of the credited hit
  fatal-re                              the crash lines' ERE'''


def main(argv, stdout=None, stderr=None):
    """The command line (USAGE_TEXT); returns the exit status."""
    stdout, stderr = stdout or sys.stdout, stderr or sys.stderr
    args = list(argv)
    options = {}
    for flag, count in (('--kdump', 0), ('--timing', 4), ('--log', 1)):
        if flag in args:
            i = args.index(flag)
            options[flag] = args[i + 1:i + 1 + count]
            if len(options[flag]) != count:
                sys.exit(USAGE_TEXT)
            del args[i:i + 1 + count]
    command, args = (args[0], args[1:]) if args else ('', [])
    want = {'run': 3, 'verdict': 3, 'credited': 1, 'fatal-re': 0}
    if want.get(command) != len(args):
        sys.exit(USAGE_TEXT)
    if command == 'fatal-re':
        write([console.FATAL_RE.pattern], stdout)
        return 0
    log = options.get('--log', [None])[0]
    run = Run(args[0], log)
    if command == 'credited':
        hit = credited(run.scan, run.table)
        write([hit.type] if hit else [], stdout)
        return 0
    rc, timeout = args[1:3]
    if command == 'run':
        runner_report.report(run, '--kdump' in options, stdout)
        if '--timing' in options:
            stdout.flush()
            write([runner_report.timing(run, options['--timing'], '--kdump' in options)],
                  stderr)
        if '--kdump' in options:
            return 0
    lines, status = run.verdict(rc, timeout)
    write(lines, stdout)
    return status


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
