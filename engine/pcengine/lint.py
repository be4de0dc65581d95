# SPDX-License-Identifier: GPL-2.0
"""The lint gates, one KTAP result line each (unnumbered; the report
numbers them): checkpatch --strict, the new commits' messages
(lint_commits.py), every shell file through shellcheck -x (make
check-shell), W=1 and sparse (C=1) on every kernel of the matrix, the
tool with -Wall -Wextra -Werror, a DKMS build, make install/uninstall,
the documentation through docutils (lint_docs.py), the commands it
prints (docs_commands.py), and the bash completion.  Each writes its
log under PC_OUT/lint; a gate that passes may print a proof line
('#   ...'), one that fails its log's tail.

``python3 -m pcengine.lint REL...`` runs them against those kernel
releases (DKMS and make install against the first).  ``python3 -m
pcengine.lint lint`` is the bench's step: the x86-64 series of
PC_STEP_KERNELS, into PC_OUT/results/lint.result.  The status is 0
either way: the result lines say what failed.
"""

import glob
import os
import re
import shutil
import subprocess
import sys

from . import ROOT, SetupError, builtkernel, engine_env, kernels, logged, read_text, suites
from .build import HOST_TOOL_SOURCES
from .console import lines_of

# checkpatch.pl and what it reads, from Debian's 6.1 source package.
SOURCE = '/usr/src/linux-source-6.1.tar.xz'
CHECKPATCH_FILES = ('linux-source-6.1/scripts/checkpatch.pl',
                    'linux-source-6.1/scripts/spelling.txt',
                    'linux-source-6.1/scripts/const_structs.checkpatch')
# docutils is not the standard library's: Debian's python3 has it.
DOCS_PYTHON = '/usr/bin/python3'
TAIL = 20
# Asked of the completion: subcommands, a crash type, and the crash
# types of the tool's table that start so.
COMPLETION = '''
. "$1"
ask() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _provoke_crash; echo "${COMPREPLY[*]}"; }
ask provoke-crash ar
ask provoke-crash trigger null_d
ask provoke-crash arm vfs_read corrupt_s
'''


def _lines(log):
    try:
        return lines_of(read_text(log))
    except OSError:
        return []


def last_line(log):
    """LOG's last line ('' when empty): a gate's proof, where its tool
    sums up what it did."""
    lines = _lines(log)
    return lines[-1] if lines else ''


def result(rc, name, log, proof=''):
    """The result lines of gate NAME: ok when RC is 0 (then PROOF, if
    any, the line that shows what was done), else LOG's tail."""
    if rc == 0:
        return ['ok lint/' + name] + (['#   ' + proof] if proof else [])
    return ['not ok lint/' + name] + ['# ' + line for line in _lines(log)[-TAIL:]]


def skip(name, why):
    return ['ok lint/%s # SKIP %s' % (name, why)]


def _copy(names, dest):
    """cp -r NAMES DEST/: trees and files, symbolic links kept, fresh
    times (a module's objects are no newer than their copied sources)."""
    os.makedirs(dest, exist_ok=True)
    for src in names:
        to = os.path.join(dest, os.path.basename(src))
        if os.path.isdir(src) and not os.path.islink(src):
            shutil.copytree(src, to, symlinks=True, copy_function=shutil.copy,
                            dirs_exist_ok=True)
        else:
            shutil.copy(src, to, follow_symlinks=False)


def _chain(log, steps, env):
    """Run STEPS into LOG, as 'a && b && ...': the first that fails
    gives the status.  A step is argv, or a function of the open log
    giving a status."""
    with open(log, 'wb') as f:
        for step in steps:
            f.flush()
            if callable(step):
                rc = step(f)
            else:
                rc = subprocess.run(step, stdout=f, stderr=subprocess.STDOUT, env=env).returncode
            if rc:
                return rc
    return 0


