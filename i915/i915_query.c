// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: I915_QUERY
 *
 * DRM_IOCTL_I915_QUERY with upstream's item protocol: the ioctl walks
 * &drm_i915_query.items_ptr, and each item gets its own answer in its
 * @length: the bytes written on success, the bytes needed when it came in
 * as 0 (nothing else is read or written then), or a negative errno for
 * that item alone (-EINVAL for an unknown id, bad item flags, a length
 * too small or non-zero reserved fields of the header; -ENODEV for what
 * these GPUs do not have).  The ioctl itself fails only for its own flags
 * (-EINVAL), a query id of 0 (-EINVAL) or an item array it cannot read
 * or write back (-EFAULT); items before that keep their answers.
 *
 * What upstream 6.1 answers on Gen3/Gen4 is answered here:
 *
 *  - ENGINE_INFO: one engine, RENDER instance 0, logical instance 0 with
 *    I915_ENGINE_INFO_HAS_LOGICAL_INSTANCE, no capabilities;
 *  - MEMORY_REGIONS: system memory alone (class SYSTEM, instance 0);
 *    probed and CPU-visible sizes are the RAM of the machine (upstream's
 *    totalram_pages at load; read at query time here), unallocated sizes
 *    the same (upstream never counts system memory allocations);
 *  - TOPOLOGY_INFO (no slice/subslice/EU information before Gen7),
 *    PERF_CONFIG (no OA unit), HWCONFIG_BLOB (no GuC) and
 *    GEOMETRY_SUBSLICES (Gen12.50+): -ENODEV, after upstream's flag checks
 *    where upstream makes them first.
 */

#include <linux/mm.h>
#include <linux/nospec.h>
#include <linux/overflow.h>
#include <linux/uaccess.h>
#include <uapi/drm/i915_drm.h>

#include "i915_drv.h"

/*
 * The common start of a structured answer: @len is the whole answer's
 * size.  Returns @len for a sizing call (length 0), -EINVAL for too small
 * a length, 0 once @hdr_size bytes of the user's header are in @hdr.
 */
static int query_header(const struct drm_i915_query_item *item, u32 len,
			void *hdr, size_t hdr_size)
{
	if (!item->length)
		return len;
	if (item->length < len)
		return -EINVAL;
	if (copy_from_user(hdr, u64_to_user_ptr(item->data_ptr), hdr_size))
		return -EFAULT;
	return 0;
}

static int query_topology(struct i915_device *i915,
			  struct drm_i915_query_item *item)
{
	if (item->flags)
		return -EINVAL;
	return -ENODEV;		/* no SSEU information before Gen7 */
}

static int query_engine_info(struct i915_device *i915,
			     struct drm_i915_query_item *item)
{
	struct drm_i915_query_engine_info __user *uq =
		u64_to_user_ptr(item->data_ptr);
	struct drm_i915_engine_info info = {};
	struct drm_i915_query_engine_info q;
	u32 len = struct_size(uq, engines, 1);
	int ret;

	if (item->flags)
		return -EINVAL;

	ret = query_header(item, len, &q, sizeof(q));
	if (ret)
		return ret;
	if (q.num_engines || q.rsvd[0] || q.rsvd[1] || q.rsvd[2])
		return -EINVAL;

	info.engine.engine_class = I915_ENGINE_CLASS_RENDER;
	info.engine.engine_instance = 0;
	info.flags = I915_ENGINE_INFO_HAS_LOGICAL_INSTANCE;
	info.logical_instance = 0;
	if (copy_to_user(&uq->engines[0], &info, sizeof(info)))
		return -EFAULT;

	q.num_engines = 1;
	if (copy_to_user(uq, &q, sizeof(q)))
		return -EFAULT;
	return len;
}

static int query_perf_config(struct i915_device *i915,
			     struct drm_i915_query_item *item)
{
	switch (item->flags) {
	case DRM_I915_QUERY_PERF_CONFIG_LIST:
	case DRM_I915_QUERY_PERF_CONFIG_DATA_FOR_UUID:
	case DRM_I915_QUERY_PERF_CONFIG_DATA_FOR_ID:
		return -ENODEV;	/* no OA unit */
	default:
		return -EINVAL;
	}
}

