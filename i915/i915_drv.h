/* SPDX-License-Identifier: GPL-2.0 */
/**
 * DOC: i915gem driver-wide types
 *
 * The device, file and object structures of the driver and the private
 * prototypes, grouped by the file that defines them.  The types of one
 * execbuffer, which only the execution path sees, are in
 * i915_gem_execbuffer.h.  Hardware facts live in include/i915_reg.h and
 * include/i915_cmd.h; the hardware seam in include/i915_hw.h.
 */
#ifndef _I915_DRV_H_
#define _I915_DRV_H_

#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_mm.h>
#include <drm/drm_print.h>
#include <uapi/drm/i915_drm.h>
#include <linux/dma-fence.h>
#include <linux/llist.h>
#include <linux/mmu_notifier.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/sched.h>
#include <linux/shrinker.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <linux/ww_mutex.h>

#include "i915_hw.h"

#define DRIVER_NAME		"i915"
#define DRIVER_DESC		"Intel Gen3/Gen4 GEM (i915gem)"
#define DRIVER_DATE		"20081117"
#define DRIVER_MAJOR		1
#define DRIVER_MINOR		6
#define DRIVER_PATCHLEVEL	0

/**
 * struct i915_device_info - static facts about one GPU model
 * @gen: graphics generation, 3 or 4
 * @is_g4x: G45/GM45 family (Gen4 with BSD ring and GGTT status page)
 * @is_mobile: mobile part
 * @has_snoop: the GTT can map pages snooped (I915_CACHING_CACHED)
 * @hws_needs_physical: status page given by physical address, not GGTT
 * @dma_bits: DMA address width
 * @num_fences: fence registers
 * @y_tile_512: Y tiles are 512 bytes wide (915G/GM), not 128
 * @unfenced_needs_alignment: tiled objects the GPU uses without a fence
 *	still need a fence's placement (915/945)
 * @swizzle_drb: bit-6 swizzling is read from C0DRB3/C1DRB3 (G33, 965G,
 *	G45 desktop parts), else from DCC
 * @incoherent_ggtt: CPU writes through the aperture may reach memory
 *	after a later GPU read of them (915G; I915_PARAM_MMAP_GTT_COHERENT)
 */
struct i915_device_info {
	u8 gen;
	bool is_g4x;
	bool is_mobile;
	bool has_snoop;
	bool hws_needs_physical;
	u8 dma_bits;
	u8 num_fences;
	bool y_tile_512;
	bool unfenced_needs_alignment;
	bool swizzle_drb;
	bool incoherent_ggtt;
};

/**
 * struct i915_gtt - the global GTT as the driver manages it
 * @mm: allocator over [start, end) of the graphics address space
 * @start: first byte of the managed range
 * @end: end of the managed range (exclusive)
 * @total: bytes the hardware GTT maps
 * @pinned_bytes: bytes of objects pinned in the GTT
 * @kernel_start: start of the range the driver keeps for itself (ring,
 *	status page), between the managed range and the last guard page
 * @kernel_next: next free byte of that range
 * @lru: bound objects, least recently used first, once settled
 *	(i915_gtt_lru_settle(), which the eviction scan and the shrinker call
 *	before walking it from the head): an execbuffer only stamps its
 *	objects (i915_gtt_mark_used()), the list is put in that order later
 * @lru_clock: the last stamp handed out (&i915_gem_object.lru_used)
 * @userfault: objects whose normal binding a GTT mmap fault put into
 *	user page tables (linked by &i915_gem_object.userfault_link)
 * @views: partial views of GTT mmaps, least recently used first
 *	(i915_gem_mman.c)
 * @num_views: entries on @views
 * @lock: protects @mm, @start, @end, @pinned_bytes, @lru, @userfault,
 *	@views, @num_views and every object's GTT node,
 *	&i915_gem_object.gtt_link, &i915_gem_object.evicting,
 *	&i915_gem_object.userfault and &i915_gem_object.views; taken after an
 *	object's dma_resv lock, never before; user PTEs are zapped (the
 *	mapping's i_mmap_rwsem) inside it
 */
struct i915_gtt {
	struct drm_mm mm;
	u64 start;
	u64 end;
	u64 total;
	u64 pinned_bytes;
	u64 kernel_start;
	u64 kernel_next;
	struct list_head lru;
	atomic64_t lru_clock;
	struct list_head userfault;
	struct list_head views;
	unsigned int num_views;
	struct mutex lock; /* see the lock order above */
};

/**
 * struct i915_gtt_place - where an object may be bound
 * @size: bytes of GTT space to take, at least the object's size (larger
 *	for an execbuffer object with pad_to_size)
 * @alignment: required alignment of the address, 0 or a power of two
 * @offset: the address the object must have when @fixed
 * @fixed: bind at exactly @offset (softpin)
 * @end: the binding must end at or below this address (the mappable
 *	aperture, for a GTT mmap); 0 for no limit
 * @noevict: -ENOSPC rather than evict anything (a GTT mmap fault's
 *	first try, as upstream's PIN_NOEVICT)
 */
struct i915_gtt_place {
	u64 size;
	u64 alignment;
	u64 offset;
	bool fixed;
	u64 end;
	bool noevict;
};

/**
 * struct i915_ring - the render ring and its status page
 * @size: ring size in bytes
 * @gtt_offset: GTT address of the ring
 * @pages: pages backing the ring
 * @dma: DMA address of each page
 * @vaddr: write-combining kernel mapping of the ring
 * @tail: byte offset of the next free dword (under @lock)
 * @kicked: the value last written to the tail register (under @lock):
 *	everything before it belongs to the GPU, everything from it to @tail
 *	is emitted but not handed over yet
 * @hws_page: the hardware status page
 * @hws_dma: DMA address of @hws_page
 * @hws_gtt: GTT address of @hws_page where the GPU wants a GTT address
 * @hws: CPU mapping of @hws_page
 * @lock: serialises emission into the ring: @tail, @next_seqno and the
 *	order of @requests; taken after every dma_resv lock of an
 *	execbuffer, and nothing but @fence_lock is taken inside it
 * @fence_lock: protects @requests and signals fences; taken in hard-IRQ
 *	context, so always with interrupts disabled
 * @requests: emitted requests in seqno order, each holding a reference
 * @fence_context: dma_fence context of the ring
 * @next_seqno: seqno of the next request (under @lock)
 * @wedged: the GPU hung; every request fails with -EIO from now on
 * @wedges: times the GPU was wedged (under @fence_lock): a request queued
 *	before the last one completes with -EIO even after an unwedge
 * @suspended: the device is suspended (set and cleared under @lock): no
 *	emission until it resumes
 * @retire_work: drops requests that have completed
 * @retire_tick: while requests run, signals and retires every
 *	%I915_RETIRE_TICK_MS those whose breadcrumb has passed, since no
 *	interrupt says so unless someone waits (see i915_request.c)
 * @hangcheck_work: notices when the ring stops making progress
 * @hang_seqno: breadcrumb seen at the last hang check
 * @hang_acthd: ACTHD seen at the last hang check
 * @hang_score: how long the breadcrumb has been stuck, weighted by
 *	whether ACTHD moved (see i915_request.c)
 * @hang_checks: hang checks run so far (debugfs i915_requests)
 * @hw_lock: protects @in_reset and @held_head, and orders the tail
 *	register writes of emission against a reset's restart; taken inside
 *	@lock or &i915_device.reset_lock, nothing is taken inside it
 * @in_reset: a reset owns the ring registers: emission updates @kicked
 *	but leaves the tail register alone, and measures free space from
 *	@held_head (see i915_reset.c)
 * @held_head: the ring's head when the reset began
 * @head_seen: the head as last read for free space (the GPU has gone at
 *	least that far, and only moves on towards the tail, so the space up
 *	to it is free without reading the register again; under @lock)
 * @queue: requests created and published but not yet written into the
 *	ring, in seqno order, each holding the ring's reference: waiting
 *	for a dependency (another driver's fence, a FENCE_IN or a syncobj),
 *	or behind one that is; changed under both @lock and @fence_lock
 * @queued_bytes: ring bytes the requests on @queue will take (under @lock)
 * @queue_wait: woken when @queue shrinks or the GPU is wedged
 * @submit_work: writes the requests at the head of @queue whose
 *	dependencies have signalled into the ring (see i915_request.c)
 * @expired: requests whose request_timeout_ms ran out before they
 *	completed, each with the reference its timer held (lock-free list:
 *	added to from the timer)
 * @expire_work: cancels the requests on @expired (see i915_request.c)
 */
