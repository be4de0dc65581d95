// SPDX-License-Identifier: GPL-2.0
/*
 * Hardened usercopy (CONFIG_HARDENED_USERCOPY): copies between user
 * memory and kernel objects, stack frames or text that run past what may
 * be copied.  Each copy must stop with "usercopy: Kernel memory ...
 * attempt detected" and a BUG, before any byte moves.  Copies need a
 * process with user memory, so these run in task context only.
 */
#include <linux/compiler.h>
#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/sched.h>
#include <linux/sched/task_stack.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "../provoke_crash.h"

#define PC_OBJ_SIZE	64	/* kmalloc-64, or the smallest cache above */
#define PC_WL_OFFSET	16	/* the whitelisted region of pc-usercopy */
#define PC_WL_SIZE	16

/* @len bytes of the current process to copy to and from, or an error. */
static unsigned long pc_user_buffer(size_t len)
{
	if (!current->mm)
		return -EINVAL;
	return vm_mmap(NULL, 0, PAGE_ALIGN(len), PROT_READ | PROT_WRITE,
		       MAP_ANONYMOUS | MAP_PRIVATE, 0);
}

/* One copy in the direction asked; the length is hidden from the compiler. */
static int pc_copy(bool to_user, void *obj, size_t len, const char *what)
{
	unsigned long addr = pc_user_buffer(len);
	void __user *ubuf = (void __user *)addr;
	unsigned long left;

	if (IS_ERR_VALUE(addr))
		return (int)addr;
	OPTIMIZER_HIDE_VAR(len);
	OPTIMIZER_HIDE_VAR(obj);
	pr_info("usercopy: %zu bytes %s %s at %p\n", len,
		to_user ? "from" : "to", what, obj);
	if (to_user)
		left = copy_to_user(ubuf, obj, len);
	else
		left = copy_from_user(obj, ubuf, len);
	pr_err("FAIL: usercopy: copied %zu bytes %s %s (CONFIG_HARDENED_USERCOPY)\n",
	       len - left, to_user ? "from" : "to", what);
	vm_munmap(addr, PAGE_ALIGN(len));
	return 0;
}

/*
 * From the object's start, past its end: twice its size out, one word in
 * (a missed check then clobbers little).  The object is as big as its
 * cache: kmalloc(64) comes from kmalloc-128 where DMA alignment makes
 * that the smallest cache (arm64).
 */
static int pc_heap_size(bool to_user)
{
	void *obj = kzalloc(PC_OBJ_SIZE, GFP_KERNEL);
	size_t size, len;
	char what[32];
	int ret;

	if (!obj)
		return -ENOMEM;
	size = ksize(obj);
	len = to_user ? 2 * size : size + sizeof(long);
	snprintf(what, sizeof(what), "a kmalloc-%zu object", size);
	ret = pc_copy(to_user, obj, len, what);
	kfree(obj);
	return ret;
}

int pc_crash_usercopy_heap_size_to(void)
{
	return pc_heap_size(true);
}

int pc_crash_usercopy_heap_size_from(void)
{
	return pc_heap_size(false);
}

/* The first PC_WL_SIZE bytes: in the object, outside its whitelist. */
static int pc_heap_whitelist(bool to_user)
{
	struct kmem_cache *cache;
	void *obj;
	int ret = -ENOMEM;

	cache = kmem_cache_create_usercopy("pc-usercopy", PC_OBJ_SIZE, 0, 0,
					   PC_WL_OFFSET, PC_WL_SIZE, NULL);
	if (!cache)
		return -ENOMEM;
	obj = kmem_cache_zalloc(cache, GFP_KERNEL);
	if (obj) {
		ret = pc_copy(to_user, obj, PC_WL_SIZE,
			      "outside pc-usercopy's whitelist");
		kmem_cache_free(cache, obj);
	}
	kmem_cache_destroy(cache);
	return ret;
}

int pc_crash_usercopy_heap_whitelist_to(void)
{
	return pc_heap_whitelist(true);
}

int pc_crash_usercopy_heap_whitelist_from(void)
{
	return pc_heap_whitelist(false);
}

/*
 * The address of a buffer in a frame that has returned: below the stack
 * pointer of whoever copies, where no live object can be.  The buffer is
 * big, and its low end is used, so the copy path's own frames stay above.
 */
static noinline void *pc_dead_frame(void)
{
	char buf[1024];
	void *addr = buf;

	memset(buf, 0x5a, sizeof(buf));
	OPTIMIZER_HIDE_VAR(addr);
	return addr;
}

/*
 * Hardened usercopy finds a returned frame by the stack depth (5.18,
 * where the arch has current_stack_pointer), or before that on x86 by
 * walking the frame pointers.
 */
static int pc_stack_frame(bool to_user, const char *name)
{
	if (!IS_ENABLED(CONFIG_ARCH_HAS_CURRENT_STACK_POINTER) &&
	    !IS_ENABLED(CONFIG_UNWINDER_FRAME_POINTER)) {
		pr_err("XFAIL: %s: hardened usercopy checks a stack object's frame only by the stack depth (CONFIG_ARCH_HAS_CURRENT_STACK_POINTER, 5.18) or by frame pointers, and this kernel has neither\n",
		       name);
		return -EOPNOTSUPP;
	}
	return pc_copy(to_user, pc_dead_frame(), 32, "a returned stack frame");
}

int pc_crash_usercopy_stack_frame_to(void)
{
	return pc_stack_frame(true, "usercopy_stack_frame_to");
}

int pc_crash_usercopy_stack_frame_from(void)
{
	return pc_stack_frame(false, "usercopy_stack_frame_from");
}

int pc_crash_usercopy_stack_beyond(void)
{
	/* Starts inside the stack and runs 16 bytes past its end. */
	void *top = task_stack_page(current) + THREAD_SIZE;

	return pc_copy(true, top - 16, 32, "the end of the stack");
}

int pc_crash_usercopy_kernel(void)
{
	/* vm_mmap() is in the core kernel's text, like all of it. */
	return pc_copy(true, (void *)vm_mmap, 64, "the kernel's text");
}

/*
 * A one-page vmalloc area spans two pages with its guard page: the copy
 * runs two pages and a word from its start.  Unchecked, it would stop at
 * the guard page's fault, which the copy's fixup absorbs on x86-64.  The
 * expected sizes in the table are for 4 KiB pages (Debian's, both
 * architectures).
 */
int pc_crash_usercopy_vmalloc(void)
{
	void *area = vzalloc(PAGE_SIZE);
	int ret;

	if (!area)
		return -ENOMEM;
	ret = pc_copy(true, area, 2 * PAGE_SIZE + sizeof(long),
		      "a one-page vmalloc area");
	vfree(area);
	return ret;
}

/*
 * A two-page folio (a compound page: order-0 pages are not checked) and
 * a copy from its last page, one word past its end.
 */
int pc_crash_usercopy_folio(void)
{
	struct page *page = alloc_pages(GFP_KERNEL | __GFP_ZERO | __GFP_COMP, 1);
	int ret;

	if (!page)
		return -ENOMEM;
	ret = pc_copy(true, page_address(page) + PAGE_SIZE,
		      PAGE_SIZE + sizeof(long), "the last page of a folio");
	__free_pages(page, 1);
	return ret;
}
