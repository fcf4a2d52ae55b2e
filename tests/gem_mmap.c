// SPDX-License-Identifier: GPL-2.0
/*
 * gem_mmap: the legacy CPU mmap ioctl (DRM_IOCTL_I915_GEM_MMAP), plain
 * and write-combined (I915_MMAP_WC): what is written through a map is
 * read by pread and the other way round, with SET_DOMAIN around the
 * accesses as the design's protocol asks; offset, size, flag and handle
 * checks.  Also built 32-bit: the address must fit a 32-bit pointer.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "gem.h"

#define OBJ_SIZE (4 * PAGE_SZ)

struct obj {
	int fd;
	uint32_t handle;
};

static void obj_init(struct obj *o)
{
	o->fd = drm_open_driver();
	o->handle = gem_create(o->fd, OBJ_SIZE);
}

static void obj_fini(struct obj *o)
{
	gem_close(o->fd, o->handle);
	close(o->fd);
}

/* WC maps need PAT; without it upstream answers ENODEV */
static void *map_wc_or_skip(struct obj *o, uint64_t off, uint64_t size)
{
	void *ptr = NULL;
	int ret = __gem_mmap(o->fd, o->handle, off, size, I915_MMAP_WC, &ptr);

	if (!igt_cpu_has_flag("pat")) {
		igt_assert_err(ret, -ENODEV);
		igt_skip("the CPU has no PAT: no WC maps");
	}
	igt_assert_ok(ret);
	igt_assert(ptr);
	return ptr;
}

static void *map(struct obj *o, uint64_t off, uint64_t size, bool wc)
{
	return wc ? map_wc_or_skip(o, off, size) :
		    gem_mmap__cpu(o->fd, o->handle, off, size);
}

/* the domain for CPU access through the map: CPU, or GTT for WC */
static uint32_t map_domain(bool wc)
{
	return wc ? I915_GEM_DOMAIN_GTT : I915_GEM_DOMAIN_CPU;
}

/* a new object reads as zeroes through the map */
static void check_new_zero(bool wc)
{
	unsigned char zero[OBJ_SIZE] = { 0 };
	struct obj o;
	void *ptr;

	obj_init(&o);
	ptr = map(&o, 0, OBJ_SIZE, wc);
	gem_set_domain(o.fd, o.handle, map_domain(wc), 0);
	igt_assert_mem(ptr, zero, OBJ_SIZE, "a new object's map");
	igt_assert_eq(munmap(ptr, OBJ_SIZE), 0);
	obj_fini(&o);
}

/* written through the map, read by pread */
static void check_write_map_pread(bool wc)
{
	unsigned char in[OBJ_SIZE], out[OBJ_SIZE];
	struct obj o;
	void *ptr;

	obj_init(&o);
	ptr = map(&o, 0, OBJ_SIZE, wc);
	gem_set_domain(o.fd, o.handle, map_domain(wc), map_domain(wc));
	igt_fill_pattern(in, sizeof(in), wc ? 2 : 1);
	memcpy(ptr, in, sizeof(in));
	igt_assert_ok(__gem_sw_finish(o.fd, o.handle));
	gem_read(o.fd, o.handle, 0, out, sizeof(out));
	igt_assert_mem(out, in, sizeof(in), "pread of map writes");
	igt_assert_eq(munmap(ptr, OBJ_SIZE), 0);
	obj_fini(&o);
}

/* written by pwrite, read through the map */
static void check_pwrite_read_map(bool wc)
{
	unsigned char in[OBJ_SIZE];
	struct obj o;
	void *ptr;

	obj_init(&o);
	ptr = map(&o, 0, OBJ_SIZE, wc);
	igt_fill_pattern(in, sizeof(in), wc ? 4 : 3);
	gem_write(o.fd, o.handle, 0, in, sizeof(in));
	gem_set_domain(o.fd, o.handle, map_domain(wc), 0);
	igt_assert_mem(ptr, in, sizeof(in), "map of pwritten data");

	/* and again, with the map's pages already faulted in */
	igt_fill_pattern(in, sizeof(in), wc ? 6 : 5);
	gem_write(o.fd, o.handle, 0, in, sizeof(in));
	gem_set_domain(o.fd, o.handle, map_domain(wc), 0);
	igt_assert_mem(ptr, in, sizeof(in), "map of a second pwrite");
	igt_assert_eq(munmap(ptr, OBJ_SIZE), 0);
	obj_fini(&o);
}

