// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: eviction
 *
 * Making room in the GTT when the allocator has no hole for a binding
 * (section 7.3.1 A of the design: "some other object will be evicted").
 * Instead of unbinding the least recently used object and trying again,
 * eviction asks drm_mm's scan roster which objects, taken from the cold
 * end of the LRU list, free a suitable hole once together removed, and
 * evicts just those:
 *
 * 1. a first scan considers only idle objects, so that making room does
 *    not have to wait for the GPU;
 * 2. if idle objects cannot make the hole, a second scan adds busy ones,
 *    and eviction waits for the GPU to finish with each before unbinding.
 *
 * Never evicted: pinned objects (I915_GEM_PIN), objects whose lock the
 * caller's acquire context holds (the objects of the execbuffer being
 * bound), and objects another evictor has claimed.  When nothing else
 * helps, -ENOSPC.  For a softpinned binding (a fixed address),
 * i915_gem_evict_for_node() evicts exactly what overlaps the range, and
 * neighbours of another cache colour that leave no room for the guard
 * page between them (see gtt_color_adjust() in i915_gtt.c).
 *
 * The scan runs under &i915_gtt.lock, which pins the allocator's state;
 * the victims are then claimed (&i915_gem_object.evicting), the GTT lock
 * dropped, and each victim locked through the caller's acquire context
 * (which may answer -EDEADLK), waited for and unbound.  Another thread
 * may take the hole in between: the caller simply tries again.  The claim
 * (i915_gem_evict_claim(), i915_gem_evict_release()) is the one protocol
 * of every evictor: i915_gtt_evict_all() claims its victims the same way.
 *
 * An object whose last reference is gone cannot be claimed: its free
 * unbinds it, and if the GPU still uses it that free waits for the GPU
 * (drm_gem.c), which may take as long as a batch runs.  An evictor that
 * needs such an object's room answers -EDEADLK with
 * &i915_ww.await_frees set: its caller drops every lock and waits for
 * the deferred frees (i915_ww_backoff(), i915_gem_free_wait()), then
 * starts over.
 */

#include <linux/dma-resv.h>

#include "i915_drv.h"
#include "i915_reg.h"
#include "i915_trace.h"

static struct i915_device *gtt_to_i915(struct i915_gtt *gtt)
{
	return container_of(gtt, struct i915_device, gtt);
}

/*
 * May the scan consider @obj?  Under the GTT lock; @pin_count is read
 * without the object's lock and checked again once it is taken.  The
 * lock a backoff kept (&i915_ww.prelocked) is the caller's own: that
 * object is as evictable as an unlocked one, and passing over it would
 * evict a more recently used object in its place.
 */
static bool evict_candidate(struct i915_gem_object *obj, struct i915_ww *ww,
			    bool busy)
{
	bool kept = ww && obj == ww->prelocked;

	if (READ_ONCE(obj->pin_count) || obj->evicting ||
	    i915_ww_holds(ww, obj))
		return false;
	if (busy)
		return true;
	return (kept || !dma_resv_is_locked(obj->base.resv)) &&
	       dma_resv_test_signaled(obj->base.resv, DMA_RESV_USAGE_BOOKKEEP);
}

/**
 * i915_gem_evict_claim - claim a bound object for one evictor
 * @obj: the object, not claimed yet (&i915_gem_object.evicting clear)
 * @list: the evictor's list of claimed objects
 *
 * Under &i915_gtt.lock.  The claim takes a reference and keeps every other
 * evictor away from @obj until i915_gem_evict_release().
 *
 * Return: true once claimed, false if @obj is being freed (freeing
 * unbinds it).
 */
bool i915_gem_evict_claim(struct i915_gem_object *obj, struct list_head *list)
{
	if (!kref_get_unless_zero(&obj->base.refcount))
		return false;
	obj->evicting = true;
	list_add_tail(&obj->evict_link, list);
	return true;
}

/**
 * i915_gem_evict_release - release a claim and its reference
 * @obj: an object claimed by i915_gem_evict_claim()
 *
 * Takes &i915_gtt.lock itself; @obj may be freed on return.
 */
