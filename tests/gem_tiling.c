// SPDX-License-Identifier: GPL-2.0
/*
 * gem_tiling: SET_TILING and GET_TILING, as upstream 6.1 answers them.
 *
 * A request a fence register could hold succeeds and answers the mode
 * and stride asked for (linear: stride 0, whatever was passed), with the
 * mode's bit-6 swizzling: on the model's 945G (dual-channel interleaved
 * memory) 9_10 for X and 9 for Y, on its GM45 (one channel) none;
 * GET_TILING then reports the same mode and swizzling, physical
 * swizzling included.  An unknown mode or a stride no fence register can
 * hold is -EINVAL and changes nothing; an unknown handle is -ENOENT.  A
 * new object is linear, on the card and the render node.  The bytes
 * are never retiled.  (The blits through tiled objects are
 * gem_tiled_blits'.)
 */
#include <unistd.h>

#include "exec.h"

#define BAD_HANDLE	0x7fff0000u

static int __set_tiling(int fd, uint32_t handle, uint32_t mode,
			uint32_t stride, struct drm_i915_gem_set_tiling *out)
{
	struct drm_i915_gem_set_tiling st = {
		.handle = handle, .tiling_mode = mode, .stride = stride,
	};
	int ret = igt_ioctl(fd, DRM_IOCTL_I915_GEM_SET_TILING, &st);

	if (out)
		*out = st;
	return ret;
}

static int __get_tiling(int fd, uint32_t handle,
			struct drm_i915_gem_get_tiling *out)
{
	memset(out, 0xa5, sizeof(*out));
	out->handle = handle;
	return igt_ioctl(fd, DRM_IOCTL_I915_GEM_GET_TILING, out);
}

static void assert_linear(int fd, uint32_t handle)
{
	struct drm_i915_gem_get_tiling gt;

	igt_assert_ok(__get_tiling(fd, handle, &gt));
	igt_assert_eq(gt.tiling_mode, I915_TILING_NONE);
	igt_assert_eq(gt.swizzle_mode, I915_BIT_6_SWIZZLE_NONE);
	igt_assert_eq(gt.phys_swizzle_mode, I915_BIT_6_SWIZZLE_NONE);
}

static void subtest_get_tiling(void)
{
	int fd = drm_open_driver(), render = drm_open_driver_render();
	struct drm_i915_gem_get_tiling gt;
	uint32_t handle = gem_create(fd, 64 * 1024);

	assert_linear(fd, handle);
	/* as upstream: tiled objects need not be fence-sized */
	igt_assert_eq(gem_getparam(fd, I915_PARAM_HAS_RELAXED_FENCING), 1);
	igt_assert_err(__get_tiling(fd, BAD_HANDLE, &gt), -ENOENT);
	igt_assert_err(__get_tiling(fd, 0, &gt), -ENOENT);
	gem_close(fd, handle);
	igt_assert_err(__get_tiling(fd, handle, &gt), -ENOENT);

	handle = gem_create(render, PAGE_SZ);
	assert_linear(render, handle);
	gem_close(render, handle);
	close(render);
	close(fd);
}

/* 915G/GM: Y tiles are 512 bytes wide */
static bool y512(int fd)
{
	uint32_t id = gem_pci_id(fd);

	return id == 0x2582 || id == 0x258a || id == 0x2592;
}

/* the model's memory controller configuration (sim/i915_sim_fence.c) */
static uint32_t expected_swizzle(int fd, uint32_t mode)
{
	if (mode == I915_TILING_NONE)
		return I915_BIT_6_SWIZZLE_NONE;
	switch (gem_pci_id(fd)) {
	case 0x2772:
		return mode == I915_TILING_X ? I915_BIT_6_SWIZZLE_9_10 :
					       I915_BIT_6_SWIZZLE_9;
	case 0x2a42:
		return I915_BIT_6_SWIZZLE_NONE;
	}
	return ~0u;
}

/* a request a fence could hold: 0, and the object has that layout */
static void check_set(int fd, uint32_t handle, uint32_t mode,
		      uint32_t stride)
{
	uint32_t want_stride = mode == I915_TILING_NONE ? 0 : stride;
	uint32_t swizzle = expected_swizzle(fd, mode);
	struct drm_i915_gem_set_tiling st;
	struct drm_i915_gem_get_tiling gt;

	igt_assert_ok(__set_tiling(fd, handle, mode, stride, &st));
	igt_assert_f(st.tiling_mode == mode && st.stride == want_stride &&
		     (swizzle == ~0u || st.swizzle_mode == swizzle),
		     "mode %u stride %u came back as mode %u stride %u swizzle %u",
		     mode, stride, st.tiling_mode, st.stride,
		     st.swizzle_mode);
	igt_assert_ok(__get_tiling(fd, handle, &gt));
	igt_assert_eq(gt.tiling_mode, mode);
	igt_assert_eq(gt.swizzle_mode, st.swizzle_mode);
	igt_assert_eq(gt.phys_swizzle_mode, st.swizzle_mode);
}

