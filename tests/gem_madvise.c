// SPDX-License-Identifier: GPL-2.0
/*
 * gem_madvise: I915_GEM_MADVISE and what a purge leaves, as upstream i915
 * 6.1 answers them (an object "has pages" once bound, read with pread or
 * moved with SET_DOMAIN, until a purge):
 *
 *  - bad_args: an advice other than WILLNEED/DONTNEED is EINVAL (before
 *    the handle is looked at), a bad handle ENOENT;
 *  - dontneed_before_pages: DONTNEED on an object that never had pages
 *    (created, perhaps pwritten: pwrite goes to shmfs) purges it at once:
 *    retained 0, and WILLNEED cannot bring it back; pwrite, pread,
 *    SET_DOMAIN and EXECBUFFER2 with it then fail with EFAULT (igt's
 *    dontneed-before-pwrite and dontneed-before-exec);
 *  - dontneed_retained: an object the GPU wrote keeps its contents
 *    through DONTNEED and back to WILLNEED (retained 1 each time), and
 *    is used again; i915_gem_objects counts it purgeable meanwhile;
 *  - shrink_all_purges: DROP_SHRINK_ALL purges an idle DONTNEED object
 *    (its next WILLNEED says retained 0, its use EFAULT), unbinds an
 *    idle WILLNEED one whose contents survive, and leaves a pinned
 *    (I915_GEM_PIN) DONTNEED object alone;
 *  - evicted_dontneed: a DONTNEED object unbound by DROP_BOUND keeps its
 *    contents (still retained) until DROP_SHRINK_ALL purges it unbound;
 *  - purged_mmap: a WC, WB or UC mapping (MMAP_OFFSET) of a purged object
 *    raises SIGBUS when touched, also once its handle and fd are closed
 *    (the mapping holds the object: igt's dontneed-before-mmap and
 *    dontneed-after-mmap), and one whose object a write through it gave
 *    pages keeps them through DONTNEED (retained 1) until DROP_SHRINK_ALL
 *    purges it: then SIGBUS too, never a new zeroed page.
 */
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include "exec.h"

#define OBJ_SIZE	(64 * 1024)

static int __gem_madvise(int fd, uint32_t handle, uint32_t madv,
			 uint32_t *retained)
{
	struct drm_i915_gem_madvise arg = {
		.handle = handle,
		.madv = madv,
		.retained = 0xdead,
	};
	int ret = igt_ioctl(fd, DRM_IOCTL_I915_GEM_MADVISE, &arg);

	if (!ret && retained)
		*retained = arg.retained;
	return ret;
}

static uint32_t gem_madvise(int fd, uint32_t handle, uint32_t madv)
{
	uint32_t retained = 0xdead;

	igt_assert_ok(__gem_madvise(fd, handle, madv, &retained));
	igt_assert_f(retained <= 1, "retained %u", retained);
	return retained;
}

static void drop_caches(int fd, const char *mask)
{
	igt_assert_ok(igt_debugfs_write(fd, "i915_gem_drop_caches", mask));
}

/* have the GPU write @value at byte @offset of @bo (binding it) */
static void gpu_write(int fd, struct bo *bo, uint32_t offset, uint32_t value)
{
	struct batch *b = batch_new(fd);

	emit_store_dword(b, bo, offset, value);
	batch_submit_sync(b);
	batch_free(b);
}

/* EXECBUFFER2 of @handle alone as its batch */
static int exec_handle(int fd, uint32_t handle)
{
	struct drm_i915_gem_exec_object2 obj = { .handle = handle };
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(&obj),
		.buffer_count = 1,
	};

	return __gem_execbuf(fd, &eb);
}

/* every way of using a purged object fails with EFAULT */
static void check_purged(int fd, uint32_t handle)
{
	uint32_t v = MI_BATCH_BUFFER_END;

	igt_assert_err(__gem_write(fd, handle, 0, &v, sizeof(v)), -EFAULT);
	igt_assert_err(__gem_read(fd, handle, 0, &v, sizeof(v)), -EFAULT);
	igt_assert_err(__gem_set_domain(fd, handle, I915_GEM_DOMAIN_CPU, 0),
		       -EFAULT);
	igt_assert_err(exec_handle(fd, handle), -EFAULT);
	/* and it stays purged */
	igt_assert_eq(gem_madvise(fd, handle, I915_MADV_WILLNEED), 0);
	igt_assert_err(exec_handle(fd, handle), -EFAULT);
}

