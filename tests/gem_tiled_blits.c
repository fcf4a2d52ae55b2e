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

#include "exec.h"

#define RENDER		I915_GEM_DOMAIN_RENDER
#define WIDTH		256	/* pixels of 4 bytes */
#define HEIGHT		64
#define STRIDE		(WIDTH * 4)
#define SIZE		(STRIDE * HEIGHT)
#define XY_SRC_TILED	(1u << 15)
#define XY_DST_TILED	(1u << 11)

struct tsurf {
	struct bo bo;
	uint32_t tiling;
	uint32_t swizzle;
};

static int gen;
static bool y512;	/* 915G/GM: Y tiles of 32-byte columns, 8 rows */

static void setup(int fd)
{
	uint32_t id = gem_pci_id(fd);

	gen = gem_gen(fd);
	y512 = id == 0x2582 || id == 0x258a || id == 0x2592;
}

static int bit(uint64_t v, int n)
{
	return (v >> n) & 1;
}

/* Where a tiled surface of STRIDE keeps linear byte @v. */
static uint64_t tile_offset(uint32_t tiling, uint32_t swizzle, uint64_t v)
{
	uint64_t row = v / STRIDE, off;
	uint32_t x = v % STRIDE, h, span;

	if (tiling == I915_TILING_X) {
		h = 8;
		span = 512;
	} else if (y512) {
		h = 8;
		span = 32;
	} else {
		h = 32;
		span = 16;
	}
	off = (row / h) * STRIDE * h + (row % h) * span +
	      (uint64_t)(x / span) * span * h + x % span;
	switch (swizzle) {
	case I915_BIT_6_SWIZZLE_9:
		off ^= (uint64_t)bit(off, 9) << 6;
		break;
	case I915_BIT_6_SWIZZLE_9_10:
		off ^= (uint64_t)(bit(off, 9) ^ bit(off, 10)) << 6;
		break;
	case I915_BIT_6_SWIZZLE_9_11:
		off ^= (uint64_t)(bit(off, 9) ^ bit(off, 11)) << 6;
		break;
	case I915_BIT_6_SWIZZLE_9_10_11:
		off ^= (uint64_t)(bit(off, 9) ^ bit(off, 10) ^ bit(off, 11)) << 6;
		break;
	case I915_BIT_6_SWIZZLE_NONE:
		break;
	default:
		igt_skip("swizzle %u needs physical addresses", swizzle);
	}
	return off;
}

static void tile(uint8_t *dst, const uint8_t *src, uint32_t tiling,
		 uint32_t swizzle)
{
	uint64_t v;

	for (v = 0; v < SIZE; v++)
		dst[tile_offset(tiling, swizzle, v)] = src[v];
}

/* the swizzling the model's memory controller is configured for */
static uint32_t expected_swizzle(int fd, uint32_t tiling)
{
	switch (gem_pci_id(fd)) {
	case 0x2772:	/* 945G: dual channel interleaved, XOR off */
		return tiling == I915_TILING_X ? I915_BIT_6_SWIZZLE_9_10 :
						 I915_BIT_6_SWIZZLE_9;
	case 0x2a42:	/* GM45: single channel */
		return I915_BIT_6_SWIZZLE_NONE;
	}
	return ~0u;
}

static void set_tiling(int fd, struct tsurf *s, uint32_t tiling)
{
	struct drm_i915_gem_set_tiling st = {
		.handle = s->bo.handle, .tiling_mode = tiling,
		.stride = tiling ? STRIDE : 0,
	};
	uint32_t want;

	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_I915_GEM_SET_TILING, &st));
	igt_assert_eq(st.tiling_mode, tiling);
	igt_assert_eq(st.stride, tiling ? STRIDE : 0);
	want = tiling ? expected_swizzle(fd, tiling) : I915_BIT_6_SWIZZLE_NONE;
	if (want != ~0u)
		igt_assert_eq(st.swizzle_mode, want);
	s->tiling = tiling;
	s->swizzle = st.swizzle_mode;
	/* Gen3's blitter reaches a tiled surface only through a fence */
	s->bo.flags = gen < 4 && tiling ? EXEC_OBJECT_NEEDS_FENCE : 0;
}

static void tsurf_init(int fd, struct tsurf *s, uint32_t tiling)
{
	bo_init(&s->bo, fd, SIZE);
	s->tiling = I915_TILING_NONE;
	s->swizzle = I915_BIT_6_SWIZZLE_NONE;
	if (tiling)
		set_tiling(fd, s, tiling);
}

static uint32_t xy(int x, int y)
{
	return (uint32_t)y << 16 | (uint32_t)x;
}

