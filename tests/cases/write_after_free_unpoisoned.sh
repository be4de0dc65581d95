# write_after_free on a kernel without slub_debug: nothing checks the
# poison, so nothing may be reported either, and the store must miss
# SLUB's free pointer (in the middle of a kmalloc-1k object since 5.7):
# 200 writes, each followed by a reallocation from the same cache, then
# more kmalloc-1k traffic, and the kernel neither reports nor breaks.
# needs: !CONFIG_KASAN
# expect-out: writes: 200 of 200, reallocations that returned the object: [1-9]
# expect-out: traffic after: ok
# expect-out: PC-GUEST-END
# reject: BUG|Oops|general protection|Kernel panic|WARNING:|FAIL:
# shellcheck shell=dash
echo 4 >/proc/sys/kernel/printk
ok=0
for _ in $(seq 200); do
	pc-guest write "$D/write_after_free" 1 >/dev/null && ok=$((ok + 1))
done
echo 8 >/proc/sys/kernel/printk
echo "writes: $ok of 200, reallocations that returned the object: $(dmesg | grep -c 'reallocation returned the freed object')"
# kmalloc-1k traffic: module loads and unloads allocate from it, so do
# the debugfs files and the kernel's own ELF loader.
rmmod provoke_crash && insmod /provoke_crash.ko && rmmod provoke_crash &&
	insmod /provoke_crash.ko && cat /proc/slabinfo >/dev/null && ls -R /sys >/dev/null &&
	echo "traffic after: ok"
