# The two-vCPU variant, on plain TCG (icount guests boot with one vCPU
# only): both CPUs call getppid at once, without a hook and with a
# provoke-crash point that never fires.  Wall-clock figures: only the
# ratio between the two runs in the same guest means something.
# smp: 2
# shellcheck shell=dash
C=$D/crashpoints
N=${pc_calls:-200000}
both() {
	pc-guest time getppid "$N" >/tmp/a &
	pc-guest time getppid "$N" >/tmp/b &
	wait
	echo "RESULT $1: $(cat /tmp/a /tmp/b | sed 's/.*: \([0-9.]*\) ns per call/\1/' | tr '\n' ' ')"
}
both smp-none
pc-guest write "$C" "__x64_sys_getppid bugon pid=1" >/dev/null
both smp-point-pid-mismatch
pc-guest write "$C" "\n" >/dev/null
both smp-none-again
