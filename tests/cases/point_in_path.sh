# A fatal crash at a point runs in the probed path's own context, not in
# the probe handler: at a function entry (an ftrace probe on x86-64) and at
# an offset inside it (an int3 probe, or any arm64 BRK probe, where an oops
# would otherwise always panic with "Fatal exception in interrupt").  The
# task dies; the kernel stays up.
# expect-out: entry: @sys@getppid null_dereference hits=0 filtered=0 fired=0 missed=0 context=path
# expect-out: offset: @sys@getppid\+0x[0-9a-f]+ null_dereference hits=0 filtered=0 fired=0 missed=0 context=path
# expect-out: offset after: @sys@getppid\+0x[0-9a-f]+ null_dereference hits=1 filtered=0 fired=1
# expect-out: PC-GUEST-END
# expect: provoke_crash: @sys@getppid: null_dereference: 
# expect: provoke_crash: @sys@getppid\+0x[0-9a-f]+: null_dereference: 
# expect@x86_64: RIP: 0010:pc_crash_null_dereference
# expect@arm64: pc : pc_crash_null_dereference
# expect: pc_redirected
# expect: (@sys@|__do_sys_)getppid\+0x[0-9a-f]+/
# reject: Kernel panic|Fatal exception|kprobe_ftrace_handler|kprobe_int3_handler|<NMI>|FAIL:
# reject: kprobe_breakpoint_handler|call_break_hook|do_debug_exception
# shellcheck shell=dash
C=$D/crashpoints
pc-guest write "$C" "@sys@getppid null_dereference" >/dev/null
echo "entry: $(cat "$C")"
pc-guest hit getppid 1
pc-guest write "$C" "\n" >/dev/null
# shellcheck disable=SC2043 # @insn_offs@ becomes a list of offsets
for off in @insn_offs@; do
	if pc-guest write "$C" "@sys@getppid+$off null_dereference" >/dev/null; then
		echo "offset: $(cat "$C")"
		pc-guest hit getppid 1
		echo "offset after: $(cat "$C")"
		break
	fi
done
pc-guest write "$C" "\n" >/dev/null
