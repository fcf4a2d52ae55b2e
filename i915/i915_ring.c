// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: the render ring
 *
 * The ring buffer the command streamer fetches from and its hardware
 * status page: allocating both, programming the ring registers (the
 * bring-up sequence of the fact sheet, section 3.6) and emitting commands
 * with wrap-around and waiting for space.  The CPU writes the ring through
 * a write-combining mapping, so a write barrier and the chipset flush make
 * new commands visible before the tail register moves.
 *
 * Space is the only credit: when the ring is full, emission waits for the
 * oldest request whose completion frees enough of it.  An emission that
 * does not fit before the end of the ring fills the end with MI_NOOP and
 * hands those to the GPU at once (the tail register moves to 0), so that
 * the head can follow the tail around and free the start of the ring.
 * One emission may reserve up to %I915_RING_MAX_EMIT dwords: all of the
 * ring but the guard distance, which is always free once the GPU has
 * caught up, wherever the tail stood.
 */

#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "i915_cmd.h"
#include "i915_drv.h"
#include "i915_reg.h"

/*
 * How long the head may stand still, with no request outstanding, before
 * the GPU counts as stuck (longer than the model's largest per-command
 * delay).
 */
#define I915_RING_IDLE_TIMEOUT_MS	2000
/* How long the ring-valid bit may take to stick after the CTL write. */
#define I915_RING_START_US	5000

static void ring_free_pages(struct device *dev, struct i915_ring *ring,
			    unsigned int count)
{
	while (count--) {
		dma_unmap_page(dev, ring->dma[count], PAGE_SIZE,
			       DMA_BIDIRECTIONAL);
		__free_page(ring->pages[count]);
	}
	kfree(ring->dma);
	kfree(ring->pages);
}

static int ring_alloc_pages(struct device *dev, struct i915_ring *ring)
{
	unsigned int i, n = ring->size >> PAGE_SHIFT;

	ring->pages = kcalloc(n, sizeof(*ring->pages), GFP_KERNEL);
	ring->dma = kcalloc(n, sizeof(*ring->dma), GFP_KERNEL);
	if (!ring->pages || !ring->dma)
		goto err;

	for (i = 0; i < n; i++) {
		ring->pages[i] = alloc_page(GFP_KERNEL | GFP_DMA32 |
					    __GFP_ZERO);
		if (!ring->pages[i])
			goto err_pages;
		ring->dma[i] = dma_map_page(dev, ring->pages[i], 0, PAGE_SIZE,
					    DMA_BIDIRECTIONAL);
		if (dma_mapping_error(dev, ring->dma[i])) {
			__free_page(ring->pages[i]);
			goto err_pages;
		}
	}
	return 0;

err_pages:
	ring_free_pages(dev, ring, i);
	return -ENOMEM;
err:
	kfree(ring->dma);
	kfree(ring->pages);
	return -ENOMEM;
}

static int ring_create(struct i915_device *i915)
{
	struct i915_ring *ring = &i915->ring;
	struct device *dev = i915->drm.dev;
	unsigned int n;
	int ret;

	ring->size = I915_RING_SIZE;
	n = ring->size >> PAGE_SHIFT;
	ret = ring_alloc_pages(dev, ring);
	if (ret)
		return ret;

	ring->vaddr = vmap(ring->pages, n, VM_MAP,
			   pgprot_writecombine(PAGE_KERNEL));
	if (!ring->vaddr) {
		ret = -ENOMEM;
		goto err_pages;
	}

	ret = i915_gtt_map_kernel(i915, ring->dma, n, I915_GTT_UNCACHED,
				  &ring->gtt_offset);
	if (ret)
		goto err_vunmap;
	return 0;

err_vunmap:
	vunmap(ring->vaddr);
err_pages:
	ring_free_pages(dev, ring, n);
	return ret;
}

static void ring_destroy(struct i915_device *i915)
{
	struct i915_ring *ring = &i915->ring;

	/* No GTT entry may point at a page once it is freed. */
	i915_gtt_unmap_kernel(i915, ring->gtt_offset,
			      ring->size >> PAGE_SHIFT);
	vunmap(ring->vaddr);
	ring_free_pages(i915->drm.dev, ring, ring->size >> PAGE_SHIFT);
}