static int query_memory_regions(struct i915_device *i915,
				struct drm_i915_query_item *item)
{
	struct drm_i915_query_memory_regions __user *uq =
		u64_to_user_ptr(item->data_ptr);
	struct drm_i915_memory_region_info info = {};
	struct drm_i915_query_memory_regions q;
	u32 len = struct_size(uq, regions, 1);
	int ret, i;

	if (item->flags)
		return -EINVAL;

	ret = query_header(item, len, &q, sizeof(q));
	if (ret)
		return ret;
	if (q.num_regions)
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(q.rsvd); i++)
		if (q.rsvd[i])
			return -EINVAL;

	info.region.memory_class = I915_MEMORY_CLASS_SYSTEM;
	info.region.memory_instance = 0;
	info.probed_size = (u64)totalram_pages() << PAGE_SHIFT;
	info.probed_cpu_visible_size = info.probed_size;
	info.unallocated_size = info.probed_size;
	info.unallocated_cpu_visible_size = info.probed_size;
	if (copy_to_user(&uq->regions[0], &info, sizeof(info)))
		return -EFAULT;

	q.num_regions = 1;
	if (copy_to_user(uq, &q, sizeof(q)))
		return -EFAULT;
	return len;
}

static int query_hwconfig_blob(struct i915_device *i915,
			       struct drm_i915_query_item *item)
{
	return -ENODEV;		/* no GuC, no blob */
}

static int query_geometry_subslices(struct i915_device *i915,
				    struct drm_i915_query_item *item)
{
	return -ENODEV;		/* Gen12.50+ */
}

/* Indexed by query id - 1, as the uapi numbers them. */
static int (* const query_fns[])(struct i915_device *i915,
				 struct drm_i915_query_item *item) = {
	query_topology,			/* DRM_I915_QUERY_TOPOLOGY_INFO */
	query_engine_info,		/* DRM_I915_QUERY_ENGINE_INFO */
	query_perf_config,		/* DRM_I915_QUERY_PERF_CONFIG */
	query_memory_regions,		/* DRM_I915_QUERY_MEMORY_REGIONS */
	query_hwconfig_blob,		/* DRM_I915_QUERY_HWCONFIG_BLOB */
	query_geometry_subslices,	/* DRM_I915_QUERY_GEOMETRY_SUBSLICES */
};

/**
 * i915_query_ioctl - I915_QUERY: answer each item of the array
 * @dev: DRM device
 * @data: &struct drm_i915_query
 * @file: DRM file
 *
 * Return: 0 with each item's @length its answer (see the DOC above);
 * -EINVAL for flags or a query id of 0; -EFAULT for an item array that
 * cannot be read or written.
 */
int i915_query_ioctl(struct drm_device *dev, void *data,
		     struct drm_file *file)
{
	struct drm_i915_query *args = data;
	struct drm_i915_query_item __user *uitem =
		u64_to_user_ptr(args->items_ptr);
	struct i915_device *i915 = to_i915(dev);
	u32 i;

	if (args->flags)
		return -EINVAL;

	for (i = 0; i < args->num_items; i++, uitem++) {
		struct drm_i915_query_item item;
		unsigned long idx;
		int ret = -EINVAL;

		if (copy_from_user(&item, uitem, sizeof(item)))
			return -EFAULT;
		if (!item.query_id)
			return -EINVAL;

		idx = item.query_id - 1;
		if (idx < ARRAY_SIZE(query_fns)) {
			idx = array_index_nospec(idx, ARRAY_SIZE(query_fns));
			ret = query_fns[idx](i915, &item);
		}

		/* the length goes back only when it changed, as upstream */
		if (ret != item.length && put_user(ret, &uitem->length))
			return -EFAULT;
	}
	return 0;
}
