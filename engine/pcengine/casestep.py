# SPDX-License-Identifier: GPL-2.0
"""The bench's guest step for a case file: its guest, then its verdicts.

bench.py runs ``python3 -m pcengine.casestep single|batch|kdump|lkdtm
@GUEST FILE`` for the ``job`` lines of the same names of a series' preparation
(prepare.py).  GUEST is the series' guest options, one a line, which the
preparation (prepare_series.py) wrote to prep/K.guest: what the
kernel decides (architecture, accelerator, kernel, initramfs, ramoops'
place, time limit).  The case file's header decides the rest:
``# boot:``, ``# smp:``, ``# pstore: 0|1|ram`` and ``# fresh-boot:``.

- single FILE: one guest (guest.py: restored, or booted where it must
  be), then the case's verdict (verdict.py), into RESULTS/SERIES-NAME.*;
- kdump FILE: a case whose crash boots a capture kernel: its guest
  boots (two kernels never restore), then its verdict and the capture's
  figures (kdump.py);
- batch FILE: one guest for the batch's ``# part:`` cases, then a
  verdict each, on its own stretch of the console and the output
  (console.part_of, cut at the ``PC-PART NAME`` lines that
  prepare.make_batch puts between them);
- lkdtm DIR: LKDTM's selftest, every test in one booted guest, and its
  report (lkdtm.py); DIR is the selftest as the preparation extracted it.

Each case's result ends with ``# guest:`` lines: how its guest ran, and
why.
One process does all of it: a restored guest takes some 0.35 s, and the
shell and second Python that did this before cost each guest 0.15 s more.
"""

import argparse
import os
import sys
import traceback

from . import console, guest, kdump, lkdtm, verdict
from .casefile import values
from .cases import config_of


def _read(path):
    with open(path, 'rb') as f:
        return f.read()


def _shell_value(text, key):
    # $(sed -n 's/^# KEY: //p' FILE): the values, a line each, the last
    # newline dropped.
    return '\n'.join(values(text, key))


def case_limit(timeout, smp, parts):
    """A guest's time limit: two vCPUs are two host threads, which beside
    another guest on two cores get half of one (a race case's 150 cycles
    took 110 s of 120 on 6.1); a batch runs its parts in turn (the
    matrix's took 60 to 85 s of 120): up to three guests' time."""
    limit = timeout * (2 if smp > 1 else 1)
    if parts > 1:
        limit *= min(parts, 3)
    return limit


def _boot_line(o, text):
    """The header's boot lines, then the run's (PC_GUEST_CMDLINE)."""
    boot = ''.join(v + ' ' for v in values(text, 'boot')) + ' ' + o.append
    if 'CONFIG_KASAN' in o.options:
        # A batch guest runs several heap types: KASAN reports each.
        boot += ' kasan_multi_shot'
    return boot


def _smp(text):
    return int(_shell_value(text, 'smp') or 1)


def _spec(o, name, res, **kw):
    return argparse.Namespace(**{
        **dict(arch=o.arch, accel=o.accel, kernel=o.kernel, qemu_extra=o.qemu_extra,
               case=name, payload=None, console=res + '.console', out=res + '.out',
               stdio=False, how=res + '.how', keep_saves=0),
        **kw})


def guest_spec(o, text, name, res, parts=1):
    """guest.run's options for the case file's TEXT (its header), named
    NAME, logged to RES.console and RES.out."""
    boot = _boot_line(o, text)
    smp = _smp(text)
    pstore = _shell_value(text, 'pstore') or '0'
    if pstore not in ('0', '1', 'ram'):
        raise ValueError('# pstore: %r: expected 0, 1 or ram' % pstore)
    read_ramoops = ''
    if pstore != '0':
        boot += ' ' + o.ramoops
        if o.ramoops_builtin:
            boot += ' ' + o.ramoops_params
    # ram: a panic resets at once (panic=-1); the host reads what it kept.
    if pstore == 'ram':
        read_ramoops, pstore = o.ramoops_region, '0'
    elif pstore == '1':
        boot += ' panic=1'
    fresh = _shell_value(text, 'fresh-boot')
    if o.snapshot != '1':
        fresh = 'PC_SNAPSHOT=' + o.snapshot
    return _spec(o, name, res, smp=smp, initrd=o.initrd, append=boot, pstore=pstore == '1',
                 read_ramoops=read_ramoops, timeout=case_limit(o.timeout, smp, parts),
                 dir=o.snapshots, fresh_boot=fresh)


def kdump_spec(o, text, name, res, parts=1):
    """guest.run's options for a case whose crash boots a capture kernel:
    the kdump initramfs, crashkernel= on the boot line, never a restore,
    and on arm64, whose two kernels boot emulated, twice the time (a
    capture took 78 of 120 s on a busy host)."""
    smp = _smp(text)
    limit = case_limit(o.timeout, smp, parts) * (2 if o.arch == 'arm64' else 1)
    return _spec(o, name, res, smp=smp, initrd=o.kdump_initrd,
                 append=_boot_line(o, text) + ' ' + o.kdump_append, pstore=False,
                 read_ramoops='', timeout=limit, dir=None,
                 fresh_boot='kdump: a capture kernel')


