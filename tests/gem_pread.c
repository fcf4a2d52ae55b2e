// SPDX-License-Identifier: GPL-2.0
/*
 * gem_pread: DRM_IOCTL_I915_GEM_PREAD at any offset and length, its
 * bounds and overflow checks (EINVAL), bad handles (ENOENT) and bad user
 * memory (EFAULT, with the object unchanged).
 */
#include <sys/mman.h>
#include <unistd.h>

#include "gem.h"

#define OBJ_SIZE (5 * PAGE_SZ)	/* created as 4 pages + 1 byte */
#define GUARD 64

struct obj {
	int fd;
	uint32_t handle;
	unsigned char *data;	/* what the object contains */
};

static void obj_init(struct obj *o)
{
	uint64_t size = 4 * PAGE_SZ + 1;

	o->fd = drm_open_driver();
	igt_assert_ok(__gem_create(o->fd, &size, &o->handle));
	igt_assert_eq_u64(size, OBJ_SIZE);
	o->data = malloc(OBJ_SIZE);
	igt_assert(o->data);
	igt_fill_pattern(o->data, OBJ_SIZE, 0xc0);
	gem_write(o->fd, o->handle, 0, o->data, OBJ_SIZE);
}

static void obj_check(struct obj *o, const char *what)
{
	unsigned char *buf = malloc(OBJ_SIZE);

	igt_assert(buf);
	gem_read(o->fd, o->handle, 0, buf, OBJ_SIZE);
	igt_assert_mem(buf, o->data, OBJ_SIZE, "object after %s", what);
	free(buf);
}

static void obj_fini(struct obj *o)
{
	gem_close(o->fd, o->handle);
	close(o->fd);
	free(o->data);
}

/*
 * Read [off, off + len) into a buffer with guard bytes on both sides:
 * the bytes must match and the guards stay untouched.
 */
static void check_read(struct obj *o, uint64_t off, uint64_t len,
		       unsigned int misalign)
{
	size_t total = len + 2 * GUARD + misalign;
	unsigned char *buf = malloc(total), *guard = malloc(total);

	igt_assert(buf && guard);
	memset(buf, 0xcd, total);
	memset(guard, 0xcd, total);
	gem_read(o->fd, o->handle, off, buf + GUARD + misalign, len);
	igt_assert_mem(buf + GUARD + misalign, o->data + off, len,
		       "pread offset %llu length %llu",
		       (unsigned long long)off, (unsigned long long)len);
	igt_assert_mem(buf, guard, GUARD + misalign, "guard before");
	igt_assert_mem(buf + GUARD + misalign + len, guard, GUARD,
		       "guard after");
	free(buf);
	free(guard);
}

/* offsets and lengths that start, end and cross page boundaries */
static void subtest_offsets_lengths(void)
{
	static const uint64_t offsets[] = { 0, 1, 4095, 4096, 4097 };
	static const uint64_t lengths[] = { 1, 3, 4096, 8193 };
	struct obj o;
	size_t i, j;

	obj_init(&o);
	for (i = 0; i < ARRAY_SIZE(offsets); i++)
		for (j = 0; j < ARRAY_SIZE(lengths); j++)
			check_read(&o, offsets[i], lengths[j], 0);
	obj_fini(&o);
}

static void subtest_to_the_end(void)
{
	struct obj o;

	obj_init(&o);
	check_read(&o, OBJ_SIZE - 1, 1, 0);
	check_read(&o, OBJ_SIZE - PAGE_SZ - 5, PAGE_SZ + 5, 0);
	check_read(&o, 0, OBJ_SIZE, 0);
	obj_fini(&o);
}

static void subtest_unaligned_destination(void)
{
	struct obj o;
	unsigned int k;

	obj_init(&o);
	for (k = 1; k < 8; k += 3)
		check_read(&o, 100 + k, 2 * PAGE_SZ + 5, k);
	obj_fini(&o);
}

