# SPDX-License-Identifier: GPL-2.0
"""The debug and clang kernels' build (pcengine.builtkernel) on a made
checkout: its fragments' values, the cache's name (the one the shell
gave, so that a kernel it built is found), the check of a .config,
the drop of 'depends on BROKEN', and a whole build by a fake make."""

import contextlib
import hashlib
import io
import os
import shutil
import tarfile
import tempfile
import unittest
from unittest import mock

from pcengine import SetupError, builtkernel

TABLE = '''# a comment: debug
debug\tdebug-kernel.config
clang\tdebug-kernel.config  clang-kernel.config
'''
DEBUG = '''# The debug fragment.
CONFIG_A=y
# CONFIG_B is not set
CONFIG_C="x y"
CONFIG_A=m
#CONFIG_D is not set
 CONFIG_E=y
# cannot: CONFIG_CANT why not
'''
CLANG = '''CONFIG_C="z"
# CONFIG_A is not set
# must: CONFIG_CC_HAS_X what clang gives
# unbreak: CONFIG_WRAP its check
CONFIG_WRAP=y
'''
TYPES_H = '''/* CONFIG_IN_COMMENT
 * CONFIG_IN_COMMENT_TOO */
X(one, "CONFIG_NEED1 CONFIG_CANT")
'''
CASE = '''# needs: CONFIG_NEED2
# not a need: CONFIG_OTHER
'''
# The fake make: a .config from tinyconfig and from FAKE_CONFIG at
# olddefconfig, a release and an image at all; FAKE_FAIL fails that step.
MAKE = '''#!/bin/sh
for a; do case $a in O=*) O=${a#O=} ;; esac; last=$a; done
echo "make $*"
[ "$last" = "$FAKE_FAIL" ] && { echo "x.c:1: error: boom"; echo "no news"; exit 2; }
case $last in
tinyconfig) echo '# tiny' >"$O/.config" ;;
olddefconfig) cp "$FAKE_CONFIG" "$O/.config" ;;
all) mkdir -p "$O/include/config" "$O/arch/x86/boot"
	echo 6.12.0-pc-test >"$O/include/config/kernel.release"
	: >"$O/arch/x86/boot/bzImage" ;;
esac
'''
DPKG_QUERY = '#!/bin/sh\n[ "$3" = linux-source-6.12 ] || exit 1\nprintf 6.12.1-1~deb12u1\n'
KCONFIG = b'''config WRAP
\tbool "wrap"
\tdepends on BROKEN
\thelp
\t  drop the line above

config NEXT
\tdepends on BROKEN
'''


