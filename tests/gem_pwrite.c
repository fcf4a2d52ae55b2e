// SPDX-License-Identifier: GPL-2.0
/*
 * gem_pwrite: DRM_IOCTL_I915_GEM_PWRITE at any offset and length,
 * its bounds and overflow checks (EINVAL), bad handles (ENOENT), and
 * bad user memory (EFAULT with the object left unchanged).
 */
#include <sys/mman.h>
#include <unistd.h>

#include "gem.h"

#define OBJ_SIZE (5 * PAGE_SZ)	/* created as 4 pages + 1 byte */

struct obj {
	int fd;
	uint32_t handle;
	unsigned char *shadow;	/* what the object must contain */
};

/* an object of 4 pages + 1 byte (so 5 pages) filled with a background */
static void obj_init(struct obj *o)
{
	uint64_t size = 4 * PAGE_SZ + 1;

	o->fd = drm_open_driver();
	igt_assert_ok(__gem_create(o->fd, &size, &o->handle));
	igt_assert_eq_u64(size, OBJ_SIZE);
	o->shadow = malloc(OBJ_SIZE);
	igt_assert(o->shadow);
	igt_fill_pattern(o->shadow, OBJ_SIZE, 0xb0);
	gem_write(o->fd, o->handle, 0, o->shadow, OBJ_SIZE);
}

/* the object holds exactly the shadow */
static void obj_check(struct obj *o, const char *what)
{
	unsigned char *buf = malloc(OBJ_SIZE);

	igt_assert(buf);
	gem_read(o->fd, o->handle, 0, buf, OBJ_SIZE);
	igt_assert_mem(buf, o->shadow, OBJ_SIZE, "object after %s", what);
	free(buf);
}

static void obj_fini(struct obj *o)
{
	gem_close(o->fd, o->handle);
	close(o->fd);
	free(o->shadow);
}

/* offsets and lengths that start, end and cross page boundaries */
static void subtest_offsets_lengths(void)
{
	static const uint64_t offsets[] = { 0, 1, 4095, 4096, 4097 };
	static const uint64_t lengths[] = { 1, 3, 4096, 8193 };
	unsigned char data[8193];
	struct obj o;
	size_t i, j;

	obj_init(&o);
	for (i = 0; i < ARRAY_SIZE(offsets); i++) {
		for (j = 0; j < ARRAY_SIZE(lengths); j++) {
			uint64_t off = offsets[i], len = lengths[j];

			igt_fill_pattern(data, len, i * 16 + j + 1);
			gem_write(o.fd, o.handle, off, data, len);
			memcpy(o.shadow + off, data, len);
			obj_check(&o, "pwrite");
		}
	}
	obj_fini(&o);
}

/* up to the last byte: the last page, and the whole object at once */
static void subtest_to_the_end(void)
{
	unsigned char data[OBJ_SIZE];
	struct obj o;

	obj_init(&o);
	igt_fill_pattern(data, sizeof(data), 2);
	gem_write(o.fd, o.handle, OBJ_SIZE - 1, data, 1);
	memcpy(o.shadow + OBJ_SIZE - 1, data, 1);
	obj_check(&o, "a write of the last byte");
	gem_write(o.fd, o.handle, OBJ_SIZE - PAGE_SZ - 5, data, PAGE_SZ + 5);
	memcpy(o.shadow + OBJ_SIZE - PAGE_SZ - 5, data, PAGE_SZ + 5);
	obj_check(&o, "a write to the end");
	igt_fill_pattern(data, sizeof(data), 3);
	gem_write(o.fd, o.handle, 0, data, OBJ_SIZE);
	memcpy(o.shadow, data, OBJ_SIZE);
	obj_check(&o, "a write of the whole object");
	obj_fini(&o);
}

