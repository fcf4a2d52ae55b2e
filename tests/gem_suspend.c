// SPDX-License-Identifier: GPL-2.0
/*
 * gem_suspend: system sleep with objects bound and work queued.
 *
 * Before each cycle a client has objects with known contents: one PIN'd,
 * one bound by an earlier exec and idle since, one never bound, a source
 * image, and targets of blits that are still queued (sim_cmd_delay_us
 * makes them slow) while a second process is blocked in GEM_WAIT on the
 * last of them.  Then a sleep cycle through /sys/power/pm_test:
 *
 *  - s3: "mem" at test level "platform": every device's suspend,
 *    suspend_late and suspend_noirq run, then resume.  The driver puts
 *    the GPU in D3hot, and where "mem" is S3 (mem_sleep "deep") the
 *    model's platform cuts its power as S3 would: registers, GTT and
 *    engine state are lost (i915_sim info: power_cycles grows);
 *  - s2idle: "freeze" at level "platform": only the driver's D3hot;
 *  - s3_devices: "mem" at level "devices": only suspend and resume run,
 *    the GPU keeps its power (the model counts no power cycle), but the
 *    driver pointed the whole GTT at scratch when it suspended;
 *  - s3_hung: a batch that loops for ever is running when "mem" is
 *    written: suspend waits for it until the hang check resets the GPU
 *    (100 ms checks), so the cycle ends, the waiter gets 0 (the fence,
 *    FENCE_OUT's sync_file, says EIO) and the
 *    device comes back working (not wedged: a blit lands);
 *  - s3_long_queue: "mem" at level "devices" with 18 s of batches
 *    queued, each finishing within 6 s of the last: suspend waits while
 *    requests keep completing (10 s without one, or 60 s in all, would
 *    wedge), so every batch's store lands and none reads EIO, where a
 *    flat 10 s wait wedged (igt's gem_exec_suspend@basic-S3-devices
 *    queues 1024 batches, seconds of work under emulation);
 *  - hibernate: "disk" at level "platform": freeze, freeze_late,
 *    freeze_noirq, thaw; Gen3/Gen4 stay in D0 there.  Only with
 *    gem_suspend.hibernate=1 on the kernel command line (scripts/vm/run.sh
 *    --append) or GEM_SUSPEND_HIBERNATE=1 in the environment, else it
 *    skips: the kernel preallocates the image and then waits 5 s at any
 *    hibernation test level, 12-20 s in all under TCG.
 *
 * After the cycle: the queued blits completed correctly (and the blocked
 * WAIT returned 0), every object is byte-exact, the PIN'd object kept its
 * offset, the interrupt registers read as before, and new blits that
 * read the objects bound before the cycle through their old GTT entries
 * are correct and signalled by a user interrupt (not by the hang check's
 * polling).  Skips without
 * /sys/power/pm_test (a kernel without CONFIG_PM_DEBUG or without
 * CONFIG_SUSPEND, such as the debug lane's) or without the sleep state.
 */
#include <fcntl.h>
#include <unistd.h>

#include "exec.h"

#define PM_TEST		"/sys/power/pm_test"
#define PM_STATE	"/sys/power/state"
#define PM_TEST_DELAY	"/sys/module/suspend/parameters/pm_test_delay"

#define W		256
#define H		64
#define CPP		4
#define PITCH		(W * CPP)
#define SIZE		(PITCH * H)
#define QUEUED		4
#define DELAY_US	20000	/* per command: about 0.2 s per batch */

struct image {
	struct bo bo;
	struct surf s;
	struct ref ref;
};

/* a line of debugfs i915_interrupt_info */
static long long irq_info(int fd, const char *key)
{
	return igt_debugfs_value(fd, "i915_interrupt_info", key);
}

static void image_init(struct image *im, int fd)
{
	bo_init(&im->bo, fd, SIZE);
	im->s.bo = &im->bo;
	im->s.pitch = PITCH;
	im->s.cpp = CPP;
	im->s.width = W;
	im->s.height = H;
	ref_init(&im->ref, &im->s, im->bo.size);
}

/* contents from a seed, in the object and in its reference */
static void image_write(struct image *im, int fd, uint32_t seed)
{
	igt_fill_pattern(im->ref.px, im->ref.size, seed);
	gem_write(fd, im->bo.handle, 0, im->ref.px, im->ref.size);
}

static void image_fini(struct image *im, int fd)
{
	ref_fini(&im->ref);
	bo_fini(&im->bo, fd);
}

