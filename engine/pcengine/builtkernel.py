# SPDX-License-Identifier: GPL-2.0
"""The bench's kernels built from source, cached outside the clone:

  debug  Debian's linux-source-6.12 built for QEMU guests with KASAN,
         lockdep, UBSAN, KFENCE and every option the crash-type table
         needs (tools/debug-kernel.config), with gcc;
  clang  the same source and fragment with clang 19 (LLVM=-19), less
         what clang or TCG time rule out, plus kCFI and counted_by
         (tools/clang-kernel.config, on top): the cfi and bounds types'
         kernel.

tools/built-kernels.tsv names the flavours and their fragments.  The
cache, one directory per flavour, source version and config:

  ${XDG_CACHE_HOME:-~/.cache}/provoke-crash/FLAVOUR-VERSION-HASH/
    source/            the unpacked linux-source tree
    build/             the O= tree: bzImage, .config, Module.symvers,
                       scripts; make -C build M=DIR modules works
    modules/           make modules_install (lib/modules/RELEASE/...)
    build.log          the whole build's output
    stamp              written last: its presence means "done"

PC_DEBUG_PACKAGE (linux-source-6.12), PC_DEBUG_TARBALL
(/usr/src/PACKAGE.tar.xz) and PC_CLANG_LLVM (-19) change what is built;
``python3 -m pcengine.kernels build [FLAVOUR]`` (make debug-kernel, make
clang-kernel) builds or finds one and prints report()'s lines.
"""

import hashlib
import os
import re
import shutil
import subprocess
import sys
import time

from . import ROOT, SetupError, cache_of, log, read_text, waiting

# What a fragment says beside its values, a line each.
CONFIG_RE = re.compile(r'(CONFIG_[A-Z0-9_]*=.*)')
NOT_SET_RE = re.compile(r'# (CONFIG_[A-Z0-9_]*) is not set')
# Where each Kconfig entry ends (Kconfig's own words at a line's start).
ENTRY_END_RE = re.compile(rb'(config|menuconfig|choice|endchoice|menu|endmenu|if|endif'
                          rb'|comment|source)([ \t\n\r\f\v]|$)')
BROKEN_RE = re.compile(rb'[ \t\n\r\f\v]*depends on BROKEN')


def _tools():
    return os.path.join(ROOT, 'tools')


def _lines(path):
    """PATH's lines, without their newlines, bytes kept as read."""
    with open(path, encoding='utf-8', errors='surrogateescape', newline='') as f:
        text = f.read()
    lines = text.split('\n')
    return lines[:-1] if lines[-1] == '' else lines


def _table():
    """built-kernels.tsv's rows (not its comments), as lists of words."""
    return [[w for w in re.split(r'[ \t]+', line) if w]
            for line in _lines(os.path.join(_tools(), 'built-kernels.tsv'))
            if not line.startswith('#')]


def built_kernel(name):
    """NAME is one of the flavours built here (a series of the bench
    that is neither Debian's nor given as files)."""
    return any((row[0] if row else '') == name for row in _table())


def fragments(flavour):
    """FLAVOUR's config fragments, in merge order."""
    frags = [os.path.join(_tools(), f) for row in _table()
             if row and row[0] == flavour for f in row[1:]]
    if not frags:
        raise SetupError("no kernel flavour '%s' to build (%s)"
                         % (flavour, ','.join(row[0] if row else '' for row in _table())))
    return frags


def make_vars(flavour, env=os.environ):
    """make's variables for FLAVOUR."""
    return ['LLVM=' + (env.get('PC_CLANG_LLVM') or '-19')] if flavour == 'clang' else []


def _package(env):
    return env.get('PC_DEBUG_PACKAGE') or 'linux-source-6.12'


def _tarball(env):
    return env.get('PC_DEBUG_TARBALL') or '/usr/src/%s.tar.xz' % _package(env)


def packages(flavour, env=os.environ):
    """What building FLAVOUR takes, for the bench's install of its
    dependencies (no dwarves: no BTF)."""
    try:
        r = subprocess.run(['gcc', '-dumpversion'], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, universal_newlines=True, env=dict(env))
        gcc = r.stdout.strip() if r.returncode == 0 else '12'
    except OSError:
        gcc = '12'
    found = [_package(env), 'flex', 'bison', 'bc', 'libelf-dev', 'libssl-dev', 'kmod',
             'xz-utils', 'gcc-%s-plugin-dev' % gcc]
    if flavour == 'clang':
        llvm = env.get('PC_CLANG_LLVM') or '-19'
        found += ['clang' + llvm, 'lld' + llvm, 'llvm' + llvm]
    return found


