# SPDX-License-Identifier: GPL-2.0
"""The VM runner's command line (tools/provoke-crash-vm): its usage
text, the options, and every check that needs no kernel, made before
anything is built or booted.  A mistake is a UsageError: one line, and
exit status 2 (runner_verdict.USAGE).

The checks of a crash point's line follow the control file's grammar
(Documentation/provoke-crash/usage.rst); the types come from the
crash-type table, as ``provoke-crash types --table`` prints it for the
guest's architecture.
"""

import os
import re

from . import snapshot, suites
from .runner_verdict import USAGE

SERIES = ('6.1', '6.12', '6.1-rt', '6.12-rt', 'arm64-6.1', 'arm64-6.12') + tuple(suites.SERIES) + (
    'debug', 'clang')
DEFAULT_ARM = '@sys@getppid null_dereference'
DEFAULT_RUN = 'pc-guest hit getppid 1'
# Options that take a value, and the flags.
VALUED = ('--kernel', '--kdir', '--arm', '--trigger', '--run', '--file', '--module', '--smp',
          '--boot', '--timeout', '--keep')
FLAGS = ('--shell', '--timing', '--pstore-boot', '--kdump', '--bt', '--list-types', '--json',
         '--gdb')

USAGE_TEXT = '''\
usage: provoke-crash-vm [--kernel SERIES | --kernel IMAGE --kdir DIR]
                        [--arm 'POINT'...  | --trigger TYPE]
                        [--run 'COMMAND' | --shell] [--file HOST[:GUEST]...]
                        [--module FILE.ko...]
                        [--smp N] [--boot ARGS] [--timeout SECONDS]
                        [--keep DIR] [--timing] [--pstore-boot | --kdump [--bt]]
                        [--json] [--gdb]
       provoke-crash-vm --list-types

  --kernel   Debian kernel series: 6.1 (default), 6.12 (x86-64 cloud
             kernels), 6.1-rt, 6.12-rt (x86-64 PREEMPT_RT kernels),
             arm64-6.1, arm64-6.12 (emulated); sid's 7.2, 7.2-rt and
             arm64-7.2, their modules built with sid's gcc-16 in a
             chroot (made once, cached); bullseye's 5.10 and
             arm64-5.10, built with its gcc-10 the same way; debug (6.12 with
             KASAN and lockdep, built once into ~/.cache/provoke-crash),
             clang (6.12 built with clang 19: kCFI, counted_by; cached);
             or IMAGE, a bzImage or vmlinuz you built, with --kdir
  --kdir     IMAGE's build tree (an O= tree works): the module is built
             against it, its ramoops.ko is used if it has one (else
             the system's, from /lib/modules/RELEASE)
  --arm      a crash point, repeatable (all are armed in one write):
               [MODULE:]SYMBOL[+OFFSET|%return] TYPE [KEY=VALUE]...
             +OFFSET (decimal or 0x hex) arms a kprobe inside the function,
             %return fires when it returns; conditions: after=N every=N
             times=N (-1: no limit) probability=P pid=N comm=NAME cpu=N
             (NAME: at most 15 characters, the kernel's task name);
             delay and spin take ms=N (1 to 10000, spin at most 1000);
             caller=SYMBOL or caller!=SYMBOL (on the hit's stack or
             not, at most 4; names checked in System.map, or in the guest);
             '@sys@NAME' is the system call's entry on the guest's
             architecture.  Default, when neither --trigger nor
             --run is given: '@sys@getppid null_dereference'; --run
             alone arms nothing
  --trigger  fire this crash type directly instead of arming a point
  --list-types  the crash types, a line each: name, deepest context,
             description; nothing is built for a guest or booted
  --run      the command that hits the path, run once, as given, by sh
             in the guest (default 'pc-guest hit getppid 1': one getppid())
  --shell    an interactive shell on the guest's console instead, with
             the module loaded and the --arm points armed (none by
             default; provoke-crash is there to arm more); the shell is
             the command, its own start included (busybox sh calls
             getppid); 'exit' ends it, Ctrl-A x kills the guest
  --file     copy HOST into the guest at GUEST (default /root/NAME), mode
             kept: a reproducer, e.g. --file ./repro --run /root/repro
  --module   load FILE.ko, a module you built for the guest's kernel, in
             the guest before arming, so that its functions can be
             pointed at (MODULE:SYMBOL); repeatable, loaded in order;
             its vermagic must name the guest's release
  --smp      virtual CPUs (default 1; 2 when a type needs smp, or cpu=N+1)
  --boot     extra kernel command line; the types' needs (slub_debug=...)
             are added on their own
  --timeout  seconds before the guest is killed (default 120; 240 for
             --kdump on arm64; none for --shell)
  --keep     copy the console and output logs into DIR
  --timing   print the build, boot (or restore), crash and pstore times
  --gdb      QEMU's gdb stub on 127.0.0.1:1234 (PC_GDB_PORT): the guest
             stays up after your command or its crash (panic=0, no
             timeout) for gdb's 'target remote'; Ctrl-C ends the run,
             and the report follows
  --json     print the verdict as one JSON object instead of the report
             (what was asked, status and verdict, the points' counters,
             the hit credited, the crash's lines, call trace, pstore's
             records, kdump's files; schema in pcengine/runner_json.py)
  --pstore-boot  read the pstore record as a machine would: the guest
             reboots and its next boot's pstore prints it (by default
             QEMU stops at the crash's reset and the host reads the
             record from ramoops' memory, without a second boot)
  --kdump    prove kdump instead of pstore: the guest loads its
             own kernel as capture kernel (crashkernel=128M, 192M on
             arm64 6.12; oops=panic); after the crash the capture kernel reads the dump, and
             --keep DIR (default build/vm/kdump-DATE) gets vmcore
             (kdump-compressed), vmcore-dmesg.txt and capture.txt (the
             capture's timing); exit 0 only if the log read from the dump
             shows the crash's expected text
  --bt       with --kdump (x86-64): open the dump with crash 8.0.6 (built
             once into ~/.cache/provoke-crash) and the kernel's vmlinux
             with DWARF (Debian's -dbg package, fetched once; a kernel
             you built: vmlinux in --kdir), and print bt of the task
             that crashed; both are fetched before the guest starts

A crash counts only when your command (or the trigger) hit the point:
after the runner's start marker, in a task other than the runner's own
shell (PID 1), before the end marker.  A repeat run with the same kernel
and sources reuses the module build and restores the guest saved after
the module's load (the 8 used last are cached in
~/.cache/provoke-crash/vm-snapshots, or PC_SNAPSHOT_CACHE; not for
--shell or --kdump; PC_SNAPSHOT=0 boots every time).

exit status: 0 crashed as asked; 1 survived (no crash from your command);
  2 bad command line (checked before booting); 3 timed out; 4 the module
  refused to arm the points or fire the trigger (its log line says why);
  5 a point of a report or silent type was hit, the kernel went on;
  6 setup failed (packages, build, the guest could not load the module);
  7 (--kdump) the kernel crashed as asked, but no capture showed it
'''


