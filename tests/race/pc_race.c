// SPDX-License-Identifier: GPL-2.0
/*
 * pc_race: a use-after-free race, for the bench's worked example of
 * crashing on exactly the call you mean (Documentation/provoke-crash/
 * race-example.rst).  For the bench only: it is never installed.
 *
 * One object is published in pc_race_obj with no reference and no RCU:
 * that is the bug.  Writing to /sys/kernel/debug/pc-race/ctl:
 *
 *   alloc   a new object (a secret and its length, LEN), published
 *   read    the reader, pc_race_read(): loads the pointer, then (after
 *           pc_race_window(), an empty function: the window between
 *           the load and the use) copies the object's secret with
 *           pc_race_copy(obj, obj->len)
 *   peek    another caller of pc_race_copy(), which copies only the
 *           first PEEK bytes
 *   free    the freer, pc_race_release(): unpublishes the object and
 *           frees it, wiping it first (kfree_sensitive(): it holds a
 *           secret)
 *
 * The window is a few instructions wide: a free on another CPU does not
 * land in it.  A `delay` crash point on pc_race_window opens it; a free
 * then lands, and the reader copies from a freed object, whose length
 * no longer reads LEN (the wipe zeroed it, or SLUB's free pointer or a
 * new owner's data sits there): a crash point on pc_race_copy can test
 * that (arg2!=64), from the reader only (caller=pc_race_read: peek
 * passes another length).
 */
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#define PC_RACE_LEN	64
#define PC_RACE_PEEK	16

struct pc_race_obj {
	char secret[PC_RACE_LEN - sizeof(size_t)];
	size_t len;
};

static struct dentry *pc_race_dir;

/* The published object: read and written with no lock, on purpose. */
static struct pc_race_obj *pc_race_obj;

static char pc_race_sink[PC_RACE_LEN];

/*
 * The targets keep their names and their calls (noinline, used): a
 * crash point names them.
 */
static noinline __used void pc_race_window(void)
{
	barrier();
}

static noinline __used size_t pc_race_copy(const struct pc_race_obj *obj, size_t len)
{
	size_t n = min_t(size_t, len, sizeof(pc_race_sink));

	memcpy(pc_race_sink, obj->secret, min_t(size_t, n, sizeof(obj->secret)));
	return n;
}

static noinline __used size_t pc_race_read(void)
{
	struct pc_race_obj *obj = READ_ONCE(pc_race_obj);

	if (!obj)
		return 0;
	pc_race_window();
	return pc_race_copy(obj, obj->len);
}

static noinline __used size_t pc_race_peek(void)
{
	struct pc_race_obj *obj = READ_ONCE(pc_race_obj);

	return obj ? pc_race_copy(obj, PC_RACE_PEEK) : 0;
}

static noinline __used void pc_race_release(void)
{
	struct pc_race_obj *obj = xchg(&pc_race_obj, NULL);

	kfree_sensitive(obj);
}

static int pc_race_alloc(void)
{
	struct pc_race_obj *obj = kzalloc(sizeof(*obj), GFP_KERNEL);

	if (!obj)
		return -ENOMEM;
	obj->len = PC_RACE_LEN;
	memset(obj->secret, 'r', sizeof(obj->secret));
	/* The one before is leaked, not freed: a reader may still hold it. */
	WRITE_ONCE(pc_race_obj, obj);
	return 0;
}

static ssize_t pc_race_ctl(struct file *file, const char __user *ubuf, size_t count,
			   loff_t *ppos)
{
	char cmd[8] = "";
	int err = 0;

	if (count >= sizeof(cmd) || copy_from_user(cmd, ubuf, count))
		return -EINVAL;
	strim(cmd);
	if (!strcmp(cmd, "alloc"))
		err = pc_race_alloc();
	else if (!strcmp(cmd, "read"))
		pc_race_read();
	else if (!strcmp(cmd, "peek"))
		pc_race_peek();
	else if (!strcmp(cmd, "free"))
		pc_race_release();
	else
		err = -EINVAL;
	return err ?: count;
}

static const struct file_operations pc_race_fops = {
	.owner = THIS_MODULE,
	.write = pc_race_ctl,
	.llseek = noop_llseek,
};

static int __init pc_race_init(void)
{
	pc_race_dir = debugfs_create_dir("pc-race", NULL);
	debugfs_create_file("ctl", 0200, pc_race_dir, NULL, &pc_race_fops);
	return 0;
}

static void __exit pc_race_exit(void)
{
	debugfs_remove_recursive(pc_race_dir);
	kfree_sensitive(pc_race_obj);
}

module_init(pc_race_init);
module_exit(pc_race_exit);
MODULE_DESCRIPTION("provoke-crash bench: a use-after-free race to reproduce");
MODULE_LICENSE("GPL");
