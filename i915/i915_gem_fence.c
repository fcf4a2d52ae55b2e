// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: fence registers
 *
 * A fence register describes one tiled range of the GTT (start, size,
 * stride, X or Y): accesses through that range are tiled and bit-6
 * swizzled by the hardware.  915G/GM have 8, 945/G33/Pineview and Gen4
 * 16 (&i915_device_info.num_fences).  The CPU's aperture goes through
 * them on every part; on Gen3 the GPU does too (the blitter and the 3D
 * engine reach tiled surfaces only through a fence), while Gen4's GPU
 * has its own tiled bits and never uses them.
 *
 * Fences are handed out on demand, as upstream: i915_gem_object_pin_fence()
 * gives a bound, tiled object a fence and pins it; the register keeps
 * describing the object after the unpin until another object steals it.
 * A steal takes the least recently used unpinned register, idle ones
 * first, and on Gen3 waits until the object it describes is idle (every
 * request in its dma_resv done, which execbuffer publishes before it
 * unpins) before rewriting it: a running batch never loses the fence it
 * accesses through, and the table holds no reference to any request.  On
 * Gen4 only the CPU goes through fences, so a steal or a release waits
 * for no GPU work (upstream's fence waits only for fenced GPU accesses,
 * which Gen4 has none of).  When every register is pinned, -ENOBUFS.
 * Unbinding an object (i915_gtt_unbind_locked()) and changing its tiling
 * (i915_gem_tiling.c) release its fence.
 *
 * Execbuffer pins a fence for each tiled object flagged
 * EXEC_OBJECT_NEEDS_FENCE on Gen3 only (Gen4's GPU does not use them, and
 * upstream strips the flag there), after binding it where a fence can
 * describe it (i915_gem_object_fence_place()).  The GTT fault handler
 * (i915_gem_mman.c) binds the object with i915_gem_object_fence_place()
 * too and pins the fence while it inserts PTEs; every steal and release
 * calls i915_gem_fence_zap_gtt_mmaps() on the old owner before the
 * register is rewritten, which zaps its GTT mmap's PTEs.  A GTT mmap's
 * partial view of a tiled object (&struct i915_fence_view) takes a
 * register of its own the same way (i915_gem_view_pin_fence()): it
 * describes the view's GTT range with the object's tiling; only the CPU
 * uses it, so it is never busy, and a steal zaps the view's PTEs.
 *
 * Bit-6 swizzling is detected once, at load, from the memory
 * controller's registers exactly as upstream's detection reads them (see
 * fence_detect_swizzle()).
 *
 * Locking: &i915_fences.lock protects the registers, their LRU list and
 * every object's &i915_gem_object.fence; it is taken inside an object's
 * dma_resv lock, never the other way round, and outside &i915_gtt.lock
 * (the zap of a GTT mmap); it waits for GPU requests while held (never
 * allocates memory).
 */

#include <uapi/drm/i915_drm.h>
#include <linux/dma-resv.h>
#include <linux/log2.h>
#include <linux/slab.h>

#include "i915_drv.h"
#include "i915_reg.h"

/**
 * struct i915_fence_reg - one fence register
 * @link: entry in &i915_fences.lru, least recently used first
 * @obj: the object the register describes, or NULL (no reference: an
 *	object loses its fence, under &i915_fences.lock, before it is
 *	unbound or freed)
 * @view: the partial view of @obj it describes, or NULL for @obj's
 *	normal binding (a view, too, loses its fence before it is freed)
 * @id: register number
 * @pin_count: users that need the register to keep describing @obj
 */
struct i915_fence_reg {
	struct list_head link;
	struct i915_gem_object *obj;
	struct i915_fence_view *view;
	unsigned int id;
	unsigned int pin_count;
};

/**
 * struct i915_fences - the fence registers of one GPU
 * @lock: protects everything here and &i915_gem_object.fence; see the DOC
 * @lru: the registers, least recently used first
 * @count: registers of this GPU
 * @swizzle_x: bit-6 swizzling of X-tiled surfaces (I915_BIT_6_SWIZZLE_*)
 * @swizzle_y: bit-6 swizzling of Y-tiled surfaces
 * @swizzle_unknown: the memory controller's swizzling is unknown; tiled
 *	surfaces are reported unswizzled and their physical swizzling unknown
 * @regs: the registers
 */