void i915_gem_evict_release(struct i915_gem_object *obj)
{
	struct i915_gtt *gtt = &obj_to_i915(obj)->gtt;

	mutex_lock(&gtt->lock);
	list_del(&obj->evict_link);
	obj->evicting = false;
	mutex_unlock(&gtt->lock);
	drm_gem_object_put(&obj->base);
}

/*
 * Objects an evictor needed were being freed: -EDEADLK, so that
 * the caller waits for the frees with every lock dropped; -EAGAIN without
 * an acquire context.
 */
static int evict_await_frees(struct i915_gtt *gtt, struct i915_ww *ww)
{
	if (!ww)
		return -EAGAIN;
	ww->await_frees = gtt_to_i915(gtt);
	return -EDEADLK;
}

/*
 * Run the scan roster over the LRU list; when it finds a hole, claim the
 * objects whose removal makes it.  Return: 0 with the victims claimed;
 * -ENOSPC if the candidates cannot make a hole; -EAGAIN if one of the
 * victims is being freed (it unbinds itself; *@dying is set) or, with no
 * hole found, another evictor holds objects that might have helped.
 */
static int evict_scan(struct i915_gtt *gtt, struct i915_ww *ww,
		      const struct i915_gtt_place *place, unsigned long color,
		      bool busy, struct list_head *victims, bool *dying)
{
	struct i915_gem_object *obj, *next;
	struct drm_mm_scan scan;
	LIST_HEAD(scanned);
	bool others = false;
	int ret = -ENOSPC;

	mutex_lock(&gtt->lock);
	drm_mm_scan_init_with_range(&scan, &gtt->mm, place->size,
				    place->alignment, color, gtt->start,
				    i915_gtt_place_end(gtt, place),
				    DRM_MM_INSERT_BEST);
	i915_gtt_lru_settle(gtt);
	list_for_each_entry(obj, &gtt->lru, gtt_link) {
		others |= obj->evicting;
		if (!evict_candidate(obj, ww, busy))
			continue;
		/* Added at the head: removed below in reverse order. */
		list_add(&obj->evict_link, &scanned);
		if (drm_mm_scan_add_block(&scan, &obj->gtt_node)) {
			ret = 0;
			break;
		}
	}

	list_for_each_entry_safe(obj, next, &scanned, evict_link) {
		list_del(&obj->evict_link);
		if (drm_mm_scan_remove_block(&scan, &obj->gtt_node) &&
		    !i915_gem_evict_claim(obj, victims)) {
			ret = -EAGAIN;
			*dying = true;
		}
	}
	mutex_unlock(&gtt->lock);
	return ret == -ENOSPC && others ? -EAGAIN : ret;
}

/*
 * Lock one victim (unless the caller holds it), wait for it, unbind it.
 * The victim a backoff kept locked stays locked to the end: it was the
 * context's first lock, which lockdep wants dropped last.
 */
static int evict_one(struct i915_gem_object *obj, struct i915_ww *ww)
{
	bool own = i915_ww_holds(ww, obj) || obj == ww->prelocked;
	int ret = 0;

	if (!own) {
		ret = i915_ww_lock(ww, obj);
		if (ret)
			return ret;
	}

	if (!obj->pin_count) {
		trace_i915_gtt_evict(obj, obj->gtt_node.start,
				     obj->gtt_node.size);
		ret = i915_gtt_unbind_idle_locked(obj);
	}

	if (!own)
		i915_ww_unlock(ww, obj);
	return ret;
}

/*
 * Evict the claimed victims (none without @ww) and release every claim,
 * also after an error.
 */
static int evict_victims(struct i915_ww *ww, struct list_head *victims)
{
	struct i915_gem_object *obj, *next;
	int ret = 0;

	list_for_each_entry_safe(obj, next, victims, evict_link) {
		if (!ret && ww)
			ret = evict_one(obj, ww);
		i915_gem_evict_release(obj);
	}
	return ret;
}

