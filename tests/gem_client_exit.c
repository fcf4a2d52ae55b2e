// SPDX-License-Identifier: GPL-2.0
/*
 * gem_client_exit: what a client leaves behind when its file closes.
 *
 *  - Requests: many short-lived clients submit a batch and exit at once,
 *    while the model's per-command delay is swept so that the retirement
 *    of their last request lands on their close (the retire worker takes
 *    the closing client's lock: a use-after-free under KASAN if the
 *    client's state goes first).  Every batch's store lands; nothing
 *    leaks.
 *  - Pins: a pin belongs to the file that made it and goes with it.  A
 *    client pins an object that another client keeps open, and exits:
 *    GET_APERTURE's aper_available_size is back where it was, and new
 *    files (which may reuse the old file's memory) cannot UNPIN the
 *    object (-EINVAL, as upstream's old PIN/UNPIN answered a file that
 *    had not pinned it); the object can be pinned by another file and
 *    evicted again.  A pinned object that only the exiting client knew
 *    is freed.
 */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec.h"

#define CLIENTS		12	/* at once, per delay step */

struct client_arg {
	uint32_t value;
	uint32_t name;		/* flink name of the shared target */
	unsigned int noops;
};

/*
 * One client: its own file, a store into the shared target (and into an
 * object of its own), then exit without waiting or closing anything.
 */
static int short_client(void *p)
{
	const struct client_arg *a = p;
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct bo own, shared = { .size = PAGE_SZ };
	unsigned int i;

	bo_init(&own, fd, PAGE_SZ);
	shared.handle = gem_open(fd, a->name);
	for (i = 0; i < a->noops; i++)
		batch_emit(b, MI_NOOP);
	emit_store_dword(b, &own, 0, a->value);
	emit_store_dword(b, &shared, 4 * (a->value % 1024), a->value);
	batch_submit(b);
	/* exit with the request in flight: the kernel closes the file */
	return 0;
}

static void subtest_exit_while_retiring(void)
{
	static const unsigned int delay_us[] = {
		0, 1, 2, 5, 10, 20, 50, 100, 200, 500,
	};
	int fd = drm_open_driver();
	uint32_t target = gem_create(fd, PAGE_SZ);
	uint32_t zero[1024] = { 0 }, got[1024];
	long long before, bytes;
	unsigned int d, c, value = 0;
	pid_t pid[CLIENTS];

	gem_quiescent_gpu(fd);
	igt_gem_objects(fd, &before, &bytes);
	gem_write(fd, target, 0, zero, sizeof(zero));
	for (d = 0; d < ARRAY_SIZE(delay_us); d++) {
		struct client_arg a[CLIENTS];

		sim_set_cmd_delay(delay_us[d]);
		for (c = 0; c < CLIENTS; c++) {
			a[c].value = ++value;
			a[c].name = gem_flink(fd, target);
			a[c].noops = (c * 7) % 24;
			pid[c] = igt_fork(short_client, &a[c]);
		}
		for (c = 0; c < CLIENTS; c++)
			igt_assert_eq(igt_wait(pid[c]), 0);
	}
	gem_sync(fd, target);
	gem_read(fd, target, 0, got, sizeof(got));
	for (c = 1; c <= value; c++)
		igt_assert_eq_u64(got[c % 1024], c);
	gem_close(fd, target);
	gem_quiescent_gpu(fd);
	igt_assert_eq(gem_wait_object_count(fd, before - 1), before - 1);
	close(fd);
}

/* ------------------------------------------------------------------ */
/* pins */

static uint64_t aper_available(int fd)
{
	struct drm_i915_gem_get_aperture ap = { 0 };

	igt_assert_ok(__gem_get_aperture(fd, &ap));
	return ap.aper_available_size;
}

struct pin_arg {
	uint32_t name;		/* flink name of the object to pin, or 0 */
	uint64_t size;		/* of a new object to pin when name is 0 */
	uint64_t avail;		/* aper_available_size before the pin */
};