struct i915_fences {
	struct mutex lock; /* see above */
	struct list_head lru;
	unsigned int count;
	u32 swizzle_x;
	u32 swizzle_y;
	bool swizzle_unknown;
	struct i915_fence_reg regs[I915_MAX_FENCES];
};

/*
 * Bit-6 swizzling as the memory controller's configuration implies, read
 * as upstream reads it: G33 and the desktop 965/G45 parts compare the top
 * of the two channels (symmetric: interleaved, 9_10 and 9); the others
 * read DCC's addressing mode (single channel or asymmetric: none;
 * interleaved: 9_10/9, plus bit 11 or bit 17 when the channel XOR uses
 * it), and Gen4 parts with "modified enhanced addressing" (DCC2) or a
 * DCC reading all ones are unknown.
 */
static void fence_detect_swizzle(struct i915_device *i915,
				 struct i915_fences *f)
{
	struct i915_hw *hw = &i915->hw;
	u32 x = I915_BIT_6_SWIZZLE_UNKNOWN, y = I915_BIT_6_SWIZZLE_UNKNOWN;
	u32 dcc;

	if (i915->info->swizzle_drb) {
		if (i915_read(hw, I965_C0DRB3_DW) >> I965_DRB3_SHIFT ==
		    i915_read(hw, I965_C1DRB3_DW) >> I965_DRB3_SHIFT) {
			x = I915_BIT_6_SWIZZLE_9_10;
			y = I915_BIT_6_SWIZZLE_9;
		}
		goto out;
	}

	dcc = i915_read(hw, I915_DCC);
	switch (dcc & I915_DCC_ADDRESSING_MODE_MASK) {
	case I915_DCC_SINGLE_CHANNEL:
	case I915_DCC_DUAL_ASYMMETRIC:
		x = I915_BIT_6_SWIZZLE_NONE;
		y = I915_BIT_6_SWIZZLE_NONE;
		break;
	case I915_DCC_DUAL_INTERLEAVED:
		if (dcc & I915_DCC_CHANNEL_XOR_DISABLE) {
			x = I915_BIT_6_SWIZZLE_9_10;
			y = I915_BIT_6_SWIZZLE_9;
		} else if (!(dcc & I915_DCC_CHANNEL_XOR_BIT_17)) {
			x = I915_BIT_6_SWIZZLE_9_10_11;
			y = I915_BIT_6_SWIZZLE_9_11;
		} else {
			x = I915_BIT_6_SWIZZLE_9_10_17;
			y = I915_BIT_6_SWIZZLE_9_17;
		}
		break;
	}
	if (i915->info->gen == 4 &&
	    !(i915_read(hw, I915_DCC2) & I965_DCC2_MODIFIED_ENHANCED_DISABLE)) {
		x = I915_BIT_6_SWIZZLE_UNKNOWN;
		y = I915_BIT_6_SWIZZLE_UNKNOWN;
	}
	if (dcc == 0xffffffff) {
		drm_err(&i915->drm, "DCC reads all ones: bit-6 swizzling unknown\n");
		x = I915_BIT_6_SWIZZLE_UNKNOWN;
		y = I915_BIT_6_SWIZZLE_UNKNOWN;
	}
out:
	if (x == I915_BIT_6_SWIZZLE_UNKNOWN || y == I915_BIT_6_SWIZZLE_UNKNOWN) {
		f->swizzle_unknown = true;
		x = I915_BIT_6_SWIZZLE_NONE;
		y = I915_BIT_6_SWIZZLE_NONE;
	}
	f->swizzle_x = x;
	f->swizzle_y = y;
}

static u32 tile_height(struct i915_device *i915, u32 tiling)
{
	if (tiling == I915_TILING_Y && !i915->info->y_tile_512)
		return I945_TILE_HEIGHT_Y;
	return I915_TILE_HEIGHT_X;
}

/**
 * i915_gem_tile_row_size - bytes of one row of tiles of an object
 * @obj: the object, tiled
 *
 * Return: the stride times the tile height of the object's tiling; a
 * chunk of the object that starts on a multiple of it is tiled alone
 * exactly as in the whole object.
 */
