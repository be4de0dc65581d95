// SPDX-License-Identifier: GPL-2.0
/*
 * Heap corruption and hygiene: writes that SLUB debugging
 * (slub_debug=FZPU) or KFENCE must report, frees the allocators must
 * refuse, and the wiping that init_on_alloc and init_on_free promise.
 * Allocations are GFP_ATOMIC so that crash points with preemption off can
 * run them; the damage is a few bytes, aimed away from the free pointer,
 * so that a kernel without detection is not wrecked.
 */
#include <linux/compiler.h>
#include <linux/delay.h>
#include <linux/gfp.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/sched/clock.h>
#include <linux/string.h>
#include <linux/vmalloc.h>

#include "../provoke_crash.h"

/* A size that lands in kmalloc-1k, the cache the heap types' texts name. */
#define PC_HEAP_SIZE	1024

/*
 * Away from where SLUB keeps its free pointer in a free object: at the
 * start, or (since 5.7, when nothing poisons the cache) in the middle.
 * Damage there would crash a later kmalloc-1k user, not be reported.
 */
#define PC_HEAP_OFFSET	(PC_HEAP_SIZE / 4)

/*
 * A read after free that saw the poison: where it was read, after the
 * verdict.  5.10's LKDTM selftest wants that trace ("call trace:", from
 * the BUG() its test raised there); later ones want the verdict.
 */
static void pc_poisoned(void)
{
	dump_stack();
}

/*
 * How many KFENCE sample intervals a caller waits for a guarded object:
 * the first allocation anywhere after an interval gets it, and on a busy
 * debug kernel others win most of them (500 were too few under load).
 */
#define PC_KFENCE_TRIES	3000

/*
 * With KFENCE sampling on (kfence.sample_interval=MS) KFENCE serves one
 * allocation per interval from its guarded pool: a caller that may sleep
 * waits for that one, so that the misuse is KFENCE's to report whatever
 * slub_debug says.  NULL otherwise: in atomic context, with sampling off,
 * or on kernels without CONFIG_PREEMPT_COUNT, where preemptible() cannot
 * tell that the caller may sleep.
 */
static void *pc_kfence_alloc(size_t size)
{
#ifdef CONFIG_KFENCE
	unsigned long interval = READ_ONCE(kfence_sample_interval);
	void *obj;
	int tries;

	if (interval && pc_may_sleep()) {
		for (tries = 0; tries < PC_KFENCE_TRIES; tries++) {
			obj = kmalloc(size, GFP_KERNEL);
			if (!obj || pc_is_kfence_address(obj))
				return obj;
			kfree(obj);
			msleep(interval);
		}
		pr_info("KFENCE served none of %d allocations: a slab object is used\n",
			PC_KFENCE_TRIES);
	}
#endif
	return NULL;
}

/* The object a heap type misuses: KFENCE's if it can be had, else a slab one. */
static void *pc_heap_alloc(size_t size)
{
	return pc_kfence_alloc(size) ?: kmalloc(size, GFP_ATOMIC);
}

int pc_crash_overwrite_allocation(void)
{
	/* 1020 bytes in a 1024-byte object: the store at 1024 is past it. */
	size_t len = PC_HEAP_SIZE - sizeof(u32);
	u32 *obj = pc_heap_alloc(len);

	if (!obj)
		return -ENOMEM;
	OPTIMIZER_HIDE_VAR(obj);
	obj[PC_HEAP_SIZE / sizeof(u32)] = 0x78787878;
	/* SLUB checks the red zone when the object is freed. */
	kfree(obj);
	return 0;
}

int pc_crash_write_after_free(void)
{
	u8 *obj = pc_heap_alloc(PC_HEAP_SIZE);
	u8 *again;

	if (!obj)
		return -ENOMEM;
	kfree(obj);
	/* Hide the freed pointer from the compiler's use-after-free checks. */
	OPTIMIZER_HIDE_VAR(obj);
	/* A store of our own, not memset(): the report names this routine. */
	WRITE_ONCE(*(unsigned long *)(obj + PC_HEAP_OFFSET), ~0UL / 0xff * 0x78);

	/* SLUB checks the poison when it hands the object out again. */
	again = kmalloc(PC_HEAP_SIZE, GFP_ATOMIC);
	pr_info("write_after_free: reallocation %s the freed object\n",
		again == obj ? "returned" : "did not return");
	kfree(again);
	return 0;
}

