// SPDX-License-Identifier: GPL-2.0
/*
 * gem_create_ext: GEM_CREATE_EXT as upstream 6.1 on Gen3/Gen4.  Sizes
 * round and fail as GEM_CREATE's; MEMORY_REGIONS takes system memory
 * alone (any other region, a repeat, pad, a count of 0 or above 7, a
 * second list: -EINVAL); PROTECTED_CONTENT is -ENODEV (no PXP); unknown
 * extensions, non-zero extension flags or rsvd and unknown flags are
 * -EINVAL; NEEDS_CPU_ACCESS is -EINVAL with only one region; bad
 * pointers are -EFAULT.  The object made is usable and nothing leaks.
 */
#include <unistd.h>

#include "exec.h"

static int __create_ext(int fd, uint64_t *size, uint32_t flags,
			void *ext, uint32_t *handle)
{
	struct drm_i915_gem_create_ext c = {
		.size = *size,
		.flags = flags,
		.extensions = to_user_pointer(ext),
	};
	int ret = igt_ioctl(fd, DRM_IOCTL_I915_GEM_CREATE_EXT, &c);

	if (!ret) {
		*size = c.size;
		*handle = c.handle;
	}
	return ret;
}

static int create_ext_err(int fd, uint64_t size, uint32_t flags, void *ext)
{
	uint32_t handle;
	int ret = __create_ext(fd, &size, flags, ext, &handle);

	if (!ret)
		gem_close(fd, handle);
	return ret;
}

/* sizes as GEM_CREATE: rounded to pages, 0 and absurd ones refused */
static void subtest_sizes(void)
{
	static const struct { uint64_t size, got; int err; } cases[] = {
		{ 1, PAGE_SZ, 0 },
		{ PAGE_SZ, PAGE_SZ, 0 },
		{ PAGE_SZ + 1, 2 * PAGE_SZ, 0 },
		{ 0, 0, -EINVAL },
		{ ~0ull, 0, -EINVAL },
		{ ~0ull - 4095, 0, -E2BIG },
		{ 1ull << 60, 0, -E2BIG },
	};
	uint32_t data = 0xdeadbeef, back = 0;
	int fd = drm_open_driver_render();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t size = cases[i].size;
		uint32_t handle = 0;

		igt_assert_err(__create_ext(fd, &size, 0, NULL, &handle),
			       cases[i].err);
		if (cases[i].err)
			continue;
		igt_assert_eq_u64(size, cases[i].got);
		gem_write(fd, handle, size - 4, &data, 4);
		gem_read(fd, handle, size - 4, &back, 4);
		igt_assert_eq(back, data);
		gem_close(fd, handle);
	}
	close(fd);
}

static void regions_ext(struct drm_i915_gem_create_ext_memory_regions *ext,
			struct drm_i915_gem_memory_class_instance *r,
			uint32_t n)
{
	memset(ext, 0, sizeof(*ext));
	ext->base.name = I915_GEM_CREATE_EXT_MEMORY_REGIONS;
	ext->num_regions = n;
	ext->regions = to_user_pointer(r);
}