u64 i915_gem_tile_row_size(struct i915_gem_object *obj)
{
	return (u64)obj->stride * tile_height(obj_to_i915(obj), obj->tiling);
}

/**
 * i915_gem_fence_size - GTT space a fence for an object covers
 * @i915: the device
 * @size: the object's size
 * @tiling: I915_TILING_*
 * @stride: its stride
 *
 * Gen3: the smallest power of two of at least 1 MiB that holds @size;
 * Gen4: @size rounded up to whole rows of tiles.
 *
 * Return: bytes; @size when untiled.
 */
u64 i915_gem_fence_size(struct i915_device *i915, u64 size, u32 tiling,
			u32 stride)
{
	if (tiling == I915_TILING_NONE)
		return size;
	if (i915->info->gen >= 4)
		return roundup(size, (u64)stride * tile_height(i915, tiling));
	return max_t(u64, I915_FENCE_MIN_SIZE, roundup_pow_of_two(size));
}

/**
 * i915_gem_fence_alignment - GTT alignment a fence needs
 * @i915: the device
 * @size: the object's size
 * @tiling: I915_TILING_*
 * @stride: its stride
 *
 * Return: the fence size on Gen3, a page on Gen4, 0 when untiled.
 */
u64 i915_gem_fence_alignment(struct i915_device *i915, u64 size, u32 tiling,
			     u32 stride)
{
	if (tiling == I915_TILING_NONE)
		return 0;
	if (i915->info->gen >= 4)
		return I965_FENCE_PAGE;
	return i915_gem_fence_size(i915, size, tiling, stride);
}

/**
 * i915_gem_object_fence_place - make a binding one a fence can describe
 * @obj: the object
 * @place: the binding asked for: its size and alignment grow to the fence's,
 *	and it must lie in the aperture
 *
 * For a tiled object only; untiled objects' @place is left alone.
 */
void i915_gem_object_fence_place(struct i915_gem_object *obj,
				 struct i915_gtt_place *place)
{
	struct i915_device *i915 = obj_to_i915(obj);
	u64 size = obj->base.size;

	if (obj->tiling == I915_TILING_NONE)
		return;
	place->size = max(place->size,
			  i915_gem_fence_size(i915, size, obj->tiling,
					      obj->stride));
	place->alignment = max(place->alignment,
			       i915_gem_fence_alignment(i915, size, obj->tiling,
							obj->stride));
	if (!place->end || place->end > i915->hw.mappable_end)
		place->end = i915->hw.mappable_end;
}

/**
 * i915_gem_object_fence_fits - could a fence describe the current binding?
 * @obj: the object, its dma_resv lock held
 * @tiling: the tiling it would have
 * @stride: the stride it would have
 *
 * An unbound object, an untiled one and one bound outside the aperture
 * (it moves when it needs a fence) fit; otherwise the binding must be as
 * large and as aligned as the fence.
 *
 * Return: true if the binding can stay.
 */
bool i915_gem_object_fence_fits(struct i915_gem_object *obj, u32 tiling,
				u32 stride)
{
	struct i915_device *i915 = obj_to_i915(obj);
	const struct drm_mm_node *node = &obj->gtt_node;
	u64 size = obj->base.size, align;

	if (!drm_mm_node_allocated(node) || tiling == I915_TILING_NONE)
		return true;
	if (node->start + node->size > i915->hw.mappable_end)
		return true;
	align = i915_gem_fence_alignment(i915, size, tiling, stride);
	return node->size >= i915_gem_fence_size(i915, size, tiling, stride) &&
	       IS_ALIGNED(node->start, align);
}