struct i915_ring {
	u32 size;
	u32 gtt_offset;
	struct page **pages;
	dma_addr_t *dma;
	u32 *vaddr;
	u32 tail;
	u32 kicked;
	struct page *hws_page;
	dma_addr_t hws_dma;
	u32 hws_gtt;
	u32 *hws;
	struct mutex lock; /* emission; see above */
	spinlock_t fence_lock; /* requests; see above */
	struct list_head requests;
	u64 fence_context;
	u32 next_seqno;
	bool wedged;
	unsigned int wedges;
	bool suspended;
	struct work_struct retire_work;
	struct delayed_work retire_tick;
	struct delayed_work hangcheck_work;
	u32 hang_seqno;
	u32 hang_acthd;
	unsigned int hang_score;
	unsigned long hang_checks;
	spinlock_t hw_lock; /* ring registers during a reset; see above */
	bool in_reset;
	u32 held_head;
	u32 head_seen;
	struct list_head queue;
	u32 queued_bytes;
	wait_queue_head_t queue_wait;
	struct work_struct submit_work;
	struct llist_head expired;
	struct work_struct expire_work;
};

struct i915_error_state;
struct i915_fences;
struct i915_fence_reg;

/**
 * struct i915_fence_view - a GTT mmap's partial view as a fence sees it
 * @obj: the tiled object (the view goes before the object does)
 * @reg: the register describing the view, or NULL (under
 *	&i915_fences.lock)
 * @start: GTT address of the view's node
 * @size: bytes the fence covers from @start (i915_gem_fence_size() of
 *	the view's bytes)
 * @first: first page of @obj in the view
 * @count: pages of @obj in the view
 *
 * All but @reg are set before the view first takes a fence, then fixed.
 */
struct i915_fence_view {
	struct i915_gem_object *obj;
	struct i915_fence_reg *reg;
	u64 start;
	u64 size;
	pgoff_t first;
	unsigned int count;
};

/**
 * struct i915_gpu_error - the error state kept for the user
 * @lock: protects @first; taken from the hard-IRQ error path, so always
 *	with interrupts disabled, and nothing is taken inside it
 * @first: the first error state captured since the last clear, an
 *	ERR_PTR() if that capture found no memory, or NULL (see
 *	i915_gpu_error.c)
 */
struct i915_gpu_error {
	spinlock_t lock; /* see above */
	struct i915_error_state *first;
};

/**
 * struct i915_exec_kept - a buffer kept for the device between execbuffers
 * @bytes: bytes of @data
 * @data: the buffer
 */
struct i915_exec_kept {
	size_t bytes;
	u8 data[] __aligned(8);
};

/* The buffers of &i915_device.exec_kept. */
enum {
	I915_EXEC_KEPT_LIST,
	I915_EXEC_KEPT_COUNT
};

/* i915_gem_exec_objects.c */
struct i915_exec_kept *i915_exec_kept_get(struct i915_exec_kept **slot,
					  size_t bytes, size_t keep);
void i915_exec_kept_put(struct i915_exec_kept **slot,
			struct i915_exec_kept *k, size_t keep);

/**
 * struct i915_device - one bound Gen3/Gen4 GPU
 * @drm: the DRM device, embedded
 * @info: static facts about this GPU model
 * @hw: the hardware seam (real silicon or the model)
 * @gtt: graphics address space
 * @ring: the render ring
 * @irq_count: interrupts handled (debugfs)
 * @irq_user: user interrupts seen (debugfs)
 * @irq_errors: error interrupts seen (debugfs)
 * @irq_user_armed: the user interrupt is unmasked in IMR because a fence
 *	of the ring has signalling enabled (a waiter, a callback); under
 *	&i915_ring.fence_lock, as are @irq_on and @irq_arms
 * @irq_on: the interrupt registers are programmed (between install or
 *	resume and suspend or removal): IMR may be written
 * @irq_arms: times the user interrupt was unmasked (debugfs)
 * @error: the error state of the first hang (i915_gpu_error.c)
 * @obj_lock: protects @objects, @object_count and @object_bytes; a
 *	spinlock taken with nothing nested inside it
 * @objects: every live &struct i915_gem_object of this device
 * @object_count: number of live objects
 * @object_bytes: total size of live objects
 * @reset_lock: serialises GPU resets (i915_reset.c); taken with nothing
 *	held, never inside &i915_ring.lock
 * @reset_count: GPU resets done (GET_RESET_STATS)
 * @fences: the fence registers and bit-6 swizzling (i915_gem_fence.c)
 * @timestamp_hz: the rate of the render timestamp, from CLKCFG at probe
 *	(i915_reg_read.c; GETPARAM CS_TIMESTAMP_FREQUENCY)
 * @userptr_sem: orders a USERPTR invalidation against an execbuffer that
 *	uses userptr objects: the notifier takes it for writing to move the
 *	sequence; an execbuffer holds it for reading from the check that its
 *	userptr pages are current until its fence is in their dma_resv
 *	(i915_gem_userptr.c); taken inside every dma_resv lock, outside
 *	&i915_ring.lock, never around an allocation
 * @shrinker: gives memory back under pressure (i915_gem_shrinker.c)
 * @shrink_claimed: objects the shrinker has claimed so far (debugfs
 *	i915_shrinker_info): each one an evictor had to pass over meanwhile
 * @shrink_unbound: of those, the objects it unbound
 * @exec_kept: buffers an execbuffer keeps for the next, or NULL: the
 *	object list's array (taken and given back with xchg(),
 *	i915_exec_kept_get())
 * @free_list: objects whose last reference went while the GPU still used
 *	them, waiting for their fences (drm_gem.c: deferred frees)
 * @free_work: frees the objects of @free_list once they are idle
 * @free_queued: objects ever put on @free_list
 * @free_done: of those, the objects freed; an evictor that found dying
 *	objects in its way waits on @free_wq until it catches up
 * @free_wq: woken whenever @free_done moves
 */
struct i915_device {
	struct drm_device drm;
	const struct i915_device_info *info;
	struct i915_hw hw;
	struct i915_gtt gtt;
	struct i915_ring ring;
	atomic_t irq_count;
	atomic_t irq_user;
	atomic_t irq_errors;
	bool irq_user_armed;
	bool irq_on;
	unsigned long irq_arms;
	struct i915_gpu_error error;

