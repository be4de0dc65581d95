/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86-64's shifted %return (probe_return.c): a function whose entry is an
 * ftrace site runs one gap lower on its stack, so that its return slot can
 * go to the landing while the real one stays where it was, and the
 * unwinder finds it from the landing's own entry: stack traces inside the
 * function go on through its caller.
 *
 * The stack when the function runs, from its stack pointer up:
 *
 *	landing		its return slot: it returns into the landing
 *	arguments	its stack arguments, copied (PC_SHIFT_ARGS at most)
 *	...		free, up to PC_SHIFT bytes above the landing
 *	return address	its caller's, never touched
 *
 * PC_SHIFT and PC_SHIFT_ARGS are return_shift.h's.
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
 * entry: the return address on top, the arguments in place.  Nothing is
 * passed in a register (a BPF trampoline on the same site may run between
 * the probe and here): the slot is found by the return slot's address.
 * The byte before is for the unwinder while ftrace returns here: the
 * function's own entry state.
 */
SYM_CODE_START(pc_return_shift_pad)
	UNWIND_HINT_FUNC
	nop	/* never run: only looked up */
SYM_INNER_LABEL(pc_return_shift, SYM_L_GLOBAL)
	ANNOTATE_NOENDBR
	pushq	%rdi
	pushq	%rsi
	pushq	%rdx
	pushq	%rcx
	pushq	%r8
	pushq	%r9
	pushq	%rax
	leaq	7 * 8(%rsp), %rdi
	call	pc_return_shift_slot
	movq	%rax, %r10
	popq	%rax
	popq	%r9
	popq	%r8
	popq	%rcx
	popq	%rdx
	popq	%rsi
	popq	%rdi
	/* %r10: the slot's shift_resume and shift_bytes (run_in_path.h). */
	subq	$PC_SHIFT, %rsp
	movq	%r10, (%rsp)
	movq	8(%r10), %r11
1:	cmpq	$8, %r11
	jb	2f
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
SYM_CODE_END(pc_return_shift_pad)

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
	/*
	 * The real return slot on top: a call from the caller, to C, with
	 * what the function returned (%rdx stays the third argument).
	 */
	addq	$PC_SHIFT - 8, %rsp
	movq	%rsp, %rdi
	movq	%rax, %rsi
	jmp	pc_return_landed_shifted
SYM_CODE_END(pc_return_shifted)