def checkpatch(out, env):
    """checkpatch --strict on the C sources (make checkpatch), then the
    commits since tests/commit-lint.base (lint_commits.py)."""
    if not os.path.isfile(SOURCE):
        return skip('checkpatch', SOURCE + ' not installed') + \
            skip('commits', SOURCE + ' not installed')
    sys.stdout.flush()
    script = os.path.join(out, CHECKPATCH_FILES[0])
    if subprocess.run(['tar', '-C', out, '-xf', SOURCE, '--wildcards'] + list(CHECKPATCH_FILES),
                      env=env).returncode or not os.path.isfile(script):
        why = 'could not take checkpatch.pl from ' + SOURCE
        return ['not ok lint/checkpatch # ' + why, 'not ok lint/commits # ' + why]
    log = os.path.join(out, 'checkpatch.log')
    rc = logged(['make', '-s', '-C', ROOT, 'checkpatch', 'CHECKPATCH=' + script], log, env=env)
    lines = result(rc, 'checkpatch', log, last_line(log))
    if subprocess.run(['git', '-c', 'safe.directory=' + ROOT, '-C', ROOT, 'rev-parse', '-q',
                       '--verify', 'HEAD'], stdout=subprocess.DEVNULL,
                      stderr=subprocess.DEVNULL, env=env).returncode:
        return lines + skip('commits', 'not a git checkout')
    log = os.path.join(out, 'commits.log')
    rc = logged([sys.executable, '-P', '-m', 'pcengine.lint_commits', script], log,
                 env=engine_env(env))
    return lines + result(rc, 'commits', log, last_line(log))


def shellcheck(out, env):
    """The shell is shellcheck-clean, and every shell file is checked."""
    if not shutil.which('shellcheck', path=env.get('PATH')):
        return skip('shellcheck', 'shellcheck not installed')
    log = os.path.join(out, 'shellcheck.log')
    rc = logged(['make', '-s', '-C', ROOT, 'check-shell'], log, env=env)
    return result(rc, 'shellcheck', log, last_line(log))


def kernel_dir(rel, roots):
    """(the build tree to build the module against, the name of REL's
    result): Debian's headers and the series (6.1, 6.12-rt), or a kernel
    of files' tree under its root of links and its release."""
    parts = rel.split('.')
    series = parts[0] + '.' + (parts[1] if len(parts) > 1 else rel)
    # Debian's PREEMPT_RT flavour: a name of its own beside the cloud one.
    if rel.endswith('-rt-amd64'):
        series += '-rt'
    own = os.path.join(roots, rel)
    if os.path.isdir(own):
        # Another suite's kernel (its chroot) goes by its series too.
        return (os.path.join(own, 'usr', 'src', 'linux-headers-' + rel),
                series if suites.build_root(own) else rel)
    return '/usr/src/linux-headers-' + rel, series


def w1_sparse(out, rel, roots, env):
    """The module built with W=1 and sparse (C=1) against REL, in a copy
    of its own: no warning.  The warnings come first, as grep printed
    them."""
    series = kernel_dir(rel, roots)[1]
    tree = os.path.join(out, 'src-' + rel)
    _copy([os.path.join(ROOT, 'module'), os.path.join(ROOT, 'include')], tree)
    log = os.path.join(out, 'sparse-%s.log' % rel)
    # As every module build: REL's compiler (another suite's in its
    # chroot, with its sparse), cross or LLVM= as REL's kernel was built.
    host = kernels.Host(dict(env, PC_KERNEL_ROOTS=roots))
    argv = host.make(rel, ['M=' + os.path.join(tree, 'module'), 'W=1', 'C=1', 'modules'],
                     binds=[tree])
    rc = logged(argv, log, env=env)
    lines = _lines(log)
    warned = [line for line in lines if re.search('warning:|error:', line)] if rc == 0 else []
    checked = len([line for line in lines if line.startswith('  CHECK')])
    # A build that checked nothing proves nothing.
    return warned + result(rc or len(warned) or not checked, 'w1_sparse_' + series, log,
                           'W=1 C=1 against %s: sparse checked %d files, no warning'
                           % (rel, checked))