static int hws_create(struct i915_device *i915)
{
	struct i915_ring *ring = &i915->ring;
	struct device *dev = i915->drm.dev;
	int ret;

	/* Below 4 GiB: status pages above it caused wild writes. */
	ring->hws_page = alloc_page(GFP_KERNEL | GFP_DMA32 | __GFP_ZERO);
	if (!ring->hws_page)
		return -ENOMEM;
	ring->hws = page_address(ring->hws_page);

	ring->hws_dma = dma_map_page(dev, ring->hws_page, 0, PAGE_SIZE,
				     DMA_BIDIRECTIONAL);
	if (dma_mapping_error(dev, ring->hws_dma)) {
		ret = -ENOMEM;
		goto err_free;
	}

	if (!i915->info->hws_needs_physical) {
		ret = i915_gtt_map_kernel(i915, &ring->hws_dma, 1,
					  I915_GTT_SNOOPED, &ring->hws_gtt);
		if (ret)
			goto err_unmap;
	}
	return 0;

err_unmap:
	dma_unmap_page(dev, ring->hws_dma, PAGE_SIZE, DMA_BIDIRECTIONAL);
err_free:
	__free_page(ring->hws_page);
	return ret;
}

static void hws_destroy(struct i915_device *i915)
{
	struct i915_ring *ring = &i915->ring;

	if (!i915->info->hws_needs_physical)
		i915_gtt_unmap_kernel(i915, ring->hws_gtt, 1);
	dma_unmap_page(i915->drm.dev, ring->hws_dma, PAGE_SIZE,
		       DMA_BIDIRECTIONAL);
	__free_page(ring->hws_page);
}

/* HWS_PGA: a physical address (bits 35:32 in 7:4 on Gen4) or GTT offset. */
static u32 hws_pga_value(struct i915_device *i915)
{
	struct i915_ring *ring = &i915->ring;
	u64 addr = ring->hws_dma;

	if (!i915->info->hws_needs_physical)
		return ring->hws_gtt;
	if (i915->info->gen < 4)
		return lower_32_bits(addr) & I915_HWS_ADDR_MASK;
	return (lower_32_bits(addr) & I915_HWS_ADDR_MASK) |
	       ((addr >> I965_HWS_ADDR_HI_SHIFT) & I965_HWS_ADDR_HI_MASK);
}

static void ring_stop(struct i915_hw *hw)
{
	i915_write(hw, I915_RING_HEAD, i915_read(hw, I915_RING_TAIL));
	i915_posting_read(hw, I915_RING_HEAD);
	i915_write(hw, I915_RING_CTL, 0);
	i915_posting_read(hw, I915_RING_CTL);
	i915_write(hw, I915_RING_HEAD, 0);
	i915_write(hw, I915_RING_TAIL, 0);
}

/**
 * i915_ring_start - (re)program the ring registers
 * @i915: the device; the ring must be idle
 *
 * Stops the ring, points the hardware at the status page and the ring
 * buffer, and enables it empty.  Used at bring-up, on resume and when the
 * VT comes back.
 *
 * Return: 0 on success, -EIO if the ring does not come up.
 */
int i915_ring_start(struct i915_device *i915)
{
	struct i915_ring *ring = &i915->ring;
	struct i915_hw *hw = &i915->hw;
	unsigned int waited;

	ring_stop(hw);
	if (i915_read(hw, I915_RING_HEAD) & I915_HEAD_ADDR)
		ring_stop(hw);

	i915_write(hw, I915_HWS_PGA, hws_pga_value(i915));
	i915_write(hw, I915_HWSTAM, I915_HWSTAM_USER_ONLY);
	i915_write(hw, I915_RING_START, ring->gtt_offset);
	i915_write(hw, I915_RING_HEAD, 0);
	i915_write(hw, I915_RING_TAIL, 0);
	ring->tail = 0;
	ring->kicked = 0;
	ring->head_seen = 0;
	i915_write(hw, I915_RING_CTL,
		   I915_RING_CTL_SIZE(ring->size) | I915_RING_VALID);

	for (waited = 0; waited < I915_RING_START_US; waited += 100) {
		if (i915_read(hw, I915_RING_CTL) & I915_RING_VALID)
			break;
		usleep_range(100, 200);
	}
	if (!(i915_read(hw, I915_RING_CTL) & I915_RING_VALID)) {
		drm_err(&i915->drm, "render ring failed to start\n");
		return -EIO;
	}

	i915_write(hw, I915_MI_MODE,
		   I915_MASKED_BIT_DISABLE(I915_MI_MODE_STOP_RING));
	return 0;
}

