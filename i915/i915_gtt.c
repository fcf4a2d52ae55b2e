// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: the global GTT
 *
 * The graphics address space: a drm_mm allocator over the range the driver
 * manages (every unused entry points at the backend's scratch page:
 * intel-gtt's or the model's), binding and unbinding objects (DMA-mapping
 * their pages, one segment per run of contiguous pages, or taking the
 * addresses an imported dma-buf's exporter mapped, and writing the
 * entries through the hardware seam),
 * unbinding everything unpinned at once and changing the managed range
 * (for LEAVEVT and GEM_INIT, whose ioctls are in i915_gem_init.c), and
 * writing the entries again across suspend and resume.  Pins are
 * i915_gem_pin.c's; making room when the allocator is full is eviction's
 * (i915_gem_evict.c).
 *
 * The first and the last page of the GTT are never handed out: page 0
 * catches stray writes to address 0 and the last page stays on scratch
 * because the GPU prefetches past the end of an object.  Just below the
 * last page the driver keeps %I915_GTT_KERNEL_SIZE bytes for its own
 * objects (the ring and the status page), outside any range GEM_INIT
 * can choose.
 *
 * Below the managed range lies the stolen memory the firmware mapped at
 * GTT address 0 (&i915_hw.stolen_size bytes): the console's framebuffer
 * scans out from there, because this driver does no modesetting.  Those
 * entries are the firmware's: never cleared, never handed out, never
 * inside a range GEM_INIT or a softpin can choose.  Without stolen
 * memory, page 0 takes their place.
 *
 * Binding takes the object's dma_resv lock through an acquire context
 * (&struct i915_ww): when the allocator has no hole, eviction
 * (i915_gem_evict.c) takes the locks of the objects it unbinds in the same
 * context.  Nothing is unbound while the GPU may still use it: every
 * unbind of a possibly busy object waits for the fences in its dma_resv
 * first (i915_gtt_unbind_idle_locked()).  Bound objects sit on an LRU list
 * that execution refreshes, which eviction scans from the cold end.
 *
 * Lock order: an object's dma_resv lock, then &i915_gtt.lock.
 */

#include <uapi/drm/i915_drm.h>
#include <linux/delay.h>
#include <linux/dma-mapping.h>
#include <linux/dma-resv.h>
#include <linux/list_sort.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/sched/signal.h>
#include <linux/sizes.h>

#include "i915_drv.h"
#include "i915_reg.h"
#include "i915_trace.h"

/* GTT space the driver keeps for the ring and the status page. */
#define I915_GTT_KERNEL_SIZE	SZ_64K
/* Rounds of eviction one bind may go through before giving up. */
#define I915_GTT_EVICT_TRIES	16

static struct i915_gtt *obj_gtt(struct i915_gem_object *obj)
{
	return &obj_to_i915(obj)->gtt;
}

static unsigned int obj_npages(struct i915_gem_object *obj)
{
	return obj->base.size >> PAGE_SHIFT;
}

/* The lowest address GEM may manage: past the firmware's stolen range. */
static u64 gtt_floor(struct i915_gtt *gtt)
{
	struct i915_device *i915 = container_of(gtt, struct i915_device, gtt);

	return max_t(u64, i915->hw.stolen_size, I915_GTT_PAGE_SIZE);
}

/*
 * Cache colouring: on these parts (no LLC) the GPU's prefetch may run from
 * a snooped page into an uncached neighbour and hang, so drm_mm keeps a
 * guard page between objects of different caching (the node colour is the
 * object's cache level), and one between a snooped object and the end of
 * the range.
 */
static void gtt_color_adjust(const struct drm_mm_node *node,
			     unsigned long color, u64 *start, u64 *end)
{
	if (drm_mm_node_allocated(node) && node->color != color)
		*start += I915_GTT_PAGE_SIZE;

	node = list_next_entry(node, node_list);
	if (node->color != color)
		*end -= I915_GTT_PAGE_SIZE;
}

static void gtt_init_range(struct i915_gtt *gtt, u64 start, u64 end)
{
	gtt->start = max_t(u64, start, gtt_floor(gtt));
	gtt->end = min_t(u64, end, gtt->kernel_start);
	drm_mm_init(&gtt->mm, gtt->start, gtt->end - gtt->start);
	gtt->mm.color_adjust = gtt_color_adjust;
	/* Beyond the range: scratch, the ring, stolen memory, all uncached. */
	gtt->mm.head_node.color = I915_CACHING_NONE;
}

