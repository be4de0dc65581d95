# SPDX-License-Identifier: GPL-2.0
"""The dump is usable, not only present (make check-long: PC_KDUMP_CRASH=1).

For a sample of crashes on each x86-64 Debian kernel of the run, the
capture kernel keeps its dump on a disk (kdumppack.py), and the crash
utility (8.0.6, built once: kdumppack.crash_tool), with the vmlinux of Debian's
-dbg package (283 MB for 6.1, 318 MB for 6.12, kept in
~/.cache/provoke-crash/dbg), must show in bt of the panicking task the
crash routine and, for a crash point, the probed function.

``python3 -m pcengine.kdumpcrash kdump-crash`` is the scheduler's
kdump-crash step; it writes RESULTS/kdump-crash.result.
"""

import os
import re
import shlex
import subprocess
import sys
import traceback

from . import SetupError, accel, guest, kdumppack, scope
from .console import lines_of, read_log
from .initramfs import pack_cpio
from .kernels import Host, fill_case, out_of

# NAME, the command that crashes (@sys@NAME is the system call's entry,
# as in the cases) and the EREs bt must show.  pc_crash_panic ends in its
# call of panic(), which never returns: the return address on the stack
# is past its end, and crash names the frame above, the dispatcher
# pc_crash_run_at, as the kernel's own unwinder does with a "?".  A routine
# that faults shows as crash's "exception RIP" line.  At an entry point
# crash's unwinder gets to ftrace's callback (pc_entry_eligible); past
# ftrace's trampoline, which has no ORC data, it scans the stack: the
# probed function may be missing there (it was on 6.1: crash named stale
# frames instead), the system call's entry frame is not.
SAMPLES = (
    ('panic', 'pc-guest write $D/panic 1', 'pc_crash_run_at panic'),
    ('null_dereference', 'pc-guest write $D/null_dereference 1', 'pc_crash_null_dereference'),
    ('point_null_dereference', "pc-guest write $D/crashpoints '@sys@getppid null_dereference'; "
     'pc-guest hit getppid 1', 'pc_crash_null_dereference pc_entry_eligible entry_SYSCALL_64'),
)


class Check:
    """The step: where it writes, the run's kernels, crash."""

    def __init__(self, env):
        self.out = out_of(env)
        self.env = dict(env, PC_OUT=self.out)
        self.results = os.path.join(self.out, 'results')
        self.host = Host(self.env)

    def case(self, series, rel, sample, crash):
        """One guest, one dump, one bt: the sample's KTAP lines."""
        name, cmd, frames = sample
        host = self.host
        cmd, frames = (fill_case(host.rel_arch(rel), x.encode()).decode() for x in (cmd, frames))
        d = os.path.join(self.results, 'kdump-crash-%s-%s' % (series, name))
        test = 'kdump-crash/%s/%s' % (series, name)
        os.makedirs(os.path.join(d, 'cases'), exist_ok=True)
        with open(os.path.join(d, 'cases', 'kc_%s.sh' % name), 'w') as f:
            f.write(cmd + '\n')
        vmlinux = kdumppack.dbg_vmlinux(host, rel)
        if not vmlinux:
            return ['not ok ' + test,
                    '# no vmlinux-%s: apt-get download linux-image-%s-dbg failed' % (rel, rel)]
        initrd = os.path.join(d, 'initramfs-kdump.cpio')
        pack_cpio(d, os.path.join(d, 'cases.cpio'), top='cases')
        kdumppack.initrd(host, rel, initrd, [os.path.join(self.out, rel, 'initramfs.cpio'),
                                             os.path.join(d, 'cases.cpio')])
        disk = shlex.join(kdumppack.disk(os.path.join(d, 'disk.img')))
        # PC_TIMEOUT's time limit, as its guests are Debian's.
        guest.run(guest.options([
            'run', '--arch', 'amd64', '--accel', accel.pick(self.env)[0],
            '--kernel', '%s/boot/vmlinuz-%s' % (host.rel_root(rel), rel), '--initrd', initrd,
            '--append=%s oops=panic' % kdumppack.cmdline(host, rel, disk=True),
            '--qemu-extra=' + disk, '--case', 'kc_' + name,
            '--console', os.path.join(d, 'console'), '--out', os.path.join(d, 'out'),
            '--timeout', self.env.get('PC_TIMEOUT') or '120']))
        why, bt = [], os.path.join(d, 'bt.txt')
        saved = kdumppack.save(os.path.join(d, 'disk.img'), os.path.join(d, 'out'), d)
        if saved:
            why.append('no dump was kept (see %s)' % os.path.join(d, 'out'))
        else:
            with open(bt, 'wb') as f:
                subprocess.run([crash, '-s', vmlinux, os.path.join(d, 'vmcore')],
                               input=b'bt\nquit\n', stdout=f, stderr=subprocess.STDOUT)
            lines = lines_of(read_log(bt))
            why += ['bt lacks ' + f for f in frames.split()
                    if not any(re.search(f, line) for line in lines)]
        if why:
            return ['not ok ' + test, '# ' + '; '.join(why)] + \
                ['# ' + line for line in lines_of(read_log(bt))[-15:]]
        shown = [line for line in lines_of(read_log(bt))
                 if re.search('|'.join(frames.split()), line)][:4]
        size = os.path.getsize(os.path.join(d, 'vmcore'))
        os.unlink(os.path.join(d, 'vmcore'))
        return ['ok ' + test] + ['#   bt: ' + line for line in shown] + \
            ['#   vmcore: %d bytes' % size]

    def run(self, kernels):
        """Every sample on every x86-64 Debian kernel of KERNELS, each
        sample's lines written as it ends: a sample that fails to run
        fails by name, and the others still run."""
        path = os.path.join(self.results, 'kdump-crash.result')
        with open(path, 'w', encoding='utf-8', errors='surrogateescape') as result:
            def write(lines):
                result.write(''.join(line + '\n' for line in lines))
                result.flush()
            status, crash = self.tools()
            for series in kernels:
                if series in scope.BUILT_KERNELS or series.startswith('arm64-'):
                    continue
                for sample in SAMPLES:
                    test = 'kdump-crash/%s/%s' % (series, sample[0])
                    if status or not os.access(crash, os.X_OK):
                        write(['not ok ' + test, '# ' + crash])
                        continue
                    try:
                        rel = self.host.kernel_release(series)
                        write(self.case(series, rel, sample, crash))
                    except Exception as e:  # noqa: BLE001 - the sample fails, by name
                        traceback.print_exc()
                        why = str(e) if str(e) != 'None' else \
                            'a step failed (its line is in the run log)'
                        write(['not ok ' + test, '# ' + why])

    def tools(self):
        """(status, crash or why not): crash's packages and crash."""
        try:
            self.host.install_deps([], kdumppack.CRASH_PACKAGES)
            path, why = kdumppack.crash_tool(self.env)
        except SetupError as e:
            return 1, "crash's packages could not be installed: %s" % (
                e.args[0] or 'see the run log')
        except OSError as e:
            return 1, 'crash could not be built: %s' % e
        return (0, path) if path else (1, why)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv != ['kdump-crash']:
        sys.exit('usage: python3 -m pcengine.kdumpcrash kdump-crash')
    Check(dict(os.environ)).run((os.environ.get('PC_STEP_KERNELS') or '').split())
    return 0


if __name__ == '__main__':
    sys.exit(main())
