// SPDX-License-Identifier: GPL-2.0
/*
 * gem_exec_fetch: the software model's command streamer fetches commands
 * a page at a time: one GTT lookup per page of the ring or batch (debugfs
 * i915_sim/<slot>/cs, fetch_lookups), not one per dword, and still as
 * strictly as the silicon at page boundaries.
 *
 * lookups_per_page: a batch of four pages of MI_NOOPs (4000 dwords) costs
 * a few lookups, not thousands, and still runs to its end (the store
 * after the MI_NOOPs lands).
 *
 * straddle_executes: an XY_COLOR_BLT (6 dwords) split across two pages of
 * the batch after each of its first five dwords executes: every pixel
 * lands.
 *
 * straddle_faults: a two-page batch runs; then the model's entry of its
 * second page is made invalid (debugfs gtt_invalidate, as a bad entry
 * would be) and it runs again: an XY_COLOR_BLT split after each of its
 * first five dwords by the page boundary is a page-table error on that
 * command (ACTHD and IPEHR on its header, the model's error "invalid GTT
 * entry"), the fill before it landed; a blit whose last dword is the
 * page's last runs, and the fault is on the next header, the second
 * page's first dword.
 *
 * locked_commands: the ring's commands of 64 empty requests run within
 * the holds of the model's lock that pick them (debugfs locked_commands),
 * at least two a request (the breadcrumb's MI_STORE_DWORD_INDEX,
 * MI_USER_INTERRUPT and MI_NOOP are expected), not taking and dropping
 * the lock for each; a batch's commands do not (a batch of 4000 MI_NOOPs
 * adds only its request's ring commands, fewer than 16).
 *
 * invalidated_while_fetching: the entry of the page the batch is being
 * fetched from is made invalid while it runs there (slowly, cmd_delay_us):
 * the next fetch from that page faults, nothing after it runs.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "exec.h"

#define HANGCHECK_MS	250
#define NOOPS		4000	/* 16000 bytes: four pages of the batch */
#define MAX_LOOKUPS	16	/* four batch pages, the ring's, a margin */
#define BLT_DW		6	/* XY_COLOR_BLT */

/* @target seen as a 64 x 16 surface of 32 bpp */
static struct surf target_surf(struct bo *target)
{
	return (struct surf){ target, 256, 4, 64, 16 };
}

static uint32_t read_dw(int fd, struct bo *target, unsigned int index)
{
	uint32_t v;

	gem_read(fd, target->handle, 4 * index, &v, 4);
	return v;
}

static void subtest_lookups_per_page(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct surf s;
	struct bo target;
	long long lookups, commands;
	unsigned int i;

	lookups = sim_cs_value("fetch_lookups");
	igt_assert_f(lookups >= 0, "no fetch_lookups in the model's debugfs cs");
	bo_init(&target, fd, PAGE_SZ);
	s = target_surf(&target);
	for (i = 0; i < NOOPS; i++)
		batch_emit(b, MI_NOOP);
	emit_xy_fill(b, &s, 3, 0, 1, 1, 0x600d);
	sim_wait_idle();
	lookups = sim_cs_value("fetch_lookups");
	commands = sim_cs_value("commands");
	batch_submit_sync(b);
	lookups = sim_cs_value("fetch_lookups") - lookups;
	commands = sim_cs_value("commands") - commands;
	igt_info("%lld commands, %lld GTT lookups", commands, lookups);
	igt_assert_lt(NOOPS, commands);
	igt_assert_f(lookups > 0 && lookups <= MAX_LOOKUPS,
		     "%lld GTT lookups for a batch of four pages (at most %d)",
		     lookups, MAX_LOOKUPS);
	igt_assert_eq_u64(read_dw(fd, &target, 3), 0x600d);
	batch_free(b);
	bo_fini(&target, fd);
	close(fd);
}

#define LOCKED_EXECS	64