class UsageError(Exception):
    """A mistake on the command line: its one line, without the
    program's name."""

    status = USAGE


class Options:
    """The command line as given; defaults are filled in later, where
    they depend on what else was given (run, timeout, smp)."""

    def __init__(self):
        self.series = self.kdir = self.trigger = self.run = ''
        self.smp = self.boot = self.timeout = self.keep = ''
        self.arms, self.files, self.modules = [], [], []
        self.run_set = self.shell = self.timing = self.kdump = False
        self.list_types = self.bt = self.pstore_boot = self.help = self.json = False
        self.gdb = False


def parse(argv):
    """ARGV (no program name) into Options; --help stops the parse."""
    o = Options()
    i = 0
    while i < len(argv):
        opt = argv[i]
        if opt in ('-h', '--help'):
            o.help = True
            return o
        if opt in VALUED:
            if i + 1 >= len(argv):
                raise UsageError('%s needs a value (see --help)' % opt)
            value = argv[i + 1]
            i += 2
            if opt == '--arm':
                o.arms.append(value)
            elif opt == '--file':
                o.files.append(value)
            elif opt == '--module':
                o.modules.append(value)
            elif opt == '--run':
                o.run, o.run_set = value, True
            else:
                setattr(o, 'series' if opt == '--kernel' else opt[2:], value)
            continue
        if opt not in FLAGS:
            raise UsageError("unknown option '%s' (see --help)" % opt)
        setattr(o, opt[2:].replace('-', '_'), True)
        i += 1
    return o


