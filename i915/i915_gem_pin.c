// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: pinning
 *
 * PIN and UNPIN, the user-mode-setting era's way to fix an object in the
 * GTT (root only): a pinned object is bound once and never moved or
 * evicted until its last pin is dropped.  Pins belong to the file that
 * made them (&i915_gem_object.pin_owner, a file number that a reused
 * pointer cannot fake): another file can neither add to them nor drop
 * them, and a closing file's pins go with it.  Unbinding an object, which
 * befalls a pinned one only when it is freed or the device goes away,
 * drops its pins too.
 *
 * Pin counts are under the object's dma_resv lock; the bytes pinned
 * (&i915_gtt.pinned_bytes, which GET_APERTURE reports and execbuffer's
 * fit check subtracts) under &i915_gtt.lock.
 */

#include <drm/drm_file.h>
#include <uapi/drm/i915_drm.h>
#include <linux/dma-resv.h>
#include <linux/log2.h>

#include "i915_drv.h"

/* A user may stack this many pins on one object. */
#define I915_MAX_USER_PINS	16

/**
 * i915_gem_unpin_all_locked - drop every user pin of an object
 * @obj: the object, its dma_resv lock held; it stays bound
 *
 * Used by UNPIN for the last pin, by a closing file for its pins and by
 * unbind, which takes the pins with the binding.
 */
void i915_gem_unpin_all_locked(struct i915_gem_object *obj)
{
	struct i915_gtt *gtt = &obj_to_i915(obj)->gtt;

	dma_resv_assert_held(obj->base.resv);

	mutex_lock(&gtt->lock);
	if (obj->pin_count)
		gtt->pinned_bytes -= obj->base.size;
	mutex_unlock(&gtt->lock);
	obj->pin_count = 0;
	WRITE_ONCE(obj->pin_owner, 0);
}

static u64 file_pin_owner(struct drm_file *file)
{
	struct i915_file *fpriv = file->driver_priv;

	return fpriv->id;
}

static int gem_pin_locked(struct i915_gem_object *obj, struct drm_file *file,
			  u64 alignment, struct i915_ww *ww)
{
	struct i915_gtt_place place = {
		.size = obj->base.size,
		.alignment = alignment,
	};
	struct i915_gtt *gtt = &obj_to_i915(obj)->gtt;
	int ret;

	if (obj->pin_count && obj->pin_owner != file_pin_owner(file))
		return -EINVAL;
	if (obj->pin_count >= I915_MAX_USER_PINS)
		return -EBUSY;

	ret = i915_gtt_bind_locked(obj, &place, ww);
	if (ret)
		return ret;

	if (!obj->pin_count++) {
		WRITE_ONCE(obj->pin_owner, file_pin_owner(file));
		mutex_lock(&gtt->lock);
		gtt->pinned_bytes += obj->base.size;
		mutex_unlock(&gtt->lock);
	}
	return 0;
}

/* Lock, bind and pin, starting over whenever eviction must back off. */
static int gem_pin(struct i915_gem_object *obj, struct drm_file *file,
		   u64 alignment, u64 *offset)
{
	struct i915_ww ww;
	int ret;

	i915_ww_init(&ww);
	for (;;) {
		ret = i915_ww_lock(&ww, obj);
		if (!ret)
			ret = gem_pin_locked(obj, file, alignment, &ww);
		if (ret != -EDEADLK)
			break;
		ret = i915_ww_backoff(&ww);
		if (ret)
			break;
	}
	if (!ret)
		*offset = obj->gtt_node.start;
	i915_ww_fini(&ww);
	return ret;
}

/**
 * i915_gem_pin_ioctl - PIN: fix an object in the GTT
 * @dev: DRM device
 * @data: &struct drm_i915_gem_pin
 * @file: DRM file (root only)
 *
 * A pinned object is never moved or evicted until its last pin is dropped
 * or it is destroyed.  Pins belong to the file that made them and are
 * dropped when it closes.
 *
 * Return: 0 with the GTT offset in @data, -EINVAL for a bad alignment, a
 * non-zero pad or an object pinned by another file (or pinned misaligned),
 * -ENOENT for a bad handle, -EBUSY after too many pins, -ENOSPC if the GTT
 * is full.
 */
int i915_gem_pin_ioctl(struct drm_device *dev, void *data,
		       struct drm_file *file)
{
	struct drm_i915_gem_pin *args = data;
	struct i915_gem_object *obj;
	int ret;

	if (args->pad)
		return -EINVAL;
	if (args->alignment && (!is_power_of_2(args->alignment) ||
				args->alignment > to_i915(dev)->gtt.total))
		return -EINVAL;

	obj = i915_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;

	ret = gem_pin(obj, file, args->alignment, &args->offset);
	drm_gem_object_put(&obj->base);
	return ret;
}

/**
 * i915_gem_unpin_ioctl - UNPIN: drop one pin of an object
 * @dev: DRM device
 * @data: &struct drm_i915_gem_unpin
 * @file: DRM file (root only)
 *
 * The object stays bound but may now be evicted or moved.
 *
 * Return: 0 on success, -ENOENT for a bad handle, -EINVAL for a non-zero
 * pad or an object this file has not pinned.
 */
int i915_gem_unpin_ioctl(struct drm_device *dev, void *data,
			 struct drm_file *file)
{
	struct drm_i915_gem_unpin *args = data;
	struct i915_gem_object *obj;
	int ret;

	if (args->pad)
		return -EINVAL;

	obj = i915_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;

	ret = dma_resv_lock_interruptible(obj->base.resv, NULL);
	if (ret)
		goto out_put;

	if (!obj->pin_count || obj->pin_owner != file_pin_owner(file))
		ret = -EINVAL;
	else if (obj->pin_count == 1)
		i915_gem_unpin_all_locked(obj);
	else
		obj->pin_count--;
	dma_resv_unlock(obj->base.resv);
out_put:
	drm_gem_object_put(&obj->base);
	return ret;
}

/* An object pinned by @owner, with a reference, or NULL. */
static struct i915_gem_object *get_pinned_object(struct i915_device *i915,
						 u64 owner)
{
	struct i915_gem_object *obj, *found = NULL;

	spin_lock(&i915->obj_lock);
	list_for_each_entry(obj, &i915->objects, link) {
		if (READ_ONCE(obj->pin_owner) == owner &&
		    kref_get_unless_zero(&obj->base.refcount)) {
			found = obj;
			break;
		}
	}
	spin_unlock(&i915->obj_lock);
	return found;
}

/**
 * i915_gem_file_unpin_all - drop every pin a closing file holds
 * @i915: the device
 * @fpriv: the file, at postclose (none of its ioctls runs any more)
 *
 * Pins belong to the file that made them; once it is gone nobody can
 * drop them, so they go with it, and the objects (still bound) may be
 * evicted again.  Objects whose last reference is already gone are
 * skipped: freeing them unbinds them.
 */
void i915_gem_file_unpin_all(struct i915_device *i915,
			     struct i915_file *fpriv)
{
	struct i915_gem_object *obj;

	while ((obj = get_pinned_object(i915, fpriv->id))) {
		dma_resv_lock(obj->base.resv, NULL);
		if (obj->pin_owner == fpriv->id)
			i915_gem_unpin_all_locked(obj);
		dma_resv_unlock(obj->base.resv);
		drm_gem_object_put(&obj->base);
	}
}
