# generated from the crash-type table: bugon (oops, direct)
# boot:
# smp: 1
# pstore: 1
# expect: provoke_crash: trigger: bugon: 
# expect: kernel BUG at .*bugs\.c
# expect: invalid opcode
# reject: FAIL:
# expect-out: PC-GUEST-END
# expect-out: PC-PSTORE-BEGIN dmesg-ramoops-[0-9]+
# expect-out: kernel BUG at .*bugs\.c
# expect-out: invalid opcode
pc-guest write $D/bugon 1