/* the user buffer need not be aligned */
static void subtest_unaligned_source(void)
{
	unsigned char *buf = malloc(3 * PAGE_SZ + 16);
	struct obj o;
	int k;

	igt_assert(buf);
	obj_init(&o);
	for (k = 1; k < 8; k += 3) {
		igt_fill_pattern(buf + k, 2 * PAGE_SZ + 5, 40 + k);
		gem_write(o.fd, o.handle, 100 + k, buf + k, 2 * PAGE_SZ + 5);
		memcpy(o.shadow + 100 + k, buf + k, 2 * PAGE_SZ + 5);
		obj_check(&o, "an unaligned pwrite");
	}
	obj_fini(&o);
	free(buf);
}

/* the kernel only reads the source: read-only memory is fine */
static void subtest_readonly_source(void)
{
	unsigned char *ro = mmap(NULL, 2 * PAGE_SZ, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct obj o;

	igt_assert(ro != MAP_FAILED);
	igt_fill_pattern(ro, 2 * PAGE_SZ, 5);
	igt_assert_eq(mprotect(ro, 2 * PAGE_SZ, PROT_READ), 0);
	obj_init(&o);
	gem_write(o.fd, o.handle, PAGE_SZ + 1, ro, 2 * PAGE_SZ);
	memcpy(o.shadow + PAGE_SZ + 1, ro, 2 * PAGE_SZ);
	obj_check(&o, "a pwrite from read-only memory");
	obj_fini(&o);
	munmap(ro, 2 * PAGE_SZ);
}

/* size 0 is a no-op, whatever the pointer */
static void subtest_size_zero(void)
{
	unsigned char byte = 0xee;
	struct obj o;

	obj_init(&o);
	igt_assert_ok(__gem_write(o.fd, o.handle, 0, &byte, 0));
	igt_assert_ok(__gem_write(o.fd, o.handle, 7, NULL, 0));
	igt_assert_ok(__gem_write(o.fd, o.handle, OBJ_SIZE, &byte, 0));
	obj_check(&o, "size 0 pwrites");
	obj_fini(&o);
}

/* offset + size beyond the object: EINVAL, nothing written */
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
	unsigned char *data = malloc(OBJ_SIZE + 1);
	struct obj o;
	size_t i;

	igt_assert(data);
	memset(data, 0x11, OBJ_SIZE + 1);
	obj_init(&o);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int ret = __gem_write(o.fd, o.handle, cases[i].off, data,
				      cases[i].len);

		if (ret != -EINVAL)
			igt_info("offset %#llx size %#llx",
				 (unsigned long long)cases[i].off,
				 (unsigned long long)cases[i].len);
		igt_assert_err(ret, -EINVAL);
	}
	obj_check(&o, "rejected pwrites");
	obj_fini(&o);
	free(data);
}

/* offset + size wraps around 2^64: EINVAL */
static void subtest_offset_overflow(void)
{
	unsigned char data[16] = { 0 };
	struct obj o;

	obj_init(&o);
	igt_assert_err(__gem_write(o.fd, o.handle, ~0ull - 1, data, 2),
		       -EINVAL);
	igt_assert_err(__gem_write(o.fd, o.handle, ~0ull, data, 1), -EINVAL);
	igt_assert_err(__gem_write(o.fd, o.handle, ~0ull - 4, data, 16),
		       -EINVAL);
	obj_check(&o, "overflowing pwrites");
	obj_fini(&o);
}

/*
 * A size so large that the user range [data, data + size) is not valid
 * user memory: upstream checks access_ok() before the bounds, so EFAULT.
 */
static void subtest_size_overflow(void)
{
	unsigned char data[16] = { 0 };
	struct obj o;

	obj_init(&o);
	igt_assert_err(__gem_write(o.fd, o.handle, 0, data, ~0ull), -EFAULT);
	igt_assert_err(__gem_write(o.fd, o.handle, 4096, data, 1ull << 63),
		       -EFAULT);
	obj_check(&o, "overflowing pwrites");
	obj_fini(&o);
}

static void subtest_bad_handle(void)
{
	unsigned char data[16] = { 0 };
	int fd = drm_open_driver();

	igt_assert_err(__gem_write(fd, 0, 0, data, 1), -ENOENT);
	igt_assert_err(__gem_write(fd, 0xdeadbeef, 0, data, 16), -ENOENT);
	close(fd);
}

