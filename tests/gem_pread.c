// SPDX-License-Identifier: GPL-2.0
/*
 * gem_pread: DRM_IOCTL_I915_GEM_PREAD at any offset and length, its
 * bounds and overflow checks (EINVAL), bad handles (ENOENT) and bad user
 * memory (EFAULT, with the object unchanged).  What PWRITE checks the
 * same way runs from lib/rw.c; here also: a new object reads as zeroes,
 * read-only memory is no destination, pages read one by one.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "rw.h"

RW_SUBTEST(offsets_lengths, offsets_lengths, RW_READ)
RW_SUBTEST(to_the_end, to_the_end, RW_READ)
RW_SUBTEST(unaligned_destination, unaligned_buffer, RW_READ)
RW_SUBTEST(size_zero, size_zero, RW_READ)
RW_SUBTEST(beyond_object, beyond_object, RW_READ)
RW_SUBTEST(offset_overflow, offset_overflow, RW_READ)
RW_SUBTEST(size_overflow, size_overflow, RW_READ)
RW_SUBTEST(bad_handle, bad_handle, RW_READ)
RW_SUBTEST(bad_pointer, bad_pointer, RW_READ)
RW_SUBTEST(partly_unmapped, partly_unmapped, RW_READ)
RW_SUBTEST(prot_none_hole, prot_none_hole, RW_READ)

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

/* read-only memory cannot be a pread destination */
static void subtest_readonly_destination(void)
{
	unsigned char *ro = mmap(NULL, 2 * PAGE_SZ, PROT_READ,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	unsigned char zero[2 * 4096] = { 0 };
	struct shadow o;

	igt_assert(ro != MAP_FAILED);
	shadow_init(&o, RW_READ);
	igt_assert_err(__gem_read(o.fd, o.handle, 0, ro, 2 * PAGE_SZ),
		       -EFAULT);
	igt_assert_mem(ro, zero, sizeof(zero), "read-only destination");
	shadow_check(&o, "a pread to read-only memory");
	shadow_fini(&o);
	munmap(ro, 2 * PAGE_SZ);
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
