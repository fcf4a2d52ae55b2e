// SPDX-License-Identifier: GPL-2.0
/*
 * gem_exec_irq: the user interrupt is unmasked only while somebody waits.
 *
 * Every request ends with MI_USER_INTERRUPT, but as upstream's breadcrumbs
 * the driver unmasks it (IMR) only while a fence has signalling enabled: a
 * waiter (GEM_WAIT), a fence callback (a sync_file's poll).  A burst of
 * execbuffers nobody waits for raises no interrupt at all (debugfs
 * i915_interrupt_info: "user interrupts", "user interrupt arms"), yet its
 * requests are retired (their objects freed); a GEM_WAIT arms the
 * interrupt, is woken when the batch completes, and the interrupt is
 * masked again once no fence needs it; a sync_file's poll wakes too.
 */
#include <poll.h>
#include <unistd.h>

#include "exec.h"
#include "gem.h"

#define BURST		64	/* execs nobody waits for */
#define DELAY_US	20000	/* per command, for the waited-for batch */
#define USER_INTERRUPT	(1u << 1)	/* IIR/IMR bit of MI_USER_INTERRUPT */

/* a line of debugfs i915_interrupt_info */
static long long irq_info(int fd, const char *key)
{
	return igt_debugfs_value(fd, "i915_interrupt_info", key);
}

static bool irq_armed(int fd)
{
	char buf[1024], *p;

	igt_assert_lt(0, igt_debugfs_read(fd, "i915_interrupt_info", buf,
					  sizeof(buf)));
	p = strstr(buf, "user interrupt armed: ");
	igt_assert_f(p, "no \"user interrupt armed\" in %s", buf);
	return !strncmp(p + strlen("user interrupt armed: "), "yes", 3);
}

/* Poll GEM_BUSY (which arms nothing) until @handle is idle, 10 s at most. */
static void wait_idle_by_busy(int fd, uint32_t handle)
{
	unsigned int i;

	for (i = 0; i < 10000 && gem_busy(fd, handle); i++)
		usleep(1000);
	igt_assert_f(!gem_busy(fd, handle), "still busy after 10 s");
}

static void subtest_burst_without_waiter(void)
{
	struct drm_i915_gem_exec_object2 obj = { };
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(&obj),
		.buffer_count = 1,
	};
	long long user, arms, executed, objects, bytes;
	int fd = drm_open_driver();
	unsigned int i;

	gem_quiescent_gpu(fd);
	igt_gem_objects(fd, &objects, &bytes);
	obj.handle = bbe_create(fd, 0);
	sim_wait_idle();
	user = irq_info(fd, "user interrupts");
	executed = sim_cs_value("user_interrupts");

	for (i = 0; i < BURST; i++)
		gem_execbuf(fd, &eb);
	wait_idle_by_busy(fd, obj.handle);
	/* past the last MI_USER_INTERRUPT */
	sim_wait_idle();

	if (executed >= 0)
		igt_assert_eq(sim_cs_value("user_interrupts") - executed,
			      BURST);
	igt_assert_f(irq_info(fd, "user interrupts") == user,
		     "%lld user interrupts for %d execs nobody waited for",
		     irq_info(fd, "user interrupts") - user, BURST);
	arms = irq_info(fd, "user interrupt arms");
	igt_assert(!irq_armed(fd));
	igt_assert(irq_info(fd, "IMR") & USER_INTERRUPT);

	/* retired without an interrupt: the closed object goes */
	gem_close(fd, obj.handle);
	igt_assert_eq(gem_wait_object_count(fd, objects), objects);
	igt_assert_eq(irq_info(fd, "user interrupt arms"), arms);
	igt_assert_eq(irq_info(fd, "user interrupts"), user);
	close(fd);
}

/*
 * A slow batch, then an empty one that is waited for: the wait arms the
 * interrupt while the slow batch runs, so the slow batch's interrupt is
 * delivered (the waited-for fence is not signalled yet), and the wait
 * returns once the empty batch completes.
 */
static void subtest_wait_wakes(void)
{
	struct drm_i915_gem_exec_object2 obj = { };
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(&obj),
		.buffer_count = 1,
	};
	long long user, arms;
	int64_t forever = -1;
	struct batch *b;
	int fd = drm_open_driver();
	unsigned int i;

	gem_quiescent_gpu(fd);
	obj.handle = bbe_create(fd, 0);
	user = irq_info(fd, "user interrupts");
	arms = irq_info(fd, "user interrupt arms");
	igt_assert(!irq_armed(fd));

	sim_set_cmd_delay(DELAY_US);
	b = batch_new(fd);
	for (i = 0; i < 8; i++)
		batch_emit(b, MI_NOOP);
	batch_submit(b);
	gem_execbuf(fd, &eb);
	igt_assert_f(gem_busy(fd, b->bo.handle),
		     "the slow batch finished before the wait");
	igt_assert_eq(irq_info(fd, "user interrupt arms"), arms);

	igt_assert_eq(__gem_wait(fd, obj.handle, &forever), 0);
	igt_assert_eq(gem_busy(fd, obj.handle), 0);
	igt_assert_eq(gem_busy(fd, b->bo.handle), 0);
	sim_set_cmd_delay(0);
	igt_assert_lt(arms, irq_info(fd, "user interrupt arms"));
	igt_assert_lt(user, irq_info(fd, "user interrupts"));

	/* nobody needs it any more: masked again once the ring is retired */
	gem_quiescent_gpu(fd);
	igt_assert(!irq_armed(fd));
	igt_assert(irq_info(fd, "IMR") & USER_INTERRUPT);

	batch_free(b);
	gem_close(fd, obj.handle);
	close(fd);
}

/* A sync_file's poll enables signalling through a fence callback. */
static void subtest_sync_file_poll(void)
{
	long long arms;
	struct pollfd pfd = { .events = POLLIN };
	struct batch *b;
	int fd = drm_open_driver();
	unsigned int i;

	gem_quiescent_gpu(fd);
	arms = irq_info(fd, "user interrupt arms");
	sim_set_cmd_delay(DELAY_US);
	b = batch_new(fd);
	for (i = 0; i < 8; i++)
		batch_emit(b, MI_NOOP);
	pfd.fd = batch_submit_fence(b);
	igt_assert_eq(sync_file_status(pfd.fd), 0);
	igt_assert_eq(poll(&pfd, 1, 10000), 1);
	igt_assert_eq(sync_file_status(pfd.fd), 1);
	sim_set_cmd_delay(0);
	igt_assert_lt(arms, irq_info(fd, "user interrupt arms"));
	close(pfd.fd);

	gem_quiescent_gpu(fd);
	igt_assert(!irq_armed(fd));
	batch_free(b);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(burst_without_waiter),
	SUBTEST(wait_wakes),
	SUBTEST(sync_file_poll),
};

igt_main(tests)