/* a map at an offset shows that part of the object */
static void check_offset(bool wc)
{
	unsigned char in[OBJ_SIZE], out[PAGE_SZ];
	unsigned char *ptr;
	struct obj o;

	obj_init(&o);
	igt_fill_pattern(in, sizeof(in), 7);
	gem_write(o.fd, o.handle, 0, in, sizeof(in));
	ptr = map(&o, PAGE_SZ, 2 * PAGE_SZ, wc);
	gem_set_domain(o.fd, o.handle, map_domain(wc), map_domain(wc));
	igt_assert_mem(ptr, in + PAGE_SZ, 2 * PAGE_SZ, "map at offset 4096");

	memset(ptr + PAGE_SZ, 0x5c, PAGE_SZ);
	gem_read(o.fd, o.handle, 2 * PAGE_SZ, out, PAGE_SZ);
	memset(in + 2 * PAGE_SZ, 0x5c, PAGE_SZ);
	igt_assert_mem(out, in + 2 * PAGE_SZ, PAGE_SZ, "page 2 via the map");
	igt_assert_eq(munmap(ptr, 2 * PAGE_SZ), 0);
	obj_fini(&o);
}

static void subtest_new_zero(void) { check_new_zero(false); }
static void subtest_write_map_pread(void) { check_write_map_pread(false); }
static void subtest_pwrite_read_map(void) { check_pwrite_read_map(false); }
static void subtest_offset(void) { check_offset(false); }
static void subtest_wc_new_zero(void) { check_new_zero(true); }
static void subtest_wc_write_map_pread(void) { check_write_map_pread(true); }
static void subtest_wc_pwrite_read_map(void) { check_pwrite_read_map(true); }
static void subtest_wc_offset(void) { check_offset(true); }

/* two maps of one object are views of the same pages */
static void subtest_two_maps(void)
{
	unsigned char *a, *b;
	struct obj o;

	obj_init(&o);
	a = gem_mmap__cpu(o.fd, o.handle, 0, OBJ_SIZE);
	b = gem_mmap__cpu(o.fd, o.handle, 0, OBJ_SIZE);
	igt_assert(a != b);
	gem_set_domain(o.fd, o.handle, I915_GEM_DOMAIN_CPU,
		       I915_GEM_DOMAIN_CPU);
	memset(a + 3 * PAGE_SZ + 9, 0x42, 100);
	igt_assert_mem(b + 3 * PAGE_SZ + 9, a + 3 * PAGE_SZ + 9, 100,
		       "second map");
	igt_assert_eq(b[3 * PAGE_SZ + 8], 0);
	munmap(a, OBJ_SIZE);
	munmap(b, OBJ_SIZE);
	obj_fini(&o);
}

/* the map is shared: a child's writes through it reach the object */
static uint8_t *fork_ptr;

static int child_writes(void *arg)
{
	memset(fork_ptr, 0x99, PAGE_SZ);
	return 0;
}

static void subtest_shared_after_fork(void)
{
	unsigned char out[PAGE_SZ], want[PAGE_SZ];
	struct obj o;

	obj_init(&o);
	fork_ptr = gem_mmap__cpu(o.fd, o.handle, 0, OBJ_SIZE);
	gem_set_domain(o.fd, o.handle, I915_GEM_DOMAIN_CPU,
		       I915_GEM_DOMAIN_CPU);
	igt_fork_and_check(child_writes, NULL);
	gem_read(o.fd, o.handle, 0, out, PAGE_SZ);
	memset(want, 0x99, PAGE_SZ);
	igt_assert_mem(out, want, PAGE_SZ, "the child's writes");
	munmap(fork_ptr, OBJ_SIZE);
	obj_fini(&o);
}

/* the map keeps working after the handle is closed, until munmap */
static void subtest_survives_close(void)
{
	unsigned char in[OBJ_SIZE];
	unsigned char *ptr;
	struct obj o;

	obj_init(&o);
	igt_fill_pattern(in, sizeof(in), 8);
	gem_write(o.fd, o.handle, 0, in, sizeof(in));
	ptr = gem_mmap__cpu(o.fd, o.handle, 0, OBJ_SIZE);
	gem_set_domain(o.fd, o.handle, I915_GEM_DOMAIN_CPU, 0);
	gem_close(o.fd, o.handle);
	igt_assert_mem(ptr, in, sizeof(in), "map after GEM_CLOSE");
	memset(ptr, 1, PAGE_SZ);
	igt_assert_eq(munmap(ptr, OBJ_SIZE), 0);
	close(o.fd);
}

