// SPDX-License-Identifier: GPL-2.0
/*
 * gem_busy_wait_throttle: the IRQ cookies seen from user space.
 *
 * The model is slowed (sim_cmd_delay_us) so that a batch of a few
 * hundred MI_NOOPs stays on the GPU long enough to be watched:
 *
 *  - BUSY: upstream's encoding (a writer: the render class + 1 in the
 *    low half and its read bit; a reader: bit 16 + class), then 0;
 *  - WAIT: timeout 0 polls (-ETIME while busy), a short timeout expires
 *    with -ETIME, a long one returns 0 with the time left written back,
 *    a negative one waits for as long as it takes; bad flags or handle;
 *  - SET_DOMAIN and PREAD wait for the GPU;
 *  - THROTTLE waits for the caller's requests older than 20 ms and no
 *    others, and never for another client's;
 *  - GEM_CLOSE of a busy object is safe and leaks nothing: the object
 *    stays alive and bound until its batch is done, then goes by itself;
 *  - debugfs i915_gem_drop_caches idles the GPU and frees what it held.
 */
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "exec.h"

#define DELAY_US	1000	/* per command */

/*
 * A batch of @noops MI_NOOPs, then a store of @value into @target
 * (written), and a relocation to @read_only (if any) that only reads it.
 */
static struct batch *slow_batch(int fd, struct bo *target, struct bo *read_only,
				unsigned int noops, uint32_t value)
{
	struct batch *b = batch_new(fd);
	unsigned int i;

	for (i = 0; i < noops; i++)
		batch_emit(b, MI_NOOP);
	emit_store_dword(b, target, 0, value);
	if (read_only) {
		/* an address after the end: read by nothing, but listed */
		batch_emit(b, MI_BATCH_BUFFER_END);
		batch_emit(b, MI_NOOP);
		batch_reloc(b, read_only, 0, I915_GEM_DOMAIN_SAMPLER, 0);
	}
	batch_submit(b);
	return b;
}

/* poll BUSY until 0; returns the seconds it took */
static double wait_idle_by_busy(int fd, uint32_t handle, double limit)
{
	double t0 = igt_now();

	while (gem_busy(fd, handle)) {
		igt_assert_f(igt_now() - t0 < limit,
			     "still busy after %.1f s", limit);
		igt_sleep_ms(1);
	}
	return igt_now() - t0;
}

static void subtest_busy_idle(void)
{
	int fd = drm_open_driver();
	uint32_t handle = gem_create(fd, PAGE_SZ), busy;

	igt_assert_eq(gem_busy(fd, handle), 0);
	igt_assert_err(__gem_busy(fd, handle + 100, &busy), -ENOENT);
	igt_assert_err(__gem_busy(fd, 0, &busy), -ENOENT);
	gem_close(fd, handle);
	close(fd);
}

/* a writer, a reader and the batch: their flags, then all idle */
static void subtest_busy_flags(void)
{
	int fd = drm_open_driver();
	struct bo w, r;
	struct batch *b;
	uint32_t value;

	sim_set_cmd_delay(DELAY_US);
	bo_init(&w, fd, PAGE_SZ);
	bo_init(&r, fd, PAGE_SZ);
	b = slow_batch(fd, &w, &r, 300, 0xb05b05);
	igt_assert_eq_u64(gem_busy(fd, w.handle),
			  BUSY_READ_RENDER | BUSY_WRITE_RENDER);
	igt_assert_eq_u64(gem_busy(fd, r.handle), BUSY_READ_RENDER);
	igt_assert_eq_u64(gem_busy(fd, b->bo.handle), BUSY_READ_RENDER);
	igt_info("idle after %.3f s", wait_idle_by_busy(fd, w.handle, 10));
	igt_assert_eq(gem_busy(fd, r.handle), 0);
	igt_assert_eq(gem_busy(fd, b->bo.handle), 0);
	gem_read(fd, w.handle, 0, &value, sizeof(value));
	igt_assert_eq_u64(value, 0xb05b05);
	batch_free(b);
	bo_fini(&w, fd);
	bo_fini(&r, fd);
	close(fd);
}

