# SPDX-License-Identifier: GPL-2.0
"""provoke-crash-vm: provoke a crash in a throw-away QEMU guest.

Boots (or restores, once saved) a Debian cloud kernel (or one you built)
with the freshly built module and a busybox userland, arms crash points
(or fires a trigger), runs the user's command inside to hit the path,
then prints the kernel's report and the pstore record that ramoops kept
in the guest's RAM.  The host kernel is never touched.

tools/provoke-crash-vm runs main().  The command line and its checks are
vm_args; the guest is guest.run's; the report and the verdict are
runner_report's and runner_verdict's; kdump's verdict is vm_kdump's.
The release and its cached builds are vm_build's; the kernels, the
module's build, the initramfs and kdump's pieces are shared with the
bench: kernels, build, initramfs, kdumppack.

The run's files are in one work directory, as runner_verdict reads them
(console.log, out.log, table, events, how, root/: this run's part of the
initramfs); it goes when the run ends.
"""

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import traceback

from . import (ROOT, SetupError, accel, cache_of, cases, console, guest, initramfs, kernels,
               log, runner_json, runner_verdict, vm_args, vm_build, vm_kdump, vm_symbols,
               waiting)
from .runner_verdict import SETUP
from .vm_io import read, say

class Watcher(threading.Thread):
    """The host's times of the guest's milestones, for the timing line:
    the start marker and the first crash line after it (the kernel's
    words for it, not the hit: a lockup is reported seconds after)."""

    def __init__(self, console_log, events, gdb=False):
        super().__init__(daemon=True)
        self.console_log, self.events, self.gdb = console_log, events, gdb
        self.done = threading.Event()
        open(events, 'w').close()

    def _note(self, name):
        with open(self.events, 'a') as f:
            f.write('%s %.9f\n' % (name, time.time()))

    def run(self):
        """The console read on from where the last look ended, a whole
        line at a time, every 0.2 s."""
        begun, crashed, offset, partial = False, False, 0, b''
        while not self.done.wait(0.2):
            try:
                with open(self.console_log, 'rb') as f:
                    f.seek(offset)
                    data = f.read()
            except OSError:
                continue
            offset += len(data)
            *lines, partial = (partial + data).split(b'\n')
            for line in map(console.text_of, lines):
                if not begun and 'PC-RUN-BEGIN' in line:
                    self._note('begin')
                    begun = True
                if begun and not crashed and console.FATAL_RE.search(line):
                    self._note('crash')
                    crashed = True
                    if not self.gdb:
                        return
                # --gdb: say when the guest is there for the debugger.
                if self.gdb and ('PC-GDB-WAIT' in line or 'Kernel panic - not syncing' in line):
                    log('the guest waits for gdb: %s; Ctrl-C ends the run'
                        % ('its run is over' if 'PC-GDB-WAIT' in line else
                           'it stays in its panic (panic=0)'))
                    return


def needs(o, r, table, types, cpus):
    """What the types ask of the guest: its boot line and vCPUs, and the
    notes that say so."""
    words, smp, notes = [], 1, []
    for name in types:
        fields = table[name]
        n = cases.needs_of(r.kernel, fields[4] if len(fields) > 4 else '')
        words += [w for w in n.boot.split() if w not in words]
        if n.smp > smp:
            smp = n.smp
            notes.append('%s needs a second CPU: 2 vCPUs' % name)
        features = [w[4:] for w in (fields[4] if len(fields) > 4 else '').split()
                    if w.startswith('cpu:')]
        if features:
            notes.append("%s needs the CPU's %s: QEMU's -cpu max has it"
                         % (name, ' '.join(features)))
        if n.missing:
            notes.append('%s lacks%s, which %s needs: its crash may not be seen'
                         % (r.rel, n.missing, name))
    if cpus > smp:
        smp = cpus
        notes.append('cpu= asks for %d vCPUs' % cpus)
    return '%s %s' % (' '.join(words), o.boot), smp, notes