def _comment_words(paths, word):
    """The CONFIG_X of each '# WORD: CONFIG_X why' line of PATHS."""
    pattern = re.compile(r'# %s: CONFIG_([A-Z0-9_]*) ' % word)
    return ['CONFIG_' + m.group(1) for p in paths for m in map(pattern.match, _lines(p)) if m]


def wanted(flavour):
    """The fragments' wanted values, the last one's winning, in the
    order of their last mention: 'CONFIG_X=VALUE' lines, and
    'CONFIG_X=n' for 'is not set' ones."""
    found = []
    for path in fragments(flavour):
        for line in _lines(path):
            m = CONFIG_RE.fullmatch(line)
            if m:
                found.append(m.group(1))
                continue
            m = NOT_SET_RE.fullmatch(line)
            if m:
                found.append(m.group(1) + '=n')
    seen, last = set(), []
    for line in reversed(found):
        key = line.split('=', 1)[0]
        if key not in seen:
            seen.add(key)
            last.append(line)
    return last[::-1]


def unbroken(flavour):
    """The options whose 'depends on BROKEN' the fragments' '# unbreak:
    CONFIG_X why' lines drop from the source tree (an experimental
    option whose help says to drop that line to try it), without
    CONFIG_."""
    return [sym[len('CONFIG_'):] for sym in _comment_words(fragments(flavour), 'unbreak')]


def cache_dir(flavour, env=os.environ):
    """The cache directory for FLAVOUR, the source package and the
    fragments' values (their comments, such as the 'cannot:' lines, do
    not change the build).  The version's '~' is kept out of the path.
    The hash is the shell's own (sha256sum of the same lines): a cache
    built before is found."""
    package = _package(env)
    try:
        r = subprocess.run(['dpkg-query', '-W', '-f=${Version}', package],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           universal_newlines=True, env=dict(env))
    except OSError:
        r = None
    if r is None or r.returncode != 0:
        raise SetupError('%s is not installed' % package)
    ver = r.stdout.rstrip('\n')
    lines = wanted(flavour) + make_vars(flavour, env) + unbroken(flavour)
    digest = hashlib.sha256(''.join(line + '\n' for line in lines)
                            .encode('utf-8', 'surrogateescape')).hexdigest()[:12]
    return '%s/%s-%s-%s' % (cache_of(env), flavour, re.sub(r'[^A-Za-z0-9.+-]', '_', ver),
                            digest)


def _kconfig_files(src, sym):
    """The Kconfig* files under SRC with a line 'config SYM', as grep -r
    finds them (symbolic links not followed)."""
    want = b'config ' + sym.encode()
    found = []
    for d, _, files in os.walk(src):
        for name in files:
            path = os.path.join(d, name)
            if name.startswith('Kconfig') and not os.path.islink(path):
                with open(path, 'rb') as f:
                    if want in f.read().split(b'\n'):
                        found.append(path)
    return found


def _drop_broken(data, sym):
    """DATA without the 'depends on BROKEN' lines of the entries of
    'config SYM' (an entry ends at the next line that starts one, or a
    menu, an if or a source), and how many were dropped."""
    start = b'config ' + sym.encode()
    kept, dropped, inside = [], 0, False
    for line in data.split(b'\n'):
        if not inside:
            inside = line == start
        elif ENTRY_END_RE.match(line):
            inside = False
            kept.append(line)
            continue
        if inside and BROKEN_RE.fullmatch(line):
            dropped += 1
            continue
        kept.append(line)
    return b'\n'.join(kept), dropped


def unbreak(flavour, src):
    """Drops the one 'depends on BROKEN' line of the Kconfig entry of
    each unbroken() option in the tree SRC; False if the option is not
    defined in exactly one file or its entry has no such line."""
    for sym in unbroken(flavour):
        files = _kconfig_files(src, sym)
        if len(files) != 1:
            return False
        with open(files[0], 'rb') as f:
            data, dropped = _drop_broken(f.read(), sym)
        with open(files[0], 'wb') as f:
            f.write(data)
        if dropped != 1:
            return False
        log("%s kernel: dropped 'depends on BROKEN' from %s (%s)"
            % (flavour, sym, os.path.relpath(files[0], src)))
    return True


