# SPDX-License-Identifier: GPL-2.0
"""Every command the docs print names what exists (lint/docs_commands).
The commands: the lines of the code blocks of Documentation/provoke-crash/
*.rst and README.md that run tests/run, make, tools/provoke-crash-vm,
provoke-crash, python3 -m pcengine.MODULE or a program of tests/ or
tools/.  None is run.  The program exists; its options, make targets,
crash types, --kernel series and PC_* variables (and their values) are
ones the tree has.  A PC_CASES pattern matches a case that the scope
(scope.decide) runs on a series of the command's PC_KERNELS, or a gate's
name; the case names come from the table and tests/cases/ without a
kernel's config, so a pattern that only a config rules out passes.

``python3 -m pcengine.docs_commands [ROOT]`` prints a line per wrong
command (FILE:LINE: COMMAND: why) and exits 1, or one line: how many.
"""

import glob
import os
import re
import shlex
import sys

from . import ROOT, matrix, read_text, scope, vm_args

PROGRAMS = ('tests/run', 'make', 'tools/provoke-crash-vm', 'provoke-crash', 'python3')
GATE_NAMES = ('lint/gates', 'host/gates', 'vm/readme_first_command')
GRID = ('direct_', 'point_', 'kdump_', 'kdump_point_', 'refused_')
MATRIX_PATHS = ('task', 'preempt', 'rcu', 'softirq', 'hardirq', 'nmi')
# The values a variable takes: a regular expression, and what it says.
VALUES = dict({k: ('slice|full', 'slice or full') for k in scope.SCOPE_DEFAULTS},
              PC_MATRIX_SCOPE=('|'.join(matrix.SCOPES), ' or '.join(matrix.SCOPES)),
              PC_JOBS=('[1-9][0-9]*', 'a number of guests'),
              PC_TIMEOUT=('[1-9][0-9]*', 'whole seconds'),
              PC_SHARD=('[1-9][0-9]*/[1-9][0-9]*', 'I/N with 1 <= I <= N'),
              PC_ACCEL=('tcg|kvm', 'tcg or kvm'),
              **{k: ('0|1', '0 or 1') for k in ('PC_LINT', 'PC_LIST', 'PC_SNAPSHOT')})


class Tree:
    """What the commands are checked against, read from a checkout."""

    def __init__(self, root=ROOT):
        self.root = root
        text = read_text(os.path.join(root, 'Makefile'))
        self.targets = {t for line in re.findall(r'^([^\s#=:.][^=:]*):(?!=)', text, re.M)
                        for t in line.split()}
        headers = ''.join(read_text(p) for p in glob.glob(os.path.join(root, 'include', '*.h')))
        self.types = set(re.findall(r'^PC_CRASH_TYPE\(\s*([a-z0-9_]+)\s*,', headers, re.M))
        engine = ''.join(read_text(p) for p in
                         glob.glob(os.path.join(root, 'engine', 'pcengine', '*.py')))
        shell = ''.join(read_text(os.path.join(root, p)) for p in
                        ('tests/run', 'tools/provoke-crash-vm', 'Makefile'))
        # PC_STEP_*: what the scheduler tells its steps.
        self.variables = {v for v in set(re.findall(r'[\'"](PC_[A-Z0-9_]+)[\'"]', engine))
                          | set(re.findall(r'\$\{?(PC_[A-Z0-9_]+)', shell))
                          if not v.startswith('PC_STEP_')}
        tool = read_text(os.path.join(root, 'tools', 'provoke-crash.c'))
        self.tool_options = set(re.findall(r'\{ "([a-z-]+)", (?:no|required)_argument',
                                           tool))
        self.tool_commands = set(re.findall(r'strcmp\(cmd, "([a-z]+)"\)', tool))
        self.series = set(vm_args.SERIES) | set(scope.DEFAULT_KERNELS.split())
        cases = os.path.join(root, 'tests', 'cases')
        self.hand = scope.hand_written(root) if os.path.isdir(cases) else {}

    def names(self):
        """Every case name a series may have, from the table alone."""
        found = set(self.hand) | {scope.LKDTM}
        found |= {p + t for t in self.types for p in GRID}
        for path in MATRIX_PATHS:
            for kind in matrix.KINDS:
                found |= {'matrix_%s_%s' % (path, kind), 'matrix_smp_' + kind}
                found |= {'matrix_fatal_%s_%s_%s' % (path, kind, t) for t in self.types}
        return found


