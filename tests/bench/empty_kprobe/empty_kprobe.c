// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark's yardstick: one kprobe with an empty handler, so that the
 * cost of a provoke-crash point can be compared with the cost of kprobes.
 */
#include <linux/kprobes.h>
#include <linux/module.h>

static char *symbol = "__x64_sys_getppid";
module_param(symbol, charp, 0400);
MODULE_PARM_DESC(symbol, "the function to probe");

static unsigned int offset;
module_param(offset, uint, 0400);
MODULE_PARM_DESC(offset, "the offset in it (0: its entry)");

static int pc_empty_handler(struct kprobe *kp, struct pt_regs *regs)
{
	return 0;
}

static struct kprobe pc_empty_kp = {
	.pre_handler = pc_empty_handler,
};

static int __init pc_empty_init(void)
{
	pc_empty_kp.symbol_name = symbol;
	pc_empty_kp.offset = offset;
	return register_kprobe(&pc_empty_kp);
}

static void __exit pc_empty_exit(void)
{
	unregister_kprobe(&pc_empty_kp);
}

module_init(pc_empty_init);
module_exit(pc_empty_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("An empty kprobe, the yardstick of the provoke-crash benchmark");
