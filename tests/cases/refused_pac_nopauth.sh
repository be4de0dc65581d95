# pac_corruption on an arm64 CPU without address authentication: the
# guest boots with arm64.nopauth, which hides QEMU's.  Nothing is signed,
# so there is no PAC to corrupt: the type logs XFAIL naming what is
# missing and returns EOPNOTSUPP (DIRECT and the trigger file pass it
# on), instead of returning 0 as if the kernel had survived a corrupted
# PAC.  The kernel stays up.
# needs: CONFIG_ARM64
# boot: arm64.nopauth
# batch-ok
# expect-out: paca: 0
# expect: provoke_crash: trigger: pac_corruption: 
# expect: provoke_crash: XFAIL: pac_corruption: this CPU has no address authentication \(FEAT_PAuth; or arm64.nopauth turned it off\): return addresses are not signed
# expect-out: trigger: write: error (EOPNOTSUPP|ENOTSUP)
# expect: provoke_crash: DIRECT\(CORRUPT_PAC\): pac_corruption: 
# expect-out: direct: write: error (EOPNOTSUPP|ENOTSUP)
# expect-out: PC-GUEST-END
# reject: (^|[^X])FAIL:|could not run|Oops|Unable to handle|Kernel panic|PAC bit flipped
# shellcheck shell=dash
echo "paca: $(grep -c '^Features.* paca' /proc/cpuinfo)"
echo "trigger: $(pc-guest write "$D/pac_corruption" 1)"
echo "direct: $(pc-guest write "$D/DIRECT" CORRUPT_PAC)"
