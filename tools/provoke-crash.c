// SPDX-License-Identifier: GPL-2.0
/*
 * provoke-crash: the user-space side of the provoke_crash module.
 *
 * Lists the crash types (from the same table the module is built from),
 * arms and disarms crash points, shows their status and fires triggers,
 * without hand-written echo lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "provoke_crash_types.h"

#define PC_DEBUGFS "/sys/kernel/debug/provoke-crash"
#define PC_VERSION "0.1"

/* Exit codes. */
#define EXIT_USAGE	2	/* bad command line */
#define EXIT_MODULE	3	/* the module refused or is not there */

struct pc_type_info {
	const char *name, *category, *description, *expect;
	int context, fate;
};

#define PC_TYPE_INFO(_name, _cat, _ctx, _fate, _desc, _expect) \
	{ #_name, #_cat, _desc, _expect, _ctx, _fate },
static const struct pc_type_info pc_types[] = {
	PC_CRASH_TYPES(PC_TYPE_INFO)
};

static const char *const context_names[] = { "task", "atomic", "nmi" };
static const char *const fate_names[] = { "oops", "panic", "report", "silent" };

static int usage(FILE *out, int status)
{
	fprintf(out,
		"usage: provoke-crash [--help] [--version] COMMAND [ARGS]\n"
		"\n"
		"  types [--table]          list crash types (--table: machine-readable)\n"
		"  arm SYMBOL[+OFF] TYPE    arm a crash point\n"
		"  disarm SYMBOL[+OFF]|--all  disarm one point or all\n"
		"  status                   list armed points with their counters\n"
		"  trigger TYPE --yes       run a crash now, in this process\n"
		"\n"
		"exit status: 0 done, 1 error, %d usage, %d refused by the module\n",
		EXIT_USAGE, EXIT_MODULE);
	return status;
}

static int list_types(int table)
{
	size_t i;

	for (i = 0; i < sizeof(pc_types) / sizeof(pc_types[0]); i++) {
		const struct pc_type_info *t = &pc_types[i];

		if (table)
			printf("%s\t%s\t%s\t%s\t%s\t%s\n", t->name, t->category,
			       context_names[t->context], fate_names[t->fate],
			       t->expect, t->description);
		else
			printf("%-24s %-6s %s\n", t->name,
			       t->context == PC_CTX_TASK ? "task" : "atomic",
			       t->description);
	}
	return 0;
}

/* Write @text to a file of the module's directory, explaining failures. */
static int write_control(const char *file, const char *text)
{
	char path[256];
	size_t len = strlen(text);
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", PC_DEBUGFS, file);
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		if (errno == ENOENT)
			fprintf(stderr, "provoke-crash: %s: not found (is debugfs mounted and provoke_crash loaded?)\n",
				path);
		else
			fprintf(stderr, "provoke-crash: %s: %s\n", path,
				strerror(errno));
		return EXIT_MODULE;
	}
	n = write(fd, text, len);
	if (n < 0) {
		fprintf(stderr, "provoke-crash: %s: %s (the kernel log says why)\n",
			file, strerror(errno));
		close(fd);
		return EXIT_MODULE;
	}
	close(fd);
	return 0;
}

static int show_status(void)
{
	FILE *f = fopen(PC_DEBUGFS "/crashpoints", "r");
	char line[1024];

	if (!f) {
		fprintf(stderr, "provoke-crash: %s/crashpoints: %s\n",
			PC_DEBUGFS, strerror(errno));
		return EXIT_MODULE;
	}
	while (fgets(line, sizeof(line), f))
		fputs(line, stdout);
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ "table", no_argument, NULL, 't' },
		{ "all", no_argument, NULL, 'a' },
		{ "yes", no_argument, NULL, 'y' },
		{ NULL, 0, NULL, 0 },
	};
	int c, table = 0, all = 0, yes = 0;
	char line[1024];
	const char *cmd;

	while ((c = getopt_long(argc, argv, "hVtay", opts, NULL)) != -1) {
		switch (c) {
		case 'h':
			return usage(stdout, 0);
		case 'V':
			printf("provoke-crash %s\n", PC_VERSION);
			return 0;
		case 't':
			table = 1;
			break;
		case 'a':
			all = 1;
			break;
		case 'y':
			yes = 1;
			break;
		default:
			return usage(stderr, EXIT_USAGE);
		}
	}
	if (optind >= argc)
		return usage(stderr, EXIT_USAGE);
	cmd = argv[optind++];

	if (!strcmp(cmd, "types"))
		return list_types(table);
	if (!strcmp(cmd, "status"))
		return show_status();
	if (!strcmp(cmd, "arm") && argc - optind == 2) {
		snprintf(line, sizeof(line), "%s %s\n", argv[optind],
			 argv[optind + 1]);
		return write_control("crashpoints", line);
	}
	if (!strcmp(cmd, "disarm") && all && argc == optind)
		return write_control("crashpoints", "\n");
	if (!strcmp(cmd, "disarm") && argc - optind == 1) {
		snprintf(line, sizeof(line), "!%s\n", argv[optind]);
		return write_control("crashpoints", line);
	}
	if (!strcmp(cmd, "trigger") && argc - optind == 1) {
		if (!yes) {
			fprintf(stderr, "provoke-crash: trigger %s crashes this kernel; add --yes to do it\n",
				argv[optind]);
			return EXIT_USAGE;
		}
		return write_control(argv[optind], "1\n");
	}
	return usage(stderr, EXIT_USAGE);
}
