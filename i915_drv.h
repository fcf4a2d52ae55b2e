/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DOC: i915gem driver-wide types
 *
 * The device, file and object structures of the driver and the private
 * prototypes, grouped by the file that defines them.  Hardware facts live
 * in include/i915_reg.h; the hardware seam in i915_hw.h.
 */
#ifndef _I915_DRV_H_
#define _I915_DRV_H_

#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_mm.h>
#include <drm/drm_print.h>
#include <linux/dma-fence.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

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
 */
struct i915_device_info {
	u8 gen;
	bool is_g4x;
	bool is_mobile;
	bool has_snoop;
	bool hws_needs_physical;
	u8 dma_bits;
	u8 num_fences;
};

/**
 * struct i915_gtt - the global GTT as the driver manages it
 * @mm: allocator over [start, end) of the graphics address space
 * @start: first byte of the managed range
 * @end: end of the managed range (exclusive)
 * @total: bytes the hardware GTT maps
 * @scratch_page: zeroed page that unused entries point at
 * @scratch_dma: DMA address of @scratch_page
 * @pinned_bytes: bytes of objects pinned in the GTT
 * @kernel_start: start of the range the driver keeps for itself (ring,
 *	status page), between the managed range and the last guard page
 * @kernel_next: next free byte of that range
 * @lock: protects @mm, @start, @end, @pinned_bytes and every object's
 *	GTT node; taken after an object's dma_resv lock, never before
 */
struct i915_gtt {
	struct drm_mm mm;
	u64 start;
	u64 end;
	u64 total;
	struct page *scratch_page;
	dma_addr_t scratch_dma;
	u64 pinned_bytes;
	u64 kernel_start;
	u64 kernel_next;
	struct mutex lock; /* see the lock order above */
};

/**
 * struct i915_ring - the render ring and its status page
 * @size: ring size in bytes
 * @gtt_offset: GTT address of the ring
 * @pages: pages backing the ring
 * @dma: DMA address of each page
 * @vaddr: write-combining kernel mapping of the ring
 * @tail: byte offset of the next free dword (under @lock)
 * @hws_page: the hardware status page
 * @hws_dma: DMA address of @hws_page
 * @hws_gtt: GTT address of @hws_page where the GPU wants a GTT address
 * @hws: CPU mapping of @hws_page
 * @lock: serialises emission into the ring: @tail, @next_seqno and the
 *	order of @requests; outermost of the driver's locks, taken after
 *	every dma_resv lock of an execbuffer
 * @fence_lock: protects @requests and signals fences; taken in hard-IRQ
 *	context, so always with interrupts disabled
 * @requests: emitted requests in seqno order, each holding a reference
 * @fence_context: dma_fence context of the ring
 * @next_seqno: seqno of the next request (under @lock)
 * @wedged: the GPU hung; every request fails with -EIO from now on
 * @retire_work: drops requests that have completed
 * @hangcheck_work: notices when the ring stops making progress
 * @hang_seqno: breadcrumb seen at the last hang check
 * @hang_stalls: consecutive hang checks that saw no progress
 */
struct i915_ring {
	u32 size;
	u32 gtt_offset;
	struct page **pages;
	dma_addr_t *dma;
	u32 *vaddr;
	u32 tail;
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
	struct work_struct retire_work;
	struct delayed_work hangcheck_work;
	u32 hang_seqno;
	unsigned int hang_stalls;
};

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
 * @obj_lock: protects @objects, @object_count and @object_bytes; a
 *	spinlock taken with nothing nested inside it
 * @objects: every live &struct i915_gem_object of this device
 * @object_count: number of live objects
 * @object_bytes: total size of live objects
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

	spinlock_t obj_lock; /* innermost; guards the object list */
	struct list_head objects;
	u32 object_count;
	u64 object_bytes;
};

static inline struct i915_device *to_i915(const struct drm_device *dev)
{
	return container_of(dev, struct i915_device, drm);
}

/* THROTTLE waits for the caller's requests older than this. */
#define I915_THROTTLE_MS	20

