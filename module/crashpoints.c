// SPDX-License-Identifier: GPL-2.0
/*
 * Crash points: a kprobe on any symbol that runs a crash routine when the
 * code path is hit, managed through the `crashpoints` control file.
 *
 * The list of points is changed only under pc_points_lock, by writers of
 * the control file.  The probe handler never takes a lock: it reaches its
 * point through container_of() and counts hits with atomics, and
 * unregister_kprobe() waits for running handlers before a point is freed.
 *
 * A point at a function's ftrace call site goes through entry_fast.c
 * instead: one ftrace_ops for all of them, cheaper per hit and patched
 * in one batch per write.
 *
 * SYMBOL%return points of types that return (a report, a warning) are
 * kretprobes; a fatal one is an entry probe that diverts the function's
 * return into the crash (return_path.c).  Conditions (pc_conditions)
 * decide which hits fire.
 *
 * A fatal crash at an entry or offset point does not run in the probe
 * handler (with preemption off, or in the int3 or BRK trap, where every
 * oops panics): the handler points the probed task's instruction pointer
 * at pc_redirected(), which runs the crash in the path's own context.
 */
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/prandom.h>
#include <linux/random.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#ifdef CONFIG_X86
#include <asm/text-patching.h>
#endif
#ifdef CONFIG_ARM64
#include <asm/insn.h>
#endif

#include "crashpoint.h"

/* One control-file write: at most a page, like other debugfs controls. */
#define PC_WRITE_MAX	PAGE_SIZE

static LIST_HEAD(pc_points);
static DEFINE_MUTEX(pc_points_lock);

DEFINE_PER_CPU(struct rnd_state, pc_rnd);

/*
 * Hits on their way to pc_redirected() that have not yet copied their
 * point: they run after the handler (or the recursion guard) is gone, so
 * freeing a point waits for them, past the grace period.
 */
atomic_t pc_redirects_in_flight = ATOMIC_INIT(0);

/*
 * Run a crash in the path's own context, out of any probe handler.  The
 * path cannot go on from here: what it was doing was never done.
 */
void pc_run_in_path(const struct pc_crash_type *type, const char *where)
{
	int ret;

	if (in_nmi() && type->context < PC_CTX_NMI) {
		pr_emerg("crashpoints: %s: the path runs in NMI context, where %s cannot run\n",
			 where, type->name);
		BUG();	/* BUG on purpose: the path cannot resume */
	}
	ret = pc_crash_run(type, where);
	/* The crash comes later (at the next schedule, when irqs are on). */
	while (ret == -EINPROGRESS && preemptible())
		msleep(1000);
	pr_emerg("crashpoints: %s: %s returned, and the path it replaced cannot resume: BUG\n",
		 where, type->name);
	BUG();	/* BUG on purpose: the path cannot resume */
}

/*
 * A redirected hit resumes here, in the probed path's own context, as if
 * the probed instruction had called it.
 */
void pc_redirected(struct pc_point *point)
{
	char where[PC_PLACE_MAX];

	strscpy(where, point->where, sizeof(where));
	atomic_dec(&pc_redirects_in_flight);
	pc_run_in_path(point->type, where);
}

#ifdef CONFIG_X86
#define PC_CAN_REDIRECT	true

static void pc_redirect(struct pc_point *point, struct pt_regs *regs)
{
	/*
	 * An int3 probe: push a return address into the probed instruction,
	 * so that stack traces go on through the probed function (the int3
	 * entry leaves a gap below the trapped stack for this).  An ftrace
	 * probe cannot move the stack; its caller's frame shows instead.
	 */
	if (!kprobe_ftrace(&point->rp.kp))
		int3_emulate_push(regs, (unsigned long)point->rp.kp.addr + 1);
	regs->di = (unsigned long)point;
	instruction_pointer_set(regs, (unsigned long)pc_redirected);
}
#elif defined(CONFIG_ARM64)
#define PC_CAN_REDIRECT	true

static void pc_redirect(struct pc_point *point, struct pt_regs *regs)
{
	/*
	 * A BRK probe, as if the probed instruction called pc_redirected():
	 * the link register points back into the probed function, so that
	 * stack traces show it.  Nothing returns through it.
	 */
	procedure_link_pointer_set(regs, (unsigned long)point->rp.kp.addr +
				   AARCH64_INSN_SIZE);
	regs->regs[0] = (unsigned long)point;
	instruction_pointer_set(regs, (unsigned long)pc_redirected);
}
#else
#define PC_CAN_REDIRECT	false

