// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: the object list of an execbuffer
 *
 * Phases 2 and 4 of an execbuffer (see i915_gem_execbuffer.c): looking up
 * and checking the object list before any lock is taken, and then, with
 * the objects locked, giving each of them a GTT address.
 *
 * Binding follows section 7.3.1 A of the design with softpin added:
 * objects with EXEC_OBJECT_PINNED go to their fixed addresses first
 * (anything there that is not pinned is evicted), then the others take
 * what the allocator offers.  When the GTT is full, eviction
 * (i915_gem_evict.c) makes room from objects outside this execbuffer; if
 * this execbuffer's own objects fragment the space, they are unbound and
 * bound again in one go.  A set of objects that cannot fit in the GTT
 * together (an object, padded or aligned, larger than the managed range,
 * or padded sizes whose sum overflows or exceeds the room left by pinned
 * objects) fails with -ENOSPC at once, before anything is evicted or
 * waited for.
 */

#include <uapi/drm/i915_drm.h>
#include <linux/hash.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sort.h>

#include "i915_drv.h"
#include "i915_gem_execbuffer.h"
#include "i915_reg.h"

/*
 * Flags, alignment, softpin address and padding of one entry (its
 * pad_to_size is 0 without EXEC_OBJECT_PAD_TO_SIZE: see the copy-in).
 */
static int exec_check_object(struct i915_exec *eb,
			     struct i915_exec_object *eo)
{
	struct drm_device *dev = &eb->i915->drm;
	struct i915_gtt *gtt = &eb->i915->gtt;
	u64 size;

	if (eo->flags & ~(u64)I915_EXEC_OBJECT_FLAGS ||
	    (eo->alignment & (eo->alignment - 1)))
		goto err;
	if (offset_in_page(eo->pad_to_size))
		goto err;

	if (!(eo->flags & EXEC_OBJECT_PINNED))
		return 0;
	eb->num_fixed++;
	size = max_t(u64, eo->obj->base.size, eo->pad_to_size);
	if (offset_in_page(eo->offset) ||
	    (eo->alignment && !IS_ALIGNED(eo->offset, eo->alignment)) ||
	    eo->offset < READ_ONCE(gtt->start) ||
	    eo->offset > READ_ONCE(gtt->end) ||
	    size > READ_ONCE(gtt->end) - eo->offset)
		goto err;
	return 0;

err:
	drm_dbg(dev, "exec: handle %u flags 0x%llx align 0x%llx offset 0x%llx pad 0x%llx\n",
		eo->handle, eo->flags, eo->alignment, eo->offset,
		eo->pad_to_size);
	return -EINVAL;
}

/*
 * Slots of the handle table of an execbuffer: a power of two, at least
 * twice the list, so that linear probing stays short.  Hashing instead
 * of sorting: no comparison through a function pointer, one pass over
 * the list.
 */
static unsigned int exec_hash_bits(const struct i915_exec *eb)
{
	return ilog2(roundup_pow_of_two(2 * (unsigned long)eb->count));
}

/* Handles looked up under one lock of the file's table. */
#define EXEC_LOOKUP_CHUNK	32

/* Objects locked between two chances to reschedule (a power of two, - 1). */
#define EXEC_RESCHED_MASK	63

/**
 * i915_exec_kept_get - a buffer kept for the device between execbuffers
 * @slot: where the device keeps it (&i915_device.exec_kept)
 * @bytes: bytes needed
 * @keep: the largest buffer the device keeps
 *
 * Takes the kept buffer with xchg() if it is large enough (a concurrent
 * execbuffer finds none and allocates its own), so that a long object
 * list does not allocate, and have zeroed, its arrays every time.  A
 * buffer that is allocated is zeroed; one of more than @keep bytes,
 * sized by the caller's list, is charged to the caller's cgroup and
 * freed again by i915_exec_kept_put().
 *
 * Return: the buffer, with at least @bytes of &i915_exec_kept.data, or
 * NULL.
 */
