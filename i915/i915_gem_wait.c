// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: waiting for the GPU
 *
 * The ioctls that ask whether the GPU still uses an object or wait for it
 * to finish (BUSY, WAIT) and the per-client throttle (THROTTLE, which
 * waits on the file's own requests, &i915_file.requests).  An object's
 * outstanding GPU work is the set of fences in its dma_resv: the IRQ
 * cookies of the design, one dma_fence per request, signalled from the
 * user interrupt.  As upstream, a request the hang check completed with
 * -EIO is as done as any other here: only THROTTLE on a wedged GPU and
 * execbuffer answer -EIO; the error itself is the fence's (a sync_file's
 * status).
 */

#include <drm/drm_file.h>
#include <uapi/drm/i915_drm.h>
#include <linux/dma-resv.h>
#include <linux/jiffies.h>
#include <linux/ktime.h>

#include "i915_drv.h"

/* BUSY reports the render engine in the uapi's engine-class encoding. */
#define I915_BUSY_READ_RENDER	(0x10000u << I915_ENGINE_CLASS_RENDER)
#define I915_BUSY_WRITE_RENDER	(I915_ENGINE_CLASS_RENDER + 1)

/*
 * The first fence of the device's own ring in @obj's dma_resv that has not
 * signalled, with a reference, or NULL.  Another driver's fences do not
 * count: in an imported object's dma_resv they are the exporter's
 * business (the dma-buf keeps its storage), and an object of ours that
 * another device uses is held by that device's dma-buf.
 */
static struct dma_fence *ring_fence_unsignalled(struct i915_gem_object *obj)
{
	u64 context = obj_to_i915(obj)->ring.fence_context;
	struct dma_fence *fence, *found = NULL;
	struct dma_resv_iter cursor;

	dma_resv_iter_begin(&cursor, obj->base.resv, DMA_RESV_USAGE_BOOKKEEP);
	dma_resv_for_each_fence_unlocked(&cursor, fence) {
		if (fence->context == context && !dma_fence_is_signaled(fence)) {
			found = dma_fence_get(fence);
			break;
		}
	}
	dma_resv_iter_end(&cursor);
	return found;
}

/**
 * i915_gem_object_ring_busy - does the device's ring still use an object?
 * @obj: the object, locked or not (its fences are read under RCU), even
 *	one whose last reference is gone
 *
 * Return: true while a request of the device that uses @obj has not
 * completed.
 */
bool i915_gem_object_ring_busy(struct i915_gem_object *obj)
{
	struct dma_fence *fence = ring_fence_unsignalled(obj);

	dma_fence_put(fence);
	return fence;
}

/**
 * i915_gem_object_ring_wait - wait until the device's ring is done with
 *	an object
 * @obj: the object, as for i915_gem_object_ring_busy()
 *
 * Uninterruptible: for the deferred free (drm_gem.c), which must not
 * free an object the GPU uses.  The hang check guarantees that every
 * request completes.
 */
void i915_gem_object_ring_wait(struct i915_gem_object *obj)
{
	struct dma_fence *fence;

	while ((fence = ring_fence_unsignalled(obj))) {
		dma_fence_wait(fence, false);
		dma_fence_put(fence);
	}
}

/**
 * i915_gem_busy_ioctl - BUSY: is the GPU still using an object?
 * @dev: DRM device
 * @data: &struct drm_i915_gem_busy
 * @file: DRM file
 *
 * Never waits.  @data->busy is 0 when idle, otherwise it has the render
 * engine's read bit in its high half and, if the GPU is writing the
 * object, the render engine's id + 1 in its low half.
 *
 * Return: 0, or -ENOENT for a bad handle.
 */
int i915_gem_busy_ioctl(struct drm_device *dev, void *data,
			struct drm_file *file)
{
	struct drm_i915_gem_busy *args = data;
	struct i915_gem_object *obj;
	struct dma_resv *resv;

	obj = i915_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;

	resv = obj->base.resv;
	args->busy = 0;
	if (!dma_resv_test_signaled(resv, DMA_RESV_USAGE_READ))
		args->busy |= I915_BUSY_READ_RENDER;
	if (!dma_resv_test_signaled(resv, DMA_RESV_USAGE_WRITE))
		args->busy |= I915_BUSY_WRITE_RENDER;

