// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: execbuffer
 *
 * EXECBUFFER (the design's v1, with cliprects) and EXECBUFFER2 (and its
 * _WR form): section 7 of the design.  One execbuffer goes through these
 * phases, each a function of this file or of the file named:
 *
 * 1. Copy-in, no lock held.  The ioctl checks every argument field
 *    (exec2_check_args(), exec_check_submit()) and copies the object list
 *    (exec_copy_objects()) and the cliprects (exec1_copy_cliprects())
 *    into kernel memory, and looks up the syncobjs of FENCE_ARRAY and
 *    of the TIMELINE_FENCES extension, taking the fences to wait for and
 *    allocating the chain nodes of timeline points to signal
 *    (exec2_get_syncobjs()), charged to the caller's memory cgroup
 *    (GFP_KERNEL_ACCOUNT, as every allocation sized by the caller here).
 *    The relocation arrays are not copied: i915_gem_relocate.c reads
 *    them in small chunks, in phase 2 and again in phase 5, where no
 *    page fault is taken under a driver lock (a chunk that is not
 *    resident drops the locks, is faulted in and phase 4 starts over).
 * 2. Lookup and validation, no object's lock held
 *    (i915_gem_exec_objects.c): each handle is looked up once
 *    (i915_exec_lookup(): a missing one is -ENOENT), without taking a
 *    reference: from the lookup to its end the execbuffer holds its
 *    file's &i915_file.exec_sem for reading, which a GEM_CLOSE of the
 *    same file waits for, so the handles keep the objects.  The object
 *    flags,
 *    alignments and softpin addresses are checked, every relocation is
 *    checked against the list and its domains are unioned into its target
 *    (i915_reloc_check(); with I915_EXEC_NO_RELOC not here but only if
 *    phase 4 moves an object: exec_check_relocs_late() drops the locks,
 *    does it and phase 4 starts over), and the batch range is checked
 *    (i915_exec_check_batch()), and userptr objects get their user pages
 *    pinned (i915_exec_userptr_prepare()).  An execbuffer rejected so far
 *    has had no effect at all.  While requests queued behind
 *    dependencies hold a ring's worth, the caller waits here, or gets
 *    -EWOULDBLOCK if its file is O_NONBLOCK (i915_request_throttle()).
 * 3. The request is allocated (exec_create_request()); it remembers the
 *    batch and the EXEC_OBJECT_CAPTURE objects for the error state
 *    (i915_gpu_error.c), without a reference: from phase 8 on, its
 *    fence in their dma_resv keeps the objects alive and bound until the
 *    GPU is done with them, even if their handles are closed (drm_gem.c:
 *    deferred frees); for I915_EXEC_FENCE_OUT the
 *    sync_file of its fence is made.  Nothing is waited for on the CPU:
 *    the FENCE_IN (or FENCE_SUBMIT) sync_file's fences and the syncobjs'
 *    become dependencies of the request (exec_await_fences(),
 *    i915_request_await()), and so do, under the locks of phase 4, the
 *    fences of other timelines in the objects' dma_resv
 *    (exec_await_objects()); the ring's own fences need none, its
 *    batches run in order.
 * 4. Locking and binding (i915_exec_lock_and_bind()): every object's
 *    dma_resv is locked through one ww acquire context (an object listed
 *    twice is -EINVAL: its second lock answers -EALREADY), a fence slot is
 *    reserved in each, and each object gets a GTT address: softpinned
 *    objects at theirs first, the others wherever they fit, evicting other
 *    objects when the GTT is full (i915_gem_evict.c), and once more after
 *    unbinding this execbuffer's own movable objects if it is too
 *    fragmented.  -EDEADLK from any lock drops everything and starts this
 *    phase over.
 * 5. Relocation (i915_reloc_apply(), skipped for NO_RELOC while nothing
 *    moved): stale presumed offsets are patched into the source objects,
 *    after each source went idle.  A relocation
 *    chunk not resident in memory: every lock dropped and the acquire
 *    context ended, the chunk faulted in (i915_reloc_fault_in()), phase 4
 *    again in a new context.
 * 6. Userptr pages still current (i915_exec_userptr_begin(), which holds
 *    &i915_device.userptr_sem until phase 8 is done; stale ones: phases
 *    4 to 8 again after pinning them anew).  Domains: section 7.3.1 B
 *    (exec_domains()): CPU-written objects are
 *    clflushed, and the GPU caches to flush and invalidate are gathered.
 * 7. Emission (exec_emit()): one MI_FLUSH with the
 *    gathered bits, the batch (MI_BATCH_BUFFER_START, non-secure unless a
 *    privileged client asked for I915_EXEC_SECURE), once per cliprect
 *    behind a 3DSTATE_DRAWING_RECTANGLE for v1, and the request's
 *    breadcrumb (the design's IRQ cookie, i915_request.c), written into
 *    the ring under its lock now, or, while a dependency is pending or
 *    an earlier request is queued, queued and written by a worker once
 *    the last one signals (i915_request_submit()).  The request is
 *    published either way; its objects stay bound and their relocations
 *    valid until it is retired, since an unbind waits for its fence.  A
 *    failure half-way rewinds the ring's tail: nothing of it reaches the
 *    GPU.
 * 8. Publication (exec_publish()): the request's fence goes into every
 *    object's dma_resv (as a write where the batch writes the object),
 *    the objects' domains are updated, and the locks are dropped.
 * 9. Write-back, no lock held: the patched presumed offsets
 *    (i915_reloc_write_back()) and the objects' GTT addresses (where an
 *    entry did not hold its object's already) go back to the user's
 *    arrays, the FENCE_SIGNAL syncobjs get the request's
 *    fence (as a new timeline point where one was asked for), and for
 *    I915_EXEC_FENCE_OUT the sync_file is installed.
 *
 * Emission is the point of no return: an execbuffer that fails has had
 * no effect (no batch ran, no GTT address or fd reached the caller), and
 * one that emitted its batch returns 0.  So everything that can fail
 * happens before it: the FENCE_OUT fd is reserved in phase 1 and its
 * sync_file made in phase 3 (of the request's fence, which exists from
 * then on), and phases 8 and 9 cannot fail (a fault writing the arrays
 * back is ignored, as upstream ignores it).  The one trace a failed
 * execbuffer can leave is the relocation write-back: entries patched
 * before the failure keep their new presumed_offset (see
 * i915_gem_relocate.c).
 *
 * exec_fini() unwinds whatever of this was done.
 */

#include <drm/drm_auth.h>
#include <drm/drm_file.h>
#include <drm/drm_syncobj.h>
#include <uapi/drm/i915_drm.h>
#include <linux/dma-fence-chain.h>
#include <linux/dma-fence-unwrap.h>
#include <linux/dma-resv.h>
#include <linux/file.h>
#include <linux/mm.h>
#include <linux/sync_file.h>
#include <linux/uaccess.h>

#include "i915_cmd.h"
#include "i915_drv.h"
#include "i915_gem_execbuffer.h"
#include "i915_trace.h"

/* EXECBUFFER2 flags this driver implements; anything else is -EINVAL. */
#define I915_EXEC_FLAGS \
	(I915_EXEC_RING_MASK | I915_EXEC_SECURE | I915_EXEC_IS_PINNED | \
	 I915_EXEC_NO_RELOC | I915_EXEC_HANDLE_LUT | I915_EXEC_FENCE_IN | \
	 I915_EXEC_FENCE_OUT | I915_EXEC_BATCH_FIRST | \
	 I915_EXEC_FENCE_ARRAY | I915_EXEC_USE_EXTENSIONS | \
	 I915_EXEC_FENCE_SUBMIT)

/* Flags of one &struct drm_i915_gem_exec_fence; anything else is -EINVAL. */
#define I915_EXEC_FENCE_FLAGS	(I915_EXEC_FENCE_WAIT | I915_EXEC_FENCE_SIGNAL)

/* Extensions of one EXECBUFFER2 at most, as upstream: then -E2BIG. */
#define I915_EXEC_MAX_EXTENSIONS	512

/* Batch offsets and lengths are in QWORDs, as upstream checks them. */
#define I915_EXEC_BATCH_ALIGN	8

/* v1 cliprects per execbuffer: every one must fit in the ring at once. */
#define I915_EXEC_MAX_CLIPRECTS	1024
/*
 * The largest emission (see exec_max_dwords()): a flush, a drawing rectangle
 * and a batch start per cliprect, the breadcrumb.  It must fit in the
 * ring, or the wait for space could never end.
 */
static_assert(1 + I915_EXEC_MAX_CLIPRECTS *
	      (MAX(I915_GEN3_DRAWRECT_LEN, I965_DRAWRECT_LEN) + 2) +
	      I915_REQUEST_DWORDS <= I915_RING_MAX_EMIT);

/* exec_copy_objects() reads a v1 entry as the head of a v2 one. */
static_assert(offsetof(struct drm_i915_gem_exec_object, offset) ==
	      offsetof(struct drm_i915_gem_exec_object2, offset));
static_assert(sizeof(struct drm_i915_gem_exec_object) ==
	      offsetof(struct drm_i915_gem_exec_object2, flags));

/* -------------------------------------------------------------------- */
/* Phase 1: arguments and copy-in                                        */

/*
 * EXECBUFFER2's own fields, in upstream's order: the count, unknown
 * flags, cliprects (a DRI1 misfeature: v1 only; FENCE_ARRAY and
 * USE_EXTENSIONS reuse the two fields), DR1/DR4, offsets.
 */
static int exec2_check_args(struct drm_device *dev,
			    struct drm_i915_gem_execbuffer2 *args)
{
	if (args->buffer_count < 1 || args->buffer_count > INT_MAX) {
		drm_dbg(dev, "exec2: %u buffers\n", args->buffer_count);
		return -EINVAL;
	}
	if (args->flags & ~(u64)I915_EXEC_FLAGS) {
		drm_dbg(dev, "exec2: flags 0x%llx\n", args->flags);
		return -EINVAL;
	}
	if (!(args->flags & (I915_EXEC_FENCE_ARRAY | I915_EXEC_USE_EXTENSIONS)) &&
	    (args->num_cliprects || args->cliprects_ptr)) {
		drm_dbg(dev, "exec2: cliprects\n");
		return -EINVAL;
	}
	if (args->DR4 == 0xffffffff) /* UXA's garbage, as upstream */
		args->DR4 = 0;
	if (args->DR1 || args->DR4) {
		drm_dbg(dev, "exec2: DR1/DR4 0x%x/0x%x\n", args->DR1, args->DR4);
		return -EINVAL;
	}
	if ((args->batch_start_offset | args->batch_len) &
	    (I915_EXEC_BATCH_ALIGN - 1)) {
		drm_dbg(dev, "exec2: batch at 0x%x+0x%x\n",
			args->batch_start_offset, args->batch_len);
		return -EINVAL;
	}
	return 0;
}

/* Privilege, ring, context and device state, for both versions. */
static int exec_check_submit(struct i915_exec *eb, u64 context)
{
	struct drm_device *dev = &eb->i915->drm;
	u64 ring = eb->flags & I915_EXEC_RING_MASK;

	if ((eb->flags & I915_EXEC_SECURE) &&
	    (!drm_is_current_master(eb->file) || !capable(CAP_SYS_ADMIN)))
		return -EPERM;
	if (ring != I915_EXEC_DEFAULT && ring != I915_EXEC_RENDER) {
		drm_dbg(dev, "exec: ring %llu\n", ring);
		return -EINVAL;
	}
	if (lower_32_bits(context)) {
		drm_dbg(dev, "exec: context %u\n", lower_32_bits(context));
		return -ENOENT;
	}
	if (READ_ONCE(eb->i915->ring.wedged))
		return -EIO;
	/* A client whose batches hung too often (i915_reset.c). */
	if (READ_ONCE(((struct i915_file *)eb->file->driver_priv)->banned))
		return -EIO;
	return 0;
}

/*
 * The object list's array, a buffer of i915_exec_kept_get(): lists of up
 * to EXEC_LIST_KEEP entries use the device's, longer ones get their own.
 * exec_copy_objects() writes every entry it keeps.
 */
#define EXEC_LIST_KEEP	(1024 * sizeof(struct i915_exec_object))

/**
 * i915_exec_fini - free what execbuffers keep between them
 * @i915: the device, no execbuffer running any more
 */
void i915_exec_fini(struct i915_device *i915)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(i915->exec_kept); i++)
		kvfree(xchg(&i915->exec_kept[i], NULL));
}