struct i915_exec_kept *i915_exec_kept_get(struct i915_exec_kept **slot,
					  size_t bytes, size_t keep)
{
	gfp_t gfp = GFP_KERNEL_ACCOUNT;
	struct i915_exec_kept *k;

	if (bytes <= keep) {
		k = xchg(slot, NULL);
		if (k && k->bytes >= bytes)
			return k;
		kvfree(k);
		bytes = max(bytes, min_t(size_t, roundup_pow_of_two(bytes), keep));
		gfp = GFP_KERNEL;
	}
	k = kvzalloc(struct_size(k, data, bytes),
		     gfp | __GFP_NOWARN | __GFP_RETRY_MAYFAIL);
	if (k)
		k->bytes = bytes;
	return k;
}

/**
 * i915_exec_kept_put - give back a buffer of i915_exec_kept_get()
 * @slot: where the device keeps it
 * @k: the buffer, or NULL
 * @keep: the largest buffer the device keeps
 */
void i915_exec_kept_put(struct i915_exec_kept **slot,
			struct i915_exec_kept *k, size_t keep)
{
	if (k && k->bytes <= keep)
		k = xchg(slot, k);
	kvfree(k);
}

static int cmp_fixed(const void *a, const void *b)
{
	u64 x = (*(struct i915_exec_object * const *)a)->offset;
	u64 y = (*(struct i915_exec_object * const *)b)->offset;

	return x < y ? -1 : x > y;
}

static u64 exec_object_size(const struct i915_exec_object *eo)
{
	return max_t(u64, eo->obj->base.size, eo->pad_to_size);
}

/*
 * Softpinned objects of one execbuffer that overlap: -EINVAL, as igt.
 * With @colors (the objects locked, their cache levels settled), also
 * those of different caching with no guard page between them (see
 * gtt_color_adjust() in i915_gtt.c): the binding of one would evict the
 * other.
 */
static int exec_check_fixed_overlap(struct i915_exec *eb, bool colors)
{
	struct i915_exec_object **fixed;
	unsigned int i, n = 0;
	int ret = 0;

	if (eb->num_fixed < 2)
		return 0;	/* nothing to overlap */
	fixed = kvmalloc_array(eb->count, sizeof(*fixed), GFP_KERNEL_ACCOUNT);
	if (!fixed)
		return -ENOMEM;
	for (i = 0; i < eb->count; i++)
		if (eb->objects[i].flags & EXEC_OBJECT_PINNED)
			fixed[n++] = &eb->objects[i];
	sort(fixed, n, sizeof(*fixed), cmp_fixed, NULL);
	for (i = 1; i < n; i++) {
		u64 guard = colors && fixed[i - 1]->obj->cache_level !=
				      fixed[i]->obj->cache_level ?
			    I915_GTT_PAGE_SIZE : 0;

		if (fixed[i - 1]->offset + exec_object_size(fixed[i - 1]) +
		    guard > fixed[i]->offset) {
			drm_dbg(&eb->i915->drm, "exec: softpin overlap%s\n",
				guard ? " or no guard page" : "");
			ret = -EINVAL;
			break;
		}
	}
	kvfree(fixed);
	return ret;
}

/**
 * i915_exec_build_handles - hash the list's handles for relocations
 * @eb: the execbuffer, its objects looked up
 *
 * For relocations that name their target by handle (without
 * I915_EXEC_HANDLE_LUT), built when they are first read (so never with
 * I915_EXEC_NO_RELOC while nothing moves).  A handle listed twice (the
 * execbuffer fails when it locks the list) is found at its first index.
 * The table of a short list is in @eb itself (&i915_exec.handles_inline,
 * zeroed with it): no allocation, and no charge to the caller's memcg,
 * for the common execbuffer of a few objects.  Built once: a second call
 * does nothing.
 *
 * Return: 0 or -ENOMEM.
 */
