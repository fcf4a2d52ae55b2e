// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: memory domains
 *
 * Section 6 of the design.  Gen3/Gen4 GPUs do not snoop the CPU caches
 * (unless an object is mapped snooped, I915_CACHING_CACHED), so each
 * object records which caches may hold its data: @read_domains, the
 * caches that may hold valid copies, and @write_domain, the one cache
 * that may hold data newer than memory.  Moving an object into a domain
 * is always the same two steps:
 *
 * 1. wait: for the GPU work that must finish first (all of it before a
 *    write, the writers before a read), i915_gem_object_wait();
 * 2. flush: write the old write domain back to memory (clflush of a
 *    CPU-written object, then the chipset flush), invalidate the caches
 *    of a newly entered read domain (clflush when the CPU read domain is
 *    entered), then update the bits.
 *
 * The CPU-visible domains are CPU (write-back caches), GTT and WC (both
 * uncached views of memory for the CPU).  The GPU domains (render,
 * sampler, ...) are entered by execution (section 7.3.1 B):
 * i915_gem_object_gpu_domains() works out, for one object of an
 * execbuffer, which GPU caches the MI_FLUSH before the batch must flush
 * and invalidate, and pushes CPU writes out of the CPU caches (clflush,
 * chipset flush).  GPU caches are flushed by the MI_FLUSH that ends every
 * request, so once an object's fences have signalled its data is in
 * memory: leaving a GPU write domain for the CPU is "wait, then
 * invalidate the CPU caches" (GPU writes are not snooped), and moving
 * between GPU domains needs no CPU stall at all, only the MI_FLUSH.
 *
 * Pages that are not pinned are always in the CPU domain: when the last
 * pin goes, i915_gem_object_flush_for_release() invalidates stale lines
 * and returns the object to the CPU domain, because the kernel may then
 * copy, swap or migrate the pages through the CPU caches.  So cache
 * operations only ever touch pinned pages.
 *
 * A GTT mmap may be written outside the GTT write domain: igt sets the
 * domain before the first fault, and the unpin ending SET_DOMAIN sends an
 * object without other pins straight back to the CPU domain.  So a fault
 * of a writable GTT mmap marks the object (@gtt_written), and its next
 * domain change or pread/pwrite flushes the GTT writes (a chipset flush)
 * whatever the domain says, as upstream flushes a GGTT binding written
 * through a fault.
 *
 * pread and pwrite ask i915_gem_object_prepare_read() and
 * i915_gem_object_prepare_write() how to copy: pread invalidates the
 * range it reads when the CPU caches may be stale, and pwrite uses
 * non-temporal stores for an object outside the CPU write domain (the
 * announcement's "pwrite uses non-temporal stores"), so that its data
 * goes to memory without dirtying the caches.
 *
 * Locking: the domain bits and @cache_level are under the object's
 * dma_resv lock.
 */

#include <drm/drm_cache.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>
#include <uapi/drm/i915_drm.h>
#include <linux/dma-resv.h>

#include "i915_drv.h"

static bool obj_snooped(struct i915_gem_object *obj)
{
	return obj->cache_level != I915_CACHING_NONE;
}

static void clflush_pages(struct i915_gem_object *obj)
{
	if (obj->pages)
		drm_clflush_pages(obj->pages, obj->base.size >> PAGE_SHIFT);
}

/* CPU writes to memory, where the GPU reads: clflush, chipset flush. */
static void flush_cpu_writes(struct i915_gem_object *obj)
{
	if (obj_snooped(obj) || !obj->pages)
		return;

	clflush_pages(obj);
	i915_chipset_flush(&obj_to_i915(obj)->hw);
}

/* Drop cached lines that memory (GPU or uncached writes) made stale. */
static void invalidate_cpu_caches(struct i915_gem_object *obj)
{
	if (!obj_snooped(obj))
		clflush_pages(obj);
}

static void flush_write_domain(struct i915_gem_object *obj, u32 domains)
{
	/*
	 * Writes through a GTT mmap faulted in after a SET_DOMAIN whose
	 * unpin sent the object back to the CPU domain (see the DOC).
	 */
	if (obj->gtt_written) {
		obj->gtt_written = false;
		wmb(); /* drain the write-combining buffers first */
		i915_chipset_flush(&obj_to_i915(obj)->hw);
	}
	if (!(obj->write_domain & domains))
		return;

	switch (obj->write_domain) {
	case I915_GEM_DOMAIN_CPU:
		flush_cpu_writes(obj);
		break;
	case I915_GEM_DOMAIN_GTT:
	case I915_GEM_DOMAIN_WC:
		/* Drain the write-combining buffers, then the chipset's. */
		wmb();
		i915_chipset_flush(&obj_to_i915(obj)->hw);
		break;
	default:
		/* GPU caches: flushed in the ring before the request ends. */
		break;
	}
	obj->write_domain = 0;
}

/**
 * i915_gem_object_wait - the wait step of a domain change
 * @obj: the object
 * @write: the CPU is going to write: wait for every GPU access to end;
 *	otherwise only for GPU writes
 *
 * Waits, interruptibly and without a timeout, for the fences in the
 * object's dma_resv: the requests of execution that use the object.
 * Needs no lock; the domain changes call it with the lock held.  A
 * request the hang check completed with -EIO counts as done, as upstream
 * counts it: the fence's error is for its sync_file, not for the wait.
 *
 * Return: 0 once idle, or -ERESTARTSYS if a signal came first.
 */
int i915_gem_object_wait(struct i915_gem_object *obj, bool write)
{
	long ret;

	ret = dma_resv_wait_timeout(obj->base.resv, dma_resv_usage_rw(write),
				    true, MAX_SCHEDULE_TIMEOUT);
	return ret < 0 ? ret : 0;
}

/**
 * i915_gem_object_set_to_cpu_domain - prepare an object for CPU access
 * @obj: the object, its dma_resv lock held
 * @write: the CPU will write; the CPU becomes the only read domain and
 *	the write domain
 *
 * Return: 0, or -ERESTARTSYS if a signal interrupted the wait.
 */
int i915_gem_object_set_to_cpu_domain(struct i915_gem_object *obj,
				      bool write)
{
	int ret;

	dma_resv_assert_held(obj->base.resv);

	ret = i915_gem_object_wait(obj, write);
	if (ret)
		return ret;

	flush_write_domain(obj, ~I915_GEM_DOMAIN_CPU);
	if (!(obj->read_domains & I915_GEM_DOMAIN_CPU)) {
		invalidate_cpu_caches(obj);
		obj->read_domains |= I915_GEM_DOMAIN_CPU;
	}
	if (write) {
		obj->read_domains = I915_GEM_DOMAIN_CPU;
		obj->write_domain = I915_GEM_DOMAIN_CPU;
	}
	return 0;
}

/*
 * The GTT and WC domains: uncached CPU access to memory.  The pages are
 * pinned for the duration, to flush CPU writes out of the caches; if
 * nothing else holds them, the unpin sends the object straight back to
 * the CPU domain, its caches clean.
 */
static int set_to_uncached_domain(struct i915_gem_object *obj, u32 domain,
				  bool write)
{
	int ret;

	dma_resv_assert_held(obj->base.resv);

	ret = i915_gem_object_wait(obj, write);
	if (ret)
		return ret;
	if (obj->write_domain == domain)
		return 0;

	ret = i915_gem_object_pin_pages(obj);
	if (ret)
		return ret;

	flush_write_domain(obj, ~domain);
	if (!(obj->read_domains & domain))
		mb(); /* order uncached access after the GPU's writes */
	obj->read_domains |= domain;
	if (write) {
		obj->read_domains = domain;
		obj->write_domain = domain;
	}

	i915_gem_object_unpin_pages(obj);
	return 0;
}

/**
 * i915_gem_object_set_to_gtt_domain - prepare an object for GTT access
 * @obj: the object, its dma_resv lock held
 * @write: the access will write; GTT becomes the only read domain and the
 *	write domain
 *
 * Return: 0, -ERESTARTSYS if a signal interrupted the wait, or -ENOMEM
 * if the pages could not be pinned.
 */
int i915_gem_object_set_to_gtt_domain(struct i915_gem_object *obj,
				      bool write)
{
	return set_to_uncached_domain(obj, I915_GEM_DOMAIN_GTT, write);
}

/**
 * i915_gem_object_flush_for_release - the domain side of unpinning
 * @obj: the object, its dma_resv lock held, whose last page pin goes
 *
 * Invalidates CPU cache lines the GPU may have made stale and returns the
 * object to the CPU domain, since the kernel may now touch the pages
 * through the caches (swap, migration).
 */
void i915_gem_object_flush_for_release(struct i915_gem_object *obj)
{
	dma_resv_assert_held(obj->base.resv);

	flush_write_domain(obj, ~I915_GEM_DOMAIN_CPU);
	if (!(obj->read_domains & I915_GEM_DOMAIN_CPU))
		invalidate_cpu_caches(obj);
	obj->read_domains = I915_GEM_DOMAIN_CPU;
	obj->write_domain = I915_GEM_DOMAIN_CPU;
}

/*
 * The domain side of pread (@write false) and pwrite (@write true).  A
 * snooped object simply enters the CPU domain.  Any other waits for the
 * GPU (its writes, or every access before a write) and has an uncached
 * write domain flushed, without entering the CPU domain; *@uncached then
 * says whether the copy must go around the CPU caches: for a read, they
 * may be stale; for a write, the object is outside the CPU write domain.
 */
static int prepare_copy(struct i915_gem_object *obj, bool write,
			bool *uncached)
{
	int ret;

	ret = dma_resv_lock_interruptible(obj->base.resv, NULL);
	if (ret)
		return ret;

	/* pread gets the pages, as upstream's; pwrite writes shmfs. */
	ret = i915_gem_object_check_pages(obj, !write);
	if (ret)
		goto out_unlock;

	*uncached = false;
	if (obj_snooped(obj)) {
		ret = i915_gem_object_set_to_cpu_domain(obj, write);
		goto out_unlock;
	}

	ret = i915_gem_object_wait(obj, write);
	if (ret)
		goto out_unlock;
	flush_write_domain(obj, ~I915_GEM_DOMAIN_CPU);
	if (write) {
		*uncached = obj->write_domain != I915_GEM_DOMAIN_CPU;
		/* What the GPU caches hold is about to be stale. */
		obj->read_domains &= ~I915_GEM_GPU_DOMAINS;
	} else {
		*uncached = !(obj->read_domains & I915_GEM_DOMAIN_CPU);
	}

out_unlock:
	dma_resv_unlock(obj->base.resv);
	return ret;
}

/**
 * i915_gem_object_prepare_read - the domain side of pread
 * @obj: the object, no lock held
 * @clflush: returns whether the CPU caches may be stale, so the reader
 *	must invalidate each range before copying it
 *
 * Waits for GPU writes and flushes an uncached write domain.  The object
 * keeps its domains: a GPU that writes it again soon needs no flush.
 *
 * Return: 0, -EFAULT for a purgeable object without pages, or
 * -EINTR/-ERESTARTSYS if a signal came first.
 */
int i915_gem_object_prepare_read(struct i915_gem_object *obj, bool *clflush)
{
	return prepare_copy(obj, false, clflush);
}

/**
 * i915_gem_object_prepare_write - the domain side of pwrite
 * @obj: the object, no lock held
 * @nontemporal: returns whether to write with non-temporal stores: the
 *	object is outside the CPU write domain, so the data must reach
 *	memory, not the caches; the caller then calls
 *	i915_gem_object_finish_write()
 *
 * Waits for every GPU access and flushes an uncached write domain.  An
 * object in the CPU write domain is written through the caches, which
 * are flushed when it leaves that domain.
 *
 * Return: 0, -EFAULT for a purgeable object without pages, or
 * -EINTR/-ERESTARTSYS if a signal came first.
 */
int i915_gem_object_prepare_write(struct i915_gem_object *obj,
				  bool *nontemporal)
{
	return prepare_copy(obj, true, nontemporal);
}

/**
 * i915_gem_object_finish_write - after a non-temporal pwrite
 * @obj: the object just written
 *
 * Pushes the streamed data out of the chipset's write buffers, so that
 * the GPU reads it from memory.
 */
void i915_gem_object_finish_write(struct i915_gem_object *obj)
{
	wmb(); /* the non-temporal stores before the flush */
	i915_chipset_flush(&obj_to_i915(obj)->hw);
}

/**
 * i915_gem_object_flush_gtt_writes - before a CPU or WC mmap of the pages
 * @obj: the object, no lock held
 *
 * I915_GEM_MMAP: writes through a GTT mmap reach memory before the
 * caller reads the pages through the new map, as they would on silicon
 * without any domain change (igt's gem_tiled_wc reads so).
 *
 * Return: 0, or -EINTR if a signal interrupted the wait for the lock.
 */
int i915_gem_object_flush_gtt_writes(struct i915_gem_object *obj)
{
	int ret;

	ret = dma_resv_lock_interruptible(obj->base.resv, NULL);
	if (ret)
		return ret;
	if (obj->gtt_written)
		flush_write_domain(obj, 0);
	dma_resv_unlock(obj->base.resv);
	return 0;
}

/**
 * i915_gem_object_flush_if_pinned - flush CPU writes of a resident object
 * @obj: the object, no lock held
 *
 * SW_FINISH: an object whose pages are pinned (bound in the GTT, perhaps
 * scanned out) gets its CPU writes pushed to memory now, as the design's
 * sw_finish does for pinned buffers.  Other objects are flushed when
 * they next leave the CPU domain.
 *
 * Return: 0, or -EINTR if a signal interrupted the wait for the lock.
 */
int i915_gem_object_flush_if_pinned(struct i915_gem_object *obj)
{
	int ret;

	ret = dma_resv_lock_interruptible(obj->base.resv, NULL);
	if (ret)
		return ret;
	if (obj->pages_pin_count)
		flush_write_domain(obj, I915_GEM_DOMAIN_CPU);
	dma_resv_unlock(obj->base.resv);
	return 0;
}

/**
 * i915_gem_object_set_cache_level - change how the GPU maps an object
 * @obj: the object, its dma_resv lock held
 * @level: I915_CACHING_NONE or I915_CACHING_CACHED (snooped)
 *
 * Waits for the GPU, then unbinds the object so that its next bind
 * writes GTT entries of the new type.  Flushes skipped while the object
 * was snooped are made up for by flushing any pinned pages now.
 *
 * Return: 0, -ERESTARTSYS if a signal interrupted the wait, or -EBUSY if
 * the object is pinned in the GTT (I915_GEM_PIN) and so cannot move.
 */
int i915_gem_object_set_cache_level(struct i915_gem_object *obj, u32 level)
{
	int ret;

	dma_resv_assert_held(obj->base.resv);

	if (obj->cache_level == level)
		return 0;

	ret = i915_gem_object_wait(obj, true);
	if (ret)
		return ret;

	if (obj->pin_count)
		return -EBUSY;
	i915_gtt_unbind_locked(obj);

	if (obj->pages) {
		clflush_pages(obj);
		i915_chipset_flush(&obj_to_i915(obj)->hw);
	}
	obj->cache_level = level;
	return 0;
}

/**
 * i915_gem_object_flush_cpu_domains - a CPU write domain's writes, out
 * @obj: the object, its dma_resv lock held, in a CPU write domain
 *
 * The out-of-line part of i915_gem_object_gpu_domains(): clflush and
 * chipset flush (or the write-combining buffers' drain); the object then
 * has no write domain.
 */
void i915_gem_object_flush_cpu_domains(struct i915_gem_object *obj)
{
	flush_write_domain(obj, I915_GEM_CPU_DOMAINS);
}

static int check_domains(struct drm_device *dev, u32 read, u32 write)
{
	if ((read | write) & I915_GEM_GPU_DOMAINS) {
		drm_dbg(dev, "set_domain: GPU domains 0x%x/0x%x\n", read, write);
		return -EINVAL;
	}
	if ((read | write) & ~I915_GEM_CPU_DOMAINS) {
		drm_dbg(dev, "set_domain: unknown domains 0x%x/0x%x\n",
			read, write);
		return -EINVAL;
	}
	if (write && read != write) {
		drm_dbg(dev, "set_domain: write 0x%x but read 0x%x\n",
			write, read);
		return -EINVAL;
	}
	return 0;
}

static int set_domain_locked(struct i915_gem_object *obj, u32 read, u32 write)
{
	if (read & I915_GEM_DOMAIN_WC)
		return set_to_uncached_domain(obj, I915_GEM_DOMAIN_WC, write);
	if (read & I915_GEM_DOMAIN_GTT)
		return set_to_uncached_domain(obj, I915_GEM_DOMAIN_GTT, write);
	return i915_gem_object_set_to_cpu_domain(obj, write);
}

/**
 * i915_gem_set_domain_ioctl - SET_DOMAIN: prepare an object for CPU access
 * @dev: DRM device
 * @data: &struct drm_i915_gem_set_domain
 * @file: DRM file
 *
 * For a client about to use its CPU mmap (CPU domain) or an uncached
 * mapping (GTT or WC domain).  Waits for the GPU and does the cache work
 * the move needs.  Empty @read_domains is a no-op, as upstream.
 *
 * Return: 0; -EINVAL for GPU or unknown domain bits, or a write domain
 * that is not also the only read domain; -ENOENT for a bad handle;
 * -EFAULT for a purged object (see i915_gem_shrinker.c); -ERESTARTSYS or
 * -EINTR on a signal; -ENOMEM.
 */
int i915_gem_set_domain_ioctl(struct drm_device *dev, void *data,
			      struct drm_file *file)
{
	struct drm_i915_gem_set_domain *args = data;
	u32 read = args->read_domains, write = args->write_domain;
	struct i915_gem_object *obj;
	int ret;

	ret = check_domains(dev, read, write);
	if (ret || !read)
		return ret;

	obj = i915_gem_object_lookup(file, args->handle);
	if (!obj)
		return -ENOENT;

	/* Wait unlocked first, so that others may use the lock meanwhile. */
	ret = i915_gem_object_wait(obj, write);
	if (ret)
		goto out_put;

	/* As upstream: user memory has no domains, only pages to check. */
	if (i915_gem_object_is_userptr(obj)) {
		ret = i915_gem_userptr_validate(obj);
		if (!ret)
			ret = i915_gem_object_wait(obj, write);
		goto out_put;
	}

	ret = dma_resv_lock_interruptible(obj->base.resv, NULL);
	if (ret)
		goto out_put;
	ret = i915_gem_object_check_pages(obj, true);
	if (!ret)
		ret = set_domain_locked(obj, read, write);
	dma_resv_unlock(obj->base.resv);

out_put:
	drm_gem_object_put(&obj->base);
	return ret;
}
