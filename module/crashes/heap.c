// SPDX-License-Identifier: GPL-2.0
/*
 * Heap corruption: writes that SLUB debugging (slub_debug=FZPU) or KFENCE
 * must report.  Allocations are GFP_ATOMIC so that crash points with
 * preemption off can run them; the damage is a few bytes, aimed away from
 * the free pointer, so that a kernel without detection is not wrecked.
 */
#include <linux/compiler.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../provoke_crash.h"

/* A size that lands in kmalloc-1k, the cache the expected text names. */
#define PC_HEAP_SIZE	1024

int pc_crash_write_after_free(void)
{
	u8 *obj = kmalloc(PC_HEAP_SIZE, GFP_ATOMIC);
	u8 *again;

	if (!obj)
		return -ENOMEM;
	kfree(obj);
	/* Hide the freed pointer from the compiler's use-after-free checks. */
	OPTIMIZER_HIDE_VAR(obj);
	memset(obj + 2 * sizeof(void *), 0x78, sizeof(void *));

	/* SLUB checks the poison when it hands the object out again. */
	again = kmalloc(PC_HEAP_SIZE, GFP_ATOMIC);
	pr_info("write_after_free: reallocation %s the freed object\n",
		again == obj ? "returned" : "did not return");
	kfree(again);
	return 0;
}

int pc_crash_overwrite_allocation(void)
{
	/* 1020 bytes in a 1024-byte object: the store at 1024 is past it. */
	size_t len = PC_HEAP_SIZE - sizeof(u32);
	u32 *obj = kmalloc(len, GFP_ATOMIC);

	if (!obj)
		return -ENOMEM;
	OPTIMIZER_HIDE_VAR(obj);
	obj[PC_HEAP_SIZE / sizeof(u32)] = 0x78787878;
	/* SLUB checks the red zone when the object is freed. */
	kfree(obj);
	return 0;
}
