# A fired %return point whose function has not returned yet is a task on
# its way into the module's code: it holds a module reference, so rmmod
# is refused (not left to free code under it).  The function returns into
# its crash; the oops ends the task, which gives the reference back, and
# then rmmod works and the module loads again.
# expect: provoke_crash: @sys@clock_nanosleep%return: bugon: 
# expect: kernel BUG at .*bugs\.c
# expect:  pc_return_land[a-z_]*\+0x
# expect: provoke_crash: unloaded
# expect-out: fired: @sys@clock_nanosleep%return bugon comm=sleep hits=[0-9]+ eligible=[0-9]+ filtered=[0-9]+ fired=1 missed=0 context=path
# expect-out: rmmod while diverted: refused
# expect-out: rmmod after the oops: ok
# expect-out: reload: ok
# reject: FAIL:|Kernel panic
# reject-out: rmmod while diverted: done
# shellcheck shell=dash
C=$D/crashpoints
pc-guest write "$C" "@sys@clock_nanosleep%return bugon comm=sleep" >/dev/null
sleep 3 &
# usleep, not sleep: only the sleeper has comm=sleep.
until grep -q "fired=1" "$C"; do usleep 100000; done
echo "fired: $(cat "$C")"
if rmmod provoke_crash 2>/dev/null; then
	echo "rmmod while diverted: done"
else
	echo "rmmod while diverted: refused"
fi
wait
rmmod provoke_crash && echo "rmmod after the oops: ok"
insmod /provoke_crash.ko && echo "reload: ok"