/* Point every entry but the firmware's stolen-memory ones at scratch. */
static void gtt_clear_above_stolen(struct i915_device *i915)
{
	u64 stolen = i915->hw.stolen_size;

	i915_hw_gtt_clear(&i915->hw, stolen >> PAGE_SHIFT,
			  (i915->gtt.total - stolen) >> PAGE_SHIFT);
}

/**
 * i915_gtt_init - set up the GTT of a freshly bound GPU
 * @i915: the device
 *
 * Points every entry but the firmware's stolen-memory ones at a scratch
 * page and manages the rest minus the guard pages until GEM_INIT narrows
 * it.
 *
 * Return: 0 on success, -ENODEV if the GTT is too small.
 */
int i915_gtt_init(struct i915_device *i915)
{
	struct i915_gtt *gtt = &i915->gtt;

	gtt->total = i915->hw.gtt_total;
	if (gtt->total < i915->hw.stolen_size + I915_GTT_KERNEL_SIZE +
			 4 * I915_GTT_PAGE_SIZE)
		return -ENODEV;
	gtt->kernel_start = gtt->total - I915_GTT_PAGE_SIZE -
			    I915_GTT_KERNEL_SIZE;
	gtt->kernel_next = gtt->kernel_start;

	mutex_init(&gtt->lock);
	INIT_LIST_HEAD(&gtt->lru);
	atomic64_set(&gtt->lru_clock, 0);
	INIT_LIST_HEAD(&gtt->userfault);
	INIT_LIST_HEAD(&gtt->views);
	gtt_clear_above_stolen(i915);
	gtt_init_range(gtt, 0, gtt->total);
	return 0;
}

/**
 * i915_gtt_fini - tear down the GTT
 * @i915: the device; every object must already be gone
 */
void i915_gtt_fini(struct i915_device *i915)
{
	struct i915_gtt *gtt = &i915->gtt;

	drm_mm_takedown(&gtt->mm);
	mutex_destroy(&gtt->lock);
}

/**
 * i915_gtt_map_kernel - map driver-owned pages into the kernel range
 * @i915: the device
 * @dma: DMA addresses of the pages
 * @count: number of pages
 * @caching: snooped or uncached entries
 * @offset: returns the GTT address of the first page
 *
 * The mapping lasts until the device goes away; only bring-up calls this.
 *
 * Return: 0 on success, -ENOSPC when the kernel range is exhausted.
 */
int i915_gtt_map_kernel(struct i915_device *i915, const dma_addr_t *dma,
			unsigned int count, enum i915_gtt_caching caching,
			u32 *offset)
{
	struct i915_gtt *gtt = &i915->gtt;
	u64 size = (u64)count << PAGE_SHIFT;

	if (size > gtt->total - I915_GTT_PAGE_SIZE - gtt->kernel_next)
		return -ENOSPC;

	*offset = gtt->kernel_next;
	gtt->kernel_next += size;
	i915_gtt_remap_kernel(i915, *offset, dma, count, caching);
	return 0;
}

/**
 * i915_gtt_remap_kernel - write a kernel mapping's entries
 * @i915: the device
 * @offset: GTT address from i915_gtt_map_kernel()
 * @dma: DMA addresses of the pages
 * @count: number of pages
 * @caching: snooped or uncached entries
 *
 * i915_gtt_map_kernel() writes them first; resume writes them again after
 * the GPU lost its GTT.
 */
void i915_gtt_remap_kernel(struct i915_device *i915, u32 offset,
			   const dma_addr_t *dma, unsigned int count,
			   enum i915_gtt_caching caching)
{
	i915_hw_gtt_insert(&i915->hw, offset >> PAGE_SHIFT, dma, count,
			   caching);
}

/**
 * i915_gtt_unmap_kernel - point a kernel mapping's entries at scratch
 * @i915: the device
 * @offset: GTT address from i915_gtt_map_kernel()
 * @count: number of pages
 *
 * For teardown, before the pages are freed: the GPU must be done with
 * them.  The range itself is not handed out again.
 */
