// SPDX-License-Identifier: GPL-2.0
/*
 * Staging one point: from a parsed line, create it (its place, its
 * conditions, its id), choose its policy (run in the handler or in the
 * path), register its probe disabled, validate where that landed, and
 * add it to the list as STAGED.  Why a place is refused is said here.
 *
 * Everything here runs under pc_points_lock (pc_point_stage() asserts
 * it), which also guards pc_next_id.  The list is read only through
 * points.c's lookups, and changed once: a point checked whole goes on it
 * with list_add_tail_rcu(), for pc_point_missed_late()'s RCU walk.  A
 * staged point goes live only in pc_points_enable(), once its whole
 * write has been checked: a point that is refused, or whose write is,
 * never fires.
 */
#include <linux/err.h>
#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/pid_namespace.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "arch.h"
#include "points.h"

/* The next point's id, under pc_points_lock; 0 is never one. */
static unsigned long pc_next_id;

/* How a place is shown: SYMBOL, SYMBOL+0xOFFSET or SYMBOL%return. */
void pc_format_place(char *buf, size_t len, const struct pc_line *line)
{
	if (line->offset)
		snprintf(buf, len, "%s+%#lx", line->symbol, line->offset);
	else if (line->on_return)
		snprintf(buf, len, "%s%%return", line->symbol);
	else
		strscpy(buf, line->symbol, len);
}

/*
 * A redirecting int3 probe needs a post_handler, so that kprobes does not
 * optimize it into a jump (which cannot change regs->ip).  An ftrace probe
 * must not have one: kprobes would arm it with its IPMODIFY ops, and
 * sharing the place with another kprobe then fails to disarm (an offset
 * can be an ftrace site too: +4 after an IBT landing pad).  So a point
 * registers without it, and only one that turned out to be an int3 probe
 * registers again with it.
 */
static int pc_register(struct pc_point *point)
{
	struct kprobe *kp = &point->rp.kp;
	int ret;

	if (pc_is_kretprobe(point))
		return register_kretprobe(&point->rp);
	ret = register_kprobe(kp);
	if (ret || !IS_ENABLED(CONFIG_OPTPROBES) || !point->redirect ||
	    kp->post_handler || pc_probe_context(kp) != PC_CTX_NMI)
		return ret;
	unregister_kprobe(kp);
	kp->addr = NULL;
	kp->flags = KPROBE_FLAG_DISABLED;
	kp->post_handler = pc_point_post;
	return register_kprobe(kp);
}

/*
 * kprobes adds the offset blindly: check that the probe is still in the
 * function that starts at the symbol.  Compare kallsyms' names for both
 * addresses, as an alias (__x64_sys_getppid, __do_sys_getppid) may be the
 * name kallsyms prints.
 */
static bool pc_inside_symbol(const struct pc_point *point)
{
	const char *start = (const char *)point->rp.kp.addr - point->rp.kp.offset;
	char at_start[PC_SYMBOL_MAX], at_probe[PC_SYMBOL_MAX];

	snprintf(at_start, sizeof(at_start), "%ps", start);
	snprintf(at_probe, sizeof(at_probe), "%ps", point->rp.kp.addr);
	return !strcmp(at_start, at_probe);
}

/*
 * pid= is a thread id as gettid() gives it in the writer's pid namespace;
 * a hit compares the global one.  Outside the initial namespace the task
 * must exist when armed, to be translated.
 */
static int pc_point_global_pid(struct pc_point *point)
{
	struct pid *pid;
	int nr;

	if (point->cond.pid < 0 || task_active_pid_ns(current) == &init_pid_ns)
		return 0;
	rcu_read_lock();
	/* A process group or session id alone is no task's id. */
	pid = find_vpid(point->cond.pid);
	nr = pid && pid_task(pid, PIDTYPE_PID) ? pid_nr(pid) : 0;
	rcu_read_unlock();
	if (!nr) {
		pr_warn("crashpoints: %s: pid=%d: no such task in the writer's pid namespace\n",
			point->where, point->cond.pid);
		return -ESRCH;
	}
	point->cond.pid = nr;
	return 0;
}

/* Create: a point for @line, not registered, or an ERR_PTR. */
static struct pc_point *pc_point_create(const struct pc_line *line)
{
	const struct pc_crash_type *type = &pc_crash_types[line->type];
	struct pc_point *point;
	struct kprobe *kp;
	int ret;

