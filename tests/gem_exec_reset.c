// SPDX-License-Identifier: GPL-2.0
/*
 * gem_exec_reset: a GPU hang costs the client that caused it, nobody else.
 *
 *  - innocent_clients: three clients blit (XY_COLOR_BLT, XY_SRC_COPY_BLT)
 *    without pause, every pixel of every result compared with a CPU
 *    reference, while a fourth hangs the GPU: a batch that jumps to its
 *    own start for ever, then a batch with an unknown MI command, then
 *    ten hangs in a row (it is banned after its third within 120 s, as
 *    upstream bans a context: its later execbuffers get EIO while the
 *    others go on), then ten more hangs, each by a new client.  The
 *    hanger's WAIT returns 0 and its sync_file says EIO, GET_RESET_STATS
 *    counts its hangs (batch_active) and nobody else's; every innocent
 *    blit lands (and
 *    some innocent waited behind a hang: its requests were replayed);
 *    nothing but the driver acts (no debugfs write, no reload); after
 *    each hang the device takes new work (how soon is logged, not
 *    asserted).
 *  - ring_full_behind_hang: an innocent client whose exec waits for ring
 *    space behind a looping batch gets 0 when the reset cancels it.
 *  - unbannable: a root client that cleared CONTEXT_PARAM_BANNABLE hangs
 *    five times and is never banned.
 *  - reset_stats_errnos, context_param_errnos: upstream 6.1's answers
 *    for GET_RESET_STATS and CONTEXT_GETPARAM/SETPARAM on these parts.
 *
 * Runs with reset=1 and hangcheck_ms=100; both are restored at exit.
 */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "exec.h"

#define HANGCHECK_MS	100
#define INNOCENTS	3
/* MI client, opcode 0x1f: no such command on Gen3/Gen4 */
#define BAD_COMMAND	MI_INSTR(0x1f, 0)
#define SIDE		64
/* empty execs: more than a ring (32 requests per KiB) of requests */
#define RING_FILL_EXECS	4000

/* a stuck engine is hung after 3 checks, a looping one after 30 */
#define STUCK_LIMIT_S	(3 * HANGCHECK_MS / 1000.0 + 2)
#define LOOP_LIMIT_S	(30 * HANGCHECK_MS / 1000.0 + 2)

struct shared {
	volatile int stop;
	int side;
	unsigned long blits[INNOCENTS];
	double longest_wait[INNOCENTS];
};

static struct shared *sh;

struct image {
	struct bo bo;
	struct surf s;
	struct ref ref;
};

static void image_init(struct image *im, int fd, int side)
{
	bo_init(&im->bo, fd, side * side * 4);
	im->s = (struct surf){ &im->bo, side * 4, 4, side, side };
	ref_init(&im->ref, &im->s, im->bo.size);
}

static void image_fini(struct image *im, int fd)
{
	ref_fini(&im->ref);
	bo_fini(&im->bo, fd);
}

