// SPDX-License-Identifier: GPL-2.0
/*
 * gem_gtt_color: cache colouring.  These GPUs have no LLC: a snooped
 * object (SET_CACHING CACHED) and an uncached one must never be GTT
 * neighbours, a guard page stays between them (upstream's
 * i915_ggtt_color_adjust; igt's gem_softpin evict-snoop).
 *
 *  - softpin_adjacent: softpinned next to each other in one exec, in
 *    either order: EINVAL (igt takes EINVAL or ENOSPC); with a page
 *    between them: fine; the snooped one no longer softpinned and the
 *    uncached one softpinned next to where it was: it moves away.
 *  - placed_with_guard: in a GTT range of three pages the driver places
 *    the two with the guard page between them (offsets at least
 *    size + 4096 apart); in two pages they do not fit: ENOSPC.
 *  - next_to_pinned: softpinned next to a PIN'd snooped object: ENOSPC
 *    (it cannot be moved), one page further: fine.
 *
 * Skips where the GPU cannot snoop (965G/965GM: SET_CACHING is ENODEV).
 */
#include <unistd.h>

#include "exec.h"

struct pair {
	struct drm_i915_gem_exec_object2 obj[2];	/* snooped, batch */
	struct drm_i915_gem_execbuffer2 eb;
};

static void pair_init(struct pair *p, int fd)
{
	int ret;

	memset(p, 0, sizeof(*p));
	p->obj[0].handle = gem_create(fd, PAGE_SZ);
	ret = __gem_set_caching(fd, p->obj[0].handle, I915_CACHING_CACHED);
	if (ret == -ENODEV)
		igt_skip("no snooping on this GPU");
	igt_assert_ok(ret);
	p->obj[1].handle = bbe_create(fd, 0);
	igt_assert_eq_u64(gem_get_caching(fd, p->obj[1].handle),
			  I915_CACHING_NONE);
	p->eb.buffers_ptr = to_user_pointer(p->obj);
	p->eb.buffer_count = 2;
	p->eb.batch_len = 8;
}

static void pair_fini(struct pair *p, int fd)
{
	gem_close(fd, p->obj[0].handle);
	gem_close(fd, p->obj[1].handle);
}

static int pair_exec(int fd, struct pair *p, uint64_t snoop, uint64_t batch,
		     bool pin_snoop)
{
	p->obj[0].offset = snoop;
	p->obj[0].flags = pin_snoop ? EXEC_OBJECT_PINNED : 0;
	p->obj[1].offset = batch;
	p->obj[1].flags = EXEC_OBJECT_PINNED;
	return __gem_execbuf(fd, &p->eb);
}

/* offsets of two one-page objects leave a guard page between them */
static void assert_guard(uint64_t a, uint64_t b)
{
	uint64_t d = a > b ? a - b : b - a;

	igt_assert_f(d >= PAGE_SZ + 4096,
		     "snooped at 0x%llx, uncached at 0x%llx: no guard page",
		     (unsigned long long)a, (unsigned long long)b);
}

/* the start of a free run of @pages pages */
static uint64_t find_hole(int fd, unsigned int pages)
{
	struct drm_i915_gem_exec_object2 obj = {
		.handle = gem_create(fd, pages * PAGE_SZ),
	};
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(&obj),
		.buffer_count = 1,
		.batch_len = 8,
	};
	const uint32_t bbe = MI_BATCH_BUFFER_END;

	gem_write(fd, obj.handle, 0, &bbe, sizeof(bbe));
	gem_execbuf(fd, &eb);
	gem_sync(fd, obj.handle);
	gem_close(fd, obj.handle);
	return obj.offset;
}

static void subtest_softpin_adjacent(void)
{
	int fd = drm_open_driver();
	uint64_t hole;
	struct pair p;

	pair_init(&p, fd);
	hole = find_hole(fd, 5) + PAGE_SZ;

	igt_assert_err(pair_exec(fd, &p, hole, hole + PAGE_SZ, true),
		       -EINVAL);
	igt_assert_err(pair_exec(fd, &p, hole + PAGE_SZ, hole, true),
		       -EINVAL);
	igt_assert_ok(pair_exec(fd, &p, hole + 2 * PAGE_SZ, hole, true));
	igt_assert_eq_u64(p.obj[0].offset, hole + 2 * PAGE_SZ);
	igt_assert_eq_u64(p.obj[1].offset, hole);

	/* the uncached batch where it leaves no room: the snoop moves */
	igt_assert_ok(pair_exec(fd, &p, hole + 2 * PAGE_SZ, hole + PAGE_SZ,
				false));
	igt_assert_eq_u64(p.obj[1].offset, hole + PAGE_SZ);
	igt_assert(p.obj[0].offset != hole + 2 * PAGE_SZ);
	assert_guard(p.obj[0].offset, p.obj[1].offset);
	gem_sync(fd, p.obj[1].handle);
	pair_fini(&p, fd);
	close(fd);
}

static void subtest_placed_with_guard(void)
{
	int fd = drm_open_driver();
	uint64_t start, end;
	struct pair p;

	pair_init(&p, fd);
	gem_quiescent_gpu(fd);
	gem_gtt_managed(fd, &start, &end);

	gem_narrow_gtt(fd, start, start + 3 * PAGE_SZ);
	p.obj[1].flags = 0;
	p.obj[0].flags = 0;
	igt_assert_ok(__gem_execbuf(fd, &p.eb));
	igt_info("3 pages at 0x%llx: snooped at 0x%llx, uncached at 0x%llx",
		 (unsigned long long)start,
		 (unsigned long long)p.obj[0].offset,
		 (unsigned long long)p.obj[1].offset);
	assert_guard(p.obj[0].offset, p.obj[1].offset);
	gem_sync(fd, p.obj[1].handle);

	gem_narrow_gtt(fd, start, start + 2 * PAGE_SZ);
	igt_assert_err(__gem_execbuf(fd, &p.eb), -ENOSPC);
	gem_restore_gtt(fd);
	pair_fini(&p, fd);
	close(fd);
}

static void subtest_next_to_pinned(void)
{
	int fd = drm_open_driver();
	uint64_t at, start, end;
	struct pair p;

	pair_init(&p, fd);
	gem_gtt_managed(fd, &start, &end);
	at = gem_pin(fd, p.obj[0].handle, 0);
	/* only the batch in the exec; the snoop stays where PIN put it */
	p.eb.buffers_ptr = to_user_pointer(&p.obj[1]);
	p.eb.buffer_count = 1;
	p.obj[1].flags = EXEC_OBJECT_PINNED;
	p.obj[1].offset = at + PAGE_SZ;
	igt_assert_err(__gem_execbuf(fd, &p.eb), -ENOSPC);
	if (at >= start + PAGE_SZ) {
		p.obj[1].offset = at - PAGE_SZ;
		igt_assert_err(__gem_execbuf(fd, &p.eb), -ENOSPC);
	}
	p.obj[1].offset = at + 2 * PAGE_SZ;
	igt_assert_ok(__gem_execbuf(fd, &p.eb));
	igt_assert_eq_u64(p.obj[1].offset, at + 2 * PAGE_SZ);
	gem_sync(fd, p.obj[1].handle);
	gem_unpin(fd, p.obj[0].handle);
	pair_fini(&p, fd);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(softpin_adjacent),
	SUBTEST(placed_with_guard),
	SUBTEST(next_to_pinned),
};

igt_main(tests)
