// SPDX-License-Identifier: GPL-2.0
/*
 * What provoke-crash checks before it writes to the module, so that the
 * user reads a reason instead of a bare errno: privileges, debugfs,
 * lockdown, the module, and the symbol a crash point is asked for.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checks.h"
#include "symbols.h"
#include "provoke_crash_parse.h"

static int setup_error(const char *what, const char *fix)
{
	fprintf(stderr, "provoke-crash: %s\n  %s\n", what, fix);
	return EXIT_SETUP;
}

static int debugfs_mounted(void)
{
	FILE *f = fopen("/proc/mounts", "r");
	char dev[256], dir[256], type[64];
	int found = 0;

	if (!f)
		return 0;
	while (fscanf(f, "%255s %255s %63s %*[^\n]", dev, dir, type) == 3)
		if (!strcmp(dir, PC_DEBUGFS_MOUNT) && !strcmp(type, "debugfs"))
			found = 1;
	fclose(f);
	return found;
}

/* "none", "integrity" or "confidentiality": the word in brackets. */
static int lockdown_on(char *mode, size_t len)
{
	FILE *f = fopen("/sys/kernel/security/lockdown", "r");
	char line[128], *open_b, *close_b;

	if (!f)
		return 0;
	if (!fgets(line, sizeof(line), f)) {
		fclose(f);
		return 0;
	}
	fclose(f);
	open_b = strchr(line, '[');
	close_b = open_b ? strchr(open_b, ']') : NULL;
	if (!open_b || !close_b)
		return 0;
	*close_b = '\0';
	snprintf(mode, len, "%s", open_b + 1);
	return strcmp(mode, "none") != 0;
}

int pc_check_environment(void)
{
	struct stat st;
	char mode[64];

	if (geteuid() != 0)
		return setup_error("must run as root (CAP_SYS_ADMIN)",
				   "run it with sudo");
	if (!debugfs_mounted())
		return setup_error("debugfs is not mounted at " PC_DEBUGFS_MOUNT,
				   "mount -t debugfs none " PC_DEBUGFS_MOUNT);
	if (lockdown_on(mode, sizeof(mode))) {
		fprintf(stderr, "provoke-crash: kernel lockdown is '%s': debugfs is read-only\n",
			mode);
		fprintf(stderr, "  boot without lockdown (and without Secure Boot) to use it\n");
		return EXIT_SETUP;
	}
	if (stat(PC_DEBUGFS, &st) != 0) {
		if (stat("/sys/module/provoke_crash", &st) == 0)
			return setup_error("provoke_crash is loaded but " PC_DEBUGFS " is missing",
					   "see the kernel log (dmesg) for why");
		return setup_error("the provoke_crash module is not loaded",
				   "insmod module/provoke_crash.ko (or modprobe provoke_crash)");
	}
	return 0;
}

int pc_check_line(const char *line, size_t len)
{
	struct pc_parse_error error;
	struct pc_line parsed;

	if (!pc_parse_line(line, len, &parsed, &error))
		return 0;
	fprintf(stderr, "provoke-crash: column %zu: %s", error.pos + 1,
		error.why);
	if (error.what_len)
		fprintf(stderr, " '%.*s' (%s)", (int)error.what_len, error.what,
			error.valid);
	fprintf(stderr, "\n  %.*s\n  %*s^\n", (int)len, line, (int)error.pos,
		"");
	return EXIT_USAGE;
}

/*
 * Count text symbols called @name in /proc/kallsyms: all of them, and in
 * *@in_module those of module @module (if not NULL).
 */
static int kallsyms_count(const char *name, const char *module, int *in_module)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[1024], sym[512], type[4], mod[128];
	int n = 0, fields;

	*in_module = 0;
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		fields = sscanf(line, "%*s %3s %511s %127s", type, sym, mod);
		if (fields < 2 || (type[0] != 't' && type[0] != 'T') ||
		    strcmp(sym, name))
			continue;
		n++;
		/* A module's symbols end in "[module]". */
		if (module && fields == 3 && mod[0] == '[' &&
		    !strncmp(mod + 1, module, strlen(module)) &&
		    !strcmp(mod + 1 + strlen(module), "]"))
			(*in_module)++;
	}
	fclose(f);
	return n;
}