/* a source the kernel cannot read: EFAULT and the object unchanged */
static void subtest_bad_pointer(void)
{
	struct obj o;

	obj_init(&o);
	igt_assert_err(__gem_write(o.fd, o.handle, 0, NULL, PAGE_SZ),
		       -EFAULT);
	igt_assert_err(__gem_write(o.fd, o.handle, 1, (void *)(uintptr_t)8,
				   3 * PAGE_SZ), -EFAULT);
	obj_check(&o, "a pwrite from NULL");
#if UINTPTR_MAX > 0xffffffffu
	/* a kernel address */
	igt_assert_err(__gem_write(o.fd, o.handle, 0,
				   (void *)0xffff888000000000ull, 64),
		       -EFAULT);
	obj_check(&o, "a pwrite from a kernel address");
#endif
	obj_fini(&o);
}

/*
 * A source whose first page is mapped and second is not: EFAULT, and
 * not even the first page reaches the object.
 */
static void subtest_partly_unmapped(void)
{
	unsigned char *buf = mmap(NULL, 2 * PAGE_SZ, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct obj o;

	igt_assert(buf != MAP_FAILED);
	igt_fill_pattern(buf, 2 * PAGE_SZ, 7);
	igt_assert_eq(munmap(buf + PAGE_SZ, PAGE_SZ), 0);
	obj_init(&o);

	igt_assert_err(__gem_write(o.fd, o.handle, 0, buf, 2 * PAGE_SZ),
		       -EFAULT);
	obj_check(&o, "a pwrite across an unmapped page");
	igt_assert_err(__gem_write(o.fd, o.handle, 2 * PAGE_SZ + 100,
				   buf + 100, 2 * PAGE_SZ), -EFAULT);
	obj_check(&o, "an unaligned pwrite across an unmapped page");

	/* the mapped page alone still works */
	gem_write(o.fd, o.handle, 0, buf, PAGE_SZ);
	memcpy(o.shadow, buf, PAGE_SZ);
	obj_check(&o, "a pwrite of the mapped page");
	obj_fini(&o);
	munmap(buf, PAGE_SZ);
}

/* the same with a PROT_NONE page in the middle of the source */
static void subtest_prot_none_hole(void)
{
	unsigned char *buf = mmap(NULL, 3 * PAGE_SZ, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct obj o;

	igt_assert(buf != MAP_FAILED);
	igt_fill_pattern(buf, 3 * PAGE_SZ, 8);
	igt_assert_eq(mprotect(buf + PAGE_SZ, PAGE_SZ, PROT_NONE), 0);
	obj_init(&o);
	igt_assert_err(__gem_write(o.fd, o.handle, 10, buf, 3 * PAGE_SZ),
		       -EFAULT);
	obj_check(&o, "a pwrite across a PROT_NONE page");
	obj_fini(&o);
	munmap(buf, 3 * PAGE_SZ);
}

/* a larger object, written in one go and read back */
static void subtest_large(void)
{
	const uint64_t size = 4 << 20;
	unsigned char *in = malloc(size), *out = malloc(size);
	int fd = drm_open_driver();
	uint32_t handle = gem_create(fd, size);

	igt_assert(in && out);
	igt_fill_pattern(in, size, 9);
	gem_write(fd, handle, 0, in, size);
	gem_read(fd, handle, 0, out, size);
	igt_assert_mem(out, in, size, "a 4 MiB object");
	gem_close(fd, handle);
	close(fd);
	free(in);
	free(out);
}

static const struct igt_subtest tests[] = {
	SUBTEST(offsets_lengths),
	SUBTEST(to_the_end),
	SUBTEST(unaligned_source),
	SUBTEST(readonly_source),
	SUBTEST(size_zero),
	SUBTEST(beyond_object),
	SUBTEST(offset_overflow),
	SUBTEST(size_overflow),
	SUBTEST(bad_handle),
	SUBTEST(bad_pointer),
	SUBTEST(partly_unmapped),
	SUBTEST(prot_none_hole),
	SUBTEST(large),
};

igt_main(tests)
