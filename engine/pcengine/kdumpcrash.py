# SPDX-License-Identifier: GPL-2.0
"""The dump is usable, not only present (make check-long: PC_KDUMP_CRASH=1).

For a sample of crashes on each x86-64 Debian kernel of the run, the
capture kernel keeps its dump on a disk (tools/pc-kdump.sh), and the crash
utility (8.0.6, built once: pc_crash_tool), with the vmlinux of Debian's
-dbg package (283 MB for 6.1, 318 MB for 6.12, kept in
~/.cache/provoke-crash/dbg), must show in bt of the panicking task the
crash routine and, for a crash point, the probed function.

``python3 -m pcengine.kdumpcrash kdump-crash`` is the scheduler's
kdump-crash step; it writes RESULTS/kdump-crash.result.
"""

import os
import re
import subprocess
import sys
import traceback

from . import guest, scope
from .console import lines_of, read_log
from .runsetup import out_of
from .vm_shell import SetupError, bench_step as shell, sed

# NAME, the command that crashes (@sys@NAME is the system call's entry,
# as in the cases) and the EREs bt must show.  pc_crash_panic ends in its
# call of panic(), which never returns: the return address on the stack
# is past its end, and crash names the frame above, the dispatcher
# pc_crash_run, as the kernel's own unwinder does with a "?".  A routine
# that faults shows as crash's "exception RIP" line.  At an entry point
# crash's unwinder gets to ftrace's callback (pc_entry_eligible); past
# ftrace's trampoline, which has no ORC data, it scans the stack: the
# probed function may be missing there (it was on 6.1: crash named stale
# frames instead), the system call's entry frame is not.
SAMPLES = (
    ('panic', 'pc-guest write $D/panic 1', 'pc_crash_run panic'),
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

    def facts(self, rel):
        """The release's case sed script, time limit (PC_TIMEOUT's, as
        its guests are Debian's), kdump boot line, accelerator and kernel,
        from the shell."""
        lines = shell(self.env, '''printf '%s\\n' "$(pc_case_sed "$1")" "${PC_TIMEOUT:-120}" \\
	"$(pc_kdump_cmdline "$1" disk)" "$(pc_accel)" "$(pc_rel_root "$1")/boot/vmlinuz-$1" end''',
                      rel).split('\n')
        if len(lines) != 6:
            raise SetupError('the shell said %d lines of %s, not 6' % (len(lines), rel))
        return lines[:5]

    def case(self, series, rel, sample, crash):
        """One guest, one dump, one bt: the sample's KTAP lines."""
        name, cmd, frames = sample
        case_sed, timeout, append, accel, kernel = self.facts(rel)
        cmd, frames = (sed(case_sed, x.encode() + b'\n').decode().strip() for x in (cmd, frames))
        d = os.path.join(self.results, 'kdump-crash-%s-%s' % (series, name))
        test = 'kdump-crash/%s/%s' % (series, name)
        os.makedirs(os.path.join(d, 'cases'), exist_ok=True)
        with open(os.path.join(d, 'cases', 'kc_%s.sh' % name), 'w') as f:
            f.write(cmd + '\n')
        status, vmlinux = shell(self.env, 'pc_dbg_vmlinux "$1"', rel, check=False)
        if status:
            return ['not ok ' + test,
                    '# no vmlinux-%s: apt-get download linux-image-%s-dbg failed' % (rel, rel)]
        initrd = os.path.join(d, 'initramfs-kdump.cpio')
        with open(os.path.join(d, 'cases.cpio'), 'wb') as f:
            subprocess.run('find cases | cpio -o -H newc --quiet', shell=True, cwd=d, stdout=f,
                           check=True)
        disk = shell(self.env, '''pc_kdump_initrd "$1" "$2/initramfs-kdump.cpio" \\
	"$PC_OUT/$1/initramfs.cpio" "$2/cases.cpio" || exit 1
pc_kdump_disk "$2/disk.img"''', rel, d)
        guest.run(guest.options([
            'run', '--arch', 'amd64', '--accel', accel, '--kernel', kernel, '--initrd', initrd,
            '--append=%s oops=panic' % append, '--qemu-extra=' + disk,
            '--case', 'kc_' + name, '--console', os.path.join(d, 'console'),
            '--out', os.path.join(d, 'out'), '--timeout', timeout]))
        why, bt = [], os.path.join(d, 'bt.txt')
        saved, _ = shell(self.env, 'pc_kdump_save "$@"', os.path.join(d, 'disk.img'),
                         os.path.join(d, 'out'), d, check=False)
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
                        rel = shell(self.env, 'pc_kernel_release "$1"', series)
                        write(self.case(series, rel, sample, crash))
                    except Exception as e:  # noqa: BLE001 - the sample fails, by name
                        traceback.print_exc()
                        why = str(e) if str(e) != 'None' else \
                            'a step of the shell failed (its line is in the run log)'
                        write(['not ok ' + test, '# ' + why])

    def tools(self):
        """(status, crash or why not): crash's packages and crash."""
        try:
            shell(self.env, 'PC_EXTRA_PACKAGES=$PC_CRASH_PACKAGES pc_install_deps >&2')
        except SetupError:
            return 1, "crash's packages could not be installed (see the run log)"
        return shell(self.env, 'pc_crash_tool', check=False)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv != ['kdump-crash']:
        sys.exit('usage: python3 -m pcengine.kdumpcrash kdump-crash')
    Check(dict(os.environ)).run((os.environ.get('PC_STEP_KERNELS') or '').split())
    return 0


if __name__ == '__main__':
    sys.exit(main())
