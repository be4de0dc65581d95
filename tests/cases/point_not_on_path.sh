# A point armed on a path the work never takes does not fire.
# expect-out: hit: getppid x5 done
# expect-out: @sys@getpgid null_dereference hits=0 filtered=0 fired=0
# expect-out: @sys@getppid unaligned_load_store times=-1 hits=5 filtered=0 fired=5
# expect-out: PC-GUEST-END
# reject: BUG:|Oops|FAIL:
# shellcheck shell=dash
C=$D/crashpoints
pc-guest write "$C" "@sys@getpgid null_dereference"
pc-guest write "$C" "@sys@getppid unaligned_load_store times=-1"
pc-guest hit getppid 5
cat "$C"
pc-guest write "$C" "\n"
