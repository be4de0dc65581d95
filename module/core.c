// SPDX-License-Identifier: GPL-2.0
/*
 * provoke_crash: crash or injure the running kernel on purpose.
 *
 * This file holds only the plumbing: the debugfs directory, one trigger
 * file per crash type, the `types` listing, and module load and unload.
 * The crash points live in control.c, points.c and point_stage.c, the
 * crash routines in crashes/.
 */
#include <linux/capability.h>
#include <linux/debugfs.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/security.h>
#include <linux/seq_file.h>

#include "compat.h"
#include "provoke_crash.h"

#define PC_DIR_NAME "provoke-crash"

static struct dentry *pc_dir;

int pc_may_write(const char *file, const char *name)
{
	if (capable(CAP_SYS_ADMIN))
		return 0;
	pr_warn_ratelimited("%s: %s[%d]: writing %s%sneeds CAP_SYS_ADMIN\n",
			    file, current->comm, task_pid_nr(current),
			    name ?: "", name ? " " : "");
	return -EPERM;
}

/* Writing anything to a trigger file runs its crash in the writer. */
static ssize_t pc_trigger_write(struct file *file, const char __user *buf,
				size_t count, loff_t *ppos)
{
	const struct pc_crash_type *type = file->private_data;
	int ret;

	/* An empty write asks for nothing. */
	if (!count)
		return 0;
	ret = pc_may_write("trigger", type->name);
	if (ret)
		return ret;
	ret = pc_type_check_machine(type, "", "trigger");
	if (ret)
		return ret;
	/* It could not run, or the kernel cannot catch it (XFAIL): say so. */
	ret = pc_crash_run(type, "trigger", 0);
	if (ret && ret != -EINPROGRESS)
		return ret;
	return count;
}

static const struct file_operations pc_trigger_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = pc_trigger_write,
	.llseek = noop_llseek,
};

static int pc_types_show(struct seq_file *m, void *unused)
{
	int i;

	for (i = 0; i < PC_NR_CRASH_TYPES; i++)
		seq_printf(m, "%s\t%s\n", pc_crash_types[i].name,
			   pc_crash_types[i].description);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(pc_types);

static int __init pc_init(void)
{
	struct dentry *old;
	int i, ret;

	/* Under lockdown debugfs is read-only: loading would be useless. */
	if (security_locked_down(LOCKDOWN_DEBUGFS)) {
		pr_err("kernel lockdown makes debugfs read-only: crash points and triggers cannot be used\n");
		return -EPERM;
	}

	/* LKDTM uses the same name; refuse rather than mix files with it. */
	old = debugfs_lookup(PC_DIR_NAME, NULL);
	if (old) {
		dput(old);
		pr_err("debugfs directory %s already exists (is lkdtm or another provoke_crash loaded?)\n",
		       PC_DIR_NAME);
		return -EBUSY;
	}

	pc_compat_init();
	ret = pc_path_init();
	if (ret)
		return ret;
	ret = pc_heap_init();
	if (ret) {
		pc_path_exit();
		return ret;
	}
	/*
	 * The directory first (debugfs=off fails here, before anything is
	 * armed), then the points of points=, then the files: nobody writes
	 * to a half-made module.
	 */
	pc_dir = debugfs_create_dir(PC_DIR_NAME, NULL);
	if (IS_ERR(pc_dir)) {
		ret = PTR_ERR(pc_dir);
		pr_err("cannot create debugfs directory %s: error %d\n",
		       PC_DIR_NAME, ret);
		pc_heap_exit();
		pc_path_exit();
		return ret;
	}
	ret = pc_crashpoints_init();
	if (ret)
		goto fail;
	for (i = 0; i < PC_NR_CRASH_TYPES; i++)
		debugfs_create_file(pc_crash_types[i].name, 0200, pc_dir,
				    (void *)&pc_crash_types[i],
				    &pc_trigger_fops);
	debugfs_create_file("types", 0400, pc_dir, NULL, &pc_types_fops);
	pc_lkdtm_files(pc_dir);
	pc_crashpoints_files(pc_dir);
	pr_info("loaded: %d crash types in /sys/kernel/debug/%s\n",
		PC_NR_CRASH_TYPES, PC_DIR_NAME);
	return 0;

fail:
	/* Our code goes away with no regard to references: wait for users. */
	debugfs_remove(pc_dir);
	pc_crashpoints_exit();
	pc_path_drain();
	pc_interrupts_exit();
	pc_heap_exit();
	pc_path_exit();
	pc_compat_exit();
	return ret;
}

static void __exit pc_exit(void)
{
	/* Files first: debugfs waits for writers still inside them. */
	debugfs_remove(pc_dir);
	pc_crashpoints_exit();
	pc_interrupts_exit();
	/* No crash is in progress: each would hold a module reference. */
	pc_heap_exit();
	pc_path_exit();
	pc_compat_exit();
	pr_info("unloaded\n");
}

module_init(pc_init);
module_exit(pc_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Crash or injure the running kernel on purpose, on demand");
MODULE_VERSION("0.1");
