# A fired %return point whose function has not returned yet keeps the
# module's code: unloading says so and waits until the function returns
# into its crash, then unloads; the kernel stays up and loads it again.
# expect: provoke_crash: crashpoints: unloading waits for 1 function\(s\) with a fired %return point to return
# expect: provoke_crash: @sys@clock_nanosleep%return: bugon: 
# expect: kernel BUG at
# expect:  pc_return_landing\+0x
# expect: provoke_crash: unloaded
# expect-out: fired: @sys@clock_nanosleep%return bugon comm=sleep hits=[0-9]+ fired=1 missed=0 context=path
# expect-out: rmmod: ok
# expect-out: order: oops before unload
# expect-out: reload: ok
# reject: FAIL:|Kernel panic
C=$D/crashpoints
pc-guest write $C "@sys@clock_nanosleep%return bugon comm=sleep" >/dev/null
sleep 3 &
# usleep, not sleep: only the sleeper has comm=sleep.
until grep -q "fired=1" $C; do usleep 100000; done
echo "fired: $(cat $C)"
rmmod provoke_crash && echo "rmmod: ok"
wait
# The crash ran from the module's code: it must come before the unload.
dmesg | grep -E "kernel BUG at|provoke_crash: unloaded" | head -n 1 |
	grep -q "kernel BUG" && echo "order: oops before unload"
insmod /provoke_crash.ko && echo "reload: ok"
