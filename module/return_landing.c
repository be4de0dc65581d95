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
noinline void pc_return_landed_c(void)
{
	struct pc_path *path = pc_path_find_frame(current_stack_pointer);

	if (!path)
		pc_return_no_slot();
	pc_arch_landing_caller(path->ret_addr);
	pc_path_try(path);
	BUG();	/* BUG on purpose: the caller cannot resume */
}

#ifdef CONFIG_ARM64
/*
 * The landing proper sits one instruction into its symbol: unwinders and
 * %pB look up the byte before a return address, which must be the
 * landing's own, not the end of the function before it.  A branch keeps
 * the link register, the landing, for pc_arch_landing_caller() to fix.
 */
asm(".pushsection .text, \"ax\"\n"
	".balign 4\n"
	".globl pc_return_landing_pad\n"
	".type pc_return_landing_pad, %function\n"
	"pc_return_landing_pad:\n"
	"	nop\n"
	".globl pc_return_landing\n"
	"pc_return_landing:\n"
	"	b	pc_return_landed_c\n"
	".size pc_return_landing_pad, .-pc_return_landing_pad\n"
	".popsection\n");
#else
/* Never entered: no %return diversion here (PC_CAN_REDIRECT). */
void pc_return_landing(void)
{
	pc_return_landed_c();
}
#endif