int i915_exec_build_handles(struct i915_exec *eb)
{
	unsigned int bits = exec_hash_bits(eb);
	unsigned long mask = BIT(bits) - 1, h;
	unsigned int i;
	u32 handle;

	if (eb->handles || (eb->flags & I915_EXEC_HANDLE_LUT))
		return 0;

	if (mask < ARRAY_SIZE(eb->handles_inline))
		eb->handles = eb->handles_inline;
	else
		eb->handles = kvcalloc(mask + 1, sizeof(*eb->handles),
				       GFP_KERNEL_ACCOUNT);
	if (!eb->handles)
		return -ENOMEM;
	eb->handles_mask = mask;
	eb->handles_bits = bits;
	for (i = 0; i < eb->count; i++) {
		handle = eb->objects[i].handle;
		for (h = hash_32(handle, bits); eb->handles[h].handle;
		     h = (h + 1) & mask)
			;
		eb->handles[h].handle = handle;
		eb->handles[h].index = i;
	}
	return 0;
}

/**
 * i915_exec_handle_index - find a handle in the object list
 * @eb: the execbuffer, after i915_exec_build_handles(), without
 *	I915_EXEC_HANDLE_LUT
 * @handle: a relocation's target handle
 *
 * Return: the handle's index in @eb->objects, or -ENOENT.
 */
int i915_exec_handle_index(const struct i915_exec *eb, u32 handle)
{
	unsigned long mask = eb->handles_mask, h;

	if (!handle)
		return -ENOENT;
	for (h = hash_32(handle, eb->handles_bits); eb->handles[h].handle;
	     h = (h + 1) & mask)
		if (eb->handles[h].handle == handle)
			return eb->handles[h].index;
	return -ENOENT;
}

/**
 * i915_exec_lookup - look up and check the object list
 * @eb: the execbuffer, its object list copied in, no lock held
 *
 * Each handle is looked up once, in list order, and its entry checked
 * (one by one only if the copy-in saw an entry with softpin, padding, an
 * unknown flag or an odd alignment, &i915_exec.entries_odd: the others
 * pass as they are); then the list as a whole: no overlapping softpinned
 * objects.  (An object listed twice is found when the list is locked:
 * i915_exec_lock_and_bind().)
 *
 * Return: 0; -ENOENT for a handle that names nothing; -EINVAL for unknown
 * object flags, an alignment that is no power of two, a softpin address
 * that is unaligned, outside the GTT or overlapping another, a bad
 * pad_to_size; -ENOMEM.  Sets @eb->userptr if the list has userptr
 * objects.
 */
int i915_exec_lookup(struct i915_exec *eb)
{
	struct i915_exec_object *eo = eb->objects;
	unsigned int i, k, n, found;
	bool userptr = false;
	int ret = 0;

	eb->num_fixed = 0;
	/* The handle table locked once per chunk, not once per handle. */
	for (i = 0; i < eb->count; i += n) {
		n = min_t(unsigned int, eb->count - i, EXEC_LOOKUP_CHUNK);
		found = i915_gem_object_lookup_many(eb->file, n, &eo[i].handle,
						    &eo[i].obj, sizeof(*eo));
		for (k = i; k < i + found; k++)
			userptr |= i915_gem_object_is_userptr(eo[k].obj);
		/* Each entry in list order: a bad one before a missing one. */
		for (k = i; unlikely(eb->entries_odd) && k < i + found; k++) {
			ret = exec_check_object(eb, &eo[k]);
			if (ret)
				goto out;
		}
		if (found < n) {
			drm_dbg(&eb->i915->drm, "exec: no handle %u\n",
				eo[i + found].handle);
			ret = -ENOENT;
			goto out;
		}
	}

	ret = exec_check_fixed_overlap(eb, false);
out:
	eb->userptr |= userptr;
	return ret;
}

