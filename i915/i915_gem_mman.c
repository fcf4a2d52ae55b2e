// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: GTT, WC and offset mappings (MMAP_GTT, MMAP_OFFSET)
 *
 * MMAP_OFFSET (and MMAP_GTT, the same ioctl with flags 0) gives a client a
 * fake offset for mmap() on the DRM fd: one &struct i915_mmap_offset per
 * object and mapping type, each with its own node in the device's
 * drm_vma_offset_manager, readable by the files that asked for it (the
 * node is revoked for a file when it closes its handle).  i915_gem_mmap()
 * is the fd's mmap: it finds the node (the mapping must start at the
 * object's first page) and sets the mapping up by type:
 *
 * - GTT: a PFN mapping through the CPU aperture (BAR 2), write-combined.
 *   Its fault binds the object into the mappable part of the GTT
 *   (where there is a hole: nothing is evicted for it) and inserts the
 *   page frames the hardware seam names for those aperture pages
 *   (i915_hw_aperture_pfn()).  An object larger than half the mappable
 *   range, or one that finds no hole in it, gets a partial view instead
 *   (evicting if needed): a 1 MiB chunk of its pages around the faulting
 *   one, bound on its own at another GTT address, as upstream does.
 *   Snooped objects give SIGBUS (GTT access to them is incoherent on
 *   these parts without LLC).  Another driver's dma-buf imported here
 *   is mapped this way too (only this way, as upstream), its pages the
 *   exporter's, bound as execbuffer binds them; it gets no partial view
 *   (those read shmfs pages): one that does not fit gives SIGBUS, and
 *   ptrace's ->access of its mapping fails (-EINVAL).
 * - WC, WB, UC: CPU mappings of the object's shmfs pages, with
 *   pgprot_writecombine(), the default, or pgprot_noncached(): the
 *   mapping becomes one of the shmfs file (as the legacy MMAP's), whose
 *   fault hands the core the file's page.  Unlike the legacy MMAP's, it
 *   also holds the object, as upstream's, and its fault and ->access get
 *   the object's pages first: a purged object gives SIGBUS (-EFAULT), not
 *   a new zeroed page.  Like upstream's, these mappings and the GTT ones are
 *   VM_IO (no get_user_pages()); ptrace and /proc/pid/mem go through
 *   ->access, which fails an access that runs past the object.
 *
 * User PTEs of a GTT mapping are zapped before the GTT entries behind them
 * are rewritten: on unbind (eviction, caching change, free, GEM_INIT and
 * LEAVEVT), when a partial view is dropped, on suspend, and through
 * i915_gem_object_release_mmap_gtt() for whoever changes how the aperture
 * shows an object (tiling).  Faulted objects sit on &i915_gtt.userfault
 * until revoked, so that suspend can revoke them all.
 *
 * Tiled objects: the fault binds the object where a fence register can
 * describe it (i915_gem_object_fence_place(): on Gen3 fence-sized and
 * -aligned, in the aperture) and gives it a fence, which the CPU's
 * accesses go through: the mapping shows the linear image.  The fence is
 * not pinned: whoever steals it zaps the old owner's PTEs first
 * (i915_gem_object_zap_mmap_gtt()), and the next access faults and
 * takes a fence again; with every fence pinned by running execbuffers
 * the fault retries.  A tiled object that does not fit the mappable
 * range whole gets partial views, as upstream: each starts on a row of
 * tiles (1 MiB rounded up to whole rows), is bound where a fence can
 * describe it (on Gen3 a naturally aligned power of two) and takes a
 * fence of its own (i915_gem_view_pin_fence()) whose start is the
 * view's GTT address and whose stride and tiling are the object's, so
 * that the aperture shows the chunk linear; a steal of that fence zaps
 * the view's PTEs, and dropping the view releases it.
 *
 * Locking: the fault runs under mmap_lock and takes the object's dma_resv
 * lock through an acquire context (eviction may take others'), then
 * &i915_gtt.lock; zapping takes the mapping's i_mmap_rwsem inside those.
 * No path takes mmap_lock inside a dma_resv lock (no user copy happens
 * under one).  Partial views are on &i915_gtt.views and
 * &i915_gem_object.views, under &i915_gtt.lock; a view being filled by a
 * fault is pinned and stays until it is unpinned.  Views are made and
 * dropped under &i915_fences.lock too, taken before &i915_gtt.lock (as a
 * fence steal zaps under it), so that a view's fence goes with its node.
 */

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_vma_manager.h>
#include <uapi/drm/i915_drm.h>
#include <linux/dma-mapping.h>
#include <linux/dma-resv.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>
#include <asm/memtype.h>

#include "i915_drv.h"

/* Pages of one partial view, as upstream's MIN_CHUNK_PAGES. */
#define I915_GTT_VIEW_PAGES	(SZ_1M >> PAGE_SHIFT)
/* Partial views kept bound at most; the least recently used goes first. */
#define I915_GTT_VIEWS_MAX	32
/* Rounds of eviction one partial view may go through. */
#define I915_GTT_VIEW_TRIES	16

/**
 * struct i915_mmap_offset - one fake offset of an object
 * @vma_node: the node in the device's offset manager
 * @obj: the object (no reference: the object frees its offsets)
 * @type: the kind of mapping it gives
 */
struct i915_mmap_offset {
	struct drm_vma_offset_node vma_node;
	struct i915_gem_object *obj;
	enum i915_mmap_type type;
};

/**
 * struct i915_gtt_view - a chunk of an object bound for a GTT mmap
 * @node: its place in the GTT, inside the mappable range
 * @obj: the object (no reference: the object drops its views first)
 * @dev: the device the pages are DMA-mapped for
 * @first: first page of the object in the view
 * @count: pages in the view
 * @pin: faults inserting PTEs from the view right now; a pinned view is
 *	never dropped
 * @pages: the pages, each with a reference
 * @dma: their DMA addresses
 * @sgt: their mapping for the device (i915_gtt_dma_map_pages()), once
 *	every page is got
 * @link: entry in &i915_gtt.views, least recently used first
 * @obj_link: entry in &i915_gem_object.views
 * @fv: its fence, if the object was tiled when the view was made
 *	(@fv.size is 0 otherwise); the view is dropped before the object's
 *	tiling changes
 *
 * All fields but @pages, @dma, @sgt and @fv are under &i915_gtt.lock.
 */
struct i915_gtt_view {
	struct drm_mm_node node;
	struct i915_gem_object *obj;
	struct device *dev;
	pgoff_t first;
	unsigned int count;
	unsigned int pin;
	struct page **pages;
	dma_addr_t *dma;
	struct sg_table *sgt;
	struct list_head link;
	struct list_head obj_link;
	struct i915_fence_view fv;
};

static struct address_space *dev_mapping(struct i915_gem_object *obj)
{
	return obj->base.dev->anon_inode->i_mapping;
}

/**
 * i915_gem_mmap_zap_range - zap the GTT mmap PTEs of a range of pages
 * @obj: the object, alive
 * @first: first page of the object
 * @count: pages
 *
 * For a partial view that loses its fence register.
 */
void i915_gem_mmap_zap_range(struct i915_gem_object *obj, pgoff_t first,
			     unsigned int count)
{
	struct i915_mmap_offset *mmo = READ_ONCE(obj->mmo[I915_MMAP_TYPE_GTT]);

	if (!mmo)
		return;
	unmap_mapping_range(dev_mapping(obj),
			    drm_vma_node_offset_addr(&mmo->vma_node) +
			    ((u64)first << PAGE_SHIFT),
			    (u64)count << PAGE_SHIFT, 1);
}

/* Once unlinked, a view is the releaser's alone: @obj may be gone. */
static void view_free(struct i915_gtt_view *view)
{
	unsigned int i;

	if (view->sgt)
		i915_gtt_dma_unmap_pages(view->dev, view->sgt);
	for (i = 0; view->pages && i < view->count; i++) {
		if (view->pages[i]) {
			set_page_dirty(view->pages[i]);
			put_page(view->pages[i]);
		}
	}
	kvfree(view->dma);
	kvfree(view->pages);
	kfree(view);
}

/*
 * Dropping views takes the fence lock, then the GTT lock: a tiled view's
 * fence goes with its node.
 */
static void views_lock(struct i915_device *i915)
{
	i915_fences_lock(i915);
	mutex_lock(&i915->gtt.lock);
}

static void views_unlock(struct i915_device *i915)
{
	mutex_unlock(&i915->gtt.lock);
	i915_fences_unlock(i915);
}

/*
 * Take an unpinned view out of the GTT: its user PTEs first, then its
 * entries (while its fence still describes them), then its fence; the
 * caller frees it once the locks are dropped.  Under views_lock().
 */
static void view_unlink_locked(struct i915_gtt *gtt, struct i915_gtt_view *view,
			       struct list_head *dead)
{
	struct i915_device *i915 = container_of(gtt, struct i915_device, gtt);

	lockdep_assert_held(&gtt->lock);
	i915_gem_mmap_zap_range(view->obj, view->first, view->count);
	i915_hw_gtt_clear(&i915->hw, view->node.start >> PAGE_SHIFT,
			  view->count);
	i915_gem_view_release_fence_locked(i915, &view->fv);
	drm_mm_remove_node(&view->node);
	list_del(&view->obj_link);
	list_move_tail(&view->link, dead);
	gtt->num_views--;
}

/* Drop the least recently used view that is not in use. */
static void views_trim_locked(struct i915_gtt *gtt, struct list_head *dead)
{
	struct i915_gtt_view *view;

	list_for_each_entry(view, &gtt->views, link) {
		if (!view->pin) {
			view_unlink_locked(gtt, view, dead);
			return;
		}
	}
}

static void views_free(struct list_head *dead)
{
	struct i915_gtt_view *view, *next;

	list_for_each_entry_safe(view, next, dead, link)
		view_free(view);
}

/**
 * i915_gem_mmap_release_views - drop every partial view not in use
 * @i915: the device
 *
 * For a binding that finds no room, and for GEM_INIT, LEAVEVT and
 * suspend.  Takes &i915_gtt.lock.
 *
 * Return: the number of views dropped.
 */
unsigned int i915_gem_mmap_release_views(struct i915_device *i915)
{
	struct i915_gtt *gtt = &i915->gtt;
	struct i915_gtt_view *view, *next;
	unsigned int n = 0;
	LIST_HEAD(dead);

	views_lock(i915);
	list_for_each_entry_safe(view, next, &gtt->views, link) {
		if (view->pin)
			continue;
		view_unlink_locked(gtt, view, &dead);
		n++;
	}
	views_unlock(i915);
	views_free(&dead);
	return n;
}

/**
 * i915_gem_mmap_node_is_view - is a GTT node a partial view's?
 * @i915: the device, &i915_gtt.lock held
 * @node: a node of the GTT allocator
 *
 * Return: true for a partial view's node, false for an object's.
 */
bool i915_gem_mmap_node_is_view(struct i915_device *i915,
				const struct drm_mm_node *node)
{
	struct i915_gtt_view *view;

	lockdep_assert_held(&i915->gtt.lock);
	list_for_each_entry(view, &i915->gtt.views, link)
		if (&view->node == node)
			return true;
	return false;
}

/*
 * Forget that @obj's normal binding was faulted into user space; the
 * caller zaps.  Under the GTT lock.
 */
static bool userfault_clear_locked(struct i915_gem_object *obj)
{
	if (!obj->userfault)
		return false;
	obj->userfault = false;
	list_del(&obj->userfault_link);
	return true;
}

/**
 * i915_gem_object_release_mmap_gtt - revoke every GTT mmap PTE of an object
 * @obj: the object, its dma_resv lock held (so none of its views is
 *	being faulted in)
 *
 * Zaps the user PTEs that point at the aperture for @obj and drops its
 * partial views; the next access faults and maps the object again.  For
 * unbinding, and for any change of what the aperture shows at the
 * object's GTT address (tiling, fences).
 */
void i915_gem_object_release_mmap_gtt(struct i915_gem_object *obj)
{
	struct i915_device *i915 = obj_to_i915(obj);
	struct i915_gtt *gtt = &i915->gtt;
	struct i915_gtt_view *view, *next;
	LIST_HEAD(dead);

	dma_resv_assert_held(obj->base.resv);

	views_lock(i915);
	if (userfault_clear_locked(obj))
		i915_gem_mmap_zap_range(obj, 0, obj->base.size >> PAGE_SHIFT);
	list_for_each_entry_safe(view, next, &obj->views, obj_link)
		if (!view->pin)
			view_unlink_locked(gtt, view, &dead);
	views_unlock(i915);
	views_free(&dead);
}

/**
 * i915_gem_object_zap_mmap_gtt - zap the PTEs of an object's normal view
 * @obj: the object; its dma_resv lock need not be held (a fence steal
 *	zaps the old owner from under the new one's lock), but it may not
 *	be freed meanwhile (the fence lock keeps it)
 *
 * For a fence register that stops describing @obj: the next access
 * faults and takes a fence again.  Takes &i915_gtt.lock.
 */
void i915_gem_object_zap_mmap_gtt(struct i915_gem_object *obj)
{
	struct i915_gtt *gtt = &obj_to_i915(obj)->gtt;

	mutex_lock(&gtt->lock);
	if (userfault_clear_locked(obj))
		i915_gem_mmap_zap_range(obj, 0, obj->base.size >> PAGE_SHIFT);
	mutex_unlock(&gtt->lock);
}

/**
 * i915_gem_mmap_revoke_all - revoke every GTT mmap of the device
 * @i915: the device
 *
 * For suspend: zaps the PTEs of every faulted object and drops the
 * partial views; user access faults again after resume.
 */
void i915_gem_mmap_revoke_all(struct i915_device *i915)
{
	struct i915_gtt *gtt = &i915->gtt;
	struct i915_gem_object *obj, *next;

	mutex_lock(&gtt->lock);
	list_for_each_entry_safe(obj, next, &gtt->userfault, userfault_link) {
		userfault_clear_locked(obj);
		i915_gem_mmap_zap_range(obj, 0, obj->base.size >> PAGE_SHIFT);
	}
	mutex_unlock(&gtt->lock);
	i915_gem_mmap_release_views(i915);
}

/**
 * i915_gem_object_mmap_close - a client closed its handle of an object
 * @gem: the object
 * @file: the client
 *
 * The &drm_gem_object_funcs.close callback: the client may no longer mmap
 * the object's offsets.
 */
void i915_gem_object_mmap_close(struct drm_gem_object *gem,
				struct drm_file *file)
{
	struct i915_gem_object *obj = to_i915_obj(gem);
	unsigned int type;

	for (type = 0; type < I915_MMAP_NTYPES; type++) {
		struct i915_mmap_offset *mmo = READ_ONCE(obj->mmo[type]);

		if (mmo)
			drm_vma_node_revoke(&mmo->vma_node, file);
	}
}

/**
 * i915_gem_object_mmap_free - release an object's offsets and views
 * @obj: the object, being freed: no mapping of its offsets is left
 */
void i915_gem_object_mmap_free(struct i915_gem_object *obj)
{
	struct drm_vma_offset_manager *mgr = obj->base.dev->vma_offset_manager;
	struct i915_device *i915 = obj_to_i915(obj);
	struct i915_gtt *gtt = &i915->gtt;
	struct i915_gtt_view *view, *next;
	unsigned int type;
	LIST_HEAD(dead);

	/*
	 * Nothing to do after the device's teardown, whose unbinds dropped
	 * them all (and whose GTT lock is gone); a releaser that took a view
	 * off the list has zapped it already and frees it without @obj.
	 */
	if (READ_ONCE(obj->userfault) || !list_empty_careful(&obj->views)) {
		views_lock(i915);
		userfault_clear_locked(obj);
		list_for_each_entry_safe(view, next, &obj->views, obj_link)
			view_unlink_locked(gtt, view, &dead);
		views_unlock(i915);
		views_free(&dead);
	}

	for (type = 0; type < I915_MMAP_NTYPES; type++) {
		if (!obj->mmo[type])
			continue;
		drm_vma_offset_remove(mgr, &obj->mmo[type]->vma_node);
		kfree(obj->mmo[type]);
		obj->mmo[type] = NULL;
	}
}

/* Usable end of the mappable range of the GTT. */
static u64 mappable_end(struct i915_device *i915)
{
	return min_t(u64, i915->gtt.end, i915->hw.mappable_end);
}

/*
 * Insert the PTEs of user pages [first, first + count) of the object,
 * which the GTT shows from graphics address @gtt_start on, clipped to the
 * mapping.
 */
static int insert_pfns(struct vm_area_struct *vma,
		       struct i915_mmap_offset *mmo, pgoff_t first,
		       unsigned int count, u64 gtt_start)
{
	struct i915_hw *hw = &obj_to_i915(mmo->obj)->hw;
	pgoff_t map_first = vma->vm_pgoff - drm_vma_node_start(&mmo->vma_node);
	pgoff_t map_end = map_first + vma_pages(vma);
	pgoff_t pg, end = min_t(pgoff_t, first + count, map_end);
	unsigned long pfn;
	vm_fault_t vmf;
	int ret;

	for (pg = max(first, map_first); pg < end; pg++) {
		ret = i915_hw_aperture_pfn(hw, gtt_start +
					   ((u64)(pg - first) << PAGE_SHIFT),
					   &pfn);
		if (ret)
			return ret;
		vmf = vmf_insert_pfn(vma, vma->vm_start +
				     ((pg - map_first) << PAGE_SHIFT), pfn);
		if (vmf & VM_FAULT_OOM)
			return -ENOMEM;
		if (vmf & VM_FAULT_ERROR)
			return -EFAULT;
	}
	return 0;
}

/*
 * The normal view: the whole object bound inside the mappable range, its
 * fence (if tiled) pinned.  As upstream, nothing is evicted for it: when
 * it finds no hole, -ENOSPC (or -EINVAL for a pinned misplaced object)
 * sends the caller to a partial view, which may evict.  (Evicting whole
 * objects for it would have two big objects mapped at once evict each
 * other at every access.)
 */
static int fault_normal(struct i915_gem_object *obj, struct i915_ww *ww)
{
	struct i915_device *i915 = obj_to_i915(obj);
	struct i915_gtt_place place = {
		.size = obj->base.size,
		.end = mappable_end(i915),
		.noevict = true,
	};
	int ret;

	/* A tiled object where a fence can describe it, as execbuffer's. */
	i915_gem_object_fence_place(obj, &place);
	if (place.size > (place.end - i915->gtt.start) / 2)
		return -ENOSPC;
	ret = i915_gtt_bind_locked(obj, &place, ww);
	if (ret)
		return ret;
	/*
	 * The CPU sees the linear image through the fence (tiling), pinned
	 * until the PTEs are in and @obj is on the userfault list, where a
	 * steal finds it to zap them.
	 */
	return i915_gem_object_pin_fence(obj);
}

static struct i915_gtt_view *view_find_pin(struct i915_gem_object *obj,
					   pgoff_t first)
{
	struct i915_gtt *gtt = &obj_to_i915(obj)->gtt;
	struct i915_gtt_view *view;

	mutex_lock(&gtt->lock);
	list_for_each_entry(view, &obj->views, obj_link) {
		if (view->first == first) {
			view->pin++;
			list_move_tail(&view->link, &gtt->views);
			mutex_unlock(&gtt->lock);
			return view;
		}
	}
	mutex_unlock(&gtt->lock);
	return NULL;
}

static int view_get_pages(struct i915_gem_object *obj,
			  struct i915_gtt_view *view)
{
	struct address_space *mapping = obj->base.filp->f_mapping;
	struct sg_table *sgt;
	unsigned int i;
	int ret;

	/* A purged or DONTNEED object: -EFAULT, SIGBUS for the fault. */
	ret = i915_gem_object_check_pages(obj, true);
	if (ret)
		return ret;

	view->pages = kvcalloc(view->count, sizeof(*view->pages), GFP_KERNEL);
	view->dma = kvcalloc(view->count, sizeof(*view->dma), GFP_KERNEL);
	if (!view->pages || !view->dma)
		return -ENOMEM;

	for (i = 0; i < view->count; i++) {
		struct page *page;

		page = shmem_read_mapping_page(mapping, view->first + i);
		if (IS_ERR(page))
			return PTR_ERR(page) == -ENOSPC ? -ENOMEM : PTR_ERR(page);
		view->pages[i] = page;
	}
	sgt = i915_gtt_dma_map_pages(view->dev, view->pages, view->count,
				     view->dma);
	if (IS_ERR(sgt))
		return PTR_ERR(sgt);
	view->sgt = sgt;
	return 0;
}

/*
 * Place a new view's node in the mappable range, evicting if needed; a
 * tiled view's where a fence can describe it (on Gen3 a power of two of
 * at least 1 MiB, naturally aligned; on Gen4 whole rows of tiles).
 */
static int view_insert_node(struct i915_gem_object *obj,
			    struct i915_gtt_view *view, struct i915_ww *ww)
{
	struct i915_device *i915 = obj_to_i915(obj);
	struct i915_gtt *gtt = &i915->gtt;
	struct i915_gtt_place place = {
		.size = (u64)view->count << PAGE_SHIFT,
		.end = mappable_end(i915),
	};
	unsigned int tries;
	LIST_HEAD(dead);
	int ret;

	if (obj->tiling != I915_TILING_NONE) {
		place.alignment = i915_gem_fence_alignment(i915, place.size,
							   obj->tiling,
							   obj->stride);
		place.size = i915_gem_fence_size(i915, place.size,
						 obj->tiling, obj->stride);
		view->fv.size = place.size;
	}

	for (tries = 0; tries < I915_GTT_VIEW_TRIES; tries++) {
		views_lock(i915);
		ret = drm_mm_insert_node_in_range(&gtt->mm, &view->node,
						  place.size, place.alignment,
						  I915_CACHING_NONE,
						  gtt->start, place.end,
						  DRM_MM_INSERT_BEST);
		if (!ret) {
			view->pin = 1;
			view->fv.start = view->node.start;
			list_add_tail(&view->link, &gtt->views);
			list_add_tail(&view->obj_link, &obj->views);
			if (++gtt->num_views > I915_GTT_VIEWS_MAX)
				views_trim_locked(gtt, &dead);
		}
		views_unlock(i915);
		views_free(&dead);
		if (ret != -ENOSPC)
			return ret;

		if (i915_gem_mmap_release_views(i915))
			continue;
		ret = i915_gem_evict_something(i915, ww, &place,
					       I915_CACHING_NONE);
		if (ret == -EAGAIN)
			schedule_timeout_interruptible(1);
		else if (ret)
			return ret;
	}
	return -ENOSPC;
}

/*
 * A partial view around page @page of the object, pinned.  A tiled
 * object's views start on a row of tiles, so that a fence of their own
 * shows them as the whole object's fence would (upstream's
 * compute_partial_view()).
 */
static struct i915_gtt_view *view_get(struct i915_gem_object *obj,
				      pgoff_t page, struct i915_ww *ww)
{
	pgoff_t npages = obj->base.size >> PAGE_SHIFT;
	pgoff_t chunk = I915_GTT_VIEW_PAGES;
	struct i915_gtt_view *view;
	int ret;

	if (obj->tiling != I915_TILING_NONE)
		chunk = roundup(chunk, max_t(pgoff_t, 1,
					     i915_gem_tile_row_size(obj) >>
					     PAGE_SHIFT));
	page = rounddown(page, chunk);
	view = view_find_pin(obj, page);
	if (view)
		return view;

	view = kzalloc(sizeof(*view), GFP_KERNEL);
	if (!view)
		return ERR_PTR(-ENOMEM);
	view->obj = obj;
	view->dev = obj->base.dev->dev;
	view->first = page;
	view->count = min_t(pgoff_t, chunk, npages - page);
	view->fv.obj = obj;
	view->fv.first = view->first;
	view->fv.count = view->count;

	ret = view_get_pages(obj, view);
	if (ret)
		goto err_free;
	ret = view_insert_node(obj, view, ww);
	if (ret)
		goto err_free;

	i915_hw_gtt_insert(&obj_to_i915(obj)->hw,
			   view->node.start >> PAGE_SHIFT, view->dma,
			   view->count, I915_GTT_UNCACHED);
	return view;

err_free:
	view_free(view);
	return ERR_PTR(ret);
}

static void view_unpin(struct i915_gem_object *obj, struct i915_gtt_view *view)
{
	struct i915_gtt *gtt = &obj_to_i915(obj)->gtt;

	mutex_lock(&gtt->lock);
	view->pin--;
	mutex_unlock(&gtt->lock);
}

/*
 * A tiled view's PTEs go in with its fence pinned: a steal of the fence
 * afterwards zaps them (i915_gem_mmap_zap_range()), and the next access
 * faults here again.
 */
static int fault_partial(struct vm_area_struct *vma,
			 struct i915_mmap_offset *mmo, pgoff_t page,
			 struct i915_ww *ww)
{
	struct i915_gtt_view *view;
	int ret = 0;

	view = view_get(mmo->obj, page, ww);
	if (IS_ERR(view))
		return PTR_ERR(view);
	if (view->fv.size)
		ret = i915_gem_view_pin_fence(&view->fv);
	if (!ret) {
		ret = insert_pfns(vma, mmo, view->first, view->count,
				  view->node.start);
		if (view->fv.size)
			i915_gem_view_unpin_fence(&view->fv);
	}
	view_unpin(mmo->obj, view);
	return ret;
}

static int gtt_fault_locked(struct vm_area_struct *vma,
			    struct i915_mmap_offset *mmo, pgoff_t page,
			    struct i915_ww *ww)
{
	struct i915_gem_object *obj = mmo->obj;
	struct i915_gtt *gtt = &obj_to_i915(obj)->gtt;
	int ret;

	/* Uncached GTT access to snooped pages is incoherent here (no LLC). */
	if (obj->cache_level != I915_CACHING_NONE)
		return -EFAULT;
	/* Flushed at the next domain change, pread or pwrite. */
	if (vma->vm_flags & VM_WRITE)
		obj->gtt_written = true;

	ret = fault_normal(obj, ww);
	if ((ret == -ENOSPC || ret == -EINVAL) && i915_gem_object_is_shmem(obj))
		return fault_partial(vma, mmo, page, ww);
	if (ret)
		return ret;

	i915_gtt_touch(obj);
	ret = insert_pfns(vma, mmo, 0, obj->base.size >> PAGE_SHIFT,
			  obj->gtt_node.start);
	if (!ret) {
		mutex_lock(&gtt->lock);
		if (!obj->userfault) {
			obj->userfault = true;
			list_add(&obj->userfault_link, &gtt->userfault);
		}
		mutex_unlock(&gtt->lock);
	}
	i915_gem_object_unpin_fence(obj);
	return ret;
}

static vm_fault_t errno_to_vm_fault(int ret)
{
	switch (ret) {
	case 0:
	case -EAGAIN:
	case -EINTR:
	case -ERESTARTSYS:
	case -EBUSY:
	case -ENOBUFS: /* every fence pinned by running execbuffers */
		/* Retry, or let the signal be handled first. */
		return VM_FAULT_NOPAGE;
	case -ENOMEM:
		return VM_FAULT_OOM;
	default:
		return VM_FAULT_SIGBUS;
	}
}

static vm_fault_t gtt_vm_fault(struct vm_fault *vmf)
{
	struct vm_area_struct *vma = vmf->vma;
	struct i915_mmap_offset *mmo = vma->vm_private_data;
	struct i915_gem_object *obj = mmo->obj;
	pgoff_t page;
	struct i915_ww ww;
	int idx, ret;

	page = vma->vm_pgoff - drm_vma_node_start(&mmo->vma_node) +
	       ((vmf->address - vma->vm_start) >> PAGE_SHIFT);
	if (page >= obj->base.size >> PAGE_SHIFT)
		return VM_FAULT_SIGBUS;

	/* After the device is unplugged the aperture is gone. */
	if (!drm_dev_enter(obj->base.dev, &idx))
		return VM_FAULT_SIGBUS;

	i915_ww_init(&ww);
	for (;;) {
		ret = i915_ww_lock(&ww, obj);
		if (!ret)
			ret = gtt_fault_locked(vma, mmo, page, &ww);
		if (ret != -EDEADLK)
			break;
		ret = i915_ww_backoff(&ww);
		if (ret)
			break;
	}
	i915_ww_fini(&ww);
	drm_dev_exit(idx);
	return errno_to_vm_fault(ret);
}

static void gtt_vm_open(struct vm_area_struct *vma)
{
	struct i915_mmap_offset *mmo = vma->vm_private_data;

	drm_gem_object_get(&mmo->obj->base);
}

static void gtt_vm_close(struct vm_area_struct *vma)
{
	struct i915_mmap_offset *mmo = vma->vm_private_data;

	drm_gem_object_put(&mmo->obj->base);
}

/*
 * ptrace and /proc/pid/mem: the mappings are VM_IO, so the core asks
 * here.  The bytes come from the shmfs pages, as upstream reads them
 * through a kernel map of the object; as upstream, an access that runs
 * past the object fails whole.
 */
static int access_pages(struct file *filp, u64 size, u64 offset, void *buf,
			int len, int write)
{
	int done = 0;

	if (len <= 0 || offset > size || len > size - offset)
		return -EINVAL;

	while (done < len) {
		unsigned int off = offset_in_page(offset + done);
		int n = min_t(int, len - done, PAGE_SIZE - off);
		struct page *page;
		char *vaddr;

		page = shmem_read_mapping_page(filp->f_mapping,
					       (offset + done) >> PAGE_SHIFT);
		if (IS_ERR(page))
			return done ? done : PTR_ERR(page);
		vaddr = kmap_local_page(page);
		if (write) {
			memcpy(vaddr + off, buf + done, n);
			set_page_dirty(page);
		} else {
			memcpy(buf + done, vaddr + off, n);
		}
		kunmap_local(vaddr);
		put_page(page);
		done += n;
	}
	return done;
}

static int gtt_vm_access(struct vm_area_struct *vma, unsigned long addr,
			 void *buf, int len, int write)
{
	struct i915_mmap_offset *mmo = vma->vm_private_data;
	struct i915_gem_object *obj = mmo->obj;
	u64 offset = addr - vma->vm_start +
		     ((u64)(vma->vm_pgoff -
			    drm_vma_node_start(&mmo->vma_node)) << PAGE_SHIFT);

	/* An imported dma-buf has no shmfs file to read (see the DOC). */
	if (!i915_gem_object_is_shmem(obj))
		return -EINVAL;
	return access_pages(obj->base.filp, obj->base.size, offset, buf, len,
			    write);
}

static const struct vm_operations_struct gtt_vm_ops = {
	.fault = gtt_vm_fault,
	.open = gtt_vm_open,
	.close = gtt_vm_close,
	.access = gtt_vm_access,
};

/* May a CPU mapping get the object's pages?  0 or -EFAULT (purged). */
static int cpu_check_pages(struct i915_gem_object *obj)
{
	int ret;

	ret = dma_resv_lock_interruptible(obj->base.resv, NULL);
	if (ret)
		return ret;
	ret = i915_gem_object_check_pages(obj, true);
	dma_resv_unlock(obj->base.resv);
	return ret;
}

static int cpu_vm_access(struct vm_area_struct *vma, unsigned long addr,
			 void *buf, int len, int write)
{
	struct i915_mmap_offset *mmo = vma->vm_private_data;
	struct file *filp = vma->vm_file;
	int ret;

	ret = cpu_check_pages(mmo->obj);
	if (ret)
		return ret;
	return access_pages(filp, i_size_read(file_inode(filp)),
			    addr - vma->vm_start +
			    ((u64)vma->vm_pgoff << PAGE_SHIFT), buf, len, write);
}

/*
 * A CPU mapping's fault: the shmfs page at that offset, which the core
 * maps (with the mapping's pgprot) and tracks like any page of the file.
 * As upstream's, it gets the object's pages first: a purged object (or
 * one DONTNEED before it had pages) gives SIGBUS, not a new zeroed page.
 * The page is looked up and locked under the object's lock, so a purge
 * (which truncates under that lock) either comes before and is refused
 * here, or after and unmaps what the core installs.
 */
static vm_fault_t cpu_vm_fault(struct vm_fault *vmf)
{
	struct i915_mmap_offset *mmo = vmf->vma->vm_private_data;
	struct i915_gem_object *obj = mmo->obj;
	struct file *filp = vmf->vma->vm_file;
	struct page *page = NULL;
	int ret;

	if (vmf->pgoff >= obj->base.size >> PAGE_SHIFT)
		return VM_FAULT_SIGBUS;

	ret = dma_resv_lock_interruptible(obj->base.resv, NULL);
	if (ret)
		return errno_to_vm_fault(ret);
	ret = i915_gem_object_check_pages(obj, true);
	if (!ret) {
		page = shmem_read_mapping_page(filp->f_mapping, vmf->pgoff);
		if (IS_ERR(page))
			ret = PTR_ERR(page) == -ENOSPC ? -ENOMEM : PTR_ERR(page);
		else
			lock_page(page);
	}
	dma_resv_unlock(obj->base.resv);
	if (ret)
		return errno_to_vm_fault(ret);

	vmf->page = page;
	return VM_FAULT_LOCKED;
}

/* Each CPU mapping holds the object, as a GTT one does. */
static const struct vm_operations_struct cpu_vm_ops = {
	.fault = cpu_vm_fault,
	.open = gtt_vm_open,
	.close = gtt_vm_close,
	.access = cpu_vm_access,
};

/* WC, WB, UC: the mapping becomes one of the object's shmfs file. */
static int mmap_cpu(struct i915_gem_object *obj, struct i915_mmap_offset *mmo,
		    struct vm_area_struct *vma)
{
	int ret;

	vma->vm_pgoff -= drm_vma_node_start(&mmo->vma_node);
	vma_set_file(vma, obj->base.filp);
	ret = call_mmap(vma->vm_file, vma);
	if (ret)
		return ret;
	/* As upstream's: no GUP (VM_IO), ptrace through access. */
	vma->vm_ops = &cpu_vm_ops;
	vma->vm_private_data = mmo;
	vma->vm_flags |= VM_IO | VM_DONTEXPAND | VM_DONTDUMP;

	if (mmo->type == I915_MMAP_TYPE_WC)
		vma->vm_page_prot =
			pgprot_writecombine(vm_get_page_prot(vma->vm_flags));
	else if (mmo->type == I915_MMAP_TYPE_UC)
		vma->vm_page_prot =
			pgprot_noncached(vm_get_page_prot(vma->vm_flags));
	return 0;
}

/**
 * i915_gem_mmap - the DRM fd's mmap: map an object at its fake offset
 * @filp: the DRM file
 * @vma: the new mapping
 *
 * Return: 0; -EINVAL if no offset starts at the mapping's offset or the
 * mapping extends past the object; -EACCES if the caller's file has no
 * handle to it; -ENODEV once the device is unplugged.
 */
int i915_gem_mmap(struct file *filp, struct vm_area_struct *vma)
{
	struct drm_file *priv = filp->private_data;
	struct drm_device *dev = priv->minor->dev;
	struct drm_vma_offset_manager *mgr = dev->vma_offset_manager;
	struct drm_vma_offset_node *node;
	struct i915_mmap_offset *mmo = NULL;
	int ret;

	if (drm_dev_is_unplugged(dev))
		return -ENODEV;

	drm_vma_offset_lock_lookup(mgr);
	node = drm_vma_offset_exact_lookup_locked(mgr, vma->vm_pgoff,
						  vma_pages(vma));
	if (node && drm_vma_node_is_allowed(node, priv)) {
		mmo = container_of(node, struct i915_mmap_offset, vma_node);
		/* A dying object's offset is removed only when it is freed. */
		if (!kref_get_unless_zero(&mmo->obj->base.refcount))
			mmo = NULL;
	}
	drm_vma_offset_unlock_lookup(mgr);
	if (!mmo)
		return node ? -EACCES : -EINVAL;

	/* The mapping keeps the reference; gtt_vm_close() drops it. */
	if (mmo->type != I915_MMAP_TYPE_GTT) {
		ret = mmap_cpu(mmo->obj, mmo, vma);
		if (ret)
			drm_gem_object_put(&mmo->obj->base);
		return ret;
	}

	vma->vm_flags |= VM_PFNMAP | VM_DONTEXPAND | VM_DONTDUMP | VM_IO;
	vma->vm_page_prot = pgprot_writecombine(vm_get_page_prot(vma->vm_flags));
	vma->vm_ops = &gtt_vm_ops;
	vma->vm_private_data = mmo;
	return 0;
}

/* The object's offset of @type, made on first use; dma_resv lock held. */
static struct i915_mmap_offset *mmo_attach(struct i915_gem_object *obj,
					   enum i915_mmap_type type,
					   struct drm_file *file)
{
	struct drm_vma_offset_manager *mgr = obj->base.dev->vma_offset_manager;
	struct i915_mmap_offset *mmo = obj->mmo[type];
	int ret;

	dma_resv_assert_held(obj->base.resv);

	if (!mmo) {
		mmo = kzalloc(sizeof(*mmo), GFP_KERNEL);
		if (!mmo)
			return ERR_PTR(-ENOMEM);
		mmo->obj = obj;
		mmo->type = type;
		drm_vma_node_reset(&mmo->vma_node);
		ret = drm_vma_offset_add(mgr, &mmo->vma_node,
					 obj->base.size >> PAGE_SHIFT);
		if (ret) {
			kfree(mmo);
			return ERR_PTR(ret);
		}
		WRITE_ONCE(obj->mmo[type], mmo);
	}

	ret = drm_vma_node_allow_once(&mmo->vma_node, file);
	return ret ? ERR_PTR(ret) : mmo;
}

/*
 * MMAP_OFFSET has no extension yet: walk the chain as upstream's
 * i915_user_extensions() with an empty table does.
 */
static int check_extensions(u64 uptr)
{
	struct i915_user_extension __user *ext = u64_to_user_ptr(uptr);
	u32 mbz;
	int i;

	if (!ext)
		return 0;
	if (get_user(mbz, &ext->flags))
		return -EFAULT;
	if (mbz)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(ext->rsvd); i++) {
		if (get_user(mbz, &ext->rsvd[i]))
			return -EFAULT;
		if (mbz)
			return -EINVAL;
	}
	if (get_user(mbz, &ext->name))
		return -EFAULT;
	return -EINVAL; /* no name is known */
}

/**
 * i915_gem_mmap_offset_ioctl - MMAP_OFFSET and MMAP_GTT: a fake offset
 * @dev: DRM device
 * @data: &struct drm_i915_gem_mmap_offset (MMAP_GTT's
 *	&struct drm_i915_gem_mmap_gtt is its beginning: flags 0, GTT)
 * @file: DRM file
 *
 * @pad and the incoming @offset are ignored, as upstream (old userspace
 * leaves garbage there).  FIXED is for discrete parts: -ENODEV, as are WC
 * and UC without PAT, and every type for objects not on shmfs (USERPTR,
 * as upstream) but GTT for an imported dma-buf (as upstream).
 *
 * Return: 0 with the offset to pass to mmap(); -EINVAL for unknown flags
 * or extensions, -EFAULT for an unreadable extension, -ENOENT for a bad
 * handle, -ENODEV, -ENOMEM, -EINTR.
 */
int i915_gem_mmap_offset_ioctl(struct drm_device *dev, void *data,
			       struct drm_file *file)
{
	struct drm_i915_gem_mmap_offset *args = data;
	struct i915_mmap_offset *mmo;
	struct i915_gem_object *obj;
	enum i915_mmap_type type;
	int ret;

	ret = check_extensions(args->extensions);
	if (ret)
		return ret;

	switch (args->flags) {
	case I915_MMAP_OFFSET_GTT:
		type = I915_MMAP_TYPE_GTT;
		break;
	case I915_MMAP_OFFSET_WC:
		if (!pat_enabled())
			return -ENODEV;
		type = I915_MMAP_TYPE_WC;
		break;
	case I915_MMAP_OFFSET_WB:
		type = I915_MMAP_TYPE_WB;
		break;
	case I915_MMAP_OFFSET_UC:
		if (!pat_enabled())
			return -ENODEV;
		type = I915_MMAP_TYPE_UC;
		break;
	case I915_MMAP_OFFSET_FIXED:
		type = I915_MMAP_NTYPES;
		break;
	default:
		drm_dbg(dev, "mmap_offset: unknown flags 0x%llx\n",
			args->flags);
		return -EINVAL;
	}

	obj = i915_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;

	ret = dma_resv_lock_interruptible(obj->base.resv, NULL);
	if (ret)
		goto out_put;
	if (type == I915_MMAP_NTYPES) {
		ret = -ENODEV; /* FIXED: only objects of discrete parts */
	} else if (!i915_gem_object_is_shmem(obj) &&
		   (type != I915_MMAP_TYPE_GTT || !obj->base.import_attach)) {
		/*
		 * USERPTR objects are never mapped, as upstream; an imported
		 * dma-buf only through the GTT, as upstream.
		 */
		drm_dbg(dev, "mmap_offset: not a shmfs object\n");
		ret = -ENODEV;
	} else {
		mmo = mmo_attach(obj, type, file);
		if (IS_ERR(mmo))
			ret = PTR_ERR(mmo);
		else
			args->offset = drm_vma_node_offset_addr(&mmo->vma_node);
	}
	dma_resv_unlock(obj->base.resv);
out_put:
	drm_gem_object_put(&obj->base);
	return ret;
}
