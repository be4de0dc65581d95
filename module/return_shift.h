/* SPDX-License-Identifier: GPL-2.0 */
/*
 * x86-64's shifted %return, shared by return_shift_x86.S and C: a
 * diverted function runs PC_SHIFT bytes lower, with up to PC_SHIFT_ARGS
 * bytes of stack arguments copied down (32 arguments past the six in
 * registers: a variadic printk() of the kernel's takes up to about 30).
 * PC_SHIFT is a multiple of 16, so the function's stack keeps its
 * alignment, and leaves the landing and the arguments room.
 */
#ifndef PROVOKE_CRASH_RETURN_SHIFT_H
#define PROVOKE_CRASH_RETURN_SHIFT_H

#define PC_SHIFT	272
#define PC_SHIFT_ARGS	256

#ifndef __ASSEMBLY__
/*
 * Entered instead of the function's body, which finds its slot (the
 * shift_resume and shift_bytes of it) by the return slot's address; the
 * landing the function returns into.
 */
void pc_return_shift(void);
unsigned long *pc_return_shift_slot(unsigned long ret_slot);
void pc_return_shifted_landing(void);
struct pc_return_value;
struct pc_return_value pc_return_landed_shifted(unsigned long *ret_slot,
						unsigned long ax,
						unsigned long dx);
#endif

#endif /* PROVOKE_CRASH_RETURN_SHIFT_H */
