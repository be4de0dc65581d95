# generated from the crash-type table: vmalloc_linear_overflow (oops, direct)
# boot:
# smp: 1
# pstore: 1
# expect: provoke_crash: trigger: vmalloc_linear_overflow: 
# expect: BUG: unable to handle page fault for address
# expect: #PF: supervisor write access in kernel mode
# expect: RIP: 0010:pc_crash_vmalloc_linear_overflow
# reject: FAIL:
# expect-out: PC-GUEST-END
# expect-out: PC-PSTORE-BEGIN dmesg-ramoops-[0-9]+
# expect-out: BUG: unable to handle page fault for address
# expect-out: #PF: supervisor write access in kernel mode
# expect-out: RIP: 0010:pc_crash_vmalloc_linear_overflow
pc-guest write $D/vmalloc_linear_overflow 1
