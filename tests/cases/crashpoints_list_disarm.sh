# Listing, counting, disarming one point, the empty line that clears all,
# and a zero-length write, which says nothing and so disarms nothing.
# A point fires once by default (times=1), then stays armed and counts.
# expect-out: three: write: ok
# expect-out: points: 3
# expect-out: after-disarm: 2
# expect-out: @sys@getsid panic hits=0 filtered=0 fired=0 missed=0 context=path
# expect-out: @sys@getppid unaligned_load_store hits=3 filtered=2 fired=1 missed=0 context=atomic
# expect-out: points after clear: 0
# expect-out: rearm: write: ok
# expect-out: points after empty write: 1
# expect-out: PC-GUEST-END
# expect: provoke_crash: @sys@getppid: unaligned_load_store: 
# reject: BUG:|Oops|FAIL:|WARNING:
# reject-out: getpgid still listed
# shellcheck shell=dash
C=$D/crashpoints
echo "three: $(pc-guest write "$C" "@sys@getpgid bugon\n@sys@getsid panic\n@sys@getppid unaligned_load_store\n")"
cat "$C"
echo "points: $(grep -c . "$C")"
pc-guest write "$C" "!@sys@getpgid"
echo "after-disarm: $(grep -c . "$C")"
grep -q @sys@getpgid "$C" && echo "getpgid still listed"
pc-guest hit getppid 3
cat "$C"
pc-guest write "$C" "\n"
echo "points after clear: $(grep -c . "$C")"
echo "rearm: $(pc-guest write "$C" "@sys@getpgid bugon")"
pc-guest write "$C" ""
echo "points after empty write: $(grep -c . "$C")"
