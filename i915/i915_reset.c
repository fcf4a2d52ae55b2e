// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: GPU reset
 *
 * What happens when the GPU hangs.  The hang check (i915_request.c) hands
 * the device to i915_reset_handle(), always from the hang-check worker: a
 * hang is declared when the breadcrumb has not moved for 3 checks with
 * ACTHD stuck, or for 30 with ACTHD moving (a batch running past its
 * bound; 5 when its client has closed its file).  An engine stopped by an
 * error (an instruction or page-table error) is a stuck one: as upstream's,
 * the error interrupt (i915_irq.c) is only acknowledged, and the
 * instruction error is not even unmasked; the error state captured at the
 * reset shows EIR, IPEIR and IPEHR as the error left them.
 *
 * With the module parameter reset (default 1, writable at run time) set,
 * the GPU is reset through GDRST in its PCI config space with upstream's
 * sequence for the platform: 915/945/965 assert the reset and wait for
 * the status bit, then release it (i915_do_reset); G33 and Pineview set
 * the enable bit and wait for the GPU to clear it (g33_do_reset); G4x
 * reset the media domain and then the render domain the same way, with
 * the VCP's clock gating disabled around it (g4x_do_reset).  The engine
 * stops wherever it was; memory is untouched.  Then:
 *
 *  - the guilty request is the one whose batch ACTHD was in when the hang
 *    was declared, else the oldest one still running; it completes with
 *    -EIO: its fence's error (a sync_file's status); waits on its
 *    objects answer 0, as upstream's;
 *  - interrupts are programmed again and the ring is restarted at the
 *    guilty request's breadcrumb: every request queued behind it runs
 *    from the ring exactly as it was emitted, so innocent clients lose
 *    nothing;
 *  - the guilty file's default context is marked as upstream marks a
 *    context: its hang count grows (GET_RESET_STATS batch_active) and,
 *    if it is bannable, a third hang within 120 s (or any hang when it is
 *    not recoverable) bans it: its later execbuffers fail with -EIO,
 *    and its requests behind the guilty one, in the ring or queued, are
 *    skipped (their commands not run, their fences -EIO), as upstream
 *    revokes a banned context's requests.  Other clients are unaffected.
 *
 * Only when the reset itself fails, or with reset=0, is the device wedged
 * (i915_request_wedge(): every outstanding request completes with -EIO and
 * new work is refused).  A wedged GPU is still reset (if the reset works)
 * so that a batch that loops stops touching memory that is being reused:
 * STOP_RING does not stop a batch, and these GPUs drive no display here
 * that a reset could disturb.
 *
 * debugfs i915_wedged (upstream's semantics): reads 1 while the device is
 * wedged; writing an engine mask that includes the render engine (bit 0;
 * igt writes -1) resets the GPU now as if it had hung (the running
 * request, if any, is guilty), and recovers a wedged device if the reset
 * works; with reset=0 it wedges the device instead.
 *
 * Locking: &i915_device.reset_lock serialises resets (the hang-check
 * worker and debugfs); it is taken with nothing else held and only
 * &i915_ring.fence_lock and &i915_ring.hw_lock are taken inside it.  A
 * reset never takes &i915_ring.lock, because an emitter may hold it while
 * it waits for ring space that only the reset frees.  Instead, while
 * &i915_ring.in_reset is set (under &i915_ring.hw_lock), emission keeps
 * writing into the ring but leaves the tail register alone, and measures
 * free space from the head the GPU had before the reset; the restart
 * writes the tail register with everything emitted meanwhile.
 *
 * Also here: I915_GET_RESET_STATS for the default context (0), the only
 * context this driver has (its parameters: i915_gem_context.c).
 */

#include <drm/drm_file.h>
#include <drm/drm_print.h>
#include <linux/capability.h>
#include <linux/delay.h>
#include <linux/iopoll.h>
#include <linux/jiffies.h>
#include <linux/moduleparam.h>
#include <linux/pci.h>
#include <linux/rcupdate.h>
#include <uapi/drm/i915_drm.h>

#include "i915_drv.h"
#include "i915_reg.h"

static unsigned int i915_reset_param = 1;
module_param_named(reset, i915_reset_param, uint, 0600);
MODULE_PARM_DESC(reset,
		 "Reset the GPU when it hangs (0 = no: wedge the device; any other value = yes; default 1)");

/**
 * i915_reset_enabled - will a hang reset the GPU?
 *
 * Every Gen3/Gen4 part can reset its GPU (GDRST); the reset parameter
 * says whether a hang does, or wedges the device instead.
 *
 * Return: true unless the reset parameter is 0.
 */
bool i915_reset_enabled(void)
{
	return READ_ONCE(i915_reset_param);
}

/*
 * How long each step of the GDRST handshake may take, as upstream.  The
 * poll sleeps between reads (upstream spins): the reset runs in a worker,
 * and the model's engine needs a CPU to notice it.
 */
#define I915_GDRST_TIMEOUT_US		50000
#define I915_GDRST_POLL_US		20
/* How long the reset is asserted before it is checked (upstream). */
#define I915_GDRST_ASSERT_US		50
/*
 * Handshakes tried in a row, and rounds of them, the first pause between
 * rounds (growing by as much each round): upstream's RESET_MAX_RETRIES
 * and do_reset()'s msleep().
 */
#define I915_RESET_TRIES		3
#define I915_RESET_PAUSE_MS		10

/* Hangs a bannable context may have within this time before the next bans it. */
#define I915_FAST_HANG_JIFFIES		(120 * HZ)

/* The engine mask bit of the render engine (debugfs i915_wedged). */
#define I915_ENGINE_RENDER		BIT_ULL(0)

static u8 gdrst_read(struct pci_dev *pdev)
{
	u8 v = 0;

	pci_read_config_byte(pdev, I915_PCI_GDRST, &v);
	return v;
}

/* 915G/GM, 945G/GM and the 965G family: status bit handshake. */
static int i915_do_reset(struct i915_device *i915)
{
	struct pci_dev *pdev = i915->hw.pdev;
	int ret, ret2;
	u8 v;

	pci_write_config_byte(pdev, I915_PCI_GDRST, I915_GDRST_RESET_ENABLE);
	udelay(I915_GDRST_ASSERT_US);
	ret = read_poll_timeout(gdrst_read, v, v & I915_GDRST_RESET_STATUS,
				I915_GDRST_POLL_US, I915_GDRST_TIMEOUT_US, false,
				pdev);
	pci_write_config_byte(pdev, I915_PCI_GDRST, 0);
	udelay(I915_GDRST_ASSERT_US);
	ret2 = read_poll_timeout(gdrst_read, v, !(v & I915_GDRST_RESET_STATUS),
				 I915_GDRST_POLL_US, I915_GDRST_TIMEOUT_US, false,
				 pdev);
	return ret ?: ret2;
}

/* G33, Pineview and G4x: the GPU clears the enable bit once done. */
static int g33_reset_domain(struct pci_dev *pdev, u8 domain)
{
	u8 v;

	pci_write_config_byte(pdev, I915_PCI_GDRST,
			      domain | I915_GDRST_RESET_ENABLE);
	return read_poll_timeout(gdrst_read, v, !(v & I915_GDRST_RESET_ENABLE),
				 I915_GDRST_POLL_US, I915_GDRST_TIMEOUT_US, false,
				 pdev);
}

static int g4x_do_reset(struct i915_device *i915)
{
	struct i915_hw *hw = &i915->hw;
	int ret;

	/* The media reset needs the VCP clocked. */
	i915_write(hw, G4X_VDECCLK_GATE_D, i915_read(hw, G4X_VDECCLK_GATE_D) |
		   G4X_VCP_UNIT_CLOCK_GATE_DISABLE);
	i915_posting_read(hw, G4X_VDECCLK_GATE_D);

	ret = g33_reset_domain(hw->pdev, I915_GDRST_DOMAIN_MEDIA);
	if (!ret)
		ret = g33_reset_domain(hw->pdev, I915_GDRST_DOMAIN_RENDER);

	pci_write_config_byte(hw->pdev, I915_PCI_GDRST, 0);
	i915_write(hw, G4X_VDECCLK_GATE_D, i915_read(hw, G4X_VDECCLK_GATE_D) &
		   ~G4X_VCP_UNIT_CLOCK_GATE_DISABLE);
	i915_posting_read(hw, G4X_VDECCLK_GATE_D);
	return ret;
}

/*
 * G33 and Pineview are the Gen3 parts whose status page is in the GTT
 * (upstream's HWS_NEEDS_PHYSICAL is set for every other Gen3 part).
 */
static bool is_g33_class(const struct i915_device_info *info)
{
	return info->gen == 3 && !info->hws_needs_physical;
}

/* The platform's GDRST sequence once; 0 or -ETIMEDOUT. */
static int reset_hw_once(struct i915_device *i915)
{
	if (i915->info->is_g4x)
		return g4x_do_reset(i915);
	if (is_g33_class(i915->info))
		return g33_reset_domain(i915->hw.pdev, I915_GDRST_DOMAIN_FULL);
	return i915_do_reset(i915);
}

/* A few tries in a row while the handshake times out. */
static int reset_hw_tries(struct i915_device *i915)
{
	int ret = -ETIMEDOUT;
	int i;

	for (i = 0; ret == -ETIMEDOUT && i < I915_RESET_TRIES; i++)
		ret = reset_hw_once(i915);
	return ret;
}

/*
 * Reset the GPU: as upstream, a reset whose handshake times out is
 * tried again at once, and the whole again after a growing pause, so
 * that a GPU slow to stop (or a CPU busy elsewhere while it polls) does
 * not wedge the device.  0 or -ETIMEDOUT.
 */
static int reset_hw(struct i915_device *i915)
{
	int ret, i;

	ret = reset_hw_tries(i915);
	for (i = 0; ret && i < I915_RESET_TRIES; i++) {
		msleep(I915_RESET_PAUSE_MS * (i + 1));
		ret = reset_hw_tries(i915);
	}
	if (ret)
		drm_err(&i915->drm, "GPU reset (GDRST) did not complete: %d\n",
			ret);
	return ret;
}

/* Is @addr in the batch of @rq? */
static bool request_runs(const struct i915_request *rq, u32 addr)
{
	return rq->batch_end && addr >= rq->batch_start && addr < rq->batch_end;
}

/*
 * The request to blame, with a reference, or NULL when none is running:
 * the one whose batch holds @acthd, else the oldest not yet completed.
 */
static struct i915_request *find_guilty(struct i915_ring *ring, u32 acthd)
{
	struct i915_request *rq, *oldest = NULL, *found = NULL;
	unsigned long flags;

	spin_lock_irqsave(&ring->fence_lock, flags);
	list_for_each_entry(rq, &ring->requests, link) {
		if (dma_fence_is_signaled_locked(&rq->fence))
			continue;
		if (!oldest)
			oldest = rq;
		if (request_runs(rq, acthd)) {
			found = rq;
			break;
		}
	}
	if (!found)
		found = oldest;
	if (found)
		dma_fence_get(&found->fence);
	spin_unlock_irqrestore(&ring->fence_lock, flags);
	return found;
}

/*
 * Upstream's mark_guilty() for the default context of @rq's file.
 * Return: whether the file is banned now.
 */
static bool file_mark_guilty(struct i915_device *i915, struct i915_request *rq)
{
	struct i915_file *fpriv;
	unsigned long prev;
	bool banned = false;

	rcu_read_lock();
	fpriv = READ_ONCE(rq->file);
	if (!fpriv)
		goto out;
	spin_lock(&fpriv->lock);
	if (!rq->file)
		goto out_unlock;
	fpriv->guilty_count++;
	if (fpriv->unbannable)
		goto out_unlock;
	prev = fpriv->hang_time[0];
	banned = fpriv->hangs >= ARRAY_SIZE(fpriv->hang_time) &&
		 time_before(jiffies, prev + I915_FAST_HANG_JIFFIES);
	memmove(&fpriv->hang_time[0], &fpriv->hang_time[1],
		sizeof(fpriv->hang_time) - sizeof(fpriv->hang_time[0]));
	fpriv->hang_time[ARRAY_SIZE(fpriv->hang_time) - 1] = jiffies;
	fpriv->hangs++;
	if (fpriv->unrecoverable)
		banned = true;
	if (banned && !fpriv->banned) {
		WRITE_ONCE(fpriv->banned, true);
		drm_notice(&i915->drm, "client %llu banned after %u hangs\n",
			   fpriv->id, fpriv->guilty_count);
	}
	banned = fpriv->banned;
out_unlock:
	spin_unlock(&fpriv->lock);
out:
	rcu_read_unlock();
	return banned;
}

/*
 * The guilty request completes with -EIO now (its breadcrumb will run
 * again after the restart and change nothing).
 */
static void cancel_guilty(struct i915_device *i915, struct i915_request *rq)
{
	struct i915_ring *ring = &i915->ring;
	unsigned long flags;

	spin_lock_irqsave(&ring->fence_lock, flags);
	if (!dma_fence_is_signaled_locked(&rq->fence)) {
		/* An expired request keeps its -EINTR (upstream: set once). */
		if (!rq->fence.error)
			dma_fence_set_error(&rq->fence, -EIO);
		dma_fence_signal_locked(&rq->fence);
	}
	spin_unlock_irqrestore(&ring->fence_lock, flags);
}

/* Stop emission from touching the tail register; remember the head. */
static void ring_hold(struct i915_device *i915)
{
	struct i915_ring *ring = &i915->ring;
	u32 head = i915_read(&i915->hw, I915_RING_HEAD) & I915_HEAD_ADDR;

	spin_lock(&ring->hw_lock);
	ring->held_head = head;
	WRITE_ONCE(ring->in_reset, true);
	spin_unlock(&ring->hw_lock);
}

/*
 * Reset the GPU and put it back to work, the guilty request (if any)
 * cancelled.  Called with &i915_device.reset_lock held.  Return: 0, or
 * the errno of a reset that failed (the device is then wedged).
 */
static int reset_and_restart(struct i915_device *i915, bool stalled,
			     bool capture)
{
	struct i915_ring *ring = &i915->ring;
	struct i915_request *guilty = NULL;
	u32 acthd = i915_ring_acthd(i915);
	u32 head;
	int ret;

	lockdep_assert_held(&i915->reset_lock);
	ring_hold(i915);
	if (stalled)
		guilty = find_guilty(ring, acthd);

	if (capture)
		i915_request_capture_error(i915, guilty);

	ret = reset_hw(i915);
	if (ret)
		goto err;
	atomic_inc(&i915->reset_count);

	head = ring->held_head;
	if (guilty) {
		drm_notice(&i915->drm, "GPU hang: request %llu reset (ACTHD 0x%08x)\n",
			   guilty->fence.seqno, acthd);
		head = guilty->postfix;
		/* Before the guilty one completes and may leave the list. */
		if (file_mark_guilty(i915, guilty))
			i915_request_revoke(ring, guilty);
		cancel_guilty(i915, guilty);
	}

	i915_irq_resume(i915);
	i915_irq_clear_errors(i915);
	ret = i915_ring_restart(i915, head);
	if (ret)
		goto err;
	ring->hang_score = 0;
	if (guilty)
		i915_request_put(guilty);
	i915_request_signal(i915);
	return 0;

err:
	if (guilty)
		i915_request_put(guilty);
	i915_irq_resume(i915);
	i915_request_wedge(i915);
	i915_ring_release(i915);
	return ret;
}

/*
 * The running request is guilty: reset the GPU (capturing the error state
 * if @capture), or wedge it when resets are off or the reset fails.
 */
static void reset_guilty(struct i915_device *i915, bool capture)
{
	mutex_lock(&i915->reset_lock);
	if (READ_ONCE(i915->ring.wedged))
		goto out;
	if (!READ_ONCE(i915_reset_param)) {
		i915_reset_wedge(i915);
		goto out;
	}
	reset_and_restart(i915, true, capture);
out:
	mutex_unlock(&i915->reset_lock);
}

/**
 * i915_reset_handle - the GPU hung: reset it, or wedge it
 * @i915: the device
 *
 * Called from the hang-check worker.  With the reset parameter set the
 * GPU is reset and the guilty request cancelled (see the DOC: above);
 * otherwise, or if the reset fails, the device is wedged.
 */
void i915_reset_handle(struct i915_device *i915)
{
	reset_guilty(i915, true);
}

/**
 * i915_reset_expired - a request's request_timeout_ms ran out: reset
 * @i915: the device
 *
 * Called from the expiry worker (i915_request.c), as upstream's legacy
 * ring cancels an expired request: with no preemption to end just that
 * request, the GPU is reset as for a hang (the running request guilty,
 * counted towards its client's ban), but no error state is captured.
 * With reset=0, or if the reset fails, the device is wedged.
 */
void i915_reset_expired(struct i915_device *i915)
{
	reset_guilty(i915, false);
}

/**
 * i915_reset_wedge - wedge the device and stop its engine
 * @i915: the device, &i915_device.reset_lock held
 *
 * Every outstanding request completes with -EIO and new work is refused
 * until debugfs i915_wedged recovers the device.  The engine is reset
 * (if that works) so that a batch that still runs stops.
 */
void i915_reset_wedge(struct i915_device *i915)
{
	lockdep_assert_held(&i915->reset_lock);
	ring_hold(i915);
	i915_request_capture_error(i915, NULL);
	reset_hw(i915);
	i915_request_wedge(i915);
	i915_irq_resume(i915);
	i915_ring_release(i915);
}

/**
 * i915_reset_debugfs_set - debugfs i915_wedged written
 * @i915: the device
 * @engines: engine mask; only the render engine's bit counts
 *
 * As upstream: resets the GPU now with the running request guilty,
 * recovering a wedged device; with reset=0 wedges it instead.
 *
 * Return: 0, or a negative errno if a wedged device could not be
 * recovered (requests still outstanding, a signal).
 */
int i915_reset_debugfs_set(struct i915_device *i915, u64 engines)
{
	int ret = 0;

	if (!(engines & I915_ENGINE_RENDER))
		return 0;

	mutex_lock(&i915->reset_lock);
	if (!READ_ONCE(i915_reset_param)) {
		if (!READ_ONCE(i915->ring.wedged))
			i915_reset_wedge(i915);
		goto out;
	}
	if (READ_ONCE(i915->ring.wedged)) {
		ring_hold(i915);
		ret = reset_hw(i915);
		i915_irq_resume(i915);
		i915_ring_release(i915);
		if (!ret)
			ret = i915_request_unwedge(i915);
		goto out;
	}
	ret = reset_and_restart(i915, true, true);
out:
	mutex_unlock(&i915->reset_lock);
	return ret;
}

/**
 * i915_reset_init - set up the reset state of a device
 * @i915: the device
 */
void i915_reset_init(struct i915_device *i915)
{
	mutex_init(&i915->reset_lock);
	spin_lock_init(&i915->ring.hw_lock);
}

/* --- the default context's reset statistics ------------------------------ */

/**
 * i915_reset_stats_ioctl - GET_RESET_STATS
 * @dev: DRM device
 * @data: &struct drm_i915_reset_stats
 * @file: DRM file
 *
 * For context 0, the only one: reset_count (the device's resets, for
 * CAP_SYS_ADMIN only, else 0), batch_active (resets this file's requests
 * were guilty of) and batch_pending (resets in which one of its requests
 * was running without being guilty: never, with one engine).
 *
 * Return: 0, -EINVAL for flags or pad, -ENOENT for another context.
 */
int i915_reset_stats_ioctl(struct drm_device *dev, void *data,
			   struct drm_file *file)
{
	struct drm_i915_reset_stats *args = data;
	struct i915_file *fpriv = file->driver_priv;

	if (args->flags || args->pad)
		return -EINVAL;
	if (args->ctx_id)
		return -ENOENT;

	args->reset_count = capable(CAP_SYS_ADMIN) ?
			    atomic_read(&to_i915(dev)->reset_count) : 0;
	spin_lock(&fpriv->lock);
	args->batch_active = fpriv->guilty_count;
	args->batch_pending = fpriv->innocent_count;
	spin_unlock(&fpriv->lock);
	return 0;
}
