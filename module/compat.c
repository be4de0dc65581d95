// SPDX-License-Identifier: GPL-2.0
/*
 * The compatibility layer's code: what compat.h cannot bridge inline.
 */
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/string.h>
#ifdef CONFIG_X86_64
#include <asm/special_insns.h>
#include <asm/tlbflush.h>
#endif

#include "compat.h"

#if defined(CONFIG_X86_64) && defined(PC_HAVE_CR4_UPDATE_EXPORT)
/* cr4_update_irqsoff() keeps the CPU's shadow of CR4 in step. */
int pc_cr4_clear_pinned(unsigned long bits, unsigned long *after)
{
	unsigned long flags;

	local_irq_save(flags);
	cr4_update_irqsoff(0, bits);
	*after = native_read_cr4();
	cr4_update_irqsoff(bits, 0);
	local_irq_restore(flags);
	return 0;
}
#elif defined(CONFIG_X86_64)
/* endbr64: the only instruction an indirect call may land on under IBT. */
static const u8 pc_endbr64[] = { 0xf3, 0x0f, 0x1e, 0xfa };

typedef void (*pc_cr4_writer)(unsigned long cr4);

/*
 * native_write_cr4() itself, found by a disabled kprobe (it is not
 * exported); NULL once it logged why it cannot be called.  kprobes
 * places the probe after an endbr64: the function starts there.
 */
static pc_cr4_writer pc_find_native_write_cr4(void)
{
	struct kprobe kp = {
		.symbol_name = "native_write_cr4",
		.flags = KPROBE_FLAG_DISABLED,
	};
	u8 *start;
	int ret;

	ret = register_kprobe(&kp);
	if (ret) {
		pr_err("native_write_cr4 cannot be found (kprobes: %d); cr4_update_irqsoff is not exported to modules here\n",
		       ret);
		return NULL;
	}
	start = (u8 *)kp.addr;
	unregister_kprobe(&kp);
	if (!memcmp(start - sizeof(pc_endbr64), pc_endbr64, sizeof(pc_endbr64)))
		start -= sizeof(pc_endbr64);
	if (IS_ENABLED(CONFIG_X86_KERNEL_IBT) &&
	    memcmp(start, pc_endbr64, sizeof(pc_endbr64))) {
		pr_err("native_write_cr4 takes no indirect call here (IBT, no endbr64), and cr4_update_irqsoff is not exported to modules\n");
		return NULL;
	}
	return (pc_cr4_writer)start;
}

/* The same value is written back: the CPU's shadow of CR4 stays true. */
int pc_cr4_clear_pinned(unsigned long bits, unsigned long *after)
{
	pc_cr4_writer write_cr4 = pc_find_native_write_cr4();
	unsigned long flags, cr4;

	if (!write_cr4)
		return -EOPNOTSUPP;
	local_irq_save(flags);
	cr4 = native_read_cr4();
	write_cr4(cr4 & ~bits);
	*after = native_read_cr4();
	write_cr4(cr4);
	local_irq_restore(flags);
	return 0;
}
#endif
