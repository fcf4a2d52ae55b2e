// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: objects on shmfs (the device-independent half of GEM)
 *
 * Sections 3 to 5 of the design over the DRM core's GEM: an object is a
 * &struct drm_gem_object whose storage is a shmfs file (or, through its
 * &i915_gem_object_ops, user memory, i915_gem_userptr.c, or another
 * driver's dma-buf, i915_gem_dmabuf.c); handles, flink
 * names, GEM_OPEN and PRIME come from the core, which calls back here to
 * free an object, to export it (its fences may then leave the driver:
 * see i915_request.c; the dma-buf is the core's but for mmap(), which
 * maps the shmfs file as upstream's, and DMA_BUF_IOCTL_SYNC, which moves
 * the object to the CPU domain and back) and, for a dma-buf importer, to
 * pin its pages.  This
 * file owns the life of an object (creation, the device's object list,
 * freeing), its page pins, byte-exact pread and pwrite, and the legacy
 * CPU mmap.  What the copies must do about caches
 * (clflush, non-temporal stores) is decided by the memory-domain code in
 * i915_gem_domain.c and passed in; nothing here knows about the GPU.
 *
 * Pages exist only while pinned (the design's first key feature): the
 * first i915_gem_object_pin_pages() fills @pages from shmfs and the last
 * unpin gives them back, after which the kernel may swap them out.
 * pread and pwrite do not pin: they take one page at a time from the
 * shmfs page cache, which is the pinned page itself while a pin exists.
 *
 * An object is freed when its last reference goes, unless the GPU still
 * uses it: a request holds no reference to its objects (a thousand
 * atomic increments and decrements per execbuffer otherwise), so an
 * object whose dma_resv still holds unsignalled fences of the device's
 * ring (i915_gem_object_ring_busy()) is put on the device's list of
 * deferred frees instead, and a worker frees it once they have
 * signalled (i915_gem_free_work()).  Until then it stays
 * bound, so the GPU never reads or writes a page that went back to
 * shmfs; nothing can find it any more but the GTT's lists, where it
 * counts as being freed (its reference count is 0), and an evictor that
 * needs its room waits for the deferred frees (i915_gem_free_wait()).
 * While an execbuffer runs, it holds no reference either: its file's
 * handles keep its objects alive, and closing one of them waits for the
 * file's execbuffers in flight (&i915_file.exec_sem,
 * i915_gem_object_close()).
 *
 * Locking: @pages and @pages_pin_count are under the object's dma_resv
 * lock.  No user copy happens under that lock or any other driver lock,
 * so a fault on user memory (even a CPU mmap of the same object) can
 * never deadlock against the driver.
 */

#include <drm/drm_cache.h>
#include <drm/drm_gem.h>
#include <drm/drm_prime.h>
#include <drm/drm_print.h>
#include <uapi/drm/i915_drm.h>
#include <linux/dma-buf.h>
#include <linux/dma-resv.h>
#include <linux/highmem.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/mman.h>
#include <linux/pagemap.h>
#include <linux/shmem_fs.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "i915_drv.h"

static void object_unlink(struct i915_gem_object *obj)
{
	struct i915_device *i915 = obj_to_i915(obj);

	spin_lock(&i915->obj_lock);
	list_del(&obj->link);
	i915->object_count--;
	i915->object_bytes -= obj->base.size;
	spin_unlock(&i915->obj_lock);
}

static void object_link(struct i915_gem_object *obj)
{
	struct i915_device *i915 = obj_to_i915(obj);

	spin_lock(&i915->obj_lock);
	list_add_tail(&obj->link, &i915->objects);
	i915->object_count++;
	i915->object_bytes += obj->base.size;
	spin_unlock(&i915->obj_lock);
}

/*
 * Free an object the GPU no longer uses.  Whoever holds the lock of an
 * object keeps it alive (a reference, or a handle during an execbuffer),
 * so the trylock cannot fail; a trylock because the caller may hold
 * other objects' locks.
 */
static void object_free_idle(struct i915_gem_object *obj)
{
	struct drm_gem_object *gem = &obj->base;
	bool locked;

	locked = dma_resv_trylock(gem->resv);
	/* An imported dma-buf's lock is the exporter's: it may be busy. */
	if (!locked && gem->import_attach) {
		dma_resv_lock(gem->resv, NULL);
		locked = true;
	}
	if (!drm_WARN_ON_ONCE(gem->dev, !locked)) {
		i915_gtt_unbind_locked(obj);
		if (drm_WARN_ON_ONCE(gem->dev, obj->pages_pin_count)) {
			obj->pages_pin_count = 1;
			i915_gem_object_unpin_pages(obj);
		}
		dma_resv_unlock(gem->resv);
	}
	i915_gem_object_mmap_free(obj);

	if (obj->ops->release)
		obj->ops->release(obj);
	/* Unbound first: i915_gem_fini() waits for dying bound objects. */
	object_unlink(obj);
	drm_gem_object_release(gem);
	kfree(obj);
}

/*
 * The core's free callback, run when the last reference goes (the last
 * handle, flink name, dma-buf or kernel user), in any context but under
 * &i915_ring.fence_lock.  An object the GPU still uses waits for its
 * fences on the deferred list.
 */
static void i915_gem_object_free(struct drm_gem_object *gem)
{
	struct i915_gem_object *obj = to_i915_obj(gem);
	struct i915_device *i915 = obj_to_i915(obj);

	if (!i915_gem_object_ring_busy(obj)) {
		object_free_idle(obj);
		return;
	}
	atomic_long_inc(&i915->free_queued);
	if (llist_add(&obj->free_node, &i915->free_list))
		queue_work(system_unbound_wq, &i915->free_work);
}

/*
 * The deferred frees, oldest first: each waits for its object's fences
 * of the device's ring.  Another worker run follows if objects were
 * added meanwhile.
 */
static void i915_gem_free_work(struct work_struct *work)
{
	struct i915_device *i915 = container_of(work, struct i915_device,
						free_work);
	struct i915_gem_object *obj, *next;
	struct llist_node *first;

	first = llist_reverse_order(llist_del_all(&i915->free_list));
	llist_for_each_entry_safe(obj, next, first, free_node) {
		i915_gem_object_ring_wait(obj);
		object_free_idle(obj);
		atomic_long_inc(&i915->free_done);
		wake_up_all(&i915->free_wq);
	}
}

/**
 * i915_gem_free_init - set up a device's deferred frees
 * @i915: the device, before any object exists
 */
void i915_gem_free_init(struct i915_device *i915)
{
	init_llist_head(&i915->free_list);
	INIT_WORK(&i915->free_work, i915_gem_free_work);
	init_waitqueue_head(&i915->free_wq);
}

/**
 * i915_gem_free_flush - finish the deferred frees queued so far
 * @i915: the device
 *
 * Waits, uninterruptibly, for the GPU to finish with the objects (for
 * teardown, where every request has completed, and for
 * i915_gem_drop_caches()).
 */
void i915_gem_free_flush(struct i915_device *i915)
{
	flush_work(&i915->free_work);
}

/**
 * i915_gem_free_pending - are deferred frees queued and not yet done?
 * @i915: the device
 *
 * Return: true while an object waits on &i915_device.free_list or is
 * being freed by the worker.
 */
bool i915_gem_free_pending(struct i915_device *i915)
{
	return atomic_long_read(&i915->free_done) !=
	       atomic_long_read(&i915->free_queued);
}

/**
 * i915_gem_free_wait - wait for the deferred frees queued so far
 * @i915: the device
 *
 * For an evictor that found objects it cannot evict because they are
 * being freed (their free unbinds them), and for debugfs.  The caller
 * holds no lock of an object: a deferred free may take the lock of an
 * imported object (the exporter's) or wait for a USERPTR object's
 * notifier.
 *
 * Return: 0, or -ERESTARTSYS on a signal.
 */
int i915_gem_free_wait(struct i915_device *i915)
{
	long queued = atomic_long_read(&i915->free_queued);

	return wait_event_interruptible(i915->free_wq,
					atomic_long_read(&i915->free_done) -
					queued >= 0);
}

/*
 * PRIME export: the core's dma-buf ops pin the object while another
 * device is attached and ask for its pages as a scatterlist.
 */
static int i915_gem_object_prime_pin(struct drm_gem_object *gem)
{
	struct i915_gem_object *obj = to_i915_obj(gem);
	int ret;

	ret = dma_resv_lock_interruptible(gem->resv, NULL);
	if (ret)
		return ret;
	ret = i915_gem_object_pin_pages(obj);
	dma_resv_unlock(gem->resv);
	return ret;
}

static void i915_gem_object_prime_unpin(struct drm_gem_object *gem)
{
	dma_resv_lock(gem->resv, NULL);
	i915_gem_object_unpin_pages(to_i915_obj(gem));
	dma_resv_unlock(gem->resv);
}

static struct sg_table *
i915_gem_object_prime_sg_table(struct drm_gem_object *gem)
{
	struct i915_gem_object *obj = to_i915_obj(gem);

	/* Pinned by i915_gem_object_prime_pin() for the attachment. */
	return drm_prime_pages_to_sg(gem->dev, obj->pages,
				     gem->size >> PAGE_SHIFT);
}

/*
 * mmap() of an exported dma-buf, as upstream's: a mapping of the object's
 * shmfs file, as the legacy CPU mmap makes.  DMA_BUF_IOCTL_SYNC brackets
 * the CPU's access: its start moves the object to the CPU domain (waits
 * for the GPU, flushes what it must), its end to the GTT domain.
 */
static int i915_dmabuf_mmap(struct dma_buf *dma_buf, struct vm_area_struct *vma)
{
	struct i915_gem_object *obj = to_i915_obj(dma_buf->priv);
	int ret;

	if (obj->base.size < vma->vm_end - vma->vm_start)
		return -EINVAL;
	if (!i915_gem_object_is_shmem(obj))
		return -ENODEV;

	ret = call_mmap(obj->base.filp, vma);
	if (ret)
		return ret;
	vma_set_file(vma, obj->base.filp);
	return 0;
}

static int i915_dmabuf_cpu_access(struct dma_buf *dma_buf, bool begin,
				  enum dma_data_direction dir)
{
	struct i915_gem_object *obj = to_i915_obj(dma_buf->priv);
	bool write = dir == DMA_BIDIRECTIONAL || dir == DMA_TO_DEVICE;
	int ret;

	/* Wait unlocked first, as SET_DOMAIN does. */
	if (begin) {
		ret = i915_gem_object_wait(obj, write);
		if (ret)
			return ret;
	}
	ret = dma_resv_lock_interruptible(obj->base.resv, NULL);
	if (ret)
		return ret;
	ret = i915_gem_object_check_pages(obj, true);
	if (!ret && begin)
		ret = i915_gem_object_set_to_cpu_domain(obj, write);
	else if (!ret)
		ret = i915_gem_object_set_to_gtt_domain(obj, false);
	dma_resv_unlock(obj->base.resv);
	return ret;
}

static int i915_dmabuf_begin_cpu_access(struct dma_buf *dma_buf,
					enum dma_data_direction dir)
{
	return i915_dmabuf_cpu_access(dma_buf, true, dir);
}

static int i915_dmabuf_end_cpu_access(struct dma_buf *dma_buf,
				      enum dma_data_direction dir)
{
	return i915_dmabuf_cpu_access(dma_buf, false, dir);
}

/* The core's PRIME ops (drm_gem_prime_export()'s), but mmap and SYNC. */
static const struct dma_buf_ops i915_dmabuf_ops = {
	.cache_sgt_mapping = true,
	.attach = drm_gem_map_attach,
	.detach = drm_gem_map_detach,
	.map_dma_buf = drm_gem_map_dma_buf,
	.unmap_dma_buf = drm_gem_unmap_dma_buf,
	.release = drm_gem_dmabuf_release,
	.mmap = i915_dmabuf_mmap,
	.vmap = drm_gem_dmabuf_vmap,
	.vunmap = drm_gem_dmabuf_vunmap,
	.begin_cpu_access = i915_dmabuf_begin_cpu_access,
	.end_cpu_access = i915_dmabuf_end_cpu_access,
};

/*
 * PRIME export: from now on the fences of the object's dma_resv can be
 * taken by others (importers, DMA_BUF_IOCTL_EXPORT_SYNC_FILE) and may
 * outlive the device and the module's other users.  The object is marked,
 * so that every later request that uses it escapes, and so do those whose
 * fences are already in its dma_resv (see i915_request_escape()).
 */
static struct dma_buf *i915_gem_object_prime_export(struct drm_gem_object *gem,
						    int flags)
{
	DEFINE_DMA_BUF_EXPORT_INFO(exp_info);
	struct i915_gem_object *obj = to_i915_obj(gem);
	struct dma_resv_iter cursor;
	struct dma_fence *fence;
	int ret;

	/* As upstream: user memory is not for other devices. */
	if (obj->ops->flags & I915_GEM_OBJECT_PROXY)
		return ERR_PTR(-EINVAL);

	ret = dma_resv_lock_interruptible(gem->resv, NULL);
	if (ret)
		return ERR_PTR(ret);
	obj->exported = true;
	dma_resv_for_each_fence(&cursor, gem->resv, DMA_RESV_USAGE_BOOKKEEP,
				fence)
		i915_request_escape_fence(fence);
	dma_resv_unlock(gem->resv);

	exp_info.ops = &i915_dmabuf_ops;
	exp_info.size = gem->size;
	exp_info.flags = flags;
	exp_info.priv = gem;
	exp_info.resv = gem->resv;
	return drm_gem_dmabuf_export(gem->dev, &exp_info);
}

/*
 * The handle cache.  An execbuffer names up to thousands of objects by
 * handle, the same ones exec after exec; the DRM core's handle table is
 * an idr, a radix tree walked for each.  Each file keeps an array indexed
 * by handle (&i915_file.lut, up to LUT_MAX handles) of the objects its
 * execbuffers found, beside the core's table and under its lock
 * (table_lock), so that a handle it holds costs an array load.
 *
 * An entry is valid while its handle names its object: the core replaces
 * a closing handle's idr entry with NULL under table_lock before it calls
 * &drm_gem_object_funcs.close (i915_gem_object_close()), which clears the
 * entry under that lock, and frees the handle's number only after that;
 * a new handle is published in the idr only once it is whole.  So a
 * lookup under the lock finds either a live handle's object, or nothing,
 * and falls back to the idr.  An object is cached by one file at one
 * handle at a time (&i915_gem_object.lut_file, claimed with cmpxchg(),
 * since two files' locks do not exclude each other); the close of any of
 * its handles in that file clears it.  Objects shared between files, and
 * a second handle of the same object, go to the idr each time, as before.
 */
#define LUT_MIN		256
#define LUT_MAX		(16 * 1024)

/* A handle found in the idr, cached if the object is free to be. */
static void lut_cache(struct drm_file *file, struct i915_file *fpriv,
		      u32 handle, struct i915_gem_object *obj)
{
	lockdep_assert_held(&file->table_lock);

	if (handle < fpriv->lut_size && !cmpxchg(&obj->lut_file, NULL, file)) {
		obj->lut_handle = handle;
		fpriv->lut[handle] = obj;
	}
}

/* Room for @handle in the cache (no lock held); none if memory is short. */
static void lut_grow(struct drm_file *file, u32 handle)
{
	struct i915_file *fpriv = file->driver_priv;
	u32 size = max_t(u32, roundup_pow_of_two(handle + 1), LUT_MIN);
	struct i915_gem_object **lut;

	lut = kvcalloc(size, sizeof(*lut), GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!lut)
		return;
	spin_lock(&file->table_lock);
	if (size > fpriv->lut_size) {
		if (fpriv->lut_size)
			memcpy(lut, fpriv->lut,
			       array_size(fpriv->lut_size, sizeof(*lut)));
		swap(lut, fpriv->lut);
		fpriv->lut_size = size;
	}
	spin_unlock(&file->table_lock);
	kvfree(lut);	/* the old array, or the new one if another grew it */
}

/*
 * A handle of @obj closed in @file (its idr entry NULL already): the
 * file's cache entry of @obj goes, if it has one, whichever of the
 * object's handles in @file is closing (another handle will be looked up
 * in the idr again).  Without the lock when the object is not cached in
 * @file: a lookup that caches it meanwhile does so under a live handle
 * (the closing one's idr entry is NULL under the lock already).
 */
static void i915_gem_lut_forget(struct i915_gem_object *obj,
				struct drm_file *file)
{
	struct i915_file *fpriv = file->driver_priv;

	if (READ_ONCE(obj->lut_file) != file)
		return;
	spin_lock(&file->table_lock);
	if (obj->lut_file == file) {
		fpriv->lut[obj->lut_handle] = NULL;
		WRITE_ONCE(obj->lut_file, NULL);
	}
	spin_unlock(&file->table_lock);
}

/**
 * i915_gem_lut_fini - free a closing file's handle cache
 * @fpriv: the file's state; every handle of the file is closed, so the
 *	cache is empty
 */
void i915_gem_lut_fini(struct i915_file *fpriv)
{
	kvfree(fpriv->lut);
	fpriv->lut = NULL;
	fpriv->lut_size = 0;
}

/*
 * &drm_gem_object_funcs.close: a handle of the object in @file is gone
 * (its idr entry NULL, its number not yet free), its reference not yet.
 * Once it is out of the handle cache too, no execbuffer can find it, but
 * those of the file still running may have found it before and hold no
 * reference: wait for them (&i915_file.exec_sem).
 */
static void i915_gem_object_close(struct drm_gem_object *gem,
				  struct drm_file *file)
{
	struct i915_file *fpriv = file->driver_priv;

	i915_gem_lut_forget(to_i915_obj(gem), file);
	down_write(&fpriv->exec_sem);
	up_write(&fpriv->exec_sem);
	i915_gem_object_mmap_close(gem, file);
}

static const struct drm_gem_object_funcs i915_gem_object_funcs = {
	.free = i915_gem_object_free,
	.close = i915_gem_object_close,
	.export = i915_gem_object_prime_export,
	.pin = i915_gem_object_prime_pin,
	.unpin = i915_gem_object_prime_unpin,
	.get_sg_table = i915_gem_object_prime_sg_table,
};

/* The shmfs backing store: the first pin reads the file's pages in. */
static int shmem_get_pages(struct i915_gem_object *obj)
{
	struct page **pages;

	if (obj->base.size >> PAGE_SHIFT > totalram_pages())
		return -ENOMEM;

	pages = drm_gem_get_pages(&obj->base);
	if (IS_ERR(pages)) {
		/* shmfs says -ENOSPC for no memory; -ENOSPC is the GTT's. */
		return PTR_ERR(pages) == -ENOSPC ? -ENOMEM : PTR_ERR(pages);
	}

	obj->pages = pages;
	return 0;
}

static void shmem_put_pages(struct i915_gem_object *obj)
{
	drm_gem_put_pages(&obj->base, obj->pages, true, true);
	obj->pages = NULL;
}

static const struct i915_gem_object_ops i915_gem_shmem_ops = {
	.name = "shmem",
	.flags = I915_GEM_OBJECT_SHMEM,
	.get_pages = shmem_get_pages,
	.put_pages = shmem_put_pages,
};

/*
 * Pages come from shmfs with the mapping's gfp mask, for every path:
 * pinning, pread/pwrite, CPU faults and swap-in.  The pages are
 * reclaimable rather than movable, as upstream's shmem objects, and an
 * allocation that cannot be met fails with -ENOMEM instead of calling the
 * OOM killer (graphics memory is the first thing a client can give up).
 * Parts that cannot address memory above 4 GiB get it from ZONE_DMA32:
 * those with a 32-bit DMA mask, and 965G/965GM, whose GPU misbehaves with
 * pages above 4 GiB although its mask is 36 bits wide.
 */
static void object_set_gfp(struct i915_gem_object *obj)
{
	const struct i915_device_info *info = obj_to_i915(obj)->info;
	gfp_t gfp = GFP_HIGHUSER | __GFP_RECLAIMABLE | __GFP_RETRY_MAYFAIL |
		    __GFP_NOWARN;

	if (info->dma_bits <= 32 || (info->gen == 4 && !info->is_g4x)) {
		gfp &= ~__GFP_HIGHMEM;
		gfp |= __GFP_DMA32;
	}
	mapping_set_gfp_mask(obj->base.filp->f_mapping, gfp);
}

/*
 * What every new object starts with, whatever its backing store: in the
 * CPU read and write domains, uncached for the GPU, no GTT mmap views.
 */
static void object_init(struct i915_gem_object *obj,
			const struct i915_gem_object_ops *ops)
{
	obj->base.funcs = &i915_gem_object_funcs;
	obj->ops = ops;
	INIT_LIST_HEAD(&obj->views);
	obj->read_domains = I915_GEM_DOMAIN_CPU;
	obj->write_domain = I915_GEM_DOMAIN_CPU;
	obj->cache_level = I915_CACHING_NONE;
}

/**
 * i915_gem_object_create - allocate a GEM object backed by shmfs
 * @i915: the device
 * @size: requested size in bytes, rounded up to whole pages
 *
 * The object starts with no pages (shmfs allocates them on first use),
 * in the CPU read and write domains and uncached for the GPU.  The
 * caller owns the one reference; see i915_gem_object_create_handle().
 *
 * Return: the object, or ERR_PTR(-EINVAL) for a size of 0 (or one that
 * wraps when rounded up), ERR_PTR(-E2BIG) for more than INT_MAX pages,
 * ERR_PTR(-ENOMEM).
 */
struct i915_gem_object *i915_gem_object_create(struct i915_device *i915,
					       u64 size)
{
	struct i915_gem_object *obj;
	int ret;

	if (!size || size > U64_MAX - PAGE_SIZE + 1)
		return ERR_PTR(-EINVAL);
	size = round_up(size, PAGE_SIZE);
	if (size >> PAGE_SHIFT > INT_MAX)
		return ERR_PTR(-E2BIG);

	obj = kzalloc(sizeof(*obj), GFP_KERNEL);
	if (!obj)
		return ERR_PTR(-ENOMEM);

	object_init(obj, &i915_gem_shmem_ops);
	ret = drm_gem_object_init(&i915->drm, &obj->base, size);
	if (ret)
		goto err_release;

	object_set_gfp(obj);
	object_link(obj);
	return obj;

err_release:
	drm_gem_object_release(&obj->base);
	kfree(obj);
	return ERR_PTR(ret);
}

/**
 * i915_gem_object_create_private - allocate a GEM object without shmfs
 * @i915: the device
 * @size: size in bytes, a whole number of pages
 * @ops: its backing store
 * @resv: the dma_resv to share (an imported dma-buf's), or NULL for the
 *	object's own
 *
 * For backing stores that are not a shmfs file (user memory, another
 * driver's dma-buf): the object has no pages until its first pin, which
 * asks @ops.  It starts in the CPU domain, uncached for the GPU; the
 * caller sets what its backing store needs otherwise.  The caller owns
 * the one reference.
 *
 * Return: the object, or ERR_PTR(-ENOMEM).
 */
struct i915_gem_object *
i915_gem_object_create_private(struct i915_device *i915, u64 size,
			       const struct i915_gem_object_ops *ops,
			       struct dma_resv *resv)
{
	struct i915_gem_object *obj;

	obj = kzalloc(sizeof(*obj), GFP_KERNEL);
	if (!obj)
		return ERR_PTR(-ENOMEM);

	object_init(obj, ops);
	obj->base.resv = resv;
	drm_gem_private_object_init(&i915->drm, &obj->base, size);
	object_link(obj);
	return obj;
}

/**
 * i915_gem_object_create_handle - publish a new object to a client
 * @file: the client
 * @obj: a new object; the caller's reference passes to the handle
 * @handle: returns the handle
 *
 * On success the handle owns the object; on failure the object is freed.
 * Either way the caller must not touch @obj afterwards.
 *
 * Return: 0 or a negative errno from drm_gem_handle_create().
 */
int i915_gem_object_create_handle(struct drm_file *file,
				  struct i915_gem_object *obj, u32 *handle)
{
	int ret;

	ret = drm_gem_handle_create(file, &obj->base, handle);
	drm_gem_object_put(&obj->base);
	return ret;
}

/**
 * i915_gem_object_lookup - find an object by a client's handle
 * @file: the client
 * @handle: the handle
 *
 * Return: the object with a new reference (drop it with
 * drm_gem_object_put()), or NULL if @handle names nothing.
 */
struct i915_gem_object *i915_gem_object_lookup(struct drm_file *file,
					       u32 handle)
{
	struct drm_gem_object *gem = drm_gem_object_lookup(file, handle);

	return gem ? to_i915_obj(gem) : NULL;
}

/* A handle the cache does not have, from the idr; NULL if none. */
static struct i915_gem_object *lookup_idr(struct drm_file *file,
					  struct i915_file *fpriv, u32 handle,
					  u32 *grow)
{
	struct drm_gem_object *gem = idr_find(&file->object_idr, handle);

	if (!gem)
		return NULL;
	if (handle >= fpriv->lut_size && handle < LUT_MAX)
		*grow = max(*grow, handle);
	lut_cache(file, fpriv, handle, to_i915_obj(gem));
	return to_i915_obj(gem);
}

/**
 * i915_gem_object_lookup_many - find several objects under one lock
 * @file: the client
 * @n: how many
 * @handle: the first handle; the others follow, @stride bytes apart
 * @obj: where the object of the first goes, without a reference: the
 *	caller holds &i915_file.exec_sem for reading until it is done with
 *	the objects, so that their handles keep them; the others follow,
 *	@stride bytes apart
 * @stride: bytes from one handle to the next, and from one object to the
 *	next (the entries of an array of structures that hold both: an
 *	execbuffer's list)
 *
 * What i915_gem_object_lookup() does for each handle in turn, but for
 * the reference, with the file's handle table locked once, through the
 * file's handle cache; a handle found in the idr is cached for the next
 * time, the cache grown to hold it if need be.
 *
 * Return: how many handles from the first were found: @n, or the index
 * of the first that names nothing (objects are stored up to it).
 */
unsigned int i915_gem_object_lookup_many(struct drm_file *file,
					 unsigned int n, const u32 *handle,
					 struct i915_gem_object **obj,
					 size_t stride)
{
	struct i915_file *fpriv = file->driver_priv;
	struct i915_gem_object *o, **lut;
	unsigned int i;
	u32 h, size, grow = 0;

	spin_lock(&file->table_lock);
	lut = fpriv->lut;
	size = fpriv->lut_size;
	for (i = 0; i < n; i++) {
		h = *(const u32 *)((const char *)handle + i * stride);
		o = likely(h < size) ? lut[h] : NULL;
		if (unlikely(!o)) {
			o = lookup_idr(file, fpriv, h, &grow);
			if (!o)
				break;
		}
		*(struct i915_gem_object **)((char *)obj + i * stride) = o;
	}
	spin_unlock(&file->table_lock);
	if (unlikely(grow))
		lut_grow(file, grow);
	return i;
}

/**
 * i915_gem_object_pin_pages - make an object's pages resident
 * @obj: the object, its dma_resv lock held
 *
 * The first pin asks the backing store (@obj->ops) for the pages: shmfs
 * allocates (or swaps in) every page and fills @obj->pages; while any pin
 * is held the pages can neither be swapped nor move.
 *
 * Return: 0, -EFAULT for an object that is purged or was DONTNEED before
 * it had pages (see i915_gem_shrinker.c), -ENOMEM when the pages cannot
 * all be had (an object larger than the machine's memory can never be
 * pinned), -EAGAIN for a userptr object whose user pages must be pinned
 * again first (i915_gem_userptr_prepare()), or the exporter's errno for an
 * imported dma-buf.
 */
int i915_gem_object_pin_pages(struct i915_gem_object *obj)
{
	int ret;

	dma_resv_assert_held(obj->base.resv);

	if (obj->pages_pin_count) {
		obj->pages_pin_count++;
		return 0;
	}

	ret = i915_gem_object_check_pages(obj, true);
	if (ret)
		return ret;

	ret = obj->ops->get_pages(obj);
	if (ret)
		return ret;

	obj->pages_pin_count = 1;
	return 0;
}

/**
 * i915_gem_object_unpin_pages - drop one pin of an object's pages
 * @obj: the object, its dma_resv lock held, with its pages pinned
 *
 * The last unpin returns the pages to shmfs, dirty, and the object to the
 * CPU domain (see i915_gem_object_flush_for_release()): from then on the
 * kernel may swap or migrate them through the CPU caches.
 */
void i915_gem_object_unpin_pages(struct i915_gem_object *obj)
{
	dma_resv_assert_held(obj->base.resv);

	if (drm_WARN_ON_ONCE(obj->base.dev, !obj->pages_pin_count))
		return;
	if (--obj->pages_pin_count)
		return;

	i915_gem_object_flush_for_release(obj);
	obj->ops->put_pages(obj);
}

static struct page *object_page(struct i915_gem_object *obj, pgoff_t idx)
{
	return shmem_read_mapping_page(obj->base.filp->f_mapping, idx);
}

static int pread_page(struct page *page, unsigned int off, unsigned int len,
		      char __user *user, bool clflush)
{
	unsigned long left;
	char *vaddr;

	vaddr = kmap_local_page(page);
	if (clflush)
		drm_clflush_virt_range(vaddr + off, len);
	left = copy_to_user(user, vaddr + off, len);
	kunmap_local(vaddr);

	return left ? -EFAULT : 0;
}

/* Flush the first and the last cache line of [vaddr, vaddr + len). */
static void clflush_edges(char *vaddr, unsigned int len)
{
	drm_clflush_virt_range(vaddr, 1);
	drm_clflush_virt_range(vaddr + len - 1, 1);
}

/*
 * A non-temporal copy streams to memory past the CPU caches, except for
 * the few unaligned bytes at either end, which go through the cache.  So
 * the lines under those bytes are flushed before (a stale cached copy
 * must not be merged with the new bytes) and after (the new bytes must
 * reach memory).
 */
static unsigned long copy_from_user_nt(char *vaddr, const char __user *user,
				       unsigned int len)
{
	unsigned long left;

	clflush_edges(vaddr, len);
	left = __copy_from_user_inatomic_nocache(vaddr, user, len);
	clflush_edges(vaddr, len);
	return left;
}

static int pwrite_page(struct page *page, unsigned int off, unsigned int len,
		       const char __user *user, bool nontemporal)
{
	unsigned long left;
	char *vaddr;

	vaddr = kmap_local_page(page);
	if (nontemporal)
		left = copy_from_user_nt(vaddr + off, user, len);
	else
		left = copy_from_user(vaddr + off, user, len);
	kunmap_local(vaddr);

	return left ? -EFAULT : 0;
}

/*
 * The page walk of pread (@write false) and pwrite (@write true): @size
 * bytes at @offset in @obj, one page of the shmfs page cache at a time,
 * to or from @user.  @uncached is pread's @clflush or pwrite's
 * @nontemporal.  Stops at the first page that fails.
 */
static int object_copy(struct i915_gem_object *obj, u64 offset,
		       char __user *user, u64 size, bool write, bool uncached)
{
	unsigned int off = offset_in_page(offset);
	pgoff_t idx = offset >> PAGE_SHIFT;
	struct page *page;
	int ret;

	while (size) {
		unsigned int len = min_t(u64, size, PAGE_SIZE - off);

		page = object_page(obj, idx);
		if (IS_ERR(page))
			return PTR_ERR(page);
		if (write) {
			ret = pwrite_page(page, off, len, user, uncached);
			set_page_dirty(page);
		} else {
			ret = pread_page(page, off, len, user, uncached);
		}
		mark_page_accessed(page);
		put_page(page);
		if (ret)
			return ret;

		user += len;
		size -= len;
		idx++;
		off = 0;
	}
	return 0;
}

/**
 * i915_gem_object_pread - copy bytes from an object to user memory
 * @obj: the object, no lock held
 * @offset: first byte of the object to read
 * @data: user buffer
 * @size: bytes to copy; [@offset, @offset + @size) must lie in the object
 * @clflush: the CPU caches may hold stale copies of the object (it is not
 *	in the CPU read domain): invalidate each range before reading it
 *
 * Any offset and length are fine; the copy walks the pages one at a time.
 *
 * Return: 0, -EFAULT if @data is not writable (some bytes may have been
 * copied), or -ENOMEM if a page could not be read in.
 */
int i915_gem_object_pread(struct i915_gem_object *obj, u64 offset,
			  void __user *data, u64 size, bool clflush)
{
	return object_copy(obj, offset, data, size, false, clflush);
}

/**
 * i915_gem_object_pwrite - copy bytes from user memory into an object
 * @obj: the object, no lock held
 * @offset: first byte of the object to write
 * @data: user buffer
 * @size: bytes to copy; [@offset, @offset + @size) must lie in the object
 * @nontemporal: write with non-temporal stores, so that the data lands in
 *	memory rather than in the CPU caches (for an object outside the CPU
 *	write domain); the caller does the chipset flush afterwards
 *
 * The whole user buffer is faulted in before the first byte is written,
 * so that a bad pointer leaves the object untouched.  Only a racing
 * munmap() of the buffer can still stop the copy half-way.
 *
 * Return: 0, -EFAULT if @data is not readable, or -ENOMEM if a page could
 * not be allocated (the bytes before it have been written).
 */
int i915_gem_object_pwrite(struct i915_gem_object *obj, u64 offset,
			   const void __user *data, u64 size, bool nontemporal)
{
	if (!access_ok(data, size) || fault_in_readable(data, size))
		return -EFAULT;

	/* object_copy() only reads user memory when it writes the object. */
	return object_copy(obj, offset, (void __user *)data, size, true,
			   nontemporal);
}

/* Make the CPU mapping at @addr write-combined, as I915_MMAP_WC asks. */
static int mmap_set_wc(struct i915_gem_object *obj, unsigned long addr,
		       u64 size)
{
	struct mm_struct *mm = current->mm;
	struct vm_area_struct *vma;
	int ret = 0;

	if (mmap_write_lock_killable(mm))
		return -EINTR;

	vma = find_vma(mm, addr);
	if (vma && vma->vm_file == obj->base.filp && vma->vm_start == addr &&
	    vma->vm_end - vma->vm_start == PAGE_ALIGN(size))
		vma->vm_page_prot =
			pgprot_writecombine(vm_get_page_prot(vma->vm_flags));
	else
		ret = -ENOMEM; /* another thread replaced the mapping */

	mmap_write_unlock(mm);
	return ret;
}

/**
 * i915_gem_object_mmap - map an object's shmfs file into the caller
 * @obj: the object, no lock held
 * @offset: byte offset of the mapping in the object, page aligned
 * @size: length of the mapping in bytes
 * @wc: map write-combined instead of write-back
 *
 * A shared, read-write mapping of the object's backing file, the legacy
 * I915_GEM_MMAP.  The mapping holds the file, not the object: it outlives
 * the object's handles, and its pages stay pageable.  Coherency with the
 * GPU is the user's business, through SET_DOMAIN.
 *
 * Return: the user address, or a negative errno cast to unsigned long
 * (test with IS_ERR_VALUE()): -EINVAL for an unaligned offset or a zero
 * size, -ENOMEM, -EINTR.
 */
unsigned long i915_gem_object_mmap(struct i915_gem_object *obj, u64 offset,
				   u64 size, bool wc)
{
	unsigned long addr;
	int ret;

	addr = vm_mmap(obj->base.filp, 0, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED, offset);
	if (IS_ERR_VALUE(addr) || !wc)
		return addr;

	/*
	 * On failure the mapping stays, write-back, as upstream leaves it:
	 * unmapping could hit what a racing thread put at that address.
	 */
	ret = mmap_set_wc(obj, addr, size);
	return ret ? ret : addr;
}
