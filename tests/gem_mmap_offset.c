// SPDX-License-Identifier: GPL-2.0
/*
 * gem_mmap_offset: MMAP_OFFSET with every type Gen3/Gen4 have (GTT, WC,
 * WB, UC; FIXED is for discrete parts: ENODEV), as igt's gem_mmap_offset
 * expects: one offset per object and type, the bytes coherent with pread
 * and pwrite, a mapping that outlives its handle, another client refused
 * (EACCES), every bad handle, flag and extension answering upstream's
 * errno, ptrace and /proc/pid/mem through the mapping with an access past
 * the object failing whole (EIO), munmap of a part, fork.
 */
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gem.h"

struct type {
	const char *name;
	uint64_t flags;
	uint32_t domain;	/* for SET_DOMAIN around accesses, or 0 */
	bool pat;		/* needs PAT, else ENODEV */
};

static const struct type types[] = {
	{ "gtt", I915_MMAP_OFFSET_GTT, I915_GEM_DOMAIN_GTT, false },
	{ "wc", I915_MMAP_OFFSET_WC, I915_GEM_DOMAIN_WC, true },
	{ "wb", I915_MMAP_OFFSET_WB, I915_GEM_DOMAIN_CPU, false },
	{ "uc", I915_MMAP_OFFSET_UC, I915_GEM_DOMAIN_WC, true },
};

#define for_each_type(t) \
	for (t = types; t < types + ARRAY_SIZE(types); t++)

static bool have_type(const struct type *t)
{
	return !t->pat || igt_cpu_has_flag("pat");
}

static int mmap_offset_ioctl(int fd, struct drm_i915_gem_mmap_offset *arg)
{
	return igt_ioctl(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, arg);
}

static void subtest_bad_object(void)
{
	int fd = drm_open_driver();
	uint32_t h = gem_create(fd, PAGE_SZ);
	uint32_t bad[] = { 0, 0xdeadbeef, h + 1, h | (1u << 20) };
	const struct type *t;
	uint64_t off;
	unsigned int i;

	for_each_type(t)
		for (i = 0; i < ARRAY_SIZE(bad); i++)
			igt_assert_err(__gem_mmap_offset(fd, bad[i], t->flags,
							 &off), -ENOENT);
	/* FIXED: a bad handle first, then ENODEV for a real one */
	igt_assert_err(__gem_mmap_offset(fd, h + 1, I915_MMAP_OFFSET_FIXED,
					 &off), -ENOENT);
	igt_assert_err(__gem_mmap_offset(fd, h, I915_MMAP_OFFSET_FIXED, &off),
		       -ENODEV);
	gem_close(fd, h);
	close(fd);
}

static void subtest_bad_flags(void)
{
	int fd = drm_open_driver();
	uint64_t bad[] = { 5, 6, 0x100, 1ull << 32, -1ull };
	struct drm_i915_gem_mmap_offset arg = { .handle = gem_create(fd, 4096) };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		arg.flags = bad[i];
		igt_assert_err(mmap_offset_ioctl(fd, &arg), -EINVAL);
	}
	/* unknown flags are refused before the handle is looked up */
	arg.handle = 0;
	igt_assert_err(mmap_offset_ioctl(fd, &arg), -EINVAL);
	close(fd);
}

static void subtest_bad_extensions(void)
{
	int fd = drm_open_driver();
	struct i915_user_extension ext = { 0 };
	struct drm_i915_gem_mmap_offset arg = {
		.handle = gem_create(fd, 4096),
		.extensions = -1ull,
	};

	igt_assert_err(mmap_offset_ioctl(fd, &arg), -EFAULT);
	arg.extensions = to_user_pointer(&ext);
	ext.name = -1;
	igt_assert_err(mmap_offset_ioctl(fd, &arg), -EINVAL);
	ext.name = 0; /* no extension is known */
	igt_assert_err(mmap_offset_ioctl(fd, &arg), -EINVAL);
	ext.flags = 1;
	igt_assert_err(mmap_offset_ioctl(fd, &arg), -EINVAL);
	ext.flags = 0;
	ext.rsvd[2] = 1;
	igt_assert_err(mmap_offset_ioctl(fd, &arg), -EINVAL);
	close(fd);
}

/* pad and the incoming offset are not checked (upstream's fixed ABI) */
static void subtest_pad_ignored(void)
{
	int fd = drm_open_driver();
	struct drm_i915_gem_mmap_offset arg = {
		.handle = gem_create(fd, 4096),
		.pad = 0xffffffff,
		.offset = 0x1234,
		.flags = I915_MMAP_OFFSET_WB,
	};

	igt_assert_ok(mmap_offset_ioctl(fd, &arg));
	igt_assert(arg.offset != 0x1234 && !(arg.offset & (PAGE_SZ - 1)));
	close(fd);
}

