# SPDX-License-Identifier: GPL-2.0
"""The console protocol: the ``PC-*`` lines a guest prints for the host.

This table is the one definition of every marker.  A guest has two
channels:

``out``
    the case's own output (ttyS1, a virtio-serial port on arm64): the
    guest's /init, the case files and the VM runner's guest script write
    there, one marker per line, nothing before it.
``kmsg``
    the kernel console (ttyS0, ttyAMA0 on arm64), through /dev/kmsg: the
    marker comes after the kernel's level and timestamp.

A marker line is ``PC-NAME`` alone, or ``PC-NAME ARGS`` (one space, then
the arguments, whose syntax the table gives).  The host strips carriage
returns before it reads a line.

Sections run from a ``*-BEGIN`` marker to its ``*-END``: a pstore record
(the second boot of a ``# pstore: 1`` case prints what ramoops kept), the
crashed kernel's log read back by a kdump capture kernel, and the VM
runner's command.  A batch guest runs several cases, each after a
``PC-PART NAME`` line on both channels; the host judges each on its own
stretch of both logs.

Each marker names the files that print it (``emitters``), the files that
read it (``parsers``; a case file's ``# expect-out:`` header counts, as the
verdict reads it; ``CASES`` stands for the hand-written case files) and
those that only describe it (``docs``).  ``make check-unit`` holds the tree
to this table (engine/tests/test_protocol.py): every ``PC-*`` word outside
engine/ is defined here, each marker is in every file the table names for
it, and every file that holds a marker is named for it.

The guest's C and sh get the table as generated views (``VIEWS``; ``make
protocol`` writes them, ``make check-unit`` fails when they are stale):
``PCM_NAME``, a macro in C and a variable in sh, holds ``PC-NAME``.  A
file that prints ``$PCM_NAME`` holds that marker as if it were spelled.
"""

import collections
import re

Marker = collections.namedtuple('Marker', 'name args channels emitters parsers meaning docs',
                                defaults=((),))

_INIT = 'guest/init'
_CAPTURE = 'guest/capture-init'
_LOAD = 'guest/kdump-load.sh'
_VM = 'guest/vm.sh'
_VM_WATCH = 'engine/pcengine/vm.py'
_VERDICT = 'engine/pcengine/vm_kdump.py'
_KDUMP = 'engine/pcengine/kdumppack.py'
_KDUMP_NOTE = 'engine/pcengine/kdump.py'
_RV = 'engine/pcengine/runner_verdict.py'
_RR = 'engine/pcengine/runner_report.py'
_RAM = 'engine/pcengine/ramoops.py'
CASES = 'tests/cases/*.sh'

