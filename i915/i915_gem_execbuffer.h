/* SPDX-License-Identifier: GPL-2.0 */
/**
 * DOC: execbuffer-private types
 *
 * One execbuffer on its way to the ring (&struct i915_exec) and what the
 * three files of the execution path share about it: i915_gem_execbuffer.c
 * (the ioctls and the phases), i915_gem_exec_objects.c (the object list:
 * lookup, checks, locking and binding) and i915_gem_relocate.c (the
 * relocations), plus the tracepoint of a submission.  Nothing else in the
 * driver sees these.
 */
#ifndef _I915_GEM_EXECBUFFER_H_
#define _I915_GEM_EXECBUFFER_H_

#include "i915_drv.h"

struct drm_clip_rect;
struct drm_i915_gem_relocation_entry;
struct drm_syncobj;
struct dma_fence_chain;

/**
 * struct i915_exec_syncobj - one syncobj of I915_EXEC_FENCE_ARRAY or of
 *	the TIMELINE_FENCES extension
 * @syncobj: the syncobj, with a reference from the lookup
 * @fence: what the batch waits for before it is queued (a timeline
 *	point's chain node), with a reference, or NULL
 * @chain: a timeline signal: the chain node for @point, allocated before
 *	the point of no return and handed to the syncobj after it
 * @point: the timeline point (0: the binary fence)
 * @flags: I915_EXEC_FENCE_WAIT, I915_EXEC_FENCE_SIGNAL
 */
struct i915_exec_syncobj {
	struct drm_syncobj *syncobj;
	struct dma_fence *fence;
	struct dma_fence_chain *chain;
	u64 point;
	u32 flags;
};

/**
 * struct i915_exec_object - one entry of an execbuffer's object list
 * @obj: the object, without a reference (see &i915_exec.exec_sem)
 * @user_relocs: its relocation entries in user memory (read in chunks,
 *	never copied whole: see i915_gem_relocate.c)
 * @handle: the user's handle
 * @relocation_count: entries at @user_relocs
 * @relocs_applied: entries the last i915_reloc_apply() pass went through
 *	(set there; meaningful for a @patched entry)
 * @flags: EXEC_OBJECT_* flags (v1 entries have none)
 * @alignment: required GTT alignment, 0 or a power of two
 * @offset: in: softpin address or presumed offset; out: the GTT address
 * @user_offset_in: the offset the user's entry held when copied in (an
 *	unchanged one is not written back)
 * @pad_to_size: GTT space to take at least (EXEC_OBJECT_PAD_TO_SIZE)
 * @read_domains: GPU domains this execbuffer reads the object through
 * @write_domain: the GPU domain it writes the object through, or 0
 * @commit_read: the read domains the object will have once the batch is
 *	queued (i915_exec_object_domains(), which sets it once the object
 *	is placed)
 * @commit_write: the write domain it will have then
 * @patched: a relocation was written into the object (cleared by
 *	i915_reloc_check(); meaningful once &i915_exec.relocs_checked)
 * @relocs_stale: i915_reloc_check() read an entry whose presumed_offset
 *	is not its target's offset in the list: i915_reloc_apply() must
 *	read this object's entries again even if no object moved
 *
 * Written at the copy-in: the user's fields, @obj (NULL) and the domains
 * (0); the rest by the phase that uses it, before it is read.
 */
struct i915_exec_object {
	struct i915_gem_object *obj;
	struct drm_i915_gem_relocation_entry __user *user_relocs;
	u32 handle;
	u32 relocation_count;
	u32 relocs_applied;
	u64 flags;
	u64 alignment;
	u64 offset;
	u64 user_offset_in;
	u64 pad_to_size;
	u32 read_domains;
	u32 write_domain;
	u32 commit_read;
	u32 commit_write;
	bool patched;
	bool relocs_stale;
};

/**
 * struct i915_exec_handle - a handle of the object list and its index
 * @handle: the user's handle (0, which no object has: a free slot)
 * @index: its entry in &i915_exec.objects
 */
struct i915_exec_handle {
	u32 handle;
	u32 index;
};

/* Slots of the handle table kept in &struct i915_exec (a power of two). */
#define EXEC_HANDLES_INLINE	16

