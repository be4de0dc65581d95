// SPDX-License-Identifier: GPL-2.0
/*
 * Control-flow integrity, forward edge: an indirect call through a
 * pointer whose prototype is not the callee's.  Clang's kCFI
 * (CONFIG_CFI_CLANG) checks the callee's type hash before the call and
 * traps; elsewhere the call goes through, harmlessly, and the routine
 * says XFAIL.
 */
#include <linux/compiler.h>
#include <linux/kernel.h>

#include "../provoke_crash.h"

static noinline void pc_cfi_void(int *counter)
{
	WRITE_ONCE(*counter, *counter + 1);
}

static noinline int pc_cfi_int(int *counter)
{
	WRITE_ONCE(*counter, *counter + 1);
	return *counter;
}

/* Hidden, so that the compiler cannot turn it into a direct call. */
static noinline void pc_cfi_call(void (*func)(int *), int *counter)
{
	OPTIMIZER_HIDE_VAR(func);
	func(counter);
}

int pc_crash_cfi_forward_proto(void)
{
	int counter = 0;

	pc_cfi_call(pc_cfi_void, &counter);
	/* The same arguments, another return type: another kCFI hash. */
	pc_cfi_call((void *)pc_cfi_int, &counter);
	pc_expected_config("cfi_forward_proto", "CONFIG_CFI_CLANG",
			   IS_ENABLED(CONFIG_CFI_CLANG));
	return IS_ENABLED(CONFIG_CFI_CLANG) ? 0 : -EOPNOTSUPP;
}
