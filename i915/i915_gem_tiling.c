// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: tiling
 *
 * SET_TILING and GET_TILING, as upstream 6.1 answers them on Gen3/Gen4.
 * An object is linear, X-tiled or Y-tiled with a stride a fence register
 * can hold: on Gen3 a power of two of at most 8 KiB, on Gen4 a multiple
 * of 128 bytes up to 128 KiB; in both a multiple of the tile's width (512
 * bytes, 128 for Y from 945 on).  Anything else is -EINVAL; linear
 * ignores the stride and answers 0.  The object's bytes stay as they are
 * (pread, pwrite and CPU mmaps see them as the GPU stores them, tiled and
 * swizzled); what changes is how fences describe it (i915_gem_fence.c).
 *
 * A change of tiling releases the object's fence, which on Gen3 waits
 * for the object to be idle (a busy blit through the fence finishes with
 * the old layout; upstream waits at the next fenced use instead, see
 * Documentation/differences.rst), unbinds the object if its binding is
 * one a fence
 * of the new layout could not describe (waiting for the GPU first), and
 * zaps its GTT mmaps.  The answer carries the bit-6 swizzling of the
 * mode, with bit 17 hidden as upstream hides it; GET_TILING also reports
 * the physical swizzling, unknown where detection failed.
 */

#include <drm/drm_file.h>
#include <linux/dma-resv.h>
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

/* What userspace is told: bit 17 is the driver's business. */
static u32 swizzle_hide_17(u32 swizzle)
{
	if (swizzle == I915_BIT_6_SWIZZLE_9_17)
		return I915_BIT_6_SWIZZLE_9;
	if (swizzle == I915_BIT_6_SWIZZLE_9_10_17)
		return I915_BIT_6_SWIZZLE_9_10;
	return swizzle;
}

static int object_set_tiling(struct i915_gem_object *obj, u32 tiling,
			     u32 stride)
{
	int ret;

	ret = dma_resv_lock_interruptible(obj->base.resv, NULL);
	if (ret)
		return ret;
	if (obj->tiling == tiling && obj->stride == stride)
		goto out;

	ret = i915_gem_object_put_fence(obj);
	if (ret)
		goto out;
	if (!i915_gem_object_fence_fits(obj, tiling, stride)) {
		ret = obj->pin_count ? -EBUSY :
				       i915_gtt_unbind_idle_locked(obj);
		if (ret)
			goto out;
	}
	obj->tiling = tiling;
	obj->stride = stride;
	/* Linear PTEs of a newly tiled object, partial views included. */
	i915_gem_object_release_mmap_gtt(obj);
out:
	dma_resv_unlock(obj->base.resv);
	return ret;
}

/**
 * i915_gem_set_tiling_ioctl - SET_TILING: choose an object's layout
 * @dev: DRM device
 * @data: &struct drm_i915_gem_set_tiling
 * @file: DRM file
 *
 * See the DOC above.  tiling_mode and stride come back as the object now
 * has them, swizzle_mode as the mode's bit-6 swizzling.
 *
 * Return: 0, -ENOENT for an unknown handle, -EINVAL for an unknown mode
 * or a stride no fence can hold, -EBUSY if a pinned object would have to
 * move, -EINTR or -ERESTARTSYS on a signal.
 */
int i915_gem_set_tiling_ioctl(struct drm_device *dev, void *data,
			      struct drm_file *file)
{
	struct i915_device *i915 = to_i915(dev);
	struct drm_i915_gem_set_tiling *args = data;
	struct i915_gem_object *obj;
	int ret;

	obj = i915_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;

	if (!tiling_ok(i915->info, args->tiling_mode, args->stride)) {
		ret = -EINVAL;
		goto out;
	}
	if (args->tiling_mode == I915_TILING_NONE) {
		args->swizzle_mode = I915_BIT_6_SWIZZLE_NONE;
		args->stride = 0;
	} else {
		args->swizzle_mode =
			swizzle_hide_17(i915_fence_swizzle(i915,
							   args->tiling_mode));
	}

	ret = object_set_tiling(obj, args->tiling_mode, args->stride);
	args->tiling_mode = READ_ONCE(obj->tiling);
	args->stride = READ_ONCE(obj->stride);
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
 * The object's tiling mode, the mode's bit-6 swizzling (bit 17 hidden)
 * and its physical swizzling (with bit 17; unknown where the memory
 * controller's swizzling is unknown).
 *
 * Return: 0, or -ENOENT for an unknown handle.
 */
int i915_gem_get_tiling_ioctl(struct drm_device *dev, void *data,
			      struct drm_file *file)
{
	struct i915_device *i915 = to_i915(dev);
	struct drm_i915_gem_get_tiling *args = data;
	struct i915_gem_object *obj;
	u32 swizzle;

	obj = i915_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;

	args->tiling_mode = READ_ONCE(obj->tiling);
	swizzle = i915_fence_swizzle(i915, args->tiling_mode);
	if (i915_fence_swizzle_unknown(i915))
		args->phys_swizzle_mode = I915_BIT_6_SWIZZLE_UNKNOWN;
	else
		args->phys_swizzle_mode = swizzle;
	args->swizzle_mode = swizzle_hide_17(swizzle);
	drm_gem_object_put(&obj->base);
	return 0;
}
