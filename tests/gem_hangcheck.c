// SPDX-License-Identifier: GPL-2.0
/*
 * gem_hangcheck: the hang check runs only while the GPU has work.
 *
 *  - idle: with nothing outstanding, the count of hang checks (debugfs
 *    i915_requests, "hang checks: N") stays where it is, even with a
 *    20 ms interval: no periodic wakeups on an idle GPU.
 *  - busy: a batch that runs for about half a second arms the check;
 *    it runs every interval while the batch runs (and does not declare
 *    a hang: the engine moves), then stops once the GPU is idle again.
 *  - zero_rejected: hangcheck_ms=0 (which used to requeue the check
 *    with no delay) and garbage are refused with EINVAL and the
 *    interval stays what it was; 1 is accepted.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "exec.h"

#define PARAM	"/sys/module/i915/parameters/hangcheck_ms"

static void subtest_idle(void)
{
	int fd = drm_open_driver();
	long long c0, c1;

	uint32_t bbe = bbe_create(fd, 0);
	struct drm_i915_gem_exec_object2 obj = { .handle = bbe };
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(&obj),
		.buffer_count = 1,
		.batch_len = 8,
	};

	gem_set_hangcheck_ms(20);
	/* some work first, which arms the check */
	gem_execbuf(fd, &eb);
	gem_sync(fd, bbe);
	gem_close(fd, bbe);
	gem_quiescent_gpu(fd);
	/*
	 * A check armed by earlier work (with the interval of then, 1 s by
	 * default) runs once more and finds the GPU idle.
	 */
	usleep(1200 * 1000);
	c0 = gem_hang_checks(fd);
	usleep(600 * 1000);
	c1 = gem_hang_checks(fd);
	igt_info("hang checks while idle for 600 ms (20 ms interval): %lld",
		 c1 - c0);
	igt_assert_eq(c1 - c0, 0);
	close(fd);
}

static void subtest_busy(void)
{
	int fd = drm_open_driver();
	struct batch *b;
	struct bo target;
	struct surf s;
	long long c0, c1, c2, c3;
	double t0, took;
	uint32_t got;
	int i;

	gem_set_hangcheck_ms(100);
	gem_require_unwedged(fd, 100);
	b = batch_new(fd);
	bo_init(&target, fd, PAGE_SZ);
	gem_quiescent_gpu(fd);
	usleep(1200 * 1000);	/* as in idle */
	c0 = gem_hang_checks(fd);

	/* about 18 commands of 30 ms: the engine moves between checks */
	s = (struct surf){ &target, 256, 4, 64, 16 };
	sim_set_cmd_delay(30 * 1000);
	for (i = 0; i < 10; i++)
		emit_xy_fill(b, &s, 0, 0, 1, 1, i + 1);
	t0 = igt_now();
	batch_submit_sync(b);
	took = igt_now() - t0;
	sim_set_cmd_delay(0);
	c1 = gem_hang_checks(fd);
	igt_info("hang checks during a %d-fill batch of %.2f s: %lld", i,
		 took, c1 - c0);
	igt_assert(c1 - c0 >= 2);
	igt_assert(!gem_is_wedged(fd));
	gem_read(fd, target.handle, 0, &got, sizeof(got));
	igt_assert_eq_u64(got, 10);

	/* at most one more check, which finds the GPU idle */
	usleep(300 * 1000);
	c2 = gem_hang_checks(fd);
	usleep(600 * 1000);
	c3 = gem_hang_checks(fd);
	igt_assert_eq(c3 - c2, 0);
	bo_fini(&target, fd);
	batch_free(b);
	close(fd);
}

static long read_long(const char *path)
{
	long long v = -1;
	char buf[32] = "";
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	igt_assert(fd >= 0);
	igt_assert(read(fd, buf, sizeof(buf) - 1) > 0);
	close(fd);
	igt_assert(sscanf(buf, "%lld", &v) == 1);
	return v;
}

static void subtest_zero_rejected(void)
{
	gem_set_hangcheck_ms(321);
	igt_assert_err(igt_write_file(PARAM, "0"), -EINVAL);
	igt_assert_eq(read_long(PARAM), 321);
	igt_assert_err(igt_write_file(PARAM, "soon"), -EINVAL);
	igt_assert_eq(read_long(PARAM), 321);
	igt_assert_ok(igt_write_file(PARAM, "1"));
	igt_assert_eq(read_long(PARAM), 1);
	gem_set_hangcheck_ms(1000);
}

static const struct igt_subtest tests[] = {
	SUBTEST(idle),
	SUBTEST(busy),
	SUBTEST(zero_rejected),
};

igt_main(tests)