MARKERS = (
    # The guest's /init.
    Marker('PC-GUEST-START', 'CASE RELEASE', ('out',), (_INIT,), ('engine/pcengine/snapshot.py',),
           'the guest is up; the case it runs and its kernel release (after a restore: '
           '/init took the case)', ('Documentation/provoke-crash/testing.rst',)),
    Marker('PC-GUEST-END', '', ('out',), (_INIT, 'engine/pcengine/prepare.py'),
           ('engine/pcengine/cases.py', 'engine/pcengine/matrix.py', CASES),
           'the case came back (a batch prints one per part); a fatal '
           "case's headers reject it"),
    Marker('PC-SNAPSHOT-READY', '', ('out',), (_INIT,), ('engine/pcengine/snapshot.py',),
           'a guest booted to be saved (pc_snapshot=1) has loaded the module and '
           'waits for its case\'s name on the command port: the host saves it now',
           ('Documentation/provoke-crash/testing.rst',)),
    Marker('PC-NOTE', 'TEXT', ('out',), (_INIT,), (),
           'something odd the guest saw that the case may explain'),
    Marker('PC-NO-CASE', 'CASE', ('out',), (_INIT,), (),
           'the case named on the command line is not in the initramfs'),
    Marker('PC-INSMOD-FAILED', '', ('out',), (_INIT,),
           ('engine/pcengine/verdict.py', _RV), 'the module did not load: nothing ran'),
    Marker('PC-PSTORE-BEGIN', 'RECORD', ('out',), (_INIT, _RAM),
           ('engine/pcengine/prepare.py', 'engine/pcengine/cases.py', CASES,
            'engine/pcengine/console.py',
            'engine/pcengine/vmcases.py', _RR),
           'a ramoops record (dmesg-ramoops-N) follows, read on the second boot',
           ('tests/run',)),
    Marker('PC-PSTORE-END', '', ('out',), (_INIT, _RAM), ('engine/pcengine/console.py', _RR),
           'the end of that record'),
    Marker('PC-PSTORE-DONE', '', ('out',), (_INIT, _RAM), (),
           'every record was printed; the guest powers off'),
    Marker('PC-PSTORE-RAM', 'ADDR SIZE', ('out',), (_RAM,), (_RR,),
           "not the guest's: the host stopped the guest at its reset and read "
           "ramoops' memory (ADDR, SIZE bytes); the records follow, as a second "
           'boot would print them'),
    # The bench's runner and its cases.
    Marker('PC-PART', 'CASE', ('out', 'kmsg'), ('engine/pcengine/prepare.py',),
           ('engine/pcengine/console.py',),
           "a batch guest's next case starts here, on both channels"),
    Marker('PC-SKIP', 'REASON', ('out',),
           ('engine/pcengine/cases.py', 'tests/cases/kdump_hardlockup_nmi_watchdog.sh',
            'tests/cases/crashpoints_args_kprobe.sh', 'tests/cases/deferred_misses.sh'),
           ('engine/pcengine/verdict.py',),
           'the case cannot test what it is for here: skipped, saying why '
           '(a type\'s "XFAIL: ..." line becomes one)', ('tests/run',)),
    Marker('PC-NOT-DISARMED', 'LISTING', ('out',), ('tests/cases/deferred_misses.sh',),
           ('tests/cases/deferred_misses.sh',),
           'an empty write left points armed; the listing follows'),
    Marker('PC-DETECTOR', 'TEXT', ('out',),
           ('tests/cases/kdump_hardlockup_nmi_watchdog.sh',), (),
           'which hard-lockup detector the kernel enabled'),
    # kdump: the first kernel loads a capture kernel, which reads the
    # crashed one's memory.
    Marker('PC-KDUMP-TEXT', 'SYMLINE (_stext ADDR)', ('out',), (_LOAD,), (),
           'the _text line put back into kallsyms for kexec (arm64)'),
    Marker('PC-KDUMP-LOADED', 'N bytes reserved', ('out',), (_LOAD,),
           ('engine/pcengine/cases.py', CASES), 'the capture kernel is loaded'),
    Marker('PC-KDUMP-LOAD-FAILED', 'TEXT', ('out',), (_LOAD,),
           ('engine/pcengine/cases.py', CASES), "kexec -p failed; kexec's error"),
    Marker('PC-KDUMP-CLOCK', 'up=S ticks=N hz=HZ', ('out',), (_LOAD,), (_KDUMP_NOTE,),
           "the first kernel's reading of the shared clock (pc-guest clock)"),
    Marker('PC-KDUMP-CAPTURE', 'up=S ticks=N hz=HZ', ('out',), (_CAPTURE,), (_KDUMP_NOTE,),
           "the capture kernel's reading of it, as it starts"),
    Marker('PC-KDUMP-VMCORE', 'N bytes', ('out',), (_CAPTURE,),
           ('engine/pcengine/cases.py',), 'the size of /proc/vmcore'),
    Marker('PC-KDUMP-DMESG-BEGIN', '', ('out',), (_CAPTURE,),
           (_KDUMP, _KDUMP_NOTE, 'engine/pcengine/cases.py', CASES,
            'engine/pcengine/console.py'),
           "the crashed kernel's log (vmcore-dmesg) follows"),
    Marker('PC-KDUMP-DMESG-END', '', ('out',), (_CAPTURE,),
           (_KDUMP, _KDUMP_NOTE, 'engine/pcengine/console.py'),
           'the end of that log'),
    Marker('PC-KDUMP-BAD-LEVEL', 'TEXT', ('out',), (_CAPTURE,), (),
           'pc_dump_level= was not 0-31; the default was used'),
    Marker('PC-KDUMP-DUMP', 'N bytes', ('out',), (_CAPTURE,),
           (_KDUMP, _KDUMP_NOTE, _VERDICT, 'engine/pcengine/cases.py', CASES),
           'the size of the compressed dump (makedumpfile)'),
    Marker('PC-KDUMP-NO-VMCORE', '', ('out',), (_CAPTURE,),
           ('engine/pcengine/cases.py', CASES), 'the capture kernel found no /proc/vmcore'),
    Marker('PC-KDUMP-DONE', '', ('out',), (_CAPTURE,),
           (_VERDICT, 'engine/pcengine/cases.py', CASES), 'the capture kernel is done'),
    # tools/provoke-crash-vm's guest script.
    Marker('PC-RUN-BEGIN', '', ('out', 'kmsg'), (_VM,), (_VM, _VM_WATCH, _RV, _RR),
           "the user's command starts"),
    Marker('PC-RUN-END', '[RC]', ('out', 'kmsg'), (_VM,), (_RV, _RR),
           'it ended, with its exit status (none on the console after a refusal)'),
    Marker('PC-ARM-REFUSED', '', ('out',), (_VM,), (_RV, _RR),
           'the module refused to arm the points: nothing ran'),
    Marker('PC-TRIGGER-REFUSED', '', ('out',), (_VM,), (_RV, _RR),
           'the trigger file refused the write: nothing ran'),
    Marker('PC-GDB-WAIT', '', ('out', 'kmsg'), (_VM,), (_VM_WATCH,),
           '--gdb: the run is over, and the guest stays up for the debugger'),
    Marker('PC-MODULE-FAILED', 'NAME ERROR', ('out',), (_VM,), (_RV,),
           "insmod refused the user's --module NAME: nothing was armed, nothing ran"),
    Marker('PC-WHY', 'KERNEL-LINE', ('out',), (_VM,), (_RV, _RR),
           "one of the module's log lines after a refusal"),
    Marker('PC-POINT', 'LISTING-LINE', ('out',), (_VM,), (_RR,),
           'one line of the crashpoints listing after the command'),
    Marker('PC-NO-OOPS', '', ('out',), (_VM,), (_RR,),
           'the kernel printed no oops or panic: no reboot for pstore'),
)

