// SPDX-License-Identifier: GPL-2.0
/*
 * gem_exec_cmd_rules: the GPU executes exactly the MI commands of its
 * generation's command list, by the hardware's privilege rules.
 *
 * Every command of the Gen3 or Gen4 list (tests/lib mi_rule()) runs in a
 * batch between two markers (dword writes the batch makes before and
 * after it), in a non-secure batch and in a secure one (as root and DRM
 * master): the batch completes, the device stays up, the marker after
 * the command lands (MI_BATCH_BUFFER_END and a chaining
 * MI_BATCH_BUFFER_START: it does not), and the command does what it does
 * - MI_NOOP writes NOPID, MI_LOAD_REGISTER_IMM a register,
 * MI_STORE_REGISTER_MEM a register into memory, MI_STORE_DWORD_IMM its
 * dword, MI_USER_INTERRUPT and MI_FLUSH count once in the model - or is
 * dropped: a privileged command in a non-secure batch does nothing and
 * the batch goes on.  Only where the hardware reports that silently
 * (Gen3, the 965G); G4x raises a privilege error, which
 * gem_exec_hang_badcmd covers, as it does opcodes that are not in the
 * list and bad lengths (instruction errors).
 *
 * arb_check_spinner: igt's spinner (MI_ARB_CHECK, 960 MI_NOOPs and a
 * MI_BATCH_BUFFER_START to itself) runs until the CPU rewrites its jump
 * to MI_BATCH_BUFFER_END, then completes normally.
 */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "exec.h"

#define NOPID_BEFORE	0x5eed
#define VALUE		0x1234u
#define HWS_SCRATCH	0xfc0	/* a status page byte offset nobody uses */
#define SPIN_NOOPS	960

/* target dwords: the marker before, the marker after, the command's */
/* the batch MI_BATCH_BUFFER_START chains to: it writes NOPID and ends */
static const uint32_t next_cs[2] = {
	MI_NOOP | MI_NOOP_WRITE_NOPID | VALUE, MI_BATCH_BUFFER_END,
};

#define MARK_A		0
#define MARK_B		4
#define EFFECT		8

struct counts {
	long long user_interrupts, flushes, errors, dropped;
};

static void counts_read(struct counts *c)
{
	c->user_interrupts = sim_cs_value("user_interrupts");
	c->flushes = sim_cs_value("flushes");
	c->errors = sim_cs_value("errors");
	c->dropped = sim_cs_value("privileged_noops");
}

static bool gem_is_g4x(int fd)
{
	char buf[4096];
	int ret = igt_debugfs_read(fd, "i915_capabilities", buf, sizeof(buf));

	igt_assert_lt(0, ret);
	return strstr(buf, "is_g4x: yes");
}

static void emit_word(struct batch *b, uint32_t dw)
{
	batch_emit(b, dw);
}

/* the command @r with operands that do something checkable */
static void emit_cmd(struct batch *b, const struct mi_rule *r,
		     struct bo *target, struct bo *next, bool secure)
{
	unsigned int len = r->len[b->gen >= 4], i;

	switch (r->op) {
	case 0x00:	/* MI_NOOP */
		emit_word(b, MI_NOOP | MI_NOOP_WRITE_NOPID | VALUE);
		return;
	case 0x08:	/* MI_ARB_ON_OFF: on, as it is */
		emit_word(b, MI_INSTR(r->op, 0) | 1);
		return;
	case 0x20:	/* MI_STORE_DWORD_IMM */
		emit_store_dword_imm(b, target, EFFECT, VALUE);
		return;
	case 0x21:	/* MI_STORE_DWORD_INDEX */
		emit_word(b, MI_INSTR(r->op, 1));
		emit_word(b, HWS_SCRATCH);
		emit_word(b, VALUE);
		return;
	case 0x22:	/* MI_LOAD_REGISTER_IMM: NOPID */
		emit_word(b, MI_LOAD_REGISTER_IMM(1));
		emit_word(b, REG_NOPID);
		emit_word(b, VALUE);
		return;
	case 0x24:	/* MI_STORE_REGISTER_MEM: NOPID into the target */
		emit_word(b, MI_NOOP | MI_NOOP_WRITE_NOPID | VALUE);
		emit_word(b, MI_INSTR(r->op, 1) | MI_MEM_VIRTUAL);
		emit_word(b, REG_NOPID);
		batch_reloc(b, target, EFFECT, I915_GEM_DOMAIN_INSTRUCTION,
			    I915_GEM_DOMAIN_INSTRUCTION);
		return;
	case 0x31:	/* MI_BATCH_BUFFER_START: on in @next, no return */
		gem_write(b->fd, next->handle, 0, next_cs, sizeof(next_cs));
		if (!secure) {
			emit_batch_start(b, next, 0);
		} else {
			emit_word(b, MI_BATCH_BUFFER_START | MI_BATCH_GTT);
			batch_reloc(b, next, 0, I915_GEM_DOMAIN_COMMAND, 0);
		}
		return;
	}
	/* the rest: the header, its length field, zero operands */
	emit_word(b, MI_INSTR(r->op, len > 1 ? len - 2 : 0));
	for (i = 1; i < len; i++)
		emit_word(b, 0);
}

