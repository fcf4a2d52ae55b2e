// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: execbuffer
 *
 * EXECBUFFER (the design's v1, with cliprects) and EXECBUFFER2: the
 * path of a client's batch into the ring.  Execution arrives with the
 * model's command streamer; until then both ioctls report that this
 * device cannot execute batches.
 */

#include "i915_drv.h"

/**
 * i915_gem_execbuffer_ioctl - EXECBUFFER (v1)
 * @dev: DRM device
 * @data: &struct drm_i915_gem_execbuffer
 * @file: DRM file
 *
 * Return: -ENODEV: batch execution is not implemented yet.
 */
int i915_gem_execbuffer_ioctl(struct drm_device *dev, void *data,
			      struct drm_file *file)
{
	return -ENODEV;
}

/**
 * i915_gem_execbuffer2_ioctl - EXECBUFFER2
 * @dev: DRM device
 * @data: &struct drm_i915_gem_execbuffer2
 * @file: DRM file
 *
 * Return: -ENODEV: batch execution is not implemented yet.
 */
int i915_gem_execbuffer2_ioctl(struct drm_device *dev, void *data,
			       struct drm_file *file)
{
	return -ENODEV;
}