	spinlock_t obj_lock; /* innermost; guards the object list */
	struct list_head objects;
	u32 object_count;
	u64 object_bytes;

	struct mutex reset_lock; /* see above */
	atomic_t reset_count;
	struct i915_fences *fences;
	u32 timestamp_hz;

	struct rw_semaphore userptr_sem; /* see above */
	struct shrinker shrinker;
	atomic_long_t shrink_claimed;
	atomic_long_t shrink_unbound;
	struct i915_exec_kept *exec_kept[I915_EXEC_KEPT_COUNT];
	struct llist_head free_list;
	struct work_struct free_work;
	atomic_long_t free_queued;
	atomic_long_t free_done;
	wait_queue_head_t free_wq;
};

static inline struct i915_device *to_i915(const struct drm_device *dev)
{
	return container_of(dev, struct i915_device, drm);
}

/* Domains the CPU reads and writes through, and those of the GPU. */
#define I915_GEM_CPU_DOMAINS \
	(I915_GEM_DOMAIN_CPU | I915_GEM_DOMAIN_GTT | I915_GEM_DOMAIN_WC)
#define I915_GEM_GPU_DOMAINS \
	(I915_GEM_DOMAIN_RENDER | I915_GEM_DOMAIN_SAMPLER | \
	 I915_GEM_DOMAIN_COMMAND | I915_GEM_DOMAIN_INSTRUCTION | \
	 I915_GEM_DOMAIN_VERTEX)

/* THROTTLE waits for the caller's requests older than this. */
#define I915_THROTTLE_MS	20

/**
 * struct i915_file - per-client state
 * @file: the DRM file this belongs to
 * @lock: protects @requests and the &i915_request.file pointers of the
 *	requests on it
 * @requests: this client's requests still running, oldest first
 * @id: number of this file, never reused while the module is loaded:
 *	the owner of the objects it pins (&i915_gem_object.pin_owner)
 * @rcu: the state is freed only after an RCU grace period, because the
 *	retire worker may have read &i915_request.file just before postclose
 *	cleared it (see i915_request_file_close())
 * @guilty_count: GPU resets one of its requests was guilty of (under @lock)
 * @innocent_count: resets that caught one of its requests running
 *	without being guilty (under @lock)
 * @hang_time: jiffies of its last two hangs, oldest first (under @lock)
 * @hangs: hangs recorded in @hang_time (under @lock)
 * @banned: its default context is banned: execbuffer answers -EIO
 * @unbannable: CONTEXT_PARAM_BANNABLE cleared (root only)
 * @unrecoverable: CONTEXT_PARAM_RECOVERABLE cleared: one hang bans
 * @no_error_capture: CONTEXT_PARAM_NO_ERROR_CAPTURE set
 * @request_timeout_ms: the module parameter request_timeout_ms when the
 *	file was opened (its default context's watchdog, as upstream's):
 *	its requests are cancelled that long after they are written into
 *	the ring; 0: never
 * @lut: the handle cache (drm_gem.c): for each handle below @lut_size,
 *	the object an execbuffer found under it, or NULL (under the DRM
 *	file's table_lock, as the DRM core's handle table it caches)
 * @lut_size: entries of @lut (0 until an execbuffer looks up a handle;
 *	it only grows, under the same lock)
 * @exec_sem: held for reading by each execbuffer of the file from its
 *	lookup to its end, during which the file's handles alone keep its
 *	objects alive (it takes no reference); closing a handle takes it
 *	for writing, after the handle left the tables and before the
 *	handle's reference goes, to wait for those execbuffers (drm_gem.c)
 */
struct i915_file {
	struct drm_file *file;
	spinlock_t lock; /* see above */
	struct list_head requests;
	u64 id;
	struct rcu_head rcu;
	u32 guilty_count;
	u32 innocent_count;
	unsigned long hang_time[2];
	unsigned int hangs;
	bool banned;
	bool unbannable;
	bool unrecoverable;
	bool no_error_capture;
	unsigned int request_timeout_ms;
	struct i915_gem_object **lut;
	u32 lut_size;
	struct rw_semaphore exec_sem; /* see above */
};

/**
 * struct i915_request - one submission to the ring: the design's IRQ cookie
 * @fence: signalled once the ring's breadcrumb reaches @fence.seqno
 * @ring: the ring it runs on
 * @link: entry in &i915_ring.requests (under &i915_ring.fence_lock)
 * @file: the client that submitted it, NULL once the client closed or the
 *	request was retired (under &i915_file.lock)
 * @client_link: entry in &i915_file.requests (under &i915_file.lock)
 * @tail: ring offset just past the request; the ring has that much room
 *	again once it completed
 * @emitted: jiffies when it was submitted
 * @num_objects: how many objects its execbuffer listed (debugfs).  The
 *	request holds no reference to them: each has the request's fence
 *	in its dma_resv, and an object whose last reference goes before
 *	its fences signalled is freed only after (drm_gem.c), so that it
 *	stays alive and bound while the GPU uses it
 * @release_work: frees an escaped request after its fence's last
 *	reference (see i915_request_escape())
 * @batch: the batch object, for the error state (alive while the request
 *	runs, as every object of it)
 * @captures: the objects flagged EXEC_OBJECT_CAPTURE, copied into the
 *	error state if the request hangs; NULL when none is
 * @num_captures: entries used in @captures
 * @pid: thread-group id of the submitter, for the error state
 * @comm: its command name
 * @wedges: &i915_ring.wedges when it was queued
 * @head: ring offset of its first command (a ban's revoke blanks its
 *	commands up to @postfix)
 * @postfix: ring offset of its breadcrumb: where a reset that cancels it
 *	restarts the ring
 * @batch_start: GTT address of its batch object (0 if it has none)
 * @batch_end: end of its batch object in the GTT, 0 if it has none
 * @cmds: the commands to write into the ring before the breadcrumb
 *	(@cmds_inline or an allocation), filled in by the caller of
 *	i915_request_commands()
 * @cmds_inline: room for a short emission without an allocation
 * @num_cmds: dwords in @cmds
 * @pending: dependencies not yet signalled, plus one held by the
 *	submitter until it submits the request; the callback that takes it
 *	to 0 queues &i915_ring.submit_work
 * @dep_error: the first fatal error of a dependency: the request is
 *	written without its commands and completes with this error
 * @awaits: the &struct i915_await of each dependency (changed only by the
 *	submitter, and after the request left &i915_ring.queue)
 * @queued: it went on &i915_ring.queue (under &i915_ring.lock)
 * @exported: one of @objects is exported or imported (its submitter
 *	found so with the objects locked, before i915_request_submit())
 * @timeout_ms: its file's &i915_file.request_timeout_ms (0: none)
 * @watchdog: fires @timeout_ms after the request was written into the
 *	ring; while pending it holds a reference on the request
 * @expired_link: entry in &i915_ring.expired
 */
struct i915_request {
	struct dma_fence fence;
	struct i915_ring *ring;
	struct list_head link;
	struct i915_file *file;
	struct list_head client_link;
	u32 tail;
	unsigned long emitted;
	unsigned int num_objects;
	struct work_struct release_work;
	struct drm_gem_object *batch;
	struct drm_gem_object **captures;
	unsigned int num_captures;
	pid_t pid;
	char comm[TASK_COMM_LEN];
	u32 head;
	u32 postfix;
	u32 batch_start;
	u32 batch_end;
	u32 *cmds;
	u32 cmds_inline[4];
	unsigned int num_cmds;
	atomic_t pending;
	int dep_error;
	struct list_head awaits;
	bool queued;
	bool exported;
	unsigned int wedges;
	unsigned int timeout_ms;
	struct timer_list watchdog;
	struct llist_node expired_link;
};

