// SPDX-License-Identifier: GPL-2.0
/*
 * The `crashpoints` control file and points= at load: each write is one
 * transaction over the point registry (points.c).  It also adds the
 * `offsets` file (offsets.c).
 *
 * A write is parsed whole first, one line at a time into one struct
 * pc_line (a page of newlines is 4097 lines: no array of them).  Then,
 * under pc_points_lock, each line is staged: an arm registers its probe
 * disabled (a STAGED point); a disarm or a clear marks points DROPPED or
 * DOOMED (enum pc_point_state).  If every line stages, the write
 * commits: the staged points' probes are enabled, and only when all of
 * them are do the doomed points stop counting hits, the write arm its
 * points (the state the handlers read) and free the disarmed ones.  If
 * anything fails, the staged points are freed (they never fired) and the
 * doomed ones never stopped: a write that fails changes nothing.
 */
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/prandom.h>
#include <linux/random.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "points.h"

/* One control-file write: at most a page, like other debugfs controls. */
#define PC_WRITE_MAX	PAGE_SIZE

/* The bytes of an unknown key or type a log line repeats, at most. */
#define PC_NAMED_MAX	64

DEFINE_PER_CPU(struct rnd_state, pc_rnd);

/*
 * Parse line @n (from 1) of @buf, which starts at *@start, into @line;
 * *@start moves past it.  Logs where a line is wrong.
 */
static int pc_parse_next(const char *buf, size_t len, size_t *start, int n,
			 struct pc_line *line)
{
	struct pc_parse_error error;
	size_t end;
	int ret;

	for (end = *start; end < len && buf[end] != '\n'; end++)
		;
	ret = pc_parse_line(buf + *start, end - *start, line, &error);
	if (ret && error.what_len)
		/* The culprit, escaped and cut: it may hold any byte. */
		pr_warn("crashpoints: line %d, column %zu: %s '%*pE' (%s)\n",
			n, error.pos + 1, error.why,
			(int)min_t(size_t, error.what_len, PC_NAMED_MAX),
			error.what, error.valid);
	else if (ret)
		pr_warn("crashpoints: line %d, column %zu: %s\n",
			n, error.pos + 1, error.why);
	*start = end + 1;
	return ret;
}

static int pc_stage(const struct pc_line *line)
{
	struct pc_point *point;
	char place[PC_PLACE_MAX];

	switch (line->op) {
	case PC_OP_ARM:
		return pc_point_stage(line);
	case PC_OP_DISARM:
		point = pc_find_by_place(line);
		if (!point) {
			pc_format_place(place, sizeof(place), line);
			pr_warn("crashpoints: !%s: no crash point there\n", place);
			return -ENOENT;
		}
		pc_point_drop(point);
		return 0;
	case PC_OP_CLEAR:
		pc_points_drop_all();
		return 0;
	}
	return -EINVAL;
}

/* Stage every line of @buf, then commit or roll back, under the lock. */
static int pc_apply(const char *buf, size_t len, struct pc_line *line)
{
	size_t start;
	int n, ret = 0;

	/* Each newline ends a line: "A\n" (after the trim) is "A", then "". */
	for (start = 0, n = 1; !ret && start <= len; n++)
		ret = pc_parse_next(buf, len, &start, n, line);
	if (ret)
		return ret;

	mutex_lock(&pc_points_lock);
	for (start = 0, n = 1; !ret && start <= len; n++) {
		ret = pc_parse_next(buf, len, &start, n, line);
		if (!ret)
			ret = pc_stage(line);
	}
	/*
	 * The disarmed points count on until the new ones are live, so that
	 * a write the kernel refuses changes nothing, not even for a moment;
	 * they stop before the new ones start (pc_points_commit()).
	 */
	if (!ret)
		ret = pc_points_enable();
	if (ret)
		pc_points_abort();
	else
		pc_points_commit();
	mutex_unlock(&pc_points_lock);
	pc_path_reclaim();
	return ret;
}

/* A write of @len bytes at @buf (which it may change). */
static int pc_write_lines(char *buf, size_t len)
{
	struct pc_line *line;
	int ret;

	/* One trailing newline ends the last line; it does not add one. */
	if (len && buf[len - 1] == '\n')
		len--;
	line = kmalloc(sizeof(*line), GFP_KERNEL);
	if (!line)
		return -ENOMEM;
	ret = pc_apply(buf, len, line);
	kfree(line);
	return ret;
}

