# Tasks that die inside a diverted function (exit_group never returns)
# hold their slot only until they are dead: 150 of them, past twice the
# 64 slots, are each diverted in turn (none missed).  They come in three
# rounds of 50, each round waiting for every slot to come back (each
# holds a module reference: refcnt says when): back to back, the case
# asked the periodic reclaim to keep pace with the exits (under TCG one
# each 12 ms, 64 in 0.8 s), which is timing (on PREEMPT_RT 4 of 100 were
# missed once).  A %return point then still fires as asked, and rmmod
# works.
# expect: provoke_crash: @sys@getppid%return: bugon: 
# expect: kernel BUG at .*bugs\.c
# expect-out: round 1: 50 exits, every slot back
# expect-out: round 2: 50 exits, every slot back
# expect-out: round 3: 50 exits, every slot back
# expect-out: exits: @sys@exit_group%return panic times=-1 comm=pc-exiter hits=[0-9]+ eligible=[0-9]+ filtered=[0-9]+ fired=150 missed=0 context=path
# expect-out: after: @sys@getppid%return bugon hits=1 filtered=0 fired=1 missed=0 context=path
# expect-out: rmmod: ok
# expect-out: PC-GUEST-END
# reject-out: WRONG
# reject: Kernel panic|FAIL:
C=$D/crashpoints
refs=/sys/module/provoke_crash/refcnt
cp /bin/pc-guest /tmp/pc-exiter
pc-guest write $C "@sys@exit_group%return panic comm=pc-exiter times=-1" >/dev/null
base=$(cat $refs)
round=1
while [ $round -le 3 ]; do
	i=0
	while [ $i -lt 50 ]; do
		/tmp/pc-exiter hit getppid 0 >/dev/null
		i=$((i + 1))
	done
	# The reclaim runs every quarter second while a slot is held.
	t=0
	while [ "$(cat $refs)" != "$base" ] && [ $t -lt 100 ]; do
		sleep 0.1
		t=$((t + 1))
	done
	if [ "$(cat $refs)" = "$base" ]; then
		echo "round $round: $i exits, every slot back ($t tenths of a second after)"
	else
		echo "WRONG: round $round: module references $(cat $refs), $base before, 10 s after"
	fi
	round=$((round + 1))
done
echo "exits: $(cat $C)"
pc-guest write $C "\n@sys@getppid%return bugon" >/dev/null
pc-guest hit getppid 1
echo "after: $(cat $C)"
pc-guest write $C "\n" >/dev/null
# The reclaim runs a second after the last exit at most.
sleep 2
rmmod provoke_crash && echo "rmmod: ok"
