# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2154 # $D is /init's
# provoke-crash-vm's guest script: /init sources it as PID 1, as
# /cases/vm.sh.  Nothing is armed before the start marker.  After arming,
# PID 1 runs shell builtins only, so that a hit in PID 1 is the runner's
# own and is never credited to the user's command, which runs in a
# child; the end marker follows it, and only then are the counters read
# (a hit there is PID 1's and after the end marker: the runner's too).
# With --shell the shell is the command: its own start (busybox sh calls
# getppid) counts.  The runner's files are under /pc: arm (the points),
# trigger, run.sh (the command), shell (present for --shell).
C=$D/crashpoints
pc_arm=$(cat /pc/arm)
pc_run=$(cat /pc/run.sh 2>/dev/null)
echo "PC-RUN-BEGIN" >/dev/kmsg
echo "PC-RUN-BEGIN"
{
pc_refused=""
if [ -n "$pc_arm" ] && ! printf '%s\n' "$pc_arm" >"$C"; then
	pc_refused="PC-ARM-REFUSED"
elif [ -s /pc/trigger ]; then
	pc_out=$(pc-guest write "$D/$(cat /pc/trigger)" 1)
	echo "$pc_out"
	case $pc_out in *error*) pc_refused="PC-TRIGGER-REFUSED" ;; esac
elif [ -e /pc/shell ]; then
	PS1='pc-vm# ' setsid cttyhack sh -i
elif [ -n "$pc_run" ]; then
	# A subshell, not "sh FILE": a new sh would make its own system
	# calls (getppid at start) before the command's.
	(eval "$pc_run") </dev/null
fi
pc_rc=$?
if [ -n "$pc_refused" ]; then
	# Nothing was armed: the module's own lines say why.
	echo "$pc_refused"
	dmesg | sed -n '/PC-RUN-BEGIN/,$p' | grep 'provoke_crash: ' | sed 's/^/PC-WHY /'
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
if ! dmesg | grep -Eq 'Oops|Kernel panic|BUG'; then
	echo "PC-NO-OOPS"
	poweroff -f -n
fi
}
