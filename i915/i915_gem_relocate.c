// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: relocations
 *
 * Section 7.1 of the design, for one execbuffer, in three steps that the
 * execbuffer path calls at different times:
 *
 * 1. i915_reloc_check(), before any driver lock: each object's array of
 *    &struct drm_i915_gem_relocation_entry is read where it is, in user
 *    memory, in chunks of a page of entries (no copy into a buffer: an
 *    entry that repeats the one before is read and checked in one loop,
 *    see reloc_check_chunk()) and each entry checked:
 *    its target must be in
 *    the object list (unlike 2008, where "the kernel doesn't check for
 *    this"); the offset must be 4-byte aligned with the dword inside the
 *    source object; the domains must be GPU domains, with at most one
 *    write domain, contained in the read domains and the same for every
 *    entry that writes the target.  The domains are unioned into the
 *    targets.  An entry whose presumed_offset is not its target's offset
 *    in the list marks its object's relocations stale.  A rejected
 *    execbuffer has changed nothing.
 *    With I915_EXEC_NO_RELOC the user vouches for every address, and
 *    as upstream not one entry is read (nor its count bounded) unless
 *    phase 4 of the execbuffer moves some object: then this step runs
 *    late, every lock dropped, over every object's relocations (not
 *    only those naming the object that moved), and step 2 follows.
 * 2. i915_reloc_apply(), with every object locked and bound.  If no
 *    object moved (each is bound at its list offset), an object whose
 *    relocations step 1 found all right has nothing to patch and its
 *    array is not read again: valid relocations are read once, as
 *    upstream reads them once.  (A user who rewrites the array meanwhile
 *    only loses patches of their own batch; nothing is written.)  The
 *    other arrays are read again, chunk by chunk, and each entry checked
 *    again (the user may have changed it meanwhile).  An entry whose
 *    presumed_offset is the target's current address is left alone (the
 *    design's fast path, and upstream's), though still checked, offset
 *    included, where upstream skips its offset check; any other gets
 *    target address + delta written at its offset, after the source
 *    object went idle (the GPU may still be reading the previous
 *    contents), through a kernel mapping of the page that consecutive
 *    entries in the same page share (one kmap per page, each cache line
 *    flushed before its first write, the written range once at the end
 *    of the page).  reloc_patch() is the only code that writes.
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
 * Step 1 holds one entry at a time; steps 2 and 3 hold one chunk, a page
 * (128 entries) or, if none can be
 * had, 16 entries on the stack, whatever the count; the price is reading
 * stale arrays two or three times.  Targets named by handle are found
 * in the list's hash of handles (i915_exec_handle_index()), the last one
 * remembered, as consecutive entries mostly name the same target.
 *
 * Reading user memory under the driver's locks: a page fault under a
 * dma_resv lock would take mmap_lock inside it, the lock order the rest
 * of the driver inverts (mmap faults lock objects under mmap_lock).  So
 * step 2 reads with page faults disabled (copy_from_user_nofault()):
 * a chunk that is not resident fails with -EAGAIN, and the execbuffer
 * drops every lock and ends its acquire context (lockdep orders
 * mmap_lock before it too), faults the chunk in (i915_reloc_fault_in())
 * and starts phase 4 over in a new context.  Entries patched before are patched again with
 * the same value or the target's new address: patching is idempotent.
 * Only a chunk that cannot be faulted in at all is -EFAULT.
 */

#include <drm/drm_cache.h>
#include <uapi/drm/i915_drm.h>
#include <linux/dma-resv.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/pagemap.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>

#include "i915_drv.h"
#include "i915_gem_execbuffer.h"

/* Total relocations of one execbuffer, as old kernels bounded them. */
#define I915_RELOC_MAX	(INT_MAX / sizeof(struct drm_i915_gem_relocation_entry))

/* Entries read at a time: 512 bytes of stack, as upstream's fast path. */
#define RELOC_CHUNK	16
/* Entries read at a time into a page, when a pass can have one. */
#define RELOC_PAGE_CHUNK \
	(PAGE_SIZE / sizeof(struct drm_i915_gem_relocation_entry))

/* Chunks faulted in again after a locked read missed them (debugfs). */
static atomic64_t reloc_refaults = ATOMIC64_INIT(0);
/* Entries copied from user memory, by any pass (debugfs). */
static atomic64_t reloc_entries_read = ATOMIC64_INIT(0);
/* Entries patched, and the kernel mappings of pages they needed (debugfs). */
static atomic64_t reloc_patched = ATOMIC64_INIT(0);
static atomic64_t reloc_page_maps = ATOMIC64_INIT(0);

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

