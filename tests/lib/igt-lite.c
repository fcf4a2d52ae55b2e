// SPDX-License-Identifier: GPL-2.0
/*
 * igt-lite: subtest runner, assertions, device and debugfs helpers.
 */
#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "igt-lite.h"

#define DRM_MAJOR 226
#define DEBUGFS_ROOT "/sys/kernel/debug"

/* ------------------------------------------------------------------ */
/* output */

static void vprint_line(const char *prefix, const char *fmt, va_list ap)
{
	char msg[1024];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	printf("  %s%s\n", prefix, msg);
	fflush(stdout);
}

void igt_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint_line("", fmt, ap);
	va_end(ap);
}

void igt_skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprint_line("skip: ", fmt, ap);
	va_end(ap);
	exit(IGT_EXIT_SKIP);
}

void igt_fail_at(const char *file, int line, const char *fmt, ...)
{
	char where[256];
	va_list ap;

	snprintf(where, sizeof(where), "FAIL %s:%d: ", file, line);
	va_start(ap, fmt);
	vprint_line(where, fmt, ap);
	va_end(ap);
	exit(IGT_EXIT_FAIL);
}

const char *igt_errname(int ret)
{
	static const struct { int err; const char *name; } names[] = {
		{ EPERM, "EPERM" }, { ENOENT, "ENOENT" }, { EINTR, "EINTR" },
		{ ENXIO, "ENXIO" }, { E2BIG, "E2BIG" }, { EBADF, "EBADF" },
		{ EAGAIN, "EAGAIN" }, { ENOMEM, "ENOMEM" },
		{ EACCES, "EACCES" }, { EFAULT, "EFAULT" }, { EBUSY, "EBUSY" },
		{ ENODEV, "ENODEV" }, { EINVAL, "EINVAL" },
		{ ENOSPC, "ENOSPC" }, { ENOTTY, "ENOTTY" },
		{ ENOSYS, "ENOSYS" }, { EOPNOTSUPP, "EOPNOTSUPP" },
		{ EOVERFLOW, "EOVERFLOW" }, { ERANGE, "ERANGE" },
	};
	static char bufs[4][32];
	static int next;
	size_t i;

	if (ret == 0)
		return "success";
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (-ret == names[i].err)
			return names[i].name;
	next = (next + 1) % 4;
	snprintf(bufs[next], sizeof(bufs[next]), "%s", strerror(-ret));
	return bufs[next];
}

void igt_assert_mem_at(const char *file, int line, const void *got,
		       const void *want, size_t len, const char *fmt, ...)
{
	const unsigned char *g = got, *w = want;
	size_t i, first = len, bad = 0;
	char what[256];
	va_list ap;

	if (!memcmp(got, want, len))
		return;
	for (i = 0; i < len; i++) {
		if (g[i] != w[i]) {
			if (first == len)
				first = i;
			bad++;
		}
	}
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	igt_fail_at(file, line,
		    "%s: %zu of %zu bytes differ, first at offset %zu: got 0x%02x, expected 0x%02x",
		    what, bad, len, first, g[first], w[first]);
}

/* ------------------------------------------------------------------ */
/* the runner */

double igt_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void igt_sleep_ms(unsigned int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000l };
	int ret;

	while ((ret = nanosleep(&ts, &ts)) && errno == EINTR)
		;
	/* A sleep that did not sleep would make a test pass or fail for nothing. */
	igt_assert_f(!ret, "nanosleep: %s", strerror(errno));
}

static const char *basename_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static int run_one(const struct igt_subtest *t)
{
	unsigned int timeout = t->timeout_s ? t->timeout_s : 300;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return IGT_EXIT_FAIL;
	}
	if (pid == 0) {
		signal(SIGALRM, SIG_DFL);
		alarm(timeout);
		t->fn();
		fflush(stdout);
		exit(0);
	}
	return igt_wait(pid);
}

