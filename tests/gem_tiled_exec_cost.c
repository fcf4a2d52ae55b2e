// SPDX-License-Identifier: GPL-2.0
/*
 * gem_tiled_exec_cost: an execbuffer does not get slower because tiled
 * objects were written through GTT mmaps earlier and still hold their
 * fences (igt's gem_tiled_fence_blits does that: it fills 1 MiB X-tiled
 * objects through GTT maps, then blits between them).  On the model
 * every fenced aperture page the CPU touched is a shadow page
 * (Documentation/model.rst, "the aperture through fences"), and the
 * command streamer and every chipset flush used to compare or merge all
 * of them: with 8 MiB of them an empty execbuffer took 20 to 30 times
 * longer than the CPU takes to compare those 8 MiB once.
 *
 *  - fenced_maps: the time of an empty execbuffer and its wait, before
 *    and after 8 MiB of X-tiled objects were written through their GTT
 *    maps (unmapped again, their fences kept), must not grow by more
 *    than 12 such comparisons; then the maps still show what was
 *    written.
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "exec.h"

#define NOBJ	8
#define OBJ_SIZE	(1u << 20)
#define OBJ_STRIDE	2048
#define EXECS	40

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

/* Microseconds per empty execbuffer and wait, the best of three rounds. */
static double exec_cost(int fd, uint32_t bbe)
{
	struct drm_i915_gem_exec_object2 obj = { .handle = bbe };
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(&obj),
		.buffer_count = 1,
	};
	double best = 0, t;
	int round, i;

	for (round = 0; round < 3; round++) {
		t = now_us();
		for (i = 0; i < EXECS; i++) {
			gem_execbuf(fd, &eb);
			gem_sync(fd, bbe);
		}
		t = (now_us() - t) / EXECS;
		if (!round || t < best)
			best = t;
	}
	return best;
}

/*
 * Microseconds the CPU takes to compare the objects' bytes with another
 * copy, a word at a time (the kernel's memcmp), under the same emulation
 * and load as the model: the unit of the model's work per page.
 */
static double compare_cost(void)
{
	size_t n = (size_t)NOBJ * OBJ_SIZE / sizeof(uint64_t), i;
	uint64_t *a = calloc(n, sizeof(*a)), *b = calloc(n, sizeof(*b));
	volatile uint64_t *va = a, *vb = b;
	double best = 0, t;
	unsigned long diff;
	int round;

	igt_assert(a && b);
	for (round = 0; round < 3; round++) {
		t = now_us();
		diff = 0;
		for (i = 0; i < n; i++)
			diff += va[i] != vb[i];
		t = now_us() - t;
		igt_assert_eq(diff, 0);
		if (!round || t < best)
			best = t;
	}
	free(a);
	free(b);
	return best;
}

static uint32_t create_x(int fd)
{
	struct drm_i915_gem_set_tiling st = {
		.handle = gem_create(fd, OBJ_SIZE),
		.tiling_mode = I915_TILING_X,
		.stride = OBJ_STRIDE,
	};

	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_I915_GEM_SET_TILING, &st));
	igt_assert_eq(st.tiling_mode, I915_TILING_X);
	return st.handle;
}

static void subtest_fenced_maps(void)
{
	int fd = drm_open_driver();
	uint32_t bbe = bbe_create(fd, 0), h[NOBJ], *p;
	double before, after, unit;
	unsigned int i, j;

	for (i = 0; i < NOBJ; i++)
		h[i] = create_x(fd);
	before = exec_cost(fd, bbe);

	for (i = 0; i < NOBJ; i++) {
		p = gem_mmap_offset(fd, h[i], OBJ_SIZE, I915_MMAP_OFFSET_GTT);
		gem_set_domain(fd, h[i], I915_GEM_DOMAIN_GTT,
			       I915_GEM_DOMAIN_GTT);
		for (j = 0; j < OBJ_SIZE / 4; j++)
			p[j] = i << 24 | j;
		munmap(p, OBJ_SIZE);
	}
	after = exec_cost(fd, bbe);
	unit = compare_cost();
	igt_info("empty execbuffer + wait: %.0f us, %.0f us with %u MiB of fenced pages written through GTT maps; comparing %u MiB: %.0f us",
		 before, after, NOBJ, NOBJ, unit);

	for (i = 0; i < NOBJ; i++) {
		p = gem_mmap_offset(fd, h[i], OBJ_SIZE, I915_MMAP_OFFSET_GTT);
		gem_set_domain(fd, h[i], I915_GEM_DOMAIN_GTT, 0);
		for (j = 0; j < OBJ_SIZE / 4; j += 1021)
			igt_assert_f(p[j] == (i << 24 | j),
				     "object %u dword %u: 0x%08x", i, j, p[j]);
		munmap(p, OBJ_SIZE);
		gem_close(fd, h[i]);
	}
	gem_close(fd, bbe);
	close(fd);

	/*
	 * Each execbuffer's chipset flush reads memory behind every shadow
	 * and compares both sides with the snapshot: about three passes
	 * over the pages, 5 to 8 times the unit measured (the swizzled
	 * 945G the most).  Before the fix the command streamer compared
	 * them at each of its six ring commands too, and the flush merged
	 * every page byte by byte: 20 to 30 times the unit.
	 */
	igt_assert_f(after - before < 12 * unit,
		     "%.0f us per execbuffer with fenced GTT-mapped pages, %.0f us without: more than 12 times the %.0f us of comparing their bytes once",
		     after, before, unit);
}

static const struct igt_subtest tests[] = {
	SUBTEST(fenced_maps),
};

igt_main(tests)
