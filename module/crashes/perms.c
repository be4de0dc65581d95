// SPDX-License-Identifier: GPL-2.0
/*
 * Memory permissions: writes to read-only data and to code, calls into
 * memory that must not be executable, and kernel accesses to user memory
 * (SMEP and SMAP) and to NULL; the pinning that keeps SMEP set in CR4.
 */
#include <linux/compiler.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#ifdef CONFIG_X86_64
#include <asm/special_insns.h>
#endif

#include "../compat.h"
#include "../provoke_crash.h"

/* The smallest function that returns at once, as machine code. */
#if defined(CONFIG_X86)
#define PC_RET_CODE	{ 0xf3, 0x0f, 0x1e, 0xfa, 0xc3 }	/* endbr64; ret */
#elif defined(CONFIG_ARM64)
#define PC_RET_CODE	{ 0x5f, 0x24, 0x03, 0xd5, 0xc0, 0x03, 0x5f, 0xd6 } /* bti c; ret */
#else
#define PC_RET_CODE	{ 0 }
#endif

static const u8 pc_ret_code_ro[] = PC_RET_CODE;
static u8 pc_ret_code_data[] = PC_RET_CODE;

static const unsigned long pc_rodata_word = 0x5a5a5a5a;
static unsigned long pc_ro_after_init_word __ro_after_init = 0x5a5a5a5a;

/* Call @code as a function; if it returns, nothing stopped it. */
static int pc_call(const void *code, const char *what)
{
	void (*fn)(void) = (void (*)(void))code;

	OPTIMIZER_HIDE_VAR(fn);
	pr_info("exec: calling code in %s at %p\n", what, code);
	fn();
	pr_err("FAIL: executed code in %s: that memory is executable\n", what);
	return 0;
}

int pc_crash_write_ro(void)
{
	unsigned long *ptr = (unsigned long *)&pc_rodata_word;

	OPTIMIZER_HIDE_VAR(ptr);
	WRITE_ONCE(*ptr, 0x78);
	return 0;
}

int pc_crash_write_ro_after_init(void)
{
	unsigned long *ptr = &pc_ro_after_init_word;

	OPTIMIZER_HIDE_VAR(ptr);
	WRITE_ONCE(*ptr, 0x78);
	return 0;
}

/* The function whose first bytes write_kern tries to overwrite. */
static noinline void pc_overwritten(void)
{
	pr_info("write_kern: the overwritten function still runs\n");
}

int pc_crash_write_kern(void)
{
	u8 *text = (u8 *)pc_overwritten;

	OPTIMIZER_HIDE_VAR(text);
	/* Store the byte that is already there: harmless if it lands. */
	WRITE_ONCE(*text, READ_ONCE(*text));
	pc_overwritten();
	return 0;
}

int pc_crash_exec_data(void)
{
	return pc_call(pc_ret_code_data, ".data");
}

int pc_crash_exec_stack(void)
{
	u8 code[16] = PC_RET_CODE;

	return pc_call(code, "the stack");
}

int pc_crash_exec_kmalloc(void)
{
	static const u8 code[] = PC_RET_CODE;
	u8 *buf = kmemdup(code, sizeof(code), GFP_ATOMIC);
	int ret;

	if (!buf)
		return -ENOMEM;
	ret = pc_call(buf, "a kmalloc object");
	kfree(buf);
	return ret;
}

int pc_crash_exec_vmalloc(void)
{
	static const u8 code[] = PC_RET_CODE;
	u8 *buf = vmalloc(PAGE_SIZE);
	int ret;

	if (!buf)
		return -ENOMEM;
	memcpy(buf, code, sizeof(code));
	ret = pc_call(buf, "vmalloc memory");
	vfree(buf);
	return ret;
}

int pc_crash_exec_rodata(void)
{
	return pc_call(pc_ret_code_ro, ".rodata");
}

/* A page of the current process: @prot of PROT_* bits. */
static unsigned long pc_user_page(unsigned long prot)
{
	unsigned long addr;

	if (!current->mm)
		return -EINVAL;
	addr = vm_mmap(NULL, 0, PAGE_SIZE, prot, MAP_ANONYMOUS | MAP_PRIVATE, 0);
	if (IS_ERR_VALUE(addr))
		pr_err("could not map a user page: error %ld\n", (long)addr);
	return addr;
}

int pc_crash_exec_userspace(void)
{
	static const u8 code[] = PC_RET_CODE;
	unsigned long addr = pc_user_page(PROT_READ | PROT_WRITE | PROT_EXEC);
	int ret;

	if (IS_ERR_VALUE(addr))
		return addr;
	if (copy_to_user((void __user *)addr, code, sizeof(code))) {
		vm_munmap(addr, PAGE_SIZE);
		return -EFAULT;
	}
	/* __force: calling user memory directly is the point of the test. */
	ret = pc_call((void __force *)addr, "user memory");
	vm_munmap(addr, PAGE_SIZE);
	return ret;
}

int pc_crash_access_userspace(void)
{
	unsigned long addr = pc_user_page(PROT_READ | PROT_WRITE);
	unsigned long *ptr, seen;

	if (IS_ERR_VALUE(addr))
		return addr;
	/* Fault the page in the proper way first: only SMAP can stop us. */
	if (put_user(0x5a5aUL, (unsigned long __user *)addr)) {
		vm_munmap(addr, PAGE_SIZE);
		return -EFAULT;
	}
	ptr = (unsigned long __force *)addr;
	OPTIMIZER_HIDE_VAR(ptr);
	seen = READ_ONCE(*ptr);
	pr_err("FAIL: access_userspace: read %#lx from user memory directly: no SMAP\n",
	       seen);
	vm_munmap(addr, PAGE_SIZE);
	return 0;
}

int pc_crash_access_null(void)
{
	unsigned long *ptr = NULL;

	OPTIMIZER_HIDE_VAR(ptr);
	return READ_ONCE(*ptr) ? 0 : 0;
}

int pc_crash_exec_null(void)
{
	return pc_call(NULL, "page 0");
}

#ifdef CONFIG_X86_64
/*
 * CR4 pinning: native_write_cr4() sets the pinned bits again when a
 * write clears them, and warns.  How a module reaches that write differs
 * between kernels: compat.c.
 */
int pc_crash_unset_smep(void)
{
	unsigned long after;
	int ret;

	if (!(native_read_cr4() & X86_CR4_SMEP)) {
		pr_err("XFAIL: unset_smep: SMEP is off in CR4: nothing is pinned to clear\n");
		return -EOPNOTSUPP;
	}
	ret = pc_cr4_clear_pinned(X86_CR4_SMEP, &after);
	if (ret) {
		pr_err("XFAIL: unset_smep: this kernel gives modules no way to write CR4\n");
		return ret;
	}
	if (after & X86_CR4_SMEP)
		pr_info("unset_smep: SMEP is still set in CR4: the pinning put it back\n");
	else
		pr_err("FAIL: unset_smep: CR4 lost SMEP (pinning off?); it is set again\n");
	return 0;
}
#else
int pc_crash_unset_smep(void)
{
	return -EOPNOTSUPP;	/* the table says x86_64: refused before */
}
#endif
