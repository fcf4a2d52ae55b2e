// SPDX-License-Identifier: GPL-2.0
/*
 * gem_exec_drv_stress: concurrent execbuffers over shared objects in
 * random orders, in a GTT narrowed to force eviction: exercises the ww
 * backoff, eviction under contention and request retirement.
 */
#include <sys/wait.h>
#include <unistd.h>

#include "gem.h"

#define MI_BATCH_BUFFER_END	(0xa << 23)
#define XY_COLOR_BLT		(0x54000000 | 4)
#define NOBJ	24
#define NCHILD	4
#define LOOPS	100

static uint32_t handles[NOBJ];

static int child(void *arg)
{
	int fd = *(int *)arg;
	struct drm_i915_gem_relocation_entry r[4];
	struct drm_i915_gem_exec_object2 obj[5];
	struct drm_i915_gem_execbuffer2 eb;
	uint32_t b[32], batch = gem_create(fd, 4096);
	unsigned int loop, i, n;
	unsigned int seed = getpid();

	for (loop = 0; loop < LOOPS; loop++) {
		unsigned int pick[4];

		memset(obj, 0, sizeof(obj));
		memset(r, 0, sizeof(r));
		for (i = 0; i < 4; i++) {
			unsigned int j;
again:
			pick[i] = rand_r(&seed) % NOBJ;
			for (j = 0; j < i; j++)
				if (pick[j] == pick[i])
					goto again;
			obj[i].handle = handles[pick[i]];
		}
		n = 0;
		for (i = 0; i < 4; i++) {
			b[n++] = XY_COLOR_BLT | (3 << 20);
			b[n++] = 3 << 24 | 0xf0 << 16 | 256;
			b[n++] = 0;
			b[n++] = 4 << 16 | 64;
			r[i].target_handle = obj[i].handle;
			r[i].offset = n * 4;
			r[i].presumed_offset = -1;
			r[i].read_domains = I915_GEM_DOMAIN_RENDER;
			r[i].write_domain = I915_GEM_DOMAIN_RENDER;
			b[n++] = 0;
			b[n++] = pick[i];
		}
		b[n++] = MI_BATCH_BUFFER_END;
		b[n++] = 0;
		gem_write(fd, batch, 0, b, n * 4);
		obj[4].handle = batch;
		obj[4].relocs_ptr = to_user_pointer(r);
		obj[4].relocation_count = 4;
		memset(&eb, 0, sizeof(eb));
		eb.buffers_ptr = to_user_pointer(obj);
		eb.buffer_count = 5;
		igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb));
	}
	gem_close(fd, batch);
	return 0;
}

static void subtest_concurrent(void)
{
	int fd = drm_open_driver();
	struct drm_i915_gem_init init = { .gtt_start = 1 << 20,
					  .gtt_end = 7 << 20 };
	struct drm_i915_gem_get_aperture ap;
	pid_t pids[NCHILD];
	unsigned int i;

	igt_assert_ok(__gem_get_aperture(fd, &ap));
	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_I915_GEM_INIT, &init));
	for (i = 0; i < NOBJ; i++)
		handles[i] = gem_create(fd, 512 << 10);
	for (i = 0; i < NCHILD; i++)
		pids[i] = igt_fork(child, &fd);
	for (i = 0; i < NCHILD; i++)
		igt_assert_eq(igt_wait(pids[i]), 0);
	for (i = 0; i < NOBJ; i++) {
		uint32_t v;

		gem_read(fd, handles[i], 0, &v, 4);
		igt_assert_eq(v, i);
		gem_close(fd, handles[i]);
	}
	init.gtt_start = 0;
	init.gtt_end = ap.aper_size;
	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_I915_GEM_INIT, &init));
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(concurrent),
};

igt_main(tests)
