// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: relocations
 *
 * Section 7.1 of the design, for one execbuffer, in three steps that the
 * execbuffer path calls at different times:
 *
 * 1. i915_reloc_check(), before any driver lock: each object's array of
 *    &struct drm_i915_gem_relocation_entry is read in chunks of
 *    %RELOC_CHUNK entries and each entry checked: its target must be in
 *    the object list (unlike 2008, where "the kernel doesn't check for
 *    this"); the offset must be 4-byte aligned with the dword inside the
 *    source object; the domains must be GPU domains, with at most one
 *    write domain, contained in the read domains and the same for every
 *    entry that writes the target.  The domains are unioned into the
 *    targets.  A rejected execbuffer has changed nothing.
 *    With I915_EXEC_NO_RELOC the user vouches for every address, and
 *    as upstream not one entry is read (nor its count bounded) unless
 *    phase 4 of the execbuffer moves some object: then this step runs
 *    late, every lock dropped, over every object's relocations (not
 *    only those naming the object that moved), and step 2 follows.
 * 2. i915_reloc_apply(), with every object locked and bound: the arrays
 *    are read again, chunk by chunk, and each entry checked again (the
 *    user may have changed it meanwhile).  An entry whose presumed_offset
 *    is the target's current address is left alone (the design's fast
 *    path, and upstream's), though still checked, offset included, where
 *    upstream skips its offset check; any other gets target address +
 *    delta written at its offset,
 *    after the source object went idle (the GPU may still be reading the
 *    previous contents), through a kernel mapping of the page.
 *    reloc_patch() is the only code that writes.
 * 3. i915_reloc_write_back(), after every lock is dropped: the entries
 *    of each patched object get the target's address as presumed_offset
 *    in user memory, as upstream does, so that the next execbuffer takes
 *    the fast path.  This happens even when the execbuffer fails after
 *    patching: the object then holds the new address, and a stale
 *    presumed_offset could later match by chance.  Entries the last pass
 *    of step 2 did not reach (it failed first) may hold an address of an
 *    earlier pass, or none: they get a presumed_offset no address
 *    matches (~0), so that the next execbuffer patches them again.
 *
 * Memory: no relocation array is copied into the kernel.  One execbuffer
 * may name INT_MAX / 32 relocations (2 GiB); a whole copy was 2 GiB of
 * kernel memory charged to nobody, pinned for the length of the call.
 * Each pass holds one chunk, on the stack (512 bytes), whatever the
 * count; the price is reading the arrays two or three times (the second
 * read, under the locks, is what upstream's fast path does anyway).
 *
 * Reading user memory under the driver's locks: a page fault under a
 * dma_resv lock would take mmap_lock inside it, the lock order the rest
 * of the driver inverts (mmap faults lock objects under mmap_lock).  So
 * step 2 reads with page faults disabled (copy_from_user_nofault()):
 * a chunk that is not resident fails with -EAGAIN, and the execbuffer
 * drops every lock, faults the chunk in (i915_reloc_fault_in()) and
 * starts phase 4 over.  Entries patched before are patched again with
 * the same value or the target's new address: patching is idempotent.
 * Only a chunk that cannot be faulted in at all is -EFAULT.
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
#include "i915_gem_execbuffer.h"

/* Total relocations of one execbuffer, as old kernels bounded them. */
#define I915_RELOC_MAX	(INT_MAX / sizeof(struct drm_i915_gem_relocation_entry))

/* Entries read at a time: 512 bytes of stack, as upstream's fast path. */
#define RELOC_CHUNK	16

/* Chunks faulted in again after a locked read missed them (debugfs). */
static atomic64_t reloc_refaults = ATOMIC64_INIT(0);

/*
 * More relocations than this driver takes.  Upstream reads them in place
 * and so fails on the first one it cannot read: answer -EFAULT too where
 * an array is not all readable, -EINVAL where it is.
 */
static int reloc_too_many(struct i915_exec *eb)
{
	struct i915_exec_object *eo;
	unsigned int i;
	size_t size;

	for (i = 0; i < eb->count; i++) {
		eo = &eb->objects[i];
		size = array_size(eo->relocation_count,
				  sizeof(struct drm_i915_gem_relocation_entry));
		if (size && (!access_ok(eo->user_relocs, size) ||
			     fault_in_readable((const char __user *)
					       eo->user_relocs, size)))
			return -EFAULT;
	}
	return -EINVAL;
}

/* Entries @first.. of @eo's array, at most RELOC_CHUNK: how many. */
static unsigned int reloc_chunk_len(const struct i915_exec_object *eo,
				    unsigned int first)
{
	return min_t(unsigned int, eo->relocation_count - first, RELOC_CHUNK);
}

/* bsearch(): a u32 handle against a &struct i915_exec_handle. */
static int cmp_handle_to_exec_handle(const void *key, const void *elt)
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
		    sizeof(*eb->handles), cmp_handle_to_exec_handle);
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

