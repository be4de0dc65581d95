# Every refused write: its own errno, one log line saying why, nothing armed.
# boot: slub_debug=FZPU
# expect-out: unknown_type: write: error EINVAL
# expect: provoke_crash: crashpoints: line 1, column [0-9]+: unknown crash type 'frobnicate' \(the types file lists them\)
# expect-out: missing_type: write: error EINVAL
# expect: provoke_crash: crashpoints: line 1, column [0-9]+: missing crash type
# expect-out: bad_offset: write: error EINVAL
# expect: provoke_crash: crashpoints: line 1, column [0-9]+: bad digit in offset
# expect-out: offset_range: write: error ERANGE
# expect: provoke_crash: crashpoints: line 1, column [0-9]+: offset too large
# expect-out: trailing: write: error EINVAL
# expect: provoke_crash: crashpoints: line 1, column [0-9]+: expected KEY=VALUE
# expect-out: no_symbol: write: error ENOENT
# expect: provoke_crash: crashpoints: pc_no_such_symbol: no such symbol in kallsyms: inlined, or a static function the compiler renamed \(.isra, .constprop, .part\)\? try a caller
# expect-out: blacklisted: write: error EINVAL
# expect: provoke_crash: crashpoints: notify_die: the kernel refused to probe it: error -22
# expect-out: mid_instruction: write: error @misaligned@
# expect@x86_64: provoke_crash: crashpoints: @sys@getppid\+0x1: the offset falls inside an instruction \(EILSEQ\): error -84; nearest offsets kprobes takes: \+0x0 below, \+0x[0-9a-f]+ above \(the offsets file lists them all\)
# expect@arm64: provoke_crash: crashpoints: @sys@getppid\+0x1: the offset falls inside an instruction \(arm64.s are 4 bytes; EINVAL\): error -22; nearest offsets kprobes takes: \+0x0 below, \+0x[0-9a-f]+ above
# expect-out: own_module: write: error EINVAL
# expect: provoke_crash: crashpoints: pc_crash_bugon: is inside provoke_crash itself
# expect-out: busy_first: write: ok
# expect-out: busy: write: error EBUSY
# expect: provoke_crash: crashpoints: @sys@getpgid: already armed as @sys@getpgid bugon
# expect-out: busy_alias: write: error EBUSY
# expect-out: disarm_unknown: write: error ENOENT
# expect: provoke_crash: crashpoints: !@sys@getsid: no crash point there
# expect-out: nmi_offset: @sys@getppid\+[0-9]+ context=nmi
# expect-out: nmi_context: write: error EINVAL
# expect: provoke_crash: crashpoints: @sys@getppid\+0x[0-9a-f]+: write_after_free cannot run in nmi context
# expect-out: deferred_offset: write: ok
# expect-out: deferred_offset_list: @sys@getppid\+0x[0-9a-f]+ oops_interrupt_context hits=0 filtered=0 fired=0 missed=0 context=path:irqs
# expect-out: deferred_return: write: error EINVAL
# expect: provoke_crash: crashpoints: @sys@getppid%return: oops_softirq_context needs a path in preempt context to complete, and a %return point cannot see the context the function returns in: arm it at the function entry
# expect-out: empty_trigger: write: ok \(0 of 0 bytes\)
# expect-out: too_big: write: error E2BIG
# expect: provoke_crash: crashpoints: a write may hold at most 4096 bytes, not 5000
# expect-out: all_or_none: write: error ENOENT
# expect-out: all_or_none_list: 1 @sys@getpgid bugon
# expect-out: bad_second_line: write: error EINVAL
# expect: provoke_crash: crashpoints: line 2, column 1: expected a symbol name
# expect-out: rearm_disarm_fail: write: error ENOENT
# expect-out: rearm_disarm_fail_list: 1 @sys@getpgid bugon
# expect-out: final: 1 @sys@getpgid bugon
# expect-out: PC-GUEST-END
# reject: BUG:|Oops|FAIL:|WARNING:
# reject-out: getsid armed
# shellcheck shell=dash
C=$D/crashpoints
try() {
	name=$1
	shift
	echo "$name: $(pc-guest write "$C" "$@")"
}
try unknown_type "@sys@getppid frobnicate"
try missing_type "@sys@getppid"
try bad_offset "@sys@getppid+0xzz bugon"
try offset_range "@sys@getppid+0x10000000000000000 bugon"
try trailing "@sys@getppid bugon now"
try no_symbol "pc_no_such_symbol bugon"
try blacklisted "notify_die bugon"
try mid_instruction "@sys@getppid+1 bugon"
try own_module "pc_crash_bugon bugon"
try busy_first "@sys@getpgid bugon"
try busy "@sys@getpgid bugon"
try busy_alias "@sys@getpgid+0 panic"
try disarm_unknown "!@sys@getsid"

# The first instruction after the ftrace call site takes a breakpoint probe.
# shellcheck disable=SC2043 # @insn_offs@ becomes a list of offsets
for off in @insn_offs@; do
	if pc-guest write "$C" "@sys@getppid+$off unaligned_load_store" >/dev/null; then
		grep -q "+$(printf '%#x' $off) unaligned_load_store.*context=nmi" "$C" &&
			echo "nmi_offset: @sys@getppid+$off context=nmi"
		pc-guest write "$C" "!@sys@getppid+$off" >/dev/null
		try nmi_context "@sys@getppid+$off write_after_free"
		# A type that completes later needs a path that can wait for
		# it: a breakpoint's handler sees the path's state at each hit.
		try deferred_offset "@sys@getppid+$off oops_interrupt_context"
		echo "deferred_offset_list: $(grep oops_interrupt_context "$C")"
		pc-guest write "$C" "!@sys@getppid+$off" >/dev/null
		break
	fi
done

# A diverted return crashes where the function returns, in a context
# its entry probe cannot see.
try deferred_return "@sys@getppid%return oops_softirq_context"
# An empty write to a trigger file fires nothing.
echo "empty_trigger: $(pc-guest write "$D/panic" '')"
try too_big "$(head -c 5000 /dev/zero | tr '\0' x)"
try all_or_none "@sys@getsid bugon\npc_no_such_symbol bugon"
echo "all_or_none_list: $(grep -c . "$C") $(cut -d' ' -f1,2 "$C")"
grep -q getsid "$C" && echo "getsid armed"
try bad_second_line "@sys@getsid bugon\n+4 bugon"
# A point armed and disarmed by the same failing write is freed once.
try rearm_disarm_fail "@sys@getsid report\n!@sys@getsid\npc_no_such_symbol bugon"
echo "rearm_disarm_fail_list: $(grep -c . "$C") $(cut -d' ' -f1,2 "$C")"
echo "final: $(grep -c . "$C") $(cut -d' ' -f1,2 "$C")"
pc-guest write "$C" "\n"