static int read_text(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return 0;
}

static void require_sleep(const char *state)
{
	char buf[256];

	if (access(PM_TEST, W_OK))
		igt_skip("no %s: kernel without CONFIG_PM_DEBUG/CONFIG_SUSPEND",
			 PM_TEST);
	if (read_text(PM_STATE, buf, sizeof(buf)) || !strstr(buf, state))
		igt_skip("%s does not offer \"%s\"", PM_STATE, state);
	if (!read_text("/sys/power/mem_sleep", buf, sizeof(buf)))
		igt_info("mem_sleep: %s", buf);
}

static long long power_cycles(void)
{
	char path[256];
	long long v;

	sim_debugfs_path(path, sizeof(path), "info");
	return igt_file_key_value(path, "power_cycles", &v) ? -1 : v;
}

/* echo @level > pm_test; echo @state > /sys/power/state; back to none */
static void sleep_cycle(const char *state, const char *level)
{
	char delay[32] = "5";
	int ret;

	read_text(PM_TEST_DELAY, delay, sizeof(delay));
	igt_write_file(PM_TEST_DELAY, "0");
	igt_assert_ok(igt_write_file(PM_TEST, level));
	ret = igt_write_file(PM_STATE, state);
	igt_write_file(PM_TEST, "none");
	igt_write_file(PM_TEST_DELAY, delay);
	igt_assert_f(!ret, "echo %s > %s at pm_test %s: %s", state, PM_STATE,
		     level, igt_errname(ret));
}

struct waiter_arg {
	uint32_t name;
	struct ref *ref;
};

/* another client, blocked in WAIT across the cycle */
static int waiter(void *data)
{
	struct waiter_arg *arg = data;
	int fd = drm_open_driver();
	uint32_t handle = gem_open(fd, arg->name);
	int64_t forever = -1;
	int ret = __gem_wait(fd, handle, &forever);

	igt_assert_f(!ret, "the blocked WAIT: %s", igt_errname(ret));
	check_surface(fd, handle, arg->ref, "seen by the waiting client");
	gem_close(fd, handle);
	close(fd);
	return 0;
}

