# SPDX-License-Identifier: GPL-2.0
"""A crash costs a restore, not a boot: guests saved once, restored per case.

A guest is booted once per (kernel, initramfs, boot line, vCPUs, pstore,
QEMU options) with ``pc_snapshot=1``: its /init loads the module, says
``PC-SNAPSHOT-READY`` and waits for a case's name on the command port.
QEMU then stops it and saves it (QMP ``migrate`` to a file).  Its RAM
is not in that file: the guest runs on a file of its own (KEY.ram,
mapped shared), which is the RAM, and the migration leaves it out
(``x-ignore-shared``).  Each case of that key then starts a new QEMU
from the file (``-incoming``), its RAM a private, copy-on-write mapping
of KEY.ram: only the pages the case touches are read, from the page
cache, and only those it writes are copied.  (With the RAM in the
stream, QEMU 7.2 wrote all 512 MB of a restored guest's memory: a
restore took 1.6 s of CPU and 596 MB, against 0.9 s and 108 MB now.)
It sends
the case's name, and waits for QEMU's end as a booted guest's would be
waited for.  Its console and output logs begin with what the saved guest
printed up to the save (the boot, the module's load), so that the verdict
reads what it would have read after a boot.

A case's own files (the VM runner's --file, its script: a cpio archive)
come on a disk, not on the command port: a 16550 UART (ttyS2) or a
virtio-serial port carried some 40 KB/s of base64 (a 10 MB file
outlasted the 120 s time limit), where the guest's cpio reads a
virtio-blk disk at some 100 MB/s under TCG: 10 MB add about 0.4 s to a
restore.  A disk rather than a faster port: the host writes a file
before QEMU starts instead of feeding a stream the guest must frame
and pace, and cpio reads the device as it is.  The saved guest has the disk (qemu.payload_disk(): a fixed size, a file
of its own per guest, empty at the save) and its driver loaded, before
the module (guest/init); each restore gives it a new file of that size,
the archive at offset 0, and says "+disk N" after the case's name: the
guest drops what its page cache holds of the disk (the kernel read its
first sectors for a partition table at the save) and unpacks the disk.
A migration does not carry a disk's contents, nor compare them: only
its size must match, and the guest has nothing in flight on it.  A
guest whose kernel never read the disk at the save (no virtio-blk
driver: a kernel built without one) gets its files on the port, in
base64, as before (KEY.disk says which: the save asks QEMU whether the
guest read the disk).

A pstore case's guest restores without -no-reboot: its crash (or the end
of its case) resets the machine, which keeps RAM, so the next boot prints
what ramoops kept, as after a boot.  One whose ramoops the host reads
(ramoops.py) stops at that reset instead.

Every guest restored from one file shares its KASLR offset, its random
state and its clock: a case that needs them to differ boots (its header
says ``# fresh-boot: WHY``), and so do kdump's (two kernels) and LKDTM's
selftest.  Saving is under a lock per key, so guests run at once share
one save.  A save that fails is remembered for FAILED_FOR seconds (the
other cases of a bench run boot at once, saying why); a saved guest that
fails to restore is put aside, and its case boots.  QEMU writes and
reads the file through a descriptor handed to it over QMP (getfd): the
file is whole when QEMU says the migration completed.

guest.py decides, per case, whether it restores or boots.
"""

import argparse
import base64
import fcntl
import hashlib
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from . import qemu, qmp, ramoops

READY = b'PC-SNAPSHOT-READY'
# Saved guests of another layout do not restore: this one keeps the RAM
# in a file of its own (KEY.ram) beside the device state (KEY.mig).
RAM_FORMAT = 'ram-file'
# Seconds a failed save is remembered; seconds a save may take at least.
FAILED_FOR = 900
SAVE_TIME = 120
# What the VM runner's --file's may total: the payload disk less a MiB
# for the runner's own files (its script, the points, the command) and
# the archive's headers (some 120 bytes and the path a file).
FILES_MAX = qemu.PAYLOAD_DISK_SIZE - (1 << 20)
# What a saved guest's files are named by (KEY + each), removed with it.
SAVED_FILES = ('.mig', '.ram', '.disk', '.console', '.out', '.qemu', '.failed', '.bad')


def _stamp(path):
    # The inode and the change time as well: a copy that keeps the
    # size and the modification time is another file.
    st = os.stat(path)
    return [os.path.abspath(path), st.st_size, st.st_mtime_ns, st.st_ino, st.st_ctime_ns]


