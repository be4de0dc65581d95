// SPDX-License-Identifier: GPL-2.0
/*
 * The DIRECT file: LKDTM's interface to provoke-crash's crash types.
 *
 * LKDTM, the kernel's own crash-test module, uses the same debugfs
 * directory.  Its selftest (tools/testing/selftests/lkdtm) and the CI jobs
 * built on it read DIRECT for the test names, write one name to run that
 * test in the writer, and judge the kernel log.  Each name is an alias in
 * the crash-type table's lkdtm column.  Reading lists them as LKDTM does;
 * writing runs the type, as its own trigger file would.  Where a test
 * cannot be caught here (another architecture's, or a silent type), the
 * write says XFAIL with the reason, as LKDTM does.  Where LKDTM's own
 * test leaves the machine up on this architecture (it logs XFAIL), so
 * does the write, whatever the type would do: a kselftest run goes on
 * after it on the same machine.
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "provoke_crash.h"

/* Longer than any LKDTM test name, and than its trailing newline. */
#define PC_LKDTM_NAME_MAX	64

/*
 * LKDTM tests that LKDTM itself runs on some architectures only, where
 * the type that answers to the name runs on more.  Elsewhere LKDTM's test
 * logs "XFAIL: <why>" and returns, the machine up, while the type would
 * take it down: on this file the name says XFAIL as LKDTM's does.  The
 * type keeps its own trigger file and crash points.  Each name must be
 * one of its type's aliases in the table (checked at load).
 */
static const struct pc_lkdtm_arch_test {
	int type;		/* PC_TYPE_* */
	const char *name;	/* one of its LKDTM aliases */
	bool lkdtm_runs;	/* does LKDTM's own test run on this kernel? */
	const char *why;	/* else LKDTM's words after "XFAIL: " */
} pc_lkdtm_arch_tests[] = {
	/*
	 * LKDTM double-faults through a zero-limit stack segment, which
	 * only ia32 has; double_fault does it on x86-64 and panics.
	 */
	{ PC_TYPE_double_fault, "DOUBLE_FAULT", IS_ENABLED(CONFIG_X86_32),
	  "this test is ia32-only" },
};

/* The entry for @name whose LKDTM test does not run here, or NULL. */
static const struct pc_lkdtm_arch_test *pc_lkdtm_not_here(const char *name)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(pc_lkdtm_arch_tests); i++)
		if (!pc_lkdtm_arch_tests[i].lkdtm_runs &&
		    !strcmp(pc_lkdtm_arch_tests[i].name, name))
			return &pc_lkdtm_arch_tests[i];
	return NULL;
}

static int pc_lkdtm_show(struct seq_file *m, void *unused)
{
	const char *p, *end;
	int i;

	seq_puts(m, "Available crash types:\n");
	for (i = 0; i < PC_NR_CRASH_TYPES; i++) {
		for (p = skip_spaces(pc_crash_types[i].lkdtm); *p;
		     p = skip_spaces(end)) {
			end = strchrnul(p, ' ');
			seq_printf(m, "%.*s\n", (int)(end - p), p);
		}
	}
	return 0;
}

static int pc_lkdtm_open(struct inode *inode, struct file *file)
{
	return single_open(file, pc_lkdtm_show, NULL);
}

static const struct pc_crash_type *pc_lkdtm_find(const char *name)
{
	int i;

	for (i = 0; i < PC_NR_CRASH_TYPES; i++)
		if (pc_has_word(pc_crash_types[i].lkdtm, name))
			return &pc_crash_types[i];
	return NULL;
}

static ssize_t pc_lkdtm_write(struct file *file, const char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	char buf[PC_LKDTM_NAME_MAX], where[PC_LKDTM_NAME_MAX + 8];
	const struct pc_lkdtm_arch_test *not_here;
	const struct pc_crash_type *type;
	const char *name, *only;
	int ret;

	/* An empty write asks for nothing. */
	if (!count)
		return 0;
	ret = pc_may_write("DIRECT", NULL);
	if (ret)
		return ret;
	if (count >= sizeof(buf)) {
		pr_warn("DIRECT: a write of %zu bytes is no LKDTM test name (%zu at most)\n",
			count, sizeof(buf) - 1);
		return -EINVAL;
	}
	if (copy_from_user(buf, ubuf, count)) {
		pr_warn("DIRECT: %s[%d]: cannot read the written name\n",
			current->comm, task_pid_nr(current));
		return -EFAULT;
	}
	buf[count] = '\0';
	name = strim(buf);
	type = *name ? pc_lkdtm_find(name) : NULL;
	if (!type) {
		pr_warn("DIRECT: '%s' is no LKDTM test name (reading DIRECT lists them)\n",
			name);
		return -EINVAL;
	}
	/* LKDTM's words first: its selftest may look for them. */
	not_here = pc_lkdtm_not_here(name);
	only = pc_type_other_arch(type);
	if (not_here) {
		if (only)
			pr_err("XFAIL: %s (DIRECT: %s, as LKDTM's own test on %s)\n",
			       not_here->why, name, pc_this_arch());
		else
			pr_err("XFAIL: %s (DIRECT: %s, as LKDTM's own test on %s; the %s trigger file runs the real one)\n",
			       not_here->why, name, pc_this_arch(), type->name);
		return -EOPNOTSUPP;
	}
	if (only) {
		pr_err("XFAIL: DIRECT: %s: %s runs only on %s, and this kernel is %s\n",
		       name, type->name, only, pc_this_arch());
		return -EOPNOTSUPP;
	}
	/* "DIRECT(NAME)": the name followed by a colon is some test's proof. */
	snprintf(where, sizeof(where), "DIRECT(%s)", name);
	ret = pc_crash_run(type, where, 0);
	if (!ret && type->fate == PC_FATE_SILENT)
		pr_err("XFAIL: DIRECT: %s: %s went unnoticed: this %s kernel allows it\n",
		       name, type->name, pc_this_arch());
	if (ret && ret != -EINPROGRESS)
		return ret;
	*ppos += count;
	return count;
}

static const struct file_operations pc_lkdtm_fops = {
	.owner = THIS_MODULE,
	.open = pc_lkdtm_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = pc_lkdtm_write,
};

void pc_lkdtm_files(struct dentry *dir)
{
	const struct pc_lkdtm_arch_test *t;
	int i;

	/* A renamed alias would leave its entry above matching nothing. */
	for (i = 0; i < ARRAY_SIZE(pc_lkdtm_arch_tests); i++) {
		t = &pc_lkdtm_arch_tests[i];
		if (!pc_has_word(pc_crash_types[t->type].lkdtm, t->name))
			pr_err("DIRECT: %s is not among %s's LKDTM names in the table\n",
			       t->name, pc_crash_types[t->type].name);
	}
	debugfs_create_file("DIRECT", 0600, dir, NULL, &pc_lkdtm_fops);
}
