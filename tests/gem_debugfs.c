// SPDX-License-Identifier: GPL-2.0
/*
 * gem_debugfs: the driver's debugfs files under
 * /sys/kernel/debug/dri/<minor>/: i915_gem_objects (first line: object
 * count and bytes) follows creation and destruction exactly,
 * i915_gem_drop_caches reads back a hex mask and takes it as igt writes
 * it, i915_capabilities describes the GPU, i915_swizzle_info names the
 * bit-6 swizzling SET_TILING reports, as upstream's does (igt's
 * gem_tiled_swapping reads it), i915_wa_registers exists and is empty, as
 * upstream's is on Gen3/Gen4 (no context workarounds: igt's
 * gem_workarounds skips on it).
 */
#include <ctype.h>
#include <unistd.h>

#include "gem.h"

static void objects(int fd, long long *count, long long *bytes)
{
	igt_gem_objects(fd, count, bytes);
}

/* one more object of the right size after a create, one less after close */
static void subtest_objects_create_close(void)
{
	int fd = drm_open_driver();
	long long c0, b0, c1, b1;
	uint32_t handle;

	objects(fd, &c0, &b0);
	handle = gem_create(fd, 3 * PAGE_SZ - 7);
	objects(fd, &c1, &b1);
	igt_assert_eq(c1, c0 + 1);
	if (b0 >= 0)
		igt_assert_eq(b1, b0 + 3 * (long long)PAGE_SZ);

	gem_close(fd, handle);
	igt_assert_eq(gem_wait_object_count(fd, c0), c0);
	objects(fd, &c1, &b1);
	if (b0 >= 0)
		igt_assert_eq(b1, b0);
	close(fd);
}

/* sharing by name adds handles, not objects */
static void subtest_objects_flink_open(void)
{
	int fd1 = drm_open_driver(), fd2 = drm_open_driver();
	long long c0, c1, bytes;
	uint32_t h1, h2;

	objects(fd1, &c0, &bytes);
	h1 = gem_create(fd1, PAGE_SZ);
	h2 = gem_open(fd2, gem_flink(fd1, h1));
	objects(fd1, &c1, &bytes);
	igt_assert_eq(c1, c0 + 1);

	/* the object lives while either handle does */
	gem_close(fd1, h1);
	objects(fd1, &c1, &bytes);
	igt_assert_eq(c1, c0 + 1);
	gem_close(fd2, h2);
	igt_assert_eq(gem_wait_object_count(fd1, c0), c0);
	close(fd2);
	close(fd1);
}

/* closing a file releases every object only it referenced */
static void subtest_objects_close_fd(void)
{
	int probe = drm_open_driver(), fd = drm_open_driver_render();
	long long c0, c1, bytes;
	int i;

	objects(probe, &c0, &bytes);
	for (i = 0; i < 10; i++)
		gem_create(fd, PAGE_SZ << (i % 4));
	objects(probe, &c1, &bytes);
	igt_assert_eq(c1, c0 + 10);
	close(fd);
	igt_assert_eq(gem_wait_object_count(probe, c0), c0);
	close(probe);
}

/* the same numbers through the render node's debugfs directory */
static void subtest_objects_render(void)
{
	int card = drm_open_driver(), render = drm_open_driver_render();
	long long c0, c1, b0, b1;
	uint32_t handle;

	objects(render, &c0, &b0);
	handle = gem_create(render, PAGE_SZ);
	objects(card, &c1, &b1);
	igt_assert_eq(c1, c0 + 1);
	gem_close(render, handle);
	igt_assert_eq(gem_wait_object_count(card, c0), c0);
	close(render);
	close(card);
}

static unsigned long long read_drop_caches(int fd)
{
	char buf[64], *end;
	unsigned long long mask;
	int ret;

	ret = igt_debugfs_read(fd, "i915_gem_drop_caches", buf, sizeof(buf));
	igt_assert_f(ret > 0, "reading i915_gem_drop_caches: %s",
		     igt_errname(ret));
	igt_assert_f(!strncmp(buf, "0x", 2), "not hex: \"%s\"", buf);
	mask = strtoull(buf, &end, 16);
	igt_assert_f(end > buf + 2 && (*end == '\n' || *end == '\0'),
		     "not one hex number: \"%s\"", buf);
	return mask;
}

/* reading gives the supported mask, nonzero */
static void subtest_drop_caches_read(void)
{
	int fd = drm_open_driver();
	unsigned long long mask = read_drop_caches(fd);

	igt_info("supported mask %#llx", mask);
	igt_assert_neq(mask, 0);
	close(fd);
}