/* Ring dwords a request writes after its commands: flush, breadcrumb, IRQ. */
#define I915_REQUEST_DWORDS	6

/* Bytes of the render ring. */
#define I915_RING_SIZE		SZ_32K
/* The tail must always stay this far behind the head. */
#define I915_RING_GUARD		8
/*
 * The most dwords one emission may reserve: all of the ring but the guard,
 * less one dword for the QWORD padding of the tail.  An emission this
 * large can always be made to fit once the GPU has caught up.
 */
#define I915_RING_MAX_EMIT	((I915_RING_SIZE - I915_RING_GUARD) / 4 - 1)

struct i915_gem_object;

/* The backing store lives in base.filp: pread/pwrite, CPU mmap, swap. */
#define I915_GEM_OBJECT_SHMEM	BIT(0)
/*
 * The pages belong to someone else (USERPTR): their caching and domains
 * are not the object's to change, and they are never exported, pread,
 * pwritten or mapped through the object.
 */
#define I915_GEM_OBJECT_PROXY	BIT(1)

/**
 * struct i915_gem_object_ops - where an object's pages come from
 * @name: the kind of backing store, for messages and debugfs
 * @flags: I915_GEM_OBJECT_SHMEM, I915_GEM_OBJECT_PROXY
 * @get_pages: make the backing store resident for the GPU: set
 *	&i915_gem_object.pages (pages the GTT maps for the device itself)
 *	or &i915_gem_object.sgt (already DMA-mapped for the device); called
 *	under the object's dma_resv lock by the first page pin; returns 0 or
 *	a negative errno
 * @put_pages: undo @get_pages, under the dma_resv lock, by the last unpin
 * @release: free what the backing store keeps besides its pages, when the
 *	object is freed (no lock held); may be NULL
 */
struct i915_gem_object_ops {
	const char *name;
	unsigned int flags;
	int (*get_pages)(struct i915_gem_object *obj);
	void (*put_pages)(struct i915_gem_object *obj);
	void (*release)(struct i915_gem_object *obj);
};

/**
 * struct i915_gem_userptr - the user memory behind a USERPTR object
 * @notifier: tells when the CPU mapping of [@ptr, @ptr + size) changes
 * @ptr: the user address
 * @pvec: the user pages pinned by i915_gem_userptr_prepare(), or NULL
 * @seq: the notifier sequence @pvec was pinned at: once the notifier moved
 *	past it, @pvec is stale and the next submission pins the pages anew
 *
 * @pvec and @seq are under the object's dma_resv lock.
 */
struct i915_gem_userptr {
	struct mmu_interval_notifier notifier;
	unsigned long ptr;
	struct page **pvec;
	unsigned long seq;
};

/**
 * enum i915_mmap_type - the kinds of fake offset (MMAP_OFFSET)
 * @I915_MMAP_TYPE_GTT: through the aperture
 * @I915_MMAP_TYPE_WC: the pages, write-combined
 * @I915_MMAP_TYPE_WB: the pages, write-back
 * @I915_MMAP_TYPE_UC: the pages, uncached
 * @I915_MMAP_NTYPES: number of types
 */
enum i915_mmap_type {
	I915_MMAP_TYPE_GTT,
	I915_MMAP_TYPE_WC,
	I915_MMAP_TYPE_WB,
	I915_MMAP_TYPE_UC,
	I915_MMAP_NTYPES,
};

struct i915_mmap_offset;

/**
 * struct i915_gem_object - a GEM object of this driver
 * @base: the DRM core object, embedded (handles, names, shmem file, resv)
 * @ops: the backing store: shmfs (drm_gem.c), user memory
 *	(i915_gem_userptr.c) or another driver's dma-buf (i915_gem_dmabuf.c)
 * @pages: page array while @pages_pin_count > 0, else NULL (also while
 *	pinned, for a backing store without struct pages: see @sgt)
 * @sgt: the DMA addresses of a backing store without pages of ours (an
 *	imported dma-buf's mapped attachment) while @pages_pin_count > 0
 * @userptr: the user memory of a USERPTR object
 * @pages_pin_count: users of @pages; at zero the pages go back to shmem
 *	and become pageable again
 * @read_domains: I915_GEM_DOMAIN_* bits whose caches may hold the data
 * @write_domain: the one I915_GEM_DOMAIN_* that may hold dirty data, or 0
 * @cache_level: I915_CACHING_NONE or I915_CACHING_CACHED (snooped)
 * @gtt_node: place in the GTT while bound (allocation under &i915_gtt.lock)
 * @gtt_dma: DMA address of each page while bound
 * @gtt_sgt: the mapping of @pages for the device while bound, one segment
 *	per run of contiguous pages (NULL when @sgt, the backing store's
 *	own mapping, gives the addresses)
 * @pin_count: user pins (I915_GEM_PIN); a pinned object never moves
 * @pin_owner: &i915_file.id of the file that holds the pins, 0 if none;
 *	the pins are dropped when that file closes
 * @gtt_link: entry in &i915_gtt.lru while bound (under &i915_gtt.lock)
 * @lru_listed: the stamp of its place in &i915_gtt.lru (under
 *	&i915_gtt.lock)
 * @lru_used: the stamp of its last use, later than @lru_listed when the
 *	list has not caught up with it yet (written under the dma_resv lock,
 *	read under &i915_gtt.lock)
 * @evicting: claimed by one evictor, which alone uses @evict_link; other
 *	evictors leave the object alone (under &i915_gtt.lock)
 * @evict_link: entry in the claiming evictor's list
 * @ww_link: entry in &i915_ww.locked while an acquire context holds the
 *	object's dma_resv lock
 * @exported: a dma-buf of the object was made: the fences of its
 *	dma_resv may leave the driver (set under the dma_resv lock, never
 *	cleared)
 * @madv: I915_MADV_WILLNEED, I915_MADV_DONTNEED (the contents may be
 *	dropped) or __I915_MADV_PURGED (they were: the pages are gone for
 *	good); under the dma_resv lock (see i915_gem_shrinker.c)
 * @populated: the object has pages in upstream's sense: they were got
 *	(pinned, read by pread, SET_DOMAIN) and not purged since; only such
 *	a DONTNEED object keeps its contents (under the dma_resv lock)
 * @link: entry in &i915_device.objects (under &i915_device.obj_lock)
 * @tiling: I915_TILING_* of the object (under the dma_resv lock)
 * @stride: bytes per row of tiles when tiled, else 0 (same lock)
 * @fence: the fence register describing it, or NULL (under
 *	&i915_fences.lock)
 * @mmo: the object's fake offset of each &enum i915_mmap_type, NULL until
 *	MMAP_OFFSET asks (set under the dma_resv lock, freed with the object)
 * @userfault: a GTT mmap fault mapped the normal binding into user space
 *	(under &i915_gtt.lock)
 * @userfault_link: entry in &i915_gtt.userfault while @userfault
 * @views: the object's partial views (under &i915_gtt.lock)
 * @gtt_written: a writable GTT mmap was faulted in since the last flush of
 *	its writes, whatever the write domain says (under the dma_resv lock;
 *	i915_gem_domain.c)
 * @lut_file: the one DRM file whose handle cache (&i915_file.lut) holds
 *	the object, or NULL: claimed with cmpxchg() under that file's
 *	table_lock, released under it when a handle of the object in that
 *	file is closed (drm_gem.c)
 * @lut_handle: the handle under which @lut_file's cache holds it (under
 *	@lut_file's table_lock)
 * @free_node: entry in &i915_device.free_list once its last reference
 *	went while the GPU still used it
 *
 * @pages, @sgt, @pages_pin_count, @read_domains, @write_domain,
 * @cache_level, @gtt_dma, @gtt_sgt, @pin_count and @pin_owner are
 * protected by the object's dma_resv lock (base.resv); binding and
 * unbinding hold it too.
 */