static void subtest_locked_commands(void)
{
	int fd = drm_open_driver();
	struct drm_i915_gem_exec_object2 obj = {
		.handle = bbe_create(fd, 0),
	};
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(&obj),
		.buffer_count = 1,
	};
	struct batch *b = batch_new(fd);
	long long locked;
	unsigned int i;

	igt_assert_f(sim_cs_value("locked_commands") >= 0,
		     "no locked_commands in the model's debugfs cs");
	sim_wait_idle();
	locked = sim_cs_value("locked_commands");
	for (i = 0; i < LOCKED_EXECS; i++)
		gem_execbuf(fd, &eb);
	gem_sync(fd, obj.handle);
	sim_wait_idle();
	locked = sim_cs_value("locked_commands") - locked;
	igt_info("%lld ring commands of %d empty requests within the hold that picked them",
		 locked, LOCKED_EXECS);
	igt_assert_f(locked >= 2 * LOCKED_EXECS,
		     "%lld ring commands of %d requests within the hold that picked them",
		     locked, LOCKED_EXECS);

	/* a batch's MI_NOOPs keep a hold each: only the ring's count */
	for (i = 0; i < NOOPS; i++)
		batch_emit(b, MI_NOOP);
	locked = sim_cs_value("locked_commands");
	batch_submit_sync(b);
	sim_wait_idle();
	locked = sim_cs_value("locked_commands") - locked;
	igt_info("%lld commands of a batch of %d MI_NOOPs", locked, NOOPS);
	igt_assert_f(locked < 16, "%lld commands of a batch of %d MI_NOOPs",
		     locked, NOOPS);
	batch_free(b);
	gem_close(fd, obj.handle);
	close(fd);
}

static void pad_to(struct batch *b, uint32_t offset)
{
	while (batch_offset(b) < offset)
		batch_emit(b, MI_NOOP);
}

static void subtest_straddle_executes(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct surf s;
	struct bo target;
	unsigned int k;

	bo_init(&target, fd, PAGE_SZ);
	s = target_surf(&target);
	for (k = 1; k < BLT_DW; k++) {
		/* k dwords in one page, the rest in the next */
		pad_to(b, PAGE_SZ - 4 * k);
		emit_xy_fill(b, &s, k, 0, 1, 1, 0x1000 + k);
		pad_to(b, 2 * PAGE_SZ - 4 * k);
		emit_xy_fill(b, &s, k, 1, 1, 1, 0x2000 + k);
		batch_submit_sync(b);
		igt_assert_eq_u64(read_dw(fd, &target, k), 0x1000 + k);
		igt_assert_eq_u64(read_dw(fd, &target, 64 + k), 0x2000 + k);
	}
	batch_free(b);
	bo_fini(&target, fd);
	close(fd);
}

/* the model's last engine error, debugfs cs "error: ..." */
static void sim_cs_error(char *line, size_t len)
{
	char buf[4096], path[256];
	const char *p, *e;
	FILE *f;
	size_t n;

	sim_debugfs_path(path, sizeof(path), "cs");
	f = fopen(path, "r");
	igt_assert_f(f, "opening %s", path);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	p = strstr(buf, "\nerror: ");
	igt_assert_f(p, "no error line in %s", path);
	p += strlen("\nerror: ");
	e = strchr(p, '\n');
	snprintf(line, len, "%.*s", e ? (int)(e - p) : (int)strlen(p), p);
}

/* debugfs gtt_invalidate: the model clears the entry of @addr's page */
static void sim_gtt_invalidate(uint64_t addr)
{
	char path[256], val[32];
	FILE *f;

	sim_debugfs_path(path, sizeof(path), "gtt_invalidate");
	f = fopen(path, "w");
	igt_assert_f(f, "opening %s", path);
	snprintf(val, sizeof(val), "%llx", (unsigned long long)addr);
	igt_assert_lt(0, fputs(val, f));
	igt_assert_eq(fclose(f), 0);
}

/*
 * A client for the fault subtests, which hang the GPU on purpose:
 * unwedged, master, unbannable, and a one-page @target placed four pages
 * before the end of the GTT's managed range.  *@batch_addr is the page
 * after it, where the two-page batch goes.
 */
