// SPDX-License-Identifier: GPL-2.0
/*
 * The names a mistyped function may have meant, from this kernel's own
 * /proc/kallsyms: the closest text symbols by edit distance, a system
 * call's entry spelled for another architecture (@sys@NAME is the
 * portable one), and the compiler's renamed copies of a function.
 * Debian's System.map is a stub, so the VM runner asks the guest this.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols.h"

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#define PC_NEAR_MAX	4
#define PC_NAME_MAX	128

/* This architecture's prefix of a system call's entry. */
#if defined(__aarch64__)
#define PC_SYS_PREFIX "__arm64_sys_"
#else
#define PC_SYS_PREFIX "__x64_sys_"
#endif

struct pc_near {
	char name[PC_NEAR_MAX][PC_NAME_MAX];
	int dist[PC_NEAR_MAX];
	int n;
	int has_entry;			/* PC_SYS_PREFIX + the call's name */
	char copy[PC_NAME_MAX];		/* NAME.isra.0 and the like */
};

/*
 * Levenshtein distance of @a and @b, or @limit + 1 once it is more than
 * @limit: names longer than PC_NAME_MAX never come this far.
 */
static int distance(const char *a, const char *b, int limit)
{
	int row[PC_NAME_MAX + 1], i, j, diag, up, best;
	int la = strlen(a), lb = strlen(b);

	if (abs(la - lb) > limit || la > PC_NAME_MAX || lb > PC_NAME_MAX)
		return limit + 1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		diag = row[0];
		row[0] = i;
		best = i;
		for (j = 1; j <= lb; j++) {
			up = row[j];
			row[j] = diag + (a[i - 1] != b[j - 1]);
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			if (up + 1 < row[j])
				row[j] = up + 1;
			diag = up;
			if (row[j] < best)
				best = row[j];
		}
		if (best > limit)
			return limit + 1;
	}
	return row[lb];
}

/* Keep @sym among the closest, by distance, then the order kallsyms has. */
static void keep(struct pc_near *near, const char *sym, int d)
{
	int i, at = near->n < PC_NEAR_MAX ? near->n : PC_NEAR_MAX - 1;

	for (i = 0; i < near->n; i++)
		if (!strcmp(near->name[i], sym))
			return;
	if (near->n == PC_NEAR_MAX && d >= near->dist[at])
		return;
	while (at > 0 && near->dist[at - 1] > d) {
		memcpy(near->name[at], near->name[at - 1], PC_NAME_MAX);
		near->dist[at] = near->dist[at - 1];
		at--;
	}
	snprintf(near->name[at], PC_NAME_MAX, "%s", sym);
	near->dist[at] = d;
	if (near->n < PC_NEAR_MAX)
		near->n++;
}

/* The call's name in sys_NAME, __x64_sys_NAME or __arm64_sys_NAME, or @name. */
static const char *call_of(const char *name)
{
	static const char *const prefixes[] = {
		"__x64_sys_", "__arm64_sys_", "__ia32_sys_", "sys_",
	};
	size_t i, len;

	for (i = 0; i < ARRAY_SIZE(prefixes); i++) {
		len = strlen(prefixes[i]);
		if (!strncmp(name, prefixes[i], len) && name[len])
			return name + len;
	}
	return name;
}

static void scan(FILE *f, const char *name, int limit, struct pc_near *near)
{
	char line[512], sym[PC_NAME_MAX], type[4], entry[PC_NAME_MAX + 16];
	size_t len = strlen(name);
	int d;

	snprintf(entry, sizeof(entry), "%s%s", PC_SYS_PREFIX, call_of(name));
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %3s %127s", type, sym) != 2 ||
		    !strchr("tTwW", type[0]))
			continue;
		if (!strcmp(sym, entry))
			near->has_entry = 1;
		if (!near->copy[0] && !strncmp(sym, name, len) &&
		    sym[len] == '.' && !strstr(sym + len, "cold"))
			snprintf(near->copy, sizeof(near->copy), "%s", sym);
		/* A typo rarely hits the first letter: the rest go by fast. */
		if (sym[0] != name[0])
			continue;
		d = distance(name, sym, limit);
		if (d <= limit && d > 0)
			keep(near, sym, d);
	}
}

int pc_symbols_near(const char *name, FILE *out)
{
	struct pc_near near = { .n = 0 };
	FILE *f = fopen("/proc/kallsyms", "r");
	/* One edit in four letters, at most three: beyond that, noise. */
	int i, said = 0, limit = strlen(name) / 4;

	if (!f)
		return -1;
	scan(f, name, limit < 1 ? 1 : limit > 3 ? 3 : limit, &near);
	fclose(f);
	if (near.has_entry && strcmp(name, call_of(name)) &&
	    strncmp(name, PC_SYS_PREFIX, strlen(PC_SYS_PREFIX))) {
		fprintf(out, "  the system call's entry here is %s%s: write @sys@%s\n",
			PC_SYS_PREFIX, call_of(name), call_of(name));
		said++;
	} else if (near.has_entry && !strcmp(name, call_of(name))) {
		fprintf(out, "  %s is a system call here: write @sys@%s\n", name,
			name);
		said++;
	}
	if (near.copy[0]) {
		fprintf(out, "  the compiler renamed it: %s (a point names the copy)\n",
			near.copy);
		said++;
	}
	if (near.n) {
		fprintf(out, "  did you mean:");
		for (i = 0; i < near.n; i++)
			fprintf(out, " %s", near.name[i]);
		fprintf(out, "?\n");
		said++;
	}
	return said;
}