/**
 * i915_gem_evict_something - make a hole for a binding
 * @i915: the device
 * @ww: the caller's acquire context; objects it holds are never evicted
 * @place: size and alignment of the binding to make room for
 * @color: the binding's drm_mm colour
 *
 * Return: 0 when the hole should now exist (the caller retries its
 * insertion), -ENOSPC when no set of evictable objects makes one,
 * -EAGAIN when objects this call wanted were held by another evictor (the
 * caller retries a little later), -EDEADLK when @ww must back off (also
 * to wait for objects being freed: &i915_ww.await_frees), -EINTR or
 * -ERESTARTSYS on a signal.
 */
int i915_gem_evict_something(struct i915_device *i915, struct i915_ww *ww,
			     const struct i915_gtt_place *place,
			     unsigned long color)
{
	struct i915_gtt *gtt = &i915->gtt;
	LIST_HEAD(victims);
	bool dying = false;
	int ret, err;

	trace_i915_gtt_evict_something(place->size, place->alignment);
	ret = evict_scan(gtt, ww, place, color, false, &victims, &dying);
	if (ret && list_empty(&victims))
		ret = evict_scan(gtt, ww, place, color, true, &victims,
				 &dying);

	err = evict_victims(ww, &victims);
	if (!err && ret == -EAGAIN && dying)
		err = evict_await_frees(gtt, ww);
	return err ? err : ret;
}

/*
 * Claim what overlaps [start, end) and the neighbours of another colour
 * that abut it: -ENOSPC if one of them is pinned, -EAGAIN if one is
 * another evictor's or being freed (*@dying).
 */
static int evict_claim_range(struct i915_gtt *gtt, u64 start, u64 end,
			     unsigned long color, struct list_head *victims,
			     bool *dying)
{
	struct i915_gem_object *obj;
	struct drm_mm_node *node;
	int ret = 0;

	mutex_lock(&gtt->lock);
	drm_mm_for_each_node_in_range(node, &gtt->mm,
				      start - min_t(u64, start,
						    I915_GTT_PAGE_SIZE),
				      end + I915_GTT_PAGE_SIZE) {
		if ((node->start + node->size == start ||
		     node->start == end) && node->color == color)
			continue;
		/* A GTT mmap's partial view: the caller drops those first. */
		if (i915_gem_mmap_node_is_view(gtt_to_i915(gtt), node)) {
			ret = -EAGAIN;
			break;
		}
		obj = container_of(node, struct i915_gem_object, gtt_node);
		if (READ_ONCE(obj->pin_count)) {
			ret = -ENOSPC;
			break;
		}
		if (obj->evicting || !i915_gem_evict_claim(obj, victims)) {
			*dying = !obj->evicting;
			ret = -EAGAIN;
			break;
		}
	}
	mutex_unlock(&gtt->lock);
	return ret;
}

/**
 * i915_gem_evict_for_node - clear a fixed range of the GTT (softpin)
 * @i915: the device
 * @ww: the caller's acquire context; objects it holds are evicted too
 *	(the caller never asks for a range where one of its own fixed
 *	objects lies)
 * @place: the fixed range to clear
 * @color: the binding's drm_mm colour: abutting objects of another colour
 *	are evicted too, to make room for the guard page
 *
 * Return: 0 when the range should now be free, -ENOSPC if a pinned object
 * lies in it or abuts it with another colour, -EAGAIN if another evictor
 * holds an object there, -EDEADLK when @ww must back off (also to wait
 * for an object there being freed: &i915_ww.await_frees), -EINTR or
 * -ERESTARTSYS on a signal.
 */
int i915_gem_evict_for_node(struct i915_device *i915, struct i915_ww *ww,
			    const struct i915_gtt_place *place,
			    unsigned long color)
{
	struct i915_gtt *gtt = &i915->gtt;
	LIST_HEAD(victims);
	bool dying = false;
	int ret;

	trace_i915_gtt_evict_node(place->offset, place->size);
	ret = evict_claim_range(gtt, place->offset,
				place->offset + place->size, color, &victims,
				&dying);
	if (!ret && list_empty(&victims))
		ret = -ENOSPC; /* nothing there, yet no room: outside the range */
	if (ret) {
		evict_victims(NULL, &victims);
		return dying ? evict_await_frees(gtt, ww) : ret;
	}
	return evict_victims(ww, &victims);
}
