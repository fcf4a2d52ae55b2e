// SPDX-License-Identifier: GPL-2.0
/*
 * gem_exec_hang_badcmd: a batch with a command the GPU does not know.
 *
 * The command streamer stops with an error (the model sets its error
 * registers, as hardware would), the hang check finds the engine stuck
 * and the driver resets the GPU: the waiter's WAIT returns 0, as
 * upstream's, and so do SET_DOMAIN and PREAD; the request's
 * sync_file (FENCE_OUT) says EIO; what ran before the bad command landed,
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
 * row do not ban it); the error state's EIR has the instruction error,
 * which raised no error interrupt (upstream leaves it masked in EMR).
 *
 * error_irq_no_reset: as upstream's, the error does not reset the GPU by
 * itself: the one reset comes from the hang check, after at least 3
 * checks found the engine stuck (before, the error interrupt queued an
 * immediate check that reset at its first run); no error interrupt was
 * counted (EMR masks the instruction error, as upstream), and the error
 * state has EIR's instruction error and the bad header in IPEHR.  privileged_g4x: on G4x a privileged command in a
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
/* the walks over every opcode: a stuck engine is found after 3 checks */
#define WALK_HANGCHECK_MS	100
#define BAD_HEADER	0x2badc0deu	/* client 1: reserved on Gen3/Gen4 */
#define EIR_INSTRUCTION_ERROR	(1u << 0)	/* EIR/EMR bit 0 */

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

