// SPDX-License-Identifier: GPL-2.0
/*
 * Crash points: a kprobe on any symbol that runs a crash routine when the
 * code path is hit, managed through the `crashpoints` control file.
 *
 * The list of points is changed only under pc_points_lock, by writers of
 * the control file.  The probe handler never takes a lock: it reaches its
 * point through container_of() and counts hits with atomics, and
 * unregister_kprobe() waits for running handlers before a point is freed.
 */
#include <linux/atomic.h>
#include <linux/kprobes.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "provoke_crash.h"
#include "provoke_crash_parse.h"

/* One control-file write: at most a page, like other debugfs controls. */
#define PC_WRITE_MAX	PAGE_SIZE

/* SYMBOL, '+', 0x and 16 hex digits, NUL. */
#define PC_PLACE_MAX	(PC_SYMBOL_MAX + 20)

struct pc_point {
	struct list_head list;
	struct kprobe kp;
	const struct pc_crash_type *type;
	int context;		/* PC_CTX_* the handler runs in */
	atomic_long_t hits;
	atomic_long_t fired;
	char where[PC_PLACE_MAX];	/* SYMBOL[+OFFSET] as listed */
	char symbol[PC_SYMBOL_MAX];
};

static LIST_HEAD(pc_points);
static DEFINE_MUTEX(pc_points_lock);

static int pc_point_hit(struct kprobe *kp, struct pt_regs *regs)
{
	struct pc_point *point = container_of(kp, struct pc_point, kp);

	atomic_long_inc(&point->hits);
	atomic_long_inc(&point->fired);
	pc_crash_run(point->type, point->where);
	return 0;
}

/* The handler itself must never be probed: it would recurse. */
NOKPROBE_SYMBOL(pc_point_hit);

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

/* How a place is shown: SYMBOL, or SYMBOL+0xOFFSET. */
static void pc_format_place(char *buf, size_t len, const struct pc_line *line)
{
	if (line->offset)
		snprintf(buf, len, "%s+%#lx", line->symbol, line->offset);
	else
		strscpy(buf, line->symbol, len);
}

static struct pc_point *pc_find_by_addr(kprobe_opcode_t *addr)
{
	struct pc_point *point;

	list_for_each_entry(point, &pc_points, list)
		if (point->kp.addr == addr)
			return point;
	return NULL;
}

static struct pc_point *pc_find_by_place(const struct pc_line *line)
{
	struct pc_point *point;

	list_for_each_entry(point, &pc_points, list)
		if (point->kp.offset == line->offset &&
		    !strcmp(point->symbol, line->symbol))
			return point;
	return NULL;
}

/*
 * kprobes adds the offset blindly: check that the probe is still in the
 * function that starts at the symbol.  Compare kallsyms' names for both
 * addresses, as an alias (__x64_sys_getppid, __do_sys_getppid) may be the
 * name kallsyms prints.
 */
static bool pc_inside_symbol(const struct pc_point *point)
{
	const char *start = (const char *)point->kp.addr - point->kp.offset;
	char at_start[PC_SYMBOL_MAX], at_probe[PC_SYMBOL_MAX];

	snprintf(at_start, sizeof(at_start), "%ps", start);
	snprintf(at_probe, sizeof(at_probe), "%ps", point->kp.addr);
	return !strcmp(at_start, at_probe);
}

/*
 * Register disabled, check where the probe landed, then enable: a point
 * that is refused never fires, not even once.
 */
