# SPDX-License-Identifier: GPL-2.0
"""The VM runner's last check before a build: each --arm's SYMBOL and
caller= names against the guest kernel's own System.map.  A typo is then
one line and exit status 2 (a vm_args.UsageError), with the names it may
have meant, instead of a module build, a restore and the guest's ENOENT.

Only text symbols are places (nm's t and T, and w and W, weak functions:
weak data is v and V).  The map is the release's /boot/System.map-REL, a
built tree's System.map (a kernel of files: its root's headers link is
the tree), or Debian's -dbg package's, /usr/lib/debug/boot: Debian's
image package ships a stub of one line.  With no map the guest checks
the names, as before.  MODULE:SYMBOL is the guest's too: a module's
functions are not in the map.  Whether kprobes takes a function in the
map (NOKPROBE, notrace) is the guest's answer, with its reason.
"""

import collections
import difflib
import re

from . import kernels, log
from .vm_args import CALLER_RE, UsageError

# One text symbol's line, as mksysmap writes it: ADDRESS TYPE NAME.
TEXT_RE = re.compile(r' [tTwW] (\S+)\n')


def map_paths(r):
    """Where R's System.map may be, the likeliest first."""
    return ['%s/boot/System.map-%s' % (r.root, r.rel),
            '%s/usr/src/linux-headers-%s/System.map' % (r.root, r.rel),
            '%s/usr/lib/debug/boot/System.map-%s' % (r.root, r.rel)]


def syscall_entry(arch, name):
    """@sys@NAME as the guest gets it (kernels.fill_case's words)."""
    return kernels.fill_case(arch, ('@sys@' + name).encode()).decode()


def first_letter(name):
    """The key of a name's pool of suggestions: a typo rarely hits the
    first letter, and a pool is a twentieth of the map."""
    return name.lstrip('_')[:1]


def did_you_mean(found, spelling=''):
    return ' (did you mean: %s?)' % ' '.join(spelling + n for n in found) if found else ''


class Symbols:
    """A System.map's text symbols, and the line that says why a name is
    not one of them."""

    def __init__(self, text, rel, arch, lto):
        self.text, self.rel, self.arch, self.lto = text, rel, arch, lto
        self.names = set(TEXT_RE.findall(text))
        self.prefix = syscall_entry(arch, '')
        self._pools = None

    def near(self, name):
        """The closest names that start like NAME."""
        if self._pools is None:
            self._pools = collections.defaultdict(list)
            for n in self.names:
                self._pools[first_letter(n)].append(n)
        return difflib.get_close_matches(name, self._pools[first_letter(name)], 4, 0.8)

    def near_syscalls(self, call):
        """The closest system calls' NAMEs, as @sys@NAME takes them."""
        calls = [n[len(self.prefix):] for n in self.names if n.startswith(self.prefix)]
        return difflib.get_close_matches(call, calls, 4, 0.8)

    def copies(self, name):
        """The compiler's renamed copies of NAME's function (.isra.0,
        .constprop.0, .part.0), the .cold parts left out: they are no
        function's entry."""
        base = re.escape(name.partition('.')[0])
        found = set(re.findall(r' [tTwW] (%s\.\S+)\n' % base, self.text))
        return sorted(n for n in found if not n.endswith('.cold'))

    def why_not(self, name):
        """Why NAME, as written (@sys@NAME too), is not a function here,
        or ''."""
        if name.startswith('@sys@'):
            return self.why_not_syscall(name[len('@sys@'):])
        if name in self.names:
            return ''
        missing = "no function '%s' in %s's System.map" % (name, self.rel)
        copies = self.copies(name)
        if copies:
            # Under clang's LTO some kernels' kallsyms_lookup_name()
            # finds a renamed function by its plain name: the guest says.
            if self.lto:
                return ''
            return ("%s, only the compiler's copies of it: %s%s (name one: kallsyms matches "
                    'whole names)' % (missing, ' '.join(copies[:4]),
                                      ' ...' if len(copies) > 4 else ''))
        return missing + (self.syscall_hint(name) or self.data_hint(name)
                          or did_you_mean(self.near(name)))

    def why_not_syscall(self, call):
        """@sys@CALL: the guest's entry for it, with suggestions in the
        same spelling."""
        entry = syscall_entry(self.arch, call)
        if entry in self.names:
            return ''
        return "no function '%s' (@sys@%s) in %s's System.map%s" % (
            entry, call, self.rel, did_you_mean(self.near_syscalls(call), '@sys@'))

    def syscall_hint(self, name):
        """sys_NAME, another architecture's entry or a bare NAME, where
        the entry here has its own name: @sys@NAME is the portable one."""
        m = re.fullmatch(r'(?:(?:__x64_|__arm64_)?sys_)?([A-Za-z0-9_]+)', name)
        if not m:
            return ''
        call = m.group(1)
        if self.prefix + call in self.names:
            return ": the system call's entry is %s%s there; write @sys@%s" % (
                self.prefix, call, call)
        if call == name:
            return ''
        return did_you_mean(self.near_syscalls(call), '@sys@')

    def data_hint(self, name):
        """A name the map has, but not as text (a variable, say)."""
        m = re.search(r'^\S+ ([A-Za-z]) %s$' % re.escape(name), self.text, re.M)
        return " ('%s' is there, but not as text: type %s)" % (name, m.group(1)) if m else ''


def read(r):
    """R's Symbols, or None (said in one line) when no map of it is
    here."""
    stub = False
    for path in map_paths(r):
        try:
            with open(path, encoding='utf-8', errors='surrogateescape') as f:
                text = f.read()
        except OSError:
            continue
        symbols = Symbols(text + '\n', r.rel, r.arch, r.kernel.has('CONFIG_LTO_CLANG'))
        if symbols.names:
            return symbols
        # Debian's: "ffffffffffffffff B The real System.map is in the
        # linux-image-<version>-dbg package".
        stub = True
    log('symbols: no System.map for %s%s: the guest checks them'
        % (r.rel, " (Debian's is in linux-image-%s-dbg)" % r.rel if stub else ''))
    return None


def names_of(arms):
    """(point, condition or '', name): each point's SYMBOL and caller
    names, but MODULE:SYMBOL."""
    found = []
    for spec in arms:
        words = spec.split()
        found.append((spec, '', re.match(r'[^+%]*', words[0]).group(0)))
        for kv in words[2:]:
            m = CALLER_RE.fullmatch(kv)
            if m:
                found.append((spec, kv, m.group(2)))
    return [f for f in found if ':' not in f[2]]


def check(o, r):
    """Each --arm's names against the System.map of R (a
    vm_build.Release): a UsageError names the first that is not a
    function there."""
    # With --module a plain name may be the module's: the guest judges.
    named = [] if o.modules else names_of(o.arms)
    symbols = read(r) if named else None
    if symbols is None:
        return
    for spec, condition, name in named:
        why = symbols.why_not(name)
        if why:
            raise UsageError("--arm '%s': %s%s" % (spec, condition + ': ' if condition else '',
                                                    why))