/* EXEC_OBJECT_WRITE marks an object written without a relocation */
static void subtest_busy_exec_object_write(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct bo t, marked;
	unsigned int i;

	sim_set_cmd_delay(DELAY_US);
	bo_init(&t, fd, PAGE_SZ);
	bo_init(&marked, fd, PAGE_SZ);
	for (i = 0; i < 300; i++)
		batch_emit(b, MI_NOOP);
	emit_store_dword(b, &t, 0, 1);
	batch_add(b, &marked);
	batch_end(b);
	gem_write(fd, b->bo.handle, 0, b->dw, batch_offset(b));
	{
		struct drm_i915_gem_exec_object2 obj[3] = {
			{ .handle = t.handle },
			{ .handle = marked.handle, .flags = EXEC_OBJECT_WRITE },
			{ .handle = b->bo.handle,
			  .relocation_count = b->nreloc,
			  .relocs_ptr = to_user_pointer(b->reloc) },
		};
		struct drm_i915_gem_execbuffer2 eb = {
			.buffers_ptr = to_user_pointer(obj),
			.buffer_count = 3,
			.batch_len = batch_offset(b),
		};

		gem_execbuf(fd, &eb);
	}
	igt_assert_eq_u64(gem_busy(fd, marked.handle),
			  BUSY_READ_RENDER | BUSY_WRITE_RENDER);
	gem_sync(fd, b->bo.handle);
	igt_assert_eq(gem_busy(fd, marked.handle), 0);
	bo_fini(&t, fd);
	bo_fini(&marked, fd);
	batch_free(b);
	close(fd);
}

static void subtest_busy_render_node(void)
{
	int fd = drm_open_driver_render();
	struct batch *b;
	struct bo w;

	sim_set_cmd_delay(DELAY_US);
	bo_init(&w, fd, PAGE_SZ);
	b = slow_batch(fd, &w, NULL, 200, 1);
	igt_assert_neq(gem_busy(fd, w.handle), 0);
	wait_idle_by_busy(fd, w.handle, 10);
	batch_free(b);
	bo_fini(&w, fd);
	close(fd);
}

/* timeout 0 polls: -ETIME while busy, 0 once idle */
static void subtest_wait_poll(void)
{
	int fd = drm_open_driver();
	int64_t timeout = 0;
	struct batch *b;
	struct bo w;

	sim_set_cmd_delay(DELAY_US);
	bo_init(&w, fd, PAGE_SZ);
	b = slow_batch(fd, &w, NULL, 300, 1);
	igt_assert_err(__gem_wait(fd, w.handle, &timeout), -ETIME);
	igt_assert_eq(timeout, 0);
	wait_idle_by_busy(fd, w.handle, 10);
	timeout = 0;
	igt_assert_ok(__gem_wait(fd, w.handle, &timeout));
	igt_assert_eq(timeout, 0);
	batch_free(b);
	bo_fini(&w, fd);
	close(fd);
}

/* a short timeout expires: -ETIME, no time left, and it did wait */
static void subtest_wait_timeout_expires(void)
{
	int fd = drm_open_driver();
	int64_t timeout = 20 * 1000 * 1000;
	struct batch *b;
	struct bo w;
	double t0;

	sim_set_cmd_delay(DELAY_US);
	bo_init(&w, fd, PAGE_SZ);
	b = slow_batch(fd, &w, NULL, 500, 1);
	t0 = igt_now();
	igt_assert_err(__gem_wait(fd, w.handle, &timeout), -ETIME);
	igt_info("waited %.3f s", igt_now() - t0);
	igt_assert(igt_now() - t0 >= 0.019);
	igt_assert_eq(timeout, 0);
	igt_assert_neq(gem_busy(fd, w.handle), 0);
	gem_sync(fd, w.handle);
	batch_free(b);
	bo_fini(&w, fd);
	close(fd);
}

/* a long timeout: 0 when done, the time left written back */
static void subtest_wait_timeout_left(void)
{
	const int64_t ten_s = 10ll * 1000 * 1000 * 1000;
	int fd = drm_open_driver();
	int64_t timeout = ten_s;
	struct batch *b;
	uint32_t value;
	struct bo w;
	double t0, waited;

	sim_set_cmd_delay(DELAY_US);
	bo_init(&w, fd, PAGE_SZ);
	b = slow_batch(fd, &w, NULL, 300, 0x7e57);
	t0 = igt_now();
	igt_assert_ok(__gem_wait(fd, w.handle, &timeout));
	waited = igt_now() - t0;
	igt_info("waited %.3f s, %.3f s left", waited, timeout / 1e9);
	igt_assert_lt(0, timeout);
	igt_assert_lt(timeout, ten_s);
	/* what the kernel says it used is about what we saw */
	igt_assert(ten_s - timeout <= (waited + 0.05) * 1e9);
	igt_assert_eq(gem_busy(fd, w.handle), 0);
	gem_read(fd, w.handle, 0, &value, sizeof(value));
	igt_assert_eq_u64(value, 0x7e57);
	batch_free(b);
	bo_fini(&w, fd);
	close(fd);
}

