// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: tiling
 *
 * SET_TILING and GET_TILING, which libdrm_intel and Mesa call on every
 * buffer they share or allocate tiled.  The driver does not tile yet: it
 * has no fence registers programmed and no GTT mapping through which
 * fences would detile.  So, as upstream does on a platform whose bit-6
 * swizzling is unknown, SET_TILING checks the request like the hardware
 * would (mode, and a stride a fence register can hold) and then answers
 * with I915_TILING_NONE: the object stays linear and the caller, told so,
 * lays its surface out linearly.  GET_TILING reports every object linear.
 */

#include <drm/drm_file.h>
#include <uapi/drm/i915_drm.h>

#include "i915_drv.h"
#include "i915_reg.h"

/* Could a fence register of this GPU describe @tiling with @stride? */
static bool tiling_ok(const struct i915_device_info *info, u32 tiling,
		      u32 stride)
{
	u32 tile_width;

	if (tiling == I915_TILING_NONE)
		return true;
	if (tiling != I915_TILING_X && tiling != I915_TILING_Y)
		return false;

	if (info->gen >= 4) {
		if (stride / I965_FENCE_PITCH_UNIT > I965_FENCE_MAX_PITCH_VAL)
			return false;
	} else if (stride > I915_FENCE_MAX_PITCH || !is_power_of_2(stride)) {
		return false;
	}

	if (tiling == I915_TILING_Y && !info->y_tile_512)
		tile_width = I945_TILE_WIDTH_Y;
	else
		tile_width = I915_TILE_WIDTH;
	return stride && IS_ALIGNED(stride, tile_width);
}

/**
 * i915_gem_set_tiling_ioctl - SET_TILING: ask for a tiled layout
 * @dev: DRM device
 * @data: &struct drm_i915_gem_set_tiling
 * @file: DRM file
 *
 * The answer is always linear (see the DOC above): tiling_mode and
 * swizzle_mode come back I915_TILING_NONE and I915_BIT_6_SWIZZLE_NONE,
 * stride 0.
 *
 * Return: 0, -ENOENT for an unknown handle, -EINVAL for an unknown mode
 * or a stride the hardware could not fence.
 */
int i915_gem_set_tiling_ioctl(struct drm_device *dev, void *data,
			      struct drm_file *file)
{
	struct drm_i915_gem_set_tiling *args = data;
	struct i915_gem_object *obj;
	int ret = 0;

	obj = i915_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;

	if (!tiling_ok(to_i915(dev)->info, args->tiling_mode, args->stride)) {
		ret = -EINVAL;
		goto out;
	}
	args->tiling_mode = I915_TILING_NONE;
	args->swizzle_mode = I915_BIT_6_SWIZZLE_NONE;
	args->stride = 0;
out:
	drm_gem_object_put(&obj->base);
	return ret;
}

/**
 * i915_gem_get_tiling_ioctl - GET_TILING: an object's layout
 * @dev: DRM device
 * @data: &struct drm_i915_gem_get_tiling
 * @file: DRM file
 *
 * Every object is linear: tiling, swizzle and physical swizzle are all
 * NONE.
 *
 * Return: 0, or -ENOENT for an unknown handle.
 */
int i915_gem_get_tiling_ioctl(struct drm_device *dev, void *data,
			      struct drm_file *file)
{
	struct drm_i915_gem_get_tiling *args = data;
	struct i915_gem_object *obj;

	obj = i915_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;

	args->tiling_mode = I915_TILING_NONE;
	args->swizzle_mode = I915_BIT_6_SWIZZLE_NONE;
	args->phys_swizzle_mode = I915_BIT_6_SWIZZLE_NONE;
	drm_gem_object_put(&obj->base);
	return 0;
}
