// SPDX-License-Identifier: GPL-2.0
/*
 * gem_exec_drv_hang: batches that hang the GPU.  A bad command stops the
 * model's engine with an error interrupt, a batch that jumps to itself
 * never ends and the hang check notices; either way the waiter gets -EIO,
 * further execbuffers -EIO, and writing debugfs i915_wedged restarts the
 * idle ring so that the device works again (and the tests after this one
 * run on a healthy GPU).
 */
#include <unistd.h>

#include "gem.h"

#define MI_BATCH_BUFFER_END	(0xa << 23)
#define MI_BATCH_BUFFER_START	(0x31 << 23 | 2 << 6)
#define XY_COLOR_BLT		(0x54000000 | 4)

static bool intel_gen_is3(int fd)
{
	unsigned int id = gem_getparam(fd, I915_PARAM_CHIPSET_ID);

	return id == 0x2772 || id == 0x2582 || id == 0x2592 || id == 0x27a2 ||
	       id == 0x27ae || id == 0x29c2 || id == 0x29b2 || id == 0x29d2;
}

static int __execbuf(int fd, struct drm_i915_gem_execbuffer2 *eb)
{
	return igt_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, eb);
}

/* Run @b as a batch softpinned at @addr (0: anywhere). */
static int exec_batch(int fd, const uint32_t *b, unsigned int n,
		      uint64_t addr, uint32_t *handle)
{
	struct drm_i915_gem_exec_object2 obj[1];
	struct drm_i915_gem_execbuffer2 eb;

	memset(obj, 0, sizeof(obj));
	obj[0].handle = gem_create(fd, 4096);
	obj[0].offset = addr;
	obj[0].flags = addr ? EXEC_OBJECT_PINNED : 0;
	gem_write(fd, obj[0].handle, 0, b, n * 4);
	memset(&eb, 0, sizeof(eb));
	eb.buffers_ptr = to_user_pointer(obj);
	eb.buffer_count = 1;
	*handle = obj[0].handle;
	return __execbuf(fd, &eb);
}

static int wedged(int fd)
{
	char buf[16];

	igt_assert(igt_debugfs_read(fd, "i915_wedged", buf, sizeof(buf)) > 0);
	return atoi(buf);
}

/* The GPU works: a fill of a softpinned object lands. */
static void check_alive(int fd)
{
	uint32_t b[8] = { XY_COLOR_BLT | 3 << 20, 3 << 24 | 0xf0 << 16 | 64,
			  0, 1 << 16 | 16, 48 << 20, 0x12345678,
			  MI_BATCH_BUFFER_END, 0 };
	struct drm_i915_gem_exec_object2 obj[2];
	struct drm_i915_gem_execbuffer2 eb;
	uint32_t v;

	memset(obj, 0, sizeof(obj));
	obj[0].handle = gem_create(fd, 4096);
	obj[0].offset = 48 << 20;
	obj[0].flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE;
	obj[1].handle = gem_create(fd, 4096);
	gem_write(fd, obj[1].handle, 0, b, sizeof(b));
	memset(&eb, 0, sizeof(eb));
	eb.buffers_ptr = to_user_pointer(obj);
	eb.buffer_count = 2;
	igt_assert_ok(__execbuf(fd, &eb));
	gem_read(fd, obj[0].handle, 60, &v, sizeof(v));
	igt_assert_eq(v, 0x12345678);
	gem_close(fd, obj[0].handle);
	gem_close(fd, obj[1].handle);
}

static void hang_and_recover(int fd, const uint32_t *b, unsigned int n,
			     uint64_t addr)
{
	struct drm_i915_gem_wait w;
	uint32_t h, h2, v;
	double t0 = igt_now();

	igt_assert_eq(wedged(fd), 0);
	igt_assert_ok(exec_batch(fd, b, n, addr, &h));
	memset(&w, 0, sizeof(w));
	w.bo_handle = h;
	w.timeout_ns = -1;
	igt_assert_err(igt_ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &w), -EIO);
	igt_info("hang reported after %.2f s", igt_now() - t0);
	igt_assert_eq(wedged(fd), 1);
	igt_assert_err(__gem_read(fd, h, 0, &v, sizeof(v)), -EIO);
	igt_assert_err(exec_batch(fd, b, n, 0, &h2), -EIO);
	igt_assert_err(igt_ioctl(fd, DRM_IOCTL_I915_GEM_THROTTLE, NULL), -EIO);
	gem_close(fd, h2);
	gem_close(fd, h);

	igt_assert_ok(igt_debugfs_write(fd, "i915_wedged", "0"));
	igt_assert_eq(wedged(fd), 0);
	check_alive(fd);
}

/* A command the engine does not know: an error interrupt. */
static void subtest_bad_command(void)
{
	int fd = drm_open_driver();
	uint32_t b[4] = { 0x20000000, 0, MI_BATCH_BUFFER_END, 0 };

	hang_and_recover(fd, b, 4, 0);
	close(fd);
}

/* A batch that jumps to itself for ever: the hang check. */
static void subtest_endless(void)
{
	int fd = drm_open_driver();
	uint32_t b[4] = { MI_BATCH_BUFFER_START, 32 << 20, 0, 0 };

	if (intel_gen_is3(fd))
		b[1] |= 1;		/* non-secure, Gen3 form */
	else
		b[0] |= 1 << 8;		/* non-secure, Gen4 form */
	hang_and_recover(fd, b, 4, 32 << 20);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(bad_command),
	SUBTEST(endless),
};

igt_main(tests)
