// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: per-file state
 *
 * What the driver keeps for each open DRM file (&struct i915_file): its
 * number, which owns the objects it pins, its requests still running,
 * which THROTTLE waits for, its handle cache (drm_gem.c) and the
 * semaphore that keeps a handle's object alive while an execbuffer of
 * the file may be using it (&i915_file.exec_sem).  Opening a
 * file sets it up; postclose drops the file's pins (i915_gem_pin.c),
 * detaches its requests (i915_request.c), frees the handle cache and
 * frees the state after an RCU grace period.
 */

#include <drm/drm_file.h>
#include <linux/atomic.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "i915_drv.h"

/* Numbers of the files, for ownership that a reused pointer cannot fake. */
static atomic64_t i915_file_ids = ATOMIC64_INIT(0);

/**
 * i915_gem_open - set up the per-file state of a new client
 * @dev: DRM device
 * @file: the new DRM file
 *
 * Return: 0 or -ENOMEM.
 */
int i915_gem_open(struct drm_device *dev, struct drm_file *file)
{
	struct i915_file *fpriv;

	fpriv = kzalloc(sizeof(*fpriv), GFP_KERNEL);
	if (!fpriv)
		return -ENOMEM;

	fpriv->file = file;
	fpriv->id = atomic64_inc_return(&i915_file_ids);
	spin_lock_init(&fpriv->lock);
	INIT_LIST_HEAD(&fpriv->requests);
	init_rwsem(&fpriv->exec_sem);
	/* The default context's watchdog, fixed at its creation (upstream). */
	fpriv->request_timeout_ms = i915_request_timeout_default();
	file->driver_priv = fpriv;
	return 0;
}

/**
 * i915_gem_postclose - release the per-file state of a closing client
 * @dev: DRM device
 * @file: the DRM file; its handles are already closed
 *
 * The pins it holds are dropped.  Its requests may still be running:
 * they are detached from it under its lock, and the state itself goes
 * only after an RCU grace period, since the retire worker may be about
 * to take that lock.
 */
void i915_gem_postclose(struct drm_device *dev, struct drm_file *file)
{
	struct i915_file *fpriv = file->driver_priv;

	i915_gem_file_unpin_all(to_i915(dev), fpriv);
	i915_request_file_close(fpriv);
	i915_gem_lut_fini(fpriv);
	file->driver_priv = NULL;
	kfree_rcu(fpriv, rcu);
}
