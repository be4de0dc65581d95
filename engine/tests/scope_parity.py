# SPDX-License-Identifier: GPL-2.0
"""Parity of pcengine.scope with the bash bench: not part of check-unit
(each listing prepares every series' case files: minutes on a busy host).

Two checks, from the checkout's root:

    python3 engine/tests/scope_parity.py [--out DIR] [--reuse]

listing: for each configuration of RUNS, ``PC_LIST=1 tests/run`` and
``python3 -m pcengine.scope --list`` on the case files that listing
prepared, line by line.  A kernel that must be built first (clang, unless
cached) is left out of these listings: a listing would build it (an
hour on two cores), so LISTED is the default kernel list.

in_scope: tests/run's own in_scope() and lkdtm_prepare(), sourced from
the files, asked about every candidate of the whole kernel list, clang
included (its candidates are the debug kernel's, a stand-in: both are
x86-64 6.12 builds of one source), for each scope variant, against
pcengine.scope.decide().
"""

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, 'engine'))
from pcengine import scope  # noqa: E402

KERNELS = '6.1 6.12 6.1-rt arm64-6.1 debug clang'
LISTED = '6.1 6.12 6.1-rt arm64-6.1 debug'
VARIANTS = [
    ('defaults', {}),
    ('x86-full', {'PC_X86_SCOPE': 'full'}),
    ('arm64-full', {'PC_ARM64_SCOPE': 'full'}),
    ('debug-full', {'PC_DEBUG_SCOPE': 'full'}),
    ('kdump-full', {'PC_KDUMP_SCOPE': 'full'}),
    ('matrix-kernels', {'PC_MATRIX_SCOPE': 'kernels'}),
    ('matrix-full', {'PC_MATRIX_SCOPE': 'full'}),
]
# The defaults with PC_KERNELS unset (LISTED is the default list), the
# variants with it set.
RUNS = ([(tag, None if not env else LISTED, env) for tag, env in VARIANTS]
        + [('shard-1-of-2', LISTED, {'PC_SHARD': '1/2'}),
           ('shard-2-of-2', LISTED, {'PC_SHARD': '2/2'})])

# in_scope and lkdtm_prepare from the bash files, asked about the names
# on stdin ("SERIES NAME" lines); prints those in scope.
BASH_SCOPE = r'''
set -u
PC_ROOT=$1 kernels=$2
. "$PC_ROOT/tools/pc-vm-lib.sh"
. "$PC_ROOT/tests/kdump-cases.sh"
. "$PC_ROOT/tests/lkdtm-selftest.sh"
eval "$(sed -n '/^arm64_slice_types=/,/^# Decide once/p' "$PC_ROOT/tests/run")"
filter=. listing=1
in_shard() { return 0; }
while read -r series n; do
	if [ "$n" = lkdtm_selftest ]; then
		order=()
		lkdtm_prepare REL "$series"
		[ ${#order[@]} = 1 ] && echo "$series $n"
	elif in_scope "$series" "$n"; then
		echo "$series $n"
	fi
done
'''


def environment(kernels, extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith('PC_') or k in ('PC_ACCEL',)}
    env.update(extra)
    if kernels:
        env['PC_KERNELS'] = kernels
    return env


def bash_listing(out, tag, kernels, extra, reuse):
    """The listing's lines and its scratch directory."""
    env = environment(kernels, extra)
    env.update(PC_OUT=os.path.join(out, tag), PC_LIST='1', PC_LINT='0')
    i, n = scope.parse_shard(env.get('PC_SHARD', '1/1'))
    scratch = os.path.join(out, tag, 'list-%d-of-%d' % (i, n))
    saved = os.path.join(out, tag + '.list')
    if not (reuse and os.path.exists(saved)):
        with open(saved, 'w') as f, open(os.path.join(out, tag + '.log'), 'w') as log:
            subprocess.run(['nice', os.path.join(ROOT, 'tests', 'run')], cwd=ROOT, env=env,
                           stdout=f, stderr=log, check=True)
    with open(saved) as f:
        return f.read().splitlines(), scratch, env


def python_listing(scratch, env):
    out = subprocess.run([sys.executable, '-m', 'pcengine.scope', '--list',
                          '--prepared', scratch], cwd=os.path.join(ROOT, 'engine'), env=env,
                         stdout=subprocess.PIPE, check=True, text=True)
    return out.stdout.splitlines()


def diff(old, new):
    gone = [x for x in old if x not in set(new)]
    added = [x for x in new if x not in set(old)]
    moved = not gone and not added and old != new
    return gone, added, moved


def check_listings(out, reuse):
    failed = 0
    for tag, kernels, extra in RUNS:
        old, scratch, env = bash_listing(out, tag, kernels, extra, reuse)
        new = python_listing(scratch, env)
        gone, added, moved = diff(old, new)
        same = old == new
        failed += not same
        print('listing %-16s bash %4d  python %4d  %s' % (
            tag, len(old), len(new), 'same' if same else
            'DIFF: %d only in bash, %d only in python%s' % (
                len(gone), len(added), ', order differs' if moved else '')))
        for x in gone[:10]:
            print('  - ' + x)
        for x in added[:10]:
            print('  + ' + x)
    return failed


def check_in_scope(out):
    """Each variant's in_scope decisions, bash against python, on the
    candidates of the defaults' listing (clang: the debug kernel's)."""
    _, scratch, _ = bash_listing(out, 'defaults', None, {}, True)
    kernels, candidates = scope.prepared_candidates(scratch, LISTED.split())
    candidates['clang'] = candidates['debug']
    kernels = KERNELS.split()
    hand = scope.hand_written(ROOT)
    failed = 0
    for tag, extra in VARIANTS:
        asked = ['%s %s' % (s, n) for s in kernels for n in candidates[s] + [scope.LKDTM]]
        env = environment(None, extra)
        bash = subprocess.run(['bash', '-c', BASH_SCOPE, 'bash', ROOT, KERNELS], env=env,
                              input='\n'.join(asked) + '\n', stdout=subprocess.PIPE,
                              check=True, text=True).stdout.splitlines()
        variables = scope.scope_vars(env)
        python = [a for a in asked
                  if scope.decide(*a.split(), kernels, variables, hand)[0]]
        gone, added, _ = diff(bash, python)
        failed += bool(gone or added)
        print('in_scope %-16s asked %5d  bash %4d  python %4d  %s' % (
            tag, len(asked), len(bash), len(python),
            'same' if not (gone or added) else 'DIFF'))
        for x in gone[:10]:
            print('  - ' + x)
        for x in added[:10]:
            print('  + ' + x)
    return failed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--out', default=os.path.join(ROOT, 'build', 'scope-parity'))
    ap.add_argument('--reuse', action='store_true', help='keep listings already made')
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    failed = check_listings(args.out, args.reuse) + check_in_scope(args.out)
    print('%d configurations differ' % failed)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
