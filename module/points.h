/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The point registry, under its pc_points_lock; each point's state as
 * enum pc_point_state tells.  Two files, the second built on the first:
 *
 * points.c: the list and its lock, lookups on it, and a write's
 * transaction.  pc_point_drop() and pc_points_drop_all(): a line
 * disarms points.  pc_points_enable(): enable the staged points'
 * probes, all or none; their hits are ignored until pc_points_commit()
 * arms them and frees the points the write disarmed.
 * pc_points_abort(): free the staged points, keep the disarmed ones.
 * pc_points_free_all(): at unload.
 *
 * point_stage.c: pc_point_stage(): create, check and register (disabled)
 * a point for a parsed line, and add it to the list: STAGED.
 *
 * offsets.c needs no lock of theirs: it has its own (pc_offsets_lock).
 */
#ifndef PROVOKE_CRASH_POINTS_H
#define PROVOKE_CRASH_POINTS_H

#include <linux/slab.h>

#include "crashpoint.h"

extern struct list_head pc_points;

/* A %return point of a type that returns; fatal ones are entry probes. */
static inline bool pc_is_kretprobe(const struct pc_point *point)
{
	return point->on_return && !point->redirect;
}

/*
 * points.c's lookups.  pc_find_by_addr(): the point other than @self
 * that a write keeps at this probe address (for point_stage.c's check
 * that a place is armed once).  pc_find_by_place(): the one at @line's
 * place, for a disarm.  pc_probe_missed(): for the listing.
 */
struct pc_point *pc_find_by_addr(kprobe_opcode_t *addr, bool on_return,
				 const struct pc_point *self);
struct pc_point *pc_find_by_place(const struct pc_line *line);
unsigned long pc_probe_missed(const struct pc_point *point);
/* Take a point's probe out; point_stage.c too, for a point it refuses. */
void pc_unregister(struct pc_point *point);

/* A point and what it holds (its callers). */
static inline void pc_point_free(struct pc_point *point)
{
	kfree(point->callers);
	kfree(point);
}

/*
 * point_caller.c.  pc_point_callers(): resolve @line's caller conditions
 * into @point's address ranges (logs why not).  pc_callers_init() and
 * pc_callers_exit(): its module notifier.
 */
int pc_point_callers(struct pc_point *point, const struct pc_line *line);
int pc_callers_init(void);
void pc_callers_exit(void);

/* point_stage.c.  pc_format_place(): SYMBOL[+0xOFFSET|%return]. */
void pc_format_place(char *buf, size_t len, const struct pc_line *line);
int pc_point_stage(const struct pc_line *line);

/* points.c: the transaction. */
void pc_point_drop(struct pc_point *point);
void pc_points_drop_all(void);
int pc_points_enable(void);
void pc_points_commit(void);
void pc_points_abort(void);
void pc_points_free_all(void);

/*
 * offsets.c: the offsets file, and the hints for a place kprobes refused.
 * pc_try_offset(): register @kp disabled at @symbol+@offset, as a point
 * resolves its symbol.  pc_symbol_bounds(): the start and size of the
 * function @addr is in, and whether a module's.  pc_function_size(): the
 * length of @symbol's function, or 0 and *@err.
 */
int pc_try_offset(struct kprobe *kp, const char *symbol,
		  unsigned long offset);
int pc_symbol_bounds(const void *addr, unsigned long *start,
		     unsigned long *size, bool *in_module);
unsigned long pc_function_size(const char *symbol, int *err);
void pc_warn_refused_offset(const char *place, const char *symbol,
			    unsigned long offset, unsigned long size, int err);
void pc_warn_not_found(const char *file, const char *place,
		       const char *symbol);
void pc_offsets_files(struct dentry *dir);
void pc_offsets_exit(void);

#endif /* PROVOKE_CRASH_POINTS_H */
