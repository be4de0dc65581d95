# SPDX-License-Identifier: GPL-2.0
"""The protocol table (pcengine.protocol) against the tree: every PC-*
word (or its view's PCM_ name) is defined, the table names every file
that holds each marker, and only those, and the generated views are the
table's."""

import fnmatch
import os
import subprocess
import unittest

import fixtures
from pcengine import protocol


PARSERS_IN_ENGINE = ('engine/pcengine/cases.py', 'engine/pcengine/matrix.py',
                     'engine/pcengine/console.py', 'engine/pcengine/verdict.py',
                     'engine/pcengine/snapshot.py', 'engine/pcengine/runner_verdict.py',
                     'engine/pcengine/runner_report.py', 'engine/pcengine/ramoops.py',
                     'engine/pcengine/prepare.py', 'engine/pcengine/kdump.py',
                     'engine/pcengine/vm.py', 'engine/pcengine/vm_kdump.py',
                     'engine/pcengine/vmcases.py', 'engine/pcengine/kdumppack.py')


def tree_files():
    """The project's files (git's list, or a walk), build output and
    engine/ aside (it holds the table and saved consoles), but for the
    engine's modules that write or read markers; the generated views
    aside too (they are the table)."""
    try:
        listed = subprocess.run(['git', '-C', fixtures.ROOT, 'ls-files', '--cached', '--others', '--exclude-standard'], check=True,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        files = listed.stdout.decode().split('\n')
    except (OSError, subprocess.CalledProcessError):
        files = [os.path.relpath(os.path.join(d, f), fixtures.ROOT)
                 for d, subdirs, names in os.walk(fixtures.ROOT) for f in names]
    return [f for f in files if f and (not f.startswith(('engine/', 'build/', '.git/'))
                                       or f in PARSERS_IN_ENGINE)
            and f not in protocol.VIEWS.values()
            and os.path.isfile(os.path.join(fixtures.ROOT, f))]


def words_by_file():
    """The markers each file holds: PC-* words, and PCM_ names as the
    marker they stand for (an undefined PCM_ name as itself)."""
    found = {}
    for f in tree_files():
        text = fixtures.text(os.path.join(fixtures.ROOT, f))
        words = set(protocol.WORD_RE.findall(text))
        for name in protocol.VIEW_RE.findall(text):
            marker = protocol.BY_VIEW_NAME.get(name)
            words.add(marker.name if marker else name)
        if words:
            found[f] = words
    return found


class Table(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.words = words_by_file()

    def test_every_word_is_defined(self):
        for f, words in sorted(self.words.items()):
            with self.subTest(file=f):
                self.assertEqual(sorted(words - set(protocol.BY_NAME)), [])

    def test_each_marker_is_where_the_table_says(self):
        for m in protocol.MARKERS:
            holders = {f for f, words in self.words.items() if m.name in words}
            listed = m.emitters + m.parsers + m.docs
            with self.subTest(marker=m.name):
                self.assertTrue(m.emitters, 'no emitter')
                for entry in listed:
                    self.assertTrue(fnmatch.filter(holders, entry),
                                    '%s: not in %s' % (m.name, entry))
                unlisted = [f for f in holders
                            if not any(fnmatch.fnmatch(f, e) for e in listed)]
                self.assertEqual(unlisted, [], '%s: files the table does not name' % m.name)

    def test_names_and_channels(self):
        self.assertEqual(len(protocol.BY_NAME), len(protocol.MARKERS))
        for m in protocol.MARKERS:
            self.assertRegex(m.name, r'^PC-[A-Z0-9]+(-[A-Z0-9]+)*$')
            self.assertTrue(set(m.channels) <= {'out', 'kmsg'} and m.channels)


class Views(unittest.TestCase):
    """make protocol writes them; a table edited without it fails here."""

    def test_views_are_the_tables(self):
        for kind, path in sorted(protocol.VIEWS.items()):
            with self.subTest(view=path):
                with open(os.path.join(fixtures.ROOT, path)) as f:
                    self.assertEqual(f.read(), getattr(protocol, kind + '_view')(),
                                     '%s is stale: run make protocol' % path)

    def test_one_name_each(self):
        self.assertEqual(len(protocol.BY_VIEW_NAME), len(protocol.MARKERS))


class Lines(unittest.TestCase):
    def test_arguments(self):
        self.assertEqual(protocol.parse_line('PC-RUN-END 0'), ('PC-RUN-END', '0'))
        self.assertEqual(protocol.parse_line('PC-PSTORE-DONE'), ('PC-PSTORE-DONE', ''))
        self.assertIsNone(protocol.parse_line('PC-PSTORE-DONEX'))
        self.assertIsNone(protocol.parse_line(' PC-GUEST-END'))
        self.assertIsNone(protocol.parse_line('PC-NOT-A-MARKER x'))
