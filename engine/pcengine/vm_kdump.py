# SPDX-License-Identifier: GPL-2.0
"""The VM runner's --kdump (and --bt): the capture kernel in the guest's
initramfs, a disk for the dump, and the verdict on what it saved.

The guest loads its own kernel as capture kernel (kdumppack.py packs
it, as for the bench's kdump lane).  After the
console's verdict, the dump's: KEEP gets the dump, the log read from it
and the capture's figures, and a crash counts only when that log shows
the crashed type's expected text.  Where the console shows no crash but
the dump has a log, the verdict is the log's: an oops in NMI context, say,
goes straight to the capture kernel before the console shows it.
"""

import os
import re
import shlex
import subprocess
import sys

from . import SetupError, cases, console, kdump, kdumppack, log, runner_verdict
from .vm_io import read, say
from .runner_verdict import CRASHED, NO_CAPTURE


class Kdump:
    """One run's kdump: checked (and --bt's tools fetched) when made,
    before anything is built or booted."""

    def __init__(self, env, r, o, work):
        self.env, self.r, self.series, self.work = env, r, o.series, work
        self.crash_tool = self.vmlinux = None
        why = kdumppack.available(r.host, r.rel)
        if why:
            raise SetupError('--kdump: ' + why)
        if o.bt:
            self._bt_tools()

    def _bt_tools(self):
        """crash and the kernel's vmlinux with DWARF, before the guest
        starts: a missing one stops here."""
        r, env = self.r, self.env
        if r.arch != 'amd64':
            raise SetupError('--bt: x86-64 kernels only (crash is built for x86-64 dumps)')
        r.host.install_deps([self.series], kdumppack.CRASH_PACKAGES)
        log('--bt: building or finding crash 8.0.6 and %s\'s vmlinux (once; minutes the '
            'first time)' % r.rel)
        self.crash_tool, why = kdumppack.crash_tool(env)
        if why:
            raise SetupError('--bt: ' + why)
        self.vmlinux = kdumppack.dbg_vmlinux(r.host, r.rel)
        if not self.vmlinux:
            raise SetupError('--bt: no vmlinux with DWARF for %s (apt-get download '
                                   'linux-image-%s-dbg; a kernel you built: vmlinux in its '
                                   '--kdir)' % (r.rel, r.rel))

    def prepare(self, boot, qemu_extra):
        """The capture kernel's archive after the rest, a disk for the
        dump; no ramoops reset: the capture kernel reads the crash
        instead.  Returns the boot line and QEMU's options."""
        w, host, rel = self.work, self.r.host, self.r.rel
        kdumppack.extra(host, rel)
        initrd = os.path.join(w, 'initrd')
        kdumppack.initrd(host, rel, initrd + '-kdump', [initrd])
        os.replace(initrd + '-kdump', initrd)
        return ('%s %s oops=panic' % (boot, kdumppack.cmdline(host, rel, disk=True)),
                '%s %s' % (qemu_extra, shlex.join(kdumppack.disk(os.path.join(w, 'disk.img')))))

    def _patterns(self, name, table):
        fields = table.get(name, ())
        expect = fields[5] if len(fields) > 5 else ''
        return cases.patterns(self.r.kernel, expect, kdump=True) if expect else []

    def verdict(self, rc, timeout, keep, table):
        """After the console's verdict, what the capture kernel saved;
        the exit status."""
        w = self.work
        run = runner_verdict.Run(w)
        lines, status = run.verdict(rc, timeout)
        say('=== kdump capture')
        saved = kdumppack.save(os.path.join(w, 'disk.img'), os.path.join(w, 'out.log'), keep)
        dmesg = os.path.join(keep, 'vmcore-dmesg.txt')
        log = None
        if saved == 0:
            # Only a hit credited to the user's command counts from the
            # dump: its crash lines alone may name any interrupted task.
            if status != CRASHED and os.path.getsize(dmesg) and \
                    runner_verdict.credited(runner_verdict.Run(w, dmesg).scan, run.table):
                say('note: the console shows no crash of yours; the verdict reads the log '
                    'from the dump')
                log = dmesg
                lines, status = runner_verdict.Run(w, dmesg).verdict('0', '0')
            _say_lines(lines)
        elif saved == 2:
            _say_lines(lines)
            say("provoke-crash-vm: the capture kernel read the crashed kernel's log (in %s/"
                "vmcore-dmesg.txt), but kept no dump; makedumpfile said:" % keep)
            for line in _dump_said(console.read_log(os.path.join(w, 'out.log')))[1:-1]:
                say('  ' + line)
            return NO_CAPTURE
        else:
            _say_lines(lines)
            say('(none: no capture kernel ran, or it saved nothing; the console is in %s if '
                '--keep)' % keep)
            if status == CRASHED:
                say('provoke-crash-vm: the kernel crashed as asked, but kdump did not '
                    'capture it')
                return NO_CAPTURE
            return status
        figures = kdump.note(console.read_log(os.path.join(w, 'out.log')))
        figures = re.sub(r'(?m)^#   ', '', figures)
        sys.stdout.write(figures)
        with open(os.path.join(keep, 'capture.txt'), 'w') as f:
            f.write(figures)
        say('saved in %s: vmcore (%d bytes), vmcore-dmesg.txt, capture.txt'
            % (keep, os.path.getsize(os.path.join(keep, 'vmcore'))))
        if self.crash_tool:
            self._bt(keep)
        if status != CRASHED:
            return status
        return self._expected(w, log, keep, table)

    def _bt(self, keep):
        # crash's bt with no task is the panicking task's.
        say('=== bt of the task that crashed (crash -s %s %s/vmcore)' % (self.vmlinux, keep))
        bt = subprocess.run([self.crash_tool, '-s', self.vmlinux, os.path.join(keep, 'vmcore')],
                            input='bt\nquit\n', stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, universal_newlines=True,
                            errors='surrogateescape').stdout
        sys.stdout.write(bt)
        sys.stdout.flush()
        with open(os.path.join(keep, 'bt.txt'), 'w', errors='surrogateescape') as f:
            f.write(bt)

    def _expected(self, w, log, keep, table):
        """A crash counts when the log read from the dump shows the
        crashed type's expected lines (grep -E, a line at a time)."""
        hit = runner_verdict.credited(runner_verdict.Run(w, log).scan, table)
        name = hit.type if hit else (read(os.path.join(w, 'root/pc/trigger'))
                                     or '').split('\n')[0]
        dumped = console.lines_of(console.read_log(os.path.join(keep, 'vmcore-dmesg.txt')))
        missing = [p for p in (self._patterns(name, table) if name else [])
                   if not any(re.search(p, line) for line in dumped)]
        if missing:
            say("provoke-crash-vm: the kernel crashed, but the log read from the dump lacks "
                "%s's lines:%s" % (name, ''.join('\n  ' + p for p in missing)))
            return NO_CAPTURE
        say('provoke-crash-vm: kdump captured the crash: the log read from the dump shows '
            '%s' % (name or 'it'))
        return CRASHED


def _dump_said(text):
    """The lines from each PC-KDUMP-DUMP line to the PC-KDUMP-DONE after
    it, both included (sed's /A/,/B/ ranges): makedumpfile's words."""
    found, on = [], False
    for line in console.lines_of(text):
        if not on and line.startswith('PC-KDUMP-DUMP '):
            on = True
        elif on and line.startswith('PC-KDUMP-DONE'):
            found.append(line)
            on = False
            continue
        if on:
            found.append(line)
    return found


def _say_lines(lines):
    for line in lines:
        say(line)
