/* SPDX-License-Identifier: GPL-2.0 */
/* Declarations shared by the files of the provoke_crash module. */
#ifndef PROVOKE_CRASH_H
#define PROVOKE_CRASH_H

#include <linux/debugfs.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/types.h>

#include "compat.h"
#include "provoke_crash_defs.h"

struct pc_crash_type {
	const char *name;
	const char *lkdtm;	/* LKDTM's names for it, space-separated */
	const char *category;	/* the crashes/ file that implements it */
	const char *description;
	const char *needs;	/* kernel options and boot parameters it needs */
	int context;		/* PC_CTX_*: deepest context it may run in */
	int fate;		/* PC_FATE_* */
	/* 0, or a negative errno (-EINPROGRESS: the crash comes later). */
	int (*run)(void);
};

/* Built from the crash-type table in crashtypes.c, indexed by PC_TYPE_*. */
extern const struct pc_crash_type pc_crash_types[PC_NR_CRASH_TYPES];

/*
 * Run a crash routine; @where says who asked, for the log; @ms: ms= for
 * a type that stalls the path (PC_FATE_STALL), 0 for its default;
 * @trap: what a breakpoint trap's entry added to the preemption count
 * (pc_arch_trap_count()) when it runs in a kprobe's handler, else 0:
 * the log names the path's context, not the trap's.  Returns what the
 * routine returned (if it returns at all).
 */
int pc_crash_run_at(const struct pc_crash_type *type, const char *where,
		    unsigned int ms, unsigned int trap);

static inline int pc_crash_run(const struct pc_crash_type *type,
			       const char *where, unsigned int ms)
{
	return pc_crash_run_at(type, where, ms, 0);
}

/*
 * crashes/delays.c: run delay or spin at @where for @ms milliseconds; 0,
 * or an error once it said why (rate-limited, as a stall may sit on a hot
 * path with times=-1).
 */
int pc_crash_stall(const struct pc_crash_type *type, const char *where,
		   unsigned int ms);

/*
 * Whether the path a crash routine runs in may sleep.  preemptible() is
 * not enough: PREEMPT_RCU leaves an RCU read-side section preemptible
 * (and on PREEMPT_RT so are spinlock_t and local_bh_disable(), which take
 * rcu_read_lock()), but it must not block there; nor between a
 * set_current_state() and its schedule(), whose sleep ours would undo.
 */
static inline bool pc_may_sleep(void)
{
	return preemptible() && !rcu_preempt_depth() &&
	       pc_task_state(current) == TASK_RUNNING;
}

/*
 * Whether a crash routine that returned @ret did what @type names: a
 * report or silent type that ran, or a crash still to come
 * (-EINPROGRESS).  A fatal type that returns did not crash.
 */
static inline bool pc_crash_completed(const struct pc_crash_type *type,
				      int ret)
{
	if (ret == -EINPROGRESS)
		return true;
	return !ret && (type->fate == PC_FATE_REPORT ||
			type->fate == PC_FATE_SILENT ||
			type->fate == PC_FATE_STALL);
}

/*
 * 0 if @type can be seen on this machine: its architecture, and a second
 * online CPU for a type that needs one ("smp": on the only CPU a stall
 * or lockup would hang the machine with no report); else logs why not,
 * as "@file@where: ...", and returns -EOPNOTSUPP.
 */
int pc_type_check_machine(const struct pc_crash_type *type, const char *file,
			  const char *where);

/*
 * type_needs.c: the first CONFIG_ word of @type's needs (CONFIG_FOO or
 * !CONFIG_FOO, *@len bytes, in the table's string) that this kernel does
 * not meet, or NULL when it meets them all.
 */
const char *pc_type_unmet_config(const struct pc_crash_type *type, int *len);

/* The other architecture @type runs on only, or NULL. */
const char *pc_type_other_arch(const struct pc_crash_type *type);
/* "x86_64", "arm64", or "this architecture". */
const char *pc_this_arch(void);
/* Is @word one of the space-separated words of @words? */
bool pc_has_word(const char *words, const char *word);

/*
 * A crash routine that returned where a protection should have stopped
 * it: FAIL if this kernel has @config (enabled), else XFAIL naming it.
 */
void pc_expected_config(const char *name, const char *config, bool enabled);

/*
 * UBSAN reports each place in the source once per boot: which of the
 * type's @sites places this run uses (0, 1, ...), or -1 (and why, logged)
 * once @runs says all were used already.
 */
int pc_ubsan_site(const char *name, atomic_t *runs, int sites);

/*
 * core.c: 0 if the writer may write our files; else -EPERM, logged as
 * "@file: COMM[PID]: writing [@name ]needs CAP_SYS_ADMIN".
 */
int pc_may_write(const char *file, const char *name);

/* lkdtm.c: the DIRECT file, which takes LKDTM's test names. */
void pc_lkdtm_files(struct dentry *dir);

/* Name of a PC_CTX_* value, as shown in listings. */
const char *pc_context_name(int context);

/* crashes/interrupts.c: stop what a trigger may have left queued. */
void pc_interrupts_exit(void);

/* crashes/heap.c: the cache double_free frees into, made at load. */
int pc_heap_init(void);
void pc_heap_exit(void);

/*
 * control.c: pc_crashpoints_init() arms points= at load;
 * pc_crashpoints_files() adds the control file; pc_crashpoints_exit()
 * frees every point.  run_in_path.c: the slots of crashes in progress.
 */
int pc_crashpoints_init(void);
void pc_crashpoints_files(struct dentry *dir);
void pc_crashpoints_exit(void);
int pc_path_init(void);
void pc_path_drain(void);
void pc_path_exit(void);

/*
 * One prototype per crash routine, named after its table entry: a single
 * declaration whose list of declarators comes from the table.
 */
int
#define PC_CRASH_TYPE(name, ...) pc_crash_##name(void),
#include "provoke_crash_types.h"
	pc_crash_table_end(void);

#endif /* PROVOKE_CRASH_H */
