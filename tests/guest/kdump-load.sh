# SPDX-License-Identifier: GPL-2.0
# Sourced by /init when the command line says pc_kdump=1: load this very
# kernel as the capture kernel, into the memory crashkernel= reserved, so
# that a crash jumps into it (kexec -p).  -i skips purgatory's SHA-256
# check of the loaded segments, which takes long under TCG; no_timer_check:
# on a loaded host the capture kernel's IO-APIC timer test can fail ("IO-APIC
# + timer doesn't work!", a panic), as in any virtual machine.
case $(uname -m) in
aarch64) con=ttyAMA0 ;;
*) con=ttyS0 ;;
esac
if kexec -p -i /kdump/vmlinuz --initrd=/kdump/capture.gz \
	--append="console=$con quiet irqpoll nr_cpus=1 reset_devices no_timer_check pc_capture=1${pc_dump_disk:+ pc_dump_disk=1}" \
	2>/tmp/kexec.err; then
	echo "PC-KDUMP-LOADED $(cat /sys/kernel/kexec_crash_size) bytes reserved"
else
	echo "PC-KDUMP-LOAD-FAILED $(cat /tmp/kexec.err)"
fi
# The user-space clock both kernels share (the TSC, or arm64's virtual
# counter): the capture kernel subtracts it from its own reading.
echo "PC-KDUMP-CLOCK clock=$(pc-guest clock) up=$(cut -d" " -f1 /proc/uptime)"