def write_root(o, r, work):
    """This run's files for the guest: the script, the points, the
    trigger, the command (in a file, so that it runs once, as given),
    the files given with --file (their size vm_args checked)."""
    root = os.path.join(work, 'root')
    os.makedirs(os.path.join(root, 'cases'))
    os.makedirs(os.path.join(root, 'pc'))
    shutil.copy(os.path.join(ROOT, 'guest', 'vm.sh'), os.path.join(root, 'cases', 'vm.sh'))
    arms = kernels.fill_case(r.arch, ''.join(a + '\n' for a in o.arms).encode()).decode()
    files = {'arm': arms, 'trigger': o.trigger + '\n' if o.trigger else ''}
    if o.gdb:
        files['gdb'] = ''
    if o.run:
        files['run.sh'] = o.run + '\n'
    if o.shell:
        files['shell'] = ''
    for name, text in files.items():
        with open(os.path.join(root, 'pc', name), 'w') as f:
            f.write(text)
    for spec in o.files:
        host, sep, where = spec.partition(':')
        where = where if sep else '/root/' + os.path.basename(host)
        os.makedirs(root + os.path.dirname(where), exist_ok=True)
        try:
            shutil.copy2(host, root + where)
        except OSError as e:
            raise SetupError('--file %s: %s' % (spec, e.strerror))
        log('file: %s -> %s' % (host, where))
    return arms


def vermagic(path):
    """The release a module file was built for: the first word of its
    .modinfo's vermagic=, or None."""
    with open(path, 'rb') as f:
        data = f.read()
    at = data.find(b'\0vermagic=')
    if at < 0:
        return None
    value = data[at + len(b'\0vermagic='):data.find(b'\0', at + 1)]
    return value.split(b' ', 1)[0].decode('ascii', 'replace')


def user_modules(o, r):
    """--module FILE.ko: built for R's release (its vermagic), carried
    as a run's file to /pc/modules, which the guest loads in order."""
    for i, m in enumerate(o.modules):
        built = vermagic(m)
        if built != r.rel:
            raise vm_args.UsageError("--module '%s': built for %s, and the guest runs %s"
                                     % (m, built or 'no kernel (no vermagic)', r.rel))
        o.files.append('%s:/pc/modules/%02d-%s' % (m, i, os.path.basename(m)))


def gdb_port(env):
    return env.get('PC_GDB_PORT') or '1234'


def gdb_port_free(env):
    """--gdb's port, checked free before QEMU takes it: QEMU would exit at
    once, and the run would look like a guest that did nothing."""
    with socket.socket() as s:
        try:
            s.bind(('127.0.0.1', int(gdb_port(env))))
        except (OSError, ValueError) as e:
            raise SetupError('--gdb: 127.0.0.1:%s: %s (PC_GDB_PORT picks another port)'
                             % (gdb_port(env), getattr(e, 'strerror', None) or e))


def gdb_line(env, r):
    """What --gdb says before the guest starts: where its stub listens,
    and the vmlinux with symbols if --bt fetched it."""
    vmlinux = os.path.join(cache_of(env), 'dbg', 'vmlinux-' + r.rel)
    sym = vmlinux if os.path.isfile(vmlinux) else \
        'VMLINUX (with symbols: --kdump --bt fetches Debian\'s -dbg once)'
    return ("+ gdb: QEMU's stub on 127.0.0.1:%s: gdb %s -ex 'target remote 127.0.0.1:%s'; "
            'the guest stays up after the command; Ctrl-C ends the run' % (gdb_port(env), sym,
                                                                           gdb_port(env)))


@contextlib.contextmanager
def gdb_session():
    """Ctrl-C ends QEMU (its own handler), not the runner: the report
    and the verdict follow, from what the guest printed."""
    old = signal.signal(signal.SIGINT, lambda signum, frame: None)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def boot_line(extra):
    """The boot line as shown: spaces squeezed, ends trimmed."""
    return ' '.join(extra.split())