/* The ring-valid bit sticks, or the ring failed to start. */
static int ring_wait_valid(struct i915_device *i915)
{
	unsigned int waited;

	for (waited = 0; waited < I915_RING_START_US; waited += 100) {
		if (i915_read(&i915->hw, I915_RING_CTL) & I915_RING_VALID)
			return 0;
		usleep_range(100, 200);
	}
	if (i915_read(&i915->hw, I915_RING_CTL) & I915_RING_VALID)
		return 0;
	drm_err(&i915->drm, "render ring failed to restart\n");
	return -EIO;
}

/**
 * i915_ring_restart - start the ring again after a GPU reset
 * @i915: the device, its engine just reset (ring registers at their
 *	reset values), &i915_ring.in_reset set
 * @head: ring offset to resume from
 *
 * Programs the status page and the ring as i915_ring_start() does, but
 * with HEAD at @head and TAIL at everything emitted so far (including what
 * was emitted during the reset), so that the GPU runs what is queued from
 * @head on.  Clears &i915_ring.in_reset.  Called without &i915_ring.lock.
 *
 * Return: 0, or -EIO if the ring does not come up.
 */
int i915_ring_restart(struct i915_device *i915, u32 head)
{
	struct i915_ring *ring = &i915->ring;
	struct i915_hw *hw = &i915->hw;

	spin_lock(&ring->hw_lock);
	i915_write(hw, I915_HWS_PGA, hws_pga_value(i915));
	i915_write(hw, I915_HWSTAM, I915_HWSTAM_USER_ONLY);
	i915_write(hw, I915_RING_CTL, 0);
	i915_write(hw, I915_RING_START, ring->gtt_offset);
	i915_write(hw, I915_RING_HEAD, head);
	i915_write(hw, I915_RING_TAIL, ring->kicked);
	i915_write(hw, I915_MI_MODE,
		   I915_MASKED_BIT_DISABLE(I915_MI_MODE_STOP_RING));
	i915_write(hw, I915_RING_CTL,
		   I915_RING_CTL_SIZE(ring->size) | I915_RING_VALID);
	ring->in_reset = false;
	spin_unlock(&ring->hw_lock);
	return ring_wait_valid(i915);
}

/**
 * i915_ring_release - a reset leaves the ring stopped
 * @i915: the device, &i915_ring.in_reset set
 *
 * For a reset that wedges the device: the ring stays disabled (until
 * i915_ring_start()) and emission may touch the tail register again.
 */
void i915_ring_release(struct i915_device *i915)
{
	struct i915_ring *ring = &i915->ring;

	spin_lock(&ring->hw_lock);
	ring->in_reset = false;
	spin_unlock(&ring->hw_lock);
}

/**
 * i915_ring_suspend - stop the ring before the GPU sleeps
 * @i915: the device, idle
 */
void i915_ring_suspend(struct i915_device *i915)
{
	mutex_lock(&i915->ring.lock);
	ring_stop(&i915->hw);
	mutex_unlock(&i915->ring.lock);
}

/**
 * i915_ring_resume - bring the ring back after the GPU lost its state
 * @i915: the device, idle, its GTT restored (i915_gtt_resume())
 *
 * Points the driver's own GTT entries at the ring and the status page
 * again, then programs the ring registers and HWS_PGA afresh, empty.
 *
 * Return: 0, or -EIO if the ring does not come up.
 */
int i915_ring_resume(struct i915_device *i915)
{
	struct i915_ring *ring = &i915->ring;
	int ret;

	i915_gtt_remap_kernel(i915, ring->gtt_offset, ring->dma,
			      ring->size >> PAGE_SHIFT, I915_GTT_UNCACHED);
	if (!i915->info->hws_needs_physical)
		i915_gtt_remap_kernel(i915, ring->hws_gtt, &ring->hws_dma, 1,
				      I915_GTT_SNOOPED);

	mutex_lock(&ring->lock);
	ret = i915_ring_start(i915);
	mutex_unlock(&ring->lock);
	return ret;
}

/**
 * i915_ring_init - allocate the ring and status page and start the ring
 * @i915: the device
 *
 * Return: 0 on success or a negative errno.
 */
int i915_ring_init(struct i915_device *i915)
{
	struct i915_ring *ring = &i915->ring;
	int ret;

	mutex_init(&ring->lock);
	ret = ring_create(i915);
	if (ret)
		return ret;

	ret = hws_create(i915);
	if (ret)
		goto err_ring;

	ret = i915_ring_start(i915);
	if (ret)
		goto err_hws;
	return 0;

err_hws:
	hws_destroy(i915);
err_ring:
	ring_destroy(i915);
	return ret;
}

