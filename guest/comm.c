// SPDX-License-Identifier: GPL-2.0
/*
 * comm for the bench's busybox guest, whose busybox has none: LKDTM's
 * selftest (run.sh) runs "comm --nocheck-order -13 OLD -" to keep the
 * kernel log lines that a test added.  Compares two files line by line,
 * as sorted input, and prints three columns: lines only in the first,
 * only in the second, in both; -1, -2, -3 leave a column out.  "-" is
 * standard input.  --nocheck-order is accepted: order is never checked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static FILE *open_input(const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;

	if (!f) {
		perror(path);
		exit(2);
	}
	return f;
}

/* The next line of @f into *@line (newline kept); 0 at the end. */
static int next_line(FILE *f, char **line, size_t *size)
{
	return getline(line, size, f) >= 0;
}

static void put(int column, const int *show, const char *line)
{
	int i;

	if (!show[column])
		return;
	for (i = 0; i < column; i++)
		if (show[i])
			putchar('\t');
	fputs(line, stdout);
	if (!strchr(line, '\n'))
		putchar('\n');
}

int main(int argc, char **argv)
{
	int show[3] = { 1, 1, 1 }, have1, have2, i, cmp;
	char *l1 = NULL, *l2 = NULL;
	size_t s1 = 0, s2 = 0;
	const char *files[2];
	int nfiles = 0;
	FILE *f1, *f2;

	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--nocheck-order") || !strcmp(a, "--check-order"))
			continue;
		if (a[0] == '-' && a[1] && a[1] != '-') {
			for (a++; *a; a++) {
				if (*a < '1' || *a > '3') {
					fprintf(stderr, "comm: unknown option -%c\n", *a);
					return 2;
				}
				show[*a - '1'] = 0;
			}
			continue;
		}
		if (nfiles == 2) {
			fprintf(stderr, "usage: comm [-123] [--nocheck-order] FILE1 FILE2\n");
			return 2;
		}
		files[nfiles++] = a;
	}
	if (nfiles != 2) {
		fprintf(stderr, "usage: comm [-123] [--nocheck-order] FILE1 FILE2\n");
		return 2;
	}
	f1 = open_input(files[0]);
	f2 = open_input(files[1]);
	have1 = next_line(f1, &l1, &s1);
	have2 = next_line(f2, &l2, &s2);
	while (have1 || have2) {
		cmp = !have1 ? 1 : !have2 ? -1 : strcmp(l1, l2);
		if (cmp < 0) {
			put(0, show, l1);
			have1 = next_line(f1, &l1, &s1);
		} else if (cmp > 0) {
			put(1, show, l2);
			have2 = next_line(f2, &l2, &s2);
		} else {
			put(2, show, l1);
			have1 = next_line(f1, &l1, &s1);
			have2 = next_line(f2, &l2, &s2);
		}
	}
	return 0;
}
