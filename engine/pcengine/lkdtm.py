# SPDX-License-Identifier: GPL-2.0
"""LKDTM's own selftest against provoke-crash: its guest and its report.

lkdtm_pack.py takes run.sh, tests.txt and stack-entropy.sh from Debian's
linux-source-6.12 and packs them into a guest of their own (its
/init runs guest/lkdtm.sh).  One guest runs every test in tests.txt's
order to the end, as a kselftest run does on one machine: no test may
take the kernel down, and no fresh guest hides one that does.  Every line
of tests.txt must get run.sh's verdict (ok, FAIL, XFAIL, or the skip of a
commented-out test), and the guest must still be up after the last one: a
test that takes it down or hangs is "not ok", and so is each test after
it, for want of a result.  stack-entropy.sh runs first, as test 0.

The guest's output marks each test: ``LKDTM-BEGIN NUM NAME`` before it
(on the console too), ``LKDTM-RC NUM NAME STATUS`` after it,
``LKDTM-DONE`` after the last, and ``LKDTM-UP ...`` with DIRECT's first
line when the kernel still answers.

The bench's guest step (casestep.py, ``lkdtm DIR``) runs it: DIR is the
extracted selftest (tests.txt, and ``source``, the tarball's name).
"""

import os
import re
import time
import traceback

from . import cases, console, guest

BOOT = 'slub_debug=FZPU init_on_free=1 randomize_kstack_offset=on'
ENTROPY_RE = re.compile(r'Bits of stack entropy: [0-9]+|Stack entropy is low.*')


def tests(tests_txt, entropy=True):
    """Every test the guest runs, as (NUM, NAME): stack-entropy as 0
    (ENTROPY: the selftest has it, since 5.11), then each line of
    tests.txt, commented out or not."""
    found = [('0', 'stack-entropy')] if entropy else []
    for n, line in enumerate(console.lines_of(tests_txt), 1):
        words = line.split()
        name = words[0] if words else ''
        found.append((str(n), name[1:] if name.startswith('#') else name))
    return found


def _status(out_lines, num, name):
    """The test's exit status from its last LKDTM-RC line, or None (a
    line without one is no result either)."""
    rc = None
    for line in out_lines:
        w = line.split()
        if len(w) >= 3 and w[0] == 'LKDTM-RC' and w[1] == num and w[2] == name:
            rc = w[3] if len(w) > 3 else None
    return rc


def _segment(out_lines, begin):
    """The test's output: after its exact LKDTM-BEGIN line, up to an
    LKDTM-RC line; trailing empty lines dropped, as $(...) drops them."""
    seg, on = [], False
    for line in out_lines:
        if line == begin:
            on = True
            continue
        if line.startswith('LKDTM-RC '):
            on = False
        if on:
            seg.append(line)
    return '\n'.join(seg).rstrip('\n').split('\n')


def _tail(lines, n=12):
    return ['# ' + line for line in lines[-n:]]


def _verdict(name, seg):
    """run.sh's verdict line (stack-entropy.sh's: its figure), or ''."""
    if name == 'stack-entropy':
        found = [m.group(0) for line in seg for m in ENTROPY_RE.finditer(line)]
        return found[-1] if found else ''
    words = re.compile(r'^%s: (saw|missing) |^Skipping %s: |^Skipped: test \'%s\' '
                       % ((re.escape(name),) * 3))
    found = [line for line in seg if words.search(line)]
    return found[-1] if found else ''


def unanswered(tests_txt, answered):
    """The names of TESTS_TXT (commented out or not) that are not in
    ANSWERED, DIRECT's names, in tests.txt's order."""
    return [name for num, name in tests(tests_txt, False) if name and name not in answered]


def names_line(series, tests_txt, answered, source):
    """A host check, no guest: every name of this kernel's tests.txt
    answers on DIRECT (a new LKDTM test we lack fails here, by name)."""
    missing = unanswered(tests_txt, answered)
    test = '%s/lkdtm/names_answered' % series
    if missing:
        return 'not ok %s # %s\'s tests.txt names %s; DIRECT does not answer' % (
            test, source, ' '.join(missing))
    return 'ok %s # DIRECT answers all %d names of %s\'s tests.txt' % (
        test, len(tests(tests_txt, False)), source)


