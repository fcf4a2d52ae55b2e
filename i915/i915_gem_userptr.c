// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: objects on user memory (USERPTR)
 *
 * DRM_IOCTL_I915_GEM_USERPTR makes an object of a range of the caller's
 * own memory, as upstream 6.1 does: the GPU reads and writes the very
 * pages the process sees, mapped snooped (these parts have no LLC, and a
 * part that cannot snoop answers -ENODEV).  READ_ONLY needs read-only GTT
 * entries, which Gen3/Gen4 lack, and UNSYNCHRONIZED is gone upstream:
 * both are -ENODEV.  PROBE checks at creation that the range is mapped by
 * ordinary memory (-EFAULT otherwise).
 *
 * The user pages are pinned with pin_user_pages_fast(), which may take
 * mmap_lock: so never under a dma_resv lock (lockdep orders mmap_lock
 * first), but before, by i915_gem_userptr_prepare(), which every user of
 * the pages calls with no lock held (execbuffer in its phase 2,
 * SET_DOMAIN).  It records the sequence of the object's
 * mmu_interval_notifier the pages were pinned at; the object's
 * get_pages, under the lock, hands them to the GTT only if the notifier
 * has not moved since, and put_pages unpins them.
 *
 * When the process unmaps or remaps the range, the notifier moves the
 * sequence and waits for the GPU to finish with the object (as upstream:
 * not when the process is exiting).  The old pages stay pinned and bound,
 * harmless, until the next submission finds them stale: it unbinds the
 * object (waiting for the GPU), unpins them and pins the pages now
 * mapped, or fails with -EFAULT if there are none.  A submission that
 * raced with the notifier must not reach the GPU on stale pages unseen:
 * &i915_device.userptr_sem is held for reading from its last check of
 * the sequences until its fence is in the objects' dma_resv, and the
 * notifier moves the sequence under it for writing, so either the
 * submission sees the new sequence (and starts over, -EAGAIN inside the
 * driver) or the notifier's wait sees its fence.
 *
 * The pages are the process's, not the object's: pread, pwrite and
 * exporting the object are -EINVAL, the CPU mmap ioctl -ENXIO, the
 * caching may only be set to what it is (I915_CACHING_CACHED), and
 * SET_DOMAIN only pins the pages and waits, as upstream.  A child that
 * inherited the file cannot use the object: its memory is another mm
 * (-EFAULT).
 */

#include <drm/drm_file.h>
#include <drm/drm_print.h>
#include <uapi/drm/i915_drm.h>
#include <linux/dma-resv.h>
#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/pagemap.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/swap.h>
#include <linux/uaccess.h>

#include "i915_drv.h"
#include "i915_gem_execbuffer.h"

#define I915_USERPTR_FLAGS \
	(I915_USERPTR_READ_ONLY | I915_USERPTR_UNSYNCHRONIZED | \
	 I915_USERPTR_PROBE)

#ifdef CONFIG_MMU_NOTIFIER

/* Times a submission pins the user pages again before giving up. */
#define I915_USERPTR_TRIES	8

static unsigned long userptr_npages(struct i915_gem_object *obj)
{
	return obj->base.size >> PAGE_SHIFT;
}

/* Give back pinned user pages, dirty: the GPU may have written them. */
static void userptr_unpin(struct page **pvec, unsigned long count)
{
	unsigned long i;

	for (i = 0; i < count; i++) {
		/* No sleeping on a page lock under the dma_resv lock. */
		if (trylock_page(pvec[i])) {
			set_page_dirty(pvec[i]);
			unlock_page(pvec[i]);
		}
		mark_page_accessed(pvec[i]);
	}
	unpin_user_pages(pvec, count);
	kvfree(pvec);
}

static int userptr_get_pages(struct i915_gem_object *obj)
{
	struct i915_gem_userptr *up = &obj->userptr;

	if (!up->pvec || mmu_interval_read_retry(&up->notifier, up->seq))
		return -EAGAIN;
	obj->pages = up->pvec;
	return 0;
}

