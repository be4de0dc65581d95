# Points hit in NMI context.  On x86-64, sysrq "l" sends an NMI to the
# other CPU, which shows its registers there: show_regs(), __show_regs()
# and show_opcodes() run in the NMI handler.  The writing CPU shows only
# its stack, which calls the latter two for the user registers at its
# top (so do the report's own traces): cpu=1 keeps to the NMI's hits.
# A type that may run in NMI (report) fires there; one that may not
# (overwrite_allocation allocates; oops_interrupt_context's crash comes
# from an irq_work) counts the hit as missed, says why, and the kernel
# stays up.  nmi_cpu_backtrace() itself is on the kprobe blacklist: a
# point there is refused.  CPU 1 is kept busy: an idle CPU skips the show.
# needs: CONFIG_X86_64
# smp: 2
# expect: crashpoints: nmi_cpu_backtrace: the kernel refused to probe it: error -22
# expect: crashpoints: show_regs: overwrite_allocation missed: it needs atomic context at most, and the path is in nmi context here
# expect: crashpoints: show_opcodes: oops_interrupt_context missed: it needs irqs context at most, and the path is in nmi context here
# expect: provoke_crash: report: hit by [^ ]+\[[0-9]+\] on CPU 1
# expect-out: nmi blacklist: write: error EINVAL
# expect-out: ^show_regs overwrite_allocation times=-1 hits=([1-9][0-9]*) filtered=0 fired=0 missed=\1 context=
# expect-out: ^show_opcodes oops_interrupt_context times=-1 cpu=1 hits=[0-9]+ eligible=([1-9][0-9]*) filtered=[0-9]+ fired=0 missed=\1 context=path:irqs
# expect-out: ^__show_regs report cpu=1 hits=[0-9]+ eligible=[1-9][0-9]* filtered=[0-9]+ fired=1 missed=0 context=
# expect-out: PC-GUEST-END
# reject: Kernel panic|Oops|kernel BUG|FAIL:|overwrite_allocation: 
# shellcheck shell=dash
C=$D/crashpoints
echo "nmi blacklist: $(pc-guest write "$C" 'nmi_cpu_backtrace report')"
pc-guest write "$C" "show_regs overwrite_allocation times=-1\nshow_opcodes oops_interrupt_context times=-1 cpu=1\n__show_regs report cpu=1"
taskset -c 1 pc-guest hit getppid -1 >/dev/null &
busy=$!
sleep 1
taskset -c 0 sh -c 'echo l >/proc/sysrq-trigger'
sleep 2
kill $busy
wait $busy 2>/dev/null
cat "$C"
pc-guest write "$C" "\n"
