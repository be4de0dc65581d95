# SPDX-License-Identifier: GPL-2.0
import contextlib
import io
import os
import tempfile
import threading
import time
import unittest

from pcengine import waiting


class Waiting(unittest.TestCase):
    def test_a_waiter_says_whom_it_waits_for(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, 'rel.lock')
            err = io.StringIO()
            got = threading.Event()
            with open(path, 'a+') as holder:
                waiting.take(holder, 'building the debug kernel')

                def waiter():
                    with open(path, 'a+') as f:
                        waiting.take(f, 'the next run')
                        got.set()
                with contextlib.redirect_stderr(err):
                    t = threading.Thread(target=waiter)
                    t.start()
                    # The waiter's line comes before the lock is free.
                    for _ in range(200):
                        if 'waiting for' in err.getvalue():
                            break
                        time.sleep(0.01)
                    self.assertFalse(got.is_set())
            t.join()
            self.assertTrue(got.is_set())
            self.assertRegex(err.getvalue(),
                             r'^# waiting for another run to finish with rel.lock \(PID %d, '
                             r'since [0-9:]{8}, building the debug kernel\)\n' % os.getpid())
            with open(path) as f:
                self.assertRegex(f.read(), r'^%d [0-9]+ the next run\n$' % os.getpid())

    def test_a_long_step_says_it_goes_on(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            with waiting.still('building provoke_crash', every=0.05):
                time.sleep(0.3)
        self.assertRegex(err.getvalue(), r'^# still building provoke_crash \(0 s\)\n')
        lines = err.getvalue().splitlines()
        time.sleep(0.2)
        self.assertEqual(err.getvalue().splitlines(), lines)


if __name__ == '__main__':
    unittest.main()
