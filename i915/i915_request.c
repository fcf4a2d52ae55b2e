// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: requests
 *
 * The design's IRQ cookies.  After each batch the ring writes a
 * breadcrumb, the request's seqno, into the status page with
 * MI_STORE_DWORD_INDEX and raises MI_USER_INTERRUPT.  Each request is a
 * dma_fence of the ring's fence context whose seqno is that breadcrumb;
 * the interrupt handler reads the status page and signals every request
 * the breadcrumb has passed.  A wait for the next request to complete
 * polls the status page for 50 us before it sleeps (i915_fence_wait()).
 * Objects remember the requests that use them through their dma_resv;
 * a request holds a reference on each of its objects until it is
 * retired, so that an object closed while the GPU still uses it lives
 * (and stays bound) until the GPU is done with it.
 *
 * A request is created before the ring lock is taken (allocations may
 * sleep), given its objects, and emitted under the ring lock, which is
 * where it gets its seqno.
 *
 * A hang check guarantees that every fence signals.  Every hangcheck_ms
 * while requests are outstanding and the breadcrumb has not moved, it
 * adds to a hang score: %I915_HANG_SCORE_STUCK when the engine's ACTHD
 * has not moved either (stuck on one command), %I915_HANG_SCORE_BUSY when
 * it has (a long batch, or one that loops).  A moving breadcrumb resets
 * the score.  At %I915_HANG_SCORE_HUNG, or at once when the GPU reports
 * an error (the interrupt handler queues the check without delay), the
 * GPU is declared hung and i915_reset_handle() captures the error state
 * (i915_gpu_error.c) and resets it (or wedges the device: every
 * outstanding request completes with -EIO).  So a stuck
 * engine is declared hung after 3 checks, and a batch that keeps running
 * without finishing after 30, or after 5 once its client has closed its
 * file (%I915_HANG_SCORE_ORPHAN: a killed client's spinner is reset in
 * about upstream's heartbeat time, not 30 s).  The check runs
 * only while requests are outstanding: emitting a request arms it, and a
 * check that finds every request complete does not re-arm (no wakeups
 * on an idle GPU).  hangcheck_ms cannot be 0.
 *
 * A fence can leave the driver: FENCE_OUT wraps it in a sync_file, and an
 * exported object's dma_resv hands its fences to whoever asks (another
 * driver, DMA_BUF_IOCTL_EXPORT_SYNC_FILE).  Such a fence may outlive every
 * DRM file, the device (unbind) and, but for what follows, the module:
 * its ops are module code and its lock is in the device.  So a request
 * whose fence escapes (i915_request_escape()) holds a reference on the
 * module and on the DRM device until the fence is released; rmmod is
 * refused (-EAGAIN) while one lives.  The last put of an escaped fence
 * hands the request to a work item of the module's own workqueue, which
 * drops both references last; module exit destroys that workqueue, so no
 * module code runs after the module is gone.  Every fence is signalled
 * before the device's ring goes (i915_request_quiesce()), so an escaped
 * fence never asks the freed status page whether it signalled.
 */

#include <drm/drm_drv.h>
#include <drm/drm_print.h>
#include <linux/bitmap.h>
#include <linux/dma-fence.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/string_helpers.h>
#include <linux/workqueue.h>

#include "i915_cmd.h"
#include "i915_drv.h"
#include "i915_reg.h"
#include "i915_trace.h"

static unsigned int i915_hangcheck_ms = 1000;

/* 0 would requeue the check with no delay: only 1 ms and up. */
static int hangcheck_ms_set(const char *val, const struct kernel_param *kp)
{
	unsigned int ms;
	int ret;

	ret = kstrtouint(val, 0, &ms);
	if (ret)
		return ret;
	if (!ms)
		return -EINVAL;
	WRITE_ONCE(*(unsigned int *)kp->arg, ms);
	return 0;
}

static const struct kernel_param_ops hangcheck_ms_ops = {
	.set = hangcheck_ms_set,
	.get = param_get_uint,
};