int igt_run(const char *argv0, const struct igt_subtest *tests, size_t n)
{
	const char *prog = basename_of(argv0);
	unsigned int pass = 0, fail = 0, skip = 0;
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < n; i++) {
		double t0 = igt_now();
		int rc = run_one(&tests[i]);
		const char *res;

		if (rc == 0) {
			res = "PASS";
			pass++;
		} else if (rc == IGT_EXIT_SKIP) {
			res = "SKIP";
			skip++;
		} else {
			res = "FAIL";
			fail++;
		}
		if (rc > 128)
			printf("%s/%s: %s (killed by signal %d%s) (%.2fs)\n",
			       prog, tests[i].name, res, rc - 128,
			       rc - 128 == SIGALRM ? ", timeout" : "",
			       igt_now() - t0);
		else
			printf("%s/%s: %s (%.2fs)\n", prog, tests[i].name, res,
			       igt_now() - t0);
	}
	printf("%s: subtests: pass %u, fail %u, skip %u\n", prog, pass, fail,
	       skip);
	if (fail)
		return IGT_EXIT_FAIL;
	return pass ? 0 : IGT_EXIT_SKIP;
}

/* ------------------------------------------------------------------ */
/* processes */

pid_t igt_fork(int (*fn)(void *arg), void *arg)
{
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		igt_fail("fork: %s", strerror(errno));
	if (pid == 0) {
		int rc = fn(arg);

		fflush(stdout);
		exit(rc);
	}
	return pid;
}

int igt_wait(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			igt_fail("waitpid: %s", strerror(errno));
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

void igt_fork_and_check(int (*fn)(void *arg), void *arg)
{
	int rc = igt_wait(igt_fork(fn, arg));

	if (rc == IGT_EXIT_SKIP)
		igt_skip("child process skipped");
	igt_assert_eq(rc, 0);
}

void igt_drop_root(void)
{
	const uid_t nobody = 65534;

	igt_assert_eq(setgroups(0, NULL), 0);
	igt_assert_eq(setgid(nobody), 0);
	igt_assert_eq(setuid(nobody), 0);
	igt_assert_eq(getuid(), nobody);
	igt_assert_eq(geteuid(), nobody);
	igt_assert_eq(getegid(), nobody);
	/* no way back: the capabilities are gone */
	igt_assert_neq(setuid(0), 0);
}

/* ------------------------------------------------------------------ */
/* the device */

int igt_ioctl(int fd, unsigned long request, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, request, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret == -1 ? -errno : ret;
}

bool igt_drm_driver_is(int fd, const char *want)
{
	struct drm_version v;
	char name[64];

	memset(&v, 0, sizeof(v));
	memset(name, 0, sizeof(name));
	v.name = name;
	v.name_len = sizeof(name) - 1;
	if (igt_ioctl(fd, DRM_IOCTL_VERSION, &v))
		return false;
	return v.name_len == strlen(want) && !strcmp(name, want);
}

const char *igt_device_slot(void)
{
	const char *slot = getenv(I915_PCI_SLOT_ENV);

	return slot && *slot ? slot : NULL;
}

int drm_device_slot(int fd, char *buf, size_t len)
{
	char path[64], link[256];
	struct stat st;
	const char *base;
	ssize_t n;

	if (fstat(fd, &st))
		return -errno;
	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/device",
		 major(st.st_rdev), minor(st.st_rdev));
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return -errno;
	link[n] = '\0';
	base = strrchr(link, '/');
	snprintf(buf, len, "%s", base ? base + 1 : link);
	return 0;
}

/* Is @fd the GPU under test (any i915 device without I915_PCI_SLOT)? */
static bool is_device_under_test(int fd)
{
	const char *want = igt_device_slot();
	char slot[64];

	if (!igt_drm_driver_is(fd, "i915"))
		return false;
	return !want || (!drm_device_slot(fd, slot, sizeof(slot)) &&
			 !strcmp(slot, want));
}

int __drm_open_driver(bool render)
{
	int first = render ? 128 : 0, i, err = -ENODEV;
	char path[64];

	for (i = first; i < first + 64; i++) {
		int fd;

		if (render)
			snprintf(path, sizeof(path), "/dev/dri/renderD%d", i);
		else
			snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			if (errno != ENOENT)
				err = -errno;
			continue;
		}
		if (is_device_under_test(fd))
			return fd;
		close(fd);
	}
	return err;
}

