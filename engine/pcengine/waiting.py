# SPDX-License-Identifier: GPL-2.0
"""Saying what a run waits for: a lock another run holds (whose, since
when, for what), and a line every half minute while a long step goes
on, so that no wait is silent (issue 42: ten minutes without a word
while another run built the debug kernel).

A lock file holds its holder's line, "PID EPOCH WHAT", written once the
lock is taken; a waiter reads it to say whom it waits for.  The lock
itself is the flock, never the file's text: a holder that died left a
line and no lock.
"""

import contextlib
import fcntl
import os
import threading
import time

from . import log

EVERY = 30


def _holder(f):
    """The holder's line of the open lock file F: 'PID N, since HH:MM:SS,
    WHAT', or '' when it wrote none."""
    try:
        f.seek(0)
        pid, since, what = f.read().split(' ', 2)
        return 'PID %s, since %s, %s' % (pid, time.strftime('%H:%M:%S', time.localtime(
            float(since))), what.strip())
    except (OSError, ValueError):
        return ''


@contextlib.contextmanager
def still(what, every=EVERY):
    """A '# still WHAT (N s)' line every EVERY seconds until the block
    ends."""
    done = threading.Event()
    start = time.monotonic()

    def tick():
        while not done.wait(every):
            log('still %s (%d s)' % (what, time.monotonic() - start))
    t = threading.Thread(target=tick, daemon=True)
    t.start()
    try:
        yield
    finally:
        done.set()
        t.join()


def take(f, what):
    """Take the flock on the open lock file F (opened 'a+'), for WHAT;
    while another run holds it, say so and who, and keep saying it."""
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        holder = _holder(f)
        log('waiting for another run to finish with %s (%s)'
            % (os.path.basename(f.name), holder or 'it wrote no line'))
        with still('waiting for %s' % os.path.basename(f.name)):
            fcntl.flock(f, fcntl.LOCK_EX)
    f.seek(0)
    f.truncate()
    f.write('%d %.0f %s\n' % (os.getpid(), time.time(), what))
    f.flush()


@contextlib.contextmanager
def locked(path, what):
    """PATH's lock held for the block, taken with take()."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'a+') as f:
        take(f, what)
        yield