struct i915_gem_object {
	struct drm_gem_object base;
	struct page **pages;
	struct sg_table *sgt;
	struct sg_table *gtt_sgt;
	struct i915_gem_userptr userptr;
	unsigned int pages_pin_count;
	/*
	 * What an execbuffer reads of each object, in one cache line with
	 * the start and size of @gtt_node (i915_gem_exec_objects.c): with
	 * a thousand objects per execbuffer, every line touched per object
	 * counts.
	 */
	const struct i915_gem_object_ops *ops ____cacheline_aligned;
	u32 read_domains;
	u32 write_domain;
	u32 cache_level;
	unsigned int pin_count;
	u32 tiling;
	bool exported;
	u64 lru_used;
	struct drm_mm_node gtt_node;
	dma_addr_t *gtt_dma;
	u64 pin_owner;
	struct list_head gtt_link;
	u64 lru_listed;
	bool evicting;
	struct list_head evict_link;
	struct list_head ww_link;
	u32 madv;
	bool populated;
	struct list_head link;
	u32 stride;
	struct i915_fence_reg *fence;
	struct i915_mmap_offset *mmo[I915_MMAP_NTYPES];
	bool userfault;
	struct list_head userfault_link;
	struct list_head views;
	bool gtt_written;
	struct drm_file *lut_file;
	u32 lut_handle;
	struct llist_node free_node;
};

static inline struct i915_gem_object *to_i915_obj(struct drm_gem_object *obj)
{
	return container_of(obj, struct i915_gem_object, base);
}

static inline struct i915_device *obj_to_i915(struct i915_gem_object *obj)
{
	return to_i915(obj->base.dev);
}

/**
 * struct i915_ww - locking several objects with one ww acquire context
 * @ctx: the acquire context
 * @locked: the objects whose dma_resv locks @ctx holds, each with a
 *	reference (linked by &i915_gem_object.ww_link), but for those the
 *	caller locked with i915_ww_lock_borrowed(), which it keeps alive and
 *	unlocks itself
 * @contended: the object whose lock answered -EDEADLK, with a reference:
 *	i915_ww_backoff() waits for it before the caller starts over
 * @prelocked: the object i915_ww_backoff() locked (it is on @locked) and
 *	that no i915_ww_lock() of the new round has claimed yet, or NULL
 * @last_contended: the object of the last backoff, only compared (no
 *	reference), to count a context bouncing on the same lock
 * @await_frees: the device whose deferred frees an evictor found in its
 *	way (objects it cannot evict, whose free will unbind them), with
 *	-EDEADLK: i915_ww_backoff() waits for those frees once every lock
 *	is dropped; NULL otherwise
 */
struct i915_ww {
	struct ww_acquire_ctx ctx;
	struct list_head locked;
	struct i915_gem_object *contended;
	struct i915_gem_object *prelocked;
	const struct i915_gem_object *last_contended;
	struct i915_device *await_frees;
};

/* i915_getparam.c */
int i915_getparam_ioctl(struct drm_device *dev, void *data,
			struct drm_file *file);

/* i915_reg_read.c */
void i915_timestamp_init(struct i915_device *i915);
int i915_reg_read_ioctl(struct drm_device *dev, void *data,
			struct drm_file *file);

/* i915_ioc32.c: 32-bit compat ioctls */
long i915_compat_ioctl(struct file *filp, unsigned int cmd,
		       unsigned long arg);

/* i915_debugfs.c */
void i915_debugfs_init(struct drm_minor *minor);

/* i915_gpu_error.c: the error state of a hang */
void i915_error_capture(struct i915_device *i915, struct i915_request *guilty);
int i915_error_capture_object(struct i915_request *rq,
			      struct drm_gem_object *obj);
int i915_error_init(struct i915_device *i915);
void i915_error_register(struct i915_device *i915);
void i915_error_unregister(struct i915_device *i915);
extern const struct file_operations i915_error_state_fops;
extern const struct file_operations i915_gpu_info_fops;

/* i915_irq.c */
int i915_irq_init(struct i915_device *i915);
void i915_irq_fini(struct i915_device *i915);
void i915_irq_user_interrupt(struct i915_device *i915);
void i915_irq_clear_errors(struct i915_device *i915);
void i915_irq_suspend(struct i915_device *i915);
void i915_irq_resume(struct i915_device *i915);
void i915_irq_user_arm(struct i915_device *i915);
void i915_irq_user_disarm(struct i915_device *i915);

/* i915_gtt.c */
int i915_gtt_init(struct i915_device *i915);
void i915_gtt_fini(struct i915_device *i915);
int i915_gtt_bind_locked(struct i915_gem_object *obj,
			 const struct i915_gtt_place *place,
			 struct i915_ww *ww);
void i915_gtt_unbind_locked(struct i915_gem_object *obj);
int i915_gtt_unbind_idle_locked(struct i915_gem_object *obj);
void i915_gtt_touch(struct i915_gem_object *obj);
u64 i915_gtt_lru_stamp(struct i915_device *i915);
void i915_gtt_lru_settle(struct i915_gtt *gtt);
int i915_gtt_evict_all(struct i915_device *i915);
int i915_gtt_set_range(struct i915_device *i915, u64 start, u64 end);
void i915_gtt_suspend(struct i915_device *i915);
void i915_gtt_resume(struct i915_device *i915);

/**
 * i915_gtt_place_end - the end of the range a binding may take
 * @gtt: the GTT
 * @place: the binding's constraints
 *
 * Return: the end of the managed range, or @place's limit below it.
 */
static inline u64 i915_gtt_place_end(const struct i915_gtt *gtt,
				     const struct i915_gtt_place *place)
{
	return place->end ? min(place->end, gtt->end) : gtt->end;
}

/**
 * i915_gtt_placed_locked - is an object bound where a binding may be?
 * @gtt: the object's GTT (given, not found through the object's device
 *	pointer: a cache line less per object in an execbuffer's loop)
 * @obj: the object, its dma_resv lock held
 * @place: the size, alignment or fixed address the binding needs
 *
 * Inline, with i915_gtt_place_end(): an execbuffer asks it of each
 * object of its list.
 *
 * Return: true if @obj is bound and i915_gtt_bind_locked() with @place
 * would leave it where it is.
 */
static inline bool i915_gtt_placed_locked(const struct i915_gtt *gtt,
					  struct i915_gem_object *obj,
					  const struct i915_gtt_place *place)
{
	const struct drm_mm_node *node = &obj->gtt_node;
	/* An alignment is 0 or a power of two: the mask of the low bits. */
	u64 misalign = place->alignment - !!place->alignment;

	dma_resv_assert_held(obj->base.resv);

	/*
	 * The conditions combined with & rather than &&: one branch for the
	 * caller, not one per condition (under TCG each branch ends a
	 * translation block; Documentation/benchmarks.rst).  A node that is
	 * not allocated has fields that are merely stale, read harmlessly.
	 */
	return drm_mm_node_allocated(node) & (node->size >= place->size) &
	       (node->start + node->size <= i915_gtt_place_end(gtt, place)) &
	       ((node->start & misalign) == 0) &
	       (place->fixed ? node->start == place->offset : true);
}

