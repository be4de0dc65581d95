# SPDX-License-Identifier: GPL-2.0
"""The crash-point matrix's 2-CPU cells: "on 2 vCPUs, with another CPU
in the same path".

One guest of 2 vCPUs per kind of point (matrix_smp_entry, _offset,
_return), each with every type that does not take the guest down, on
three paths: task (a kernel thread per CPU), softirq and hardirq
(interrupts off).  pc_paths.ko's "KIND M all" makes M calls on both CPUs
at once, so that the two are in the path together, and hit the one point
together.  Each cell:

refused
    the write fails with EINVAL and its one log line, as on one CPU;
missed
    armed with times=T, every hit of both CPUs counts as missed (hits =
    missed = the calls pc_paths made, filtered 0, fired 0: a claim given
    back is never lost), the reason logged;
fired
    armed with times=T, T < the calls: exactly T fire, the rest are
    filtered, none missed, and the type's routine ran T times (its log
    line) with its kernel text; or, where this kernel cannot catch the
    type, every hit missed with its XFAIL line.

Counters are held to what pc_paths counts, not to each other: the
listing's filtered is hits - fired - missed by construction.  Not in
these cells, where they would fire: the types that take the guest down
(the fatal cells), a type that needs a boot line of its own (slub_debug's,
init_on_free's), and one that reports each place once a boot (fortify,
bounds, overflow): the one-CPU matrix has them.  pcengine.matrix writes
them with every scope but sample: three guests of 24 to 36 s each (6.1,
restored), which CI runs on its first kernel (scope first).
"""

from . import matrix
from .cases import FATAL, patterns

# The paths of the 2-CPU cells, the calls each CPU makes per cell, and
# the times= each cell arms with (more than one CPU's calls, fewer than
# both CPUs': both CPUs must fire for it, and some hits are left over).
SMP_PATHS = ('task', 'softirq', 'hardirq')
CPUS = 2
CALLS = 3
TIMES = 4
HITS = CPUS * CALLS
# The categories whose types report each place once a boot.
ONCE_A_BOOT = ('fortify', 'bounds', 'overflow')

REJECT = ('Kernel panic|Oops|kernel BUG|provoke_crash: FAIL:|soft lockup|sleeping function|'
          'scheduling while atomic|pc_paths: .*error')
# A WARNING in the kernel's probe code or in the module's own.
REJECT_WARN = (r'WARNING: .* at [^ ]*(kernel/kprobes|kernel/trace/[a-z_]+|/(run_in_path|'
               r'probe_return|return_landing|return_landing_x86|probe_ftrace|probe_kprobe|'
               r'control|points|offsets|parse|core|crashtypes))\.c')

OFFSET_SEARCH = r'''t=pc_paths:pc_target_@P@ place_@P@=
echo $t >$D/offsets
for o in $(grep '^0x' $D/offsets); do
	pc-guest write $C "$t+$o unaligned_load_store" >/dev/null || continue
	n=$(grep -c 'context=nmi' $C)
	pc-guest write $C "\n" >/dev/null
	[ "$n" = 1 ] && place_@P@=$t+$o && break
done
echo "offset @P@: ${place_@P@:-none}"'''

CELL = r'''cell() {
	dmesg -c >/dev/null
	echo 1 >/sys/kernel/debug/clear_warn_once
	eval "place=\$place_$1"
	r=$(pc-guest write $C "$place $2 times=$T")
	case $r in
	*error*) echo "T $1 $2 refused: $r" ;;
	*)
		c=$(cat $P)
		d=$(pc-guest write $P "$1 $M all")
		c=$(($(cat $P) - c))
		l=$(cat $C)
		pc-guest write $C "\n" >/dev/null
		n=$(dmesg | grep -cF "provoke_crash: $place: $2: ")
		echo "T $1 $2 listing: $l calls=$c runs=$n"
		case $d in *error*) echo "T $1 $2 drive: $d" ;; esac
		x=text
		dmesg | grep -q "XFAIL: $2: " && x=xfail
		case $l in
		*" fired=$T missed=0 "*) echo "T $1 $2 verdict: fired/$x" ;;
		*" fired=0 missed=$H "*) echo "T $1 $2 verdict: missed/$x" ;;
		esac
		;;
	esac
	dmesg | sed "s/^/T $1 $2 log: /"
}'''