/* XY_SRC_COPY_BLT of the whole surface */
static void emit_copy(struct batch *b, struct tsurf *dst, struct tsurf *src)
{
	uint32_t cmd = XY_SRC_COPY_BLT | BLT_WRITE_ARGB;
	uint32_t dpitch = STRIDE, spitch = STRIDE;

	if (gen >= 4 && dst->tiling) {
		cmd |= XY_DST_TILED;
		dpitch /= 4;
	}
	if (gen >= 4 && src->tiling) {
		cmd |= XY_SRC_TILED;
		spitch /= 4;
	}
	batch_emit(b, cmd);
	batch_emit(b, BR13_ROP(ROP_SRCCOPY) | BR13_DEPTH_32 | dpitch);
	batch_emit(b, xy(0, 0));
	batch_emit(b, xy(WIDTH, HEIGHT));
	batch_reloc(b, &dst->bo, 0, RENDER, RENDER);
	batch_emit(b, xy(0, 0));
	batch_emit(b, spitch);
	batch_reloc(b, &src->bo, 0, RENDER, 0);
}

static void copy(int fd, struct tsurf *dst, struct tsurf *src)
{
	struct batch *b = batch_new(fd);

	emit_copy(b, dst, src);
	batch_submit(b);
	batch_free(b);
}

static void check_tiled(int fd, struct tsurf *s, const uint8_t *linear,
			const char *what)
{
	uint8_t *want = malloc(SIZE), *got = malloc(SIZE);

	igt_assert(want && got);
	tile(want, linear, s->tiling, s->swizzle);
	gem_read(fd, s->bo.handle, 0, got, SIZE);
	igt_assert_mem(got, want, SIZE, "%s: tiling %u swizzle %u", what,
		       s->tiling, s->swizzle);
	free(want);
	free(got);
}

static void roundtrip(uint32_t tiling)
{
	int fd = drm_open_driver();
	struct tsurf src, dst, back;
	uint8_t *pattern = malloc(SIZE), *got = malloc(SIZE);

	igt_assert(pattern && got);
	setup(fd);
	igt_fill_pattern(pattern, SIZE, 0x7117 + tiling);
	tsurf_init(fd, &src, I915_TILING_NONE);
	tsurf_init(fd, &dst, tiling);
	tsurf_init(fd, &back, I915_TILING_NONE);
	gem_write(fd, src.bo.handle, 0, pattern, SIZE);

	copy(fd, &dst, &src);
	check_tiled(fd, &dst, pattern, "linear to tiled");
	copy(fd, &back, &dst);
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
	set_tiling(fd, &s, I915_TILING_Y);
	tile(stored, pattern, I915_TILING_Y, s.swizzle);
	gem_write(fd, s.bo.handle, 0, stored, SIZE);
	set_tiling(fd, &s, I915_TILING_X);
	set_tiling(fd, &s, I915_TILING_NONE);
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

	setup(fd);
	close(fd);
	if (gen >= 4)
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

		batch_emit(b, cmd | (gen >= 4 ? XY_DST_TILED : 0));
		batch_emit(b, BR13_ROP(ROP_PATCOPY) | BR13_DEPTH_32 |
			      (gen >= 4 ? STRIDE / 4 : STRIDE));
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

	setup(fd);
	igt_assert_eq(fences, gen < 4 && y512 ? 8 : 16);
	s = calloc(fences + 1, sizeof(*s));
	igt_assert(s);
	for (i = 0; i <= fences; i++) {
		tsurf_init(fd, &s[i], I915_TILING_X);
		s[i].bo.flags = EXEC_OBJECT_NEEDS_FENCE;
	}

	ret = exec_fenced(fd, s, fences + 1);
	igt_info("%d fenced objects, %d registers: %s", fences + 1, fences,
		 igt_errname(ret));
	igt_assert_err(ret, gen < 4 ? -ENOBUFS : 0);
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

	setup(fd);
	s = calloc(n, sizeof(*s));
	src = calloc(n * STEAL_ROUNDS, sizeof(*src));
	igt_assert(s && src && pattern);
	for (i = 0; i < n; i++)
		tsurf_init(fd, &s[i], i & 1 && gen < 4 ? I915_TILING_Y :
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
			copy(fd, &s[i], &src[r * n + i]);
	for (i = 0; i < n; i++) {
		igt_fill_pattern(pattern, SIZE,
				 0x1000 + (STEAL_ROUNDS - 1) * n + i);
		check_tiled(fd, &s[i], pattern, "after the steals");
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
	setup(fd);
	igt_fill_pattern(pattern, SIZE, 0xb05);
	tsurf_init(fd, &src, I915_TILING_NONE);
	tsurf_init(fd, &dst, I915_TILING_X);
	swizzle = dst.swizzle;
	gem_write(fd, src.bo.handle, 0, pattern, SIZE);

	sim_set_cmd_delay(300000);
	copy(fd, &dst, &src);
	igt_assert_neq(gem_busy(fd, dst.bo.handle), 0);
	t = igt_now();
	set_tiling(fd, &dst, I915_TILING_NONE);
	igt_info("SET_TILING(NONE) on the busy object: %.3f s",
		 igt_now() - t);
	gt.handle = dst.bo.handle;
	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_I915_GEM_GET_TILING, &gt));
	igt_assert_eq(gt.tiling_mode, I915_TILING_NONE);

	/* the blit finished with the layout it was queued with */
	dst.tiling = I915_TILING_X;
	dst.swizzle = swizzle;
	check_tiled(fd, &dst, pattern, "tiling changed while busy");

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
