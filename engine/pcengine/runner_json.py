# SPDX-License-Identifier: GPL-2.0
"""--json: the VM runner's verdict as one JSON object on stdout, for a
program to read: what was asked, the verdict and its exit status, the
points and their counters, the hit credited, the crash's text, its
call trace, pstore's records and kdump's files.  The human report is
not printed then; '# ' lines still go to stderr.

SCHEMA is the object's shape, checked by validate() (a small subset of
JSON Schema: type, required, properties, items, enum; the standard
library has no validator).  The unit tests check every saved run's
object against it.
"""

import json
import os
import re

from . import runner_report, runner_verdict

VERSION = 1
VERDICTS = ('crashed', 'survived', 'usage', 'timeout', 'refused', 'reported', 'setup',
            'no-capture')
# 130 and 128 + a signal: the run was ended from outside.
INTERRUPTED = 'interrupted'
STR, INT, BOOL = {'type': 'string'}, {'type': 'integer'}, {'type': 'boolean'}
NSTR, NINT = {'type': ['string', 'null']}, {'type': ['integer', 'null']}
LINES = {'type': 'array', 'items': STR}

POINT = {'type': 'object', 'required': ['line', 'where', 'type', 'hits', 'fired', 'missed'],
         'properties': {'line': STR, 'where': STR, 'type': STR, 'hits': INT, 'eligible': NINT,
                        'filtered': INT, 'fired': INT, 'missed': INT, 'context': NSTR}}
HIT = {'type': ['object', 'null'], 'required': ['where', 'type', 'comm', 'pid', 'context'],
       'properties': {'where': STR, 'type': STR, 'comm': NSTR, 'pid': NINT, 'context': NSTR}}
CRASH = {'type': ['object', 'null'], 'required': ['line', 'pid'],
         'properties': {'line': STR, 'pid': NINT}}
RECORD = {'type': 'object', 'required': ['name', 'header', 'lines', 'holds_report'],
          'properties': {'name': STR, 'header': STR, 'lines': INT, 'holds_report': BOOL}}
SCHEMA = {
    'type': 'object',
    'required': ['version', 'status', 'verdict', 'summary', 'details', 'notes', 'asked',
                 'kernel',
                 'output', 'points', 'hit', 'crash', 'report', 'trace', 'pstore', 'kdump'],
    'properties': {
        'version': INT, 'status': INT,
        'verdict': {'type': 'string', 'enum': list(VERDICTS) + [INTERRUPTED]},
        'summary': STR, 'details': LINES, 'notes': LINES,
        'asked': {'type': 'object', 'required': ['arm', 'trigger', 'run'],
                  'properties': {'arm': LINES, 'trigger': NSTR, 'run': NSTR}},
        'kernel': {'type': ['object', 'null'], 'required': ['series', 'release', 'arch'],
                   'properties': {'series': STR, 'release': STR, 'arch': STR}},
        'output': LINES, 'points': {'type': 'array', 'items': POINT}, 'hit': HIT,
        'crash': CRASH, 'report': LINES, 'trace': LINES,
        'pstore': {'type': 'array', 'items': RECORD},
        'kdump': {'type': ['object', 'null'], 'required': ['dir', 'files'],
                  'properties': {'dir': STR, 'files': LINES}},
    },
}

PY_TYPES = {'object': dict, 'array': list, 'string': str, 'integer': int, 'boolean': bool,
            'null': type(None)}


def validate(value, schema, where='$'):
    """The first way VALUE breaks SCHEMA, as 'PATH: why', or ''."""
    kinds = schema.get('type')
    kinds = [kinds] if isinstance(kinds, str) else kinds or []
    # bool is an int in Python; JSON keeps them apart.
    if kinds and not any(isinstance(value, PY_TYPES[k]) and not (k == 'integer' and
                                                                   isinstance(value, bool))
                         for k in kinds):
        return '%s: %r is not %s' % (where, value, ' or '.join(kinds))
    if 'enum' in schema and value not in schema['enum']:
        return '%s: %r is not one of %s' % (where, value, ', '.join(schema['enum']))
    if isinstance(value, dict):
        for key in schema.get('required', ()):
            if key not in value:
                return '%s: no %s' % (where, key)
        for key, sub in schema.get('properties', {}).items():
            why = validate(value[key], sub, '%s.%s' % (where, key)) if key in value else ''
            if why:
                return why
        extra = set(value) - set(schema.get('properties', value))
        if extra:
            return '%s: unknown %s' % (where, ', '.join(sorted(extra)))
    if isinstance(value, list) and 'items' in schema:
        for i, item in enumerate(value):
            why = validate(item, schema['items'], '%s[%d]' % (where, i))
            if why:
                return why
    return ''