static void pc_redirect(struct pc_point *point, struct pt_regs *regs)
{
}
#endif

/* Never called: its presence keeps kprobes from optimizing the probe. */
static void pc_point_post(struct kprobe *kp, struct pt_regs *regs,
			  unsigned long flags)
{
}

static int pc_point_hit(struct kprobe *kp, struct pt_regs *regs)
{
	struct pc_point *point = container_of(kp, struct pc_point, rp.kp);

	if (!pc_point_counts(point))
		return 0;
	if (point->on_return) {
		/* A fatal crash when the function returns: return_path.c. */
		if (!pc_return_divert(point, regs)) {
			atomic_long_dec(&point->fired);
			kp->nmissed++;
		}
		return 0;
	}
	if (point->redirect) {
		atomic_inc(&pc_redirects_in_flight);
		pc_redirect(point, regs);
		/* regs->ip changed: kprobes must not single-step. */
		return 1;
	}
	pc_crash_run(point->type, point->where);
	return 0;
}

/* The handlers themselves must never be probed: they would recurse. */
NOKPROBE_SYMBOL(pc_point_hit);

static int pc_point_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct pc_point *point = container_of(get_kretprobe(ri), struct pc_point, rp);

	if (pc_point_counts(point))
		pc_crash_run(point->type, point->where);
	return 0;
}

NOKPROBE_SYMBOL(pc_point_return);

/*
 * The context a kprobe handler runs in: a probe on an ftrace call site
 * runs in the probed task with preemption off; any other probe starts as
 * a breakpoint trap, which the kernel treats like an NMI.
 */
static int pc_probe_context(struct kprobe *kp)
{
#ifdef CONFIG_KPROBES_ON_FTRACE
	if (kprobe_ftrace(kp))
		return PC_CTX_ATOMIC;
#endif
	return PC_CTX_NMI;
}

/* How a place is shown: SYMBOL, SYMBOL+0xOFFSET or SYMBOL%return. */
static void pc_format_place(char *buf, size_t len, const struct pc_line *line)
{
	if (line->offset)
		snprintf(buf, len, "%s+%#lx", line->symbol, line->offset);
	else if (line->on_return)
		snprintf(buf, len, "%s%%return", line->symbol);
	else
		strscpy(buf, line->symbol, len);
}

/* An entry point and a return point may share an address. */
static struct pc_point *pc_find_by_addr(kprobe_opcode_t *addr, bool on_return)
{
	struct pc_point *point;

	list_for_each_entry(point, &pc_points, list)
		if (point->rp.kp.addr == addr && point->on_return == on_return)
			return point;
	return NULL;
}

static struct pc_point *pc_find_by_place(const struct pc_line *line)
{
	struct pc_point *point;

	list_for_each_entry(point, &pc_points, list)
		if (point->rp.kp.offset == line->offset &&
		    point->on_return == !!line->on_return &&
		    !strcmp(point->symbol, line->symbol))
			return point;
	return NULL;
}

/* A %return point of a type that returns; fatal ones are entry probes. */
static bool pc_is_kretprobe(const struct pc_point *point)
{
	return point->on_return && !point->redirect;
}

/*
 * A redirecting int3 probe needs a post_handler, so that kprobes does not
 * optimize it into a jump (which cannot change regs->ip).  An ftrace probe
 * must not have one: kprobes would arm it with its IPMODIFY ops, and
 * sharing the place with another kprobe then fails to disarm.  So an entry
 * point registers without it, and only a notrace function's entry (an
 * int3 probe after all) registers again with it.
 */
static int pc_register(struct pc_point *point)
{
	struct kprobe *kp = &point->rp.kp;
	int ret;

	if (pc_is_kretprobe(point))
		return register_kretprobe(&point->rp);
	ret = register_kprobe(kp);
	if (ret || !IS_ENABLED(CONFIG_OPTPROBES) || !point->redirect ||
	    kp->post_handler ||
	    pc_probe_context(kp) != PC_CTX_NMI)
		return ret;
	unregister_kprobe(kp);
	kp->addr = NULL;
	kp->flags = KPROBE_FLAG_DISABLED;
	kp->post_handler = pc_point_post;
	return register_kprobe(kp);
}

static void pc_unregister(struct pc_point *point)
{
	if (pc_is_kretprobe(point))
		unregister_kretprobe(&point->rp);
	else
		unregister_kprobe(&point->rp.kp);
}