static int fault_client(struct bo *target, uint64_t *batch_addr)
{
	int fd = drm_open_driver();
	uint64_t start, end;

	gem_require_unwedged(fd, HANGCHECK_MS);
	igt_assert_ok(gem_set_master(fd));
	gem_set_unbannable(fd);
	gem_gtt_managed(fd, &start, &end);
	bo_init(target, fd, PAGE_SZ);
	target->offset = end - 4 * PAGE_SZ;
	*batch_addr = end - 3 * PAGE_SZ;
	return fd;
}

/*
 * The exec list of the fault subtests: @target softpinned and written,
 * then a new two-page batch object softpinned at @batch_addr holding
 * @b, which is freed.
 */
static void pinned_pair(int fd, struct drm_i915_gem_exec_object2 *obj,
			struct bo *target, uint64_t batch_addr,
			struct batch *b)
{
	obj[0].handle = target->handle;
	obj[0].offset = target->offset;
	obj[0].flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE;
	obj[1].handle = gem_create(fd, 2 * PAGE_SZ);
	obj[1].offset = batch_addr;
	obj[1].flags = EXEC_OBJECT_PINNED;
	gem_write(fd, obj[1].handle, 0, b->dw, 4 * b->len);
	batch_free(b);
}

static void exec_pinned(int fd, struct drm_i915_gem_exec_object2 *obj)
{
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(obj),
		.buffer_count = 2,
	};
	int64_t forever = -1;

	gem_execbuf(fd, &eb);
	igt_assert_ok(__gem_wait(fd, obj[1].handle, &forever));
}

/*
 * A two-page batch softpinned at @batch_addr: a fill of pixel 0, MI_NOOPs,
 * a fill of pixel 1 whose header is @head bytes before the second page,
 * MI_BATCH_BUFFER_END.  It runs whole once; then the model's entry of the
 * second page is made invalid and it runs again: with @head < 24 the
 * second fill straddles into that page and faults on its header; with
 * 24 it is whole in the first page and runs, and the fault is on the
 * next header, the second page's first dword (read as 0).
 */
static void straddle_fault(int fd, struct bo *target, uint64_t batch_addr,
			   unsigned int head)
{
	struct drm_i915_gem_exec_object2 obj[2] = { };
	struct batch *b = batch_new(fd);
	struct surf s = target_surf(target);
	long long errors;
	uint32_t fault_at, header, zero[2] = { 0, 0 };
	char err[256], want[64];

	emit_xy_fill(b, &s, 0, 0, 1, 1, 0x600d);
	pad_to(b, PAGE_SZ - head);
	emit_xy_fill(b, &s, 1, 0, 1, 1, 0xbad);
	batch_end(b);
	header = head >= 4 * BLT_DW ? 0 : b->dw[(PAGE_SZ - head) / 4];

	pinned_pair(fd, obj, target, batch_addr, b);

	/* whole: both fills land */
	gem_write(fd, target->handle, 0, zero, sizeof(zero));
	exec_pinned(fd, obj);
	igt_assert_eq_u64(read_dw(fd, target, 0), 0x600d);
	igt_assert_eq_u64(read_dw(fd, target, 1), 0xbad);

	/* the second page's entry invalid: a page-table error */
	gem_write(fd, target->handle, 0, zero, sizeof(zero));
	gem_error_state_clear(fd);
	errors = sim_cs_value("errors");
	sim_gtt_invalidate(batch_addr + PAGE_SZ);
	exec_pinned(fd, obj);

	fault_at = batch_addr + PAGE_SZ - (head >= 4 * BLT_DW ? 0 : head);
	igt_info("header %2u bytes before the page: ACTHD %#x IPEHR %#x",
		 head, gem_error_state_reg(fd, "ACTHD"),
		 gem_error_state_reg(fd, "IPEHR"));
	igt_assert_eq(sim_cs_value("errors"), errors + 1);
	igt_assert_eq_u64(gem_error_state_reg(fd, "ACTHD"), fault_at);
	igt_assert_eq_u64(gem_error_state_reg(fd, "IPEHR"), header);
	sim_cs_error(err, sizeof(err));
	snprintf(want, sizeof(want), "0x%08x header 0x%08x ", fault_at, header);
	igt_assert_f(!strncmp(err, want, strlen(want)) &&
		     strstr(err, "invalid GTT entry"),
		     "the model's error \"%s\", not at 0x%08x on an invalid GTT entry",
		     err, fault_at);
	igt_assert_eq_u64(read_dw(fd, target, 0), 0x600d);
	igt_assert_eq_u64(read_dw(fd, target, 1),
			  head >= 4 * BLT_DW ? 0xbad : 0);
	igt_assert_eq(gem_wedged_debugfs(fd), 0);
	/* unbound, its entries are written again */
	gem_close(fd, obj[1].handle);
}

