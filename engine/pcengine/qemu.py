# SPDX-License-Identifier: GPL-2.0
"""QEMU per architecture, as data: the command line of a throw-away guest.

A guest has two channels out (see protocol.py): the kernel console and
the case's own output, each logged to a file.  A guest that is saved and
restored (snapshot.py) has a third port, into the guest: the command
port, on which a restored /init reads the name of its case; and a
disk, read-only, from which it reads the case's files (payload_disk()).

- x86-64: the console is ttyS0, the output ttyS1, the command port ttyS2.
  No default devices (a NIC, VGA, CD-ROM, floppy, parallel port): none
  is used, and their option ROMs and set-up cost each QEMU some 25 ms.
- arm64 (QEMU's virt board, which has one UART: the console's): the output
  and the command port are virtio-serial ports, vport0p1 and vport0p2.
  QEMU's own pointer authentication algorithm keeps PAC (on in Debian's
  kernel) real, at a fraction of QARMA's emulation cost.  No NIC: on 6.12
  its virtio-pci device would take virtio0.

The payload disk is a virtio-blk device: on virtio-pci on x86-64, on
the virt board's virtio-mmio bus on arm64, beside the ports (its
drivers: initramfs.DISK_MODULES).
"""

import collections
import ctypes
import os
import select
import shlex
import signal
import subprocess
import time

Arch = collections.namedtuple('Arch', 'binary machine console ports disk')

ARCHES = {
    'amd64': Arch('qemu-system-x86_64', ('-cpu', 'max', '-nodefaults'), 'ttyS0', 'serial',
                  'virtio-blk-pci'),
    'arm64': Arch('qemu-system-aarch64',
                  ('-M', 'virt', '-cpu', 'max,pauth-impdef=on', '-nic', 'none'),
                  'ttyAMA0', 'virtio', 'virtio-blk-device'),
}

MEMORY_MB = 512
# The payload disk's size, fixed: the saved guest's kernel read its
# capacity when it found the disk, and each restore gives it another
# file of that size.  The files of one run (an archive) must fit; a
# restored guest's page cache holds what it read from the disk as long
# as it unpacks it, besides the unpacked files, of its 512 MiB.
PAYLOAD_DISK_SIZE = 64 << 20
# The serial number the guest knows its payload disk by
# (/sys/block/vdX/serial), whatever else the options add.
PAYLOAD_DISK_SERIAL = 'pc-payload'


def accel_option(accel, smp):
    """The -accel value: TCG's default 1 GiB translation cache costs
    seconds of host time; and multi-threaded TCG mis-emulates cross-CPU
    code patching (a CPU can run a half-patched ftrace call site and jump
    to 0 while another enables a kprobe), so an SMP guest runs its vCPUs
    on one host thread."""
    if accel != 'tcg':
        return accel
    return 'tcg,tb-size=256' + (',thread=single' if smp > 1 else '')


def _log(chardev_id, path):
    # append=on: a restored guest's logs go on after what the saved
    # guest printed, which the caller copied there first.
    return ('-chardev', 'file,id=%s,path=%s,append=on' % (chardev_id, path))


def payload_disk(arch, path):
    """QEMU's options for the payload disk, the file PATH (raw,
    PAYLOAD_DISK_SIZE bytes: QEMU refuses a smaller one), read-only:
    the guest only reads it, and a readonly image takes a shared lock."""
    return ['-drive', 'if=none,id=pcdisk,file=%s,format=raw,readonly=on,size=%d'
            % (path, PAYLOAD_DISK_SIZE),
            '-device', '%s,drive=pcdisk,serial=%s' % (ARCHES[arch].disk, PAYLOAD_DISK_SERIAL)]