void i915_gtt_unmap_kernel(struct i915_device *i915, u32 offset,
			   unsigned int count)
{
	i915_hw_gtt_clear(&i915->hw, offset >> PAGE_SHIFT, count);
}

/* The largest segment the device's DMA mapping takes, in whole pages. */
static unsigned int gtt_max_segment(struct device *dev)
{
	unsigned int limit = min_t(size_t, dma_get_max_seg_size(dev),
				   dma_max_mapping_size(dev));

	return max_t(unsigned int, rounddown(limit, PAGE_SIZE), PAGE_SIZE);
}

/* Each page's address in @sgt, a mapping for the device, into @dma. */
static int gtt_dma_addresses(struct sg_table *sgt, dma_addr_t *dma,
			     unsigned int count)
{
	struct sg_dma_page_iter iter;
	unsigned int i = 0;

	for_each_sgtable_dma_page(sgt, &iter, 0) {
		if (i == count)
			break;
		dma[i++] = sg_page_iter_dma_address(&iter);
	}
	/* an exporter may have mapped less than the dma-buf's size */
	return i == count ? 0 : -EINVAL;
}

/**
 * i915_gtt_dma_map_pages - map pages for the GPU
 * @dev: the GPU's device
 * @pages: the pages
 * @count: how many
 * @dma: filled with the bus address of each page
 *
 * The pages are mapped as a table of segments, one per run of physically
 * contiguous pages: the DMA API then does (and dma-debug tracks) one
 * mapping per run, not one per page.
 *
 * Coherency with the CPU caches is the memory domains' business
 * (clflush and the chipset flush, i915_gem_domain.c), so the mapping
 * skips the DMA API's CPU sync, as upstream's binding does.  That is
 * also what makes it legal for a page to be mapped twice at once: by the
 * full binding and a GTT view, or by another device's dma-buf attachment
 * and by us (dma-debug reports an overlapping mapping otherwise).
 *
 * Return: the mapping, for i915_gtt_dma_unmap_pages(), or an ERR_PTR():
 * -ENOMEM.
 */
struct sg_table *i915_gtt_dma_map_pages(struct device *dev,
					struct page **pages,
					unsigned int count, dma_addr_t *dma)
{
	struct sg_table *sgt;
	int ret;

	sgt = kzalloc(sizeof(*sgt), GFP_KERNEL);
	if (!sgt)
		return ERR_PTR(-ENOMEM);
	ret = sg_alloc_table_from_pages_segment(sgt, pages, count, 0,
						(unsigned long)count << PAGE_SHIFT,
						gtt_max_segment(dev),
						GFP_KERNEL);
	if (ret)
		goto err_free;
	ret = -ENOMEM;
	if (dma_map_sgtable(dev, sgt, DMA_BIDIRECTIONAL,
			    DMA_ATTR_SKIP_CPU_SYNC))
		goto err_table;
	ret = gtt_dma_addresses(sgt, dma, count);
	if (ret)
		goto err_unmap;
	return sgt;

err_unmap:
	dma_unmap_sgtable(dev, sgt, DMA_BIDIRECTIONAL, DMA_ATTR_SKIP_CPU_SYNC);
err_table:
	sg_free_table(sgt);
err_free:
	kfree(sgt);
	return ERR_PTR(ret);
}

/**
 * i915_gtt_dma_unmap_pages - undo i915_gtt_dma_map_pages()
 * @dev: the GPU's device
 * @sgt: the mapping it returned; freed
 */
void i915_gtt_dma_unmap_pages(struct device *dev, struct sg_table *sgt)
{
	dma_unmap_sgtable(dev, sgt, DMA_BIDIRECTIONAL, DMA_ATTR_SKIP_CPU_SYNC);
	sg_free_table(sgt);
	kfree(sgt);
}

static void gtt_unmap_pages(struct i915_gem_object *obj)
{
	/* A backing store's own mapping (@sgt) is its to undo. */
	if (obj->gtt_sgt)
		i915_gtt_dma_unmap_pages(obj->base.dev->dev, obj->gtt_sgt);
	obj->gtt_sgt = NULL;
	kvfree(obj->gtt_dma);
	obj->gtt_dma = NULL;
}