static unsigned long pc_missed(const struct pc_point *point)
{
	return point->rp.kp.nmissed +
	       (pc_is_kretprobe(point) ? point->rp.nmissed : 0);
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
 * Register disabled, check where the probe landed, then enable: a point
 * that is refused never fires, not even once.  An entry point that can go
 * through entry_fast.c stays disabled here; pc_commit() makes it live
 * with the rest of its write.
 */
static int pc_arm(const struct pc_line *line)
{
	const struct pc_crash_type *type = &pc_crash_types[line->type];
	struct pc_point *point, *other;
	struct kprobe *kp;
	int ret;

	point = kzalloc(sizeof(*point), GFP_KERNEL);
	if (!point)
		return -ENOMEM;
	strscpy(point->symbol, line->symbol, sizeof(point->symbol));
	pc_format_place(point->where, sizeof(point->where), line);
	ret = pc_type_check_arch(type, "crashpoints: ", point->where);
	if (ret) {
		kfree(point);
		return ret;
	}
	pc_conditions_format(&line->cond, point->options, sizeof(point->options));
	point->type = type;
	point->cond = line->cond;
	point->on_return = line->on_return;
	kp = &point->rp.kp;
	kp->symbol_name = point->symbol;
	kp->offset = line->offset;
	kp->flags = KPROBE_FLAG_DISABLED;
	/*
	 * A fatal crash that may run outside the handler is redirected into
	 * the path.  A type that returns (a report) stays in the handler, as
	 * does a task-context type: the path may be atomic.
	 */
	point->redirect = PC_CAN_REDIRECT && type->context != PC_CTX_TASK &&
			  (type->fate == PC_FATE_OOPS || type->fate == PC_FATE_PANIC ||
			   type->fate == PC_FATE_HANG);
	if (pc_is_kretprobe(point)) {
		point->rp.handler = pc_point_return;
	} else {
		kp->pre_handler = pc_point_hit;
		/* An entry is usually an ftrace site: see pc_register(). */
		if (IS_ENABLED(CONFIG_OPTPROBES) && point->redirect &&
		    line->offset)
			kp->post_handler = pc_point_post;
	}

	if (line->cond.cpu >= 0 &&
	    (line->cond.cpu >= nr_cpu_ids || !cpu_possible(line->cond.cpu))) {
		pr_warn("crashpoints: %s: cpu=%d: no such CPU (this machine has %u)\n",
			point->where, line->cond.cpu, nr_cpu_ids);
		kfree(point);
		return -ENODEV;
	}

	ret = pc_register(point);
	if (ret) {
		if (ret == -ENOENT)
			pr_warn("crashpoints: %s: no such symbol\n", point->where);
		else
			pr_warn("crashpoints: %s: the kernel refused to probe it: error %d\n",
				point->where, ret);
		kfree(point);
		return ret;
	}

	/*
	 * A kretprobe handler runs from the return trampoline, and the fast
	 * path's callback at the ftrace call site, both with preemption off;
	 * a diverted %return point's handler is its entry probe's.
	 */
	point->fast = pc_entry_can_be_fast(point);
	point->context = pc_is_kretprobe(point) || point->fast ? PC_CTX_ATOMIC :
			 pc_probe_context(kp);
	other = pc_find_by_addr(kp->addr, point->on_return);
	if (line->offset && !pc_inside_symbol(point)) {
		pr_warn("crashpoints: %s: the offset is past the end of the function (it lands in %pS)\n",
			point->where, kp->addr);
		ret = -ERANGE;
	} else if (other) {
		pr_warn("crashpoints: %s: already armed as %s %s\n",
			point->where, other->where, other->type->name);
		ret = -EBUSY;
	} else if (within_module((unsigned long)kp->addr, THIS_MODULE)) {
		pr_warn("crashpoints: %s: is inside provoke_crash itself\n",
			point->where);
		ret = -EINVAL;
	} else if (!point->redirect && point->context > type->context) {
		pr_warn("crashpoints: %s: %s cannot run in %s context (%s); arm it at the function entry\n",
			point->where, type->name,
			pc_context_name(point->context),
			point->context == PC_CTX_NMI ?
			"this probe is not at an ftrace entry" :
			"a probe handler never may sleep");
		ret = -EINVAL;
	}
	if (!ret && !point->fast)
		ret = enable_kprobe(kp);
	if (ret) {
		pc_unregister(point);
		kfree(point);
		return ret;
	}
	point->pending = true;
	list_add_tail(&point->list, &pc_points);
	return 0;
}

/*
 * Free points, waiting for running handlers once per batch: one text
 * update for the fast points, one grace period for the kprobes and one
 * for the kretprobes, not one per point.  unregister_kprobes() waits for
 * an RCU grace period even for disabled kprobes, which also covers the
 * fast path's callback (it runs with preemption off).
 */
static void pc_free_points(struct pc_point **points, int n)
{
	struct kretprobe **rps;
	struct kprobe **kps;
	struct pc_point **live;
	int i, nk = 0, nr = 0, nl = 0;

	kps = kvmalloc_array(n, sizeof(*kps), GFP_KERNEL);
	rps = kvmalloc_array(n, sizeof(*rps), GFP_KERNEL);
	live = kvmalloc_array(n, sizeof(*live), GFP_KERNEL);
	if (!kps || !rps || !live) {
		/* Slow but sure: one point at a time. */
		for (i = 0; i < n; i++) {
			if (points[i]->fast_live)
				pc_entry_disable(&points[i], 1);
			pc_unregister(points[i]);
		}
	} else {
		for (i = 0; i < n; i++) {
			if (points[i]->fast_live)
				live[nl++] = points[i];
			if (pc_is_kretprobe(points[i]))
				rps[nr++] = &points[i]->rp;
			else
				kps[nk++] = &points[i]->rp.kp;
		}
		pc_entry_disable(live, nl);
		if (nk)
			unregister_kprobes(kps, nk);
		if (nr)
			unregister_kretprobes(rps, nr);
	}
	kvfree(kps);
	kvfree(rps);
	kvfree(live);
	/* No handler runs any more; a redirected hit may still be starting. */
	while (atomic_read(&pc_redirects_in_flight))
		usleep_range(1000, 2000);
	for (i = 0; i < n; i++) {
		list_del(&points[i]->list);
		kfree(points[i]);
	}
}

static bool pc_any(const struct pc_point *point)
{
	return true;
}

/* Armed by the write being applied. */
static bool pc_pending(const struct pc_point *point)
{
	return point->pending;
}

static bool pc_pending_fast(const struct pc_point *point)
{
	return point->pending && point->fast;
}

/*
 * The points @match accepts, in list order, in a new array of *@n; NULL
 * with *@n set when there are none or the array cannot be allocated.
 */
static struct pc_point **pc_collect(bool (*match)(const struct pc_point *),
				    int *n)
{
	struct pc_point *point, **points;
	int count = 0, i = 0;

	list_for_each_entry(point, &pc_points, list)
		count += match(point);
	*n = count;
	if (!count)
		return NULL;
	points = kvmalloc_array(count, sizeof(*points), GFP_KERNEL);
	if (points)
		list_for_each_entry(point, &pc_points, list)
			if (match(point))
				points[i++] = point;
	return points;
}

/* Free the points @match accepts, as one batch when memory allows. */
static void pc_free_matching(bool (*match)(const struct pc_point *))
{
	struct pc_point *point, *next, **points;
	int n;

	points = pc_collect(match, &n);
	if (points) {
		pc_free_points(points, n);
		kvfree(points);
		return;
	}
	list_for_each_entry_safe(point, next, &pc_points, list)
		if (match(point))
			pc_free_points(&point, 1);
}

static int pc_disarm(const struct pc_line *line)
{
	struct pc_point *point = pc_find_by_place(line);
	char place[PC_PLACE_MAX];

	if (!point) {
		pc_format_place(place, sizeof(place), line);
		pr_warn("crashpoints: !%s: no crash point there\n", place);
		return -ENOENT;
	}
	pc_free_points(&point, 1);
	return 0;
}

/* Make the fast points armed by this write live, all in one batch. */
static int pc_commit(void)
{
	struct pc_point **fast;
	int n, ret;

	fast = pc_collect(pc_pending_fast, &n);
	if (!fast)
		return n ? -ENOMEM : 0;
	ret = pc_entry_enable(fast, n);
	kvfree(fast);
	return ret;
}

/* Split @buf into lines and parse them all before acting on any. */
static int pc_parse_write(char *buf, size_t len, struct pc_line **lines,
			  int *nr_lines)
{
	struct pc_parse_error error;
	struct pc_line *parsed;
	size_t start = 0, end;
	int n = 0, max = 1, ret;

	for (end = 0; end < len; end++)
		if (buf[end] == '\n')
			max++;
	parsed = kvcalloc(max, sizeof(*parsed), GFP_KERNEL);
	if (!parsed)
		return -ENOMEM;

	while (start < len || n == 0) {
		for (end = start; end < len && buf[end] != '\n'; end++)
			;
		ret = pc_parse_line(buf + start, end - start, &parsed[n],
				    &error);
		if (ret) {
			pr_warn("crashpoints: line %d, column %zu: %s\n",
				n + 1, error.pos + 1, error.why);
			kvfree(parsed);
			return ret;
		}
		n++;
		start = end + 1;
	}
	*lines = parsed;
	*nr_lines = n;
	return 0;
}

/*
 * Apply parsed lines in order.  On the first failure, the points armed
 * earlier in the same write are disarmed again, so a write arms all of
 * its points or none.
 */
static int pc_apply(const struct pc_line *lines, int n)
{
	struct pc_point *point;
	int i, ret = 0;

	mutex_lock(&pc_points_lock);
	for (i = 0; i < n && !ret; i++) {
		switch (lines[i].op) {
		case PC_OP_ARM:
			ret = pc_arm(&lines[i]);
			break;
		case PC_OP_DISARM:
			ret = pc_disarm(&lines[i]);
			break;
		case PC_OP_CLEAR:
			pc_free_matching(pc_any);
			break;
		}
	}
	if (!ret)
		ret = pc_commit();
	if (ret)
		pc_free_matching(pc_pending);
	list_for_each_entry(point, &pc_points, list)
		point->pending = false;
	mutex_unlock(&pc_points_lock);
	return ret;
}

static ssize_t pc_control_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	size_t len = count;
	struct pc_line *lines;
	int nr_lines, ret;
	char *buf;

	if (count > PC_WRITE_MAX) {
		pr_warn("crashpoints: a write may hold at most %lu bytes, not %zu\n",
			PC_WRITE_MAX, count);
		return -E2BIG;
	}
	buf = memdup_user(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	/* One trailing newline ends the last line; it does not add one. */
	if (len && buf[len - 1] == '\n')
		len--;

	ret = pc_parse_write(buf, len, &lines, &nr_lines);
	kfree(buf);
	if (ret)
		return ret;
	ret = pc_apply(lines, nr_lines);
	kvfree(lines);
	return ret ? ret : count;
}

static int pc_control_show(struct seq_file *m, void *unused)
{
	struct pc_point *point;

	mutex_lock(&pc_points_lock);
	list_for_each_entry(point, &pc_points, list)
		seq_printf(m, "%s %s%s hits=%ld fired=%ld missed=%lu context=%s\n",
			   point->where, point->type->name, point->options,
			   atomic_long_read(&point->hits),
			   atomic_long_read(&point->fired),
			   pc_missed(point),
			   point->redirect ? "path" :
			   pc_context_name(point->context));
	mutex_unlock(&pc_points_lock);
	return 0;
}

static int pc_control_open(struct inode *inode, struct file *file)
{
	return single_open(file, pc_control_show, NULL);
}

static const struct file_operations pc_control_fops = {
	.owner = THIS_MODULE,
	.open = pc_control_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.write = pc_control_write,
	.release = single_release,
};

/*
 * points=: crash points armed while the module loads, so that a crash
 * during boot or module init can be provoked.  The same lines as the
 * control file takes, separated by ';' (a command line has no newlines).
 */
static char *points;
module_param(points, charp, 0400);
MODULE_PARM_DESC(points, "crash points to arm at load, ';'-separated lines of the crashpoints syntax");

static int pc_arm_at_load(void)
{
	struct pc_line *lines;
	int nr_lines, ret;
	size_t len, i;
	char *buf;

	if (!points || !points[0])
		return 0;
	len = strlen(points);
	if (len > PC_WRITE_MAX) {
		pr_err("points=: at most %lu bytes, not %zu\n", PC_WRITE_MAX, len);
		return -E2BIG;
	}
	buf = kstrdup(points, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	for (i = 0; i < len; i++)
		if (buf[i] == ';')
			buf[i] = '\n';
	ret = pc_parse_write(buf, len, &lines, &nr_lines);
	kfree(buf);
	if (!ret) {
		ret = pc_apply(lines, nr_lines);
		kvfree(lines);
	}
	if (ret)
		pr_err("points=: not loading: the crash points given could not all be armed (error %d)\n",
		       ret);
	return ret;
}

int pc_crashpoints_init(struct dentry *dir)
{
	int cpu;

	for_each_possible_cpu(cpu)
		prandom_seed_state(per_cpu_ptr(&pc_rnd, cpu), get_random_u64());
	debugfs_create_file("crashpoints", 0600, dir, NULL, &pc_control_fops);
	return pc_arm_at_load();
}

void pc_crashpoints_exit(void)
{
	mutex_lock(&pc_points_lock);
	pc_free_matching(pc_any);
	mutex_unlock(&pc_points_lock);
	pc_return_wait();
}
