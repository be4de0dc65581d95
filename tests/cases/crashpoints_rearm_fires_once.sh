# Re-arming one place in one write ("!P" then "P TYPE") must never let
# one hit fire both the old point and the new one: kprobes runs every
# handler at an address on each hit, so the old point stops, for every
# handler, before the new one starts (a grace period between them; on
# arm64 the two stores are otherwise unordered).  A writer re-arms a
# breakpoint point in devkmsg_write() on one vCPU while a shell on the
# other writes a marker to /dev/kmsg in a loop: each marker write is one
# hit, and its point logs before the marker's own record.  So between two
# markers the log holds at most one firing; none where the hit fell
# between the old point's stop and the new one's start.
# smp: 2
# boot: log_buf_len=4M
# expect-out: writer: cycle: [0-9]+ done, 0 errors
# expect-out: markers: [1-9][0-9]* hits, [1-9][0-9]* fired once, [0-9]+ fired by none, 0 fired twice
# expect-out: after: 0 points
# expect-out: PC-GUEST-END
# reject-out: no offset armed|WRONG
# reject: BUG:|Oops|WARNING:|Kernel panic
# shellcheck shell=dash
C=$D/crashpoints
N=${pc_cycles:-40}
# The first whole instruction after the entry that takes a breakpoint.
at=""
# shellcheck disable=SC2043 # @insn_offs@ becomes a list of offsets
for off in @insn_offs@; do
	if pc-guest write "$C" "devkmsg_write+$off unaligned_load_store times=-1" >/dev/null; then
		at=$off
		break
	fi
done
[ -n "$at" ] || echo "no offset armed"
P="devkmsg_write+$at"
grep -q 'context=nmi' "$C" || echo "WRONG: not a breakpoint: $(cat "$C")"
# Every marker is a record (no rate limit), and none goes to the console.
echo on >/proc/sys/kernel/printk_devkmsg
echo 1 >/proc/sys/kernel/printk
rm -f /tmp/rearm-done
taskset -c 1 sh -c 'while [ ! -e /tmp/rearm-done ]; do echo pc-rearm-mark >/dev/kmsg; done' &
h=$!
start=$(date +%s)
taskset -c 0 pc-guest cycle "$C" "$N" "!$P\n$P unaligned_load_store times=-1" "!$P\n$P unaligned_load_store times=-1" |
	sed 's/^/writer: /'
touch /tmp/rearm-done
wait $h
echo "# $((2 * N)) re-arming writes in $(($(date +%s) - start)) s"
echo 8 >/proc/sys/kernel/printk
pc-guest write "$C" "\n" >/dev/null
echo "after: $(grep -c . "$C") points"
# Firings before each marker; the first marker's share may have been
# overwritten, which only lowers it.
dmesg | awk '
	/provoke_crash: devkmsg_write\+0x[0-9a-f]+: unaligned_load_store: / { n++ }
	/pc-rearm-mark/ { m++; if (n > 1) t++; else if (n == 1) o++; else z++; n = 0 }
	END { printf "markers: %d hits, %d fired once, %d fired by none, %d fired twice\n", m, o, z, t }'
