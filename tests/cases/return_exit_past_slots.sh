# Tasks that die inside a diverted function (exit_group never returns)
# give their slot back as they exit, before their parent can reap them:
# 150 of them back to back, past twice the 64 slots, are each diverted
# in turn (no slot lacking), and after each one the module holds no
# reference for it (each slot holds one).  Left to the periodic reclaim,
# a slot came back a quarter second or more after its task died, and
# back-to-back exits raced it (on PREEMPT_RT 4 of 100 were missed once).
# None of their crashes came (exit_group never returns to the landing):
# each hit moves from fired to missed as its task exits, with a line.
# A %return point then still fires as asked, and rmmod works.
# expect: crashpoints: @sys@exit_group%return: panic missed: its task ended before the function returned through its landing
# expect: provoke_crash: @sys@getppid%return: bugon: 
# expect: kernel BUG at .*bugs\.c
# expect-out: exits: 150, a slot still held after 0 of them
# expect-out: exits: @sys@exit_group%return panic times=-1 comm=pc-exiter hits=[0-9]+ eligible=[0-9]+ filtered=[0-9]+ fired=0 missed=150 context=path
# expect-out: after: @sys@getppid%return bugon hits=1 filtered=0 fired=1 missed=0 context=path
# expect-out: rmmod: ok
# expect-out: PC-GUEST-END
# reject: Kernel panic|FAIL:|slots are taken
# shellcheck shell=dash
C=$D/crashpoints
refs=/sys/module/provoke_crash/refcnt
cp /bin/pc-guest /tmp/pc-exiter
pc-guest write "$C" "@sys@exit_group%return panic comm=pc-exiter times=-1" >/dev/null
read -r base <$refs
i=0
held=0
while [ $i -lt 150 ]; do
	/tmp/pc-exiter hit getppid 0 >/dev/null
	read -r now <$refs
	[ "$now" = "$base" ] || held=$((held + 1))
	i=$((i + 1))
done
echo "exits: $i, a slot still held after $held of them"
echo "exits: $(cat "$C")"
pc-guest write "$C" "\n@sys@getppid%return bugon" >/dev/null
pc-guest hit getppid 1
echo "after: $(cat "$C")"
pc-guest write "$C" "\n" >/dev/null
rmmod provoke_crash && echo "rmmod: ok"
