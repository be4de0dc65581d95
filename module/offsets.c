// SPDX-License-Identifier: GPL-2.0
/*
 * Which offsets of a function kprobes takes: the `offsets` file, and the
 * hints the control file logs when it refuses a place.
 *
 * The answer comes from kprobes itself: a kprobe is registered at the
 * offset with KPROBE_FLAG_DISABLED, and unregistered again.  A disabled
 * kprobe is never armed: registering it decodes the instruction there
 * and copies it, but does not write the kernel's text (nor optimize it
 * into a jump).  What kprobes accepts is exactly what the control file
 * would accept, on this kernel, with its own checks (x86's instruction
 * boundaries, arm64's alignment and rejected instructions, IBT landing
 * pads, the blacklist, jump labels and static calls).
 *
 * Writing SYMBOL (or MODULE:SYMBOL) to `offsets` tries every offset of
 * the function, at most its first PC_OFFSETS_CAP bytes, unregistering in
 * batches of PC_OFFSETS_BATCH so that the scan waits for a grace period
 * once per batch, not once per offset; reading returns the last answer.
 * pc_offsets_lock serializes the scans and protects that answer.
 */
#include <linux/bitmap.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "points.h"

/* The bytes of a function the offsets file tries, at most. */
#define PC_OFFSETS_CAP		4096
/* Probes held at once during a scan: one grace period per batch. */
#define PC_OFFSETS_BATCH	64
/* How far a refused place's hint looks for an offset, either way. */
#define PC_NEAREST_SPAN		256
/* A written name: SYMBOL or MODULE:SYMBOL, blanks and a newline. */
#define PC_OFFSETS_WRITE_MAX	(PC_SYMBOL_MAX + 64)

/* Serializes scans; protects pc_offsets_text and pc_offsets_len. */
static DEFINE_MUTEX(pc_offsets_lock);
static char *pc_offsets_text;	/* the last answer, kvmalloc()ed */
static size_t pc_offsets_len;

/* Register @kp, disabled and without handlers, at @symbol+@offset. */
int pc_try_offset(struct kprobe *kp, const char *symbol, unsigned long offset)
{
	memset(kp, 0, sizeof(*kp));
	kp->symbol_name = symbol;
	kp->offset = offset;
	kp->flags = KPROBE_FLAG_DISABLED;
	return register_kprobe(kp);
}

/* Whether kprobes takes @symbol+@offset (its probe is gone again). */
static bool pc_offset_ok(const char *symbol, unsigned long offset)
{
	struct kprobe kp;

	if (pc_try_offset(&kp, symbol, offset))
		return false;
	unregister_kprobe(&kp);
	return true;
}

/*
 * The bounds of the function whose code @addr is in: kallsyms' start and
 * size are not exported to modules, but "%pS" prints them
 * ("name+0x4/0x2a", and " [module]" for a module's).  0, or -ENOENT.
 */
int pc_symbol_bounds(const void *addr, unsigned long *start,
		     unsigned long *size, bool *in_module)
{
	char where[KSYM_SYMBOL_LEN];
	const char *plus;
	unsigned long at;

	snprintf(where, sizeof(where), "%pS", addr);
	plus = strrchr(where, '+');
	if (!plus || sscanf(plus, "+%lx/%lx", &at, size) != 2 || !*size)
		return -ENOENT;
	*start = (unsigned long)addr - at;
	*in_module = strchr(plus, '[');
	return 0;
}

/*
 * The length of the function @symbol names: 0, with the error in *@err,
 * when kprobes cannot place a probe at its start.
 */
unsigned long pc_function_size(const char *symbol, int *err)
{
	unsigned long start, size;
	struct kprobe kp;
	bool in_module;

	*err = pc_try_offset(&kp, symbol, 0);
	if (*err)
		return 0;
	*err = pc_symbol_bounds(kp.addr, &start, &size, &in_module);
	unregister_kprobe(&kp);
	return *err ? 0 : size;
}

