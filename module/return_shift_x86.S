/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86-64's shifted %return (probe_return.c): a function whose entry is an
 * ftrace site runs one stack gap lower, so that its return slot can go to
 * the landing while the real one stays where it was, and the unwinder
 * finds it from the landing's own entry: stack traces inside the
 * function go on through its caller.
 *
 * The stack when the function runs, from its stack pointer up:
 *
 *	landing		its return slot: it returns into the landing
 *	arguments	its stack arguments, copied (PC_SHIFT_ARGS at most)
 *	...		free, up to PC_SHIFT bytes above the landing
 *	return address	its caller's, never touched
 *
 * PC_SHIFT and PC_SHIFT_ARGS are arch.h's.
 */
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <asm/nospec-branch.h>
#include <asm/orc_types.h>
#include <asm/unwind_hints.h>

#include "return_shift.h"

	.text

/*
 * Entered from the entry probe instead of the function's body, at its
 * entry (the return address on top, the arguments in place), with %r10
 * pointing at the slot's shift_resume and shift_bytes (run_in_path.h).
 * Only %r10 and %r11 are used: neither carries an argument at a call.
 */
SYM_CODE_START(pc_return_shift)
	UNWIND_HINT_FUNC
	ANNOTATE_NOENDBR
	subq	$PC_SHIFT, %rsp
	movq	%r10, (%rsp)
	movq	8(%r10), %r11
1:	testq	%r11, %r11
	jz	2f
	subq	$8, %r11
	movq	PC_SHIFT + 8(%rsp, %r11), %r10
	movq	%r10, 8(%rsp, %r11)
	jmp	1b
2:	movq	(%rsp), %r10
	movq	(%r10), %r11
	leaq	pc_return_shifted_landing(%rip), %r10
	movq	%r10, (%rsp)
	/* A return, not an indirect jump: IBT does not check its target. */
	pushq	%r11
	UNWIND_HINT_FUNC
	RET
SYM_CODE_END(pc_return_shift)

/*
 * The landing.  The unwinder looks up the byte before a return address:
 * here, a byte whose hint says where the caller's frame is, PC_SHIFT
 * bytes up.
 */
SYM_CODE_START(pc_return_shifted)
	UNWIND_HINT type=UNWIND_HINT_TYPE_CALL sp_reg=ORC_REG_SP sp_offset=PC_SHIFT
	nop	/* never run: only looked up */
SYM_INNER_LABEL(pc_return_shifted_landing, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	/* The real return slot on top: a call from the caller, to C. */
	addq	$PC_SHIFT - 8, %rsp
	movq	%rsp, %rdi
	jmp	pc_return_landed_shifted
SYM_CODE_END(pc_return_shifted)
