# SPDX-License-Identifier: GPL-2.0
"""One throw-away guest for one case: restored where a saved guest can
serve it (snapshot.py), booted where it must be.

``python3 -m pcengine.guest run ...`` runs one from the command line;
the bench's and the VM runner's steps call run() in process.  It exits as QEMU did, or
124 (as timeout(1) says) when the time limit ended the guest.  With
``--how FILE`` it writes there one line: restored or booted, why, and the
guest's wall time.

A case restores when it is given a directory of saved guests (``--dir``)
and no reason to boot (``--fresh-boot WHY``).
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

from . import cat, qemu, qmp, ramoops, snapshot


def boot(o):
    """Run the case in a guest booted for it; QEMU's status."""
    for log in (o.console, o.out):
        open(log, 'wb').close()
    if o.payload:
        # The kernel unpacks both archives, one after the other.
        initrd = o.console + '.initrd'
        cat((o.initrd, o.payload), initrd)
        o = argparse.Namespace(**{**vars(o), 'initrd': initrd})
    # Only a guest whose ramoops the host reads has a QMP socket.
    sockets = tempfile.mkdtemp(prefix='pc-boot-') if o.read_ramoops else None
    qmp_path = os.path.join(sockets, 'qmp') if sockets else None
    cmd = qemu.guest_argv(o, o.console, o.out, qemu.cmdline(o, o.case), stdio=o.stdio,
                          qmp_socket=qmp_path)
    deadline = time.monotonic() + o.timeout if o.timeout else None
    try:
        if o.stdio:
            # In the foreground: QEMU reads the terminal.
            proc = subprocess.Popen(cmd, preexec_fn=qemu.die_with_parent())
        else:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL, preexec_fn=qemu.die_with_parent())
        mon = None
        if qmp_path:
            try:
                mon = qmp.QMP(qmp_path, proc)
            except qmp.QMPError:
                return qemu.wait(proc, deadline)
        return ramoops.wait(o, proc, mon, deadline)
    finally:
        if sockets:
            shutil.rmtree(sockets, ignore_errors=True)


def run(o):
    """One case: restored or booted.  Returns QEMU's status."""
    path = None
    if o.fresh_boot:
        how = 'booted (%s)' % o.fresh_boot
    elif not o.dir or o.stdio:
        how = 'booted'
    else:
        key = snapshot.snapshot_key(o)
        path, why, took = snapshot.ensure(o, key)
        how = 'booted (no saved guest: %s)' % why
        if path:
            how = 'restored (saved guest %s%s)' % (key, ', saved now in %.1f s' % took
                                                   if took is not None else '')
    started = time.monotonic()
    status = None
    if path:
        status, why = snapshot.restore(o, path)
        if status is None:
            # Nothing of the case ran: it boots, and says why; the
            # saved guest is put aside, to be saved again.
            snapshot.forget(o, key)
            how = 'booted (saved guest %s: %s)' % (key, why)
            started = time.monotonic()
        elif not snapshot.case_began(o, getattr(o, 'saved_out', 0)):
            # The restored guest ended, or hung, before its /init took
            # the case: nothing of the case ran, and its logs say nothing
            # of it.  It boots; the restore's console is kept beside.  The
            # saved guest is kept too (it served this case's siblings),
            # unless it hung: each sibling would pay the whole time limit.
            kept = o.console + '.restore'
            if os.path.exists(o.console):
                os.replace(o.console, kept)
            if status == 124:
                snapshot.forget(o, key)
            how = ('booted (saved guest %s ended before its case began, status %s%s: its'
                   ' console is %s)' % (key, status, ', put aside' if status == 124 else '',
                                        os.path.basename(kept)))
            status = None
            started = time.monotonic()
    if status is None:
        status = boot(o)
    if o.how:
        with open(o.how, 'w') as f:
            f.write('%s, %.2f s\n' % (how, time.monotonic() - started))
    return status


def options(argv=None):
    """The command line's options (ARGV: 'run' and the options)."""
    p = argparse.ArgumentParser(prog='pcengine.guest', description=__doc__.split('\n')[0])
    sub = p.add_subparsers(dest='command', required=True)
    r = sub.add_parser('run', help='run one case, restored or booted')
    r.add_argument('--arch', required=True, choices=sorted(qemu.ARCHES))
    r.add_argument('--accel', default='tcg', help='kvm or tcg (tuned here)')
    r.add_argument('--smp', type=int, default=1)
    r.add_argument('--kernel', required=True)
    r.add_argument('--initrd', required=True)
    r.add_argument('--append', default='', help='boot line after the bench\'s own')
    r.add_argument('--pstore', type=int, choices=(0, 1), default=0,
                   help='1: a reset reboots (the next boot prints what ramoops kept)')
    r.add_argument('--read-ramoops', metavar='ADDR:SIZE:RECORD_SIZE', default='',
                   help='ramoops\' memory and record size: at the guest\'s reset or power-off '
                   'QEMU stops, and the host reads the records there into the output log '
                   '(no second boot)')
    r.add_argument('--qemu-extra', default='', help='more QEMU options (one string)')
    r.add_argument('--case', required=True)
    r.add_argument('--payload', metavar='CPIO',
                   help='files for this case alone: on a restored guest\'s payload disk '
                   '(its command port where its kernel has no virtio-blk driver), '
                   'appended to a booted one\'s initramfs; at most %d MiB'
                   % (qemu.PAYLOAD_DISK_SIZE >> 20))
    r.add_argument('--console', required=True, help='the kernel console\'s log')
    r.add_argument('--out', required=True, help='the case\'s output log')
    r.add_argument('--timeout', type=float, default=120, help='seconds; 0: none')
    r.add_argument('--stdio', action='store_true',
                   help='the console on this terminal too (always a boot)')
    r.add_argument('--dir', help='where saved guests are kept: restore where one can serve')
    r.add_argument('--fresh-boot', default='', metavar='WHY',
                   help='boot, for this reason, even where a saved guest would do')
    r.add_argument('--how', help='file to say in how the case ran')
    r.add_argument('--keep-saves', type=int, default=0, metavar='N',
                   help='after a save, leave only the N saved guests of --dir used last '
                   '(a cache across runs); 0: all')
    o = p.parse_args(argv)
    o.pstore = bool(o.pstore)
    return o


def main(argv=None):
    return run(options(argv))


if __name__ == '__main__':
    sys.exit(main())