/* a negative timeout waits as long as it takes */
static void subtest_wait_forever(void)
{
	int fd = drm_open_driver();
	int64_t timeout = -1;
	struct batch *b;
	struct bo w;

	sim_set_cmd_delay(DELAY_US);
	bo_init(&w, fd, PAGE_SZ);
	b = slow_batch(fd, &w, NULL, 300, 1);
	igt_assert_ok(__gem_wait(fd, w.handle, &timeout));
	igt_assert_eq(gem_busy(fd, w.handle), 0);
	batch_free(b);
	bo_fini(&w, fd);
	close(fd);
}

static void subtest_wait_bad_args(void)
{
	int fd = drm_open_driver();
	uint32_t handle = gem_create(fd, PAGE_SZ);
	struct drm_i915_gem_wait w = { .bo_handle = handle, .flags = 1 };
	int64_t timeout = 0;

	igt_assert_err(igt_ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &w), -EINVAL);
	w.flags = 0x80000000;
	igt_assert_err(igt_ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &w), -EINVAL);
	igt_assert_err(__gem_wait(fd, handle + 100, &timeout), -ENOENT);
	igt_assert_err(__gem_wait(fd, 0, &timeout), -ENOENT);
	/* an idle object: done at once, whatever the timeout */
	igt_assert_ok(__gem_wait(fd, handle, &timeout));
	timeout = 1000000;
	igt_assert_ok(__gem_wait(fd, handle, &timeout));
	gem_close(fd, handle);
	close(fd);
}

/* SET_DOMAIN(CPU) and PREAD wait for the GPU's write */
static void subtest_set_domain_waits(void)
{
	int fd = drm_open_driver();
	struct batch *b;
	uint32_t *map;
	struct bo w;

	sim_set_cmd_delay(DELAY_US);
	bo_init(&w, fd, PAGE_SZ);
	map = gem_mmap__cpu(fd, w.handle, 0, PAGE_SZ);
	b = slow_batch(fd, &w, NULL, 300, 0xd0d0);
	gem_set_domain(fd, w.handle, I915_GEM_DOMAIN_CPU, 0);
	igt_assert_eq(gem_busy(fd, w.handle), 0);
	igt_assert_eq_u64(map[0], 0xd0d0);
	batch_free(b);
	munmap(map, PAGE_SZ);
	bo_fini(&w, fd);
	close(fd);
}

static void subtest_pread_waits(void)
{
	int fd = drm_open_driver();
	struct batch *b;
	uint32_t value;
	struct bo w;

	sim_set_cmd_delay(DELAY_US);
	bo_init(&w, fd, PAGE_SZ);
	b = slow_batch(fd, &w, NULL, 300, 0xfeed);
	gem_read(fd, w.handle, 0, &value, sizeof(value));
	igt_assert_eq_u64(value, 0xfeed);
	batch_free(b);
	bo_fini(&w, fd);
	close(fd);
}

/* SET_CACHING rebinds a busy object only once the GPU is done with it */
static void subtest_set_caching_busy(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	uint32_t got[64], want[64];
	struct bo w;
	int i;

	sim_set_cmd_delay(DELAY_US);
	bo_init(&w, fd, PAGE_SZ);
	for (i = 0; i < 64; i++) {
		want[i] = pattern_dw(61, i);
		emit_store_dword(b, &w, 4 * i, want[i]);
	}
	batch_submit(b);
	igt_assert_neq(gem_busy(fd, w.handle), 0);
	igt_assert_ok(__gem_set_caching(fd, w.handle, I915_CACHING_CACHED));
	igt_assert_ok(__gem_set_caching(fd, w.handle, I915_CACHING_NONE));
	gem_read(fd, w.handle, 0, got, sizeof(got));
	igt_assert_mem(got, want, sizeof(got), "stores across SET_CACHING");
	batch_free(b);
	bo_fini(&w, fd);
	close(fd);
}

