// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: object-level GEM ioctls
 *
 * The Intel half of sections 3 to 5 of the design: the ioctl entry points
 * that create, read, write and map objects and query or change how the
 * GPU caches them, plus the debugfs views of the object population.  Each
 * entry point checks every field of its arguments in upstream's order and
 * with upstream's errnos, then hands the work to drm_gem.c (objects,
 * pages, copies, mmap) and i915_gem_domain.c (what the caches need).
 * GEM_CLOSE, GEM_FLINK and GEM_OPEN are the DRM core's own.
 */

#include <drm/drm_file.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <uapi/drm/i915_drm.h>
#include <linux/delay.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/uaccess.h>

#include <asm/memtype.h>

#include "i915_drv.h"

/*
 * The i915_gem_drop_caches bits, numbered as upstream's debugfs (and igt)
 * number them.
 */
#define I915_DROP_UNBOUND	BIT_ULL(0)
#define I915_DROP_BOUND		BIT_ULL(1)
#define I915_DROP_RETIRE	BIT_ULL(2)
#define I915_DROP_ACTIVE	BIT_ULL(3)
#define I915_DROP_FREED		BIT_ULL(4)
#define I915_DROP_SHRINK_ALL	BIT_ULL(5)
#define I915_DROP_IDLE		BIT_ULL(6)
#define I915_DROP_RESET_ACTIVE	BIT_ULL(7)
#define I915_DROP_RESET_SEQNO	BIT_ULL(8)
#define I915_DROP_RCU		BIT_ULL(9)
#define I915_DROP_ALL		GENMASK_ULL(9, 0)

/* [offset, offset + size) does not fit in an object of @objsize bytes. */
static bool range_overflows(u64 offset, u64 size, u64 objsize)
{
	return offset >= objsize || size > objsize - offset;
}

static void gem_release(struct drm_device *dev, void *unused)
{
	/* An object closed after the unplug may still wait for a fence. */
	i915_gem_free_flush(to_i915(dev));
	i915_exec_fini(to_i915(dev));
}

/**
 * i915_gem_init - set up object-level GEM for a device
 * @i915: the device; its object list and GTT are already initialised
 *
 * Registers the shrinker (i915_gem_shrinker.c), and the release of what
 * execbuffers keep between them and of the last deferred frees.
 *
 * Return: 0 or a negative errno.
 */
int i915_gem_init(struct i915_device *i915)
{
	int ret;

	drm_dbg(&i915->drm, "GEM: shmfs objects, %u-bit DMA\n",
		i915->info->dma_bits);
	ret = drmm_add_action_or_reset(&i915->drm, gem_release, NULL);
	if (ret)
		return ret;
	return i915_gem_shrinker_init(i915);
}

/*
 * A bound object of the device, with a reference, or NULL.  *@dying is
 * set if a bound object's last reference is already gone: its free is
 * running and will unbind it.
 */
static struct i915_gem_object *get_bound_object(struct i915_device *i915,
						bool *dying)
{
	struct i915_gem_object *obj, *found = NULL;

	*dying = false;
	spin_lock(&i915->obj_lock);
	list_for_each_entry(obj, &i915->objects, link) {
		if (!drm_mm_node_allocated(&obj->gtt_node))
			continue;
		if (kref_get_unless_zero(&obj->base.refcount)) {
			found = obj;
			break;
		}
		*dying = true;
	}
	spin_unlock(&i915->obj_lock);
	return found;
}

/**
 * i915_gem_fini - tear down object-level GEM of a device
 * @i915: the device, unplugged: no ioctl runs any more
 *
 * Objects still open by clients outlive the hardware until their last
 * handle goes, so each is unbound now, pinned or not, and so never
 * touches the hardware again.  An object being freed right now is
 * unbound by its free, which unlinks it only afterwards: this waits for
 * that (and first for the deferred frees, drm_gem.c), so that nothing is
 * bound once it returns.
 */