def code_lines(text, markdown):
    """(line number, line) of each line in TEXT's code blocks."""
    lines = text.split('\n')
    fenced, base = False, None
    for n, line in enumerate(lines, 1):
        indent = len(line) - len(line.lstrip())
        if markdown:
            if line.lstrip().startswith('```'):
                fenced = not fenced
            elif fenced:
                yield n, line
            continue
        if base is not None and line.strip():
            if indent <= base:
                base = None
            else:
                yield n, line
                continue
        if base is None and re.search(r'::\s*$|^\s*\.\. code(-block)?::', line) \
                and not re.match(r'\s*\.\. (?!code)', line):
            base = indent


def commands(text, markdown):
    """(line number, command) of each line of a code block that runs a
    program of PROGRAMS or of tests/ or tools/; continued lines joined."""
    held, start = '', 0
    for n, line in code_lines(text, markdown):
        line = line.strip()
        if held:
            line, n = held + ' ' + line, start
        held = ''
        if line.endswith('\\'):
            held, start = line[:-1].rstrip(), n
            continue
        try:
            parts = split(re.sub(r'^\$ ', '', line))
        except ValueError:
            parts = [line.split()]
        words = next((p for p in parts if p[0] != 'cd'), [''])
        while words[:1] == ['sudo'] or re.match(r'[A-Z_][A-Z0-9_]*=', words[0]):
            words = words[1:] or ['']
        prog = words[0][2:] if words[0].startswith('./') else words[0]
        if prog in PROGRAMS or prog.startswith(('tests/', 'tools/')):
            # Shown without its comment (shlex drops it anyway).
            yield n, re.sub(r'\s+#\s[^\'"]*$', '', line)


def split(command):
    """The command's simple commands, a list of words each, its $(...)
    taken as one word."""
    lexer = shlex.shlex(re.sub(r'\$\([^()]*\)', 'SUBST', command), posix=True,
                        punctuation_chars=';&|')
    lexer.whitespace_split = True
    parts = [[]]
    for word in lexer:
        if word in ('&&', '||', ';', '|', '&'):
            parts.append([])
        else:
            parts[-1].append(word)
    return [p for p in parts if p]


def check_cases(pattern, env, tree):
    try:
        wanted = re.compile(pattern)
    except re.error as e:
        return "PC_CASES='%s': not a regular expression (%s)" % (pattern, e)
    kernels = [k for k in (env.get('PC_KERNELS') or scope.DEFAULT_KERNELS).split()
               if ':' not in k]
    gates = [g for g in GATE_NAMES if g != 'lint/gates' or env.get('PC_LINT') != '0']
    if any(wanted.search(g) for g in gates):
        return None
    variables = scope.scope_vars(env)
    names = tree.names()
    for series in kernels:
        for name in names:
            if (wanted.search('%s/%s' % (series, name))
                    and scope.decide(series, name, kernels, variables, tree.hand)[0]):
                return None
    return ("PC_CASES='%s' matches no case the bench runs on %s, nor a gate's name (%s)"
            % (pattern, ' '.join(kernels), ', '.join(GATE_NAMES)))


def check_env(env, tree):
    for name, value in env.items():
        if not name.startswith('PC_'):
            continue
        if name not in tree.variables:
            return '%s: no such variable (the engine, tests/run and the runner read none)' % name
        regex, bad = VALUES.get(name, ('.*', ''))
        if name == 'PC_KERNELS':
            regex, bad = '', 'series of %s, or IMAGE:TREE' % ' '.join(sorted(tree.series))
            if all(k in tree.series or ':' in k for k in value.split()):
                continue
        good = re.fullmatch(regex, value)
        if good and name == 'PC_SHARD':
            good = int(value.split('/')[0]) <= int(value.split('/')[1])
        if not good:
            return "%s='%s': expected %s" % (name, value, bad)
    if 'PC_CASES' in env:
        return check_cases(env['PC_CASES'], env, tree)
    return None


def check_vm(args, tree):
    """The runner's own checks, but for the user's files (./repro: "no
    file ... on this machine")."""
    table = {t: () for t in tree.types}
    prog = 'tools/provoke-crash-vm'
    try:
        o = vm_args.parse(args)
        if o.series and '/' not in o.series and ':' not in o.series \
                and o.series not in vm_args.SERIES:
            return "--kernel '%s': not a series (%s)" % (o.series, ', '.join(vm_args.SERIES))
        for spec in o.arms:
            vm_args.check_arm(spec, table, prog)
        if o.trigger:
            vm_args.check_type(o.trigger, table, '--trigger', prog)
        vm_args.check_conflicts(o, True)
    except vm_args.UsageError as e:
        return None if str(e).endswith('on this machine') else str(e)
    return None


