// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: purgeable objects and the shrinker
 *
 * MADVISE lets a client say that the contents of an object may be dropped
 * (I915_MADV_DONTNEED; libdrm_intel's bo cache marks every cached bo so)
 * or are needed again (I915_MADV_WILLNEED), and answers whether they still
 * exist (@retained).  The state is &i915_gem_object.madv.
 *
 * Upstream keeps an object's pages, once got, until its shrinker takes
 * them, and purges at once a DONTNEED object that has none.  Here pages
 * are pinned only while bound (drm_gem.c), so "has pages" in upstream's
 * sense is a flag, &i915_gem_object.populated: set where upstream gets
 * the pages (binding, pread, SET_DOMAIN, a fault of a mapping that pins
 * them), cleared only by a purge.  A populated object's contents live in
 * its shmfs file, pinned or not.  Hence, as upstream:
 *
 * - DONTNEED on an object that is not populated purges it at once;
 * - getting the pages of an object that is neither WILLNEED nor populated
 *   (a purged one, or one made DONTNEED before it had pages) fails with
 *   -EFAULT: binding it (execbuffer), pread, pwrite, SET_DOMAIN;
 * - a purged object stays purged: WILLNEED answers @retained 0.
 *
 * Purging truncates the shmfs file: the pages are dropped, not swapped.
 * Objects not backed by shmfs (USERPTR, imported dma-bufs) are never
 * purged: their memory is not the driver's to drop.
 *
 * The shrinker: under memory pressure the core asks each device how many
 * pages it could give back (count) and then to give some back (scan).
 * First it purges DONTNEED populated objects, bound or not (a bound one is
 * unbound first): their pages are freed at once.  Then it unbinds bound
 * objects from the cold end of the GTT's LRU list: binding pins the pages,
 * the unbind hands them back to shmfs, from where the kernel swaps them
 * out, and the next bind swaps them in again.  It takes only objects that
 * are idle (every fence of their dma_resv signalled: no request in flight
 * uses them), not pinned by I915_GEM_PIN, and whose pages nothing else
 * pins (a dma-buf attachment).  No display pins objects here: the driver
 * does no modesetting, the console scans out of the firmware's stolen
 * memory.
 *
 * Locking: reclaim may run inside any allocation, also one this driver
 * makes with its own locks held, so the shrinker never waits for a lock a
 * client may hold: &i915_gtt.lock and each object's dma_resv lock are
 * only trylocked, and an object that is busy or locked is skipped.  The
 * victims are claimed with eviction's protocol (i915_gem_evict_claim()),
 * so eviction and the shrinker never work on the same object.  Unbinding
 * and releasing a claim take &i915_gtt.lock outright: it is held only
 * briefly and never across an allocation, which lockdep checks from the
 * start because init takes it once inside fs_reclaim's annotation.
 * debugfs i915_gem_drop_caches (DROP_SHRINK_ALL) runs the same scan over
 * everything, as an ordinary caller that waits for the locks.
 */

#include <drm/drm_drv.h>
#include <drm/drm_print.h>
#include <uapi/drm/i915_drm.h>
#include <linux/dma-resv.h>
#include <linux/sched/mm.h>
#include <linux/shmem_fs.h>

#include "i915_drv.h"

/* Pages one call of the shrinker's scan is asked for at most. */
#define I915_SHRINK_BATCH	4096

static unsigned long obj_npages(const struct i915_gem_object *obj)
{
	return obj->base.size >> PAGE_SHIFT;
}

/**
 * i915_gem_object_is_shmem - is the object's storage a shmfs file?
 * @obj: the object
 *
 * Objects of the driver's own (GEM_CREATE) are; USERPTR objects and
 * imported dma-bufs have no shmfs file, and their storage is never
 * purged.
 *
 * Return: true for a shmfs-backed object.
 */
bool i915_gem_object_is_shmem(const struct i915_gem_object *obj)
{
	return obj->base.filp;
}

/**
 * i915_gem_object_check_pages - may the object's pages be got?
 * @obj: the object, its dma_resv lock held
 * @populate: the caller gets the pages (pin, pread, SET_DOMAIN), not only
 *	writes into shmfs (pwrite): the object counts as populated from now
 *
 * Return: 0, or -EFAULT for an object that is neither WILLNEED nor
 * populated (purged, or DONTNEED before it had pages), as upstream.
 */
int i915_gem_object_check_pages(struct i915_gem_object *obj, bool populate)
{
	dma_resv_assert_held(obj->base.resv);

	if (!obj->populated && obj->madv != I915_MADV_WILLNEED) {
		drm_dbg(obj->base.dev, "the pages of a purgeable object (madv %u)\n",
			obj->madv);
		return -EFAULT;
	}
	if (populate)
		obj->populated = true;
	return 0;
}

/* Drop the contents of a shmfs object for good. */
static void object_purge(struct i915_gem_object *obj)
{
	dma_resv_assert_held(obj->base.resv);

	if (!i915_gem_object_is_shmem(obj))
		return;

	/* Partial views of GTT mmaps hold pages of their own. */
	i915_gem_object_release_mmap_gtt(obj);
	shmem_truncate_range(file_inode(obj->base.filp), 0, (loff_t)-1);
	obj->madv = __I915_MADV_PURGED;
	obj->populated = false;
}

/**
 * i915_gem_madvise_ioctl - MADVISE: may the object's contents be dropped?
 * @dev: DRM device
 * @data: &struct drm_i915_gem_madvise; @retained is returned
 * @file: DRM file
 *
 * A purged object stays purged whatever is asked.  A DONTNEED object
 * that has no pages (not populated) is purged at once.  @retained is 0
 * once the contents are gone.
 *
 * Return: 0; -EINVAL for a @madv other than WILLNEED and DONTNEED (before
 * the handle is looked at); -ENOENT for a bad handle; -EINTR or
 * -ERESTARTSYS on a signal.
 */
int i915_gem_madvise_ioctl(struct drm_device *dev, void *data,
			   struct drm_file *file)
{
	struct drm_i915_gem_madvise *args = data;
	struct i915_gem_object *obj;
	int ret;

	switch (args->madv) {
	case I915_MADV_DONTNEED:
	case I915_MADV_WILLNEED:
		break;
	default:
		drm_dbg(dev, "madvise: unknown advice %u\n", args->madv);
		return -EINVAL;
	}

	obj = i915_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;

	ret = dma_resv_lock_interruptible(obj->base.resv, NULL);
	if (ret)
		goto out_put;

	if (obj->madv != __I915_MADV_PURGED)
		obj->madv = args->madv;
	if (obj->madv == I915_MADV_DONTNEED && !obj->populated)
		object_purge(obj);
	args->retained = obj->madv != __I915_MADV_PURGED;

	dma_resv_unlock(obj->base.resv);
out_put:
	drm_gem_object_put(&obj->base);
	return ret;
}

/*
 * Not pinned by PIN, its pages pinned by nothing but its binding.  Read
 * without the object's lock, and again once it is held.
 */
static bool unpinned(struct i915_gem_object *obj)
{
	unsigned int bound = drm_mm_node_allocated(&obj->gtt_node);

	return !READ_ONCE(obj->pin_count) &&
	       READ_ONCE(obj->pages_pin_count) == bound;
}

/* No request in flight uses it: every fence of its dma_resv signalled. */
static bool idle(struct i915_gem_object *obj)
{
	return dma_resv_test_signaled(obj->base.resv, DMA_RESV_USAGE_BOOKKEEP);
}

/* The contents may be dropped, and there is something to drop. */
static bool purgeable(struct i915_gem_object *obj)
{
	return READ_ONCE(obj->madv) == I915_MADV_DONTNEED &&
	       READ_ONCE(obj->populated) && i915_gem_object_is_shmem(obj);
}

/*
 * Claim objects until they hold @target pages: for the first pass
 * (@purge) purgeable objects in the device's list, for the second bound
 * ones from the cold end of the LRU list.  Under &i915_gtt.lock.
 */
static void shrink_claim(struct i915_device *i915, bool purge,
			 unsigned long target, struct list_head *victims)
{
	struct i915_gem_object *obj;
	unsigned long pages = 0, claimed = 0;

	if (purge) {
		spin_lock(&i915->obj_lock);
		list_for_each_entry(obj, &i915->objects, link) {
			if (pages >= target)
				break;
			/* idle is checked later: no fence under obj_lock */
			if (obj->evicting || !purgeable(obj) || !unpinned(obj))
				continue;
			if (i915_gem_evict_claim(obj, victims)) {
				pages += obj_npages(obj);
				claimed++;
			}
		}
		spin_unlock(&i915->obj_lock);
		atomic_long_add(claimed, &i915->shrink_claimed);
		return;
	}

	i915_gtt_lru_settle(&i915->gtt);
	list_for_each_entry(obj, &i915->gtt.lru, gtt_link) {
		if (pages >= target)
			break;
		if (obj->evicting || !unpinned(obj) || !idle(obj))
			continue;
		if (i915_gem_evict_claim(obj, victims)) {
			pages += obj_npages(obj);
			claimed++;
		}
	}
	atomic_long_add(claimed, &i915->shrink_claimed);
}

/*
 * Unbind each claimed victim still shrinkable once locked (the lock only
 * trylocked unless @wait), purge it in the first pass (@purge), release
 * every claim.  Return: the pages given back.
 */
static unsigned long shrink_victims(struct i915_device *i915,
				    struct list_head *victims, bool purge,
				    bool wait)
{
	struct i915_gem_object *obj, *next;
	unsigned long freed = 0;

	list_for_each_entry_safe(obj, next, victims, evict_link) {
		bool locked;

		if (wait)
			locked = !dma_resv_lock_interruptible(obj->base.resv,
							      NULL);
		else
			locked = dma_resv_trylock(obj->base.resv);
		if (locked) {
			if (unpinned(obj) && idle(obj) &&
			    (!purge || purgeable(obj))) {
				i915_gtt_unbind_locked(obj);
				if (purge)
					object_purge(obj);
				freed += obj_npages(obj);
				atomic_long_inc(&i915->shrink_unbound);
			}
			dma_resv_unlock(obj->base.resv);
		}
		i915_gem_evict_release(obj);
	}
	return freed;
}

/*
 * Give back up to @target pages: purge DONTNEED objects first, then
 * unbind others.  Without @wait nothing is waited for (reclaim).
 */
static unsigned long shrink(struct i915_device *i915, unsigned long target,
			    bool wait)
{
	struct i915_gtt *gtt = &i915->gtt;
	unsigned long freed = 0;
	int pass;

	for (pass = 0; pass < 2 && freed < target; pass++) {
		LIST_HEAD(victims);
		bool purge = pass == 0;

		if (wait)
			mutex_lock(&gtt->lock);
		else if (!mutex_trylock(&gtt->lock))
			break;
		shrink_claim(i915, purge, target - freed, &victims);
		mutex_unlock(&gtt->lock);

		freed += shrink_victims(i915, &victims, purge, wait);
	}
	return freed;
}

/**
 * i915_gem_shrink_all - give back every page the device can
 * @i915: the device
 *
 * debugfs i915_gem_drop_caches, DROP_SHRINK_ALL: the shrinker's scan over
 * every idle object, waiting for locks.  Busy objects are left alone (the
 * caller waits for the GPU first if it wants them too).
 *
 * Return: the pages given back.
 */
unsigned long i915_gem_shrink_all(struct i915_device *i915)
{
	return shrink(i915, ULONG_MAX, true);
}

static unsigned long i915_shrinker_count(struct shrinker *shrinker,
					 struct shrink_control *sc)
{
	struct i915_device *i915 =
		container_of(shrinker, struct i915_device, shrinker);
	struct i915_gem_object *obj;
	unsigned long count = 0;

	spin_lock(&i915->obj_lock);
	list_for_each_entry(obj, &i915->objects, link)
		if ((drm_mm_node_allocated(&obj->gtt_node) || purgeable(obj)) &&
		    !READ_ONCE(obj->evicting) && unpinned(obj))
			count += obj_npages(obj);
	spin_unlock(&i915->obj_lock);

	return count ?: SHRINK_EMPTY;
}

static unsigned long i915_shrinker_scan(struct shrinker *shrinker,
					struct shrink_control *sc)
{
	struct i915_device *i915 =
		container_of(shrinker, struct i915_device, shrinker);
	unsigned long freed;
	int idx;

	/* Unplugged: the GTT is not to be touched any more. */
	if (!drm_dev_enter(&i915->drm, &idx))
		return SHRINK_STOP;
	freed = shrink(i915, sc->nr_to_scan, false);
	drm_dev_exit(idx);

	sc->nr_scanned = freed;
	return freed ?: SHRINK_STOP;
}

/*
 * Tell lockdep now that @lock is taken inside reclaim, so that an
 * allocation made under it is reported at once, not only the day the
 * shrinker races with it.
 */
static void shrinker_taints_mutex(struct mutex *lock)
{
	if (!IS_ENABLED(CONFIG_LOCKDEP))
		return;

	fs_reclaim_acquire(GFP_KERNEL);
	mutex_lock(lock);
	mutex_unlock(lock);
	fs_reclaim_release(GFP_KERNEL);
}

/**
 * i915_gem_shrinker_init - register the device's shrinker
 * @i915: the device, its GTT set up
 *
 * Return: 0 or the negative errno of register_shrinker().
 */
int i915_gem_shrinker_init(struct i915_device *i915)
{
	struct shrinker *shrinker = &i915->shrinker;

	shrinker->count_objects = i915_shrinker_count;
	shrinker->scan_objects = i915_shrinker_scan;
	shrinker->seeks = DEFAULT_SEEKS;
	shrinker->batch = I915_SHRINK_BATCH;

	shrinker_taints_mutex(&i915->gtt.lock);
	return register_shrinker(shrinker, "i915-%s",
				 dev_name(i915->drm.dev));
}

/**
 * i915_gem_shrinker_fini - unregister the device's shrinker
 * @i915: the device
 *
 * Waits for a scan that is running to end.
 */
void i915_gem_shrinker_fini(struct i915_device *i915)
{
	unregister_shrinker(&i915->shrinker);
}