void i915_gem_fini(struct i915_device *i915)
{
	struct i915_gem_object *obj;
	bool dying;

	i915_gem_shrinker_fini(i915);
	/* Every request has completed: the deferred frees end now. */
	i915_gem_free_flush(i915);
	for (;;) {
		obj = get_bound_object(i915, &dying);
		if (obj) {
			dma_resv_lock(obj->base.resv, NULL);
			i915_gtt_unbind_locked(obj);
			dma_resv_unlock(obj->base.resv);
			drm_gem_object_put(&obj->base);
		} else if (dying) {
			usleep_range(100, 1000);
		} else {
			break;
		}
	}
	/* No fault runs any more (unplugged): GTT mmaps' views go too. */
	i915_gem_mmap_release_views(i915);
}

/**
 * i915_gem_create_ioctl - GEM_CREATE: make a new object
 * @dev: DRM device
 * @data: &struct drm_i915_gem_create; @size in, rounded up to whole pages
 *	on return, with the new @handle
 * @file: DRM file
 *
 * Return: 0; -EINVAL for a size of 0 (or one that wraps when rounded up);
 * -E2BIG for more than INT_MAX pages; -ENOMEM.
 */
int i915_gem_create_ioctl(struct drm_device *dev, void *data,
			  struct drm_file *file)
{
	struct drm_i915_gem_create *args = data;
	struct i915_gem_object *obj;
	u64 size;
	int ret;

	obj = i915_gem_object_create(to_i915(dev), args->size);
	if (IS_ERR(obj)) {
		drm_dbg(dev, "create: size 0x%llx: %ld\n", args->size,
			PTR_ERR(obj));
		return PTR_ERR(obj);
	}

	size = obj->base.size; /* the handle may be closed at once */
	ret = i915_gem_object_create_handle(file, obj, &args->handle);
	if (ret)
		return ret;

	args->size = size;
	return 0;
}

/* The memory regions a GEM_CREATE_EXT may name: uapi's region array size. */
#define I915_CREATE_EXT_MAX_REGIONS	7

struct create_ext {
	struct i915_device *i915;
	unsigned int n_placements;
};

/*
 * I915_GEM_CREATE_EXT_MEMORY_REGIONS: the only region is system memory,
 * class SYSTEM instance 0.  Upstream's checks and order: pad, a count of
 * 0 or above its region table (all three seen before answering -EINVAL),
 * each region (unknown or repeated: -EINVAL), then a second list.
 */
static int create_ext_regions(struct i915_user_extension __user *base,
			      struct create_ext *ext)
{
	struct drm_i915_gem_create_ext_memory_regions args;
	struct drm_i915_gem_memory_class_instance __user *uregion;
	struct drm_i915_gem_memory_class_instance region;
	bool seen = false;
	u32 i;

	if (copy_from_user(&args, base, sizeof(args)))
		return -EFAULT;

	if (args.pad || !args.num_regions ||
	    args.num_regions > I915_CREATE_EXT_MAX_REGIONS) {
		drm_dbg(&ext->i915->drm, "create_ext: pad %u, %u regions\n",
			args.pad, args.num_regions);
		return -EINVAL;
	}

	uregion = u64_to_user_ptr(args.regions);
	for (i = 0; i < args.num_regions; i++, uregion++) {
		if (copy_from_user(&region, uregion, sizeof(region)))
			return -EFAULT;
		if (region.memory_class != I915_MEMORY_CLASS_SYSTEM ||
		    region.memory_instance || seen) {
			drm_dbg(&ext->i915->drm,
				"create_ext: region %u:%u at %u\n",
				region.memory_class, region.memory_instance, i);
			return -EINVAL;
		}
		seen = true;
	}

	if (ext->n_placements)	/* a second list */
		return -EINVAL;
	ext->n_placements = args.num_regions;
	return 0;
}

/* I915_GEM_CREATE_EXT_PROTECTED_CONTENT: these GPUs have no PXP. */
static int create_ext_protected(struct i915_user_extension __user *base)
{
	struct drm_i915_gem_create_ext_protected_content args;

	if (copy_from_user(&args, base, sizeof(args)))
		return -EFAULT;
	if (args.flags)
		return -EINVAL;
	return -ENODEV;
}