/**
 * i915_exec_check_batch - find and check the batch
 * @eb: the execbuffer, its relocations checked, no lock held
 *
 * The batch is the last object (the first with I915_EXEC_BATCH_FIRST);
 * [batch_start, batch_start + batch_len) must lie inside it (batch_len 0
 * means up to its end) and it must not be written by its own execbuffer.
 * It is read as commands; the other domains are completed as each
 * object is locked (exec_complete_domains()).
 *
 * Return: 0, or -EINVAL for a bad batch.
 */
int i915_exec_check_batch(struct i915_exec *eb)
{
	struct i915_exec_object *eo;
	u64 size;

	eb->batch = eb->flags & I915_EXEC_BATCH_FIRST ? 0 : eb->count - 1;
	eo = &eb->objects[eb->batch];
	size = eo->obj->base.size;
	if (eo->write_domain || (eo->flags & EXEC_OBJECT_WRITE) ||
	    eb->batch_start >= size || eb->batch_len > size - eb->batch_start) {
		drm_dbg(&eb->i915->drm, "exec: batch 0x%x+0x%x of %llu bytes, write 0x%x\n",
			eb->batch_start, eb->batch_len, size, eo->write_domain);
		return -EINVAL;
	}
	if (!eb->batch_len)
		eb->batch_len = size - eb->batch_start;
	eo->read_domains |= I915_GEM_DOMAIN_COMMAND;
	return 0;
}

/*
 * Can @eo fit in [start, end) at all?  Its size, and the first offset
 * its alignment allows, within the range (softpinned objects were
 * checked against it in exec_check_object()).
 */
static bool exec_object_fits(const struct i915_exec_object *eo, u64 start,
			     u64 end)
{
	u64 size = exec_object_size(eo);
	u64 first = start;

	if (eo->alignment > 1 && !IS_ALIGNED(start, eo->alignment))
		first = round_up(start, eo->alignment);
	return first >= start && first <= end && size <= end - first;
}

/*
 * Too big to fit even in an empty GTT: -ENOSPC at once, before anything
 * is evicted or waited for.  The padded sizes are summed with an
 * overflow check (pad_to_size is any page multiple the user chose), in
 * a pass of its own once every object is locked, and only when some
 * object must still be bound: a list whose objects are all bound where
 * they may stay fits already.
 */
struct exec_fit {
	u64 start, end, room, need;
	bool nospc;
};

static void exec_fit_init(struct i915_exec *eb, struct exec_fit *fit)
{
	struct i915_gtt *gtt = &eb->i915->gtt;

	mutex_lock(&gtt->lock);
	fit->start = gtt->start;
	fit->end = gtt->end;
	fit->room = gtt->end - gtt->start - gtt->pinned_bytes;
	mutex_unlock(&gtt->lock);
	fit->need = 0;
	fit->nospc = false;
}

/* One object, locked. */
static void exec_fit_add(struct exec_fit *fit,
			 const struct i915_exec_object *eo)
{
	if (eo->obj->pin_count || fit->nospc)
		return;
	if (!exec_object_fits(eo, fit->start, fit->end) ||
	    check_add_overflow(fit->need, exec_object_size(eo), &fit->need))
		fit->nospc = true;
}

static int exec_check_fit(struct i915_exec *eb)
{
	struct exec_fit fit;
	unsigned int i;

	exec_fit_init(eb, &fit);
	for (i = 0; i < eb->count; i++)
		exec_fit_add(&fit, &eb->objects[i]);
	if (!fit.nospc && fit.need <= fit.room)
		return 0;
	drm_dbg(&eb->i915->drm, "exec: %u objects cannot fit in the GTT (%llu bytes free)\n",
		eb->count, fit.room);
	return -ENOSPC;
}

/*
 * Gen3 only (upstream strips EXEC_OBJECT_NEEDS_FENCE on Gen4): a tiled
 * object the GPU reaches through a fence is bound where one can describe
 * it, in the aperture; so is every tiled object on 915/945, fenced or
 * not.
 */
