// SPDX-License-Identifier: GPL-2.0
/*
 * tiled.c: the tiling tests' surface (tiled.h).  The reference tiling is
 * the fact sheet's section 6.5: X tiles are 8 rows of 512 bytes, Y tiles
 * 32 rows of 16-byte columns (8 rows of 32 bytes on the 915G/GM), and
 * bit 6 of the address is swizzled as GET_TILING reports.
 */
#include <stdlib.h>

#include "tiled.h"

#define RENDER		I915_GEM_DOMAIN_RENDER
#define XY_SRC_TILED	(1u << 15)
#define XY_DST_TILED	(1u << 11)

static int gen;
static bool y512;

void tsurf_setup(int fd)
{
	uint32_t id = gem_pci_id(fd);

	gen = gem_gen(fd);
	y512 = id == 0x2582 || id == 0x258a || id == 0x2592;
}

int tsurf_gen(void)
{
	return gen;
}

bool tsurf_y512(void)
{
	return y512;
}

static int bit(uint64_t v, int n)
{
	return (v >> n) & 1;
}

/* Where a tiled surface of TSURF_STRIDE keeps linear byte @v. */
uint64_t tile_offset(uint32_t tiling, uint32_t swizzle, uint64_t v)
{
	uint64_t row = v / TSURF_STRIDE, off;
	uint32_t x = v % TSURF_STRIDE, h, span;

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
	off = (row / h) * TSURF_STRIDE * h + (row % h) * span +
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

/* @src, a linear surface, into @dst in the tiled layout. */
void tile(uint8_t *dst, const uint8_t *src, uint32_t tiling,
	  uint32_t swizzle)
{
	uint64_t v;

	for (v = 0; v < TSURF_SIZE; v++)
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

/* SET_TILING, its answers checked; Gen3 blits @s through a fence. */
void tsurf_set_tiling(int fd, struct tsurf *s, uint32_t tiling)
{
	struct drm_i915_gem_set_tiling st = {
		.handle = s->bo.handle, .tiling_mode = tiling,
		.stride = tiling ? TSURF_STRIDE : 0,
	};
	uint32_t want;

	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_I915_GEM_SET_TILING, &st));
	igt_assert_eq(st.tiling_mode, tiling);
	igt_assert_eq(st.stride, tiling ? TSURF_STRIDE : 0);
	want = tiling ? expected_swizzle(fd, tiling) : I915_BIT_6_SWIZZLE_NONE;
	if (want != ~0u)
		igt_assert_eq(st.swizzle_mode, want);
	s->tiling = tiling;
	s->swizzle = st.swizzle_mode;
	/* Gen3's blitter reaches a tiled surface only through a fence */
	s->bo.flags = gen < 4 && tiling ? EXEC_OBJECT_NEEDS_FENCE : 0;
}

void tsurf_init(int fd, struct tsurf *s, uint32_t tiling)
{
	bo_init(&s->bo, fd, TSURF_SIZE);
	s->tiling = I915_TILING_NONE;
	s->swizzle = I915_BIT_6_SWIZZLE_NONE;
	if (tiling)
		tsurf_set_tiling(fd, s, tiling);
}

static uint32_t xy(int x, int y)
{
	return (uint32_t)y << 16 | (uint32_t)x;
}

/* XY_SRC_COPY_BLT of the whole surface (Gen4: tiled bits, dword pitch) */
void tsurf_emit_copy(struct batch *b, struct tsurf *dst, struct tsurf *src)
{
	uint32_t cmd = XY_SRC_COPY_BLT | BLT_WRITE_ARGB;
	uint32_t dpitch = TSURF_STRIDE, spitch = TSURF_STRIDE;

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
	batch_emit(b, xy(TSURF_WIDTH, TSURF_HEIGHT));
	batch_reloc(b, &dst->bo, 0, RENDER, RENDER);
	batch_emit(b, xy(0, 0));
	batch_emit(b, spitch);
	batch_reloc(b, &src->bo, 0, RENDER, 0);
}

void tsurf_copy(int fd, struct tsurf *dst, struct tsurf *src)
{
	struct batch *b = batch_new(fd);

	tsurf_emit_copy(b, dst, src);
	batch_submit(b);
	batch_free(b);
}

/* pread shows @s's bytes as stored: @linear tiled and swizzled */
void tsurf_check_tiled(int fd, struct tsurf *s, const uint8_t *linear,
		       const char *what)
{
	uint8_t *want = malloc(TSURF_SIZE), *got = malloc(TSURF_SIZE);

	igt_assert(want && got);
	tile(want, linear, s->tiling, s->swizzle);
	gem_read(fd, s->bo.handle, 0, got, TSURF_SIZE);
	igt_assert_mem(got, want, TSURF_SIZE, "%s (pread): tiling %u swizzle %u",
		       what, s->tiling, s->swizzle);
	free(want);
	free(got);
}
