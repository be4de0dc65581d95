# SPDX-License-Identifier: GPL-2.0
"""The bench's scheduler (pcengine.bench) on small shell steps: slots,
order, kills that reach a step's children, and the report of a run whose
step wrote no result."""

import os
import tempfile
import time
import unittest

from pcengine import bench, builtkernel

SH = ('sh', '-c')


def state(pid):
    """A process's state letter, '' once it is gone."""
    try:
        with open('/proc/%d/stat' % pid) as f:
            return f.read().rsplit(') ', 1)[1][:1]
    except OSError:
        return ''


def drain(sched):
    ended = []
    while sched.busy():
        sched.fill()
        ended.append(sched.next_end())
    return ended


class Scheduling(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.log = os.path.join(self.dir.name, 'log')

    def tearDown(self):
        self.dir.cleanup()

    def step(self, script, slot=True):
        return bench.Step([script], slot, dict(os.environ, LOG=self.log), SH)

    def lines(self):
        with open(self.log) as f:
            return f.read().split()

    def test_one_slot_runs_guests_in_order_one_at_a_time(self):
        sched = bench.Scheduler(1)
        # The first would be overtaken if both ran at once.
        sched.add(self.step('sleep 0.3; echo first-end >>"$LOG"'))
        sched.add(self.step('echo second-start >>"$LOG"'))
        ended = drain(sched)
        self.assertEqual(self.lines(), ['first-end', 'second-start'])
        self.assertEqual([status for _, status in ended], [0, 0])

    def test_a_step_without_a_slot_does_not_wait(self):
        sched = bench.Scheduler(1)
        # The guest waits for the gate's file, so they must overlap.
        flag = os.path.join(self.dir.name, 'flag')
        sched.add(self.step('while [ ! -e %s ]; do sleep 0.05; done; echo guest >>"$LOG"' % flag))
        sched.add(self.step('echo gate >>"$LOG"; touch %s' % flag, slot=False))
        drain(sched)
        self.assertEqual(self.lines(), ['gate', 'guest'])

    def test_exit_status_is_the_step_s(self):
        sched = bench.Scheduler(2)
        sched.add(self.step('exit 3'))
        self.assertEqual(drain(sched)[0][1], 3)

    def test_kill_all_reaches_the_step_s_children(self):
        sched = bench.Scheduler(1)
        pidfile = os.path.join(self.dir.name, 'pid')
        # A child in a process group of its own, as timeout(1) makes.
        sched.add(self.step('setsid sleep 60 & echo $! >%s; wait' % pidfile))
        sched.add(self.step('echo never >>"$LOG"'))
        sched.fill()
        while not bench.read(pidfile).strip():
            time.sleep(0.01)
        child = int(bench.read(pidfile))
        self.assertIn(child, bench.descendants(os.getpid()))
        sched.kill_all()
        _, status = sched.next_end()
        self.assertLess(status, 0)
        self.assertFalse(sched.busy())
        # Gone, or a zombie its new parent has not reaped yet.
        for _ in range(500):
            if state(child) in ('', 'Z'):
                break
            time.sleep(0.01)
        else:
            self.fail('the step\'s child %d is still running' % child)
        self.assertFalse(os.path.exists(self.log))


# A step that logs each step it runs, and whose preparations say
# their series is ready with no guests.
FAKE_STEP = '''
echo "$*" >>"$LOG"
if [ "$1 $2" = "prepare 1" ] && [ -n "${WAIT_BUILD:-}" ]; then
	# The build must have started while the first preparation runs.
	for _ in $(seq 200); do
		grep -q '^kernel-build' "$LOG" && break
		sleep 0.05
	done
	grep -q '^kernel-build' "$LOG" || echo no-build-during-prepare-1 >>"$LOG"
fi
if [ "$1" = prepare ]; then
	echo "rel-$3" >"$PREP/$2.ready"
	echo 0 >"$PREP/$2.dealt"
	: >"$PREP/$2.order"
	: >"$PREP/$2.jobs"
fi
'''


def fake(run, first=''):
    """FAKE_STEP for every step that is not a guest's."""
    run.prepare_command = run.kernel_command = run.lint_command = (
        'sh', '-c', first + FAKE_STEP, 'step')


class Schedule(unittest.TestCase):
    def test_a_built_kernel_starts_building_with_the_first_preparation(self):
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, 'log')
            env = {'PATH': os.environ['PATH'], 'LOG': log, 'PREP': d,
                   'PC_LINT': '0', 'PC_CASES': 'none', 'WAIT_BUILD': '1'}
            run = bench.Run(dict(env, PC_KERNELS='6.1 6.12 debug'))
            run.names = ['6.1', '6.12', 'debug']
            run.prep = d
            fake(run)
            run.schedule()
            with open(log) as f:
                steps = f.read().split('\n')
        # The build started while 6.1 was still being prepared.
        self.assertNotIn('no-build-during-prepare-1', steps)
        self.assertEqual(steps.count('kernel-build debug'), 1)

    def test_the_scope_and_the_builder_build_the_same_kernels(self):
        for name in bench.BUILT_KERNELS + ('6.1', 'arm64-6.1', '/boot/vmlinuz:/usr/src/x'):
            self.assertEqual(builtkernel.built_kernel(name), name in bench.BUILT_KERNELS, name)
        self.assertEqual(bench.BUILT_KERNELS, ('debug', 'clang'))

    def test_built_kernels_build_in_one_step_and_debian_ones_in_none(self):
        for kernels, builds in (('debug 6.1 clang', ['kernel-build debug clang']),
                                ('6.1 6.12', [])):
            with tempfile.TemporaryDirectory() as d:
                log = os.path.join(d, 'log')
                env = {'PATH': os.environ['PATH'], 'LOG': log, 'PREP': d,
                       'PC_LINT': '0', 'PC_CASES': 'none'}
                run = bench.Run(dict(env, PC_KERNELS=kernels))
                run.names = kernels.split()
                run.prep = d
                fake(run)
                run.schedule()
                with open(log) as f:
                    steps = f.read().split('\n')
            self.assertEqual([s for s in steps if s.startswith('kernel-build')], builds)
            self.assertEqual(len([s for s in steps if s.startswith('prepare ')]),
                             len(kernels.split()))

    def test_a_failed_build_stops_the_run_saying_which(self):
        with tempfile.TemporaryDirectory() as d:
            env = {'PATH': os.environ['PATH'], 'LOG': os.path.join(d, 'log'), 'PREP': d,
                   'PC_LINT': '0', 'PC_CASES': 'none'}
            run = bench.Run(dict(env, PC_KERNELS='6.1 clang'))
            run.names = ['6.1', 'clang']
            run.prep = d
            fake(run, '[ "$1" = kernel-build ] && exit 2;')
            with self.assertRaises(bench.Stop) as stop:
                run.schedule()
        self.assertEqual(str(stop.exception), 'building the clang kernel failed (why: above)')