static void userptr_put_pages(struct i915_gem_object *obj)
{
	struct page **pvec = obj->userptr.pvec;

	obj->pages = NULL;
	obj->userptr.pvec = NULL;
	if (pvec)
		userptr_unpin(pvec, userptr_npages(obj));
}

static void userptr_release(struct i915_gem_object *obj)
{
	struct i915_gem_userptr *up = &obj->userptr;

	if (!up->notifier.mm)
		return;
	mmu_interval_notifier_remove(&up->notifier);
	up->notifier.mm = NULL;
	/* Pinned by a submission that never got as far as binding. */
	if (up->pvec)
		userptr_unpin(up->pvec, userptr_npages(obj));
	up->pvec = NULL;
}

const struct i915_gem_object_ops i915_gem_userptr_ops = {
	.name = "userptr",
	.flags = I915_GEM_OBJECT_PROXY,
	.get_pages = userptr_get_pages,
	.put_pages = userptr_put_pages,
	.release = userptr_release,
};

/*
 * The CPU mapping of the range changes: from now on the pinned pages are
 * stale.  The sequence moves under userptr_sem (see the DOC above), then
 * the GPU is waited for, so that once munmap() returns the GPU no longer
 * touches what was there.
 */
static bool userptr_invalidate(struct mmu_interval_notifier *mni,
			       const struct mmu_notifier_range *range,
			       unsigned long cur_seq)
{
	struct i915_gem_object *obj =
		container_of(mni, struct i915_gem_object, userptr.notifier);
	struct i915_device *i915 = obj_to_i915(obj);
	long ret;

	if (!mmu_notifier_range_blockable(range))
		return false;

	down_write(&i915->userptr_sem);
	mmu_interval_set_seq(mni, cur_seq);
	up_write(&i915->userptr_sem);

	/* As upstream: an exiting process does not wait for its batches. */
	if (current->flags & PF_EXITING)
		return true;

	ret = dma_resv_wait_timeout(obj->base.resv, DMA_RESV_USAGE_BOOKKEEP,
				    false, MAX_SCHEDULE_TIMEOUT);
	if (ret <= 0)
		drm_dbg(&i915->drm, "userptr: wait for idle: %ld\n", ret);
	return true;
}

static const struct mmu_interval_notifier_ops i915_gem_userptr_notifier_ops = {
	.invalidate = userptr_invalidate,
};

/*
 * Under the dma_resv lock: let go of user pages that went stale.  A bound
 * object is unbound first (after the GPU is done with it); one the user
 * pinned in the GTT cannot let go of them.
 */
static int userptr_drop_stale(struct i915_gem_object *obj)
{
	struct i915_gem_userptr *up = &obj->userptr;
	int ret;

	if (!up->pvec)
		return 0;
	if (obj->pages_pin_count) {
		if (obj->pin_count)
			return -EBUSY;
		ret = i915_gtt_unbind_idle_locked(obj);
		if (ret)
			return ret;
		if (obj->pages_pin_count)
			return -EBUSY;
	}
	/* Unbinding put them, unless nothing had got them yet. */
	userptr_put_pages(obj);
	return 0;
}

/* No lock held: pin the pages now mapped at the object's range. */
static int userptr_pin(struct i915_gem_object *obj, struct page ***pvecp)
{
	unsigned long n = userptr_npages(obj), pinned = 0;
	struct page **pvec;
	int ret;

	pvec = kvmalloc_array(n, sizeof(*pvec), GFP_KERNEL);
	if (!pvec)
		return -ENOMEM;

	while (pinned < n) {
		ret = pin_user_pages_fast(obj->userptr.ptr + pinned * PAGE_SIZE,
					  n - pinned, FOLL_WRITE,
					  pvec + pinned);
		if (ret <= 0) {
			if (pinned)
				unpin_user_pages(pvec, pinned);
			kvfree(pvec);
			return ret ?: -EFAULT;
		}
		pinned += ret;
	}
	*pvecp = pvec;
	return 0;
}

