# A write of a page of newlines (4096 empty lines: each clears every
# point) clears the two points armed before it, and the write allocates
# nothing big: the kernel's kmalloc events (a large kmalloc is one too),
# traced for the writing process only, show the page copied from user
# space, no allocation of ours of more than a page, and less than 64 KiB
# in all (ftrace's own hash for taking the entry points off is 8 KiB).
# batch-ok
# expect-out: write: 0
# expect-out: copied: 4096
# expect-out: ours bigger than a page: 0$
# expect-out: all of them: under 64 KiB
# expect-out: listing after: $
# expect-out: PC-GUEST-END
# reject: Kernel panic|Oops|BUG:|FAIL:
# shellcheck shell=dash
C=$D/crashpoints
T=/sys/kernel/tracing
[ -e $T/trace ] || mount -t tracefs nodev $T
pc-guest write "$C" "@sys@getppid report\n@sys@getpgrp report" >/dev/null
echo "listing before: $(grep -c . "$C") points"
nl=$(for _ in $(seq 4096); do printf '\\n'; done)
echo >$T/trace
echo "bytes_req >= 1024" >$T/events/kmem/kmalloc/filter
echo 1 >$T/options/event-fork
echo $$ >$T/set_event_pid
echo 1 >$T/events/kmem/kmalloc/enable
pc-guest write "$C" "$nl" >/dev/null
echo "write: $?"
echo 0 >$T/events/kmem/kmalloc/enable
echo >$T/set_event_pid
echo 0 >$T/options/event-fork
echo 0 >$T/events/kmem/kmalloc/filter
grep kmalloc $T/trace | sed 's/^/trace: /'
echo "copied: $(grep '\[provoke_crash\]' $T/trace | grep -o 'bytes_req=4096 ' | head -n 1 | tr -dc 0-9)"
echo "ours bigger than a page: $(grep 'call_site=[^ ]* \[provoke_crash\]' $T/trace |
	grep -o 'bytes_req=[0-9]*' | awk -F= '$2 > 4096' | wc -l)"
grep -o 'bytes_alloc=[0-9]*' $T/trace |
	awk -F= '{ n += $2 } END { print "all of them:", n < 65536 ? "under 64 KiB" : n " bytes" }'
echo "listing after: $(cat "$C")"
