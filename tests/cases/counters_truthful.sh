# Every hit is exactly one of filtered, fired or missed, and a crash that
# could not run or did not complete is missed, not fired:
# - fortify_mem_member warns once per call site (4 of them), then its
#   routine returns -EAGAIN: of 6 hits under times=5, 4 fire and 2 miss,
#   and the misses give their claims back (no hit is filtered);
# - cfi_forward_proto on a kernel without kCFI comes back at an entry
#   point: the path goes on and each hit is missed, giving back times=1;
# - two vCPUs on that point with times=1: one CPU's claim turns the
#   other's hit away (filtered) only while it is held; the counters add
#   up exactly and nothing fires.
# smp: 2
# boot: log_buf_len=4M
# needs: !CONFIG_CFI_CLANG CONFIG_FORTIFY_SOURCE
# expect: provoke_crash: fortify_mem_member: could not run: error -11
# expect: provoke_crash: crashpoints: @sys@getppid: cfi_forward_proto returned: the path goes on
# expect-out: ^fortify: @sys@getppid fortify_mem_member times=5 hits=6 filtered=0 fired=4 missed=2 context=atomic$
# expect-out: ^fortify errors: 2$
# expect-out: ^cfi: @sys@getppid cfi_forward_proto times=2 hits=3 filtered=0 fired=0 missed=3 context=path$
# expect-out: ^race: hits=600 filtered\+fired\+missed=600 fired=0$
# expect-out: PC-GUEST-END
# reject: Oops|kernel BUG|Kernel panic|provoke_crash: FAIL:
# shellcheck shell=dash
C=$D/crashpoints
pc-guest write "$C" "@sys@getppid fortify_mem_member times=5" >/dev/null
pc-guest hit getppid 6
echo "fortify: $(cat "$C")"
echo "fortify errors: $(dmesg | grep -c 'fortify_mem_member: could not run: error -11')"
pc-guest write "$C" "\n" >/dev/null

pc-guest write "$C" "@sys@getppid cfi_forward_proto times=2" >/dev/null
pc-guest hit getppid 3
echo "cfi: $(cat "$C")"
pc-guest write "$C" "\n" >/dev/null

# Quiet console: each miss logs three lines.
echo 1 >/proc/sys/kernel/printk
pc-guest write "$C" "@sys@getppid cfi_forward_proto times=1" >/dev/null
taskset -c 0 pc-guest hit getppid 300 &
taskset -c 1 pc-guest hit getppid 300 &
wait
# shellcheck disable=SC2046 # four counts, one a word
set -- $(sed -n 's/.* hits=\([0-9]*\) filtered=\([0-9]*\) fired=\([0-9]*\) missed=\([0-9]*\) .*/\1 \2 \3 \4/p' "$C")
echo "race: hits=$1 filtered+fired+missed=$(($2 + $3 + $4)) fired=$3"
echo 8 >/proc/sys/kernel/printk
pc-guest write "$C" "\n" >/dev/null
