// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: the global GTT
 *
 * The graphics address space: a drm_mm allocator over the range the driver
 * manages, the scratch page that every unused entry points at, binding and
 * unbinding objects (DMA-mapping their pages and writing the entries
 * through the hardware seam), and the ioctls that act on the GTT as a
 * whole: GEM_INIT (choose the managed range), PIN/UNPIN and the VT switch.
 *
 * The first and the last page of the GTT are never handed out: page 0
 * catches stray writes to address 0 and the last page stays on scratch
 * because the GPU prefetches past the end of an object.  Just below the
 * last page the driver keeps %I915_GTT_KERNEL_SIZE bytes for its own
 * objects (the ring and the status page), outside any range GEM_INIT
 * can choose.
 *
 * Lock order: an object's dma_resv lock, then &i915_gtt.lock.
 */

#include <drm/drm_file.h>
#include <uapi/drm/i915_drm.h>
#include <linux/dma-mapping.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/sizes.h>

#include "i915_drv.h"
#include "i915_reg.h"

/* A user may stack this many pins on one object. */
#define I915_MAX_USER_PINS	16
/* GTT space the driver keeps for the ring and the status page. */
#define I915_GTT_KERNEL_SIZE	SZ_64K

static struct i915_gtt *obj_gtt(struct i915_gem_object *obj)
{
	return &obj_to_i915(obj)->gtt;
}

static unsigned int obj_npages(struct i915_gem_object *obj)
{
	return obj->base.size >> PAGE_SHIFT;
}

static void gtt_init_range(struct i915_gtt *gtt, u64 start, u64 end)
{
	gtt->start = max_t(u64, start, I915_GTT_PAGE_SIZE);
	gtt->end = min_t(u64, end, gtt->kernel_start);
	drm_mm_init(&gtt->mm, gtt->start, gtt->end - gtt->start);
}

static int gtt_scratch_init(struct i915_device *i915)
{
	struct i915_gtt *gtt = &i915->gtt;
	struct device *dev = i915->drm.dev;

	gtt->scratch_page = alloc_page(GFP_KERNEL | __GFP_ZERO | GFP_DMA32);
	if (!gtt->scratch_page)
		return -ENOMEM;

	gtt->scratch_dma = dma_map_page(dev, gtt->scratch_page, 0, PAGE_SIZE,
					DMA_BIDIRECTIONAL);
	if (dma_mapping_error(dev, gtt->scratch_dma)) {
		__free_page(gtt->scratch_page);
		return -ENOMEM;
	}
	return 0;
}

static void gtt_scratch_fini(struct i915_device *i915)
{
	struct i915_gtt *gtt = &i915->gtt;

	dma_unmap_page(i915->drm.dev, gtt->scratch_dma, PAGE_SIZE,
		       DMA_BIDIRECTIONAL);
	__free_page(gtt->scratch_page);
}

/**
 * i915_gtt_init - set up the GTT of a freshly bound GPU
 * @i915: the device
 *
 * Points every entry at a scratch page and manages the whole GTT minus the
 * guard pages until GEM_INIT narrows it.
 *
 * Return: 0 on success or a negative errno.
 */
int i915_gtt_init(struct i915_device *i915)
{
	struct i915_gtt *gtt = &i915->gtt;
	int ret;

	gtt->total = i915->hw.gtt_total;
	if (gtt->total < I915_GTT_KERNEL_SIZE + 4 * I915_GTT_PAGE_SIZE)
		return -ENODEV;
	gtt->kernel_start = gtt->total - I915_GTT_PAGE_SIZE -
			    I915_GTT_KERNEL_SIZE;
	gtt->kernel_next = gtt->kernel_start;

	ret = gtt_scratch_init(i915);
	if (ret)
		return ret;

	mutex_init(&gtt->lock);
	i915->hw.funcs->gtt_clear(&i915->hw, 0, gtt->total >> PAGE_SHIFT);
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
	gtt_scratch_fini(i915);
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
	i915->hw.funcs->gtt_insert(&i915->hw, *offset >> PAGE_SHIFT, dma, count,
				   caching);
	return 0;
}

