# SPDX-License-Identifier: GPL-2.0
"""The lint gates (pcengine.lint, pcengine.lint_docs) without a kernel
build: the result lines, the naming of a kernel's gate, W=1/sparse on
made logs, the bash completion against a fake tool, the gates' order,
and the docs check on small made .rst trees."""

import contextlib
import importlib.util
import io
import os
import tempfile
import unittest
from unittest import mock

from fixtures import write
from pcengine import lint, lint_docs

HAVE_DOCUTILS = importlib.util.find_spec('docutils') is not None


class Temp(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.dir = tmp.name


class Result(Temp):
    def test_ok_with_and_without_proof(self):
        log = os.path.join(self.dir, 'log')
        write(log, 'a\nchecked 3\n')
        self.assertEqual(lint.result(0, 'x', log), ['ok lint/x'])
        self.assertEqual(lint.result(0, 'x', log, lint.last_line(log)),
                         ['ok lint/x', '#   checked 3'])
        # A log that ends in a blank line has no proof.
        write(log, 'a\n\n')
        self.assertEqual(lint.result(0, 'x', log, lint.last_line(log)), ['ok lint/x'])

    def test_not_ok_with_the_log_tail(self):
        log = os.path.join(self.dir, 'log')
        write(log, ''.join('line %d\n' % i for i in range(1, 31)))
        lines = lint.result(2, 'x', log, 'no proof when it fails')
        self.assertEqual(lines[0], 'not ok lint/x')
        self.assertEqual(lines[1:], ['# line %d' % i for i in range(11, 31)])
        write(log, '')
        self.assertEqual(lint.result(1, 'x', log), ['not ok lint/x'])

    def test_skip(self):
        self.assertEqual(lint.skip('dkms_build', 'dkms not installed'),
                         ['ok lint/dkms_build # SKIP dkms not installed'])


class KernelDir(Temp):
    def test_series_and_kernels_of_files(self):
        self.assertEqual(lint.kernel_dir('6.1.0-57-cloud-amd64', self.dir),
                         ('/usr/src/linux-headers-6.1.0-57-cloud-amd64', '6.1'))
        self.assertEqual(lint.kernel_dir('6.12.118+deb12-cloud-amd64', self.dir)[1], '6.12')
        self.assertEqual(lint.kernel_dir('6.1.0-57-rt-amd64', self.dir)[1], '6.1-rt')
        os.mkdir(os.path.join(self.dir, '6.12.5-debug'))
        self.assertEqual(lint.kernel_dir('6.12.5-debug', self.dir),
                         (self.dir + '/6.12.5-debug/usr/src/linux-headers-6.12.5-debug',
                          '6.12.5-debug'))


class Sparse(Temp):
    """w1_sparse on the log a fake make writes."""

    def run_make(self, text, rc=0):
        def fake(argv, log, **kw):
            self.argv = argv
            write(log, text)
            return rc
        with mock.patch.object(lint, 'logged', fake), \
                mock.patch.object(lint, '_copy'), \
                mock.patch.object(lint.kernels, 'kbuild_llvm', return_value=['LLVM=-19']):
            return lint.w1_sparse(self.dir, '6.1.0-57-cloud-amd64', self.dir, {})

    def test_clean(self):
        lines = self.run_make('  CC [M]  a.o\n  CHECK   a.c\n  CHECK   b.c\n')
        self.assertEqual(lines, ['ok lint/w1_sparse_6.1', '#   W=1 C=1 against '
                                 '6.1.0-57-cloud-amd64: sparse checked 2 files, no warning'])
        self.assertEqual(self.argv[:3], ['make', '-C', '/usr/src/linux-headers-6.1.0-57-cloud-amd64'])
        self.assertIn('LLVM=-19', self.argv)
        self.assertEqual(self.argv[-1], 'modules')

    def test_a_warning(self):
        log = '  CHECK   a.c\na.c:3: warning: x\n'
        self.assertEqual(self.run_make(log), ['a.c:3: warning: x', 'not ok lint/w1_sparse_6.1',
                                              '#   CHECK   a.c', '# a.c:3: warning: x'])
        # A build that fails says so in its tail alone.
        self.assertEqual(self.run_make('a.c:3: error: y\n', 2),
                         ['not ok lint/w1_sparse_6.1', '# a.c:3: error: y'])


class Completion(Temp):
    """The real completion file, against a fake tool's table."""

    def check(self, types):
        write(os.path.join(self.dir, 'provoke-crash'),
              '#!/bin/sh\nprintf "%s"\n' % types, 0o755)
        lines = lint.completion(self.dir, dict(os.environ))
        with open(os.path.join(self.dir, 'completion.log')) as f:
            return lines, f.read()

    def test_the_table_and_the_answers(self):
        lines, log = self.check(r'null_dereference  x\ncorrupt_stack  y\n'
                                r'corrupt_slab  z\nother  w\n')
        self.assertEqual(lines[0], 'ok lint/bash_completion', log)
        self.assertTrue(log.endswith('want: arm\nnull_dereference\ncorrupt_stack corrupt_slab\n'))

    def test_a_table_without_null_dereference(self):
        # The second answer is the table's too: none, against the want.
        lines, log = self.check(r'corrupt_stack  y\n')
        self.assertEqual(lines, ['not ok lint/bash_completion', '# arm', '# ', '# corrupt_stack',
                                 '# want: arm', '# null_dereference', '# corrupt_stack'])


class Chain(Temp):
    def test_the_first_failure_ends_it(self):
        log, ran = os.path.join(self.dir, 'log'), []

        def step(rc):
            def run(f):
                ran.append(rc)
                f.write(b'%d\n' % rc)
                return rc
            return run
        self.assertEqual(lint._chain(log, [step(0), ['sh', '-c', 'echo shell'], step(3), step(0)],
                                     dict(os.environ)), 3)
        self.assertEqual(ran, [0, 3])
        with open(log) as f:
            self.assertEqual(f.read(), '0\nshell\n3\n')


class Main(Temp):
    """The gates' order, each gate faked to its name."""

    def run_main(self, releases):
        names = ('checkpatch', 'shellcheck', 'tool', 'docs', 'docs_commands', 'completion')
        fakes = {n: mock.patch.object(lint, n, lambda *a, n=n: [n]) for n in names}
        fakes['w1_sparse'] = mock.patch.object(lint, 'w1_sparse', lambda out, rel, *a: [rel])
        fakes['dkms'] = mock.patch.object(lint, 'dkms', lambda out, rel, env: ['dkms ' + rel])
        fakes['install'] = mock.patch.object(lint, 'install',
                                             lambda out, rel, env: ['install ' + rel])
        out = io.StringIO()
        with contextlib.ExitStack() as stack:
            for f in fakes.values():
                stack.enter_context(f)
            stack.enter_context(contextlib.redirect_stdout(out))
            self.assertEqual(lint.main(releases, {'PC_OUT': self.dir}), 0)
        self.assertTrue(os.path.isdir(os.path.join(self.dir, 'lint')))
        return out.getvalue().splitlines()

    def test_the_order(self):
        self.assertEqual(self.run_main(['r1', 'r2']),
                         ['checkpatch', 'shellcheck', 'r1', 'r2', 'tool', 'dkms r1', 'install r1',
                          'docs', 'docs_commands', 'completion'])

    def test_no_release(self):
        self.assertEqual(self.run_main([]), [
            'checkpatch', 'shellcheck', 'tool', 'ok lint/dkms_build # SKIP no kernel release',
            'ok lint/install_uninstall # SKIP no kernel release', 'docs', 'docs_commands',
            'completion'])

    def step_releases(self, kernels, release):
        with mock.patch.object(lint.kernels.Host, 'kernel_release', release), \
                mock.patch.object(lint.builtkernel, 'built_kernel', lambda s: s == 'debug'), \
                mock.patch.object(lint.kernels, 'build_apart') as build:
            got = lint.step_releases({'PC_OUT': self.dir, 'PC_STEP_KERNELS': kernels})
        return got, [c[0][0] for c in build.call_args_list]

    def test_the_bench_steps_releases(self):
        # Debian's first, then the built kernels' (built apart first);
        # arm64's are not linted.
        got, built = self.step_releases('debug 6.1 arm64-6.1 6.12-rt',
                                        lambda self, s: 'rel-' + s)
        self.assertEqual(got, (['rel-6.1', 'rel-6.12-rt', 'rel-debug'], []))
        self.assertEqual(built, [['debug']])

    def test_a_series_without_a_release_fails_by_name(self):
        def release(host, series):
            if series == '6.12':
                raise lint.SetupError('no /boot/vmlinuz-6.12.*-cloud-amd64')
            return 'rel-' + series
        got, _ = self.step_releases('6.1 6.12', release)
        self.assertEqual(got, (['rel-6.1'], [
            'not ok lint/release_6.12 # no /boot/vmlinuz-6.12.*-cloud-amd64']))


INDEX = 'Index\n=====\n\n.. toctree::\n   :maxdepth: 1\n\n   usage\n   design\n'
USAGE = '.. _usage:\n\nUsage\n=====\n\nSee :doc:`design` and :ref:`usage`.\n'
DESIGN = 'Design\n======\n\nSee :ref:`usage`.\n'


@unittest.skipUnless(HAVE_DOCUTILS, 'docutils is not installed (python3-docutils)')
class Docs(Temp):
    def check(self, **pages):
        for name, text in pages.items():
            write(os.path.join(self.dir, name + '.rst'), text)
        return lint_docs.check(self.dir)

    def test_pages_that_hold_together(self):
        self.assertEqual(self.check(index=INDEX, usage=USAGE, design=DESIGN), (True, [
            'Documentation/provoke-crash: 3 pages, 18 lines, docutils reports nothing; '
            '5 toctree entries and cross-references resolve']))

    def test_dangling_targets_and_a_page_in_no_toctree(self):
        ok, lines = self.check(index=INDEX.replace('design', 'gone'), design=DESIGN,
                               usage=USAGE.replace(':ref:`usage`', ':ref:`nolabel`'))
        self.assertFalse(ok)
        self.assertEqual(lines, ['index.rst: toctree gone: no such page',
                                 'usage.rst: ref nolabel: no such label',
                                 'design.rst: in no toctree', lint_docs.WHY])

    def test_no_index(self):
        self.assertEqual(self.check(usage=USAGE.replace(':doc:`design` and ', '')),
                         (False, ['usage.rst: in no toctree', lint_docs.WHY]))

    def test_what_docutils_reports(self):
        ok, lines = self.check(index=INDEX, usage=USAGE + '\nSome *emphasis\n', design=DESIGN)
        self.assertFalse(ok)
        self.assertEqual(lines, [
            os.path.join(self.dir, 'usage.rst') +
            ':8: (WARNING/2) Inline emphasis start-string without end-string.',
            'Exiting due to level-2 (WARNING) system message.'])


if __name__ == '__main__':
    unittest.main()