def wants_json(argv):
    """Whether ARGV asks for --json (as an option, not a value), and not
    for --help, which prints its text."""
    try:
        o = parse(argv)
        return o.json and not o.help
    except UsageError:
        return '--json' in argv


def whole(name, value, low, high):
    if not (re.fullmatch(r'[0-9]+', value) and low <= int(value) <= high):
        raise UsageError("%s '%s': give a whole number from %d to %d" % (name, value, low, high))


def check_conflicts(o, stdin_is_tty):
    """The options' conflicts and numbers: nothing here needs a kernel."""
    pairs = (
        (o.trigger and o.arms, '--arm and --trigger do not go together (a trigger fires at '
         'once, a point waits for its path)'),
        (o.trigger and o.run_set, '--run and --trigger do not go together (the trigger is '
         'the crash)'),
        (o.trigger and o.shell, '--shell and --trigger do not go together (arm a point '
         'instead)'),
        (o.shell and o.run_set, '--run and --shell do not go together (type the command in '
         'the shell)'),
        (o.run_set and not o.run, "--run '': give a command"),
    )
    for bad, why in pairs:
        if bad:
            raise UsageError(why)
    if o.timeout:
        whole('--timeout', o.timeout, 1, 86400)
    if o.smp:
        whole('--smp', o.smp, 1, 8)
    if o.kdir and not o.series:
        raise UsageError('--kdir needs --kernel IMAGE (the kernel built in that tree)')
    for f in o.files:
        host, sep, guest = f.partition(':')
        if not os.path.isfile(host):
            raise UsageError("--file '%s': no file '%s' on this machine" % (f, host))
        if sep and not re.match(r'/.', guest):
            raise UsageError("--file '%s': GUEST must be an absolute path" % f)
    for m in o.modules:
        if not os.path.isfile(m):
            raise UsageError("--module '%s': no such file on this machine" % m)
        if not m.endswith('.ko'):
            raise UsageError("--module '%s': give a FILE.ko (an uncompressed module)" % m)
    if len({os.path.basename(m) for m in o.modules}) != len(o.modules):
        raise UsageError('--module: two modules of one name')
    # What a run carries: the payload disk of a restored guest.
    too_big = snapshot.files_too_big([f.partition(':')[0] for f in o.files] + o.modules)
    if too_big:
        raise UsageError('--file: ' + too_big)
    later = (
        (o.bt and not o.kdump, '--bt needs --kdump (it reads the dump)'),
        (o.kdump and o.shell, '--kdump and --shell do not go together (the capture needs the '
         'run to end in a crash)'),
        (o.kdump and o.pstore_boot, '--pstore-boot and --kdump do not go together (kdump '
         'proves the crash instead of pstore)'),
        (o.shell and not stdin_is_tty, '--shell needs a terminal on stdin'),
        (o.gdb and (o.kdump or o.shell or o.pstore_boot), '--gdb goes with a run, not '
         '--kdump (the capture kernel would replace the one you debug), --pstore-boot or '
         '--shell'),
        (o.json and (o.shell or o.list_types), '--json goes with a run, not --shell or '
         '--list-types'),
    )
    for bad, why in later:
        if bad:
            raise UsageError(why)


def _bzimage(path):
    """An x86 boot image has "HdrS" at byte 514."""
    try:
        with open(path, 'rb') as f:
            f.seek(514)
            return f.read(4) == b'HdrS'
    except OSError:
        return False