/* a new object reads as zeroes, in every page */
static void subtest_new_object_zero(void)
{
	const uint64_t size = 16 * PAGE_SZ;
	unsigned char *buf = malloc(size), *zero = calloc(1, size);
	int fd = drm_open_driver();
	uint32_t handle = gem_create(fd, size);

	igt_assert(buf && zero);
	memset(buf, 0xff, size);
	gem_read(fd, handle, 0, buf, size);
	igt_assert_mem(buf, zero, size, "a new object");
	gem_close(fd, handle);
	close(fd);
	free(buf);
	free(zero);
}

/* size 0 is a no-op, whatever the pointer */
static void subtest_size_zero(void)
{
	unsigned char byte = 0xee;
	struct obj o;

	obj_init(&o);
	igt_assert_ok(__gem_read(o.fd, o.handle, 0, &byte, 0));
	igt_assert_eq(byte, 0xee);
	igt_assert_ok(__gem_read(o.fd, o.handle, 7, NULL, 0));
	igt_assert_ok(__gem_read(o.fd, o.handle, OBJ_SIZE, &byte, 0));
	igt_assert_eq(byte, 0xee);
	obj_fini(&o);
}

/* offset + size beyond the object: EINVAL, the buffer untouched */
static void subtest_beyond_object(void)
{
	static const struct { uint64_t off, len; } cases[] = {
		{ 0, OBJ_SIZE + 1 },
		{ 1, OBJ_SIZE },
		{ OBJ_SIZE - 1, 2 },
		{ OBJ_SIZE, 1 },
		{ OBJ_SIZE + PAGE_SZ, 1 },
		{ 1ull << 32, 1 },
	};
	unsigned char *buf = malloc(OBJ_SIZE + 1);
	unsigned char *want = malloc(OBJ_SIZE + 1);
	struct obj o;
	size_t i;

	igt_assert(buf && want);
	memset(buf, 0x11, OBJ_SIZE + 1);
	memset(want, 0x11, OBJ_SIZE + 1);
	obj_init(&o);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int ret = __gem_read(o.fd, o.handle, cases[i].off, buf,
				     cases[i].len);

		if (ret != -EINVAL)
			igt_info("offset %#llx size %#llx",
				 (unsigned long long)cases[i].off,
				 (unsigned long long)cases[i].len);
		igt_assert_err(ret, -EINVAL);
	}
	igt_assert_mem(buf, want, OBJ_SIZE + 1, "buffer of rejected preads");
	obj_fini(&o);
	free(buf);
	free(want);
}

static void subtest_offset_overflow(void)
{
	unsigned char buf[16];
	struct obj o;

	obj_init(&o);
	igt_assert_err(__gem_read(o.fd, o.handle, ~0ull - 1, buf, 2),
		       -EINVAL);
	igt_assert_err(__gem_read(o.fd, o.handle, ~0ull, buf, 1), -EINVAL);
	igt_assert_err(__gem_read(o.fd, o.handle, ~0ull - 4, buf, 16),
		       -EINVAL);
	obj_fini(&o);
}

/* upstream checks access_ok() of the user range first: EFAULT */
static void subtest_size_overflow(void)
{
	unsigned char buf[16];
	struct obj o;

	obj_init(&o);
	igt_assert_err(__gem_read(o.fd, o.handle, 0, buf, ~0ull), -EFAULT);
	igt_assert_err(__gem_read(o.fd, o.handle, 4096, buf, 1ull << 63),
		       -EFAULT);
	obj_check(&o, "overflowing preads");
	obj_fini(&o);
}

static void subtest_bad_handle(void)
{
	unsigned char buf[16];
	int fd = drm_open_driver();

	igt_assert_err(__gem_read(fd, 0, 0, buf, 1), -ENOENT);
	igt_assert_err(__gem_read(fd, 0xdeadbeef, 0, buf, 16), -ENOENT);
	close(fd);
}

/* a destination the kernel cannot write: EFAULT, object unchanged */
static void subtest_bad_pointer(void)
{
	struct obj o;

	obj_init(&o);
	igt_assert_err(__gem_read(o.fd, o.handle, 0, NULL, PAGE_SZ),
		       -EFAULT);
	igt_assert_err(__gem_read(o.fd, o.handle, 1, (void *)(uintptr_t)8,
				  3 * PAGE_SZ), -EFAULT);
#if UINTPTR_MAX > 0xffffffffu
	igt_assert_err(__gem_read(o.fd, o.handle, 0,
				  (void *)0xffff888000000000ull, 64),
		       -EFAULT);
#endif
	obj_check(&o, "preads to bad pointers");
	obj_fini(&o);
}