module_param_cb(hangcheck_ms, &hangcheck_ms_ops, &i915_hangcheck_ms, 0600);
MODULE_PARM_DESC(hangcheck_ms,
		 "Interval of the hang check in ms, at least 1; the GPU is declared hung after 3 intervals stuck on one command, or 30 running without completing a request (5 for a closed file's request) (default 1000)");

#define I915_HANG_SCORE_STUCK	10
#define I915_HANG_SCORE_BUSY	1
/*
 * A moving engine whose request's client has closed its file (or was
 * killed): nobody is left to end a batch that loops, so it is declared
 * hung after 5 checks, as upstream's heartbeat resets a request that
 * outlasts two of its 2.5 s pulses.
 */
#define I915_HANG_SCORE_ORPHAN	6
#define I915_HANG_SCORE_HUNG	30

/*
 * How long suspend waits for the GPU to complete a request before it
 * wedges it, and how long in all while requests keep completing.
 */
#define I915_SUSPEND_IDLE_MS	10000
#define I915_SUSPEND_MAX_MS	60000
/*
 * How long the PCI remove waits for it (upstream: 500 ms; the model runs
 * batches tens of times slower under emulation).
 */
#define I915_UNLOAD_IDLE_MS	I915_SUSPEND_IDLE_MS

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

/* Set once the request holds the references of an escaped fence. */
#define I915_FENCE_FLAG_ESCAPED	DMA_FENCE_FLAG_USER_BITS

/* dma_fence_free() frees the request through its fence. */
static_assert(offsetof(struct i915_request, fence) == 0);

/* Releases escaped requests; destroyed (so drained) at module exit. */
static struct workqueue_struct *i915_fence_wq;

static void escaped_release_work(struct work_struct *work)
{
	struct i915_request *rq = container_of(work, struct i915_request,
					       release_work);
	struct drm_device *drm = &ring_to_i915(rq->ring)->drm;

	dma_fence_free(&rq->fence);
	drm_dev_put(drm);
	/* Last: module exit waits for this work item to return. */
	module_put(THIS_MODULE);
}

static void i915_fence_release(struct dma_fence *fence)
{
	struct i915_request *rq = to_request(fence);

	if (!test_bit(I915_FENCE_FLAG_ESCAPED, &fence->flags)) {
		dma_fence_free(fence);
		return;
	}
	/* Any context: the device's release may sleep. */
	INIT_WORK(&rq->release_work, escaped_release_work);
	queue_work(i915_fence_wq, &rq->release_work);
}

/*
 * A wait for the next request to complete (the breadcrumb one behind)
 * first polls the status page for up to I915_FENCE_SPIN_NS, as upstream
 * busy-waits for a request that has started (8 us there), then sleeps
 * until the user interrupt.  A batch that ends meanwhile is seen without
 * the interrupt's wake-up: under TCG, waking a waiter on a halted vCPU
 * was half of the model's 100 us hand-off from the tail write to the
 * waiter (Documentation/benchmarks.rst).
 */
#define I915_FENCE_SPIN_NS	(50 * NSEC_PER_USEC)

static signed long i915_fence_wait(struct dma_fence *fence, bool intr,
				   signed long timeout)
{
	struct i915_ring *ring;
	u64 end;

	/* Signalled: the ring (and its status page) may be gone already. */
	if (test_bit(DMA_FENCE_FLAG_SIGNALED_BIT, &fence->flags))
		return timeout ?: 1;
	ring = to_request(fence)->ring;
	if (timeout <= 0 || !fence->seqno ||
	    !seqno_passed(hws_seqno(ring) + 1, fence->seqno))
		return dma_fence_default_wait(fence, intr, timeout);

	end = local_clock() + I915_FENCE_SPIN_NS;
	do {
		if (dma_fence_is_signaled(fence))
			return timeout;
		if ((intr && signal_pending(current)) || need_resched())
			break;
		cpu_relax();
	} while (local_clock() < end);
	return dma_fence_default_wait(fence, intr, timeout);
}

