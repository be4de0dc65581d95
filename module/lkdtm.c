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
 * write says XFAIL with the reason, as LKDTM does.
 */
#include <linux/capability.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "provoke_crash.h"

/* Longer than any LKDTM test name, and than its trailing newline. */
#define PC_LKDTM_NAME_MAX	64

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
	const struct pc_crash_type *type;
	const char *name, *only;
	int ret;

	/* An empty write asks for nothing. */
	if (!count)
		return 0;
	if (!capable(CAP_SYS_ADMIN)) {
		pr_warn_ratelimited("DIRECT: %s[%d]: writing needs CAP_SYS_ADMIN\n",
				    current->comm, task_pid_nr(current));
		return -EPERM;
	}
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
	only = pc_type_other_arch(type);
	if (only) {
		pr_err("XFAIL: DIRECT: %s: %s runs only on %s, and this kernel is %s\n",
		       name, type->name, only, pc_this_arch());
		return -EOPNOTSUPP;
	}
	/* "DIRECT(NAME)": the name followed by a colon is some test's proof. */
	snprintf(where, sizeof(where), "DIRECT(%s)", name);
	ret = pc_crash_run(type, where);
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
	debugfs_create_file("DIRECT", 0600, dir, NULL, &pc_lkdtm_fops);
}
