// SPDX-License-Identifier: GPL-2.0
/*
 * gem_tiled_blits: the blitter writing and reading tiled objects, every
 * byte compared with a CPU reference tiling (fact sheet section 6.5,
 * bit-6 swizzled as GET_TILING reports).
 *
 *  - blit_x, blit_y: a linear pattern blitted into an X- (Y-) tiled
 *    object, read back by pread in the tiled, swizzled layout, then
 *    blitted back to a linear object equal to the pattern.  Gen3 blits
 *    through a fence (EXEC_OBJECT_NEEDS_FENCE); Gen4 sets the XY
 *    commands' tiled bits with the pitch in dwords.  Gen4's blitter has
 *    no Y tiling: there blit_y checks that SET_TILING leaves the bytes
 *    alone (pwrite, pread) and nothing more.
 *  - too_many_fences: one exec with more fenced objects than fence
 *    registers is -ENOBUFS on Gen3 (one fewer works), and works on Gen4,
 *    whose GPU does not use fences (upstream ignores NEEDS_FENCE there).
 *  - fence_steal: more tiled objects than fence registers, blitted in
 *    turn by execs queued without waiting (the model slowed down): every
 *    steal waits for the batches using the register, every object ends
 *    with its last pattern, tiled.
 *  - tiling_change_busy: SET_TILING while a blit through the object's
 *    fence is queued waits for it: the object holds the old layout.
 */
#include <unistd.h>

#include "tiled.h"

#define RENDER		I915_GEM_DOMAIN_RENDER
#define WIDTH		TSURF_WIDTH
#define HEIGHT		TSURF_HEIGHT
#define STRIDE		TSURF_STRIDE
#define SIZE		TSURF_SIZE
#define XY_DST_TILED	(1u << 11)

static uint32_t xy(int x, int y)
{
	return (uint32_t)y << 16 | (uint32_t)x;
}

static void roundtrip(uint32_t tiling)
{
	int fd = drm_open_driver();
	struct tsurf src, dst, back;
	uint8_t *pattern = malloc(SIZE), *got = malloc(SIZE);

	igt_assert(pattern && got);
	tsurf_setup(fd);
	igt_fill_pattern(pattern, SIZE, 0x7117 + tiling);
	tsurf_init(fd, &src, I915_TILING_NONE);
	tsurf_init(fd, &dst, tiling);
	tsurf_init(fd, &back, I915_TILING_NONE);
	gem_write(fd, src.bo.handle, 0, pattern, SIZE);

	tsurf_copy(fd, &dst, &src);
	tsurf_check_tiled(fd, &dst, pattern, "linear to tiled");
	tsurf_copy(fd, &back, &dst);
	gem_read(fd, back.bo.handle, 0, got, SIZE);
	igt_assert_mem(got, pattern, SIZE, "tiled to linear");
	igt_info("tiling %u, swizzle %u: %d bytes each way", tiling,
		 dst.swizzle, SIZE);

	bo_fini(&src.bo, fd);
	bo_fini(&dst.bo, fd);
	bo_fini(&back.bo, fd);
	free(pattern);
	free(got);
	close(fd);
}

static void subtest_blit_x(void)
{
	roundtrip(I915_TILING_X);
}

/* Gen4: SET_TILING(Y) keeps the bytes; pread shows them as stored */
static void y_untouched(void)
{
	int fd = drm_open_driver();
	uint8_t *pattern = malloc(SIZE), *stored = malloc(SIZE);
	uint8_t *got = malloc(SIZE);
	struct tsurf s;

	igt_assert(pattern && stored && got);
	tsurf_init(fd, &s, I915_TILING_NONE);
	igt_fill_pattern(pattern, SIZE, 0x5eed);
	tsurf_set_tiling(fd, &s, I915_TILING_Y);
	tile(stored, pattern, I915_TILING_Y, s.swizzle);
	gem_write(fd, s.bo.handle, 0, stored, SIZE);
	tsurf_set_tiling(fd, &s, I915_TILING_X);
	tsurf_set_tiling(fd, &s, I915_TILING_NONE);
	gem_read(fd, s.bo.handle, 0, got, SIZE);
	igt_assert_mem(got, stored, SIZE, "after SET_TILING Y, X, NONE");
	igt_info("Gen4's blitter has no Y tiling: bytes only");
	bo_fini(&s.bo, fd);
	free(pattern);
	free(stored);
	free(got);
	close(fd);
}

static void subtest_blit_y(void)
{
	int fd = drm_open_driver();

	tsurf_setup(fd);
	close(fd);
	if (tsurf_gen() >= 4)
		y_untouched();
	else
		roundtrip(I915_TILING_Y);
}

/* one exec blitting a pixel into each of @n fenced objects */
static int exec_fenced(int fd, struct tsurf *s, int n)
{
	struct batch *b = batch_new(fd);
	int i, ret;

	for (i = 0; i < n; i++) {
		uint32_t cmd = XY_COLOR_BLT | BLT_WRITE_ARGB;

		batch_emit(b, cmd | (tsurf_gen() >= 4 ? XY_DST_TILED : 0));
		batch_emit(b, BR13_ROP(ROP_PATCOPY) | BR13_DEPTH_32 |
			      (tsurf_gen() >= 4 ? STRIDE / 4 : STRIDE));
		batch_emit(b, xy(i, 0));
		batch_emit(b, xy(i + 1, 1));
		batch_reloc(b, &s[i].bo, 0, RENDER, RENDER);
		batch_emit(b, 0xc0ffee00 + i);
	}
	ret = __batch_submit(b, 0);
	batch_free(b);
	return ret;
}

