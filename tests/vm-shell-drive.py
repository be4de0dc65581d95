#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
# vm-shell-drive.py TIMEOUT -- COMMAND...: run COMMAND (provoke-crash-vm
# --shell) on a pseudo-terminal as a user at a terminal would: at the
# guest's prompt type a command that hits the armed point (sync), wait
# for the oops, type exit.  Everything COMMAND printed goes to stdout;
# the exit status is COMMAND's (137 when it had to be killed).
import os
import pty
import select
import sys
import time

limit = float(sys.argv[1])
argv = sys.argv[3:] if sys.argv[2] == "--" else sys.argv[2:]
pid, fd = pty.fork()
if pid == 0:
    os.execvp(argv[0], argv)
steps = [(b"pc-vm# ", b"pc-guest hit sync 1\r"),
         (b"BUG: kernel NULL pointer", None),
         (b"pc-vm# ", b"exit\r")]
buf, pos, end = b"", 0, time.time() + limit
while time.time() < end:
    ready, _, _ = select.select([fd], [], [], 0.5)
    if ready:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        buf += data
    if steps:
        at = buf.find(steps[0][0], pos)
        if at >= 0:
            pos = at + len(steps[0][0])
            if steps[0][1]:
                time.sleep(0.3)
                os.write(fd, steps[0][1])
            steps.pop(0)
sys.stdout.buffer.write(buf)
if time.time() >= end:
    os.kill(pid, 9)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status) if os.WIFEXITED(status) else 137)
