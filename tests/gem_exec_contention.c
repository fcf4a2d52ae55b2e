// SPDX-License-Identifier: GPL-2.0
/*
 * gem_exec_contention: execbuffers of several processes locking
 * overlapping object lists in opposite orders, so that their ww acquire
 * contexts keep answering -EDEADLK to each other.
 *
 * Six processes, each with a private object first and then 32 shared
 * ones, ascending or descending from one of three starting points.
 * Every process must make progress, and no context may back off twice in
 * a row for the same lock: the backoff keeps the lock it waited for
 * (as drm_exec and upstream do), so the next round cannot lose it to the
 * older context again.  debugfs i915_exec_stats counts the backoffs and
 * those "repeats"; the driver that dropped the lock again after waiting
 * for it shows repeats here.
 */
#include <sys/wait.h>
#include <unistd.h>

#include "exec.h"

#define NPROC		6
#define NOBJ		32
#define SECONDS		6

struct shared {
	uint32_t names[NOBJ];
	int index;
};

static void exec_stats(int fd, long long *backoffs, long long *repeats)
{
	char buf[256];
	int ret = igt_debugfs_read(fd, "i915_exec_stats", buf, sizeof(buf));

	if (ret < 0)
		igt_skip("no debugfs i915_exec_stats: %s", igt_errname(ret));
	igt_assert_ok(igt_key_value(buf, "ww_backoffs", backoffs));
	igt_assert_ok(igt_key_value(buf, "ww_repeats", repeats));
}

/* one process: execs of the shared objects, in its own order */
static int contender(void *arg)
{
	const struct shared *sh = arg;
	struct drm_i915_gem_exec_object2 obj[NOBJ + 2];
	struct drm_i915_gem_execbuffer2 eb = { };
	int fd = drm_open_driver();
	uint32_t handles[NOBJ];
	unsigned int i, k, n = 0;
	double t0;

	for (i = 0; i < NOBJ; i++)
		handles[i] = gem_open(fd, sh->names[i]);
	memset(obj, 0, sizeof(obj));
	/*
	 * A private object first, so that the first shared lock is never
	 * the context's first (which waits instead of answering -EDEADLK).
	 */
	obj[0].handle = gem_create(fd, PAGE_SZ);
	for (i = 0; i < NOBJ; i++) {
		/* even processes ascending, odd ones descending */
		k = sh->index & 1 ? NOBJ - 1 - i : i;
		/* a rotation per pair of processes: the orders cross */
		k = (k + (sh->index / 2) * NOBJ / 3) % NOBJ;
		obj[1 + i].handle = handles[k];
	}
	obj[NOBJ + 1].handle = bbe_create(fd, 0);
	eb.buffers_ptr = to_user_pointer(obj);
	eb.buffer_count = NOBJ + 2;

	t0 = igt_now();
	while (igt_now() - t0 < SECONDS) {
		gem_execbuf(fd, &eb);
		n++;
	}
	igt_info("process %d: %u execs in %d s", sh->index, n, SECONDS);
	igt_assert_lt(0, n);
	close(fd);
	return 0;
}

static void subtest_opposite_orders(void)
{
	long long backoffs0, repeats0, backoffs, repeats;
	int fd = drm_open_driver();
	uint32_t handles[NOBJ];
	struct shared sh[NPROC];
	pid_t pid[NPROC];
	unsigned int i;
	int p;

	exec_stats(fd, &backoffs0, &repeats0);
	for (i = 0; i < NOBJ; i++) {
		handles[i] = gem_create(fd, PAGE_SZ);
		sh[0].names[i] = gem_flink(fd, handles[i]);
	}
	for (p = 0; p < NPROC; p++) {
		sh[p] = sh[0];
		sh[p].index = p;
		pid[p] = igt_fork(contender, &sh[p]);
	}
	for (p = 0; p < NPROC; p++)
		igt_assert_f(igt_wait(pid[p]) == 0, "process %d failed", p);

	exec_stats(fd, &backoffs, &repeats);
	backoffs -= backoffs0;
	repeats -= repeats0;
	igt_info("%lld backoffs, %lld of them again on the same lock",
		 backoffs, repeats);
	igt_assert_f(repeats == 0,
		     "%lld backoffs were for the lock the context had just waited for",
		     repeats);
	for (i = 0; i < NOBJ; i++)
		gem_close(fd, handles[i]);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST_T(opposite_orders, 120),
};

igt_main(tests)