def argv(arch, accel, smp, kernel, initrd, append, console, output,
         reboot=False, pause=False, command_socket=None, qmp_socket=None, extra=(),
         stdio=False, disk=None):
    """QEMU's argv for a guest of ARCH booting KERNEL and INITRD with the
    command line APPEND (after the console's), logging to the files
    CONSOLE and OUTPUT.  Without REBOOT a reset (a panic's reboot) ends
    QEMU; with PAUSE a reset or a power-off stops the guest instead, with
    its memory as the guest left it, for the host to read (QMP).  COMMAND_SOCKET adds the command port, served on that Unix
    socket; QMP_SOCKET a QMP monitor; DISK the payload disk, on that
    file.  EXTRA: more options (-icount).
    STDIO puts the console on this terminal too, stdin included, with
    QEMU's monitor behind Ctrl-A c (signal=off: Ctrl-C goes to the
    guest's shell, not QEMU); the console is still logged."""
    a = ARCHES[arch]
    cmd = [a.binary, *a.machine]
    if stdio:
        cmd += ['-chardev', 'stdio,id=pccon,mux=on,signal=off,logfile=%s' % console,
                '-serial', 'chardev:pccon', '-mon', 'chardev=pccon']
    else:
        cmd += [*_log('pccon', console), '-serial', 'chardev:pccon']
    if disk:
        # Before the ports: on the virt board the first virtio-mmio
        # device is probed last, so that the ports keep the virtio0 (and
        # vport0pN) of a guest without the disk.
        cmd += payload_disk(arch, disk)
    cmd += _log('pcout', output)
    if a.ports == 'serial':
        cmd += ['-serial', 'chardev:pcout']
    else:
        cmd += ['-device', 'virtio-serial-device',
                '-device', 'virtserialport,chardev=pcout,name=pc.out']
    if command_socket:
        cmd += ['-chardev', 'socket,id=pccmd,path=%s,server=on,wait=off' % command_socket]
        if a.ports == 'serial':
            cmd += ['-serial', 'chardev:pccmd']
        else:
            cmd += ['-device', 'virtserialport,chardev=pccmd,name=pc.cmd']
    cmd += ['-accel', accel_option(accel, smp), '-smp', str(smp), '-m', str(MEMORY_MB),
            '-display', 'none']
    if not stdio:
        cmd += ['-monitor', 'none']
    if pause:
        cmd += ['-action', 'reboot=shutdown,shutdown=pause']
    elif not reboot:
        cmd.append('-no-reboot')
    if qmp_socket:
        cmd += ['-qmp', 'unix:%s,server=on,wait=off' % qmp_socket]
    cmd += list(extra)
    if kernel:
        cmd += ['-kernel', kernel, '-initrd', initrd,
                '-append', 'console=%s %s' % (a.console, append)]
    return cmd


def cmdline(o, case):
    """The guest's boot line for CASE (its name, or - for a saved guest
    that waits for one): the bench's defaults, then the spec's own."""
    return 'quiet panic=-1 pc_case=%s %s' % (case, o.append)


def guest_argv(o, console, output, append, **kw):
    """argv() for the guest spec O (guest.py's options: arch, accel, smp,
    kernel, initrd, pstore, read_ramoops, qemu_extra): a pstore guest
    reboots; one whose ramoops the host reads stops at its reset."""
    return argv(o.arch, o.accel, o.smp, o.kernel, o.initrd, append, console, output,
                reboot=o.pstore, pause=bool(o.read_ramoops), extra=shlex.split(o.qemu_extra),
                **kw)


def _exited_by(proc, deadline):
    """Whether PROC exits before DEADLINE, waited for on its pidfd (no
    polling: Popen.wait with a time limit naps up to 50 ms between looks,
    which a restored guest's 0.3 s run would pay at its end).  None when
    the host has no pidfd."""
    if proc.returncode is not None:
        return True  # reaped already (its PID may be another's now)
    try:
        fd = os.pidfd_open(proc.pid)
    except (AttributeError, OSError):
        return None
    try:
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if poller.poll(None if left is None else left * 1000):
                return True
            if left is not None and left <= 0:
                return False
    finally:
        os.close(fd)


def wait(proc, deadline):
    """QEMU's exit status, or 124 (as timeout(1) says) when DEADLINE, a
    time.monotonic() value or None for no limit, came first: then QEMU
    is killed."""
    if _exited_by(proc, deadline) is False:
        proc.kill()
        proc.wait()
        return 124
    try:
        return proc.wait(timeout=None if deadline is None
                         else max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return 124


def die_with_parent():
    """A preexec_fn for a QEMU: it is killed with the Python that waits
    for it (the bench kills a step's tree from the top, and a QEMU
    started after that look would live on).  A parent that died between
    the fork and the prctl would leave it running: it exits then."""
    parent = os.getpid()
    libc = ctypes.CDLL(None, use_errno=True)  # here: no dlopen after the fork

    def preexec():
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        if os.getppid() != parent:
            os._exit(1)
    return preexec