static int innocent(void *arg)
{
	int idx = (int)(uintptr_t)arg;
	int fd = drm_open_driver();
	struct drm_i915_reset_stats rs;
	struct image src, dst;
	unsigned long n = 0;
	uint32_t seed = 0x1000 * (idx + 1);
	double longest = 0;
	int side = sh->side;

	image_init(&src, fd, side);
	image_init(&dst, fd, side);
	while (!sh->stop) {
		struct batch *b = batch_new(fd);
		int64_t forever = -1;
		int x = n % (side / 2), y = (n * 7) % (side / 2);
		double t0;
		int ret;

		emit_xy_fill(b, &src.s, 0, 0, side, side, pattern_dw(seed, n));
		ref_fill(&src.ref, 0, 0, side, side, pattern_dw(seed, n));
		emit_xy_fill(b, &src.s, x, y, 8, 8, pattern_dw(seed, n + 1));
		ref_fill(&src.ref, x, y, 8, 8, pattern_dw(seed, n + 1));
		emit_xy_copy(b, &dst.s, y, x, &src.s, x, y, side / 2,
			     side / 2);
		ref_copy(&dst.ref, y, x, &src.ref, x, y, side / 2, side / 2);
		t0 = igt_now();
		ret = __batch_submit(b, 0);
		igt_assert_f(ret == 0, "innocent %d: exec %lu: %s", idx, n,
			     igt_errname(ret));
		ret = __gem_wait(fd, dst.bo.handle, &forever);
		igt_assert_f(ret == 0, "innocent %d: WAIT %lu: %s", idx, n,
			     igt_errname(ret));
		if (igt_now() - t0 > longest)
			longest = igt_now() - t0;
		check_surface(fd, dst.bo.handle, &dst.ref,
			      "innocent %d, blit %lu", idx, n);
		check_surface(fd, src.bo.handle, &src.ref,
			      "innocent %d, fill %lu", idx, n);
		batch_free(b);
		n++;
	}
	gem_reset_stats(fd, &rs);
	igt_assert_f(rs.batch_active == 0 && rs.batch_pending == 0,
		     "innocent %d: batch_active %u, batch_pending %u", idx,
		     rs.batch_active, rs.batch_pending);
	sh->blits[idx] = n;
	sh->longest_wait[idx] = longest;
	image_fini(&src, fd);
	image_fini(&dst, fd);
	close(fd);
	return 0;
}

/* an empty batch from a client of its own: seconds until it completed */
static double new_work_takes(void)
{
	int fd = drm_open_driver();
	uint32_t bbe = bbe_create(fd, 0);
	struct drm_i915_gem_exec_object2 obj = { .handle = bbe };
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(&obj),
		.buffer_count = 1,
	};
	double t0 = igt_now();

	gem_execbuf(fd, &eb);
	gem_sync(fd, bbe);
	gem_close(fd, bbe);
	close(fd);
	return igt_now() - t0;
}

/*
 * A batch that fills @target, runs 500 MI_NOOPs (so that ACTHD is seen
 * moving: a batch running past the bound of 30 checks, not a stuck one)
 * and jumps back to its own start.
 */
static struct batch *loop_batch(int fd, struct bo *target)
{
	struct batch *b = batch_new(fd);
	struct surf s = { target, SIDE * 4, 4, SIDE, SIDE };
	unsigned int i;

	emit_xy_fill(b, &s, 0, 0, SIDE, SIDE, 0x1eaf);
	for (i = 0; i < 500; i++)
		batch_emit(b, MI_NOOP);
	emit_batch_start(b, &b->bo, 0);
	return b;
}

/*
 * The error state of the looping batch, for the error-decode lane:
 * intel_error_decode must show its fill and its jump to itself.
 */
static void save_loop_error_state(int fd)
{
	static const char *const expect[] = {
		"XY_COLOR_BLT", "MI_NOOP", "MI_BATCH_BUFFER_START",
	};
	char sysfs[128], debugfs[128], *text;
	size_t len;

	gem_error_state_paths(fd, sysfs, debugfs, sizeof(sysfs));
	text = igt_read_whole(sysfs, 4096, &len);
	igt_assert_f(strstr(text, "rcs0 --- batch = "),
		     "no batch in the error state of the loop:\n%.1000s", text);
	gem_error_state_save(fd, "reset-loop", text, expect,
			     ARRAY_SIZE(expect));
	free(text);
}

/* a batch that fills @target, then has a command the GPU does not know */
static struct batch *bad_batch(int fd, struct bo *target)
{
	struct batch *b = batch_new(fd);
	struct surf s = { target, SIDE * 4, 4, SIDE, SIDE };

	emit_xy_fill(b, &s, 0, 0, SIDE, SIDE, 0xbad);
	batch_emit(b, BAD_COMMAND);
	batch_emit(b, MI_NOOP);
	return b;
}

/*
 * Submit @b (or assert it is refused with EIO when @banned); its WAIT
 * must return 0 (upstream's answer after a reset) with its sync_file
 * saying EIO, and new work must run after it (the times, against @limit
 * s, are logged only: nothing here depends on the host's speed).
 * Returns 0 if it hung, -EIO if it was refused.
 */
