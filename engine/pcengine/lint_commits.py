# SPDX-License-Identifier: GPL-2.0
"""The commits since tests/commit-lint.base are in kernel style: subject
"area: summary" of at most 72 characters, a blank line, a body that
says why, lines of at most 72 (an indented quote may be longer), a
"Tested:" paragraph, and nothing for checkpatch --strict to say about
the message.  The commits up to the base are history, left alone.
Prints one line per commit checked and exits 1 if any fails.

``python3 -m pcengine.lint_commits CHECKPATCH [BASE]`` (the lint gates
run it as lint/commits).  PC_COMMITS_MAX, default 30: check at most the
newest N commits.
"""

import os
import re
import subprocess
import sys

from . import ROOT
from .console import lines_of

BASE_FILE = os.path.join(ROOT, 'tests', 'commit-lint.base')
SUBJECT_RE = re.compile(r'[a-z0-9][a-z0-9/_.+-]*: [^ ]')
# An awk number: what "$2 + 0" makes of a field (0 when none leads it).
AWK_NUMBER_RE = re.compile(r'[ \t]*([+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?)')
WIDTH = 72


def _text(b):
    return b.decode('utf-8', 'surrogateescape')


def _width(line):
    """A line's length as the shell gate's awk (mawk) counted it: in
    bytes, so a line of non-ASCII letters is held to 72 bytes."""
    return len(line.encode('utf-8', 'surrogateescape'))


def git(args, **kw):
    """git in the checkout, trusted: the gate runs as root (sudo
    tests/run) in a checkout that is not root's."""
    return subprocess.run(['git', '-c', 'safe.directory=' + ROOT] + args, cwd=ROOT, **kw)


def git_out(args):
    """git's stdout as text (its stderr passes through), or None when
    it fails."""
    r = git(args, stdout=subprocess.PIPE)
    return _text(r.stdout) if r.returncode == 0 else None


def message_findings(message):
    """What is wrong with a commit message (git log --format=%B), one
    line per finding, in the shell gate's order."""
    found = []
    prev, tested, body = '', False, False
    for nr, line in enumerate(lines_of(message), 1):
        n = _width(line)
        if nr == 1:
            if not SUBJECT_RE.match(line):
                found.append('subject is not "area: summary": ' + line)
            if n > WIDTH:
                found.append('subject has %d characters (at most %d)' % (n, WIDTH))
            # The subject is no paragraph's end: "Tested:" may follow it.
            continue
        if nr == 2 and line != '':
            found.append('no blank line after the subject')
        if line.startswith('Tested:') and prev == '':
            tested = True
        if not tested and nr > 2 and line != '':
            body = True
        if n > WIDTH and not line.startswith((' ', '\t')):
            found.append('line %d has %d characters (at most %d)' % (nr, n, WIDTH))
        prev = line
    if not body:
        found.append('no body before the Tested: paragraph')
    if not tested:
        found.append('no "Tested:" paragraph')
    return found


def _awk_number(field):
    m = AWK_NUMBER_RE.match(field)
    return float(m.group(1)) if m else 0


def message_end(patch):
    """The line number of the '---' that ends the message in a
    format-patch mail; 0 when there is none."""
    for nr, line in enumerate(lines_of(patch), 1):
        if line == '---':
            return nr
    return 0


def checkpatch_findings(report, end):
    """What checkpatch --terse said about the message (its lines up to
    END, the '---'); the file gates check the files.  EMAIL_SUBJECT is
    not asked for: it takes a subject naming the sparse or checkpatch
    gate for a patch found by that tool."""
    found = []
    for line in lines_of(report):
        fields = line.split(':')
        number = _awk_number(fields[1]) if len(fields) > 1 else 0
        if fields[0] == '-' and number <= end and ':EMAIL_SUBJECT:' not in line:
            found.append(re.sub(r'^-:[0-9]+: ', 'checkpatch: ', line, count=1))
    return found


def message_errors(commit, checkpatch):
    """What is wrong with COMMIT's message: the rules above, then
    checkpatch --strict on its patch (Signed-off-by is not asked for:
    checkpatch finds it missing below the '---').  Run in the checkout:
    checkpatch looks a commit id that the message names up in ./.git."""
    found = message_findings(git_out(['log', '-1', '--format=%B', commit]) or '')
    patch = git(['format-patch', '-1', '--stdout', commit], stdout=subprocess.PIPE).stdout
    r = subprocess.run(['perl', checkpatch, '--strict', '--no-tree', '--terse', '--show-types',
                        '-'], input=patch, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       cwd=ROOT)
    said = _text(r.stdout)
    # 0 or 1 and its total line: it ran (1: it found something, perhaps
    # in the files, which are the file gates' business).
    if r.returncode not in (0, 1) or not re.search(r'(?m)^total: ', said):
        return found + ['checkpatch did not run (status %d): %s' % (
            r.returncode, ' '.join(lines_of(said)[-2:]) or 'no output')]
    return found + checkpatch_findings(said, message_end(_text(patch)))


def base_of(text):
    """The base commit in tests/commit-lint.base: its 40-hex line."""
    return ''.join(re.findall(r'^([0-9a-f]{40})$', text, re.M))


def _subject(commit):
    """The subject as 'cut -c1-60' left it: 60 bytes."""
    s = (git_out(['log', '-1', '--format=%s', commit]) or '').split('\n')[0]
    return _text(s.encode('utf-8', 'surrogateescape')[:60])


def check(checkpatch, base, most, out):
    """Check the newest MOST commits since BASE; the number not in
    kernel style, or None when git could not list them."""
    # A clean clone of main has main only, maybe shallow: the base may
    # be missing.  Then only HEAD is checked: it is newer than the base,
    # or the base would be in the clone.
    if git(['merge-base', '--is-ancestor', base, 'HEAD'], stderr=subprocess.DEVNULL
           ).returncode == 0:
        span = [base + '..HEAD']
    else:
        print('# base %s is not in this clone\'s history: HEAD only' % base[:12], file=out)
        span = ['-1', 'HEAD']
    commits = git_out(['rev-list', '--no-merges', '--max-count=' + most] + span)
    if commits is None:
        return None
    bad = n = 0
    for c in commits.split():
        n += 1
        errors = message_errors(c, checkpatch)
        if errors:
            bad += 1
            print('%s %s: not kernel style' % (c[:12], _subject(c)), file=out)
            for e in errors:
                print('    ' + e, file=out)
        out.flush()
    print('commits since %s: %d checked (at most %s), %d not in kernel style'
          % (base[:12], n, most, bad), file=out)
    return bad


def main(argv=None, env=None, out=None):
    argv = sys.argv[1:] if argv is None else argv
    env = os.environ if env is None else env
    out = out or sys.stdout
    if not 1 <= len(argv) <= 2:
        print('usage: python3 -m pcengine.lint_commits CHECKPATCH [BASE]', file=sys.stderr)
        return 2
    if len(argv) > 1 and argv[1]:
        base = argv[1]
    else:
        with open(BASE_FILE, encoding='utf-8', errors='surrogateescape') as f:
            base = base_of(f.read())
    bad = check(os.path.abspath(argv[0]), base, env.get('PC_COMMITS_MAX') or '30', out)
    return 0 if bad == 0 else 1


if __name__ == '__main__':
    sys.stdout.reconfigure(errors='surrogateescape')
    sys.exit(main())