/* Upstream's bound on a chain of extensions (a loop in user memory). */
#define I915_MAX_USER_EXTENSIONS	512

/*
 * Walk the chain as upstream's i915_user_extensions() does: flags and
 * rsvd must be zero (read one by one: -EFAULT, then -EINVAL), the name
 * known, the next pointer readable.
 */
static int create_ext_walk(u64 uptr, struct create_ext *ext)
{
	struct i915_user_extension __user *base = u64_to_user_ptr(uptr);
	unsigned int depth = I915_MAX_USER_EXTENSIONS;
	int ret, i;

	while (base) {
		u32 name, mbz;
		u64 next;

		if (!depth--)
			return -E2BIG;

		if (get_user(mbz, &base->flags))
			return -EFAULT;
		if (mbz)
			return -EINVAL;
		for (i = 0; i < ARRAY_SIZE(base->rsvd); i++) {
			if (get_user(mbz, &base->rsvd[i]))
				return -EFAULT;
			if (mbz)
				return -EINVAL;
		}
		if (get_user(name, &base->name))
			return -EFAULT;

		switch (name) {
		case I915_GEM_CREATE_EXT_MEMORY_REGIONS:
			ret = create_ext_regions(base, ext);
			break;
		case I915_GEM_CREATE_EXT_PROTECTED_CONTENT:
			ret = create_ext_protected(base);
			break;
		default:
			ret = -EINVAL;
			break;
		}
		if (ret)
			return ret;

		if (get_user(next, &base->next_extension))
			return -EFAULT;
		base = u64_to_user_ptr(next);
	}
	return 0;
}

/**
 * i915_gem_create_ext_ioctl - GEM_CREATE_EXT: GEM_CREATE with extensions
 * @dev: DRM device
 * @data: &struct drm_i915_gem_create_ext; @size in, rounded up to whole
 *	pages on return, with the new @handle
 * @file: DRM file
 *
 * The object is what GEM_CREATE makes: system memory is the only region.
 * I915_GEM_CREATE_EXT_FLAG_NEEDS_CPU_ACCESS is -EINVAL as upstream
 * answers it with one placement.
 *
 * Return: 0; -EINVAL for flags, an unknown extension or a bad region
 * list; -ENODEV for PROTECTED_CONTENT; -EFAULT; -E2BIG for a chain of
 * more than 512 extensions; else as GEM_CREATE.
 */
int i915_gem_create_ext_ioctl(struct drm_device *dev, void *data,
			      struct drm_file *file)
{
	struct drm_i915_gem_create_ext *args = data;
	struct create_ext ext = { .i915 = to_i915(dev) };
	struct drm_i915_gem_create create;
	int ret;

	if (args->flags & ~I915_GEM_CREATE_EXT_FLAG_NEEDS_CPU_ACCESS)
		return -EINVAL;

	ret = create_ext_walk(args->extensions, &ext);
	if (ret)
		return ret;

	/* needs a placement besides system memory, which there is not */
	if (args->flags & I915_GEM_CREATE_EXT_FLAG_NEEDS_CPU_ACCESS)
		return -EINVAL;

	create.size = args->size;
	ret = i915_gem_create_ioctl(dev, &create, file);
	if (ret)
		return ret;
	args->size = create.size;
	args->handle = create.handle;
	return 0;
}

/*
 * The checks PREAD and PWRITE share, in upstream's order: the user range
 * first, then the handle, then the range inside the object.
 */
static int rw_lookup(struct drm_file *file, u32 handle, u64 offset,
		     u64 size, const void __user *user,
		     struct i915_gem_object **objp)
{
	struct i915_gem_object *obj;

	if (!access_ok(user, size))
		return -EFAULT;

	obj = i915_gem_object_lookup(file, handle);
	if (!obj)
		return -ENOENT;

