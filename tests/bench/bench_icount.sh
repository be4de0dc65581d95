# The benchmark, in a one-vCPU guest under QEMU -icount shift=0,sleep=off:
# guest time then counts instructions and the same run gives the same
# figures.  Prints "RESULT name: value" lines for tests/bench/run.
C=$D/crashpoints
N=${pc_calls:-200000}
echo 1 >/proc/sys/kernel/printk
t() {
	echo "RESULT $1: $(pc-guest time getppid $N | sed 's/.*: \([0-9.]*\) ns per call/\1/')"
}
t none
t none-again
insmod /pc_bench_kprobe.ko
t empty-kprobe
rmmod pc_bench_kprobe
insmod /pc_bench_ftrace.ko
t empty-ftrace-ops
rmmod pc_bench_ftrace
pc-guest write $C "__x64_sys_getppid bugon pid=1" >/dev/null
t point-pid-mismatch
pc-guest write $C "\n" >/dev/null
pc-guest write $C "__x64_sys_getppid bugon after=1000000000" >/dev/null
t point-after-not-reached
pc-guest write $C "\n" >/dev/null

# 100 points on 100 syscall entries that occur once in kallsyms.
lines=$(awk '$2 ~ /^[tT]$/ && $3 ~ /^__x64_sys_/ {print $3}' /proc/kallsyms |
	sort | uniq -u | grep -v getppid | head -n 100 | sed 's/$/ report pid=1\\n/' | tr -d '\n')
echo "RESULT arm-100-one-write: $(pc-guest timewrite $C "$lines")"
echo "RESULT points-armed: $(grep -c . $C)"
echo "RESULT disarm-100-empty-line: $(pc-guest timewrite $C '\n')"
echo "RESULT arm-100-one-write-each: $(pc-guest timelines $C "$lines")"
bangs=$(grep -o '^[^ ]*' $C | sed 's/^/!/;s/$/\\n/' | tr -d '\n')
echo "RESULT disarm-100-one-write-each: $(pc-guest timelines $C "$bangs")"
echo "RESULT points-left: $(grep -c . $C)"
