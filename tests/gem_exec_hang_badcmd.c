// SPDX-License-Identifier: GPL-2.0
/*
 * gem_exec_hang_badcmd: a batch with a command the GPU does not know.
 *
 * The command streamer stops with an error (the model sets its error
 * registers and raises the error interrupt, as hardware would), and the
 * driver resets the GPU at once: the waiter gets EIO within seconds, so
 * does PREAD of the batch; what ran before the bad command landed,
 * nothing after it did; the device is not wedged (debugfs i915_wedged
 * reads 0) and the same client's next batch runs.  With reset=0 the
 * device is wedged instead (reset0_wedges), new execbuffers and THROTTLE
 * get EIO, and reset=1 plus a write of i915_wedged recover it.
 *
 * The same for every MI opcode outside the generation's command list and
 * every multi-dword MI command with a length it does not have, in
 * non-secure and secure batches (unknown_mi_opcodes, bad_mi_lengths):
 * IPEHR holds the header, ACTHD its address, the GPU is reset each time
 * (the client made unbannable, as root may, so that ninety hangs in a
 * row do not ban it).  privileged_g4x: on G4x a privileged command in a
 * non-secure batch is dropped without stopping the engine; its privilege
 * error interrupt is counted, the batch completes and nothing is reset.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <unistd.h>

#include "exec.h"

#define HANGCHECK_MS	250
#define BAD_HEADER	0x2badc0deu	/* client 1: reserved on Gen3/Gen4 */

/* @target seen as a 64 x 16 surface of 32 bpp */
static struct surf target_surf(struct bo *target)
{
	return (struct surf){ target, 256, 4, 64, 16 };
}

/* XY_COLOR_BLT of one pixel, dword @index of @target, to @value */
static void emit_pixel(struct batch *b, struct bo *target, int index,
		       uint32_t value)
{
	struct surf s = target_surf(target);

	emit_xy_fill(b, &s, index, 0, 1, 1, value);
}

/* the bad command hangs the GPU: EIO for its waiters */
static void bad_command_hangs(int fd, bool wedges)
{
	struct batch *b;
	struct bo target;
	int64_t forever = -1;
	uint32_t *map, dw;
	double t0, took;
	long long errors;
	int ret;

	gem_require_unwedged(fd, HANGCHECK_MS);
	gem_set_reset(!wedges);
	b = batch_new(fd);
	bo_init(&target, fd, PAGE_SZ);
	/* a fill that runs, the bad command, a fill that must not run */
	emit_pixel(b, &target, 0, 0x600d);
	batch_emit(b, BAD_HEADER);
	batch_emit(b, MI_NOOP);
	emit_pixel(b, &target, 1, 0xbad);
	errors = sim_cs_value("errors");
	t0 = igt_now();
	batch_submit(b);
	ret = __gem_wait(fd, target.handle, &forever);
	took = igt_now() - t0;
	igt_info("WAIT returned %s after %.2f s", igt_errname(ret), took);
	igt_assert_err(ret, -EIO);
	/* an error interrupt: no need to wait for 3 hang checks */
	igt_assert(took < 3 * HANGCHECK_MS / 1000.0 + 2);
	/* the model halted on it (the reset cleared its error registers) */
	igt_assert_eq(sim_cs_value("errors"), errors + 1);

	/* what ran before the bad command ran; nothing after it */
	igt_assert_err(__gem_set_domain(fd, target.handle,
					I915_GEM_DOMAIN_CPU, 0), -EIO);
	igt_assert_eq(gem_busy(fd, target.handle), 0);
	/* (read through a CPU map: a wait on the hung request may say EIO) */
	map = gem_mmap__cpu(fd, target.handle, 0, PAGE_SZ);
	igt_assert_eq_u64(map[1], 0);
	igt_assert_eq_u64(map[0], 0x600d);
	munmap(map, PAGE_SZ);

	/* PREAD waits for the hung batch: EIO */
	igt_assert_err(__gem_read(fd, b->bo.handle, 0, &dw, 4), -EIO);
	igt_assert_eq(gem_wedged_debugfs(fd), wedges);
	igt_assert_eq(gem_is_wedged(fd), wedges);
	batch_free(b);
	b = batch_new(fd);
	emit_pixel(b, &target, 2, 1);
	if (wedges) {
		/* no more GPU work */
		igt_assert_err(__batch_submit(b, 0), -EIO);
		igt_assert_err(__gem_throttle(fd), -EIO);
	} else {
		/* the next batch runs; the hung one's error is forgotten */
		batch_submit(b);
		gem_sync(fd, target.handle);
		gem_read(fd, target.handle, 8, &dw, 4);
		igt_assert_eq_u64(dw, 1);
	}
	batch_free(b);
	bo_fini(&target, fd);
}

