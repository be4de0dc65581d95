# SPDX-License-Identifier: GPL-2.0
"""The commit-message gate (pcengine.lint_commits): each rule on made
messages, what it keeps of checkpatch's report, and a whole check on a
made repository with a fake checkpatch."""

import io
import os
import subprocess
import tempfile
import unittest
from unittest import mock

from pcengine import lint_commits

GOOD = 'area: summary\n\nWhy the change.\n\nTested: make check-unit\n'
LONG = 'x' * 73


class Rules(unittest.TestCase):
    def check(self, message, *found):
        self.assertEqual(lint_commits.message_findings(message), list(found))

    def test_a_good_message(self):
        self.check(GOOD)
        # As git log --format=%B prints it: a blank line after.
        self.check(GOOD + '\n')
        self.check('tests/lint-shell.sh: x\n\nWhy.\n  ' + LONG + '\n\nTested: yes\n' + LONG[:72])

    def test_the_subject(self):
        self.check(GOOD.replace('area: summary', 'Fix stuff'),
                   'subject is not "area: summary": Fix stuff')
        self.check(GOOD.replace('area: summary', 'area:  two spaces'),
                   'subject is not "area: summary": area:  two spaces')
        subject = 'area: ' + 'y' * 67
        self.check(GOOD.replace('area: summary', subject),
                   'subject has 73 characters (at most 72)')

    def test_the_blank_line_and_the_body(self):
        self.check('area: summary\nbody\n\nTested: yes\n', 'no blank line after the subject',
                   'no body before the Tested: paragraph')
        self.check('area: summary\n\nTested: yes\n', 'no body before the Tested: paragraph')
        # "Tested:" right after the subject is a paragraph of its own.
        self.check('area: summary\nTested: yes\n', 'no blank line after the subject',
                   'no body before the Tested: paragraph')

    def test_tested(self):
        self.check('area: summary\n\nWhy.\n', 'no "Tested:" paragraph')
        # Not a paragraph's start: it does not count.
        self.check('area: summary\n\nWhy.\nTested: yes\n', 'no "Tested:" paragraph')

    def test_long_lines(self):
        self.check('area: summary\n\n%s\n\t%s\n\nTested: %s\n' % (LONG, LONG, LONG),
                   'line 3 has 73 characters (at most 72)',
                   'line 6 has 81 characters (at most 72)')
        # Counted in bytes, as the shell's awk (mawk) did.
        self.check('area: summary\n\n%s\n\nTested: yes\n' % ('\u00e9' * 40),
                   'line 3 has 80 characters (at most 72)')

    def test_no_message(self):
        self.check('', 'no body before the Tested: paragraph', 'no "Tested:" paragraph')


class Checkpatch(unittest.TestCase):
    REPORT = ('-:5: WARNING:TYPO_SPELLING: \'recieve\' may be misspelled\n'
              '-:1: WARNING:EMAIL_SUBJECT: A patch subject line should describe the change\n'
              '-:9: ERROR:GIT_COMMIT_ID: Please use git commit description style\n'
              '-:30: ERROR:MISSING_SIGN_OFF: Missing Signed-off-by: line(s)\n'
              'total: 1 errors, 2 warnings, 0 checks, 2 lines checked\n')

    def test_the_message_only(self):
        self.assertEqual(lint_commits.checkpatch_findings(self.REPORT, 9), [
            "checkpatch: WARNING:TYPO_SPELLING: 'recieve' may be misspelled",
            'checkpatch: ERROR:GIT_COMMIT_ID: Please use git commit description style'])
        self.assertEqual(lint_commits.checkpatch_findings(self.REPORT, 0), [])

    def test_the_end_of_the_message(self):
        patch = 'From x\nSubject: [PATCH] a: b\n\nbody\n---\n f | 1 +\n---\n'
        self.assertEqual(lint_commits.message_end(patch), 5)
        self.assertEqual(lint_commits.message_end('no end\n'), 0)

    def test_the_base_file(self):
        base = 'a' * 40
        self.assertEqual(lint_commits.base_of('# history: %s\n%s\n' % ('b' * 40, base)), base)


def git(repo, *args, **kw):
    return subprocess.run(['git', '-C', repo, '-c', 'user.name=T', '-c', 'user.email=t@e.org']
                          + list(args), check=True, stdout=subprocess.PIPE, **kw).stdout


class Repository(unittest.TestCase):
    """check() on a repository of three commits after the base; the
    fake checkpatch finds a typo in the message and one in the code."""

    def setUp(self):
        tmp = tempfile.TemporaryDirectory()
        self.addCleanup(tmp.cleanup)
        self.repo = repo = tmp.name
        git(repo, 'init', '-q')
        for n, message in enumerate(('base: first\n', GOOD, 'Fix it\n\nWhy.\n\nTested: no\n',
                                     GOOD.replace('Why', 'Whyy'))):
            with open(os.path.join(repo, 'f'), 'a') as f:
                f.write('%d\n' % n)
            git(repo, 'add', 'f')
            git(repo, 'commit', '-q', '-F', '-', input=message.encode())
        self.base = git(repo, 'rev-list', '--max-parents=0', 'HEAD').decode().strip()
        self.checkpatch = os.path.join(repo, 'checkpatch.pl')
        with open(self.checkpatch, 'w') as f:
            f.write('while (<STDIN>) {\n'
                    '  print "-:$.: WARNING:TYPO_SPELLING: Whyy\\n" if /^Whyy/;\n}\n'
                    'print "-:99: WARNING:TYPO_SPELLING: in the code\\n";\n'
                    'print "total: 0 errors, 2 warnings, 0 checks, 9 lines checked\\n";\n'
                    'exit 1;\n')
        patcher = mock.patch.object(lint_commits, 'ROOT', repo)
        patcher.start()
        self.addCleanup(patcher.stop)

    def check(self, base, most='30'):
        out = io.StringIO()
        bad = lint_commits.check(self.checkpatch, base, most, out)
        return bad, out.getvalue().splitlines()

    def head(self, rev):
        return git(self.repo, 'rev-parse', rev).decode()[:12]

    def test_a_checkpatch_that_does_not_run_fails_each_commit(self):
        self.checkpatch += '.none'
        bad, lines = self.check(self.base)
        self.assertEqual(bad, 3)
        self.assertTrue(lines[1].startswith('    checkpatch did not run (status 2): '), lines[1])

    def test_since_the_base(self):
        bad, lines = self.check(self.base)
        self.assertEqual(bad, 2)
        self.assertEqual(lines, [
            self.head('HEAD') + ' area: summary: not kernel style',
            '    checkpatch: WARNING:TYPO_SPELLING: Whyy',
            self.head('HEAD~1') + ' Fix it: not kernel style',
            '    subject is not "area: summary": Fix it',
            'commits since %s: 3 checked (at most 30), 2 not in kernel style' % self.base[:12]])

    def test_at_most(self):
        self.assertEqual(self.check(self.base, '1')[1][-1],
                         'commits since %s: 1 checked (at most 1), 1 not in kernel style'
                         % self.base[:12])

    def test_a_base_not_in_the_clone(self):
        bad, lines = self.check('f' * 40)
        self.assertEqual(lines[0], "# base ffffffffffff is not in this clone's history: HEAD only")
        self.assertEqual(lines[-1], 'commits since ffffffffffff: 1 checked (at most 30), '
                         '1 not in kernel style')


if __name__ == '__main__':
    unittest.main()