/*
 * Check one entry of @src's relocations against the list (see the DOC);
 * return its target's index in the list, or -errno.
 */
static int reloc_validate(const struct i915_exec *eb,
			  const struct i915_exec_object *src,
			  const struct drm_i915_gem_relocation_entry *reloc)
{
	struct drm_device *dev = &eb->i915->drm;
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
	return index;
}

/* Validate one entry and union its domains into its target. */
static int reloc_check_one(struct i915_exec *eb, struct i915_exec_object *src,
			   const struct drm_i915_gem_relocation_entry *reloc)
{
	struct i915_exec_object *target;
	int index;

	index = reloc_validate(eb, src, reloc);
	if (index < 0)
		return index;

	target = &eb->objects[index];
	if (reloc->write_domain && target->write_domain &&
	    reloc->write_domain != target->write_domain) {
		drm_dbg(&eb->i915->drm, "exec: write domains 0x%x and 0x%x\n",
			target->write_domain, reloc->write_domain);
		return -EINVAL;
	}
	target->read_domains |= reloc->read_domains;
	target->write_domain |= reloc->write_domain;
	return 0;
}

/**
 * i915_reloc_check - validate every relocation, union the domains
 * @eb: the execbuffer, its objects looked up, no lock held
 *
 * Reads each relocation array in chunks (no copy of it is kept).  On
 * success each object's read and write domains hold the union of the
 * entries that target it.
 *
 * Return: 0; -EFAULT if an array cannot be read; -ENOENT for a target
 * outside the list; -EINVAL for a bad offset or domain, or for more than
 * %I915_RELOC_MAX relocations in all (all readable).
 */