/*
 * Where one pass reads the entries: a page (RELOC_PAGE_CHUNK entries a
 * copy) when some array is longer than RELOC_CHUNK and a page can be
 * had, else the RELOC_CHUNK entries on the caller's stack.  Either way
 * the copy is bounded, whatever the count.
 */
struct reloc_buf {
	struct drm_i915_gem_relocation_entry *entries;
	unsigned int len;
	bool allocated;
};

static void reloc_buf_init(struct reloc_buf *buf, const struct i915_exec *eb,
			   struct drm_i915_gem_relocation_entry *stack)
{
	unsigned int i;

	buf->entries = stack;
	buf->len = RELOC_CHUNK;
	buf->allocated = false;
	for (i = 0; i < eb->count; i++)
		if (eb->objects[i].relocation_count > RELOC_CHUNK)
			break;
	if (i == eb->count)
		return;
	/* No new way to fail: without the page, the stack will do. */
	buf->entries = kmalloc(PAGE_SIZE, GFP_KERNEL | __GFP_NORETRY |
					  __GFP_NOWARN);
	if (!buf->entries) {
		buf->entries = stack;
		return;
	}
	buf->len = RELOC_PAGE_CHUNK;
	buf->allocated = true;
}

static void reloc_buf_fini(struct reloc_buf *buf)
{
	if (buf->allocated)
		kfree(buf->entries);
}

/* Copy @n entries from @user into @buf, counted; 0 or -EFAULT. */
static int reloc_buf_read(struct reloc_buf *buf,
			  const struct drm_i915_gem_relocation_entry __user *user,
			  unsigned int n, bool nofault)
{
	size_t len = n * sizeof(*buf->entries);

	if (nofault ? copy_from_user_nofault(buf->entries, user, len) :
		      copy_from_user(buf->entries, user, len))
		return -EFAULT;
	atomic64_add(n, &reloc_entries_read);
	return 0;
}

/* Entries @first.. of @eo's array, at most @buf's length: how many. */
static unsigned int reloc_chunk_len(const struct i915_exec_object *eo,
				    unsigned int first,
				    const struct reloc_buf *buf)
{
	return min(eo->relocation_count - first, buf->len);
}

/*
 * The last target found by handle in one pass: consecutive entries
 * mostly name the same target, which then costs no search.
 */
struct reloc_last {
	u32 handle;
	int index;	/* -1: none yet */
};

#define RELOC_LAST_INIT	{ .index = -1 }