	if (range_overflows(offset, size, obj->base.size)) {
		drm_dbg(obj->base.dev, "rw: 0x%llx+0x%llx beyond 0x%zx\n",
			offset, size, obj->base.size);
		drm_gem_object_put(&obj->base);
		return -EINVAL;
	}

	*objp = obj;
	return 0;
}

/**
 * i915_gem_pread_ioctl - PREAD: copy bytes out of an object
 * @dev: DRM device
 * @data: &struct drm_i915_gem_pread
 * @file: DRM file
 *
 * Waits for the GPU to finish writing the object; reads what it wrote.
 *
 * Return: 0, also for a size of 0 (before anything else is looked at);
 * -EFAULT for a bad user buffer; -ENOENT for a bad handle; -EINVAL if the
 * range does not fit in the object; -ERESTARTSYS on a signal; -ENOMEM.
 */
int i915_gem_pread_ioctl(struct drm_device *dev, void *data,
			 struct drm_file *file)
{
	struct drm_i915_gem_pread *args = data;
	void __user *user = u64_to_user_ptr(args->data_ptr);
	struct i915_gem_object *obj;
	bool clflush;
	int ret;

	if (!args->size)
		return 0;
	ret = rw_lookup(file, args->handle, args->offset, args->size, user,
			&obj);
	if (ret)
		return ret;

	/* As upstream: user memory is not read through its object. */
	ret = -EINVAL;
	if (obj->ops->flags & I915_GEM_OBJECT_PROXY)
		goto out_put;
	ret = i915_gem_object_prepare_read(obj, &clflush);
	if (ret)
		goto out_put;
	if (obj->base.import_attach)
		ret = i915_gem_dmabuf_copy(obj, args->offset, user,
					   args->size, false);
	else
		ret = i915_gem_object_pread(obj, args->offset, user,
					    args->size, clflush);

out_put:
	drm_gem_object_put(&obj->base);
	return ret;
}

/**
 * i915_gem_pwrite_ioctl - PWRITE: copy bytes into an object
 * @dev: DRM device
 * @data: &struct drm_i915_gem_pwrite
 * @file: DRM file
 *
 * Waits for the GPU to finish with the object.  An object outside the
 * CPU write domain is written with non-temporal stores.  A bad user
 * buffer leaves the object unchanged.
 *
 * Return: 0, also for a size of 0 (before anything else is looked at);
 * -EFAULT for a bad user buffer; -ENOENT for a bad handle; -EINVAL if the
 * range does not fit in the object; -ERESTARTSYS on a signal; -ENOMEM.
 */
int i915_gem_pwrite_ioctl(struct drm_device *dev, void *data,
			  struct drm_file *file)
{
	struct drm_i915_gem_pwrite *args = data;
	const void __user *user = u64_to_user_ptr(args->data_ptr);
	struct i915_gem_object *obj;
	bool nontemporal;
	int ret;

	if (!args->size)
		return 0;
	ret = rw_lookup(file, args->handle, args->offset, args->size, user,
			&obj);
	if (ret)
		return ret;

	/* As upstream: user memory is not written through its object. */
	ret = -EINVAL;
	if (obj->ops->flags & I915_GEM_OBJECT_PROXY)
		goto out_put;
	ret = i915_gem_object_prepare_write(obj, &nontemporal);
	if (ret)
		goto out_put;
	if (obj->base.import_attach) {
		ret = i915_gem_dmabuf_copy(obj, args->offset, (void __user *)user,
					   args->size, true);
		nontemporal = true; /* flushed: the chipset's buffers next */
	} else {
		ret = i915_gem_object_pwrite(obj, args->offset, user,
					     args->size, nontemporal);
	}
	if (nontemporal)
		i915_gem_object_finish_write(obj);

out_put:
	drm_gem_object_put(&obj->base);
	return ret;
}

