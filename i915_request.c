// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: requests
 *
 * The design's IRQ cookies.  After each batch the ring writes a
 * breadcrumb, the request's seqno, into the status page with
 * MI_STORE_DWORD_INDEX and raises MI_USER_INTERRUPT.  Each request is a
 * dma_fence of the ring's fence context whose seqno is that breadcrumb;
 * the interrupt handler reads the status page and signals every request
 * the breadcrumb has passed.  Objects remember the requests that use them
 * through their dma_resv.
 *
 * A hang check guarantees that every fence signals: when the breadcrumb
 * stops moving for %I915_HANG_STALLS checks in a row while requests are
 * outstanding, or the GPU reports an error, the device is wedged and
 * every outstanding request completes with -EIO.
 */

#include <linux/dma-fence.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "i915_cmd.h"
#include "i915_drv.h"
#include "i915_reg.h"

static unsigned int i915_hangcheck_ms = 1000;
module_param_named(hangcheck_ms, i915_hangcheck_ms, uint, 0600);
MODULE_PARM_DESC(hangcheck_ms,
		 "Interval of the hang check in ms; the GPU is declared hung after 3 intervals without progress (default 1000)");

#define I915_HANG_STALLS	3

static struct i915_request *to_request(struct dma_fence *fence)
{
	return container_of(fence, struct i915_request, fence);
}

static struct i915_device *ring_to_i915(struct i915_ring *ring)
{
	return container_of(ring, struct i915_device, ring);
}

/* Wrap-safe: has the breadcrumb @seqno reached @target? */
static bool seqno_passed(u32 seqno, u32 target)
{
	return (s32)(seqno - target) >= 0;
}

static u32 hws_seqno(struct i915_ring *ring)
{
	return READ_ONCE(ring->hws[I915_HWS_SEQNO_INDEX]);
}

static const char *i915_fence_driver_name(struct dma_fence *fence)
{
	return DRIVER_NAME;
}

static const char *i915_fence_timeline_name(struct dma_fence *fence)
{
	return "render";
}

static bool i915_fence_signaled(struct dma_fence *fence)
{
	return seqno_passed(hws_seqno(to_request(fence)->ring), fence->seqno);
}

static const struct dma_fence_ops i915_fence_ops = {
	.get_driver_name = i915_fence_driver_name,
	.get_timeline_name = i915_fence_timeline_name,
	.signaled = i915_fence_signaled,
};

/**
 * i915_request_put - drop a reference to a request
 * @rq: the request
 */
void i915_request_put(struct i915_request *rq)
{
	dma_fence_put(&rq->fence);
}

/* Breadcrumb: flush, write the seqno into the status page, interrupt. */
static int emit_breadcrumb(struct i915_ring *ring, u32 seqno)
{
	u32 *cs = i915_ring_begin(ring, 6);

	if (IS_ERR(cs))
		return PTR_ERR(cs);

	*cs++ = I915_MI_FLUSH;
	*cs++ = I915_MI_STORE_DWORD_INDEX;
	*cs++ = I915_HWS_SEQNO_ADDR;
	*cs++ = seqno;
	*cs++ = I915_MI_USER_INTERRUPT;
	*cs++ = I915_MI_NOOP;
	i915_ring_advance(ring, cs);
	return 0;
}

static void request_add_to_client(struct i915_request *rq,
				  struct drm_file *file)
{
	struct i915_file *fpriv = file->driver_priv;

	rq->file = fpriv;
	spin_lock(&fpriv->lock);
	list_add_tail(&rq->client_link, &fpriv->requests);
	spin_unlock(&fpriv->lock);
}

/**
 * i915_request_emit - close the commands emitted so far with a request
 * @i915: the device, the ring lock held
 * @file: the client the work belongs to, or NULL for the driver's own
 *
 * Emits the breadcrumb and the user interrupt, publishes the request and
 * moves the ring's tail.
 *
 * Return: the request with a reference for the caller, or an ERR_PTR.
 */
struct i915_request *i915_request_emit(struct i915_device *i915,
				       struct drm_file *file)
{
	struct i915_ring *ring = &i915->ring;
	struct i915_request *rq;
	unsigned long flags;
	int ret;

	lockdep_assert_held(&ring->lock);

	rq = kzalloc(sizeof(*rq), GFP_KERNEL);
	if (!rq)
		return ERR_PTR(-ENOMEM);

