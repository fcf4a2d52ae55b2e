// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: several dma_resv locks at once
 *
 * An execbuffer holds the dma_resv locks of all its objects at once, and
 * making room in the GTT takes the locks of the objects it evicts on top
 * of those.  Two clients may lock overlapping sets in different orders, so
 * the locks are taken with one ww acquire context per ioctl: when a lock
 * answers -EDEADLK, the younger context drops everything it holds, waits
 * for the contended lock (i915_ww_backoff()) and starts over.
 *
 * &struct i915_ww remembers which objects it holds, each with a reference,
 * so that any step of the ioctl may bail out with -EDEADLK and the caller
 * unwinds in one place.
 */

#include <linux/dma-resv.h>

#include "i915_drv.h"

/**
 * i915_ww_init - start an acquire context
 * @ww: the context
 */
void i915_ww_init(struct i915_ww *ww)
{
	ww_acquire_init(&ww->ctx, &reservation_ww_class);
	INIT_LIST_HEAD(&ww->locked);
	ww->contended = NULL;
}

/**
 * i915_ww_lock - lock an object within an acquire context
 * @ww: the context
 * @obj: the object; on success @ww holds its lock and a reference
 *
 * Return: 0; -EALREADY if @ww already holds the lock; -EDEADLK if an
 * older context holds it, in which case the caller unwinds and calls
 * i915_ww_backoff(); -EINTR on a signal.
 */
int i915_ww_lock(struct i915_ww *ww, struct i915_gem_object *obj)
{
	int ret;

	ret = dma_resv_lock_interruptible(obj->base.resv, &ww->ctx);
	if (ret == -EDEADLK) {
		drm_gem_object_get(&obj->base);
		ww->contended = obj;
	}
	if (ret)
		return ret;

	drm_gem_object_get(&obj->base);
	list_add_tail(&obj->ww_link, &ww->locked);
	return 0;
}

/**
 * i915_ww_unlock - drop one lock early
 * @ww: the context
 * @obj: an object locked through @ww
 */
void i915_ww_unlock(struct i915_ww *ww, struct i915_gem_object *obj)
{
	dma_resv_assert_held(obj->base.resv);

	list_del(&obj->ww_link);
	dma_resv_unlock(obj->base.resv);
	drm_gem_object_put(&obj->base);
}

/**
 * i915_ww_unlock_all - drop every lock the context holds
 * @ww: the context, which stays usable
 */
void i915_ww_unlock_all(struct i915_ww *ww)
{
	struct i915_gem_object *obj;

	while ((obj = list_first_entry_or_null(&ww->locked,
					       struct i915_gem_object,
					       ww_link)))
		i915_ww_unlock(ww, obj);
}

/**
 * i915_ww_backoff - after -EDEADLK: wait for the contended lock
 * @ww: the context; every lock it holds is dropped
 *
 * Sleeps until the older context releases the contended object, takes
 * its lock so that the wait/wound order is kept, and releases it again:
 * the caller starts over and locks what it needs, in its own order.
 *
 * Return: 0, or -EINTR on a signal.
 */
int i915_ww_backoff(struct i915_ww *ww)
{
	struct i915_gem_object *obj = ww->contended;
	int ret;

	i915_ww_unlock_all(ww);
	if (!obj)
		return 0;

	ww->contended = NULL;
	ret = dma_resv_lock_slow_interruptible(obj->base.resv, &ww->ctx);
	if (!ret)
		dma_resv_unlock(obj->base.resv);
	drm_gem_object_put(&obj->base);
	return ret;
}

/**
 * i915_ww_fini - drop every lock and end the acquire context
 * @ww: the context
 */
void i915_ww_fini(struct i915_ww *ww)
{
	i915_ww_unlock_all(ww);
	if (ww->contended)
		drm_gem_object_put(&ww->contended->base);
	ww_acquire_fini(&ww->ctx);
}