static int gtt_map_pages(struct i915_gem_object *obj)
{
	unsigned int n = obj_npages(obj);
	struct sg_table *sgt;
	int ret = 0;

	obj->gtt_dma = kvmalloc_array(n, sizeof(*obj->gtt_dma), GFP_KERNEL);
	if (!obj->gtt_dma)
		return -ENOMEM;
	if (obj->sgt) {
		ret = gtt_dma_addresses(obj->sgt, obj->gtt_dma, n);
	} else {
		sgt = i915_gtt_dma_map_pages(obj->base.dev->dev, obj->pages, n,
					     obj->gtt_dma);
		if (IS_ERR(sgt))
			ret = PTR_ERR(sgt);
		else
			obj->gtt_sgt = sgt;
	}
	if (ret)
		gtt_unmap_pages(obj);
	return ret;
}

/* One attempt at the allocator, without evicting. */
static int gtt_insert_node(struct i915_gem_object *obj,
			   const struct i915_gtt_place *place)
{
	struct i915_gtt *gtt = obj_gtt(obj);
	struct drm_mm_node *node = &obj->gtt_node;
	int ret;

	mutex_lock(&gtt->lock);
	if (place->fixed) {
		node->start = place->offset;
		node->size = place->size;
		node->color = obj->cache_level;
		ret = drm_mm_reserve_node(&gtt->mm, node);
	} else {
		ret = drm_mm_insert_node_in_range(&gtt->mm, node, place->size,
						  place->alignment,
						  obj->cache_level, gtt->start,
						  i915_gtt_place_end(gtt, place),
						  DRM_MM_INSERT_BEST);
	}
	if (!ret) {
		obj->lru_listed = atomic64_inc_return(&gtt->lru_clock);
		obj->lru_used = obj->lru_listed;
		list_add_tail(&obj->gtt_link, &gtt->lru);
	}
	mutex_unlock(&gtt->lock);
	return ret;
}

/*
 * Insert, evicting when the allocator is full.  -EAGAIN from eviction
 * means another evictor holds objects this one wanted: let it finish.
 */
static int gtt_insert_node_evict(struct i915_gem_object *obj,
				 const struct i915_gtt_place *place,
				 struct i915_ww *ww)
{
	struct i915_device *i915 = obj_to_i915(obj);
	unsigned int tries;
	int ret;

	for (tries = 0; tries < I915_GTT_EVICT_TRIES; tries++) {
		ret = gtt_insert_node(obj, place);
		if (ret != -ENOSPC || place->noevict)
			return ret;
		/* GTT mmaps' partial views go first: they are cheap to drop. */
		if (i915_gem_mmap_release_views(i915))
			continue;

		if (place->fixed)
			ret = i915_gem_evict_for_node(i915, ww, place,
						      obj->cache_level);
		else
			ret = i915_gem_evict_something(i915, ww, place,
						       obj->cache_level);
		if (ret == -EAGAIN)
			schedule_timeout_interruptible(1);
		else if (ret)
			return ret;
	}
	return -ENOSPC;
}

static void gtt_write_entries(struct i915_gem_object *obj)
{
	struct i915_hw *hw = &obj_to_i915(obj)->hw;
	enum i915_gtt_caching caching = obj->cache_level == I915_CACHING_NONE ?
					I915_GTT_UNCACHED : I915_GTT_SNOOPED;

	i915_hw_gtt_insert(hw, obj->gtt_node.start >> PAGE_SHIFT,
			   obj->gtt_dma, obj_npages(obj), caching);
}

/**
 * i915_gtt_bind_locked - give an object a GTT address
 * @obj: the object, its dma_resv lock held through @ww
 * @place: the size, alignment or fixed address the binding needs
 * @ww: the acquire context, for locking eviction victims
 *
 * An object already bound where @place allows stays where it is; an
 * unpinned object bound elsewhere waits for the GPU and moves.  When the
 * GTT is full, objects that are neither pinned nor locked by @ww are
 * evicted, idle ones first.  The pages stay pinned while the object is
 * bound.
 *
 * Return: 0 on success, -EINVAL if a pinned object is misplaced, -ENOSPC
 * if no room can be made, -EDEADLK when @ww must back off, -EINTR or
 * -ERESTARTSYS on a signal, -ENOMEM.
 */
int i915_gtt_bind_locked(struct i915_gem_object *obj,
			 const struct i915_gtt_place *place,
			 struct i915_ww *ww)
{
	int ret;