POINT_RE = re.compile(r'^(\S+) (\S+)(?: .*?)? hits=([0-9]+) (?:eligible=([0-9]+) )?'
                      r'filtered=([0-9]+) fired=([0-9]+) missed=([0-9]+) context=(\S+)$')


def point(line):
    """A listing line (PC-POINT's) as its fields; None if it is not one."""
    m = POINT_RE.match(line)
    if not m:
        return None
    n = [int(x) if x is not None else None for x in m.group(3, 4, 5, 6, 7)]
    return {'line': line, 'where': m.group(1), 'type': m.group(2), 'hits': n[0],
            'eligible': n[1], 'filtered': n[2], 'fired': n[3], 'missed': n[4],
            'context': m.group(8)}


def _int(text):
    return int(text) if text is not None and text.isdigit() else None


def _hit(hit):
    if hit is None:
        return None
    return {'where': hit.where, 'type': hit.type, 'comm': hit.comm, 'pid': _int(hit.pid),
            'context': hit.context}


def _pstore(out_text, first_line):
    """The records as the report reads them (runner_report.pstore_records):
    their sizes count the markers too."""
    return [{'name': name, 'header': record[1] if len(record) > 1 else '',
             'lines': len(record), 'holds_report': first_line is not None and first_line in record}
            for name, record in runner_report.pstore_records(out_text)]


def from_run(run):
    """The parts a run's work directory gives: output, points, hit,
    crash, report, trace, pstore."""
    scan, out = run.scan, run.out
    first = scan.first()
    end = min(scan.end, len(scan.lines))
    return {
        'output': runner_report.guest_output(out),
        'points': [p for p in (point(r.args) for r in out
                               if r.kind == 'marker' and r.name == 'PC-POINT') if p],
        'hit': _hit(runner_verdict.credited(scan, run.table)),
        'crash': None if scan.crash is None else {'line': scan.lines[scan.crash],
                                                  'pid': _int(scan.crash_pid)},
        'report': [] if first is None else scan.lines[first:end + 1],
        'trace': [] if first is None else [f.strip() for f in
                                           runner_report.trace(scan.lines, first, end)],
        'pstore': _pstore(run.out_text.rstrip('\n') + '\n',
                          scan.lines[first] if first is not None else None),
    }


def document(status, said, asked, kernel=None, work=None, kdump_dir=None):
    """The object: STATUS, SAID (the human lines the run printed, for the
    verdict and its notes), ASKED ({arm, trigger, run}), KERNEL ({series,
    release, arch} or None), the run's WORK directory if it got that far,
    and KDUMP_DIR where --kdump kept its files."""
    at = max([i for i, x in enumerate(said) if x.startswith('provoke-crash-vm: ')], default=None)
    details = []
    # A refusal's reasons follow its verdict, indented.
    for x in said[at + 1:] if at is not None else []:
        if not x.startswith('  '):
            break
        details.append(x[2:])
    doc = {'version': VERSION, 'status': status,
           'verdict': VERDICTS[status] if 0 <= status < len(VERDICTS) else
           INTERRUPTED if status > 128 else 'setup',
           'summary': said[at][len('provoke-crash-vm: '):] if at is not None else '',
           'details': details,
           'notes': [x for x in said if x.startswith('note: ')],
           'asked': asked, 'kernel': kernel,
           'output': [], 'points': [], 'hit': None, 'crash': None, 'report': [], 'trace': [],
           'pstore': [], 'kdump': None}
    if work and os.path.exists(os.path.join(work, 'table')):
        doc.update(from_run(runner_verdict.Run(work)))
    if kdump_dir and os.path.isdir(kdump_dir):
        doc['kdump'] = {'dir': kdump_dir, 'files': sorted(os.listdir(kdump_dir))}
    return doc


def dumps(doc):
    return json.dumps(doc, indent=1, ensure_ascii=False)
