// SPDX-License-Identifier: GPL-2.0
/*
 * Array bounds: an index one past a fixed-size array, or past the count
 * that __counted_by gives a flexible array or a pointer, which the
 * compiler's bounds sanitizer (CONFIG_UBSAN_BOUNDS) checks at run time.
 * This file is built with UBSAN: the check is the point.  Each store lands
 * in memory the routine owns, so a kernel without the check is not
 * damaged.
 */
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/slab.h>

#include "../provoke_crash.h"

struct pc_bounds {
	int array[4];
	int next;	/* not a trailing array: the bound is enforced */
};

/*
 * UBSAN reports each place in the source once per boot: four stores,
 * taken in turn, are reported for the first four runs.
 */
#define PC_BOUNDS_SITES	4

int pc_crash_array_bounds(void)
{
	static atomic_t runs = ATOMIC_INIT(0);
	struct pc_bounds b = { };
	int index = ARRAY_SIZE(b.array);

	if (!IS_ENABLED(CONFIG_UBSAN_BOUNDS)) {
		pc_expected_config("array_bounds", "CONFIG_UBSAN_BOUNDS", false);
		return -EOPNOTSUPP;
	}
	OPTIMIZER_HIDE_VAR(index);
	switch (atomic_inc_return(&runs) - 1) {
	case 0:
		b.array[index] = 0x78;
		break;
	case 1:
		b.array[index] = 0x78;
		break;
	case 2:
		b.array[index] = 0x78;
		break;
	case 3:
		b.array[index] = 0x78;
		break;
	default:
		pr_err("array_bounds: UBSAN has reported each of its %d stores once this boot: no report is left\n",
		       PC_BOUNDS_SITES);
		return -EAGAIN;
	}
	pr_info("array_bounds: index %d stored past the array, as UBSAN reports\n",
		index);
	return 0;
}

/* 6.1 has no such annotations: there they mean nothing, as with gcc 12. */
#ifndef __counted_by
#define __counted_by(member)
#endif
#ifndef __counted_by_ptr
#define __counted_by_ptr(member)
#endif

/*
 * Without the sanitizer, or without a compiler that knows counted_by
 * (none before gcc 15; for pointer members, only the newest), nothing
 * checks the count: XFAIL, with the reason.
 */
static bool pc_counted_by_missing(const char *name, bool has_counted_by,
				  const char *config, const char *what)
{
	if (!IS_ENABLED(CONFIG_UBSAN_BOUNDS)) {
		pc_expected_config(name, "CONFIG_UBSAN_BOUNDS", false);
		return true;
	}
	if (!has_counted_by) {
		pr_err("XFAIL: %s: this kernel is built without %s=y: its compiler has no counted_by attribute for a %s\n",
		       name, config, what);
		return true;
	}
	return false;
}

/*
 * Room for one element more than the count says, so the store past the
 * bound stays in the allocation; ptr_bounds' count is another, so that
 * each type's report is its own. Each type has two stores, one per run:
 * UBSAN reports a place once a boot, and a guest may fire a type directly
 * and then at a point.
 */
#define PC_COUNTED_SITES	2
#define PC_COUNTED_FAM	8
#define PC_COUNTED_PTR	9

struct pc_fam {
	int count;
	int data[] __counted_by(count);
};

int pc_crash_fam_bounds(void)
{
	static atomic_t runs = ATOMIC_INIT(0);
	struct pc_fam *fam;
	int index = PC_COUNTED_FAM;
	int site;

	if (pc_counted_by_missing("fam_bounds",
				  IS_ENABLED(CONFIG_CC_HAS_COUNTED_BY),
				  "CONFIG_CC_HAS_COUNTED_BY", "flexible array"))
		return -EOPNOTSUPP;
	site = pc_ubsan_site("fam_bounds", &runs, PC_COUNTED_SITES);
	if (site < 0)
		return -EAGAIN;
	fam = kzalloc(struct_size(fam, data, PC_COUNTED_FAM + 1), GFP_ATOMIC);
	if (!fam) {
		pr_err("fam_bounds: no memory for the array\n");
		return -ENOMEM;
	}
	fam->count = PC_COUNTED_FAM;
	OPTIMIZER_HIDE_VAR(index);
	if (site == 0)
		fam->data[index] = 0x78;
	else
		fam->data[index] = 0x79;
	pr_info("fam_bounds: index %d stored past the count, as UBSAN reports\n",
		index);
	kfree(fam);
	return 0;
}

struct pc_ptr {
	int *data __counted_by_ptr(count);
	int count;
};

int pc_crash_ptr_bounds(void)
{
	static atomic_t runs = ATOMIC_INIT(0);
	struct pc_ptr p = { };
	int index = PC_COUNTED_PTR;
	int site;

	if (pc_counted_by_missing("ptr_bounds",
				  IS_ENABLED(CONFIG_CC_HAS_COUNTED_BY_PTR),
				  "CONFIG_CC_HAS_COUNTED_BY_PTR", "pointer"))
		return -EOPNOTSUPP;
	site = pc_ubsan_site("ptr_bounds", &runs, PC_COUNTED_SITES);
	if (site < 0)
		return -EAGAIN;
	p.data = kcalloc(PC_COUNTED_PTR + 1, sizeof(*p.data), GFP_ATOMIC);
	if (!p.data) {
		pr_err("ptr_bounds: no memory for the array\n");
		return -ENOMEM;
	}
	p.count = PC_COUNTED_PTR;
	OPTIMIZER_HIDE_VAR(index);
	if (site == 0)
		p.data[index] = 0x78;
	else
		p.data[index] = 0x79;
	pr_info("ptr_bounds: index %d stored past the count, as UBSAN reports\n",
		index);
	kfree(p.data);
	return 0;
}
