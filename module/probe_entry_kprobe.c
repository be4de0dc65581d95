// SPDX-License-Identifier: GPL-2.0
/*
 * Entry points where probe_ftrace.c's fast path cannot be built: the
 * kernel's ftrace lacks what it needs (a recursion lock for modules,
 * ftrace_regs, or setting many call sites at once: before 5.18).  Every
 * entry point then fires through its own kprobe, which kprobes puts on
 * the ftrace call site where there is one: the same hits, a higher cost
 * per hit, and none of the types that only a fast point can run.
 */
#include <linux/bug.h>

#include "crashpoint.h"

const bool pc_entry_fast_built;
const char *const pc_entry_advice =
	"arm it at +OFFSET: " PC_NO_ENTRY_PATH;

bool pc_entry_can_be_fast(struct pc_point *point)
{
	return false;
}

/* No point is ever fast: there is nothing to enable or take out. */
int pc_entry_enable(struct pc_point **points, int n)
{
	return WARN_ON_ONCE(n) ? -EOPNOTSUPP : 0;
}

void pc_entry_disable(struct pc_point **points, int n)
{
}

void pc_entry_exit(void)
{
}