/* The register's value for its object (0: invalid), and the write. */
static void fence_write(struct i915_device *i915, struct i915_fence_reg *reg)
{
	struct i915_gem_object *obj = reg->obj;
	struct i915_hw *hw = &i915->hw;
	bool y = obj && obj->tiling == I915_TILING_Y;
	u64 start = 0, size = 0;
	u32 val = 0, hi = 0, width;

	if (reg->view) {
		start = reg->view->start;
		size = reg->view->size;
	} else if (obj) {
		start = obj->gtt_node.start;
		size = i915_gem_fence_size(i915, obj->base.size, obj->tiling,
					   obj->stride);
	}

	if (i915->info->gen >= 4) {
		if (obj) {
			hi = start + size - I965_FENCE_PAGE;
			val = start | (obj->stride / I965_FENCE_PITCH_UNIT - 1) <<
				      I965_FENCE_PITCH_SHIFT |
			      (y ? I965_FENCE_TILING_Y : 0) | I965_FENCE_VALID;
		}
		/* Invalid while the two halves disagree. */
		i915_write(hw, I965_FENCE_REG_LO(reg->id), 0);
		i915_posting_read(hw, I965_FENCE_REG_LO(reg->id));
		i915_write(hw, I965_FENCE_REG_HI(reg->id), hi);
		i915_write(hw, I965_FENCE_REG_LO(reg->id), val);
		i915_posting_read(hw, I965_FENCE_REG_LO(reg->id));
		return;
	}

	if (obj) {
		width = y && !i915->info->y_tile_512 ? I945_TILE_WIDTH_Y :
						       I915_TILE_WIDTH;
		val = start | (y ? I915_FENCE_TILING_Y : 0) |
		      ilog2(size / I915_FENCE_MIN_SIZE) << I915_FENCE_SIZE_SHIFT |
		      ilog2(obj->stride / width) << I915_FENCE_PITCH_SHIFT |
		      I915_FENCE_VALID;
	}
	i915_write(hw, i915_fence_reg(reg->id), val);
	i915_posting_read(hw, i915_fence_reg(reg->id));
}

/**
 * i915_gem_fence_zap_gtt_mmaps - an object's GTT mmaps lose their fence
 * @obj: the object whose fence is stolen or released, or whose tiling
 *	changes
 *
 * The one place where the CPU's GTT mappings of @obj are to be revoked,
 * so that the next access faults and gets a fence again.  Called under
 * &i915_fences.lock, which keeps @obj alive, with or without @obj's
 * dma_resv lock.
 */
void i915_gem_fence_zap_gtt_mmaps(struct i915_gem_object *obj)
{
	i915_gem_object_zap_mmap_gtt(obj);
}

/*
 * Does the GPU access memory through the register's range?  Gen3's does;
 * a partial view and every register of Gen4 are only the CPU's.
 */
static bool fence_gpu_uses(const struct i915_fence_reg *reg)
{
	return reg->obj && !reg->view && obj_to_i915(reg->obj)->info->gen < 4;
}

/*
 * Wait until the register's object is idle, if the GPU may be accessing
 * it through the register; under the lock, which keeps the object from
 * being freed meanwhile.
 */
static int fence_wait_idle(struct i915_fence_reg *reg, bool intr)
{
	long ret;

	if (!fence_gpu_uses(reg))
		return 0;
	ret = dma_resv_wait_timeout(reg->obj->base.resv,
				    DMA_RESV_USAGE_BOOKKEEP, intr,
				    MAX_SCHEDULE_TIMEOUT);
	return ret < 0 ? ret : 0;
}

/* Take the register from its object (idle by now); under the lock. */
static void fence_detach(struct i915_fence_reg *reg)
{
	struct i915_gem_object *old = reg->obj;

	if (!old)
		return;
	if (reg->view) {
		i915_gem_mmap_zap_range(old, reg->view->first,
					reg->view->count);
		reg->view->reg = NULL;
		reg->view = NULL;
	} else {
		i915_gem_fence_zap_gtt_mmaps(old);
		WRITE_ONCE(old->fence, NULL);
	}
	reg->obj = NULL;
}

static bool fence_busy(const struct i915_fence_reg *reg)
{
	return fence_gpu_uses(reg) &&
	       !dma_resv_test_signaled(reg->obj->base.resv,
				       DMA_RESV_USAGE_BOOKKEEP);
}

/* The least recently used unpinned register, an idle one if there is. */
static struct i915_fence_reg *fence_find(struct i915_fences *f)
{
	struct i915_fence_reg *reg, *busy = NULL;

	list_for_each_entry(reg, &f->lru, link) {
		if (reg->pin_count)
			continue;
		if (!fence_busy(reg))
			return reg;
		if (!busy)
			busy = reg;
	}
	return busy ?: ERR_PTR(-ENOBUFS);
}

