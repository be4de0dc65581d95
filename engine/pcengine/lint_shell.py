# SPDX-License-Identifier: GPL-2.0
"""The tree's shell is shellcheck-clean (make check-shell; the lint
gates run it as lint/shellcheck): shellcheck -x, every severity, on
every shell file that FILES matches.  Each file names its shell (a
shebang or "shellcheck shell="); the guest's (/init, the case files) is
busybox ash, checked as dash.  A disable is for one line, with its
reason.  Every shell file of the tree must be matched: a file ending in
.sh or .bash-completion, or one whose first line runs a shell, that is
not fails the gate.  Prints the findings, or one line: how many files,
no finding.

``python3 -m pcengine.lint_shell``
"""

import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys

from . import ROOT

# Globs from the top of the tree; of what each matches, the shell files
# are checked.  A glob that matches nothing is fine: the bash that the
# engine replaces goes, and its names with it.
FILES = (
    '.ci/run',
    'tests/*', 'tests/bench/*', 'tests/cases/*.sh',
    'guest/init', 'guest/capture-init', 'guest/*.sh',
    'tools/*.sh', 'tools/*.bash-completion', 'module/*.sh',
)
# Not checked: saved data, not code of ours to run: what the bash
# generators wrote, kept byte for byte as the engine's tests hold their
# Python successors to it, and the saved guests' case files.
NOT_CHECKED = re.compile(r'^engine/tests/(cases|matrix|consoles)/')
SHEBANG_RE = re.compile(rb'^#!.*[/ ](ba|da)?sh( |$)')
# Files to one shellcheck: -x parses what each file sources again (the
# guest's pc-protocol.sh, by most).
BATCH = 4


def is_shell(path):
    """PATH is shell by its name or its first line."""
    if path.endswith(('.sh', '.bash-completion')):
        return True
    try:
        with open(path, 'rb') as f:
            first = f.readline()
    except OSError:
        return False
    # As bash's 'read -r' has it: no NUL, no blanks around.
    return bool(SHEBANG_RE.match(first.replace(b'\0', b'').strip(b' \t\n')))


def listed(root):
    """The shell files FILES matches, in its order, each once (paths
    from ROOT)."""
    found = []
    for pattern in FILES:
        for f in sorted(glob.glob(pattern, root_dir=root)):
            path = os.path.join(root, f)
            if f not in found and os.path.isfile(path) and is_shell(path):
                found.append(f)
    return found


def tree(root):
    """The tree's files: git's (tracked, and untracked but not
    ignored), or outside a checkout every file but build/'s."""
    def git(args):
        # Run as root in a checkout that is not root's: trust it.
        return subprocess.run(['git', '-c', 'safe.directory=' + root] + args, cwd=root,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    if git(['rev-parse', '-q', '--verify', 'HEAD']).returncode == 0:
        out = git(['ls-files', '-z', '--cached', '--others', '--exclude-standard']).stdout
        return [os.fsdecode(f) for f in out.split(b'\0') if f]
    files = []
    for d, dirs, names in os.walk(root):
        if d == root:
            dirs[:] = [x for x in dirs if x not in ('build', '.git')]
        rel = os.path.relpath(d, root)
        files += [os.path.normpath(os.path.join(rel, n)) for n in names
                  if os.path.isfile(os.path.join(d, n))
                  and not os.path.islink(os.path.join(d, n))]
    return files


def unlisted(root, files):
    """The shell files of the tree that FILES does not match."""
    checked = set(files)
    return [f for f in tree(root)
            if os.path.isfile(os.path.join(root, f)) and not NOT_CHECKED.match(f)
            and f not in checked and is_shell(os.path.join(root, f))]


def shellcheck(root, files, out):
    """shellcheck -x on FILES, a few files to a shellcheck, one per CPU;
    its findings onto OUT, a batch's together.  True when it found
    nothing."""
    batches = [files[i:i + BATCH] for i in range(0, len(files), BATCH)]

    def run(batch):
        return subprocess.run(['shellcheck', '-x', '-f', 'gcc'] + batch, cwd=root,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    clean = True
    with concurrent.futures.ThreadPoolExecutor(len(os.sched_getaffinity(0))) as pool:
        for r in pool.map(run, batches):
            out.write(r.stdout.decode('utf-8', 'surrogateescape'))
            out.flush()
            clean = clean and r.returncode == 0
    return clean


def check(root=ROOT, out=None):
    out = out or sys.stdout
    files = listed(root)
    missing = unlisted(root, files)
    for f in missing:
        print('%s: a shell file that engine/pcengine/lint_shell.py does not check' % f,
              file=out)
    if not shutil.which('shellcheck'):
        print('shellcheck is not installed (apt-get install shellcheck)', file=out)
        return 1
    if not files:
        print('no shell file found under %s' % root, file=out)
        return 1
    if not shellcheck(root, files, out) or missing:
        return 1
    print('shellcheck -x: %d shell files, no finding' % len(files), file=out)
    return 0


def main(argv=None):
    if sys.argv[1:] if argv is None else argv:
        print('usage: python3 -m pcengine.lint_shell', file=sys.stderr)
        return 2
    return check()


if __name__ == '__main__':
    sys.stdout.reconfigure(errors='surrogateescape')
    sys.exit(main())
