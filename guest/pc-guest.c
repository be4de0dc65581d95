// SPDX-License-Identifier: GPL-2.0
/*
 * pc-guest: the test bench's helper inside the QEMU guest.
 *
 *   pc-guest write FILE TEXT   one write(2) of TEXT (escapes \n \t \r \0
 *                              \xHH allowed), prints "write: ok" or
 *                              "write: error ENAME (message)"
 *   pc-guest hit SYSCALL N     make SYSCALL N times (getppid, getpgrp,
 *                              sync; N = -1: for ever), prints
 *                              "hit: SYSCALL xN done"
 *   pc-guest time SYSCALL N    guest ns per call of SYSCALL, over N calls
 *   pc-guest timewrite FILE TEXT  one write, and the guest ms it took
 *   pc-guest timelines FILE TEXT  one write per line, and the ms in all
 *   pc-guest cycle FILE N ARM DISARM
 *                              N times: write ARM, then DISARM; prints
 *                              "cycle: N done, E errors"
 *   pc-guest read FILE         read(2) FILE through, print its size
 *   pc-guest fadvise FILE LEN ADVICE
 *                              one posix_fadvise(2) of FILE, offset 0:
 *                              the kernel's generic_fadvise() gets LEN and
 *                              ADVICE as its arguments 3 and 4; prints
 *                              "fadvise: LEN ADVICE = ERRNO"
 *   pc-guest readahead FILE LEN
 *                              one readahead(2) of FILE, offset 0: the
 *                              kernel's generic_fadvise() again, by
 *                              another caller; "readahead: LEN = ERRNO"
 *   pc-guest refuse FILE N TEXT
 *                              N writes of TEXT, each expected to fail;
 *                              prints "refuse: N writes, R refused with
 *                              ENAME, A accepted"
 *   pc-guest tryoffsets FILE SYMBOL SIZE TYPE
 *                              arm each offset below SIZE (and disarm it);
 *                              prints those that armed
 *   pc-guest nocapwrite FILE TEXT
 *                              as write, with CAP_SYS_ADMIN dropped first
 *                              (root still owns the files: only the
 *                              module's own capable() check stops it)
 *   pc-guest onlog PATTERN FILE TEXT
 *                              wait for a kernel log record that holds
 *                              PATTERN, then as write: started before a
 *                              CPU spins with interrupts off, it then
 *                              needs no fork, exec or IPI to act
 *   pc-guest copy FILE         copy stdin to FILE, print the bytes
 *                              copied: one process and big reads, where
 *                              tee and wc took 1.1 s more of a 22 MB dump
 *                              under TCG
 *   pc-guest clock             "up=SECONDS ticks=N hz=HZ": the uptime,
 *                              and the CPU's own counter (the TSC, or
 *                              arm64's virtual counter), which a kexec'd
 *                              capture kernel finds running on, with its
 *                              rate as this kernel knows it
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static size_t unescape(const char *in, char *out)
{
	size_t n = 0;

	for (; *in; in++) {
		if (*in != '\\' || !in[1]) {
			out[n++] = *in;
			continue;
		}
		switch (*++in) {
		case 'n':
			out[n++] = '\n';
			break;
		case 't':
			out[n++] = '\t';
			break;
		case 'r':
			out[n++] = '\r';
			break;
		case '0':
			out[n++] = '\0';
			break;
		case 'x':
			/* \xHH: one byte in hex */
			if (isxdigit((unsigned char)in[1]) &&
			    isxdigit((unsigned char)in[2])) {
				char hex[3] = { in[1], in[2], '\0' };

				out[n++] = (char)strtol(hex, NULL, 16);
				in += 2;
			} else {
				out[n++] = 'x';
			}
			break;
		default:
			out[n++] = *in;
		}
	}
	return n;
}

static int do_write(const char *file, const char *text)
{
	char *buf = malloc(strlen(text) + 1);
	size_t len = unescape(text, buf);
	int fd = open(file, O_WRONLY);
	ssize_t n;

	if (fd < 0) {
		printf("write: open %s: error %s (%s)\n", file,
		       strerrorname_np(errno), strerror(errno));
		return 1;
	}
	fflush(stdout);
	n = write(fd, buf, len);
	if (n < 0) {
		printf("write: error %s (%s)\n", strerrorname_np(errno),
		       strerror(errno));
		return 1;
	}
	printf("write: ok (%zd of %zu bytes)\n", n, len);
	return 0;
}