/**
 * i915_gtt_mark_used - note a use of a bound object, lazily
 * @obj: the object, bound, its dma_resv lock held
 * @stamp: from i915_gtt_lru_stamp()
 *
 * Without the GTT's lock and without touching the list: the object
 * moves to its place in the LRU when the list is next settled
 * (i915_gtt_lru_settle()), as if i915_gtt_touch() had moved it now.
 * An execbuffer of a thousand objects would otherwise move a thousand
 * list entries, each touching two neighbours, under the GTT's lock.
 */
static inline void i915_gtt_mark_used(struct i915_gem_object *obj,
				      u64 stamp)
{
	dma_resv_assert_held(obj->base.resv);

	if (stamp > obj->lru_used)
		WRITE_ONCE(obj->lru_used, stamp);
}

/* i915_gtt.c: the driver's own GTT allocations */
int i915_gtt_map_kernel(struct i915_device *i915, const dma_addr_t *dma,
			unsigned int count, enum i915_gtt_caching caching,
			u32 *offset);
void i915_gtt_remap_kernel(struct i915_device *i915, u32 offset,
			   const dma_addr_t *dma, unsigned int count,
			   enum i915_gtt_caching caching);
struct sg_table *i915_gtt_dma_map_pages(struct device *dev,
					struct page **pages,
					unsigned int count, dma_addr_t *dma);
void i915_gtt_dma_unmap_pages(struct device *dev, struct sg_table *sgt);
void i915_gtt_unmap_kernel(struct i915_device *i915, u32 offset,
			   unsigned int count);

/* i915_gem_pin.c: PIN/UNPIN, pins owned by files */
int i915_gem_pin_ioctl(struct drm_device *dev, void *data,
		       struct drm_file *file);
int i915_gem_unpin_ioctl(struct drm_device *dev, void *data,
			 struct drm_file *file);
void i915_gem_unpin_all_locked(struct i915_gem_object *obj);
void i915_gem_file_unpin_all(struct i915_device *i915,
			     struct i915_file *fpriv);

/* i915_gem_init.c: GEM_INIT and the VT switch */
int i915_gem_init_ioctl(struct drm_device *dev, void *data,
			struct drm_file *file);
int i915_gem_entervt_ioctl(struct drm_device *dev, void *data,
			   struct drm_file *file);
int i915_gem_leavevt_ioctl(struct drm_device *dev, void *data,
			   struct drm_file *file);

/* i915_ring.c */
int i915_ring_init(struct i915_device *i915);
void i915_ring_fini(struct i915_device *i915);
int i915_ring_start(struct i915_device *i915);
u32 *i915_ring_begin(struct i915_ring *ring, unsigned int dwords);
void i915_ring_advance(struct i915_ring *ring, u32 *cs);
void i915_ring_rewind(struct i915_ring *ring);
void i915_ring_kick(struct i915_device *i915);
u32 i915_ring_acthd(struct i915_device *i915);
int i915_ring_restart(struct i915_device *i915, u32 head);
void i915_ring_release(struct i915_device *i915);
void i915_ring_freeze(struct i915_device *i915);
void i915_ring_suspend(struct i915_device *i915);
int i915_ring_resume(struct i915_device *i915);

/* i915_request.c: IRQ cookies as dma_fences */
int i915_request_init(struct i915_device *i915);
unsigned int i915_request_timeout_default(void);
void i915_request_fini(struct i915_device *i915);
void i915_request_quiesce(struct i915_device *i915);
void i915_request_suspend(struct i915_device *i915);
void i915_request_resume(struct i915_device *i915);
struct i915_request *i915_request_create(struct i915_device *i915,
					 unsigned int num_objects);
u32 *i915_request_commands(struct i915_request *rq, unsigned int dwords);
int i915_request_await(struct i915_request *rq, struct dma_fence *fence);
int i915_request_throttle(struct i915_device *i915, bool nonblock);
int i915_request_submit(struct i915_request *rq, struct drm_file *file);
void i915_request_discard(struct i915_request *rq);
void i915_request_put(struct i915_request *rq);
void i915_request_signal(struct i915_device *i915);
void i915_request_revoke(struct i915_ring *ring, struct i915_request *guilty);
void i915_request_wedge(struct i915_device *i915);
void i915_request_capture_error(struct i915_device *i915,
				struct i915_request *guilty);
int i915_request_unwedge(struct i915_device *i915);
bool i915_request_idle(struct i915_device *i915);
int i915_request_wait_idle(struct i915_device *i915);
void i915_request_retire(struct i915_device *i915);
void i915_request_retire_some(struct i915_device *i915, unsigned int max);
void i915_request_file_close(struct i915_file *fpriv);
void i915_request_print(struct i915_device *i915, struct drm_printer *p);
void i915_request_escape(struct i915_request *rq);
void i915_request_escape_fence(struct dma_fence *fence);
int i915_request_module_init(void);
void i915_request_module_exit(void);

/* i915_reset.c: GPU reset, hang policy, reset statistics */
bool i915_reset_enabled(void);
void i915_reset_init(struct i915_device *i915);
void i915_reset_handle(struct i915_device *i915);
void i915_reset_expired(struct i915_device *i915);
void i915_reset_wedge(struct i915_device *i915);
int i915_reset_debugfs_set(struct i915_device *i915, u64 engines);
int i915_reset_stats_ioctl(struct drm_device *dev, void *data,
			   struct drm_file *file);

/* i915_gem_context.c: the default context's parameters, no other contexts */
int i915_context_getparam_ioctl(struct drm_device *dev, void *data,
				struct drm_file *file);
int i915_context_setparam_ioctl(struct drm_device *dev, void *data,
				struct drm_file *file);
int i915_context_create_ioctl(struct drm_device *dev, void *data,
			      struct drm_file *file);
int i915_context_destroy_ioctl(struct drm_device *dev, void *data,
			       struct drm_file *file);
int i915_vm_create_ioctl(struct drm_device *dev, void *data,
			 struct drm_file *file);
int i915_vm_destroy_ioctl(struct drm_device *dev, void *data,
			  struct drm_file *file);

/* i915_query.c: I915_QUERY */
int i915_query_ioctl(struct drm_device *dev, void *data,
		     struct drm_file *file);

/* i915_file.c: per-file state */
int i915_gem_open(struct drm_device *dev, struct drm_file *file);
void i915_gem_postclose(struct drm_device *dev, struct drm_file *file);

/* i915_gem_wait.c: waiting for GPU work */
int i915_gem_busy_ioctl(struct drm_device *dev, void *data,
			struct drm_file *file);
int i915_gem_wait_ioctl(struct drm_device *dev, void *data,
			struct drm_file *file);
int i915_gem_throttle_ioctl(struct drm_device *dev, void *data,
			    struct drm_file *file);
bool i915_gem_object_ring_busy(struct i915_gem_object *obj);
void i915_gem_object_ring_wait(struct i915_gem_object *obj);

