// SPDX-License-Identifier: GPL-2.0
/*
 * gem_query: I915_QUERY answers as upstream 6.1 answers on Gen3/Gen4.
 * Each item gets its own answer in its length (the size needed for a
 * length of 0, the size written, or a negative errno: -EINVAL for an
 * unknown id or bad fields, -ENODEV for what these GPUs lack); the ioctl
 * fails only for its flags, a query id of 0 or an unreadable item array.
 * ENGINE_INFO: one render engine; MEMORY_REGIONS: system memory, sized as
 * the machine's RAM.  GETPARAM SLICE_MASK and SUBSLICE_MASK: -ENODEV, as
 * upstream for the topology these parts lack.  Also built 32-bit: the u64 pointers pass unchanged.
 */
#include <sys/sysinfo.h>
#include <unistd.h>

#include "gem.h"

static int __query(int fd, struct drm_i915_query_item *items, uint32_t n,
		   uint32_t flags)
{
	struct drm_i915_query q = {
		.num_items = n,
		.flags = flags,
		.items_ptr = to_user_pointer(items),
	};

	return igt_ioctl(fd, DRM_IOCTL_I915_QUERY, &q);
}

/* one item's answer (its length after the ioctl) */
static int query_one(int fd, uint64_t id, uint32_t flags, int32_t length,
		     void *data)
{
	struct drm_i915_query_item item = {
		.query_id = id,
		.flags = flags,
		.length = length,
		.data_ptr = to_user_pointer(data),
	};

	igt_assert_ok(__query(fd, &item, 1, 0));
	return item.length;
}

#define ENGINE_INFO_LEN (sizeof(struct drm_i915_query_engine_info) + \
			 sizeof(struct drm_i915_engine_info))
#define REGIONS_LEN (sizeof(struct drm_i915_query_memory_regions) + \
		     sizeof(struct drm_i915_memory_region_info))

/* the ioctl's own errors: flags, query id 0, an unreadable array */
static void subtest_ioctl_errnos(void)
{
	struct drm_i915_query_item item = {
		.query_id = DRM_I915_QUERY_ENGINE_INFO,
	};
	struct drm_i915_query q = { .num_items = 1 };
	int fd = drm_open_driver();

	igt_assert_err(__query(fd, &item, 1, 1), -EINVAL);
	igt_assert_err(__query(fd, &item, 1, 1u << 31), -EINVAL);
	igt_assert_eq(item.length, 0);		/* untouched */
	igt_assert_ok(__query(fd, NULL, 0, 0));	/* no items: nothing read */

	q.items_ptr = 0;
	igt_assert_err(igt_ioctl(fd, DRM_IOCTL_I915_QUERY, &q), -EFAULT);
	q.items_ptr = -4096ull;
	igt_assert_err(igt_ioctl(fd, DRM_IOCTL_I915_QUERY, &q), -EFAULT);

	item.query_id = 0;
	igt_assert_err(__query(fd, &item, 1, 0), -EINVAL);
	close(fd);
}

/* unknown ids answer -EINVAL in their item, and the next item is answered */
static void subtest_unknown_id(void)
{
	static const uint64_t ids[] = { 7, 8, 255, 1ull << 32, ~0ull };
	struct drm_i915_query_item items[2];
	int fd = drm_open_driver();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ids); i++) {
		memset(items, 0, sizeof(items));
		items[0].query_id = ids[i];
		items[1].query_id = DRM_I915_QUERY_ENGINE_INFO;
		igt_assert_ok(__query(fd, items, 2, 0));
		igt_assert_eq(items[0].length, -EINVAL);
		igt_assert_eq(items[1].length, ENGINE_INFO_LEN);
	}

	/* a bad id after a good one: the good one keeps its answer */
	memset(items, 0, sizeof(items));
	items[0].query_id = DRM_I915_QUERY_MEMORY_REGIONS;
	items[1].query_id = 0;
	igt_assert_err(__query(fd, items, 2, 0), -EINVAL);
	igt_assert_eq(items[0].length, REGIONS_LEN);
	close(fd);
}

