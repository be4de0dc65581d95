# SPDX-License-Identifier: GPL-2.0
"""The VM runner's command line (pcengine.vm_args): each mistake is one
line and status 2, found before anything is built; the lines are those
the bench's vm/bad_options case (pcengine.vmcases) checks on the runner
itself."""

import os
import tempfile
import unittest

from pcengine import vm_args
from pcengine.vm_args import UsageError

# Fields as ``provoke-crash types --table`` prints them: name, category,
# context, fate, needs, expected texts, description, LKDTM's names.
TABLE = {
    'bugon': ['bugon', 'bug', 'nmi', 'oops', '-', 'kernel BUG at'],
    'delay': ['delay', 'delay', 'task', 'silent', '-', ''],
    'spin': ['spin', 'delay', 'atomic', 'silent', '-', ''],
    'null_dereference': ['null_dereference', 'access', 'nmi', 'oops', '-', 'NULL pointer'],
    'read_after_free': ['read_after_free', 'heap', 'task', 'report', 'slub_debug=FZPU', ''],
    'read_buddy_after_free': ['read_buddy_after_free', 'heap', 'task', 'report', '-', ''],
    'pac_corruption': ['pac_corruption', 'cpu', 'nmi', 'oops', 'arm64', ''],
    'unreachable_loop': ['unreachable_loop', 'lockups', 'irqs', 'hang', '-', '', 'spin',
                         'SOFTLOCKUP LOOP'],
}


def error(fn, *args):
    """The mistake's line, or None."""
    try:
        fn(*args)
    except UsageError as e:
        assert e.status == 2
        return str(e)
    return None


def arm(spec):
    return error(vm_args.check_arm, spec, TABLE, 'provoke-crash-vm')


def conflicts(argv, tty=False):
    return error(lambda: vm_args.check_conflicts(vm_args.parse(argv), tty))


class Parse(unittest.TestCase):
    def test_options_and_values(self):
        o = vm_args.parse(['--kernel', '6.12', '--arm', 'a bugon', '--arm', 'b delay ms=5',
                           '--run', 'true', '--timing', '--file', '/x:/y', '--kdump'])
        self.assertEqual((o.series, o.arms, o.run, o.run_set, o.timing, o.files, o.kdump),
                         ('6.12', ['a bugon', 'b delay ms=5'], 'true', True, True, ['/x:/y'],
                          True))

    def test_missing_value_and_unknown(self):
        self.assertEqual(error(vm_args.parse, ['--arm']), '--arm needs a value (see --help)')
        self.assertEqual(error(vm_args.parse, ['--frobnicate']),
                         "unknown option '--frobnicate' (see --help)")

    def test_help_stops_the_parse(self):
        self.assertTrue(vm_args.parse(['--help', '--frobnicate']).help)
        for words in ('%return', '(NAME: at most 15 characters', '(default build/vm/kdump-DATE)',
                      '7 (--kdump) the kernel crashed as asked'):
            self.assertIn(words, vm_args.USAGE_TEXT)


class Conflicts(unittest.TestCase):
    def test_pairs(self):
        self.assertIn('--arm and --trigger do not go together',
                      conflicts(['--arm', 'a bugon', '--trigger', 'panic']))
        self.assertIn('--run and --trigger', conflicts(['--trigger', 'panic', '--run', 'x']))
        self.assertIn('--run and --shell', conflicts(['--shell', '--run', 'x'], True))
        self.assertEqual(conflicts(['--run', '']), "--run '': give a command")
        self.assertEqual(conflicts(['--bt']), '--bt needs --kdump (it reads the dump)')
        self.assertIn('--pstore-boot and --kdump', conflicts(['--kdump', '--pstore-boot']))

    def test_numbers(self):
        self.assertEqual(conflicts(['--timeout', 'abc']),
                         "--timeout 'abc': give a whole number from 1 to 86400")
        self.assertEqual(conflicts(['--smp', '9']), "--smp '9': give a whole number from 1 to 8")
        self.assertIsNone(conflicts(['--smp', '8', '--timeout', '1']))

    def test_shell_needs_a_terminal(self):
        self.assertEqual(conflicts(['--shell']), '--shell needs a terminal on stdin')
        self.assertIsNone(conflicts(['--shell'], True))

    def test_files(self):
        self.assertEqual(conflicts(['--file', '/nonexistent/repro']),
                         "--file '/nonexistent/repro': no file '/nonexistent/repro' on this "
                         "machine")
        with tempfile.NamedTemporaryFile() as f:
            self.assertIn('GUEST must be an absolute path', conflicts(['--file', f.name + ':x']))
            self.assertIsNone(conflicts(['--file', f.name + ':/root/x']))


