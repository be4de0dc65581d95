# A fatal type at a %return point runs when the function returns, where it
# returns to: the entry probe diverts the return into the crash, so the
# oops happens in the probed task, out of any probe handler, with the
# caller's return site in the trace (context=path).  The shell that ran the
# task goes on: no kprobe state is left behind (an oops inside a kretprobe
# handler used to leave it, and on arm64 6.1 init then died of SIGSEGV).
# sid's gcc-16 makes invoke_syscall a clone, invoke_syscall.constprop.0;
# arm64 5.10 calls the system call from el0_svc_common.
# pstore: 1
# expect-out: armed: @sys@getppid%return null_dereference hits=0 filtered=0 fired=0 missed=0 context=path
# expect: provoke_crash: @sys@getppid%return: null_dereference: 
# expect@x86_64: BUG: kernel NULL pointer dereference
# expect@x86_64: RIP: 0010:pc_crash_null_dereference
# expect@x86_64:  (do_syscall_64|x64_sys_call)\+0x
# expect@arm64: Unable to handle kernel NULL pointer dereference
# expect@arm64: pc : pc_crash_null_dereference
# expect@arm64:  (invoke_syscall|el0_svc_common)(\.constprop\.[0-9]+)?\+0x
# expect:  pc_return_land[a-z_]*\+0x
# On x86 the landing is entered by the function's ret, and hands over to
# C as if the caller had called it: the unwinder's reliable frames above
# it (the lines without "?", a stale word it merely saw on the stack) are
# the caller's own, in order.
# expect-out@x86_64: above 1: (do_syscall_64|x64_sys_call)\+0x
# expect-out@x86_64: above 2: (entry_SYSCALL_64_after_hwframe|do_syscall_64)\+0x
# expect-out: after: @sys@getppid%return null_dereference hits=1 filtered=0 fired=1 missed=0 context=path
# expect-out: PC-PSTORE-BEGIN dmesg-ramoops-[0-9]+
# expect-out: provoke_crash: @sys@getppid%return: null_dereference: 
# reject: FAIL:
# reject: Fatal exception
# reject: Attempted to kill init
# shellcheck shell=dash
pc-guest write "$D/crashpoints" "@sys@getppid%return null_dereference" >/dev/null
echo "armed: $(cat "$D/crashpoints")"
pc-guest hit getppid 1
echo "after: $(cat "$D/crashpoints")"
dmesg | awk '/ pc_return_land[a-z_]*\+/ { f = 1; next }
	f && n < 2 && !/\] +\? / { sub(/^.*\] +/, ""); print "above " ++n ": " $0 }'
