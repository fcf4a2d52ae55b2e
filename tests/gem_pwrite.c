// SPDX-License-Identifier: GPL-2.0
/*
 * gem_pwrite: DRM_IOCTL_I915_GEM_PWRITE at any offset and length,
 * its bounds and overflow checks (EINVAL), bad handles (ENOENT), and
 * bad user memory (EFAULT with the object left unchanged).  What PREAD
 * checks the same way runs from lib/rw.c; here also: read-only memory
 * is a fine source, and a larger object in one go.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "rw.h"

RW_SUBTEST(offsets_lengths, offsets_lengths, RW_WRITE)
RW_SUBTEST(to_the_end, to_the_end, RW_WRITE)
RW_SUBTEST(unaligned_source, unaligned_buffer, RW_WRITE)
RW_SUBTEST(size_zero, size_zero, RW_WRITE)
RW_SUBTEST(beyond_object, beyond_object, RW_WRITE)
RW_SUBTEST(offset_overflow, offset_overflow, RW_WRITE)
RW_SUBTEST(size_overflow, size_overflow, RW_WRITE)
RW_SUBTEST(bad_handle, bad_handle, RW_WRITE)
RW_SUBTEST(bad_pointer, bad_pointer, RW_WRITE)
RW_SUBTEST(partly_unmapped, partly_unmapped, RW_WRITE)
RW_SUBTEST(prot_none_hole, prot_none_hole, RW_WRITE)

/* the kernel only reads the source: read-only memory is fine */
static void subtest_readonly_source(void)
{
	unsigned char *ro = mmap(NULL, 2 * PAGE_SZ, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct shadow o;

	igt_assert(ro != MAP_FAILED);
	igt_fill_pattern(ro, 2 * PAGE_SZ, 5);
	igt_assert_eq(mprotect(ro, 2 * PAGE_SZ, PROT_READ), 0);
	shadow_init(&o, RW_WRITE);
	gem_write(o.fd, o.handle, PAGE_SZ + 1, ro, 2 * PAGE_SZ);
	memcpy(o.data + PAGE_SZ + 1, ro, 2 * PAGE_SZ);
	shadow_check(&o, "a pwrite from read-only memory");
	shadow_fini(&o);
	munmap(ro, 2 * PAGE_SZ);
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
