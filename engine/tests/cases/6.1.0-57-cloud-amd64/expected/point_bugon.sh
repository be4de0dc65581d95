# generated from the crash-type table: bugon (oops, point)
# boot:
# smp: 1
# expect: provoke_crash: __x64_sys_getppid: bugon: 
# expect-out: __x64_sys_getppid bugon hits=0 filtered=0 fired=0 missed=0 context=path
# expect: kernel BUG at .*bugs\.c
# expect: invalid opcode
# reject: FAIL:
# expect-out: PC-GUEST-END
# expect-out: __x64_sys_getppid bugon hits=1 filtered=0 fired=1
pc-guest write $D/crashpoints "__x64_sys_getppid bugon"
cat $D/crashpoints
dmesg | sed -n 's/.*provoke_crash: crashpoints: [^ ]*: \(bugon .*lacks the module.s entry path.*\)/PC-SKIP \1/p' | head -n 1
pc-guest hit getppid 1
cat $D/crashpoints