/* Pin the object (by name, or a new one) and exit with the pin held. */
static int pin_and_exit(void *p)
{
	const struct pin_arg *a = p;
	int fd = drm_open_driver();
	uint32_t handle;
	uint64_t size = a->size;

	if (a->name)
		handle = gem_open(fd, a->name);
	else
		handle = gem_create(fd, size);
	gem_pin(fd, handle, 0);
	gem_pin(fd, handle, 0);	/* two pins: both must go */
	igt_assert_eq_u64(aper_available(fd), a->avail - size);
	return 0;
}

/* a pin made by a client that exited is gone: the aperture is back */
static void subtest_pin_dropped_at_close(void)
{
	const uint64_t size = 1 << 20;
	int fd = drm_open_driver();
	uint32_t handle = gem_create(fd, size);
	struct pin_arg a = { .size = size };

	gem_quiescent_gpu(fd);
	a.avail = aper_available(fd);
	a.name = gem_flink(fd, handle);
	igt_assert_eq(igt_wait(igt_fork(pin_and_exit, &a)), 0);
	igt_info("aperture available: %llu KiB before, %llu KiB after",
		 (unsigned long long)a.avail >> 10,
		 (unsigned long long)aper_available(fd) >> 10);
	igt_assert_eq_u64(aper_available(fd), a.avail);
	/* and the object is ours to pin and unpin now */
	gem_pin(fd, handle, 0);
	igt_assert_eq_u64(aper_available(fd), a.avail - size);
	gem_unpin(fd, handle);
	igt_assert_eq_u64(aper_available(fd), a.avail);
	igt_assert_err(__gem_unpin(fd, handle), -EINVAL);
	gem_close(fd, handle);
	close(fd);
}

/*
 * After the pinning file is gone, no later file can UNPIN the object,
 * not even one that the kernel allocated where the old one was.
 */
static void subtest_unpin_by_new_file(void)
{
	int fd = drm_open_driver(), other = drm_open_driver();
	uint32_t handle = gem_create(fd, 64 * PAGE_SZ), name, theirs;
	struct pin_arg a = { .size = 64 * PAGE_SZ };
	int i;

	gem_quiescent_gpu(fd);
	a.avail = aper_available(fd);
	name = a.name = gem_flink(fd, handle);

	/* while the pinner lives, another file cannot unpin either */
	theirs = gem_open(other, name);
	gem_pin(fd, handle, 0);
	igt_assert_err(__gem_unpin(other, theirs), -EINVAL);
	igt_assert_err(__gem_pin(other, theirs, 0, NULL), -EINVAL);
	gem_unpin(fd, handle);
	gem_close(other, theirs);
	close(other);

	igt_assert_eq(igt_wait(igt_fork(pin_and_exit, &a)), 0);
	for (i = 0; i < 32; i++) {
		int nfd = drm_open_driver();
		uint32_t h = gem_open(nfd, name);

		igt_assert_err(__gem_unpin(nfd, h), -EINVAL);
		gem_close(nfd, h);
		close(nfd);
	}
	igt_assert_eq_u64(aper_available(fd), a.avail);
	gem_close(fd, handle);
	close(fd);
}

/* a pinned object only the exiting client knew is freed */
static void subtest_pinned_object_freed(void)
{
	int fd = drm_open_driver();
	struct pin_arg a = { .size = 16 * PAGE_SZ };
	long long before, bytes;

	gem_quiescent_gpu(fd);
	igt_gem_objects(fd, &before, &bytes);
	a.avail = aper_available(fd);
	igt_assert_eq(igt_wait(igt_fork(pin_and_exit, &a)), 0);
	igt_assert_eq(gem_wait_object_count(fd, before), before);
	igt_assert_eq_u64(aper_available(fd), a.avail);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(exit_while_retiring),
	SUBTEST(pin_dropped_at_close),
	SUBTEST(unpin_by_new_file),
	SUBTEST(pinned_object_freed),
};

igt_main(tests)