/**
 * struct i915_file - per-client state
 * @file: the DRM file this belongs to
 * @lock: protects @requests
 * @requests: this client's requests still running, oldest first
 */
struct i915_file {
	struct drm_file *file;
	spinlock_t lock; /* see above */
	struct list_head requests;
};

/**
 * struct i915_request - one submission to the ring: the design's IRQ cookie
 * @fence: signalled once the ring's breadcrumb reaches @fence.seqno
 * @ring: the ring it runs on
 * @link: entry in &i915_ring.requests (under &i915_ring.fence_lock)
 * @file: the client that submitted it, NULL after the client closed
 *	(under &i915_file.lock)
 * @client_link: entry in &i915_file.requests (under &i915_file.lock)
 * @tail: ring offset just past the request; the ring has that much room
 *	again once it completed
 * @emitted: jiffies when it was submitted
 */
struct i915_request {
	struct dma_fence fence;
	struct i915_ring *ring;
	struct list_head link;
	struct i915_file *file;
	struct list_head client_link;
	u32 tail;
	unsigned long emitted;
};

/**
 * struct i915_gem_object - a GEM object of this driver
 * @base: the DRM core object, embedded (handles, names, shmem file, resv)
 * @pages: page array while @pages_pin_count > 0, else NULL
 * @pages_pin_count: users of @pages; at zero the pages go back to shmem
 *	and become pageable again
 * @read_domains: I915_GEM_DOMAIN_* bits whose caches may hold the data
 * @write_domain: the one I915_GEM_DOMAIN_* that may hold dirty data, or 0
 * @cache_level: I915_CACHING_NONE or I915_CACHING_CACHED (snooped)
 * @gtt_node: place in the GTT while bound (allocation under &i915_gtt.lock)
 * @gtt_dma: DMA address of each page while bound
 * @pin_count: user pins (I915_GEM_PIN); a pinned object never moves
 * @pin_file: the file that holds the pins
 * @evict_link: entry in a local eviction list (under &i915_gtt.lock)
 * @link: entry in &i915_device.objects (under &i915_device.obj_lock)
 *
 * @pages, @pages_pin_count, @read_domains, @write_domain, @cache_level,
 * @gtt_dma, @pin_count and @pin_file are protected by the object's dma_resv
 * lock (base.resv); binding and unbinding hold it too.
 */
struct i915_gem_object {
	struct drm_gem_object base;
	struct page **pages;
	unsigned int pages_pin_count;
	u32 read_domains;
	u32 write_domain;
	u32 cache_level;
	struct drm_mm_node gtt_node;
	dma_addr_t *gtt_dma;
	unsigned int pin_count;
	struct drm_file *pin_file;
	struct list_head evict_link;
	struct list_head link;
};

static inline struct i915_gem_object *to_i915_obj(struct drm_gem_object *obj)
{
	return container_of(obj, struct i915_gem_object, base);
}

static inline struct i915_device *obj_to_i915(struct i915_gem_object *obj)
{
	return to_i915(obj->base.dev);
}

/* i915_drv.c */
extern int i915_sim_param;

/* i915_getparam.c */
int i915_getparam_ioctl(struct drm_device *dev, void *data,
			struct drm_file *file);
long i915_compat_ioctl(struct file *filp, unsigned int cmd,
		       unsigned long arg);

/* i915_debugfs.c */
void i915_debugfs_init(struct drm_minor *minor);

/* i915_irq.c */
int i915_irq_init(struct i915_device *i915);
void i915_irq_fini(struct i915_device *i915);
void i915_irq_user_interrupt(struct i915_device *i915);

/* i915_gtt.c */
int i915_gtt_init(struct i915_device *i915);
void i915_gtt_fini(struct i915_device *i915);
int i915_gtt_bind_locked(struct i915_gem_object *obj, u64 alignment);
void i915_gtt_unbind_locked(struct i915_gem_object *obj);
int i915_gtt_evict_all(struct i915_device *i915);
int i915_gem_init_ioctl(struct drm_device *dev, void *data,
			struct drm_file *file);
