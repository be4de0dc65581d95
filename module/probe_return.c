// SPDX-License-Identifier: GPL-2.0
/*
 * Fatal crashes at SYMBOL%return points, run where the function returns
 * to, in the probed task's own context.
 *
 * A kretprobe runs its handler from the return trampoline with kprobes'
 * per-CPU state set, and an oops there never clears it.  Later kprobes on
 * that CPU then count as missed, and on a kernel without
 * CONFIG_PREEMPT_COUNT (Debian's arm64 6.1) every kernel fault on user
 * memory on that CPU is "fixed up" as -EFAULT until something resets the
 * state: the next signal frame cannot be written, and init dies of
 * SIGSEGV.
 *
 * So a fatal type at a %return point is a kprobe at the function's entry.
 * A hit that fires claims a path slot (run_in_path.h) that notes the function's
 * frame (the stack pointer it will return with), and sends its return
 * into a landing.  On x86-64 at an ftrace site the function runs one gap
 * lower on its stack, its own return slot to the landing
 * (return_shift_x86.S): the real return address stays in place, where the
 * landing's unwind hint finds it, so stack traces taken inside the
 * function go on through its caller.  Elsewhere the return address is
 * swapped for pc_return_landing (arm64's frame records still chain on;
 * x86-64's unwinder stops at the landing).  Either landing finds its slot
 * by frame: the innermost diverted frame of its task at or above its
 * stack pointer, so two diversions on one task (nested functions, an
 * interrupt re-entering the function) each find their own.
 */
#include <linux/kprobes.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "arch.h"
#include "crashpoint.h"
#include "return_shift.h"

/*
 * From x86-64's pc_return_shift, before the function's body runs: the
 * slot whose frame is the function's return slot (its newest, the one
 * just noted).
 */
__visible unsigned long *pc_return_shift_slot(unsigned long ret_slot)
{
	struct pc_path *path = pc_path_find_frame(ret_slot);

	if (!path || path->frame != ret_slot)
		pc_return_no_slot();
	return &path->shift_resume;
}

/*
 * A swapped function (an int3 entry) tail-called this shifted one: the
 * real return slot holds the landing.  Put its return address back, so
 * that the unwinder finds the caller: this function's crash, the newest
 * of the frame, runs first and never returns.
 */
static void pc_return_unswap(unsigned long frame)
{
	unsigned long *slot = (unsigned long *)frame;
	struct pc_path *outer;

	if (*slot != (unsigned long)pc_return_landing)
		return;
	outer = pc_path_find_frame(frame);
	if (outer && outer->ret_addr)
		*slot = outer->ret_addr;
}

/*
 * From the entry probe's handler, on a hit that fires, or with retval
 * conditions on one that passed pid, comm and cpu (the rest is decided
 * at the landing): PC_DIVERT_NONE when no slot can be had (the hit then
 * counts as missed), PC_DIVERT_SHIFTED when regs' instruction pointer
 * changed (kprobes must not single-step).
 */
enum pc_divert pc_return_divert(struct pc_point *point, struct pt_regs *regs)
{
	bool undecided = point->cond.given & PC_OPT_RETVAL;
	struct pc_path *path;
	unsigned long frame, ret;
	struct pc_path *outer;

	/* A call that never lands had its hit decided only if no retval. */
	path = pc_path_claim(point->type, point->where,
			     undecided ? pc_point_missed_undecided :
			     pc_point_missed_late, point->id);
	if (!path)
		return PC_DIVERT_NONE;
	/* See pc_path_land(): whether its caller may go on. */
	path->resumable = pc_arch_ftrace_site(&point->rp.kp) &&
			  !is_idle_task(current);
	/*
	 * retval, and with it the rest, is decided at the landing, which
	 * must let the caller go on when it fails (point_stage.c refuses
	 * such a point at a place that never can): not in the idle task.
	 */
	if (undecided && !path->resumable) {
		pr_warn_ratelimited("crashpoints: %s: %s missed: retval is decided where the function returns, and the idle task cannot go on from there\n",
				    point->where, point->type->name);
		pc_path_give_back(path);
		return PC_DIVERT_NONE;
	}
	if (path->resumable)
		path->land = pc_point_landed;
	frame = pc_arch_return_frame(regs);
	BUILD_BUG_ON(offsetof(struct pc_path, shift_bytes) !=
		     offsetof(struct pc_path, shift_resume) + sizeof(long));
	if (pc_arch_shift_return(regs, &point->rp.kp, &path->shift_resume,
				 &path->shift_bytes)) {
		pc_return_unswap(frame);
		WRITE_ONCE(path->frame, frame);
		return PC_DIVERT_SHIFTED;
	}
	ret = pc_arch_swap_return(regs, pc_return_landing);
	/*
	 * Already the landing: a diverted function tail-called this one,
	 * which returns with its frame, where that one would have.  The
	 * landing takes the newest slot of a frame, this one.
	 */
	if (ret == (unsigned long)pc_return_landing) {
		outer = pc_path_find_frame(frame);
		ret = outer ? outer->ret_addr : 0;
	}
	path->ret_addr = ret;
	/* Last: from here a landing's lookup finds the slot. */
	WRITE_ONCE(path->frame, frame);
	return PC_DIVERT_SWAPPED;
}

/* Called from the probe handler: probing it would recurse. */
NOKPROBE_SYMBOL(pc_return_unswap);
NOKPROBE_SYMBOL(pc_return_divert);
