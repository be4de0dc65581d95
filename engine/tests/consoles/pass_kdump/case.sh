# generated from the crash-type table: access_null (oops, direct, kdump)
# boot: oops=panic
# smp: 1
# kdump: 1
# expect-out: PC-KDUMP-LOADED [0-9]+ bytes reserved
# expect-out: PC-KDUMP-VMCORE [0-9]+ bytes
# expect-out: PC-KDUMP-DMESG-BEGIN
# expect-out: provoke_crash: trigger: access_null: 
# expect-out: BUG: kernel NULL pointer dereference, address: 0+
# expect-out: #PF: supervisor read access in kernel mode
# expect-out: RIP: 0010:pc_crash_access_null
# expect-out: PC-KDUMP-DUMP [1-9][0-9]+ bytes
# expect-out: PC-KDUMP-DONE
# reject-out: PC-GUEST-END|PC-KDUMP-LOAD-FAILED|PC-KDUMP-NO-VMCORE
# reject: FAIL:
pc-guest write $D/access_null 1