static const struct dma_fence_ops i915_fence_ops = {
	.get_driver_name = i915_fence_driver_name,
	.get_timeline_name = i915_fence_timeline_name,
	.signaled = i915_fence_signaled,
	.wait = i915_fence_wait,
	.release = i915_fence_release,
};

/**
 * i915_request_escape - the request's fence leaves the driver's hands
 * @rq: an emitted request
 *
 * From now on the fence may outlive the DRM files, the device and the
 * module's other users: the request takes a reference on the module and
 * one on the DRM device, dropped after the fence's last reference.  Call
 * it before the fence is handed out (sync_file, exported dma_resv).
 */
void i915_request_escape(struct i915_request *rq)
{
	if (test_and_set_bit(I915_FENCE_FLAG_ESCAPED, &rq->fence.flags))
		return;
	__module_get(THIS_MODULE);
	drm_dev_get(&ring_to_i915(rq->ring)->drm);
}

/**
 * i915_request_escape_fence - i915_request_escape() for any fence
 * @fence: a fence from an object's dma_resv; only this driver's are
 *	affected
 */
void i915_request_escape_fence(struct dma_fence *fence)
{
	if (fence->ops == &i915_fence_ops)
		i915_request_escape(to_request(fence));
}

/**
 * i915_request_module_init - set up what escaped fences need
 *
 * Return: 0 or -ENOMEM.
 */
int i915_request_module_init(void)
{
	i915_fence_wq = alloc_workqueue("i915_fence", 0, 0);
	return i915_fence_wq ? 0 : -ENOMEM;
}

/**
 * i915_request_module_exit - wait for the last escaped fence's release
 *
 * Called at module exit, when no escaped fence holds the module any more;
 * the work item that dropped the last reference may still be returning.
 */
void i915_request_module_exit(void)
{
	destroy_workqueue(i915_fence_wq);
}

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
	u32 *cs = i915_ring_begin(ring, I915_REQUEST_DWORDS);

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
 * i915_request_create - allocate a request, before taking the ring lock
 * @i915: the device
 * @max_objects: how many objects i915_request_add_object() will add
 *
 * Return: the request, or ERR_PTR(-ENOMEM).  Its fence is initialised,
 * so that a sync_file can be made of it before the point of no return,
 * but it gets its seqno only from i915_request_emit(); until that
 * succeeds, drop the request with i915_request_discard() (a sync_file
 * made of it meanwhile must never be installed).
 */
struct i915_request *i915_request_create(struct i915_device *i915,
					 unsigned int max_objects)
{
	struct i915_request *rq;

	rq = kzalloc(sizeof(*rq), GFP_KERNEL);
	if (!rq)
		return ERR_PTR(-ENOMEM);

	rq->ring = &i915->ring;
	INIT_LIST_HEAD(&rq->client_link);
	/* Who submitted it, for the error state if it hangs. */
	rq->pid = task_tgid_nr(current);
	get_task_comm(rq->comm, current);
	/* A fence from the start (a sync_file may hold it); seqno at emit. */
	dma_fence_init(&rq->fence, &i915_fence_ops, &rq->ring->fence_lock,
		       rq->ring->fence_context, 0);
	if (max_objects) {
		rq->objects = kvmalloc_array(max_objects, sizeof(*rq->objects),
					     GFP_KERNEL_ACCOUNT);
		if (!rq->objects) {
			dma_fence_put(&rq->fence);
			return ERR_PTR(-ENOMEM);
		}
	}
	rq->max_objects = max_objects;
	return rq;
}

/**
 * i915_request_add_object - keep an object alive while the request runs
 * @rq: a request not yet emitted
 * @obj: the object; the request takes a reference until it is retired
 */
void i915_request_add_object(struct i915_request *rq,
			     struct drm_gem_object *obj)
{
	if (drm_WARN_ON_ONCE(obj->dev, rq->num_objects >= rq->max_objects))
		return;

	drm_gem_object_get(obj);
	rq->objects[rq->num_objects++] = obj;
}

/**
 * i915_request_take_object - i915_request_add_object() with the caller's
 *	reference
 * @rq: a request not yet emitted
 * @obj: the object; the request takes over a reference the caller holds
 *	(an execbuffer's lookup), and drops it when it is retired or
 *	discarded
 */