static void gtt_unmap_pages(struct i915_gem_object *obj, unsigned int count)
{
	struct device *dev = obj->base.dev->dev;
	unsigned int i;

	for (i = 0; i < count; i++)
		dma_unmap_page(dev, obj->gtt_dma[i], PAGE_SIZE,
			       DMA_BIDIRECTIONAL);
	kvfree(obj->gtt_dma);
	obj->gtt_dma = NULL;
}

static int gtt_map_pages(struct i915_gem_object *obj)
{
	struct device *dev = obj->base.dev->dev;
	unsigned int i, n = obj_npages(obj);

	obj->gtt_dma = kvmalloc_array(n, sizeof(*obj->gtt_dma), GFP_KERNEL);
	if (!obj->gtt_dma)
		return -ENOMEM;

	for (i = 0; i < n; i++) {
		obj->gtt_dma[i] = dma_map_page(dev, obj->pages[i], 0, PAGE_SIZE,
					       DMA_BIDIRECTIONAL);
		if (dma_mapping_error(dev, obj->gtt_dma[i])) {
			gtt_unmap_pages(obj, i);
			return -ENOMEM;
		}
	}
	return 0;
}

static int gtt_insert_node(struct i915_gem_object *obj, u64 alignment)
{
	struct i915_gtt *gtt = obj_gtt(obj);
	int ret;

	mutex_lock(&gtt->lock);
	ret = drm_mm_insert_node_generic(&gtt->mm, &obj->gtt_node,
					 obj->base.size, alignment,
					 obj->cache_level, DRM_MM_INSERT_BEST);
	mutex_unlock(&gtt->lock);
	return ret;
}

static void gtt_write_entries(struct i915_gem_object *obj)
{
	struct i915_hw *hw = &obj_to_i915(obj)->hw;
	enum i915_gtt_caching caching = obj->cache_level == I915_CACHING_NONE ?
					I915_GTT_UNCACHED : I915_GTT_SNOOPED;

	hw->funcs->gtt_insert(hw, obj->gtt_node.start >> PAGE_SHIFT,
			      obj->gtt_dma, obj_npages(obj), caching);
}

/**
 * i915_gtt_bind_locked - give an object a GTT address
 * @obj: the object, its dma_resv lock held
 * @alignment: required alignment of the GTT address (0 or a power of two)
 *
 * An object already bound at a suitable address stays where it is; an
 * unpinned object at a misaligned address moves.  The pages stay pinned
 * while the object is bound.
 *
 * Return: 0 on success, -EINVAL if a pinned object is misaligned, -ENOSPC
 * if the GTT has no hole large enough, -ENOMEM or another negative errno.
 */
int i915_gtt_bind_locked(struct i915_gem_object *obj, u64 alignment)
{
	int ret;

	dma_resv_assert_held(obj->base.resv);

	if (drm_mm_node_allocated(&obj->gtt_node)) {
		if (!alignment || IS_ALIGNED(obj->gtt_node.start, alignment))
			return 0;
		if (obj->pin_count)
			return -EINVAL;
		i915_gtt_unbind_locked(obj);
	}

	ret = i915_gem_object_pin_pages(obj);
	if (ret)
		return ret;

	ret = gtt_map_pages(obj);
	if (ret)
		goto err_unpin;

	ret = gtt_insert_node(obj, alignment);
	if (ret)
		goto err_unmap;

	gtt_write_entries(obj);
	return 0;

err_unmap:
	gtt_unmap_pages(obj, obj_npages(obj));
err_unpin:
	i915_gem_object_unpin_pages(obj);
	return ret;
}

/**
 * i915_gtt_unbind_locked - take an object out of the GTT
 * @obj: the object, its dma_resv lock held; a no-op when not bound
 *
 * Points the object's entries back at the scratch page, frees its GTT
 * range and unpins its pages so that they become pageable again.
 */
