/* SPDX-License-Identifier: GPL-2.0 */
/* Checks the tool makes before it writes, and the module's own reasons. */
#ifndef PC_TOOL_CHECKS_H
#define PC_TOOL_CHECKS_H

#include <stddef.h>

#define PC_DEBUGFS_MOUNT "/sys/kernel/debug"
#define PC_DEBUGFS PC_DEBUGFS_MOUNT "/provoke-crash"

/* Exit codes. */
#define EXIT_USAGE	2	/* bad command line */
#define EXIT_MODULE	3	/* the module refused, or the kernel cannot */
#define EXIT_SETUP	4	/* not root, debugfs, lockdown, module missing */

/* Root, debugfs, lockdown, the module: 0 or EXIT_SETUP with a message. */
int pc_check_environment(void);

/*
 * [MODULE:]SYMBOL[+OFF] exists once in kallsyms (in MODULE, if given) and
 * is not blacklisted; MODULE:SYMBOL notes when SYMBOL alone is unique.
 */
int pc_check_symbol(const char *place);

/*
 * The module's own parser (module/parse.c) on an arm line of @len bytes,
 * before it is written: 0, or EXIT_USAGE with the reason and the column.
 */
int pc_check_line(const char *line, size_t len);

/* Where the kernel log is now, so that pc_module_reason() reads only newer lines. */
int pc_kmsg_open(void);

/* Print the module's last log line since pc_kmsg_open(), if any. */
void pc_module_reason(int kmsg_fd);

#endif /* PC_TOOL_CHECKS_H */
