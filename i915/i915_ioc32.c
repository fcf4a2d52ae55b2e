// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: 32-bit compat ioctls
 *
 * The ioctl entry point of 32-bit processes on a 64-bit kernel.  The GEM
 * structs are laid out alike for both, so every ioctl goes to the DRM
 * core's compat entry unchanged, except GETPARAM: its struct carries a
 * native-sized pointer, which is widened here.
 */

#include <drm/drm_ioctl.h>
#include <uapi/drm/i915_drm.h>
#include <linux/compat.h>

#include "i915_drv.h"

#ifdef CONFIG_COMPAT
/* GETPARAM as a 32-bit process lays it out: the pointer is 32 bits. */
struct i915_getparam32 {
	s32 param;
	u32 value;
};

static long compat_getparam(struct file *filp, unsigned long arg)
{
	struct i915_getparam32 args32;
	struct drm_i915_getparam args;

	if (copy_from_user(&args32, (void __user *)arg, sizeof(args32)))
		return -EFAULT;

	args.param = args32.param;
	args.value = compat_ptr(args32.value);
	return drm_ioctl_kernel(filp, i915_getparam_ioctl, &args,
				DRM_RENDER_ALLOW);
}

/**
 * i915_compat_ioctl - ioctl entry point for 32-bit processes
 * @filp: the DRM file
 * @cmd: ioctl command
 * @arg: user argument
 *
 * The GEM structs are laid out identically for 32- and 64-bit callers;
 * only GETPARAM needs translating.
 *
 * Return: what the ioctl returns.
 */
long i915_compat_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	if (DRM_IOCTL_NR(cmd) == DRM_COMMAND_BASE + DRM_I915_GETPARAM)
		return compat_getparam(filp, arg);
	return drm_compat_ioctl(filp, cmd, arg);
}
#else
long i915_compat_ioctl(struct file *filp, unsigned int cmd, unsigned long arg)
{
	return drm_ioctl(filp, cmd, arg);
}
#endif
