# SPDX-License-Identifier: GPL-2.0
"""The bench's scheduler: what tests/run runs.

It runs the bench's steps (engine modules, one process each) in the
order and with the overlap a run needs, then writes the report:

- setup, then the accelerator, once;
- each series' preparation (its cases, module build and initramfs), one
  after another, while the guests of the series already prepared run;
- the guests, at most PC_JOBS at once, each series' in its own order
  (the LKDTM selftest, the batches, then single cases);
- from the start, beside the first preparation, the builds of the
  kernels built from source (debug, clang), one after another, unless
  they are cached;
- beside them, with no guest slot: the lint gates (once the first
  series is prepared) and the host gates (once the series the shard
  check lists is); in a slot: the VM runner's cases (then too) and its
  debug kernel case (before the debug series' guests, or last);
- the KTAP report of every result, the matrix, the summary line and the
  JUnit file.

Each step is a child process with a handle: a thread waits on it and
posts its end to one queue, on which the scheduler blocks; nothing
polls.  A step that ended stays unreaped (a zombie keeps its PID) until
the scheduler takes its end from the queue, so a kill never reaches a
PID that another process reuses.  When a series' preparation fails, or
the run is interrupted (SIGINT, SIGTERM, SIGHUP), every running step and
all under it (QEMU among them) is killed, and the run stops saying
why.  A case whose guest step wrote no result is reported as failed,
not left out, and so is a gate's step that a signal ended.
"""

import collections
import os
import queue
import signal
import subprocess
import sys
import threading

from . import ROOT, SetupError, accel, engine_env, kdump, ktap, log, runsetup, scope, typegrid
from .scope import BUILT_KERNELS, matches

# The guest step of a case file or a batch, run by the engine itself:
# a restore costs 0.35 s, the shell around it cost 0.15 s more.
CASE_STEP = (sys.executable, '-P', '-m', 'pcengine.casestep')
GATES_STEP = (sys.executable, '-P', '-m', 'pcengine.gates')
VM_STEP = (sys.executable, '-P', '-m', 'pcengine.vmcases')
PREPARE_STEP = (sys.executable, '-P', '-m', 'pcengine.prepare_series')
KDUMP_CRASH_STEP = (sys.executable, '-P', '-m', 'pcengine.kdumpcrash')
KERNEL_STEP = (sys.executable, '-P', '-m', 'pcengine.kernels')
LINT_STEP = (sys.executable, '-P', '-m', 'pcengine.lint')
# The run's other results, after the cases' and the unit tests', in
# this order: the files their steps write, empty until then.
SIDE_RESULTS = ('vm', 'vm-late', 'lint', 'docs', 'fuzz', 'junit', 'shard', 'kdump-crash')
# The unit tests' report until the host gates write it (a run that
# leaves them out has nothing to report of them), and what each C unit
# test prints last: without it, it did not finish.
UNIT_DONE = {'parse_test': '# unit tests done', 'compare_test': '# compare tests done'}
# Steps beside the guests whose results are files they write: one that
# a signal ends (or that cannot run) is a failure of its own.
GATES = ('lint', 'host-gates', 'vm-case', 'vm-kernel-paths', 'kdump-crash')
# The gates the engine runs: they write a result line for each of their
# checks, pass or fail, and exit 0; any other status lost some of them.
ENGINE_GATES = ('lint', 'host-gates', 'vm-case', 'vm-kernel-paths', 'kdump-crash')
# The names PC_CASES is matched against for the steps that are not a
# guest's case: PC_CASES='race_use_after_free$' runs that case and no gate
# (PC_LINT=0 leaves the lint gates out whatever PC_CASES says).
LINT_NAME = 'lint/gates'
HOST_GATES_NAME = 'host/gates'
# The cases of the crash-type grid that the report ends with: a run with
# none of them prints no grid.
GRID_PREFIXES = ('direct_', 'point_', 'kdump_', 'kdump_point_', 'refused_')
# The series the shard check lists: the run's first Debian one; the
# host gates wait for it to be prepared, and get it as
# PC_STEP_SHARD_SERIES.
SHARD_LISTED = ('6.1', '6.12', 'arm64-6.1', 'arm64-6.12')


class Stop(Exception):
    """The run cannot give a whole result; the message says why."""


def descendants(pid):
    """The processes under PID, from /proc."""
    children = collections.defaultdict(list)
    for entry in os.listdir('/proc'):
        if not entry.isdigit():
            continue
        try:
            with open('/proc/%s/stat' % entry) as f:
                stat = f.read()
        except OSError:
            continue
        # After the command name, in parentheses that may hold
        # anything: the state, then the parent's PID.
        children[int(stat[stat.rindex(')') + 2:].split()[1])].append(int(entry))
    found, todo = [], [pid]
    while todo:
        kids = children.get(todo.pop(), [])
        found += kids
        todo += kids
    return found