	drm_gem_object_put(&obj->base);
	return 0;
}

static long wait_timeout_jiffies(s64 timeout_ns)
{
	if (timeout_ns < 0)
		return MAX_SCHEDULE_TIMEOUT;
	if (!timeout_ns)
		return 0;
	return min_t(u64, nsecs_to_jiffies64(timeout_ns) + 1,
		     MAX_SCHEDULE_TIMEOUT - 1);
}

/* Wait for every fence of @obj; return what WAIT returns. */
static long wait_object(struct i915_gem_object *obj, s64 timeout_ns)
{
	long ret;

	ret = dma_resv_wait_timeout(obj->base.resv, DMA_RESV_USAGE_READ, true,
				    wait_timeout_jiffies(timeout_ns));
	if (ret == 0)
		return -ETIME;
	return ret < 0 ? ret : 0;
}

/*
 * wait_object() for @timeout_ns after @start by the clock: a jiffy
 * timeout may end a little early (a virtual machine's ticks catch up in
 * bursts), so what is left is waited out.
 */
static long wait_object_timed(struct i915_gem_object *obj, s64 timeout_ns,
			      ktime_t start)
{
	long ret = wait_object(obj, timeout_ns);
	s64 left;

	while (ret == -ETIME && timeout_ns > 0) {
		left = timeout_ns - ktime_to_ns(ktime_sub(ktime_get(), start));
		if (left <= 0)
			break;
		ret = wait_object(obj, left);
	}
	return ret;
}

/**
 * i915_gem_wait_ioctl - WAIT: wait for the GPU to finish with an object
 * @dev: DRM device
 * @data: &struct drm_i915_gem_wait
 * @file: DRM file
 *
 * A negative timeout waits forever, zero only polls.  The time left is
 * written back to @data->timeout_ns (0 once it expired).
 *
 * Return: 0 once idle (also when the GPU hung on the object: the hang
 * check completed its requests), -ETIME if still busy when the timeout
 * expired, -EINVAL for non-zero flags, -ENOENT for a bad handle,
 * -ERESTARTSYS on a signal.
 */
int i915_gem_wait_ioctl(struct drm_device *dev, void *data,
			struct drm_file *file)
{
	struct drm_i915_gem_wait *args = data;
	struct i915_gem_object *obj;
	ktime_t start;
	long ret;

	if (args->flags)
		return -EINVAL;

	obj = i915_gem_object_lookup(file, args->bo_handle);
	if (!obj)
		return -ENOENT;

	start = ktime_get();
	ret = wait_object_timed(obj, args->timeout_ns, start);

	if (args->timeout_ns > 0) {
		args->timeout_ns -= ktime_to_ns(ktime_sub(ktime_get(), start));
		if (args->timeout_ns < 0 || ret == -ETIME)
			args->timeout_ns = 0;
	}

	drm_gem_object_put(&obj->base);
	return ret;
}

/**
 * i915_gem_throttle_ioctl - THROTTLE: keep this client's queue short
 * @dev: DRM device
 * @data: unused
 * @file: DRM file
 *
 * Waits until none of the caller's requests older than
 * %I915_THROTTLE_MS is still running, which keeps the ring nearly empty.
 * A client with no requests returns at once.
 *
 * Return: 0, -EIO if the GPU is wedged when called (upstream's ABI; a
 * request that failed in a reset the GPU recovered from is waited for
 * like any other), or -ERESTARTSYS on a signal.
 */
int i915_gem_throttle_ioctl(struct drm_device *dev, void *data,
			    struct drm_file *file)
{
	unsigned long recent = jiffies - msecs_to_jiffies(I915_THROTTLE_MS);
	struct i915_file *fpriv = file->driver_priv;
	struct i915_request *rq, *target = NULL;
	long ret;

	if (READ_ONCE(to_i915(dev)->ring.wedged))
		return -EIO;

	spin_lock(&fpriv->lock);
	list_for_each_entry(rq, &fpriv->requests, client_link) {
		if (time_after_eq(rq->emitted, recent))
			break;
		target = rq;
	}
	if (target)
		dma_fence_get(&target->fence);
	spin_unlock(&fpriv->lock);

	if (!target)
		return 0;

	ret = dma_fence_wait(&target->fence, true);
	i915_request_put(target);
	return ret;
}
