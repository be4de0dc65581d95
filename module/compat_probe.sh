#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The kernel API this module needs, probed in the headers it is built
# against (Kbuild runs this once per build and adds what it prints to
# ccflags-y): one -DPC_HAVE_* flag for each thing the kernel has.
# compat.h turns the flags into one API; nothing else reads them.
# Usage: compat_probe.sh SRCTREE OBJTREE
src=$1
obj=$2

# have NAME FILE PATTERN: -DPC_HAVE_NAME if FILE (under SRCTREE) has
# PATTERN, an extended regular expression.
have() {
	if grep -Eq "$3" "$src/$2" 2>/dev/null; then
		printf ' -DPC_HAVE_%s' "$1"
	fi
}

# task_struct's state word is __state (5.14).
have TASK___STATE include/linux/sched.h 'unsigned int[[:space:]]+__state;'
# hrtimer_setup() (6.13) replaced hrtimer_init() and .function.
have HRTIMER_SETUP include/linux/hrtimer.h 'void hrtimer_setup\('
# timer_delete_sync() (6.2, and Debian's 6.1) replaced del_timer_sync().
have TIMER_DELETE_SYNC include/linux/timer.h 'int timer_delete_sync\('
# <linux/kfence.h> (5.12).
if [ -f "$src/include/linux/kfence.h" ]; then
	printf ' -DPC_HAVE_KFENCE_H'
fi
# <linux/kstack_erase.h> (6.17) is the old <linux/stackleak.h>.
if [ -f "$src/include/linux/kstack_erase.h" ]; then
	printf ' -DPC_HAVE_KSTACK_ERASE_H'
fi
# BTF kinds newer than 5.10: FLOAT (5.13), DECL_TAG (5.16), TYPE_TAG
# (5.17), ENUM64 (6.0).
for kind in FLOAT DECL_TAG TYPE_TAG ENUM64; do
	have "BTF_KIND_${kind}" include/uapi/linux/btf.h "BTF_KIND_${kind}[[:space:]]*="
done
# IRQ_WORK_INIT_HARD() and irq_work_is_pending() (5.11): before them an
# irq_work's flags were its own atomic_t.
have IRQ_WORK_INIT_HARD include/linux/irq_work.h 'define IRQ_WORK_INIT_HARD\('
# Folios (5.16).
have FOLIO include/linux/mm_types.h '^struct folio \{'
# start_poll_synchronize_rcu() (5.12): start a grace period, not wait.
have START_POLL_RCU include/linux/rcutree.h 'start_poll_synchronize_rcu\('
# get_kretprobe() (5.11): a kretprobe_instance's ->rp before it.
have GET_KRETPROBE include/linux/kprobes.h 'get_kretprobe\('
# x86's unwind hint for C's inline asm (5.12): linux/objtool.h's
# UNWIND_HINT() before.
have UNWIND_HINT_FUNC_C arch/x86/include/asm/unwind_hints.h '^#define UNWIND_HINT_FUNC'
# What the fast entry path (probe_ftrace.c) needs of ftrace: a recursion
# lock for modules (5.11), ftrace_regs (5.11) and many call sites set in
# one filter update (5.18).
if [ -f "$src/include/linux/trace_recursion.h" ] &&
	grep -q 'ftrace_set_filter_ips(' "$src/include/linux/ftrace.h"; then
	printf ' -DPC_HAVE_FTRACE_ENTRY'
fi
# cr4_update_irqsoff() exported to every module: its Module.symvers line
# has an empty namespace, the fifth field.  7.2 exports it to the kvm
# modules only (their names are in that field).
if awk -F'\t' '$2 == "cr4_update_irqsoff" && $3 == "vmlinux" && $5 == "" { found = 1 }
	END { exit !found }' "$obj/Module.symvers" 2>/dev/null; then
	printf ' -DPC_HAVE_CR4_UPDATE_EXPORT'
fi
echo
