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
#include <linux/mutex.h>
#include <linux/spinlock.h>

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
	struct mutex lock; /* see the lock order above */
};

/**
 * struct i915_device - one bound Gen3/Gen4 GPU
 * @drm: the DRM device, embedded
 * @info: static facts about this GPU model
 * @hw: the hardware seam (real silicon or the model)
 * @gtt: graphics address space
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
 */
struct i915_file {
	struct drm_file *file;
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
int i915_gem_set_domain_ioctl(struct drm_device *dev, void *data,
			      struct drm_file *file);

#endif /* _I915_DRV_H_ */
