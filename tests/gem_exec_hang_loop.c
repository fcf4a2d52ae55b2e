// SPDX-License-Identifier: GPL-2.0
/*
 * gem_exec_hang_loop: a batch that never ends.
 *
 * The batch fills a target, then jumps back to its own start with
 * MI_BATCH_BUFFER_START, forever.  The hang check sees no breadcrumb
 * while the engine keeps running and declares the GPU hung:
 *
 *  - loop_resets (reset=1, the default): the GPU is reset; every waiter
 *    of the hung batch (WAIT, SET_DOMAIN, PREAD, another process blocked
 *    in WAIT) returns 0 within seconds, as upstream's, while the batch's
 *    sync_file (FENCE_OUT) says EIO; the engine no longer loops (its
 *    command count stays put: STOP_RING alone let a command through now
 *    and then), the device is not wedged and the same client's next
 *    blit lands;
 *  - reset0_wedges (reset=0): the device is wedged instead (debugfs
 *    i915_wedged reads 1), the engine stopped all the same;
 *    wedged_refuses_work: new execbuffers and THROTTLE get EIO, and
 *    everything that does not need the GPU still works; recover: reset=1
 *    and a write of debugfs i915_wedged bring it back;
 *  - dead_client_resets: the loop of a client that closed its file (as a
 *    killed igt's spinner: 960 MI_NOOPs then a jump back, so the engine
 *    always moves) is reset within 15 hang checks, about
 *    upstream's heartbeat time, not after the 30 a live client's long
 *    batch has; another client's store queued behind it then lands;
 *  - request_timeout: with the module parameter request_timeout_ms at
 *    500 (upstream's request expiry; 0, off, by default here, where
 *    Debian builds 6.1 with 20 s: parameters.rst), a file opened then has its loop cancelled long before the
 *    hang check (5 s a check, 30 for a moving engine) would: the WAIT
 *    returns 0, the sync_file says EINTR (a hang says EIO), no error
 *    state is captured (upstream's cancellation captures none), the
 *    device is not wedged and the next blit lands.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "exec.h"

#define HANGCHECK_MS	100
#define LIMIT_S		15.0	/* 30 checks of 100 ms, with lots of slack */

/* @target seen as a 64 x 16 surface of 32 bpp */
static struct surf target_surf(struct bo *target)
{
	return (struct surf){ target, 256, 4, 64, 16 };
}

/* fill @target with 0x1eaf, then loop: jump to the batch's start */
static struct batch *emit_loop(int fd, struct bo *target)
{
	struct batch *b = batch_new(fd);
	struct surf s = target_surf(target);

	emit_xy_fill(b, &s, 0, 0, 64, 16, 0x1eaf);
	emit_batch_start(b, &b->bo, 0);
	return b;
}

static int waiter(void *arg)
{
	int fd = drm_open_driver();
	uint32_t handle = gem_open(fd, (uint32_t)(uintptr_t)arg);
	int64_t forever = -1;
	int ret = __gem_wait(fd, handle, &forever);

	igt_info("the other process's WAIT: %s", igt_errname(ret));
	gem_close(fd, handle);
	close(fd);
	return ret == 0 ? 0 : 1;
}

/*
 * First, what is not a hang: a batch that runs for about 10 hang checks
 * without a breadcrumb, but moving all the time, completes.  (Before the
 * hang check looked at ACTHD, 3 checks without a breadcrumb wedged; now
 * a moving engine has 30.)  How long a command takes depends on the
 * kernel (about 1 ms here, 4 on the debug kernel), so the batch's length
 * comes from a timed run of a short one.
 */
#define LONG_HANGCHECK_MS	200
#define LONG_CHECKS		10
#define PROBE_NOOPS		200

