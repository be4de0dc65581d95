# The benchmark, in a one-vCPU guest under QEMU -icount shift=0,sleep=off:
# guest time then counts instructions and the same run gives the same
# figures.  Prints "RESULT name: value" lines for make bench
# (engine/pcengine/costbench.py).
# shellcheck shell=dash
C=$D/crashpoints
N=${pc_calls:-200000}
echo 1 >/proc/sys/kernel/printk
t() {
	echo "RESULT $1: $(pc-guest time getppid "$N" | sed 's/.*: \([0-9.]*\) ns per call/\1/')"
}
t none
t none-again
insmod /pc_bench_kprobe.ko
t empty-kprobe
rmmod pc_bench_kprobe
insmod /pc_bench_ftrace.ko
t empty-ftrace-ops
rmmod pc_bench_ftrace
# The boot's first write also registers the ftrace_ops.
echo "RESULT arm-1-first-write: $(pc-guest timewrite "$C" "__x64_sys_getppid bugon pid=1")"
t point-pid-mismatch
pc-guest write "$C" "\n" >/dev/null
pc-guest write "$C" "__x64_sys_getppid bugon after=1000000000" >/dev/null
t point-after-not-reached
pc-guest write "$C" "\n" >/dev/null
# A hit that fails at caller=, the last check: pid, comm and cpu pass,
# then its stack walk finds no ksys_read.
pc-guest write "$C" "__x64_sys_getppid bugon caller=ksys_read" >/dev/null
t point-caller-mismatch
pc-guest write "$C" "\n" >/dev/null

# Users arm offsets and %return points too.  An offset: the first one past
# the entry where a report point lists context=nmi (a breakpoint, not the
# ftrace call site), against an empty kprobe there.  bugon keeps its int3
# (a redirecting probe has a post_handler); report may be optimized into a
# jump a moment later (kprobes' list, printed, says whether it was).
S=__x64_sys_getppid
off=
echo "$S" >"$D"/offsets
# shellcheck disable=SC2013 # offsets are words, one a line
for o in $(grep '^0x' "$D"/offsets | grep -vx 0x0); do
	pc-guest write "$C" "$S+$o report pid=1" >/dev/null || continue
	nmi=$(grep -c 'context=nmi' "$C")
	pc-guest write "$C" "\n" >/dev/null
	[ "$nmi" = 1 ] && off=+$o && break
done
if [ -n "$off" ]; then
	insmod /pc_bench_kprobe.ko offset="${off#+}"
	t empty-kprobe-offset
	rmmod pc_bench_kprobe
	pc-guest write "$C" "$S$off bugon pid=1" >/dev/null
	t point-offset-pid-mismatch
	pc-guest write "$C" "\n" >/dev/null
	pc-guest write "$C" "$S$off report pid=1" >/dev/null
	sleep 1
	echo "RESULT offset-probe: $(grep getppid /sys/kernel/debug/kprobes/list | tr -s ' \t\n' ' ')"
	t point-offset-report-pid-mismatch
	pc-guest write "$C" "\n" >/dev/null
fi
pc-guest write "$C" "$S%return bugon pid=1" >/dev/null
t point-return-pid-mismatch
pc-guest write "$C" "\n" >/dev/null
pc-guest write "$C" "$S%return report pid=1" >/dev/null
t point-return-report-pid-mismatch
pc-guest write "$C" "\n" >/dev/null

# 100 points on 100 syscall entries that occur once in kallsyms.
names=$(awk '$2 ~ /^[tT]$/ && $3 ~ /^__x64_sys_/ {print $3}' /proc/kallsyms |
	sort | uniq -u | grep -v getppid | head -n 100)
lines=$(printf '%s\n' "$names" | sed 's/$/ report pid=1\\n/' | tr -d '\n')
echo "RESULT arm-100-one-write: $(pc-guest timewrite "$C" "$lines")"
echo "RESULT points-armed: $(grep -c . "$C")"
echo "RESULT disarm-100-empty-line: $(pc-guest timewrite "$C" '\n')"
echo "RESULT arm-100-one-write-each: $(pc-guest timelines "$C" "$lines")"
bangs=$(grep -o '^[^ ]*' "$C" | sed 's/^/!/;s/$/\\n/' | tr -d '\n')
echo "RESULT disarm-100-one-write-each: $(pc-guest timelines "$C" "$bangs")"
echo "RESULT points-left: $(grep -c . "$C")"

# The same 100 entries with a fatal type, which arms as a redirecting
# point.  pid=2 is kthreadd, which makes no system calls: the init shell
# (pid 1) forks and waits between these writes.
fatal=$(printf '%s\n' "$names" | sed 's/$/ panic pid=2\\n/' | tr -d '\n')
echo "RESULT arm-100-fatal-one-write: $(pc-guest timewrite "$C" "$fatal")"
echo "RESULT points-armed-fatal: $(grep -c . "$C")"
echo "RESULT disarm-100-fatal-empty-line: $(pc-guest timewrite "$C" '\n')"
# The non-fatal write again, after the same history: order costs nothing.
echo "RESULT arm-100-one-write-again: $(pc-guest timewrite "$C" "$lines")"
echo "RESULT disarm-100-empty-line-again: $(pc-guest timewrite "$C" '\n')"