def tool(out, env):
    """The tool with -Wall -Wextra -Werror, built into OUT (the
    completion's check runs it)."""
    log = os.path.join(out, 'tool.log')
    rc = logged(['gcc', '-O2', '-Wall', '-Wextra', '-Werror',
                  '-I' + os.path.join(ROOT, 'include'), '-o', os.path.join(out, 'provoke-crash')]
                 + [os.path.join(ROOT, s) for s in HOST_TOOL_SOURCES], log, env=env)
    return result(rc, 'tool_werror', log)


def dkms(out, rel, env):
    """DKMS adds and builds the module against REL, in trees of our own."""
    if not shutil.which('dkms', path=env.get('PATH')):
        return skip('dkms_build', 'dkms not installed')
    src, dtree = os.path.join(out, 'dkms-src'), os.path.join(out, 'dkms-tree')
    os.makedirs(dtree, exist_ok=True)
    _copy([os.path.join(ROOT, n) for n in ('module', 'include', 'dkms.conf')],
          os.path.join(src, 'provoke-crash-0.1'))
    trees = ['--sourcetree', src, '--dkmstree', dtree]
    built = os.path.join(dtree, 'provoke-crash', '0.1', rel, '*', 'module', 'provoke_crash.ko*')

    def ls(f):
        found = sorted(glob.glob(built))
        f.write(''.join(p + '\n' for p in found).encode() if found else
                ("ls: cannot access '%s': No such file or directory\n" % built).encode())
        return 0 if found else 2
    log = os.path.join(out, 'dkms.log')
    rc = _chain(log, [['dkms', 'add', '-m', 'provoke-crash', '-v', '0.1'] + trees,
                      ['dkms', 'build', '-m', 'provoke-crash', '-v', '0.1', '-k', rel] + trees,
                      ls], env)
    return result(rc, 'dkms_build', log,
                  'dkms built ' + last_line(log).replace(out + '/', '', 1))


def install(out, rel, env):
    """make install and uninstall into a staging root: each file where
    it belongs, then none left."""
    src, stage = os.path.join(out, 'install-src'), os.path.join(out, 'stage')
    make = ['make', '-C', src, 'KVER=' + rel, 'DESTDIR=' + stage]
    local = os.path.join(stage, 'usr', 'local')
    files = (os.path.join(stage, 'lib', 'modules', rel, 'extra', 'provoke_crash.ko'),
             os.path.join(local, 'share', 'man', 'man8', 'provoke-crash.8'),
             os.path.join(local, 'share', 'bash-completion', 'completions', 'provoke-crash'))
    tool_path = os.path.join(local, 'sbin', 'provoke-crash')

    def copied(f):
        _copy([os.path.join(ROOT, n) for n in ('Makefile', 'module', 'include', 'tools')], src)
        return 0

    def installed(f):
        return 0 if all(map(os.path.isfile, files)) and os.access(tool_path, os.X_OK) else 1

    def none_left(f):
        left = [p for d, _, names in os.walk(stage) for p in (os.path.join(d, n) for n in names)
                if os.path.isfile(p) and not os.path.islink(p)]
        return 1 if left else 0
    log = os.path.join(out, 'install.log')
    rc = _chain(log, [copied, make + ['install'], installed, make + ['uninstall'], none_left],
                env)
    return result(rc, 'install_uninstall', log)


def docs(out, env):
    """The documentation holds together (lint_docs.py)."""
    log = os.path.join(out, 'docs.log')
    python = DOCS_PYTHON if os.path.exists(DOCS_PYTHON) else sys.executable
    rc = logged([python, '-P', '-m', 'pcengine.lint_docs',
                  os.path.join(ROOT, 'Documentation', 'provoke-crash')], log,
                 env=engine_env(env))
    return result(rc, 'docs_rst', log, last_line(log))


def docs_commands(out, env):
    """Every command the docs print names what exists
    (docs_commands.py)."""
    log = os.path.join(out, 'docs-commands.log')
    rc = logged([sys.executable, '-P', '-m', 'pcengine.docs_commands'], log,
                env=engine_env(env))
    return result(rc, 'docs_commands', log, last_line(log))