def guest_options(o, r, work, env, boot, smp, pstore, timeout, qemu_extra):
    """guest.run's options for this run."""
    extra, opts = boot, []
    if pstore != '0':
        extra += ' ' + r.ramoops
        if r.ramoops_builtin:
            extra += ' ' + r.ramoops_params
    if pstore == 'ram':
        opts += ['--read-ramoops', r.ramoops_region]
    elif pstore == '1':
        extra += ' panic=1'
    # --gdb boots: one QEMU, the run's, holds the stub (a save's guest would too).
    restore = not o.shell and not o.kdump and not o.gdb and \
        (env.get('PC_SNAPSHOT') or '1') == '1'
    if restore:
        cache = env.get('PC_SNAPSHOT_CACHE') or os.path.join(cache_of(env), 'vm-snapshots')
        opts += ['--initrd', os.path.join(env['PC_OUT'], r.rel, 'initramfs-base.cpio'),
                 '--payload', os.path.join(work, 'run.cpio'), '--dir', cache,
                 '--keep-saves', '8', '--fresh-boot=' + env.get('PC_FRESH_BOOT', '')]
    else:
        opts += ['--initrd', os.path.join(work, 'initrd')]
        if o.shell:
            opts.append('--stdio')
    return guest.options([
        'run', '--arch', r.arch, '--accel', 'tcg' if r.arch == 'arm64' else env['PC_ACCEL'],
        '--smp', str(smp), '--pstore', '1' if pstore == '1' else '0',
        '--kernel', '%s/boot/vmlinuz-%s' % (r.root, r.rel), '--append=' + extra,
        '--qemu-extra=' + qemu_extra, '--case', 'vm',
        '--console', os.path.join(work, 'console.log'), '--out', os.path.join(work, 'out.log'),
        '--timeout', str(timeout), '--how', os.path.join(work, 'how'), *opts])


def environment():
    """The run's environment, with PC_OUT made absolute (its builds, and
    --kdump's default folder, under build/vm: apart from the bench's
    build/RELEASE, which the bench rebuilds with more in it)."""
    env = dict(os.environ)
    env['PC_OUT'] = os.path.abspath(env.get('PC_OUT') or os.path.join(ROOT, 'build', 'vm'))
    return env


def pick_accel(env, r):
    if r.arch == 'arm64':
        return 'tcg', 'an arm64 guest is emulated'
    return accel.pick(env)