static void subtest_unknown_command(void)
{
	int fd = drm_open_driver();

	bad_command_hangs(fd, false);
	close(fd);
}

static void subtest_reset0_wedges(void)
{
	int fd = drm_open_driver();

	bad_command_hangs(fd, true);
	close(fd);
}

/* reset=1 and debugfs i915_wedged reset the GPU and unwedge it */
static void subtest_recover(void)
{
	gem_recover_wedged("reset0_wedges");
}

/* An ioctl blocked this long is waiting for ring space, not working. */
#define RING_FULL_MS	2000
/*
 * A v1 exec emits a batch start per cliprect: 1024 of them take most of
 * the ring.  Execs of 1024, 512, ... 1 cliprects fill it in a few dozen
 * execs however slow the machine (a thousand small execs would take
 * minutes under TCG on a loaded host, longer than the slow batch in
 * front of them lasts).
 */
#define FILL_RECTS	1024
/* A slow batch of 1000 commands of SLOW_CMD_US each: 100 s. */
#define SLOW_CMD_US	100000

static void on_alarm(int sig)
{
}

/* ioctl @req once, interrupted by SIGALRM if it blocks for @ms */
static int ioctl_interruptible(int fd, unsigned long req, void *arg,
			       unsigned int ms)
{
	struct itimerval it = { .it_value = { ms / 1000, ms % 1000 * 1000 } };
	struct itimerval off = { };
	int ret;

	setitimer(ITIMER_REAL, &it, NULL);
	ret = ioctl(fd, req, arg) ? -errno : 0;
	setitimer(ITIMER_REAL, &off, NULL);
	return ret;
}

/* A v1 exec of the empty batch @bbe with @nrects cliprects. */
static int exec1_fill_interruptible(int fd, uint32_t bbe, unsigned int nrects)
{
	static struct drm_clip_rect rects[FILL_RECTS];
	struct drm_i915_gem_exec_object obj = { .handle = bbe };
	struct drm_i915_gem_execbuffer eb = {
		.buffers_ptr = to_user_pointer(&obj),
		.buffer_count = 1,
		.batch_len = 8,
		.num_cliprects = nrects,
		.cliprects_ptr = to_user_pointer(rects),
	};
	unsigned int i;

	for (i = 0; i < nrects; i++)
		rects[i] = (struct drm_clip_rect){ 0, 0, 1, 1 };
	return ioctl_interruptible(fd, DRM_IOCTL_I915_GEM_EXECBUFFER, &eb,
				   RING_FULL_MS);
}

/*
 * The -EIO a hang left on an object stays until a batch using the object
 * is queued: an execbuffer that fails late (here: interrupted while
 * waiting for ring space, after its domains were computed) does not
 * erase it.
 */