def _host():
    """Under KVM the guest's CPU (-cpu max) is the host's: a guest saved
    on one CPU or host kernel must not restore on another."""
    try:
        with open('/proc/cpuinfo') as f:
            flags = next((line for line in f if line.startswith(('flags', 'Features'))), '')
    except OSError:
        flags = ''
    return [os.uname().release, hashlib.sha1(flags.encode()).hexdigest()]


def snapshot_key(o):
    """What a saved guest is made of: a case may restore it only if all
    of this is the same (QEMU's command line with the per-run paths left
    out, its binary, the kernel and initramfs files)."""
    template = _saved_argv(o, 'CONSOLE', 'OUTPUT', 'SOCKETS')
    binary = shutil.which(template[0])
    what = [template, _stamp(binary) if binary else template[0], _stamp(o.kernel),
            _stamp(o.initrd), o.accel == 'kvm' and _host(), RAM_FORMAT]
    return hashlib.sha1(json.dumps(what).encode()).hexdigest()[:16]


def _remove(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def _saved_argv(o, console, output, sockets):
    """QEMU's argv of a guest that is saved or restored (its /init waits
    for a case on the command port), with its QMP and command sockets
    and its payload disk under SOCKETS; the same for the save, the
    restores and the key (a change to the disk's options is another
    key: no guest is restored into other devices than it was saved
    with)."""
    return qemu.guest_argv(o, console, output, qemu.cmdline(o, '-') + ' pc_snapshot=1',
                           command_socket=os.path.join(sockets, 'cmd'),
                           qmp_socket=os.path.join(sockets, 'qmp'),
                           disk=os.path.join(sockets, 'disk'))


def write_disk(path, payload=None):
    """PATH: the payload disk's file, qemu.PAYLOAD_DISK_SIZE bytes,
    sparse, with the archive PAYLOAD (a path, or None: empty) at offset
    0.  Its size in bytes; ValueError if it does not fit."""
    size = os.path.getsize(payload) if payload else 0
    if size > qemu.PAYLOAD_DISK_SIZE:
        raise ValueError("this run's files, %d bytes, do not fit the payload disk's %d"
                         % (size, qemu.PAYLOAD_DISK_SIZE))
    if payload:
        shutil.copyfile(payload, path)  # in the kernel (sendfile)
    else:
        open(path, 'wb').close()
    os.truncate(path, qemu.PAYLOAD_DISK_SIZE)
    return size


def files_too_big(paths):
    """Why the files PATHS are more than a run carries (FILES_MAX in
    all), or None.  One limit, stated before anything is built, whether
    the guest restores or boots."""
    total = sum(os.path.getsize(p) for p in paths)
    if total <= FILES_MAX:
        return None
    return ('%.1f MiB of files; a run carries at most %d MiB of them (on a %d MiB disk)'
            % (total / (1 << 20), FILES_MAX >> 20, qemu.PAYLOAD_DISK_SIZE >> 20))


def _read_disk(mon):
    """Whether the stopped guest's kernel has read the payload disk: it
    has a driver for it (it read the first sectors for a partition
    table), so its /init can unpack a restore's files from it."""
    for dev in mon.execute('query-blockstats'):
        if dev.get('device') == 'pcdisk':
            return dev.get('stats', {}).get('rd_operations', 0) > 0
    return False


def _ram(path, share):
    """QEMU options for guest RAM in the file PATH: shared (the saving
    guest writes it: the file is the RAM), or a private, copy-on-write
    mapping of it (a restored guest reads the pages it touches from the
    page cache and copies those it writes)."""
    return ['-object', 'memory-backend-file,id=pc.ram,size=%dM,mem-path=%s,share=%s'
            % (qemu.MEMORY_MB, path, 'on' if share else 'off'),
            '-machine', 'memory-backend=pc.ram']


def _ignore_ram(mon):
    # The migration stream leaves the RAM out (the file holds it): both
    # ends say so, for the stream's layout.  The restoring end maps the
    # file private, so its RAM is not "shared", and QEMU 7.2 loads such
    # a block from whatever pages the stream has (none): what this
    # relies on, x-ignore-shared being experimental, is proven by every
    # restore of the bench (a guest on wrong RAM does not run its case).
    mon.execute('migrate-set-capabilities',
                capabilities=[{'capability': 'x-ignore-shared', 'state': True}])


def _qemu(cmd, errors, pass_fds=()):
    with open(errors, 'wb') as err:
        return subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=err, preexec_fn=qemu.die_with_parent(),
                                pass_fds=pass_fds)


def _why_exited(proc, errors):
    with open(errors, errors='replace') as f:
        text = f.read().strip().splitlines()
    return 'QEMU exited with status %s%s' % (proc.returncode,
                                              ': ' + text[-1] if text else '')


