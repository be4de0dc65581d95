# generated from the crash-type table: panic (panic, direct)
# boot:
# smp: 1
# pstore: 1
# expect: provoke_crash: trigger: panic: 
# expect: Kernel panic - not syncing: provoke-crash: panic requested
# reject: FAIL:
# reject-out: PC-GUEST-END
# expect-out: PC-PSTORE-BEGIN dmesg-ramoops-[0-9]+
# expect-out: Kernel panic - not syncing: provoke-crash: panic requested
pc-guest write $D/panic 1
