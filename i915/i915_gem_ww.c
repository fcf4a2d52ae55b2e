// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: several dma_resv locks at once
 *
 * An execbuffer holds the dma_resv locks of all its objects at once, and
 * making room in the GTT takes the locks of the objects it evicts on top
 * of those.  Two clients may lock overlapping sets in different orders, so
 * the locks are taken with one ww acquire context per ioctl: when a lock
 * answers -EDEADLK, the younger context drops everything it holds, waits
 * for the contended lock (i915_ww_backoff()) and starts over.
 *
 * The backoff keeps the contended lock, as drm_exec and upstream do: it
 * is taken with the slow path and stays held as the first lock of the
 * next round (&i915_ww.prelocked), so that the context cannot lose it
 * again to the older one and bounce on it forever.  The next
 * i915_ww_lock() of that object claims it without locking again; an
 * evictor may still take it as a victim, as if it had locked it itself.
 * debugfs i915_exec_stats counts the backoffs, and the "repeats": a
 * backoff on the same lock as the context's previous one (impossible
 * while the lock is kept).
 *
 * &struct i915_ww remembers which objects it holds, each with a reference,
 * so that any step of the ioctl may bail out with -EDEADLK and the caller
 * unwinds in one place.
 */

#include <linux/dma-resv.h>

#include "i915_drv.h"

/* Module-wide counters for debugfs i915_exec_stats. */
static atomic64_t ww_backoffs = ATOMIC64_INIT(0);
static atomic64_t ww_repeats = ATOMIC64_INIT(0);

/**
 * i915_ww_init - start an acquire context
 * @ww: the context
 */
void i915_ww_init(struct i915_ww *ww)
{
	ww_acquire_init(&ww->ctx, &reservation_ww_class);
	INIT_LIST_HEAD(&ww->locked);
	ww->contended = NULL;
	ww->prelocked = NULL;
	ww->last_contended = NULL;
	ww->await_frees = NULL;
}

/**
 * i915_ww_lock - lock an object within an acquire context
 * @ww: the context
 * @obj: the object; on success @ww holds its lock and a reference
 *
 * The object i915_ww_backoff() kept locked is claimed without locking it
 * again: 0, as if it had just been locked.
 *
 * Return: 0; -EALREADY if @ww already holds the lock otherwise; -EDEADLK
 * if an older context holds it, in which case the caller unwinds and
 * calls i915_ww_backoff(); -EINTR on a signal.
 */
int i915_ww_lock(struct i915_ww *ww, struct i915_gem_object *obj)
{
	int ret;

	if (obj == ww->prelocked) {
		ww->prelocked = NULL;
		return 0;
	}

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

	if (obj == ww->prelocked)
		ww->prelocked = NULL;
	list_del(&obj->ww_link);
	dma_resv_unlock(obj->base.resv);
	drm_gem_object_put(&obj->base);
}

/**
 * i915_ww_unlock_all - drop every lock the context holds
 * @ww: the context, which stays usable
 *
 * In the reverse order of locking, as drm_exec does: lockdep merges the
 * locks of one acquire context into the entry of the first, so that one
 * must be dropped (and its object perhaps freed) last.  The list is
 * emptied once at the end rather than an entry at a time (an
 * execbuffer's may hold thousands): each entry's neighbour is read before
 * its object's reference goes.
 */
void i915_ww_unlock_all(struct i915_ww *ww)
{
	struct i915_gem_object *obj, *prev;

	ww->last_contended = NULL;
	ww->prelocked = NULL;
	list_for_each_entry_safe_reverse(obj, prev, &ww->locked, ww_link) {
		dma_resv_unlock(obj->base.resv);
		drm_gem_object_put(&obj->base);
	}
	INIT_LIST_HEAD(&ww->locked);
}

/**
 * i915_ww_holds - does the caller's round hold an object's lock?
 * @ww: the context, or NULL
 * @obj: the object
 *
 * Return: true if @ww holds @obj's lock and it is not the one
 * i915_ww_backoff() kept that no i915_ww_lock() has claimed yet.
 */
bool i915_ww_holds(const struct i915_ww *ww,
		   const struct i915_gem_object *obj)
{
	return ww && obj != ww->prelocked &&
	       dma_resv_locking_ctx(obj->base.resv) == &ww->ctx;
}

/*
 * The deferred frees queued so far; with none, the object in the way is
 * being freed without waiting for the GPU, and unbound any moment: a
 * jiffy, as an evictor waits for another.
 */
static int ww_await_frees(struct i915_device *i915)
{
	if (!i915_gem_free_pending(i915)) {
		schedule_timeout_interruptible(1);
		return 0;
	}
	return i915_gem_free_wait(i915);
}

/**
 * i915_ww_backoff - after -EDEADLK: wait for the contended lock, keep it
 * @ww: the context; every other lock it holds is dropped
 *
 * Sleeps until the older context releases the contended object and takes
 * its lock, which the context keeps: the caller starts over and locks
 * what it needs in its own order, the i915_ww_lock() of the contended
 * object then claiming the lock it already holds.  After an evictor's
 * -EDEADLK (no contended object, &i915_ww.await_frees set), it waits
 * instead, holding no lock, for the objects being freed that were in the
 * evictor's way.
 *
 * Return: 0, or -EINTR or -ERESTARTSYS on a signal (the context then
 * holds nothing).
 */
int i915_ww_backoff(struct i915_ww *ww)
{
	const struct i915_gem_object *last = ww->last_contended;
	struct i915_gem_object *obj = ww->contended;
	struct i915_device *frees = ww->await_frees;
	int ret;

	i915_ww_unlock_all(ww);
	ww->await_frees = NULL;
	if (frees && !obj)
		return ww_await_frees(frees);
	if (!obj)
		return 0;

	atomic64_inc(&ww_backoffs);
	if (obj == last)
		atomic64_inc(&ww_repeats);
	ww->last_contended = obj;

	ww->contended = NULL;
	ret = dma_resv_lock_slow_interruptible(obj->base.resv, &ww->ctx);
	if (ret) {
		drm_gem_object_put(&obj->base);
		return ret;
	}
	/* The reference taken at -EDEADLK is now the list's. */
	list_add_tail(&obj->ww_link, &ww->locked);
	ww->prelocked = obj;
	return 0;
}

/**
 * i915_ww_stats - the module-wide backoff counters
 * @backoffs: backoffs since the module was loaded
 * @repeats: of them, those on the same lock as the context's previous one
 */
void i915_ww_stats(u64 *backoffs, u64 *repeats)
{
	*backoffs = atomic64_read(&ww_backoffs);
	*repeats = atomic64_read(&ww_repeats);
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