int drm_open_named(const char *name)
{
	char path[64];
	int i, fd;

	for (i = 0; i < 64; i++) {
		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		if (igt_drm_driver_is(fd, name))
			return fd;
		close(fd);
	}
	return -1;
}

static int open_or_skip(bool render)
{
	int fd = __drm_open_driver(render);

	if (fd == -ENODEV)
		igt_skip("no i915 %s node in /dev/dri%s%s",
			 render ? "render" : "primary",
			 igt_device_slot() ? " for PCI function " : "",
			 igt_device_slot() ?: "");
	if (fd < 0)
		igt_fail("opening the i915 %s node: %s",
			 render ? "render" : "primary", strerror(-fd));
	return fd;
}

int drm_open_driver(void)
{
	return open_or_skip(false);
}

int drm_open_driver_render(void)
{
	return open_or_skip(true);
}

int drm_minor(int fd)
{
	struct stat st;

	igt_assert_eq(fstat(fd, &st), 0);
	igt_assert(S_ISCHR(st.st_mode));
	igt_assert_eq(major(st.st_rdev), DRM_MAJOR);
	return minor(st.st_rdev);
}

uint64_t drm_aperture_size(int fd)
{
	unsigned long long start, end, flags;
	char path[160], buf[1024];
	FILE *f;
	int i;

	/* The third line of sysfs "resource" is BAR 2, the aperture. */
	snprintf(path, sizeof(path), "/sys/dev/char/%d:%d/device/resource",
		 DRM_MAJOR, drm_minor(fd));
	f = fopen(path, "r");
	igt_assert_f(f, "%s: %s\n", path, strerror(errno));
	for (i = 0; i < 3; i++)
		igt_assert(fgets(buf, sizeof(buf), f));
	fclose(f);
	igt_assert_eq(sscanf(buf, "%llx %llx %llx", &start, &end, &flags), 3);
	igt_assert(end > start);
	return end - start + 1;
}

int drm_primary_minor(int fd)
{
	int m = drm_minor(fd), found = -1;
	struct dirent *de;
	char path[128];
	DIR *dir;

	if (m < 64)
		return m;
	snprintf(path, sizeof(path), "/sys/dev/char/%d:%d/device/drm",
		 DRM_MAJOR, m);
	dir = opendir(path);
	igt_assert_f(dir, "opendir %s: %s", path, strerror(errno));
	while ((de = readdir(dir))) {
		if (!strncmp(de->d_name, "card", 4) &&
		    isdigit((unsigned char)de->d_name[4]))
			found = atoi(de->d_name + 4);
	}
	closedir(dir);
	igt_assert_f(found >= 0, "no card node beside render minor %d", m);
	return found;
}

void drm_node_path(int fd, char *buf, size_t len)
{
	int m = drm_minor(fd);

	if (m >= 128)
		snprintf(buf, len, "/dev/dri/renderD%d", m);
	else
		snprintf(buf, len, "/dev/dri/card%d", m);
}

static int read_file(const char *path, char *buf, size_t len)
{
	size_t total = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while (total + 1 < len) {
		ssize_t r = read(fd, buf + total, len - 1 - total);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			close(fd);
			return r;
		}
		if (r == 0)
			break;
		total += r;
	}
	buf[total] = '\0';
	close(fd);
	return total;
}

unsigned long long drm_sysfs_device_attr(int fd, const char *attr)
{
	char path[160], buf[64];
	int ret;

	snprintf(path, sizeof(path), "/sys/dev/char/%d:%d/device/%s",
		 DRM_MAJOR, drm_minor(fd), attr);
	ret = read_file(path, buf, sizeof(buf));
	igt_assert_f(ret > 0, "reading %s: %s", path, igt_errname(ret));
	return strtoull(buf, NULL, 0);
}

/* ------------------------------------------------------------------ */
/* debugfs */

static void debugfs_path(int fd, const char *name, char *buf, size_t len)
{
	struct stat st;

	if (stat(DEBUGFS_ROOT "/dri", &st))
		mount("debugfs", DEBUGFS_ROOT, "debugfs", 0, NULL);
	snprintf(buf, len, DEBUGFS_ROOT "/dri/%d/%s", drm_primary_minor(fd),
		 name);
}