static int exec_init(struct i915_exec *eb, struct drm_device *dev,
		     struct drm_file *file, u32 count)
{
	memset(eb, 0, sizeof(*eb));
	eb->i915 = to_i915(dev);
	eb->file = file;
	eb->out_fence_fd = -1;
	eb->list = i915_exec_kept_get(&eb->i915->exec_kept[I915_EXEC_KEPT_LIST],
				      array_size(count, sizeof(*eb->objects)),
				      EXEC_LIST_KEEP);
	if (!eb->list)
		return -ENOMEM;
	eb->objects = (struct i915_exec_object *)eb->list->data;
	eb->count = count;
	return 0;
}

/*
 * One entry of the object list, read from user memory field by field
 * (inside exec_copy_objects()'s user access); of the rest of @eo, what a
 * later phase reads before it writes is written too (see &struct
 * i915_exec_object): the array is not zeroed.  No compound literal:
 * assigning one zeroes the entry first with a rep stos, and a copy into a
 * buffer on the stack is a rep movs, each of whose iterations costs a
 * pass through a translation block under TCG, for every object of every
 * execbuffer.  The assertion (of the 64-bit layout, which the CI builds)
 * catches a field added to the entry and not considered here.  A v1
 * entry (&struct drm_i915_gem_exec_object) is the head of a v2 one: the
 * same fields at the same offsets, without @flags and @pad_to_size,
 * which are 0 for v1.
 */
