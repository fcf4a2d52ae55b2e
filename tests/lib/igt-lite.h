/* SPDX-License-Identifier: GPL-2.0 */
/*
 * igt-lite: the small test framework of the i915gem test programs.
 *
 * A test program is a table of subtests run by igt_main(). Each subtest
 * runs in its own child process, so a failed assertion, a crash or a
 * leaked handle in one subtest cannot disturb the next; every subtest
 * opens the DRM nodes it needs itself. One line is printed per subtest.
 * The program exits 0 when every subtest passed or skipped (and at least
 * one passed), 77 when all skipped, 1 otherwise.
 *
 * Assertions print file:line, the expression and the values, then end
 * the subtest as failed. igt_ioctl() returns 0 or -errno.
 */
#ifndef IGT_LITE_H
#define IGT_LITE_H

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include <drm/drm.h>
#include <drm/i915_drm.h>

#define IGT_EXIT_SKIP 77
#define IGT_EXIT_FAIL 1

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define PAGE_SZ 4096ull

/* ------------------------------------------------------------------ */
/* subtests */

struct igt_subtest {
	const char *name;
	void (*fn)(void);
	unsigned int timeout_s;	/* 0: the default (300 s) */
};

#define SUBTEST(n) { #n, subtest_##n, 0 }
#define SUBTEST_T(n, t) { #n, subtest_##n, (t) }

/*
 * Run every subtest of @tests in turn, each in a child process, and
 * return the program's exit code. @argv0 names the program in output.
 */
int igt_run(const char *argv0, const struct igt_subtest *tests, size_t n);

#define igt_main(table) \
	int main(int argc, char **argv) \
	{ \
		(void)argc; \
		return igt_run(argv[0], table, ARRAY_SIZE(table)); \
	}

/* Print an informational line, indented under the current subtest. */
void igt_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* End the current subtest (or whole program outside one) as skipped. */
void igt_skip(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

/* End the current subtest as failed. */
void igt_fail_at(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), noreturn));

#define igt_fail(...) igt_fail_at(__FILE__, __LINE__, __VA_ARGS__)

/* ------------------------------------------------------------------ */
/* assertions */

#define igt_assert(expr) do { \
	if (!(expr)) \
		igt_fail_at(__FILE__, __LINE__, "assertion failed: %s", \
			    #expr); \
} while (0)

#define igt_assert_f(expr, ...) do { \
	if (!(expr)) { \
		igt_info("assertion failed: %s", #expr); \
		igt_fail_at(__FILE__, __LINE__, __VA_ARGS__); \
	} \
} while (0)

#define __igt_assert_cmp(type, fmt, a, op, b) do { \
	type __a = (a), __b = (b); \
	if (!(__a op __b)) \
		igt_fail_at(__FILE__, __LINE__, \
			    "assertion failed: %s %s %s (" fmt " %s " fmt ")", \
			    #a, #op, #b, __a, #op, __b); \
} while (0)

/* signed / unsigned comparisons, values printed in decimal or hex */
#define igt_assert_eq(a, b)   __igt_assert_cmp(long long, "%lld", a, ==, b)
#define igt_assert_neq(a, b)  __igt_assert_cmp(long long, "%lld", a, !=, b)
#define igt_assert_lt(a, b)   __igt_assert_cmp(long long, "%lld", a, <, b)
#define igt_assert_lte(a, b)  __igt_assert_cmp(long long, "%lld", a, <=, b)
#define igt_assert_eq_u64(a, b) \
	__igt_assert_cmp(unsigned long long, "%#llx", a, ==, b)
#define igt_assert_lte_u64(a, b) \
	__igt_assert_cmp(unsigned long long, "%#llx", a, <=, b)

/* an ioctl's result (0 or -errno) against the expected one */
#define igt_assert_err(ret, expect) do { \
	int __r = (ret), __e = (expect); \
	if (__r != __e) \
		igt_fail_at(__FILE__, __LINE__, \
			    "%s returned %d (%s), expected %d (%s)", \
			    #ret, __r, igt_errname(__r), __e, \
			    igt_errname(__e)); \
} while (0)

#define igt_assert_ok(ret) igt_assert_err(ret, 0)

/* "0", "-EINVAL", ... for an ioctl result; a static buffer for others */
const char *igt_errname(int ret);

/*
 * Compare @len bytes at @got with @want; on the first difference print
 * its offset, the two bytes and @what, then fail.
 */
#define igt_assert_mem(got, want, len, ...) \
	igt_assert_mem_at(__FILE__, __LINE__, got, want, len, __VA_ARGS__)
