// SPDX-License-Identifier: GPL-2.0
/*
 * The %return landing for every architecture but x86-64
 * (return_landing_x86.c), where probe_return.c diverts the return: a
 * stub that keeps what the function returned and makes a frame record
 * that names the place it returned to, and the C it calls.
 */
#include <linux/kprobes.h>

#include "crashpoint.h"

/*
 * Where the diverted function returns, called from the landing's stub
 * with its frame record, whose return address is ours to fill in: in its
 * task, as if the caller had called the crash at the place the function
 * returned to.  If the crash does not happen: where the caller goes on.
 */
noinline notrace unsigned long pc_return_landed_c(unsigned long *record)
{
	/* The stub's frame record sits just below the function's frame. */
	unsigned long frame = (unsigned long)(record + 4);
	struct pc_path *path = pc_path_find_frame(frame);
	unsigned long ret;

	if (!path || !path->ret_addr)
		pc_return_no_slot();
	ret = path->ret_addr;
	record[1] = ret;
	/* The stub saved x0, the return value, after the record. */
	pc_path_land(path, frame, record[2]);
	return ret;
}

NOKPROBE_SYMBOL(pc_return_landed_c);

#ifdef CONFIG_ARM64
/*
 * The landing proper sits one instruction into its symbol: unwinders and
 * %pB look up the byte before a return address, which must be the
 * landing's own, not the end of the function before it.  Reached by the
 * function's ret (no BTI pad needed).  It saves x0 and x1 (a return value
 * of up to 16 bytes), chains a frame record {the caller's fp, the place
 * the function returned to, which the C fills in} under the function's
 * frame, calls the C, and if the crash did not happen goes on at the
 * address it returns, with x0, x1 and x29 as the function left them.
 */
asm(".pushsection .text, \"ax\"\n"
	".balign 4\n"
	".globl pc_return_landing_pad\n"
	".type pc_return_landing_pad, %function\n"
	"pc_return_landing_pad:\n"
	"	nop\n"
	".globl pc_return_landing\n"
	"pc_return_landing:\n"
	"	sub	sp, sp, #32\n"
	"	adr	x16, pc_return_landing\n"
	"	stp	x29, x16, [sp]\n"
	"	stp	x0, x1, [sp, #16]\n"
	"	mov	x29, sp\n"
	"	mov	x0, sp\n"
	"	bl	pc_return_landed_c\n"
	"	mov	x30, x0\n"
	"	ldp	x0, x1, [sp, #16]\n"
	"	ldr	x29, [sp]\n"
	"	add	sp, sp, #32\n"
	"	ret\n"
	".size pc_return_landing_pad, .-pc_return_landing_pad\n"
	".popsection\n");
#else
/* Never entered: no %return diversion here (PC_CAN_REDIRECT). */
void pc_return_landing(void)
{
	pc_return_landed_c(NULL);
}
#endif