/**
 * struct i915_exec - one execbuffer on its way to the ring
 * @i915: the device
 * @file: the submitting client
 * @list: the buffer @objects is in (i915_exec_kept_get())
 * @objects: the object list, copied in
 * @count: entries in @objects
 * @handles: @objects' handles hashed (open addressing, linear probing),
 *	for relocations that name their target by handle (NULL with
 *	I915_EXEC_HANDLE_LUT, or until the relocations are read): see
 *	i915_exec_handle_index(); @handles_inline or an allocation
 * @handles_inline: the table of a list of up to
 *	%EXEC_HANDLES_INLINE / 2 objects
 * @handles_mask: @handles has @handles_mask + 1 slots, a power of two
 * @handles_bits: log2 of that
 * @batch: index of the batch in @objects
 * @flags: I915_EXEC_* flags (v1: I915_EXEC_RENDER)
 * @batch_start: byte offset of the first command in the batch
 * @batch_len: bytes of the batch from @batch_start (validated, unused by
 *	the hardware, which stops at MI_BATCH_BUFFER_END)
 * @cliprects: v1 only: the batch runs once per rectangle
 * @num_cliprects: entries in @cliprects
 * @dr1: 3DSTATE_DRAWING_RECTANGLE dword 1 (Gen3) for each cliprect
 * @dr4: drawing rectangle origin for each cliprect
 * @ww: the acquire context of the objects' dma_resv locks (it holds
 *	those of eviction victims itself)
 * @locked: the first @locked entries of @objects are locked through @ww
 *	(i915_ww_lock_borrowed(): their handles keep them, see @exec_sem)
 * @in_fence: I915_EXEC_FENCE_IN: waited for before the batch is queued
 * @out_fence_fd: I915_EXEC_FENCE_OUT: the reserved fd, else -1
 * @out_fence: I915_EXEC_FENCE_OUT: the sync_file of @rq's fence, made
 *	before emission and installed in @out_fence_fd after it
 * @syncobjs: FENCE_ARRAY and TIMELINE_FENCES entries, in the user's order
 * @num_syncobjs: entries in @syncobjs
 * @rq: the request, from when it is allocated
 * @exec_sem: the file's &i915_file.exec_sem, held for reading from
 *	before the lookup to the end of the ioctl (NULL before): a handle
 *	closed meanwhile waits, so the objects need no reference
 * @invalidate: GPU domains whose caches the MI_FLUSH before the batch
 *	invalidates
 * @flush: domains whose caches it flushes
 * @moved: an object was bound somewhere other than its entry's offset,
 *	so I915_EXEC_NO_RELOC cannot skip the relocations
 * @relocs_checked: i915_reloc_check() passed: the relocations are read
 *	and applied (always without I915_EXEC_NO_RELOC, else once
 *	@moved)
 * @emitted: @rq is in the ring (a fence now, no longer discardable)
 * @reloc_fault: the relocation chunk i915_reloc_apply() could not read
 *	without a page fault (it answered -EAGAIN)
 * @reloc_fault_len: its length in bytes
 * @userptr: the list has userptr objects (i915_gem_userptr.c)
 * @capture: some entry has EXEC_OBJECT_CAPTURE (noted at the copy)
 * @needs_fence: some entry has EXEC_OBJECT_NEEDS_FENCE (noted at the copy)
 * @entries_odd: some entry has softpin, padding, an unknown flag or an
 *	alignment that is no power of two (noted at the copy): only then
 *	does i915_exec_lookup() check the entries one by one
 * @user_list: the user's object list
 * @user_entry_size: bytes of one of its entries (v1 or v2)
 * @num_relocs: relocation entries of all objects (counted at the copy)
 * @num_fixed: entries with EXEC_OBJECT_PINNED (softpinned), counted by
 *	i915_exec_lookup()
 * @exported: an object of the list is exported or imported (noted under
 *	its lock by i915_exec_lock_and_bind()): only then can a dma_resv
 *	hold another timeline's fences, and the request escapes
 * @userptr_held: &i915_device.userptr_sem is held for reading, from the
 *	check of the userptr pages to the publication of the fence
 */