static void subtest_error_survives_failed_exec(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };	/* no SA_RESTART */
	struct drm_i915_gem_exec_object2 obj[2] = { };
	struct drm_i915_gem_execbuffer2 eb = { };
	int fd = drm_open_driver();
	int64_t forever = -1, poll = 0;
	struct batch *b;
	struct bo target;
	unsigned int i, n, rects;
	uint32_t bbe;
	int ret;

	gem_require_unwedged(fd, HANGCHECK_MS);
	igt_assert_eq(sigaction(SIGALRM, &sa, NULL), 0);
	b = batch_new(fd);
	bo_init(&target, fd, PAGE_SZ);
	emit_pixel(b, &target, 0, 0x600d);
	batch_emit(b, BAD_HEADER);
	batch_emit(b, MI_NOOP);
	batch_submit(b);
	igt_assert_err(__gem_wait(fd, target.handle, &forever), -EIO);
	igt_assert_eq(gem_wedged_debugfs(fd), 0);
	igt_assert_err(__gem_wait(fd, target.handle, &poll), -EIO);

	/*
	 * A slow batch, hang checks far enough apart that it is not taken
	 * for a hang (30 busy checks: 300 s), then execs that fill the ring
	 * behind it until one blocks.
	 */
	batch_free(b);	/* its object has the error too */
	b = batch_new(fd);
	gem_set_hangcheck_ms(10000);
	sim_set_cmd_delay(SLOW_CMD_US);
	for (i = 0; i < 1000; i++)
		batch_emit(b, MI_NOOP);
	batch_submit(b);
	bbe = bbe_create(fd, 0);
	n = 0;
	for (rects = FILL_RECTS; rects; rects /= 2) {
		while (!(ret = exec1_fill_interruptible(fd, bbe, rects)))
			n++;
		igt_assert_err(ret, -EINTR);
	}
	obj[0].handle = bbe;
	eb.buffers_ptr = to_user_pointer(obj);
	eb.buffer_count = 1;
	for (i = 0; i < 64; i++) {
		ret = ioctl_interruptible(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2,
					  &eb, RING_FULL_MS);
		if (ret == -EINTR)
			break;
		igt_assert_ok(ret);
	}
	igt_info("the ring was full after %u v1 execs and %u small ones",
		 n, i);
	igt_assert_lt(i, 64);

	/* the target's exec fails late, for want of ring space */
	obj[0].handle = target.handle;
	obj[0].flags = EXEC_OBJECT_WRITE;
	obj[1].handle = bbe;
	eb.buffer_count = 2;
	igt_assert_err(ioctl_interruptible(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2,
					   &eb, RING_FULL_MS), -EINTR);
	ret = __gem_wait(fd, target.handle, &poll);
	igt_assert_f(ret == -EIO,
		     "WAIT on the hung object after a failed exec: %s, expected EIO",
		     igt_errname(ret));

	/* once a batch using it is queued, the error is gone */
	sim_set_cmd_delay(0);
	gem_sync(fd, b->bo.handle);
	gem_execbuf(fd, &eb);
	igt_assert_ok(__gem_wait(fd, target.handle, &forever));
	gem_close(fd, bbe);
	batch_free(b);
	bo_fini(&target, fd);
	close(fd);
}

/* the driver's count of error interrupts (debugfs i915_interrupt_info) */
static long long error_interrupts(int fd)
{
	char buf[4096];
	long long v;
	int ret;

	ret = igt_debugfs_read(fd, "i915_interrupt_info", buf, sizeof(buf));
	igt_assert_lt(0, ret);
	igt_assert_eq(igt_key_value(buf, "error interrupts", &v), 0);
	return v;
}

#define MARK_A		0x600d
#define MARK_B		0xbad

/*
 * Run @cmd (@n dwords) between two markers in a batch (secure if
 * @secure) and expect an instruction error there: the batch ends with
 * EIO (the driver resets the GPU), the error state's IPEHR holds the
 * header and its ACTHD the command's address, the marker before it landed and the
 * one after it did not, and the device is not wedged.
 */