static void emit_mark(struct batch *b, struct bo *target, uint32_t off,
		      uint32_t op)
{
	emit_store_dword(b, target, off, 0xa0000000u | op << 8 | off);
}

/*
 * Run @r (NULL: nothing, to learn what a request counts by itself) in a
 * batch between the markers and check what it did.  @ref: the counts of
 * the run without a command.
 */
static void run_one(int fd, const struct mi_rule *r, bool secure,
		    struct counts *ref)
{
	int gen = gem_gen(fd);
	uint32_t op = r ? r->op : 0x00;
	bool drop = r && r->priv[gen >= 4] && !secure;
	bool ends = r && (op == 0x0a || op == 0x31);
	const char *name = r ? r->name : "(nothing)";
	struct batch *b = batch_new(fd);
	struct bo target, next;
	struct counts c0, c1;
	uint32_t got[3];
	long long nopid;

	bo_init(&target, fd, PAGE_SZ);
	bo_init(&next, fd, PAGE_SZ);
	emit_word(b, MI_NOOP | MI_NOOP_WRITE_NOPID | NOPID_BEFORE);
	emit_mark(b, &target, MARK_A, op);
	if (r)
		emit_cmd(b, r, &target, &next, secure);
	emit_mark(b, &target, MARK_B, op);

	/* the breadcrumb's MI_USER_INTERRUPT runs after the seqno lands */
	sim_wait_idle();
	counts_read(&c0);
	igt_assert_ok(__batch_submit(b, secure ? I915_EXEC_SECURE : 0));
	gem_sync(fd, b->bo.handle);
	sim_wait_idle();
	counts_read(&c1);

	gem_read(fd, target.handle, 0, got, sizeof(got));
	nopid = sim_reg("NOPID");
	igt_info("%-24s %-10s: marks %#x %#x, effect %#x, NOPID %#llx, dropped %lld",
		 name, secure ? "secure" : "non-secure", got[0], got[1],
		 got[2], nopid, c1.dropped - c0.dropped);

	igt_assert_eq(c1.errors, c0.errors);
	igt_assert(!gem_is_wedged(fd));
	igt_assert_eq_u64(got[0], 0xa0000000u | op << 8 | MARK_A);
	igt_assert_eq_u64(got[1], ends ? 0 : 0xa0000000u | op << 8 | MARK_B);
	igt_assert_eq(c1.dropped - c0.dropped, drop);

	if (!r) {
		ref->user_interrupts = c1.user_interrupts - c0.user_interrupts;
		ref->flushes = c1.flushes - c0.flushes;
		op = ~0u;
	}
	switch (op) {
	case 0x00:
	case 0x31:
		igt_assert_eq(nopid, VALUE);
		break;
	case 0x02:
		igt_assert_eq(c1.user_interrupts - c0.user_interrupts,
			      ref->user_interrupts + 1);
		break;
	case 0x04:
		igt_assert_eq(c1.flushes - c0.flushes, ref->flushes + 1);
		break;
	case 0x20:
	case 0x24:
		igt_assert_eq_u64(got[2], drop ? 0 : VALUE);
		break;
	case 0x22:
		igt_assert_eq(nopid, drop ? NOPID_BEFORE : VALUE);
		break;
	case ~0u:
		break;
	default:
		igt_assert_eq(nopid, NOPID_BEFORE);
		break;
	}
	if (op != 0x02 && op != ~0u)
		igt_assert_eq(c1.user_interrupts - c0.user_interrupts,
			      ref->user_interrupts);