void i915_request_take_object(struct i915_request *rq,
			      struct drm_gem_object *obj)
{
	if (drm_WARN_ON_ONCE(obj->dev, rq->num_objects >= rq->max_objects)) {
		drm_gem_object_put(obj);
		return;
	}
	rq->objects[rq->num_objects++] = obj;
}

static void request_release_objects(struct i915_request *rq)
{
	while (rq->num_objects)
		drm_gem_object_put(rq->objects[--rq->num_objects]);
	kvfree(rq->objects);
	rq->objects = NULL;
	bitmap_free(rq->capture);
	rq->capture = NULL;
}

/**
 * i915_request_discard - drop a request that was never emitted
 * @rq: the request, from i915_request_create()
 */
void i915_request_discard(struct i915_request *rq)
{
	request_release_objects(rq);
	dma_fence_put(&rq->fence);
}

/**
 * i915_request_emit - close the commands emitted so far with a request
 * @rq: the request, from i915_request_create(); the ring lock held
 * @file: the client the work belongs to, or NULL for the driver's own
 *
 * Emits the breadcrumb and the user interrupt, publishes the request and
 * moves the ring's tail.  The objects' dma_resv locks are held: a request
 * that uses an exported object escapes (i915_request_escape()), since its
 * fence goes into a dma_resv that others read.  On success the caller's reference is the one
 * i915_request_create() gave; the ring holds another until retirement.
 *
 * Return: 0, or -EIO if the GPU is wedged, -ERESTARTSYS on a signal while
 * waiting for ring space; the request is then unchanged.
 */
int i915_request_emit(struct i915_request *rq, struct drm_file *file)
{
	struct i915_ring *ring = rq->ring;
	struct i915_device *i915 = ring_to_i915(ring);
	unsigned long flags;
	unsigned int i;
	int ret;

	lockdep_assert_held(&ring->lock);

	rq->postfix = ring->tail;
	ret = emit_breadcrumb(ring, ring->next_seqno);
	if (ret)
		return ret;

	rq->emitted = jiffies;
	rq->fence.seqno = ring->next_seqno++;
	if (file)
		request_add_to_client(rq, file);
	for (i = 0; i < rq->num_objects; i++)
		if (to_i915_obj(rq->objects[i])->exported)
			i915_request_escape(rq);

	/* On the list before the GPU can reach the breadcrumb. */
	dma_fence_get(&rq->fence); /* the ring's reference */
	spin_lock_irqsave(&ring->fence_lock, flags);
	list_add_tail(&rq->link, &ring->requests);
	spin_unlock_irqrestore(&ring->fence_lock, flags);

	i915_ring_kick(i915);
	rq->tail = ring->tail;
	trace_i915_request_emit(rq);
	/* A no-op while a check is queued; a running one re-arms itself. */
	schedule_delayed_work(&ring->hangcheck_work,
			      msecs_to_jiffies(READ_ONCE(i915_hangcheck_ms)));
	return 0;
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
		if (!dma_fence_signal_locked(&rq->fence))
			trace_i915_request_signal(rq);
	}
	spin_unlock_irqrestore(&ring->fence_lock, flags);
	schedule_work(&ring->retire_work);
}

/*
 * The client may be closing right now: i915_request_file_close() clears
 * @rq->file under the client's lock and the client's state is freed an
 * RCU grace period later, so a pointer read inside the read-side section
 * stays valid for taking the lock, and under the lock @rq->file says
 * whether the request is still on the client's list.
 */
static void request_remove_from_client(struct i915_request *rq)
{
	struct i915_file *fpriv;

	rcu_read_lock();
	fpriv = READ_ONCE(rq->file);
	if (fpriv) {
		spin_lock(&fpriv->lock);
		if (rq->file) {
			list_del(&rq->client_link);
			rq->file = NULL;
		}
		spin_unlock(&fpriv->lock);
	}
	rcu_read_unlock();
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
		trace_i915_request_retire(rq);
		request_remove_from_client(rq);
		request_release_objects(rq);
		i915_request_put(rq);
	}
}

