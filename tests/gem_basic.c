// SPDX-License-Identifier: GPL-2.0
/*
 * gem_basic: the driver's identity, GETPARAM, and the life of an object
 * (GEM_CREATE, GEM_CLOSE, a pread/pwrite round trip).  The core test:
 * also built 32-bit, where DRM_IOCTL_VERSION and GETPARAM go through the
 * kernel's compat translation.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "gem.h"

#ifdef HAVE_LIBDRM
#include <xf86drm.h>
#endif

/* DRM_IOCTL_VERSION: name "i915", lengths reported, version 1.6+ */
static void subtest_version(void)
{
	char name[32], date[32], desc[128];
	struct drm_version v;
	int fd = drm_open_driver();

	/* first pass: lengths only */
	memset(&v, 0, sizeof(v));
	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_VERSION, &v));
	igt_assert_eq(v.name_len, 4);
	igt_assert(v.date_len > 0 && v.date_len < sizeof(date));
	igt_assert(v.desc_len > 0 && v.desc_len < sizeof(desc));

	memset(name, 0, sizeof(name));
	memset(date, 0, sizeof(date));
	memset(desc, 0, sizeof(desc));
	v.name = name;
	v.name_len = sizeof(name) - 1;
	v.date = date;
	v.date_len = sizeof(date) - 1;
	v.desc = desc;
	v.desc_len = sizeof(desc) - 1;
	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_VERSION, &v));
	igt_assert_f(!strcmp(name, "i915"), "driver name \"%s\"", name);
	igt_assert_eq(v.version_major, 1);
	igt_assert(v.version_minor >= 6);
	igt_assert_eq(strlen(date), v.date_len);
	igt_assert_eq(strlen(desc), v.desc_len);
	igt_info("%s %d.%d.%d %s: %s", name, v.version_major,
		 v.version_minor, v.version_patchlevel, date, desc);
	close(fd);
}

/* the DRM device sits on a PCI device 8086:<id> of display class */
static void subtest_pci_device(void)
{
	int fd = drm_open_driver();
	unsigned long long vendor, device, class;

	vendor = drm_sysfs_device_attr(fd, "vendor");
	device = drm_sysfs_device_attr(fd, "device");
	class = drm_sysfs_device_attr(fd, "class");
	igt_info("PCI %04llx:%04llx class %06llx", vendor, device, class);
	igt_assert_eq_u64(vendor, 0x8086);
	igt_assert_eq_u64(class >> 16, 0x03);
#ifdef HAVE_LIBDRM
	{
		drmDevicePtr dev = NULL;

		igt_assert_eq(drmGetDevice2(fd, 0, &dev), 0);
		igt_assert_eq(dev->bustype, DRM_BUS_PCI);
		igt_assert_eq(dev->deviceinfo.pci->vendor_id, 0x8086);
		igt_assert_eq(dev->deviceinfo.pci->device_id, device);
		igt_assert(dev->available_nodes & (1 << DRM_NODE_PRIMARY));
		igt_assert(dev->available_nodes & (1 << DRM_NODE_RENDER));
		drmFreeDevice(&dev);
	}
#endif
	close(fd);
}

/* CHIPSET_ID is the PCI device id */
static void subtest_getparam_chipset_id(void)
{
	int fd = drm_open_driver();
	unsigned long long device = drm_sysfs_device_attr(fd, "device");

	igt_assert_eq(gem_getparam(fd, I915_PARAM_CHIPSET_ID), device);
	close(fd);
}

static void subtest_getparam_has_gem(void)
{
	int fd = drm_open_driver();

	igt_assert_eq(gem_getparam(fd, I915_PARAM_HAS_GEM), 1);
	close(fd);
}

/* fences: 16 on 945G (0x2772) and GM45 (0x2a42), some on any part */
static void subtest_getparam_num_fences(void)
{
	int fd = drm_open_driver();
	int id = gem_getparam(fd, I915_PARAM_CHIPSET_ID);
	int fences = gem_getparam(fd, I915_PARAM_NUM_FENCES_AVAIL);

	igt_assert(fences > 0);
	if (id == 0x2772 || id == 0x2a42)
		igt_assert_eq(fences, 16);
	close(fd);
}

/* the same answers through the render node */
static void subtest_getparam_render(void)
{
	int card = drm_open_driver(), render = drm_open_driver_render();

	igt_assert_eq(gem_getparam(render, I915_PARAM_CHIPSET_ID),
		      gem_getparam(card, I915_PARAM_CHIPSET_ID));
	igt_assert_eq(gem_getparam(render, I915_PARAM_HAS_GEM), 1);
	close(render);
	close(card);
}

static void subtest_getparam_unknown(void)
{
	int fd = drm_open_driver(), value = 0x5a5a;

	igt_assert_err(__gem_getparam(fd, 0x7fffffff, &value), -EINVAL);
	igt_assert_err(__gem_getparam(fd, -1, &value), -EINVAL);
	igt_assert_eq(value, 0x5a5a);
	close(fd);
}

