// SPDX-License-Identifier: GPL-2.0
/*
 * gem_exec_drv_reject: the driver's rejection paths of EXECBUFFER and
 * EXECBUFFER2, as the driver's author sees them (errno as upstream, no
 * effect, nothing leaked), and one batch that runs.
 */
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gem.h"

#define MI_BATCH_BUFFER_END (0xa << 23)

static int __execbuf(int fd, struct drm_i915_gem_execbuffer2 *eb)
{
	return igt_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, eb);
}

static uint32_t batch_create(int fd)
{
	uint32_t h = gem_create(fd, 4096);
	uint32_t bbe[2] = { MI_BATCH_BUFFER_END, 0 };

	gem_write(fd, h, 0, bbe, sizeof(bbe));
	return h;
}

static void setup(int fd, struct drm_i915_gem_exec_object2 *obj,
		  unsigned int n, struct drm_i915_gem_execbuffer2 *eb)
{
	unsigned int i;

	memset(obj, 0, n * sizeof(*obj));
	for (i = 0; i < n - 1; i++)
		obj[i].handle = gem_create(fd, 4096);
	obj[n - 1].handle = batch_create(fd);
	memset(eb, 0, sizeof(*eb));
	eb->buffers_ptr = to_user_pointer(obj);
	eb->buffer_count = n;
}

static void subtest_getparams(void)
{
	int fd = drm_open_driver();
	int params[] = { I915_PARAM_HAS_EXECBUF2, I915_PARAM_HAS_EXEC_NO_RELOC,
			 I915_PARAM_HAS_EXEC_HANDLE_LUT,
			 I915_PARAM_HAS_WAIT_TIMEOUT,
			 I915_PARAM_HAS_EXEC_BATCH_FIRST,
			 I915_PARAM_HAS_EXEC_SOFTPIN, I915_PARAM_HAS_EXEC_FENCE,
			 I915_PARAM_HAS_RELAXED_DELTA };
	unsigned int i;
	int v;

	for (i = 0; i < ARRAY_SIZE(params); i++)
		igt_assert_eq(gem_getparam(fd, params[i]), 1);
	igt_assert_err(__gem_getparam(fd, I915_PARAM_HAS_EXEC_FENCE_ARRAY, &v),
		       -EINVAL);
	close(fd);
}

static void subtest_args(void)
{
	int fd = drm_open_driver();
	struct drm_i915_gem_exec_object2 obj[2];
	struct drm_i915_gem_execbuffer2 eb;
	uint64_t bad[] = { 1ull << 22, 1ull << 21, 1ull << 20, 1ull << 19,
			   1ull << 15, 1ull << 8, 1ull << 6, 1ull << 13,
			   1ull << 40 };
	unsigned int i;

	setup(fd, obj, 2, &eb);

	eb.buffer_count = 0;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	eb.buffer_count = 0x80000000u;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	eb.buffer_count = 2;
	eb.buffers_ptr = 8;
	igt_assert_err(__execbuf(fd, &eb), -EFAULT);
	eb.buffers_ptr = to_user_pointer(obj);

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		eb.flags = bad[i];
		igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	}
	for (i = 2; i <= 63; i++) {
		eb.flags = i;
		igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	}
	eb.flags = 0;

	eb.num_cliprects = 1;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	eb.num_cliprects = 0;
	eb.cliprects_ptr = 8;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	eb.cliprects_ptr = 0;
	eb.DR1 = 1;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	eb.DR1 = 0;
	eb.DR4 = 1;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	eb.DR4 = 0;
	eb.batch_start_offset = 4;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	eb.batch_start_offset = 0;
	eb.batch_len = 12;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	eb.batch_len = 4096 + 8;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	eb.batch_len = 0;
	eb.batch_start_offset = 4096;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	eb.batch_start_offset = 0;

	eb.rsvd1 = 1;
	igt_assert_err(__execbuf(fd, &eb), -ENOENT);
	eb.rsvd1 = 0;
	eb.flags = I915_EXEC_FENCE_IN;
	eb.rsvd2 = 1000;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	eb.flags = 0;
	eb.rsvd2 = 0;

	gem_close(fd, obj[0].handle);
	gem_close(fd, obj[1].handle);
	close(fd);
}

