# SPDX-License-Identifier: GPL-2.0
"""--json's object (pcengine.runner_json) on the saved runs: it meets
the schema, and says what the human report said."""

import json
import os
import subprocess
import sys
import unittest

import fixtures
import test_runner_verdict as saved
from pcengine import runner_json

ASKED = {'arm': ['@sys@getppid null_dereference'], 'trigger': None,
         'run': 'pc-guest hit getppid 1'}
KERNEL = {'series': '6.1', 'release': '6.1.0-57-cloud-amd64', 'arch': 'x86_64'}


def document(name):
    """The object for the saved run NAME, from the human lines its
    replay printed, as tools/provoke-crash-vm builds it."""
    out, _, status = saved.replay(name)
    said = out.decode('utf-8', 'surrogateescape').splitlines()
    work = os.path.join(saved.RUNNER, name)
    return runner_json.document(status, said, ASKED, KERNEL, work), said


class Schema(unittest.TestCase):
    def test_every_saved_run_meets_it(self):
        for name in saved.names():
            with self.subTest(run=name):
                doc, _ = document(name)
                self.assertEqual(runner_json.validate(doc, runner_json.SCHEMA), '')
                # And survives the trip through JSON unchanged.
                self.assertEqual(json.loads(runner_json.dumps(doc)), doc)

    def test_a_wrong_object_is_named(self):
        doc, _ = document('readme_first_command')
        doc['status'] = '0'
        self.assertEqual(runner_json.validate(doc, runner_json.SCHEMA),
                         "$.status: '0' is not integer")
        doc['status'] = True
        self.assertIn('is not integer', runner_json.validate(doc, runner_json.SCHEMA))
        doc['status'] = 0
        doc['points'][0]['hits'] = None
        self.assertEqual(runner_json.validate(doc, runner_json.SCHEMA),
                         '$.points[0].hits: None is not integer')
        del doc['hit']
        self.assertEqual(runner_json.validate(doc, runner_json.SCHEMA), '$: no hit')
        doc['points'][0]['hits'] = 1
        doc['hit'], doc['extra'] = None, 1
        self.assertEqual(runner_json.validate(doc, runner_json.SCHEMA), '$: unknown extra')


class Content(unittest.TestCase):
    def test_a_crash_as_asked(self):
        doc, said = document('readme_first_command')
        self.assertEqual((doc['status'], doc['verdict']), (0, 'crashed'))
        self.assertEqual('provoke-crash-vm: ' + doc['summary'], said[-1])
        self.assertEqual(doc['hit']['type'], 'null_dereference')
        self.assertEqual(doc['hit']['comm'], 'pc-guest')
        self.assertIsNone(doc['hit']['context'])
        self.assertTrue(doc['crash']['line'].startswith('BUG: kernel NULL pointer dereference'))
        self.assertEqual(doc['crash']['pid'], doc['hit']['pid'])
        self.assertTrue(doc['report'][0].startswith('provoke_crash: __x64_sys_getppid: '))
        self.assertIn('pc_crash_null_dereference', ' '.join(doc['report']))
        self.assertTrue(doc['trace'])
        self.assertEqual(doc['pstore'][0]['name'], 'dmesg-ramoops-0')
        self.assertTrue(doc['pstore'][0]['holds_report'])

    def test_every_status_has_its_word(self):
        for name in saved.names():
            with self.subTest(run=name):
                doc, _ = document(name)
                self.assertEqual(doc['verdict'], runner_json.VERDICTS[doc['status']])

    def test_a_refusal_keeps_its_reasons(self):
        doc, said = document('arm_refused')
        self.assertEqual(doc['verdict'], 'refused')
        self.assertEqual(doc['details'], [x[2:] for x in said if x.startswith('  ')])
        self.assertTrue(any('no such symbol' in x for x in doc['details']))

    def test_listing_lines(self):
        self.assertEqual(runner_json.point(
            'vfs_read bugon comm=cat hits=7 eligible=3 filtered=4 fired=1 missed=2 '
            'context=atomic'),
            {'line': 'vfs_read bugon comm=cat hits=7 eligible=3 filtered=4 fired=1 missed=2 '
                     'context=atomic', 'where': 'vfs_read', 'type': 'bugon', 'hits': 7,
             'eligible': 3, 'filtered': 4, 'fired': 1, 'missed': 2, 'context': 'atomic'})
        self.assertIsNone(runner_json.point('not a listing line'))


if __name__ == '__main__':
    unittest.main()


class EveryEnd(unittest.TestCase):
    """However a --json run ends, stdout is one object: the run stubbed
    to end each way, in a process of its own (its fd 1 is the test's)."""

    def run_ending(self, body):
        code = ('import os, sys\n'
                'from pcengine import vm, SetupError\n'
                'def run(argv, program, work, t0, seen):\n'
                '    seen["o"] = vm.vm_args.parse(argv)\n'
                '    os.system("echo a helper writes to its stdout")\n'
                '    print("provoke-crash-vm: a human line")\n'
                '%s\n'
                'vm.run = run\n'
                'sys.exit(vm.main(["provoke-crash-vm", "--json", "--run", "true"]))\n' % body)
        done = subprocess.run([sys.executable, '-c', code],
                                       cwd=os.path.join(fixtures.ROOT, 'engine'),
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        doc = json.loads(done.stdout)
        self.assertEqual(runner_json.validate(doc, runner_json.SCHEMA), '')
        self.assertEqual(doc['status'], done.returncode)
        self.assertIn('a helper writes to its stdout', done.stderr)
        return doc

    def test_interrupted(self):
        doc = self.run_ending('    raise KeyboardInterrupt')
        self.assertEqual((doc['status'], doc['verdict'], doc['summary']),
                         (130, 'interrupted', 'interrupted'))

    def test_a_setup_error_with_no_reason(self):
        doc = self.run_ending('    raise SetupError()')
        self.assertEqual((doc['status'], doc['verdict']), (6, 'setup'))
        self.assertEqual(doc['summary'], 'a human line')

    def test_a_bug(self):
        doc = self.run_ending('    raise ValueError("x")')
        self.assertEqual((doc['status'], doc['summary']), (6, "internal error: ValueError('x')"))

    def test_a_signal(self):
        doc = self.run_ending('    sys.exit(143)')
        self.assertEqual((doc['status'], doc['verdict']), (143, 'interrupted'))