/* How long the last hang() waited for its batch's EIO. */
static double hang_took;

static int hang(int fd, struct batch *b, struct bo *target, double limit,
		const char *what)
{
	int64_t forever = -1;
	double t0 = igt_now(), took, recover;
	uint64_t rsvd2 = 0;
	int ret;

	ret = __batch_submit_wr(b, I915_EXEC_FENCE_OUT, &rsvd2);
	if (ret == -EIO)
		return ret;
	igt_assert_f(ret == 0, "%s: exec: %s", what, igt_errname(ret));
	ret = __gem_wait(fd, target->handle, &forever);
	took = igt_now() - t0;
	hang_took = took;
	igt_assert_f(ret == 0, "%s: WAIT says %s, expected 0", what,
		     igt_errname(ret));
	ret = sync_file_status(rsvd2 >> 32);
	close(rsvd2 >> 32);
	igt_assert_f(ret == -EIO, "%s: the fence says %s, expected EIO", what,
		     igt_errname(ret));
	recover = new_work_takes();
	/* how long is the host's business: logged, not asserted */
	igt_info("%s: EIO after %.2f s (%.1f s expected), new work ran %.2f s later",
		 what, took, limit, recover);
	igt_assert_eq(gem_wedged_debugfs(fd), 0);
	return 0;
}

static void memset32_px(uint32_t *p, uint32_t v, unsigned int n)
{
	while (n--)
		*p++ = v;
}

static unsigned int batch_active(int fd)
{
	struct drm_i915_reset_stats rs;

	gem_reset_stats(fd, &rs);
	igt_assert_eq(rs.batch_pending, 0);
	return rs.batch_active;
}

static void setup(int fd)
{
	gem_gen(fd);
	gem_set_reset(1);
	gem_set_hangcheck_ms(HANGCHECK_MS);
	if (gem_wedged_debugfs(fd))
		igt_fail("the device is wedged before the test");
}

static void subtest_innocent_clients(void)
{
	int fd = drm_open_driver();
	pid_t pids[INNOCENTS];
	struct batch *b;
	struct bo target;
	uint32_t resets0;
	double loop_took;
	unsigned int i, hangs = 0, refused = 0;
	char what[64];
	int ret;

	setup(fd);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	igt_assert(sh != MAP_FAILED);
	memset(sh, 0, sizeof(*sh));
	sh->side = SIDE;
	resets0 = gem_reset_count(fd);
	for (i = 0; i < INNOCENTS; i++)
		pids[i] = igt_fork(innocent, (void *)(uintptr_t)i);
	usleep(300 * 1000);

	bo_init(&target, fd, SIDE * SIDE * 4);
	b = loop_batch(fd, &target);
	gem_error_state_clear(fd);
	igt_assert_eq(hang(fd, b, &target, LOOP_LIMIT_S, "looping batch"), 0);
	loop_took = hang_took;
	batch_free(b);
	igt_assert_eq(batch_active(fd), 1);
	save_loop_error_state(fd);

	b = bad_batch(fd, &target);
	igt_assert_eq(hang(fd, b, &target, STUCK_LIMIT_S, "bad command"), 0);
	batch_free(b);
	igt_assert_eq(batch_active(fd), 2);

	/* ten in a row: the third hang within 120 s bans the client */
	for (i = 0; i < 10; i++) {
		b = bad_batch(fd, &target);
		snprintf(what, sizeof(what), "hang %u in a row", i + 1);
		ret = hang(fd, b, &target, STUCK_LIMIT_S, what);
		batch_free(b);
		if (ret)
			refused++;
		else
			hangs++;
		igt_assert_f(!hangs || refused || i == 0,
			     "still not banned after %u hangs", hangs + 2);
	}
	igt_info("banned after %u hangs, %u execs refused", hangs + 2,
		 refused);
	igt_assert_eq(hangs, 1);
	igt_assert_eq(refused, 9);
	igt_assert_eq(batch_active(fd), 3);
	/* the others still run while it is refused */
	igt_assert(!sh->stop);
	igt_info("new work ran after %.2f s", new_work_takes());
	bo_fini(&target, fd);
	close(fd);

	/* ten more, each by a new client, back to back */
	for (i = 0; i < 10; i++) {
		int hfd = drm_open_driver();

		bo_init(&target, hfd, SIDE * SIDE * 4);
		b = bad_batch(hfd, &target);
		snprintf(what, sizeof(what), "new client's hang %u", i + 1);
		igt_assert_eq(hang(hfd, b, &target, STUCK_LIMIT_S, what), 0);
		batch_free(b);
		igt_assert_eq(batch_active(hfd), 1);
		bo_fini(&target, hfd);
		close(hfd);
	}

	fd = drm_open_driver();
	igt_info("GPU resets: %u", gem_reset_count(fd) - resets0);
	igt_assert_eq(gem_reset_count(fd) - resets0, 13);
	close(fd);

	sh->stop = 1;
	for (i = 0; i < INNOCENTS; i++)
		igt_assert_eq(igt_wait(pids[i]), 0);
	for (i = 0; i < INNOCENTS; i++) {
		igt_info("innocent %u: %lu blits verified, longest wait %.2f s",
			 i, sh->blits[i], sh->longest_wait[i]);
		igt_assert(sh->blits[i] > 0);
	}
	/*
	 * Every innocent had work queued behind the looping batch, replayed
	 * after the reset: one of its WAITs lasted about as long as the loop
	 * ran.  (How long that is varies: the loop is reset after 30 checks
	 * busy, or sooner when three checks in a row find ACTHD on the same
	 * command, the fill or a host stall of the model's vCPU.)
	 */
	for (i = 0; i < INNOCENTS; i++)
		igt_assert_f(sh->longest_wait[i] > loop_took / 2,
			     "innocent %u waited at most %.2f s behind a loop of %.2f s",
			     i, sh->longest_wait[i], loop_took);
	munmap(sh, sizeof(*sh));
}