def kill_tree(pid):
    """PID and every process under it: a step's processes need not share
    its process group, which a kill of the group would miss.  The
    tree is read first, and the step is killed before what it runs, so
    that it does not go on to a verdict on a guest killed under it."""
    for p in [pid] + descendants(pid):
        try:
            os.kill(p, signal.SIGTERM)
        except OSError:
            pass


class Step(collections.namedtuple('Step', 'args slot env command')):
    """One step of the bench, a process of its own: its arguments (the
    first is the kind of step), whether it takes a guest slot, its
    environment and the command that runs it (the engine's module for
    that kind: CASE_STEP, PREPARE_STEP...)."""

    @property
    def kind(self):
        return self.args[0]


class Scheduler:
    """Steps as child processes: those that take a guest slot wait in
    order for one; the others start at once."""

    def __init__(self, slots):
        self.slots = slots
        self.ended = queue.Queue()
        self.running = {}
        self.waiting = collections.deque()

    def start(self, step):
        proc = subprocess.Popen(list(step.command) + step.args, env=step.env,
                                stdin=subprocess.DEVNULL)
        self.running[proc.pid] = (step, proc)
        threading.Thread(target=self._wait, args=(step, proc), daemon=True).start()

    def _wait(self, step, proc):
        # WNOWAIT: the step's end is seen, and it stays a zombie, its
        # PID not free for reuse, until next_end() reaps it.
        os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)
        self.ended.put((step, proc))

    def add(self, step):
        if step.slot:
            self.waiting.append(step)
        else:
            self.start(step)

    def fill(self):
        while self.waiting and sum(s.slot for s, _ in self.running.values()) < self.slots:
            self.start(self.waiting.popleft())

    def busy(self):
        return bool(self.running or self.waiting)

    def next_end(self):
        """(step, its exit status), once one ends."""
        step, proc = self.ended.get()
        del self.running[proc.pid]
        return step, proc.wait()

    def kill_all(self):
        self.waiting.clear()
        for _, proc in list(self.running.values()):
            kill_tree(proc.pid)


def run_step(step):
    """A step run to its end, in the foreground."""
    if subprocess.run(list(step.command) + step.args, env=step.env).returncode:
        raise Stop('')


def read(path, default=''):
    try:
        with open(path, encoding='utf-8', errors='surrogateescape') as f:
            return f.read()
    except FileNotFoundError:
        return default