struct i915_exec {
	struct i915_device *i915;
	struct drm_file *file;
	struct i915_exec_kept *list;
	struct i915_exec_object *objects;
	unsigned int count;
	struct i915_exec_handle *handles;
	struct i915_exec_handle handles_inline[EXEC_HANDLES_INLINE];
	unsigned long handles_mask;
	unsigned int handles_bits;
	unsigned int batch;
	u64 flags;
	u32 batch_start;
	u32 batch_len;
	struct drm_clip_rect *cliprects;
	unsigned int num_cliprects;
	u32 dr1;
	u32 dr4;
	struct i915_ww ww;
	unsigned int locked;
	struct dma_fence *in_fence;
	int out_fence_fd;
	struct sync_file *out_fence;
	struct i915_exec_syncobj *syncobjs;
	unsigned int num_syncobjs;
	struct i915_request *rq;
	struct rw_semaphore *exec_sem;
	u32 invalidate;
	u32 flush;
	bool moved;
	bool relocs_checked;
	bool emitted;
	const void __user *reloc_fault;
	size_t reloc_fault_len;
	bool userptr;
	bool capture;
	bool needs_fence;
	bool entries_odd;
	bool userptr_held;
	void __user *user_list;
	size_t user_entry_size;
	u64 num_relocs;
	unsigned int num_fixed;
	bool exported;
};

/* Object flags known upstream; anything else is -EINVAL. */
#define I915_EXEC_OBJECT_FLAGS \
	(EXEC_OBJECT_NEEDS_FENCE | EXEC_OBJECT_NEEDS_GTT | EXEC_OBJECT_WRITE | \
	 EXEC_OBJECT_SUPPORTS_48B_ADDRESS | EXEC_OBJECT_PINNED | \
	 EXEC_OBJECT_PAD_TO_SIZE | EXEC_OBJECT_ASYNC | EXEC_OBJECT_CAPTURE)

/**
 * i915_exec_flags_odd - flags that make entries worth a look of their own
 * @flags: an entry's EXEC_OBJECT_* flags, or those of a list ORed
 *
 * Softpin, padding, or a flag unknown upstream: such an entry is checked
 * by i915_exec_lookup(), as one with an alignment that is no power of two.
 * Inline: the copy-in notes it for the whole list.
 *
 * Return: true if any is set.
 */
static inline bool i915_exec_flags_odd(u64 flags)
{
	return flags & (~(u64)I915_EXEC_OBJECT_FLAGS | EXEC_OBJECT_PAD_TO_SIZE |
			EXEC_OBJECT_PINNED);
}

/* i915_gem_exec_objects.c: the object list of one execbuffer */
int i915_exec_lookup(struct i915_exec *eb);
int i915_exec_build_handles(struct i915_exec *eb);
int i915_exec_check_batch(struct i915_exec *eb);
int i915_exec_lock_and_bind(struct i915_exec *eb);
void i915_exec_unlock(struct i915_exec *eb);
int i915_exec_pin_fences(struct i915_exec *eb);
void i915_exec_object_domains(struct i915_exec *eb,
			      struct i915_exec_object *eo);

/*
 * Flags of &i915_exec_object.flags beyond the user's: a fence is pinned;
 * the object is bound where the entry allows (found so while locking).
 */
#define __EXEC_OBJECT_HAS_FENCE		BIT_ULL(63)
#define __EXEC_OBJECT_PLACED		BIT_ULL(62)

/**
 * i915_exec_unlock_object - unlock one entry's object
 * @eo: the entry, its object locked by i915_exec_lock_and_bind()
 *
 * Its fence register pin goes first (a steal waits for what the request
 * left in its dma_resv).  The caller accounts for it in &i915_exec.locked.
 * Inline: called for each object of the list.
 */
static inline void i915_exec_unlock_object(struct i915_exec_object *eo)
{
	if (eo->flags & __EXEC_OBJECT_HAS_FENCE) {
		i915_gem_object_unpin_fence(eo->obj);
		eo->flags &= ~__EXEC_OBJECT_HAS_FENCE;
	}
	dma_resv_unlock(eo->obj->base.resv);
}

int i915_exec_handle_index(const struct i915_exec *eb, u32 handle);

/* i915_gem_userptr.c: the userptr objects of one execbuffer */
int i915_exec_userptr_prepare(struct i915_exec *eb);
int i915_exec_userptr_begin(struct i915_exec *eb);
void i915_exec_userptr_end(struct i915_exec *eb);
bool i915_exec_userptr_retry(struct i915_exec *eb, int ret,
			     unsigned int tries);

/* i915_gem_relocate.c: the relocations of one execbuffer */
int i915_reloc_check(struct i915_exec *eb);
int i915_reloc_apply(struct i915_exec *eb);
int i915_reloc_fault_in(struct i915_exec *eb);
void i915_reloc_write_back(struct i915_exec *eb);

#endif /* _I915_GEM_EXECBUFFER_H_ */
