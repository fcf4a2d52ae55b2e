// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: contexts
 *
 * The default context (0) of each file is the only context: the driver
 * keeps no logical (hardware) contexts, and its state lives in
 * &struct i915_file.  The context ioctls answer as upstream 6.1 answers
 * on a part without logical contexts and without full PPGTT:
 *
 *  - CONTEXT_CREATE and CONTEXT_CREATE_EXT: -ENODEV, before anything is
 *    read; CONTEXT_DESTROY: -EINVAL for pad, else -ENOENT (0 is not
 *    destroyable, and no other id exists);
 *  - VM_CREATE: -ENODEV; VM_DESTROY: -EINVAL for flags or extensions,
 *    else -ENOENT (no VM ids exist);
 *  - CONTEXT_GETPARAM of context 0: GTT_SIZE (the global GTT), BANNABLE,
 *    RECOVERABLE, NO_ERROR_CAPTURE, PRIORITY (0, normal), PERSISTENCE
 *    (1: the hang check always runs), PROTECTED_CONTENT (0), SSEU (the
 *    render engine's, all zero: no slice information before Gen7), VM
 *    (-ENODEV); everything else -EINVAL, BAN_PERIOD, NO_ZEROMAP, ENGINES
 *    and RINGSIZE among them;
 *  - CONTEXT_SETPARAM of context 0: BANNABLE (clearing it needs
 *    CAP_SYS_ADMIN), RECOVERABLE, NO_ERROR_CAPTURE; PRIORITY -ENODEV (no
 *    scheduler); PERSISTENCE 1 accepted, 0 -ENODEV (no preemption to
 *    cancel a context); SSEU -ENODEV (Gen11 only); each -EINVAL for a
 *    size where upstream checks it; everything else -EINVAL.
 *
 * Any other context id is -ENOENT.
 */

#include <drm/drm_file.h>
#include <uapi/drm/i915_drm.h>
#include <linux/capability.h>
#include <linux/uaccess.h>

#include "i915_drv.h"

/* CONTEXT_GETPARAM(SSEU) of context 0, with upstream's checks. */
static int get_sseu(struct drm_i915_gem_context_param *args)
{
	struct drm_i915_gem_context_param_sseu sseu;

	if (!args->size)
		goto out;
	if (args->size < sizeof(sseu))
		return -EINVAL;
	if (copy_from_user(&sseu, u64_to_user_ptr(args->value), sizeof(sseu)))
		return -EFAULT;
	if (sseu.rsvd)
		return -EINVAL;
	/* an engine index needs an engine map, which context 0 has not */
	if (sseu.flags)
		return -EINVAL;
	/* upstream looks the engine up by the low bytes of class:instance */
	if ((u8)sseu.engine.engine_class != I915_ENGINE_CLASS_RENDER ||
	    (u8)sseu.engine.engine_instance)
		return -EINVAL;

	sseu.slice_mask = 0;
	sseu.subslice_mask = 0;
	sseu.min_eus_per_subslice = 0;
	sseu.max_eus_per_subslice = 0;
	if (copy_to_user(u64_to_user_ptr(args->value), &sseu, sizeof(sseu)))
		return -EFAULT;
out:
	args->size = sizeof(sseu);
	return 0;
}

/**
 * i915_context_getparam_ioctl - CONTEXT_GETPARAM of context 0
 * @dev: DRM device
 * @data: &struct drm_i915_gem_context_param
 * @file: DRM file
 *
 * The parameters listed in the DOC above.
 *
 * Return: 0, -ENOENT for another context, -ENODEV for VM, -EFAULT, or
 * -EINVAL.
 */
int i915_context_getparam_ioctl(struct drm_device *dev, void *data,
				struct drm_file *file)
{
	struct drm_i915_gem_context_param *args = data;
	struct i915_file *fpriv = file->driver_priv;

	if (args->ctx_id)
		return -ENOENT;

	switch (args->param) {
	case I915_CONTEXT_PARAM_BANNABLE:
		args->value = !READ_ONCE(fpriv->unbannable);
		break;
	case I915_CONTEXT_PARAM_RECOVERABLE:
		args->value = !READ_ONCE(fpriv->unrecoverable);
		break;
	case I915_CONTEXT_PARAM_NO_ERROR_CAPTURE:
		args->value = READ_ONCE(fpriv->no_error_capture);
		break;
	case I915_CONTEXT_PARAM_GTT_SIZE:
		args->value = to_i915(dev)->hw.gtt_total;
		break;
	case I915_CONTEXT_PARAM_PRIORITY:
		args->value = I915_CONTEXT_DEFAULT_PRIORITY;
		break;
	case I915_CONTEXT_PARAM_PERSISTENCE:
		args->value = 1;
		break;
	case I915_CONTEXT_PARAM_PROTECTED_CONTENT:
		args->value = 0;
		break;
	case I915_CONTEXT_PARAM_SSEU:
		return get_sseu(args);
	case I915_CONTEXT_PARAM_VM:
		return -ENODEV;		/* no full PPGTT */
	default:
		return -EINVAL;
	}
	args->size = 0;
	return 0;
}

/**
 * i915_context_setparam_ioctl - CONTEXT_SETPARAM of context 0
 * @dev: DRM device
 * @data: &struct drm_i915_gem_context_param
 * @file: DRM file
 *
 * The parameters listed in the DOC above.
 *
 * Return: 0, -ENOENT for another context, -EPERM, -ENODEV, or -EINVAL.
 */
int i915_context_setparam_ioctl(struct drm_device *dev, void *data,
				struct drm_file *file)
{
	struct drm_i915_gem_context_param *args = data;
	struct i915_file *fpriv = file->driver_priv;

	if (args->ctx_id)
		return -ENOENT;

	switch (args->param) {
	case I915_CONTEXT_PARAM_BANNABLE:
		if (args->size)
			return -EINVAL;
		if (!args->value && !capable(CAP_SYS_ADMIN))
			return -EPERM;
		WRITE_ONCE(fpriv->unbannable, !args->value);
		return 0;
	case I915_CONTEXT_PARAM_RECOVERABLE:
		if (args->size)
			return -EINVAL;
		WRITE_ONCE(fpriv->unrecoverable, !args->value);
		return 0;
	case I915_CONTEXT_PARAM_NO_ERROR_CAPTURE:
		if (args->size)
			return -EINVAL;
		WRITE_ONCE(fpriv->no_error_capture, !!args->value);
		return 0;
	case I915_CONTEXT_PARAM_PRIORITY:
		if (args->size)
			return -EINVAL;
		return -ENODEV;		/* no scheduler */
	case I915_CONTEXT_PARAM_PERSISTENCE:
		if (args->size)
			return -EINVAL;
		return args->value ? 0 : -ENODEV;	/* no preemption */
	case I915_CONTEXT_PARAM_SSEU:
		if (args->size < sizeof(struct drm_i915_gem_context_param_sseu))
			return -EINVAL;
		return -ENODEV;		/* Gen11 only */
	default:
		return -EINVAL;
	}
}

/**
 * i915_context_create_ioctl - CONTEXT_CREATE(_EXT): no logical contexts
 * @dev: DRM device
 * @data: &struct drm_i915_gem_context_create_ext
 * @file: DRM file
 *
 * Return: -ENODEV, as upstream without logical contexts.
 */
int i915_context_create_ioctl(struct drm_device *dev, void *data,
			      struct drm_file *file)
{
	return -ENODEV;
}

/**
 * i915_context_destroy_ioctl - CONTEXT_DESTROY: no context to destroy
 * @dev: DRM device
 * @data: &struct drm_i915_gem_context_destroy
 * @file: DRM file
 *
 * Return: -EINVAL for pad, else -ENOENT (context 0 included).
 */
int i915_context_destroy_ioctl(struct drm_device *dev, void *data,
			       struct drm_file *file)
{
	struct drm_i915_gem_context_destroy *args = data;

	if (args->pad)
		return -EINVAL;
	return -ENOENT;
}

/**
 * i915_vm_create_ioctl - VM_CREATE: no full PPGTT
 * @dev: DRM device
 * @data: &struct drm_i915_gem_vm_control
 * @file: DRM file
 *
 * Return: -ENODEV, as upstream without full PPGTT.
 */
int i915_vm_create_ioctl(struct drm_device *dev, void *data,
			 struct drm_file *file)
{
	return -ENODEV;
}

/**
 * i915_vm_destroy_ioctl - VM_DESTROY: no VM to destroy
 * @dev: DRM device
 * @data: &struct drm_i915_gem_vm_control
 * @file: DRM file
 *
 * Return: -EINVAL for flags or extensions, else -ENOENT.
 */
int i915_vm_destroy_ioctl(struct drm_device *dev, void *data,
			  struct drm_file *file)
{
	struct drm_i915_gem_vm_control *args = data;

	if (args->flags || args->extensions)
		return -EINVAL;
	return -ENOENT;
}