int i915_gem_pin_ioctl(struct drm_device *dev, void *data,
		       struct drm_file *file);
int i915_gem_unpin_ioctl(struct drm_device *dev, void *data,
			 struct drm_file *file);
int i915_gem_entervt_ioctl(struct drm_device *dev, void *data,
			   struct drm_file *file);
int i915_gem_leavevt_ioctl(struct drm_device *dev, void *data,
			   struct drm_file *file);

/* i915_gtt.c: the driver's own GTT allocations */
int i915_gtt_map_kernel(struct i915_device *i915, const dma_addr_t *dma,
			unsigned int count, enum i915_gtt_caching caching,
			u32 *offset);

/* i915_ring.c */
int i915_ring_init(struct i915_device *i915);
void i915_ring_fini(struct i915_device *i915);
int i915_ring_start(struct i915_device *i915);
u32 *i915_ring_begin(struct i915_ring *ring, unsigned int dwords);
void i915_ring_advance(struct i915_ring *ring, u32 *cs);
void i915_ring_kick(struct i915_device *i915);

/* i915_request.c: IRQ cookies as dma_fences */
int i915_request_init(struct i915_device *i915);
void i915_request_fini(struct i915_device *i915);
void i915_request_quiesce(struct i915_device *i915);
struct i915_request *i915_request_emit(struct i915_device *i915,
				       struct drm_file *file);
void i915_request_put(struct i915_request *rq);
void i915_request_signal(struct i915_device *i915);
void i915_request_wedge(struct i915_device *i915);
bool i915_request_idle(struct i915_device *i915);
int i915_request_wait_idle(struct i915_device *i915);
void i915_request_file_close(struct i915_file *fpriv);

/* i915_gem_wait.c: waiting for GPU work, per-file state */
int i915_gem_open(struct drm_device *dev, struct drm_file *file);
void i915_gem_postclose(struct drm_device *dev, struct drm_file *file);
int i915_gem_busy_ioctl(struct drm_device *dev, void *data,
			struct drm_file *file);
int i915_gem_wait_ioctl(struct drm_device *dev, void *data,
			struct drm_file *file);
int i915_gem_throttle_ioctl(struct drm_device *dev, void *data,
			    struct drm_file *file);

/* i915_gem_execbuffer.c */
int i915_gem_execbuffer_ioctl(struct drm_device *dev, void *data,
			      struct drm_file *file);
int i915_gem_execbuffer2_ioctl(struct drm_device *dev, void *data,
			       struct drm_file *file);

/* drm_gem.c: the device-independent half (objects on shmfs, handles) */
struct i915_gem_object *i915_gem_object_create(struct i915_device *i915,
					       u64 size);
int i915_gem_object_create_handle(struct drm_file *file,
				  struct i915_gem_object *obj, u32 *handle);
struct i915_gem_object *i915_gem_object_lookup(struct drm_file *file,
					       u32 handle);
int i915_gem_object_pin_pages(struct i915_gem_object *obj);
void i915_gem_object_unpin_pages(struct i915_gem_object *obj);
int i915_gem_object_pread(struct i915_gem_object *obj, u64 offset,
			  void __user *data, u64 size, bool clflush);
int i915_gem_object_pwrite(struct i915_gem_object *obj, u64 offset,
			   const void __user *data, u64 size, bool nontemporal);
unsigned long i915_gem_object_mmap(struct i915_gem_object *obj, u64 offset,
				   u64 size, bool wc);

/* i915_gem.c: the Intel half of object-level GEM (ioctls) */
int i915_gem_init(struct i915_device *i915);
void i915_gem_fini(struct i915_device *i915);
int i915_gem_create_ioctl(struct drm_device *dev, void *data,
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
int i915_gem_object_flush_if_pinned(struct i915_gem_object *obj);
int i915_gem_object_set_cache_level(struct i915_gem_object *obj, u32 level);
int i915_gem_set_domain_ioctl(struct drm_device *dev, void *data,
			      struct drm_file *file);

#endif /* _I915_DRV_H_ */