def _needs():
    """Every CONFIG_ word that the crash-type table (outside its
    comments) and the case files' '# needs:' lines name, sorted."""
    text = [line for line in _lines(os.path.join(ROOT, 'include', 'provoke_crash_types.h'))
            if not re.match(r' *(/\*|\*)', line)]
    cases = os.path.join(ROOT, 'tests', 'cases')
    for name in sorted(os.listdir(cases)):
        if name.endswith('.sh') and not name.startswith('.'):
            text += [line for line in _lines(os.path.join(cases, name))
                     if line.startswith('# needs:')]
    return sorted({w for line in text for w in re.findall(r'CONFIG_[A-Z0-9_]*', line)})


def verify(flavour, config):
    """What of FLAVOUR's config is not in the .config CONFIG, a line
    each (none: all is): every wanted value, every symbol a fragment's
    '# must: CONFIG_X why' line names (what the compiler gives, not an
    option), and for the debug kernel also every CONFIG_ word that the
    crash-type table and the case files' '# needs:' lines ask for, as y,
    but those the debug fragment's '# cannot: CONFIG_X why' lines name.
    The clang kernel is for the types that need clang, not every need."""
    cannot = _comment_words([os.path.join(_tools(), 'debug-kernel.config')], 'cannot')
    have_lines = _lines(config)
    bad = []
    for want in wanted(flavour):
        sym, val = want.split('=', 1)
        have = '\n'.join(line[len(sym) + 1:] for line in have_lines
                         if line.startswith(sym + '=')).rstrip('\n')
        if not have and any(line.startswith('# %s is not set' % sym) for line in have_lines):
            have = 'n'
        if not have and val == 'n':
            have = 'n'
        if have != val:
            bad.append('%s=%s (got %s)' % (sym, val, have or 'nothing'))
    for sym in _comment_words(fragments(flavour), 'must'):
        if sym + '=y' not in have_lines:
            bad.append('%s=y (a must: line asks for it)' % sym)
    if flavour == 'debug':
        for sym in _needs():
            if sym not in cannot and sym + '=y' not in have_lines:
                bad.append('%s=y (a needs column or line asks for it)' % sym)
    return bad


def _stderr(data):
    """DATA, bytes of a log, on stderr as they are."""
    sys.stderr.flush()
    out = getattr(sys.stderr, 'buffer', None)
    if out is None:
        sys.stderr.write(data.decode('utf-8', 'replace'))
    else:
        out.write(data)
        out.flush()


