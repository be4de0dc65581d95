# The delays' refusals: each write fails with its errno and one log line
# saying why, and arms nothing; the tool refuses the same before writing.
# expect-out: ^spin_2000: write: error EINVAL
# expect: provoke_crash: crashpoints: line 1, column [0-9]+: spin is capped at ms=1000, below the soft-lockup detector's shortest window: a longer spin is a lockup \(the lockup types are for that\)
# expect-out: ^ms_zero: write: error ERANGE
# expect: provoke_crash: crashpoints: line 1, column [0-9]+: ms must be 1 to 10000
# expect-out: ^ms_other_type: write: error EINVAL
# expect: provoke_crash: crashpoints: line 1, column [0-9]+: ms= is for delay and spin only
# expect-out: ^delay_offset: write: error EINVAL
# expect: provoke_crash: crashpoints: @sys@getppid\+0x[0-9a-f]+: delay cannot run in this probe's handler: it holds up the path itself and lets it go on, which only a point at a function entry ftrace patches can do
# expect-out: ^spin_return: write: error EINVAL
# expect: provoke_crash: crashpoints: @sys@getppid%return: spin cannot run in this probe's handler
# expect-out: ^tool: provoke-crash: column [0-9]+: spin is capped at ms=1000
# expect-out: ^tool exit: 2$
# expect-out: ^left armed: 0$
# expect-out: PC-GUEST-END
# reject: FAIL:|Oops|BUG:|WARNING:
# shellcheck shell=dash
C=$D/crashpoints
echo "spin_2000: $(pc-guest write "$C" "@sys@getppid spin ms=2000")"
echo "ms_zero: $(pc-guest write "$C" "@sys@getppid delay ms=0")"
echo "ms_other_type: $(pc-guest write "$C" "@sys@getppid report ms=100")"
off=$(echo @sys@getppid >"$D/offsets" && grep -m1 '^0x[0-9a-f]*[1-9a-f]' "$D/offsets")
echo "delay_offset: $(pc-guest write "$C" "@sys@getppid+$off delay")"
echo "spin_return: $(pc-guest write "$C" "@sys@getppid%return spin")"
provoke-crash arm @sys@getppid spin ms=2000 2>&1 | sed 's/^/tool: /'
provoke-crash arm @sys@getppid spin ms=2000 >/dev/null 2>&1
echo "tool exit: $?"
echo "left armed: $(grep -c . "$C")"