def check_kernel(o):
    """o.series: a series name, IMAGE:TREE, or (with --kdir) an image
    file, which becomes IMAGE:TREE here."""
    o.series = o.series or '6.1'
    if o.series in SERIES:
        if o.kdir:
            raise UsageError("--kdir goes with --kernel IMAGE, not the series '%s'" % o.series)
        return
    if ':' in o.series:
        if o.kdir:
            raise UsageError('--kernel IMAGE:TREE and --kdir: give one')
        return
    if not os.path.isfile(o.series):
        raise UsageError("--kernel '%s': not a series (%s) nor a kernel image file"
                         % (o.series, ', '.join(SERIES)))
    if not o.kdir:
        raise UsageError('--kernel %s: give its build tree with --kdir DIR' % o.series)
    if not _bzimage(o.series):
        raise UsageError('--kernel %s: not an x86-64 bzImage/vmlinuz (no boot header)'
                         % o.series)
    for f in ('.config', 'include/config/kernel.release', 'Module.symvers'):
        if not os.path.isfile(os.path.join(o.kdir, f)):
            raise UsageError('--kdir %s: not a built kernel tree (no %s)' % (o.kdir, f))
    o.series = '%s:%s' % (o.series, o.kdir)


def series_arch(series):
    """The guest's architecture, as uname and the table name it."""
    return 'arm64' if series.startswith('arm64-') else 'x86_64'


def check_type(name, table, what, program):
    """NAME is a type of TABLE ({name: fields}, the eighth LKDTM's names
    of the type)."""
    if name in table:
        return
    lkdtm = [t for t, f in table.items() if len(f) > 7 and name.upper() in f[7].split()]
    if lkdtm:
        raise UsageError("%s: '%s' is LKDTM's name for the crash type %s; give %s"
                         % (what, name, lkdtm[0], lkdtm[0]))
    near = [t for t in table if name[:4] in t][:4]
    raise UsageError("%s: no crash type '%s'%s; '%s --list-types' lists them"
                     % (what, name, ' (did you mean: %s?)' % ' '.join(near) if near else '',
                        program))


# argN at an entry, retval at %return: KEY OP VALUE.
COMPARE_RE = re.compile(r'(arg[1-6]|retval)(!=|<=|>=|=|<|>|&)(.*)')
NUMBER_RE = re.compile(r'-?[0-9]+|0[xX][0-9a-fA-F]+')
CALLER_RE = re.compile(r'caller(!=|=)(.*)')
UNKNOWN_CONDITION = ("unknown condition '%s' (after= every= times= probability= pid= comm= "
                     "cpu= ms=, argN or retval OP VALUE, caller= or caller!=)")


def _plain_value(key, value, kind, err):
    """A KEY=VALUE condition's value; False when it is bad."""
    if key == 'every':
        # The module's words, here before a guest starts.
        if re.fullmatch(r'0+', value):
            raise err('every must be at least 1')
        return bool(re.fullmatch(r'[0-9]+', value))
    if key in ('after', 'pid', 'cpu'):
        return bool(re.fullmatch(r'[0-9]+', value))
    if key == 'times':
        return bool(re.fullmatch(r'-1|[0-9]+', value))
    if key == 'probability':
        return bool(re.fullmatch(r'[0-9]+', value)) and int(value) <= 100
    if key == 'comm':
        return len(value) <= 15
    if key == 'ms':
        # delay's and spin's only; a longer spin is a lockup.
        if kind not in ('delay', 'spin'):
            raise err('ms= is for delay and spin only')
        if not (re.fullmatch(r'[0-9]{1,5}', value) and 1 <= int(value) <= 10000):
            raise err('ms must be 1 to 10000')
        if kind == 'spin' and int(value) > 1000:
            raise err('spin is capped at ms=1000: a longer spin is a lockup (the lockup '
                      'types are for that)')
        return True
    raise err(UNKNOWN_CONDITION % key)