int i915_reloc_check(struct i915_exec *eb)
{
	struct drm_i915_gem_relocation_entry chunk[RELOC_CHUNK];
	struct i915_exec_object *src;
	unsigned int i, j, k, n;
	u64 total = 0;
	int ret;

	for (i = 0; i < eb->count; i++)
		total += eb->objects[i].relocation_count;
	if (total > I915_RELOC_MAX) {
		drm_dbg(&eb->i915->drm, "exec: %llu relocations\n", total);
		return reloc_too_many(eb);
	}

	for (i = 0; i < eb->count; i++) {
		src = &eb->objects[i];
		for (j = 0; j < src->relocation_count; j += n) {
			n = reloc_chunk_len(src, j);
			if (copy_from_user(chunk, &src->user_relocs[j],
					   n * sizeof(*chunk)))
				return -EFAULT;
			for (k = 0; k < n; k++) {
				ret = reloc_check_one(eb, src, &chunk[k]);
				if (ret)
					return ret;
			}
			cond_resched();
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

/* Patch one entry if its presumed offset is stale. */
static int reloc_apply_one(struct i915_exec *eb, struct i915_exec_object *src,
			   const struct drm_i915_gem_relocation_entry *reloc)
{
	u64 target_offset;
	int index, ret;

	index = reloc_validate(eb, src, reloc);
	if (index < 0)
		return index;
	target_offset = eb->objects[index].offset;
	if (reloc->presumed_offset == target_offset)
		return 0;

	/* An imported dma-buf has no pages of ours to patch through. */
	if (!src->obj->pages)
		return -ENODEV;
	if (!src->patched) {
		ret = reloc_wait_idle(src->obj);
		if (ret)
			return ret;
		src->patched = true;
	}
	reloc_patch(src->obj, reloc->offset,
		    lower_32_bits(target_offset + reloc->delta));
	return 0;
}

/*
 * Read entries @first.. of @src's array (at most RELOC_CHUNK) into
 * @chunk without taking a page fault: the caller holds dma_resv locks.
 * Return: how many, or -EAGAIN if they are not resident.
 */
static int reloc_read_locked(struct i915_exec_object *src, unsigned int first,
			     struct drm_i915_gem_relocation_entry *chunk)
{
	unsigned int n = reloc_chunk_len(src, first);

	if (copy_from_user_nofault(chunk, &src->user_relocs[first],
				   n * sizeof(*chunk)))
		return -EAGAIN;
	return n;
}

/**
 * i915_reloc_apply - patch the relocations whose presumed offset is stale
 * @eb: the execbuffer, every object locked and bound (each
 *	&i915_exec_object.offset is the object's GTT address)
 *
 * Reads the arrays again, chunk by chunk, without page faults, and checks
 * each entry again.
 *
 * Return: 0; -EAGAIN if a chunk was not resident (@eb->reloc_fault says
 * where: the caller drops every lock, calls i915_reloc_fault_in() and
 * starts phase 4 over); -ENOENT or -EINVAL for an entry the user changed
 * into a bad one since i915_reloc_check(); -ENODEV for an entry to
 * patch in an imported dma-buf (no pages of ours to write through);
 * -ERESTARTSYS if a signal interrupted the wait for a source object to go
 * idle.  Entries patched so far stay patched and are written back.
 */
int i915_reloc_apply(struct i915_exec *eb)
{
	struct drm_i915_gem_relocation_entry chunk[RELOC_CHUNK];
	struct i915_exec_object *src;
	unsigned int i, j, k;
	int n, ret;

	for (i = 0; i < eb->count; i++)
		eb->objects[i].relocs_applied = 0;

	for (i = 0; i < eb->count; i++) {
		src = &eb->objects[i];
		for (j = 0; j < src->relocation_count; j += n) {
			n = reloc_read_locked(src, j, chunk);
			if (n < 0) {
				eb->reloc_fault = &src->user_relocs[j];
				eb->reloc_fault_len = reloc_chunk_len(src, j) *
						      sizeof(*chunk);
				return n;
			}
			for (k = 0; k < n; k++) {
				ret = reloc_apply_one(eb, src, &chunk[k]);
				if (ret)
					return ret;
				src->relocs_applied++;
			}
		}
	}
	return 0;
}

/**
 * i915_reloc_fault_in - make the chunk i915_reloc_apply() missed resident
 * @eb: the execbuffer, no lock held, after i915_reloc_apply() answered
 *	-EAGAIN
 *
 * Forgets how far the failed pass went: until the next pass completes,
 * every entry of a patched object counts as not reached.
 *
 * Return: 0, -EFAULT if the chunk cannot be read at all, or
 * -ERESTARTSYS if a signal is pending (a user who keeps unmapping the
 * array can still be interrupted).
 */
int i915_reloc_fault_in(struct i915_exec *eb)
{
	const char __user *chunk = eb->reloc_fault;
	unsigned int i;

	eb->reloc_fault = NULL;
	atomic64_inc(&reloc_refaults);
	/* The next pass binds again: what this one patched may move. */
	for (i = 0; i < eb->count; i++)
		eb->objects[i].relocs_applied = 0;
	if (signal_pending(current))
		return -ERESTARTSYS;
	if (fault_in_readable(chunk, eb->reloc_fault_len))
		return -EFAULT;
	return 0;
}

/**
 * i915_reloc_write_back - tell userspace where the targets are now
 * @eb: the execbuffer, no lock held
 *
 * For each object that had an entry patched, every entry the last
 * i915_reloc_apply() pass went through gets its target's address as
 * presumed_offset, where it differs; the entries after (the pass failed
 * first) get ~0, which no address matches.  A fault here is ignored, as
 * upstream ignores it: the next execbuffer patches again.
 */
void i915_reloc_write_back(struct i915_exec *eb)
{
	struct drm_i915_gem_relocation_entry chunk[RELOC_CHUNK];
	struct i915_exec_object *eo;
	unsigned int i, j, k, n;
	u64 presumed;
	int index;

	for (i = 0; i < eb->count; i++) {
		eo = &eb->objects[i];
		if (!eo->patched)
			continue;
		for (j = 0; j < eo->relocation_count; j += n) {
			n = reloc_chunk_len(eo, j);
			if (copy_from_user(chunk, &eo->user_relocs[j],
					   n * sizeof(*chunk)))
				return;
			for (k = 0; k < n; k++) {
				index = reloc_target(eb, &chunk[k]);
				if (j + k >= eo->relocs_applied)
					presumed = ~0ull;
				else if (index >= 0)
					presumed = eb->objects[index].offset;
				else
					continue;
				if (chunk[k].presumed_offset != presumed &&
				    put_user(presumed,
					     &eo->user_relocs[j + k].presumed_offset))
					return;
			}
		}
	}
}

/**
 * i915_reloc_stats - module-wide relocation counters, for debugfs
 *
 * Return: how many relocation chunks i915_reloc_fault_in() faulted in
 * again since the module was loaded.
 */
u64 i915_reloc_stats(void)
{
	return atomic64_read(&reloc_refaults);
}