/**
 * i915_request_wedge - give up on the GPU
 * @i915: the device
 *
 * Every outstanding request completes with -EIO (its fence's error; waits
 * on its objects answer 0, as upstream's); new work is refused.  The
 * ring is stopped at its next command boundary (i915_ring_freeze()); a
 * batch that still runs is stopped only by a reset (i915_reset_wedge()).
 * Called when a reset is off or failed, and by suspend; safe in any
 * context.
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
	i915_ring_freeze(i915);
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
 * i915_request_capture_error - capture the error state of a hang
 * @i915: the device
 * @guilty: the request the reset found guilty, or NULL
 *
 * Called by the reset path before the reset (or the wedge) loses the
 * engine's registers.  Without @guilty, or if it completed meanwhile,
 * the oldest request not completed is taken as the one that hung.
 * Holds &i915_ring.fence_lock across the capture, so that the request
 * cannot complete (and its objects stay bound) while it is copied.
 */
void i915_request_capture_error(struct i915_device *i915,
				struct i915_request *guilty)
{
	struct i915_ring *ring = &i915->ring;
	struct i915_request *rq;
	unsigned long flags;

	spin_lock_irqsave(&ring->fence_lock, flags);
	if (guilty && dma_fence_is_signaled_locked(&guilty->fence))
		guilty = NULL;
	if (!guilty) {
		list_for_each_entry(rq, &ring->requests, link) {
			if (!dma_fence_is_signaled_locked(&rq->fence)) {
				guilty = rq;
				break;
			}
		}
	}
	i915_error_capture(i915, guilty);
	spin_unlock_irqrestore(&ring->fence_lock, flags);
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

/* Is the request running now (the oldest not completed) a closed file's? */
static bool running_orphan(struct i915_ring *ring)
{
	struct i915_request *rq;
	unsigned long flags;
	bool orphan = false;

	spin_lock_irqsave(&ring->fence_lock, flags);
	list_for_each_entry(rq, &ring->requests, link) {
		if (dma_fence_is_signaled_locked(&rq->fence))
			continue;
		orphan = !READ_ONCE(rq->file);
		break;
	}
	spin_unlock_irqrestore(&ring->fence_lock, flags);
	return orphan;
}

static void hangcheck_work_fn(struct work_struct *work)
{
	struct i915_ring *ring = container_of(to_delayed_work(work),
					      struct i915_ring,
					      hangcheck_work);
	struct i915_device *i915 = ring_to_i915(ring);
	u32 seqno = hws_seqno(ring);
	u32 acthd = i915_ring_acthd(i915);
	bool idle = i915_request_idle(i915);

	ring->hang_checks++;
	if (xchg(&ring->hang_error, false) && !idle) {
		i915_reset_handle(i915);
	} else if (idle || seqno != ring->hang_seqno) {
		ring->hang_score = 0;
	} else {
		if (acthd == ring->hang_acthd)
			ring->hang_score += I915_HANG_SCORE_STUCK;
		else if (running_orphan(ring))
			ring->hang_score += I915_HANG_SCORE_ORPHAN;
		else
			ring->hang_score += I915_HANG_SCORE_BUSY;
		if (ring->hang_score >= I915_HANG_SCORE_HUNG)
			i915_reset_handle(i915);
	}
	seqno = hws_seqno(ring);
	acthd = i915_ring_acthd(i915);
	idle = i915_request_idle(i915);
	ring->hang_seqno = seqno;
	ring->hang_acthd = acthd;
	/* Idle: the next emission arms the check again. */
	if (!idle)
		schedule_delayed_work(&ring->hangcheck_work,
				      msecs_to_jiffies(READ_ONCE(i915_hangcheck_ms)));
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
 * i915_request_retire - retire every request that has completed, now
 * @i915: the device
 *
 * Signals what the breadcrumb has passed (in case its interrupt is still
 * on its way) and runs the retire worker to its end, so that completed
 * requests have dropped their objects when this returns.
 */
void i915_request_retire(struct i915_device *i915)
{
	i915_request_signal(i915);
	flush_work(&i915->ring.retire_work);
}

/**
 * i915_request_file_close - forget a closing client's requests
 * @fpriv: the client; its requests keep running without it
 *
 * After this, no request points at @fpriv; the caller frees it only after
 * an RCU grace period (the retire worker may have read the pointer).
 */
void i915_request_file_close(struct i915_file *fpriv)
{
	struct i915_request *rq, *next;

	spin_lock(&fpriv->lock);
	list_for_each_entry_safe(rq, next, &fpriv->requests, client_link) {
		list_del(&rq->client_link);
		WRITE_ONCE(rq->file, NULL);
	}
	spin_unlock(&fpriv->lock);
}

/**
 * i915_request_unwedge - put a wedged GPU back to work
 * @i915: the device
 *
 * For debugfs i915_wedged (i915_reset_debugfs_set()), after it reset the
 * GPU: once every request has completed (with -EIO), the error registers
 * are cleared and the ring is programmed afresh, empty.
 *
 * Return: 0 (also when the GPU was not wedged), -EBUSY while requests are
 * still outstanding, -EIO if the ring does not restart, -EINTR on a
 * signal.
 */
int i915_request_unwedge(struct i915_device *i915)
{
	struct i915_ring *ring = &i915->ring;
	unsigned long flags;
	int ret;

	/*
	 * Retire what the wedge completed before the ring lock is taken:
	 * retiring frees objects, and freeing a userptr object waits for
	 * its notifier, whose invalidations take &i915_device.userptr_sem,
	 * which an execbuffer holds around the ring lock.
	 */
	flush_work(&ring->retire_work);
	ret = mutex_lock_interruptible(&ring->lock);
	if (ret)
		return ret;
	if (!READ_ONCE(ring->wedged))
		goto out_unlock;

	if (!i915_request_idle(i915)) {
		ret = -EBUSY;
		goto out_unlock;
	}
	i915_irq_clear_errors(i915);
	ret = i915_ring_start(i915);
	if (ret)
		goto out_unlock;

	spin_lock_irqsave(&ring->fence_lock, flags);
	WRITE_ONCE(ring->wedged, false);
	ring->hang_score = 0;
	spin_unlock_irqrestore(&ring->fence_lock, flags);
	drm_info(&i915->drm, "GPU unwedged, ring restarted\n");
out_unlock:
	mutex_unlock(&ring->lock);
	return ret;
}

/**
 * i915_request_print - debugfs i915_requests
 * @i915: the device
 * @p: where to print
 *
 * The breadcrumb, the next seqno, whether the GPU is wedged, then one
 * line per request not yet retired: seqno, age, state and its objects.
 */
void i915_request_print(struct i915_device *i915, struct drm_printer *p)
{
	struct i915_ring *ring = &i915->ring;
	struct i915_request *rq;
	unsigned long flags;

	drm_printf(p, "breadcrumb: %u, next seqno: %u, wedged: %s\n",
		   hws_seqno(ring), READ_ONCE(ring->next_seqno),
		   str_yes_no(READ_ONCE(ring->wedged)));
	drm_printf(p, "hang checks: %lu\n", READ_ONCE(ring->hang_checks));

	spin_lock_irqsave(&ring->fence_lock, flags);
	list_for_each_entry(rq, &ring->requests, link)
		drm_printf(p, "seqno %llu: age %u ms, %s, error %d, %u objects, tail 0x%x\n",
			   rq->fence.seqno,
			   jiffies_to_msecs(jiffies - rq->emitted),
			   dma_fence_is_signaled_locked(&rq->fence) ?
			   "completed" : "running", rq->fence.error,
			   rq->num_objects, rq->tail);
	spin_unlock_irqrestore(&ring->fence_lock, flags);
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
	return 0;
}

/*
 * Wait uninterruptibly, up to @timeout_ms in all, for every outstanding
 * request, retiring the completed ones.  Return: true if the GPU is idle.
 */
static bool wait_idle_timeout(struct i915_device *i915,
			      unsigned int timeout_ms)
{
	unsigned long end = jiffies + msecs_to_jiffies(timeout_ms);
	struct i915_ring *ring = &i915->ring;
	struct i915_request *rq;
	long left, done;

	while ((rq = ring_last_request(ring))) {
		left = time_after(end, jiffies) ? end - jiffies : 0;
		done = dma_fence_wait_timeout(&rq->fence, false, left);
		i915_request_put(rq);
		flush_work(&ring->retire_work);
		if (!done)
			return false;
	}
	return true;
}

/**
 * i915_request_quiesce - let the GPU finish what is queued, or give up
 * @i915: the device, unplugged (no new work comes)
 *
 * For the PCI remove (unbind, unplug, rmmod): waits uninterruptibly for
 * outstanding requests, up to %I915_UNLOAD_IDLE_MS in all, as upstream
 * waits a bounded time for idle before it unloads.  A GPU still busy
 * then (a queue of long batches left by killed clients, a batch that
 * never ends) is wedged with a reset (i915_reset_wedge()): its requests
 * complete with -EIO and the engine stops touching memory that is about
 * to be freed.  Unload never waits on the GPU for longer than that.
 * Every request is retired on return.
 */
void i915_request_quiesce(struct i915_device *i915)
{
	if (wait_idle_timeout(i915, I915_UNLOAD_IDLE_MS))
		return;
	drm_notice(&i915->drm, "GPU still busy %u ms into the unbind\n",
		   I915_UNLOAD_IDLE_MS);
	mutex_lock(&i915->reset_lock);
	if (!READ_ONCE(i915->ring.wedged))
		i915_reset_wedge(i915);
	mutex_unlock(&i915->reset_lock);
	/* Every fence has signalled: this only retires. */
	wait_idle_timeout(i915, I915_UNLOAD_IDLE_MS);
}

/**
 * i915_request_suspend - stop taking work and let the GPU finish it
 * @i915: the device
 *
 * From now on emission is refused with -EAGAIN (i915_ring_begin()): user
 * tasks are frozen before devices suspend, so only a task the freezer
 * left alone can get there, and libdrm retries -EAGAIN.  Then every
 * outstanding request is waited for, uninterruptibly (the GPU runs on
 * while devices suspend), for as long as requests keep completing: up
 * to %I915_SUSPEND_IDLE_MS at a time, %I915_SUSPEND_MAX_MS in all
 * (upstream waits 0.5 s; under emulation the model takes seconds over a
 * queue that silicon runs in milliseconds).  A GPU that has not finished
 * by then is wedged (its requests complete with -EIO) rather than
 * suspended with work on it, as upstream does; a batch that loops is
 * reset by the hang check meanwhile.  Completed requests are retired
 * and the hang check stops.
 */
void i915_request_suspend(struct i915_device *i915)
{
	unsigned long end = jiffies + msecs_to_jiffies(I915_SUSPEND_MAX_MS);
	struct i915_ring *ring = &i915->ring;
	u32 seqno = hws_seqno(ring);

	mutex_lock(&ring->lock);
	ring->suspended = true;
	mutex_unlock(&ring->lock);

	while (!wait_idle_timeout(i915, I915_SUSPEND_IDLE_MS)) {
		/* a request completed meanwhile: the GPU is getting there */
		if (hws_seqno(ring) != seqno && time_before(jiffies, end)) {
			seqno = hws_seqno(ring);
			continue;
		}
		i915_request_wedge(i915);
	}
	cancel_delayed_work_sync(&ring->hangcheck_work);
	flush_work(&ring->retire_work);
}

/**
 * i915_request_resume - take work again after a resume
 * @i915: the device, its ring running again
 *
 * A GPU wedged before the suspend stays wedged.  The hang check stays
 * idle until the next request is emitted.
 */
void i915_request_resume(struct i915_device *i915)
{
	struct i915_ring *ring = &i915->ring;

	mutex_lock(&ring->lock);
	ring->suspended = false;
	ring->hang_score = 0;
	mutex_unlock(&ring->lock);
	/* Nothing is outstanding: the next request arms the hang check. */
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
