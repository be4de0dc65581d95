# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2154 # $D is /init's
# provoke-crash-vm's guest script: /init sources it as PID 1, as
# /cases/vm.sh.  Nothing is armed before the start marker.  The user's
# command runs in a child of PID 1, which arms the points itself once
# PID 1 sleeps in wait(): no step of PID 1's can use up a point's
# times=, after= or every= before the command runs.  The child's only
# steps between arming and the command are the end of its write and the
# shell's restoring of its standard output.  A hit in PID 1 (after the
# command, before the end marker) is the runner's own and is never
# credited to the command; the end marker follows, and only then are
# the counters read (a hit there is PID 1's and after the end marker:
# the runner's too).  With --shell, PID 1 arms and the shell is the
# command: its own start (busybox sh calls getppid) counts.  The
# runner's files are under /pc: arm (the points), trigger, run.sh (the
# command), shell (present for --shell).
C=$D/crashpoints
pc_arm=$(cat /pc/arm)
pc_run=$(cat /pc/run.sh 2>/dev/null)
echo "PC-RUN-BEGIN" >/dev/kmsg
echo "PC-RUN-BEGIN"
{
pc_refused=""
# --module: the user's modules, in order, before anything is armed.
for pc_m in /pc/modules/*.ko; do
	[ -e "$pc_m" ] || break
	if ! pc_err=$(insmod "$pc_m" 2>&1); then
		echo "PC-MODULE-FAILED ${pc_m#/pc/modules/??-} $pc_err"
		dmesg | sed -n '/PC-RUN-BEGIN/,$p' | grep -v 'PC-RUN-BEGIN' | tail -n 5 | sed 's/^/PC-WHY /'
		echo "PC-RUN-END" >/dev/kmsg
		poweroff -f -n
	fi
	echo "module: ${pc_m#/pc/modules/??-} loaded"
done
if [ -n "$pc_arm" ] && [ -z "$pc_run" ] && ! printf '%s\n' "$pc_arm" >"$C"; then
	pc_refused="PC-ARM-REFUSED"
elif [ -s /pc/trigger ]; then
	pc_out=$(pc-guest write "$D/$(cat /pc/trigger)" 1)
	echo "$pc_out"
	case $pc_out in *error*) pc_refused="PC-TRIGGER-REFUSED" ;; esac
elif [ -e /pc/shell ]; then
	PS1='pc-vm# ' setsid cttyhack sh -i
elif [ -n "$pc_run" ]; then
	# A subshell, not "sh FILE": a new sh would make its own system
	# calls (getppid at start) before the command's.  It waits for
	# PID 1 to sleep in wait() (state S in /proc/1/stat, read by a
	# builtin), then arms.
	(
		until read -r _ _ pc_s _ </proc/1/stat && [ "$pc_s" = S ]; do :; done
		if [ -n "$pc_arm" ] && ! printf '%s\n' "$pc_arm" >"$C"; then
			: >/pc/refused
			exit 1
		fi
		eval "$pc_run"
	) </dev/null
fi
pc_rc=$?
[ -e /pc/refused ] && pc_refused="PC-ARM-REFUSED"
if [ -n "$pc_refused" ]; then
	# Nothing was armed: the module's own lines say why.
	echo "$pc_refused"
	dmesg | sed -n '/PC-RUN-BEGIN/,$p' | grep 'provoke_crash: ' | sed 's/^/PC-WHY /'
	# A name kallsyms lacks: what it may have meant, from this kernel's
	# own kallsyms (Debian's System.map, which the host reads, is a stub).
	# The point's place (SYMBOL, +OFFSET or %return) or its caller=NAME.
	for pc_s in $(dmesg | sed -n '/PC-RUN-BEGIN/,$s/.*provoke_crash: crashpoints: \([^ :]*\)\( caller!*=\([^ :]*\)\)*: no such symbol.*/\1 \3/p' |
		sed 's/^\([^ +%]*\)[^ ]* \(.*\)/\2 \1/; s/^ //' | cut -d' ' -f1); do
		provoke-crash near "$pc_s" | sed "s/^ */PC-WHY $pc_s: /"
	done
	echo "PC-RUN-END" >/dev/kmsg
	poweroff -f -n
fi
echo "PC-RUN-END $pc_rc" >/dev/kmsg
echo "PC-RUN-END $pc_rc"
while IFS= read -r pc_l; do
	echo "PC-POINT $pc_l"
done <"$C"
# No oops, no panic: ramoops kept nothing, and a reboot would only show
# that; disarm first, so that dmesg cannot hit a point.
printf '\n' >"$C"
# --gdb: the guest stays up for the debugger until the run is ended.
if [ -e /pc/gdb ]; then
	echo "PC-GDB-WAIT" >/dev/kmsg
	echo "PC-GDB-WAIT"
	while :; do sleep 3600; done
fi
if ! dmesg | grep -Eq 'Oops|Kernel panic|BUG'; then
	echo "PC-NO-OOPS"
	poweroff -f -n
fi
}
