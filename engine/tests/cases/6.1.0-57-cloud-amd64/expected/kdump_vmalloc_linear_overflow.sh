# generated from the crash-type table: vmalloc_linear_overflow (oops, direct, kdump)
# boot: oops=panic
# smp: 1
# kdump: 1
# expect-out: PC-KDUMP-LOADED [0-9]+ bytes reserved
# expect-out: PC-KDUMP-VMCORE [0-9]+ bytes
# expect-out: PC-KDUMP-DMESG-BEGIN
# expect-out: provoke_crash: trigger: vmalloc_linear_overflow: 
# expect-out: BUG: unable to handle page fault for address
# expect-out: #PF: supervisor write access in kernel mode
# expect-out: RIP: 0010:pc_crash_vmalloc_linear_overflow
# expect-out: PC-KDUMP-DUMP [1-9][0-9]+ bytes
# expect-out: PC-KDUMP-DONE
# reject-out: PC-GUEST-END|PC-KDUMP-LOAD-FAILED|PC-KDUMP-NO-VMCORE
# reject: FAIL:
pc-guest write $D/vmalloc_linear_overflow 1