static int pc_arm(const struct pc_line *line, struct pc_point **armed)
{
	const struct pc_crash_type *type = &pc_crash_types[line->type];
	struct pc_point *point, *other;
	int ret;

	point = kzalloc(sizeof(*point), GFP_KERNEL);
	if (!point)
		return -ENOMEM;
	strscpy(point->symbol, line->symbol, sizeof(point->symbol));
	pc_format_place(point->where, sizeof(point->where), line);
	point->type = type;
	point->kp.symbol_name = point->symbol;
	point->kp.offset = line->offset;
	point->kp.pre_handler = pc_point_hit;
	point->kp.flags = KPROBE_FLAG_DISABLED;

	ret = register_kprobe(&point->kp);
	if (ret) {
		if (ret == -ENOENT)
			pr_warn("crashpoints: %s: no such symbol\n", point->where);
		else
			pr_warn("crashpoints: %s: the kernel refused to probe it: error %d\n",
				point->where, ret);
		kfree(point);
		return ret;
	}

	point->context = pc_probe_context(&point->kp);
	other = pc_find_by_addr(point->kp.addr);
	if (line->offset && !pc_inside_symbol(point)) {
		pr_warn("crashpoints: %s: the offset is past the end of the function (it lands in %pS)\n",
			point->where, point->kp.addr);
		ret = -ERANGE;
	} else if (other) {
		pr_warn("crashpoints: %s: already armed as %s %s\n",
			point->where, other->where, other->type->name);
		ret = -EBUSY;
	} else if (within_module((unsigned long)point->kp.addr, THIS_MODULE)) {
		pr_warn("crashpoints: %s: is inside provoke_crash itself\n",
			point->where);
		ret = -EINVAL;
	} else if (point->context > type->context) {
		pr_warn("crashpoints: %s: %s cannot run in %s context (this probe is not at an ftrace entry); arm it at the function entry\n",
			point->where, type->name,
			pc_context_name(point->context));
		ret = -EINVAL;
	}
	if (!ret)
		ret = enable_kprobe(&point->kp);
	if (ret) {
		unregister_kprobe(&point->kp);
		kfree(point);
		return ret;
	}
	list_add_tail(&point->list, &pc_points);
	*armed = point;
	return 0;
}

static void pc_free_point(struct pc_point *point)
{
	list_del(&point->list);
	unregister_kprobe(&point->kp);
	kfree(point);
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
	pc_free_point(point);
	return 0;
}

/* Disarm every point, waiting for running handlers once, not per point. */
static void pc_disarm_all(void)
{
	struct pc_point *point, *next;
	struct kprobe **kps;
	int n = 0;

	list_for_each_entry(point, &pc_points, list)
		n++;
	if (!n)
		return;

	kps = kmalloc_array(n, sizeof(*kps), GFP_KERNEL);
	if (!kps) {
		list_for_each_entry_safe(point, next, &pc_points, list)
			pc_free_point(point);
		return;
	}
	n = 0;
	list_for_each_entry(point, &pc_points, list)
		kps[n++] = &point->kp;
	unregister_kprobes(kps, n);
	kfree(kps);
	list_for_each_entry_safe(point, next, &pc_points, list) {
		list_del(&point->list);
		kfree(point);
	}
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
	struct pc_point **armed;
	int i, nr_armed = 0, ret = 0;

	armed = kvcalloc(n, sizeof(*armed), GFP_KERNEL);
	if (!armed)
		return -ENOMEM;

	mutex_lock(&pc_points_lock);
	for (i = 0; i < n && !ret; i++) {
		switch (lines[i].op) {
		case PC_OP_ARM:
			ret = pc_arm(&lines[i], &armed[nr_armed]);
			if (!ret)
				nr_armed++;
			break;
		case PC_OP_DISARM:
			ret = pc_disarm(&lines[i]);
			break;
		case PC_OP_CLEAR:
			pc_disarm_all();
			nr_armed = 0;
			break;
		}
	}
	if (ret)
		while (nr_armed > 0)
			pc_free_point(armed[--nr_armed]);
	mutex_unlock(&pc_points_lock);
	kvfree(armed);
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
		seq_printf(m, "%s %s hits=%ld fired=%ld context=%s\n",
			   point->where, point->type->name,
			   atomic_long_read(&point->hits),
			   atomic_long_read(&point->fired),
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

int pc_crashpoints_init(struct dentry *dir)
{
	debugfs_create_file("crashpoints", 0600, dir, NULL, &pc_control_fops);
	return 0;
}

void pc_crashpoints_exit(void)
{
	mutex_lock(&pc_points_lock);
	pc_disarm_all();
	mutex_unlock(&pc_points_lock);
}
