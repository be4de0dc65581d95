# generated from the crash-type table: pac_corruption (only on arm64)
# boot:
# batch-ok
# expect: provoke_crash: trigger: pac_corruption runs only on arm64, and this kernel is x86_64
# expect: provoke_crash: crashpoints: __x64_sys_getppid: pac_corruption runs only on arm64, and this kernel is x86_64
# expect-out: trigger: write: error (EOPNOTSUPP|ENOTSUP) 
# expect-out: point: write: error (EOPNOTSUPP|ENOTSUP) 
# expect-out: listing: $
# reject: FAIL:
echo "trigger: $(pc-guest write $D/pac_corruption 1)"
echo "point: $(pc-guest write $D/crashpoints "__x64_sys_getppid pac_corruption")"
echo "listing: $(cat $D/crashpoints)"