static_assert(!IS_ENABLED(CONFIG_64BIT) ||
	      sizeof(struct i915_exec_object) == 96);

static __always_inline int
exec_read_entry(struct i915_exec_object *eo,
		const struct drm_i915_gem_exec_object2 __user *u, bool v2)
{
	u64 relocs_ptr, flags = 0, pad = 0;

	unsafe_get_user(eo->handle, &u->handle, efault);
	unsafe_get_user(eo->relocation_count, &u->relocation_count, efault);
	unsafe_get_user(relocs_ptr, &u->relocs_ptr, efault);
	unsafe_get_user(eo->alignment, &u->alignment, efault);
	unsafe_get_user(eo->offset, &u->offset, efault);
	if (v2) {
		unsafe_get_user(flags, &u->flags, efault);
		unsafe_get_user(pad, &u->pad_to_size, efault);
	}
	eo->flags = flags;
	/* Ignored without its flag, as upstream. */
	eo->pad_to_size = flags & EXEC_OBJECT_PAD_TO_SIZE ? pad : 0;
	eo->obj = NULL;
	eo->user_relocs = u64_to_user_ptr(relocs_ptr);
	eo->user_offset_in = eo->offset;
	eo->read_domains = 0;
	eo->write_domain = 0;
	return 0;

efault:
	return -EFAULT;
}

/*
 * The object list of either version, @size bytes an entry, in one user
 * access (one access_ok() and one STAC for the whole array, no copy
 * through a bounce buffer).  What the whole list has is noted on the
 * way: relocations, flags, alignments that are no power of two.
 */
static int exec_copy_objects(struct i915_exec *eb, u64 buffers_ptr,
			     size_t size)
{
	const bool v2 = size == sizeof(struct drm_i915_gem_exec_object2);
	void __user *base = u64_to_user_ptr(buffers_ptr);
	struct i915_exec_object *eo = eb->objects;
	const unsigned int count = eb->count;
	u64 flags = 0, relocs = 0, odd_align = 0;
	unsigned int i;

	eb->user_list = base;
	eb->user_entry_size = size;
	if (!user_access_begin(base, array_size(count, size))) {
		eb->count = 0;	/* exec_fini() looks at written entries only */
		return -EFAULT;
	}
	for (i = 0; i < count; i++) {
		if (exec_read_entry(&eo[i], base + i * size, v2))
			goto efault;
		relocs += eo[i].relocation_count;
		flags |= eo[i].flags;
		odd_align |= eo[i].alignment & (eo[i].alignment - 1);
	}
	user_access_end();
	eb->num_relocs = relocs;
	eb->capture = flags & EXEC_OBJECT_CAPTURE;
	eb->needs_fence = flags & EXEC_OBJECT_NEEDS_FENCE;
	eb->entries_odd = i915_exec_flags_odd(flags) || odd_align;
	return 0;

efault:
	user_access_end();
	eb->count = i;
	return -EFAULT;
}