/* the bad command hangs the GPU: its fence says EIO, its waiters get 0 */
static void bad_command_hangs(int fd, bool wedges)
{
	struct batch *b;
	struct bo target;
	int64_t forever = -1;
	uint32_t *map, dw;
	double t0, took;
	long long errors;
	int ret, fence;

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
	fence = batch_submit_fence(b);
	ret = __gem_wait(fd, target.handle, &forever);
	took = igt_now() - t0;
	igt_info("WAIT returned %s after %.2f s", igt_errname(ret), took);
	igt_assert_ok(ret);
	/* the GPU hung on it: the fence's error */
	igt_assert_err(sync_file_status(fence), -EIO);
	close(fence);
	/* the model halted on it (the reset cleared its error registers) */
	igt_assert_eq(sim_cs_value("errors"), errors + 1);

	/* what ran before the bad command ran; nothing after it */
	igt_assert_ok(__gem_set_domain(fd, target.handle,
				       I915_GEM_DOMAIN_CPU, 0));
	igt_assert_eq(gem_busy(fd, target.handle), 0);
	map = gem_mmap__cpu(fd, target.handle, 0, PAGE_SZ);
	igt_assert_eq_u64(map[1], 0);
	igt_assert_eq_u64(map[0], 0x600d);
	munmap(map, PAGE_SZ);

	/* PREAD waits for the hung batch: 0, as upstream */
	igt_assert_ok(__gem_read(fd, b->bo.handle, 0, &dw, 4));
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
		/* the next batch runs */
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

/* the driver's count of error interrupts (debugfs i915_interrupt_info) */
static long long error_interrupts(int fd)
{
	return igt_debugfs_value(fd, "i915_interrupt_info", "error interrupts");
}

/* EIR as the error state of the last hang shows it */
static uint32_t error_state_eir(int fd)
{
	static char buf[65536];
	const char *p;
	int n;

	n = igt_debugfs_read(fd, "i915_error_state", buf, sizeof(buf) - 1);
	igt_assert_lt(0, n);
	buf[n] = '\0';
	p = strstr(buf, "\nEIR: 0x");
	igt_assert_f(p, "no EIR line in the error state:\n%.1000s", buf);
	return strtoul(p + strlen("\nEIR: 0x"), NULL, 16);
}

#define MARK_A		0x600d
#define MARK_B		0xbad

/*
 * Run @cmd (@n dwords) between two markers in a batch (secure if
 * @secure) and expect an instruction error there: the batch's fence ends
 * with EIO (the hang check finds the engine stuck and the driver resets the
 * GPU; its WAIT answers 0), the error state's IPEHR holds the header, its
 * ACTHD the command's address and its EIR the instruction error, which
 * raised no error interrupt; the marker before it landed and the one after
 * it did not, and the device is not wedged.
 */
static void expect_instruction_error(int fd, const uint32_t *cmd,
				     unsigned int n, bool secure,
				     const char *what)
{
	struct batch *b = batch_new(fd);
	long long irqs = error_interrupts(fd);
	long long errors = sim_cs_value("errors");
	int64_t forever = -1;
	uint64_t rsvd2 = 0;
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
	igt_assert_ok(__batch_submit_wr(b, I915_EXEC_FENCE_OUT |
					(secure ? I915_EXEC_SECURE : 0),
					&rsvd2));
	igt_assert_ok(__gem_wait(fd, target.handle, &forever));
	igt_assert_err(sync_file_status(rsvd2 >> 32), -EIO);
	close(rsvd2 >> 32);

	/* the reset cleared the engine's registers: the error state has them */
	ipehr = gem_error_state_reg(fd, "IPEHR");
	acthd = gem_error_state_reg(fd, "ACTHD");
	igt_info("%-40s %-10s: IPEHR %#x ACTHD %#x", what,
		 secure ? "secure" : "non-secure", ipehr, acthd);
	igt_assert_eq_u64(ipehr, cmd[0]);
	igt_assert_eq_u64(acthd, b->bo.offset + at);
	igt_assert_eq(sim_cs_value("errors"), errors + 1);
	igt_assert_eq(error_state_eir(fd) & EIR_INSTRUCTION_ERROR,
		      EIR_INSTRUCTION_ERROR);
	/* masked in EMR, as upstream: no interrupt */
	igt_assert_eq(error_interrupts(fd), irqs);
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

	gem_require_unwedged(fd, WALK_HANGCHECK_MS);
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

	gem_require_unwedged(fd, WALK_HANGCHECK_MS);
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

/* the error stops the engine but resets nothing: only the hang check does */
static void subtest_error_irq_no_reset(void)
{
	int fd = drm_open_driver();
	long long irqs, errors, checks;
	int64_t forever = -1;
	uint32_t resets;
	struct batch *b;
	struct bo target;
	uint64_t rsvd2 = 0;
	uint32_t *map;
	int fence;

	gem_require_unwedged(fd, HANGCHECK_MS);
	gem_set_reset(1);
	b = batch_new(fd);
	bo_init(&target, fd, PAGE_SZ);
	emit_pixel(b, &target, 0, 0x600d);
	batch_emit(b, BAD_HEADER);
	batch_emit(b, MI_NOOP);
	emit_pixel(b, &target, 1, 0xbad);
	/* nothing outstanding: no hang check queued before this batch's */
	gem_sync(fd, target.handle);
	irqs = error_interrupts(fd);
	errors = sim_cs_value("errors");
	resets = gem_reset_count(fd);
	checks = gem_hang_checks(fd);
	gem_error_state_clear(fd);
	igt_assert_ok(__batch_submit_wr(b, I915_EXEC_FENCE_OUT, &rsvd2));
	fence = rsvd2 >> 32;
	igt_assert_ok(__gem_wait(fd, target.handle, &forever));
	igt_assert_err(sync_file_status(fence), -EIO);
	close(fence);

	/* one reset, by the hang check: three checks found the engine stuck */
	igt_info("reset after %lld hang checks",
		 gem_hang_checks(fd) - checks);
	igt_assert_eq(gem_reset_count(fd), resets + 1);
	igt_assert_lte(checks + 3, gem_hang_checks(fd));
	igt_assert_eq(sim_cs_value("errors"), errors + 1);
	/* the instruction error is masked in EMR, as upstream: no interrupt */
	igt_assert_eq(error_interrupts(fd), irqs);
	/* the error state has it in EIR, and the bad command in IPEHR */
	igt_assert_eq(error_state_eir(fd) & EIR_INSTRUCTION_ERROR,
		      EIR_INSTRUCTION_ERROR);
	igt_assert_eq(gem_error_state_reg(fd, "IPEHR"), BAD_HEADER);
	map = gem_mmap__cpu(fd, target.handle, 0, PAGE_SZ);
	igt_assert_eq_u64(map[0], 0x600d);
	igt_assert_eq_u64(map[1], 0);
	munmap(map, PAGE_SZ);
	igt_assert_eq(gem_wedged_debugfs(fd), 0);
	batch_free(b);
	bo_fini(&target, fd);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST_T(unknown_command, 60),
	SUBTEST_T(reset0_wedges, 60),
	SUBTEST(recover),
	SUBTEST_T(unknown_mi_opcodes, 600),
	SUBTEST_T(bad_mi_lengths, 300),
	SUBTEST_T(error_irq_no_reset, 120),
	SUBTEST_T(privileged_g4x, 60),
};

igt_main(tests)
