# Hints where users get stuck: a refused line names what was wrong and
# what would do; MODULE:SYMBOL arms, lists and disarms by its own text; the
# offsets file lists exactly the offsets kprobes takes (each listed one
# arms, each other one is refused), and says when it stopped short;
# eligible= shows the hits pid=, comm= and cpu= let through.
# MODULE:SYMBOL needs a module to arm in: reed_solomon's, as a file.
# debug-slice: no: kallsyms walks under KASAN take 90 s; no memory or
# concurrency path of its own (check-long runs it there)
# needs: lib/reed_solomon/reed_solomon.ko
# expect-out: unknown_key: write: error EINVAL
# expect: provoke_crash: crashpoints: line 1, column [0-9]+: unknown option 'foo' \(valid keys: after, every, times, probability, pid, comm, cpu, arg1 to arg6, retval, caller, ms\)
# expect-out: odd_key: write: error EINVAL
# expect: provoke_crash: crashpoints: line 1, column [0-9]+: unknown option 'w\\001e' \(valid keys: 
# expect-out: no_symbol: write: error ENOENT
# expect: provoke_crash: crashpoints: pc_inlined_nowhere: no such symbol in kallsyms: inlined, or a static function the compiler renamed \(.isra, .constprop, .part\)\? try a caller
# expect-out: mid_instruction: write: error @misaligned@
# expect@x86_64: provoke_crash: crashpoints: @sys@getppid\+0x1: the offset falls inside an instruction \(EILSEQ\): error -84; nearest offsets kprobes takes: \+0x0 below, \+0x[0-9a-f]+ above \(the offsets file lists them all\)
# expect@arm64: provoke_crash: crashpoints: @sys@getppid\+0x1: the offset falls inside an instruction \(arm64.s are 4 bytes; EINVAL\): error -22; nearest offsets kprobes takes: \+0x0 below, \+0x[0-9a-f]+ above \(the offsets file lists them all\)
# expect-out: nearest_above: write: ok
# expect-out: offsets_head: # @sys@getppid: [0-9]+ bytes, [1-9][0-9]* offsets kprobes takes
# expect-out: offsets_exact: [1-9][0-9]* listed, all armed; [0-9]+ not listed, all refused; 0 wrong
# expect-out: offsets_after: 0 points
# expect-out: trailing_empty: write: ok
# expect-out: trailing_empty_after: 0 points
# expect-out: offsets_missing: write: error ENOENT
# expect: provoke_crash: offsets: pc_inlined_nowhere: no such symbol in kallsyms
# expect-out: offsets_offset: write: error EINVAL
# expect: provoke_crash: offsets: column [0-9]+: only a function's name: no offset, no %return
# expect-out: truncated: # truncated: only the first 4096 of [0-9]+ bytes were tried
# expect-out: mod_arm: write: ok
# expect: provoke_crash: crashpoints: reed_solomon:free_rs: the plain name free_rs finds this same function: it would do too
# expect-out: mod_listed: reed_solomon:free_rs report times=-1 hits=0 filtered=0 fired=0 missed=0 context=[a-z]+$
# expect-out: mod_plain_busy: write: error EBUSY
# expect: provoke_crash: crashpoints: free_rs: already armed as reed_solomon:free_rs report
# expect-out: mod_disarm: write: ok
# expect-out: mod_after: 0 points
# expect-out: mod_missing: write: error ENOENT
# expect: provoke_crash: crashpoints: nosuchmod:free_rs: no such symbol in kallsyms: is module nosuchmod loaded, and free_rs in it
# expect-out: mod_offsets: # reed_solomon:free_rs: [0-9]+ bytes, [1-9][0-9]* offsets kprobes takes
# expect-out: eligible: @sys@getppid report times=-1 comm=nobody hits=3 eligible=0 filtered=3 fired=0 missed=0 context=atomic
# expect-out: no_filter: @sys@getppid report after=2 times=-1 hits=3 filtered=1 fired=2 missed=0 context=atomic
# expect-out: tool_offsets: @sys@getppid\+0x0$
# expect-out: tool_reason: provoke-crash: column [0-9]+: unknown option 'foo' \(valid keys: after, every, times, probability, pid, comm, cpu, arg1 to arg6, retval, caller, ms\)
# expect-out: tool_reason_module:   the module says: crashpoints: @sys@getppid: cpu=4000: no such CPU
# expect-out: tool_mod: provoke-crash: note: free_rs is unique in /proc/kallsyms: the plain name works too
# expect-out: tool_mod: armed: reed_solomon:free_rs report
# expect-out: tool_status: reed_solomon:free_rs report hits=0 filtered=0 fired=0
# expect-out: tool_mod_after: 0 points
# expect-out: tool_mod_missing: provoke-crash: no function free_rs in module nosuchmod
# expect-out: PC-GUEST-END
# reject: BUG:|Oops|WARNING:|FAIL:|Kernel panic
# reject-out: WRONG
# shellcheck shell=dash
C=$D/crashpoints
O=$D/offsets
try() {
	name=$1
	shift
	echo "$name: $(pc-guest write "$C" "$@")"
}
try unknown_key "@sys@getppid bugon foo=1"
try odd_key "@sys@getppid bugon w\x01e=1"
try no_symbol "pc_inlined_nowhere bugon"
try mid_instruction "@sys@getppid+1 bugon"