def _split(data):
    """DATA's lines, each with its newline (the last may have none)."""
    parts = data.split(b'\n')
    return [p + b'\n' for p in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


def _run(argv, log_path, env):
    """ARGV's status, its output added to LOG_PATH (127 if it could not
    start, as from the shell)."""
    with open(log_path, 'ab') as f:
        try:
            return subprocess.run(argv, stdout=f, stderr=subprocess.STDOUT,
                                  env=dict(env)).returncode
        except OSError as e:
            f.write(('%s\n' % e).encode())
            return 127


def _unpack(flavour, src, env):
    """The source tree, unpacked once; an interrupted unpack starts
    again from scratch."""
    if os.path.isfile(os.path.join(src, '.pc-unpacked')):
        return
    tmp = src + '.tmp'
    shutil.rmtree(src, ignore_errors=True)
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    tarball = _tarball(env)
    try:
        failed = subprocess.run(['tar', '-C', tmp, '--strip-components=1', '-xf', tarball],
                                env=dict(env)).returncode
    except OSError as e:
        print(e, file=sys.stderr)
        failed = 127
    if failed:
        raise SetupError('could not unpack %s' % tarball)
    if not unbreak(flavour, tmp):
        raise SetupError("%s kernel: an unbreak: line's option has no 'depends on BROKEN'"
                         " to drop" % flavour)
    open(os.path.join(tmp, '.pc-unpacked'), 'w').close()
    os.rename(tmp, src)


def _configure(flavour, d, src, b, frags, env):
    """tinyconfig, the fragments merged on it, olddefconfig; then every
    wanted value must have stuck."""
    log_path, mv = os.path.join(d, 'build.log'), make_vars(flavour, env)
    # ARCH=x86_64: with ARCH=x86, tinyconfig is a 32-bit config.
    steps = (['make', '-C', src, 'O=' + b, 'ARCH=x86_64'] + mv + ['tinyconfig'],
             [os.path.join(src, 'scripts', 'kconfig', 'merge_config.sh'), '-m', '-O', b,
              os.path.join(b, '.config')] + frags,
             ['make', '-C', src, 'O=' + b] + mv + ['olddefconfig'])
    if any(_run(argv, log_path, env) for argv in steps):
        with open(log_path, 'rb') as f:
            _stderr(b''.join(_split(f.read())[-30:]))
        raise SetupError('%s kernel: configuration failed' % flavour)
    bad = verify(flavour, os.path.join(b, '.config'))
    if bad:
        sys.stderr.write(''.join('  %s\n' % line for line in bad))
        raise SetupError('%s kernel: these options did not stick after olddefconfig (fix %s)'
                         % (flavour, ' '.join(frags)))


def _make(flavour, d, src, b, env):
    """The kernel and its modules, installed under D/modules."""
    log_path, mv = os.path.join(d, 'build.log'), make_vars(flavour, env)
    jobs = len(os.sched_getaffinity(0))
    log('%s kernel: config verified; make -j%d (13 minutes on 2 idle cores, more on a busy'
        ' host)' % (flavour, jobs))
    rc = _run(['make', '-C', src, 'O=' + b] + mv + ['-j%d' % jobs, 'all'], log_path, env)
    if rc == 0:
        shutil.rmtree(os.path.join(d, 'modules'), ignore_errors=True)
        rc = _run(['make', '-C', src, 'O=' + b] + mv
                  + ['INSTALL_MOD_PATH=' + os.path.join(d, 'modules'), 'modules_install'],
                  log_path, env)
    if rc != 0:
        with open(log_path, 'rb') as f:
            errors = [line for line in _split(f.read()) if b'error' in line or b'Error' in line]
        _stderr(b''.join(line if line.endswith(b'\n') else line + b'\n'
                         for line in errors[-20:]))
        raise SetupError('%s kernel: build failed (see %s)' % (flavour, log_path))


def build(flavour, env=os.environ):
    """FLAVOUR's kernel, built unless the cache has it: (its bzImage, its
    build tree).  Progress goes to stderr; a failed build raises
    SetupError after the log's tail.  One build at a time per cache
    directory (flock on DIR.lock), so two benches can ask at once.  The
    source tree is unpacked once per flavour (O= builds leave it clean)."""
    d = cache_dir(flavour, env)
    frags = fragments(flavour)
    src, b = os.path.join(d, 'source'), os.path.join(d, 'build')
    image, stamp = os.path.join(b, 'arch', 'x86', 'boot', 'bzImage'), os.path.join(d, 'stamp')
    if os.path.isfile(stamp):
        log('%s kernel: cached: %s' % (flavour, d))
        return image, b
    try:
        os.makedirs(d, exist_ok=True)
    except OSError:
        raise SetupError('cannot create %s' % d)
    with open(d + '.lock', 'a+') as lock:
        waiting.take(lock, 'building the %s kernel (log: %s)'
                     % (flavour, os.path.join(d, 'build.log')))
        if os.path.isfile(stamp):
            log('%s kernel: cached: %s (built by another run)' % (flavour, d))
            return image, b
        start = int(time.time())
        log_path = os.path.join(d, 'build.log')
        log('%s kernel: building in %s (log: %s)' % (flavour, d, log_path))
        open(log_path, 'w').close()
        with waiting.still('building the %s kernel' % flavour, 60):
            _unpack(flavour, src, env)
            os.makedirs(b, exist_ok=True)
            for f in frags:
                shutil.copy(f, d)
            _configure(flavour, d, src, b, frags, env)
            _make(flavour, d, src, b, env)
        release = read_text(os.path.join(b, 'include', 'config', 'kernel.release')).rstrip('\n')
        with open(stamp, 'w') as f:
            f.write('release %s built in %ds\n' % (release, int(time.time()) - start))
    log('%s kernel: %s' % (flavour, read_text(stamp).rstrip('\n')))
    return image, b


def report(flavour, image, tree, seconds):
    """What a build or a find of FLAVOUR's kernel says it gave, and how
    the bench runs on it."""
    d = os.path.dirname(tree)
    release = read_text(os.path.join(tree, 'include', 'config', 'kernel.release')).rstrip('\n')
    return ['%s kernel %s (%ds)' % (flavour, release, seconds),
            '  image:   %s' % image,
            '  tree:    %s   (make -C it M=DIR modules)' % tree,
            '  modules: %s/modules/lib/modules' % d,
            '  log:     %s/build.log' % d,
            '  bench:   PC_KERNELS=%s tests/run   or   PC_KERNELS=%s:%s tests/run'
            % (flavour, image, tree)]
