# SPDX-License-Identifier: GPL-2.0
"""The docs' commands against the tree (pcengine.docs_commands), on
small made-up pages: which lines are commands, and a wrong option, an
unknown target or type, a variable nobody reads and a PC_CASES pattern
that runs nothing each fail with a line that says so."""

import unittest

from pcengine import docs_commands

TREE = docs_commands.Tree()


def wrong(text, name='page.rst'):
    return docs_commands.check_page(text, name, TREE)[0]


def block(*lines):
    return 'Run it::\n\n' + ''.join('    %s\n' % line for line in lines) + '\nThen.\n'


class Commands(unittest.TestCase):
    def test_code_blocks_only(self):
        text = ('Prose: make nothing, tests/run whatever.\n\n' + block(
            'make unit      # comment', 'cat crashpoints', 'PC_LIST=1 tests/run') +
            '\n.. toctree::\n\n   tests/run\n\n.. code-block:: sh\n\n   provoke-crash status\n')
        self.assertEqual(list(docs_commands.commands(text, False)),
                         [(5, 'make unit'), (7, 'PC_LIST=1 tests/run'),
                          (17, 'provoke-crash status')])

    def test_markdown_fences_and_continued_lines(self):
        text = 'make x\n\n```sh\nsudo ./tools/provoke-crash-vm \\\n  --smp 2\necho hi\n```\n'
        self.assertEqual(list(docs_commands.commands(text, True)),
                         [(4, 'sudo ./tools/provoke-crash-vm --smp 2')])


class Wrong(unittest.TestCase):
    def test_good_commands_pass(self):
        self.assertEqual(wrong(block(
            "PC_KERNELS=6.1 PC_CASES='race_use_after_free$' tests/run",
            "PC_KERNELS='6.1 arm64-6.1' PC_CASES='^arm64-6\\.1/point_bugon$' PC_JOBS=1 tests/run",
            "PC_CASES='^(lint|host)/' PC_SHARD=1/2 ./tests/run",
            'make KDIR=/lib/modules/$(uname -r)/build',
            "tools/provoke-crash-vm --kernel 6.12 --arm 'vfs_read bugon comm=head' --timing",
            'tools/provoke-crash-vm --kernel arch/x86/boot/bzImage --kdir .',
            # The user's own file: not the docs' to have.
            'tools/provoke-crash-vm --file ./repro --run /root/repro',
            'provoke-crash trigger panic --yes',
            'cd engine && python3 -m pcengine.scope --list --why')), [])

    def test_a_wrong_option(self):
        self.assertEqual(wrong(block('tools/provoke-crash-vm --kernal 6.1')),
                         ["page.rst:3: tools/provoke-crash-vm --kernal 6.1: unknown option "
                          "'--kernal' (see --help)"])
        self.assertIn("--smp '9': give a whole number from 1 to 8",
                      wrong(block('tools/provoke-crash-vm --smp 9'))[0])
        self.assertIn("unknown option '--force'",
                      wrong(block('provoke-crash disarm --force'))[0])
        self.assertIn('tests/run takes no arguments', wrong(block('tests/run --quick'))[0])
        self.assertIn("pcengine.scope takes no option '--lsit'",
                      wrong(block('cd engine && python3 -m pcengine.scope --lsit'))[0])

    def test_an_unknown_target(self):
        self.assertEqual(wrong('```sh\nmake check-quick\n```\n', 'README.md'),
                         ["README.md:2: make check-quick: no make target 'check-quick' in the "
                          "Makefile"])

    def test_an_unknown_type_series_or_program(self):
        self.assertIn("no crash type 'bug_on'",
                      wrong(block("tools/provoke-crash-vm --arm 'vfs_read bug_on'"))[0])
        self.assertIn("no crash type 'bug_on' in the table",
                      wrong(block('provoke-crash trigger bug_on --yes'))[0])
        self.assertIn("--kernel '6.2': not a series",
                      wrong(block('tools/provoke-crash-vm --kernel 6.2'))[0])
        self.assertIn("PC_KERNELS='6.1 6.2': expected series of",
                      wrong(block("PC_KERNELS='6.1 6.2' tests/run"))[0])
        self.assertIn('tools/no-such: no such program in the tree',
                      wrong(block('tools/no-such --x'))[0])
        self.assertIn('needs engine/', wrong(block('python3 -m pcengine.scope'))[0])

    def test_variables_and_their_values(self):
        self.assertIn('PC_KERNEL: no such variable', wrong(block('PC_KERNEL=6.1 tests/run'))[0])
        self.assertIn("PC_MATRIX_SCOPE='all': expected sample or first or kernels or full",
                      wrong(block('PC_MATRIX_SCOPE=all tests/run'))[0])
        self.assertIn("PC_SHARD='3/2': expected I/N", wrong(block('PC_SHARD=3/2 tests/run'))[0])
        self.assertIn("PC_JOBS='0'", wrong(block('make check PC_JOBS=0'))[0])

    def test_a_pattern_that_matches_nothing(self):
        self.assertEqual(wrong(block("PC_KERNELS=6.1 PC_CASES='(regex)$' tests/run")),
                         ["page.rst:3: PC_KERNELS=6.1 PC_CASES='(regex)$' tests/run: "
                          "PC_CASES='(regex)$' matches no case the bench runs on 6.1, nor a "
                          "gate's name (lint/gates, host/gates, vm/readme_first_command)"])
        # A long race the scope leaves out of a later x86-64 kernel.
        self.assertIn('matches no case',
                      wrong(block("PC_KERNELS='6.1 6.12' PC_CASES='^6\\.12/arm_disarm_race$' "
                                  'tests/run'))[0])
        self.assertEqual(wrong(block("PC_KERNELS='6.1 6.12' PC_X86_SCOPE=full "
                                     "PC_CASES='^6\\.12/arm_disarm_race$' tests/run")), [])
        self.assertIn('not a regular expression', wrong(block("PC_CASES='(' tests/run"))[0])
        self.assertIn('matches no case', wrong(block("PC_LINT=0 PC_CASES='^lint/' tests/run"))[0])


if __name__ == '__main__':
    unittest.main()
