# A write that fails arms nothing, not even for a moment.  Two processes
# call getppid() and getpgrp() for ever on two vCPUs while a write is made
# 300 times whose last line names no symbol: its earlier lines (a fatal
# %return point, a fast entry point and an offset point, all on the paths
# being hit) must never fire, and every write fails with ENOENT.
# smp: 2
# expect-out: refuse: 300 writes, 300 refused with ENOENT, 0 accepted
# expect-out: logged: 300
# expect-out: listing after: $
# expect-out: PC-GUEST-END
# reject-out: fired lines: [1-9]
# reject: Kernel panic|Oops|BUG:|FAIL:
# shellcheck shell=dash
C=$D/crashpoints
# An offset that takes a probe on this kernel (a whole instruction).
# shellcheck disable=SC2043 # @insn_offs@ becomes a list of offsets
for off in @insn_offs@; do
	pc-guest write "$C" "@sys@getppid+$off report" >/dev/null && break
done
pc-guest write "$C" "\n" >/dev/null
echo 1 >/proc/sys/kernel/printk
pc-guest hit getppid -1 >/dev/null &
h1=$!
pc-guest hit getpgrp -1 >/dev/null &
h2=$!
pc-guest refuse "$C" 300 "@sys@getppid%return panic\n@sys@getpgrp panic\n@sys@getppid+$off panic\nno_such_symbol_pc bugon"
kill $h1 $h2
wait
echo 8 >/proc/sys/kernel/printk
echo "listing after: $(cat "$C")"
echo "logged: $(dmesg | grep -c 'crashpoints: no_such_symbol_pc: no such symbol')"
echo "fired lines: $(dmesg | grep -c 'provoke_crash: @sys@')"
