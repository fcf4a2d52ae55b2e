// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: relocations
 *
 * Section 7.1 of the design, for one execbuffer, in four steps that the
 * execbuffer path calls at different times:
 *
 * 1. i915_reloc_copy_in(), before any driver lock: every object's array
 *    of &struct drm_i915_gem_relocation_entry is copied into the kernel.
 *    From then on nothing reads user memory until the write-back.
 * 2. i915_reloc_check(), still before any lock, on the kernel copies
 *    only: each entry's target must be in the object list (unlike 2008,
 *    where "the kernel doesn't check for this") and is replaced by its
 *    index; the offset must be 4-byte aligned with the dword inside the
 *    source object; the domains must be GPU domains, with at most one
 *    write domain, contained in the read domains and the same for every
 *    entry that writes the target.  The domains are unioned into the
 *    targets.  A rejected execbuffer has changed nothing.
 * 3. i915_reloc_apply(), with every object locked and bound: an entry
 *    whose presumed_offset is the target's current address is left alone
 *    (the design's fast path); any other gets target address + delta
 *    written at its offset, after the source object went idle (the GPU
 *    may still be reading the previous contents), through a kernel
 *    mapping of the page.  reloc_patch() is the only code that writes.
 * 4. i915_reloc_write_back(), after every lock is dropped: the patched
 *    entries' presumed_offset fields are updated in user memory, as
 *    upstream does, so that the next execbuffer takes the fast path.
 *    This happens even when the execbuffer fails after patching: the
 *    object then holds the new address, and a stale presumed_offset
 *    could later match by chance.
 */

#include <drm/drm_cache.h>
#include <uapi/drm/i915_drm.h>
#include <linux/bsearch.h>
#include <linux/dma-resv.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/pagemap.h>
#include <linux/uaccess.h>

#include "i915_drv.h"

/* Total relocations of one execbuffer, as old kernels bounded them. */
#define I915_RELOC_MAX	(INT_MAX / sizeof(struct drm_i915_gem_relocation_entry))

static int reloc_copy_one(struct i915_exec_object *eo)
{
	size_t size = array_size(eo->relocation_count, sizeof(*eo->relocs));

	eo->relocs = kvmalloc(size, GFP_KERNEL | __GFP_NOWARN |
			      __GFP_RETRY_MAYFAIL);
	if (!eo->relocs)
		return -ENOMEM;
	if (copy_from_user(eo->relocs, eo->user_relocs, size))
		return -EFAULT;
	return 0;
}

/*
 * More relocations than this driver copies in.  Upstream reads them in
 * place and so fails on the first one it cannot read: answer -EFAULT too
 * where an array is not all readable, -EINVAL where it is.
 */
static int reloc_too_many(struct i915_exec *eb)
{
	struct i915_exec_object *eo;
	unsigned int i;
	size_t size;

	for (i = 0; i < eb->count; i++) {
		eo = &eb->objects[i];
		size = array_size(eo->relocation_count, sizeof(*eo->relocs));
		if (size && (!access_ok(eo->user_relocs, size) ||
			     fault_in_readable((const char __user *)
					       eo->user_relocs, size)))
			return -EFAULT;
	}
	return -EINVAL;
}

/**
 * i915_reloc_copy_in - copy every relocation array into the kernel
 * @eb: the execbuffer, no lock held
 *
 * Return: 0; -EFAULT if an array cannot be read; -EINVAL if the
 * execbuffer has more than %I915_RELOC_MAX relocations, all readable;
 * -ENOMEM.
 */
int i915_reloc_copy_in(struct i915_exec *eb)
{
	u64 total = 0;
	unsigned int i;
	int ret;

	for (i = 0; i < eb->count; i++)
		total += eb->objects[i].relocation_count;
	if (total > I915_RELOC_MAX) {
		drm_dbg(&eb->i915->drm, "exec: %llu relocations\n", total);
		return reloc_too_many(eb);
	}

	for (i = 0; i < eb->count; i++) {
		if (!eb->objects[i].relocation_count)
			continue;
		ret = reloc_copy_one(&eb->objects[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * i915_reloc_free - free the kernel copies of the relocation arrays
 * @eb: the execbuffer
 */
void i915_reloc_free(struct i915_exec *eb)
{
	unsigned int i;

	for (i = 0; i < eb->count; i++) {
		kvfree(eb->objects[i].relocs);
		eb->objects[i].relocs = NULL;
	}
}

static int cmp_handle(const void *key, const void *elt)
{
	u32 handle = *(const u32 *)key;
	const struct i915_exec_handle *h = elt;

	if (handle < h->handle)
		return -1;
	return handle > h->handle;
}

/* The index of the target of @reloc in the object list, or -ENOENT. */
static int reloc_target(const struct i915_exec *eb,
			const struct drm_i915_gem_relocation_entry *reloc)
{
	const struct i915_exec_handle *h;

	if (eb->flags & I915_EXEC_HANDLE_LUT)
		return reloc->target_handle < eb->count ?
		       reloc->target_handle : -ENOENT;

	h = bsearch(&reloc->target_handle, eb->handles, eb->count,
		    sizeof(*eb->handles), cmp_handle);
	return h ? h->index : -ENOENT;
}

/* Domains: GPU only, one write domain, write within read. */
static bool reloc_domains_valid(const struct drm_i915_gem_relocation_entry *r)
{
	if ((r->read_domains | r->write_domain) & ~I915_GEM_GPU_DOMAINS)
		return false;
	if (r->write_domain & (r->write_domain - 1))
		return false;
	return (r->write_domain & r->read_domains) == r->write_domain;
}

/* Check one entry of @src's relocations against the list; see the DOC. */
static int reloc_check_one(struct i915_exec *eb, struct i915_exec_object *src,
			   struct drm_i915_gem_relocation_entry *reloc)
{
	struct drm_device *dev = &eb->i915->drm;
	struct i915_exec_object *target;
	int index;

	index = reloc_target(eb, reloc);
	if (index < 0) {
		drm_dbg(dev, "exec: reloc target %u not in the list\n",
			reloc->target_handle);
		return index;
	}
	if (!reloc_domains_valid(reloc)) {
		drm_dbg(dev, "exec: reloc domains 0x%x/0x%x\n",
			reloc->read_domains, reloc->write_domain);
		return -EINVAL;
	}
	if (!IS_ALIGNED(reloc->offset, sizeof(u32)) ||
	    reloc->offset > src->obj->base.size - sizeof(u32)) {
		drm_dbg(dev, "exec: reloc offset 0x%llx in %zu bytes\n",
			reloc->offset, src->obj->base.size);
		return -EINVAL;
	}

	target = &eb->objects[index];
	if (reloc->write_domain && target->write_domain &&
	    reloc->write_domain != target->write_domain) {
		drm_dbg(dev, "exec: write domains 0x%x and 0x%x\n",
			target->write_domain, reloc->write_domain);
		return -EINVAL;
	}
	target->read_domains |= reloc->read_domains;
	target->write_domain |= reloc->write_domain;
	reloc->target_handle = index;
	return 0;
}

/**
 * i915_reloc_check - validate every relocation, union the domains
 * @eb: the execbuffer, its objects looked up, no lock held
 *
 * Works on the kernel copies only.  On success each entry's target_handle
 * is the target's index in @eb->objects and each object's read and write
 * domains hold the union of the entries that target it.
 *
 * Return: 0, -ENOENT for a target outside the list, -EINVAL for a bad
 * offset or domain.
 */
int i915_reloc_check(struct i915_exec *eb)
{
	struct i915_exec_object *src;
	unsigned int i, j;
	int ret;

	for (i = 0; i < eb->count; i++) {
		src = &eb->objects[i];
		for (j = 0; j < src->relocation_count; j++) {
			ret = reloc_check_one(eb, src, &src->relocs[j]);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/*
 * The patcher: write @value at byte @offset of @obj through a kernel
 * mapping of the page.  The object's pages are pinned (it is bound) and
 * memory is what the GPU reads, so the cache line is dropped before the
 * write (it may hold stale data) and written back after it.
 */
static void reloc_patch(struct i915_gem_object *obj, u64 offset, u32 value)
{
	struct page *page = obj->pages[offset >> PAGE_SHIFT];
	u32 *vaddr = kmap_local_page(page);
	u32 *dword = vaddr + offset_in_page(offset) / sizeof(u32);

	drm_clflush_virt_range(dword, sizeof(*dword));
	WRITE_ONCE(*dword, value);
	drm_clflush_virt_range(dword, sizeof(*dword));
	kunmap_local(vaddr);
}

/* Wait until the GPU no longer uses @obj, before its contents change. */
static int reloc_wait_idle(struct i915_gem_object *obj)
{
	long ret;

	dma_resv_assert_held(obj->base.resv);

	ret = dma_resv_wait_timeout(obj->base.resv, DMA_RESV_USAGE_BOOKKEEP,
				    true, MAX_SCHEDULE_TIMEOUT);
	return ret < 0 ? ret : 0;
}

/* Patch the entries of @src whose presumed offset is stale. */
static int reloc_apply_object(struct i915_exec *eb,
			      struct i915_exec_object *src)
{
	struct drm_i915_gem_relocation_entry *reloc;
	u64 target_offset;
	unsigned int j;
	int ret;

	for (j = 0; j < src->relocation_count; j++) {
		reloc = &src->relocs[j];
		target_offset = eb->objects[reloc->target_handle].offset;
		if (reloc->presumed_offset == target_offset)
			continue;

		if (!src->patched) {
			ret = reloc_wait_idle(src->obj);
			if (ret)
				return ret;
			src->patched = true;
		}
		reloc_patch(src->obj, reloc->offset,
			    lower_32_bits(target_offset + reloc->delta));
		reloc->presumed_offset = target_offset;
	}
	return 0;
}

/**
 * i915_reloc_apply - patch the relocations whose presumed offset is stale
 * @eb: the execbuffer, every object locked and bound (each
 *	&i915_exec_object.offset is the object's GTT address)
 *
 * Return: 0, or -ERESTARTSYS if a signal interrupted the wait for a
 * source object to go idle (entries patched so far stay patched and are
 * written back).
 */
int i915_reloc_apply(struct i915_exec *eb)
{
	unsigned int i;
	int ret;

	for (i = 0; i < eb->count; i++) {
		ret = reloc_apply_object(eb, &eb->objects[i]);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * i915_reloc_write_back - tell userspace where the targets are now
 * @eb: the execbuffer, no lock held
 *
 * Writes the presumed_offset of every entry of each object that had an
 * entry patched.  A fault here is ignored, as upstream ignores it: the
 * batch has been queued, and the next execbuffer patches again.
 */
void i915_reloc_write_back(struct i915_exec *eb)
{
	struct i915_exec_object *eo;
	unsigned int i, j;

	for (i = 0; i < eb->count; i++) {
		eo = &eb->objects[i];
		if (!eo->patched)
			continue;
		for (j = 0; j < eo->relocation_count; j++) {
			if (put_user(eo->relocs[j].presumed_offset,
				     &eo->user_relocs[j].presumed_offset))
				return;
		}
	}
}