static int blacklisted(const char *name)
{
	FILE *f = fopen(PC_DEBUGFS_MOUNT "/kprobes/blacklist", "r");
	char sym[512];
	int found = 0;

	if (!f)
		return 0;
	while (fscanf(f, "%*s %511s", sym) == 1)
		if (!strcmp(sym, name))
			found = 1;
	fclose(f);
	return found;
}

/* MODULE:SYMBOL: the symbol once in that module; a note if once at all. */
static int check_module_symbol(const char *module, const char *name)
{
	int in_module, n = kallsyms_count(name, module, &in_module);

	if (in_module == 0) {
		fprintf(stderr, "provoke-crash: no function %s in module %s in /proc/kallsyms\n",
			name, module);
		fprintf(stderr, "  is %s loaded (/proc/modules)? %s\n", module,
			"a static function may be inlined or renamed (.isra)");
		return EXIT_MODULE;
	}
	if (in_module > 1) {
		fprintf(stderr, "provoke-crash: %s occurs %d times in module %s; %s\n",
			name, in_module, module, "kprobes would silently pick the first");
		return EXIT_MODULE;
	}
	if (n == 1)
		fprintf(stderr, "provoke-crash: note: %s is unique in /proc/kallsyms: %s\n",
			name, "the plain name works too");
	return 0;
}

int pc_check_symbol(const char *place)
{
	char name[1024], *colon;
	size_t len = strcspn(place, "+%");
	int n, in_module;

	if (len == 0 || len >= sizeof(name)) {
		fprintf(stderr, "provoke-crash: '%s' is not [MODULE:]SYMBOL[+OFFSET]\n", place);
		return EXIT_USAGE;
	}
	memcpy(name, place, len);
	name[len] = '\0';

	colon = strchr(name, ':');
	if (colon) {
		*colon = '\0';
		if (!name[0] || !colon[1]) {
			fprintf(stderr, "provoke-crash: '%s' is not [MODULE:]SYMBOL[+OFFSET]\n",
				place);
			return EXIT_USAGE;
		}
		n = check_module_symbol(name, colon + 1);
		if (n)
			return n;
		if (blacklisted(colon + 1)) {
			fprintf(stderr, "provoke-crash: %s is on the kprobe blacklist (%s)\n",
				colon + 1, PC_DEBUGFS_MOUNT "/kprobes/blacklist");
			return EXIT_MODULE;
		}
		return 0;
	}
	n = kallsyms_count(name, NULL, &in_module);
	if (n == 0) {
		fprintf(stderr, "provoke-crash: no function %s in /proc/kallsyms\n", name);
		if (pc_symbols_near(name, stderr) <= 0)
			fprintf(stderr, "  inlined, or a static function %s? try a caller\n",
				"renamed (NAME.isra.0, .constprop.0)");
		return EXIT_MODULE;
	}
	if (n > 1) {
		fprintf(stderr, "provoke-crash: %s occurs %d times in /proc/kallsyms; %s\n",
			name, n, "kprobes would silently pick the first");
		fprintf(stderr, "  choose a symbol that occurs once (a caller, say) %s\n",
			"or MODULE:SYMBOL");
		return EXIT_MODULE;
	}
	if (blacklisted(name)) {
		fprintf(stderr, "provoke-crash: %s is on the kprobe blacklist (%s)\n",
			name, PC_DEBUGFS_MOUNT "/kprobes/blacklist");
		return EXIT_MODULE;
	}
	return 0;
}

int pc_kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

void pc_module_reason(int kmsg_fd)
{
	static const char prefix[] = "provoke_crash: ";
	char rec[2048], last[2048] = "";
	ssize_t n;

	if (kmsg_fd < 0)
		return;
	/* Each read returns one record: "prio,seq,time,flags;text\n...". */
	for (;;) {
		char *text, *hit;

		n = read(kmsg_fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* records were overwritten; go on */
		if (n <= 0)
			break;
		rec[n] = '\0';
		text = strchr(rec, ';');
		if (!text)
			continue;
		text[strcspn(text, "\n")] = '\0';
		hit = strstr(text, prefix);
		if (hit)
			snprintf(last, sizeof(last), "%s", hit + strlen(prefix));
	}
	close(kmsg_fd);
	if (last[0])
		fprintf(stderr, "  the module says: %s\n", last);
}
