// SPDX-License-Identifier: GPL-2.0
/*
 * x86-64's %return landings in C (probe_return.c diverts the return
 * there), behind a few instructions of assembly that put the stack back
 * as it was at the call, so that the unwinder sees a call from the
 * caller at the place the function returned to: here for a swapped
 * return address, in return_shift_x86.S for a shifted function.  Kbuild
 * builds these files on x86-64, return_landing.c elsewhere.
 */
#include <linux/kprobes.h>
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/unwind_hints.h>

#include "crashpoint.h"
#include "return_shift.h"

/*
 * Both landings' C, entered by a jump with the function's real return
 * slot on top (a call from its caller, to the unwinder) and what the
 * function returned in @ax and @dx: find the slot by that return slot,
 * put the return address back there if it was swapped, and run the
 * crash.  If it returns, so may the caller: to it, with the function's
 * return value, once every diversion of this frame had its turn (a
 * diverted function that tail-called another diverted one shares its
 * frame: the newest runs first).  notrace and not probed: a tracer
 * that takes our return address would return past the real one we put
 * back.
 */
static __always_inline struct pc_return_value
pc_return_crash(unsigned long *ret_slot, bool swapped, unsigned long ax,
		unsigned long dx)
{
	unsigned long frame = (unsigned long)ret_slot;
	struct pc_path *path = pc_path_find_frame(frame);

	if (!path)
		pc_return_no_slot();
	if (swapped) {
		if (!path->ret_addr)
			pc_return_no_slot();
		*ret_slot = path->ret_addr;
	}
	pc_path_land(path, frame, ax);
	return (struct pc_return_value){ .ax = ax, .dx = dx };
}

/*
 * The function returned into pc_return_landing, which puts the stack
 * back to how it was at the call (the return address slot on top) and
 * jumps here: to the unwinder this is a call from the caller, at the
 * place the function returned to, once that slot holds it again.
 */
__visible notrace struct pc_return_value
pc_return_landed(unsigned long *ret_slot, unsigned long ax, unsigned long dx)
{
	return pc_return_crash(ret_slot, true, ax, dx);
}

NOKPROBE_SYMBOL(pc_return_landed);

/*
 * The shifted function returned into pc_return_shifted_landing, which
 * put its real return slot, never touched, back on top: only the crash
 * is left to run.
 */
__visible notrace struct pc_return_value
pc_return_landed_shifted(unsigned long *ret_slot, unsigned long ax,
			 unsigned long dx)
{
	return pc_return_crash(ret_slot, false, ax, dx);
}

NOKPROBE_SYMBOL(pc_return_landed_shifted);

/* Entered by the diverted function's ret, never called. */
asm(".pushsection .text, \"ax\"\n"
	".globl pc_return_landing\n"
	".type pc_return_landing, @function\n"
	"pc_return_landing:\n"
	ANNOTATE_NOENDBR "\n"
	"	subq $8, %rsp\n"
	UNWIND_HINT_FUNC "\n"
	"	movq %rsp, %rdi\n"
	"	movq %rax, %rsi\n"
	"	jmp pc_return_landed\n"
	".size pc_return_landing, .-pc_return_landing\n"
	".popsection\n");
