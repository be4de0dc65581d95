# pid= is a thread id as the writer's pid namespace numbers it.  A shell
# in a new pid namespace is pid 1 there: it arms pid=1, which is the
# shell itself, not init, then execs the hitter (the same task), so
# exactly its 3 calls are eligible.  A pid no task has in that namespace
# is refused with ESRCH and one log line.
# expect-out: ^ns: @sys@getppid report times=-1 pid=1 hits=[0-9]+ eligible=3 filtered=[0-9]+ fired=3 missed=0 context=atomic$
# expect-out: ^ns missing: write: error ESRCH
# expect: provoke_crash: crashpoints: @sys@getppid: pid=99: no such task in the writer's pid namespace
# expect-out: PC-GUEST-END
# reject: BUG:|Oops|provoke_crash: FAIL:|Kernel panic
# shellcheck shell=dash
C=$D/crashpoints
unshare -p -f sh -c "pc-guest write $C '@sys@getppid report times=-1 pid=1' >/dev/null &&
	exec pc-guest hit getppid 3" >/dev/null
echo "ns: $(cat "$C")"
pc-guest write "$C" "\n" >/dev/null
echo "ns missing: $(unshare -p -f pc-guest write "$C" '@sys@getppid report pid=99')"
