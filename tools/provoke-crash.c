// SPDX-License-Identifier: GPL-2.0
/*
 * provoke-crash: the user-space side of the provoke_crash module.
 *
 * Lists the crash types (from the same table the module is built from),
 * arms and disarms crash points, shows their status, lists the offsets of
 * a function kprobes takes and fires triggers, without hand-written echo
 * lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "checks.h"
#include "symbols.h"
#include "provoke_crash_defs.h"

#define PC_VERSION "0.1"

struct pc_type_info {
	const char *name, *lkdtm, *category, *needs, *description;
	const char *expect[PC_MAX_EXPECT];
	int context, fate;
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct pc_type_info pc_types[] = {
#define PC_CRASH_TYPE(_name, _lkdtm, _cat, _ctx, _fate, _needs, _desc, ...) \
	{ .name = #_name, .lkdtm = _lkdtm, .category = #_cat, .needs = _needs, \
	  .description = _desc, .expect = { __VA_ARGS__ },		\
	  .context = _ctx, .fate = _fate },
#include "provoke_crash_types.h"
};

/* arm64's expected texts, where they differ (provoke_crash_arm64.h). */
static const struct {
	int type;
	const char *expect[PC_MAX_EXPECT];
} pc_arm64_expect[] = {
#define PC_CRASH_TYPE(...)
#define PC_ARM64_EXPECT(_name, ...) { PC_TYPE_##_name, { __VA_ARGS__ } },
#include "provoke_crash_arm64.h"
#undef PC_CRASH_TYPE
};

/* The architecture whose texts the table shows (--arch). */
#ifdef __aarch64__
static const char *pc_arch = "arm64";
#else
static const char *pc_arch = "x86_64";
#endif

/* @t's own arm64 texts, or NULL where they are the x86-64 ones. */
static const char *const *arm64_expected(const struct pc_type_info *t)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pc_arm64_expect); i++)
		if (pc_arm64_expect[i].type == t - pc_types)
			return pc_arm64_expect[i].expect;
	return NULL;
}

/* @t's expected texts on the chosen architecture. */
static const char *const *expected(const struct pc_type_info *t)
{
	const char *const *arm64 = arm64_expected(t);

	return !strcmp(pc_arch, "arm64") && arm64 ? arm64 : t->expect;
}

static const char *const context_names[] = {
	"task", "preempt", "irqs", "atomic", "nmi"
};

static const char *const fate_names[] = {
	"oops", "panic", "report", "silent", "hang", "stall"
};

static int print_help(FILE *out, int status)
{
	fprintf(out,
		"Usage: provoke-crash [--help] [--version] COMMAND [ARGS]\n"
		"\n"
		"  types [--table|--rst|--lkdtm-rst] [--arch x86_64|arm64]\n"
		"                           list crash types: name, deepest context,\n"
		"                           description (--table: name, category,\n"
		"                           context, fate, needs, expected text on\n"
		"                           --arch, default this machine's,\n"
		"                           description and LKDTM's names for it;\n"
		"                           --rst: the docs' table; --lkdtm-rst:\n"
		"                           the docs' LKDTM names table)\n"
		"  arm [MOD:]SYMBOL[+OFF|%%return] TYPE [KEY=VALUE|KEY OP VALUE...]\n"
		"                           arm a crash point (keys: after, every,\n"
		"                           times, probability, pid, comm, cpu; ms\n"
		"                           for delay and spin (1 to 10000, spin\n"
		"                           at most 1000; default 100); and\n"
		"                           KEY[:WIDTH] OP VALUE: arg1..arg6 at an\n"
		"                           entry, retval at %%return; OP: = != < <=\n"
		"                           > >= &; WIDTH: s8 u8 s16 u16 s32 u32 s64\n"
		"                           u64, else the prototype's, from BTF)\n"
		"  disarm [MOD:]SYMBOL[+OFF|%%return]|--all\n"
		"                           disarm one point or all\n"
		"  offsets [MOD:]SYMBOL     the offsets of a function kprobes takes,\n"
		"                           as SYMBOL+OFF lines (its first 4096 bytes)\n"
		"  near SYMBOL              the functions of this kernel named\n"
		"                           closest to SYMBOL (a typo's meaning)\n"
		"  status                   list armed points with their counters\n"
		"                           (hits = filtered + fired + missed;\n"
		"                           eligible=: the hits pid, comm, cpu let by)\n"
		"  trigger TYPE [--yes]     run a crash now, in this process (asks\n"
		"                           on a terminal unless --yes)\n"
		"\n"
		"exit status: 0 done, %d usage, %d refused (by a check or the module),\n"
		"             %d not usable here (root, debugfs, lockdown, module)\n",
		EXIT_USAGE, EXIT_MODULE, EXIT_SETUP);
	return status;
}