/* The index of the target of @reloc in the object list, or -ENOENT. */
static int reloc_target(const struct i915_exec *eb, struct reloc_last *last,
			const struct drm_i915_gem_relocation_entry *reloc)
{
	int index;

	if (eb->flags & I915_EXEC_HANDLE_LUT)
		return reloc->target_handle < eb->count ?
		       reloc->target_handle : -ENOENT;

	if (last->index >= 0 && last->handle == reloc->target_handle)
		return last->index;
	index = i915_exec_handle_index(eb, reloc->target_handle);
	if (index >= 0) {
		last->handle = reloc->target_handle;
		last->index = index;
	}
	return index;
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
static int reloc_validate(const struct i915_exec *eb, struct reloc_last *last,
			  const struct i915_exec_object *src,
			  const struct drm_i915_gem_relocation_entry *reloc)
{
	struct drm_device *dev = &eb->i915->drm;
	int index;

	index = reloc_target(eb, last, reloc);
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

/*
 * Validate one entry and union its domains into its target; note a
 * presumed offset that is not the target's offset in the list.
 */
static int reloc_check_one(struct i915_exec *eb, struct reloc_last *last,
			   struct i915_exec_object *src,
			   const struct drm_i915_gem_relocation_entry *reloc)
{
	struct i915_exec_object *target;
	int index;

	index = reloc_validate(eb, last, src, reloc);
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
	if (reloc->presumed_offset != target->offset)
		src->relocs_stale = true;
	return 0;
}

/*
 * The last entry of one source that passed reloc_check_one(): its target
 * and domains.  A following entry with the same three has nothing new
 * to check but its offset (the same target, domains already valid and
 * unioned into it, no write-domain conflict), and nothing to union:
 * consecutive entries mostly repeat them (a batch's relocations into
 * one buffer).
 */
struct reloc_repeat {
	u32 handle;
	u32 read_domains;
	u32 write_domain;
	u64 target_offset;	/* U64_MAX: no entry yet */
	u64 last_dword;		/* the source's size - 4 */
};

static void reloc_repeat_init(struct reloc_repeat *r,
			      const struct i915_exec_object *src)
{
	r->target_offset = U64_MAX;
	r->last_dword = src->obj->base.size - sizeof(u32);
}

static void reloc_repeat_set(const struct i915_exec *eb,
			     struct reloc_repeat *r,
			     const struct reloc_last *last,
			     const struct drm_i915_gem_relocation_entry *reloc)
{
	int index = eb->flags & I915_EXEC_HANDLE_LUT ? reloc->target_handle :
						       last->index;

	r->handle = reloc->target_handle;
	r->read_domains = reloc->read_domains;
	r->write_domain = reloc->write_domain;
	r->target_offset = eb->objects[index].offset;
}

/*
 * An entry of a chunk failed its check.  The chunk counts as read before
 * any of its entries was checked, as when a chunk was copied whole:
 * -EFAULT if the rest of it cannot be read, else @err.
 */
static int reloc_rest_readable(const struct drm_i915_gem_relocation_entry __user *user,
			       unsigned int n, int err)
{
	struct drm_i915_gem_relocation_entry stack[RELOC_CHUNK];
	unsigned int len;

	for (; n; n -= len, user += len) {
		len = min_t(unsigned int, n, RELOC_CHUNK);
		if (copy_from_user(stack, user, len * sizeof(*user)))
			return -EFAULT;
	}
	return err;
}

/*
 * Check @n entries of @src's array where they are, in user memory.
 * While an entry repeats the one before (see &struct reloc_repeat) it is
 * checked in the loop that reads it: its fields are loaded one by one
 * and folded into one test of all the differences as they come (one
 * branch, not one per field: under TCG every conditional branch ends a
 * translation block; and few values live at once, so nothing is spilled
 * to the stack), with no copy into memory and no call; the presumed
 * offset is read only then, for a stale one to be noted once per run of
 * entries.  Any other entry leaves the loop and is read again whole for
 * reloc_check_one() (which decides on what it reads).  Return: 0,
 * -EFAULT, or the first entry's error.
 */
static int reloc_check_chunk(struct i915_exec *eb, struct reloc_last *last,
			     struct reloc_repeat *repeat,
			     struct i915_exec_object *src,
			     const struct drm_i915_gem_relocation_entry __user *user,
			     unsigned int n)
{
	const struct drm_i915_gem_relocation_entry __user *u;
	struct drm_i915_gem_relocation_entry entry;
	u32 handle, read, write;
	u64 offset, presumed;
	unsigned long diff;
	unsigned int k = 0;
	bool stale = false;
	int ret;

	while (k < n) {
		const struct reloc_repeat r = *repeat;

		if (!user_access_begin(&user[k], (n - k) * sizeof(*user)))
			return -EFAULT;
		/* No entry to repeat yet: the first one is checked in full. */
		for (; r.target_offset != U64_MAX && k < n; k++) {
			u = &user[k];
			unsafe_get_user(handle, &u->target_handle, efault);
			diff = handle ^ r.handle;
			unsafe_get_user(offset, &u->offset, efault);
			diff |= (lower_32_bits(offset) & (sizeof(u32) - 1)) |
				(offset > r.last_dword);
			unsafe_get_user(read, &u->read_domains, efault);
			unsafe_get_user(write, &u->write_domain, efault);
			diff |= (read ^ r.read_domains) |
				(write ^ r.write_domain);
			if (diff)
				break;
			unsafe_get_user(presumed, &u->presumed_offset, efault);
			stale |= presumed != r.target_offset;
		}
		user_access_end();
		src->relocs_stale |= stale;
		if (k == n)
			break;
		if (__copy_from_user(&entry, &user[k], sizeof(entry)))
			return -EFAULT;
		ret = reloc_check_one(eb, last, src, &entry);
		if (ret)
			return reloc_rest_readable(&user[k + 1], n - k - 1, ret);
		reloc_repeat_set(eb, repeat, last, &entry);
		k++;
	}
	atomic64_add(n, &reloc_entries_read);
	return 0;

efault:
	user_access_end();
	return -EFAULT;
}

/**
 * i915_reloc_check - validate every relocation, union the domains
 * @eb: the execbuffer, its objects looked up, no lock held
 *
 * Reads each relocation array where it is, a chunk (a page of entries) at
 * a time, an entry at a time (no copy of it is kept).  On
 * success each object's read and write domains hold the union of the
 * entries that target it.  Every entry's &i915_exec_object.patched and
 * relocs_stale start clear here.
 *
 * Return: 0; -EFAULT if an array cannot be read; -ENOENT for a target
 * outside the list; -EINVAL for a bad offset or domain, or for more than
 * %I915_RELOC_MAX relocations in all (all readable); -ENOMEM for the
 * table of handles (i915_exec_build_handles()).
 */
int i915_reloc_check(struct i915_exec *eb)
{
	struct reloc_last last = RELOC_LAST_INIT;
	struct reloc_repeat repeat;
	struct i915_exec_object *src;
	unsigned int i, j, n;
	u64 total = 0;
	int ret = 0;

	might_fault();
	if (!eb->num_relocs)
		return 0;	/* and i915_reloc_apply() has nothing to do */
	ret = i915_exec_build_handles(eb);
	if (ret)
		return ret;
	for (i = 0; i < eb->count; i++) {
		total += eb->objects[i].relocation_count;
		eb->objects[i].relocs_stale = false;
		eb->objects[i].patched = false;
	}
	if (total > I915_RELOC_MAX) {
		drm_dbg(&eb->i915->drm, "exec: %llu relocations\n", total);
		return reloc_too_many(eb);
	}

	for (i = 0; i < eb->count && !ret; i++) {
		src = &eb->objects[i];
		if (!src->relocation_count)
			continue;	/* its object is not even touched */
		reloc_repeat_init(&repeat, src);
		for (j = 0; j < src->relocation_count && !ret; j += n) {
			n = min_t(unsigned int, src->relocation_count - j,
				  RELOC_PAGE_CHUNK);
			ret = reloc_check_chunk(eb, &last, &repeat, src,
						&src->user_relocs[j], n);
			cond_resched();
		}
	}
	return ret;
}

/*
 * The page of a source object that entries are being patched in, kept
 * mapped while consecutive entries fall into it: one kmap per page, not
 * per entry.  @lo..@hi are the bytes written, written back from the CPU
 * cache once, when the page is unmapped; @line is the cache line (in
 * %L1_CACHE_BYTES units) flushed last before a write.
 */
struct reloc_map {
	struct page *page;
	void *vaddr;
	unsigned int lo, hi;
	int line;
};

/* Write back what was patched in the mapped page, and unmap it. */
static void reloc_unmap(struct reloc_map *map)
{
	if (!map->vaddr)
		return;
	drm_clflush_virt_range(map->vaddr + map->lo, map->hi - map->lo);
	kunmap_local(map->vaddr);
	map->vaddr = NULL;
	map->page = NULL;
}

/*
 * The patcher: write @value at byte @offset of @obj through a kernel
 * mapping of the page.  The object's pages are pinned (it is bound) and
 * memory is what the GPU reads, so each cache line is dropped before its
 * first write (it may hold stale data) and written back once the page is
 * done with (reloc_unmap()).
 */
static void reloc_patch(struct reloc_map *map, struct i915_gem_object *obj,
			u64 offset, u32 value)
{
	struct page *page = obj->pages[offset >> PAGE_SHIFT];
	unsigned int in_page = offset_in_page(offset);
	int line = in_page / L1_CACHE_BYTES;

	if (page != map->page) {
		reloc_unmap(map);
		atomic64_inc(&reloc_page_maps);
		map->vaddr = kmap_local_page(page);
		map->page = page;
		map->lo = in_page;
		map->hi = in_page;
		map->line = -1;
	}
	if (line != map->line) {
		drm_clflush_virt_range(map->vaddr + line * L1_CACHE_BYTES,
				       L1_CACHE_BYTES);
		map->line = line;
	}
	WRITE_ONCE(*(u32 *)(map->vaddr + in_page), value);
	map->lo = min(map->lo, in_page);
	map->hi = max_t(unsigned int, map->hi, in_page + sizeof(u32));
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
static int reloc_apply_one(struct i915_exec *eb, struct reloc_last *last,
			   struct reloc_map *map, struct i915_exec_object *src,
			   const struct drm_i915_gem_relocation_entry *reloc)
{
	u64 target_offset;
	int index, ret;

	index = reloc_validate(eb, last, src, reloc);
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
	reloc_patch(map, src->obj, reloc->offset,
		    lower_32_bits(target_offset + reloc->delta));
	atomic64_inc(&reloc_patched);
	return 0;
}

/*
 * Read entries @first.. of @src's array (at most @buf's length) into
 * @buf without taking a page fault: the caller holds dma_resv locks.
 * Return: how many, or -EAGAIN if they are not resident.
 */
static int reloc_read_locked(struct i915_exec_object *src, unsigned int first,
			     struct reloc_buf *buf)
{
	unsigned int n = reloc_chunk_len(src, first, buf);

	if (reloc_buf_read(buf, &src->user_relocs[first], n, true))
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
	struct drm_i915_gem_relocation_entry stack[RELOC_CHUNK];
	struct reloc_last last = RELOC_LAST_INIT;
	struct reloc_map map = { };
	struct i915_exec_object *src;
	unsigned int i, j, k;
	struct reloc_buf buf;
	bool stale = false;
	int n, ret = 0;

	if (!eb->num_relocs)
		return 0;
	for (i = 0; i < eb->count; i++) {
		eb->objects[i].relocs_applied = 0;
		stale |= eb->objects[i].relocs_stale;
	}
	/* Every presumed offset right, nothing moved: not even a buffer. */
	if (!eb->moved && !stale)
		return 0;

	reloc_buf_init(&buf, eb, stack);
	for (i = 0; i < eb->count && !ret; i++) {
		src = &eb->objects[i];
		/*
		 * Nothing moved and i915_reloc_check() found every presumed
		 * offset right: nothing to patch, nothing to read again.
		 */
		if (!eb->moved && !src->relocs_stale)
			continue;
		for (j = 0; j < src->relocation_count && !ret; j += n) {
			n = reloc_read_locked(src, j, &buf);
			if (n < 0) {
				eb->reloc_fault = &src->user_relocs[j];
				eb->reloc_fault_len =
					reloc_chunk_len(src, j, &buf) *
					sizeof(*buf.entries);
				ret = n;
				break;
			}
			for (k = 0; k < n && !ret; k++) {
				ret = reloc_apply_one(eb, &last, &map, src,
						      &buf.entries[k]);
				if (!ret)
					src->relocs_applied++;
			}
		}
		reloc_unmap(&map);
	}
	reloc_buf_fini(&buf);
	return ret;
}

/**
 * i915_reloc_fault_in - make the chunk i915_reloc_apply() missed resident
 * @eb: the execbuffer, no lock held and no acquire context, after
 *	i915_reloc_apply() answered -EAGAIN
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

/*
 * Entry @n of @eo's array, read into @reloc: write its presumed_offset
 * back where it changed.  Return: -EFAULT if user memory took no write.
 */
static int reloc_write_back_one(const struct i915_exec *eb,
				struct reloc_last *last,
				struct i915_exec_object *eo, unsigned int n,
				const struct drm_i915_gem_relocation_entry *reloc)
{
	int index = reloc_target(eb, last, reloc);
	u64 presumed;

	if (n >= eo->relocs_applied)
		presumed = ~0ull;
	else if (index >= 0)
		presumed = eb->objects[index].offset;
	else
		return 0;
	if (reloc->presumed_offset == presumed)
		return 0;
	return put_user(presumed, &eo->user_relocs[n].presumed_offset);
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
	struct drm_i915_gem_relocation_entry stack[RELOC_CHUNK];
	struct reloc_last last = RELOC_LAST_INIT;
	struct i915_exec_object *eo;
	unsigned int i, j, k, n;
	struct reloc_buf buf;

	/* Nothing is patched before the check passed (it clears @patched). */
	if (!eb->num_relocs || !eb->relocs_checked)
		return;
	for (i = 0; i < eb->count; i++)
		if (eb->objects[i].patched)
			break;
	if (i == eb->count)
		return;

	reloc_buf_init(&buf, eb, stack);
	for (; i < eb->count; i++) {
		eo = &eb->objects[i];
		if (!eo->patched)
			continue;
		for (j = 0; j < eo->relocation_count; j += n) {
			n = reloc_chunk_len(eo, j, &buf);
			if (reloc_buf_read(&buf, &eo->user_relocs[j], n, false))
				goto out;
			for (k = 0; k < n; k++)
				if (reloc_write_back_one(eb, &last, eo, j + k,
							 &buf.entries[k]))
					goto out;
		}
	}
out:
	reloc_buf_fini(&buf);
}

/**
 * i915_reloc_stats - module-wide relocation counters, for debugfs
 * @m: i915_exec_stats
 *
 * Since the module was loaded: reloc_refaults, the chunks
 * i915_reloc_fault_in() faulted in again; reloc_entries_read, the
 * entries copied from user memory by every pass; reloc_patched, the
 * entries written into objects; reloc_page_maps, the kernel mappings of
 * object pages that writing them took (one per page and pass).
 */
void i915_reloc_stats(struct seq_file *m)
{
	seq_printf(m, "reloc_refaults: %llu\n",
		   (u64)atomic64_read(&reloc_refaults));
	seq_printf(m, "reloc_entries_read: %llu\n",
		   (u64)atomic64_read(&reloc_entries_read));
	seq_printf(m, "reloc_patched: %llu\n",
		   (u64)atomic64_read(&reloc_patched));
	seq_printf(m, "reloc_page_maps: %llu\n",
		   (u64)atomic64_read(&reloc_page_maps));
}