	dma_resv_assert_held(obj->base.resv);

	if (drm_mm_node_allocated(&obj->gtt_node)) {
		if (i915_gtt_placed_locked(&obj_to_i915(obj)->gtt, obj, place))
			return 0;
		if (obj->pin_count)
			return -EINVAL;
		ret = i915_gtt_unbind_idle_locked(obj);
		if (ret)
			return ret;
	}

	ret = i915_gem_object_pin_pages(obj);
	if (ret)
		return ret;

	ret = gtt_map_pages(obj);
	if (ret)
		goto err_unpin;

	ret = gtt_insert_node_evict(obj, place, ww);
	if (ret)
		goto err_unmap;

	gtt_write_entries(obj);
	trace_i915_gtt_bind(obj, obj->gtt_node.start, obj->gtt_node.size);
	return 0;

err_unmap:
	gtt_unmap_pages(obj);
err_unpin:
	i915_gem_object_unpin_pages(obj);
	return ret;
}

/**
 * i915_gtt_unbind_locked - take an object out of the GTT
 * @obj: the object, its dma_resv lock held, idle; a no-op when not bound
 *
 * Points the object's entries back at the scratch page, frees its GTT
 * range and unpins its pages so that they become pageable again.  The
 * caller makes sure that the GPU is done with the object (see
 * i915_gtt_unbind_idle_locked()).
 */
void i915_gtt_unbind_locked(struct i915_gem_object *obj)
{
	struct i915_device *i915 = obj_to_i915(obj);
	struct i915_gtt *gtt = &i915->gtt;

	dma_resv_assert_held(obj->base.resv);

	if (!drm_mm_node_allocated(&obj->gtt_node))
		return;

	trace_i915_gtt_unbind(obj, obj->gtt_node.start, obj->gtt_node.size);
	/* No user PTE may keep pointing at the aperture pages it leaves. */
	i915_gem_object_release_mmap_gtt(obj);
	i915_gem_object_release_fence(obj);
	i915_hw_gtt_clear(&i915->hw, obj->gtt_node.start >> PAGE_SHIFT,
			  obj_npages(obj));

	i915_gem_unpin_all_locked(obj);
	mutex_lock(&gtt->lock);
	list_del(&obj->gtt_link);
	drm_mm_remove_node(&obj->gtt_node);
	mutex_unlock(&gtt->lock);

	gtt_unmap_pages(obj);
	i915_gem_object_unpin_pages(obj);
}

/**
 * i915_gtt_unbind_idle_locked - wait for the GPU, then unbind
 * @obj: the object, its dma_resv lock held
 *
 * Return: 0 once unbound, or -ERESTARTSYS if a signal interrupted the
 * wait (the object stays bound).
 */
int i915_gtt_unbind_idle_locked(struct i915_gem_object *obj)
{
	long ret;

	dma_resv_assert_held(obj->base.resv);

	if (!drm_mm_node_allocated(&obj->gtt_node))
		return 0;

	ret = dma_resv_wait_timeout(obj->base.resv, DMA_RESV_USAGE_BOOKKEEP,
				    true, MAX_SCHEDULE_TIMEOUT);
	if (ret < 0)
		return ret;

	i915_gtt_unbind_locked(obj);
	return 0;
}

/* Move a bound object to the hot end of the LRU now; under the GTT's lock. */
static void gtt_touch_locked(struct i915_gtt *gtt, struct i915_gem_object *obj)
{
	lockdep_assert_held(&gtt->lock);

	if (!drm_mm_node_allocated(&obj->gtt_node))
		return;
	obj->lru_listed = atomic64_inc_return(&gtt->lru_clock);
	WRITE_ONCE(obj->lru_used, obj->lru_listed);
	list_move_tail(&obj->gtt_link, &gtt->lru);
}

/**
 * i915_gtt_touch - mark a bound object as just used
 * @obj: the object, bound, its dma_resv lock held
 *
 * Moves it to the hot end of the LRU list that eviction scans.
 */
void i915_gtt_touch(struct i915_gem_object *obj)
{
	struct i915_gtt *gtt = obj_gtt(obj);

	dma_resv_assert_held(obj->base.resv);

	mutex_lock(&gtt->lock);
	gtt_touch_locked(gtt, obj);
	mutex_unlock(&gtt->lock);
}