/* The expected patterns of @t, joined by @sep. */
static void print_expected(const struct pc_type_info *t, const char *sep)
{
	const char *const *expect = expected(t);
	size_t j;

	for (j = 0; j < PC_MAX_EXPECT && expect[j]; j++)
		printf("%s%s", j ? sep : "", expect[j]);
}

/* Prose in the docs' table: a '*' would start emphasis there. */
static void print_rst_text(const char *text)
{
	for (; *text; text++)
		printf(*text == '*' ? "\\%c" : "%c", *text);
}

/*
 * The documentation's crash-types table
 * (Documentation/provoke-crash/crash-types.rst). The kernel text that
 * proves each type stays out of it: `types --table` prints it.
 */
static void print_rst(void)
{
	size_t i;

	printf(".. list-table::\n   :header-rows: 1\n   :widths: 22 10 8 8 52\n\n"
	       "   * - type\n     - category\n     - context\n     - fate\n"
	       "     - what it does; what it needs\n");
	for (i = 0; i < ARRAY_SIZE(pc_types); i++) {
		const struct pc_type_info *t = &pc_types[i];

		printf("   * - ``%s``\n     - %s\n     - %s\n     - %s\n     - ",
		       t->name, t->category, context_names[t->context],
		       fate_names[t->fate]);
		print_rst_text(t->description);
		printf(".\n\n       Needs: %s.\n",
		       t->needs[0] ? t->needs : "nothing more");
		if (t->lkdtm[0])
			printf("\n       LKDTM: %s.\n", t->lkdtm);
		if (arm64_expected(t))
			printf("\n       arm64 prints other kernel text for it.\n");
	}
}

/*
 * The docs' "Coming from LKDTM" rows: each LKDTM name of the table, the
 * type that answers to it, and what the type adds to LKDTM's test.
 */
static void print_lkdtm_rst(void)
{
	const char *p, *end;
	size_t i;

	printf(".. list-table::\n   :header-rows: 1\n   :widths: 30 28 42\n\n"
	       "   * - LKDTM test\n     - provoke-crash type\n     - what it adds\n");
	for (i = 0; i < ARRAY_SIZE(pc_types); i++) {
		const struct pc_type_info *t = &pc_types[i];

		for (p = t->lkdtm; *p; p = end + strspn(end, " ")) {
			p += strspn(p, " ");
			end = p + strcspn(p, " ");
			if (end == p)
				break;
			printf("   * - ``%.*s``\n     - ``%s``\n     - ",
			       (int)(end - p), p, t->name);
			if (t->context == 0)
				printf("direct only (task context)");
			else
				printf("a crash point on any function, in %s context at most",
				       context_names[t->context]);
			if (t->fate == 0 || t->fate == 1 || t->fate == 4)
				printf("; fatal: its pstore record and kdump capture checked");
			printf("%s\n", t->needs[0] ? "; needs checked on boot" : "");
		}
	}
}

enum { PC_LIST_HUMAN, PC_LIST_TABLE, PC_LIST_RST, PC_LIST_LKDTM_RST };

static int list_types(int format)
{
	size_t i;

	if (format == PC_LIST_RST) {
		print_rst();
		return 0;
	}
	if (format == PC_LIST_LKDTM_RST) {
		print_lkdtm_rst();
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(pc_types); i++) {
		const struct pc_type_info *t = &pc_types[i];

		if (format == PC_LIST_TABLE) {
			/* "-" for no needs: shells collapse empty tab fields. */
			printf("%s\t%s\t%s\t%s\t%s\t", t->name, t->category,
			       context_names[t->context], fate_names[t->fate],
			       t->needs[0] ? t->needs : "-");
			print_expected(t, " && ");
			/* LKDTM's names last: readers of the first columns stay. */
			printf("\t%s\t%s\n", t->description,
			       t->lkdtm[0] ? t->lkdtm : "-");
		} else {
			printf("%-28s %-6s %s\n", t->name,
			       context_names[t->context], t->description);
		}
	}
	return 0;
}

