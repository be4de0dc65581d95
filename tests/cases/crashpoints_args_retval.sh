# argN and retval conditions, on generic_fadvise(file, offset, len,
# advice), which only pc-guest's posix_fadvise() calls here, so that hits
# are exact.  argN at the entry (the ftrace fast path); retval at %return,
# for report (a kretprobe) and for bugon (a diverted return: when retval
# fails the function returns, its value intact, and the hit is filtered).
# A hit that fails argN is not eligible: after= counts the others.  The
# refusals give EINVAL and say why in the log.  Last, the diversion's
# crash when retval holds, where the function returned: the oops ends
# that pc-guest only.  A fatal type decides after= and the rest there,
# after retval: eligible counts only the calls whose retval matched.
# Conditions without a width take the prototype's from BTF.
# needs: CONFIG_DEBUG_INFO_BTF
# expect-out: gt: generic_fadvise report times=-1 arg3>4096 hits=3 eligible=1 filtered=2 fired=1 missed=0 context=atomic
# expect-out: bits: generic_fadvise report times=-1 arg4&0x2 hits=4 eligible=2 filtered=2 fired=2 missed=0 context=atomic
# expect-out: range: generic_fadvise report times=-1 arg3>=100 arg3<=200 arg1!=0 hits=4 eligible=2 filtered=2 fired=2 missed=0 context=atomic
# expect-out: comm first: generic_fadvise report times=-1 comm=nobody arg3>0 hits=1 eligible=0 filtered=1 fired=0 missed=0 context=atomic
# expect-out: after: generic_fadvise report after=2 times=-1 arg3>4096 hits=5 eligible=3 filtered=3 fired=2 missed=0 context=atomic
# expect-out: errno: generic_fadvise%return report times=-1 retval=-EINVAL hits=3 eligible=2 filtered=1 fired=2 missed=0 context=atomic
# expect-out: failed: generic_fadvise%return report times=-1 retval<0 hits=2 eligible=1 filtered=1 fired=1 missed=0 context=atomic
# expect-out: fatal: fadvise: 0 0 = 0
# expect-out: fatal: fadvise: 0 99 = 22
# expect-out: fatal: generic_fadvise%return bugon retval=-ESPIPE hits=2 eligible=0 filtered=2 fired=0 missed=0
# expect-out: width: generic_fadvise report times=-1 arg4:u8=2 hits=2 eligible=1 filtered=1 fired=1 missed=0 context=atomic
# expect-out: too few: write: error EINVAL
# expect-out: int range: write: error ERANGE
# expect-out: width range: write: error ERANGE
# expect-out: at offset: write: error EINVAL
# expect-out: at return: write: error EINVAL
# expect-out: retval at entry: write: error EINVAL
# expect-out: pid op: write: error EINVAL
# expect-out: left armed: 0
# expect-out: fires: fadvise: 0 0 = 0
# expect-out: fires: fadvise: 0 99 = 22
# expect-out: fires: generic_fadvise%return null_dereference after=2 retval=-EINVAL hits=4 eligible=2 filtered=3 fired=1 missed=0 context=path
# expect: crashpoints: line 1, column 26: argN is known at a function's entry only: not at \+OFFSET or %return
# expect: crashpoints: line 1, column 31: argN is known at a function's entry only: not at \+OFFSET or %return
# expect: crashpoints: line 1, column 24: retval is known at SYMBOL%return only
# expect: crashpoints: line 1, column 24: this key takes only '=' 'pid'
# expect: crashpoints: generic_fadvise: arg5: its width is not known \(BTF gives the function fewer arguments, as it does any assembly function\): give it, as arg5:s32 or arg5:u64
# expect: crashpoints: generic_fadvise: arg4: the value does not fit its type in BTF, s32
# expect: crashpoints: line 1, column 32: value out of range for its width
# expect: generic_fadvise%return: report: 
# expect: provoke_crash: generic_fadvise%return: null_dereference: 
# expect@x86_64: BUG: kernel NULL pointer dereference
# expect@arm64: Unable to handle kernel NULL pointer dereference
# expect:  pc_return_land[a-z_]*\+0x
# reject: WARNING:|FAIL:|Kernel panic|the path goes on|Attempted to kill init
# shellcheck shell=dash
C=$D/crashpoints
F=/init
# try LABEL LINE LEN ADVICE...: arm LINE, make the calls, list, disarm.
try() {
	label=$1 line=$2
	shift 2
	pc-guest write "$C" "$line" >/dev/null
	while [ $# -ge 2 ]; do
		echo "$label: $(pc-guest fadvise $F "$1" "$2")"
		shift 2
	done
	echo "$label: $(cat "$C")"
	pc-guest write "$C" "\n" >/dev/null
}
# POSIX_FADV_NORMAL 0, RANDOM 1, SEQUENTIAL 2, WILLNEED 3, DONTNEED 4.
try gt "generic_fadvise report times=-1 arg3>4096" 100 0 8192 0 -1 0
try bits "generic_fadvise report times=-1 arg4&0x2" 0 1 0 2 0 3 0 4
try range "generic_fadvise report times=-1 arg3>=100 arg3<=200 arg1!=0" \
	99 0 100 0 200 0 201 0
try "comm first" "generic_fadvise report times=-1 comm=nobody arg3>0" 8192 0
try after "generic_fadvise report after=2 times=-1 arg3>4096" \
	8192 0 1 0 8192 0 1 0 8192 0
# An unknown advice, or a negative length, is EINVAL: an int's -22.
try errno "generic_fadvise%return report times=-1 retval=-EINVAL" \
	0 0 0 99 -1 0
try failed "generic_fadvise%return report times=-1 retval<0" 0 0 0 99
try fatal "generic_fadvise%return bugon retval=-ESPIPE" 0 0 0 99
# A width given: only the advice's low byte.  Else BTF's: advice is an
# int, whose range a value must fit; there is no fifth argument.
try width "generic_fadvise report times=-1 arg4:u8=2" 0 2 0 3
echo "too few: $(pc-guest write "$C" "generic_fadvise report arg5=1")"
echo "int range: $(pc-guest write "$C" "generic_fadvise report arg4=4294967295")"
echo "width range: $(pc-guest write "$C" "generic_fadvise report arg4:s8=300")"

echo "at offset: $(pc-guest write "$C" "generic_fadvise+4 report arg3>1")"
echo "at return: $(pc-guest write "$C" "generic_fadvise%return report arg3>1")"
echo "retval at entry: $(pc-guest write "$C" "generic_fadvise report retval=-EIO")"
echo "pid op: $(pc-guest write "$C" "generic_fadvise report pid!=1")"
echo "left armed: $(grep -c . "$C")"

# after= counts only the calls whose retval matched: the second failing
# call fires, not the second call.
pc-guest write "$C" "generic_fadvise%return null_dereference after=2 retval=-EINVAL" >/dev/null
echo "fires: $(pc-guest fadvise $F 0 0)"
echo "fires: $(pc-guest fadvise $F 0 99)"
echo "fires: $(pc-guest fadvise $F 0 0)"
pc-guest fadvise $F 0 99
echo "fires: $(cat "$C")"
pc-guest write "$C" "\n" >/dev/null