	point = kzalloc(sizeof(*point), GFP_KERNEL);
	if (!point)
		return ERR_PTR(-ENOMEM);
	strscpy(point->symbol, line->symbol, sizeof(point->symbol));
	pc_format_place(point->where, sizeof(point->where), line);
	ret = pc_type_check_machine(type, "crashpoints: ", point->where);
	if (ret) {
		kfree(point);
		return ERR_PTR(ret);
	}
	if (line->cond.cpu >= 0 &&
	    (line->cond.cpu >= nr_cpu_ids || !cpu_possible(line->cond.cpu))) {
		pr_warn("crashpoints: %s: cpu=%d: no such CPU (this machine has %u)\n",
			point->where, line->cond.cpu, nr_cpu_ids);
		kfree(point);
		return ERR_PTR(-ENODEV);
	}
	pc_conditions_format(&line->cond, point->options, sizeof(point->options));
	point->id = ++pc_next_id;
	point->type = type;
	point->cond = line->cond;
	point->on_return = line->on_return;
	ret = pc_point_global_pid(point);
	if (ret) {
		kfree(point);
		return ERR_PTR(ret);
	}
	kp = &point->rp.kp;
	kp->symbol_name = point->symbol;
	kp->offset = line->offset;
	kp->flags = KPROBE_FLAG_DISABLED;
	return point;
}

/*
 * Policy: a fatal crash that may run outside the handler is redirected
 * into the path, and so is a stall (delay, spin), which must hold up the
 * path itself, in its own state.  A type that returns (a report) stays in
 * the handler, as does a task-context type (refused below: the path may
 * be atomic).
 */
static void pc_point_policy(struct pc_point *point)
{
	const struct pc_crash_type *type = point->type;
	struct kprobe *kp = &point->rp.kp;

	point->redirect = PC_CAN_REDIRECT &&
			  (type->fate == PC_FATE_STALL ||
			   (type->context != PC_CTX_TASK &&
			    (type->fate == PC_FATE_OOPS || type->fate == PC_FATE_PANIC ||
			     type->fate == PC_FATE_HANG)));
	if (pc_is_kretprobe(point)) {
		point->rp.handler = pc_point_return;
	} else {
		/* Whether it needs a post_handler: see pc_register(). */
		kp->pre_handler = pc_point_hit;
	}
}

static const char pc_missed_at_entry[] =
	"arm it at a function entry ftrace can patch, where such a hit counts as missed";
static const char pc_no_entry[] =
	"no point can count it as missed: " PC_NO_ENTRY_PATH;

/* Validate a registered point: 0, or why it may not be armed. */
static int pc_point_validate(struct pc_point *point)
{
	const struct pc_crash_type *type = point->type;
	struct kprobe *kp = &point->rp.kp;
	struct pc_point *other;

	/*
	 * A kretprobe handler runs from the return trampoline, and the fast
	 * path's callback at the ftrace call site, both with preemption off;
	 * a diverted %return point's handler is its entry probe's.
	 */
	point->fast = pc_entry_can_be_fast(point);
	point->context = pc_is_kretprobe(point) || point->fast ? PC_CTX_ATOMIC :
			 pc_probe_context(kp);
	other = pc_find_by_addr(kp->addr, point->on_return, point);
	if (kp->offset && !pc_inside_symbol(point)) {
		pr_warn("crashpoints: %s: the offset is past the end of the function (it lands in %pS)\n",
			point->where, kp->addr);
		return -ERANGE;
	}
	if (other) {
		pr_warn("crashpoints: %s: already armed as %s %s\n",
			point->where, other->where, other->type->name);
		return -EBUSY;
	}
	if (within_module((unsigned long)kp->addr, THIS_MODULE)) {
		pr_warn("crashpoints: %s: is inside provoke_crash itself\n",
			point->where);
		return -EINVAL;
	}
	/*
	 * A stall goes on where it held the path up: only the entry
	 * callback gives the path back its own state and then returns to
	 * it (a breakpoint's redirect, a diverted return cannot).
	 */
	if (type->fate == PC_FATE_STALL && (!point->redirect || !point->fast)) {
		pr_warn("crashpoints: %s: %s cannot run in this probe's handler: it holds up the path itself and lets it go on, which only a point at a function entry ftrace patches can do (no +OFFSET, no %%return)%s\n",
			point->where, type->name, pc_entry_fast_built ? "" :
			", and " PC_NO_ENTRY_PATH);
		return -EINVAL;
	}
	if (!point->redirect && point->context > type->context) {
		pr_warn("crashpoints: %s: %s cannot run in %s context (%s); arm it at the function entry\n",
			point->where, type->name,
			pc_context_name(point->context),
			point->context == PC_CTX_NMI ?
			"this probe is not at an ftrace entry" :
			"a probe handler never may sleep");
		return -EINVAL;
	}
	/*
	 * A diverted return crashes in the context the function returns
	 * in, which its entry probe cannot see (a function may take a lock
	 * or turn interrupts off): only types that run in any context.
	 */
	if (point->redirect && point->on_return && type->context < PC_CTX_ATOMIC) {
		pr_warn("crashpoints: %s: %s needs a path in %s context to complete, and a %%return point cannot see the context the function returns in: %s\n",
			point->where, type->name, pc_context_name(type->context),
			pc_entry_advice);
		return -EINVAL;
	}
	/*
	 * retval on a diverted return is decided at the landing, which lets
	 * the caller go on when it fails: only where the function has an
	 * ftrace site (pc_path_land()).
	 */
	if (point->redirect && point->on_return &&
	    (point->cond.given & PC_OPT_RETVAL) && !pc_arch_ftrace_site(kp)) {
		pr_warn("crashpoints: %s: %s with retval: when retval fails the function must return to its caller, which a %%return point of a fatal type can do only at a function ftrace can patch; use a non-fatal type here, or no retval\n",
			point->where, type->name);
		return -EINVAL;
	}
	/*
	 * A crash sent into the path anywhere but at a fast entry (whose
	 * path resumes, the hit counted missed) cannot give the path back
	 * if it does not happen: refuse a type this kernel cannot catch.
	 */
	if (point->redirect && !point->fast) {
		const char *unmet;
		int len;

		unmet = pc_type_unmet_config(type, &len);
		if (unmet) {
			pr_warn("crashpoints: %s: %s needs %.*s, which this kernel does not meet: a crash that does not happen cannot resume the path here; %s\n",
				point->where, type->name, len, unmet,
				pc_entry_fast_built ? pc_missed_at_entry : pc_no_entry);
			return -EOPNOTSUPP;
		}
	}
	/*
	 * A breakpoint's handler sees the path's whole context, and the
	 * fast path's callback too; a probe on an ftrace call site sees
	 * its interrupts but not its preemption.
	 */
	if (point->redirect && !point->fast && type->context < PC_CTX_IRQS &&
	    !pc_probe_sees_preemption(kp)) {
		pr_warn("crashpoints: %s: %s needs a path in %s context to complete, which a probe on an ftrace call site cannot check at each hit: %s\n",
			point->where, type->name, pc_context_name(type->context),
			pc_entry_advice);
		return -EINVAL;
	}
	/* argN and retval compare in the declared width: btf_width.c. */
	return pc_point_widths(point);
}