static void subtest_bad_args(void)
{
	static const uint32_t bad[] = { 2, 3, 0x100, 0xffffffff };
	int fd = drm_open_driver();
	uint32_t handle = gem_create(fd, PAGE_SZ), retained;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		igt_assert_err(__gem_madvise(fd, handle, bad[i], NULL),
			       -EINVAL);
		igt_assert_err(__gem_madvise(fd, handle + 100, bad[i], NULL),
			       -EINVAL);
	}
	igt_assert_err(__gem_madvise(fd, 0, I915_MADV_WILLNEED, NULL),
		       -ENOENT);
	igt_assert_err(__gem_madvise(fd, handle + 100, I915_MADV_DONTNEED,
				     NULL), -ENOENT);
	/* nothing changed: still usable */
	igt_assert_ok(__gem_madvise(fd, handle, I915_MADV_WILLNEED,
				    &retained));
	igt_assert_eq(retained, 1);
	gem_close(fd, handle);
	close(fd);
}

static void subtest_dontneed_before_pages(void)
{
	uint32_t bbe[2] = { MI_BATCH_BUFFER_END, 0 };
	int fd = drm_open_driver();
	uint32_t a, b;

	/* igt's dontneed-before-pwrite */
	a = gem_create(fd, OBJ_SIZE);
	igt_assert_eq(gem_madvise(fd, a, I915_MADV_DONTNEED), 0);
	check_purged(fd, a);

	/* igt's dontneed-before-exec: pwrite alone gets no pages */
	b = gem_create(fd, OBJ_SIZE);
	gem_write(fd, b, 0, bbe, sizeof(bbe));
	igt_assert_eq(gem_madvise(fd, b, I915_MADV_DONTNEED), 0);
	check_purged(fd, b);

	gem_close(fd, a);
	gem_close(fd, b);
	close(fd);
}

static void subtest_dontneed_retained(void)
{
	int fd = drm_open_driver();
	long long bound, purgeable, p0;
	struct bo bo;

	gem_object_counts(fd, &bound, &p0, NULL);
	bo_init(&bo, fd, OBJ_SIZE);
	gpu_write(fd, &bo, 256, 0x12345678);

	igt_assert_eq(gem_madvise(fd, bo.handle, I915_MADV_DONTNEED), 1);
	igt_assert_eq(gem_madvise(fd, bo.handle, I915_MADV_DONTNEED), 1);
	gem_object_counts(fd, &bound, &purgeable, NULL);
	igt_assert_eq(purgeable, p0 + 1);
	igt_assert_lte(1, bound);
	/* still usable while retained, as upstream (it has pages) */
	igt_assert_eq(gem_read_dword(fd, bo.handle, 256), 0x12345678);
	gpu_write(fd, &bo, 128, 0x0badcafe);
	igt_assert_eq(gem_read_dword(fd, bo.handle, 128), 0x0badcafe);

	igt_assert_eq(gem_madvise(fd, bo.handle, I915_MADV_WILLNEED), 1);
	gem_object_counts(fd, &bound, &purgeable, NULL);
	igt_assert_eq(purgeable, p0);
	gpu_write(fd, &bo, 512, 0x9abcdef0);
	igt_assert_eq(gem_read_dword(fd, bo.handle, 256), 0x12345678);
	igt_assert_eq(gem_read_dword(fd, bo.handle, 512), 0x9abcdef0);
	bo_fini(&bo, fd);
	close(fd);
}

static void subtest_shrink_all_purges(void)
{
	int fd = drm_open_driver();
	struct bo gone, kept, pinned;
	long long bound, purgeable;

	bo_init(&gone, fd, OBJ_SIZE);
	bo_init(&kept, fd, OBJ_SIZE);
	bo_init(&pinned, fd, OBJ_SIZE);
	gpu_write(fd, &gone, 0, 0x11111111);
	gpu_write(fd, &kept, 4, 0x22222222);
	gem_write(fd, pinned.handle, 8, "\x33\x33\x33\x33", 4);
	gem_pin(fd, pinned.handle, 0);

	igt_assert_eq(gem_madvise(fd, gone.handle, I915_MADV_DONTNEED), 1);
	igt_assert_eq(gem_madvise(fd, pinned.handle, I915_MADV_DONTNEED), 1);
	gem_object_counts(fd, &bound, &purgeable, NULL);
	igt_assert_lte(3, bound);
	igt_assert_lte(2, purgeable);

	drop_caches(fd, "0x20");	/* DROP_SHRINK_ALL */
	gem_object_counts(fd, &bound, &purgeable, NULL);
	igt_info("after DROP_SHRINK_ALL: %lld bound, %lld purgeable",
		 bound, purgeable);
	igt_assert_eq(purgeable, 1);	/* the pinned one */
	igt_assert_eq(bound, 1);	/* the pinned one */

	check_purged(fd, gone.handle);
	igt_assert_eq(gem_read_dword(fd, kept.handle, 4), 0x22222222);
	igt_assert_eq(gem_madvise(fd, pinned.handle, I915_MADV_WILLNEED), 1);
	igt_assert_eq(gem_read_dword(fd, pinned.handle, 8), 0x33333333);

	gem_unpin(fd, pinned.handle);
	bo_fini(&gone, fd);
	bo_fini(&kept, fd);
	bo_fini(&pinned, fd);
	close(fd);
}