/**
 * i915_gem_userptr_prepare - pin a userptr object's user pages
 * @obj: a userptr object, no lock held
 *
 * Before every use of the pages by the GPU: if the pages pinned last are
 * still current, nothing to do; otherwise the stale ones are let go of
 * (the object unbound, after the GPU is done with it) and the pages
 * mapped now are pinned, for the object's next get_pages.
 *
 * Return: 0; -EFAULT if the caller's mm is not the object's or part of
 * the range is not mapped (or not writable); -EBUSY if the object is
 * pinned in the GTT on stale pages; -EAGAIN if the range changed again
 * meanwhile (try again); -ENOMEM; -EINTR or -ERESTARTSYS on a signal.
 */
int i915_gem_userptr_prepare(struct i915_gem_object *obj)
{
	struct i915_gem_userptr *up = &obj->userptr;
	struct page **pvec = NULL;
	unsigned long seq;
	int ret;

	if (up->notifier.mm != current->mm)
		return -EFAULT;

	seq = mmu_interval_read_begin(&up->notifier);
	ret = dma_resv_lock_interruptible(obj->base.resv, NULL);
	if (ret)
		return ret;
	if (up->pvec && up->seq == seq) {
		dma_resv_unlock(obj->base.resv);
		return 0;
	}
	ret = userptr_drop_stale(obj);
	dma_resv_unlock(obj->base.resv);
	if (ret)
		return ret;

	ret = userptr_pin(obj, &pvec);
	if (ret)
		return ret;

	ret = dma_resv_lock_interruptible(obj->base.resv, NULL);
	if (ret)
		goto out;
	if (mmu_interval_read_retry(&up->notifier, seq)) {
		ret = -EAGAIN;
	} else if (!up->pvec) {
		up->pvec = pvec;
		up->seq = seq;
		pvec = NULL;
	}
	/* Else another thread pinned the same pages first: keep those. */
	dma_resv_unlock(obj->base.resv);
out:
	if (pvec)
		userptr_unpin(pvec, userptr_npages(obj));
	return ret;
}

/* i915_gem_userptr_prepare() again while the range keeps changing. */
static int userptr_prepare_retry(struct i915_gem_object *obj)
{
	unsigned int tries = 0;
	int ret;

	do {
		ret = i915_gem_userptr_prepare(obj);
	} while (ret == -EAGAIN && ++tries < I915_USERPTR_TRIES);
	return ret;
}

/**
 * i915_gem_userptr_validate - make a userptr object's pages resident
 * @obj: a userptr object, no lock held
 *
 * SET_DOMAIN on a userptr object, as upstream: the user pages are pinned
 * and taken by the object, so that a bad range is reported now.
 *
 * Return: 0, or an errno of i915_gem_userptr_prepare().
 */
int i915_gem_userptr_validate(struct i915_gem_object *obj)
{
	int ret;

	ret = userptr_prepare_retry(obj);
	if (ret)
		return ret;

	ret = dma_resv_lock_interruptible(obj->base.resv, NULL);
	if (ret)
		return ret;
	ret = i915_gem_object_pin_pages(obj);
	if (!ret)
		i915_gem_object_unpin_pages(obj);
	dma_resv_unlock(obj->base.resv);
	return ret;
}

/**
 * i915_gem_userptr_stale - are the user pages of a userptr object stale?
 * @obj: a userptr object, its dma_resv lock held
 *
 * Return: true if no pages are pinned or the range changed since they
 * were.
 */
bool i915_gem_userptr_stale(struct i915_gem_object *obj)
{
	struct i915_gem_userptr *up = &obj->userptr;

	dma_resv_assert_held(obj->base.resv);
	return !up->pvec || mmu_interval_read_retry(&up->notifier, up->seq);
}

/**
 * i915_exec_userptr_prepare - phase 2 of an execbuffer for userptr objects
 * @eb: the execbuffer, its objects looked up, no lock held
 *
 * Pins the user pages of every userptr object of the list.
 *
 * Return: 0 or an errno of i915_gem_userptr_prepare().
 */