def check_arm(spec, table, program):
    """A crash point's line, checked against TABLE and the control
    file's grammar; returns its type's name."""
    def err(why):
        return UsageError("--arm '%s': %s" % (spec, why))
    words = spec.split()
    if len(words) < 2:
        raise err("give 'SYMBOL[+OFFSET|%return] TYPE [KEY=VALUE]...'")
    where, kind, conditions = words[0], words[1], words[2:]
    if where.startswith('!'):
        raise err('disarming has no place here (every point is new in the guest)')
    if not re.fullmatch(r'[^+%]+(\+(0x[0-9a-fA-F]+|[0-9]+)|%return)?', where):
        raise err("'%s' is not SYMBOL, SYMBOL+OFFSET (decimal or 0x hex) or SYMBOL%%return"
                  % where)
    check_type(kind, table, "--arm '%s'" % spec, program)
    seen, callers = set(), 0
    # KEY OP VALUE is one word: the control file splits a line at spaces.
    for kv in conditions:
        if re.fullmatch(r'(!=|<=|>=|=|<|>|&).*|arg[0-9]+|retval|caller!?', kv):
            raise err("'%s': write each condition as one word, without spaces "
                      "(arg3>100, retval=-5, every=2)" % kv)
    for kv in conditions:
        m = re.fullmatch(r'arg([0-9]+)(!=|<=|>=|=|<|>|&).*', kv)
        if m and not 1 <= int(m.group(1)) <= 6:
            raise err("'%s': the arguments are arg1 to arg6" % kv)
        m = COMPARE_RE.fullmatch(kv)
        if m:
            key, value = m.group(1), m.group(3)
            if not (NUMBER_RE.fullmatch(value)
                    or (key == 'retval' and re.fullmatch(r'-E[A-Z0-9]+', value))):
                raise err("bad value in '%s' (a number, 0x hex, or for retval -ENAME)" % kv)
            if key == 'retval':
                if not where.endswith('%return'):
                    raise err('retval is known at SYMBOL%return only')
            elif where.endswith('%return') or re.search(r'\+(0[xX])?0*[1-9a-fA-F]', where):
                raise err("argN is known at a function's entry only")
            continue
        # caller=SYMBOL or caller!=SYMBOL, at most 4: the guest's module
        # looks the name up.
        m = CALLER_RE.fullmatch(kv)
        if m:
            if not re.fullmatch(r'([A-Za-z0-9_]+:)?[A-Za-z0-9_.]+', m.group(2)):
                raise err("bad name in '%s' (caller=SYMBOL or caller!=SYMBOL, MODULE:SYMBOL "
                          "too)" % kv)
            callers += 1
            if callers > 4:
                raise err('at most 4 caller conditions')
            continue
        if re.match(r'caller[<>&!]', kv):
            raise err("caller takes only = or != in '%s'" % kv)
        key, sep, value = kv.partition('=')
        if not sep or not value:
            raise err("'%s' is not KEY=VALUE" % kv)
        if not _plain_value(key, value, kind, err):
            raise err("bad value in '%s' (see --help)" % kv)
        if key in seen:
            raise err("'%s' given twice" % key)
        seen.add(key)
    return kind


def cpus_asked(spec):
    """The vCPUs a point's cpu=N asks for (N + 1), or 0."""
    m = re.search(r' cpu=([0-9]+) ', ' %s ' % spec)
    return int(m.group(1)) + 1 if m else 0


def check_points(o, table, arch, program):
    """The points and the trigger against TABLE for ARCH (its defaults
    filled in); returns (types, vCPUs the cpu= conditions ask for)."""
    # The default point only when nothing at all was asked: a command
    # given alone runs with nothing armed (issue 42: busybox sh calls
    # getppid, and a point nobody asked for crashed it).
    if not o.trigger and not o.arms and not o.shell and not o.run_set:
        o.arms = [DEFAULT_ARM]
    if not o.run_set and not o.trigger and not o.shell:
        o.run = DEFAULT_RUN
    types, cpus = [], 0
    for spec in o.arms:
        types.append(check_arm(spec, table, program))
        cpus = max(cpus, cpus_asked(spec))
    if o.smp and cpus > int(o.smp):
        raise UsageError('a point asks for cpu=%d, and --smp %s gives CPUs 0 to %d'
                         % (cpus - 1, o.smp, int(o.smp) - 1))
    if o.trigger:
        check_type(o.trigger, table, '--trigger', program)
        types = [o.trigger]
    for name in types:
        needs = table[name][4].split() if len(table[name]) > 4 else []
        for word in needs:
            if word in ('x86_64', 'arm64') and word != arch:
                raise UsageError('%s runs only on %s, and --kernel %s is %s'
                                 % (name, word, o.series, arch))
    return types, cpus
