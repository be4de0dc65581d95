# caller= and caller!= on generic_fadvise, which only pc-guest reaches
# here, by two callers: posix_fadvise() through the fadvise system
# call's entry ($fad: ksys_fadvise64_64 is inlined into it on the debug
# kernel) and readahead() through ksys_readahead.  caller= lets the one through and
# filters the other, caller!= the reverse, and two conditions must both
# hold; a hit they turn away is filtered (hits = filtered + fired +
# missed), before after= counts it.  At %return (a kretprobe) the
# callers are still on the stack; a fatal type with retval checks them
# at the entry, and a call they turn away is not diverted.  Last, a
# fatal type: the fadvise is filtered, the readahead crashes,
# ksys_readahead in its trace.
# expect-out: ^eq: fadvise: 0 0 = 0$
# expect-out: ^eq: readahead: 4096 = 0$
# expect-out: ^eq: generic_fadvise report times=-1 caller=(__x64_sys_fadvise64|__arm64_sys_fadvise64_64) hits=2 eligible=1 filtered=1 fired=1 missed=0 context=atomic$
# expect-out: ^ne: generic_fadvise report times=-1 caller!=(__x64_sys_fadvise64|__arm64_sys_fadvise64_64) hits=2 eligible=1 filtered=1 fired=1 missed=0 context=atomic$
# expect-out: ^both: generic_fadvise report times=-1 caller=ksys_readahead caller!=(__x64_sys_fadvise64|__arm64_sys_fadvise64_64) hits=3 eligible=1 filtered=2 fired=1 missed=0 context=atomic$
# expect-out: ^neither: generic_fadvise report times=-1 caller=ksys_readahead caller=(__x64_sys_fadvise64|__arm64_sys_fadvise64_64) hits=2 eligible=0 filtered=2 fired=0 missed=0 context=atomic$
# expect-out: ^after: generic_fadvise report after=2 times=-1 caller=(__x64_sys_fadvise64|__arm64_sys_fadvise64_64) hits=4 eligible=3 filtered=2 fired=2 missed=0 context=atomic$
# expect-out: ^return: generic_fadvise%return report times=-1 caller=ksys_readahead hits=2 eligible=1 filtered=1 fired=1 missed=0 context=atomic$
# expect-out: ^fatal_return: fadvise: 0 99 = 22$
# expect-out: ^fatal_return: generic_fadvise%return bugon retval:s32=-EINVAL caller=ksys_readahead hits=2 eligible=0 filtered=2 fired=0 missed=0 context=
# expect-out: ^offset: generic_fadvise\+0x[0-9a-f]+ report times=-1 caller!=ksys_readahead hits=2 eligible=1 filtered=1 fired=1 missed=0 context=[a-z]+$
# expect-out: ^fatal: generic_fadvise null_dereference caller=ksys_readahead hits=1 eligible=0 filtered=1 fired=0 missed=0 context=path$
# expect: provoke_crash: generic_fadvise: report: 
# expect: provoke_crash: generic_fadvise: null_dereference: 
# expect@x86_64: BUG: kernel NULL pointer dereference
# expect@arm64: Unable to handle kernel NULL pointer dereference
# expect:  ksys_readahead\+0x
# reject: WARNING:|FAIL:|Kernel panic|the path goes on|Attempted to kill init
# reject-out: WRONG
# shellcheck shell=dash
C=$D/crashpoints
F=/init
fad=$(grep -E ' [Tt] (__x64_sys_fadvise64|__arm64_sys_fadvise64_64)$' /proc/kallsyms |
	head -n 1 | cut -d' ' -f3)
# try LABEL LINE CALL...: arm LINE, make the calls (f: an fadvise, e: one
# that fails with EINVAL, r: a readahead), list, disarm.
try() {
	label=$1 line=$2
	shift 2
	pc-guest write "$C" "$line" | grep -v '^write: ok' | sed 's/^/WRONG: /'
	for call in "$@"; do
		case $call in
		f) echo "$label: $(pc-guest fadvise $F 0 0)" ;;
		r) echo "$label: $(pc-guest readahead $F 4096)" ;;
		e) echo "$label: $(pc-guest fadvise $F 0 99)" ;;
		esac
	done
	echo "$label: $(cat "$C")"
	pc-guest write "$C" "\n" >/dev/null
}
try eq "generic_fadvise report times=-1 caller=$fad" f r
try ne "generic_fadvise report times=-1 caller!=$fad" f r
try both "generic_fadvise report times=-1 caller=ksys_readahead caller!=$fad" \
	f r f
try neither "generic_fadvise report times=-1 caller=ksys_readahead caller=$fad" \
	f r
try after "generic_fadvise report after=2 times=-1 caller=$fad" \
	f r f f
try return "generic_fadvise%return report times=-1 caller=ksys_readahead" f r
# A fatal type with retval: the callers are checked at the entry, and a
# call they turn away is never diverted; retval turns the other away.
try fatal_return "generic_fadvise%return bugon retval:s32=-EINVAL caller=ksys_readahead" \
	e r
# An offset kprobes takes, past the entry: the first of the offsets file.
echo generic_fadvise >"$D/offsets"
off=$(grep -v '^#' "$D/offsets" | grep -v '^0x0$' | head -n 1)
try offset "generic_fadvise+$off report times=-1 caller!=ksys_readahead" f r
pc-guest write "$C" "generic_fadvise null_dereference caller=ksys_readahead" >/dev/null
pc-guest fadvise $F 0 0 >/dev/null
echo "fatal: $(cat "$C")"
pc-guest readahead $F 4096
pc-guest write "$C" "\n" >/dev/null
