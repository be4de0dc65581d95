# SPDX-License-Identifier: GPL-2.0
"""The VM runner's own cases: tools/provoke-crash-vm run on the host as a
user runs it, its exit status and output checked.

``python3 -m pcengine.vmcases vm-case`` is the scheduler's vm-case step:
the option checks, the completion and the accelerator's cache (no
guest: vmcases_host.py), then the runner's verdicts, each in one guest (a repeat run takes
about 2 s); ``vm-kernel-paths`` is the debug kernel's case, given as an
image and its build tree (run when that kernel is built).  Results go to
RESULTS/vm.result (vm-late.result for the late case), a KTAP line each
with the lines that prove it, or the log's tail.  The step's environment
is the bench's: PC_OUT, PC_CASES, PC_STEP_KERNELS, PC_KDUMP_CRASH.
"""

import hashlib
import os
import re
import subprocess
import sys

from . import (ROOT, SetupError, builtkernel, kernels, log, scope, vmcases_host, vmcases_tools,
               write_lines)
from .console import lines_of
from .kernels import out_of
from .vmcases_host import RUNNER, missing

# What a passing case shows of its log.
SHOWN_RE = re.compile(r'^\+ |^gdb stub answered|^# the guest waits for gdb|^=== call trace .reliable frames, one|kretprobe.s return address|^# waiting for |^# still |did you mean|write @sys@|hits=|^note: |^  provoke_crash: |^# time|^runs: |^pc-vm# .|^ok 1 ')
REPRO_C = ('#include <stdio.h>\n#include <unistd.h>\nint main(void)\n{\n'
           '\tprintf("repro: %d\\n", (int)getppid());\n\treturn 0;\n}\n')


def shown(name, text):
    """The lines of a passing case's log that prove it."""
    lines = lines_of(text)
    if name in ('bad_options', 'accel_cache', 'json_verdict'):
        return lines
    if name == 'readme_first_command':
        # Its transcript: arm, hit, the oops's first lines, the trace,
        # the pstore record's, the times and the verdict.
        cut = next((i for i, x in enumerate(lines) if '#PF: error_code' in x), len(lines) - 1)
        trace = next((i for i, x in enumerate(lines) if x.startswith('=== call trace')),
                     len(lines))
        return lines[:cut + 1] + ['...'] + lines[trace:]
    seen = []
    for line in lines:
        if SHOWN_RE.search(line) and line not in seen:
            seen.append(line)
    verdicts = [x for x in lines if x.startswith('provoke-crash-vm: ')]
    return seen[:12] + verdicts[-1:]