def save(o, path, sockets):
    """Boot the guest that PATH will hold, and save it once its /init is
    ready.  Returns None, or why it could not."""
    console, output = path + '.console', path + '.out'
    for log in (console, output):
        open(log, 'wb').close()
    qmp_path = os.path.join(sockets, 'qmp')
    # A guest that ends before it is ready ends QEMU too, even where its
    # restores stop at a reset to read ramoops: the save does not wait
    # for a paused QEMU.  (The reset's action is not in the guest's
    # state: the restores set their own.)
    saving = argparse.Namespace(**{**vars(o), 'read_ramoops': ''})
    # QEMU takes an existing file as the RAM it holds: a save cut short
    # leaves one, whose guest would not boot afresh.
    _remove(path + '.ram.tmp')
    _remove(path + '.disk')
    write_disk(os.path.join(sockets, 'disk'))
    cmd = _saved_argv(saving, console, output, sockets) + _ram(path + '.ram.tmp', True)
    limit = max(o.timeout, SAVE_TIME)
    deadline = time.monotonic() + limit
    with open(path + '.tmp', 'wb') as image:
        proc = _qemu(cmd, path + '.qemu')
        try:
            while True:
                with open(output, 'rb') as f:
                    if READY in f.read():
                        break
                if proc.poll() is not None:
                    return 'the guest ended before it was ready (%s)' % _why_exited(
                        proc, path + '.qemu')
                if time.monotonic() > deadline:
                    return 'the guest was not ready within %d s' % limit
                time.sleep(0.05)
            mon = qmp.QMP(qmp_path, proc)
            mon.execute('stop')
            disk = _read_disk(mon)
            # The default cap is a network's (a few tens of MB/s): a file
            # takes what the guest has as fast as it can be written.
            mon.execute('migrate-set-parameters', **{'max-bandwidth': 1 << 40})
            _ignore_ram(mon)
            mon.send_fd(image.fileno(), 'image')
            mon.execute('migrate', uri='fd:image')
            mon.wait_migration(limit)
            mon.close()
        except (qmp.QMPError, OSError, ValueError) as e:
            return 'saving failed: %s' % e
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    with open(output, 'rb') as f:
        before, _, after = f.read().partition(READY)
    # A guest that went on past the ready line (its command port read
    # nothing) would restore to a finished /init.
    if after.strip():
        return 'the guest went on before it was saved: %r' % after.strip()[:80]
    with open(output, 'wb') as f:
        f.write(before)
    if disk:
        open(path + '.disk', 'wb').close()
    os.rename(path + '.ram.tmp', path + '.ram')
    os.rename(path + '.tmp', path + '.mig')
    return None