static void subtest_objects(void)
{
	int fd = drm_open_driver();
	struct drm_i915_gem_exec_object2 obj[3];
	struct drm_i915_gem_execbuffer2 eb;
	uint32_t h;

	setup(fd, obj, 3, &eb);
	h = obj[0].handle;

	obj[0].handle = 0xdead;
	igt_assert_err(__execbuf(fd, &eb), -ENOENT);
	obj[0].handle = obj[1].handle;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	obj[0].handle = gem_open(fd, gem_flink(fd, obj[1].handle));
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	gem_close(fd, obj[0].handle);
	obj[0].handle = h;

	obj[0].flags = 1ull << 8;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	obj[0].flags = 1ull << 40;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	obj[0].flags = 0;
	obj[0].alignment = 3 * 4096;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	obj[0].alignment = 0;

	/* softpin */
	obj[0].flags = EXEC_OBJECT_PINNED;
	obj[0].offset = 1 << 20 | 64;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	obj[0].offset = 1 << 20;
	obj[0].alignment = 1 << 21;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	obj[0].alignment = 0;
	obj[0].offset = -4096ull;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	obj[0].offset = 1ull << 32;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	obj[1].flags = EXEC_OBJECT_PINNED;
	obj[0].offset = 1 << 20;
	obj[1].offset = (1 << 20) + 4096 - 4096;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	obj[1].flags = 0;
	obj[0].flags = 0;
	obj[0].offset = 0;
	obj[1].offset = 0;

	/* batch written by itself */
	obj[2].flags = EXEC_OBJECT_WRITE;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	obj[2].flags = 0;

	gem_close(fd, obj[0].handle);
	gem_close(fd, obj[1].handle);
	gem_close(fd, obj[2].handle);
	close(fd);
}

static void subtest_relocs(void)
{
	int fd = drm_open_driver();
	struct drm_i915_gem_relocation_entry r[2];
	struct drm_i915_gem_exec_object2 obj[2];
	struct drm_i915_gem_execbuffer2 eb;
	uint32_t data[4];

	setup(fd, obj, 2, &eb);
	memset(r, 0, sizeof(r));
	obj[1].relocs_ptr = to_user_pointer(r);
	obj[1].relocation_count = 1;
	r[0].target_handle = obj[0].handle;
	r[0].offset = 8;
	r[0].presumed_offset = 0xdead0000;
	r[0].read_domains = I915_GEM_DOMAIN_RENDER;

	r[0].target_handle = 0xdead;
	igt_assert_err(__execbuf(fd, &eb), -ENOENT);
	r[0].target_handle = obj[0].handle;
	eb.flags = I915_EXEC_HANDLE_LUT;
	r[0].target_handle = 2;
	igt_assert_err(__execbuf(fd, &eb), -ENOENT);
	r[0].target_handle = obj[0].handle;
	eb.flags = 0;

	r[0].offset = 6;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	r[0].offset = 4096;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	r[0].offset = 4094;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	r[0].offset = -4ull;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	r[0].offset = 8;

	r[0].read_domains = I915_GEM_DOMAIN_CPU;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	r[0].read_domains = I915_GEM_DOMAIN_GTT;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	r[0].read_domains = 1u << 30;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	r[0].read_domains = I915_GEM_DOMAIN_RENDER;
	r[0].write_domain = I915_GEM_DOMAIN_SAMPLER;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	r[0].read_domains = I915_GEM_DOMAIN_RENDER | I915_GEM_DOMAIN_SAMPLER;
	r[0].write_domain = I915_GEM_DOMAIN_RENDER | I915_GEM_DOMAIN_SAMPLER;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);

	/* two entries writing one target through different domains */
	r[0].write_domain = I915_GEM_DOMAIN_RENDER;
	r[1] = r[0];
	r[1].offset = 12;
	r[1].write_domain = I915_GEM_DOMAIN_SAMPLER;
	obj[1].relocation_count = 2;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	obj[1].relocation_count = 1;

	/* the batch as a write target */
	r[0].target_handle = obj[1].handle;
	igt_assert_err(__execbuf(fd, &eb), -EINVAL);
	r[0].target_handle = obj[0].handle;
	r[0].write_domain = 0;

	obj[1].relocs_ptr = 8;
	igt_assert_err(__execbuf(fd, &eb), -EFAULT);
	obj[1].relocs_ptr = to_user_pointer(r);
	/* more than INT_MAX bytes, beyond the array: upstream faults */
	obj[1].relocation_count = 0x7fffffff;
	igt_assert_err(__execbuf(fd, &eb), -EFAULT);
	obj[1].relocation_count = 1;

	/* none of that touched the batch or the presumed offset */
	gem_read(fd, obj[1].handle, 0, data, sizeof(data));
	igt_assert_eq(data[0], MI_BATCH_BUFFER_END);
	igt_assert_eq(data[2], 0);
	igt_assert_eq_u64(r[0].presumed_offset, 0xdead0000);

	gem_close(fd, obj[0].handle);
	gem_close(fd, obj[1].handle);
	close(fd);
}

