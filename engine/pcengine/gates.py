# SPDX-License-Identifier: GPL-2.0
"""The bench's host-side gates, on the host while the guests boot (slice
1 of a sharded run): the parser's unit tests, a bounded fuzzing run, the
JUnit writer's own check, ``make check-unit``, the docs check and the
shard check.  Each writes its result file under RESULTS, which the
scheduler (bench.py) created empty and reads after the run.

``python3 -m pcengine.gates host-gates --results DIR --host-tool TOOL``
is the scheduler's ``host-gates`` step (its first word names the step).
PC_FUZZ_SECONDS bounds the fuzzing run (default 30), and
PC_STEP_SHARD_SERIES names the series the shard check lists (none: it is
skipped).
"""

import argparse
import collections
import difflib
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

from . import ROOT, logged, read_text, write_lines
from .console import lines_of

TESTS = os.path.join(ROOT, 'tests')
# The generated tables in Documentation/provoke-crash/, the marker
# around each and the option of 'provoke-crash types' that prints it.
DOC_TABLES = (('crash-types.rst', 'TYPES', '--rst'), ('lkdtm.rst', 'LKDTM', '--lkdtm-rst'))
SLICES = 2


def unit(results):
    """The parser's unit tests, as KTAP; one that cannot run fails by
    name, with why."""
    with open(os.path.join(results, 'unit.ktap'), 'wb') as f:
        for test in ('parse_test', 'compare_test'):
            try:
                subprocess.run([os.path.join(TESTS, 'unit', test)], stdout=f,
                               stderr=subprocess.STDOUT)
            except OSError as e:
                f.write(('not ok 1 %s # %s\n' % (test, e)).encode())


def fuzz(results, seconds):
    log = os.path.join(results, 'fuzz.log')
    ok = logged(['make', '-s', '-C', os.path.join(TESTS, 'fuzz'), 'run',
                  'FUZZ_SECONDS=%s' % seconds], log) == 0
    text = lines_of(read_text(log))
    if ok:
        done = [m for line in text for m in re.findall(r'Done [0-9]+ runs', line)]
        lines = ['ok fuzz/parse_line',
                 '# %s in %ss, no finding' % (done[-1] if done else '', seconds)]
    else:
        found = [line for line in text
                 if re.search(r'ERROR|SUMMARY|Test unit written|^ +#[0-9] ', line)]
        lines = ['not ok fuzz/parse_line'] + ['# ' + line for line in found[:15]]
    write_lines(os.path.join(results, 'fuzz.result'), lines)


