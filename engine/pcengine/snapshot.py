# SPDX-License-Identifier: GPL-2.0
"""A crash costs a restore, not a boot: guests saved once, restored per case.

A guest is booted once per (kernel, initramfs, boot line, vCPUs, pstore,
QEMU options) with ``pc_snapshot=1``: its /init loads the module, says
``PC-SNAPSHOT-READY`` and waits for a case's name on the command port.
QEMU then stops it and saves it (QMP ``migrate`` to a file).  Each case
of that key then starts a new QEMU from the file (``-incoming``), sends
the case's name, and waits for QEMU's end as a booted guest's would be
waited for.  Its console and output logs begin with what the saved guest
printed up to the save (the boot, the module's load), so that the verdict
reads what it would have read after a boot.

A pstore case's guest restores without -no-reboot: its crash (or the end
of its case) resets the machine, which keeps RAM, so the next boot prints
what ramoops kept, as after a boot.

Every guest restored from one file shares its KASLR offset, its random
state and its clock: a case that needs them to differ boots (its header
says ``# fresh-boot: WHY``), and so do kdump's (two kernels) and LKDTM's
selftest.  Saving is under a lock per key, so guests run at once share
one save.  A save that fails (the guest never got ready) is remembered
for the run, said once per case, and the case boots.

guest.py decides, per case, whether it restores or boots.
"""

import base64
import fcntl
import hashlib
import json
import os
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from . import qemu, qmp

READY = b'PC-SNAPSHOT-READY'
# Saved guests a directory keeps (prune()); seconds a failed save is
# remembered.
KEEP = 8
FAILED_FOR = 3600


def _stamp(path):
    st = os.stat(path)
    return [os.path.abspath(path), st.st_size, st.st_mtime_ns]


def snapshot_key(o):
    """What a saved guest is made of: a case may restore it only if all
    of this is the same."""
    what = [o.arch, o.accel, o.smp, _stamp(o.kernel), _stamp(o.initrd), o.append,
            o.pstore, o.qemu_extra]
    return hashlib.sha1(json.dumps(what).encode()).hexdigest()[:16]


def _qemu(cmd, errors):
    with open(errors, 'wb') as err:
        return subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=err)


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
    cmd = qemu.guest_argv(o, console, output, qemu.cmdline(o, '-') + ' pc_snapshot=1',
                command_socket=os.path.join(sockets, 'cmd'), qmp_socket=qmp_path)
    proc = _qemu(cmd, path + '.qemu')
    deadline = time.monotonic() + o.timeout
    try:
        while True:
            with open(output, 'rb') as f:
                if READY in f.read():
                    break
            if proc.poll() is not None:
                return 'the guest ended before it was ready (%s)' % _why_exited(proc, path + '.qemu')
            if time.monotonic() > deadline:
                return 'the guest was not ready within %d s' % o.timeout
            time.sleep(0.05)
        mon = qmp.QMP(qmp_path, proc)
        mon.execute('stop')
        # The default cap is a network's (a few tens of MB/s): a file
        # takes what the guest has as fast as it can be written.
        mon.execute('migrate-set-parameters', **{'max-bandwidth': 1 << 40})
        mon.execute('migrate', uri='exec:cat > %s' % shlex.quote(path + '.tmp'))
        mon.wait_migration(o.timeout)
        mon.close()
    except (qmp.QMPError, OSError) as e:
        return 'saving failed: %s' % e
    finally:
        # The file is whole once the migration completed: QEMU has no
        # more to do.
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    with open(output, 'rb') as f:
        before = f.read().split(READY)[0]
    with open(output, 'wb') as f:
        f.write(before)
    os.rename(path + '.tmp', path + '.mig')
    return None


def ensure(o, key):
    """The saved guest of KEY, made if there is none yet: (path, None,
    seconds the save took now or None) or (None, why there is none,
    None)."""
    os.makedirs(o.dir, exist_ok=True)
    path = os.path.join(o.dir, key)
    with open(path + '.lock', 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if os.path.exists(path + '.mig'):
            os.utime(path + '.mig')  # the newest use: pruned last
            return path, None, None
        # A failed save is not tried again within a while (a bench run's
        # other cases boot at once); a later run tries again.
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
            qmp.remove(path + '.tmp')
            return None, why, None
        took = time.monotonic() - started
        print('# saved guest %s in %.1f s' % (key, took), file=sys.stderr)
    prune(o.dir, key)
    return path, None, took


def prune(directory, spare, keep=KEEP):
    """Leave the KEEP saved guests of DIRECTORY used last (SPARE, just
    made, among them): a cache that lives across runs (the VM runner's)
    would otherwise grow by some 100 MB a kernel, module or boot line.
    A guest being restored now keeps its data until its reader ends."""
    found = [f[:-4] for f in os.listdir(directory) if f.endswith('.mig')]
    found.sort(key=lambda k: os.path.getmtime(os.path.join(directory, k + '.mig')))
    for key in found[:-keep]:
        if key == spare:
            continue
        for ext in ('.mig', '.console', '.out', '.qemu', '.failed', '.lock'):
            qmp.remove(os.path.join(directory, key + ext))


def case_message(o):
    """What the restored /init reads on its command port: the case's name,
    and with a payload (a cpio archive) "+payload N" and N base64 lines."""
    if not o.payload:
        return o.case.encode() + b'\n'
    with open(o.payload, 'rb') as f:
        data = base64.encodebytes(f.read())
    return b'%s +payload %d\n' % (o.case.encode(), data.count(b'\n')) + data


def restore(o, path):
    """Run the case in a guest restored from PATH: (QEMU's status, None),
    or (None, why) when the guest could not be restored and nothing of
    the case ran."""
    shutil.copyfile(path + '.console', o.console)
    shutil.copyfile(path + '.out', o.out)
    sockets = tempfile.mkdtemp(prefix='pc-restore-')
    qmp_path, cmd_path = os.path.join(sockets, 'qmp'), os.path.join(sockets, 'cmd')
    errors = os.path.join(sockets, 'qemu')
    cmd = qemu.guest_argv(o, o.console, o.out, qemu.cmdline(o, '-') + ' pc_snapshot=1',
                command_socket=cmd_path, qmp_socket=qmp_path) + ['-S', '-incoming', 'defer']
    deadline = time.monotonic() + o.timeout
    proc = _qemu(cmd, errors)
    try:
        mon = qmp.QMP(qmp_path, proc)
        mon.execute('migrate-incoming', uri='exec:cat %s' % shlex.quote(path + '.mig'))
        mon.wait_migration(o.timeout)
        mon.execute('cont')
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as port:
            port.connect(cmd_path)
            port.sendall(case_message(o))
            mon.close()
            return qemu.wait(proc, deadline), None
    except (qmp.QMPError, OSError) as e:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        return None, 'restoring it failed: %s (%s)' % (e, _why_exited(proc, errors))
    finally:
        shutil.rmtree(sockets, ignore_errors=True)
