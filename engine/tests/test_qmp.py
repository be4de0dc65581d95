# SPDX-License-Identifier: GPL-2.0
"""The QMP client (pcengine.qmp) against a small fake QEMU monitor on a
Unix socket: the greeting, the capabilities, answers with events between
them, errors, a migration's states and a QEMU that went away."""

import json
import os
import socket
import tempfile
import threading
import unittest

from pcengine import qmp


class Proc:
    """What QMP() asks of QEMU's process: whether it ended."""

    def __init__(self, code=None):
        self.returncode = code

    def poll(self):
        return self.returncode


def serve(path, replies):
    """Accept one client, greet it, and answer each command it sends with
    the next of REPLIES (a list of JSON lines), or with what REPLIES (a
    function of the command and the connection's file) writes itself,
    until it returns False; record what the client sent."""
    got = []
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(1)

    def run():
        conn, _ = srv.accept()
        f = conn.makefile('rw')
        f.write(json.dumps({'QMP': {'version': {}}}) + '\n')
        f.flush()
        queue = None if callable(replies) else list(replies)
        while queue is None or queue:
            line = f.readline()
            if not line:
                break
            got.append(json.loads(line))
            if queue is not None:
                f.write(queue.pop(0))
            elif not replies(got[-1], f):
                break
            f.flush()
        conn.close()
        srv.close()

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return got, t


def ok(value=None):
    return json.dumps({'return': value if value is not None else {}}) + '\n'


class Client(unittest.TestCase):
    def test_answers_skip_events_and_errors_raise(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, 'qmp')
            event = json.dumps({'event': 'STOP'}) + '\n'
            got, t = serve(path, [ok(), event + ok({'status': 'running'}),
                                  json.dumps({'error': {'desc': 'no such command'}}) + '\n'])
            mon = qmp.QMP(path, Proc())
            self.assertEqual(mon.execute('query-status'), {'status': 'running'})
            with self.assertRaisesRegex(qmp.QMPError, 'frob: no such command'):
                mon.execute('frob', x=1)
            mon.close()
            t.join(5)
            self.assertEqual(got, [{'execute': 'qmp_capabilities'},
                                   {'execute': 'query-status'},
                                   {'execute': 'frob', 'arguments': {'x': 1}}])

    def test_a_migration_is_waited_for_and_a_failed_one_raises(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, 'qmp')
            _, t = serve(path, [ok(), ok({'status': 'active'}), ok({'status': 'completed'}),
                                ok({'status': 'failed'})])
            mon = qmp.QMP(path, Proc())
            mon.wait_migration(5)
            with self.assertRaisesRegex(qmp.QMPError, 'migration failed'):
                mon.wait_migration(5)
            mon.close()
            t.join(5)

    def test_a_closed_monitor_raises(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, 'qmp')
            _, t = serve(path, [ok()])
            mon = qmp.QMP(path, Proc())
            t.join(5)
            with self.assertRaisesRegex(qmp.QMPError, 'closed its QMP socket'):
                mon.execute('stop')

    def test_qemu_that_exits_before_its_socket_is_named(self):
        with tempfile.TemporaryDirectory() as tmp:
            with self.assertRaisesRegex(qmp.QMPError, r'exited \(status 1\)'):
                qmp.QMP(os.path.join(tmp, 'none'), Proc(1), timeout=5)


if __name__ == '__main__':
    unittest.main()
