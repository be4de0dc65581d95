// SPDX-License-Identifier: GPL-2.0
/*
 * The %return landing in C (probe_return.c diverts the return here), for
 * every architecture but x86-64 (return_landing_x86.c): arch.h's
 * pc_arch_landing_caller() makes the landing's frame show the place the
 * function returned to.
 */
#include <linux/kprobes.h>

#include "arch.h"
#include "crashpoint.h"

/*
 * Where the diverted function returns: in its task, as if the caller had
 * called the crash at the place the function returned to.  The caller
 * cannot go on: its return value never came.
 */
noinline void pc_return_landing(void)
{
	struct pc_path *path = pc_path_find_frame(current_stack_pointer);

	if (!path)
		pc_return_no_slot();
	pc_arch_landing_caller(path->ret_addr);
	pc_path_try(path);
	BUG();	/* BUG on purpose: the caller cannot resume */
}