/**
 * i915_gem_mmap_ioctl - MMAP: map an object into the caller, CPU cached
 *	or write-combined
 * @dev: DRM device
 * @data: &struct drm_i915_gem_mmap; the address is returned in @addr_ptr
 * @file: DRM file
 *
 * The legacy CPU mmap of the design's section 5.  The mapping does not
 * keep the object alive, only its backing storage.
 *
 * Return: 0; -EINVAL for unknown flags, a range beyond the object, an
 * unaligned offset or a size of 0; -ENODEV for I915_MMAP_WC on a CPU
 * without PAT; -ENOENT for a bad handle; -ENOMEM; -EINTR.
 */
int i915_gem_mmap_ioctl(struct drm_device *dev, void *data,
			struct drm_file *file)
{
	struct drm_i915_gem_mmap *args = data;
	bool wc = args->flags & I915_MMAP_WC;
	struct i915_gem_object *obj;
	unsigned long addr;

	if (args->flags & ~I915_MMAP_WC) {
		drm_dbg(dev, "mmap: unknown flags 0x%llx\n", args->flags);
		return -EINVAL;
	}
	if (wc && !pat_enabled())
		return -ENODEV;

	obj = i915_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;

	/* As upstream: no shmfs file (userptr, imported dma-buf), no mmap. */
	if (!(obj->ops->flags & I915_GEM_OBJECT_SHMEM)) {
		addr = -ENXIO;
	} else if (range_overflows(args->offset, args->size, obj->base.size)) {
		drm_dbg(dev, "mmap: 0x%llx+0x%llx beyond 0x%zx\n",
			args->offset, args->size, obj->base.size);
		addr = -EINVAL;
	} else {
		addr = i915_gem_object_flush_gtt_writes(obj);
		if (!addr)
			addr = i915_gem_object_mmap(obj, args->offset,
						    args->size, wc);
	}
	drm_gem_object_put(&obj->base);

	if (IS_ERR_VALUE(addr))
		return (long)addr;
	args->addr_ptr = addr;
	return 0;
}

/**
 * i915_gem_sw_finish_ioctl - SW_FINISH: the CPU is done writing an object
 * @dev: DRM device
 * @data: &struct drm_i915_gem_sw_finish
 * @file: DRM file
 *
 * Flushes CPU writes of an object whose pages are pinned (it may be
 * scanned out); for any other object there is nothing to do yet.
 *
 * Return: 0, -ENOENT for a bad handle, -EINTR on a signal.
 */
int i915_gem_sw_finish_ioctl(struct drm_device *dev, void *data,
			     struct drm_file *file)
{
	struct drm_i915_gem_sw_finish *args = data;
	struct i915_gem_object *obj;
	int ret;

	obj = i915_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;

	ret = i915_gem_object_flush_if_pinned(obj);
	drm_gem_object_put(&obj->base);
	return ret;
}

/**
 * i915_gem_get_aperture_ioctl - GET_APERTURE: how big is the GTT
 * @dev: DRM device
 * @data: &struct drm_i915_gem_get_aperture
 * @file: DRM file
 *
 * @aper_size is the whole GTT; @aper_available_size what is left for
 * objects once the space GEM does not manage and the pinned objects are
 * taken away.
 *
 * Return: 0, or -EINTR on a signal.
 */
int i915_gem_get_aperture_ioctl(struct drm_device *dev, void *data,
				struct drm_file *file)
{
	struct drm_i915_gem_get_aperture *args = data;
	struct i915_gtt *gtt = &to_i915(dev)->gtt;
	u64 managed, pinned;

	if (mutex_lock_interruptible(&gtt->lock))
		return -EINTR;
	args->aper_size = gtt->total;
	managed = gtt->end - gtt->start;
	pinned = gtt->pinned_bytes;
	mutex_unlock(&gtt->lock);

	args->aper_available_size = managed - pinned;
	return 0;
}

/**
 * i915_gem_set_caching_ioctl - SET_CACHING: snooped or uncached GPU access
 * @dev: DRM device
 * @data: &struct drm_i915_gem_caching
 * @file: DRM file
 *
 * I915_CACHING_DISPLAY means uncached on Gen3/Gen4 (no write-through
 * caching).  A bound object is unbound, to be bound again with the new
 * kind of GTT entries.
 *
 * Return: 0; -EINVAL for an unknown mode; -ENODEV for I915_CACHING_CACHED
 * on a part that cannot snoop; -ENOENT for a bad handle; -EBUSY if the
 * object is pinned in the GTT; -ERESTARTSYS or -EINTR on a signal.
 */
