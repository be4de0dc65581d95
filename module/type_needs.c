// SPDX-License-Identifier: GPL-2.0
/*
 * Whether the running kernel has the options a crash type needs to be
 * caught: the CONFIG_ words of the table's needs ("!CONFIG_FOO": an
 * option that defeats it), as the kernel the module is built for has
 * them.  The list of words comes from the table itself at build time
 * (Kbuild writes type_needs_configs.inc), so no list is kept by hand.
 * Boot parameters, CPU features and "smp" are not checked here.
 */
#include <linux/kconfig.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "provoke_crash.h"

struct pc_config {
	const char *name;
	bool enabled;
};

/* { "CONFIG_FOO", IS_ENABLED(CONFIG_FOO) }, for each word in include/. */
static const struct pc_config pc_configs[] = {
#include "type_needs_configs.inc"
};

static const struct pc_config *pc_config_find(const char *name, size_t len)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(pc_configs); i++)
		if (strlen(pc_configs[i].name) == len &&
		    !strncmp(pc_configs[i].name, name, len))
			return &pc_configs[i];
	return NULL;
}

/* "CONFIG_A|CONFIG_B" (@n bytes): an option renamed between kernels. */
static bool pc_any_config(const char *word, size_t n)
{
	const struct pc_config *config;
	size_t len;

	while (n) {
		len = strcspn(word, "| ");
		if (len > n)
			len = n;
		config = pc_config_find(word, len);
		if (config && config->enabled)
			return true;
		if (len == n)
			break;
		word += len + 1;
		n -= len + 1;
	}
	return false;
}

const char *pc_type_unmet_config(const struct pc_crash_type *type, int *len)
{
	const char *word, *p = type->needs;
	const struct pc_config *config;
	bool negated;
	size_t n;

	while (*p) {
		p += strspn(p, " ");
		word = p;
		n = strcspn(p, " ");
		p += n;
		negated = *word == '!';
		if (n <= negated || strncmp(word + negated, "CONFIG_", 7))
			continue;
		if (!negated && memchr(word, '|', n)) {
			if (!pc_any_config(word, n)) {
				*len = n;
				return word;
			}
			continue;
		}
		config = pc_config_find(word + negated, n - negated);
		/* Made from the same table, the list has every word. */
		if (!config || config->enabled == negated) {
			*len = n;
			return word;
		}
	}
	return NULL;
}
