# generated from the crash-type table: slab_init_on_alloc (report, point)
# boot:
# smp: 1
# expect: provoke_crash: __x64_sys_getppid: slab_init_on_alloc: 
# expect-out: __x64_sys_getppid slab_init_on_alloc hits=0 filtered=0 fired=0 missed=0 context=atomic
# batch-ok
# expect: slab_init_on_alloc: the reused object reads as zero
# reject: FAIL:
# expect-out: PC-GUEST-END
# expect-out: __x64_sys_getppid slab_init_on_alloc hits=1 filtered=0 fired=1
dmesg -c >/dev/null
pc-guest write $D/crashpoints "__x64_sys_getppid slab_init_on_alloc"
cat $D/crashpoints
dmesg | sed -n 's/.*provoke_crash: crashpoints: [^ ]*: \(slab_init_on_alloc .*lacks the module.s entry path.*\)/PC-SKIP \1/p' | head -n 1
pc-guest hit getppid 1
cat $D/crashpoints
dmesg | sed -n 's/.*provoke_crash: \(XFAIL: slab_init_on_alloc: .*\)/PC-SKIP \1/p' | head -n 1