#define LOAD_GTT	(2u << 20)	/* managed range: eviction all along */
#define LOAD_SIDE	256		/* 256 KiB images */
#define PWRITE_SIZE	(1u << 20)

/* pwrite a pattern into 1 MiB, let the GPU fill a corner, pread it all */
static int pwriter(void *arg)
{
	int fd = drm_open_driver();
	uint32_t *data = malloc(PWRITE_SIZE), *back = malloc(PWRITE_SIZE);
	struct bo bo;
	struct surf s;
	unsigned long n = 0;
	unsigned int i;

	igt_assert(data && back);
	bo_init(&bo, fd, PWRITE_SIZE);
	s = (struct surf){ &bo, 1024, 4, 256, PWRITE_SIZE / 1024 };
	while (!sh->stop) {
		struct batch *b = batch_new(fd);

		for (i = 0; i < PWRITE_SIZE / 4; i++)
			data[i] = pattern_dw(n, i);
		/* waits for the GPU's last fill of it: mid-pwrite */
		gem_write(fd, bo.handle, 0, data, PWRITE_SIZE);
		emit_xy_fill(b, &s, 0, 0, 16, 16, 0x5eed);
		for (i = 0; i < 16; i++)
			memset32_px(&data[i * 256], 0x5eed, 16);
		igt_assert_ok(__batch_submit(b, 0));
		gem_read(fd, bo.handle, 0, back, PWRITE_SIZE);
		igt_assert_mem(back, data, PWRITE_SIZE, "pwriter round %lu", n);
		batch_free(b);
		n++;
	}
	igt_assert_eq(batch_active(fd), 0);
	bo_fini(&bo, fd);
	free(data);
	free(back);
	close(fd);
	return 0;
}

/*
 * Hangs while clients exec (into a narrow GTT: every exec evicts), wait
 * and pwrite: they all finish unharmed (and, on the debug lane, without
 * a lockdep, KASAN or kmemleak report).
 */