	ret = emit_breadcrumb(ring, ring->next_seqno);
	if (ret) {
		kfree(rq);
		return ERR_PTR(ret);
	}

	rq->ring = ring;
	rq->emitted = jiffies;
	INIT_LIST_HEAD(&rq->client_link);
	dma_fence_init(&rq->fence, &i915_fence_ops, &ring->fence_lock,
		       ring->fence_context, ring->next_seqno++);
	if (file)
		request_add_to_client(rq, file);

	i915_ring_kick(i915);
	rq->tail = ring->tail;

	dma_fence_get(&rq->fence); /* the ring's reference */
	spin_lock_irqsave(&ring->fence_lock, flags);
	list_add_tail(&rq->link, &ring->requests);
	spin_unlock_irqrestore(&ring->fence_lock, flags);
	return rq;
}

/**
 * i915_request_signal - signal every request the breadcrumb has passed
 * @i915: the device
 *
 * Called from the user interrupt; completed requests are retired later
 * by a worker.
 */
void i915_request_signal(struct i915_device *i915)
{
	struct i915_ring *ring = &i915->ring;
	u32 seqno = hws_seqno(ring);
	struct i915_request *rq;
	unsigned long flags;

	spin_lock_irqsave(&ring->fence_lock, flags);
	list_for_each_entry(rq, &ring->requests, link) {
		if (!seqno_passed(seqno, rq->fence.seqno))
			break;
		dma_fence_signal_locked(&rq->fence);
	}
	spin_unlock_irqrestore(&ring->fence_lock, flags);
	schedule_work(&ring->retire_work);
}

static void request_remove_from_client(struct i915_request *rq)
{
	struct i915_file *fpriv = READ_ONCE(rq->file);

	if (!fpriv)
		return;
	spin_lock(&fpriv->lock);
	if (rq->file)
		list_del(&rq->client_link);
	spin_unlock(&fpriv->lock);
}

/* Take the oldest signalled request off the ring, or return NULL. */
static struct i915_request *ring_pop_completed(struct i915_ring *ring)
{
	struct i915_request *rq;
	unsigned long flags;

	spin_lock_irqsave(&ring->fence_lock, flags);
	rq = list_first_entry_or_null(&ring->requests, struct i915_request,
				      link);
	if (rq && dma_fence_is_signaled_locked(&rq->fence))
		list_del(&rq->link);
	else
		rq = NULL;
	spin_unlock_irqrestore(&ring->fence_lock, flags);
	return rq;
}

static void retire_work_fn(struct work_struct *work)
{
	struct i915_ring *ring = container_of(work, struct i915_ring,
					      retire_work);
	struct i915_request *rq;

	while ((rq = ring_pop_completed(ring))) {
		request_remove_from_client(rq);
		i915_request_put(rq);
	}
}

/**
 * i915_request_wedge - declare the GPU hung
 * @i915: the device
 *
 * Every outstanding request completes with -EIO and new work is refused.
 * Called from the hang check and when the GPU reports an error; safe in
 * any context.
 */
void i915_request_wedge(struct i915_device *i915)
{
	struct i915_ring *ring = &i915->ring;
	struct i915_request *rq;
	unsigned long flags;

	spin_lock_irqsave(&ring->fence_lock, flags);
	if (!ring->wedged)
		drm_err(&i915->drm, "GPU hung at seqno %u, wedging\n",
			hws_seqno(ring));
	WRITE_ONCE(ring->wedged, true);
	list_for_each_entry(rq, &ring->requests, link) {
		if (dma_fence_is_signaled_locked(&rq->fence))
			continue;
		dma_fence_set_error(&rq->fence, -EIO);
		dma_fence_signal_locked(&rq->fence);
	}
	spin_unlock_irqrestore(&ring->fence_lock, flags);
	schedule_work(&ring->retire_work);
}

/**
 * i915_request_idle - has every request completed?
 * @i915: the device
 *
 * Return: true when no request is outstanding.
 */
bool i915_request_idle(struct i915_device *i915)
{
	struct i915_ring *ring = &i915->ring;
	struct i915_request *rq;
	unsigned long flags;
	bool idle = true;

	spin_lock_irqsave(&ring->fence_lock, flags);
	list_for_each_entry(rq, &ring->requests, link)
		idle &= dma_fence_is_signaled_locked(&rq->fence);
	spin_unlock_irqrestore(&ring->fence_lock, flags);
	return idle;
}

