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
 *
 * The user interrupt is unmasked only while a fence needs it, as upstream
 * arms its breadcrumbs: enabling a fence's signalling (dma_fence_wait(),
 * dma_fence_add_callback(): GEM_WAIT, SET_DOMAIN, a sync_file poll, a
 * syncobj, another driver's wait) arms it, and the signalling that finds
 * no enabled fence left unsignalled masks it (i915_irq.c).  Requests nobody
 * waits for are signalled and retired without an interrupt: by a tick every
 * %I915_RETIRE_TICK_MS while requests run (upstream's retire worker), and a
 * few at a time by the next execbuffer (i915_request_retire_some()), so a
 * client that never waits does not pile up requests, and every wait that
 * drains the ring (idle, suspend, unbind) retires what it waited for.
 * Objects remember the requests that use them through their dma_resv.
 * A request holds no reference on its objects: an object closed while
 * the GPU still uses it is freed only once its fences have signalled
 * (drm_gem.c), so it lives (and stays bound) until the GPU is done with
 * it, and retiring a request of a thousand objects touches none of them.
 *
 * A request is created before the ring lock is taken (allocations may
 * sleep), given its commands, and submitted under the
 * ring lock, which is where it gets its seqno: written into the ring at
 * once, or queued behind its dependencies (see "Dependencies" below).
 *
 * A hang check guarantees that every fence signals.  Every hangcheck_ms
 * while requests are outstanding and the breadcrumb has not moved, it
 * adds to a hang score: %I915_HANG_SCORE_STUCK when the engine's ACTHD
 * has not moved either (stuck on one command), %I915_HANG_SCORE_BUSY when
 * it has (a long batch, or one that loops).  A moving breadcrumb resets
 * the score.  At %I915_HANG_SCORE_HUNG the
 * GPU is declared hung and i915_reset_handle() captures the error state
 * (i915_gpu_error.c) and resets it (or wedges the device: every
 * outstanding request completes with -EIO).  So a stuck
 * engine is declared hung after 3 checks (an engine stopped by an error
 * it reported, an instruction or page-table error, too: as upstream's,
 * the error interrupt itself resets nothing), and a batch that keeps running
 * without finishing after 30, or after 5 once its client has closed its
 * file (%I915_HANG_SCORE_ORPHAN: a killed client's spinner is reset in
 * about upstream's heartbeat time, not 30 s).  The check runs
 * only while requests are outstanding: emitting a request arms it, and a
 * check that finds every request complete does not re-arm (no wakeups
 * on an idle GPU).  hangcheck_ms cannot be 0.
 *
 * Requests also expire, as upstream's do: a file takes the module
 * parameter request_timeout_ms when it is opened (upstream's default
 * context takes it at its creation), and each of its requests gets a
 * timer when it is written into the ring.  One still running when its
 * timer fires is cancelled by the expiry worker: its fence's error
 * becomes -EINTR and the GPU is reset (i915_reset_expired(), no error
 * state), as upstream's legacy ring, which cannot preempt, cancels it.
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
#include <linux/wait.h>
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

/*
 * Off by default, where Debian builds 6.1 with 20000
 * (CONFIG_DRM_I915_REQUEST_TIMEOUT): upstream's heartbeat resets a
 * never-ending batch after about 5 s with -EIO, long before it could
 * expire, but this driver's hang check gives a live client's batch 30
 * checks (emulation is slow), so a 20 s expiry would end every such batch
 * first, with -EINTR instead of upstream's -EIO (igt's gem_exec_fence
 * *-hang subtests check that errno).
 */
static unsigned int i915_request_timeout_ms;
module_param_named(request_timeout_ms, i915_request_timeout_ms, uint, 0600);
MODULE_PARM_DESC(request_timeout_ms,
		 "Time in ms after which a request written into the ring and not yet completed is cancelled (-EINTR) by a GPU reset; read when a file is opened, 0 = never (default 0)");

/**
 * i915_request_timeout_default - request_timeout_ms for a new file
 *
 * Return: the module parameter's value now.
 */
unsigned int i915_request_timeout_default(void)
{
	return READ_ONCE(i915_request_timeout_ms);
}

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

/*
 * How often requests are signalled and retired while they run and nobody
 * waits for them (upstream's retire worker runs about once a second; this
 * keeps a client that never waits from holding much more than a tick's
 * worth of completed requests).
 */
#define I915_RETIRE_TICK_MS	10

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

/* Does a fence with signalling enabled still wait for its breadcrumb? */
static bool fence_wants_irq(struct i915_request *rq)
{
	unsigned long flags = READ_ONCE(rq->fence.flags);

	return (flags & BIT(DMA_FENCE_FLAG_ENABLE_SIGNAL_BIT)) &&
	       !(flags & BIT(DMA_FENCE_FLAG_SIGNALED_BIT));
}

/*
 * Somebody needs to hear of @fence: unmask the user interrupt, then look
 * at the breadcrumb again, since a request that completed before the
 * unmask raised no interrupt.  Under the fence's lock, the ring's
 * &i915_ring.fence_lock.  Return: false if it has completed (the caller
 * signals it).
 */
static bool i915_fence_enable_signaling(struct dma_fence *fence)
{
	struct i915_ring *ring = to_request(fence)->ring;

	/* Not submitted yet (seqno 0): it will need the interrupt later. */
	if (fence->seqno && i915_fence_signaled(fence))
		return false;
	i915_irq_user_arm(ring_to_i915(ring));
	return !fence->seqno || !i915_fence_signaled(fence);
}

/* Set once the request holds the references of an escaped fence. */
#define I915_FENCE_FLAG_ESCAPED	DMA_FENCE_FLAG_USER_BITS

/*
 * Requests come from a cache of their own, as upstream's do, whose memory
 * is type-safe by RCU: a request freed is at once the next one allocated
 * (hot, and not zeroed again by init_on_alloc), where kfree_rcu() kept
 * thousands a second waiting for a grace period.  A fence read under RCU
 * from a dma_resv without a reference may so become another request of
 * this cache: dma_fence_get_rcu_safe() and the dma_resv iterators take
 * their reference and then check that the fence is still the one they
 * read, as they must for any fence.
 */
static struct kmem_cache *i915_request_slab;

/* Releases escaped requests; destroyed (so drained) at module exit. */
static struct workqueue_struct *i915_fence_wq;

static void escaped_release_work(struct work_struct *work)
{
	struct i915_request *rq = container_of(work, struct i915_request,
					       release_work);
	struct drm_device *drm = &ring_to_i915(rq->ring)->drm;

	kmem_cache_free(i915_request_slab, rq);
	drm_dev_put(drm);
	/* Last: module exit waits for this work item to return. */
	module_put(THIS_MODULE);
}

static void i915_fence_release(struct dma_fence *fence)
{
	struct i915_request *rq = to_request(fence);

	if (!test_bit(I915_FENCE_FLAG_ESCAPED, &fence->flags)) {
		kmem_cache_free(i915_request_slab, rq);
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
	.enable_signaling = i915_fence_enable_signaling,
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
 * i915_request_module_init - the requests' cache, and what escaped fences
 *	need
 *
 * Return: 0 or -ENOMEM.
 */
int i915_request_module_init(void)
{
	i915_request_slab = KMEM_CACHE(i915_request, SLAB_HWCACHE_ALIGN |
						     SLAB_TYPESAFE_BY_RCU);
	if (!i915_request_slab)
		return -ENOMEM;
	i915_fence_wq = alloc_workqueue("i915_fence", 0, 0);
	if (!i915_fence_wq) {
		kmem_cache_destroy(i915_request_slab);
		return -ENOMEM;
	}
	return 0;
}

/**
 * i915_request_module_exit - wait for the last escaped fence's release
 *
 * Called at module exit, when no escaped fence holds the module any more;
 * the work item that dropped the last reference may still be returning.
 * The cache goes last (after an RCU barrier, as for any cache type-safe
 * by RCU).
 */
void i915_request_module_exit(void)
{
	destroy_workqueue(i915_fence_wq);
	kmem_cache_destroy(i915_request_slab);
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

/*
 * request_timeout_ms after it was written into the ring: hand the request
 * (and the timer's reference) to the expiry worker.
 */
static void request_watchdog_fn(struct timer_list *t)
{
	struct i915_request *rq = from_timer(rq, t, watchdog);
	struct i915_ring *ring = rq->ring;

	if (llist_add(&rq->expired_link, &ring->expired))
		schedule_work(&ring->expire_work);
}

/*
 * Cancel every expired request that has not completed, as upstream's
 * watchdog does on a legacy ring: its fence's error becomes -EINTR (unless
 * it has one already) and the GPU is reset (i915_reset_expired()), once
 * for each such request; the request running then is the guilty one.
 */
static void expire_work_fn(struct work_struct *work)
{
	struct i915_ring *ring = container_of(work, struct i915_ring,
					      expire_work);
	struct i915_device *i915 = ring_to_i915(ring);
	struct i915_request *rq, *next;
	struct llist_node *first;
	unsigned long flags;
	bool expired;

	first = llist_reverse_order(llist_del_all(&ring->expired));
	llist_for_each_entry_safe(rq, next, first, expired_link) {
		spin_lock_irqsave(&ring->fence_lock, flags);
		expired = !dma_fence_is_signaled_locked(&rq->fence);
		if (expired && !rq->fence.error)
			dma_fence_set_error(&rq->fence, -EINTR);
		spin_unlock_irqrestore(&ring->fence_lock, flags);
		if (expired) {
			drm_notice(&i915->drm,
				   "request %llu expired after %u ms: cancelled\n",
				   rq->fence.seqno, rq->timeout_ms);
			i915_reset_expired(i915);
		}
		i915_request_put(rq);
	}
}

/**
 * i915_request_create - allocate a request, before taking the ring lock
 * @i915: the device
 * @num_objects: how many objects its execbuffer lists (the most
 *	i915_error_capture_object() may add; debugfs shows it)
 *
 * Return: the request, or ERR_PTR(-ENOMEM).  Its fence is initialised,
 * so that a sync_file can be made of it before the point of no return,
 * but it gets its seqno only from i915_request_submit(); until that
 * succeeds, drop the request with i915_request_discard() (a sync_file
 * made of it meanwhile must never be installed).
 */
struct i915_request *i915_request_create(struct i915_device *i915,
					 unsigned int num_objects)
{
	struct i915_request *rq;

	/*
	 * Not zeroed (the cache has no ctor): every field is set below but
	 * @release_work and @expired_link, which are set where they are used.
	 */
	rq = kmem_cache_alloc(i915_request_slab, GFP_KERNEL);
	if (!rq)
		return ERR_PTR(-ENOMEM);

	/* A fence from the start (a sync_file may hold it); seqno at emit. */
	dma_fence_init(&rq->fence, &i915_fence_ops, &i915->ring.fence_lock,
		       i915->ring.fence_context, 0);
	rq->ring = &i915->ring;
	INIT_LIST_HEAD(&rq->link);
	rq->file = NULL;
	INIT_LIST_HEAD(&rq->client_link);
	rq->tail = 0;
	rq->emitted = 0;
	rq->num_objects = num_objects;
	rq->batch = NULL;
	rq->captures = NULL;
	rq->num_captures = 0;
	/*
	 * Who submitted it, for the error state if it hangs.  The comm
	 * changes only by a rename of the task (itself, or a write to its
	 * /proc comm): a copy torn by one is still a terminated string,
	 * and costs less than get_task_comm()'s lock.
	 */
	rq->pid = task_tgid_nr(current);
	memcpy(rq->comm, current->comm, sizeof(rq->comm));
	rq->comm[sizeof(rq->comm) - 1] = '\0';
	rq->head = 0;
	rq->postfix = 0;
	rq->batch_start = 0;
	rq->batch_end = 0;
	rq->cmds = rq->cmds_inline;
	rq->num_cmds = 0;
	atomic_set(&rq->pending, 1); /* the submitter's, until it submits */
	rq->dep_error = 0;
	INIT_LIST_HEAD(&rq->awaits);
	rq->queued = false;
	rq->exported = false;
	rq->wedges = 0;
	rq->timeout_ms = 0;
	timer_setup(&rq->watchdog, request_watchdog_fn, 0);
	return rq;
}

static void request_cancel_awaits(struct i915_request *rq);

/* What the request keeps until it is retired or discarded. */
static void request_release(struct i915_request *rq)
{
	request_cancel_awaits(rq);
	if (rq->cmds != rq->cmds_inline)
		kvfree(rq->cmds);
	rq->cmds = rq->cmds_inline;
	kvfree(rq->captures);
	rq->captures = NULL;
	rq->num_captures = 0;
}

/**
 * i915_request_discard - drop a request that was never emitted
 * @rq: the request, from i915_request_create()
 */
void i915_request_discard(struct i915_request *rq)
{
	request_release(rq); /* in place of the retirement */
	dma_fence_put(&rq->fence);
}

/*
 * Arm a check of the ring's requests (the hang check, the retire tick)
 * to run in @ms, unless it is queued already: it then runs before that
 * and sees the request just put on &i915_ring.requests, since it reads
 * the list under &i915_ring.fence_lock, and the workqueue clears the
 * pending bit before it runs (one that runs re-arms itself while
 * requests run).  The test spares each emission an interrupts-off
 * section in queue_delayed_work_on().
 */
static void ring_arm(struct delayed_work *dwork, unsigned int ms)
{
	if (!delayed_work_pending(dwork))
		schedule_delayed_work(dwork, msecs_to_jiffies(ms));
}

/*
 * Where the request enters the ring's order (a seqno, its client's list,
 * the ring's reference), when it is written at once or when it is queued.
 * A request that uses an exported object (&i915_request.exported, set by
 * its submitter under the objects' locks) escapes (i915_request_escape()),
 * since its fence goes into a dma_resv that others read.
 */
static void request_enter(struct i915_request *rq, struct drm_file *file)
{
	struct i915_ring *ring = rq->ring;

	rq->emitted = jiffies;
	rq->fence.seqno = ring->next_seqno++;
	if (file) {
		struct i915_file *fpriv = file->driver_priv;

		rq->timeout_ms = fpriv->request_timeout_ms;
		request_add_to_client(rq, file);
	}
	if (rq->exported)
		i915_request_escape(rq);
	dma_fence_get(&rq->fence); /* the ring's reference */
}

/*
 * Close the commands emitted so far with @rq's breadcrumb, put it on
 * &i915_ring.requests (from @queue if it was queued) and move the ring's
 * tail; the ring lock held.  Return: 0, or i915_ring_begin()'s error;
 * the request is then unchanged.
 */
static int request_emit(struct i915_request *rq, struct drm_file *file)
{
	struct i915_ring *ring = rq->ring;
	struct i915_device *i915 = ring_to_i915(ring);
	unsigned long flags;
	int ret;

	lockdep_assert_held(&ring->lock);

	rq->postfix = ring->tail;
	ret = emit_breadcrumb(ring, rq->queued ? lower_32_bits(rq->fence.seqno) :
				    ring->next_seqno);
	if (ret)
		return ret;

	if (!rq->queued)
		request_enter(rq, file);
	/*
	 * Its expiry counts from now, as upstream's from its submission;
	 * armed before the retire worker can find it on the list, which
	 * drops the timer's reference with the timer.
	 */
	if (rq->timeout_ms) {
		dma_fence_get(&rq->fence);
		mod_timer(&rq->watchdog,
			  jiffies + msecs_to_jiffies(rq->timeout_ms));
	}
	/* On the list before the GPU can reach the breadcrumb. */
	spin_lock_irqsave(&ring->fence_lock, flags);
	if (rq->queued)
		list_move_tail(&rq->link, &ring->requests);
	else
		list_add_tail(&rq->link, &ring->requests);
	/* Enabled before it had a seqno: the interrupt may be masked since. */
	if (fence_wants_irq(rq))
		i915_irq_user_arm(i915);
	/*
	 * A wedge since i915_ring_begin() looked did not see it on the list
	 * and stopped the ring: it completes with -EIO as the others did.
	 */
	if (ring->wedged && !dma_fence_is_signaled_locked(&rq->fence)) {
		dma_fence_set_error(&rq->fence, -EIO);
		dma_fence_signal_locked(&rq->fence);
	}
	spin_unlock_irqrestore(&ring->fence_lock, flags);

	i915_ring_kick(i915);
	rq->tail = ring->tail;
	trace_i915_request_emit(rq);
	/* The hang check, and the tick that retires it if nobody waits. */
	ring_arm(&ring->hangcheck_work, READ_ONCE(i915_hangcheck_ms));
	ring_arm(&ring->retire_tick, I915_RETIRE_TICK_MS);
	return 0;
}

/*
 * Signal every request the breadcrumb has passed, and mask the user
 * interrupt if no fence with signalling enabled is left waiting, written
 * into the ring (from @rq on, the first the breadcrumb has not passed) or
 * queued.  Return: true if requests are still running.
 */
static bool ring_signal(struct i915_ring *ring)
{
	struct i915_device *i915 = ring_to_i915(ring);
	u32 seqno = hws_seqno(ring);
	struct i915_request *rq;
	unsigned long flags;
	bool running, armed;

	spin_lock_irqsave(&ring->fence_lock, flags);
	list_for_each_entry(rq, &ring->requests, link) {
		if (!seqno_passed(seqno, rq->fence.seqno))
			break;
		if (!dma_fence_signal_locked(&rq->fence))
			trace_i915_request_signal(rq);
	}
	running = !list_entry_is_head(rq, &ring->requests, link);
	armed = i915->irq_user_armed;
	list_for_each_entry_from(rq, &ring->requests, link) {
		if (!armed)
			break;
		if (fence_wants_irq(rq))
			goto out_unlock;
	}
	list_for_each_entry(rq, &ring->queue, link) {
		if (!armed)
			break;
		if (fence_wants_irq(rq))
			goto out_unlock;
	}
	i915_irq_user_disarm(i915);
out_unlock:
	spin_unlock_irqrestore(&ring->fence_lock, flags);
	return running;
}

/**
 * i915_request_signal - signal every request the breadcrumb has passed
 * @i915: the device
 *
 * Called from the user interrupt and wherever completed requests must be
 * noticed without it; masks the user interrupt when no fence needs it any
 * more.  Completed requests are retired later by a worker.
 */
void i915_request_signal(struct i915_device *i915)
{
	struct i915_ring *ring = &i915->ring;

	ring_signal(ring);
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

/* Drop a request off every list, its commands, and the ring's reference. */
static void request_retire(struct i915_request *rq)
{
	trace_i915_request_retire(rq);
	/* A pending expiry holds a reference: drop it with the timer. */
	if (del_timer(&rq->watchdog))
		i915_request_put(rq);
	request_remove_from_client(rq);
	request_release(rq);
	i915_request_put(rq);
}

/* Requests retired per hold of &i915_ring.fence_lock (interrupts off). */
#define I915_RETIRE_BATCH	16

/*
 * Move up to @max of the oldest signalled requests off the ring onto
 * @done, in one hold of the lock.  Return: how many.
 */
static unsigned int ring_pop_completed(struct i915_ring *ring,
				       unsigned int max, struct list_head *done)
{
	struct i915_request *rq, *next;
	unsigned int n = 0;
	unsigned long flags;

	spin_lock_irqsave(&ring->fence_lock, flags);
	list_for_each_entry_safe(rq, next, &ring->requests, link) {
		if (n == max || !dma_fence_is_signaled_locked(&rq->fence))
			break;
		list_move_tail(&rq->link, done);
		n++;
	}
	spin_unlock_irqrestore(&ring->fence_lock, flags);
	return n;
}

/* Retire up to @max completed requests; return how many. */
static unsigned int ring_retire(struct i915_ring *ring, unsigned int max)
{
	struct i915_request *rq, *next;
	unsigned int n;
	LIST_HEAD(done);

	n = ring_pop_completed(ring, max, &done);
	list_for_each_entry_safe(rq, next, &done, link)
		request_retire(rq);
	return n;
}

static void retire_work_fn(struct work_struct *work)
{
	struct i915_ring *ring = container_of(work, struct i915_ring,
					      retire_work);

	while (ring_retire(ring, I915_RETIRE_BATCH) == I915_RETIRE_BATCH)
		cond_resched();
}

/*
 * Every %I915_RETIRE_TICK_MS while requests run: what completed without
 * an interrupt is signalled and retired.  Idle: the next emission arms it.
 */
static void retire_tick_fn(struct work_struct *work)
{
	struct i915_ring *ring = container_of(to_delayed_work(work),
					      struct i915_ring, retire_tick);

	if (ring_signal(ring))
		schedule_delayed_work(&ring->retire_tick,
				      msecs_to_jiffies(I915_RETIRE_TICK_MS));
	schedule_work(&ring->retire_work);
}

/**
 * i915_request_retire_some - retire a few completed requests, now
 * @i915: the device
 * @max: at most this many
 *
 * For the execbuffer, before it looks anything up or takes a lock: the
 * oldest requests, if they have completed, are retired in the caller's
 * context, as upstream retires its timeline's oldest request when it
 * creates one, so that a client that never waits does not pile up
 * completed requests between two retire ticks.  Their fences are
 * signalled here if no interrupt did.
 */
void i915_request_retire_some(struct i915_device *i915, unsigned int max)
{
	ring_retire(&i915->ring, max);
}

/**
 * i915_request_wedge - give up on the GPU
 * @i915: the device
 *
 * Every outstanding request completes with -EIO (its fence's error; waits
 * on its objects answer 0, as upstream's), and every queued one once its
 * dependencies have signalled; new work is refused.  The
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
	if (!ring->wedged)
		WRITE_ONCE(ring->wedges, ring->wedges + 1);
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
	queue_work(system_highpri_wq, &ring->submit_work);
	wake_up_all(&ring->queue_wait);
}

/*
 * Dependencies.  A request that must wait for fences of other timelines
 * (another driver's, the other GPU's, a FENCE_IN's or a syncobj's) is not
 * waited for on the CPU: it gets a callback on each such fence, is
 * published (its fence in the objects' dma_resv, sync_file, syncobjs)
 * and queued on &i915_ring.queue.  The callback that signals its last
 * dependency queues &i915_ring.submit_work, which writes it into the
 * ring.  Fences of the ring's own timeline need no callback: the ring
 * runs its requests in seqno order.
 *
 * The order is upstream's on legacy ringbuffer submission, where every
 * context of an engine shares one timeline: requests are written into
 * the ring in the order they were submitted, so a request behind a
 * dependency holds back every later one, of every client, until it is
 * written.  A dependency that completes with an error (other than
 * -EAGAIN or -ETIMEDOUT) passes it on, as upstream: the request is
 * written without its commands (only its breadcrumb) and completes with
 * that error.
 *
 * A queued request is not running: the hang check and a reset see only
 * the requests written into the ring.  On a wedged GPU a queued request
 * stays queued (and busy) until its dependencies signal, and then
 * completes with -EIO without its commands, as upstream's do, also when
 * the GPU was unwedged in between (upstream's unwedge waits for them).  A
 * dependency that never signals keeps its request (and every later one)
 * queued: that is the fence's owner's to end (upstream lets a stuck
 * fence block the same way); nothing sleeps on it but the callers who
 * wait for the request's fence.  Unbind waits a bounded time for the
 * queue as for the ring, then wedges, and what is still queued completes
 * with -EIO at once (its callbacks removed).  A client that closes its
 * file leaves its queued requests to run, as its running ones.
 *
 * Callbacks run in any context, under the signalling fence's lock: they
 * only count down &i915_request.pending and queue the worker.  They are
 * removed (dma_fence_remove_callback(), which serialises against a
 * callback running) before a request's memory or the device can go: a
 * request's callbacks have all run before it is written, and a request
 * discarded or cancelled has them removed first.
 */
struct i915_await {
	struct dma_fence_cb cb;
	struct dma_fence *fence;
	struct i915_request *rq;
	struct list_head link;
};

/* The bytes a queued request will take in the ring (i915_ring_begin()). */
static u32 request_bytes(const struct i915_request *rq)
{
	return round_up((rq->num_cmds + I915_REQUEST_DWORDS) * sizeof(u32), 8);
}

/*
 * The most ring bytes the queue may hold before an execbuffer waits.
 * Upstream's queued requests are in its ring already, and it throttles
 * when less than a page of it is left, so that igt measures the ring's
 * capacity by filling it behind a cork (gem_submission_measure()) and
 * then puts that many requests behind a spinner.  Half the ring: the
 * same count must fit in the ring when each request needs a flush the
 * measured ones did not.
 */
#define I915_QUEUE_MAX_BYTES	(I915_RING_SIZE / 2)

static bool fatal_error(int error)
{
	return error && error != -EAGAIN && error != -ETIMEDOUT;
}

static void await_wake(struct dma_fence *fence, struct dma_fence_cb *cb)
{
	struct i915_await *w = container_of(cb, struct i915_await, cb);
	struct i915_request *rq = w->rq;

	if (fatal_error(fence->error))
		cmpxchg(&rq->dep_error, 0, fence->error);
	if (atomic_dec_and_test(&rq->pending))
		queue_work(system_highpri_wq, &rq->ring->submit_work);
}

/* Remove the callbacks that have not run; none runs after this. */
static void request_cancel_awaits(struct i915_request *rq)
{
	struct i915_await *w, *next;

	list_for_each_entry_safe(w, next, &rq->awaits, link) {
		dma_fence_remove_callback(w->fence, &w->cb);
		dma_fence_put(w->fence);
		kfree(w);
	}
	INIT_LIST_HEAD(&rq->awaits);
}

/**
 * i915_request_await - hold a request back until a fence signals
 * @rq: a request not yet submitted
 * @fence: the fence; one of the ring's own, or one signalled already,
 *	needs nothing
 *
 * Return: 0, or -ENOMEM.
 */
int i915_request_await(struct i915_request *rq, struct dma_fence *fence)
{
	struct i915_await *w;

	if (fence->context == rq->ring->fence_context ||
	    test_bit(DMA_FENCE_FLAG_SIGNALED_BIT, &fence->flags))
		return 0;
	list_for_each_entry(w, &rq->awaits, link)
		if (w->fence == fence)
			return 0;

	w = kmalloc(sizeof(*w), GFP_KERNEL);
	if (!w)
		return -ENOMEM;
	w->fence = dma_fence_get(fence);
	w->rq = rq;
	atomic_inc(&rq->pending);
	if (dma_fence_add_callback(fence, &w->cb, await_wake)) {
		/* Signalled meanwhile: nothing to wait for. */
		atomic_dec(&rq->pending);
		dma_fence_put(fence);
		kfree(w);
		return 0;
	}
	list_add_tail(&w->link, &rq->awaits);
	return 0;
}

/**
 * i915_request_commands - room for the request's commands
 * @rq: a request not yet submitted
 * @dwords: how many, written before its breadcrumb
 *
 * Return: where the caller writes exactly @dwords commands, or
 * ERR_PTR(-ENOMEM).  They are copied into the ring when the request is
 * written there, at once or once its dependencies have signalled.
 */
u32 *i915_request_commands(struct i915_request *rq, unsigned int dwords)
{
	if (dwords > ARRAY_SIZE(rq->cmds_inline)) {
		rq->cmds = kvmalloc_array(dwords, sizeof(u32), GFP_KERNEL);
		if (!rq->cmds) {
			rq->cmds = rq->cmds_inline;
			return ERR_PTR(-ENOMEM);
		}
	}
	rq->num_cmds = dwords;
	return rq->cmds;
}

/* Has @rq's client been banned since it was submitted? */
static bool request_banned(struct i915_request *rq)
{
	struct i915_file *fpriv;
	bool banned = false;

	rcu_read_lock();
	fpriv = READ_ONCE(rq->file);
	if (fpriv)
		banned = READ_ONCE(fpriv->banned);
	rcu_read_unlock();
	return banned;
}

/*
 * Write the request into the ring, the ring lock held: its commands
 * (none after a dependency's error, which becomes its own, nor for a
 * client banned or a GPU wedged while it waited: -EIO, as upstream skips
 * a banned context's requests and ends those of a wedge), then its
 * breadcrumb.  Return: 0, or
 * i915_ring_begin()'s error, nothing written.
 */
static int request_write(struct i915_request *rq, struct drm_file *file)
{
	struct i915_ring *ring = rq->ring;
	int error = READ_ONCE(rq->dep_error);
	unsigned int n;
	unsigned long flags;
	u32 *cs;
	int ret;

	if (!error && (request_banned(rq) ||
		       (rq->queued && rq->wedges != READ_ONCE(ring->wedges))))
		error = -EIO;
	n = error ? 0 : rq->num_cmds;
	cs = i915_ring_begin(ring, n + I915_REQUEST_DWORDS);
	if (IS_ERR(cs))
		return PTR_ERR(cs);
	rq->head = (cs - ring->vaddr) * sizeof(*cs);
	memcpy(cs, rq->cmds, n * sizeof(*cs));
	i915_ring_advance(ring, cs + n);
	/* Before the breadcrumb can signal it (a queued one may be watched). */
	if (error) {
		spin_lock_irqsave(&ring->fence_lock, flags);
		if (!test_bit(DMA_FENCE_FLAG_SIGNALED_BIT, &rq->fence.flags))
			dma_fence_set_error(&rq->fence, error);
		spin_unlock_irqrestore(&ring->fence_lock, flags);
	}
	ret = request_emit(rq, file);
	if (ret) {
		i915_ring_rewind(ring);
		return ret;
	}
	return 0;
}

/**
 * i915_request_revoke - skip a banned client's requests left in the ring
 * @ring: the ring, held by a reset (i915_reset.c)
 * @guilty: the request whose hang banned its client, not yet completed
 *
 * Every later request of the same client that has not completed keeps
 * its place and its breadcrumb, but its commands become MI_NOOPs and it
 * completes with -EIO, as upstream's legacy ring revokes a banned
 * context's requests.  Its queued requests meet the ban when they are
 * written (request_write()).
 */
void i915_request_revoke(struct i915_ring *ring, struct i915_request *guilty)
{
	struct i915_file *fpriv = READ_ONCE(guilty->file);
	struct i915_request *rq = guilty;
	unsigned long flags;
	u32 len;

	if (!fpriv)
		return;
	spin_lock_irqsave(&ring->fence_lock, flags);
	list_for_each_entry_continue(rq, &ring->requests, link) {
		if (READ_ONCE(rq->file) != fpriv ||
		    dma_fence_is_signaled_locked(&rq->fence))
			continue;
		dma_fence_set_error(&rq->fence, -EIO);
		len = (rq->postfix - rq->head) & (ring->size - 1);
		memset32(ring->vaddr + rq->head / 4, I915_MI_NOOP, len / 4);
	}
	spin_unlock_irqrestore(&ring->fence_lock, flags);
	/* The NOOPs are in memory before the ring restarts. */
	wmb();
}

/*
 * Take a queued request off the queue onto @list, completing it with
 * @error if it has not completed; the ring lock held.
 */
static void queue_cancel(struct i915_request *rq, int error,
			 struct list_head *list)
{
	struct i915_ring *ring = rq->ring;
	unsigned long flags;

	spin_lock_irqsave(&ring->fence_lock, flags);
	if (!dma_fence_is_signaled_locked(&rq->fence)) {
		dma_fence_set_error(&rq->fence, error);
		dma_fence_signal_locked(&rq->fence);
	}
	list_move_tail(&rq->link, list);
	spin_unlock_irqrestore(&ring->fence_lock, flags);
	ring->queued_bytes -= request_bytes(rq);
}

/*
 * Write the requests at the head of the queue whose dependencies have
 * all signalled, in order, and stop at the first that still waits (all
 * of them if @drain: unbind).  On a wedged GPU they complete with -EIO
 * instead, as upstream's do once their dependencies signal.  Those are
 * retired once the ring lock is dropped.
 */
static void queue_submit(struct i915_ring *ring, bool drain)
{
	struct i915_request *rq, *next;
	LIST_HEAD(cancelled);
	int ret;

	mutex_lock(&ring->lock);
	while ((rq = list_first_entry_or_null(&ring->queue,
					      struct i915_request, link))) {
		if (atomic_read(&rq->pending) && !drain)
			break;
		if (READ_ONCE(ring->wedged) || drain) {
			queue_cancel(rq, -EIO, &cancelled);
			continue;
		}
		ring->queued_bytes -= request_bytes(rq);
		ret = request_write(rq, NULL);
		if (!ret)
			continue;
		ring->queued_bytes += request_bytes(rq);
		/* Suspended: the resume queues this work again. */
		if (ret == -EAGAIN)
			break;
		/* The ring is gone (a wedge, a stuck head): -EIO. */
		queue_cancel(rq, -EIO, &cancelled);
	}
	mutex_unlock(&ring->lock);
	wake_up_all(&ring->queue_wait);

	list_for_each_entry_safe(rq, next, &cancelled, link)
		request_retire(rq);
}

static void submit_work_fn(struct work_struct *work)
{
	queue_submit(container_of(work, struct i915_ring, submit_work), false);
}

/**
 * i915_request_throttle - wait while the queue holds a ring's worth
 * @i915: the device
 * @nonblock: the caller's file is O_NONBLOCK: do not wait
 *
 * Requests queued behind a dependency take no room in the ring yet, but
 * as upstream (where they are in the ring already) a client may queue
 * only about a ring's worth of them before it waits for the queue to
 * move.  Call it with no lock held.
 *
 * Return: 0; -EWOULDBLOCK if the queue is full and @nonblock; -EINTR on
 * a signal, as upstream.
 */
int i915_request_throttle(struct i915_device *i915, bool nonblock)
{
	struct i915_ring *ring = &i915->ring;

	if (READ_ONCE(ring->queued_bytes) <= I915_QUEUE_MAX_BYTES)
		return 0;
	if (nonblock)
		return -EWOULDBLOCK;
	if (wait_event_interruptible(ring->queue_wait,
				     READ_ONCE(ring->queued_bytes) <=
				     I915_QUEUE_MAX_BYTES ||
				     READ_ONCE(ring->wedged)))
		return -EINTR;
	return 0;
}

/**
 * i915_request_submit - write a request into the ring, or queue it
 * @rq: the request, from i915_request_create(), its commands filled in
 *	(i915_request_commands()) and its dependencies added
 *	(i915_request_await())
 * @file: the client the work belongs to, or NULL for the driver's own
 *
 * With its dependencies signalled and nothing queued before it, the
 * request is written into the ring now; otherwise it takes its seqno and
 * its place in the ring's order now and is queued.  Either way it is
 * published from here on: the caller puts its fence into the objects'
 * dma_resv and hands it out.  The caller's reference is the one
 * i915_request_create() gave; the ring holds another until retirement.
 *
 * Return: 0, or -EIO if the GPU is wedged, -EAGAIN while the device is
 * suspended, -EINTR or -ERESTARTSYS on a signal (taking the ring lock or
 * waiting for ring space); the request is then unchanged.
 */
int i915_request_submit(struct i915_request *rq, struct drm_file *file)
{
	struct i915_ring *ring = rq->ring;
	unsigned long flags;
	int ret;

	ret = mutex_lock_interruptible(&ring->lock);
	if (ret)
		return ret;
	if (list_empty(&ring->queue) && atomic_read(&rq->pending) == 1) {
		ret = request_write(rq, file);
		goto out_unlock;
	}
	if (ring->suspended) {
		ret = -EAGAIN;
		goto out_unlock;
	}

	spin_lock_irqsave(&ring->fence_lock, flags);
	/* A wedge cancels what is on the queue under this lock. */
	if (ring->wedged) {
		spin_unlock_irqrestore(&ring->fence_lock, flags);
		ret = -EIO;
		goto out_unlock;
	}
	rq->queued = true;
	rq->wedges = ring->wedges;
	list_add_tail(&rq->link, &ring->queue);
	if (fence_wants_irq(rq))
		i915_irq_user_arm(ring_to_i915(ring));
	spin_unlock_irqrestore(&ring->fence_lock, flags);
	request_enter(rq, file);
	ring->queued_bytes += request_bytes(rq);
	trace_i915_request_emit(rq);
	/* The submitter's count: the last dependency may have signalled. */
	if (atomic_dec_and_test(&rq->pending))
		queue_work(system_highpri_wq, &ring->submit_work);
out_unlock:
	mutex_unlock(&ring->lock);
	return ret;
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
	if (idle || seqno != ring->hang_seqno) {
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

/*
 * The newest request with a reference, queued (if @queued) or written
 * into the ring, or NULL when none is left.
 */
static struct i915_request *ring_last_request(struct i915_ring *ring,
					      bool queued)
{
	struct i915_request *rq = NULL;
	unsigned long flags;

	spin_lock_irqsave(&ring->fence_lock, flags);
	if (queued && !list_empty(&ring->queue)) {
		rq = list_last_entry(&ring->queue, struct i915_request, link);
		dma_fence_get(&rq->fence);
	} else if (!list_empty(&ring->requests)) {
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
		rq = ring_last_request(ring, true);
		if (!rq)
			return READ_ONCE(ring->wedged) ? -EIO : 0;

		ret = dma_fence_wait(&rq->fence, true);
		if (!ret)
			ret = rq->fence.error;
		i915_request_put(rq);
		if (ret)
			return ret;
		/* The older ones, whose interrupts may have been masked. */
		i915_request_retire(i915);
	}
}

/**
 * i915_request_retire - retire every request that has completed, now
 * @i915: the device
 *
 * Signals what the breadcrumb has passed (in case its interrupt is still
 * on its way) and runs the retire worker to its end, so that completed
 * requests are off the ring's list when this returns.
 */
void i915_request_retire(struct i915_device *i915)
{
	i915_request_signal(i915);
	flush_work(&i915->ring.submit_work);
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

	/* Retire what the wedge completed, before the ring lock is taken. */
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
	drm_printf(p, "queued: %u bytes\n", READ_ONCE(ring->queued_bytes));

	spin_lock_irqsave(&ring->fence_lock, flags);
	list_for_each_entry(rq, &ring->requests, link)
		drm_printf(p, "seqno %llu: age %u ms, %s, error %d, %u objects, tail 0x%x\n",
			   rq->fence.seqno,
			   jiffies_to_msecs(jiffies - rq->emitted),
			   dma_fence_is_signaled_locked(&rq->fence) ?
			   "completed" : "running", rq->fence.error,
			   rq->num_objects, rq->tail);
	list_for_each_entry(rq, &ring->queue, link)
		drm_printf(p, "seqno %llu: age %u ms, %s, error %d, %u objects, %d dependencies\n",
			   rq->fence.seqno,
			   jiffies_to_msecs(jiffies - rq->emitted),
			   dma_fence_is_signaled_locked(&rq->fence) ?
			   "cancelled" : "queued", rq->fence.error,
			   rq->num_objects, atomic_read(&rq->pending));
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
	INIT_LIST_HEAD(&ring->queue);
	init_waitqueue_head(&ring->queue_wait);
	INIT_WORK(&ring->submit_work, submit_work_fn);
	ring->fence_context = dma_fence_context_alloc(1);
	ring->next_seqno = 1;
	ring->hws[I915_HWS_SEQNO_INDEX] = 0;
	INIT_WORK(&ring->retire_work, retire_work_fn);
	INIT_DELAYED_WORK(&ring->retire_tick, retire_tick_fn);
	INIT_DELAYED_WORK(&ring->hangcheck_work, hangcheck_work_fn);
	init_llist_head(&ring->expired);
	INIT_WORK(&ring->expire_work, expire_work_fn);
	return 0;
}

/*
 * Wait uninterruptibly, up to @timeout_ms in all, for every outstanding
 * request (and every queued one if @queued), retiring the completed
 * ones.  Return: true if the GPU is idle.
 */
static bool wait_idle_timeout(struct i915_device *i915,
			      unsigned int timeout_ms, bool queued)
{
	unsigned long end = jiffies + msecs_to_jiffies(timeout_ms);
	struct i915_ring *ring = &i915->ring;
	struct i915_request *rq;
	long left, done;

	while ((rq = ring_last_request(ring, queued))) {
		left = time_after(end, jiffies) ? end - jiffies : 0;
		done = dma_fence_wait_timeout(&rq->fence, false, left);
		i915_request_put(rq);
		/* The older ones, whose interrupts may have been masked. */
		i915_request_retire(i915);
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
	flush_work(&i915->ring.submit_work);
	if (wait_idle_timeout(i915, I915_UNLOAD_IDLE_MS, true))
		return;
	drm_notice(&i915->drm, "GPU still busy %u ms into the unbind\n",
		   I915_UNLOAD_IDLE_MS);
	mutex_lock(&i915->reset_lock);
	if (!READ_ONCE(i915->ring.wedged))
		i915_reset_wedge(i915);
	mutex_unlock(&i915->reset_lock);
	/* What still waits for a dependency completes with -EIO now. */
	queue_submit(&i915->ring, true);
	/* Every fence has signalled: this only retires. */
	wait_idle_timeout(i915, I915_UNLOAD_IDLE_MS, true);
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
 * and the hang check stops.  Requests still queued behind a dependency
 * stay queued, and are written into the ring after the resume.
 */
void i915_request_suspend(struct i915_device *i915)
{
	unsigned long end = jiffies + msecs_to_jiffies(I915_SUSPEND_MAX_MS);
	struct i915_ring *ring = &i915->ring;
	u32 seqno = hws_seqno(ring);

	flush_work(&ring->submit_work);
	mutex_lock(&ring->lock);
	ring->suspended = true;
	mutex_unlock(&ring->lock);

	while (!wait_idle_timeout(i915, I915_SUSPEND_IDLE_MS, false)) {
		/* a request completed meanwhile: the GPU is getting there */
		if (hws_seqno(ring) != seqno && time_before(jiffies, end)) {
			seqno = hws_seqno(ring);
			continue;
		}
		i915_request_wedge(i915);
	}
	cancel_delayed_work_sync(&ring->hangcheck_work);
	cancel_delayed_work_sync(&ring->retire_tick);
	i915_request_retire(i915);
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
	/* Requests queued meanwhile whose dependencies have signalled. */
	queue_work(system_highpri_wq, &ring->submit_work);
	/* Nothing is outstanding: the next request arms the hang check. */
}

/**
 * i915_request_fini - stop request tracking
 * @i915: the device, quiesced
 */
void i915_request_fini(struct i915_device *i915)
{
	cancel_work_sync(&i915->ring.submit_work);
	cancel_delayed_work_sync(&i915->ring.hangcheck_work);
	cancel_delayed_work_sync(&i915->ring.retire_tick);
	cancel_work_sync(&i915->ring.retire_work);
	/* Every request is retired: an expiry that fired only drops refs. */
	flush_work(&i915->ring.expire_work);
}