/**
 * i915_gtt_lru_stamp - a stamp for the objects of one use
 * @i915: the device
 *
 * Return: a stamp later than every one handed out before, for
 * i915_gtt_mark_used() on each object an execbuffer uses.
 */
u64 i915_gtt_lru_stamp(struct i915_device *i915)
{
	return atomic64_inc_return(&i915->gtt.lru_clock);
}

static int gtt_cmp_used(void *priv, const struct list_head *a,
			const struct list_head *b)
{
	const struct i915_gem_object *x =
		list_entry(a, struct i915_gem_object, gtt_link);
	const struct i915_gem_object *y =
		list_entry(b, struct i915_gem_object, gtt_link);

	return x->lru_listed > y->lru_listed;
}

/**
 * i915_gtt_lru_settle - put the LRU list in the order of the last uses
 * @gtt: the GTT, its lock held
 *
 * The list is in the order of each object's &i915_gem_object.lru_listed;
 * objects used since they were placed (i915_gtt_mark_used()) are taken
 * out, sorted by their last use (list_sort() is stable: objects of one
 * stamp keep their order) and merged back, so that the list is
 * least recently used first, as if every use had moved its objects to
 * the tail at once.  One pass over the list, plus the sort of the moved.
 */
void i915_gtt_lru_settle(struct i915_gtt *gtt)
{
	struct i915_gem_object *obj, *next;
	struct list_head *pos;
	LIST_HEAD(used);
	u64 stamp;

	lockdep_assert_held(&gtt->lock);

	list_for_each_entry_safe(obj, next, &gtt->lru, gtt_link) {
		stamp = READ_ONCE(obj->lru_used);
		if (stamp <= obj->lru_listed)
			continue;
		obj->lru_listed = stamp;
		list_move_tail(&obj->gtt_link, &used);
	}
	if (list_empty(&used))
		return;
	list_sort(NULL, &used, gtt_cmp_used);

	/* Merge: each used object goes before the first listed later. */
	pos = gtt->lru.next;
	list_for_each_entry_safe(obj, next, &used, gtt_link) {
		while (pos != &gtt->lru &&
		       list_entry(pos, struct i915_gem_object,
				  gtt_link)->lru_listed <= obj->lru_listed)
			pos = pos->next;
		list_move_tail(&obj->gtt_link, pos);
	}
}

/*
 * Claim (i915_gem_evict_claim()) the bound objects that nobody pinned and
 * no other evictor holds.
 */
static void gtt_claim_unpinned(struct i915_gtt *gtt, struct list_head *list)
{
	struct i915_gem_object *obj;

	mutex_lock(&gtt->lock);
	list_for_each_entry(obj, &gtt->lru, gtt_link)
		if (!READ_ONCE(obj->pin_count) && !obj->evicting)
			i915_gem_evict_claim(obj, list);
	mutex_unlock(&gtt->lock);
}

/*
 * Whether a bound, unpinned object is in someone else's hands: claimed by
 * another evictor (the shrinker, an execbuffer) or being freed (its last
 * reference is gone and its free unbinds it).  Both end by themselves.
 */
static bool gtt_others_evicting(struct i915_gtt *gtt)
{
	struct i915_gem_object *obj;
	bool others = false;

	mutex_lock(&gtt->lock);
	list_for_each_entry(obj, &gtt->lru, gtt_link) {
		if (!READ_ONCE(obj->pin_count) &&
		    (obj->evicting || !kref_read(&obj->base.refcount))) {
			others = true;
			break;
		}
	}
	mutex_unlock(&gtt->lock);
	return others;
}

/* Unbind every object gtt_claim_unpinned() can claim, once. */
static int gtt_evict_claimable(struct i915_device *i915)
{
	struct i915_gem_object *obj, *next;
	LIST_HEAD(victims);
	int ret = 0;

	gtt_claim_unpinned(&i915->gtt, &victims);
	list_for_each_entry_safe(obj, next, &victims, evict_link) {
		if (!ret)
			ret = dma_resv_lock_interruptible(obj->base.resv, NULL);
		if (!ret) {
			if (!obj->pin_count)
				ret = i915_gtt_unbind_idle_locked(obj);
			dma_resv_unlock(obj->base.resv);
		}
		i915_gem_evict_release(obj);
	}
	return ret;
}