static int do_nocapwrite(const char *file, const char *text)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[2];

	if (syscall(SYS_capget, &hdr, data)) {
		printf("nocapwrite: capget: error %s\n", strerrorname_np(errno));
		return 1;
	}
	data[0].effective &= ~(1u << CAP_SYS_ADMIN);
	data[0].permitted &= ~(1u << CAP_SYS_ADMIN);
	if (syscall(SYS_capset, &hdr, data)) {
		printf("nocapwrite: capset: error %s\n", strerrorname_np(errno));
		return 1;
	}
	return do_write(file, text);
}

static int do_onlog(const char *pattern, const char *file, const char *text)
{
	/* The record is printed just before what it announces starts. */
	struct timespec settle = { 0, 200 * 1000 * 1000 };
	char rec[8192];
	int fd = open("/dev/kmsg", O_RDONLY);
	ssize_t n;

	if (fd < 0) {
		printf("onlog: open /dev/kmsg: error %s\n", strerrorname_np(errno));
		return 1;
	}
	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)
			continue;	/* records overwritten: read on */
		if (n < 0) {
			printf("onlog: read /dev/kmsg: error %s\n", strerrorname_np(errno));
			return 1;
		}
		rec[n] = '\0';
		if (strstr(rec, pattern))
			break;
	}
	close(fd);
	nanosleep(&settle, NULL);
	return do_write(file, text);
}

static long syscall_nr(const char *name)
{
	if (!strcmp(name, "getppid"))
		return SYS_getppid;
	/* arm64 has no getpgrp: its libc calls getpgid(0), as do_hit() does. */
	if (!strcmp(name, "getpgrp"))
#ifdef SYS_getpgrp
		return SYS_getpgrp;
#else
		return SYS_getpgid;
#endif
	if (!strcmp(name, "sync"))
		return SYS_sync;
	fprintf(stderr, "pc-guest: unknown syscall %s\n", name);
	return -1;
}

static int do_hit(const char *name, long times)
{
	long nr = syscall_nr(name), i;

	if (nr < 0)
		return 2;
	fflush(stdout);
	for (i = 0; times < 0 || i < times; i++)
		syscall(nr, 0);
	printf("hit: %s x%ld done\n", name, times);
	return 0;
}

/* One call; what it returned, for a case that checks a resumed return. */
static int do_ret(const char *name)
{
	long nr = syscall_nr(name), ret;

	if (nr < 0)
		return 2;
	fflush(stdout);
	ret = syscall(nr, 0);
	printf("ret: %s = %ld\n", name, ret);
	return 0;
}

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* Guest time per call; under QEMU -icount it counts instructions. */
static int do_time(const char *name, long times)
{
	long nr = syscall_nr(name), i;
	double start;

	if (nr < 0 || times <= 0)
		return 2;
	start = now_ns();
	for (i = 0; i < times; i++)
		syscall(nr, 0);
	printf("time: %s x%ld: %.1f ns per call\n", name, times,
	       (now_ns() - start) / times);
	return 0;
}

/* One write, timed: "timewrite: N ms (ok|error E)". */
static int do_timewrite(const char *file, const char *text)
{
	char *buf = malloc(strlen(text) + 1);
	size_t len = unescape(text, buf);
	int fd = open(file, O_WRONLY);
	double start;
	ssize_t n;

	if (fd < 0)
		return 1;
	start = now_ns();
	n = write(fd, buf, len);
	printf("timewrite: %.2f ms (%s)\n", (now_ns() - start) / 1e6,
	       n < 0 ? strerrorname_np(errno) : "ok");
	return n < 0;
}

/*
 * Each offset of @sym below @size: a write of "SYM+OFF TYPE", then, if it
 * armed, one of an empty line (disarm all).  Prints the offsets that
 * armed, as the offsets file lists them.
 */
static int do_tryoffsets(const char *file, const char *sym, long size,
			 const char *type)
{
	int fd = open(file, O_WRONLY);
	char line[256];
	long off;
	int n;

	if (fd < 0 || size <= 0)
		return 1;
	for (off = 0; off < size; off++) {
		n = snprintf(line, sizeof(line), "%s+%ld %s", sym, off, type);
		if (n <= 0 || n >= (int)sizeof(line) || write(fd, line, n) != n)
			continue;
		printf("0x%lx\n", off);
		if (write(fd, "\n", 1) != 1)
			return 1;
	}
	return 0;
}