static void subtest_too_many_fences(void)
{
	int fd = drm_open_driver();
	int fences = gem_getparam(fd, I915_PARAM_NUM_FENCES_AVAIL);
	struct tsurf *s;
	uint32_t px;
	int i, ret;

	tsurf_setup(fd);
	igt_assert_eq(fences, tsurf_gen() < 4 && tsurf_y512() ? 8 : 16);
	s = calloc(fences + 1, sizeof(*s));
	igt_assert(s);
	for (i = 0; i <= fences; i++) {
		tsurf_init(fd, &s[i], I915_TILING_X);
		s[i].bo.flags = EXEC_OBJECT_NEEDS_FENCE;
	}

	ret = exec_fenced(fd, s, fences + 1);
	igt_info("%d fenced objects, %d registers: %s", fences + 1, fences,
		 igt_errname(ret));
	igt_assert_err(ret, tsurf_gen() < 4 ? -ENOBUFS : 0);
	igt_assert_ok(exec_fenced(fd, s, fences));
	for (i = 0; i < fences; i++) {
		gem_read(fd, s[i].bo.handle,
			 tile_offset(I915_TILING_X, s[i].swizzle, i * 4),
			 &px, 4);
		igt_assert_eq_u64(px, 0xc0ffee00 + i);
	}
	for (i = 0; i <= fences; i++)
		bo_fini(&s[i].bo, fd);
	free(s);
	close(fd);
}

#define STEAL_EXTRA	3
#define STEAL_ROUNDS	3

static void subtest_fence_steal(void)
{
	int fd = drm_open_driver();
	int fences = gem_getparam(fd, I915_PARAM_NUM_FENCES_AVAIL);
	int n = fences + STEAL_EXTRA, i, r;
	struct tsurf *s, *src;
	uint8_t *pattern = malloc(SIZE);

	tsurf_setup(fd);
	s = calloc(n, sizeof(*s));
	src = calloc(n * STEAL_ROUNDS, sizeof(*src));
	igt_assert(s && src && pattern);
	for (i = 0; i < n; i++)
		tsurf_init(fd, &s[i], i & 1 && tsurf_gen() < 4 ? I915_TILING_Y :
							  I915_TILING_X);
	for (r = 0; r < STEAL_ROUNDS * n; r++) {
		tsurf_init(fd, &src[r], I915_TILING_NONE);
		igt_fill_pattern(pattern, SIZE, 0x1000 + r);
		gem_write(fd, src[r].bo.handle, 0, pattern, SIZE);
	}

	/* slow enough that each steal finds the register's batch queued */
	sim_set_cmd_delay(2000);
	for (r = 0; r < STEAL_ROUNDS; r++)
		for (i = 0; i < n; i++)
			tsurf_copy(fd, &s[i], &src[r * n + i]);
	for (i = 0; i < n; i++) {
		igt_fill_pattern(pattern, SIZE,
				 0x1000 + (STEAL_ROUNDS - 1) * n + i);
		tsurf_check_tiled(fd, &s[i], pattern, "after the steals");
	}
	igt_info("%d objects through %d fences, %d rounds", n, fences,
		 STEAL_ROUNDS);

	for (i = 0; i < n; i++)
		bo_fini(&s[i].bo, fd);
	for (r = 0; r < STEAL_ROUNDS * n; r++)
		bo_fini(&src[r].bo, fd);
	free(s);
	free(src);
	free(pattern);
	close(fd);
}

static void subtest_tiling_change_busy(void)
{
	int fd = drm_open_driver();
	struct drm_i915_gem_get_tiling gt = { 0 };
	uint8_t *pattern = malloc(SIZE);
	struct tsurf src, dst;
	uint32_t swizzle;
	double t;

	igt_assert(pattern);
	tsurf_setup(fd);
	igt_fill_pattern(pattern, SIZE, 0xb05);
	tsurf_init(fd, &src, I915_TILING_NONE);
	tsurf_init(fd, &dst, I915_TILING_X);
	swizzle = dst.swizzle;
	gem_write(fd, src.bo.handle, 0, pattern, SIZE);

	sim_set_cmd_delay(300000);
	tsurf_copy(fd, &dst, &src);
	igt_assert_neq(gem_busy(fd, dst.bo.handle), 0);
	t = igt_now();
	tsurf_set_tiling(fd, &dst, I915_TILING_NONE);
	igt_info("SET_TILING(NONE) on the busy object: %.3f s",
		 igt_now() - t);
	gt.handle = dst.bo.handle;
	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_I915_GEM_GET_TILING, &gt));
	igt_assert_eq(gt.tiling_mode, I915_TILING_NONE);

	/* the blit finished with the layout it was queued with */
	dst.tiling = I915_TILING_X;
	dst.swizzle = swizzle;
	tsurf_check_tiled(fd, &dst, pattern, "tiling changed while busy");

	bo_fini(&src.bo, fd);
	bo_fini(&dst.bo, fd);
	free(pattern);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(blit_x),
	SUBTEST(blit_y),
	SUBTEST(too_many_fences),
	SUBTEST(fence_steal),
	SUBTEST(tiling_change_busy),
};

igt_main(tests)
