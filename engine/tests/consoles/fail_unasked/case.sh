# generated from the crash-type table: write_after_free (report, direct)
# boot: slub_debug=FZPU
# smp: 1
# expect: provoke_crash: trigger: write_after_free: 
# batch-ok
# reject: FAIL:
# expect-out: PC-GUEST-END
dmesg -c >/dev/null
pc-guest write $D/write_after_free 1
dmesg | sed -n 's/.*provoke_crash: \(XFAIL: write_after_free: .*\)/PC-SKIP \1/p' | head -n 1
