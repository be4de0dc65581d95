# generated from the crash-type table: bugon (oops, point, kdump)
# boot: oops=panic
# smp: 1
# kdump: 1
# expect-out: PC-KDUMP-LOADED [0-9]+ bytes reserved
# expect-out: PC-KDUMP-VMCORE [0-9]+ bytes
# expect-out: PC-KDUMP-DMESG-BEGIN
# expect-out: provoke_crash: __x64_sys_getppid: bugon: 
# expect-out: kernel BUG at .*bugs\.c
# expect-out: invalid opcode
# expect-out: PC-KDUMP-DUMP [1-9][0-9]+ bytes
# expect-out: PC-KDUMP-DONE
# reject-out: PC-GUEST-END|PC-KDUMP-LOAD-FAILED|PC-KDUMP-NO-VMCORE
# reject: FAIL:
pc-guest write $D/crashpoints "__x64_sys_getppid bugon"
pc-guest hit getppid 1
