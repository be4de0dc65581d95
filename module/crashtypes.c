// SPDX-License-Identifier: GPL-2.0
/*
 * The module's view of the crash-type table: each entry of PC_CRASH_TYPES
 * bound to its routine, and the common wrapper that runs one.
 */
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/preempt.h>
#include <linux/printk.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <linux/string.h>

#include "provoke_crash.h"

const struct pc_crash_type pc_crash_types[PC_NR_CRASH_TYPES] = {
#define PC_CRASH_TYPE(_name, _lkdtm, _cat, _ctx, _fate, _needs, _desc, ...) \
	[PC_TYPE_##_name] = {						\
		.name = #_name,						\
		.lkdtm = _lkdtm,					\
		.category = #_cat,					\
		.description = _desc,					\
		.needs = _needs,					\
		.context = _ctx,					\
		.fate = _fate,						\
		.run = pc_crash_##_name,				\
	},
#include "provoke_crash_types.h"
};

/* This architecture, as the table's needs name it. */
#define PC_ARCH_NAME (IS_ENABLED(CONFIG_ARM64) ? "arm64" :		\
		      IS_ENABLED(CONFIG_X86_64) ? "x86_64" : "this architecture")

bool pc_has_word(const char *words, const char *word)
{
	size_t len = strlen(word);
	const char *p;

	for (p = words; (p = strstr(p, word)); p += len)
		if ((p == words || p[-1] == ' ') && (!p[len] || p[len] == ' '))
			return true;
	return false;
}

const char *pc_type_other_arch(const struct pc_crash_type *type)
{
	static const char *const arches[] = { "x86_64", "arm64", "powerpc" };
	int i;

	for (i = 0; i < ARRAY_SIZE(arches); i++)
		if (strcmp(arches[i], PC_ARCH_NAME) &&
		    pc_has_word(type->needs, arches[i]))
			return arches[i];
	return NULL;
}

const char *pc_this_arch(void)
{
	return PC_ARCH_NAME;
}

int pc_type_check_machine(const struct pc_crash_type *type, const char *file,
			  const char *where)
{
	const char *only = pc_type_other_arch(type);

	if (only) {
		pr_warn("%s%s: %s runs only on %s, and this kernel is %s\n",
			file, where, type->name, only, PC_ARCH_NAME);
		return -EOPNOTSUPP;
	}
	if (pc_has_word(type->needs, "smp") && num_online_cpus() < 2) {
		pr_warn("%s%s: %s needs a second CPU to be seen, and only one is online (on the only CPU a stall hangs the machine with no report)\n",
			file, where, type->name);
		return -EOPNOTSUPP;
	}
	return 0;
}

void pc_expected_config(const char *name, const char *config, bool enabled)
{
	if (enabled)
		pr_err("FAIL: %s: this kernel has %s=y, and it did not catch it\n",
		       name, config);
	else
		pr_err("XFAIL: %s: this kernel is built without %s=y\n",
		       name, config);
}

int pc_ubsan_site(const char *name, atomic_t *runs, int sites)
{
	int run = atomic_inc_return(runs) - 1;

	if (run < sites)
		return run;
	pr_err("%s: UBSAN has reported each of its %d places once this boot: no report is left\n",
	       name, sites);
	return -1;
}

const char *pc_context_name(int context)
{
	switch (context) {
	case PC_CTX_TASK:
		return "task";
	case PC_CTX_PREEMPT:
		return "preempt";
	case PC_CTX_IRQS:
		return "irqs";
	case PC_CTX_ATOMIC:
		return "atomic";
	case PC_CTX_NMI:
		return "nmi";
	}
	return "?";
}

/*
 * Where a hit runs when that is not a task's own call: an interrupt
 * (naming the task it came over, which did not make the call) or a
 * kernel thread.  Who ran the path is then not the task the crash's
 * report names, and the runner credits the hit by this line.  @trap:
 * the levels a breakpoint's entry added (x86's int3 enters as an NMI),
 * which are the handler's, not the path's.
 */
static void pc_say_context(const char *where, unsigned int trap)
{
	unsigned int count = preempt_count() - trap;
	const char *ctx = (count & NMI_MASK) ? "nmi" :
			  (count & HARDIRQ_MASK) ? "hardirq" :
			  in_serving_softirq() ? "softirq" : NULL;

	if (ctx)
		pr_info("%s: in %s context, over %s[%d] on CPU %d\n", where,
			ctx, current->comm, task_pid_nr(current),
			raw_smp_processor_id());
	else if (current->flags & PF_KTHREAD)
		pr_info("%s: in the kernel thread %s[%d] on CPU %d\n", where,
			current->comm, task_pid_nr(current),
			raw_smp_processor_id());
}

int pc_crash_run_at(const struct pc_crash_type *type, const char *where,
		    unsigned int ms, unsigned int trap)
{
	int ret;

	/* A stall says, in one line, what it is about to do or why not. */
	if (type->fate == PC_FATE_STALL) {
		pc_say_context(where, trap);
		return pc_crash_stall(type, where, ms);
	}
	pr_info("%s: %s: %s\n", where, type->name, type->description);
	pc_say_context(where, trap);
	ret = type->run();
	/* EOPNOTSUPP: the routine has said why (XFAIL: and the option). */
	if (ret && ret != -EINPROGRESS && ret != -EOPNOTSUPP)
		pr_err("%s: could not run: error %d\n", type->name, ret);

	/* An oops or a panic that returns means a protection is missing. */
	if (ret == 0 && (type->fate == PC_FATE_OOPS ||
			 type->fate == PC_FATE_PANIC ||
			 type->fate == PC_FATE_HANG))
		pr_err("FAIL: %s returned: the kernel survived a crash it should not have (needs: %s)\n",
		       type->name, type->needs[0] ? type->needs : "nothing more");
	return ret;
}
