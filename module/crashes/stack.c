// SPDX-License-Identifier: GPL-2.0
/*
 * Stack corruption: an overrun of a local array that the stack protector
 * must catch before the function returns.
 */
#include <linux/compiler.h>
#include <linux/string.h>

#include "../provoke_crash.h"

/* Out of line, so that neither the compiler nor FORTIFY sees the size. */
static noinline void pc_fill(char *buf, size_t len)
{
	memset(buf, 0x78, len);
}

/*
 * The canary sits right above a char array (-fstack-protector-strong puts
 * arrays next to it), so one word past the array reaches the canary and
 * stops short of the return address.
 */
noinline int pc_crash_corrupt_stack(void)
{
	char buf[16] __aligned(sizeof(long));

	/* buf escapes to pc_fill(), so the overrun cannot be optimised away. */
	pc_fill(buf, sizeof(buf) + sizeof(long));
	return 0;
}