static void subtest_set_tiling_linear(void)
{
	int fd = drm_open_driver();
	uint32_t handle = gem_create(fd, 1024 * 1024);
	uint32_t data[64], back[64];

	igt_fill_pattern(data, sizeof(data), 7);
	gem_write(fd, handle, 4096, data, sizeof(data));
	check_set(fd, handle, I915_TILING_NONE, 0);
	check_set(fd, handle, I915_TILING_NONE, 12345); /* ignored */
	check_set(fd, handle, I915_TILING_X, 4096);
	check_set(fd, handle, I915_TILING_X, 512);
	check_set(fd, handle, I915_TILING_Y, 2048);
	if (!y512(fd))	/* Y tiles 128 bytes wide */
		check_set(fd, handle, I915_TILING_Y, 128);
	check_set(fd, handle, I915_TILING_NONE, 0);
	/* the contents are untouched: nothing was retiled */
	gem_read(fd, handle, 4096, back, sizeof(back));
	igt_assert_mem(back, data, sizeof(data), "after SET_TILING");
	gem_close(fd, handle);
	close(fd);
}

static void subtest_set_tiling_bad(void)
{
	int fd = drm_open_driver(), gen = gem_gen(fd);
	uint32_t handle = gem_create(fd, 1024 * 1024);
	struct drm_i915_gem_get_tiling gt;

	/* a bad request leaves the layout as it was */
	check_set(fd, handle, I915_TILING_X, 2048);

	igt_assert_err(__set_tiling(fd, BAD_HANDLE, I915_TILING_X, 4096, NULL),
		       -ENOENT);
	igt_assert_err(__set_tiling(fd, 0, I915_TILING_NONE, 0, NULL),
		       -ENOENT);
	/* modes: 3 is I915_TILING_LAST + 1 */
	igt_assert_err(__set_tiling(fd, handle, 3, 4096, NULL), -EINVAL);
	igt_assert_err(__set_tiling(fd, handle, ~0u, 4096, NULL), -EINVAL);
	/* strides: none, not a whole tile */
	igt_assert_err(__set_tiling(fd, handle, I915_TILING_X, 0, NULL),
		       -EINVAL);
	igt_assert_err(__set_tiling(fd, handle, I915_TILING_X, 1000, NULL),
		       -EINVAL);
	igt_assert_err(__set_tiling(fd, handle, I915_TILING_Y, 64, NULL),
		       -EINVAL);
	if (gen < 4) {
		/* a power of two, at most 8 KiB */
		igt_assert_err(__set_tiling(fd, handle, I915_TILING_X, 1536,
					    NULL), -EINVAL);
		igt_assert_err(__set_tiling(fd, handle, I915_TILING_X, 16384,
					    NULL), -EINVAL);
		igt_assert_err(__set_tiling(fd, handle, I915_TILING_Y, 384,
					    NULL), -EINVAL);
		igt_assert_ok(__get_tiling(fd, handle, &gt));
		igt_assert_eq(gt.tiling_mode, I915_TILING_X);
		check_set(fd, handle, I915_TILING_X, 8192);
	} else {
		/* any multiple of the tile, up to 0x400 units of 128 B */
		check_set(fd, handle, I915_TILING_X, 1536);
		check_set(fd, handle, I915_TILING_Y, 384);
		check_set(fd, handle, I915_TILING_X, 0x400 * 128);
		igt_assert_err(__set_tiling(fd, handle, I915_TILING_X,
					    0x401 * 128, NULL), -EINVAL);
		igt_assert_err(__set_tiling(fd, handle, I915_TILING_X,
					    ~0u & ~511u, NULL), -EINVAL);
		igt_assert_ok(__get_tiling(fd, handle, &gt));
		igt_assert_eq(gt.tiling_mode, I915_TILING_X);
	}
	check_set(fd, handle, I915_TILING_NONE, 0);
	assert_linear(fd, handle);
	gem_close(fd, handle);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(get_tiling),
	SUBTEST(set_tiling_linear),
	SUBTEST(set_tiling_bad),
};

igt_main(tests)