static void subtest_straddle_faults(void)
{
	uint64_t batch_addr;
	struct bo target;
	unsigned int k;
	int fd = fault_client(&target, &batch_addr);

	for (k = 1; k <= BLT_DW; k++)
		straddle_fault(fd, &target, batch_addr, 4 * k);
	bo_fini(&target, fd);
	close(fd);
}

/*
 * The entry of the page being fetched from is made invalid while the
 * batch runs there (slowly: cmd_delay_us): the next dword fetched from
 * that page faults, the marker at the batch's end does not land.
 */
static void subtest_invalidated_while_fetching(void)
{
	struct drm_i915_gem_exec_object2 obj[2] = { };
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(obj),
		.buffer_count = 2,
		.batch_start_offset = PAGE_SZ - 16,
	};
	int64_t forever = -1;
	long long errors, acthd = 0;
	uint64_t batch_addr;
	struct batch *b;
	struct bo target;
	struct surf s;
	double t0;
	int fd = fault_client(&target, &batch_addr);

	s = target_surf(&target);
	b = batch_new(fd);
	/* four dwords in the first page, 300 in the second, the marker */
	pad_to(b, PAGE_SZ + 4 * 300);
	emit_xy_fill(b, &s, 0, 0, 1, 1, 0xbad);
	batch_end(b);
	pinned_pair(fd, obj, &target, batch_addr, b);

	gem_error_state_clear(fd);
	errors = sim_cs_value("errors");
	sim_set_cmd_delay(1000);
	gem_execbuf(fd, &eb);
	/* fetching from the second page */
	t0 = igt_now();
	while ((acthd < (long long)(batch_addr + PAGE_SZ + 64) ||
		acthd >= (long long)(batch_addr + 2 * PAGE_SZ)) &&
	       igt_now() - t0 < 5)
		acthd = sim_cs_value("acthd");
	sim_gtt_invalidate(batch_addr + PAGE_SZ);
	igt_assert_ok(__gem_wait(fd, obj[1].handle, &forever));
	sim_set_cmd_delay(0);

	igt_info("invalidated at ACTHD %#llx; the fault at %#x", acthd,
		 gem_error_state_reg(fd, "ACTHD"));
	igt_assert_lte_u64(batch_addr + PAGE_SZ + 64, acthd);
	igt_assert_lte_u64(acthd, batch_addr + PAGE_SZ + 4 * 299);
	igt_assert_eq(sim_cs_value("errors"), errors + 1);
	igt_assert_lte_u64(acthd, gem_error_state_reg(fd, "ACTHD"));
	igt_assert_lte_u64(gem_error_state_reg(fd, "ACTHD"),
			   batch_addr + PAGE_SZ + 4 * 299);
	igt_assert_eq_u64(read_dw(fd, &target, 0), 0);
	gem_close(fd, obj[1].handle);
	bo_fini(&target, fd);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(lookups_per_page),
	SUBTEST(locked_commands),
	SUBTEST(straddle_executes),
	SUBTEST(straddle_faults),
	SUBTEST(invalidated_while_fetching),
};

igt_main(tests)