/* a value pointer the kernel cannot write: NULL and a read-only page */
static void subtest_getparam_efault(void)
{
	int fd = drm_open_driver();
	int *ro = mmap(NULL, PAGE_SZ, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	igt_assert(ro != MAP_FAILED);
	igt_assert_err(__gem_getparam(fd, I915_PARAM_CHIPSET_ID, NULL),
		       -EFAULT);
	igt_assert_err(__gem_getparam(fd, I915_PARAM_CHIPSET_ID, ro),
		       -EFAULT);
	igt_assert_eq(*ro, 0);
	munmap(ro, PAGE_SZ);
	close(fd);
}

/* sizes round up to whole pages; handles are nonzero and distinct */
static void subtest_create_sizes(void)
{
	static const struct { uint64_t in, out; } sizes[] = {
		{ 1, 4096 }, { 4095, 4096 }, { 4096, 4096 }, { 4097, 8192 },
		{ 3 * 4096 + 17, 4 * 4096 }, { 1 << 20, 1 << 20 },
	};
	uint32_t handles[ARRAY_SIZE(sizes)];
	int fd = drm_open_driver();
	size_t i, j;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		uint64_t size = sizes[i].in;

		igt_assert_ok(__gem_create(fd, &size, &handles[i]));
		igt_assert_neq(handles[i], 0);
		igt_assert_eq_u64(size, sizes[i].out);
		for (j = 0; j < i; j++)
			igt_assert_neq(handles[i], handles[j]);
	}
	for (i = 0; i < ARRAY_SIZE(sizes); i++)
		gem_close(fd, handles[i]);
	close(fd);
}

static void subtest_create_zero(void)
{
	int fd = drm_open_driver();
	uint64_t size = 0;
	uint32_t handle = 0;

	igt_assert_err(__gem_create(fd, &size, &handle), -EINVAL);
	close(fd);
}

/*
 * Upstream (i915_gem_create.c) rounds up to the page size first, so
 * ~0ull wraps to 0 and is -EINVAL; sizes of more than INT_MAX pages
 * cannot be represented and are -E2BIG.
 */
static void subtest_create_absurd(void)
{
	static const struct { uint64_t size; int err; } cases[] = {
		{ ~0ull, -EINVAL },
		{ ~0ull - 4096 + 2, -EINVAL },
		{ ~0ull - 4095, -E2BIG },
		{ 1ull << 63, -E2BIG },
		{ 1ull << 60, -E2BIG },
		{ (0x7fffffffull + 1) << 12, -E2BIG },
	};
	int fd = drm_open_driver();
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		uint64_t size = cases[i].size;
		uint32_t handle = 0;
		int ret = __gem_create(fd, &size, &handle);

		if (ret != cases[i].err)
			igt_info("size %#llx", (unsigned long long)cases[i].size);
		igt_assert_err(ret, cases[i].err);
	}
	close(fd);
}

static void subtest_close_bad_handle(void)
{
	int fd = drm_open_driver();

	igt_assert_err(__gem_close(fd, 0), -EINVAL);
	igt_assert_err(__gem_close(fd, 0xdeadbeef), -EINVAL);
	close(fd);
}

static void subtest_close_twice(void)
{
	int fd = drm_open_driver();
	uint32_t handle = gem_create(fd, 4096);

	gem_close(fd, handle);
	igt_assert_err(__gem_close(fd, handle), -EINVAL);
	/* the handle is gone for the other ioctls too */
	{
		char byte;

		igt_assert_err(__gem_read(fd, handle, 0, &byte, 1), -ENOENT);
	}
	close(fd);
}

/* handles are per file: another fd cannot use or close ours */
static void subtest_handles_per_file(void)
{
	int fd1 = drm_open_driver(), fd2 = drm_open_driver();
	uint32_t handle = gem_create(fd1, 4096);
	char byte = 0;

	igt_assert_err(__gem_read(fd2, handle, 0, &byte, 1), -ENOENT);
	igt_assert_err(__gem_close(fd2, handle), -EINVAL);
	gem_read(fd1, handle, 0, &byte, 1);
	gem_close(fd1, handle);
	close(fd2);
	close(fd1);
}

/* a new object reads as zeroes; what is written reads back */
static void subtest_pread_pwrite(void)
{
	const size_t size = 3 * PAGE_SZ;
	unsigned char *in = malloc(size), *out = malloc(size);
	unsigned char *zero = calloc(1, size);
	int fd = drm_open_driver();
	uint32_t handle = gem_create(fd, size);

	memset(out, 0xa5, size);
	gem_read(fd, handle, 0, out, size);
	igt_assert_mem(out, zero, size, "a new object");

	igt_fill_pattern(in, size, 1);
	gem_write(fd, handle, 0, in, size);
	memset(out, 0, size);
	gem_read(fd, handle, 0, out, size);
	igt_assert_mem(out, in, size, "read back");

	gem_close(fd, handle);
	close(fd);
	free(in);
	free(out);
	free(zero);
}

/* closing the fd releases the objects its handles held */
static void subtest_close_fd_with_objects(void)
{
	int probe = drm_open_driver(), fd = drm_open_driver();
	long long before, bytes, now;
	int i;

	igt_gem_objects(probe, &before, &bytes);
	for (i = 0; i < 8; i++)
		gem_create(fd, (i + 1) * PAGE_SZ);
	igt_gem_objects(probe, &now, &bytes);
	igt_assert_eq(now, before + 8);
	close(fd);
	igt_assert_eq(gem_wait_object_count(probe, before), before);
	close(probe);
}

static const struct igt_subtest tests[] = {
	SUBTEST(version),
	SUBTEST(pci_device),
	SUBTEST(getparam_chipset_id),
	SUBTEST(getparam_has_gem),
	SUBTEST(getparam_num_fences),
	SUBTEST(getparam_render),
	SUBTEST(getparam_unknown),
	SUBTEST(getparam_efault),
	SUBTEST(create_sizes),
	SUBTEST(create_zero),
	SUBTEST(create_absurd),
	SUBTEST(close_bad_handle),
	SUBTEST(close_twice),
	SUBTEST(handles_per_file),
	SUBTEST(pread_pwrite),
	SUBTEST(close_fd_with_objects),
};

igt_main(tests)
