/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86-64's shifted %return, shared by return_shift_x86.S and C: a
 * diverted function runs PC_SHIFT bytes lower, with up to PC_SHIFT_ARGS
 * bytes of stack arguments copied down (16 arguments past the six in
 * registers).  PC_SHIFT is a multiple of 16, so the function's stack
 * keeps its alignment, and leaves the landing and the arguments room.
 */
#ifndef PROVOKE_CRASH_RETURN_SHIFT_H
#define PROVOKE_CRASH_RETURN_SHIFT_H

#define PC_SHIFT	144
#define PC_SHIFT_ARGS	128

#ifndef __ASSEMBLY__
/* Entered instead of the function's body; the landing it returns into. */
void pc_return_shift(void);
void pc_return_shifted_landing(void);
void __noreturn pc_return_landed_shifted(unsigned long *ret_slot);
#endif

#endif /* PROVOKE_CRASH_RETURN_SHIFT_H */