int igt_debugfs_read(int fd, const char *name, char *buf, size_t len)
{
	char path[256];

	debugfs_path(fd, name, path, sizeof(path));
	return read_file(path, buf, len);
}

int igt_write_file(const char *path, const char *str)
{
	size_t len = strlen(str);
	ssize_t w;
	int fd;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	w = write(fd, str, len);
	if (w < 0)
		w = -errno;
	close(fd);
	if (w >= 0 && (size_t)w != len)
		return -EIO;
	return w < 0 ? (int)w : 0;
}

long long igt_debugfs_value(int fd, const char *name, const char *key)
{
	char *buf = malloc(1 << 14);
	long long v;
	int ret;

	igt_assert(buf);
	ret = igt_debugfs_read(fd, name, buf, 1 << 14);
	igt_assert_f(ret >= 0, "debugfs %s: %s", name, igt_errname(ret));
	ret = igt_key_value(buf, key, &v);
	igt_assert_f(!ret, "no \"%s\" in debugfs %s:\n%s", key, name, buf);
	free(buf);
	return v;
}

int igt_debugfs_write(int fd, const char *name, const char *str)
{
	char path[256];

	debugfs_path(fd, name, path, sizeof(path));
	return igt_write_file(path, str);
}

void igt_gem_objects(int fd, long long *count, long long *bytes)
{
	char buf[4096], *nl, *p, *b;
	long long last = -1;
	int ret;

	ret = igt_debugfs_read(fd, "i915_gem_objects", buf, sizeof(buf));
	igt_assert_f(ret > 0, "reading i915_gem_objects: %s",
		     igt_errname(ret));
	nl = strchr(buf, '\n');
	if (nl)
		*nl = '\0';
	*count = -1;
	*bytes = -1;
	b = strstr(buf, "bytes");
	/* count: the first number; bytes: the last number before "bytes" */
	for (p = buf; *p; ) {
		if (isdigit((unsigned char)*p)) {
			char *end;
			long long v = strtoll(p, &end, 10);

			if (*count < 0)
				*count = v;
			else if (!b || p < b)
				last = v;
			p = end;
		} else {
			p++;
		}
	}
	if (b)
		*bytes = last;
	igt_assert_f(*count >= 0, "no object count in \"%s\"", buf);
}

/* ------------------------------------------------------------------ */
/* misc */

int igt_key_value(const char *text, const char *key, long long *value)
{
	size_t klen = strlen(key);
	const char *p;

	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, key, klen) && p[klen] == ':') {
			*value = strtoll(p + klen + 1, NULL, 0);
			return 0;
		}
	}
	return -ENOENT;
}

int igt_file_key_value(const char *path, const char *key, long long *value)
{
	static char buf[1 << 16];
	int ret = read_file(path, buf, sizeof(buf));

	return ret < 0 ? ret : igt_key_value(buf, key, value);
}

long long igt_meminfo_kib(const char *key)
{
	long long v;

	return igt_file_key_value("/proc/meminfo", key, &v) ? -1 : v;
}

bool igt_cpu_has_flag(const char *flag)
{
	static char buf[1 << 16];
	char *line, *p;
	size_t flen = strlen(flag);

	if (read_file("/proc/cpuinfo", buf, sizeof(buf)) <= 0)
		return false;
	line = strstr(buf, "\nflags");
	if (!line)
		return false;
	p = strchr(line, ':');
	if (!p)
		return false;
	for (line = strchr(p, '\n') ? strchr(p, '\n') : p + strlen(p);
	     p < line; p++) {
		if (p[0] == ' ' && !strncmp(p + 1, flag, flen) &&
		    (p[flen + 1] == ' ' || p[flen + 1] == '\n'))
			return true;
	}
	return false;
}

void igt_fill_pattern(void *buf, size_t len, uint32_t seed)
{
	uint32_t x = seed * 2654435761u + 0x9e3779b9u;
	unsigned char *p = buf;
	size_t i;

	if (!x)
		x = 1;
	for (i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (unsigned char)(x >> 7);
	}
}