/* one offset per object and type, the same each time it is asked */
static void subtest_offsets(void)
{
	int fd = drm_open_driver();
	uint32_t a = gem_create(fd, PAGE_SZ), b = gem_create(fd, PAGE_SZ);
	uint64_t off[2][ARRAY_SIZE(types)], again;
	const struct type *t;
	unsigned int i, j;

	for_each_type(t) {
		i = t - types;
		if (!have_type(t)) {
			igt_assert_err(__gem_mmap_offset(fd, a, t->flags,
							 &again), -ENODEV);
			off[0][i] = off[1][i] = -1ull - i;
			continue;
		}
		igt_assert_ok(__gem_mmap_offset(fd, a, t->flags, &off[0][i]));
		igt_assert_ok(__gem_mmap_offset(fd, b, t->flags, &off[1][i]));
		igt_assert_ok(__gem_mmap_offset(fd, a, t->flags, &again));
		igt_assert_eq_u64(again, off[0][i]);
	}
	for (i = 0; i < 2 * ARRAY_SIZE(types); i++)
		for (j = i + 1; j < 2 * ARRAY_SIZE(types); j++)
			igt_assert(off[i / ARRAY_SIZE(types)]
				      [i % ARRAY_SIZE(types)] !=
				   off[j / ARRAY_SIZE(types)]
				      [j % ARRAY_SIZE(types)]);
	close(fd);
}

/* igt's basic-uaf: clear, coherent both ways, resident after close */
static void subtest_basic_uaf(void)
{
	const uint64_t size = 4096;
	int fd = drm_open_driver();
	const struct type *t;

	for_each_type(t) {
		uint8_t zero[4096] = { 0 }, buf[4096] = { 0 };
		uint32_t h = gem_create(fd, size);
		uint8_t *addr;

		if (!have_type(t)) {
			gem_close(fd, h);
			continue;
		}
		addr = gem_mmap_offset(fd, h, size, t->flags);
		gem_set_domain(fd, h, t->domain, 0);
		igt_assert_mem(addr, zero, size, "%s: new object", t->name);

		memset(buf + 1024, 0x01, 1024);
		gem_write(fd, h, 0, buf, size);
		gem_set_domain(fd, h, t->domain, 0);
		igt_assert_mem(addr, buf, size, "%s: after pwrite", t->name);

		gem_set_domain(fd, h, t->domain, t->domain);
		memset(addr + 2048, 0xff, 1024);
		gem_read(fd, h, 0, buf, size);
		igt_assert_mem(addr, buf, size, "%s: pread", t->name);

		gem_close(fd, h);
		igt_assert_mem(addr, buf, size, "%s: after close", t->name);
		igt_assert_eq(munmap(addr, size), 0);
	}
	igt_assert_eq(gem_wait_object_count(fd, 0), 0);
	close(fd);
}

/* igt's isolation: offsets are per client, and die with the client */
static void subtest_isolation(void)
{
	int fd = drm_open_driver();
	const struct type *t;

	for_each_type(t) {
		int A = drm_open_driver(), B = drm_open_driver();
		uint32_t a = gem_create(A, 4096), b = gem_open(B, gem_flink(A, a));
		uint64_t oa, ob;
		void *p;

		if (!have_type(t)) {
			close(A);
			close(B);
			continue;
		}
		igt_assert_ok(__gem_mmap_offset(A, a, t->flags, &oa));
		igt_assert_ok(__gem_mmap_offset(B, b, t->flags, &ob));
		igt_assert_eq_u64(oa, ob); /* one object, one offset */

		p = mmap(0, 4096, PROT_READ, MAP_SHARED, fd, oa);
		igt_assert(p == MAP_FAILED && errno == EACCES);
		close(B);
		p = mmap(0, 4096, PROT_READ, MAP_SHARED, A, oa);
		igt_assert(p != MAP_FAILED);
		igt_assert_eq(munmap(p, 4096), 0);
		close(A);
		p = mmap(0, 4096, PROT_READ, MAP_SHARED, A, oa);
		igt_assert(p == MAP_FAILED);
	}
	close(fd);
}