/* Run @noops MI_NOOPs and a 1-pixel fill of @value; seconds taken. */
static double run_noops(int fd, struct bo *target, unsigned int noops,
			uint32_t value)
{
	struct batch *b = batch_new(fd);
	struct surf s = target_surf(target);
	uint32_t got;
	unsigned int i;
	double t0, took;

	for (i = 0; i < noops; i++)
		batch_emit(b, MI_NOOP);
	emit_xy_fill(b, &s, 0, 0, 1, 1, value);
	t0 = igt_now();
	batch_submit(b);
	gem_sync(fd, target->handle);
	took = igt_now() - t0;
	gem_read(fd, target->handle, 0, &got, sizeof(got));
	igt_assert_eq_u64(got, value);
	batch_free(b);
	return took;
}

static void subtest_long_batch_lives(void)
{
	int fd = drm_open_driver();
	unsigned int noops;
	struct bo target;
	double per_cmd, took;

	gem_require_unwedged(fd, LONG_HANGCHECK_MS);
	bo_init(&target, fd, PAGE_SZ);
	sim_set_cmd_delay(1000);
	per_cmd = run_noops(fd, &target, PROBE_NOOPS, 1) / PROBE_NOOPS;
	noops = LONG_CHECKS * LONG_HANGCHECK_MS / 1000.0 / per_cmd;
	took = run_noops(fd, &target, noops, 0x10c6);
	sim_set_cmd_delay(0);
	igt_info("%.2f ms a command: %u commands ran %.2f s, %.0f hang checks",
		 per_cmd * 1000, noops, took, took * 1000 / LONG_HANGCHECK_MS);
	igt_assert_f(took * 1000 > 4 * LONG_HANGCHECK_MS,
		     "the batch was too quick to prove anything");
	igt_assert(!gem_is_wedged(fd));
	bo_fini(&target, fd);
	close(fd);
}

/* Samples of the command count 200 ms apart before it must be at rest. */
#define SETTLE_TRIES	10

/* the looping batch: WAIT (here and in another process) ends, its fence EIO */
static void loop_hangs(int fd, bool wedges)
{
	struct batch *b;
	struct bo target;
	int64_t forever = -1;
	long long commands;
	double t0, took;
	uint32_t dw;
	pid_t other;
	int ret, i, fence;

	gem_require_unwedged(fd, HANGCHECK_MS);
	gem_set_reset(!wedges);
	bo_init(&target, fd, PAGE_SZ);
	b = emit_loop(fd, &target);
	t0 = igt_now();
	/* the batch relocates against itself: it is in the list, last */
	fence = batch_submit_fence(b);
	igt_assert_neq(gem_busy(fd, target.handle), 0);
	other = igt_fork(waiter, (void *)(uintptr_t)gem_flink(fd,
							     target.handle));

	ret = __gem_wait(fd, target.handle, &forever);
	took = igt_now() - t0;
	igt_info("WAIT returned %s after %.2f s", igt_errname(ret), took);
	igt_assert_ok(ret);
	igt_assert(took < LIMIT_S);
	/* the hang check ended it, not the GPU */
	igt_assert_err(sync_file_status(fence), -EIO);
	close(fence);
	igt_assert_eq(igt_wait(other), 0);

	igt_assert_ok(__gem_set_domain(fd, target.handle,
				       I915_GEM_DOMAIN_CPU, 0));
	/* the hung request is over: nothing is busy any more */
	igt_assert_eq(gem_busy(fd, target.handle), 0);
	igt_assert_eq(gem_busy(fd, b->bo.handle), 0);
	igt_assert_ok(__gem_read(fd, b->bo.handle, 0, &dw, 4));
	igt_assert_eq(gem_wedged_debugfs(fd), wedges);

	/*
	 * and the engine no longer loops: the reset stopped it.  The ring's
	 * restart may still be running the hung request's breadcrumb when
	 * WAIT returns, so the count must come to rest, not be still at
	 * once; a loop never rests.
	 */
	for (i = 0; i < SETTLE_TRIES; i++) {
		commands = sim_cs_value("commands");
		usleep(200 * 1000);
		if (sim_cs_value("commands") == commands)
			break;
	}
	igt_assert_f(i < SETTLE_TRIES,
		     "the engine still runs commands %d x 200 ms after the reset",
		     SETTLE_TRIES);

	batch_free(b);
	bo_fini(&target, fd);
}