/**
 * i915_ring_fini - stop the ring and free it
 * @i915: the device; no request may be outstanding
 */
void i915_ring_fini(struct i915_device *i915)
{
	ring_stop(&i915->hw);
	i915_write(&i915->hw, I915_HWS_PGA, 0);
	hws_destroy(i915);
	ring_destroy(i915);
	mutex_destroy(&i915->ring.lock);
}

/* Free bytes between the tail and @head, keeping the guard distance. */
static u32 ring_space(struct i915_ring *ring, u32 head)
{
	return (head - ring->tail - I915_RING_GUARD) & (ring->size - 1);
}

/* The head, or where it was when a reset that is under way began. */
static u32 ring_hw_head(struct i915_device *i915)
{
	struct i915_ring *ring = &i915->ring;
	u32 head;

	lockdep_assert_held(&ring->lock);

	spin_lock(&ring->hw_lock);
	if (ring->in_reset)
		head = ring->held_head;
	else
		head = i915_read(&i915->hw, I915_RING_HEAD) & I915_HEAD_ADDR;
	spin_unlock(&ring->hw_lock);
	ring->head_seen = head;
	return head;
}

/* The oldest request the GPU has not finished, with a reference, or NULL. */
static struct i915_request *ring_oldest_pending(struct i915_ring *ring)
{
	struct i915_request *rq, *found = NULL;
	unsigned long flags;

	spin_lock_irqsave(&ring->fence_lock, flags);
	list_for_each_entry(rq, &ring->requests, link) {
		if (!dma_fence_is_signaled_locked(&rq->fence)) {
			found = rq;
			dma_fence_get(&rq->fence);
			break;
		}
	}
	spin_unlock_irqrestore(&ring->fence_lock, flags);
	return found;
}

/*
 * Wait until @bytes are free ahead of the tail.  Free space is always
 * measured from the hardware's head: the tails of requests that completed
 * but are not retired yet may be a whole lap old.  The head last read
 * answers first: what was free then still is (the head only moves on, a
 * reset restarts it further on, and i915_ring_start() empties the ring),
 * so the register is read only when that is not enough, about once a lap
 * of the ring rather than once an emission.  While space is short,
 * wait for the oldest request still running; with none running, the head
 * only has a few dwords (the end of the last breadcrumb, wrap padding) to
 * go before it reaches the tail register and everything is free.
 */
static int ring_wait_for_space(struct i915_device *i915, u32 bytes)
{
	struct i915_ring *ring = &i915->ring;
	unsigned long moved = jiffies;
	struct i915_request *rq;
	u32 head, last_head;
	long ret;

	if (ring_space(ring, ring->head_seen) >= bytes)
		return 0;
	last_head = ring_hw_head(i915);
	while (ring_space(ring, (head = ring_hw_head(i915))) < bytes) {
		rq = ring_oldest_pending(ring);
		if (!rq) {
			if (ring->wedged)
				return -EIO;
			if (signal_pending(current))
				return -ERESTARTSYS;
			if (head != last_head) {
				last_head = head;
				moved = jiffies;
			} else if (time_after(jiffies, moved +
				   msecs_to_jiffies(I915_RING_IDLE_TIMEOUT_MS))) {
				drm_err(&i915->drm, "ring head stuck at 0x%x with nothing outstanding\n",
					head);
				return -EIO;
			}
			usleep_range(50, 100);
			continue;
		}
		/*
		 * A request a reset cancelled (-EIO on its fence) made room
		 * too: only a wedged ring (above) fails the wait, as upstream.
		 */
		ret = dma_fence_wait(&rq->fence, true);
		dma_fence_put(&rq->fence);
		if (ret)
			return ret;
	}
	return 0;
}

/* Commands in memory, then the tail register: the GPU may run them now. */
static void ring_write_tail(struct i915_device *i915)
{
	struct i915_ring *ring = &i915->ring;

	wmb(); /* commands in memory before the tail moves */
	i915_chipset_flush(&i915->hw);
	spin_lock(&ring->hw_lock);
	/* During a reset, the restart hands the GPU everything kicked. */
	if (!ring->in_reset)
		i915_write(&i915->hw, I915_RING_TAIL, ring->tail);
	ring->kicked = ring->tail;
	spin_unlock(&ring->hw_lock);
}