/* Arm with @arm and disarm with @disarm, @times times, in one process. */
static int do_cycle(const char *file, long times, const char *arm,
		    const char *disarm)
{
	char *a = malloc(strlen(arm) + 1), *d = malloc(strlen(disarm) + 1);
	size_t alen = unescape(arm, a), dlen = unescape(disarm, d);
	long i, errors = 0;
	int fd = open(file, O_WRONLY);

	if (fd < 0) {
		printf("cycle: open %s: %s\n", file, strerror(errno));
		return 1;
	}
	for (i = 0; i < times; i++) {
		if (write(fd, a, alen) < 0 || write(fd, d, dlen) < 0) {
			if (!errors)
				printf("cycle: first error at %ld: %s\n", i,
				       strerrorname_np(errno));
			errors++;
		}
	}
	printf("cycle: %ld done, %ld errors\n", times, errors);
	return errors != 0;
}

/* Read @file with read(2), for points on the read path. */
static int do_read(const char *file)
{
	char buf[4096];
	ssize_t n, total = 0;
	int fd = open(file, O_RDONLY);

	if (fd < 0)
		return 1;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		total += n;
	printf("read: %zd bytes\n", total);
	return n < 0;
}

static int do_fadvise(const char *file, long long len, int advice)
{
	int fd = open(file, O_RDONLY), ret;

	if (fd < 0)
		return 1;
	ret = posix_fadvise(fd, 0, len, advice);
	close(fd);
	printf("fadvise: %lld %d = %d\n", len, advice, ret);
	return 0;
}

static int do_readahead(const char *file, long long len)
{
	int fd = open(file, O_RDONLY), ret;

	if (fd < 0)
		return 1;
	ret = readahead(fd, 0, len) ? errno : 0;
	close(fd);
	printf("readahead: %lld = %d\n", len, ret);
	return 0;
}

/* @times writes of @text that should all fail, with one errno. */
static int do_refuse(const char *file, long times, const char *text)
{
	char *buf = malloc(strlen(text) + 1);
	size_t len = unescape(text, buf);
	long i, refused = 0, accepted = 0;
	const char *name = "none";
	int fd = open(file, O_WRONLY);

	if (fd < 0) {
		printf("refuse: open %s: %s\n", file, strerror(errno));
		return 1;
	}
	for (i = 0; i < times; i++) {
		if (write(fd, buf, len) >= 0) {
			accepted++;
			continue;
		}
		if (!refused)
			name = strerrorname_np(errno);
		else if (strcmp(name, strerrorname_np(errno)))
			name = "mixed errors";
		refused++;
	}
	printf("refuse: %ld writes, %ld refused with %s, %ld accepted\n",
	       times, refused, name, accepted);
	return accepted != 0;
}

/* Each line of TEXT in a write of its own: "timelines: N writes, M ms". */
static int do_timelines(const char *file, const char *text)
{
	char *buf = malloc(strlen(text) + 1), *line, *end;
	size_t len = unescape(text, buf);
	int fd = open(file, O_WRONLY), n = 0, errors = 0;
	double start;

	if (fd < 0)
		return 1;
	buf[len] = '\0';
	start = now_ns();
	for (line = buf; *line; line = end + 1) {
		end = strchr(line, '\n');
		if (!end)
			end = line + strlen(line) - 1;
		if (write(fd, line, end + 1 - line) < 0)
			errors++;
		n++;
		if (!end[1])
			break;
	}
	printf("timelines: %d writes, %.2f ms, %d errors\n", n,
	       (now_ns() - start) / 1e6, errors);
	return errors != 0;
}

/*
 * The CPU counter and its rate: it runs on across kexec, unlike the kernels'
 * clocks; and this kernel's uptime, read right after it.  A /proc/uptime read by
 * another process came a fork and an exec later, which in a freshly booted
 * emulated arm64 guest put captures 0.26 and 0.41 s before their panics.
 */