static void cycle_test(const char *state, const char *level, bool power_lost)
{
	struct image pinned, idle, cold, src, dst[QUEUED], fresh[2];
	struct batch *q[QUEUED];
	struct waiter_arg warg;
	long long before, after, ier, imr, user;
	uint64_t pin_offset;
	struct batch *b;
	pid_t child;
	int fd, i;

	require_sleep(state);
	fd = drm_open_driver();
	gem_quiescent_gpu(fd);
	before = power_cycles();
	ier = irq_info(fd, "IER");
	imr = irq_info(fd, "IMR");

	image_init(&pinned, fd);
	image_write(&pinned, fd, 1);
	pin_offset = gem_pin(fd, pinned.bo.handle, 0);
	pinned.bo.offset = pin_offset;

	/* bound by an exec, idle from then on */
	image_init(&idle, fd);
	image_write(&idle, fd, 2);
	b = batch_new(fd);
	batch_add(b, &idle.bo);
	batch_submit_sync(b);

	image_init(&cold, fd);
	image_write(&cold, fd, 3);
	image_init(&src, fd);
	image_write(&src, fd, 4);

	/* queued: each target filled, then parts of src and pinned copied in */
	sim_set_cmd_delay(DELAY_US);
	for (i = 0; i < QUEUED; i++) {
		image_init(&dst[i], fd);
		q[i] = batch_new(fd);
		emit_xy_fill(q[i], &dst[i].s, 0, 0, W, H, pattern_dw(i, 7));
		ref_fill(&dst[i].ref, 0, 0, W, H, pattern_dw(i, 7));
		batch_emit(q[i], MI_FLUSH);
		emit_xy_copy(q[i], &dst[i].s, i, 1, &src.s, 3, 2, W / 2, H / 2);
		ref_copy(&dst[i].ref, i, 1, &src.ref, 3, 2, W / 2, H / 2);
		emit_xy_copy(q[i], &dst[i].s, W / 2, H / 2, &pinned.s, 5, i,
			     W / 4, H / 4);
		ref_copy(&dst[i].ref, W / 2, H / 2, &pinned.ref, 5, i, W / 4,
			 H / 4);
		batch_submit(q[i]);
	}
	igt_assert_f(gem_busy(fd, dst[QUEUED - 1].bo.handle),
		     "the last blit already finished before the cycle");

	warg.name = gem_flink(fd, dst[QUEUED - 1].bo.handle);
	warg.ref = &dst[QUEUED - 1].ref;
	child = igt_fork(waiter, &warg);
	usleep(100 * 1000);

	sleep_cycle(state, level);
	sim_set_cmd_delay(0);

	after = power_cycles();
	igt_info("%s at pm_test %s: the model lost power %lld times",
		 state, level, after - before);
	if (before >= 0) {
		if (power_lost)
			igt_assert_lt(before, after);
		else
			igt_assert_eq(after, before);
	}

	igt_assert_eq(irq_info(fd, "IER"), ier);
	igt_assert_eq(irq_info(fd, "IMR"), imr);
	igt_assert_eq(igt_wait(child), 0);
	for (i = 0; i < QUEUED; i++)
		check_surface(fd, dst[i].bo.handle, &dst[i].ref,
			      "queued blit %d", i);
	check_surface(fd, pinned.bo.handle, &pinned.ref, "pinned object");
	check_surface(fd, idle.bo.handle, &idle.ref, "idle bound object");
	check_surface(fd, cold.bo.handle, &cold.ref, "never bound object");
	check_surface(fd, src.bo.handle, &src.ref, "source object");

	/* still pinned where it was */
	igt_assert_eq_u64(gem_pin(fd, pinned.bo.handle, 0), pin_offset);
	gem_unpin(fd, pinned.bo.handle);

	/* new work reads the objects through the entries bound before */
	for (i = 0; i < 2; i++) {
		image_init(&fresh[i], fd);
		emit_xy_fill(b, &fresh[i].s, 0, 0, W, H, pattern_dw(9, i));
		ref_fill(&fresh[i].ref, 0, 0, W, H, pattern_dw(9, i));
	}
	batch_emit(b, MI_FLUSH);
	emit_xy_copy(b, &fresh[0].s, 0, 0, &idle.s, 0, 0, W, H / 2);
	ref_copy(&fresh[0].ref, 0, 0, &idle.ref, 0, 0, W, H / 2);
	emit_xy_copy(b, &fresh[1].s, 7, 3, &pinned.s, 0, 0, W - 7, H - 3);
	ref_copy(&fresh[1].ref, 7, 3, &pinned.ref, 0, 0, W - 7, H - 3);
	emit_xy_copy(b, &fresh[1].s, 0, H - 8, &dst[0].s, 0, 0, W / 2, 8);
	ref_copy(&fresh[1].ref, 0, H - 8, &dst[0].ref, 0, 0, W / 2, 8);
	/*
	 * Slow, so that the wait sleeps until the interrupt wakes it (a wait
	 * that finds the batch done reads the count before the handler ran).
	 * The user interrupt is unmasked only while a fence is waited for,
	 * and the retire tick may signal a request between its breadcrumb
	 * and its MI_USER_INTERRUPT (a command's delay apart) and mask it
	 * again: the wait is on an empty batch queued behind, so that the
	 * blits' interrupt comes while it is armed.
	 */
	user = irq_info(fd, "user interrupts");
	sim_set_cmd_delay(DELAY_US);
	batch_submit(b);
	{
		struct drm_i915_gem_exec_object2 obj = {
			.handle = bbe_create(fd, 0),
		};
		struct drm_i915_gem_execbuffer2 eb = {
			.buffers_ptr = to_user_pointer(&obj),
			.buffer_count = 1,
		};

		gem_execbuf(fd, &eb);
		gem_sync(fd, obj.handle);
		gem_close(fd, obj.handle);
	}
	sim_set_cmd_delay(0);
	for (i = 0; i < 100 && irq_info(fd, "user interrupts") <= user; i++)
		usleep(10000);
	igt_assert_lt(user, irq_info(fd, "user interrupts"));
	check_surface(fd, fresh[0].bo.handle, &fresh[0].ref,
		      "new blit from the idle object");
	check_surface(fd, fresh[1].bo.handle, &fresh[1].ref,
		      "new blits from the pinned and a queued target");

	for (i = 0; i < 2; i++)
		image_fini(&fresh[i], fd);
	for (i = 0; i < QUEUED; i++) {
		batch_free(q[i]);
		image_fini(&dst[i], fd);
	}
	gem_unpin(fd, pinned.bo.handle);
	batch_free(b);
	image_fini(&src, fd);
	image_fini(&cold, fd);
	image_fini(&idle, fd);
	image_fini(&pinned, fd);
	close(fd);
}

static void subtest_s3(void)
{
	cycle_test("mem", "platform", true);
}