def ensure(o, key):
    """The saved guest of KEY, made if there is none yet: (path, None,
    seconds the save took now or None) or (None, why there is none,
    None)."""
    os.makedirs(o.dir, exist_ok=True)
    path = os.path.join(o.dir, key)
    took = None
    with open(path + '.lock', 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(path + '.mig') and os.path.exists(path + '.ram'):
            os.utime(path + '.mig')  # the newest use: pruned last
            return path, None, None
        if os.path.exists(path + '.failed') and \
                time.time() - os.path.getmtime(path + '.failed') < FAILED_FOR:
            with open(path + '.failed') as f:
                return None, f.read().strip(), None
        sockets = tempfile.mkdtemp(prefix='pc-snap-')
        try:
            started = time.monotonic()
            why = save(o, path, sockets)
        finally:
            shutil.rmtree(sockets, ignore_errors=True)
        if why:
            with open(path + '.failed', 'w') as f:
                f.write(why + '\n')
            _remove(path + '.tmp')
            _remove(path + '.ram.tmp')
            return None, why, None
        took = time.monotonic() - started
        print('# saved guest %s in %.1f s' % (key, took), file=sys.stderr)
    if o.keep_saves:
        prune(o.dir, o.keep_saves)
    return path, None, took


def forget(o, key):
    """Put aside the saved guest of KEY, which did not restore: the next
    case or run saves it again."""
    path = os.path.join(o.dir, key)
    with open(path + '.lock', 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(path + '.mig'):
            os.replace(path + '.mig', path + '.bad')
        _remove(path + '.ram')
        _remove(path + '.disk')


def prune(directory, keep):
    """Leave the KEEP saved guests of DIRECTORY used last: a cache that
    lives across runs (the VM runner's) would otherwise grow by some
    150 MB a kernel, module or boot line.  Under a lock of the whole
    directory; each key's own lock stays (another process may hold it);
    a restore that has its file open keeps reading it."""
    with open(os.path.join(directory, 'prune.lock'), 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        found = []
        for f in os.listdir(directory):
            if f.endswith('.mig'):
                try:
                    found.append((os.path.getmtime(os.path.join(directory, f)), f[:-4]))
                except FileNotFoundError:
                    pass
        for _, key in sorted(found)[:-keep]:
            for ext in SAVED_FILES:
                _remove(os.path.join(directory, key + ext))


def case_began(o, saved):
    """Whether the restored guest said PC-GUEST-START: its /init took
    the case from the command port.  Its output log (o.out) holds SAVED
    bytes of the saved guest's, then what the restored one printed."""
    try:
        with open(o.out, 'rb') as f:
            f.seek(saved)
            return b'PC-GUEST-START ' in f.read()
    except OSError:
        return False


def case_message(o, disk=None):
    """What the restored /init reads on its command port: the case's name,
    and with a payload (a cpio archive) "+disk N" where the payload disk
    holds its N bytes (DISK, the size write_disk() gave), else
    "+payload N" and N base64 lines."""
    if not o.payload:
        return o.case.encode() + b'\n'
    if disk is not None:
        return b'%s +disk %d\n' % (o.case.encode(), disk)
    with open(o.payload, 'rb') as f:
        data = base64.encodebytes(f.read())
    return b'%s +payload %d\n' % (o.case.encode(), data.count(b'\n')) + data


def restore(o, path):
    """Run the case in a guest restored from PATH: (QEMU's status, None),
    or (None, why) when the guest could not be restored and nothing of
    the case ran (the caller boots it, which empties the logs).  Sets
    o.saved_out: the bytes of the output log that are the saved guest's
    (case_began reads what follows)."""
    sockets = tempfile.mkdtemp(prefix='pc-restore-')
    qmp_path, cmd_path = os.path.join(sockets, 'qmp'), os.path.join(sockets, 'cmd')
    errors = os.path.join(sockets, 'qemu')
    deadline = time.monotonic() + o.timeout
    proc = None
    disk = None
    try:
        # Whether this guest reads its files from the disk, asked
        # before its files are opened: a prune in between removes the
        # .mig too, whose open then fails.
        on_disk = os.path.exists(path + '.disk')
        size = write_disk(os.path.join(sockets, 'disk'), o.payload if on_disk else None)
        if on_disk and o.payload:
            disk = size
        shutil.copyfile(path + '.console', o.console)
        shutil.copyfile(path + '.out', o.out)
        o.saved_out = os.path.getsize(o.out)
        # Both files open before QEMU starts, the RAM's handed over as
        # /dev/fd/N: a prune or a forget that unlinks them now leaves
        # this restore its files (QEMU would create an empty RAM file
        # where the name is gone, and restore a guest with no memory).
        with open(path + '.mig', 'rb') as image, open(path + '.ram', 'rb') as ram:
            # The kernel is in the saved RAM: QEMU loads none (loading
            # the files cost a restore some 45 ms), unless a reset boots
            # it again (pstore's second boot).
            booted = o if o.pstore else argparse.Namespace(**{**vars(o), 'kernel': None})
            cmd = _saved_argv(booted, o.console, o.out, sockets) + \
                _ram('/dev/fd/%d' % ram.fileno(), False) + ['-S', '-incoming', 'defer']
            proc = _qemu(cmd, errors, pass_fds=(ram.fileno(),))
            mon = qmp.QMP(qmp_path, proc)
            _ignore_ram(mon)
            mon.send_fd(image.fileno(), 'image')
            mon.execute('migrate-incoming', uri='fd:image')
            mon.wait_migration(o.timeout)
        mon.execute('cont')
    except (qmp.QMPError, OSError, ValueError) as e:
        why = 'restoring it failed: %s' % e
        if proc is not None:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
            why += ' (%s)' % _why_exited(proc, errors)
        shutil.rmtree(sockets, ignore_errors=True)
        return None, why
    # The case runs from here on: what goes wrong is its guest's end,
    # within its time limit, not a reason to boot.  The port stays
    # connected until QEMU ends: a hang-up would drop what the guest has
    # not read yet.
    port = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        port.settimeout(max(0.1, deadline - time.monotonic()))
        port.connect(cmd_path)
        port.sendall(case_message(o, disk))
    except OSError as e:
        print('# the command port of %s: %s' % (os.path.basename(path), e), file=sys.stderr)
    try:
        return ramoops.wait(o, proc, mon, deadline), None
    finally:
        port.close()
        shutil.rmtree(sockets, ignore_errors=True)