/* "+0xN", or "none" for -1, into @buf. */
static const char *pc_offset_name(char *buf, size_t len, long offset)
{
	if (offset < 0)
		return "none";
	snprintf(buf, len, "+%#lx", offset);
	return buf;
}

/*
 * Log why kprobes refused @place, @symbol + @offset inside a function of
 * @size bytes, with the nearest offsets it takes below and above (within
 * PC_NEAREST_SPAN bytes), as one line.  @err is what kprobes returned.
 */
void pc_warn_refused_offset(const char *place, const char *symbol,
			    unsigned long offset, unsigned long size, int err)
{
	long below = -1, above = -1;
	char b[24], a[24];
	unsigned long o;
	const char *why;

	for (o = offset; o-- > 0 && offset - o <= PC_NEAREST_SPAN;)
		if (pc_offset_ok(symbol, o)) {
			below = o;
			break;
		}
	for (o = offset + 1; o < size && o - offset <= PC_NEAREST_SPAN; o++)
		if (pc_offset_ok(symbol, o)) {
			above = o;
			break;
		}
	if (err == -EILSEQ)
		why = "the offset falls inside an instruction (EILSEQ)";
	else if (IS_ENABLED(CONFIG_ARM64) && err == -EINVAL && offset % 4)
		why = "the offset falls inside an instruction (arm64's are 4 bytes; EINVAL)";
	else
		why = "the kernel refused to probe it";
	pr_warn("crashpoints: %s: %s: error %d; nearest offsets kprobes takes: %s below, %s above (the offsets file lists them all)\n",
		place, why, err, pc_offset_name(b, sizeof(b), below),
		pc_offset_name(a, sizeof(a), above));
}

/*
 * Log that @symbol (as written in @place) is not in kallsyms, and the
 * usual reasons, for @file's prefix ("crashpoints" or "offsets").
 */
void pc_warn_not_found(const char *file, const char *place,
		       const char *symbol)
{
	const char *colon = strchr(symbol, ':');

	if (colon)
		pr_warn("%s: %s: no such symbol in kallsyms: is module %.*s loaded, and %s in it, not inlined or renamed (.isra, .constprop, .part)? try a caller\n",
			file, place, (int)(colon - symbol), symbol, colon + 1);
	else
		pr_warn("%s: %s: no such symbol in kallsyms: inlined, or a static function the compiler renamed (.isra, .constprop, .part)? try a caller\n",
			file, place);
}

/*
 * Set in @ok the offsets below @size that kprobes takes at @symbol.
 * Returns 0 or -EINTR (a fatal signal) or -ENOMEM.
 */
static int pc_scan(const char *symbol, unsigned long size, unsigned long *ok)
{
	struct kprobe *kps, **held;
	unsigned long offset = 0;
	int n, ret = 0;

	kps = kcalloc(PC_OFFSETS_BATCH, sizeof(*kps), GFP_KERNEL);
	held = kcalloc(PC_OFFSETS_BATCH, sizeof(*held), GFP_KERNEL);
	if (!kps || !held) {
		ret = -ENOMEM;
		goto out;
	}
	while (offset < size && !ret) {
		for (n = 0; offset < size && n < PC_OFFSETS_BATCH; offset++) {
			/* Refusals cost a decode each: stay killable. */
			if (!(offset % PC_OFFSETS_BATCH)) {
				if (fatal_signal_pending(current))
					break;
				cond_resched();
			}
			if (pc_try_offset(&kps[n], symbol, offset))
				continue;
			__set_bit(offset, ok);
			held[n] = &kps[n];
			n++;
		}
		if (n)
			unregister_kprobes(held, n);
		if (fatal_signal_pending(current))
			ret = -EINTR;
		cond_resched();
	}
out:
	kfree(held);
	kfree(kps);
	return ret;
}