static void hangcheck_work_fn(struct work_struct *work)
{
	struct i915_ring *ring = container_of(to_delayed_work(work),
					      struct i915_ring,
					      hangcheck_work);
	struct i915_device *i915 = ring_to_i915(ring);
	u32 seqno = hws_seqno(ring);

	if (i915_request_idle(i915) || seqno != ring->hang_seqno) {
		ring->hang_stalls = 0;
	} else if (++ring->hang_stalls >= I915_HANG_STALLS) {
		i915_request_wedge(i915);
		ring->hang_stalls = 0;
	}
	ring->hang_seqno = seqno;
	schedule_delayed_work(&ring->hangcheck_work,
			      msecs_to_jiffies(i915_hangcheck_ms));
}

/* The newest request with a reference, or NULL when none is left. */
static struct i915_request *ring_last_request(struct i915_ring *ring)
{
	struct i915_request *rq = NULL;
	unsigned long flags;

	spin_lock_irqsave(&ring->fence_lock, flags);
	if (!list_empty(&ring->requests)) {
		rq = list_last_entry(&ring->requests, struct i915_request,
				     link);
		dma_fence_get(&rq->fence);
	}
	spin_unlock_irqrestore(&ring->fence_lock, flags);
	return rq;
}

/**
 * i915_request_wait_idle - wait until every request has completed
 * @i915: the device
 *
 * Return: 0 when idle, -EIO if the GPU hung, -ERESTARTSYS on a signal.
 */
int i915_request_wait_idle(struct i915_device *i915)
{
	struct i915_ring *ring = &i915->ring;
	struct i915_request *rq;
	long ret;

	for (;;) {
		rq = ring_last_request(ring);
		if (!rq)
			return READ_ONCE(ring->wedged) ? -EIO : 0;

		ret = dma_fence_wait(&rq->fence, true);
		if (!ret)
			ret = rq->fence.error;
		i915_request_put(rq);
		if (ret)
			return ret;
		flush_work(&ring->retire_work);
	}
}

/**
 * i915_request_file_close - forget a closing client's requests
 * @fpriv: the client; its requests keep running without it
 */
void i915_request_file_close(struct i915_file *fpriv)
{
	struct i915_request *rq, *next;

	spin_lock(&fpriv->lock);
	list_for_each_entry_safe(rq, next, &fpriv->requests, client_link) {
		list_del(&rq->client_link);
		rq->file = NULL;
	}
	spin_unlock(&fpriv->lock);
}

/**
 * i915_request_init - set up request tracking and the hang check
 * @i915: the device, its ring started
 *
 * Return: 0.
 */
int i915_request_init(struct i915_device *i915)
{
	struct i915_ring *ring = &i915->ring;

	spin_lock_init(&ring->fence_lock);
	INIT_LIST_HEAD(&ring->requests);
	ring->fence_context = dma_fence_context_alloc(1);
	ring->next_seqno = 1;
	ring->hws[I915_HWS_SEQNO_INDEX] = 0;
	INIT_WORK(&ring->retire_work, retire_work_fn);
	INIT_DELAYED_WORK(&ring->hangcheck_work, hangcheck_work_fn);
	schedule_delayed_work(&ring->hangcheck_work,
			      msecs_to_jiffies(i915_hangcheck_ms));
	return 0;
}

/**
 * i915_request_quiesce - wait for the GPU to finish everything queued
 * @i915: the device
 *
 * Waits uninterruptibly, bounded by the hang check, for outstanding
 * requests and retires them.
 */
void i915_request_quiesce(struct i915_device *i915)
{
	struct i915_ring *ring = &i915->ring;
	struct i915_request *rq;

	while ((rq = ring_last_request(ring))) {
		dma_fence_wait(&rq->fence, false);
		i915_request_put(rq);
		flush_work(&ring->retire_work);
	}
}

/**
 * i915_request_fini - stop request tracking
 * @i915: the device, quiesced
 */
void i915_request_fini(struct i915_device *i915)
{
	cancel_delayed_work_sync(&i915->ring.hangcheck_work);
	cancel_work_sync(&i915->ring.retire_work);
}
