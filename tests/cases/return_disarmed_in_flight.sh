# A fatal %return point disarmed while a diverted call is in flight: the
# landing finds the point gone, and the function returns to its caller
# with its value, no crash.  The call counted once, at its entry: as
# fired without retval (decided there), as filtered with retval (still
# undecided).  Both kinds, on pipe_read, in which cat waits on an empty
# FIFO until it is written to, after the disarm (7.2 splits it: the wait
# is in anon_pipe_read).  Other tasks' pipe reads are hits too, filtered
# by comm.
# expect-out: plain in flight: (anon_)?pipe_read%return null_dereference comm=cat hits=[1-9][0-9]* eligible=1 filtered=[0-9]+ fired=1 missed=0 context=path
# expect-out: plain: cat exit 0, read x, 0 left armed
# expect-out: retval in flight: (anon_)?pipe_read%return null_dereference comm=cat retval:s64>0 hits=[1-9][0-9]* eligible=0 filtered=[1-9][0-9]* fired=0 missed=0 context=path
# expect-out: retval: cat exit 0, read x, 0 left armed
# reject: NULL pointer|Oops|FAIL:|Kernel panic|the path goes on
# shellcheck shell=dash
C=$D/crashpoints
F=/tmp/pc-inflight
R=pipe_read
if grep -q ' anon_pipe_read$' /proc/kallsyms; then
	R=anon_pipe_read
fi
# inflight LABEL LINE: arm LINE, let cat wait in pipe_read, disarm, write.
inflight() {
	rm -f $F $F.out
	mkfifo $F
	pc-guest write "$C" "$2" >/dev/null
	cat $F >$F.out &
	pid=$!
	# The writer's open lets cat's open return; its read then waits.
	exec 3>$F
	until grep -q pipe_read /proc/$pid/wchan; do usleep 100000; done
	echo "$1 in flight: $(cat "$C")"
	pc-guest write "$C" "!$R%return" >/dev/null
	echo x >&3
	exec 3>&-
	wait $pid
	echo "$1: cat exit $?, read $(cat $F.out), $(grep -c . "$C") left armed"
}
inflight plain "$R%return null_dereference comm=cat"
inflight retval "$R%return null_dereference comm=cat retval:s64>0"