static void subtest_under_load(void)
{
	int fd = drm_open_driver();
	pid_t pids[INNOCENTS + 1];
	uint64_t base;
	struct batch *b;
	struct bo target;
	unsigned int i;
	char what[64];

	setup(fd);
	base = gem_gtt_stolen(fd);
	if (base < PAGE_SZ)
		base = PAGE_SZ;
	gem_narrow_gtt(fd, base, base + LOAD_GTT);
	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	igt_assert(sh != MAP_FAILED);
	memset(sh, 0, sizeof(*sh));
	sh->side = LOAD_SIDE;
	for (i = 0; i < INNOCENTS; i++)
		pids[i] = igt_fork(innocent, (void *)(uintptr_t)i);
	pids[INNOCENTS] = igt_fork(pwriter, NULL);
	usleep(300 * 1000);

	for (i = 0; i < 6; i++) {
		int hfd = drm_open_driver();

		bo_init(&target, hfd, SIDE * SIDE * 4);
		b = i % 3 ? bad_batch(hfd, &target) : loop_batch(hfd, &target);
		snprintf(what, sizeof(what), "hang %u under load", i + 1);
		igt_assert_eq(hang(hfd, b, &target, LOOP_LIMIT_S, what), 0);
		batch_free(b);
		bo_fini(&target, hfd);
		close(hfd);
		usleep(100 * 1000);
	}

	sh->stop = 1;
	for (i = 0; i <= INNOCENTS; i++)
		igt_assert_eq(igt_wait(pids[i]), 0);
	for (i = 0; i < INNOCENTS; i++)
		igt_info("innocent %u: %lu blits verified", i, sh->blits[i]);
	munmap(sh, sizeof(*sh));
	close(fd);
}

static void subtest_unbannable(void)
{
	struct drm_i915_gem_context_param p = {
		.param = I915_CONTEXT_PARAM_BANNABLE,
	};
	int fd = drm_open_driver();
	struct batch *b;
	struct bo target;
	unsigned int i;

	setup(fd);
	igt_assert_ok(__gem_context_param(fd, true, &p));
	p.value = 1;
	igt_assert_ok(__gem_context_param(fd, false, &p));
	igt_assert_eq(p.value, 0);
	bo_init(&target, fd, SIDE * SIDE * 4);
	for (i = 0; i < 5; i++) {
		b = bad_batch(fd, &target);
		igt_assert_eq(hang(fd, b, &target, STUCK_LIMIT_S,
				   "unbannable hang"), 0);
		batch_free(b);
	}
	igt_assert_eq(batch_active(fd), 5);
	bo_fini(&target, fd);
	close(fd);
}

/*
 * An innocent client fills the ring behind a looping batch: the exec
 * that waits for ring space while the reset cancels the loop must
 * succeed (the cancelled request made room), as every later one.
 */
static void subtest_ring_full_behind_hang(void)
{
	int fd = drm_open_driver(), ifd = drm_open_driver();
	uint32_t bbe = bbe_create(ifd, 0);
	struct drm_i915_gem_exec_object2 obj = { .handle = bbe };
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(&obj),
		.buffer_count = 1,
	};
	int64_t forever = -1;
	uint64_t rsvd2 = 0;
	struct batch *b;
	struct bo target;
	unsigned int i;
	int ret;

	setup(fd);
	bo_init(&target, fd, SIDE * SIDE * 4);
	b = loop_batch(fd, &target);
	igt_assert_ok(__batch_submit_wr(b, I915_EXEC_FENCE_OUT, &rsvd2));
	/* more than a ring of requests: the last ones wait for space */
	for (i = 0; i < RING_FILL_EXECS; i++) {
		ret = __gem_execbuf(ifd, &eb);
		igt_assert_f(ret == 0, "innocent exec %u behind the hang: %s",
			     i, igt_errname(ret));
	}
	igt_assert_eq(sync_file_status(rsvd2 >> 32), -EIO);
	close(rsvd2 >> 32);
	igt_assert_ok(__gem_wait(ifd, bbe, &forever));
	igt_assert_eq(batch_active(ifd), 0);
	batch_free(b);
	bo_fini(&target, fd);
	gem_close(ifd, bbe);
	close(ifd);
	close(fd);
}