void igt_assert_mem_at(const char *file, int line, const void *got,
		       const void *want, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* ------------------------------------------------------------------ */
/* the device */

/*
 * The GPU under test: the PCI slot name (e.g. "ffff:00:02.0") in the
 * environment variable I915_PCI_SLOT, which tests/run-suite.sh sets for
 * each GPU it runs a test on; NULL when unset or empty (then the first
 * i915 device is the one).
 */
#define I915_PCI_SLOT_ENV "I915_PCI_SLOT"
const char *igt_device_slot(void);

/*
 * Open the first primary (card) or render node whose driver is "i915"
 * and, with I915_PCI_SLOT set, whose device is that PCI function.
 * Skips the subtest if there is none; the caller closes the fd.
 */
int drm_open_driver(void);
int drm_open_driver_render(void);
/* the same, but returns -errno instead of skipping (for unprivileged) */
int __drm_open_driver(bool render);

/* the first primary node of the DRM driver @name (e.g. "vgem"), or -1 */
int drm_open_named(const char *name);

/* is @fd a node of the DRM driver named @want (DRM_IOCTL_VERSION)? */
bool igt_drm_driver_is(int fd, const char *want);

/* DRM minor number of @fd (0.. for card, 128.. for render nodes) */
int drm_minor(int fd);
/* size of the mappable aperture (BAR 2) of @fd's device, from sysfs */
uint64_t drm_aperture_size(int fd);
/* minor of the primary node of the device @fd belongs to */
int drm_primary_minor(int fd);
/* path of the device node of @fd, e.g. "/dev/dri/renderD128" */
void drm_node_path(int fd, char *buf, size_t len);
/* PCI slot name of @fd's device into @buf; 0 or -errno */
int drm_device_slot(int fd, char *buf, size_t len);

/* The ioctl, retried on EINTR/EAGAIN; 0 or -errno. */
int igt_ioctl(int fd, unsigned long request, void *arg);

/*
 * Read the sysfs attribute "device/<attr>" of @fd's DRM minor
 * (/sys/dev/char/226:<minor>/device/<attr>) as a number.
 */
unsigned long long drm_sysfs_device_attr(int fd, const char *attr);

/* ------------------------------------------------------------------ */
/* debugfs: /sys/kernel/debug/dri/<primary minor>/<name> */

/*
 * Read the whole file into @buf (NUL-terminated); returns bytes read
 * or -errno. Mounts debugfs if it is not mounted.
 */
int igt_debugfs_read(int fd, const char *name, char *buf, size_t len);
/* write @str to the file; 0 or -errno */
int igt_debugfs_write(int fd, const char *name, const char *str);
/*
 * The number on the line "@key: N" of debugfs file @name (see
 * igt_key_value()); fails the test if the file or the line is missing.
 */
long long igt_debugfs_value(int fd, const char *name, const char *key);
/* write @str to the file at @path (sysfs, /proc...); 0, -errno, or -EIO
 * for a short write */
int igt_write_file(const char *path, const char *str);
/* i915_gem_objects first line: object count and bytes (-1 if absent) */
void igt_gem_objects(int fd, long long *count, long long *bytes);

/* ------------------------------------------------------------------ */
/* processes */

/*
 * Fork; the child runs @fn(@arg) and exits with its return value (an
 * assertion failing in it exits 1). Returns the child's pid.
 */
pid_t igt_fork(int (*fn)(void *arg), void *arg);
/* Wait for @pid; returns its exit code, or 128 + signal. */
int igt_wait(pid_t pid);
/* Fork, run, wait, and assert that the child exited 0. */
void igt_fork_and_check(int (*fn)(void *arg), void *arg);

/* Become uid/gid 65534 (nobody), dropping every capability. */
void igt_drop_root(void);

/* ------------------------------------------------------------------ */
/* misc */

/*
 * The number after "@key:" at the start of a line of @text (or of the
 * file @path), any base strtoll() reads: 0, -ENOENT if no line has it,
 * or -errno reading the file.
 */
int igt_key_value(const char *text, const char *key, long long *value);
int igt_file_key_value(const char *path, const char *key, long long *value);
/* value of "Key:" in /proc/meminfo, in KiB, or -1 */
long long igt_meminfo_kib(const char *key);
/* true if /proc/cpuinfo lists the flag @flag */
bool igt_cpu_has_flag(const char *flag);
/* fill @len bytes with a pattern determined by @seed */
void igt_fill_pattern(void *buf, size_t len, uint32_t seed);
/* monotonic seconds */
double igt_now(void);
/* sleep @ms milliseconds, whole, across signals */
void igt_sleep_ms(unsigned int ms);

#endif /* IGT_LITE_H */