/*
 * A register for @obj (or its partial view @fv): the least recently used
 * one, once the GPU no longer reads through it, taken from its old user.
 * The caller records it and writes it.  Under the fence lock.
 */
static struct i915_fence_reg *fence_take(struct i915_fences *f,
					 struct i915_gem_object *obj,
					 struct i915_fence_view *fv)
{
	struct i915_fence_reg *reg;
	int ret;

	reg = fence_find(f);
	if (IS_ERR(reg))
		return reg;
	ret = fence_wait_idle(reg, true);
	if (ret)
		return ERR_PTR(ret);
	fence_detach(reg);
	reg->obj = obj;
	reg->view = fv;
	return reg;
}

/*
 * Pin the register in @slot (the object's, or its partial view @fv's),
 * taking one first if it has none, and move it to the LRU's tail.
 */
static int fence_pin(struct i915_gem_object *obj, struct i915_fence_view *fv,
		     struct i915_fence_reg **slot)
{
	struct i915_device *i915 = obj_to_i915(obj);
	struct i915_fences *f = i915->fences;
	struct i915_fence_reg *reg;
	int ret;

	ret = mutex_lock_interruptible(&f->lock);
	if (ret)
		return ret;
	reg = *slot;
	if (!reg) {
		reg = fence_take(f, obj, fv);
		if (IS_ERR(reg)) {
			ret = PTR_ERR(reg);
			goto out;
		}
		WRITE_ONCE(*slot, reg);
		fence_write(i915, reg);
	}
	reg->pin_count++;
	list_move_tail(&reg->link, &f->lru);
out:
	mutex_unlock(&f->lock);
	return ret;
}

/**
 * i915_gem_object_pin_fence - give a tiled object a fence and pin it
 * @obj: the object, its dma_resv lock held, bound where
 *	i915_gem_object_fence_place() asks
 *
 * An untiled object needs none: 0 at once.  A tiled one keeps its fence
 * or steals one (see the DOC: the steal waits for the register's last
 * object to be idle).  On Gen3 the object is idle before the register
 * describes it, as upstream: the GPU may still be accessing it unfenced.
 * i915_gem_object_unpin_fence() undoes the pin.
 *
 * Return: 0, -EINVAL if the binding cannot be fenced, -ENOBUFS if every
 * register is pinned, -EINTR or -ERESTARTSYS on a signal.
 */
int i915_gem_object_pin_fence(struct i915_gem_object *obj)
{
	struct i915_device *i915 = obj_to_i915(obj);
	long ret;

	dma_resv_assert_held(obj->base.resv);
	if (obj->tiling == I915_TILING_NONE)
		return 0;
	if (!drm_mm_node_allocated(&obj->gtt_node) ||
	    obj->gtt_node.start + obj->gtt_node.size > i915->hw.mappable_end ||
	    !i915_gem_object_fence_fits(obj, obj->tiling, obj->stride))
		return -EINVAL;

	if (!READ_ONCE(obj->fence) && i915->info->gen < 4) {
		ret = dma_resv_wait_timeout(obj->base.resv,
					    DMA_RESV_USAGE_BOOKKEEP, true,
					    MAX_SCHEDULE_TIMEOUT);
		if (ret < 0)
			return ret;
	}
	return fence_pin(obj, NULL, &obj->fence);
}

/**
 * i915_gem_view_pin_fence - give a partial view of a tiled object a fence
 * @fv: the view's claim: @fv->obj's dma_resv lock held, @fv->start and
 *	@fv->size where i915_gem_fence_size() and i915_gem_fence_alignment()
 *	of the view's bytes place it in the aperture
 *
 * As i915_gem_object_pin_fence(), for the chunk of the object that a
 * GTT mmap's partial view binds on its own (i915_gem_mman.c): the
 * register describes @fv->start..@fv->start + @fv->size with the object's
 * tiling and stride, and keeps doing so after the unpin until a steal,
 * which zaps the view's PTEs first.  Only the CPU accesses a view, so
 * no GPU work is waited for on its behalf.
 *
 * Return: 0, -ENOBUFS if every register is pinned, -EINTR or
 * -ERESTARTSYS on a signal.
 */
