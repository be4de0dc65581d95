// SPDX-License-Identifier: GPL-2.0
/*
 * Linked-list corruption: list operations next to a clobbered pointer,
 * which CONFIG_DEBUG_LIST (with CONFIG_BUG_ON_DATA_CORRUPTION) turns into
 * a BUG before the list is damaged further.
 */
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/list.h>

#include "../provoke_crash.h"

/* A list on the caller's stack: nothing else can walk it. */
struct pc_list {
	struct list_head head, first, added;
};

int pc_crash_corrupt_list_add(void)
{
	struct pc_list l;
	struct list_head *bad;

	INIT_LIST_HEAD(&l.head);
	list_add(&l.first, &l.head);
	/* first->prev should point at head: make it point elsewhere. */
	bad = &l.added;
	OPTIMIZER_HIDE_VAR(bad);
	WRITE_ONCE(l.first.prev, bad);
	/* Inserting between head and first must notice. */
	list_add(&l.added, &l.head);
	pr_err("FAIL: corrupt_list_add: list_add() took a corrupted list (CONFIG_DEBUG_LIST)\n");
	return 0;
}

int pc_crash_corrupt_list_del(void)
{
	struct pc_list l;
	struct list_head *bad;

	INIT_LIST_HEAD(&l.head);
	list_add(&l.first, &l.head);
	list_add_tail(&l.added, &l.head);
	/* first's neighbour no longer points back at first. */
	bad = &l.head;
	OPTIMIZER_HIDE_VAR(bad);
	WRITE_ONCE(l.added.prev, bad);
	list_del(&l.first);
	pr_err("FAIL: corrupt_list_del: list_del() took a corrupted list (CONFIG_DEBUG_LIST)\n");
	return 0;
}
