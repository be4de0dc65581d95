// SPDX-License-Identifier: GPL-2.0
/*
 * Memory accesses that some architectures refuse: a 32-bit load and store
 * at an odd address.  x86 and arm64 (outside atomics) allow them, so there
 * the routine proves the access ran and says that nothing faulted.
 */
#include <linux/compiler.h>
#include <linux/kernel.h>

#include "../provoke_crash.h"

int pc_crash_unaligned_load_store(void)
{
	static u8 buf[16] __aligned(8);
	u8 *odd = buf + 1;
	u32 loaded, stored;

	/* Hidden, so that the compiler cannot split the accesses into bytes. */
	OPTIMIZER_HIDE_VAR(odd);
	loaded = READ_ONCE(*(u32 *)odd);
	stored = loaded ^ 0x12345678;
	WRITE_ONCE(*(u32 *)odd, stored);
	pr_info("unaligned_load_store: 0x%08x -> 0x%08x at an odd address, no fault\n",
		loaded, stored);
	return 0;
}
