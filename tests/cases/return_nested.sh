# Two diversions on one task, one inside the other: read(2)'s entry
# %return (panic) and vfs_read%return (bugon), both for one reader only.
# vfs_read returns first, into its own crash at its own frame; the
# syscall's never comes, as the task dies: that hit counts as missed.
# The oops gives both slots, and their module references, back: rmmod
# then works.
# expect: provoke_crash: vfs_read%return: bugon: 
# expect: kernel BUG at .*bugs\.c
# expect-out: vfs_read%return bugon comm=pc-reader hits=[0-9]+ eligible=[0-9]+ filtered=[0-9]+ fired=1 missed=0 context=path
# expect-out: @sys@read%return panic comm=pc-reader hits=[0-9]+ eligible=[0-9]+ filtered=[0-9]+ fired=0 missed=1 context=path
# expect: crashpoints: @sys@read%return: panic missed: its task ended before the function returned through its landing
# expect-out: rmmod: ok
# expect-out: PC-GUEST-END
# reject: Kernel panic|provoke_crash: @sys@read%return: panic
# shellcheck shell=dash
C=$D/crashpoints
cp /bin/pc-guest /tmp/pc-reader
pc-guest write "$C" "@sys@read%return panic comm=pc-reader\nvfs_read%return bugon comm=pc-reader"
/tmp/pc-reader read /proc/version
cat "$C"
pc-guest write "$C" "\n" >/dev/null
rmmod provoke_crash && echo "rmmod: ok"
