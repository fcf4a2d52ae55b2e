// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: GETPARAM
 *
 * Feature discovery for userspace (libdrm_intel, Mesa, igt): each
 * parameter this driver knows is answered truthfully, parameters of the
 * old user-mode-setting era fail with -ENODEV as upstream, and anything
 * else with -EINVAL.  Execution features this driver lacks are unknown
 * parameters here, so -EINVAL: CAPTURE, contexts and the command parser.
 * SLICE_MASK and SUBSLICE_MASK are known but empty on Gen3/Gen4 (no slice
 * topology before Gen8): -ENODEV as upstream, like I915_QUERY's
 * TOPOLOGY_INFO.
 * (A 32-bit caller's GETPARAM goes through i915_ioc32.c first.)
 */

#include <uapi/drm/i915_drm.h>
#include <linux/capability.h>
#include <linux/pci.h>
#include <linux/uaccess.h>

#include "i915_drv.h"

/* Version of the CPU mmap ioctl: 1 = I915_MMAP_WC is understood. */
#define I915_MMAP_IOCTL_VERSION	1
/*
 * Version of GTT mmaps, upstream's numbering (i915_gem_mman.c): 4 = any
 * object size (partial views), WC a domain of its own, no implicit
 * SET_DOMAIN on fault, MMAP_OFFSET with its several types.
 */
#define I915_MMAP_GTT_VERSION	4

static int getparam_value(struct i915_device *i915, s32 param, int *value)
{
	struct pci_dev *pdev = to_pci_dev(i915->drm.dev);

	switch (param) {
	case I915_PARAM_IRQ_ACTIVE:
	case I915_PARAM_ALLOW_BATCHBUFFER:
	case I915_PARAM_LAST_DISPATCH:
	case I915_PARAM_HAS_EXEC_CONSTANTS:
		return -ENODEV;
	case I915_PARAM_SLICE_MASK:
	case I915_PARAM_SUBSLICE_MASK:
		/* upstream's answer for an empty slice/subslice mask */
		return -ENODEV;
	case I915_PARAM_CHIPSET_ID:
		*value = pdev->device;
		return 0;
	case I915_PARAM_REVISION:
		*value = pdev->revision;
		return 0;
	case I915_PARAM_HAS_GPU_RESET:
		/* The hang check is always on; no per-engine reset: 1, not 2. */
		*value = i915_reset_enabled();
		return 0;
	case I915_PARAM_NUM_FENCES_AVAIL:
		*value = i915->info->num_fences;
		return 0;
	case I915_PARAM_HAS_GEM:
		*value = 1;
		return 0;
	case I915_PARAM_MMAP_VERSION:
		*value = I915_MMAP_IOCTL_VERSION;
		return 0;
	case I915_PARAM_MMAP_GTT_VERSION:
		*value = I915_MMAP_GTT_VERSION;
		return 0;
	case I915_PARAM_CS_TIMESTAMP_FREQUENCY:
		/* From CLKCFG at probe, on Gen3 too (i915_reg_read.c). */
		*value = i915->timestamp_hz;
		return 0;
	case I915_PARAM_MMAP_GTT_COHERENT:
		*value = !i915->info->incoherent_ggtt;
		return 0;
	case I915_PARAM_HAS_EXECBUF2:
	case I915_PARAM_HAS_EXEC_NO_RELOC:
	case I915_PARAM_HAS_EXEC_HANDLE_LUT:
	case I915_PARAM_HAS_EXEC_BATCH_FIRST:
	case I915_PARAM_HAS_EXEC_SOFTPIN:
	case I915_PARAM_HAS_EXEC_FENCE:
	case I915_PARAM_HAS_EXEC_ASYNC:
	case I915_PARAM_HAS_RELAXED_DELTA:
	case I915_PARAM_HAS_WAIT_TIMEOUT:
	case I915_PARAM_HAS_PINNED_BATCHES:
	case I915_PARAM_HAS_COHERENT_RINGS:
	case I915_PARAM_HAS_EXEC_FENCE_ARRAY:
	case I915_PARAM_HAS_EXEC_SUBMIT_FENCE:
	case I915_PARAM_HAS_EXEC_TIMELINE_FENCES:
	case I915_PARAM_HAS_EXEC_CAPTURE:
		/* Execution features, see i915_gem_execbuffer.c. */
		*value = 1;
		return 0;
	case I915_PARAM_HAS_RELAXED_FENCING:
		/*
		 * As upstream: a tiled object need not be allocated at the
		 * power-of-two size of its Gen3 fence; its binding is
		 * rounded up and aligned instead (i915_gem_fence.c).
		 */
		*value = 1;
		return 0;
	case I915_PARAM_HAS_USERPTR_PROBE:
		/* See i915_gem_userptr.c. */
		*value = 1;
		return 0;
	case I915_PARAM_HAS_SECURE_BATCHES:
		/* As upstream: Gen3/Gen4 have them, for privileged callers. */
		*value = capable(CAP_SYS_ADMIN);
		return 0;
	case I915_PARAM_CMD_PARSER_VERSION:
		/* As upstream: 0, no command parser on these parts. */
		*value = 0;
		return 0;
	case I915_PARAM_HAS_OVERLAY:
	case I915_PARAM_HAS_PAGEFLIPPING:
	case I915_PARAM_HAS_BSD:
	case I915_PARAM_HAS_BLT:
	case I915_PARAM_HAS_VEBOX:
	case I915_PARAM_HAS_BSD2:
	case I915_PARAM_HAS_LLC:
	case I915_PARAM_HAS_WT:
	case I915_PARAM_HAS_ALIASING_PPGTT:
	case I915_PARAM_HAS_SEMAPHORES:
		/* Features these GPUs (or this GEM-only driver) lack. */
		*value = 0;
		return 0;
	default:
		return -EINVAL;
	}
}

/**
 * i915_getparam_ioctl - GETPARAM: answer a feature query
 * @dev: DRM device
 * @data: &struct drm_i915_getparam
 * @file: DRM file
 *
 * Return: 0 with the value stored at @data->value, -EINVAL for a parameter
 * this driver does not know, -ENODEV for a retired one, -EFAULT if the
 * value cannot be stored.
 */
int i915_getparam_ioctl(struct drm_device *dev, void *data,
			struct drm_file *file)
{
	struct drm_i915_getparam *args = data;
	int value = 0;
	int ret;

	ret = getparam_value(to_i915(dev), args->param, &value);
	if (ret) {
		drm_dbg(dev, "GETPARAM %d: %d\n", args->param, ret);
		return ret;
	}

	if (put_user(value, args->value))
		return -EFAULT;
	return 0;
}