def place(path, kind):
    """The ERE of the place a cell's point is at."""
    return {'entry': 'pc_paths:pc_target_' + path,
            'offset': r'pc_paths:pc_target_%s\+0x[0-9a-f]+' % path,
            'return': 'pc_paths:pc_target_%s%%return' % path}[kind]


def checks(path, kind, name, outcome, pats):
    """A cell's header lines."""
    where, t = place(path, kind), '^T %s %s' % (path, name)
    if outcome.what == 'refused':
        return ['# expect-out: %s refused: write: error EINVAL' % t,
                '# expect-out: %s log: .*crashpoints: %s: %s (cannot run in|needs a path in)'
                % (t, where, name)]
    if outcome.what == 'missed':
        return ['# expect-out: %s listing: %s %s times=%d hits=%d filtered=0 fired=0 missed=%d'
                ' context=[^ ]+ calls=%d runs=0$' % (t, where, name, TIMES, HITS, HITS, HITS),
                '# expect-out: %s log: .*crashpoints: %s: %s missed: it needs %s context at'
                ' most, and the path is in %s context here'
                % (t, where, name, outcome.need, outcome.here)]
    lines = ['# expect-out: %s listing: %s %s times=%d hits=%d (filtered=%d fired=%d missed=0'
             ' context=[^ ]+ calls=%d runs=%d|filtered=0 fired=0 missed=%d context=[^ ]+'
             ' calls=%d runs=%d)$'
             % (t, where, name, TIMES, HITS, HITS - TIMES, TIMES, HITS, TIMES, HITS, HITS, HITS),
             '# expect-out: %s verdict: (fired/text|missed/xfail)$' % t]
    for pat in filter(None, pats):
        lines += ['# expect-out: %s log: .*(%s|XFAIL: %s: )' % (t, pat, name),
                  '# expect: (%s|XFAIL: %s: )' % (pat, name)]
    return lines


def prologue(kind):
    """The guest's shell: the place of each path's point, then cell PATH
    TYPE."""
    lines = ['C=$D/crashpoints', 'P=/sys/kernel/debug/pc-paths/run',
             'insmod /pc_paths.ko 2>/dev/null',
             """echo "cpus: $(grep -c '^processor' /proc/cpuinfo)\"""",
             'T=%d M=%d H=%d' % (TIMES, CALLS, HITS)]
    for path in SMP_PATHS:
        if kind == 'entry':
            lines.append('place_%s=pc_paths:pc_target_%s' % (path, path))
        elif kind == 'return':
            lines.append('place_%s=pc_paths:pc_target_%s%%return' % (path, path))
        else:
            # The first offset past the entry that takes a breakpoint.
            lines += OFFSET_SEARCH.replace('@P@', path).split('\n')
    return lines + CELL.split('\n')


def smp_cases(kernel, rows, paths):
    """{file name: lines} of the 2-CPU cells; paths: matrix.paths_of."""
    found = {}
    for kind in ('entry', 'offset', 'return'):
        cells = []
        pats = {}
        for row in rows:
            needs = matrix.taken(kernel, row)
            if needs is None:
                continue
            pats[row.name] = patterns(kernel, row.expect)
            for path in SMP_PATHS:
                outcome = matrix.predict(paths, path, kind, row.context, row.fate)
                if outcome.what == 'fired' and (row.fate in FATAL or needs.boot
                                                or row.category in ONCE_A_BOOT):
                    continue
                cells.append((path, row.name, outcome))
        lines = ['# generated crash-point matrix, 2 CPUs in one path at once: %s points' % kind,
                 '# smp: %d' % CPUS,
                 '# boot: log_buf_len=4M',
                 '# reject: ' + REJECT,
                 '# reject: ' + REJECT_WARN,
                 '# reject-out: T [a-z]+ [a-z0-9_]+ drive: ',
                 '# expect-out: ^cpus: %d$' % CPUS]
        if kind == 'offset':
            lines += [r'# expect-out: ^offset %s: pc_paths:pc_target_%s\+0x' % (p, p)
                      for p in SMP_PATHS]
        for path, name, outcome in cells:
            lines += checks(path, kind, name, outcome, pats[name])
        lines += prologue(kind)
        lines += ['cell %s %s' % (path, name) for path, name, _ in cells]
        found['matrix_smp_%s.sh' % kind] = lines
    return found