/* v1 cliprects: copied in, each a non-empty rectangle as old kernels had. */
static int exec1_copy_cliprects(struct i915_exec *eb,
				const struct drm_i915_gem_execbuffer *args)
{
	struct drm_clip_rect *rect;
	unsigned int i;

	if (!args->num_cliprects)
		return 0;
	if (args->num_cliprects > I915_EXEC_MAX_CLIPRECTS) {
		drm_dbg(&eb->i915->drm, "exec: %u cliprects\n",
			args->num_cliprects);
		return -EINVAL;
	}

	eb->cliprects = kvmalloc_array(args->num_cliprects, sizeof(*rect),
				       GFP_KERNEL_ACCOUNT);
	if (!eb->cliprects)
		return -ENOMEM;
	eb->num_cliprects = args->num_cliprects;
	if (copy_from_user(eb->cliprects, u64_to_user_ptr(args->cliprects_ptr),
			   array_size(eb->num_cliprects, sizeof(*rect))))
		return -EFAULT;

	for (i = 0; i < eb->num_cliprects; i++) {
		rect = &eb->cliprects[i];
		if (rect->x2 <= rect->x1 || rect->y2 <= rect->y1) {
			drm_dbg(&eb->i915->drm, "exec: cliprect %u empty\n", i);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * FENCE_ARRAY and TIMELINE_FENCES: room for @count more entries at the
 * end of eb->syncobjs.  As upstream, a kmalloc() array: a count beyond
 * what it can hold is -ENOMEM (an overflow -EINVAL).
 */
static int exec_grow_syncobjs(struct i915_exec *eb, u64 count)
{
	struct i915_exec_syncobj *s;
	u64 total = (u64)eb->num_syncobjs + count;

	if (total > SIZE_MAX / sizeof(*s))
		return -EINVAL;
	s = krealloc_array(eb->syncobjs, total, sizeof(*s),
			   GFP_KERNEL_ACCOUNT | __GFP_NOWARN);
	if (!s)
		return -ENOMEM;
	memset(s + eb->num_syncobjs, 0, count * sizeof(*s));
	eb->syncobjs = s;
	return 0;
}

/*
 * One entry of either array, @point 0 for FENCE_ARRAY.  What is waited
 * for follows upstream: FENCE_ARRAY waits only for FENCE_WAIT entries
 * (a syncobj with no fence is -EINVAL); a timeline entry waits for the
 * syncobj's fence at @point whatever its flags, except when it only
 * signals a point the syncobj does not have yet, and a point already
 * signalled and forgotten is skipped.  Signalling a timeline point needs
 * its chain node, allocated here.
 */
static int exec_add_syncobj(struct i915_exec *eb, struct i915_exec_syncobj *s,
			    const struct drm_i915_gem_exec_fence *uf,
			    u64 point, bool timeline)
{
	struct drm_device *dev = &eb->i915->drm;
	bool signal = uf->flags & I915_EXEC_FENCE_SIGNAL;
	struct dma_fence *fence = NULL;
	int ret;

	if (uf->flags & ~I915_EXEC_FENCE_FLAGS) {
		drm_dbg(dev, "exec: fence flags 0x%x\n", uf->flags);
		return -EINVAL;
	}
	s->syncobj = drm_syncobj_find(eb->file, uf->handle);
	if (!s->syncobj) {
		drm_dbg(dev, "exec: syncobj %u\n", uf->handle);
		return -ENOENT;
	}
	s->flags = uf->flags;
	s->point = point;
	eb->num_syncobjs++; /* exec_fini() puts what is taken from here on */

	if (timeline || (uf->flags & I915_EXEC_FENCE_WAIT))
		fence = drm_syncobj_fence_get(s->syncobj);
	if (!fence && uf->flags && !signal) {
		drm_dbg(dev, "exec: syncobj %u has no fence\n", uf->handle);
		return -EINVAL;
	}
	if (fence) {
		ret = dma_fence_chain_find_seqno(&fence, point);
		if (ret && !signal) {
			drm_dbg(dev, "exec: syncobj %u has no point %llu\n",
				uf->handle, point);
			dma_fence_put(fence);
			return ret;
		}
	}
	s->fence = fence;

	if (point && signal) {
		/* Waiting for and signalling one point would break it. */
		if (uf->flags & I915_EXEC_FENCE_WAIT) {
			drm_dbg(dev, "exec: syncobj %u waits and signals %llu\n",
				uf->handle, point);
			return -EINVAL;
		}
		s->chain = dma_fence_chain_alloc();
		if (!s->chain)
			return -ENOMEM;
	}
	return 0;
}

/* I915_EXEC_FENCE_ARRAY: num_cliprects entries at cliprects_ptr. */
static int exec2_get_fence_array(struct i915_exec *eb,
				 const struct drm_i915_gem_execbuffer2 *args)
{
	struct drm_i915_gem_exec_fence __user *user =
		u64_to_user_ptr(args->cliprects_ptr);
	struct drm_i915_gem_exec_fence uf;
	u32 i;
	int ret;

	if (!args->num_cliprects)
		return 0;
	if (!access_ok(user, (u64)args->num_cliprects * sizeof(*user)))
		return -EFAULT;
	ret = exec_grow_syncobjs(eb, args->num_cliprects);
	if (ret)
		return ret;
	for (i = 0; i < args->num_cliprects; i++) {
		if (copy_from_user(&uf, &user[i], sizeof(uf)))
			return -EFAULT;
		ret = exec_add_syncobj(eb, &eb->syncobjs[eb->num_syncobjs],
				       &uf, 0, false);
		if (ret)
			return ret;
	}
	return 0;
}

/* DRM_I915_GEM_EXECBUFFER_EXT_TIMELINE_FENCES: a value for each fence. */
static int exec2_get_timeline_fences(struct i915_exec *eb,
				     struct i915_user_extension __user *ext)
{
	struct drm_i915_gem_execbuffer_ext_timeline_fences tf;
	struct drm_i915_gem_exec_fence __user *user;
	struct drm_i915_gem_exec_fence uf;
	struct i915_exec_syncobj *s;
	u64 __user *values;
	u64 i, point;
	int ret;

	if (copy_from_user(&tf, ext, sizeof(tf)))
		return -EFAULT;
	if (!tf.fence_count)
		return 0;
	if (tf.fence_count > ULONG_MAX / sizeof(*user))
		return -EINVAL;
	user = u64_to_user_ptr(tf.handles_ptr);
	values = u64_to_user_ptr(tf.values_ptr);
	if (!access_ok(user, tf.fence_count * sizeof(*user)) ||
	    !access_ok(values, tf.fence_count * sizeof(*values)))
		return -EFAULT;
	ret = exec_grow_syncobjs(eb, tf.fence_count);
	if (ret)
		return ret;
	for (i = 0; i < tf.fence_count; i++) {
		if (copy_from_user(&uf, &user[i], sizeof(uf)) ||
		    get_user(point, &values[i]))
			return -EFAULT;
		s = &eb->syncobjs[eb->num_syncobjs];
		ret = exec_add_syncobj(eb, s, &uf, point, true);
		if (ret)
			return ret;
		/* A forgotten point, nothing to signal: no entry (upstream). */
		if (!s->fence && !(uf.flags & I915_EXEC_FENCE_SIGNAL)) {
			drm_syncobj_put(s->syncobj);
			memset(s, 0, sizeof(*s));
			eb->num_syncobjs--;
		}
	}
	return 0;
}

/* A user value that must be zero: -EFAULT unreadable, -EINVAL set. */
static int exec_check_mbz(const void __user *p, size_t len)
{
	u64 v = 0;

	if (copy_from_user(&v, p, len))
		return -EFAULT;
	return v ? -EINVAL : 0;
}

/*
 * I915_EXEC_USE_EXTENSIONS: the chain of &struct i915_user_extension at
 * cliprects_ptr, checked as upstream checks it (flags and rsvd zero, a
 * known name, at most I915_EXEC_MAX_EXTENSIONS links).
 */
static int exec2_get_extensions(struct i915_exec *eb,
				const struct drm_i915_gem_execbuffer2 *args)
{
	struct i915_user_extension __user *ext =
		u64_to_user_ptr(args->cliprects_ptr);
	unsigned int depth = I915_EXEC_MAX_EXTENSIONS;
	u64 next;
	u32 name;
	int i, ret;

	if ((args->flags & I915_EXEC_FENCE_ARRAY) || args->num_cliprects)
		return -EINVAL;
	while (ext) {
		if (!depth--)
			return -E2BIG;
		ret = exec_check_mbz(&ext->flags, sizeof(ext->flags));
		for (i = 0; !ret && i < ARRAY_SIZE(ext->rsvd); i++)
			ret = exec_check_mbz(&ext->rsvd[i], sizeof(ext->rsvd[i]));
		if (ret)
			return ret;
		if (get_user(name, &ext->name))
			return -EFAULT;
		if (name != DRM_I915_GEM_EXECBUFFER_EXT_TIMELINE_FENCES) {
			drm_dbg(&eb->i915->drm, "exec2: extension %u\n", name);
			return -EINVAL;
		}
		ret = exec2_get_timeline_fences(eb, ext);
		if (ret)
			return ret;
		if (get_user(next, &ext->next_extension))
			return -EFAULT;
		ext = u64_to_user_ptr(next);
	}
	return 0;
}

/* Phase 1 of EXECBUFFER2: the syncobjs to wait for and to signal. */
static int exec2_get_syncobjs(struct i915_exec *eb,
			      const struct drm_i915_gem_execbuffer2 *args)
{
	int ret;

	if (args->flags & I915_EXEC_USE_EXTENSIONS) {
		ret = exec2_get_extensions(eb, args);
		if (ret)
			return ret;
	}
	if (args->flags & I915_EXEC_FENCE_ARRAY)
		return exec2_get_fence_array(eb, args);
	return 0;
}

/*
 * FENCE_IN (or FENCE_SUBMIT, not both): the sync_file to wait for;
 * FENCE_OUT: reserve the fd now.
 */
static int exec_get_fences(struct i915_exec *eb, u64 rsvd2)
{
	u64 in = eb->flags & (I915_EXEC_FENCE_IN | I915_EXEC_FENCE_SUBMIT);

	if (in == (I915_EXEC_FENCE_IN | I915_EXEC_FENCE_SUBMIT))
		return -EINVAL;
	if (in) {
		eb->in_fence = sync_file_get_fence(lower_32_bits(rsvd2));
		if (!eb->in_fence)
			return -EINVAL;
	}
	if (eb->flags & I915_EXEC_FENCE_OUT) {
		eb->out_fence_fd = get_unused_fd_flags(O_CLOEXEC);
		if (eb->out_fence_fd < 0)
			return eb->out_fence_fd;
	}
	return 0;
}

static unsigned int exec_drawrect_len(const struct i915_exec *eb)
{
	return eb->i915->info->gen < 4 ? I915_GEN3_DRAWRECT_LEN :
					 I965_DRAWRECT_LEN;
}

/* Ring dwords for the flush and the batch (per cliprect), no request. */
static unsigned int exec_max_dwords(const struct i915_exec *eb)
{
	if (!eb->num_cliprects)
		return 1 + 2;
	return 1 + eb->num_cliprects * (exec_drawrect_len(eb) + 2);
}

/*
 * Phase 3: the request, and for FENCE_OUT the sync_file of its fence,
 * installed only once the batch is queued.  The request takes no
 * reference on the objects (see &i915_request.num_objects).
 */
static int exec_create_request(struct i915_exec *eb)
{
	unsigned int i;

	eb->rq = i915_request_create(eb->i915, eb->count);
	if (IS_ERR(eb->rq)) {
		int ret = PTR_ERR(eb->rq);

		eb->rq = NULL;
		return ret;
	}
	/* What the error state shows if the batch hangs. */
	for (i = 0; eb->capture && i < eb->count; i++) {
		if (eb->objects[i].flags & EXEC_OBJECT_CAPTURE) {
			int ret = i915_error_capture_object(eb->rq,
							    &eb->objects[i].obj->base);

			if (ret)
				return ret;
		}
	}
	eb->rq->batch = &eb->objects[eb->batch].obj->base;
	/* Room for the commands now: phase 7 holds userptr_sem. */
	if (IS_ERR(i915_request_commands(eb->rq, exec_max_dwords(eb))))
		return -ENOMEM;

	if (eb->out_fence_fd >= 0) {
		eb->out_fence = sync_file_create(&eb->rq->fence);
		if (!eb->out_fence)
			return -ENOMEM;
	}
	return 0;
}

/* -------------------------------------------------------------------- */
/* Phase 6: synchronisation and domains                                  */

/*
 * Fences of other timelines (other drivers, through shared dma-bufs) in
 * the objects' dma_resv are not waited for on the CPU: under the locks,
 * where no fence can be added any more, each one not yet signalled
 * becomes a dependency of the request (i915_request_await()), which is
 * queued until they have all signalled.
 */
static enum dma_resv_usage exec_await_usage(const struct i915_exec_object *eo)
{
	return dma_resv_usage_rw(eo->flags & EXEC_OBJECT_WRITE);
}

/*
 * Every object locked, before userptr_sem (the callbacks are allocated):
 * the other timelines' fences of every object become dependencies.  Only
 * an exported or imported object's dma_resv can hold any (&struct
 * i915_gem_object.exported, set under the lock we hold): the fences of
 * any other are this ring's, which need no dependency
 * (i915_request_await() would pass over each), so its dma_resv is not
 * walked at all, nor is the list when the lock loop found no such
 * object (&i915_exec.exported).
 */
static int exec_await_objects(struct i915_exec *eb)
{
	struct i915_exec_object *eo;
	struct dma_resv_iter cursor;
	struct dma_fence *fence;
	unsigned int i;
	int ret;

	if (!eb->exported)
		return 0;
	for (i = 0; i < eb->count; i++) {
		eo = &eb->objects[i];
		if ((eo->flags & EXEC_OBJECT_ASYNC) || !eo->obj->exported)
			continue;
		dma_resv_for_each_fence(&cursor, eo->obj->base.resv,
					exec_await_usage(eo), fence) {
			ret = i915_request_await(eb->rq, fence);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/*
 * Section 7.3.1 B over a list with userptr objects, once their pages are
 * current (without any, the lock loop did it, object by object).
 */
static void exec_domains(struct i915_exec *eb)
{
	unsigned int i;

	if (!eb->userptr)
		return;
	eb->invalidate = 0;
	eb->flush = 0;
	for (i = 0; i < eb->count; i++)
		i915_exec_object_domains(eb, &eb->objects[i]);
}

/* -------------------------------------------------------------------- */
/* Phase 7: emission                                                     */

static bool exec_needs_flush(const struct i915_exec *eb)
{
	return (eb->invalidate | eb->flush) & I915_GEM_GPU_DOMAINS;
}

/* The MI_FLUSH for the gathered bits (fact sheet 5.3, 3.7). */
static u32 exec_flush_cmd(const struct i915_exec *eb)
{
	const struct i915_device_info *info = eb->i915->info;
	u32 cmd = I915_MI_FLUSH | I915_MI_NO_WRITE_FLUSH;

	if ((eb->invalidate | eb->flush) & I915_GEM_DOMAIN_RENDER)
		cmd &= ~I915_MI_NO_WRITE_FLUSH;
	if (info->gen < 4 && (eb->invalidate & I915_GEM_DOMAIN_SAMPLER))
		cmd |= I915_MI_READ_FLUSH; /* Gen4 always flushes it */
	if (eb->invalidate & I915_GEM_DOMAIN_INSTRUCTION)
		cmd |= I915_MI_EXE_FLUSH;
	if (info->is_g4x && (eb->invalidate & I915_GEM_DOMAIN_COMMAND))
		cmd |= I915_MI_INVALIDATE_ISP;
	return cmd;
}

/* 3DSTATE_DRAWING_RECTANGLE for one cliprect (fact sheet 5.5). */
static u32 *exec_emit_drawrect(const struct i915_exec *eb, u32 *cs,
			       const struct drm_clip_rect *rect)
{
	if (eb->i915->info->gen < 4) {
		*cs++ = I915_GEN3_DRAWRECT;
		*cs++ = eb->dr1;
	} else {
		*cs++ = I965_DRAWRECT;
	}
	*cs++ = rect->y1 << 16 | rect->x1;
	*cs++ = (rect->y2 - 1) << 16 | (rect->x2 - 1);
	*cs++ = eb->dr4;
	return cs;
}

/* MI_BATCH_BUFFER_START from the GTT, non-secure unless SECURE. */
static u32 *exec_emit_bbs(const struct i915_exec *eb, u32 *cs, u32 addr)
{
	bool secure = eb->flags & I915_EXEC_SECURE;

	if (eb->i915->info->gen < 4) {
		*cs++ = I915_MI_BATCH_BUFFER_START | I915_MI_BATCH_GTT;
		*cs++ = addr | (secure ? 0 : I915_MI_BATCH_NON_SECURE);
	} else {
		*cs++ = I915_MI_BATCH_BUFFER_START | I915_MI_BATCH_GTT |
			(secure ? 0 : I965_MI_BATCH_NON_SECURE);
		*cs++ = addr;
	}
	return cs;
}

static u32 *exec_emit_commands(const struct i915_exec *eb, u32 *cs, u32 addr)
{
	unsigned int i;

	if (exec_needs_flush(eb))
		*cs++ = exec_flush_cmd(eb);
	if (!eb->num_cliprects)
		return exec_emit_bbs(eb, cs, addr);

	for (i = 0; i < eb->num_cliprects; i++) {
		cs = exec_emit_drawrect(eb, cs, &eb->cliprects[i]);
		cs = exec_emit_bbs(eb, cs, addr);
	}
	return cs;
}

/*
 * Flush, batch(es) and breadcrumb, all or nothing: written into the ring
 * now, or queued until the request's dependencies have signalled
 * (i915_request_submit()).
 */
static int exec_emit(struct i915_exec *eb)
{
	u32 addr = eb->objects[eb->batch].offset + eb->batch_start;
	u32 *cs;
	int ret;

	cs = exec_emit_commands(eb, eb->rq->cmds, addr);
	eb->rq->num_cmds = cs - eb->rq->cmds;
	/* Where a reset looks for the batch ACTHD is in. */
	eb->rq->batch_start = eb->objects[eb->batch].offset;
	eb->rq->batch_end = eb->rq->batch_start +
			    eb->objects[eb->batch].obj->base.size;
	/* Found under the locks we hold: its fence goes where others read. */
	eb->rq->exported = eb->exported;

	ret = i915_request_submit(eb->rq, eb->file);
	if (ret)
		return ret;
	eb->emitted = true;
	trace_i915_exec_submit(eb, addr);
	return 0;
}

/*
 * Phase 8: the fence into every resv, the domains committed, the use
 * stamped for the LRU (which settles its order only when eviction looks
 * at it), the fence register unpinned and the lock dropped, in one pass
 * over the objects (no fence is allocated: the slot was reserved).  From
 * here on the fence keeps each object alive: should its handle be closed
 * once this execbuffer is done, the object is freed only after the fence
 * signalled (drm_gem.c).
 */
static void exec_publish(struct i915_exec *eb)
{
	u64 stamp = i915_gtt_lru_stamp(eb->i915);
	struct i915_exec_object *eo = eb->objects, *end = eo + eb->count;
	struct dma_fence *fence = &eb->rq->fence;
	struct i915_gem_object *obj;

	/* Locals, not loads through @eb again after each call. */
	for (; eo < end; eo++) {
		obj = eo->obj;
		dma_resv_add_fence(obj->base.resv, fence,
				   eo->flags & EXEC_OBJECT_WRITE ?
				   DMA_RESV_USAGE_WRITE : DMA_RESV_USAGE_READ);
		i915_gem_object_set_gpu_domains(obj, eo->commit_read,
						eo->commit_write);
		i915_gtt_mark_used(obj, stamp);
		i915_exec_unlock_object(eo);
	}
	eb->locked = 0;
}

/* Every lock dropped, the acquire context ended. */
static void exec_ww_fini(struct i915_exec *eb)
{
	i915_exec_unlock(eb);
	i915_ww_fini(&eb->ww);
}

/* Phase 4, again after -EDEADLK. */
static int exec_lock_and_bind(struct i915_exec *eb)
{
	int ret;

	for (;;) {
		ret = i915_exec_lock_and_bind(eb);
		if (ret != -EDEADLK)
			return ret;
		i915_exec_unlock(eb);
		ret = i915_ww_backoff(&eb->ww);
		if (ret)
			return ret;
	}
}

/*
 * NO_RELOC, and phase 4 moved an object: the relocations phase 2 left
 * unread must be read now, with every check.  Reading them may fault,
 * which takes mmap_lock: every lock is dropped and the acquire context
 * ended first (lockdep orders mmap_lock before it), a new one begun
 * after.  The domains start again from the exec objects' flags, as in
 * phase 2, and phase 4 starts over.
 */
static int exec_check_relocs_late(struct i915_exec *eb)
{
	unsigned int i;
	int ret;

	exec_ww_fini(eb);
	for (i = 0; i < eb->count; i++) {
		eb->objects[i].read_domains = 0;
		eb->objects[i].write_domain = 0;
	}
	ret = i915_reloc_check(eb);
	if (!ret)
		ret = i915_exec_check_batch(eb);
	eb->relocs_checked = !ret;
	i915_ww_init(&eb->ww);
	return ret;
}

/* Phases 4 to 8, between taking the first lock and dropping the last. */
static int exec_locked(struct i915_exec *eb)
{
	int ret;

	i915_ww_init(&eb->ww);
	for (;;) {
		ret = exec_lock_and_bind(eb);
		/*
		 * NO_RELOC: the user vouches for the offsets; while none
		 * moved, not one relocation is read (as upstream).
		 */
		if (!ret && !eb->relocs_checked && eb->moved) {
			ret = exec_check_relocs_late(eb);
			if (ret)
				break;
			continue;
		}
		if (!ret && eb->relocs_checked)
			ret = i915_reloc_apply(eb);
		if (ret != -EAGAIN || !eb->reloc_fault)
			break;
		/*
		 * A relocation chunk was not resident: fault it in with no
		 * lock held and the acquire context ended, as for a late
		 * check (a fault takes mmap_lock, which lockdep orders
		 * before the context); a new context for the next pass.
		 */
		exec_ww_fini(eb);
		ret = i915_reloc_fault_in(eb);
		i915_ww_init(&eb->ww);
		if (ret)
			break;
	}
	/* The dependencies, while nothing can add a fence (phase 6). */
	if (!ret)
		ret = exec_await_objects(eb);
	/* Userptr pages current from here until the fence is published. */
	if (!ret)
		ret = i915_exec_userptr_begin(eb);
	if (!ret) {
		exec_domains(eb);
		ret = i915_exec_pin_fences(eb);
		if (!ret)
			ret = exec_emit(eb);
	}
	/* Unpins the fences after the publish: a steal waits for it. */
	if (!ret)
		exec_publish(eb);
	i915_exec_userptr_end(eb);
	exec_ww_fini(eb);
	return ret;
}

/* -------------------------------------------------------------------- */
/* Phase 9: write-back, and the whole path                               */

/* The offset field of entry @i of the user's list (v1 or v2: the same). */
static u64 __user *exec_user_offset(const struct i915_exec *eb,
				    unsigned int i)
{
	return eb->user_list + i * eb->user_entry_size +
	       offsetof(struct drm_i915_gem_exec_object2, offset);
}

/*
 * The objects' GTT addresses, where they differ from the entry's offset
 * as the user gave it (the others would write the same value back;
 * none does unless an object was placed away from its entry's offset:
 * @eb->moved); a fault is ignored, as upstream does.
 */
static void exec_write_back_offsets(struct i915_exec *eb)
{
	const struct i915_exec_object *eo;
	unsigned int i;

	if (!eb->moved)
		return;
	for (i = 0; i < eb->count; i++) {
		eo = &eb->objects[i];
		if (eo->offset == eo->user_offset_in)
			continue;
		if (put_user(eo->offset, exec_user_offset(eb, i)))
			return;
	}
}

/*
 * FENCE_OUT: the sync_file made before the point of no return goes into
 * the fd reserved then, returned in rsvd2's upper half.  Cannot fail.
 */
static void exec_install_out_fence(struct i915_exec *eb, u64 *rsvd2)
{
	if (!eb->out_fence)
		return;

	/* Handed out from here on: it must keep the module and the device. */
	i915_request_escape(eb->rq);
	fd_install(eb->out_fence_fd, eb->out_fence->file);
	*rsvd2 = lower_32_bits(*rsvd2) | (u64)eb->out_fence_fd << 32;
	eb->out_fence = NULL;
	eb->out_fence_fd = -1;
}

/*
 * After the point of no return: each FENCE_SIGNAL syncobj gets the
 * request's fence, as its fence or as a new timeline point.  Cannot fail.
 */
static void exec_signal_syncobjs(struct i915_exec *eb)
{
	struct i915_exec_syncobj *s;
	bool escaped = false;
	unsigned int i;

	for (i = 0; i < eb->num_syncobjs; i++) {
		s = &eb->syncobjs[i];
		if (!(s->flags & I915_EXEC_FENCE_SIGNAL))
			continue;
		if (!escaped) {
			/* The syncobj may outlive the file, device and module. */
			i915_request_escape(eb->rq);
			escaped = true;
		}
		if (s->chain) {
			drm_syncobj_add_point(s->syncobj, s->chain,
					      &eb->rq->fence, s->point);
			s->chain = NULL; /* the timeline's now */
		} else {
			drm_syncobj_replace_fence(s->syncobj, &eb->rq->fence);
		}
	}
}

/* Each fence inside @fence (an array, a chain) becomes a dependency. */
static int exec_await_fence(struct i915_exec *eb, struct dma_fence *fence)
{
	struct dma_fence_unwrap iter;
	struct dma_fence *f;
	int ret;

	dma_fence_unwrap_for_each(f, &iter, fence) {
		ret = i915_request_await(eb->rq, f);
		if (ret) {
			dma_fence_put(iter.chain);
			return ret;
		}
	}
	return 0;
}

/*
 * FENCE_IN, FENCE_SUBMIT and the syncobjs to wait for: dependencies of
 * the request, not waited for on the CPU.  FENCE_SUBMIT: the batch must
 * not start before the fence's batches start; the ring's own batches
 * are ahead of it in the ring already, and any other fence (another
 * driver's) is awaited until it signals, as upstream awaits a fence that
 * is not i915's.
 */
static int exec_await_fences(struct i915_exec *eb)
{
	unsigned int i;
	int ret;

	if (eb->in_fence) {
		ret = exec_await_fence(eb, eb->in_fence);
		if (ret)
			return ret;
	}
	for (i = 0; i < eb->num_syncobjs; i++) {
		if (!eb->syncobjs[i].fence)
			continue;
		ret = exec_await_fence(eb, eb->syncobjs[i].fence);
		if (ret)
			return ret;
	}
	return 0;
}

static int exec_prepare(struct i915_exec *eb)
{
	struct i915_file *fpriv = eb->file->driver_priv;
	int ret;

	/* From the lookup on, the file's handles keep the objects alive. */
	eb->exec_sem = &fpriv->exec_sem;
	down_read(eb->exec_sem);
	ret = i915_exec_lookup(eb);
	/* Userptr objects: their user pages pinned, before any lock. */
	if (!ret)
		ret = i915_exec_userptr_prepare(eb);
	/* NO_RELOC: the relocations are read only if an object moves. */
	if (!ret && !(eb->flags & I915_EXEC_NO_RELOC)) {
		ret = i915_reloc_check(eb);
		eb->relocs_checked = !ret;
	}
	if (!ret)
		ret = i915_exec_check_batch(eb);
	/* A ring's worth queued already: wait, or -EWOULDBLOCK. */
	if (!ret)
		ret = i915_request_throttle(eb->i915, eb->file->filp->f_flags &
					   O_NONBLOCK);
	if (!ret)
		ret = exec_create_request(eb);
	if (!ret)
		ret = exec_await_fences(eb);
	return ret;
}

/* Everything after the copy-in of the object list, for both versions. */
static int exec_run(struct i915_exec *eb, u64 context, u64 *rsvd2)
{
	unsigned int tries = 0;
	int ret;

	/*
	 * Before any lookup or lock: the oldest completed requests, whose
	 * interrupts nobody asked for (one more than this exec adds).
	 */
	i915_request_retire_some(eb->i915, 2);
	ret = exec_check_submit(eb, context);
	if (!ret)
		ret = exec_get_fences(eb, *rsvd2);
	if (!ret)
		ret = exec_prepare(eb);
	if (!ret) {
		/* Userptr pages that went stale meanwhile: pinned again. */
		do {
			ret = exec_locked(eb);
		} while (i915_exec_userptr_retry(eb, ret, tries++));
	}

	i915_reloc_write_back(eb);
	if (ret)
		return ret;

	exec_write_back_offsets(eb);
	exec_signal_syncobjs(eb);
	exec_install_out_fence(eb, rsvd2);
	return 0;
}

static void exec_fini(struct i915_exec *eb)
{
	unsigned int i;

	if (eb->out_fence)
		fput(eb->out_fence->file); /* never installed */
	if (eb->rq && eb->emitted)
		i915_request_put(eb->rq);
	else if (eb->rq)
		i915_request_discard(eb->rq);
	if (eb->out_fence_fd >= 0)
		put_unused_fd(eb->out_fence_fd);
	if (eb->in_fence)
		dma_fence_put(eb->in_fence);
	for (i = 0; i < eb->num_syncobjs; i++) {
		dma_fence_chain_free(eb->syncobjs[i].chain);
		dma_fence_put(eb->syncobjs[i].fence);
		drm_syncobj_put(eb->syncobjs[i].syncobj);
	}
	kfree(eb->syncobjs);
	if (eb->handles != eb->handles_inline)
		kvfree(eb->handles);
	kvfree(eb->cliprects);
	i915_exec_kept_put(&eb->i915->exec_kept[I915_EXEC_KEPT_LIST], eb->list,
			   EXEC_LIST_KEEP);
	/* The objects are no longer used: their handles may go. */
	if (eb->exec_sem)
		up_read(eb->exec_sem);
}

/**
 * i915_gem_execbuffer_ioctl - EXECBUFFER: the design's execbuffer (v1)
 * @dev: DRM device
 * @data: &struct drm_i915_gem_execbuffer
 * @file: DRM file (authenticated primary node)
 *
 * Runs the last object of the list as a batch on the render ring, once
 * per cliprect behind a 3DSTATE_DRAWING_RECTANGLE built from @DR1, @DR4
 * and the rectangle (removed upstream; this is the 2008 ioctl).  See the
 * DOC section for the path.
 *
 * Return: 0 with each entry's offset updated; -EINVAL for a bad count,
 * batch range, cliprect, relocation or object; -ENOENT for a bad handle
 * or relocation target; -EFAULT for unreadable arrays; -ENOSPC if the
 * objects cannot fit in the GTT together; -EIO if the GPU is wedged or
 * the client banned; -ENOMEM; -EINTR or -ERESTARTSYS on a signal.
 */
int i915_gem_execbuffer_ioctl(struct drm_device *dev, void *data,
			      struct drm_file *file)
{
	struct drm_i915_gem_execbuffer *args = data;
	struct i915_exec eb;
	u64 rsvd2 = 0;
	int ret;

	if (args->buffer_count < 1 || args->buffer_count > INT_MAX ||
	    (args->batch_start_offset | args->batch_len) &
	    (I915_EXEC_BATCH_ALIGN - 1)) {
		drm_dbg(dev, "exec: %u buffers, batch at 0x%x+0x%x\n",
			args->buffer_count, args->batch_start_offset,
			args->batch_len);
		return -EINVAL;
	}

	ret = exec_init(&eb, dev, file, args->buffer_count);
	if (ret)
		goto out;
	eb.flags = I915_EXEC_RENDER;
	eb.batch_start = args->batch_start_offset;
	eb.batch_len = args->batch_len;
	eb.dr1 = args->DR1;
	eb.dr4 = args->DR4;

	ret = exec_copy_objects(&eb, args->buffers_ptr,
				sizeof(struct drm_i915_gem_exec_object));
	if (!ret)
		ret = exec1_copy_cliprects(&eb, args);
	if (!ret)
		ret = exec_run(&eb, 0, &rsvd2);
out:
	exec_fini(&eb);
	return ret;
}

/**
 * i915_gem_execbuffer2_ioctl - EXECBUFFER2 and EXECBUFFER2_WR
 * @dev: DRM device
 * @data: &struct drm_i915_gem_execbuffer2
 * @file: DRM file (render nodes too)
 *
 * Runs the batch (the last object, or the first with
 * I915_EXEC_BATCH_FIRST) on the render ring.  Flags: ring DEFAULT or
 * RENDER, SECURE (DRM master with CAP_SYS_ADMIN), IS_PINNED, NO_RELOC,
 * HANDLE_LUT, FENCE_IN or FENCE_SUBMIT, FENCE_OUT (the _WR form returns
 * the fd in the upper half of rsvd2), BATCH_FIRST, FENCE_ARRAY (an
 * array of &struct drm_i915_gem_exec_fence at cliprects_ptr,
 * num_cliprects long) or USE_EXTENSIONS (a chain of extensions at
 * cliprects_ptr: TIMELINE_FENCES).  See the DOC section for the path.
 *
 * Return: 0 with each entry's offset updated; -EINVAL for unknown flags,
 * another ring, cliprects, DR1/DR4, a bad count, batch range, relocation
 * or object, a bad FENCE_IN or FENCE_SUBMIT fd, bad fence flags, a
 * syncobj to wait for without a fence or the point, or an unknown or
 * badly formed extension; -E2BIG for more than 512 extensions; -EPERM
 * for SECURE without privilege; -ENOENT for a bad handle, syncobj,
 * relocation target or context; -EFAULT for
 * unreadable arrays; -ENOSPC if the objects cannot fit in the GTT
 * together; -EIO if the GPU is wedged or the client banned; -ENOMEM;
 * -EINTR or -ERESTARTSYS on a signal.
 */
int i915_gem_execbuffer2_ioctl(struct drm_device *dev, void *data,
			       struct drm_file *file)
{
	struct drm_i915_gem_execbuffer2 *args = data;
	struct i915_exec eb;
	int ret;

	ret = exec2_check_args(dev, args);
	if (ret)
		return ret;

	ret = exec_init(&eb, dev, file, args->buffer_count);
	if (ret)
		goto out;
	eb.flags = args->flags;
	eb.batch_start = args->batch_start_offset;
	eb.batch_len = args->batch_len;

	ret = exec_copy_objects(&eb, args->buffers_ptr,
				sizeof(struct drm_i915_gem_exec_object2));
	if (!ret)
		ret = exec2_get_syncobjs(&eb, args);
	if (!ret)
		ret = exec_run(&eb, args->rsvd1, &args->rsvd2);
out:
	exec_fini(&eb);
	return ret;
}