/**
 * i915_gtt_evict_all - unbind every object that is not pinned
 * @i915: the device
 *
 * Waits for the GPU to finish with each object before unbinding it.  An
 * object another evictor holds or whose free is running cannot be claimed:
 * this waits for them to let go (the shrinker or a client's eviction may
 * still hold an object the caller has just closed) and tries again, a few
 * times, so that a caller sees the GTT empty of unpinned objects unless
 * other clients keep binding meanwhile.
 *
 * Return: 0 on success, or -EINTR/-ERESTARTSYS if a signal interrupted a
 * wait (objects already handled stay unbound).
 */
int i915_gtt_evict_all(struct i915_device *i915)
{
	int tries = 4;
	int ret;

	i915_gem_mmap_release_views(i915);
	for (;;) {
		ret = gtt_evict_claimable(i915);
		if (ret || !gtt_others_evicting(&i915->gtt) || !--tries)
			return ret;
		do {
			if (signal_pending(current))
				return -ERESTARTSYS;
			usleep_range(100, 1000);
		} while (gtt_others_evicting(&i915->gtt));
	}
}

/**
 * i915_gtt_suspend - forget the GTT's entries before the GPU sleeps
 * @i915: the device, idle
 *
 * Points every entry at the scratch page, as upstream does: whether or
 * not the GPU keeps its power (suspend-to-idle keeps it, S3 does not), no
 * entry may count on surviving; i915_gtt_resume() writes them all again.
 * (Entries the firmware owns, stolen memory's, are not the driver's to
 * clear: the BIOS sets them again on resume from S3.)
 */
void i915_gtt_suspend(struct i915_device *i915)
{
	i915_gem_mmap_revoke_all(i915);
	gtt_clear_above_stolen(i915);
}

/**
 * i915_gtt_resume - write the GTT again after the GPU lost it
 * @i915: the device, idle; nothing binds or unbinds meanwhile (user tasks
 *	are frozen and every request is retired)
 *
 * The backend enables the GTT again (real chipsets), every entry above
 * the firmware's stolen memory goes back on the scratch page, then each
 * bound object's entries are written
 * from its pages' DMA addresses, pinned or not.  The driver's own range
 * (ring, status page) is rewritten by i915_ring_resume().
 */
void i915_gtt_resume(struct i915_device *i915)
{
	struct i915_gtt *gtt = &i915->gtt;
	struct i915_gem_object *obj;

	if (i915_hw_resume(&i915->hw))
		drm_err(&i915->drm, "GTT not enabled again after resume\n");
	/* Stolen memory is the firmware's: it maps it again itself. */
	gtt_clear_above_stolen(i915);
	mutex_lock(&gtt->lock);
	list_for_each_entry(obj, &gtt->lru, gtt_link)
		gtt_write_entries(obj);
	mutex_unlock(&gtt->lock);
}

/**
 * i915_gtt_set_range - choose the range of the GTT that GEM manages
 * @i915: the device
 * @start: first byte of the range
 * @end: end of the range (exclusive)
 *
 * Unbinds every unpinned object and re-creates the allocator over
 * [@start, @end), minus the firmware's stolen memory (or page 0), the
 * last guard page and the driver's own range.
 *
 * Return: 0 on success, -EINVAL for a range that is empty (also once
 * those are taken out), unaligned or beyond the GTT, -EBUSY while pinned
 * objects remain bound, -EINTR or -ERESTARTSYS on a signal.
 */
int i915_gtt_set_range(struct i915_device *i915, u64 start, u64 end)
{
	struct i915_gtt *gtt = &i915->gtt;
	int ret;

	if (start >= end ||
	    !IS_ALIGNED(start | end, I915_GTT_PAGE_SIZE) ||
	    end > gtt->total ||
	    max_t(u64, start, gtt_floor(gtt)) >=
	    min_t(u64, end, gtt->kernel_start))
		return -EINVAL;

	ret = i915_gtt_evict_all(i915);
	if (ret)
		return ret;

	mutex_lock(&gtt->lock);
	if (!drm_mm_clean(&gtt->mm)) {
		ret = -EBUSY;
	} else {
		drm_mm_takedown(&gtt->mm);
		gtt_init_range(gtt, start, end);
	}
	mutex_unlock(&gtt->lock);
	return ret;
}
