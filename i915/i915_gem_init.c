// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: GEM_INIT and the VT switch
 *
 * The ioctls with which a user-mode-setting X server shares the GPU with
 * the console (root and master only): GEM_INIT chooses the range of the
 * GTT that GEM manages (i915_gtt_set_range()), LEAVEVT gives the GTT
 * back to the VT owner once the GPU is idle, and ENTERVT takes the GPU
 * back, programming the ring afresh.
 */

#include <drm/drm_file.h>
#include <uapi/drm/i915_drm.h>

#include "i915_drv.h"

/**
 * i915_gem_init_ioctl - GEM_INIT: choose the GTT range GEM manages
 * @dev: DRM device
 * @data: &struct drm_i915_gem_init
 * @file: DRM file (root and master only)
 *
 * Unbinds every unpinned object and re-creates the allocator over
 * [gtt_start, gtt_end), minus the firmware's stolen memory (or page 0),
 * the last guard page and the driver's own range.
 *
 * Return: 0 on success, -EINVAL for a range that is empty (also once
 * those are taken out), unaligned or beyond the GTT, -EBUSY while pinned
 * objects remain bound.
 */
int i915_gem_init_ioctl(struct drm_device *dev, void *data,
			struct drm_file *file)
{
	struct drm_i915_gem_init *args = data;

	return i915_gtt_set_range(to_i915(dev), args->gtt_start,
				  args->gtt_end);
}

/**
 * i915_gem_leavevt_ioctl - LEAVEVT: give the GTT back to the VT owner
 * @dev: DRM device
 * @data: unused
 * @file: DRM file (root and master only)
 *
 * Waits until the GPU has finished everything queued, then unbinds every
 * object that is not pinned.  Execution stays possible: objects are bound
 * again by their next use.
 *
 * Return: 0 on success (also when the GPU hung: its requests are over),
 * or -ERESTARTSYS/-EINTR on a signal.
 */
int i915_gem_leavevt_ioctl(struct drm_device *dev, void *data,
			   struct drm_file *file)
{
	struct i915_device *i915 = to_i915(dev);
	int ret;

	ret = i915_request_wait_idle(i915);
	if (ret && ret != -EIO)
		return ret;
	return i915_gtt_evict_all(i915);
}

/**
 * i915_gem_entervt_ioctl - ENTERVT: take the GPU back after a VT switch
 * @dev: DRM device
 * @data: unused
 * @file: DRM file (root and master only)
 *
 * Another user of the hardware may have reprogrammed the ring while the
 * VT was away: once the GPU is idle, the ring registers are programmed
 * afresh (an empty ring, the status page).  Objects are bound again
 * lazily by their next use.
 *
 * Return: 0, -EIO if the GPU hung (it stays wedged), -ERESTARTSYS or
 * -EINTR on a signal.
 */
int i915_gem_entervt_ioctl(struct drm_device *dev, void *data,
			   struct drm_file *file)
{
	struct i915_device *i915 = to_i915(dev);
	struct i915_ring *ring = &i915->ring;
	int ret;

	/*
	 * Queued requests are written into the ring under its lock: wait
	 * for them without it, then for what the ring got meanwhile.
	 */
	for (;;) {
		ret = i915_request_wait_idle(i915);
		if (ret)
			return ret;
		ret = mutex_lock_interruptible(&ring->lock);
		if (ret)
			return ret;
		if (list_empty(&ring->queue) && i915_request_idle(i915))
			break;
		mutex_unlock(&ring->lock);
	}
	ret = i915_ring_start(i915);
	mutex_unlock(&ring->lock);
	return ret;
}
