# generated from the crash-type table: null_dereference (oops, point)
# boot:
# smp: 1
# pstore: 1
# expect: provoke_crash: __x64_sys_getppid: null_dereference: 
# expect-out: __x64_sys_getppid null_dereference hits=0 filtered=0 fired=0 missed=0 context=path
# expect: BUG: kernel NULL pointer dereference, address: 0+
# expect: #PF: supervisor write access in kernel mode
# expect: RIP: 0010:pc_crash_null_dereference
# reject: FAIL:
# expect-out: PC-GUEST-END
# expect-out: __x64_sys_getppid null_dereference hits=1 filtered=0 fired=1
# expect-out: PC-PSTORE-BEGIN dmesg-ramoops-[0-9]+
# expect-out: BUG: kernel NULL pointer dereference, address: 0+
# expect-out: #PF: supervisor write access in kernel mode
# expect-out: RIP: 0010:pc_crash_null_dereference
pc-guest write $D/crashpoints "__x64_sys_getppid null_dereference"
cat $D/crashpoints
pc-guest hit getppid 1
cat $D/crashpoints