static int known_type(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(pc_types); i++)
		if (!strcmp(pc_types[i].name, name))
			return 1;
	fprintf(stderr, "provoke-crash: unknown crash type '%s' (see: provoke-crash types)\n",
		name);
	return 0;
}

/* Write @text to a file of the module's directory; show the module's reason. */
static int write_control(const char *file, const char *text)
{
	char path[256];
	size_t len = strlen(text);
	int fd, kmsg, err;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", PC_DEBUGFS, file);
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		fprintf(stderr, "provoke-crash: %s: %s\n", path, strerror(errno));
		return EXIT_MODULE;
	}
	kmsg = pc_kmsg_open();
	n = write(fd, text, len);
	err = errno;
	close(fd);
	if (n < 0) {
		fprintf(stderr, "provoke-crash: %s refused: %s\n", file,
			strerror(err));
		pc_module_reason(kmsg);
		return EXIT_MODULE;
	}
	if (kmsg >= 0)
		close(kmsg);
	return 0;
}

/* On a terminal, ask for the type's name again; elsewhere, say no. */
static int confirm(const char *type)
{
	char answer[128];

	if (!isatty(STDIN_FILENO))
		return 0;
	fprintf(stderr, "%s will crash this kernel now. Type its name to go on: ",
		type);
	if (!fgets(answer, sizeof(answer), stdin))
		return 0;
	answer[strcspn(answer, "\n")] = '\0';
	return strcmp(answer, type) == 0;
}

#define PC_ARM_LINE_MAX	4096

/*
 * The arm line for SYMBOL TYPE [KEY...] into @line (PC_ARM_LINE_MAX
 * bytes), checked as the module will: the type, then the module's own
 * parser (keys, operators, values, argN only at an entry, retval only at
 * %return).  Needs no module, so it runs first.
 */
static int arm_line(int argc, char **argv, char *line)
{
	size_t used;
	int i;

	if (!known_type(argv[1]))
		return EXIT_USAGE;
	used = snprintf(line, PC_ARM_LINE_MAX, "%s %s", argv[0], argv[1]);
	for (i = 2; i < argc && used < PC_ARM_LINE_MAX; i++)
		used += snprintf(line + used, PC_ARM_LINE_MAX - used, " %s",
				 argv[i]);
	if (used + 2 > PC_ARM_LINE_MAX) {
		fprintf(stderr, "provoke-crash: the crash point line is too long\n");
		return EXIT_USAGE;
	}
	return pc_check_line(line, used);
}

/* Write an arm_line() once its symbol is known to kallsyms. */
static int arm(char **argv, char *line)
{
	int ret;

	ret = pc_check_symbol(argv[0]);
	if (ret)
		return ret;
	strcat(line, "\n");
	ret = write_control("crashpoints", line);
	if (!ret)
		printf("armed: %s %s\n", argv[0], argv[1]);
	return ret;
}

/*
 * Ask the module which offsets of @symbol kprobes takes: write the name to
 * the offsets file, read the answer back on the same descriptor, and print
 * its offsets as SYMBOL+OFF lines, its comment lines as they are.
 */