class Cases:
    """One step's cases: where their logs and results go, which run."""

    def __init__(self, env):
        # PC_OUT as the runner takes it: build/ by default.
        self.out = out_of(env)
        # The bench's root of links for kernels of files, which the
        # runner, under its own PC_OUT, finds there.
        self.env = dict(env, PC_OUT=self.out, PC_KERNEL_ROOTS=env.get('PC_KERNEL_ROOTS')
                        or os.path.join(self.out, 'kernels'))
        self.results = os.path.join(self.out, 'results')
        self.filter = env.get('PC_CASES') or '.'
        self.kernels = (env.get('PC_STEP_KERNELS') or '').split()
        self.result_file = os.path.join(self.results, 'vm.result')
        self.build_dir = os.path.join(self.out, 'vm')

    def wanted(self, name):
        return scope.matches(self.filter, 'vm/' + name)

    def result(self, name, why, text):
        """Its KTAP line, appended to the step's result file."""
        if not why:
            lines = ['ok vm/' + name] + ['#   ' + x for x in shown(name, text)]
        else:
            lines = ['not ok vm/' + name, '# ' + why] + ['# ' + x for x in lines_of(text)[-30:]]
        write_lines(self.result_file, lines, 'a')
        log('done vm/' + name)

    def skip(self, name, why):
        write_lines(self.result_file, ['ok vm/%s # SKIP %s' % (name, why)], 'a')

    def runner_env(self, **more):
        """The runner's environment: its builds and saved guests in the
        bench's tree, apart from the user's cache; MORE besides."""
        return dict(self.env, PC_OUT=self.build_dir,
                    PC_SNAPSHOT_CACHE=os.path.join(self.build_dir, 'snapshots'), **more)

    def runner(self, args, prefix=(), unset=(), **kw):
        """The runner as a user runs it (runner_env()): (status, output)."""
        env = self.runner_env()
        for name in unset:
            env.pop(name, None)
        r = subprocess.run(list(prefix) + [RUNNER] + list(args), env=env, stdin=kw.get('stdin'),
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        return r.returncode, r.stdout.decode('utf-8', 'surrogateescape')

    def check(self, name, want, patterns, *args, **kw):
        """Run the runner with ARGS: it must exit with WANT and print
        every line of PATTERNS."""
        if not self.wanted(name):
            return
        rc, text = self.runner(args, **kw)
        logfile = os.path.join(self.results, 'vm-%s.log' % name)
        with open(logfile, 'w', encoding='utf-8', errors='surrogateescape') as f:
            f.write(text)
        text = text.replace('\r', '')
        with open(logfile + '.txt', 'w', encoding='utf-8', errors='surrogateescape') as f:
            f.write(text)
        why = 'exit status %d, expected %d' % (rc, want) if rc != want else \
            missing(text, patterns)
        self.result(name, why, text)

    def debian_x86(self):
        """The run's Debian x86-64 series."""
        return [s for s in self.kernels
                if not s.startswith('arm64-') and s not in scope.BUILT_KERNELS]

    def guests(self):
        """The README's first command, as a user runs it, then the
        runner's other verdicts, each in one guest."""
        series = self.debian_x86()
        if not series:
            self.skip('readme_first_command', 'no Debian x86-64 series in PC_KERNELS')
            return
        first, other = series[0], series[-1]
        # Without PC_ACCEL, as a user runs it: the accelerator comes from
        # the cache that vm/accel_cache (or the bench) filled.
        picked = r'^# accelerator: (kvm|tcg) \('
        if self.wanted('accel_cache'):
            picked += r'cached: .*, probed [0-9-]+\)$'
        self.check('readme_first_command', 0, picked + r'''
^=== kernel report
provoke_crash: __x64_sys_getppid: null_dereference: 
BUG: kernel NULL pointer dereference
ftrace trampoline
^=== pstore record in ramoops. memory, read by the host after the crash$
^dmesg-ramoops-0: Oops#1 Part1, [0-9]+ lines; it holds the report above
^# guest: restored \(saved guest [0-9a-f]+(, saved now in [0-9.]+ s)?\)
^# time: checks .*, build .*, (save and )?restore .*, crash .*, reset and pstore read .*, total
the kernel crashed as asked: null_dereference, hit by pc-guest\[''',
                   '--kernel', first, '--timing', unset=('PC_ACCEL',))
        # The man page's old example, a false pass: busybox's cat copies
        # with sendfile and never calls vfs_read; the runner's own reading
        # of the counters after the command hits it, and that is not the
        # command's crash.
        self.check('false_pass', 1, r'''^\+ run: cat /proc/version$
^Linux version
^note: not credited: vfs_read bugon hit by the runner.s own shell \(PID 1\) after your command ended
provoke-crash-vm: the kernel survived your command''',
                   '--kernel', other, '--arm', 'vfs_read bugon', '--run', 'cat /proc/version')
        # Two points in one write, one of them refused: neither is armed,
        # the command never runs, and the module's own line says why.  A
        # second run on a series reuses the first one's module build and
        # restores its saved guest: a typo costs a restore, not a boot.
        cached = '^# module: cached$' if self.wanted('readme_first_command') else \
            '^# module: (cached|built)$'
        self.check('arm_refused', 4, r'''no such symbol
^  provoke_crash: crashpoints: pc_no_such_symbol: 
the module refused to arm the points; nothing ran:$
''' + cached + r'''
!^SHOULD-NOT-RUN
!^=== (kernel report|pstore)
^# guest: restored \(saved guest [0-9a-f]+(, saved now in [0-9.]+ s)?\),
^# time: checks [0-9.]+s, build [0-9.]+s, (save and )?restore [0-9.]+s, no crash: run and power-off [0-9.]+s, total''',
                   '--kernel', first, '--arm', '@sys@getppid null_dereference',
                   '--arm', 'pc_no_such_symbol bugon', '--run', 'echo SHOULD-NOT-RUN', '--timing')
        # A typo the host could not check (Debian's System.map is a
        # stub): the guest's kallsyms says what it may have meant.
        self.check('symbol_typo_guest', 4, r'''^  provoke_crash: crashpoints: vfs_reed: no such symbol
^  vfs_reed: did you mean: vfs_read( |\?)''',
                   '--kernel', first, '--arm', 'vfs_reed null_dereference')
        self.check('symbol_sys_guest', 4, r'''^  sys_getppid: the system call's entry here is __x64_sys_getppid: write @sys@getppid$''',
                   '--kernel', first, '--arm', 'sys_getppid null_dereference')
        # A crash through DIRECT, with a point armed elsewhere: the
        # verdict names what was written to DIRECT, and the point is not
        # credited.
        self.check('direct_named', 0, r'''^__x64_sys_sync bugon hits=0 
provoke_crash: DIRECT\(EXCEPTION\): null_dereference: 
the kernel crashed from DIRECT, not at an armed point: EXCEPTION \(null_dereference\), written by [^ ]+\[[0-9]+\]: BUG: kernel NULL pointer dereference
!crashed as asked''',
                   '--kernel', first, '--arm', '@sys@sync bugon',
                   '--run', 'echo EXCEPTION >/sys/kernel/debug/provoke-crash/DIRECT')
        self.file_repro(first)
        # --file at disk speed: 10 MB of random bytes reach a restored
        # guest (on its payload disk: on the command port they did not
        # arrive within the 120 s limit) whole, hashed there as here.
        if self.wanted('file_large'):
            large = os.path.join(self.results, 'vm-large.bin')
            data = os.urandom(10 << 20)
            with open(large, 'wb') as f:
                f.write(data)
            self.check('file_large', 1, r'''^\+ run: sha256sum /root/vm-large.bin$
^%s  /root/vm-large.bin$
^# guest: restored \(saved guest [0-9a-f]+(, saved now in [0-9.]+ s)?\),
the kernel survived''' % hashlib.sha256(data).hexdigest(),
                       '--kernel', first, '--file', large, '--run', 'sha256sum /root/vm-large.bin')
            os.unlink(large)
        vmcases_tools.waits_said(self, first)
        vmcases_tools.json_verdict(self, first)
        vmcases_tools.user_module(self, first)
        vmcases_tools.gdb_stub(self, first)
        # The trace summary at %return names the real caller, on the
        # first and the last x86-64 series: the kernel's own line there
        # names the byte before the kretprobe's trampoline.
        for name, series in (('trace_return', first), ('trace_return_last', other)):
            self.check(name, 5, r'''^=== call trace \(reliable frames, one read from a kretprobe's registers\)$
^  ksys_read  <- 
^  do_syscall_64$
!^  trace_clock''',
                       '--kernel', series, '--arm', 'vfs_read%return report comm=head',
                       '--run', 'head -n 1 /proc/version')
        # A command alone arms nothing: busybox sh calls getppid, and a
        # default point there once crashed a run nobody armed.
        self.check('run_alone', 1, r'''^\+ arm: nothing \(no --arm given\)$
^hi$
the kernel survived$''',
                   '--kernel', first, '--run', 'sh -c "echo hi"')
        # The command's own process arms the points, once PID 1 sleeps:
        # PID 1's fork of it no longer uses up times=1 (issue 42).
        self.check('credit_runner_steps', 5, r'''^kernel_clone report .*fired=1 missed=0
reported as asked, the kernel went on: report, hit by init\[[0-9]+\]$
!^note: not credited''',
                   '--kernel', first, '--arm', 'kernel_clone report times=1',
                   '--run', 'pc-guest hit getppid 1; pc-guest hit getppid 1')
        # A hit in an interrupt is the run's, named by its context, not
        # blamed on the task the interrupt came over.
        self.check('credit_interrupt', 0, r'''provoke_crash: update_process_times: in hardirq context, over [^ ]+\[[0-9]+\] on CPU 0$
the kernel crashed as asked: bugon, hit in hardirq context \(over [^ ]+\[[0-9]+\]\): kernel BUG at
!^note: not credited''',
                   '--kernel', first, '--arm', 'update_process_times bugon times=1',
                   '--run', 'sleep 1')
        # The table's needs on their own: slub_debug for read_after_free,
        # a report that the kernel goes on after (status 5).
        self.check('needs_boot_params', 5, r'''^\+ boot: slub_debug=FZPU$
read_after_free: the freed object reads as poison
reported as asked, the kernel went on: read_after_free''',
                   '--kernel', first, '--trigger', 'read_after_free')
        # A report point that was hit is the run's success (status 5);
        # cpu=1 boots a second vCPU without --smp.
        self.check('report_point', 5, r'''^# cpu= asks for 2 vCPUs$
2 vCPUs
report: hit by pc-guest\[[0-9]+\] on CPU 1
reported as asked, the kernel went on: report''',
                   '--kernel', first, '--arm', '@sys@getppid report cpu=1',
                   '--run', 'taskset -c 1 pc-guest hit getppid 1')
        # A type that needs a second CPU gets one without --smp.  A panic
        # leaves no end marker: the guest's output still ends before the
        # pstore record, which is read once, in its own section; with
        # --pstore-boot by a second boot, as a machine would read it.
        self.check('smp_from_needs', 0, r'''^# panic_stop_irqoff needs a second CPU: 2 vCPUs$
2 vCPUs
^=== pstore record kept across the reboot$
^dmesg-ramoops-0: Panic#1 Part1, [0-9]+ lines; it holds the report above
!^PC-PSTORE-BEGIN
the kernel crashed as asked: panic_stop_irqoff''',
                   '--kernel', first, '--trigger', 'panic_stop_irqoff', '--pstore-boot')
        # --shell driven through a pty: type a command that hits the
        # point.  No --timeout: a shell waits with no limit by default
        # (the pty driver has its own).  The prompt and the typed
        # command's echo are two checks: the kernel may print between.
        self.check('shell_pty', 0, r'''^pc-vm#
^pc-vm# .*pc-guest hit sync 1$|^pc-guest hit sync 1$
BUG: kernel NULL pointer dereference
__x64_sys_sync null_dereference .*fired=1
^=== pstore record in ramoops. memory, read by the host after the crash$
the kernel crashed as asked: null_dereference, hit by pc-guest\[''',
                   '--kernel', first, '--shell', '--arm', '@sys@sync null_dereference',
                   prefix=(sys.executable, os.path.join(ROOT, 'tests', 'vm-shell-drive.py'),
                           '240', '--'))
        self.kdump(first)
        self.check('timed_out', 3, r'''^\+ run: sleep 600
provoke-crash-vm: timed out after 20s$''',
                   '--kernel', first, '--arm', '@sys@getpgid report', '--run', 'sleep 600',
                   '--timeout', '20')
        self.bench_kernel_files(first)

    def file_repro(self, series):
        """A reproducer built here, copied in with --file; the command,
        with a $(...), runs once, as given; two vCPUs on request."""
        repro = os.path.join(self.results, 'vm-repro')
        with open(repro + '.c', 'w') as f:
            f.write(REPRO_C)
        if subprocess.run(['gcc', '-static', '-O2', '-o', repro, repro + '.c']).returncode:
            write_lines(self.result_file, ['not ok vm/file_repro # gcc -static failed'], 'a')
            return
        self.check('file_repro', 0, r'''^\+ run: echo x >>/tmp/n; echo "runs: \$\(wc -l </tmp/n\)"; /root/vm-repro$
^runs: 1$
2 vCPUs
^__x64_sys_getppid null_dereference .*comm=vm-repro .*fired=1
the kernel crashed as asked: null_dereference, hit by vm-repro\[''',
                   '--kernel', series, '--file', repro, '--smp', '2',
                   '--arm', '@sys@getppid null_dereference comm=vm-repro',
                   '--run', 'echo x >>/tmp/n; echo "runs: $(wc -l </tmp/n)"; /root/vm-repro')

    def kdump(self, series):
        """--kdump: the capture kernel reads the crash from the dump, and
        the dump, the log read from it and the timing are kept; an oops
        in NMI context goes straight to the capture kernel, and the
        verdict is the dump's."""
        keep = os.path.join(self.results, 'vm-kdump-keep')
        self.check('kdump', 0, r'''BUG: kernel NULL pointer dereference
^=== kdump capture
^kdump: panic to capture kernel start [0-9.]+ s .*, dump [0-9.]+ MB
^saved in .*/vm-kdump-keep: vmcore \([1-9][0-9]+ bytes\), vmcore-dmesg.txt, capture.txt
kdump captured the crash: the log read from the dump shows null_dereference''',
                   '--kernel', series, '--kdump', '--keep', keep)
        nmi = os.path.join(self.results, 'vm-kdump-nmi-keep')
        self.check('kdump_nmi', 0, r'''^note: the console shows no crash of yours; the verdict reads the log from the dump
the kernel crashed as asked: oops_nmi_context
kdump captured the crash: the log read from the dump shows oops_nmi_context
!the kernel survived''',
                   '--kernel', series, '--kdump', '--trigger', 'oops_nmi_context', '--keep', nmi)
        # --bt opens the dump with crash and the -dbg vmlinux: check-long
        # only (PC_KDUMP_CRASH=1), as it builds crash once and fetches
        # 283 MB.
        bt = os.path.join(self.results, 'vm-kdump-bt-keep')
        if self.env.get('PC_KDUMP_CRASH') == '1':
            self.check('kdump_bt', 0, r'''^=== bt of the task that crashed
exception RIP: pc_crash_null_dereference
#[0-9]+ .* pc_entry_eligible
kdump captured the crash: the log read from the dump shows null_dereference''',
                       '--kernel', series, '--kdump', '--bt', '--keep', bt)
        # A kdump-compressed file starts with the signature "KDUMP   ".
        vmcore = os.path.join(keep, 'vmcore')
        if os.path.exists(vmcore):
            with open(vmcore, 'rb') as f:
                if f.read(8) != b'KDUMP   ':
                    write_lines(self.result_file,
                           ['not ok vm/kdump_vmcore_format # vmcore has no kdump signature'],
                           'a')
        for d in (keep, nmi, bt):
            if os.path.exists(os.path.join(d, 'vmcore')):
                os.unlink(os.path.join(d, 'vmcore'))

    def bench_kernel_files(self, series):
        """The bench itself on a kernel given as files (PC_KERNELS=
        IMAGE:TREE), as a developer runs it on their own build: here
        SERIES' Debian image and headers named by path, one case, in a
        bench of its own (its own build directory and root of links)."""
        if not self.wanted('bench_kernel_files'):
            return
        rel = kernels.Host(self.env).kernel_release(series)
        if not os.path.isfile('/boot/vmlinuz-' + rel):
            self.skip('bench_kernel_files', 'no /boot/vmlinuz-' + rel)
            return
        out = os.path.join(self.out, 'bench-files')
        env = {k: v for k, v in self.env.items()
               if k not in ('PC_JUNIT', 'PC_KDUMP_CRASH', 'PC_LIST', 'PC_GUEST_CMDLINE')}
        env.update(PC_SHARD='1/1', PC_OUT=out, PC_KERNEL_ROOTS=os.path.join(out, 'kernels'),
                   PC_LINT='0', PC_JOBS='1', PC_CASES='/point_in_path$',
                   PC_KERNELS='/boot/vmlinuz-%s:/usr/src/linux-headers-%s' % (rel, rel))
        r = subprocess.run([os.path.join(ROOT, 'tests', 'run')], env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        text = r.stdout.decode('utf-8', 'surrogateescape')
        with open(os.path.join(self.results, 'vm-bench_kernel_files.log'), 'w',
                  encoding='utf-8', errors='surrogateescape') as f:
            f.write(text)
        lines = lines_of(text)
        why = ''
        if 'ok 1 %s/point_in_path' % rel not in lines:
            why = "no 'ok 1 %s/point_in_path' from PC_KERNELS=IMAGE:TREE" % rel
        elif '1 passed, 0 failed, 0 skipped' not in lines:
            why = "not '1 passed, 0 failed, 0 skipped'"
        else:
            link = os.path.join(out, 'kernels', rel, 'boot', 'vmlinuz-' + rel)
            if not os.path.islink(link) or os.readlink(link) != '/boot/vmlinuz-' + rel:
                why = 'the bench did not take the image from its path'
        self.result('bench_kernel_files', why, text)

    def kernel_paths(self):
        """A kernel given as paths: the debug kernel's image and build
        tree, as its cache holds them (not built here: that takes 13
        minutes).  Its result goes to vm-late.result, its build to
        vm-late/ (it may overlap the other cases)."""
        if not self.debian_x86():
            return
        self.result_file = os.path.join(self.results, 'vm-late.result')
        self.build_dir = os.path.join(self.out, 'vm-late')
        try:
            dbg = builtkernel.cache_dir('debug', self.env)
        except SetupError:
            dbg = None
        if dbg and os.path.isfile(os.path.join(dbg, 'stamp')):
            self.check('kernel_paths', 0, r'''provoke_crash: __x64_sys_getppid: null_dereference: 
Oops: .*KASAN
the kernel crashed as asked: null_dereference''',
                       '--kernel', os.path.join(dbg, 'build/arch/x86/boot/bzImage'),
                       '--kdir', os.path.join(dbg, 'build'), '--timeout', '400')
        elif self.wanted('kernel_paths'):
            self.skip('kernel_paths', 'the debug kernel is not built (make debug-kernel)')


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv not in (['vm-case'], ['vm-kernel-paths']):
        sys.exit('usage: python3 -m pcengine.vmcases vm-case|vm-kernel-paths')
    cases = Cases(dict(os.environ))
    if argv == ['vm-case']:
        vmcases_host.bad_options(cases)
        vmcases_host.accel_cache(cases)
        cases.guests()
    else:
        cases.kernel_paths()
    return 0


if __name__ == '__main__':
    sys.exit(main())