static void subtest_evicted_dontneed(void)
{
	int fd = drm_open_driver();
	long long bound, purgeable, b0, p0;
	struct bo bo;

	gem_object_counts(fd, &b0, &p0, NULL);
	bo_init(&bo, fd, OBJ_SIZE);
	gpu_write(fd, &bo, 64, 0x5a5a5a5a);
	igt_assert_eq(gem_madvise(fd, bo.handle, I915_MADV_DONTNEED), 1);

	drop_caches(fd, "0x2");	/* DROP_BOUND: unbound, not purged */
	gem_object_counts(fd, &bound, &purgeable, NULL);
	igt_assert_eq(bound, 0);
	igt_assert_eq(purgeable, p0 + 1);
	igt_assert_eq(gem_madvise(fd, bo.handle, I915_MADV_DONTNEED), 1);

	drop_caches(fd, "0x20");	/* DROP_SHRINK_ALL: purged */
	gem_object_counts(fd, &bound, &purgeable, NULL);
	igt_assert_eq(purgeable, 0);
	check_purged(fd, bo.handle);
	bo_fini(&bo, fd);
	close(fd);
}

/* does writing @p raise SIGBUS? */
static bool write_faults(volatile uint32_t *p, uint32_t v)
{
	return access_faults(p, true, v);
}

static void subtest_purged_mmap(void)
{
	static const struct {
		uint64_t flags;
		const char *name;
	} types[] = {
		{ I915_MMAP_OFFSET_WC, "wc" },
		{ I915_MMAP_OFFSET_WB, "wb" },
		{ I915_MMAP_OFFSET_UC, "uc" },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(types); i++) {
		int fd = drm_open_driver();
		uint32_t *before, *after, *kept, h1, h2, h3;

		igt_info("%s", types[i].name);
		/* igt's dontneed-before-mmap: purged at once, then mapped */
		h1 = gem_create(fd, OBJ_SIZE);
		igt_assert_eq(gem_madvise(fd, h1, I915_MADV_DONTNEED), 0);
		before = gem_mmap_offset(fd, h1, OBJ_SIZE, types[i].flags);
		/* igt's dontneed-after-mmap: mapped, then purged */
		h2 = gem_create(fd, OBJ_SIZE);
		after = gem_mmap_offset(fd, h2, OBJ_SIZE, types[i].flags);
		igt_assert_eq(gem_madvise(fd, h2, I915_MADV_DONTNEED), 0);
		igt_assert(write_faults(&before[1], 1));
		igt_assert(write_faults(&after[2], 1));
		/* given pages by a write through the mapping */
		h3 = gem_create(fd, OBJ_SIZE);
		kept = gem_mmap_offset(fd, h3, OBJ_SIZE, types[i].flags);
		kept[5] = 0xfeedbeef;
		igt_assert_eq(gem_madvise(fd, h3, I915_MADV_DONTNEED), 1);
		igt_assert_eq(gem_read_dword(fd, h3, 20), 0xfeedbeef);
		igt_assert(!write_faults(&kept[6], 0x600d));
		drop_caches(fd, "0x20");	/* DROP_SHRINK_ALL */
		igt_assert_eq(gem_madvise(fd, h3, I915_MADV_WILLNEED), 0);
		igt_assert(write_faults(&kept[5], 1));

		/* the mappings outlive the handles and the fd */
		gem_close(fd, h1);
		gem_close(fd, h2);
		gem_close(fd, h3);
		close(fd);
		igt_assert(write_faults(&before[0], 1));
		igt_assert(write_faults(&after[OBJ_SIZE / 8], 1));
		igt_assert(write_faults(&kept[0], 1));
		munmap(before, OBJ_SIZE);
		munmap(after, OBJ_SIZE);
		munmap(kept, OBJ_SIZE);
	}
}

static const struct igt_subtest tests[] = {
	SUBTEST(bad_args),
	SUBTEST(dontneed_before_pages),
	SUBTEST(dontneed_retained),
	SUBTEST(shrink_all_purges),
	SUBTEST(evicted_dontneed),
	SUBTEST(purged_mmap),
};

igt_main(tests)