def report(series, out_text, console_text, tests_txt, status, limit, seconds, source,
           answered=None, entropy=True):
    """The selftest's KTAP lines: one per test with run.sh's verdict under
    it, one for the guest being up after the last test, one for DIRECT
    answering every name (when ANSWERED, its names, is given), then the
    totals: pass / XFAIL / SKIP / fail.  STATUS is the guest's (124:
    timed out after LIMIT seconds)."""
    out = console.lines_of(out_text)
    lines, fails = [], []
    count = dict(passed=0, xfail=0, skip=0, fail=0)
    lost, after = '', 0
    for num, name in tests(tests_txt, entropy):
        test = '%s/lkdtm/%s' % (series, name)
        begin = 'LKDTM-BEGIN %s %s' % (num, name)
        rc = _status(out, num, name)
        if rc is None:
            # No result: the test that was running when the guest went
            # down or hung, or one after it.
            count['fail'] += 1
            if lost:
                after += 1
                lines.append('not ok %s # no result: the guest did not get past %s'
                             % (test, lost))
                continue
            lost = name
            fails.append(name)
            if str(status) in ('124', '137'):
                why = 'the guest hung in it (timed out after %ss)' % limit
            elif not str(status).isdigit():
                why = status
            elif begin in out:
                why = 'the kernel went down in it (guest status %s)' % status
            else:
                why = 'the guest never started it (guest status %s)' % status
            lines.append('not ok %s # no result: %s' % (test, why))
            # The console from its marker on.
            con = console.lines_of(console_text)
            at = next((i for i, x in enumerate(con) if begin in x and x.endswith(begin)), None)
            if at is not None:
                lines += _tail(con[at:], 20)
            continue
        seg = _segment(out, begin)
        verdict = _verdict(name, seg)
        xfail = next((line[line.index('XFAIL: '):] for line in seg if 'XFAIL: ' in line), '')
        if not verdict:
            # An exit status without run.sh's word on it is no result.
            count['fail'] += 1
            fails.append(name)
            lines.append("not ok %s # exit status %s without run.sh's verdict line" % (test, rc))
            lines += _tail(seg)
            continue
        if rc == '0':
            count['passed'] += 1
            lines.append('ok ' + test)
        elif rc == '4':
            if xfail and "saw 'XFAIL'" in verdict:
                count['xfail'] += 1
                lines.append('ok %s # SKIP %s' % (test, xfail))
            else:
                count['skip'] += 1
                lines.append('ok %s # SKIP %s' % (test, verdict))
        else:
            count['fail'] += 1
            fails.append(name)
            lines.append('not ok ' + test)
        lines.append('#   ' + verdict)
        if rc not in ('0', '4'):
            lines += _tail(seg)
    lines += _up(series, out, console_text, lost, after, fails, count)
    if answered is not None:
        lines.append(names_line(series, tests_txt, answered, source))
        if lines[-1].startswith('not ok'):
            count['fail'] += 1
            fails.append('names_answered')
    summary = ', '.join(fails)
    lines.append("# LKDTM selftest (%s's run.sh and tests.txt, unchanged) on %s: %d pass, "
                 "%d XFAIL, %d SKIP, %d fail%s; one guest, %d s"
                 % (source, series, count['passed'], count['xfail'], count['skip'],
                    count['fail'], ' (%s)' % summary if summary else '', seconds))
    return ''.join(line + '\n' for line in lines)


def _up(series, out, console_text, lost, after, fails, count):
    """The kernel still up after the last test, as kselftest's next suite
    would find it (FAILS and COUNT take the verdict)."""
    up = [line for line in out if line.startswith('LKDTM-UP ')]
    if any(line.startswith('LKDTM-DONE') for line in out) and \
            any('Available crash types:' in line for line in up):
        return ['ok %s/lkdtm/up_after_last_test' % series,
                '#   up at ' + up[0][len('LKDTM-UP '):]]
    if after:
        fails[-1] += ' and the %d after it, without a result' % after
    count['fail'] += 1
    if fails:
        fails[-1] += '; up_after_last_test'
    else:
        fails.append('up_after_last_test')
    lines = ['not ok %s/lkdtm/up_after_last_test # the guest was not up after the last test%s'
             % (series, ' (down or hung in %s)' % lost if lost else '')]
    if not lost:
        lines += _tail(console.lines_of(console_text))
    return lines


def run(o, selftest):
    """One guest for the whole selftest (casestep's options O; SELFTEST:
    the extracted directory); writes the series' result, and the logs
    beside it with carriage returns dropped (.out.txt, .console.txt)."""
    start = time.monotonic()
    res = os.path.join(o.results, '%s-lkdtm_selftest' % o.series)
    boot = BOOT
    # One KASAN report per boot otherwise: the tests after the first
    # would find none.
    if 'CONFIG_KASAN' in o.options:
        boot += ' kasan_multi_shot'
    # Three times a guest's limit (pc_guest_timeout's, already three
    # times PC_TIMEOUT on a KASAN kernel): 87 tests in one guest.
    limit = o.timeout * 3
    try:
        status = guest.run(guest.options([
            'run', '--arch', o.arch, '--accel', o.accel, '--smp', '1', '--kernel', o.kernel,
            '--initrd', os.path.join(os.path.dirname(o.initrd), 'initramfs-lkdtm.cpio'),
            '--append=' + boot, '--qemu-extra=' + o.qemu_extra, '--case', 'lkdtm_selftest',
            '--console', res + '.console', '--out', res + '.out', '--timeout', str(limit)]))
        status %= 256
    except Exception:  # noqa: BLE001 - the report says what ran
        traceback.print_exc()
        status = 'the guest could not start (see the run log)'
    texts = {}
    for log in ('out', 'console'):
        texts[log] = console.read_log('%s.%s' % (res, log))
        with open('%s.%s.txt' % (res, log), 'w', encoding='utf-8',
                  errors='surrogateescape') as f:
            f.write(texts[log])
    with open(os.path.join(selftest, 'tests.txt'), encoding='utf-8',
              errors='surrogateescape') as f:
        tests_txt = f.read()
    with open(os.path.join(selftest, 'source')) as f:
        source = f.read().strip()
    table = os.path.join(os.path.dirname(o.initrd), 'cases', 'types.tsv')
    answered = {n for row in cases.read_table(table) for n in row.lkdtm.split()}
    entropy = os.path.exists(os.path.join(selftest, 'stack-entropy.sh'))
    text = report(o.series, texts['out'], texts['console'], tests_txt, status, limit,
                  int(time.monotonic() - start), source, answered, entropy)
    with open(res + '.result', 'w', encoding='utf-8', errors='surrogateescape') as f:
        f.write(text)