def run(argv, program, work, t0, seen):
    """The run; its exit status.  SEEN gets the options (o), the release
    (r) and kdump's folder (kdump) once known, for --json."""
    o = seen['o'] = vm_args.parse(argv)
    if o.help:
        sys.stdout.write(vm_args.USAGE_TEXT)
        return 0
    vm_args.check_conflicts(o, os.isatty(0))
    vm_args.check_kernel(o)
    arch = vm_args.series_arch(o.series)
    env = environment()
    # Types against the table, by the tool built for the host.
    tool = vm_build.host_tool(env['PC_OUT'])
    if o.list_types:
        return subprocess.run([tool, 'types', '--arch', arch]).returncode
    table_file = os.path.join(work, 'table')
    with open(table_file, 'w') as f:
        if subprocess.run([tool, 'types', '--table', '--arch', arch], stdout=f).returncode:
            raise SetupError('could not read the crash-type table')
    table = runner_verdict.read_table(table_file)
    types, cpus = vm_args.check_points(o, table, arch, program)

    # The release's files (fetched once), then its System.map's
    # answer on the names; from here on a failure is the setup's (6).
    r = seen['r'] = vm_build.Release(env, o.series)
    vm_symbols.check(o, r)
    user_modules(o, r)
    kd = vm_kdump.Kdump(env, r, o, work) if o.kdump else None
    boot, smp, notes = needs(o, r, table, types, cpus)
    smp = int(o.smp) if o.smp else smp
    for n in notes:
        log(n)

    t1 = time.time()
    log('building provoke_crash for %s' % r.rel)
    arms = write_root(o, r, work)
    # The host reads ramoops' record from the stopped guest's memory, or
    # (--pstore-boot) a second boot prints it; kdump keeps none.
    pstore = '1' if o.pstore_boot else 'ram'
    qemu_extra = env.get('PC_QEMU_EXTRA', '')
    if o.gdb:
        gdb_port_free(env)
        qemu_extra += ' -gdb tcp:127.0.0.1:%s' % gdb_port(env)
        # A panic stays where it happened, for the debugger.
        boot += ' panic=0'
    # What is built under OUT/REL, to the guest's initrd in WORK.
    with vm_build.release_lock(env['PC_OUT'], r.rel):
        with waiting.still('building provoke_crash for ' + r.rel):
            log('module: %s' % vm_build.build_cached(env['PC_OUT'], r))
        vm_build.pack_initrd(env['PC_OUT'], r, work)
        if kd:
            boot, qemu_extra = kd.prepare(boot, qemu_extra)
            pstore = '0'
    if o.gdb:
        # No reset comes (panic=0) for the host to read ramoops at.
        pstore = '0'
    if pstore != '0':
        why = initramfs.ramoops_absent(r.host, r.rel)
        if why:
            log('no pstore record can be kept: ' + why)
    t2 = time.time()

    env['PC_ACCEL'], why = pick_accel(env, r)
    log('accelerator: %s (%s)' % (env['PC_ACCEL'], why))
    timeout = int(o.timeout) if o.timeout else (
        240 if kd and r.arch == 'arm64' else 0 if o.shell or o.gdb else 120)
    say('=== in the guest (%s, %s, %d vCPU%s)' % (r.rel, env['PC_ACCEL'], smp,
                                                  's' if smp > 1 else ''))
    for line in arms.splitlines():
        say('+ arm: ' + line)
    if not arms.strip() and not o.trigger:
        say('+ arm: nothing (no --arm given)')
    if o.trigger:
        say('+ trigger: ' + o.trigger)
    if o.run:
        say('+ run: ' + o.run)
    if o.shell:
        say("+ shell on the console ('exit' ends it, Ctrl-A x kills the guest)")
    if o.gdb:
        say(gdb_line(env, r))
    if boot.strip():
        say('+ boot: ' + boot_line(boot))
    log('starting the guest; timeout %s' % ('%ds' % timeout if timeout else 'none'))
    watcher = Watcher(os.path.join(work, 'console.log'), os.path.join(work, 'events'), o.gdb)
    watcher.start()
    # A guest saved after the module's load, cached per kernel, module
    # build and boot line, serves every run but a shell's (a terminal)
    # and kdump's (a capture kernel in its initramfs); this run's files
    # go to it.
    g = guest_options(o, r, work, env, boot, smp, pstore, timeout, qemu_extra)
    try:
        # Not on a --shell's terminal: the user is typing there.
        with waiting.still('in the guest') if not o.shell else contextlib.nullcontext(), \
                gdb_session() if o.gdb else contextlib.nullcontext():
            rc = guest.run(g) % 256
    finally:
        watcher.done.set()
        watcher.join()
    t3 = time.time()
    log('guest: %s' % (read(os.path.join(work, 'how')) or ''))
    keep_logs(o, work, rc, timeout, (t0, t1, t2, t3))

    # The report, the times and, without --kdump, the verdict.
    opts = ['--kdump'] if kd else []
    if o.timing:
        opts += ['--timing'] + ['%.9f' % t for t in (t0, t1, t2, t3)]
    status = runner_verdict.main(['run', work, str(rc), str(timeout)] + opts)
    if not kd:
        return status
    keep = seen['kdump'] = o.keep or os.path.join(env['PC_OUT'],
                                                  'kdump-' + time.strftime('%Y%m%d-%H%M%S'))
    return kd.verdict(str(rc), str(timeout), keep, table)


