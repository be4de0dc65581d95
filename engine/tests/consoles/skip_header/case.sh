# generated from the crash-type table: cfi_forward_proto (oops, point)
# boot:
# smp: 1
# pstore: 1
# expect: provoke_crash: __x64_sys_getppid: cfi_forward_proto: 
# expect-out: __x64_sys_getppid cfi_forward_proto hits=0 filtered=0 fired=0 missed=0 context=path
# skip: needs CONFIG_CFI_CLANG, which 6.1.0-57-cloud-amd64 lacks
# expect: crashpoints: __x64_sys_getppid: cfi_forward_proto returned: the path goes on
# expect-out: PC-GUEST-END
# reject: cannot resume
pc-guest write $D/crashpoints "__x64_sys_getppid cfi_forward_proto"
cat $D/crashpoints
pc-guest hit getppid 1
cat $D/crashpoints