/* ENGINE_INFO: one render engine, instance 0, logical instance 0 */
static void subtest_engine_info(void)
{
	struct {
		struct drm_i915_query_engine_info q;
		struct drm_i915_engine_info e[2];
	} buf;
	const struct drm_i915_engine_info *e = &buf.q.engines[0];
	int fd = drm_open_driver_render();

	igt_assert_eq(query_one(fd, DRM_I915_QUERY_ENGINE_INFO, 0, 0, NULL),
		      ENGINE_INFO_LEN);
	igt_assert_eq(ENGINE_INFO_LEN, 72);

	memset(&buf, 0xa5, sizeof(buf));
	memset(&buf.q, 0, sizeof(buf.q));
	igt_assert_eq(query_one(fd, DRM_I915_QUERY_ENGINE_INFO, 0,
				sizeof(buf), &buf), ENGINE_INFO_LEN);
	igt_assert_eq(buf.q.num_engines, 1);
	igt_assert_eq(e->engine.engine_class, I915_ENGINE_CLASS_RENDER);
	igt_assert_eq(e->engine.engine_instance, 0);
	igt_assert_eq(e->rsvd0, 0);
	igt_assert_eq_u64(e->flags, I915_ENGINE_INFO_HAS_LOGICAL_INSTANCE);
	igt_assert_eq_u64(e->capabilities, 0);
	igt_assert_eq(e->logical_instance, 0);
	igt_assert_eq_u64(e->rsvd2[0] | e->rsvd2[1] | e->rsvd2[2], 0);
	igt_assert_eq(buf.e[1].engine.engine_class, 0xa5a5); /* not written */

	/* too small, flags, a non-zero header, an unwritable buffer */
	memset(&buf.q, 0, sizeof(buf.q));
	igt_assert_eq(query_one(fd, DRM_I915_QUERY_ENGINE_INFO, 0,
				ENGINE_INFO_LEN - 1, &buf), -EINVAL);
	igt_assert_eq(query_one(fd, DRM_I915_QUERY_ENGINE_INFO, 1,
				sizeof(buf), &buf), -EINVAL);
	igt_assert_eq(query_one(fd, DRM_I915_QUERY_ENGINE_INFO, 1, 0, NULL),
		      -EINVAL);
	buf.q.num_engines = 1;
	igt_assert_eq(query_one(fd, DRM_I915_QUERY_ENGINE_INFO, 0,
				sizeof(buf), &buf), -EINVAL);
	buf.q.num_engines = 0;
	buf.q.rsvd[2] = 1;
	igt_assert_eq(query_one(fd, DRM_I915_QUERY_ENGINE_INFO, 0,
				sizeof(buf), &buf), -EINVAL);
	igt_assert_eq(query_one(fd, DRM_I915_QUERY_ENGINE_INFO, 0,
				sizeof(buf), NULL), -EFAULT);
	close(fd);
}

/* MEMORY_REGIONS: system memory, class SYSTEM instance 0, the RAM's size */
static void subtest_memory_regions(void)
{
	struct {
		struct drm_i915_query_memory_regions q;
		struct drm_i915_memory_region_info r[1];
	} buf;
	const struct drm_i915_memory_region_info *r = &buf.q.regions[0];
	int fd = drm_open_driver();
	struct sysinfo si;
	uint64_t ram;

	igt_assert_ok(sysinfo(&si));
	ram = (uint64_t)si.totalram * si.mem_unit;

	igt_assert_eq(query_one(fd, DRM_I915_QUERY_MEMORY_REGIONS, 0, 0, NULL),
		      REGIONS_LEN);
	igt_assert_eq(REGIONS_LEN, 16 + 88);

	memset(&buf, 0xa5, sizeof(buf));
	memset(&buf.q, 0, sizeof(buf.q));
	igt_assert_eq(query_one(fd, DRM_I915_QUERY_MEMORY_REGIONS, 0,
				sizeof(buf), &buf), REGIONS_LEN);
	igt_assert_eq(buf.q.num_regions, 1);
	igt_assert_eq(r->region.memory_class, I915_MEMORY_CLASS_SYSTEM);
	igt_assert_eq(r->region.memory_instance, 0);
	igt_assert_eq(r->rsvd0, 0);
	igt_info("probed %llu, RAM %llu",
		 (unsigned long long)r->probed_size, (unsigned long long)ram);
	igt_assert_eq_u64(r->probed_size, ram);
	igt_assert_eq_u64(r->unallocated_size, ram);
	igt_assert_eq_u64(r->probed_cpu_visible_size, ram);
	igt_assert_eq_u64(r->unallocated_cpu_visible_size, ram);
	igt_assert_eq_u64(r->rsvd1[2] | r->rsvd1[7], 0);

	memset(&buf.q, 0, sizeof(buf.q));
	igt_assert_eq(query_one(fd, DRM_I915_QUERY_MEMORY_REGIONS, 0,
				REGIONS_LEN - 1, &buf), -EINVAL);
	igt_assert_eq(query_one(fd, DRM_I915_QUERY_MEMORY_REGIONS, 2,
				sizeof(buf), &buf), -EINVAL);
	buf.q.num_regions = 1;
	igt_assert_eq(query_one(fd, DRM_I915_QUERY_MEMORY_REGIONS, 0,
				sizeof(buf), &buf), -EINVAL);
	buf.q.num_regions = 0;
	buf.q.rsvd[2] = 1;
	igt_assert_eq(query_one(fd, DRM_I915_QUERY_MEMORY_REGIONS, 0,
				sizeof(buf), &buf), -EINVAL);
	igt_assert_eq(query_one(fd, DRM_I915_QUERY_MEMORY_REGIONS, 0,
				sizeof(buf), (void *)8), -EFAULT);
	close(fd);
}

