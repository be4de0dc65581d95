# Tasks that die inside a diverted function (exit_group never returns)
# hold their slot only until they are dead: 100 of them, past the 64
# slots, are each diverted in turn (none missed).  A %return point then
# still fires as asked, and rmmod works.
# expect: provoke_crash: @sys@getppid%return: bugon: 
# expect: kernel BUG at .*bugs\.c
# expect-out: exits: @sys@exit_group%return panic times=-1 comm=pc-exiter hits=[0-9]+ eligible=[0-9]+ filtered=[0-9]+ fired=100 missed=0 context=path
# expect-out: after: @sys@getppid%return bugon hits=1 filtered=0 fired=1 missed=0 context=path
# expect-out: rmmod: ok
# expect-out: PC-GUEST-END
# reject: Kernel panic|FAIL:
C=$D/crashpoints
cp /bin/pc-guest /tmp/pc-exiter
pc-guest write $C "@sys@exit_group%return panic comm=pc-exiter times=-1" >/dev/null
i=0
while [ $i -lt 100 ]; do
	/tmp/pc-exiter hit getppid 0 >/dev/null
	i=$((i + 1))
done
echo "exits: $(cat $C)"
pc-guest write $C "\n@sys@getppid%return bugon" >/dev/null
pc-guest hit getppid 1
echo "after: $(cat $C)"
pc-guest write $C "\n" >/dev/null
# The reclaim runs a second after the last exit at most.
sleep 2
rmmod provoke_crash && echo "rmmod: ok"
