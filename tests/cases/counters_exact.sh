# Counters stay exact under contention: two processes on two vCPUs hit one
# point 10,000 times each; the listing must count every call, once.
# smp: 2
# boot: log_buf_len=8M
# expect-out: hit: getppid x10000 done
# expect-out: listing: @sys@getppid unaligned_load_store times=-1 hits=20000 filtered=0 fired=20000 missed=0
# expect-out: log lines: 20000
# expect-out: PC-GUEST-END
# reject: BUG:|Oops|WARNING:|FAIL:
# Quiet console: the 20,000 log lines go to the ring buffer only.
# shellcheck shell=dash
echo 1 >/proc/sys/kernel/printk
dmesg -c >/dev/null
pc-guest write "$D/crashpoints" "@sys@getppid unaligned_load_store times=-1"
pc-guest hit getppid 10000 &
pc-guest hit getppid 10000 &
wait
echo "listing: $(cat "$D/crashpoints")"
echo "log lines: $(dmesg | grep -c 'provoke_crash: @sys@getppid: unaligned_load_store: ')"
echo 8 >/proc/sys/kernel/printk
