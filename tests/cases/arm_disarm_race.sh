# Two writers arm and disarm points in a loop while two processes hit the
# probed syscalls on two vCPUs; then unload while they are still hit.
# (The second writer's second point is never hit: getsid.)
# Each writer makes pc_cycles cycles (150 unless the kernel command line
# says otherwise: make stress passes pc_cycles=5000, 10,000 in all).
# smp: 2
# expect-out: writer getppid: cycle: [0-9]+ done, 0 errors
# expect-out: writer getpgid: cycle: [0-9]+ done, 0 errors
# expect-out: points after: 0
# expect-out: rmmod: ok
# expect-out: our kprobes after unload: 0
# expect-out: slab kmalloc-2k growth: -?[0-7] objects$
# expect-out: fired lines: [1-9][0-9]*
# expect-out: log: unloaded
# expect-out: PC-GUEST-END
# reject-out: dmesg-bad:
# reject: BUG:|Oops|WARNING:|FAIL:|general protection|Kernel panic
# shellcheck shell=dash
C=$D/crashpoints
N=${pc_cycles:-150}
# Active objects, exact once the per-CPU slabs are flushed back.
slab() {
	echo 1 >/sys/kernel/slab/kmalloc-2k/shrink
	awk '$1 == "kmalloc-2k" {print $2}' /proc/slabinfo
}
start=$(slab)
echo 1 >/proc/sys/kernel/printk
pc-guest hit getppid -1 >/dev/null &
h1=$!
pc-guest hit getpgrp -1 >/dev/null &
h2=$!
(pc-guest cycle "$C" "$N" "@sys@getppid unaligned_load_store times=-1" "!@sys@getppid" |
	sed 's/^/writer getppid: /') &
w1=$!
(pc-guest cycle "$C" "$N" "@sys@getpgrp unaligned_load_store times=-1\n@sys@getsid bugon" "!@sys@getpgrp\n!@sys@getsid" |
	sed 's/^/writer getpgid: /') &
w2=$!
wait $w1 $w2
echo "points after: $(grep -c . "$C")"
echo "slab kmalloc-2k growth: $(($(slab) - start)) objects"
pc-guest write "$C" "@sys@getppid unaligned_load_store times=-1\n@sys@getpgrp unaligned_load_store times=-1" >/dev/null
sleep 1
rmmod provoke_crash && echo "rmmod: ok"
echo 8 >/proc/sys/kernel/printk
echo "our kprobes after unload: $(grep -c -e getppid -e getpgrp -e getpgid -e getsid /sys/kernel/debug/kprobes/list)"
kill $h1 $h2
wait
# The console was quiet while points fired: check the whole log.
echo "fired lines: $(dmesg | grep -cE 'provoke_crash: @sys@getp(pid|grp): unaligned_load_store: ')"
dmesg | grep -q 'provoke_crash: unloaded' && echo "log: unloaded"
dmesg | grep -E 'BUG:|Oops|WARNING:|FAIL:|general protection' | sed 's/^/dmesg-bad: /'