def write(path, text, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.write(text.encode() if isinstance(text, str) else text)
    os.chmod(path, mode)


class Checkout(unittest.TestCase):
    """A checkout of made fragments, table and needs, and fake commands."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)
        self.root = os.path.join(self.tmp, 'root')
        tools = os.path.join(self.root, 'tools')
        write(os.path.join(tools, 'built-kernels.tsv'), TABLE)
        write(os.path.join(tools, 'debug-kernel.config'), DEBUG)
        write(os.path.join(tools, 'clang-kernel.config'), CLANG)
        write(os.path.join(self.root, 'include', 'provoke_crash_types.h'), TYPES_H)
        write(os.path.join(self.root, 'tests', 'cases', 'a.sh'), CASE)
        write(os.path.join(self.root, 'tests', 'cases', 'b.txt'), '# needs: CONFIG_NOT_A_CASE\n')
        self.bin = os.path.join(self.tmp, 'bin')
        write(os.path.join(self.bin, 'dpkg-query'), DPKG_QUERY, 0o755)
        write(os.path.join(self.bin, 'make'), MAKE, 0o755)
        self.env = {'PATH': self.bin + os.pathsep + os.environ.get('PATH', ''),
                    'HOME': os.path.join(self.tmp, 'home')}
        patch = mock.patch.object(builtkernel, 'ROOT', self.root)
        patch.start()
        self.addCleanup(patch.stop)

    def frag(self, name):
        return os.path.join(self.root, 'tools', name)


class Fragments(Checkout):
    def test_flavours_and_their_fragments(self):
        self.assertTrue(builtkernel.built_kernel('clang'))
        self.assertFalse(builtkernel.built_kernel('#'))
        self.assertFalse(builtkernel.built_kernel('6.1'))
        self.assertEqual(builtkernel.fragments('clang'),
                         [self.frag('debug-kernel.config'), self.frag('clang-kernel.config')])
        with self.assertRaises(SetupError) as e:
            builtkernel.fragments('6.1')
        self.assertEqual(str(e.exception), "no kernel flavour '6.1' to build (debug,clang)")

    def test_make_vars_and_packages(self):
        self.assertEqual(builtkernel.make_vars('debug', {}), [])
        self.assertEqual(builtkernel.make_vars('clang', {}), ['LLVM=-19'])
        self.assertEqual(builtkernel.make_vars('clang', {'PC_CLANG_LLVM': '-18'}), ['LLVM=-18'])
        debug = builtkernel.packages('debug', {'PC_DEBUG_PACKAGE': 'src'})
        self.assertEqual(debug[0], 'src')
        self.assertTrue(debug[-1].startswith('gcc-') and debug[-1].endswith('-plugin-dev'))
        self.assertEqual(builtkernel.packages('clang', self.env)[-3:],
                         ['clang-19', 'lld-19', 'llvm-19'])

    def test_the_last_value_wins_in_the_order_of_its_last_mention(self):
        self.assertEqual(builtkernel.wanted('debug'),
                         ['CONFIG_B=n', 'CONFIG_C="x y"', 'CONFIG_A=m'])
        self.assertEqual(builtkernel.wanted('clang'),
                         ['CONFIG_B=n', 'CONFIG_C="z"', 'CONFIG_A=n', 'CONFIG_WRAP=y'])
        self.assertEqual(builtkernel.unbroken('debug'), [])
        self.assertEqual(builtkernel.unbroken('clang'), ['WRAP'])

    def test_the_cache_is_named_by_the_values(self):
        text = 'CONFIG_B=n\nCONFIG_C="z"\nCONFIG_A=n\nCONFIG_WRAP=y\nLLVM=-19\nWRAP\n'
        digest = hashlib.sha256(text.encode()).hexdigest()[:12]
        self.assertEqual(builtkernel.cache_dir('clang', self.env),
                         '%s/home/.cache/provoke-crash/clang-6.12.1-1_deb12u1-%s'
                         % (self.tmp, digest))
        env = dict(self.env, XDG_CACHE_HOME='/c')
        self.assertTrue(builtkernel.cache_dir('debug', env).startswith(
            '/c/provoke-crash/debug-6.12.1-1_deb12u1-'))
        # A comment does not change the build; a value does.
        before = builtkernel.cache_dir('debug', env)
        with open(self.frag('debug-kernel.config'), 'a') as f:
            f.write('# more words\n')
        self.assertEqual(builtkernel.cache_dir('debug', env), before)
        with open(self.frag('debug-kernel.config'), 'a') as f:
            f.write('CONFIG_F=y\n')
        self.assertNotEqual(builtkernel.cache_dir('debug', env), before)
        with self.assertRaises(SetupError) as e:
            builtkernel.cache_dir('debug', dict(env, PC_DEBUG_PACKAGE='none'))
        self.assertEqual(str(e.exception), 'none is not installed')


class Verify(Checkout):
    def config(self, text):
        path = os.path.join(self.tmp, 'config')
        write(path, text)
        return path

    def test_all_there(self):
        good = ('CONFIG_A=m\nCONFIG_C="x y"\nCONFIG_NEED1=y\nCONFIG_NEED2=y\n')
        self.assertEqual(builtkernel.verify('debug', self.config(good)), [])
        # A value asked off may be absent or not set.
        self.assertEqual(builtkernel.verify('debug', self.config(
            good + '# CONFIG_B is not set\n')), [])

    def test_what_did_not_stick(self):
        config = self.config('CONFIG_B=y\nCONFIG_C="x"\n# CONFIG_A is not set\n'
                             'CONFIG_NEED2=m\nCONFIG_OTHER=y\n')
        self.assertEqual(builtkernel.verify('debug', config), [
            'CONFIG_B=n (got y)', 'CONFIG_C="x y" (got "x")', 'CONFIG_A=m (got n)',
            'CONFIG_NEED1=y (a needs column or line asks for it)',
            'CONFIG_NEED2=y (a needs column or line asks for it)'])
        # The clang kernel's: its own values and must: lines, no needs.
        self.assertEqual(builtkernel.verify('clang', config), [
            'CONFIG_B=n (got y)', 'CONFIG_C="z" (got "x")', 'CONFIG_WRAP=y (got nothing)',
            'CONFIG_CC_HAS_X=y (a must: line asks for it)'])

    def test_the_names_the_shell_gave(self):
        # tools/pc-debug-kernel.sh's pc_debug_dir named these caches (its
        # last session, on these fragments): a kernel built then is
        # found again.
        self.assertEqual([builtkernel.cache_dir(f, self.env)[-12:] for f in ('debug', 'clang')],
                         ['513385455e56', '6d02ba09b3e4'])


class Unbreak(Checkout):
    def tree(self, files):
        src = os.path.join(self.tmp, 'src')
        for name, data in files.items():
            write(os.path.join(src, name), data)
        return src

    def test_the_one_line_is_dropped(self):
        src = self.tree({'lib/Kconfig.ubsan': KCONFIG, 'lib/Makefile': b'config WRAP\n'})
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertTrue(builtkernel.unbreak('clang', src))
        with open(os.path.join(src, 'lib', 'Kconfig.ubsan'), 'rb') as f:
            self.assertEqual(f.read(), KCONFIG.replace(b'\tdepends on BROKEN\n\thelp',
                                                       b'\thelp'))
        self.assertEqual(err.getvalue(), "# clang kernel: dropped 'depends on BROKEN' from"
                         " WRAP (lib/Kconfig.ubsan)\n")
        # Nothing is left to drop the second time.
        self.assertFalse(builtkernel.unbreak('clang', src))
        self.assertTrue(builtkernel.unbreak('debug', src))

    def test_defined_twice_or_never(self):
        self.assertFalse(builtkernel.unbreak('clang', self.tree(
            {'a/Kconfig': KCONFIG, 'b/Kconfig.debug': b'config WRAP\n'})))
        shutil.rmtree(os.path.join(self.tmp, 'src'))
        self.assertFalse(builtkernel.unbreak('clang', self.tree({'a/Kconfig': b'config NO\n'})))

    def test_a_linked_file_is_not_read(self):
        src = self.tree({'a/Kconfig': KCONFIG})
        os.symlink(os.path.join(src, 'a', 'Kconfig'), os.path.join(src, 'Kconfig.link'))
        with contextlib.redirect_stderr(io.StringIO()):
            self.assertTrue(builtkernel.unbreak('clang', src))


class Build(Checkout):
    def setUp(self):
        super().setUp()
        tarball = os.path.join(self.tmp, 'linux-source.tar.xz')
        with tarfile.open(tarball, 'w:xz') as tar:
            for name, data, mode in (
                    ('scripts/kconfig/merge_config.sh', b'#!/bin/sh\necho "merge $*"\n', 0o755),
                    ('lib/Kconfig.ubsan', KCONFIG, 0o644)):
                info = tarfile.TarInfo('linux-source-6.12/' + name)
                info.size, info.mode = len(data), mode
                tar.addfile(info, io.BytesIO(data))
        self.good = os.path.join(self.tmp, 'good.config')
        write(self.good, 'CONFIG_A=m\nCONFIG_C="x y"\nCONFIG_NEED1=y\nCONFIG_NEED2=y\n')
        self.env.update(XDG_CACHE_HOME=os.path.join(self.tmp, 'cache'),
                        PC_DEBUG_TARBALL=tarball, FAKE_CONFIG=self.good)

    def build(self, flavour='debug', **env):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            try:
                return builtkernel.build(flavour, dict(self.env, **env)), err.getvalue()
            except SetupError as e:
                return str(e), err.getvalue()

    def test_built_then_cached(self):
        (image, tree), err = self.build()
        d = builtkernel.cache_dir('debug', self.env)
        self.assertEqual((image, tree), (d + '/build/arch/x86/boot/bzImage', d + '/build'))
        self.assertTrue(os.path.isfile(image))
        self.assertTrue(os.path.isfile(os.path.join(d, 'source', '.pc-unpacked')))
        self.assertTrue(os.path.isfile(os.path.join(d, 'debug-kernel.config')))
        with open(os.path.join(d, 'stamp')) as f:
            self.assertRegex(f.read(), r'^release 6\.12\.0-pc-test built in [0-9]+s\n$')
        with open(os.path.join(d, 'build.log')) as f:
            log = f.read()
        for step in ('tinyconfig', 'merge -m -O', 'olddefconfig', ' all', 'modules_install'):
            self.assertIn(step, log)
        self.assertIn('# debug kernel: building in %s' % d, err)
        self.assertRegex(err, r'# debug kernel: release 6\.12\.0-pc-test built in [0-9]+s\n$')
        self.assertEqual(self.build(), ((image, tree), '# debug kernel: cached: %s\n' % d))
        self.assertEqual(builtkernel.report('debug', image, tree, 7), [
            'debug kernel 6.12.0-pc-test (7s)',
            '  image:   %s' % image,
            '  tree:    %s   (make -C it M=DIR modules)' % tree,
            '  modules: %s/modules/lib/modules' % d,
            '  log:     %s/build.log' % d,
            '  bench:   PC_KERNELS=debug tests/run   or   PC_KERNELS=%s:%s tests/run'
            % (image, tree)])

    def test_the_clang_kernel_drops_its_broken_line(self):
        config = os.path.join(self.tmp, 'clang.config')
        write(config, 'CONFIG_C="z"\nCONFIG_WRAP=y\nCONFIG_CC_HAS_X=y\n')
        (image, tree), err = self.build('clang', FAKE_CONFIG=config)
        self.assertIn("dropped 'depends on BROKEN' from WRAP (lib/Kconfig.ubsan)", err)
        with open(os.path.join(os.path.dirname(tree), 'build.log')) as f:
            self.assertIn('LLVM=-19 olddefconfig', f.read())

    def test_what_did_not_stick_stops_it(self):
        bad = os.path.join(self.tmp, 'bad.config')
        write(bad, 'CONFIG_A=y\nCONFIG_C="x y"\nCONFIG_NEED1=y\nCONFIG_NEED2=y\n')
        why, err = self.build(FAKE_CONFIG=bad)
        self.assertEqual(why, 'debug kernel: these options did not stick after olddefconfig'
                         ' (fix %s)' % self.frag('debug-kernel.config'))
        self.assertIn('\n  CONFIG_A=m (got y)\n', err)
        self.assertFalse(os.path.exists(os.path.join(
            builtkernel.cache_dir('debug', self.env), 'stamp')))

    def test_failures_say_why(self):
        why, err = self.build(FAKE_FAIL='olddefconfig')
        self.assertEqual(why, 'debug kernel: configuration failed')
        self.assertIn('x.c:1: error: boom\nno news\n', err)
        why, err = self.build(FAKE_FAIL='all')
        d = builtkernel.cache_dir('debug', self.env)
        self.assertEqual(why, 'debug kernel: build failed (see %s/build.log)' % d)
        self.assertTrue(err.endswith('\nx.c:1: error: boom\n'))
        # The source unpacked, the same tree serves again; a new one's
        # tarball that does not unpack stops it.
        write(os.path.join(self.bin, 'tar'), '#!/bin/sh\nexit 2\n', 0o755)
        self.assertEqual(self.build(FAKE_FAIL='')[0][1], os.path.join(d, 'build'))
        self.assertEqual(self.build('clang')[0],
                         'could not unpack %s' % self.env['PC_DEBUG_TARBALL'])

    def test_no_broken_line_to_drop(self):
        write(self.frag('clang-kernel.config'), CLANG.replace('CONFIG_WRAP its', 'CONFIG_NO its'))
        why, _ = self.build('clang')
        self.assertEqual(why, "clang kernel: an unbreak: line's option has no 'depends on"
                         " BROKEN' to drop")
        d = builtkernel.cache_dir('clang', self.env)
        self.assertFalse(os.path.exists(os.path.join(d, 'source')))

if __name__ == '__main__':
    unittest.main()