BY_NAME = {m.name: m for m in MARKERS}

# Any marker word, as it may appear in the tree or on a channel.
WORD_RE = re.compile(r'PC-[A-Z0-9-]+')

_LINE_RE = re.compile(r'(PC-[A-Z0-9]+(?:-[A-Z0-9]+)*)(?: (.*))?$')


def parse_line(text):
    """(name, args) of a marker line (args '' if none), or None.

    The line is one of the case output's, carriage returns stripped, or a
    console line's message after the kernel's prefix.  An undefined
    ``PC-`` word is not a marker.
    """
    m = _LINE_RE.match(text)
    if not m or m.group(1) not in BY_NAME:
        return None
    return m.group(1), m.group(2) or ''


def rst():
    """The table as reStructuredText, for reading (python3 -m pcengine.protocol)."""
    rows = ['.. list-table:: The console protocol', '   :header-rows: 1', '',
            '   * - Marker', '     - Arguments', '     - Channels', '     - Printed by',
            '     - Read by', '     - Meaning']
    def files(names):
        return ', '.join('``%s``' % n for n in names) or '-'

    for m in MARKERS:
        rows += ['   * - ``%s``' % m.name, '     - %s' % ('``%s``' % m.args if m.args else '-'),
                 '     - %s' % ', '.join(m.channels), '     - ' + files(m.emitters),
                 '     - ' + files(m.parsers), '     - %s' % m.meaning]
    return '\n'.join(rows) + '\n'


# The generated views, by the path the tree keeps them at.
VIEWS = {'c': 'guest/pc_protocol.h', 'sh': 'guest/pc-protocol.sh'}

# A marker's name in the views: PC-KDUMP-DONE is PCM_KDUMP_DONE.
VIEW_RE = re.compile(r'\bPCM_[A-Z0-9_]+')


def view_name(name):
    return 'PCM_' + name[len('PC-'):].replace('-', '_')


BY_VIEW_NAME = {view_name(m.name): m for m in MARKERS}

_WHAT = ('the console protocol\'s markers, generated from the table in',
         'engine/pcengine/protocol.py by "make protocol": do not edit.  A',
         'marker starts its line, alone or followed by a space and its',
         'arguments (given below).')


def c_view():
    """The C header: one macro a marker."""
    rows = ['/* SPDX-License-Identifier: GPL-2.0 */', '/*', ' * pc_protocol.h: ' + _WHAT[0]]
    rows += [' * ' + line for line in _WHAT[1:]] + [' */',
                                                    '#ifndef PC_PROTOCOL_H', '#define PC_PROTOCOL_H', '']
    for m in MARKERS:
        define = '#define %s "%s"' % (view_name(m.name), m.name)
        rows.append(define + ('\t/* %s */' % m.args if m.args else ''))
    return '\n'.join(rows + ['', '#endif /* PC_PROTOCOL_H */']) + '\n'


def sh_view():
    """The sh file the guest sources: one variable a marker, exported so
    that what the case runs has them too."""
    rows = ['# SPDX-License-Identifier: GPL-2.0', '# pc-protocol.sh: ' + _WHAT[0]]
    rows += ['# ' + line for line in _WHAT[1:]] + ['# shellcheck shell=dash']
    for m in MARKERS:
        rows.append('export %s=%s%s' % (view_name(m.name), m.name,
                                         '\t# %s' % m.args if m.args else ''))
    return '\n'.join(rows) + '\n'


if __name__ == '__main__':
    import sys
    views = {'--c': c_view, '--sh': sh_view}
    if len(sys.argv) > 2 or (sys.argv[1:] and sys.argv[1] not in views):
        sys.exit('usage: python3 -m pcengine.protocol [--c | --sh]')
    print((views[sys.argv[1]] if sys.argv[1:] else rst)(), end='')