static void subtest_s2idle(void)
{
	cycle_test("freeze", "platform", true);
}

static void subtest_s3_devices(void)
{
	cycle_test("mem", "devices", false);
}

/* a batch that never ends: suspend must not wait for it for ever */
static void subtest_s3_hung(void)
{
	int64_t forever = -1;
	struct batch *b;
	struct bo target;
	struct surf s;
	struct ref r;
	int fd, fence;

	require_sleep("mem");
	fd = drm_open_driver();
	gem_require_unwedged(fd, 100);
	bo_init(&target, fd, PAGE_SZ);
	b = batch_new(fd);
	s = (struct surf){ &target, 256, 4, 64, 16 };
	emit_xy_fill(b, &s, 0, 0, 64, 16, 0x1eaf);
	emit_batch_start(b, &b->bo, 0);
	fence = batch_submit_fence(b);
	igt_assert_neq(gem_busy(fd, target.handle), 0);

	sleep_cycle("mem", "platform");
	igt_assert_ok(__gem_wait(fd, target.handle, &forever));
	igt_assert_err(sync_file_status(fence), -EIO);
	close(fence);
	/* the hang check reset the GPU: nothing is wedged */
	igt_assert_eq(gem_wedged_debugfs(fd), 0);
	/* the next program (mesa_gles) wants no error state of ours */
	gem_error_state_clear(fd);
	ref_init(&r, &s, target.size);
	batch_free(b);
	b = batch_new(fd);
	emit_xy_fill(b, &s, 0, 0, 64, 16, 0x600d);
	ref_fill(&r, 0, 0, 64, 16, 0x600d);
	batch_submit(b);
	check_surface(fd, target.handle, &r, "a fill after the hung suspend");
	ref_fini(&r);

	batch_free(b);
	bo_fini(&target, fd);
	close(fd);
}

#define LONG_BATCHES	3
#define LONG_NOOPS	300	/* at DELAY_US a command: 6 s a batch */

static void subtest_s3_long_queue(void)
{
	struct batch *b[LONG_BATCHES];
	unsigned int i, n;
	struct bo t;
	uint32_t got;
	int fd;

	require_sleep("mem");
	fd = drm_open_driver();
	gem_require_unwedged(fd, 1000);
	bo_init(&t, fd, PAGE_SZ);
	sim_set_cmd_delay(DELAY_US);
	for (i = 0; i < LONG_BATCHES; i++) {
		b[i] = batch_new(fd);
		for (n = 0; n < LONG_NOOPS; n++)
			batch_emit(b[i], MI_NOOP);
		emit_store_dword(b[i], &t, 4 * i, 0x5eed0000 + i);
		batch_submit(b[i]);
	}
	igt_assert_neq(gem_busy(fd, t.handle), 0);

	sleep_cycle("mem", "devices");
	sim_set_cmd_delay(0);
	for (i = 0; i < LONG_BATCHES; i++) {
		igt_assert_ok(__gem_read(fd, t.handle, 4 * i, &got,
					 sizeof(got)));
		igt_assert_eq_u64(got, 0x5eed0000 + i);
		batch_free(b[i]);
	}
	igt_assert_eq(gem_wedged_debugfs(fd), 0);
	bo_fini(&t, fd);
	close(fd);
}

static bool hibernate_wanted(void)
{
	const char *env = getenv("GEM_SUSPEND_HIBERNATE");
	char cmdline[4096];

	if (env && !strcmp(env, "1"))
		return true;
	return !read_text("/proc/cmdline", cmdline, sizeof(cmdline)) &&
	       strstr(cmdline, "gem_suspend.hibernate=1");
}

static void subtest_hibernate(void)
{
	if (!hibernate_wanted())
		igt_skip("slow (a fixed 5 s test delay): gem_suspend.hibernate=1 on the kernel command line runs it");
	cycle_test("disk", "platform", false);
}

/* twice in a row: the restore leaves what the next suspend needs */
static void subtest_s3_twice(void)
{
	cycle_test("mem", "platform", true);
	cycle_test("mem", "platform", true);
}

static const struct igt_subtest tests[] = {
	SUBTEST_T(s3, 120),
	SUBTEST_T(s2idle, 120),
	SUBTEST_T(s3_devices, 120),
	SUBTEST_T(s3_twice, 180),
	SUBTEST_T(s3_hung, 120),
	SUBTEST_T(s3_long_queue, 120),
	SUBTEST_T(hibernate, 180),
};

igt_main(tests)