static void subtest_loop_resets(void)
{
	int fd = drm_open_driver();
	struct bo t;
	struct surf s;
	struct ref r;
	struct batch *b;

	loop_hangs(fd, false);
	/* the device was reset, not wedged: the same client draws again */
	igt_assert(!gem_is_wedged(fd));
	bo_init(&t, fd, PAGE_SZ);
	s = target_surf(&t);
	ref_init(&r, &s, t.size);
	b = batch_new(fd);
	emit_xy_fill(b, &s, 3, 2, 40, 9, 0x600d);
	ref_fill(&r, 3, 2, 40, 9, 0x600d);
	batch_submit(b);
	check_surface(fd, t.handle, &r, "a fill after the reset");
	ref_fini(&r);
	batch_free(b);
	bo_fini(&t, fd);
	close(fd);
}

static void subtest_reset0_wedges(void)
{
	int fd = drm_open_driver();

	loop_hangs(fd, true);
	close(fd);
}

/* a wedged device refuses GPU work and serves everything else */
static void subtest_wedged_refuses_work(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct drm_i915_gem_execbuffer v1 = { 0 };
	struct drm_i915_gem_exec_object v1obj = { 0 };
	uint32_t data[256], back[256];
	int64_t timeout = 0;
	struct surf s;
	struct bo t;

	if (!gem_is_wedged(fd))
		igt_fail("the device is not wedged (did reset0_wedges run?)");
	bo_init(&t, fd, PAGE_SZ);
	s = target_surf(&t);
	emit_xy_fill(b, &s, 0, 0, 1, 1, 1);
	igt_assert_err(__batch_submit(b, 0), -EIO);
	igt_assert_err(__gem_throttle(fd), -EIO);

	batch_end(b);
	gem_write(fd, b->bo.handle, 0, b->dw, batch_offset(b));
	v1obj.handle = b->bo.handle;
	v1.buffers_ptr = to_user_pointer(&v1obj);
	v1.buffer_count = 1;
	v1.batch_len = batch_offset(b);
	igt_assert_err(__gem_execbuf_v1(fd, &v1), -EIO);

	/* an idle object: WAIT and SET_DOMAIN have nothing to wait for */
	igt_assert_ok(__gem_wait(fd, t.handle, &timeout));
	gem_set_domain(fd, t.handle, I915_GEM_DOMAIN_CPU,
		       I915_GEM_DOMAIN_CPU);
	igt_fill_pattern(data, sizeof(data), 3);
	gem_write(fd, t.handle, 100, data, sizeof(data));
	gem_read(fd, t.handle, 100, back, sizeof(back));
	igt_assert_mem(back, data, sizeof(data), "pwrite/pread when wedged");
	bo_fini(&t, fd);
	batch_free(b);
	close(fd);
}

/* reset=1 and debugfs i915_wedged reset the GPU and unwedge it */
static void subtest_recover(void)
{
	gem_recover_wedged("reset0_wedges");
}

#define DEAD_LOOP_NOOPS	960	/* igt's spinner pads its loop so */
#define DEAD_CHECKS_MAX	15