/*
 * Why kprobes refused @line's place (@ret), as one log line: past the end
 * of the function (ERANGE), not in kallsyms, or the nearest offsets it
 * takes.  Returns the errno the write fails with.
 */
static int pc_point_refused(const struct pc_point *point,
			    const struct pc_line *line, int ret)
{
	unsigned long size = 0;
	int err;

	/* An offset far past the end may land in no symbol: ENOENT. */
	if (line->offset)
		size = pc_function_size(point->symbol, &err);
	if (size && line->offset >= size) {
		pr_warn("crashpoints: %s: the offset is past the end of the function (%lu bytes long)\n",
			point->where, size);
		return -ERANGE;
	}
	if (ret == -ENOENT) {
		pc_warn_not_found("crashpoints", point->where, point->symbol);
		return ret;
	}
	if (size)
		pc_warn_refused_offset(point->where, point->symbol,
				       line->offset, size, ret);
	else
		pr_warn("crashpoints: %s: the kernel refused to probe it: error %d\n",
			point->where, ret);
	return ret;
}

/*
 * MODULE:SYMBOL: if the plain SYMBOL finds this same function (kallsyms
 * looks in vmlinux, then in the modules, the newest first), say that it
 * would do.  A probe at it, never enabled, tells where it lands.
 */
static void pc_suggest_plain(const struct pc_point *point,
			     const struct pc_line *line)
{
	const char *plain = line->symbol + line->module_len + 1;
	struct kprobe kp = {
		.symbol_name = plain,
		.offset = line->offset,
		.flags = KPROBE_FLAG_DISABLED,
	};

	if (register_kprobe(&kp))
		return;
	if (kp.addr == point->rp.kp.addr)
		pr_info("crashpoints: %s: the plain name %s finds this same function: it would do too\n",
			point->where, plain);
	unregister_kprobe(&kp);
}

int pc_point_stage(const struct pc_line *line)
{
	struct pc_point *point;
	int ret;

	lockdep_assert_held(&pc_points_lock);
	point = pc_point_create(line);
	if (IS_ERR(point))
		return PTR_ERR(point);
	pc_point_policy(point);
	ret = pc_register(point);
	if (ret) {
		ret = pc_point_refused(point, line, ret);
		kfree(point);
		return ret;
	}
	ret = pc_point_validate(point);
	if (!ret)
		ret = pc_point_callers(point, line);
	if (ret) {
		pc_unregister(point);
		pc_point_free(point);
		return ret;
	}
	if (line->module_len)
		pc_suggest_plain(point, line);
	point->state = PC_POINT_STAGED;
	list_add_tail_rcu(&point->list, &pc_points);
	return 0;
}