class Kernel(unittest.TestCase):
    def check(self, argv):
        o = vm_args.parse(argv)
        return error(vm_args.check_kernel, o) or o.series

    def test_series(self):
        self.assertEqual(self.check([]), '6.1')
        self.assertEqual(self.check(['--kernel', 'arm64-6.12']), 'arm64-6.12')
        self.assertEqual(self.check(['--kernel', '7.2']), '7.2')
        self.assertEqual(self.check(['--kernel', 'arm64-7.2']), 'arm64-7.2')
        self.assertIn("not a series (6.1, 6.12, 6.1-rt", self.check(['--kernel', '4.19']))
        self.assertIn("--kdir goes with --kernel IMAGE, not the series '6.1'",
                      self.check(['--kernel', '6.1', '--kdir', '/tmp']))
        self.assertEqual(self.check(['--kernel', 'a:b', '--kdir', '/tmp']),
                         '--kernel IMAGE:TREE and --kdir: give one')

    def test_image_and_tree(self):
        with tempfile.TemporaryDirectory() as d:
            image = os.path.join(d, 'bzImage')
            with open(image, 'wb') as f:
                f.write(b'\0' * 514 + b'HdrS')
            self.assertIn('give its build tree with --kdir', self.check(['--kernel', image]))
            self.assertIn('not a built kernel tree (no .config)',
                          self.check(['--kernel', image, '--kdir', d]))
            os.makedirs(os.path.join(d, 'include/config'))
            for name in ('.config', 'include/config/kernel.release', 'Module.symvers'):
                open(os.path.join(d, name), 'w').close()
            self.assertEqual(self.check(['--kernel', image, '--kdir', d]), image + ':' + d)
            self.assertIn('not an x86-64 bzImage',
                          self.check(['--kernel', '/etc/hostname', '--kdir', d]))