class WhatPcCasesRuns(unittest.TestCase):
    def steps(self, **env):
        with tempfile.TemporaryDirectory() as d:
            log = os.path.join(d, 'log')
            env = dict({'PATH': os.environ['PATH'], 'LOG': log, 'PREP': d}, **env)
            run = bench.Run(dict(env, PC_KERNELS='6.1'))
            run.names, run.prep, run.scratch, run.results = ['6.1'], d, d, d
            fake(run)
            run.gates_command = run.vm_command = run.lint_command
            run.schedule()
            with open(log) as f:
                return [s.split()[0] for s in f.read().split('\n') if s]

    def test_a_guest_case_s_pattern_runs_no_gate(self):
        # Documentation/provoke-crash/race-example.rst's command.
        self.assertEqual(self.steps(PC_CASES='race_use_after_free$'), ['prepare'])

    def test_the_default_runs_every_gate(self):
        self.assertEqual(sorted(self.steps()), ['host-gates', 'lint', 'prepare', 'vm-case',
                                                'vm-kernel-paths'])

    def test_each_gate_by_its_name(self):
        self.assertEqual(self.steps(PC_CASES='^lint/'), ['prepare', 'lint'])
        self.assertEqual(self.steps(PC_CASES='^host/'), ['prepare', 'host-gates'])
        self.assertEqual(self.steps(PC_CASES='^(host|lint)/', PC_LINT='0'),
                         ['prepare', 'host-gates'])