int pc_crash_read_after_free(void)
{
	u8 *obj = pc_heap_alloc(PC_HEAP_SIZE);
	u8 seen;

	if (!obj)
		return -ENOMEM;
	memset(obj, 0x78, PC_HEAP_SIZE);
	kfree(obj);
	OPTIMIZER_HIDE_VAR(obj);
	seen = READ_ONCE(obj[PC_HEAP_OFFSET]);
	/*
	 * KFENCE faults on the read and reports it, KASAN reports it before
	 * it happens; neither poisons.
	 */
	if (pc_is_kfence_address(obj)) {
		pr_info("read_after_free: the freed object was KFENCE's\n");
	} else if (IS_ENABLED(CONFIG_KASAN_GENERIC)) {
		pr_info("read_after_free: the read was KASAN's to report (it read 0x%02x)\n",
			seen);
	} else if (seen == POISON_FREE) {
		pr_info("read_after_free: the freed object reads as poison 0x%02x: Memory correctly poisoned\n",
			seen);
		pc_poisoned();
	} else {
		pr_err("FAIL: read_after_free: the freed object still reads 0x%02x: no poisoning (slub_debug=P)\n",
		       seen);
	}
	return 0;
}

/*
 * The same read, of an object KFENCE must guard: its page is protected
 * once freed, so the read faults and KFENCE reports it whatever the slab
 * debugging.  It waits for KFENCE's next sample: task context.
 */
int pc_crash_kfence_read_after_free(void)
{
	u8 *obj;
	u8 seen;

	if (!IS_ENABLED(CONFIG_KFENCE)) {
		pc_expected_config("kfence_read_after_free", "CONFIG_KFENCE", false);
		return -EOPNOTSUPP;
	}
	obj = pc_heap_alloc(PC_HEAP_SIZE);
	if (!obj)
		return -ENOMEM;
	if (!pc_is_kfence_address(obj)) {
		kfree(obj);
		pr_err("XFAIL: kfence_read_after_free: KFENCE served no allocation (kfence.sample_interval=0, or too busy)\n");
		return -EOPNOTSUPP;
	}
	memset(obj, 0x78, PC_HEAP_SIZE);
	kfree(obj);
	OPTIMIZER_HIDE_VAR(obj);
	pr_info("kfence_read_after_free: reading KFENCE's freed object at %p\n",
		obj);
	seen = READ_ONCE(obj[PC_HEAP_OFFSET]);
	pr_info("kfence_read_after_free: the read went on and saw 0x%02x\n", seen);
	return 0;
}

int pc_crash_write_buddy_after_free(void)
{
	unsigned long page = __get_free_page(GFP_ATOMIC);
	unsigned long again;

	if (!page)
		return -ENOMEM;
	free_page(page);
	OPTIMIZER_HIDE_VAR(page);
	/* One word in the middle: page poisoning checks it on reallocation. */
	WRITE_ONCE(*(unsigned long *)(page + PAGE_SIZE / 2), 0x7878787878787878UL);
	again = __get_free_page(GFP_ATOMIC);
	pr_info("write_buddy_after_free: reallocation %s the freed page\n",
		again == page ? "returned" : "did not return");
	free_page(again);
	if (!IS_ENABLED(CONFIG_PAGE_POISONING))
		pr_err("FAIL: write_buddy_after_free: nothing checks freed pages (CONFIG_PAGE_POISONING)\n");
	return 0;
}

int pc_crash_read_buddy_after_free(void)
{
	unsigned long page = __get_free_page(GFP_ATOMIC);
	unsigned long seen;

	if (!page)
		return -ENOMEM;
	memset((void *)page, 0x78, PAGE_SIZE);
	free_page(page);
	OPTIMIZER_HIDE_VAR(page);
	seen = READ_ONCE(*(unsigned long *)(page + PAGE_SIZE / 2));
	if (!seen) {
		pr_info("read_buddy_after_free: the freed page reads as zero: Memory correctly poisoned\n");
		pc_poisoned();
	} else {
		pr_err("FAIL: read_buddy_after_free: the freed page still reads %#lx: not wiped (init_on_free=1)\n",
		       seen);
	}
	return 0;
}

/*
 * double_free frees an object of its own cache, never one of kmalloc-1k.
 * Before 6.8, slab_free_freelist_hook() writes NULL into the free pointer
 * of an object freed on its own before slub_debug checks the free: a
 * second free of an object that has a free successor cuts the slab's free
 * list there, and a later allocation from that slab dereferences NULL. So
 * the object freed twice comes from a slab made full first: it is then
 * the only free object there, its free pointer is NULL already, and the
 * second free changes nothing but the report. Other users of a shared
 * cache would refill that slab behind our back.
 *
 * The cache is made at load (the type may run in atomic context) and
 * destroyed at unload. pc_double_free_lock serializes runs, and guards
 * pc_double_free_held, the objects one run holds to fill the slab. A
 * run takes it with interrupts off (a raw spinlock: on PREEMPT_RT a
 * spinlock_t sleeps, and sparse finds its trylock's context unbalanced);
 * pc_double_free_busy stops a point in our own allocations from running
 * it again on the same CPU.
 */