static int do_clock(void)
{
	unsigned long long ticks;
	struct timespec up;
	double hz = 0;
#if defined(__x86_64__)
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "r");

	/* "cpu MHz" is the TSC's rate where the TSC is the clock. */
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "cpu MHz : %lf", &hz) == 1)
			break;
	if (f)
		fclose(f);
	hz *= 1e6;
	ticks = __builtin_ia32_rdtsc();
#elif defined(__aarch64__)
	unsigned long long freq;

	asm volatile("isb; mrs %0, cntvct_el0" : "=r" (ticks));
	asm volatile("mrs %0, cntfrq_el0" : "=r" (freq));
	hz = freq;
#else
	ticks = 0;
#endif
	clock_gettime(CLOCK_BOOTTIME, &up);
	if (hz <= 0) {
		printf("unknown\n");
		return 1;
	}
	printf("up=%.6f ticks=%llu hz=%.0f\n", up.tv_sec + up.tv_nsec / 1e9, ticks, hz);
	return 0;
}

/*
 * Copy stdin to @file; print the bytes copied, also when a read or a
 * write fails (then with the error on stderr, and status 1).
 */
static int do_copy(const char *file)
{
	static char buf[1 << 20];
	long long total = 0;
	ssize_t n, done, w;
	const char *failed = NULL;
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd < 0) {
		fprintf(stderr, "copy: %s: %s\n", file, strerror(errno));
		printf("0\n");
		return 1;
	}
	while (!failed && (n = read(0, buf, sizeof(buf))) > 0) {
		for (done = 0; done < n; done += w) {
			w = write(fd, buf + done, n - done);
			if (w <= 0) {
				failed = w ? strerror(errno) : "wrote nothing";
				break;
			}
			total += w;
		}
	}
	if (!failed && n < 0)
		failed = strerror(errno);
	if (close(fd) && !failed)
		failed = strerror(errno);
	if (failed)
		fprintf(stderr, "copy: %s: %s after %lld bytes\n", file, failed, total);
	printf("%lld\n", total);
	return !!failed;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 4 && !strcmp(argv[1], "write"))
		return do_write(argv[2], argv[3]);
	if (argc == 6 && !strcmp(argv[1], "cycle"))
		return do_cycle(argv[2], atol(argv[3]), argv[4], argv[5]);
	if (argc == 4 && !strcmp(argv[1], "hit"))
		return do_hit(argv[2], atol(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "ret"))
		return do_ret(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "time"))
		return do_time(argv[2], atol(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "timewrite"))
		return do_timewrite(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "timelines"))
		return do_timelines(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "read"))
		return do_read(argv[2]);
	if (argc == 5 && !strcmp(argv[1], "fadvise"))
		return do_fadvise(argv[2], atoll(argv[3]), atoi(argv[4]));
	if (argc == 4 && !strcmp(argv[1], "readahead"))
		return do_readahead(argv[2], atoll(argv[3]));
	if (argc == 5 && !strcmp(argv[1], "refuse"))
		return do_refuse(argv[2], atol(argv[3]), argv[4]);
	if (argc == 4 && !strcmp(argv[1], "nocapwrite"))
		return do_nocapwrite(argv[2], argv[3]);
	if (argc == 5 && !strcmp(argv[1], "onlog"))
		return do_onlog(argv[2], argv[3], argv[4]);
	if (argc == 6 && !strcmp(argv[1], "tryoffsets"))
		return do_tryoffsets(argv[2], argv[3], atol(argv[4]), argv[5]);
	if (argc == 2 && !strcmp(argv[1], "clock"))
		return do_clock();
	if (argc == 3 && !strcmp(argv[1], "copy"))
		return do_copy(argv[2]);
	fprintf(stderr, "usage: pc-guest write FILE TEXT | hit SYSCALL N | ret SYSCALL |\n"
		"       pc-guest cycle FILE N ARM DISARM | time SYSCALL N |\n"
		"       pc-guest timewrite FILE TEXT | timelines FILE TEXT |\n"
		"       pc-guest refuse FILE N TEXT | read FILE | clock | copy FILE |\n"
		"       pc-guest fadvise FILE LEN ADVICE |\n"
		"       pc-guest nocapwrite FILE TEXT | onlog PATTERN FILE TEXT |\n"
		"       pc-guest tryoffsets FILE SYMBOL SIZE TYPE\n");
	return 2;
}