static bool exec_needs_fence_place(const struct i915_exec *eb,
				   const struct i915_exec_object *eo)
{
	const struct i915_device_info *info = eb->i915->info;

	return eo->obj->tiling != I915_TILING_NONE && info->gen < 4 &&
	       (eo->flags & EXEC_OBJECT_NEEDS_FENCE ||
		info->unfenced_needs_alignment);
}

/* The binding an entry asks for, before a fence's needs. */
static inline struct i915_gtt_place
exec_place_plain(const struct i915_exec_object *eo)
{
	return (struct i915_gtt_place) {
		.size = exec_object_size(eo),
		.alignment = eo->alignment,
		.offset = eo->offset,
		.fixed = eo->flags & EXEC_OBJECT_PINNED,
	};
}

/* i915_exec_object_domains(), inline in the loop that locks the list. */
static __always_inline void exec_object_domains(struct i915_exec *eb,
						struct i915_exec_object *eo)
{
	eo->commit_read = eo->read_domains;
	eo->commit_write = eo->write_domain;
	i915_gem_object_gpu_domains(eo->obj, &eo->commit_read,
				    &eo->commit_write, &eb->invalidate,
				    &eb->flush);
}

/*
 * The entry takes its object's GTT address (bound, locked), and its
 * domains are worked out now that its pages are there (a CPU write
 * domain is flushed from the pages the GPU will read), unless userptr
 * pages must be found current first (exec_domains()).  Only the
 * execbuffer itself may unbind the object again (exec_unbind_movable()),
 * and then places it anew.
 */
static __always_inline void exec_placed(struct i915_exec *eb,
					struct i915_exec_object *eo)
{
	eb->moved |= eo->obj->gtt_node.start != eo->offset;
	eo->offset = eo->obj->gtt_node.start;
	eo->flags |= __EXEC_OBJECT_PLACED;
	if (!eb->userptr)
		exec_object_domains(eb, eo);
}

/*
 * While locking a list without softpinned objects: an object already
 * bound where its entry allows stays there, noted now, so that the bind
 * pass does not touch it again (nothing can unbind an object we hold
 * locked; an eviction passes over it).
 */
static __always_inline bool exec_place_early(struct i915_exec *eb,
					     struct i915_exec_object *eo)
{
	/*
	 * Not zeroed first (Debian builds with INIT_STACK_ALL_ZERO): it is
	 * assigned whole, and the zeroing is a rep stos, which under TCG
	 * costs a pass through a translation block per iteration, for
	 * every object of every execbuffer.
	 */
	struct i915_gtt_place place __uninitialized;

	eo->flags &= ~__EXEC_OBJECT_PLACED;
	/*
	 * The bind pass places these (and keeps one bound right); one that
	 * is not bound fails i915_gtt_placed_locked().
	 */
	if (eb->num_fixed || exec_needs_fence_place(eb, eo))
		return false;
	place = exec_place_plain(eo);
	if (!i915_gtt_placed_locked(&eb->i915->gtt, eo->obj, &place))
		return false;
	exec_placed(eb, eo);
	return true;
}

static int exec_bind_one(struct i915_exec *eb, struct i915_exec_object *eo)
{
	struct i915_gtt_place place = exec_place_plain(eo);
	int ret;

	if (exec_needs_fence_place(eb, eo))
		i915_gem_object_fence_place(eo->obj, &place);
	ret = i915_gtt_bind_locked(eo->obj, &place, &eb->ww);
	if (ret)
		return ret;
	exec_placed(eb, eo);
	return 0;
}

static int exec_bind_some(struct i915_exec *eb, bool fixed)
{
	struct i915_exec_object *eo;
	unsigned int i;
	int ret;

	for (i = 0; i < eb->count; i++) {
		eo = &eb->objects[i];
		if (!(eo->flags & EXEC_OBJECT_PINNED) != !fixed ||
		    (eo->flags & __EXEC_OBJECT_PLACED))
			continue;
		ret = exec_bind_one(eb, eo);
		if (ret)
			return ret;
	}
	return 0;
}