def check_tool(args, tree):
    words = []
    while args:
        word = args.pop(0)
        if word.startswith('--'):
            name = word[2:].split('=')[0]
            if name not in tree.tool_options:
                return "unknown option '%s'" % word
            if name == 'arch' and '=' not in word:
                args = args[1:]
        elif word.startswith('-') and len(word) > 1:
            return "'%s': give the long option" % word
        else:
            words.append(word)
    if not words or words[0] not in tree.tool_commands:
        return "no subcommand '%s' (%s)" % ((words or [''])[0], ' '.join(
            sorted(tree.tool_commands)))
    typed = {'arm': 2, 'trigger': 1}.get(words[0])
    if typed and len(words) > typed and words[typed] not in tree.types:
        return "no crash type '%s' in the table" % words[typed]
    return None


def check_make(args, env, tree):
    env = dict(env, **dict(a.split('=', 1) for a in args if re.match('PC_[A-Z0-9_]*=', a)))
    unknown = [a for a in args if not a.startswith('-') and '=' not in a
               and a not in tree.targets]
    if unknown and '-C' not in args:
        return "no make target '%s' in the Makefile" % unknown[0]
    return check_env(env, tree)


def check_python(args, cwd, env, tree):
    """python3 [-P] -m pcengine.MODULE [--option...]: the module is the
    engine's, run from engine/, and takes those options."""
    args = args[args.index('-m') + 1:] if '-m' in args else ['']
    if not args[0].startswith('pcengine'):
        return None
    source = os.path.join(tree.root, 'engine', 'pcengine', args[0].split('.', 1)[-1] + '.py')
    if not os.path.isfile(source):
        return 'no engine module %s' % args[0]
    if cwd != 'engine' and 'PYTHONPATH' not in env:
        return 'python3 -m pcengine needs engine/ (cd engine && ...)'
    text = read_text(source)
    unknown = [a for a in args[1:] if a.startswith('--') and "'%s'" % a.split('=')[0] not in text]
    return "%s takes no option '%s'" % (args[0], unknown[0]) if unknown else None


def check_simple(words, cwd, env, tree):
    """Why WORDS (one simple command, run from CWD, the tree's root
    being '') are wrong, or None."""
    while words and words[0] in ('sudo', 'env'):
        words = words[1:]
    while words and re.match(r'[A-Z_][A-Z0-9_]*=', words[0]):
        name, _, value = words.pop(0).partition('=')
        env[name] = value
    prog, args = (words or [''])[0], words[1:]
    path = os.path.normpath(os.path.join(cwd, prog)) if '/' in prog and prog[0] != '/' else ''
    if path and not os.access(os.path.join(tree.root, path), os.X_OK):
        return '%s: no such program in the tree' % prog
    if prog == 'make':
        return check_make(args, env, tree)
    why = check_env(env, tree)
    if why or prog == 'cd':
        return why
    if path == 'tests/run' and args:
        return 'tests/run takes no arguments (its knobs are PC_* variables)'
    if path == 'tools/provoke-crash-vm':
        return check_vm(args, tree)
    if prog == 'provoke-crash':
        return check_tool(args, tree)
    if prog == 'python3':
        return check_python(args, cwd, env, tree)
    return None


def check_command(command, tree):
    """Why COMMAND (as printed) is wrong, or None."""
    cwd, env = '', {}
    try:
        parts = split(command)
    except ValueError as e:
        return 'cannot split it as sh would (%s)' % e
    for words in parts:
        if words[0] == 'cd' and len(words) > 1:
            cwd = os.path.normpath(os.path.join(cwd, words[1]))
            continue
        why = check_simple(list(words), cwd, dict(env), tree)
        if why:
            return why
    return None


def check_page(text, name, tree):
    """A line per wrong command of the page NAME (README.md: Markdown),
    and how many it checked."""
    found = []
    cmds = list(commands(text, name.endswith('.md')))
    for n, command in cmds:
        why = check_command(command, tree)
        if why:
            found.append('%s:%d: %s: %s' % (name, n, command, why))
    return found, len(cmds)


def check(root=ROOT):
    """(ok, lines): a line per wrong command, or the summary."""
    tree, found, count = Tree(root), [], 0
    paths = sorted(glob.glob(os.path.join(root, 'Documentation', 'provoke-crash', '*.rst')))
    for path in paths + [os.path.join(root, 'README.md')]:
        wrong, n = check_page(read_text(path), os.path.relpath(path, root), tree)
        found, count = found + wrong, count + n
    return not found, found or [
        '%d commands in %d pages: each program, option, target, variable, series, crash type '
        'and PC_CASES pattern exists' % (count, len(paths) + 1)]


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    ok, lines = check(argv[0] if argv else ROOT)
    print('\n'.join(lines))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
