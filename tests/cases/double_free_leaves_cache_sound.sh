# double_free, three times from each of two CPUs at once, is reported each
# time and leaves the slab allocator sound: SLUB's own validation of the
# type's cache and of kmalloc-1k finds nothing, the guest goes on
# allocating, and the module unloads with its cache empty (a leftover
# object makes kmem_cache_destroy() report).  On 6.1 a second free of the
# head of a slab's free list cut the list, and a later allocation from it
# oopsed in get_partial_node() (CI, direct_double_free on kmalloc-1k).
# On a KASAN kernel KASAN reports each free instead (kasan_multi_shot).
# boot: slub_debug=FZPU
# smp: 2
# needs: CONFIG_SLUB_DEBUG
# expect: BUG pc_double_free .*: Object already free|BUG: KASAN: double-free in pc_crash_double_free
# expect-out: reports: 6$
# expect-out: validated: pc_double_free kmalloc-1k
# expect-out: rmmod: ok
# expect-out: PC-GUEST-END
# reject: Wrong object count|Freechain corrupt|Freepointer corrupt|Objects remaining|Oops|BUG: unable|general protection|Kernel panic
# shellcheck shell=dash
for cpu in 0 1; do
	(for _ in 1 2 3; do taskset -c $cpu pc-guest write "$D/double_free" 1 >/dev/null; done) &
done
wait
echo "reports: $(dmesg | grep -cE 'Object already free|KASAN: double-free')"
for c in pc_double_free kmalloc-1k; do
	echo 1 >/sys/kernel/slab/$c/validate || echo "validate $c failed"
done
echo "validated: pc_double_free kmalloc-1k"
# Allocations from every size, as the CI's later exec did.
for _ in 1 2 3 4 5 6 7 8; do cat /proc/slabinfo /proc/self/maps >/dev/null; done
rmmod provoke_crash && echo "rmmod: ok"