def keep_logs(o, work, rc, timeout, times):
    """--keep DIR gets the logs (console.log.restore: a restored guest
    that died before its case).  PCV_KEEP_WORK=DIR gets the work
    directory, as the verdict reads it, with the run's values in args
    (the engine's saved runs, engine/tests/runner)."""
    if o.keep:
        try:
            os.makedirs(o.keep, exist_ok=True)
            for name in ('console.log', 'out.log', 'console.log.restore'):
                if os.path.exists(os.path.join(work, name)):
                    shutil.copy(os.path.join(work, name), o.keep)
        except OSError as e:
            # The verdict still comes.
            log('--keep %s: %s' % (o.keep, e.strerror))
    saved = os.environ.get('PCV_KEEP_WORK')
    if saved:
        with open(os.path.join(work, 'args'), 'w') as f:
            f.write('rc=%s\ntimeout=%s\nkdump=%d\nkeep=%s\n' % (rc, timeout, o.kdump, o.keep))
            f.write(''.join('t%d=%.9f\n' % (i, t) for i, t in enumerate(times)))
        shutil.copytree(work, os.path.join(saved, os.path.basename(work)), symlinks=True,
                        ignore=shutil.ignore_patterns('disk.img', 'initrd', 'run.cpio'))


def _terminated(signum, frame):
    sys.exit(128 + signum)


def attempt(argv, work, t0, seen):
    """The run, its errors said in one line on stderr (kept in SEEN's
    'error' for --json); its exit status."""
    try:
        return run(argv[1:], argv[0], work, t0, seen)
    except vm_args.UsageError as e:
        seen['error'] = str(e)
        status = e.status
    except SetupError as e:
        # An empty reason: the step that failed said it on stderr.
        seen['error'] = e.args[0] if e.args else ''
        status = SETUP
    except (OSError, subprocess.CalledProcessError) as e:
        # A file the setup needs, or a helper that failed: one line.
        seen['error'] = '%s: %s' % (e.filename, e.strerror) \
            if isinstance(e, OSError) and e.strerror else str(e)
        status = SETUP
    if seen['error']:
        print('provoke-crash-vm: %s' % seen['error'], file=sys.stderr)
    return status


def as_json(argv, work, t0, seen):
    """--json: the run with its human lines kept aside (and its helpers'
    standard output sent to stderr), then one JSON object (runner_json)
    on stdout, however the run ended."""
    status, out = SETUP, os.dup(1)
    try:
        with tempfile.TemporaryFile('w+', encoding='utf-8', errors='surrogateescape') as said:
            os.dup2(2, 1)
            try:
                with contextlib.redirect_stdout(said):
                    status = attempt(argv, work, t0, seen)
            except KeyboardInterrupt:
                status, seen['error'] = 130, 'interrupted'
            except SystemExit as e:
                # SIGTERM or SIGHUP (_terminated): 128 + the signal.
                status = e.code if isinstance(e.code, int) else SETUP
                seen['error'] = 'ended by signal %d' % (status - 128)
            except Exception as e:
                traceback.print_exc()
                status, seen['error'] = SETUP, 'internal error: %r' % e
            said.seek(0)
            lines = said.read().splitlines()
    finally:
        os.dup2(out, 1)
        os.close(out)
    if seen.get('error'):
        lines.append('provoke-crash-vm: ' + seen['error'])
    elif status == SETUP and not any(x.startswith('provoke-crash-vm: ') for x in lines):
        lines.append('provoke-crash-vm: setup failed (its reason is on stderr)')
    o, r = seen.get('o'), seen.get('r')
    asked = {'arm': o.arms if o else [], 'trigger': (o.trigger or None) if o else None,
             'run': (o.run or None) if o else None}
    kernel = {'series': o.series, 'release': r.rel,
              'arch': vm_args.series_arch(o.series)} if r else None
    print(runner_json.dumps(runner_json.document(status, lines, asked, kernel, work,
                                                 seen.get('kdump'))))
    return status


def main(argv):
    """ARGV: the program's path and its arguments."""
    t0 = time.time()
    # Ended from outside: the work directory (a kdump disk of 256 MB)
    # goes all the same.
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _terminated)
    work = tempfile.mkdtemp(prefix='pc-vm-')
    seen = {'error': ''}
    try:
        if vm_args.wants_json(argv[1:]):
            return as_json(argv, work, t0, seen)
        return attempt(argv, work, t0, seen)
    except KeyboardInterrupt:
        return 130
    finally:
        shutil.rmtree(work, ignore_errors=True)