/* read-only memory cannot be a pread destination */
static void subtest_readonly_destination(void)
{
	unsigned char *ro = mmap(NULL, 2 * PAGE_SZ, PROT_READ,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned char zero[2 * 4096] = { 0 };
	struct obj o;

	igt_assert(ro != MAP_FAILED);
	obj_init(&o);
	igt_assert_err(__gem_read(o.fd, o.handle, 0, ro, 2 * PAGE_SZ),
		       -EFAULT);
	igt_assert_mem(ro, zero, sizeof(zero), "read-only destination");
	obj_check(&o, "a pread to read-only memory");
	obj_fini(&o);
	munmap(ro, 2 * PAGE_SZ);
}

/* a destination whose second page is unmapped: EFAULT */
static void subtest_partly_unmapped(void)
{
	unsigned char *buf = mmap(NULL, 2 * PAGE_SZ, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct obj o;

	igt_assert(buf != MAP_FAILED);
	igt_assert_eq(munmap(buf + PAGE_SZ, PAGE_SZ), 0);
	obj_init(&o);
	igt_assert_err(__gem_read(o.fd, o.handle, 0, buf, 2 * PAGE_SZ),
		       -EFAULT);
	igt_assert_err(__gem_read(o.fd, o.handle, 3, buf + 5, 2 * PAGE_SZ),
		       -EFAULT);
	obj_check(&o, "preads across an unmapped page");

	/* the mapped page alone still works */
	gem_read(o.fd, o.handle, PAGE_SZ, buf, PAGE_SZ);
	igt_assert_mem(buf, o.data + PAGE_SZ, PAGE_SZ, "the mapped page");
	obj_fini(&o);
	munmap(buf, PAGE_SZ);
}

static void subtest_prot_none_hole(void)
{
	unsigned char *buf = mmap(NULL, 3 * PAGE_SZ, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct obj o;

	igt_assert(buf != MAP_FAILED);
	igt_assert_eq(mprotect(buf + PAGE_SZ, PAGE_SZ, PROT_NONE), 0);
	obj_init(&o);
	igt_assert_err(__gem_read(o.fd, o.handle, 10, buf, 3 * PAGE_SZ),
		       -EFAULT);
	obj_check(&o, "a pread across a PROT_NONE page");
	obj_fini(&o);
	munmap(buf, 3 * PAGE_SZ);
}

/* each page of a larger object read on its own, in reverse order */
static void subtest_pages_reverse(void)
{
	const uint64_t size = 64 * PAGE_SZ;
	unsigned char *in = malloc(size), page[4096];
	int fd = drm_open_driver();
	uint32_t handle = gem_create(fd, size);
	int64_t p;

	igt_assert(in);
	igt_fill_pattern(in, size, 13);
	gem_write(fd, handle, 0, in, size);
	for (p = size / PAGE_SZ - 1; p >= 0; p--) {
		gem_read(fd, handle, p * PAGE_SZ, page, PAGE_SZ);
		igt_assert_mem(page, in + p * PAGE_SZ, PAGE_SZ, "page %lld",
			       (long long)p);
	}
	gem_close(fd, handle);
	close(fd);
	free(in);
}

static const struct igt_subtest tests[] = {
	SUBTEST(offsets_lengths),
	SUBTEST(to_the_end),
	SUBTEST(unaligned_destination),
	SUBTEST(new_object_zero),
	SUBTEST(size_zero),
	SUBTEST(beyond_object),
	SUBTEST(offset_overflow),
	SUBTEST(size_overflow),
	SUBTEST(bad_handle),
	SUBTEST(bad_pointer),
	SUBTEST(readonly_destination),
	SUBTEST(partly_unmapped),
	SUBTEST(prot_none_hole),
	SUBTEST(pages_reverse),
};

igt_main(tests)