static void subtest_nospace(void)
{
	int fd = drm_open_driver();
	struct drm_i915_gem_get_aperture ap;
	struct drm_i915_gem_exec_object2 obj[3];
	struct drm_i915_gem_execbuffer2 eb;

	igt_assert_ok(__gem_get_aperture(fd, &ap));
	memset(obj, 0, sizeof(obj));
	obj[0].handle = gem_create(fd, ap.aper_size / 2 + 4096);
	obj[1].handle = gem_create(fd, ap.aper_size / 2 + 4096);
	obj[2].handle = batch_create(fd);
	memset(&eb, 0, sizeof(eb));
	eb.buffers_ptr = to_user_pointer(obj);
	eb.buffer_count = 3;
	igt_assert_err(__execbuf(fd, &eb), -ENOSPC);
	gem_close(fd, obj[0].handle);
	gem_close(fd, obj[1].handle);
	gem_close(fd, obj[2].handle);
	close(fd);
}

static int secure_child(void *arg)
{
	int fd = drm_open_driver_render();
	struct drm_i915_gem_exec_object2 obj[1];
	struct drm_i915_gem_execbuffer2 eb;

	(void)arg;
	igt_drop_root();
	setup(fd, obj, 1, &eb);
	eb.flags = I915_EXEC_SECURE;
	igt_assert_err(__execbuf(fd, &eb), -EPERM);
	gem_close(fd, obj[0].handle);
	close(fd);
	return 0;
}

static void subtest_secure(void)
{
	igt_fork_and_check(secure_child, NULL);
}

static void subtest_v1(void)
{
	int fd = drm_open_driver();
	struct drm_i915_gem_exec_object obj[1];
	struct drm_i915_gem_execbuffer eb;
	struct drm_clip_rect rect = { 10, 10, 10, 20 };

	memset(obj, 0, sizeof(obj));
	obj[0].handle = batch_create(fd);
	memset(&eb, 0, sizeof(eb));
	eb.buffers_ptr = to_user_pointer(obj);
	eb.buffer_count = 0;
	igt_assert_err(igt_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER, &eb),
		       -EINVAL);
	eb.buffer_count = 1;
	eb.num_cliprects = 1;
	eb.cliprects_ptr = to_user_pointer(&rect);
	igt_assert_err(igt_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER, &eb),
		       -EINVAL);
	eb.num_cliprects = 100000;
	igt_assert_err(igt_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER, &eb),
		       -EINVAL);
	eb.num_cliprects = 1;
	eb.cliprects_ptr = 8;
	igt_assert_err(igt_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER, &eb),
		       -EFAULT);
	gem_close(fd, obj[0].handle);
	close(fd);
}

/* A real batch, with an out-fence; the GPU finishes it. */
static void subtest_run(void)
{
	int fd = drm_open_driver();
	struct drm_i915_gem_exec_object2 obj[1];
	struct drm_i915_gem_execbuffer2 eb;
	struct drm_i915_gem_wait w;
	struct drm_i915_gem_busy b;
	int ret;

	setup(fd, obj, 1, &eb);
	eb.flags = I915_EXEC_FENCE_OUT;
	igt_assert_ok(__execbuf(fd, &eb));
	igt_assert(obj[0].offset != 0);
	close(eb.rsvd2 >> 32);

	memset(&b, 0, sizeof(b));
	b.handle = obj[0].handle;
	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_I915_GEM_BUSY, &b));
	igt_assert(b.busy == 0 || (b.busy & 0x10000));

	memset(&w, 0, sizeof(w));
	w.bo_handle = obj[0].handle;
	w.timeout_ns = 10ll * 1000 * 1000 * 1000;
	ret = igt_ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &w);
	igt_assert_ok(ret);
	igt_assert(w.timeout_ns > 0);

	gem_close(fd, obj[0].handle);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(getparams),
	SUBTEST(args),
	SUBTEST(objects),
	SUBTEST(relocs),
	SUBTEST(nospace),
	SUBTEST(secure),
	SUBTEST(v1),
	SUBTEST(run),
};

igt_main(tests)