/**
 * i915_ring_begin - reserve room for commands in the ring
 * @ring: the ring, its lock held
 * @dwords: number of dwords the caller will write, at most
 *	%I915_RING_MAX_EMIT
 *
 * Wraps to the start of the ring when the commands would not fit before
 * the end: the rest of the ring is filled with MI_NOOP and handed to the
 * GPU at once, so that the head can pass the end.  Waits for the GPU to
 * free space when the ring is full.  The first call of an emission must
 * reserve room for all of it (the request's breadcrumb included): a later
 * call of the same emission then finds its room and neither wraps nor
 * waits.
 *
 * Return: where to write the commands, or an ERR_PTR: -EIO if the GPU is
 * wedged, -EAGAIN while the device is suspended, -ERESTARTSYS on a signal,
 * -EINVAL for a reservation larger than the ring can hold or a wrap inside
 * an emission (driver bugs).
 */
u32 *i915_ring_begin(struct i915_ring *ring, unsigned int dwords)
{
	struct i915_device *i915 = container_of(ring, struct i915_device, ring);
	/* Room for the QWORD padding of i915_ring_kick() too. */
	u32 bytes = round_up(dwords * sizeof(u32), 8);
	u32 rest = ring->size - ring->tail;
	int ret;

	lockdep_assert_held(&ring->lock);

	if (ring->wedged)
		return ERR_PTR(-EIO);
	if (ring->suspended)
		return ERR_PTR(-EAGAIN);
	if (WARN_ON_ONCE(dwords > I915_RING_MAX_EMIT))
		return ERR_PTR(-EINVAL);

	if (bytes > rest) {
		/* Commands not yet kicked would reach the GPU half-written. */
		if (WARN_ON_ONCE(ring->tail != ring->kicked))
			return ERR_PTR(-EINVAL);
		ret = ring_wait_for_space(i915, rest);
		if (ret)
			return ERR_PTR(ret);
		memset32(ring->vaddr + ring->tail / 4, I915_MI_NOOP, rest / 4);
		ring->tail = 0;
		ring_write_tail(i915);
	}

	ret = ring_wait_for_space(i915, bytes);
	if (ret)
		return ERR_PTR(ret);
	return ring->vaddr + ring->tail / 4;
}

/**
 * i915_ring_advance - account for commands written after i915_ring_begin()
 * @ring: the ring, its lock held
 * @cs: one past the last dword written
 */
void i915_ring_advance(struct i915_ring *ring, u32 *cs)
{
	lockdep_assert_held(&ring->lock);

	ring->tail = ((cs - ring->vaddr) * sizeof(u32)) & (ring->size - 1);
}

/**
 * i915_ring_rewind - forget commands emitted but not kicked
 * @ring: the ring, its lock held
 *
 * For an emission that fails half-way (the GPU hung, a signal while
 * waiting for space): the commands written since the tail register last
 * moved never reach the GPU.  Wrap padding the GPU already has stays.
 */
void i915_ring_rewind(struct i915_ring *ring)
{
	lockdep_assert_held(&ring->lock);

	ring->tail = ring->kicked;
}

/**
 * i915_ring_kick - hand everything emitted so far to the GPU
 * @i915: the device, the ring lock held
 *
 * Pads the tail to a QWORD as the hardware requires, makes the commands
 * visible to the GPU and moves the tail register.
 */
void i915_ring_kick(struct i915_device *i915)
{
	struct i915_ring *ring = &i915->ring;

	lockdep_assert_held(&ring->lock);

	if (ring->tail & 7) {
		ring->vaddr[ring->tail / 4] = I915_MI_NOOP;
		ring->tail = (ring->tail + 4) & (ring->size - 1);
	}
	ring_write_tail(i915);
}

/**
 * i915_ring_acthd - where the command streamer is
 * @i915: the device
 *
 * Return: the engine's ACTHD, the graphics address of the command it is
 * executing (in the ring or in a batch).
 */
u32 i915_ring_acthd(struct i915_device *i915)
{
	return i915_read(&i915->hw, i915->info->gen < 4 ? I915_GEN3_ACTHD :
							 I965_ACTHD);
}

/**
 * i915_ring_freeze - stop the command streamer where it is
 * @i915: the device
 *
 * Sets MI_MODE STOP_RING: the engine stops at the next command boundary,
 * in the ring or in a batch, so that a hung batch that still runs (one
 * that loops) no longer touches memory once its requests have been
 * abandoned.  It stays stopped until i915_ring_start().  A register write
 * only: safe in any context, the interrupt handler included.
 */
void i915_ring_freeze(struct i915_device *i915)
{
	i915_write(&i915->hw, I915_MI_MODE,
		   I915_MASKED_BIT_ENABLE(I915_MI_MODE_STOP_RING));
}