int i915_gem_view_pin_fence(struct i915_fence_view *fv)
{
	dma_resv_assert_held(fv->obj->base.resv);
	return fence_pin(fv->obj, fv, &fv->reg);
}

/**
 * i915_gem_view_unpin_fence - drop a pin of i915_gem_view_pin_fence()
 * @fv: the view's claim
 */
void i915_gem_view_unpin_fence(struct i915_fence_view *fv)
{
	struct i915_fences *f = obj_to_i915(fv->obj)->fences;

	mutex_lock(&f->lock);
	if (fv->reg && fv->reg->pin_count)
		fv->reg->pin_count--;
	mutex_unlock(&f->lock);
}

/**
 * i915_fences_lock - take &i915_fences.lock around dropping partial views
 * @i915: the device
 *
 * A view's fence goes with its node, under &i915_gtt.lock, which nests
 * inside this one.
 */
void i915_fences_lock(struct i915_device *i915)
{
	mutex_lock(&i915->fences->lock);
}

/**
 * i915_fences_unlock - drop the lock i915_fences_lock() took
 * @i915: the device
 */
void i915_fences_unlock(struct i915_device *i915)
{
	mutex_unlock(&i915->fences->lock);
}

/**
 * i915_gem_view_release_fence_locked - a dropped partial view loses its fence
 * @i915: the device, i915_fences_lock() held
 * @fv: the view's claim, unpinned, its user PTEs zapped by the caller
 *
 * Invalidates the register (to the cold end of the LRU list) before the
 * view's GTT range can be handed to anyone else.
 */
void i915_gem_view_release_fence_locked(struct i915_device *i915,
					struct i915_fence_view *fv)
{
	struct i915_fences *f = i915->fences;
	struct i915_fence_reg *reg = fv->reg;

	lockdep_assert_held(&f->lock);
	if (!reg)
		return;
	reg->view = NULL;
	reg->obj = NULL;
	fv->reg = NULL;
	fence_write(i915, reg);
	list_move(&reg->link, &f->lru);
}

/**
 * i915_gem_object_unpin_fence - drop a pin of i915_gem_object_pin_fence()
 * @obj: the object, its dma_resv lock held, the request that uses the
 *	fence (if one was made) already in its dma_resv: a steal waits for it
 */
void i915_gem_object_unpin_fence(struct i915_gem_object *obj)
{
	struct i915_fences *f = obj_to_i915(obj)->fences;
	struct i915_fence_reg *reg;

	dma_resv_assert_held(obj->base.resv);
	if (obj->tiling == I915_TILING_NONE)
		return;
	mutex_lock(&f->lock);
	reg = obj->fence;
	if (reg && reg->pin_count)
		reg->pin_count--;
	mutex_unlock(&f->lock);
}

static int fence_release(struct i915_gem_object *obj, bool intr)
{
	struct i915_device *i915 = obj_to_i915(obj);
	struct i915_fences *f = i915->fences;
	struct i915_fence_reg *reg;
	int ret = 0;

	if (!READ_ONCE(obj->fence))
		return 0;
	if (intr) {
		ret = mutex_lock_interruptible(&f->lock);
		if (ret)
			return ret;
	} else {
		mutex_lock(&f->lock);
	}
	reg = obj->fence;
	if (!reg)
		goto out;
	if (reg->pin_count) {
		ret = -EBUSY;
		goto out;
	}
	ret = fence_wait_idle(reg, intr);
	if (ret)
		goto out;
	fence_detach(reg);
	fence_write(i915, reg);
	list_move(&reg->link, &f->lru);
out:
	mutex_unlock(&f->lock);
	return ret;
}

/**
 * i915_gem_object_put_fence - take an object's fence away
 * @obj: the object, its dma_resv lock held
 *
 * Waits for the object to be idle on Gen3 (where the GPU may be
 * accessing it through the register), then invalidates the register,
 * which goes to the cold end of the LRU list.
 *
 * Return: 0, -EBUSY if the fence is pinned, -EINTR or -ERESTARTSYS on a
 * signal.
 */
int i915_gem_object_put_fence(struct i915_gem_object *obj)
{
	dma_resv_assert_held(obj->base.resv);
	return fence_release(obj, true);
}