static ssize_t pc_control_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	char *buf;
	int ret;

	ret = pc_may_write("crashpoints", NULL);
	if (ret)
		return ret;
	/* An empty write says nothing: it disarms nothing. */
	if (!count)
		return 0;
	if (count > PC_WRITE_MAX) {
		pr_warn("crashpoints: a write may hold at most %lu bytes, not %zu\n",
			PC_WRITE_MAX, count);
		return -E2BIG;
	}
	buf = memdup_user(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	ret = pc_write_lines(buf, count);
	kfree(buf);
	return ret ? ret : count;
}

/* Where a point's crash runs, as listed. */
static void pc_show_context(struct seq_file *m, const struct pc_point *point)
{
	if (!point->redirect)
		seq_printf(m, "context=%s\n", pc_context_name(point->context));
	else if (point->type->context < PC_CTX_ATOMIC)
		/* Only where the path is that, checked at each hit. */
		seq_printf(m, "context=path:%s\n",
			   pc_context_name(point->type->context));
	else
		seq_puts(m, "context=path\n");
}

static int pc_control_show(struct seq_file *m, void *unused)
{
	struct pc_point *point;

	mutex_lock(&pc_points_lock);
	list_for_each_entry(point, &pc_points, list) {
		long hits = atomic_long_read(&point->hits);
		long fired = atomic_long_read(&point->fired);
		long missed = atomic_long_read(&point->missed);
		unsigned long dropped = pc_probe_missed(point);

		/*
		 * hits = filtered + fired + missed.  kprobes' own drops (hits
		 * its handler never saw) are hits and misses both.  While a
		 * handler is deciding, filtered may read one off.
		 */
		seq_printf(m, "%s %s%s%s hits=%lu ", point->where,
			   point->type->name, point->options,
			   point->callers ? point->callers->listed : "",
			   hits + dropped);
		/* pid=, comm=, cpu=, argN, retval and caller turn hits away. */
		if (point->cond.given & (PC_OPT_PID | PC_OPT_COMM | PC_OPT_CPU |
					 PC_OPT_ARG | PC_OPT_RETVAL |
					 PC_OPT_CALLER))
			seq_printf(m, "eligible=%ld ",
				   atomic_long_read(&point->eligible));
		seq_printf(m, "filtered=%ld fired=%ld missed=%lu ",
			   max(hits - fired - missed, 0L), fired,
			   missed + dropped);
		pc_show_context(m, point);
	}
	mutex_unlock(&pc_points_lock);
	pc_path_reclaim();
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

/*
 * points= is split at ';'.  No piece may be blank: it would be an empty
 * line, which disarms the points before it.  One ';' may end the value.
 */
static int pc_load_pieces_check(const char *s, size_t len)
{
	size_t start = 0, i, j;
	int n = 1;

	for (i = 0; i <= len; i++) {
		if (i < len && s[i] != ';')
			continue;
		if (i == len && start == len && n > 1)
			break;
		for (j = start; j < i && (s[j] == ' ' || s[j] == '\t'); j++)
			;
		if (j == i) {
			pr_err("points=: piece %d is empty: give each point once, separated by ';'\n",
			       n);
			return -EINVAL;
		}
		start = i + 1;
		n++;
	}
	return 0;
}

static int pc_arm_at_load(void)
{
	size_t len, i;
	char *buf;
	int ret;

	if (!points || !points[0])
		return 0;
	len = strlen(points);
	if (len > PC_WRITE_MAX) {
		pr_err("points=: at most %lu bytes, not %zu\n", PC_WRITE_MAX, len);
		return -E2BIG;
	}
	ret = pc_load_pieces_check(points, len);
	if (ret)
		return ret;
	buf = kstrdup(points, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	for (i = 0; i < len; i++)
		if (buf[i] == ';')
			buf[i] = '\n';
	ret = pc_write_lines(buf, len);
	kfree(buf);
	if (ret)
		pr_err("points=: not loading: the crash points given could not all be armed (error %d)\n",
		       ret);
	return ret;
}

int pc_crashpoints_init(void)
{
	int cpu, ret;

	for_each_possible_cpu(cpu)
		prandom_seed_state(per_cpu_ptr(&pc_rnd, cpu), get_random_u64());
	ret = pc_callers_init();
	if (ret)
		return ret;
	return pc_arm_at_load();
}

void pc_crashpoints_files(struct dentry *dir)
{
	debugfs_create_file("crashpoints", 0600, dir, NULL, &pc_control_fops);
	pc_offsets_files(dir);
}

void pc_crashpoints_exit(void)
{
	/* First: its notifier takes the lock and walks the points. */
	pc_callers_exit();
	mutex_lock(&pc_points_lock);
	pc_points_free_all();
	pc_entry_exit();
	mutex_unlock(&pc_points_lock);
	pc_offsets_exit();
}
