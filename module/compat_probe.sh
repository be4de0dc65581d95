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
# <linux/kstack_erase.h> (6.17) is the old <linux/stackleak.h>.
if [ -f "$src/include/linux/kstack_erase.h" ]; then
	printf ' -DPC_HAVE_KSTACK_ERASE_H'
fi
# cr4_update_irqsoff() exported to every module: its Module.symvers line
# has an empty namespace, the fifth field.  7.2 exports it to the kvm
# modules only (their names are in that field).
if awk -F'\t' '$2 == "cr4_update_irqsoff" && $3 == "vmlinux" && $5 == "" { found = 1 }
	END { exit !found }' "$obj/Module.symvers" 2>/dev/null; then
	printf ' -DPC_HAVE_CR4_UPDATE_EXPORT'
fi
echo
