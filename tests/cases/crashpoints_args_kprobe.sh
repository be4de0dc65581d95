# argN at an entry that a kprobe serves, not ftrace: memmove, assembly
# (no ftrace call site, context=nmi), which BTF lists as void f(void) or
# not at all, so the width must be given.  cat of /proc/interrupts pads its columns, which vsnprintf
# does with memmove.  A condition that always holds there fires (times=1);
# one that never does (a NULL source) filters every hit cat makes.  A
# fatal %return point with retval there is refused: where retval fails
# the caller must go on, which needs an ftrace call site.
# expect-out: ^holds: memmove report comm=cat arg1:u64!=0 hits=[1-9][0-9]* eligible=[1-9][0-9]* filtered=[0-9]+ fired=1 missed=[0-9]+ context=nmi$
# expect-out: ^never: memmove report times=-1 comm=cat arg2:u64=0 hits=[1-9][0-9]* eligible=0 filtered=[1-9][0-9]* fired=0 missed=[0-9]+ context=nmi$
# expect-out: ^no width: write: error EINVAL
# expect-out: ^retval there: write: error EINVAL
# expect-out: ^left armed: 0$
# expect: provoke_crash: memmove: report: 
# expect: crashpoints: memmove: arg1: its width is not known \((BTF gives the function fewer arguments, as it does any assembly function|the function is not in BTF|no BTF to read at [^)]*)\): give it, as arg1:s32 or arg1:u64
# expect: crashpoints: memmove%return: bugon with retval: when retval fails the function must return to its caller
# reject: Oops|FAIL:|Kernel panic|BUG:|Unrecoverable kprobe
# shellcheck shell=dash
C=$D/crashpoints
# try LABEL LINE: arm LINE, let cat pad some columns, list, disarm.
try() {
	pc-guest write "$C" "$2" >/dev/null
	cat /proc/interrupts >/dev/null
	echo "$1: $(cat "$C")"
	pc-guest write "$C" "\n" >/dev/null
}
# 6.12 on x86-64 refuses a kprobe at memmove (EINVAL): nothing to see.
if pc-guest write "$C" "memmove report comm=nobody" >/dev/null; then
	pc-guest write "$C" "\n" >/dev/null
	try holds "memmove report comm=cat arg1:u64!=0"
	try never "memmove report times=-1 comm=cat arg2:u64=0"
	echo "no width: $(pc-guest write "$C" "memmove report comm=cat arg1!=0")"
	echo "retval there: $(pc-guest write "$C" "memmove%return bugon retval:u64=0")"
	echo "left armed: $(grep -c . "$C")"
else
	echo "PC-SKIP kprobes refuse memmove here: $(dmesg | grep -m1 'crashpoints: memmove:' | sed 's/^\[[^]]*\] //')"
fi
