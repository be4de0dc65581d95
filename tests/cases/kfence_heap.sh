# KFENCE, with no slub_debug: sampling on, each heap type waits for KFENCE
# to serve its object, and KFENCE reports the misuse in the routine that
# made it (the guest survives KFENCE's reports).  Only a caller that may
# sleep waits, and preemptible() tells that only with CONFIG_PREEMPT_COUNT.
# boot: kfence.sample_interval=1
# needs: CONFIG_KFENCE CONFIG_PREEMPT_COUNT
# expect: BUG: KFENCE: (out-of-bounds write|memory corruption) in pc_crash_overwrite_allocation
# expect: BUG: KFENCE: use-after-free write in pc_crash_write_after_free
# expect: BUG: KFENCE: use-after-free read in pc_crash_read_after_free
# expect: read_after_free: the freed object was KFENCE's
# expect: BUG: KFENCE: invalid free in pc_crash_double_free
# expect-out: PC-GUEST-END
# reject: FAIL:|KFENCE served none|Oops|Kernel panic
# shellcheck shell=dash
for t in overwrite_allocation write_after_free read_after_free double_free; do
	pc-guest write "$D/$t" 1
done