void i915_gtt_unbind_locked(struct i915_gem_object *obj)
{
	struct i915_device *i915 = obj_to_i915(obj);
	struct i915_gtt *gtt = &i915->gtt;

	dma_resv_assert_held(obj->base.resv);

	if (!drm_mm_node_allocated(&obj->gtt_node))
		return;

	i915->hw.funcs->gtt_clear(&i915->hw, obj->gtt_node.start >> PAGE_SHIFT,
				  obj_npages(obj));

	mutex_lock(&gtt->lock);
	drm_mm_remove_node(&obj->gtt_node);
	if (obj->pin_count)
		gtt->pinned_bytes -= obj->base.size;
	mutex_unlock(&gtt->lock);

	obj->pin_count = 0;
	obj->pin_file = NULL;
	gtt_unmap_pages(obj, obj_npages(obj));
	i915_gem_object_unpin_pages(obj);
}

/* Collect, with a reference each, the bound objects nobody pinned. */
static void gtt_collect_unpinned(struct i915_gtt *gtt, struct list_head *list)
{
	struct i915_gem_object *obj;
	struct drm_mm_node *node;

	mutex_lock(&gtt->lock);
	drm_mm_for_each_node(node, &gtt->mm) {
		obj = container_of(node, struct i915_gem_object, gtt_node);
		if (READ_ONCE(obj->pin_count) ||
		    !kref_get_unless_zero(&obj->base.refcount))
			continue;
		list_add_tail(&obj->evict_link, list);
	}
	mutex_unlock(&gtt->lock);
}

/**
 * i915_gtt_evict_all - unbind every object that is not pinned
 * @i915: the device
 *
 * Return: 0 on success, or -EINTR/-ERESTARTSYS if a signal interrupted the
 * wait for an object's lock (objects already handled stay unbound).
 */
int i915_gtt_evict_all(struct i915_device *i915)
{
	struct i915_gem_object *obj, *next;
	LIST_HEAD(victims);
	int ret = 0;

	gtt_collect_unpinned(&i915->gtt, &victims);
	list_for_each_entry_safe(obj, next, &victims, evict_link) {
		list_del(&obj->evict_link);
		if (!ret)
			ret = dma_resv_lock_interruptible(obj->base.resv, NULL);
		if (!ret) {
			if (!obj->pin_count)
				i915_gtt_unbind_locked(obj);
			dma_resv_unlock(obj->base.resv);
		}
		drm_gem_object_put(&obj->base);
	}
	return ret;
}

/**
 * i915_gem_init_ioctl - GEM_INIT: choose the GTT range GEM manages
 * @dev: DRM device
 * @data: &struct drm_i915_gem_init
 * @file: DRM file (root and master only)
 *
 * Unbinds every unpinned object and re-creates the allocator over
 * [gtt_start, gtt_end), minus the guard pages and the driver's own range.
 *
 * Return: 0 on success, -EINVAL for a range that is empty, unaligned or
 * beyond the GTT, -EBUSY while pinned objects remain bound.
 */
int i915_gem_init_ioctl(struct drm_device *dev, void *data,
			struct drm_file *file)
{
	struct i915_device *i915 = to_i915(dev);
	struct drm_i915_gem_init *args = data;
	struct i915_gtt *gtt = &i915->gtt;
	int ret;

	if (args->gtt_start >= args->gtt_end ||
	    !IS_ALIGNED(args->gtt_start | args->gtt_end, I915_GTT_PAGE_SIZE) ||
	    args->gtt_end > gtt->total ||
	    max_t(u64, args->gtt_start, I915_GTT_PAGE_SIZE) >=
	    min_t(u64, args->gtt_end, gtt->kernel_start))
		return -EINVAL;

	ret = i915_gtt_evict_all(i915);
	if (ret)
		return ret;

	mutex_lock(&gtt->lock);
	if (!drm_mm_clean(&gtt->mm)) {
		ret = -EBUSY;
	} else {
		drm_mm_takedown(&gtt->mm);
		gtt_init_range(gtt, args->gtt_start, args->gtt_end);
	}
	mutex_unlock(&gtt->lock);
	return ret;
}