/* MEMORY_REGIONS: system memory only, each field checked as upstream */
static void subtest_memory_regions(void)
{
	struct drm_i915_gem_memory_class_instance r[8] = {
		{ I915_MEMORY_CLASS_SYSTEM, 0 },
	};
	struct drm_i915_gem_create_ext_memory_regions ext, ext2;
	int fd = drm_open_driver();
	long long before, now, bytes;
	uint64_t size = 3;
	uint32_t handle;

	gem_quiescent_gpu(fd);
	igt_gem_objects(fd, &before, &bytes);

	regions_ext(&ext, r, 1);
	igt_assert_ok(__create_ext(fd, &size, 0, &ext, &handle));
	igt_assert_eq_u64(size, PAGE_SZ);
	igt_gem_objects(fd, &now, &bytes);
	igt_assert_eq(now, before + 1);
	gem_close(fd, handle);

	/* other regions: device memory, stolen, another instance */
	r[0].memory_class = I915_MEMORY_CLASS_DEVICE;
	igt_assert_err(create_ext_err(fd, 4096, 0, &ext), -EINVAL);
	r[0].memory_class = 3;		/* stolen: private upstream */
	igt_assert_err(create_ext_err(fd, 4096, 0, &ext), -EINVAL);
	r[0].memory_class = I915_MEMORY_CLASS_SYSTEM;
	r[0].memory_instance = 1;
	igt_assert_err(create_ext_err(fd, 4096, 0, &ext), -EINVAL);
	r[0].memory_instance = 0;

	/* a repeat, a count of 0, too many, pad, an unreadable list */
	r[1] = r[0];
	regions_ext(&ext, r, 2);
	igt_assert_err(create_ext_err(fd, 4096, 0, &ext), -EINVAL);
	regions_ext(&ext, r, 0);
	igt_assert_err(create_ext_err(fd, 4096, 0, &ext), -EINVAL);
	regions_ext(&ext, r, 8);
	igt_assert_err(create_ext_err(fd, 4096, 0, &ext), -EINVAL);
	regions_ext(&ext, r, 1);
	ext.pad = 1;
	igt_assert_err(create_ext_err(fd, 4096, 0, &ext), -EINVAL);
	regions_ext(&ext, NULL, 1);
	igt_assert_err(create_ext_err(fd, 4096, 0, &ext), -EFAULT);

	/* two lists, each good alone */
	regions_ext(&ext, r, 1);
	regions_ext(&ext2, r, 1);
	ext.base.next_extension = to_user_pointer(&ext2);
	igt_assert_err(create_ext_err(fd, 4096, 0, &ext), -EINVAL);

	/* NEEDS_CPU_ACCESS needs a second region: -EINVAL with or without */
	regions_ext(&ext, r, 1);
	igt_assert_err(create_ext_err(fd, 4096,
				      I915_GEM_CREATE_EXT_FLAG_NEEDS_CPU_ACCESS,
				      &ext), -EINVAL);
	igt_assert_err(create_ext_err(fd, 4096,
				      I915_GEM_CREATE_EXT_FLAG_NEEDS_CPU_ACCESS,
				      NULL), -EINVAL);

	igt_assert_eq(gem_wait_object_count(fd, before), before);
	close(fd);
}

/* the extension chain: names, flags, rsvd, pointers; unknown flags */
static void subtest_extensions(void)
{
	struct drm_i915_gem_create_ext_protected_content pxp = {
		.base.name = I915_GEM_CREATE_EXT_PROTECTED_CONTENT,
	};
	struct i915_user_extension ext = {};
	int fd = drm_open_driver();

	igt_assert_err(create_ext_err(fd, 4096, 0, &pxp), -ENODEV);
	pxp.flags = 1;
	igt_assert_err(create_ext_err(fd, 4096, 0, &pxp), -EINVAL);

	ext.name = 2;
	igt_assert_err(create_ext_err(fd, 4096, 0, &ext), -EINVAL);
	ext.name = ~0u;
	igt_assert_err(create_ext_err(fd, 4096, 0, &ext), -EINVAL);

	/* a known name with flags or rsvd set */
	pxp.flags = 0;
	pxp.base.flags = 1;
	igt_assert_err(create_ext_err(fd, 4096, 0, &pxp), -EINVAL);
	pxp.base.flags = 0;
	pxp.base.rsvd[3] = 1;
	igt_assert_err(create_ext_err(fd, 4096, 0, &pxp), -EINVAL);

	/* unreadable chain, a bad next pointer after a good extension */
	igt_assert_err(create_ext_err(fd, 4096, 0, (void *)8), -EFAULT);
	{
		struct drm_i915_gem_memory_class_instance r = {
			I915_MEMORY_CLASS_SYSTEM, 0 };
		struct drm_i915_gem_create_ext_memory_regions mr;

		regions_ext(&mr, &r, 1);
		mr.base.next_extension = 8;
		igt_assert_err(create_ext_err(fd, 4096, 0, &mr), -EFAULT);
	}

	/* a chain that loops back to its start */
	{
		struct drm_i915_gem_memory_class_instance r = {
			I915_MEMORY_CLASS_SYSTEM, 0 };
		struct drm_i915_gem_create_ext_memory_regions mr;

		regions_ext(&mr, &r, 1);
		mr.base.next_extension = to_user_pointer(&mr);
		/* the second visit sees a second list first */
		igt_assert_err(create_ext_err(fd, 4096, 0, &mr), -EINVAL);
	}

	igt_assert_err(create_ext_err(fd, 4096, 2, NULL), -EINVAL);
	igt_assert_err(create_ext_err(fd, 4096, 1u << 31, NULL), -EINVAL);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(sizes),
	SUBTEST(memory_regions),
	SUBTEST(extensions),
};

igt_main(tests)