class Run:
    """One run of the bench, from the environment."""

    def __init__(self, environ):
        # A run inside a run (the shard check lists, the VM runner's
        # case runs the bench) starts from its own PC_KERNELS.
        self.env = engine_env({k: v for k, v in environ.items() if not k.startswith('PC_STEP_')})
        self.env['PC_KERNELS'] = self.env.get('PC_KERNELS') or scope.DEFAULT_KERNELS
        try:
            self.shard_i, self.shard_n = scope.parse_shard(self.env.get('PC_SHARD') or '1/1')
        except ValueError as e:
            raise Stop(str(e))
        try:
            self.slots = int(self.env.get('PC_JOBS') or 2)
        except ValueError:
            self.slots = 0
        if self.slots < 1:
            raise Stop('PC_JOBS=%s: expected a number of guests, 1 or more'
                       % self.env['PC_JOBS'])
        timeout = self.env.get('PC_TIMEOUT') or '120'
        if not timeout.isdigit() or int(timeout) < 1:
            raise Stop('PC_TIMEOUT=%s: expected whole seconds, 1 or more' % timeout)
        for name in ('PC_GUEST_CMDLINE', 'PC_QEMU_EXTRA'):
            value = self.env.get(name, '')
            if value != ''.join(value.splitlines()):
                # A guest step's options are lines (prep/K.guest).
                raise Stop('%s: a line break in it: give it on one line' % name)
        self.listing = self.env.get('PC_LIST', '0') == '1'
        self.filter = self.env.get('PC_CASES') or '.'
        self.order = []
        self.broken = []
        # What runs a step (the unit tests give a fake one).
        self.case_command = CASE_STEP
        self.gates_command = GATES_STEP
        self.vm_command = VM_STEP
        self.prepare_command = PREPARE_STEP
        self.kernel_command = KERNEL_STEP
        self.lint_command = LINT_STEP

    def setup(self):
        try:
            self.names, self.scratch = runsetup.setup(self.env)
        except SetupError as e:
            # None: the line of what failed, the last on stderr, says why.
            raise Stop(e.args[0] or '')
        except OSError as e:
            raise Stop(str(e))
        self.results = os.path.join(self.scratch, 'results')
        self.prep = os.path.join(self.scratch, 'prep')
        self.env['PC_STEP_KERNELS'] = ' '.join(self.names)
        for name in SIDE_RESULTS:
            open(os.path.join(self.results, name + '.result'), 'w').close()
        with open(os.path.join(self.results, 'unit.ktap'), 'w') as f:
            f.write(''.join(line + '\n' for line in UNIT_DONE.values()))
        # Decide once whether KVM really works; every guest then uses
        # the answer.  A listing boots nothing.
        if self.listing and not self.env.get('PC_ACCEL'):
            self.env['PC_ACCEL'] = 'tcg'
            log('accelerator: tcg (a listing boots nothing)')
        elif self.env.get('PC_ACCEL'):
            log('accelerator: %s (PC_ACCEL)' % self.env['PC_ACCEL'])
        else:
            self.env['PC_ACCEL'], why = accel.pick(self.env)
            log('accelerator: %s (%s)' % (self.env['PC_ACCEL'], why))

    def prepare_step(self, k, dealt):
        env = dict(self.env, PC_STEP_DEALT=str(dealt))
        return Step(['prepare', str(k), self.names[k - 1]], False, env, self.prepare_command)

    def take_prepared(self, k):
        """The K-th series' release and PC_SHARD's count after it, from
        what its preparation wrote; its results' names join the order."""
        base = os.path.join(self.prep, str(k))
        rel, dealt = read(base + '.ready').strip(), read(base + '.dealt').strip()
        if not rel or not dealt:
            raise Stop('preparing %s wrote no %s' % (self.names[k - 1],
                                                    base + ('.ready' if not rel else '.dealt')))
        self.order += read(base + '.order').split()
        return rel, int(dealt)

    def guest_steps(self, k):
        """The series' guests: a case file's, a batch's and LKDTM's
        selftest's, each in the engine (casestep.py, with the options its
        preparation wrote to K.guest)."""
        series = self.names[k - 1]
        options = '@' + os.path.join(self.prep, '%d.guest' % k)
        for line in read(os.path.join(self.prep, '%d.jobs' % k)).splitlines():
            kind, _, case = line.partition(' ')
            if kind not in ('single', 'batch', 'kdump', 'lkdtm'):
                raise Stop('preparing %s wrote an unknown job: %s' % (series, line))
            yield Step([kind, options, case], True, self.env, self.case_command)

    def list_cases(self):
        dealt = 0
        for k, series in enumerate(self.names, 1):
            step = self.prepare_step(k, dealt)
            # The step's own line, the last on stderr, says why it failed.
            run_step(step)
            dealt = self.take_prepared(k)[1]
        lines = list(self.order)
        if self.shard_i == 1:
            lines.append('host gates')
        if self.shard_i == self.shard_n:
            lines.append('vm cases')
        if lines:
            print('\n'.join(lines))
        return 0

    def schedule(self):
        sched = Scheduler(self.slots)
        first = [s for s in self.names if s in SHARD_LISTED]
        gates_k = self.names.index(first[0]) + 1 if first else 1
        # The shard check lists that series (none: it skips, saying so).
        gates_env = dict(self.env, PC_STEP_SHARD_SERIES=first[0] if first else '')
        vm_cases = (self.shard_i == self.shard_n
                    and matches(self.filter, 'vm/readme_first_command'))
        vm_late = False
        sched.add(self.prepare_step(1, 0))
        # The kernels built from source start building now, one after
        # another in one step, at the lowest priority, on what the
        # preparations and guests leave idle, not when their series' turn
        # comes: that would end the run late.  A series' preparation
        # finds its kernel built (or waits on the build's lock).
        built = [s for s in self.names if s in BUILT_KERNELS]
        if built:
            sched.add(Step(['kernel-build'] + built, False, self.env, self.kernel_command))
        try:
            while sched.busy():
                sched.fill()
                step, status = sched.next_end()
                if step.kind in GATES and (status < 0 or status >= 126 or
                                           (status and step.kind in ENGINE_GATES)):
                    self.broken.append('not ok bench/%s # its step ended with status %d'
                                       ' (see the run log)\n' % (step.kind, status))
                if step.kind == 'kernel-build' and status:
                    raise Stop('building the %s kernel failed (why: above)'
                               % ' and '.join(step.args[1:]))
                if step.kind != 'prepare':
                    continue
                k = int(step.args[1])
                series = self.names[k - 1]
                if status:
                    raise Stop('preparing %s for its guests failed (why: above)' % series)
                rel, dealt = self.take_prepared(k)
                if k < len(self.names):
                    sched.add(self.prepare_step(k + 1, dealt))
                if k == 1:
                    # Once the first series' guests can start (its
                    # preparation had the CPUs until then).
                    if ((self.env.get('PC_LINT') or '1') == '1' and self.shard_i == 1
                            and matches(self.filter, LINT_NAME)):
                        log('lint gates')
                        sched.add(Step(['lint'], False, self.env, self.lint_command))
                    if vm_cases:
                        sched.add(Step(['vm-case'], True, self.env, self.vm_command))
                if k == gates_k and self.shard_i == 1 and matches(self.filter, HOST_GATES_NAME):
                    sched.add(Step(['host-gates', '--results', self.results, '--host-tool',
                                    os.path.join(self.scratch, 'host', 'provoke-crash')],
                                   False, gates_env, self.gates_command))
                # The debug kernel's VM runner case, once that kernel is
                # built: first of its series, a long guest that would
                # end the run late.
                if vm_cases and series == 'debug' and not vm_late:
                    vm_late = True
                    sched.add(Step(['vm-kernel-paths'], True, self.env, self.vm_command))
                for guest in self.guest_steps(k):
                    sched.add(guest)
                if k == len(self.names):
                    if self.env.get('PC_KDUMP_CRASH') == '1':
                        sched.add(Step(['kdump-crash'], True, self.env, KDUMP_CRASH_STEP))
                    if vm_cases and not vm_late:
                        sched.add(Step(['vm-kernel-paths'], True, self.env, self.vm_command))
        except BaseException:
            sched.kill_all()
            raise

    def missing_result(self, name):
        """A case in the order whose step wrote no result."""
        series = max((s for s in self.names if name.startswith(s + '-')), key=len, default='')
        shown = '%s/%s' % (series, name[len(series) + 1:]) if series else name
        return ('not ok %s\n# no result: its guest step ended without writing one'
                ' (see the run log)\n' % shown)

    def grid_ran(self):
        """Whether a case of the crash-type grid (a type fired directly,
        at a point, with kdump, or refused) is in the run's order."""
        order = set(self.order)
        for k, series in enumerate(self.names, 1):
            rel = read(os.path.join(self.prep, '%d.ready' % k)).strip()
            rows = typegrid.read_types(os.path.join(self.scratch, rel, 'cases', 'types.tsv')
                                       ) if rel else []
            if any('%s-%s%s' % (series, p, row[0]) in order
                   for row in rows for p in GRID_PREFIXES):
                return True
        return False

    def report(self):
        text = ''.join(read(os.path.join(self.results, r + '.result'))
                       or self.missing_result(r) for r in self.order)
        unit = read(os.path.join(self.results, 'unit.ktap'))
        text += ktap.unit_results(unit)
        text += ''.join(read(os.path.join(self.results, r + '.result')) for r in SIDE_RESULTS)
        for test, done in UNIT_DONE.items():
            if done not in unit.split('\n'):
                text += 'not ok unit/%s did not finish\n' % test
        text += ''.join(self.broken)
        with open(os.path.join(self.results, 'all'), 'w', encoding='utf-8',
                  errors='surrogateescape') as f:
            f.write(text)
        report, tally = ktap.report(text)
        ktap_file = os.path.join(self.results, 'ktap')
        with open(ktap_file, 'w', encoding='utf-8', errors='surrogateescape') as f:
            f.write(report)
        sys.stdout.write(report)
        sys.stdout.flush()
        # After the KTAP lines, the matrix (when a case of it ran) and one
        # line per capture: a failure there costs the tables, not the
        # summary.
        try:
            if self.grid_ran():
                typegrid.main(['--kernels', ' '.join(self.names), '--scratch', self.scratch])
            sys.stdout.write(''.join(line + '\n' for line in kdump.figures(self.results)))
        except Exception as e:  # noqa: BLE001 - the summary still comes
            log('the report\'s tables failed: %s: %s' % (type(e).__name__, e))
        print(ktap.summary(tally), flush=True)
        junit = self.env.get('PC_JUNIT') or os.path.join(self.results, 'junit.xml')
        try:
            with open(ktap_file, 'rb') as src, open(junit, 'wb') as dst:
                if subprocess.run([os.path.join(ROOT, 'tests', 'ktap-junit')], stdin=src,
                                  stdout=dst).returncode == 0:
                    log('JUnit report: ' + junit)
        except OSError as e:
            log('no JUnit report: %s' % e)
        return 0 if tally.failed == 0 else 1


def interrupted(signum, frame):
    # Unwinds through schedule(), which kills every step on the way out.
    sys.exit(128 + signum)


def main():
    # A result may hold a guest's raw bytes: pass them through, as cat did.
    sys.stdout.reconfigure(errors='surrogateescape')
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, interrupted)
    try:
        run = Run(os.environ)
        run.setup()
        if run.listing:
            return run.list_cases()
        run.schedule()
        return run.report()
    except Stop as e:
        if str(e):
            print('provoke-crash: %s' % e, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == '__main__':
    sys.exit(main())