#define PC_DOUBLE_FREE_MAX	64
/* How long a run waits for another, then gives up. */
#define PC_DOUBLE_FREE_WAIT_NS	(2 * NSEC_PER_SEC)
static struct kmem_cache *pc_double_free_cache;
static void *pc_double_free_held[PC_DOUBLE_FREE_MAX];
static DEFINE_RAW_SPINLOCK(pc_double_free_lock);
static DEFINE_PER_CPU(bool, pc_double_free_busy);

/* A constructor keeps a cache apart: SLUB never merges one that has it. */
static void pc_unmerged_ctor(void *obj)
{
}

int pc_heap_init(void)
{
	/*
	 * Checked whatever slub_debug= says (from 5.12: before, SLUB checks
	 * no cache unless slub_debug= is on the boot line, which the type
	 * asks for); debug flags are never merged.
	 */
	pc_double_free_cache = kmem_cache_create("pc_double_free",
						 PC_HEAP_SIZE, 0,
						 SLAB_CONSISTENCY_CHECKS |
						 SLAB_RED_ZONE | SLAB_STORE_USER,
						 NULL);
	return pc_double_free_cache ? 0 : -ENOMEM;
}

void pc_heap_exit(void)
{
	kmem_cache_destroy(pc_double_free_cache);
}

/*
 * Allocate until an object comes from a second slab, which leaves the
 * first one full: a debug cache hands out one object at a time from the
 * head of the node's partial list. (On NUMA, a first slab taken from
 * another node's list may be left early, now and then: not guarded.)
 * KFENCE's objects are held but do not count. Returns how many objects
 * are held, and in *victim the index of the first slab object, or -1
 * unless a second slab was reached.
 */
static int pc_fill_first_slab(int *victim)
{
	struct page *first = NULL;
	int held;

	*victim = -1;
	for (held = 0; held < PC_DOUBLE_FREE_MAX; held++) {
		void *obj = kmem_cache_alloc(pc_double_free_cache,
					     GFP_ATOMIC | __GFP_NOWARN);

		if (!obj)
			break;
		pc_double_free_held[held] = obj;
		if (pc_is_kfence_address(obj))
			continue;
		if (!first) {
			first = virt_to_head_page(obj);
			*victim = held;
		} else if (virt_to_head_page(obj) != first) {
			return held + 1;
		}
	}
	*victim = -1;
	return held;
}

/* Inlined: KASAN names the function that frees, and the type's text names us. */
static __always_inline int pc_slab_double_free(void)
{
	unsigned long flags;
	int held, victim, i;
	u64 deadline;
	void *obj;

	local_irq_save(flags);
	if (__this_cpu_read(pc_double_free_busy)) {
		local_irq_restore(flags);
		pr_warn("double_free: hit again inside its own run on this CPU: not run\n");
		return -EDEADLK;
	}
	__this_cpu_write(pc_double_free_busy, true);
	deadline = local_clock() + PC_DOUBLE_FREE_WAIT_NS;
	while (!raw_spin_trylock(&pc_double_free_lock)) {
		if (local_clock() > deadline) {
			__this_cpu_write(pc_double_free_busy, false);
			local_irq_restore(flags);
			pr_warn("double_free: another run held its cache for 2 s: not run\n");
			return -EBUSY;
		}
		cpu_relax();
	}
	held = pc_fill_first_slab(&victim);
	if (victim >= 0) {
		obj = pc_double_free_held[victim];
		kmem_cache_free(pc_double_free_cache, obj);
		OPTIMIZER_HIDE_VAR(obj);
		/* SLUB's consistency checks find it on the free list already. */
		kmem_cache_free(pc_double_free_cache, obj);
	}
	for (i = 0; i < held; i++)
		if (i != victim)
			kmem_cache_free(pc_double_free_cache,
					pc_double_free_held[i]);
	raw_spin_unlock(&pc_double_free_lock);
	__this_cpu_write(pc_double_free_busy, false);
	local_irq_restore(flags);
	if (victim < 0) {
		pr_warn("double_free: no slab of its cache was seen full (%d objects held): not run\n",
			held);
		return -EAGAIN;
	}
	return 0;
}

