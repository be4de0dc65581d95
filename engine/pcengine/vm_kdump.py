# SPDX-License-Identifier: GPL-2.0
"""The VM runner's --kdump (and --bt): the capture kernel in the guest's
initramfs, a disk for the dump, and the verdict on what it saved.

The guest loads its own kernel as capture kernel (tools/pc-kdump.sh
packs it: the shell shared with the bench's kdump lane).  After the
console's verdict, the dump's: KEEP gets the dump, the log read from it
and the capture's figures, and a crash counts only when that log shows
the crashed type's expected text.  Where the console shows no crash but
the dump has a log, the verdict is the log's: an oops in NMI context, say,
goes straight to the capture kernel before the console shows it.
"""

import os
import re
import subprocess
import sys

from . import cases, console, kdump, log, runner_verdict, vm_shell as shell
from .runner_verdict import CRASHED, NO_CAPTURE


class Kdump:
    """One run's kdump: checked (and --bt's tools fetched) when made,
    before anything is built or booted."""

    def __init__(self, env, r, o, work):
        self.env, self.r, self.series, self.work = env, r, o.series, work
        self.crash_tool = self.vmlinux = None
        status, why = shell.step(env, 'pc_kdump_available "$1"', r.rel, check=False)
        if status:
            raise shell.SetupError('--kdump: ' + why)
        if o.bt:
            self._bt_tools()

    def _bt_tools(self):
        """crash and the kernel's vmlinux with DWARF, before the guest
        starts: a missing one stops here."""
        r, env = self.r, self.env
        if r.arch != 'amd64':
            raise shell.SetupError('--bt: x86-64 kernels only (crash is built for x86-64 dumps)')
        shell.step(env, 'PC_EXTRA_PACKAGES=$PC_CRASH_PACKAGES pc_install_deps "$1"',
                   self.series)
        log('--bt: building or finding crash 8.0.6 and %s\'s vmlinux (once; minutes the '
            'first time)' % r.rel)
        status, self.crash_tool = shell.step(env, 'pc_crash_tool', check=False)
        if status:
            raise shell.SetupError('--bt: ' + self.crash_tool)
        status, self.vmlinux = shell.step(env, 'pc_dbg_vmlinux "$1"', r.rel, check=False)
        if status:
            raise shell.SetupError('--bt: no vmlinux with DWARF for %s (apt-get download '
                                   'linux-image-%s-dbg; a kernel you built: vmlinux in its '
                                   '--kdir)' % (r.rel, r.rel))

    def prepare(self, boot, qemu_extra):
        """The capture kernel's archive after the rest, a disk for the
        dump; no ramoops reset: the capture kernel reads the crash
        instead.  Returns the boot line and QEMU's options."""
        w = self.work
        words = shell.step(self.env, '''pc_kdump_extra "$1" >&2 || exit 6
pc_kdump_initrd "$1" "$2/initrd-kdump" "$2/initrd" || exit 6
mv "$2/initrd-kdump" "$2/initrd" || exit 6
pc_kdump_cmdline "$1" disk
pc_kdump_disk "$2/disk.img"''', self.r.rel, w).split('\n')
        if len(words) != 2:
            raise shell.SetupError('kdump\'s shell said %d lines, not 2' % len(words))
        return ('%s %s oops=panic' % (boot, words[0]),
                '%s %s' % (qemu_extra, words[1]))

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
        shell.say('=== kdump capture')
        saved, _ = shell.step(self.env, 'pc_kdump_save "$@"', os.path.join(w, 'disk.img'),
                           os.path.join(w, 'out.log'), keep, check=False)
        dmesg = os.path.join(keep, 'vmcore-dmesg.txt')
        log = None
        if saved == 0:
            # Only a hit credited to the user's command counts from the
            # dump: its crash lines alone may name any interrupted task.
            if status != CRASHED and os.path.getsize(dmesg) and \
                    runner_verdict.credited(runner_verdict.Run(w, dmesg).scan, run.table):
                shell.say('note: the console shows no crash of yours; the verdict reads the log '
                          'from the dump')
                log = dmesg
                lines, status = runner_verdict.Run(w, dmesg).verdict('0', '0')
            _say_lines(lines)
        elif saved == 2:
            _say_lines(lines)
            shell.say("provoke-crash-vm: the capture kernel read the crashed kernel's log (in %s/"
                      "vmcore-dmesg.txt), but kept no dump; makedumpfile said:" % keep)
            for line in _dump_said(console.read_log(os.path.join(w, 'out.log')))[1:-1]:
                shell.say('  ' + line)
            return NO_CAPTURE
        else:
            _say_lines(lines)
            shell.say('(none: no capture kernel ran, or it saved nothing; the console is in %s if '
                      '--keep)' % keep)
            if status == CRASHED:
                shell.say('provoke-crash-vm: the kernel crashed as asked, but kdump did not '
                          'capture it')
                return NO_CAPTURE
            return status
        figures = kdump.note(console.read_log(os.path.join(w, 'out.log')))
        figures = re.sub(r'(?m)^#   ', '', figures)
        sys.stdout.write(figures)
        with open(os.path.join(keep, 'capture.txt'), 'w') as f:
            f.write(figures)
        shell.say('saved in %s: vmcore (%d bytes), vmcore-dmesg.txt, capture.txt'
               % (keep, os.path.getsize(os.path.join(keep, 'vmcore'))))
        if self.crash_tool:
            self._bt(keep)
        if status != CRASHED:
            return status
        return self._expected(w, log, keep, table)

    def _bt(self, keep):
        # crash's bt with no task is the panicking task's.
        shell.say('=== bt of the task that crashed (crash -s %s %s/vmcore)' % (self.vmlinux, keep))
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
        name = hit.type if hit else (shell.read(os.path.join(w, 'root/pc/trigger'))
                                     or '').split('\n')[0]
        dumped = console.lines_of(console.read_log(os.path.join(keep, 'vmcore-dmesg.txt')))
        missing = [p for p in (self._patterns(name, table) if name else [])
                   if not any(re.search(p, line) for line in dumped)]
        if missing:
            shell.say("provoke-crash-vm: the kernel crashed, but the log read from the dump lacks "
                      "%s's lines:%s" % (name, ''.join('\n  ' + p for p in missing)))
            return NO_CAPTURE
        shell.say('provoke-crash-vm: kdump captured the crash: the log read from the dump shows '
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
        shell.say(line)