int i915_gem_set_caching_ioctl(struct drm_device *dev, void *data,
			       struct drm_file *file)
{
	struct drm_i915_gem_caching *args = data;
	struct i915_gem_object *obj;
	u32 level;
	int ret;

	switch (args->caching) {
	case I915_CACHING_NONE:
	case I915_CACHING_DISPLAY:
		level = I915_CACHING_NONE;
		break;
	case I915_CACHING_CACHED:
		if (!to_i915(dev)->info->has_snoop)
			return -ENODEV;
		level = I915_CACHING_CACHED;
		break;
	default:
		drm_dbg(dev, "set_caching: unknown mode %u\n", args->caching);
		return -EINVAL;
	}

	obj = i915_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;

	/* As upstream: user memory stays snooped, silently for CACHED. */
	if (obj->ops->flags & I915_GEM_OBJECT_PROXY) {
		ret = args->caching == I915_CACHING_CACHED ? 0 : -ENXIO;
		goto out_put;
	}

	ret = dma_resv_lock_interruptible(obj->base.resv, NULL);
	if (ret)
		goto out_put;
	ret = i915_gem_object_set_cache_level(obj, level);
	dma_resv_unlock(obj->base.resv);

out_put:
	drm_gem_object_put(&obj->base);
	return ret;
}

/**
 * i915_gem_get_caching_ioctl - GET_CACHING: how the GPU maps an object
 * @dev: DRM device
 * @data: &struct drm_i915_gem_caching; @caching is returned
 * @file: DRM file
 *
 * Return: 0, or -ENOENT for a bad handle.
 */
int i915_gem_get_caching_ioctl(struct drm_device *dev, void *data,
			       struct drm_file *file)
{
	struct drm_i915_gem_caching *args = data;
	struct i915_gem_object *obj;

	obj = i915_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;

	args->caching = READ_ONCE(obj->cache_level);
	drm_gem_object_put(&obj->base);
	return 0;
}

/**
 * i915_gem_drop_caches_supported - the i915_gem_drop_caches bits accepted
 *
 * Every bit upstream defines is accepted; see i915_gem_drop_caches() for
 * what each one does here.
 *
 * Return: the mask of DROP_* bits.
 */
u64 i915_gem_drop_caches_supported(void)
{
	return I915_DROP_ALL;
}

/**
 * i915_gem_drop_caches - debugfs i915_gem_drop_caches: release what can be
 * @i915: the device
 * @mask: DROP_* bits, as igt writes them; unknown bits are ignored
 *
 * In upstream's order: ACTIVE and IDLE wait until the GPU has finished
 * every request (a hung GPU's requests have finished with -EIO, which
 * counts as idle here); RETIRE, FREED and RESET_SEQNO then retire what
 * has completed, and FREED waits for the objects whose free waited for
 * the GPU (drm_gem.c).  BOUND unbinds every object that
 * is not pinned, waiting for busy ones, which gives their pages back to
 * shmfs and purges the DONTNEED ones.  SHRINK_ALL runs the shrinker over
 * every idle object (i915_gem_shrink_all()).  UNBOUND has nothing to do:
 * unbound objects hold no pages.  RCU
 * waits for RCU callbacks.  RESET_ACTIVE does nothing more: a hung GPU
 * is reset by the hang check (i915_reset.c), which completes the hung
 * request, so ACTIVE's wait ends.
 *
 * Return: 0, or -EINTR/-ERESTARTSYS if a signal interrupted a wait.
 */