int pc_crash_double_free(void)
{
	void *obj = pc_kfence_alloc(PC_HEAP_SIZE);

	/* A KFENCE object when sampling serves one, else our own slab's. */
	if (!obj)
		return pc_slab_double_free();
	kfree(obj);
	OPTIMIZER_HIDE_VAR(obj);
	/* KFENCE finds its object free already. */
	kfree(obj);
	return 0;
}

int pc_crash_slab_free_wrong_cache(void)
{
	struct kmem_cache *a, *b;
	void *obj;

	a = kmem_cache_create("pc-wrong-a", 64, 0, SLAB_CONSISTENCY_CHECKS,
			      pc_unmerged_ctor);
	b = kmem_cache_create("pc-wrong-b", 64, 0, SLAB_CONSISTENCY_CHECKS,
			      pc_unmerged_ctor);
	if (!a || !b) {
		kmem_cache_destroy(a);
		kmem_cache_destroy(b);
		return -ENOMEM;
	}
	obj = kmem_cache_alloc(a, GFP_KERNEL);
	if (obj) {
		/* SLUB finds the real cache, warns, and frees it there. */
		kmem_cache_free(b, obj);
	}
	kmem_cache_destroy(a);
	kmem_cache_destroy(b);
	return obj ? 0 : -ENOMEM;
}

int pc_crash_slab_free_page(void)
{
	unsigned long page = __get_free_page(GFP_ATOMIC);

	if (!page)
		return -ENOMEM;
	/* An order-0 page is never a kmalloc object: kfree() warns. */
	kfree((void *)page);
	return 0;
}

int pc_crash_slab_init_on_alloc(void)
{
	u8 *obj = kmalloc(PC_HEAP_SIZE, GFP_ATOMIC);
	u8 *again;
	int ret = 0;

	if (!obj)
		return -ENOMEM;
	memset(obj, 0x78, PC_HEAP_SIZE);
	kfree(obj);
	again = kmalloc(PC_HEAP_SIZE, GFP_ATOMIC);
	if (again != obj && IS_ENABLED(CONFIG_KASAN_GENERIC)) {
		/* The table's !CONFIG_KASAN_GENERIC: LKDTM's tooling reads this. */
		pr_err("XFAIL: slab_init_on_alloc: KASAN's quarantine keeps the freed object from coming back\n");
		ret = -EOPNOTSUPP;
	} else if (again != obj) {
		pr_err("slab_init_on_alloc: the freed object did not come back; try again\n");
		ret = -EAGAIN;
	} else if (!again[PC_HEAP_OFFSET]) {
		pr_info("slab_init_on_alloc: the reused object reads as zero: Memory appears initialized\n");
	} else if (again[PC_HEAP_OFFSET] == POISON_FREE) {
		/* slub_debug=P poisons the cache and turns init_on_alloc off. */
		pr_info("slab_init_on_alloc: the reused object reads as slub_debug's poison 0x%02x, not our data: Memory appears initialized\n",
			again[PC_HEAP_OFFSET]);
	} else {
		pr_err("FAIL: slab_init_on_alloc: the reused object reads 0x%02x: not wiped (init_on_alloc=1)\n",
		       again[PC_HEAP_OFFSET]);
	}
	kfree(again);
	return ret;
}

int pc_crash_buddy_init_on_alloc(void)
{
	unsigned long page = __get_free_page(GFP_ATOMIC);
	unsigned long again, seen;
	int ret = 0;

	if (!page)
		return -ENOMEM;
	memset((void *)page, 0x78, PAGE_SIZE);
	free_page(page);
	again = __get_free_page(GFP_ATOMIC);
	seen = again ? *(unsigned long *)(again + PAGE_SIZE / 2) : 0;
	if (again != page) {
		pr_err("buddy_init_on_alloc: the freed page did not come back; try again\n");
		ret = -EAGAIN;
	} else if (!seen) {
		pr_info("buddy_init_on_alloc: the reused page reads as zero: Memory appears initialized\n");
	} else {
		pr_err("FAIL: buddy_init_on_alloc: the reused page reads %#lx: not wiped (init_on_alloc=1)\n",
		       seen);
	}
	free_page(again);
	return ret;
}

int pc_crash_vmalloc_linear_overflow(void)
{
	u8 *area = vmalloc(PAGE_SIZE);

	if (!area)
		return -ENOMEM;
	/* vmalloc leaves a guard page after each area: the store faults. */
	OPTIMIZER_HIDE_VAR(area);
	WRITE_ONCE(area[PAGE_SIZE], 0x78);
	vfree(area);
	return 0;
}
