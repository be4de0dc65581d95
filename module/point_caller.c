// SPDX-License-Identifier: GPL-2.0
/*
 * caller=SYMBOL and caller!=SYMBOL: whether SYMBOL's code is among the
 * return addresses of a hit's kernel stack, within PC_CALLER_FRAMES
 * frames (counted from the walk's start in the handler: the probe's own
 * few frames are among them), as the kernel's fault-injection stack
 * filter looks.
 *
 * Each name is resolved when the point is armed, the way the point's
 * own symbol is (kprobes' lookup, MODULE:SYMBOL too), into an address
 * range, so that a hit only walks its stack and compares.  The walk is
 * stack_trace_save(), which the kernel runs in every context a handler
 * can be in (NMI and hardirq with interrupts off included: lockdep,
 * KASAN and the ftrace stacktrace trigger do): it reads only stacks it
 * knows the bounds of.  At a fast entry it runs under the callback's
 * recursion lock: a point in the unwinder itself walks again at most
 * once, nested (ftrace's transition bit lets one level through), and
 * deeper hits count as missed.
 *
 * A probe that traps at a function's first instruction on arm64 finds
 * the direct caller's return address only in the link register, not
 * yet saved in a frame record, which is all the unwinder follows: the
 * probes there pass it in (pc_entry_link()), and it counts as a frame.
 *
 * What keeps a module's range true: the module notifier below empties
 * it when the module goes away (its init code, when that is freed),
 * under pc_points_lock, which also covers arming: a name kprobes found
 * in a module that was not yet going is on the list before that
 * module's notifier can run.
 */
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>

#include "points.h"

bool notrace pc_callers_hold(const struct pc_callers *callers,
			     unsigned long link)
{
	unsigned long entries[PC_CALLER_FRAMES];
	unsigned int n, i, j;

	n = stack_trace_save(entries, ARRAY_SIZE(entries), 0);
	for (i = 0; i < callers->n; i++) {
		const struct pc_caller_range *r = &callers->range[i];
		unsigned long size = READ_ONCE(r->size);
		bool found = link - r->start < size;

		for (j = 0; j < n && !found; j++)
			found = entries[j] - r->start < size;
		if (found == r->negate)
			return false;
	}
	return true;
}

NOKPROBE_SYMBOL(pc_callers_hold);

/*
 * Why caller @c of @point is refused, as one log line: @err -ENOENT
 * says what the point's own unknown symbol would.
 */
static int pc_caller_refused(const struct pc_point *point,
			     const struct pc_caller *c, int err)
{
	char *place = kasprintf(GFP_KERNEL, "%s caller%s%s", point->where,
				c->negate ? "!=" : "=", c->symbol);
	const char *shown = place ? place : c->symbol;

	if (err == -ENOENT)
		pc_warn_not_found("crashpoints", shown, c->symbol);
	else
		pr_warn("crashpoints: %s: kprobes refuses that module function (error %d), so its module's going away could not be seen: name a function it calls, or its caller\n",
			shown, err);
	kfree(place);
	return err;
}

/*
 * Resolve @line's callers into @callers' ranges: all their disabled
 * probes are taken out at once, one grace period for the lot.  kprobes
 * sets a probe's address from its lookup before it checks the place, so
 * a function it will not probe (noinstr, its blacklist) still tells
 * where its code is; but only in vmlinux, where nothing goes away.
 */
static int pc_callers_resolve(struct pc_point *point,
			      const struct pc_line *line,
			      struct pc_callers *callers, struct kprobe *kps)
{
	struct kprobe *held[PC_CALLER_MAX];
	int i, nheld = 0, ret = 0, err;
	struct pc_caller_range *r;
	bool in_module;

	for (i = 0; i < (int)line->ncaller && !ret; i++) {
		r = &callers->range[i];
		r->negate = line->caller[i].negate;
		err = pc_try_offset(&kps[i], line->caller[i].symbol, 0);
		if (!err)
			held[nheld++] = &kps[i];
		if (err == -ENOENT || !kps[i].addr ||
		    pc_symbol_bounds(kps[i].addr, &r->start, &r->size,
				     &in_module))
			ret = pc_caller_refused(point, &line->caller[i],
						-ENOENT);
		else if (err && in_module)
			ret = pc_caller_refused(point, &line->caller[i], err);
		else if (err)
			pr_warn("crashpoints: %s caller%s%s: kprobes refuses it (error %d): taken, but if it is not a function's code (data, freed init code) the condition never holds\n",
				point->where,
				line->caller[i].negate ? "!=" : "=",
				line->caller[i].symbol, err);
	}
	if (nheld)
		unregister_kprobes(held, nheld);
	return ret;
}

int pc_point_callers(struct pc_point *point, const struct pc_line *line)
{
	struct pc_callers *callers;
	size_t used = 0, size;
	struct kprobe *kps;
	unsigned int i;
	int ret;

	if (!line->ncaller)
		return 0;
	/* Room for the listing as written: " caller!=" and a name each. */
	for (size = 1, i = 0; i < line->ncaller; i++)
		size += strlen(" caller!=") + strlen(line->caller[i].symbol);
	callers = kzalloc(sizeof(*callers) + size, GFP_KERNEL);
	kps = kcalloc(PC_CALLER_MAX, sizeof(*kps), GFP_KERNEL);
	ret = callers && kps ? pc_callers_resolve(point, line, callers, kps) :
	      -ENOMEM;
	kfree(kps);
	if (ret) {
		kfree(callers);
		return ret;
	}
	callers->n = line->ncaller;
	pc_callers_format(line, callers->listed, size, &used);
	point->callers = callers;
	return 0;
}

/*
 * A module going away (or its init code being freed, once it is live):
 * empty the ranges in it before its text can be reused.  Blocking
 * notifiers run without module_mutex, and nothing under pc_points_lock
 * waits for a module notifier.
 */
static int pc_callers_module_event(struct notifier_block *nb,
				   unsigned long state, void *data)
{
	struct module *mod = data;
	struct pc_caller_range *r;
	struct pc_point *point;
	unsigned int i;
	bool gone;

	if (state != MODULE_STATE_GOING && state != MODULE_STATE_LIVE)
		return NOTIFY_DONE;
	mutex_lock(&pc_points_lock);
	list_for_each_entry(point, &pc_points, list) {
		for (i = 0; point->callers && i < point->callers->n; i++) {
			r = &point->callers->range[i];
			gone = state == MODULE_STATE_GOING ?
			       within_module(r->start, mod) :
			       within_module_init(r->start, mod);
			if (!gone || !r->size)
				continue;
			WRITE_ONCE(r->size, 0);
			pr_info("crashpoints: %s: a caller's code in module %s is gone: caller= no longer holds there, caller!= always does\n",
				point->where, mod->name);
		}
	}
	mutex_unlock(&pc_points_lock);
	return NOTIFY_DONE;
}

static struct notifier_block pc_callers_module_nb = {
	.notifier_call = pc_callers_module_event,
};

int pc_callers_init(void)
{
	return register_module_notifier(&pc_callers_module_nb);
}

void pc_callers_exit(void)
{
	unregister_module_notifier(&pc_callers_module_nb);
}