class Grid(unittest.TestCase):
    def test_the_grid_only_after_a_case_of_it(self):
        with tempfile.TemporaryDirectory() as d:
            run = bench.Run({'PC_KERNELS': '6.1'})
            run.names, run.scratch, run.prep = ['6.1'], d, d
            os.makedirs(os.path.join(d, 'rel', 'cases'))
            with open(os.path.join(d, '1.ready'), 'w') as f:
                f.write('rel\n')
            with open(os.path.join(d, 'rel', 'cases', 'types.tsv'), 'w') as f:
                f.write('bugon\tBUG\tnmi\toops\n')
            run.order = ['6.1-race_use_after_free', '6.1-point_in_path']
            self.assertFalse(run.grid_ran())
            run.order.append('6.1-point_bugon')
            self.assertTrue(run.grid_ran())


class EngineGates(unittest.TestCase):
    def test_an_engine_gate_that_exits_1_lost_results_and_fails(self):
        with tempfile.TemporaryDirectory() as d:
            env = {'PATH': os.environ['PATH'], 'LOG': os.path.join(d, 'log'), 'PREP': d,
                   'PC_LINT': '0', 'PC_CASES': '^vm/'}
            run = bench.Run(dict(env, PC_KERNELS='6.1'))
            run.names, run.prep, run.scratch, run.results = ['6.1'], d, d, d
            fake(run)
            run.vm_command = ('sh', '-c', '[ "$1" = vm-case ] && exit 1; exit 0', 'vmcases')
            run.schedule()
        self.assertEqual(run.broken, ['not ok bench/vm-case # its step ended with status 1'
                                      ' (see the run log)\n'])


class GuestSteps(unittest.TestCase):
    def test_every_guest_runs_in_the_engine(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, '1.jobs'), 'w') as f:
                f.write('lkdtm /o/lkdtm-selftest\nbatch /c/zz_batch_1.sh\nsingle /c/point_bugon.sh\n'
                        'kdump /c/kdump_panic.sh\n')
            run = bench.Run({'PC_KERNELS': '6.1'})
            run.names, run.prep = ['6.1'], d
            steps = list(run.guest_steps(1))
            with open(os.path.join(d, '1.jobs'), 'a') as f:
                f.write('guest lkdtm\n')
            with self.assertRaises(bench.Stop) as stop:
                list(run.guest_steps(1))
        self.assertEqual(str(stop.exception), 'preparing 6.1 wrote an unknown job: guest lkdtm')
        guest = '@' + os.path.join(d, '1.guest')
        self.assertEqual([(s.args, s.command) for s in steps],
                         [(['lkdtm', guest, '/o/lkdtm-selftest'], bench.CASE_STEP),
                          (['batch', guest, '/c/zz_batch_1.sh'], bench.CASE_STEP),
                          (['single', guest, '/c/point_bugon.sh'], bench.CASE_STEP),
                          (['kdump', guest, '/c/kdump_panic.sh'], bench.CASE_STEP)])
        self.assertTrue(all(s.slot for s in steps))
        self.assertEqual(steps[1].env['PYTHONPATH'], os.path.join(bench.ROOT, 'engine'))


class Report(unittest.TestCase):
    def test_a_case_without_a_result_fails_by_name(self):
        run = bench.Run({'PC_KERNELS': '6.1 6.1-rt arm64-6.1'})
        run.names = ['6.1', '6.1-rt', 'arm64-6.1']
        self.assertEqual(run.missing_result('6.1-rt-direct_panic').split('\n')[0],
                         'not ok 6.1-rt/direct_panic')
        self.assertEqual(run.missing_result('arm64-6.1-point_bugon').split('\n')[0],
                         'not ok arm64-6.1/point_bugon')

    def test_bad_environment_stops_before_anything_runs(self):
        for env, why in (({'PC_SHARD': '3/2'}, 'PC_SHARD=3/2'),
                         ({'PC_JOBS': 'two'}, 'PC_JOBS=two'),
                         ({'PC_JOBS': '0'}, 'PC_JOBS=0: expected a number of guests, 1 or more'),
                         ({'PC_TIMEOUT': '90.5'}, 'PC_TIMEOUT=90.5: expected whole seconds'),
                         ({'PC_TIMEOUT': '0'}, 'PC_TIMEOUT=0: expected whole seconds, 1 or more'),
                         ({'PC_QEMU_EXTRA': '-icount 0\n'}, 'PC_QEMU_EXTRA: a line break')):
            with self.assertRaises(bench.Stop) as stop:
                bench.Run(env)
            self.assertIn(why, str(stop.exception))


if __name__ == '__main__':
    unittest.main()