/* what these GPUs lack: -ENODEV, after upstream's flag checks */
static void subtest_enodev(void)
{
	char buf[4096] = {};
	int fd = drm_open_driver();

	igt_assert_eq(query_one(fd, DRM_I915_QUERY_TOPOLOGY_INFO, 0, 0, NULL),
		      -ENODEV);
	igt_assert_eq(query_one(fd, DRM_I915_QUERY_TOPOLOGY_INFO, 0,
				sizeof(buf), buf), -ENODEV);
	igt_assert_eq(query_one(fd, DRM_I915_QUERY_TOPOLOGY_INFO, 1, 0, NULL),
		      -EINVAL);

	igt_assert_eq(query_one(fd, DRM_I915_QUERY_PERF_CONFIG,
				DRM_I915_QUERY_PERF_CONFIG_LIST, 0, NULL),
		      -ENODEV);
	igt_assert_eq(query_one(fd, DRM_I915_QUERY_PERF_CONFIG,
				DRM_I915_QUERY_PERF_CONFIG_DATA_FOR_UUID,
				sizeof(buf), buf), -ENODEV);
	igt_assert_eq(query_one(fd, DRM_I915_QUERY_PERF_CONFIG,
				DRM_I915_QUERY_PERF_CONFIG_DATA_FOR_ID, 0,
				NULL), -ENODEV);
	igt_assert_eq(query_one(fd, DRM_I915_QUERY_PERF_CONFIG, 0, 0, NULL),
		      -EINVAL);
	igt_assert_eq(query_one(fd, DRM_I915_QUERY_PERF_CONFIG, 4, 0, NULL),
		      -EINVAL);

	igt_assert_eq(query_one(fd, DRM_I915_QUERY_HWCONFIG_BLOB, 0, 0, NULL),
		      -ENODEV);
	igt_assert_eq(query_one(fd, DRM_I915_QUERY_HWCONFIG_BLOB, 0,
				sizeof(buf), buf), -ENODEV);
	igt_assert_eq(query_one(fd, DRM_I915_QUERY_GEOMETRY_SUBSLICES, 0, 0,
				NULL), -ENODEV);
	close(fd);
}

/*
 * GETPARAM's face of the topology: SLICE_MASK and SUBSLICE_MASK are
 * known parameters with nothing to report on these parts, so -ENODEV as
 * upstream (Mesa asks SLICE_MASK), not the -EINVAL of an unknown one.
 */
static void subtest_getparam_sseu(void)
{
	int fd = drm_open_driver();
	int v = -1;

	igt_assert_err(__gem_getparam(fd, I915_PARAM_SLICE_MASK, &v), -ENODEV);
	igt_assert_err(__gem_getparam(fd, I915_PARAM_SUBSLICE_MASK, &v),
		       -ENODEV);
	igt_assert_eq(v, -1);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(ioctl_errnos),
	SUBTEST(unknown_id),
	SUBTEST(engine_info),
	SUBTEST(memory_regions),
	SUBTEST(enodev),
	SUBTEST(getparam_sseu),
};

igt_main(tests)