/* i915_gem_fence.c: fence registers, bit-6 swizzling */
int i915_fence_init(struct i915_device *i915);
void i915_fence_fini(struct i915_device *i915);
void i915_fence_restore(struct i915_device *i915);
u32 i915_fence_swizzle(struct i915_device *i915, u32 tiling);
bool i915_fence_swizzle_unknown(struct i915_device *i915);
u64 i915_gem_tile_row_size(struct i915_gem_object *obj);
u64 i915_gem_fence_size(struct i915_device *i915, u64 size, u32 tiling,
			u32 stride);
u64 i915_gem_fence_alignment(struct i915_device *i915, u64 size, u32 tiling,
			     u32 stride);
void i915_gem_object_fence_place(struct i915_gem_object *obj,
				 struct i915_gtt_place *place);
bool i915_gem_object_fence_fits(struct i915_gem_object *obj, u32 tiling,
				u32 stride);
int i915_gem_object_pin_fence(struct i915_gem_object *obj);
void i915_gem_object_unpin_fence(struct i915_gem_object *obj);
int i915_gem_object_put_fence(struct i915_gem_object *obj);
void i915_gem_object_release_fence(struct i915_gem_object *obj);
void i915_gem_fence_zap_gtt_mmaps(struct i915_gem_object *obj);
int i915_gem_view_pin_fence(struct i915_fence_view *fv);
void i915_gem_view_unpin_fence(struct i915_fence_view *fv);
void i915_fences_lock(struct i915_device *i915);
void i915_fences_unlock(struct i915_device *i915);
void i915_gem_view_release_fence_locked(struct i915_device *i915,
					struct i915_fence_view *fv);
void i915_fence_print(struct i915_device *i915, struct drm_printer *p);

/* i915_gem_tiling.c */
int i915_gem_set_tiling_ioctl(struct drm_device *dev, void *data,
			      struct drm_file *file);
int i915_gem_get_tiling_ioctl(struct drm_device *dev, void *data,
			      struct drm_file *file);

/* i915_gem_execbuffer.c */
int i915_gem_execbuffer_ioctl(struct drm_device *dev, void *data,
			      struct drm_file *file);
int i915_gem_execbuffer2_ioctl(struct drm_device *dev, void *data,
			       struct drm_file *file);
void i915_exec_fini(struct i915_device *i915);

/* i915_gem_relocate.c (the rest is in i915_gem_execbuffer.h) */
struct seq_file;
void i915_reloc_stats(struct seq_file *m);

/* i915_gem_evict.c: making room in the GTT */
bool i915_gem_evict_claim(struct i915_gem_object *obj, struct list_head *list);
void i915_gem_evict_release(struct i915_gem_object *obj);
int i915_gem_evict_something(struct i915_device *i915, struct i915_ww *ww,
			     const struct i915_gtt_place *place,
			     unsigned long color);
int i915_gem_evict_for_node(struct i915_device *i915, struct i915_ww *ww,
			    const struct i915_gtt_place *place,
			    unsigned long color);

/* i915_gem_ww.c: several dma_resv locks at once */
void i915_ww_init(struct i915_ww *ww);
int i915_ww_lock(struct i915_ww *ww, struct i915_gem_object *obj);
void i915_ww_unlock(struct i915_ww *ww, struct i915_gem_object *obj);
void i915_ww_unlock_all(struct i915_ww *ww);
int i915_ww_backoff(struct i915_ww *ww);
void i915_ww_fini(struct i915_ww *ww);
bool i915_ww_holds(const struct i915_ww *ww,
		   const struct i915_gem_object *obj);
void i915_ww_stats(u64 *backoffs, u64 *repeats);

/**
 * i915_ww_lock_borrowed - lock an object the caller keeps alive
 * @ww: the context
 * @obj: the object, which the caller keeps alive (a reference, or its
 *	file's handle: see &i915_file.exec_sem) until it has unlocked it
 *	(dma_resv_unlock()), before any i915_ww_backoff() or i915_ww_fini()
 *	of @ww
 *
 * i915_ww_lock() without a reference and without the entry on
 * &i915_ww.locked, for a caller that locks a list of its own (an
 * execbuffer's thousand objects): the context neither keeps nor drops
 * such a lock.  The object i915_ww_backoff() kept locked is claimed as
 * by i915_ww_lock() and becomes the caller's to unlock.
 *
 * Return: as i915_ww_lock(); on -EDEADLK the context has taken the
 * contended object's reference, as there.  Inline: an execbuffer calls
 * it for each object of its list.
 */
static inline int i915_ww_lock_borrowed(struct i915_ww *ww,
					struct i915_gem_object *obj)
{
	int ret;

	if (obj == ww->prelocked) {
		ww->prelocked = NULL;
		list_del(&obj->ww_link);
		drm_gem_object_put(&obj->base); /* the caller's keeps it */
		return 0;
	}

	/*
	 * A free lock is taken with a try, which skips might_sleep()'s
	 * call into the scheduler (the caller gives the CPU up now and
	 * then: i915_exec_lock_and_bind()); a held one goes the whole way.
	 * Not where ww_mutex_lock() answers -EDEADLK at random on purpose
	 * (DEBUG_WW_MUTEX_SLOWPATH, which PROVE_LOCKING brings): there
	 * every lock takes it, so that the debug lane runs the backoff.
	 */
	if (!IS_ENABLED(CONFIG_DEBUG_WW_MUTEX_SLOWPATH) &&
	    ww_mutex_trylock(&obj->base.resv->lock, &ww->ctx))
		return 0;
	ret = dma_resv_lock_interruptible(obj->base.resv, &ww->ctx);
	if (ret == -EDEADLK) {
		drm_gem_object_get(&obj->base);
		ww->contended = obj;
	}
	return ret;
}

/* drm_gem.c: the device-independent half (objects on shmfs, handles) */
struct i915_gem_object *i915_gem_object_create(struct i915_device *i915,
					       u64 size);
int i915_gem_object_create_handle(struct drm_file *file,
				  struct i915_gem_object *obj, u32 *handle);
struct i915_gem_object *i915_gem_object_lookup(struct drm_file *file,
					       u32 handle);
void i915_gem_lut_fini(struct i915_file *fpriv);
void i915_gem_free_init(struct i915_device *i915);
void i915_gem_free_flush(struct i915_device *i915);
bool i915_gem_free_pending(struct i915_device *i915);
int i915_gem_free_wait(struct i915_device *i915);
unsigned int i915_gem_object_lookup_many(struct drm_file *file,
					 unsigned int n, const u32 *handle,
					 struct i915_gem_object **obj,
					 size_t stride);
int i915_gem_object_pin_pages(struct i915_gem_object *obj);
void i915_gem_object_unpin_pages(struct i915_gem_object *obj);
int i915_gem_object_pread(struct i915_gem_object *obj, u64 offset,
			  void __user *data, u64 size, bool clflush);
int i915_gem_object_pwrite(struct i915_gem_object *obj, u64 offset,
			   const void __user *data, u64 size, bool nontemporal);
unsigned long i915_gem_object_mmap(struct i915_gem_object *obj, u64 offset,
				   u64 size, bool wc);
struct i915_gem_object *
i915_gem_object_create_private(struct i915_device *i915, u64 size,
			       const struct i915_gem_object_ops *ops,
			       struct dma_resv *resv);

/* i915_gem_userptr.c: objects on user memory */
int i915_gem_userptr_ioctl(struct drm_device *dev, void *data,
			   struct drm_file *file);
int i915_gem_userptr_prepare(struct i915_gem_object *obj);
int i915_gem_userptr_validate(struct i915_gem_object *obj);
bool i915_gem_userptr_stale(struct i915_gem_object *obj);
void i915_gem_userptr_init(struct i915_device *i915);