int i915_exec_userptr_prepare(struct i915_exec *eb)
{
	struct i915_gem_object *obj;
	unsigned int i;
	int ret;

	if (!eb->userptr)
		return 0;	/* none in the list (i915_exec_lookup()) */
	for (i = 0; i < eb->count; i++) {
		obj = eb->objects[i].obj;
		if (!i915_gem_object_is_userptr(obj))
			continue;
		ret = userptr_prepare_retry(obj);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * i915_exec_userptr_begin - check the userptr pages before emission
 * @eb: the execbuffer, every object locked and bound
 *
 * With userptr objects in the list, takes &i915_device.userptr_sem for
 * reading, to be held until the request's fence is in the objects'
 * dma_resv (i915_exec_userptr_end()), and checks that none of their pages
 * went stale.
 *
 * Return: 0; -EAGAIN if some did (nothing held: pin again and start
 * over); -EINTR on a signal.
 */
int i915_exec_userptr_begin(struct i915_exec *eb)
{
	struct i915_gem_object *obj;
	unsigned int i;

	if (!eb->userptr)
		return 0;
	if (down_read_interruptible(&eb->i915->userptr_sem))
		return -EINTR;

	for (i = 0; i < eb->count; i++) {
		obj = eb->objects[i].obj;
		if (i915_gem_object_is_userptr(obj) &&
		    i915_gem_userptr_stale(obj)) {
			up_read(&eb->i915->userptr_sem);
			return -EAGAIN;
		}
	}
	eb->userptr_held = true;
	return 0;
}

/**
 * i915_exec_userptr_end - the request's fence is published (or never was)
 * @eb: the execbuffer
 */
void i915_exec_userptr_end(struct i915_exec *eb)
{
	if (!eb->userptr_held)
		return;
	up_read(&eb->i915->userptr_sem);
	eb->userptr_held = false;
}

/**
 * i915_exec_userptr_retry - start over after the userptr pages went stale
 * @eb: the execbuffer, no lock held
 * @ret: what phases 4 to 8 answered
 * @tries: starts over so far
 *
 * Return: true if @ret says userptr pages went stale and they were pinned
 * again: run phases 4 to 8 once more.
 */
bool i915_exec_userptr_retry(struct i915_exec *eb, int ret,
			     unsigned int tries)
{
	if (ret != -EAGAIN || !eb->userptr || tries >= I915_USERPTR_TRIES)
		return false;
	return !i915_exec_userptr_prepare(eb);
}

/* A userptr object on [@ptr, @ptr + @size) of the caller's mm. */
static int userptr_create(struct drm_device *dev, u64 ptr, u64 size,
			  struct i915_gem_object **objp)
{
	struct i915_gem_object *obj;
	int ret;

	obj = i915_gem_object_create_private(to_i915(dev), size,
					     &i915_gem_userptr_ops, NULL);
	if (IS_ERR(obj))
		return PTR_ERR(obj);
	/* Snooped: the CPU reaches the pages through its caches. */
	obj->cache_level = I915_CACHING_CACHED;
	obj->userptr.ptr = ptr;
	obj->userptr.seq = ULONG_MAX;

	ret = mmu_interval_notifier_insert(&obj->userptr.notifier,
					   current->mm, ptr, size,
					   &i915_gem_userptr_notifier_ops);
	if (ret) {
		drm_gem_object_put(&obj->base);
		return ret;
	}
	*objp = obj;
	return 0;
}

#else /* !CONFIG_MMU_NOTIFIER */

/* As upstream: no notifier, no USERPTR (no userptr object ever exists). */
static int userptr_create(struct drm_device *dev, u64 ptr, u64 size,
			  struct i915_gem_object **objp)
{
	return -ENODEV;
}

int i915_gem_userptr_prepare(struct i915_gem_object *obj)
{
	return -ENODEV;
}

int i915_gem_userptr_validate(struct i915_gem_object *obj)
{
	return -ENODEV;
}

bool i915_gem_userptr_stale(struct i915_gem_object *obj)
{
	return true;
}

int i915_exec_userptr_prepare(struct i915_exec *eb)
{
	return 0;
}

int i915_exec_userptr_begin(struct i915_exec *eb)
{
	return 0;
}

void i915_exec_userptr_end(struct i915_exec *eb)
{
}

bool i915_exec_userptr_retry(struct i915_exec *eb, int ret,
			     unsigned int tries)
{
	return false;
}

#endif /* CONFIG_MMU_NOTIFIER */

/*
 * PROBE: is every page of [@addr, @addr + @len) mapped by an ordinary
 * mapping (no hole, no PFN, mixed or I/O map, whose pages cannot be
 * pinned)?  A GEM object's CPU mapping on the DRM fd is VM_IO here where
 * upstream's is VM_PFNMAP: both are refused.
 */
static int userptr_probe(struct mm_struct *mm, unsigned long addr,
			 unsigned long len)
{
	VMA_ITERATOR(vmi, mm, addr);
	unsigned long end = addr + len;
	struct vm_area_struct *vma;
	int ret = 0;

	if (mmap_read_lock_killable(mm))
		return -EINTR;
	for_each_vma_range(vmi, vma, end) {
		if (vma->vm_start > addr ||
		    vma->vm_flags & (VM_PFNMAP | VM_MIXEDMAP | VM_IO))
			break;
		addr = vma->vm_end;
	}
	if (addr < end)
		ret = -EFAULT;
	mmap_read_unlock(mm);
	return ret;
}

/* Every check of the arguments, in upstream's order. */
static int userptr_check(struct drm_device *dev,
			 const struct drm_i915_gem_userptr *args)
{
	if (!to_i915(dev)->info->has_snoop)
		return -ENODEV;
	if (args->flags & ~I915_USERPTR_FLAGS) {
		drm_dbg(dev, "userptr: unknown flags 0x%x\n", args->flags);
		return -EINVAL;
	}
	if (!args->user_size ||
	    offset_in_page(args->user_ptr | args->user_size))
		return -EINVAL;
	if (!access_ok(u64_to_user_ptr(args->user_ptr), args->user_size))
		return -EFAULT;
	/* This driver's limit on any object, as GEM_CREATE's. */
	if (args->user_size >> PAGE_SHIFT > INT_MAX)
		return -E2BIG;
	/* Gone upstream; and Gen3/Gen4 GTT entries cannot be read-only. */
	if (args->flags &
	    (I915_USERPTR_UNSYNCHRONIZED | I915_USERPTR_READ_ONLY))
		return -ENODEV;
	if (args->flags & I915_USERPTR_PROBE)
		return userptr_probe(current->mm, args->user_ptr,
				     args->user_size);
	return 0;
}

/**
 * i915_gem_userptr_ioctl - USERPTR: an object on the caller's memory
 * @dev: DRM device
 * @data: &struct drm_i915_gem_userptr; @handle is returned
 * @file: DRM file
 *
 * Return: 0; -ENODEV on a part that cannot snoop, for READ_ONLY and for
 * UNSYNCHRONIZED, and on a kernel without MMU notifiers; -EINVAL for
 * unknown flags, a size of 0 or an unaligned address or size; -EFAULT for
 * a range outside the user address space, or with PROBE, one not wholly
 * mapped by pinnable memory; -E2BIG for more than INT_MAX pages;
 * -ENOMEM; -EINTR.
 */
int i915_gem_userptr_ioctl(struct drm_device *dev, void *data,
			   struct drm_file *file)
{
	struct drm_i915_gem_userptr *args = data;
	struct i915_gem_object *obj;
	int ret;

	ret = userptr_check(dev, args);
	if (!ret)
		ret = userptr_create(dev, args->user_ptr, args->user_size, &obj);
	if (ret)
		return ret;
	return i915_gem_object_create_handle(file, obj, &args->handle);
}

/**
 * i915_gem_userptr_init - the device's part of USERPTR
 * @i915: the device
 *
 * Tells lockdep that the notifier takes &i915_device.userptr_sem under
 * reclaim, so that an allocation under it is reported at once.
 */
void i915_gem_userptr_init(struct i915_device *i915)
{
	init_rwsem(&i915->userptr_sem);
	if (IS_ENABLED(CONFIG_LOCKDEP)) {
		fs_reclaim_acquire(GFP_KERNEL);
		down_write(&i915->userptr_sem);
		up_write(&i915->userptr_sem);
		fs_reclaim_release(GFP_KERNEL);
	}
}