/* Softpinned objects first: the others may move out of their way. */
static int exec_bind_pass(struct i915_exec *eb)
{
	int ret = 0;

	if (eb->num_fixed)
		ret = exec_bind_some(eb, true);
	if (!ret && eb->num_fixed < eb->count)
		ret = exec_bind_some(eb, false);
	return ret;
}

/* Unbind this execbuffer's own movable objects, to defragment. */
static int exec_unbind_movable(struct i915_exec *eb)
{
	struct i915_exec_object *eo;
	unsigned int i;
	int ret;

	for (i = 0; i < eb->count; i++) {
		eo = &eb->objects[i];
		if ((eo->flags & EXEC_OBJECT_PINNED) || eo->obj->pin_count)
			continue;
		eo->flags &= ~__EXEC_OBJECT_PLACED;
		ret = i915_gtt_unbind_idle_locked(eo->obj);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The domains the entry left open, filled in (in the lock loop, which
 * touches every entry anyway; the same result when done again after a
 * restart): an EXEC_OBJECT_WRITE object is written through the render
 * cache, an object that no relocation names is read through it, and an
 * object with a write domain is marked EXEC_OBJECT_WRITE, which the
 * fences and dependencies of the request follow.
 */
static __always_inline void exec_complete_domains(struct i915_exec_object *eo)
{
	/* Masks rather than branches (a loop over the list). */
	u32 render = eo->flags & EXEC_OBJECT_WRITE ? I915_GEM_DOMAIN_RENDER : 0;
	u32 write = eo->write_domain | (render & -(u32)!eo->write_domain);
	u32 read = eo->read_domains | write;

	eo->write_domain = write;
	eo->flags |= write ? EXEC_OBJECT_WRITE : 0;
	eo->read_domains = read ?: I915_GEM_DOMAIN_RENDER;
}

/**
 * i915_exec_object_domains - section 7.3.1 B for one entry
 * @eb: the execbuffer, gathering the GPU caches to flush and invalidate
 * @eo: the entry, its object locked
 *
 * Computes the domains to commit (&i915_exec_object.commit_read and
 * commit_write) from the entry's, flushing a CPU write domain now (see
 * i915_gem_object_gpu_domains()).  Done again after a restart, it gives
 * the same result: the entry's own domains are left as they are.
 */
void i915_exec_object_domains(struct i915_exec *eb,
			      struct i915_exec_object *eo)
{
	exec_object_domains(eb, eo);
}

/*
 * An object listed twice, under one handle or two, is -EINVAL: its second
 * lock in the same acquire context answers -EALREADY (so no pass of its
 * own looks for duplicates).
 */
static int exec_lock_failed(struct i915_exec *eb, int ret)
{
	if (ret != -EALREADY)
		return ret;
	drm_dbg(&eb->i915->drm, "exec: object listed twice\n");
	return -EINVAL;
}

/**
 * i915_exec_lock_and_bind - lock every object and give each a GTT address
 * @eb: the execbuffer, its acquire context initialised
 *
 * Locks each object through @eb->ww and reserves a fence slot in it
 * (completing its entry's domains, noting whether any object is
 * exported, and, in a list without softpinned objects, which are bound
 * where they may stay), then binds the rest (if any):
 * softpinned objects at their addresses, then the others, evicting
 * other objects when the GTT is full; if that fails for lack of room, the
 * execbuffer's own movable objects are unbound (once idle) and everything
 * is bound again, now with the whole GTT to choose from.  Each entry's
 * offset becomes its object's GTT address, and, unless the list has
 * userptr objects, its domains are worked out as it gets it
 * (i915_exec_object_domains()).
 *
 * Return: 0 with every object locked and bound; -EDEADLK when @eb->ww
 * must back off (the caller calls i915_ww_backoff() and this again);
 * -ENOSPC if the objects cannot fit together; -EINVAL for an object
 * listed twice, a pinned object bound elsewhere than asked or softpinned
 * objects of different caching with no guard page between them; -ENOMEM;
 * -EINTR or -ERESTARTSYS on a signal.
 */
int i915_exec_lock_and_bind(struct i915_exec *eb)
{
	struct i915_exec_object *eo = eb->objects;
	const unsigned int count = eb->count;
	unsigned int i, placed = 0;
	struct i915_gem_object *obj;
	bool exported = false;
	int ret;

	eb->exported = false;
	eb->invalidate = 0;
	eb->flush = 0;
	/*
	 * Each object touched once here, for what the later passes need;
	 * locals rather than loads through @eb again after each call.
	 */
	for (i = 0; i < count; i++) {
		obj = eo[i].obj;
		/* A free lock is tried, which never yields: now and then. */
		if ((i & EXEC_RESCHED_MASK) == EXEC_RESCHED_MASK)
			cond_resched();
		ret = i915_ww_lock_borrowed(&eb->ww, obj);
		if (unlikely(ret))
			return exec_lock_failed(eb, ret);
		eb->locked = i + 1;
		ret = dma_resv_reserve_fences(obj->base.resv, 1);
		if (ret)
			return ret;
		exec_complete_domains(&eo[i]);
		exported |= obj->exported;
		placed += exec_place_early(eb, &eo[i]);
	}
	eb->exported = exported;

	ret = exec_check_fixed_overlap(eb, true);
	if (ret || placed == count)
		return ret;
	ret = exec_check_fit(eb);
	if (ret)
		return ret;	/* -ENOSPC at once, nothing evicted or waited for */
	ret = exec_bind_pass(eb);
	if (ret != -ENOSPC)
		return ret;

	ret = exec_unbind_movable(eb);
	if (!ret)
		ret = exec_bind_pass(eb);
	return ret;
}

/**
 * i915_exec_unlock - unlock the objects i915_exec_lock_and_bind() locked
 * @eb: the execbuffer; before any i915_ww_backoff() or i915_ww_fini() of
 *	@eb->ww
 *
 * In the reverse order of locking.  A no-op once all are unlocked.
 */
void i915_exec_unlock(struct i915_exec *eb)
{
	while (eb->locked)
		i915_exec_unlock_object(&eb->objects[--eb->locked]);
}

/**
 * i915_exec_pin_fences - fences for the objects flagged NEEDS_FENCE
 * @eb: the execbuffer, its objects locked and bound
 *
 * On Gen3 each tiled object flagged EXEC_OBJECT_NEEDS_FENCE gets a fence
 * register, pinned until its object is unlocked (i915_exec_unlock_object(),
 * which also drops the pins taken before a failure; i915_gem_fence.c);
 * on Gen4 the GPU does not use fences and the flag is ignored, as
 * upstream.
 *
 * Return: 0, -ENOBUFS when more objects need a fence than there are
 * registers, -EINTR or -ERESTARTSYS on a signal.
 */
int i915_exec_pin_fences(struct i915_exec *eb)
{
	struct i915_exec_object *eo;
	unsigned int i;
	int ret;

	/* No pass over a list in which no entry asks for one. */
	if (eb->i915->info->gen >= 4 || !eb->needs_fence)
		return 0;
	for (i = 0; i < eb->count; i++) {
		eo = &eb->objects[i];
		if (!(eo->flags & EXEC_OBJECT_NEEDS_FENCE) ||
		    eo->obj->tiling == I915_TILING_NONE)
			continue;
		ret = i915_gem_object_pin_fence(eo->obj);
		if (ret) {
			drm_dbg(&eb->i915->drm, "exec: no fence for handle %u: %d\n",
				eo->handle, ret);
			return ret;
		}
		eo->flags |= __EXEC_OBJECT_HAS_FENCE;
	}
	return 0;
}