def completion(out, env):
    """The bash completion (a bash run of it: it is bash code) answers
    subcommands, and crash types from the tool's table: the third
    answer is every type whose name starts so."""
    log = os.path.join(out, 'completion.log')
    with open(log, 'wb') as f:
        got = subprocess.run(['bash', '-c', COMPLETION, '_',
                              os.path.join(ROOT, 'tools', 'provoke-crash.bash-completion')],
                             stdout=subprocess.PIPE, stderr=f,
                             env=dict(env, PATH=out + os.pathsep + env.get('PATH', ''))
                             ).stdout.rstrip(b'\n')
        f.write(got + b'\n')
        f.flush()
        try:
            types = subprocess.run([os.path.join(out, 'provoke-crash'), 'types'],
                                   stdout=subprocess.PIPE, stderr=f, env=env).stdout
        except OSError as e:
            f.write(('lint: %s\n' % e).encode())
            types = b''
        names = [n for n in (line.split(b' ')[0] for line in types.split(b'\n'))
                 if n.startswith(b'corrupt_s')]
        want = (b'arm\nnull_dereference\n' + b' '.join(names)).rstrip(b'\n')
        f.write(b'want: ' + want + b'\n')
    return result(0 if got == want else 1, 'bash_completion', log)


def main(releases, env):
    """The gates against RELEASES (DKMS and make install against the
    first: none, they skip), their lines on stdout as each ends."""
    out = os.path.join(kernels.out_of(env), 'lint')
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    # A kernel of files (the debug and clang kernels, IMAGE:TREE) has
    # its build tree under the bench's root of links.
    roots = kernels.roots_of(env)
    gates = [lambda: checkpatch(out, env), lambda: shellcheck(out, env)]
    gates += [lambda rel=rel: w1_sparse(out, rel, roots, env) for rel in releases]
    gates += [lambda: tool(out, env)]
    if releases:
        gates += [lambda: dkms(out, releases[0], env), lambda: install(out, releases[0], env)]
    else:
        gates += [lambda: skip('dkms_build', 'no kernel release') +
                  skip('install_uninstall', 'no kernel release')]
    gates += [lambda: docs(out, env), lambda: docs_commands(out, env),
              lambda: completion(out, env)]
    for gate in gates:
        for line in gate():
            print(line)
        sys.stdout.flush()
    return 0


def step_releases(env):
    """The bench's lint step's releases, and a failed line for each
    series that has none: its x86-64 series; a built kernel's release
    waits for its build (apart, at low priority), which the gates then
    check too."""
    host = kernels.Host(env)
    series = [s for s in (env.get('PC_STEP_KERNELS') or '').split()
              if kernels.series_arch(s) == 'amd64']
    late = [s for s in series if builtkernel.built_kernel(s)]
    releases, failed = [], []
    for s in [s for s in series if s not in late] + late:
        try:
            if s in late:
                kernels.build_apart([s], env)
            releases.append(host.kernel_release(s))
        except SetupError as e:
            failed.append('not ok lint/release_%s # %s' % (
                s, e.args[0] if e.args and e.args[0] else 'no release (why: above)'))
    return releases, failed


def step(env):
    """The bench's step: its lines, and what went wrong, into
    PC_OUT/results/lint.result."""
    with open(os.path.join(kernels.out_of(env), 'results', 'lint.result'), 'w') as f:
        os.dup2(f.fileno(), 1)
        os.dup2(f.fileno(), 2)
    # In order with what the steps under it write there.
    sys.stdout.reconfigure(line_buffering=True)
    releases, failed = step_releases(env)
    for line in failed:
        print(line)
    return main(releases, env)


if __name__ == '__main__':
    args = sys.argv[1:]
    sys.stdout.reconfigure(errors='surrogateescape')
    if args == ['lint']:
        sys.exit(step(dict(os.environ)))
    if not args or args[0].startswith('-'):
        sys.exit('usage: python3 -m pcengine.lint KERNEL_RELEASE...\n'
                 '       python3 -m pcengine.lint lint   (the bench\'s step)')
    sys.exit(main(args, dict(os.environ)))