class Arm(unittest.TestCase):
    def test_grammar(self):
        self.assertIsNone(arm('vfs_read+0x10 bugon after=1 every=2 times=-1 probability=50 '
                              'pid=3 comm=abcdefghijklmno cpu=1'))
        self.assertIn("give 'SYMBOL[+OFFSET|%return] TYPE", arm('vfs_read'))
        self.assertIn("'vfs_read+4x' is not SYMBOL", arm('vfs_read+4x bugon'))
        self.assertIn('disarming has no place here', arm('!vfs_read bugon'))

    def test_types(self):
        self.assertEqual(arm('vfs_read nosuchtype'),
                         "--arm 'vfs_read nosuchtype': no crash type 'nosuchtype'; "
                         "'provoke-crash-vm --list-types' lists them")
        self.assertIn('(did you mean: read_after_free read_buddy_after_free?)',
                      arm('vfs_read read_a'))
        # LKDTM's names, in either case, name the type that answers them.
        for name in ('SOFTLOCKUP', 'softlockup'):
            self.assertIn("'%s' is LKDTM's name for the crash type unreachable_loop; "
                          "give unreachable_loop" % name, arm('vfs_read ' + name))

    def test_conditions(self):
        self.assertIn("unknown condition 'colour' (after= every= times=",
                      arm('vfs_read bugon colour=red'))
        self.assertIn("bad value in 'times=x'", arm('vfs_read bugon times=x'))
        self.assertIn("bad value in 'probability=101'", arm('vfs_read bugon probability=101'))
        self.assertIn("bad value in 'comm=abcdefghijklmnop'",
                      arm('vfs_read bugon comm=abcdefghijklmnop'))
        self.assertIn("'times' given twice", arm('vfs_read bugon times=1 times=2'))
        self.assertIn("'foo=' is not KEY=VALUE", arm('vfs_read bugon foo='))

    def test_compare(self):
        self.assertIsNone(arm('vfs_read bugon arg1<=5 arg2&0x4 arg3!=-1'))
        self.assertIsNone(arm('vfs_read%return bugon retval=-EINVAL'))
        self.assertIn('retval is known at SYMBOL%return only',
                      arm('vfs_read bugon retval=-EINVAL'))
        self.assertIn("argN is known at a function's entry only",
                      arm('vfs_read+0x10 bugon arg1=1'))
        self.assertIsNone(arm('vfs_read+0 bugon arg1=1'))
        self.assertIn("bad value in 'arg1=zz'", arm('vfs_read bugon arg1=zz'))
        # The mistakes a user made, with the words that fix them.
        self.assertIn("'arg3': write each condition as one word, without spaces",
                      arm('vfs_read bugon arg3 > 100'))
        self.assertIn("'>=5': write each condition as one word", arm('vfs_read bugon >=5'))
        self.assertIn("'arg0>1': the arguments are arg1 to arg6", arm('vfs_read bugon arg0>1'))
        self.assertIn("'arg7>1': the arguments are arg1 to arg6", arm('vfs_read bugon arg7>1'))
        self.assertIn('every must be at least 1', arm('vfs_read bugon every=0'))
        self.assertIsNone(arm('vfs_read bugon every=1 arg6>1'))

    def test_callers(self):
        self.assertIsNone(arm('vfs_read bugon caller=ksys_read caller!=mod:f.cold'))
        self.assertIn('at most 4 caller conditions',
                      arm('vfs_read bugon caller=a caller=b caller=c caller=d caller!=e'))
        self.assertIn("bad name in 'caller=ksys_read+4'", arm('vfs_read bugon caller=ksys_read+4'))
        self.assertIn("caller takes only = or != in 'caller<=ksys_read'",
                      arm('vfs_read bugon caller<=ksys_read'))

    def test_ms(self):
        self.assertIsNone(arm('vfs_read delay ms=10000'))
        self.assertIn('ms= is for delay and spin only', arm('vfs_read bugon ms=5'))
        self.assertIn('ms must be 1 to 10000', arm('vfs_read delay ms=0'))
        self.assertIn('spin is capped at ms=1000', arm('vfs_read spin ms=1001'))


class Points(unittest.TestCase):
    def points(self, argv, arch='x86_64'):
        o = vm_args.parse(argv)
        o.series = o.series or '6.1'
        try:
            return vm_args.check_points(o, TABLE, arch, 'p'), o
        except UsageError as e:
            return str(e), o

    def test_defaults(self):
        (types, cpus), o = self.points([])
        self.assertEqual((types, cpus, o.arms, o.run),
                         (['null_dereference'], 0, [vm_args.DEFAULT_ARM], vm_args.DEFAULT_RUN))
        (types, _), o = self.points(['--shell'])
        self.assertEqual((types, o.arms, o.run), ([], [], ''))
        # A command alone arms nothing: no point nobody asked for.
        (types, _), o = self.points(['--run', 'sh -c "echo hi"'])
        self.assertEqual((types, o.arms, o.run), ([], [], 'sh -c "echo hi"'))

    def test_cpus(self):
        self.assertEqual(self.points(['--arm', 'a bugon cpu=1', '--arm', 'b bugon'])[0],
                         (['bugon', 'bugon'], 2))
        self.assertEqual(self.points(['--arm', 'a bugon cpu=3', '--smp', '2'])[0],
                         'a point asks for cpu=3, and --smp 2 gives CPUs 0 to 1')

    def test_trigger_and_arch(self):
        self.assertEqual(self.points(['--trigger', 'read_after_free'])[0],
                         (['read_after_free'], 0))
        self.assertEqual(self.points(['--trigger', 'pac_corruption'])[0],
                         'pac_corruption runs only on arm64, and --kernel 6.1 is x86_64')
        self.assertEqual(self.points(['--trigger', 'pac_corruption'], 'arm64')[0],
                         (['pac_corruption'], 0))
        self.assertIn("--trigger: no crash type 'x'", self.points(['--trigger', 'x'])[0])


if __name__ == '__main__':
    unittest.main()