static void subtest_throttle_idle(void)
{
	int fd = drm_open_driver();
	double t0 = igt_now();

	igt_assert_ok(__gem_throttle(fd));
	igt_assert(igt_now() - t0 < 0.5);
	close(fd);
}

/*
 * Four batches of ~100 ms, 50 ms of sleep (they are now older than
 * 20 ms), one young batch of ~300 ms, THROTTLE: the old ones are done
 * when it returns, the young one is not.
 */
static void subtest_throttle_waits_for_old(void)
{
	int fd = drm_open_driver();
	struct batch *old[4], *young;
	struct bo t[5];
	double t0, took;
	int i;

	sim_set_cmd_delay(DELAY_US);
	for (i = 0; i < 5; i++)
		bo_init(&t[i], fd, PAGE_SZ);
	t0 = igt_now();
	for (i = 0; i < 4; i++)
		old[i] = slow_batch(fd, &t[i], NULL, 100, i + 1);
	igt_sleep_ms(50);
	young = slow_batch(fd, &t[4], NULL, 300, 5);
	igt_assert_neq(gem_busy(fd, t[3].handle), 0);
	igt_assert_ok(__gem_throttle(fd));
	took = igt_now() - t0;
	igt_info("throttle returned %.3f s after the first submission", took);
	for (i = 0; i < 4; i++)
		igt_assert_eq(gem_busy(fd, t[i].handle), 0);
	igt_assert_neq(gem_busy(fd, t[4].handle), 0);
	gem_sync(fd, t[4].handle);
	for (i = 0; i < 4; i++)
		batch_free(old[i]);
	batch_free(young);
	for (i = 0; i < 5; i++)
		bo_fini(&t[i], fd);
	close(fd);
}

/* only the caller's requests count: another client's are not waited for */
static void subtest_throttle_per_file(void)
{
	int fd = drm_open_driver(), other = drm_open_driver();
	struct batch *b;
	struct bo w;
	double t0;

	sim_set_cmd_delay(DELAY_US);
	bo_init(&w, fd, PAGE_SZ);
	b = slow_batch(fd, &w, NULL, 600, 1);
	igt_sleep_ms(50);
	t0 = igt_now();
	igt_assert_ok(__gem_throttle(other));
	igt_info("the other client's throttle took %.3f s", igt_now() - t0);
	igt_assert_neq(gem_busy(fd, w.handle), 0);
	igt_assert_ok(__gem_throttle(fd));
	igt_assert_eq(gem_busy(fd, w.handle), 0);
	batch_free(b);
	bo_fini(&w, fd);
	close(other);
	close(fd);
}

/* closing a busy object: fine, and it is freed once the GPU is done */
static void subtest_close_busy(void)
{
	int fd = drm_open_driver();
	long long before, bytes;
	struct batch *b;
	struct bo w, r;

	sim_set_cmd_delay(DELAY_US);
	gem_quiescent_gpu(fd);	/* nothing left from earlier subtests */
	igt_gem_objects(fd, &before, &bytes);
	bo_init(&w, fd, PAGE_SZ);
	bo_init(&r, fd, 4 * PAGE_SZ);
	b = slow_batch(fd, &w, &r, 300, 1);
	igt_assert_neq(gem_busy(fd, w.handle), 0);
	gem_close(fd, w.handle);
	gem_close(fd, r.handle);
	igt_assert_err(__gem_busy(fd, w.handle, &(uint32_t){ 0 }), -ENOENT);
	gem_sync(fd, b->bo.handle);
	batch_free(b);
	igt_assert_eq(gem_wait_object_count(fd, before), before);
	close(fd);
}

/* objects debugfs i915_gem_objects lists as waiting for their free */
static int objects_being_freed(int fd)
{
	static char buf[1 << 16];
	const char *p = buf;
	int ret, n = 0;

	ret = igt_debugfs_read(fd, "i915_gem_objects", buf, sizeof(buf));
	igt_assert_f(ret > 0, "reading i915_gem_objects: %s",
		     igt_errname(ret));
	while ((p = strstr(p, ", being freed\n"))) {
		n++;
		p++;
	}
	return n;
}

/*
 * Objects closed while their batch runs: a request holds no reference,
 * and their free waits for its fence.  While it runs they are still
 * counted and still bound; once it is done they go without anyone
 * asking (no drop_caches).
 */