/* igt's oob-read: /proc/self/mem reads the map, but not past its end */
static void subtest_oob_read(void)
{
	int fd = drm_open_driver();
	uint32_t h = gem_create(fd, 4096);
	const struct type *t;

	for_each_type(t) {
		int mem = open("/proc/self/mem", O_RDWR);
		uint32_t *ptr, v[2];

		if (!have_type(t))
			continue;
		igt_assert(mem >= 0);
		ptr = gem_mmap_offset(fd, h, 4096, t->flags);
		ptr[1023] = 0x600dd00d;
		igt_assert(pread(mem, v, 4, (uintptr_t)ptr + 4092) == 4);
		igt_assert_eq(v[0], 0x600dd00d);
		errno = 0;
		igt_assert_eq(pread(mem, v, 8, (uintptr_t)ptr + 4092), -1);
		igt_assert_eq(errno, EIO);
		igt_assert_eq(munmap(ptr, 4096), 0);
		close(mem);
	}
	gem_close(fd, h);
	close(fd);
}

/* igt's ptrace: PEEKDATA and POKEDATA through a child's mapping */
static void subtest_ptrace(void)
{
	const unsigned int size = 3 * 4096;
	int fd = drm_open_driver();
	uint32_t h = gem_create(fd, size);
	const struct type *t;

	for_each_type(t) {
		unsigned long *ptr, aa, cc;
		unsigned int i;
		int status;
		pid_t pid;

		if (!have_type(t))
			continue;
		memset(&aa, 0xaa, sizeof(aa));
		memset(&cc, 0x55, sizeof(cc));
		ptr = gem_mmap_offset(fd, h, size, t->flags);
		memset(ptr, 0x55, size);

		pid = fork();
		igt_assert(pid >= 0);
		if (pid == 0) {
			ptrace(PTRACE_TRACEME, 0, NULL, NULL);
			raise(SIGSTOP);
			_exit(0);
		}
		igt_assert_eq(waitpid(pid, &status, WUNTRACED), pid);
		for (i = 0; i < size / sizeof(long); i++) {
			errno = 0;
			igt_assert_eq_u64(ptrace(PTRACE_PEEKDATA, pid,
						 ptr + i, NULL), cc);
			igt_assert_eq(errno, 0);
			igt_assert_eq(ptrace(PTRACE_POKEDATA, pid, ptr + i,
					     (void *)aa), 0);
		}
		ptrace(PTRACE_CONT, pid, NULL, NULL);
		igt_assert_eq(waitpid(pid, &status, 0), pid);
		/* the child's writes went to the shared object */
		for (i = 0; i < size / sizeof(long); i++)
			igt_assert_eq_u64(ptr[i], aa);
		igt_assert_eq(munmap(ptr, size), 0);
	}
	gem_close(fd, h);
	close(fd);
}

/* munmap of the middle keeps the rest; fork shares the object */
static void subtest_munmap_fork(void)
{
	const uint64_t size = 4 * PAGE_SZ;
	int fd = drm_open_driver();
	const struct type *t;

	for_each_type(t) {
		uint32_t h = gem_create(fd, size), v;
		uint8_t *p;
		int status;
		pid_t pid;

		if (!have_type(t)) {
			gem_close(fd, h);
			continue;
		}
		p = gem_mmap_offset(fd, h, size, t->flags);
		igt_assert_eq(munmap(p + PAGE_SZ, 2 * PAGE_SZ), 0);
		p[0] = 1;
		p[3 * PAGE_SZ] = 4;
		pid = fork();
		igt_assert(pid >= 0);
		if (pid == 0) {
			if (p[0] != 1 || p[3 * PAGE_SZ] != 4)
				_exit(1);
			p[3 * PAGE_SZ + 4] = 9;
			_exit(0);
		}
		igt_assert_eq(waitpid(pid, &status, 0), pid);
		igt_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		gem_read(fd, h, 3 * PAGE_SZ + 4, &v, 1);
		igt_assert_eq(v & 0xff, 9);
		gem_read(fd, h, 0, &v, 1);
		igt_assert_eq(v & 0xff, 1);
		igt_assert_eq(munmap(p, PAGE_SZ), 0);
		igt_assert_eq(munmap(p + 3 * PAGE_SZ, PAGE_SZ), 0);
		gem_close(fd, h);
	}
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(bad_object),
	SUBTEST(bad_flags),
	SUBTEST(bad_extensions),
	SUBTEST(pad_ignored),
	SUBTEST(offsets),
	SUBTEST(basic_uaf),
	SUBTEST(isolation),
	SUBTEST(oob_read),
	SUBTEST(ptrace),
	SUBTEST(munmap_fork),
};

igt_main(tests)
