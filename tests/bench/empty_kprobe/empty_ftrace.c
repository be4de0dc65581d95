// SPDX-License-Identifier: GPL-2.0
/*
 * The benchmark's second yardstick: one ftrace_ops with an empty callback
 * (recursion guard only) on the same function, the floor that the
 * fast path for function-entry crash points is compared with.
 */
#include <linux/ftrace.h>
#include <linux/kprobes.h>
#include <linux/module.h>

static char *symbol = "__x64_sys_getppid";
module_param(symbol, charp, 0400);
MODULE_PARM_DESC(symbol, "the function to trace");

static void notrace pc_empty_callback(unsigned long ip, unsigned long parent_ip,
				      struct ftrace_ops *op,
				      struct ftrace_regs *fregs)
{
	int bit = ftrace_test_recursion_trylock(ip, parent_ip);

	if (bit >= 0)
		ftrace_test_recursion_unlock(bit);
}

static struct ftrace_ops pc_empty_ops = {
	.func = pc_empty_callback,
};

/*
 * Find the call site as kprobes (and so provoke-crash) does: ftrace's own
 * name filter sees only one of a function's aliases.
 */
static int __init pc_empty_init(void)
{
	struct kprobe kp = { .symbol_name = symbol,
			     .flags = KPROBE_FLAG_DISABLED };
	unsigned long ip;
	int ret;

	ret = register_kprobe(&kp);
	if (ret)
		return ret;
	ip = (unsigned long)kp.addr;
	unregister_kprobe(&kp);
	ret = ftrace_set_filter_ip(&pc_empty_ops, ip, 0, 0);
	if (ret)
		return ret;
	return register_ftrace_function(&pc_empty_ops);
}

static void __exit pc_empty_exit(void)
{
	unregister_ftrace_function(&pc_empty_ops);
}

module_init(pc_empty_init);
module_exit(pc_empty_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("An empty ftrace_ops, a yardstick of the provoke-crash benchmark");