static void expect_instruction_error(int fd, const uint32_t *cmd,
				     unsigned int n, bool secure,
				     const char *what)
{
	struct batch *b = batch_new(fd);
	long long irqs = error_interrupts(fd);
	long long errors = sim_cs_value("errors");
	int64_t forever = -1;
	struct bo target;
	uint32_t at, ipehr, acthd, *map;
	unsigned int i;

	bo_init(&target, fd, PAGE_SZ);
	emit_store_dword(b, &target, 0, MARK_A);
	at = batch_offset(b);
	for (i = 0; i < n; i++)
		batch_emit(b, cmd[i]);
	emit_store_dword(b, &target, 4, MARK_B);
	gem_error_state_clear(fd);
	igt_assert_ok(__batch_submit(b, secure ? I915_EXEC_SECURE : 0));
	igt_assert_err(__gem_wait(fd, target.handle, &forever), -EIO);

	/* the reset cleared the engine's registers: the error state has them */
	ipehr = gem_error_state_reg(fd, "IPEHR");
	acthd = gem_error_state_reg(fd, "ACTHD");
	igt_info("%-40s %-10s: IPEHR %#x ACTHD %#x", what,
		 secure ? "secure" : "non-secure", ipehr, acthd);
	igt_assert_eq_u64(ipehr, cmd[0]);
	igt_assert_eq_u64(acthd, b->bo.offset + at);
	igt_assert_eq(sim_cs_value("errors"), errors + 1);
	igt_assert_eq(error_interrupts(fd), irqs + 1);
	map = gem_mmap__cpu(fd, target.handle, 0, PAGE_SZ);
	igt_assert_eq_u64(map[0], MARK_A);
	igt_assert_eq_u64(map[1], 0);
	munmap(map, PAGE_SZ);
	igt_assert_eq(gem_wedged_debugfs(fd), 0);

	batch_free(b);
	bo_fini(&target, fd);
}

/*
 * Every MI opcode that is not in the generation's command list is an
 * instruction error, in a non-secure and in a secure batch.
 */
static void subtest_unknown_mi_opcodes(void)
{
	int fd = drm_open_driver();
	int gen = gem_gen(fd);
	unsigned int op, walked = 0;
	char what[64];

	gem_require_unwedged(fd, HANGCHECK_MS);
	igt_assert_ok(gem_set_master(fd));
	gem_set_unbannable(fd);
	for (op = 0; op < 64; op++) {
		uint32_t cmd[2] = { MI_INSTR(op, 0), MI_NOOP };

		if (mi_rule(gen, op))
			continue;
		snprintf(what, sizeof(what), "MI opcode %#04x", op);
		expect_instruction_error(fd, cmd, 2, false, what);
		expect_instruction_error(fd, cmd, 2, true, what);
		walked++;
	}
	igt_info("%u opcodes are not in the Gen%d list", walked, gen);
	igt_assert_lt(40, walked);
	close(fd);
}

/*
 * Every multi-dword command of the list with a length it does not have
 * (one dword short of its shortest form, one over its longest; an even
 * length for MI_LOAD_REGISTER_IMM) is an instruction error, privileged
 * or not, secure batch or not.
 */
static void subtest_bad_mi_lengths(void)
{
	int fd = drm_open_driver();
	int gen = gem_gen(fd);
	const struct mi_rule *rules;
	unsigned int n, i, j, k, walked = 0;
	char what[64];

	gem_require_unwedged(fd, HANGCHECK_MS);
	igt_assert_ok(gem_set_master(fd));
	gem_set_unbannable(fd);
	rules = mi_rules(&n);
	for (i = 0; i < n; i++) {
		const struct mi_rule *r = &rules[i];
		unsigned int len = r->len[gen >= 4];
		unsigned int bad[2] = { len - 1, len + 1 };

		if (r->op < 0x10 || !len)
			continue;
		for (j = 0; j < 2; j++) {
			uint32_t cmd[8] = { 0 };

			if (bad[j] < 2)
				continue;
			cmd[0] = MI_INSTR(r->op, bad[j] - 2);
			if (r->op == 0x20 || r->op == 0x24)
				cmd[0] |= MI_MEM_VIRTUAL;	/* GTT */
			for (k = 1; k < bad[j]; k++)
				cmd[k] = MI_NOOP;
			snprintf(what, sizeof(what), "%s, %u dwords", r->name,
				 bad[j]);
			expect_instruction_error(fd, cmd, bad[j], false, what);
			expect_instruction_error(fd, cmd, bad[j], true, what);
			walked++;
		}
	}
	igt_info("%u bad lengths", walked);
	close(fd);
}

/*
 * G4x: a privileged command in a non-secure batch is dropped (it does
 * nothing; the engine does not stop) and reported as a privilege error:
 * the error interrupt, which today's driver answers by wedging the
 * device.  (Gen3 and the 965G drop it silently: gem_exec_cmd_rules.)
 */