extern const struct i915_gem_object_ops i915_gem_userptr_ops;

/*
 * By its backing store: @ops shares a cache line with what an execbuffer
 * reads of every object anyway (&struct i915_gem_object).
 */
static inline bool i915_gem_object_is_userptr(const struct i915_gem_object *obj)
{
	return obj->ops == &i915_gem_userptr_ops;
}

/* i915_gem_dmabuf.c: another driver's dma-bufs */
struct drm_gem_object *i915_gem_prime_import(struct drm_device *dev,
					     struct dma_buf *dma_buf);
int i915_gem_dmabuf_copy(struct i915_gem_object *obj, u64 offset,
			 char __user *user, u64 size, bool write);

/* i915_gem.c: the Intel half of object-level GEM (ioctls) */
int i915_gem_init(struct i915_device *i915);
void i915_gem_fini(struct i915_device *i915);
int i915_gem_create_ioctl(struct drm_device *dev, void *data,
			  struct drm_file *file);
int i915_gem_create_ext_ioctl(struct drm_device *dev, void *data,
			      struct drm_file *file);
int i915_gem_pread_ioctl(struct drm_device *dev, void *data,
			 struct drm_file *file);
int i915_gem_pwrite_ioctl(struct drm_device *dev, void *data,
			  struct drm_file *file);
int i915_gem_mmap_ioctl(struct drm_device *dev, void *data,
			struct drm_file *file);
int i915_gem_sw_finish_ioctl(struct drm_device *dev, void *data,
			     struct drm_file *file);
int i915_gem_get_aperture_ioctl(struct drm_device *dev, void *data,
				struct drm_file *file);
int i915_gem_set_caching_ioctl(struct drm_device *dev, void *data,
			       struct drm_file *file);
int i915_gem_get_caching_ioctl(struct drm_device *dev, void *data,
			       struct drm_file *file);
int i915_gem_drop_caches(struct i915_device *i915, u64 mask);
u64 i915_gem_drop_caches_supported(void);
void i915_gem_print_objects(struct i915_device *i915, struct drm_printer *p);

/* i915_gem_mman.c: GTT, WC and offset mappings */
int i915_gem_mmap_offset_ioctl(struct drm_device *dev, void *data,
			       struct drm_file *file);
int i915_gem_mmap(struct file *filp, struct vm_area_struct *vma);
void i915_gem_object_mmap_close(struct drm_gem_object *gem,
				struct drm_file *file);
void i915_gem_object_mmap_free(struct i915_gem_object *obj);
void i915_gem_object_release_mmap_gtt(struct i915_gem_object *obj);
void i915_gem_object_zap_mmap_gtt(struct i915_gem_object *obj);
void i915_gem_mmap_zap_range(struct i915_gem_object *obj, pgoff_t first,
			     unsigned int count);
void i915_gem_mmap_revoke_all(struct i915_device *i915);
unsigned int i915_gem_mmap_release_views(struct i915_device *i915);
bool i915_gem_mmap_node_is_view(struct i915_device *i915,
				const struct drm_mm_node *node);
/* i915_gem_shrinker.c: MADVISE, purging, the shrinker */
int i915_gem_madvise_ioctl(struct drm_device *dev, void *data,
			   struct drm_file *file);
bool i915_gem_object_is_shmem(const struct i915_gem_object *obj);
int i915_gem_object_check_pages(struct i915_gem_object *obj, bool populate);
unsigned long i915_gem_shrink_all(struct i915_device *i915);
int i915_gem_shrinker_init(struct i915_device *i915);
void i915_gem_shrinker_fini(struct i915_device *i915);

/* i915_gem_domain.c: memory domains (section 6 of the design) */
int i915_gem_object_set_to_cpu_domain(struct i915_gem_object *obj,
				      bool write);
int i915_gem_object_set_to_gtt_domain(struct i915_gem_object *obj,
				      bool write);
int i915_gem_object_wait(struct i915_gem_object *obj, bool write);
void i915_gem_object_flush_for_release(struct i915_gem_object *obj);
int i915_gem_object_prepare_read(struct i915_gem_object *obj, bool *clflush);
int i915_gem_object_prepare_write(struct i915_gem_object *obj,
				  bool *nontemporal);
void i915_gem_object_finish_write(struct i915_gem_object *obj);
int i915_gem_object_flush_gtt_writes(struct i915_gem_object *obj);
int i915_gem_object_flush_if_pinned(struct i915_gem_object *obj);
int i915_gem_object_set_cache_level(struct i915_gem_object *obj, u32 level);
void i915_gem_object_flush_cpu_domains(struct i915_gem_object *obj);
int i915_gem_set_domain_ioctl(struct drm_device *dev, void *data,
			      struct drm_file *file);

/**
 * i915_gem_object_gpu_domains - section 7.3.1 B for one object
 * @obj: an object of an execbuffer, its dma_resv lock held
 * @read: in: the GPU domains the execbuffer reads it through; out: the
 *	read domains it will have once the batch is queued
 * @write: in: the GPU domain it writes it through, or 0; out: the write
 *	domain it will have
 * @invalidate: gathers the GPU caches the MI_FLUSH must invalidate
 * @flush: gathers the GPU caches the MI_FLUSH must flush
 *
 * A write domain other than the new read domains is flushed: a CPU one
 * right here (clflush and chipset flush), a GPU one by the MI_FLUSH; new
 * read domains are invalidated.  Without a new write domain the object
 * keeps its old read domains (the GPU only reads it).  The domains are
 * committed with i915_gem_object_set_gpu_domains() once the batch is in
 * the ring; if it never gets there, the CPU flushes done here were merely
 * early (the object then has no write domain).  Inline: an execbuffer
 * calls it for each object of its list.
 */
static inline void i915_gem_object_gpu_domains(struct i915_gem_object *obj,
					       u32 *read, u32 *write,
					       u32 *invalidate, u32 *flush)
{
	u32 old_write = obj->write_domain;
	u32 stale;

	dma_resv_assert_held(obj->base.resv);

	/* (The flush leaves the read domains as they are.) */
	if (unlikely(old_write & I915_GEM_CPU_DOMAINS)) {
		i915_gem_object_flush_cpu_domains(obj);
		old_write = 0;
	}
	/*
	 * The rest with masks instead of branches (see
	 * i915_gtt_placed_locked()): @stale is all ones when a GPU write
	 * domain other than the new read domains must be flushed.
	 */
	*read |= obj->read_domains & -(u32)!*write;
	stale = -(u32)((old_write != 0) & (old_write != *read));
	*flush |= old_write & stale;
	*invalidate |= (*read & ~old_write & stale) |
		       (*read & ~obj->read_domains);

	/* A GPU write domain nobody flushed stays the write domain. */
	*write = *write ?: old_write & ~stale;
}

/**
 * i915_gem_object_set_gpu_domains - commit the domains of execution
 * @obj: the object, its dma_resv lock held, its batch in the ring
 * @read: read domains from i915_gem_object_gpu_domains()
 * @write: write domain from i915_gem_object_gpu_domains()
 *
 * Inline: an execbuffer calls it for each object of its list.
 */
static inline void i915_gem_object_set_gpu_domains(struct i915_gem_object *obj,
						   u32 read, u32 write)
{
	dma_resv_assert_held(obj->base.resv);

	obj->read_domains = read;
	obj->write_domain = write;
}

#endif /* _I915_DRV_H_ */