static void subtest_dead_client_resets(void)
{
	int fd = drm_open_driver();
	int dead = drm_open_driver();
	struct batch *b, *s;
	long long c0, checks;
	unsigned int i;
	struct bo t;
	uint32_t got;

	gem_require_unwedged(fd, HANGCHECK_MS);
	gem_set_reset(1);
	b = batch_new(dead);
	for (i = 0; i < DEAD_LOOP_NOOPS; i++)
		batch_emit(b, MI_NOOP);
	emit_batch_start(b, &b->bo, 0);
	batch_submit(b);
	c0 = gem_hang_checks(fd);
	/* killed: its loop runs on, and nobody will ever end it */
	close(dead);
	free(b);	/* its object went with the file */

	bo_init(&t, fd, PAGE_SZ);
	s = batch_new(fd);
	emit_store_dword(s, &t, 0, 0x600d);
	batch_submit(s);
	gem_sync(fd, t.handle);
	checks = gem_hang_checks(fd) - c0;
	igt_info("the dead client's loop was reset after %lld hang checks",
		 checks);
	gem_read(fd, t.handle, 0, &got, sizeof(got));
	igt_assert_eq_u64(got, 0x600d);
	igt_assert_f(checks <= DEAD_CHECKS_MAX,
		     "%lld hang checks for a dead client's loop", checks);
	igt_assert(!gem_is_wedged(fd));
	batch_free(s);
	bo_fini(&t, fd);
	close(fd);
}

#define TIMEOUT_PARAM	"/sys/module/i915/parameters/request_timeout_ms"

static unsigned int read_timeout_param(void)
{
	FILE *f = fopen(TIMEOUT_PARAM, "r");
	unsigned int v = 0;

	igt_assert_f(f, "no %s: %s", TIMEOUT_PARAM, strerror(errno));
	igt_assert_eq(fscanf(f, "%u", &v), 1);
	fclose(f);
	return v;
}

static void write_timeout_param(unsigned int v)
{
	FILE *f = fopen(TIMEOUT_PARAM, "w");

	igt_assert_f(f, "no writable %s: %s", TIMEOUT_PARAM, strerror(errno));
	igt_assert_lt(0, fprintf(f, "%u\n", v));
	igt_assert_eq(fclose(f), 0);
}

static void subtest_request_timeout(void)
{
	unsigned int saved = read_timeout_param();
	struct bo target;
	struct batch *b;
	int64_t forever = -1;
	uint64_t rsvd2 = 0;
	char text[64];
	uint32_t dw;
	int fd;

	igt_info("request_timeout_ms defaults to %u", saved);
	write_timeout_param(500);
	fd = drm_open_driver();		/* its requests expire after 500 ms */
	write_timeout_param(saved);
	/* a moving engine: 30 checks of 5 s before the hang check acts */
	gem_require_unwedged(fd, 5000);
	gem_set_reset(1);
	gem_error_state_clear(fd);
	bo_init(&target, fd, PAGE_SZ);
	b = emit_loop(fd, &target);
	igt_assert_ok(__batch_submit_wr(b, I915_EXEC_FENCE_OUT, &rsvd2));
	igt_assert_ok(__gem_wait(fd, target.handle, &forever));
	igt_assert_err(sync_file_status(rsvd2 >> 32), -EINTR);
	close(rsvd2 >> 32);
	igt_assert_lt(0, igt_debugfs_read(fd, "i915_error_state", text,
					  sizeof(text)));
	igt_assert_f(!strncmp(text, "No error state collected", 24),
		     "an error state was captured: %.40s", text);
	igt_assert_eq(gem_wedged_debugfs(fd), 0);
	batch_free(b);

	/* the next blit lands */
	b = batch_new(fd);
	{
		struct surf s = target_surf(&target);

		emit_xy_fill(b, &s, 0, 0, 1, 1, 0x600d);
	}
	batch_submit(b);
	gem_sync(fd, target.handle);
	gem_read(fd, target.handle, 0, &dw, sizeof(dw));
	igt_assert_eq_u64(dw, 0x600d);
	batch_free(b);
	bo_fini(&target, fd);
	gem_set_hangcheck_ms(HANGCHECK_MS);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST_T(long_batch_lives, 60),
	SUBTEST_T(loop_resets, 60),
	SUBTEST_T(reset0_wedges, 60),
	SUBTEST(wedged_refuses_work),
	SUBTEST(recover),
	SUBTEST_T(dead_client_resets, 60),
	SUBTEST_T(request_timeout, 60),
};

igt_main(tests)