def judge(o, case, rc, res, limit):
    """Write RES.result: the verdict on the case file CASE from RES's
    logs.  A verdict that fails is a failed case, its why in the log."""
    name = os.path.basename(case)[:-3]
    try:
        # A log the guest never wrote reads empty: what the case expected
        # there is missing, as the verdict then says.
        text = verdict.judge(_read(case), name, o.series, rc, console.read_log(res + '.console'),
                             console.read_log(res + '.out'), limit,
                             os.path.basename(res + '.console'), os.path.basename(res + '.out'))
    except Exception:  # noqa: BLE001 - any failure is the case's
        traceback.print_exc()
        text = 'not ok %s/%s\n# the verdict failed (why: the run log)\n' % (o.series, name)
    with open(res + '.result', 'w', encoding='utf-8', errors='surrogateescape') as f:
        f.write(text)
    print('# done %s/%s' % (o.series, name), file=sys.stderr)


def guest_lines(how_file, tail=''):
    """The ``# guest:`` lines of a result: its guest's how file."""
    try:
        how = _read(how_file).decode('utf-8', 'replace')
    except OSError:
        return ''
    return ''.join('# guest: %s%s\n' % (line, tail) for line in how.splitlines())


def run_guest(o, text, name, res, parts=1, spec_of=guest_spec):
    """The guest of the case or batch file's TEXT (its options from
    SPEC_OF): (its status, its time limit).  One that could not start
    (no QEMU, no kernel, a header that makes no sense) has status 1, and
    says why in RES.how and the run log: its cases still get a verdict,
    as a guest that failed would."""
    limit = case_limit(o.timeout, 1, parts)
    try:
        spec = spec_of(o, text, name, res, parts)
        limit = spec.timeout
        return guest.run(spec), limit
    except Exception as e:  # noqa: BLE001 - any failure is the guest's
        traceback.print_exc()
        for log in ('.console', '.out'):
            open(res + log, 'ab').close()
        with open(res + '.how', 'w', encoding='utf-8') as f:
            f.write('not run (%s: %s)\n' % (type(e).__name__, e))
        return 1, limit


def run_single(o, case, kdump_case=False):
    text = _read(case).decode('utf-8', 'surrogateescape')
    name = os.path.basename(case)[:-3]
    res = os.path.join(o.results, '%s-%s' % (o.series, name))
    rc, limit = run_guest(o, text, name, res, spec_of=kdump_spec if kdump_case else guest_spec)
    judge(o, case, rc, res, limit)
    with open(res + '.result', 'a', encoding='utf-8') as f:
        if kdump_case:
            f.write(kdump.note(console.read_log(res + '.out')))
        f.write(guest_lines(res + '.how'))


def run_batch(o, batch):
    text = _read(batch).decode('utf-8', 'surrogateescape')
    name = os.path.basename(batch)[:-3]
    res = os.path.join(o.results, '%s-%s' % (o.series, name))
    parts = values(text, 'part')
    rc, limit = run_guest(o, text, name, res, len(parts))
    logs = {log: console.read_log('%s.%s' % (res, log)) for log in ('console', 'out')}
    how = guest_lines(res + '.how', ' (batch %s)' % name)
    for part in parts:
        part_res = os.path.join(o.results, '%s-%s' % (o.series, part))
        for log, data in logs.items():
            with open('%s.%s' % (part_res, log), 'w', encoding='utf-8',
                      errors='surrogateescape') as f:
                f.write(console.part_of(data, part))
        judge(o, os.path.join(os.path.dirname(batch), part + '.sh'), rc, part_res, limit)
        with open(part_res + '.result', 'a', encoding='utf-8') as f:
            f.write(how)


def main(argv=None):
    ap = argparse.ArgumentParser(
        prog='python3 -m pcengine.casestep', fromfile_prefix_chars='@',
        description='The bench\'s guest step for a case file: its guest, then its verdicts.')
    ap.add_argument('kind', choices=('single', 'batch', 'kdump', 'lkdtm'))
    ap.add_argument('--series', required=True, help='the series, as results name it')
    ap.add_argument('--results', required=True, metavar='DIR')
    ap.add_argument('--timeout', type=int, required=True,
                    help='seconds a guest may take (pc_guest_timeout)')
    ap.add_argument('--config', required=True, help='the kernel\'s config')
    ap.add_argument('--arch', required=True)
    ap.add_argument('--accel', required=True)
    ap.add_argument('--kernel', required=True)
    ap.add_argument('--initrd', required=True)
    ap.add_argument('--snapshots', required=True, metavar='DIR', help='its saved guests')
    ap.add_argument('--snapshot', default='1', help='PC_SNAPSHOT: not 1, every guest boots')
    ap.add_argument('--append', default='', help='PC_GUEST_CMDLINE')
    ap.add_argument('--qemu-extra', default='', help='PC_QEMU_EXTRA')
    ap.add_argument('--ramoops', required=True, help='a pstore guest\'s boot line')
    ap.add_argument('--ramoops-params', required=True,
                    help='ramoops\' parameters, on the boot line of a kernel that has it built in')
    ap.add_argument('--ramoops-region', required=True, metavar='ADDR:SIZE:RECORD')
    ap.add_argument('--kdump-append', required=True,
                    help='a kdump case\'s boot line: crashkernel= and pc_kdump=1')
    ap.add_argument('--kdump-initrd', required=True, help='a kdump case\'s initramfs')
    ap.add_argument('file', help='the case or batch file (lkdtm: the extracted selftest)')
    o = ap.parse_args(argv)
    o.options, built_in = config_of(o.config)
    o.ramoops_builtin = 'CONFIG_PSTORE_RAM' in built_in
    if o.kind == 'batch':
        run_batch(o, o.file)
    elif o.kind == 'lkdtm':
        lkdtm.run(o, o.file)
        print('# done %s/lkdtm_selftest' % o.series, file=sys.stderr)
    else:
        run_single(o, o.file, kdump_case=o.kind == 'kdump')
    return 0


if __name__ == '__main__':
    sys.exit(main())