/**
 * i915_gem_object_release_fence - an object being unbound loses its fence
 * @obj: the object, its dma_resv lock held, idle, no fence pin held
 */
void i915_gem_object_release_fence(struct i915_gem_object *obj)
{
	fence_release(obj, false);
}

/**
 * i915_fence_swizzle - the bit-6 swizzling of a tiling mode
 * @i915: the device
 * @tiling: I915_TILING_*
 *
 * Return: I915_BIT_6_SWIZZLE_*, with bit 17 included where the memory
 * controller uses it.
 */
u32 i915_fence_swizzle(struct i915_device *i915, u32 tiling)
{
	switch (tiling) {
	case I915_TILING_X:
		return i915->fences->swizzle_x;
	case I915_TILING_Y:
		return i915->fences->swizzle_y;
	}
	return I915_BIT_6_SWIZZLE_NONE;
}

/**
 * i915_fence_swizzle_unknown - is the memory controller's swizzling unknown?
 * @i915: the device
 *
 * Return: true if detection failed (swizzling is then reported as none).
 */
bool i915_fence_swizzle_unknown(struct i915_device *i915)
{
	return i915->fences->swizzle_unknown;
}

/**
 * i915_fence_restore - write every fence register again
 * @i915: the device, after the GPU lost its registers (resume)
 */
void i915_fence_restore(struct i915_device *i915)
{
	struct i915_fences *f = i915->fences;
	unsigned int i;

	mutex_lock(&f->lock);
	for (i = 0; i < f->count; i++)
		fence_write(i915, &f->regs[i]);
	mutex_unlock(&f->lock);
}

/**
 * i915_fence_print - the registers and their owners, for debugfs
 * @i915: the device
 * @p: where to print
 */
void i915_fence_print(struct i915_device *i915, struct drm_printer *p)
{
	struct i915_fences *f = i915->fences;
	struct i915_fence_reg *reg;
	unsigned int i;

	mutex_lock(&f->lock);
	drm_printf(p, "swizzle: x %u, y %u%s\n", f->swizzle_x, f->swizzle_y,
		   f->swizzle_unknown ? " (unknown)" : "");
	for (i = 0; i < f->count; i++) {
		reg = &f->regs[i];
		drm_printf(p, "fence %2u: pins %u, %s",
			   i, reg->pin_count, fence_busy(reg) ? "busy" : "idle");
		if (reg->view)
			drm_printf(p, ", 0x%08llx+0x%llx %c stride %u (view)\n",
				   reg->view->start, reg->view->size,
				   reg->obj->tiling == I915_TILING_Y ? 'Y' : 'X',
				   reg->obj->stride);
		else if (reg->obj)
			drm_printf(p, ", 0x%08llx+0x%zx %c stride %u\n",
				   reg->obj->gtt_node.start,
				   reg->obj->base.size,
				   reg->obj->tiling == I915_TILING_Y ? 'Y' : 'X',
				   reg->obj->stride);
		else
			drm_printf(p, ", free\n");
	}
	mutex_unlock(&f->lock);
}

/**
 * i915_fence_init - the fence registers, all invalid, and swizzling
 * @i915: the device, its hardware seam up
 *
 * Return: 0 or -ENOMEM.
 */
int i915_fence_init(struct i915_device *i915)
{
	struct i915_fences *f;
	unsigned int i;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return -ENOMEM;
	mutex_init(&f->lock);
	INIT_LIST_HEAD(&f->lru);
	f->count = min_t(unsigned int, i915->info->num_fences,
			 I915_MAX_FENCES);
	for (i = 0; i < f->count; i++) {
		f->regs[i].id = i;
		list_add_tail(&f->regs[i].link, &f->lru);
	}
	fence_detect_swizzle(i915, f);
	i915->fences = f;
	i915_fence_restore(i915);
	return 0;
}

/**
 * i915_fence_fini - free the fence state
 * @i915: the device, every object unbound
 */
void i915_fence_fini(struct i915_device *i915)
{
	struct i915_fences *f = i915->fences;

	if (!f)
		return;
	mutex_destroy(&f->lock);
	kfree(f);
	i915->fences = NULL;
}