static void subtest_close_busy_stays_bound(void)
{
	int fd = drm_open_driver();
	long long before, during, bytes;
	struct batch *b;
	struct bo w, r;
	uint64_t used;

	sim_set_cmd_delay(DELAY_US);
	gem_quiescent_gpu(fd);	/* nothing left from earlier subtests */
	igt_gem_objects(fd, &before, &bytes);
	bo_init(&w, fd, PAGE_SZ);
	bo_init(&r, fd, 4 * PAGE_SZ);
	b = slow_batch(fd, &w, &r, 1000, 1);
	used = gem_gtt_used(fd);
	gem_close(fd, w.handle);
	gem_close(fd, r.handle);
	igt_gem_objects(fd, &during, &bytes);
	igt_assert_eq(objects_being_freed(fd), 2);
	igt_assert_eq_u64(gem_gtt_used(fd), used);
	/* still running: the readings above saw the objects busy */
	igt_assert_neq(gem_busy(fd, b->bo.handle), 0);
	igt_assert_eq(during, before + 3);	/* w, r and the batch */

	gem_sync(fd, b->bo.handle);
	igt_assert_eq(gem_wait_object_count(fd, before + 1), before + 1);
	igt_assert_eq(objects_being_freed(fd), 0);
	igt_assert_lt((long long)gem_gtt_used(fd), (long long)used);
	batch_free(b);
	close(fd);
}

/* closing the fd with work in flight: everything goes away */
static void subtest_close_fd_busy(void)
{
	int fd = drm_open_driver(), watcher = drm_open_driver();
	long long before, bytes;
	struct batch *b;
	struct bo w;

	sim_set_cmd_delay(DELAY_US);
	gem_quiescent_gpu(watcher);
	igt_gem_objects(watcher, &before, &bytes);
	bo_init(&w, fd, PAGE_SZ);
	b = slow_batch(fd, &w, NULL, 300, 1);
	free(b);	/* its object goes with the fd */
	close(fd);
	igt_sleep_ms(500);
	igt_assert_eq(gem_wait_object_count(watcher, before), before);
	close(watcher);
}

/*
 * debugfs i915_gem_drop_caches with igt's quiescent mask (ACTIVE, RETIRE,
 * FREED, IDLE): when the write returns the GPU is idle, without any
 * waiting by us, and closed objects the GPU still held are freed.
 */
static void subtest_drop_caches_idles(void)
{
	int fd = drm_open_driver();
	long long before, after, bytes;
	struct batch *b;
	struct bo w, gone;
	uint32_t value;
	double t0;

	sim_set_cmd_delay(DELAY_US);
	gem_quiescent_gpu(fd);	/* nothing left from earlier subtests */
	igt_gem_objects(fd, &before, &bytes);
	bo_init(&w, fd, PAGE_SZ);
	bo_init(&gone, fd, PAGE_SZ);
	b = slow_batch(fd, &w, &gone, 600, 0xd209);
	gem_close(fd, gone.handle);
	igt_assert_neq(gem_busy(fd, w.handle), 0);

	t0 = igt_now();
	igt_assert_ok(igt_debugfs_write(fd, "i915_gem_drop_caches", "0x5c"));
	igt_info("drop_caches waited %.3f s", igt_now() - t0);
	igt_assert_eq(gem_busy(fd, w.handle), 0);
	igt_assert_eq(gem_busy(fd, b->bo.handle), 0);
	igt_gem_objects(fd, &after, &bytes);
	igt_assert_eq(after, before + 2);	/* w and the batch */
	gem_read(fd, w.handle, 0, &value, sizeof(value));
	igt_assert_eq_u64(value, 0xd209);
	batch_free(b);
	bo_fini(&w, fd);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(busy_idle),
	SUBTEST(busy_flags),
	SUBTEST(busy_exec_object_write),
	SUBTEST(busy_render_node),
	SUBTEST(wait_poll),
	SUBTEST(wait_timeout_expires),
	SUBTEST(wait_timeout_left),
	SUBTEST(wait_forever),
	SUBTEST(wait_bad_args),
	SUBTEST(set_domain_waits),
	SUBTEST(pread_waits),
	SUBTEST(set_caching_busy),
	SUBTEST(throttle_idle),
	SUBTEST(throttle_waits_for_old),
	SUBTEST(throttle_per_file),
	SUBTEST(close_busy),
	SUBTEST(close_busy_stays_bound),
	SUBTEST(close_fd_busy),
	SUBTEST(drop_caches_idles),
};

igt_main(tests)
