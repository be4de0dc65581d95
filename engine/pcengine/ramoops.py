# SPDX-License-Identifier: GPL-2.0
"""ramoops' oops and panic records, read by the host from a stopped
guest's memory: the pstore proof without a second boot.

A guest that crashes with ramoops loaded has its kernel's kmsg_dump()
write the log into ramoops' reserved memory before the panic resets the
machine.  Instead of booting again so that the next kernel's pstore reads
it back, QEMU pauses at the reset (``-action reboot=shutdown,
shutdown=pause``) and the host saves that memory (QMP ``pmemsave``) and
decodes it here, as fs/pstore/ram.c would on the next boot (6.1 and 6.12
write the same layout):

- the region starts with the dmesg zones, in order, each a
  ``struct persistent_ram_buffer``: ``sig`` (0x43474244, "DBGC", for a
  dmesg zone), ``start`` and ``size`` (a ring), then the data;
- a record is ``====SECONDS.MICROSECONDS-C`` (compressed) or ``-D``,
  a newline, then the log; a compressed one is raw deflate (zlib with
  no header), as pstore writes it;
- the zones are named as the next boot's pstore would name the files:
  ``dmesg-ramoops-N``, N the zone's number.

What a second boot proves beyond this (that the next kernel finds and
reads the record) is the bench's pstore lane's to prove.
"""

import os
import re
import struct
import sys
import tempfile
import time
import zlib

from . import qemu, qmp

SIG = b'DBGC'  # PERSISTENT_RAM_SIG, little-endian: a dmesg zone's header
HEADER = struct.Struct('<4sii')  # sig, start, size
RECORD_RE = re.compile(rb'====(-?\d+)\.(\d+)(?:-([CD]))?\n')


# What /init gives ramoops (kernels.ramoops_region): the record size, and the
# console's, ftrace's and pmsg's zones at their default size, which the
# region keeps after the dmesg zones.
RECORD_SIZE = 0x20000
OTHER_ZONES = 3 * 4096


def zones(mem_size, record_size=RECORD_SIZE, other=OTHER_ZONES):
    """The dmesg zones' offsets and size, as ramoops_init_przs() lays
    them out: as many as records fit, the room shared out evenly."""
    room = mem_size - other
    count = room // record_size
    if count <= 0:
        return [], 0
    size = room // count & ~1
    return [n * size for n in range(count)], size


def records(image, record_size=RECORD_SIZE, other=OTHER_ZONES):
    """(name, text) of each record in IMAGE, ramoops' memory (bytes), in
    zone order.  A zone without the signature (never formatted) or empty
    holds none."""
    found = []
    offsets, size = zones(len(image), record_size, other)
    for n, at in enumerate(offsets):
        sig, start, used = HEADER.unpack_from(image, at)
        data = image[at + HEADER.size:at + size]
        if sig != SIG or used <= 0 or used > len(data) or not 0 <= start <= used:
            continue
        text = data[start:used] + data[:start]
        m = RECORD_RE.match(text)
        if not m:
            # Not a record: the next boot's pstore would zap it.
            continue
        body = text[m.end():]
        if m.group(3) == b'C':
            inflate = zlib.decompressobj(-15)
            try:
                body = inflate.decompress(body)
                if not inflate.eof:
                    raise zlib.error('the stream ends short')
            except zlib.error as e:
                # pstore would keep it as .enc.z: raw deflate is what 6.1
                # and 6.12 write with Debian's configs, not lzo, lz4, zstd.
                body = (b'(a compressed record that does not inflate as raw deflate: %s)\n'
                        % str(e).encode())
        found.append(('dmesg-ramoops-%d' % n, body))
    return found


def marked(found):
    """The records as the guest's /init prints them after a second boot,
    marker lines around each."""
    out = []
    for name, body in found:
        out.append(b'PC-PSTORE-BEGIN ' + name.encode() + b'\n')
        out.append(body if body.endswith(b'\n') or not body else body + b'\n')
        out.append(b'PC-PSTORE-END\n')
    out.append(b'PC-PSTORE-DONE\n')
    return b''.join(out)


# Seconds the host gives itself, once the guest stopped, to save the
# region and have QEMU quit: not the guest's time, which has run out.
READ_TIME = 30


def wait(o, proc, mon, deadline):
    """QEMU's exit status (124 when DEADLINE, a time.monotonic() value
    or None, came first).  With o.read_ramoops (ADDR:SIZE:RECORD_SIZE),
    QEMU runs paused at the guest's reset or power-off (qemu.argv's
    PAUSE): then MON, its QMP connection, saves ramoops' memory, the
    records go to the end of the output log (o.out), and QEMU quits.  A
    QEMU that the read leaves behind is killed: it would wait, paused,
    for ever."""
    if not o.read_ramoops:
        if mon is not None:
            mon.close()
        return qemu.wait(proc, deadline)
    addr, size, record_size = (int(v, 0) for v in o.read_ramoops.split(':'))
    stopped = None
    try:
        stopped = mon.wait_event(('SHUTDOWN',), deadline)
        if stopped is not None:
            mon.set_timeout(READ_TIME)
            fd, image = tempfile.mkstemp(prefix='pc-ramoops-')
            os.close(fd)
            try:
                mon.execute('pmemsave', val=addr, size=size, filename=image)
                with open(image, 'rb') as f:
                    found = records(f.read(), record_size)
            finally:
                os.unlink(image)
            with open(o.out, 'ab') as out:
                out.write(b'PC-PSTORE-RAM %#x %#x\n' % (addr, size) + marked(found))
            mon.execute('quit')
    except (qmp.QMPError, OSError, ValueError) as e:
        # QEMU ended on its own (it closed the socket: its status says
        # how), or the read failed: say so, and end the QEMU that waits,
        # paused, for ever.
        if stopped is not None:
            print('# reading ramoops from the stopped guest failed: %s' % e, file=sys.stderr)
            if proc.poll() is None:
                proc.kill()
    finally:
        mon.close()
    if stopped is not None:
        # The guest's time is spent: QEMU gets the read's to quit.
        return qemu.wait(proc, time.monotonic() + READ_TIME)
    return qemu.wait(proc, deadline)
