# generated from the crash-type table: slab_init_on_alloc (report, direct)
# boot:
# smp: 1
# expect: provoke_crash: trigger: slab_init_on_alloc: 
# batch-ok
# expect: slab_init_on_alloc: the reused object reads as zero
# reject: FAIL:
# expect-out: PC-GUEST-END
dmesg -c >/dev/null
pc-guest write $D/slab_init_on_alloc 1
dmesg | sed -n 's/.*provoke_crash: \(XFAIL: slab_init_on_alloc: .*\)/PC-SKIP \1/p' | head -n 1