int i915_gem_drop_caches(struct i915_device *i915, u64 mask)
{
	int ret = 0;

	drm_dbg(&i915->drm, "drop caches 0x%llx [0x%llx]\n", mask,
		mask & I915_DROP_ALL);

	if (mask & (I915_DROP_ACTIVE | I915_DROP_IDLE)) {
		ret = i915_request_wait_idle(i915);
		if (ret && ret != -EIO)
			return ret;
		ret = 0;
	}
	if (mask & (I915_DROP_RETIRE | I915_DROP_FREED | I915_DROP_RESET_SEQNO))
		i915_request_retire(i915);
	if (mask & I915_DROP_FREED) {
		ret = i915_gem_free_wait(i915);
		if (ret)
			return ret;
	}
	if (mask & I915_DROP_BOUND)
		ret = i915_gtt_evict_all(i915);
	if (mask & I915_DROP_SHRINK_ALL)
		i915_gem_shrink_all(i915);
	if (mask & I915_DROP_RCU)
		rcu_barrier();
	return ret;
}

static void print_object(struct drm_printer *p, struct i915_gem_object *obj)
{
	struct drm_gem_object *gem = &obj->base;

	drm_printf(p, "%p: %zu bytes, %u handles, name %d, pages %u, domains 0x%02x/0x%02x, %s",
		   obj, gem->size, READ_ONCE(gem->handle_count),
		   READ_ONCE(gem->name), READ_ONCE(obj->pages_pin_count),
		   READ_ONCE(obj->read_domains), READ_ONCE(obj->write_domain),
		   READ_ONCE(obj->cache_level) ? "snooped" : "uncached");
	if (drm_mm_node_allocated(&obj->gtt_node))
		drm_printf(p, ", gtt 0x%08llx, pins %u", obj->gtt_node.start,
			   READ_ONCE(obj->pin_count));
	if (READ_ONCE(obj->madv) == I915_MADV_DONTNEED)
		drm_printf(p, ", dontneed");
	else if (READ_ONCE(obj->madv) == __I915_MADV_PURGED)
		drm_printf(p, ", purged");
	/* Its last reference is gone: a deferred free (drm_gem.c). */
	if (!kref_read(&gem->refcount))
		drm_printf(p, ", being freed");
	drm_printf(p, "\n");
}

/*
 * The second line: bound objects, and purgeable ones (DONTNEED with
 * pages, which the shrinker drops first).  Under &i915_device.obj_lock.
 */
static void print_counts(struct i915_device *i915, struct drm_printer *p)
{
	u64 bound_bytes = 0, purgeable_bytes = 0;
	u32 bound = 0, purgeable = 0;
	struct i915_gem_object *obj;

	list_for_each_entry(obj, &i915->objects, link) {
		if (drm_mm_node_allocated(&obj->gtt_node)) {
			bound++;
			bound_bytes += obj->base.size;
		}
		if (READ_ONCE(obj->madv) == I915_MADV_DONTNEED &&
		    READ_ONCE(obj->populated)) {
			purgeable++;
			purgeable_bytes += obj->base.size;
		}
	}
	drm_printf(p, "%u bound objects, %llu bytes; %u purgeable objects, %llu bytes\n",
		   bound, bound_bytes, purgeable, purgeable_bytes);
}

/**
 * i915_gem_print_objects - debugfs i915_gem_objects
 * @i915: the device
 * @p: where to print
 *
 * The first line is "<count> objects, <bytes> bytes", the form igt scans
 * with "%i objects"; the second "<n> bound objects, <bytes> bytes; <n>
 * purgeable objects, <bytes> bytes"; then one line per object (", being
 * freed" at the end of an object whose free waits for the GPU).  The
 * per-object fields are
 * read without the objects' locks: a snapshot, not a consistent one.
 */
void i915_gem_print_objects(struct i915_device *i915, struct drm_printer *p)
{
	struct i915_gem_object *obj;

	spin_lock(&i915->obj_lock);
	drm_printf(p, "%u objects, %llu bytes\n", i915->object_count,
		   i915->object_bytes);
	print_counts(i915, p);
	list_for_each_entry(obj, &i915->objects, link)
		print_object(p, obj);
	spin_unlock(&i915->obj_lock);
}