static void subtest_privileged_g4x(void)
{
	int fd = drm_open_driver();
	const struct mi_rule *rules;
	char caps[4096];
	unsigned int n, i, k, walked = 0;

	igt_assert_lt(0, igt_debugfs_read(fd, "i915_capabilities", caps,
					  sizeof(caps)));
	if (!strstr(caps, "is_g4x: yes"))
		igt_skip("not a G4x: privileged commands are dropped silently");
	gem_require_unwedged(fd, HANGCHECK_MS);
	rules = mi_rules(&n);
	for (i = 0; i < n; i++) {
		const struct mi_rule *r = &rules[i];
		long long irqs = error_interrupts(fd);
		long long errors = sim_cs_value("errors");
		long long dropped = sim_cs_value("privileged_noops");
		uint32_t resets = gem_reset_count(fd);
		struct batch *b;
		struct bo target;
		int64_t forever = -1;
		uint32_t *map;

		if (!r->priv[1])
			continue;
		b = batch_new(fd);
		bo_init(&target, fd, PAGE_SZ);
		batch_emit(b, MI_NOOP | MI_NOOP_WRITE_NOPID | 0x5eed);
		emit_store_dword(b, &target, 0, MARK_A);
		switch (r->op) {
		case 0x20:	/* MI_STORE_DWORD_IMM */
			emit_store_dword_imm(b, &target, 8, 0x1234);
			break;
		case 0x22:	/* MI_LOAD_REGISTER_IMM: NOPID */
			batch_emit(b, MI_LOAD_REGISTER_IMM(1));
			batch_emit(b, REG_NOPID);
			batch_emit(b, 0x1234);
			break;
		case 0x24:	/* MI_STORE_REGISTER_MEM: NOPID */
			batch_emit(b, MI_INSTR(r->op, 1) | MI_MEM_VIRTUAL);
			batch_emit(b, REG_NOPID);
			batch_reloc(b, &target, 8, I915_GEM_DOMAIN_INSTRUCTION,
				    I915_GEM_DOMAIN_INSTRUCTION);
			break;
		default:	/* MI_SET_CONTEXT, MI_STORE_DWORD_INDEX */
			batch_emit(b, MI_INSTR(r->op, r->len[1] - 2));
			for (k = 1; k < r->len[1]; k++)
				batch_emit(b, k == 1 ? 0xfc0 : 0);
			break;
		}
		emit_store_dword(b, &target, 4, MARK_B);
		batch_submit(b);
		igt_assert_ok(__gem_wait(fd, target.handle, &forever));

		igt_info("%-24s non-secure: error interrupts +%lld, dropped +%lld, NOPID %#llx",
			 r->name, error_interrupts(fd) - irqs,
			 sim_cs_value("privileged_noops") - dropped,
			 sim_reg("NOPID"));
		igt_assert_eq(error_interrupts(fd), irqs + 1);
		/* not an instruction error: the engine did not stop there */
		igt_assert_eq(sim_cs_value("errors"), errors);
		igt_assert_eq(sim_cs_value("privileged_noops"), dropped + 1);
		igt_assert_eq(sim_reg("NOPID"), 0x5eed);
		map = gem_mmap__cpu(fd, target.handle, 0, PAGE_SZ);
		igt_assert_eq_u64(map[0], MARK_A);
		igt_assert_eq_u64(map[1], MARK_B);
		igt_assert_eq_u64(map[2], 0);
		munmap(map, PAGE_SZ);
		/* a dropped command is no hang: nothing was reset */
		igt_assert_eq(gem_wedged_debugfs(fd), 0);
		igt_assert_eq(gem_reset_count(fd), resets);
		batch_free(b);
		bo_fini(&target, fd);
		walked++;
	}
	igt_assert_eq(walked, 5);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST_T(unknown_command, 60),
	SUBTEST_T(reset0_wedges, 60),
	SUBTEST(recover),
	SUBTEST_T(error_survives_failed_exec, 90),
	SUBTEST_T(unknown_mi_opcodes, 300),
	SUBTEST_T(bad_mi_lengths, 120),
	SUBTEST_T(privileged_g4x, 60),
};

igt_main(tests)