def junit_check(results):
    """The JUnit writer keeps every result: a sample with a pass, a
    failure with its diagnostics and a skip gives XML with them."""
    sample = 'ok 1 a/p\nnot ok 2 a/f <&>\n# why\nok 3 b/s # SKIP no X\n'
    why = ''
    r = subprocess.run([os.path.join(TESTS, 'ktap-junit')], input=sample.encode(),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        t = ET.fromstring(r.stdout)
        counts = (t.get('tests'), t.get('failures'), t.get('skipped'))
        failure = t.find('testcase[@name="f <&>"]/failure')
        if counts != ('3', '1', '1'):
            why = 'tests, failures, skipped: %s, not 3, 1, 1' % ', '.join(map(str, counts))
        elif failure is None or failure.text != 'why\n':
            why = 'the failure of "f <&>" lost its diagnostic'
    except ET.ParseError as e:
        why = 'not XML: %s' % e
    why = (r.stderr.decode('utf-8', 'replace') + why).strip()
    write_lines(os.path.join(results, 'junit-check.log'), [why] if why else [])
    write_lines(os.path.join(results, 'junit.result'),
           ['not ok host/junit_report'] + ['# ' + line for line in why.split('\n')]
           if why else ['ok host/junit_report'])


def check_unit(results):
    """The tests that need no guest; their line goes with the JUnit
    check's."""
    log = os.path.join(results, 'check-unit.log')
    if logged(['make', '-s', '-C', ROOT, 'check-unit'], log) == 0:
        lines = ['ok host/check_unit']
    else:
        lines = ['not ok host/check_unit'] + ['# ' + line for line in lines_of(read_text(log))[-15:]]
    write_lines(os.path.join(results, 'junit.result'), lines, 'a')


def between(text, mark):
    """The lines between each '.. BEGIN MARK TABLE' line and its '.. END
    MARK TABLE', markers left out."""
    found, on = [], False
    for line in lines_of(text):
        if not on and line.startswith('.. BEGIN %s TABLE' % mark):
            on = True
            continue
        if on and line.startswith('.. END %s TABLE' % mark):
            on = False
            continue
        if on:
            found.append(line)
    return found


def docs(results, host_tool):
    """The generated tables in Documentation/provoke-crash/ are what
    'provoke-crash types --rst' and '--lkdtm-rst' print (make docs
    writes them)."""
    diff = []
    for doc, mark, opt in DOC_TABLES:
        path = os.path.join(ROOT, 'Documentation', 'provoke-crash', doc)
        printed = subprocess.run([host_tool, 'types', opt], stdout=subprocess.PIPE,
                                 universal_newlines=True, errors='surrogateescape').stdout
        diff += difflib.unified_diff(between(read_text(path), mark), lines_of(printed),
                                     'Documentation/provoke-crash/' + doc,
                                     'provoke-crash types ' + opt, lineterm='')
    write_lines(os.path.join(results, 'docs.diff'), diff)
    if not diff:
        lines = ['ok docs/types_table_follows_the_table']
    else:
        lines = ['not ok docs/types_table_follows_the_table',
                 "# Documentation/provoke-crash/ differs from 'provoke-crash types' (make docs):"]
        lines += ['# ' + line for line in diff[:20]]
    write_lines(os.path.join(results, 'docs.result'), lines)


def listing(results, s, series):
    """(failed, lines, last log line) of tests/run's listing of slice S
    (PC_LIST=1 PC_SHARD=S) of SERIES, kept under RESULTS/shards."""
    d = os.path.join(results, 'shards')
    os.makedirs(d, exist_ok=True)
    name = os.path.join(d, s.replace('/', '-of-'))
    env = dict(os.environ, PC_LIST='1', PC_SHARD=s, PC_KERNELS=series, PC_CASES='.')
    with open(name, 'wb') as out, open(name + '.log', 'wb') as err:
        failed = subprocess.run([os.path.join(TESTS, 'run')], stdout=out, stderr=err,
                                env=env).returncode
    log = lines_of(read_text(name + '.log'))
    return failed, lines_of(read_text(name)), log[-1] if log else ''


def shard_partition(results, series, lister=listing):
    """PC_SHARD's slices, as tests/run itself lists them (PC_LIST=1,
    nothing booted), are disjoint and together are the whole run, each
    non-empty: the host gates in the first, the VM runner's cases in the
    last.  On the run's first Debian series only: a listing makes every
    case file of a series, a minute on a busy host."""
    if not series:
        return ['ok host/shard_partition # SKIP no Debian series in PC_KERNELS']
    listed, why = {}, ''
    for s in ['1/1'] + ['%d/%d' % (i, SLICES) for i in range(1, SLICES + 1)]:
        failed, listed[s], last = lister(results, s, series)
        if failed and not why:
            why = 'PC_LIST=1 PC_SHARD=%s failed: %s' % (s, last)
    if why:
        return ['not ok host/shard_partition', '# ' + why]
    slices = [listed['%d/%d' % (i, SLICES)] for i in range(1, SLICES + 1)]
    counts = [len([x for x in part if x not in ('host gates', 'vm cases', '')])
              for part in slices]
    together = sorted(x for part in slices for x in part)
    whole = sorted(listed['1/1'])
    # -NAME: in a slice, not in the whole run; +NAME: the reverse.
    diff = ['-' + x for x in together if x not in whole]
    diff += ['+' + x for x in whole if x not in together]
    twice = sorted(x for x, n in collections.Counter(together).items() if n > 1)
    # The first that holds says why.
    whys = ['slice %d/%d has no case' % (i, SLICES) for i, n in enumerate(counts, 1) if not n]
    whys += ['in two slices: %s ' % ' '.join(twice[:3])] if twice else []
    whys += ['the slices together differ from the whole run: %s ' % ' '.join(diff[:3])
             ] if together != whole else []
    whys += ['the host gates are not in slice 1/%d' % SLICES] \
        if 'host gates' not in slices[0] else []
    whys += ["the VM runner's cases are not in slice %d/%d" % (SLICES, SLICES)] \
        if 'vm cases' not in slices[-1] else []
    if whys:
        return ['not ok host/shard_partition', '# ' + whys[0]]
    return ['ok host/shard_partition',
            '# %s: %d slices of %s, disjoint, together the %d of PC_SHARD=1/1'
            % (series, SLICES, '/'.join(map(str, counts)), len(listed['1/1']))]


def main(argv=None):
    ap = argparse.ArgumentParser(prog='python3 -m pcengine.gates',
                                 description=__doc__.split('\n')[0])
    ap.add_argument('step', choices=('host-gates',), help='the step, as the scheduler names it')
    ap.add_argument('--results', required=True, metavar='DIR')
    ap.add_argument('--host-tool', required=True, help='provoke-crash built for the host')
    o = ap.parse_args(argv)
    # Beside the guests, behind them (renice's level: not relative); a
    # run niced further already is.
    try:
        os.setpriority(os.PRIO_PROCESS, 0, 10)
    except OSError:
        pass
    r = o.results
    gates = (
        (lambda: unit(r), 'unit.ktap', 'not ok unit/tests'),
        (lambda: fuzz(r, os.environ.get('PC_FUZZ_SECONDS') or '30'), 'fuzz.result',
         'not ok fuzz/parse_line'),
        (lambda: junit_check(r), 'junit.result', 'not ok host/junit_report'),
        (lambda: check_unit(r), 'junit.result', 'not ok host/check_unit'),
        (lambda: docs(r, o.host_tool), 'docs.result', 'not ok docs/types_table_follows_the_table'),
        (lambda: write_lines(os.path.join(r, 'shard.result'),
                        shard_partition(r, os.environ.get('PC_STEP_SHARD_SERIES', ''))),
         'shard.result', 'not ok host/shard_partition'),
    )
    # A gate that cannot run (a program or file missing) fails by name;
    # the others still run.
    for gate, result, failed in gates:
        try:
            gate()
        except OSError as e:
            print('provoke-crash: %s' % e, file=sys.stderr)
            write_lines(os.path.join(r, result), [failed, '# %s' % e], 'a')
    return 0


if __name__ == '__main__':
    sys.exit(main())