	batch_free(b);
	bo_fini(&next, fd);
	bo_fini(&target, fd);
}

static void walk(bool secure)
{
	int fd = drm_open_driver();
	int gen = gem_gen(fd);
	bool g4x = gem_is_g4x(fd);
	const struct mi_rule *rules;
	struct counts ref = { 0 };
	unsigned int n, i, ran = 0;

	if (secure)
		igt_assert_ok(gem_set_master(fd));
	run_one(fd, NULL, secure, &ref);
	rules = mi_rules(&n);
	for (i = 0; i < n; i++) {
		const struct mi_rule *r = &rules[i];

		if (!r->len[gen >= 4])
			continue;
		/* G4x reports this one: an error (gem_exec_hang_badcmd) */
		if (!secure && g4x && r->priv[1])
			continue;
		run_one(fd, r, secure, &ref);
		ran++;
	}
	igt_info("%u commands of the Gen%d list ran", ran, gen);
	close(fd);
}

static void subtest_non_secure(void)
{
	walk(false);
}

static void subtest_secure(void)
{
	walk(true);
}

/*
 * igt's spinner: it loops, the device stays up, and it ends normally
 * once the CPU has turned its jump into MI_BATCH_BUFFER_END.
 */
static void subtest_arb_check_spinner(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	uint32_t jump, *map, i;
	long long errors, batches;
	struct bo target;
	uint32_t got;
	double t0;

	bo_init(&target, fd, PAGE_SZ);
	emit_store_dword(b, &target, 0, 0x5917);
	jump = batch_offset(b) + 4 * (1 + SPIN_NOOPS);
	/* the loop starts at the MI_ARB_CHECK */
	emit_word(b, MI_ARB_CHECK);
	for (i = 0; i < SPIN_NOOPS; i++)
		emit_word(b, MI_NOOP);
	emit_batch_start(b, &b->bo, jump - 4 * (1 + SPIN_NOOPS));
	igt_assert_eq(batch_offset(b), jump + 8);

	errors = sim_cs_value("errors");
	batches = sim_cs_value("batches");
	batch_submit(b);
	/*
	 * It loops: each jump starts the batch again.  Wait for 100 passes
	 * however slow the host is, well inside the 30 hang checks after
	 * which the driver would reset a batch that never ends.
	 */
	t0 = igt_now();
	while (sim_cs_value("batches") <= batches + 100 && igt_now() - t0 < 20)
		usleep(10 * 1000);
	igt_info("after %.1f s: busy %#x, batches started %lld, errors %lld",
		 igt_now() - t0, gem_busy(fd, b->bo.handle),
		 sim_cs_value("batches") - batches,
		 sim_cs_value("errors") - errors);
	igt_assert_eq(sim_cs_value("errors"), errors);
	igt_assert_eq(gem_wedged_debugfs(fd), 0);
	igt_assert_neq(gem_busy(fd, b->bo.handle), 0);
	igt_assert_lt(batches + 100, sim_cs_value("batches"));

	map = gem_mmap__cpu(fd, b->bo.handle, 0, b->bo.size);
	igt_assert_eq(map[jump / 4] >> 23, MI_BATCH_BUFFER_START >> 23);
	map[jump / 4] = MI_BATCH_BUFFER_END;
	__sync_synchronize();
	gem_sync(fd, b->bo.handle);
	munmap(map, b->bo.size);

	igt_assert_eq(sim_cs_value("errors"), errors);
	igt_assert_eq(gem_wedged_debugfs(fd), 0);
	igt_assert(!gem_is_wedged(fd));
	gem_read(fd, target.handle, 0, &got, sizeof(got));
	igt_assert_eq_u64(got, 0x5917);

	batch_free(b);
	bo_fini(&target, fd);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST_T(non_secure, 120),
	SUBTEST_T(secure, 120),
	SUBTEST_T(arb_check_spinner, 60),
};

igt_main(tests)