static int nobody_checks(void *arg)
{
	int fd = (int)(uintptr_t)arg;
	struct drm_i915_gem_context_param p = {
		.param = I915_CONTEXT_PARAM_BANNABLE,
	};
	struct drm_i915_reset_stats rs;

	igt_assert_ok(setgid(65534));
	igt_assert_ok(setuid(65534));
	/* only root may make itself unbannable, or see the reset count */
	igt_assert_err(__gem_context_param(fd, true, &p), -EPERM);
	p.value = 1;
	igt_assert_ok(__gem_context_param(fd, true, &p));
	gem_reset_stats(fd, &rs);
	igt_assert_eq(rs.reset_count, 0);
	return 0;
}

static void subtest_reset_stats_errnos(void)
{
	int fd = drm_open_driver();
	struct drm_i915_reset_stats rs = { };

	setup(fd);
	igt_assert_ok(__gem_reset_stats(fd, &rs));
	rs.flags = 1;
	igt_assert_err(__gem_reset_stats(fd, &rs), -EINVAL);
	rs.flags = 0;
	rs.pad = 1;
	igt_assert_err(__gem_reset_stats(fd, &rs), -EINVAL);
	rs.pad = 0;
	rs.ctx_id = 1;
	igt_assert_err(__gem_reset_stats(fd, &rs), -ENOENT);
	igt_fork_and_check(nobody_checks, (void *)(uintptr_t)fd);
	close(fd);
}

static void subtest_context_param_errnos(void)
{
	int fd = drm_open_driver();
	struct drm_i915_gem_context_param p = {
		.param = I915_CONTEXT_PARAM_BANNABLE,
	};

	setup(fd);
	igt_assert_ok(__gem_context_param(fd, false, &p));
	igt_assert_eq(p.value, 1);
	igt_assert_eq(p.size, 0);
	p.param = I915_CONTEXT_PARAM_RECOVERABLE;
	igt_assert_ok(__gem_context_param(fd, false, &p));
	igt_assert_eq(p.value, 1);
	/* removed before 6.1: EINVAL both ways */
	p.param = I915_CONTEXT_PARAM_BAN_PERIOD;
	igt_assert_err(__gem_context_param(fd, false, &p), -EINVAL);
	igt_assert_err(__gem_context_param(fd, true, &p), -EINVAL);
	p.param = I915_CONTEXT_PARAM_BANNABLE;
	p.size = 4;
	p.value = 1;
	igt_assert_err(__gem_context_param(fd, true, &p), -EINVAL);
	p.size = 0;
	p.ctx_id = 1;
	igt_assert_err(__gem_context_param(fd, false, &p), -ENOENT);
	igt_assert_err(__gem_context_param(fd, true, &p), -ENOENT);
	p.ctx_id = 0;
	p.param = ~0ull;
	igt_assert_err(__gem_context_param(fd, false, &p), -EINVAL);
	igt_assert_err(__gem_context_param(fd, true, &p), -EINVAL);
	close(fd);
}

/*
 * GETPARAM HAS_GPU_RESET: 1 while hangs reset the GPU (every Gen3/Gen4
 * part can; none resets a single engine, which would be 2), 0 when the
 * reset parameter is 0, as upstream.  igt skips its hang tests on 0.
 */
static void subtest_has_gpu_reset(void)
{
	int fd = drm_open_driver();
	int v = -1;

	gem_set_reset(1);
	igt_assert_ok(__gem_getparam(fd, I915_PARAM_HAS_GPU_RESET, &v));
	igt_assert_eq(v, 1);
	gem_set_reset(0);
	igt_assert_ok(__gem_getparam(fd, I915_PARAM_HAS_GPU_RESET, &v));
	igt_assert_eq(v, 0);
	gem_set_reset(1);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST_T(innocent_clients, 180),
	SUBTEST_T(under_load, 180),
	SUBTEST_T(unbannable, 60),
	SUBTEST_T(ring_full_behind_hang, 60),
	SUBTEST(reset_stats_errnos),
	SUBTEST(context_param_errnos),
	SUBTEST(has_gpu_reset),
};

igt_main(tests)
