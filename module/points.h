/* SPDX-License-Identifier: GPL-2.0 */
/*
 * points.c: the point registry, under its pc_points_lock.
 *
 * pc_point_stage(): create, check and register (disabled) a point for a
 * parsed line, pending on the list.  pc_points_enable(): enable the
 * pending points' probes, all or none; their hits are ignored until
 * pc_points_arm() arms them.  pc_free_matching(): unregister and free the
 * points @match accepts, waiting for their handlers once per batch.
 * offsets.c needs no lock of theirs: it has its own (pc_offsets_lock).
 */
#ifndef PROVOKE_CRASH_POINTS_H
#define PROVOKE_CRASH_POINTS_H

#include "crashpoint.h"

extern struct list_head pc_points;

void pc_format_place(char *buf, size_t len, const struct pc_line *line);
struct pc_point *pc_find_by_place(const struct pc_line *line);
int pc_point_stage(const struct pc_line *line);
int pc_points_enable(void);
void pc_points_arm(bool (*match)(const struct pc_point *), bool armed);
bool pc_rearms_a_place(void);
bool pc_arming(const struct pc_point *point);
struct pc_point **pc_collect(bool (*match)(const struct pc_point *), int *n);
void pc_free_matching(bool (*match)(const struct pc_point *));
unsigned long pc_probe_missed(const struct pc_point *point);

/*
 * offsets.c: the offsets file, and the hints for a place kprobes refused.
 * pc_function_size(): the length of @symbol's function, or 0 and *@err.
 */
unsigned long pc_function_size(const char *symbol, int *err);
void pc_warn_refused_offset(const char *place, const char *symbol,
			    unsigned long offset, unsigned long size, int err);
void pc_warn_not_found(const char *file, const char *place,
		       const char *symbol);
void pc_offsets_files(struct dentry *dir);
void pc_offsets_exit(void);

#endif /* PROVOKE_CRASH_POINTS_H */
