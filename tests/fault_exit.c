// SPDX-License-Identifier: GPL-2.0
/*
 * fault_exit: clients killed in the middle of their work.
 *
 * Worker processes create objects, write and read them, map them, share
 * them by flink between two of their own clients and change their
 * domains, all in a loop with many objects alive, until SIGKILL ends them
 * wherever they are: inside an ioctl, with mappings up, names published.
 * The kernel must take all of it back: i915_gem_objects returns to its
 * count before the workers started, and nothing leaks (kmemleak, in the
 * debug lane).
 *
 * "fault_exit --worker" runs one worker forever: the debug lane's
 * load/unload cycles (scripts/debugkernel/guest.sh) start a few, kill
 * them and unload the module at once.
 */
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exec.h"

#define NOBJ 48
#define MAX_PAGES 16

static int worker(void *arg)
{
	uint32_t handles[NOBJ] = { 0 };
	uint64_t sizes[NOBJ] = { 0 };
	static char buf[MAX_PAGES * PAGE_SZ];
	unsigned int seed = (unsigned int)(uintptr_t)arg;
	int fd = drm_open_driver();
	int fd2 = drm_open_driver();
	void *maps[4] = { NULL };
	uint64_t map_sizes[4] = { 0 };

	srandom(seed ^ getpid());
	igt_fill_pattern(buf, sizeof(buf), seed);
	for (;;) {
		int k = random() % NOBJ;
		int what = random() % 8;

		if (!handles[k]) {
			sizes[k] = (1 + random() % MAX_PAGES) * PAGE_SZ;
			handles[k] = gem_create(fd, sizes[k]);
			continue;
		}
		switch (what) {
		case 0:
			gem_close(fd, handles[k]);
			handles[k] = 0;
			break;
		case 1:
			gem_write(fd, handles[k], 0, buf, sizes[k]);
			break;
		case 2:
			gem_read(fd, handles[k], random() % PAGE_SZ, buf,
				 sizes[k] - PAGE_SZ);
			break;
		case 3: {
			int m = random() % 4;

			if (maps[m])
				munmap(maps[m], map_sizes[m]);
			maps[m] = gem_mmap__cpu(fd, handles[k], 0, sizes[k]);
			map_sizes[m] = sizes[k];
			memset(maps[m], what, sizes[k]);
			break;
		}
		case 4: {
			/* open by name on the second client, leave it open */
			uint32_t h2 = gem_open(fd2, gem_flink(fd, handles[k]));

			if (random() % 2)
				gem_close(fd2, h2);
			break;
		}
		case 5:
			gem_set_domain(fd, handles[k], I915_GEM_DOMAIN_GTT,
				       I915_GEM_DOMAIN_GTT);
			break;
		case 6:
			gem_set_domain(fd, handles[k], I915_GEM_DOMAIN_CPU,
				       I915_GEM_DOMAIN_CPU);
			break;
		default:
			/* may be refused (no snooping on this GPU): fine */
			__gem_set_caching(fd, handles[k], random() % 2);
			break;
		}
	}
	return 0;
}

static void subtest_kill_workers(void)
{
	int fd = drm_open_driver();
	long long count, bytes, baseline;
	int round, i;

	gem_quiescent_gpu(fd);
	igt_gem_objects(fd, &baseline, &bytes);
	srandom(0x915e);
	for (round = 0; round < 6; round++) {
		pid_t pids[4];
		int n = 1 + round % 4;

		for (i = 0; i < n; i++)
			pids[i] = igt_fork(worker, (void *)(uintptr_t)(round * 4 + i));
		igt_sleep_ms(200 + random() % 800);
		igt_gem_objects(fd, &count, &bytes);
		igt_info("round %d: %d workers, %lld objects alive", round, n,
			 count - baseline);
		for (i = 0; i < n; i++) {
			int rc;

			kill(pids[i], SIGKILL);
			rc = igt_wait(pids[i]);
			/* a worker that died of anything but our kill failed */
			igt_assert_f(rc == 128 + SIGKILL,
				     "worker %d exited with %d before the kill",
				     i, rc);
		}
		igt_assert_eq(gem_wait_object_count(fd, baseline), baseline);
	}
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(kill_workers),
};

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--worker"))
		return worker((void *)(uintptr_t)getpid());
	return igt_run(argv[0], tests, ARRAY_SIZE(tests));
}