/* writing the mask back, as igt does ("0x%llx"), succeeds */
static void subtest_drop_caches_write(void)
{
	int fd = drm_open_driver();
	unsigned long long mask = read_drop_caches(fd);
	char str[32];

	snprintf(str, sizeof(str), "0x%llx", mask);
	igt_assert_ok(igt_debugfs_write(fd, "i915_gem_drop_caches", str));
	/* each bit on its own too */
	while (mask) {
		unsigned long long bit = mask & -mask;

		snprintf(str, sizeof(str), "0x%llx", bit);
		igt_assert_ok(igt_debugfs_write(fd, "i915_gem_drop_caches",
						str));
		mask &= ~bit;
	}
	close(fd);
}

/* dropping caches loses no data of live objects */
static void subtest_drop_caches_keeps_data(void)
{
	const uint64_t size = 8 * PAGE_SZ;
	unsigned char *in = malloc(size), *out = malloc(size);
	int fd = drm_open_driver();
	uint32_t handle = gem_create(fd, size);
	long long c0, c1, bytes;
	char str[32];

	igt_assert(in && out);
	igt_fill_pattern(in, size, 5);
	gem_write(fd, handle, 0, in, size);
	objects(fd, &c0, &bytes);
	snprintf(str, sizeof(str), "0x%llx", read_drop_caches(fd));
	igt_assert_ok(igt_debugfs_write(fd, "i915_gem_drop_caches", str));
	objects(fd, &c1, &bytes);
	igt_assert_eq(c1, c0);
	gem_read(fd, handle, 0, out, size);
	igt_assert_mem(out, in, size, "object after drop_caches");
	gem_close(fd, handle);
	close(fd);
	free(in);
	free(out);
}

/* "gen" and its number, which must fit the PCI id */
static void subtest_capabilities(void)
{
	int fd = drm_open_driver();
	int id = gem_getparam(fd, I915_PARAM_CHIPSET_ID);
	char buf[8192], *p, idstr[16];
	int ret, gen = -1;

	ret = igt_debugfs_read(fd, "i915_capabilities", buf, sizeof(buf));
	igt_assert_f(ret > 0, "reading i915_capabilities: %s",
		     igt_errname(ret));
	for (p = buf; *p; p++)
		*p = tolower((unsigned char)*p);
	p = strstr(buf, "gen");
	igt_assert_f(p, "i915_capabilities does not mention gen:\n%s", buf);
	for (p += 3; *p && *p != '\n' && !isdigit((unsigned char)*p); p++)
		;
	if (isdigit((unsigned char)*p))
		gen = atoi(p);
	igt_info("chipset %#06x, gen %d", id, gen);
	if (id == 0x2772)
		igt_assert_eq(gen, 3);
	if (id == 0x2a42)
		igt_assert_eq(gen, 4);
	snprintf(idstr, sizeof(idstr), "%04x", id);
	igt_assert_f(strstr(buf, idstr), "no PCI id %s in:\n%s", idstr, buf);
	close(fd);
}

/* upstream's names of the I915_BIT_6_SWIZZLE_* modes userspace sees */
static const char *swizzle_name(uint32_t swizzle)
{
	static const char *const names[] = {
		"none", "bit9", "bit9/bit10", "bit9/bit11", "bit9/bit10/bit11",
	};

	return swizzle < 5 ? names[swizzle] : "unknown";
}

static void subtest_swizzle_info(void)
{
	int fd = drm_open_driver();
	struct drm_i915_gem_set_tiling st = {
		.handle = gem_create(fd, 65536),
		.tiling_mode = I915_TILING_X,
		.stride = 512,
	};
	char buf[4096], want[128];
	int ret;

	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_I915_GEM_SET_TILING, &st));
	ret = igt_debugfs_read(fd, "i915_swizzle_info", buf, sizeof(buf));
	igt_assert_f(ret > 0, "reading i915_swizzle_info: %s",
		     igt_errname(ret));
	snprintf(want, sizeof(want), "bit6 swizzle for X-tiling = %s\n",
		 swizzle_name(st.swizzle_mode));
	igt_assert_f(strstr(buf, want), "no \"%s\" in:\n%s", want, buf);
	igt_assert_f(!strstr(buf, "L-shaped"), "L-shaped:\n%s", buf);
	gem_close(fd, st.handle);
	close(fd);
}

static void subtest_wa_registers(void)
{
	int fd = drm_open_driver();
	char buf[4096];
	int ret;

	ret = igt_debugfs_read(fd, "i915_wa_registers", buf, sizeof(buf));
	igt_assert_f(ret >= 0, "reading i915_wa_registers: %s",
		     igt_errname(ret));
	igt_assert_f(ret == 0, "i915_wa_registers is not empty:\n%.*s", ret,
		     buf);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(objects_create_close),
	SUBTEST(objects_flink_open),
	SUBTEST(objects_close_fd),
	SUBTEST(objects_render),
	SUBTEST(drop_caches_read),
	SUBTEST(drop_caches_write),
	SUBTEST(drop_caches_keeps_data),
	SUBTEST(capabilities),
	SUBTEST(swizzle_info),
	SUBTEST(wa_registers),
};

igt_main(tests)
