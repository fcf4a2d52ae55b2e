// SPDX-License-Identifier: GPL-2.0
/*
 * gem_exec_idle: the software model's command streamer, out of work,
 * watches the ring for a while before it sleeps (so that a tail write
 * soon after needs no wake-up), but it must not hold the model's lock
 * meanwhile: the CPU's register writes and reads (the tail, HEAD) take
 * that lock too.  Its idle poll looks at the ring under the lock once
 * per poll and then watches a count of the kicks: the model's
 * idle_looks counter (debugfs i915_sim/<slot>/cs) grows by a few per
 * batch, however long the poll lasts, and the batches still run.
 */
#include <time.h>
#include <unistd.h>

#include "exec.h"

#define ROUNDS		20
#define LOOKS_PER_ROUND	4	/* a poll after the batch, one after the wait */

static void subtest_idle_poll_without_lock(void)
{
	struct drm_i915_gem_exec_object2 obj = { };
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(&obj),
		.buffer_count = 1,
	};
	long long looks, batches;
	int fd = drm_open_driver();
	unsigned int i;

	if (sim_cs_value("idle_looks") < 0) {
		close(fd);
		igt_skip("no idle_looks in the model's debugfs (not the model)");
	}
	obj.handle = bbe_create(fd, 0);
	sim_wait_idle();
	usleep(2000);	/* past the last poll: the thread sleeps */
	looks = sim_cs_value("idle_looks");
	batches = sim_cs_value("batches");
	for (i = 0; i < ROUNDS; i++) {
		gem_execbuf(fd, &eb);
		gem_sync(fd, obj.handle);
		/* the poll runs out (50 us) and the thread sleeps again */
		usleep(2000);
	}
	looks = sim_cs_value("idle_looks") - looks;
	igt_assert_eq(sim_cs_value("batches") - batches, ROUNDS);
	igt_assert_f(looks > 0 && looks <= ROUNDS * LOOKS_PER_ROUND,
		     "the idle poll looked at the ring under the lock %lld times for %d batches (at most %d)",
		     looks, ROUNDS, ROUNDS * LOOKS_PER_ROUND);
	gem_close(fd, obj.handle);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(idle_poll_without_lock),
};

igt_main(tests)
