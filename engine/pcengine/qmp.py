# SPDX-License-Identifier: GPL-2.0
"""A QEMU Machine Protocol client: just what saving and restoring a guest
needs (commands, their answers, waiting for a migration or an event)."""

import array
import json
import socket
import time


# Seconds between looks at a socket that QEMU has yet to open, or at a
# migration under way: a restore waits on both, and takes 0.5 s in all.
POLL = 0.005


class QMPError(Exception):
    """QEMU answered with an error, closed the socket, or took too long."""


class QMP:
    """One connection to a QEMU started with ``-qmp unix:PATH,server=on,
    wait=off``.  The constructor waits for the socket (QEMU creates it as
    it starts) and negotiates the capabilities."""

    def __init__(self, path, proc, timeout=30):
        deadline = time.monotonic() + timeout
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        while True:
            try:
                self.sock.connect(path)
                break
            except OSError:
                if proc.poll() is not None:
                    raise QMPError('QEMU exited (status %d) before its QMP socket opened'
                                   % proc.returncode)
                if time.monotonic() > deadline:
                    raise QMPError('no QMP socket at %s after %d s' % (path, timeout))
                time.sleep(POLL)
        self.sock.settimeout(timeout)
        self.reader = self.sock.makefile('r')
        self._read()  # the greeting
        self.execute('qmp_capabilities')

    def _read(self):
        line = self.reader.readline()
        if not line:
            raise QMPError('QEMU closed its QMP socket')
        return json.loads(line)

    def execute(self, command, fd=None, **arguments):
        """Run COMMAND; return its answer, skipping the events between.
        FD, if given, rides with the command (SCM_RIGHTS), as getfd
        wants it."""
        msg = {'execute': command}
        if arguments:
            msg['arguments'] = arguments
        data = [json.dumps(msg).encode() + b'\n']
        ancillary = [] if fd is None else \
            [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array('i', [fd]))]
        try:
            self.sock.sendmsg(data, ancillary)
        except OSError as e:
            raise QMPError('QEMU closed its QMP socket (%s)' % e) from e
        while True:
            answer = self._read()
            if 'return' in answer:
                return answer['return']
            if 'error' in answer:
                raise QMPError('%s: %s' % (command, answer['error'].get('desc', answer)))

    def send_fd(self, fd, name):
        """Hand QEMU the descriptor FD as NAME: "fd:NAME" then migrates
        through it."""
        self.execute('getfd', fd=fd, fdname=name)

    def wait_migration(self, timeout=120):
        """Wait until the outgoing or incoming migration completes."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            status = self.execute('query-migrate').get('status')
            if status == 'completed':
                return
            if status in ('failed', 'cancelled'):
                raise QMPError('migration %s' % status)
            time.sleep(POLL)
        raise QMPError('migration did not complete within %d s' % timeout)

    def set_timeout(self, seconds):
        """Each later read or command waits at most SECONDS (None: no
        limit) for QEMU's answer."""
        self.sock.settimeout(seconds)

    def wait_event(self, names, deadline):
        """The next event named in NAMES (its message), or None when
        DEADLINE (time.monotonic(); None: no limit) came first; QMPError
        when QEMU closed the socket (it exited)."""
        while True:
            if deadline is None:
                self.set_timeout(None)
            else:
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.set_timeout(left)
            try:
                msg = self._read()
            except (socket.timeout, TimeoutError):
                return None
            if msg.get('event') in names:
                return msg

    def close(self):
        # The reader holds the socket open too: both go.
        for f in (self.reader, self.sock):
            try:
                f.close()
            except OSError:
                pass