static int gem_pin_locked(struct i915_gem_object *obj, struct drm_file *file,
			  u64 alignment)
{
	struct i915_gtt *gtt = obj_gtt(obj);
	int ret;

	if (obj->pin_count && obj->pin_file != file)
		return -EINVAL;
	if (obj->pin_count >= I915_MAX_USER_PINS)
		return -EBUSY;

	ret = i915_gtt_bind_locked(obj, alignment);
	if (ret)
		return ret;

	if (!obj->pin_count++) {
		obj->pin_file = file;
		mutex_lock(&gtt->lock);
		gtt->pinned_bytes += obj->base.size;
		mutex_unlock(&gtt->lock);
	}
	return 0;
}

/**
 * i915_gem_pin_ioctl - PIN: fix an object in the GTT
 * @dev: DRM device
 * @data: &struct drm_i915_gem_pin
 * @file: DRM file (root only)
 *
 * A pinned object is never moved or evicted until its last pin is dropped
 * or it is destroyed.  Pins belong to the file that made them.
 *
 * Return: 0 with the GTT offset in @data, -EINVAL for a bad alignment, a
 * non-zero pad or an object pinned by another file (or pinned misaligned),
 * -ENOENT for a bad handle, -EBUSY after too many pins, -ENOSPC if the GTT
 * is full.
 */
int i915_gem_pin_ioctl(struct drm_device *dev, void *data,
		       struct drm_file *file)
{
	struct drm_i915_gem_pin *args = data;
	struct i915_gem_object *obj;
	int ret;

	if (args->pad)
		return -EINVAL;
	if (args->alignment && (!is_power_of_2(args->alignment) ||
				args->alignment > to_i915(dev)->gtt.total))
		return -EINVAL;

	obj = i915_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;

	ret = dma_resv_lock_interruptible(obj->base.resv, NULL);
	if (ret)
		goto out_put;

	ret = gem_pin_locked(obj, file, args->alignment);
	if (!ret)
		args->offset = obj->gtt_node.start;
	dma_resv_unlock(obj->base.resv);
out_put:
	drm_gem_object_put(&obj->base);
	return ret;
}

/**
 * i915_gem_unpin_ioctl - UNPIN: drop one pin of an object
 * @dev: DRM device
 * @data: &struct drm_i915_gem_unpin
 * @file: DRM file (root only)
 *
 * The object stays bound but may now be evicted or moved.
 *
 * Return: 0 on success, -ENOENT for a bad handle, -EINVAL for a non-zero
 * pad or an object this file has not pinned.
 */
int i915_gem_unpin_ioctl(struct drm_device *dev, void *data,
			 struct drm_file *file)
{
	struct drm_i915_gem_unpin *args = data;
	struct i915_gem_object *obj;
	struct i915_gtt *gtt;
	int ret;

	if (args->pad)
		return -EINVAL;

	obj = i915_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;
	gtt = obj_gtt(obj);

	ret = dma_resv_lock_interruptible(obj->base.resv, NULL);
	if (ret)
		goto out_put;

	if (!obj->pin_count || obj->pin_file != file) {
		ret = -EINVAL;
	} else if (!--obj->pin_count) {
		obj->pin_file = NULL;
		mutex_lock(&gtt->lock);
		gtt->pinned_bytes -= obj->base.size;
		mutex_unlock(&gtt->lock);
	}
	dma_resv_unlock(obj->base.resv);
out_put:
	drm_gem_object_put(&obj->base);
	return ret;
}

/**
 * i915_gem_leavevt_ioctl - LEAVEVT: give the GTT back to the VT owner
 * @dev: DRM device
 * @data: unused
 * @file: DRM file (root and master only)
 *
 * Unbinds every object that is not pinned.
 *
 * Return: 0 on success or -ERESTARTSYS.
 */
int i915_gem_leavevt_ioctl(struct drm_device *dev, void *data,
			   struct drm_file *file)
{
	return i915_gtt_evict_all(to_i915(dev));
}

/**
 * i915_gem_entervt_ioctl - ENTERVT: take the GTT back after a VT switch
 * @dev: DRM device
 * @data: unused
 * @file: DRM file (root and master only)
 *
 * Objects are bound again lazily by their next use.
 *
 * Return: 0.
 */
int i915_gem_entervt_ioctl(struct drm_device *dev, void *data,
			   struct drm_file *file)
{
	return 0;
}