/* Make the answer for @symbol: the new pc_offsets_text, under the lock. */
static int pc_offsets_answer(const char *symbol)
{
	unsigned long size, tried, offset, *ok;
	size_t len, used;
	char *text;
	int ret;

	size = pc_function_size(symbol, &ret);
	if (ret == -ENOENT) {
		pc_warn_not_found("offsets", symbol, symbol);
		return ret;
	}
	if (ret) {
		pr_warn("offsets: %s: kprobes refuses even its start: error %d (on the kprobe blacklist?)\n",
			symbol, ret);
		return ret;
	}
	tried = min_t(unsigned long, size, PC_OFFSETS_CAP);
	ok = bitmap_zalloc(tried, GFP_KERNEL);
	if (!ok)
		return -ENOMEM;
	ret = pc_scan(symbol, tried, ok);
	if (ret) {
		bitmap_free(ok);
		return ret;
	}
	/* Two comment lines, then "0x" and up to 8 digits a line. */
	len = 2 * (PC_SYMBOL_MAX + 96) + bitmap_weight(ok, tried) * 12;
	text = kvmalloc(len, GFP_KERNEL);
	if (!text) {
		bitmap_free(ok);
		return -ENOMEM;
	}
	used = scnprintf(text, len, "# %s: %lu bytes, %u offsets kprobes takes\n",
			 symbol, size, bitmap_weight(ok, tried));
	if (tried < size)
		used += scnprintf(text + used, len - used,
				  "# truncated: only the first %lu of %lu bytes were tried\n",
				  tried, size);
	for_each_set_bit(offset, ok, tried)
		used += scnprintf(text + used, len - used, "%#lx\n", offset);
	bitmap_free(ok);
	kvfree(pc_offsets_text);
	pc_offsets_text = text;
	pc_offsets_len = used;
	return 0;
}

static ssize_t pc_offsets_write(struct file *file, const char __user *ubuf,
				size_t count, loff_t *ppos)
{
	char symbol[PC_SYMBOL_MAX];
	struct pc_parse_error error;
	size_t len = count;
	char *buf;
	int ret;

	ret = pc_may_write("offsets", NULL);
	if (ret)
		return ret;
	if (!count)
		return 0;
	if (count > PC_OFFSETS_WRITE_MAX) {
		pr_warn("offsets: write one function's name, not %zu bytes\n",
			count);
		return -ENAMETOOLONG;
	}
	buf = memdup_user(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	if (buf[len - 1] == '\n')
		len--;
	ret = pc_parse_symbol(buf, len, symbol, &error);
	kfree(buf);
	if (ret) {
		pr_warn("offsets: column %zu: %s\n", error.pos + 1, error.why);
		return ret;
	}
	ret = mutex_lock_killable(&pc_offsets_lock);
	if (ret)
		return ret;
	ret = pc_offsets_answer(symbol);
	mutex_unlock(&pc_offsets_lock);
	return ret ? ret : count;
}

static ssize_t pc_offsets_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *ppos)
{
	ssize_t ret;

	/* A write may hold the lock for a whole scan: wait killably. */
	if (mutex_lock_killable(&pc_offsets_lock))
		return -EINTR;
	ret = simple_read_from_buffer(ubuf, count, ppos, pc_offsets_text,
				      pc_offsets_len);
	mutex_unlock(&pc_offsets_lock);
	return ret;
}

static const struct file_operations pc_offsets_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.read = pc_offsets_read,
	.write = pc_offsets_write,
	.llseek = default_llseek,
};

void pc_offsets_files(struct dentry *dir)
{
	debugfs_create_file("offsets", 0600, dir, NULL, &pc_offsets_fops);
}

/* After the files are gone: nobody reads the answer any more. */
void pc_offsets_exit(void)
{
	mutex_lock(&pc_offsets_lock);
	kvfree(pc_offsets_text);
	pc_offsets_text = NULL;
	pc_offsets_len = 0;
	mutex_unlock(&pc_offsets_lock);
}
