# A second module that wants the same debugfs directory (LKDTM uses it too)
# fails to load and says why.
# expect: provoke_crash_twin: debugfs directory provoke-crash already exists \(is lkdtm or another provoke_crash loaded\?\)
# expect-out: twin: refused
# expect-out: PC-GUEST-END
# reject: BUG:|Oops|WARNING:
# shellcheck shell=dash
insmod /provoke_crash_twin.ko && echo "twin: loaded" || echo "twin: refused"