# The offset the hint names above: it arms.
above=$(dmesg | sed -n 's/.*@sys@getppid+0x1: .*below, +\(0x[0-9a-f]*\) above.*/\1/p' | tail -n 1)
try nearest_above "@sys@getppid+$above report"
pc-guest write "$C" "\n" >/dev/null

# The offsets file's list is exact: every offset of the function is
# tried through the control file (one process: the debug kernel's
# getppid has 447 bytes), and arms exactly when it is listed.
echo @sys@getppid >"$O"
echo "offsets_head: $(head -n 1 "$O")"
size=$(head -n 1 "$O" | sed 's/^# [^:]*: \([0-9]*\) bytes.*/\1/')
echo 1 >/proc/sys/kernel/printk
pc-guest tryoffsets "$C" @sys@getppid "$size" report >/tmp/armed
echo 8 >/proc/sys/kernel/printk
grep '^0x' "$O" >/tmp/listed
diff /tmp/listed /tmp/armed | sed -n 's/^</WRONG: listed, refused:/p; s/^>/WRONG: not listed, armed:/p'
listed=$(grep -c . /tmp/listed)
wrong=$(diff /tmp/listed /tmp/armed | grep -c '^[<>]')
echo "offsets_exact: $listed listed, all armed; $((size - listed)) not listed, all refused; $wrong wrong"
echo "offsets_after: $(grep -c . "$C") points"
# Each newline ends a line: an empty last line disarms all, the point
# armed on the line before it too.
try trailing_empty "@sys@getppid report\n\n"
echo "trailing_empty_after: $(grep -c . "$C") points"
echo "offsets_missing: $(pc-guest write "$O" pc_inlined_nowhere)"
echo "offsets_offset: $(pc-guest write "$O" "@sys@getppid+4")"

# A function longer than the cap: the answer says it stopped short.
for f in copy_process load_elf_binary __do_sys_perf_event_open __schedule; do
	start=$(date +%s)
	echo $f >"$O" 2>/dev/null || continue
	if grep -q '^# truncated' "$O"; then
		echo "truncated: $(grep '^# truncated' "$O") ($f, $(($(date +%s) - start)) s)"
		break
	fi
done

# MODULE:SYMBOL, as kprobe_events takes it.
[ -d /sys/module/reed_solomon ] || insmod /reed_solomon.ko
try mod_arm "reed_solomon:free_rs report times=-1"
echo "mod_listed: $(cat "$C")"
try mod_plain_busy "free_rs report"
try mod_disarm "!reed_solomon:free_rs"
echo "mod_after: $(grep -c . "$C") points"
try mod_missing "nosuchmod:free_rs report"
echo reed_solomon:free_rs >"$O"
echo "mod_offsets: $(head -n 1 "$O")"

# eligible= appears where pid=, comm= or cpu= may make a hit not count.
pc-guest write "$C" "@sys@getppid report times=-1 comm=nobody" >/dev/null
pc-guest hit getppid 3 >/dev/null
echo "eligible: $(cat "$C")"
pc-guest write "$C" "\n" >/dev/null
pc-guest write "$C" "@sys@getppid report after=2 times=-1" >/dev/null
pc-guest hit getppid 3 >/dev/null
echo "no_filter: $(cat "$C")"
pc-guest write "$C" "\n" >/dev/null

# The tool: the offsets subcommand; a line its own parser refuses, and
# the module's reason on one only the module can refuse.
provoke-crash offsets @sys@getppid | sed 's/^/tool_offsets: /'
provoke-crash arm @sys@getppid report foo=1 2>&1 | sed 's/^/tool_reason: /'
provoke-crash arm @sys@getppid report cpu=4000 2>&1 |
	sed 's/^/tool_reason_module: /'
provoke-crash arm reed_solomon:free_rs report 2>&1 | sed 's/^/tool_mod: /'
provoke-crash status | sed 's/^/tool_status: /'
provoke-crash disarm reed_solomon:free_rs
echo "tool_mod_after: $(grep -c . "$C") points"
provoke-crash arm nosuchmod:free_rs report 2>&1 | sed 's/^/tool_mod_missing: /'
