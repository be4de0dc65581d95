# SPDX-License-Identifier: GPL-2.0
"""A bench run's setup, before any series is prepared (bench.py runs it):
the packages the run needs, PC_KERNELS' names, the C unit tests and the
host tool built, the results emptied.

The lint gates need checkpatch (linux-source-6.1), sparse, dkms,
docutils and shellcheck; the fuzzer needs clang and its runtime; the
kdump lane kexec-tools and makedumpfile.  A kernel of files (IMAGE:TREE)
goes by its release's name; "debug" and "clang" keep theirs, and are
built when their series is prepared.
"""

import os
import shutil
import subprocess

from . import ROOT, SetupError, scope
from .build import HOST_TOOL_SOURCES
from .kernels import Host, out_of

LINT_PACKAGES = ('linux-source-6.1 sparse dkms openssl clang libclang-rt-14-dev '
                 'python3-docutils python3-pyflakes kexec-tools makedumpfile shellcheck')


def scratch_of(env):
    """Where the run writes: PC_OUT, or for a listing (PC_LIST=1) a
    directory of its own under it, so that a run can list its own
    slices."""
    out = out_of(env)
    if env.get('PC_LIST') == '1':
        i, n = scope.parse_shard(env.get('PC_SHARD') or '1/1')
        return os.path.join(out, 'list-%d-of-%d' % (i, n))
    return out


def setup(env):
    """(the series' names, the scratch directory); raises SetupError
    (its line already said, on stderr) when the run cannot start."""
    host = Host(env)
    kernels = env['PC_KERNELS'].split()
    host.install_deps(kernels, LINT_PACKAGES.split())
    names = [host.series_name(s) for s in kernels]
    scratch = scratch_of(env)
    if env.get('PC_LIST') != '1' and subprocess.run(
            ['make', '-s', '-C', os.path.join(ROOT, 'tests', 'unit')],
            stdout=subprocess.DEVNULL).returncode:
        raise SetupError('unit test build failed')
    # The tool on the host reads the table for any architecture (--arch).
    os.makedirs(os.path.join(scratch, 'host'), exist_ok=True)
    if subprocess.run(['gcc', '-O2', '-Wall', '-Wextra', '-Werror',
                       '-I' + os.path.join(ROOT, 'include'), '-o',
                       os.path.join(scratch, 'host', 'provoke-crash')]
                      + [os.path.join(ROOT, f) for f in HOST_TOOL_SOURCES]).returncode:
        raise SetupError('provoke-crash build failed')
    for d in ('results', 'prep'):
        shutil.rmtree(os.path.join(scratch, d), ignore_errors=True)
        os.makedirs(os.path.join(scratch, d))
    return names, scratch
