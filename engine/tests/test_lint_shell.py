# SPDX-License-Identifier: GPL-2.0
"""The shell gate (pcengine.lint_shell): what is a shell file, and the
check on a made tree with a fake shellcheck on PATH: a shell file that
FILES does not match fails it."""

import io
import os
import tempfile
import unittest
from unittest import mock

from fixtures import write
from pcengine import ROOT, lint_shell

# A shellcheck that finds something in any file holding "BAD".
FAKE = '''#!/bin/sh
rc=0
while [ "$1" != "${1#-}" ]; do
	[ "$1" = -f ] && shift
	shift
done
for f; do
	if grep -q BAD "$f"; then echo "$f:1:1: warning: bad [SC0000]"; rc=1; fi
done
exit $rc
'''


class IsShell(unittest.TestCase):
    def test_by_name_and_first_line(self):
        with tempfile.TemporaryDirectory() as d:
            cases = {'a.sh': ('', True), 'b.bash-completion': ('', True),
                     'sh': ('#!/bin/sh\n', True), 'env': ('#!/usr/bin/env bash\n', True),
                     'opt': ('#!/bin/bash -e\n', True), 'dash': ('#!/bin/dash', True),
                     'busybox': ('#!/bin/busybox sh\n', True), 'blank': ('  #!/bin/sh  \n', True),
                     'py': ('#!/usr/bin/python3\n', False), 'zsh': ('#!/bin/zsh\n', False),
                     'shx': ('#!/bin/shx\n', False), 'text': ('sh\n', False),
                     'empty': ('', False)}
            for name, (text, want) in cases.items():
                write(os.path.join(d, name), text)
                self.assertEqual(lint_shell.is_shell(os.path.join(d, name)), want, name)
            self.assertFalse(lint_shell.is_shell(os.path.join(d, 'missing')))


class Tree(unittest.TestCase):
    """A tree of a few files (no git checkout: every file but build/'s);
    most of FILES matches nothing there, which is fine."""

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.root = root = os.path.join(tmp.name, 'tree')
        write(os.path.join(root, 'tests', 'run'), '#!/usr/bin/env bash\ntrue\n', 0o755)
        write(os.path.join(root, 'tests', 'x.sh'), 'true\n')
        write(os.path.join(root, 'tests', 'table.py'), '#!/usr/bin/python3\n')
        write(os.path.join(root, 'guest', 'init'), '#!/bin/busybox sh\n')
        write(os.path.join(root, 'tools', 'a.bash-completion'), 'complete\n')
        # Not the tree's: what the generators wrote, and the build.
        write(os.path.join(root, 'engine', 'tests', 'cases', 'made.sh'), 'true\n')
        write(os.path.join(root, 'build', 'out.sh'), 'true\n')
        bin_dir = os.path.join(tmp.name, 'bin')
        write(os.path.join(bin_dir, 'shellcheck'), FAKE, 0o755)
        patcher = mock.patch.dict(os.environ, PATH=bin_dir + os.pathsep + os.environ['PATH'])
        patcher.start()
        self.addCleanup(patcher.stop)

    def check(self):
        out = io.StringIO()
        return lint_shell.check(self.root, out), out.getvalue().splitlines()

    def test_every_shell_file_listed(self):
        self.assertEqual(sorted(lint_shell.listed(self.root)),
                         ['guest/init', 'tests/run', 'tests/x.sh', 'tools/a.bash-completion'])
        self.assertEqual(self.check(), (0, ['shellcheck -x: 4 shell files, no finding']))

    def test_an_unlisted_shell_file(self):
        write(os.path.join(self.root, 'extra', 'runme'), '#!/bin/sh\n')
        write(os.path.join(self.root, 'extra', 'notes.txt'), 'sh\n')
        self.assertEqual(self.check(), (1, [
            'extra/runme: a shell file that engine/pcengine/lint_shell.py does not check']))

    def test_a_finding(self):
        write(os.path.join(self.root, 'tests', 'y.sh'), 'BAD\n')
        self.assertEqual(self.check(), (1, ['tests/y.sh:1:1: warning: bad [SC0000]']))

    def test_no_shellcheck(self):
        with mock.patch.object(lint_shell.shutil, 'which', return_value=None):
            self.assertEqual(self.check(), (1, [
                'shellcheck is not installed (apt-get install shellcheck)']))


class Files(unittest.TestCase):
    def test_the_tree_checks_each_file_once(self):
        files = lint_shell.listed(ROOT)
        self.assertEqual(len(files), len(set(files)))
        self.assertIn('tools/provoke-crash.bash-completion', files)
        self.assertIn('guest/init', files)
        self.assertNotIn('tests/matrix-table.py', files)


if __name__ == '__main__':
    unittest.main()
