# SPDX-License-Identifier: GPL-2.0
"""The documentation is valid reStructuredText (the lint gates'
lint/docs_rst): docutils reports nothing on any page, with Sphinx's
toctree, :ref: and :doc: known to it, and every toctree entry, :doc:
and :ref: names a page or label that exists; every page but index is in
a toctree.

``python3 -m pcengine.lint_docs DIR`` checks the .rst pages of DIR and
prints what is wrong, or one line: how many pages, nothing wrong.  It
needs docutils (python3-docutils), the one module of the engine that
does: the lint gates run it with /usr/bin/python3, which has it.
"""

import contextlib
import io
import os
import re
import sys

from .console import lines_of

LABEL_RE = re.compile(r'^\.\. _([^:`]+):$', re.M)
SETTINGS = {'report_level': 2, 'halt_level': 2, 'traceback': False}
WHY = 'the pages do not hold together (index.rst, toctree, references)'


def _known(wanted, page):
    """Register toctree, :ref: and :doc: with docutils, each noting
    (page, kind, target) in WANTED, the page being PAGE[0]."""
    import docutils.nodes
    from docutils.parsers.rst import Directive, directives, roles

    class TocTree(Directive):
        has_content = True
        option_spec = {'maxdepth': directives.nonnegative_int}

        def run(self):
            for entry in self.content:
                if entry.strip():
                    wanted.append((page[0], 'toctree', entry.strip()))
            return []

    def xref(kind):
        def role(name, rawtext, text, lineno, inliner, options=None, content=None):
            wanted.append((page[0], kind, text))
            return [docutils.nodes.literal(rawtext, text)], []
        return role

    directives.register_directive('toctree', TocTree)
    roles.register_local_role('ref', xref('ref'))
    roles.register_local_role('doc', xref('doc'))


def parse(text, path):
    """What docutils says on TEXT (PATH's), as lines: none when it
    reports nothing.  It stops at the first warning (halt_level), with
    'Exiting due to ...' on stderr."""
    import docutils.core
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            docutils.core.publish_doctree(text, source_path=path, settings_overrides=SETTINGS)
        except SystemExit as e:
            # It halted: what it said, or at least that it did.
            return lines_of(err.getvalue()) or ['docutils stopped (%s) on %s' % (e.code, path)]
    return lines_of(err.getvalue())


def dangling(wanted, pages, labels):
    """The findings on WANTED's targets and on pages that no toctree
    lists, one line each."""
    found = ['%s.rst: %s %s: no such %s' % (w[0], w[1], w[2],
                                          'label' if w[1] == 'ref' else 'page')
             for w in wanted if (w[2] not in labels if w[1] == 'ref' else w[2] not in pages)]
    listed = {w[2] for w in wanted if w[1] == 'toctree'}
    found += ['%s.rst: in no toctree' % p for p in pages if p != 'index' and p not in listed]
    return found


def check(top):
    """(ok, lines) on the pages of TOP: what is wrong, or the summary."""
    pages = sorted(f[:-4] for f in os.listdir(top) if f.endswith('.rst'))
    wanted, page = [], [None]
    _known(wanted, page)
    labels, lines = set(), 0
    for name in pages:
        page[0] = name
        path = os.path.join(top, name + '.rst')
        with open(path) as f:
            text = f.read()
        lines += text.count('\n')
        labels.update(LABEL_RE.findall(text))
        said = parse(text, path)
        if said:
            return False, said
    found = dangling(wanted, pages, labels)
    if 'index' not in pages or found:
        return False, found + [WHY]
    return True, ['Documentation/provoke-crash: %d pages, %d lines, docutils reports '
                  'nothing; %d toctree entries and cross-references resolve'
                  % (len(pages), lines, len(wanted))]


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print('usage: python3 -m pcengine.lint_docs DIR', file=sys.stderr)
        return 2
    ok, lines = check(argv[0])
    for line in lines:
        print(line)
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
