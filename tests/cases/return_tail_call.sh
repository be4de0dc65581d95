# Two diversions on one frame: read(2)'s entry tail-calls ksys_read (a
# jmp on Debian's x86-64 kernels), so both return with the same stack
# pointer.  read's %return (panic) and ksys_read's (bugon), both for one
# reader: the newest diversion of the frame, ksys_read's, runs its crash;
# the caller it shows is the syscall's (do_syscall_64), never the landing
# (ksys_read's return address was the landing read's diversion put there).
# x86-64 only: arm64's read(2) calls ksys_read, it does not jump to it.
# needs: CONFIG_X86_64
# expect: provoke_crash: ksys_read%return: bugon: 
# expect: kernel BUG at .*bugs\.c
# expect: \]  do_syscall_64\+
# expect-out: ksys_read%return bugon comm=pc-reader hits=[0-9]+ eligible=[0-9]+ filtered=[0-9]+ fired=1 missed=0 context=path
# expect-out: rmmod: ok
# expect-out: PC-GUEST-END
# reject: Kernel panic|provoke_crash: @sys@read%return: panic|\]  pc_return_landing
# shellcheck shell=dash
C=$D/crashpoints
cp /bin/pc-guest /tmp/pc-reader
pc-guest write "$C" "@sys@read%return panic comm=pc-reader\nksys_read%return bugon comm=pc-reader"
/tmp/pc-reader read /proc/version
cat "$C"
pc-guest write "$C" "\n" >/dev/null
rmmod provoke_crash && echo "rmmod: ok"