/* after munmap the object is intact and can be mapped again */
static void subtest_remap(void)
{
	unsigned char in[OBJ_SIZE];
	unsigned char *ptr;
	struct obj o;

	obj_init(&o);
	ptr = gem_mmap__cpu(o.fd, o.handle, 0, OBJ_SIZE);
	gem_set_domain(o.fd, o.handle, I915_GEM_DOMAIN_CPU,
		       I915_GEM_DOMAIN_CPU);
	igt_fill_pattern(in, sizeof(in), 9);
	memcpy(ptr, in, sizeof(in));
	igt_assert_eq(munmap(ptr, OBJ_SIZE), 0);
	ptr = gem_mmap__cpu(o.fd, o.handle, 0, OBJ_SIZE);
	gem_set_domain(o.fd, o.handle, I915_GEM_DOMAIN_CPU, 0);
	igt_assert_mem(ptr, in, sizeof(in), "a second map");
	igt_assert_eq(munmap(ptr, OBJ_SIZE), 0);
	obj_fini(&o);
}

/* size 0: vm_mmap refuses an empty map */
static void subtest_size_zero(void)
{
	struct obj o;
	void *ptr;

	obj_init(&o);
	igt_assert_err(__gem_mmap(o.fd, o.handle, 0, 0, 0, &ptr), -EINVAL);
	obj_fini(&o);
}

/* a range not inside the object, or overflowing */
static void subtest_beyond_object(void)
{
	static const struct { uint64_t off, len; } cases[] = {
		{ 0, OBJ_SIZE + PAGE_SZ },
		{ 0, OBJ_SIZE + 1 },
		{ PAGE_SZ, OBJ_SIZE - PAGE_SZ + 1 },
		{ PAGE_SZ, OBJ_SIZE },
		{ OBJ_SIZE, PAGE_SZ },
		{ OBJ_SIZE + PAGE_SZ, PAGE_SZ },
		{ 1ull << 32, PAGE_SZ },
		{ ~0ull - 4095, 2 * PAGE_SZ },
		{ 0, 1ull << 63 },
		{ 0, ~0ull },
	};
	struct obj o;
	size_t i;

	obj_init(&o);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		void *ptr = NULL;
		int ret = __gem_mmap(o.fd, o.handle, cases[i].off,
				     cases[i].len, 0, &ptr);

		if (ret != -EINVAL)
			igt_info("offset %#llx size %#llx",
				 (unsigned long long)cases[i].off,
				 (unsigned long long)cases[i].len);
		igt_assert_err(ret, -EINVAL);
	}
	obj_fini(&o);
}

/* the offset must be page aligned (vm_mmap) */
static void subtest_unaligned_offset(void)
{
	struct obj o;
	void *ptr;

	obj_init(&o);
	igt_assert_err(__gem_mmap(o.fd, o.handle, 1, PAGE_SZ, 0, &ptr),
		       -EINVAL);
	igt_assert_err(__gem_mmap(o.fd, o.handle, PAGE_SZ + 64, PAGE_SZ, 0,
				  &ptr), -EINVAL);
	obj_fini(&o);
}

static void subtest_bad_handle(void)
{
	int fd = drm_open_driver();
	void *ptr;

	igt_assert_err(__gem_mmap(fd, 0, 0, PAGE_SZ, 0, &ptr), -ENOENT);
	igt_assert_err(__gem_mmap(fd, 0xdeadbeef, 0, PAGE_SZ, 0, &ptr),
		       -ENOENT);
	close(fd);
}

static void subtest_unknown_flags(void)
{
	static const uint64_t flags[] = {
		2, I915_MMAP_WC << 1 | I915_MMAP_WC, 1ull << 31, 1ull << 63,
	};
	struct obj o;
	size_t i;

	obj_init(&o);
	for (i = 0; i < ARRAY_SIZE(flags); i++) {
		void *ptr = NULL;

		igt_assert_err(__gem_mmap(o.fd, o.handle, 0, PAGE_SZ,
					  flags[i], &ptr), -EINVAL);
	}
	obj_fini(&o);
}

static const struct igt_subtest tests[] = {
	SUBTEST(new_zero),
	SUBTEST(write_map_pread),
	SUBTEST(pwrite_read_map),
	SUBTEST(offset),
	SUBTEST(two_maps),
	SUBTEST(shared_after_fork),
	SUBTEST(survives_close),
	SUBTEST(remap),
	SUBTEST(size_zero),
	SUBTEST(beyond_object),
	SUBTEST(unaligned_offset),
	SUBTEST(bad_handle),
	SUBTEST(unknown_flags),
	SUBTEST(wc_new_zero),
	SUBTEST(wc_write_map_pread),
	SUBTEST(wc_pwrite_read_map),
	SUBTEST(wc_offset),
};

igt_main(tests)