static int list_offsets(const char *symbol)
{
	char line[1024], head[1024];
	int fd, kmsg, err;
	FILE *f;

	fd = open(PC_DEBUGFS "/offsets", O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "provoke-crash: %s/offsets: %s\n", PC_DEBUGFS,
			strerror(errno));
		return EXIT_MODULE;
	}
	kmsg = pc_kmsg_open();
	snprintf(line, sizeof(line), "%s\n", symbol);
	if (write(fd, line, strlen(line)) < 0) {
		err = errno;
		close(fd);
		fprintf(stderr, "provoke-crash: offsets refused: %s\n", strerror(err));
		pc_module_reason(kmsg);
		return EXIT_MODULE;
	}
	if (kmsg >= 0)
		close(kmsg);
	f = fdopen(fd, "r");
	if (!f || lseek(fd, 0, SEEK_SET) < 0) {
		fprintf(stderr, "provoke-crash: %s/offsets: %s\n", PC_DEBUGFS,
			strerror(errno));
		if (f)
			fclose(f);
		else
			close(fd);
		return EXIT_MODULE;
	}
	/* The answer is the last scan's: another writer may have come between. */
	snprintf(head, sizeof(head), "# %s: ", symbol);
	if (!fgets(line, sizeof(line), f) || strncmp(line, head, strlen(head))) {
		fprintf(stderr, "provoke-crash: the offsets file answered for another name %s\n",
			"(a concurrent writer?); try again");
		fclose(f);
		return EXIT_MODULE;
	}
	do {
		if (line[0] == '#')
			fputs(line, stdout);
		else
			printf("%s+%s", symbol, line);
	} while (fgets(line, sizeof(line), f));
	fclose(f);
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
		{ "rst", no_argument, NULL, 'r' },
		{ "lkdtm-rst", no_argument, NULL, 'L' },
		{ "arch", required_argument, NULL, 'A' },
		{ "all", no_argument, NULL, 'a' },
		{ "yes", no_argument, NULL, 'y' },
		{ NULL, 0, NULL, 0 },
	};
	int c, format = PC_LIST_HUMAN, all = 0, yes = 0, ret, nargs;
	char line[1024], arm_text[PC_ARM_LINE_MAX];
	const char *cmd;

	while ((c = getopt_long(argc, argv, "hVtrLayA:", opts, NULL)) != -1) {
		switch (c) {
		case 'A':
			if (!strcmp(optarg, "x86_64") || !strcmp(optarg, "amd64")) {
				pc_arch = "x86_64";
			} else if (!strcmp(optarg, "arm64") || !strcmp(optarg, "aarch64")) {
				pc_arch = "arm64";
			} else {
				fprintf(stderr, "provoke-crash: unknown architecture '%s' %s\n",
					optarg, "(use x86_64 or arm64)");
				return EXIT_USAGE;
			}
			break;
		case 'h':
			return print_help(stdout, 0);
		case 'V':
			printf("provoke-crash %s\n", PC_VERSION);
			return 0;
		case 't':
			format = PC_LIST_TABLE;
			break;
		case 'r':
			format = PC_LIST_RST;
			break;
		case 'L':
			format = PC_LIST_LKDTM_RST;
			break;
		case 'a':
			all = 1;
			break;
		case 'y':
			yes = 1;
			break;
		default:
			return print_help(stderr, EXIT_USAGE);
		}
	}
	if (optind >= argc)
		return print_help(stderr, EXIT_USAGE);
	cmd = argv[optind++];

	nargs = argc - optind;
	if (!strcmp(cmd, "types") && nargs == 0)
		return list_types(format);
	if (!strcmp(cmd, "near") && nargs == 1) {
		ret = pc_symbols_near(argv[optind], stdout);
		if (ret < 0)
			fprintf(stderr, "provoke-crash: cannot read /proc/kallsyms\n");
		return ret > 0 ? 0 : ret ? EXIT_SETUP : EXIT_MODULE;
	}
	if (strcmp(cmd, "status") && strcmp(cmd, "arm") &&
	    strcmp(cmd, "disarm") && strcmp(cmd, "trigger") &&
	    strcmp(cmd, "offsets"))
		return print_help(stderr, EXIT_USAGE);

	if (!strcmp(cmd, "arm") && nargs >= 2) {
		ret = arm_line(nargs, argv + optind, arm_text);
		if (ret)
			return ret;
	}
	ret = pc_check_environment();
	if (ret)
		return ret;
	if (!strcmp(cmd, "status") && nargs == 0)
		return show_status();
	if (!strcmp(cmd, "arm") && nargs >= 2)
		return arm(argv + optind, arm_text);
	if (!strcmp(cmd, "offsets") && nargs == 1)
		return list_offsets(argv[optind]);
	if (!strcmp(cmd, "disarm") && all && nargs == 0)
		return write_control("crashpoints", "\n");
	if (!strcmp(cmd, "disarm") && nargs == 1) {
		snprintf(line, sizeof(line), "!%s\n", argv[optind]);
		return write_control("crashpoints", line);
	}
	if (!strcmp(cmd, "trigger") && nargs == 1) {
		if (!known_type(argv[optind]))
			return EXIT_USAGE;
		if (!yes && !confirm(argv[optind])) {
			fprintf(stderr, "provoke-crash: %s crashes this kernel: %s\n",
				argv[optind], "add --yes to do it");
			return EXIT_USAGE;
		}
		return write_control(argv[optind], "1\n");
	}
	return print_help(stderr, EXIT_USAGE);
}
