# SPDX-License-Identifier: GPL-2.0
# Sourced by /init when the command line says pc_kdump=1: load this very
# kernel as the capture kernel, into the memory crashkernel= reserved, so
# that a crash jumps into it (kexec -p).  -i skips purgatory's SHA-256
# check of the loaded segments, which takes long under TCG.
# The capture kernel: one CPU, devices reset, interrupts polled (a device
# the crashed kernel left raising one), as Debian's kdump-tools does.
# shellcheck shell=dash

# The markers (PCM_*), generated from the protocol table.
# shellcheck source=pc-protocol.sh
. /pc-protocol.sh
args="quiet irqpoll nr_cpus=1 reset_devices pc_capture=1${pc_dump_disk:+ pc_dump_disk=1}"
args="$args${pc_dump_level:+ pc_dump_level=$pc_dump_level}"
case $(uname -m) in
aarch64)
	args="console=ttyAMA0 $args"
	# kexec-tools 2.0.25 reads _text, the kernel image's first byte,
	# from /proc/kallsyms: for PAGE_OFFSET (it refuses to load without
	# it) and for where the image's segment starts in the dump's ELF
	# header (virtual _text; physical: "Kernel code" in /proc/iomem,
	# which is _stext's, less _stext - _text).  Debian's arm64 kernel has
	# no KALLSYMS_ALL, and kallsyms keeps no _text without it (it lies
	# before _stext, outside the text symbols are kept for); nor has it
	# KEXEC_FILE (kexec -s), with which the kernel would write that
	# header itself.  So kexec reads a copy of kallsyms with _text put
	# back: _stext less the offset of the image's .text, which the host
	# read from the Image's own header (text-offset, kdumppack.extra).
	if ! grep -q ' _text$' /proc/kallsyms; then
		stext=$(sed -n 's/^\([0-9a-f]*\) T _stext$/\1/p' /proc/kallsyms)
		{
			printf '%016x T _text\n' $((0x$stext - $(cat /kdump/text-offset)))
			cat /proc/kallsyms
		} >/tmp/kallsyms
		mount --bind /tmp/kallsyms /proc/kallsyms
		echo "$PCM_KDUMP_TEXT $(head -n 1 /tmp/kallsyms) (_stext $stext)"
	fi
	;;
*)
	# no_timer_check: on a loaded host the capture kernel's IO-APIC
	# timer test can fail ("IO-APIC + timer doesn't work!", a panic), as
	# in any virtual machine.
	args="console=ttyS0 $args no_timer_check"
	;;
esac
if kexec -p -i /kdump/vmlinuz --initrd=/kdump/capture.cpio --append="$args" \
	2>/tmp/kexec.err; then
	echo "$PCM_KDUMP_LOADED $(cat /sys/kernel/kexec_crash_size) bytes reserved"
else
	echo "$PCM_KDUMP_LOAD_FAILED $(cat /tmp/kexec.err)"
fi
grep -q ' /proc/kallsyms ' /proc/mounts && umount /proc/kallsyms
# The user-space clock both kernels share (the TSC, or arm64's virtual
# counter): the capture kernel subtracts it from its own reading.
echo "$PCM_KDUMP_CLOCK $(pc-guest clock)"
