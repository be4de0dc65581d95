/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the refcount_t crash routines (refcount.c, refcount_saturated.c). */
#ifndef PC_CRASHES_REFCOUNT_H
#define PC_CRASHES_REFCOUNT_H

#include <linux/refcount.h>

/* LKDTM's words for what the counter caught, as its selftest reads them. */
#define PC_REFCOUNT_OVERFLOW	"Overflow detected: saturated"
#define PC_REFCOUNT_ZERO	"Zero detected: saturated"
#define PC_REFCOUNT_NEGATIVE	"Negative detected: saturated"
#define PC_REFCOUNT_SATURATED	"Saturation detected: still saturated"

/*
 * Log whether @ref ended saturated, as it must: "@name: saturated at
 * 0xc0000000: @verdict", or a FAIL line.  Returns 0.
 */
int pc_refcount_check(const char *name, refcount_t *ref, const char *verdict);

#endif /* PC_CRASHES_REFCOUNT_H */
