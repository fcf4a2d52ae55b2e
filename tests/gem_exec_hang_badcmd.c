// SPDX-License-Identifier: GPL-2.0
/*
 * gem_exec_hang_badcmd: a batch with a command the GPU does not know.
 *
 * The command streamer stops with an error (the model sets its error
 * registers, as hardware would), the request never completes, and the
 * driver wedges the device (debugfs i915_wedged reads 1): the waiter
 * gets EIO within seconds, so do PREAD of the batch, new execbuffers and
 * THROTTLE, and the VM carries on.  Then writing i915_wedged restarts
 * the ring and the GPU works again (recover).
 *
 * Like gem_exec_hang_loop, this needs a device that is not wedged yet
 * (the bench reloads the module after every program with "hang" in its
 * name); it skips if the device is wedged already.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "exec.h"

#define HANGCHECK_MS	250
#define BAD_HEADER	0x2badc0deu	/* client 1: reserved on Gen3/Gen4 */

static void subtest_unknown_command(void)
{
	int fd = drm_open_driver();
	struct batch *b;
	struct bo target;
	int64_t forever = -1;
	uint32_t *map, dw;
	double t0, took;
	long long ipehr, eir;
	int ret;

	gem_require_unwedged(fd, HANGCHECK_MS);
	b = batch_new(fd);
	bo_init(&target, fd, PAGE_SZ);
	/* a store that runs, the bad command, a store that must not run */
	emit_store_dword(b, &target, 0, 0x600d);
	batch_emit(b, BAD_HEADER);
	batch_emit(b, MI_NOOP);
	emit_store_dword(b, &target, 4, 0xbad);
	t0 = igt_now();
	batch_submit(b);
	ret = __gem_wait(fd, target.handle, &forever);
	took = igt_now() - t0;
	igt_info("WAIT returned %s after %.2f s", igt_errname(ret), took);
	igt_assert_err(ret, -EIO);
	igt_assert(took < 15);

	ipehr = sim_reg("IPEHR");
	eir = sim_reg("EIR");
	igt_info("model: IPEHR %#llx EIR %#llx", ipehr, eir);
	igt_assert_eq_u64(ipehr, BAD_HEADER);

	/* what ran before the bad command ran; nothing after it */
	igt_assert_err(__gem_set_domain(fd, target.handle,
					I915_GEM_DOMAIN_CPU, 0), -EIO);
	igt_assert_eq(gem_busy(fd, target.handle), 0);
	/* (read through a CPU map: a wait on the hung request may say EIO) */
	map = gem_mmap__cpu(fd, target.handle, 0, PAGE_SZ);
	igt_assert_eq_u64(map[1], 0);
	igt_assert_eq_u64(map[0], 0x600d);
	munmap(map, PAGE_SZ);

	/* PREAD waits for the hung batch: EIO; and no more GPU work */
	igt_assert_err(__gem_read(fd, b->bo.handle, 0, &dw, 4), -EIO);
	igt_assert_eq(gem_wedged_debugfs(fd), 1);
	igt_assert(gem_is_wedged(fd));
	batch_free(b);
	b = batch_new(fd);
	emit_store_dword(b, &target, 8, 1);
	igt_assert_err(__batch_submit(b, 0), -EIO);
	igt_assert_err(__gem_throttle(fd), -EIO);
	batch_free(b);
	bo_fini(&target, fd);
	close(fd);
}

/* debugfs i915_wedged restarts the ring the bad command stopped */
static void subtest_recover(void)
{
	gem_recover_wedged("unknown_command");
}

static const struct igt_subtest tests[] = {
	SUBTEST_T(unknown_command, 60),
	SUBTEST(recover),
};

igt_main(tests)
