// SPDX-License-Identifier: GPL-2.0
/*
 * gem_exec_basic: a batch runs.  EXECBUFFER2 executes an empty batch
 * (MI_BATCH_BUFFER_END), writes the objects' GTT offsets back, honours
 * batch_start_offset, batch_len 0 (the whole object), alignment and
 * BATCH_FIRST; MI_STORE_DWORD_IMM (in a secure batch on Gen4) and the
 * helpers' dword writes through a relocation write exactly the dwords
 * they name; FENCE_OUT hands back a sync_file that signals;
 * two clients execute side by side.  GETPARAM advertises it all.
 */
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec.h"

static void exec_one(int fd, struct drm_i915_gem_exec_object2 *obj,
		     unsigned int count, uint32_t start, uint32_t len,
		     uint64_t flags)
{
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(obj),
		.buffer_count = count,
		.batch_start_offset = start,
		.batch_len = len,
		.flags = flags,
	};

	gem_execbuf(fd, &eb);
}

/* the offset the kernel wrote back: page aligned, inside the managed range */
static void check_offset(int fd, uint64_t offset, uint64_t size)
{
	uint64_t start, end;

	gem_gtt_managed(fd, &start, &end);
	igt_assert_eq_u64(offset & (PAGE_SZ - 1), 0);
	igt_assert_lte_u64(start, offset);
	igt_assert_lte_u64(offset + size, end);
}

static void subtest_getparam_execbuf2(void)
{
	int fd = drm_open_driver();

	igt_assert_eq(gem_getparam(fd, I915_PARAM_HAS_EXECBUF2), 1);
	close(fd);
}

struct param {
	int param;
	const char *name;
};

#define PARAM(p) { I915_PARAM_##p, #p }

/* each GETPARAM of @p answers @err and, if it succeeds, 1 */
static void check_params(const struct param *p, size_t n, int err)
{
	int fd = drm_open_driver();
	size_t i;

	for (i = 0; i < n; i++) {
		int value = -1, ret = __gem_getparam(fd, p[i].param, &value);

		igt_info("%s: %s, %d", p[i].name, igt_errname(ret), value);
		igt_assert_err(ret, err);
		if (!ret)
			igt_assert_eq(value, 1);
	}
	close(fd);
}

/* what the design supports, GETPARAM must say (libdrm_intel asks) */
static void subtest_getparam_features(void)
{
	static const struct param p[] = {
		PARAM(HAS_EXEC_NO_RELOC), PARAM(HAS_EXEC_HANDLE_LUT),
		PARAM(HAS_WAIT_TIMEOUT), PARAM(HAS_EXEC_BATCH_FIRST),
		PARAM(HAS_EXEC_SOFTPIN), PARAM(HAS_EXEC_FENCE),
		PARAM(HAS_RELAXED_DELTA), PARAM(HAS_EXEC_FENCE_ARRAY),
		PARAM(HAS_EXEC_TIMELINE_FENCES), PARAM(HAS_EXEC_SUBMIT_FENCE),
		PARAM(HAS_EXEC_CAPTURE),
	};

	check_params(p, ARRAY_SIZE(p), 0);
}

/* and what it lacks (the command parser) it answers 0, as upstream */
static void subtest_getparam_unsupported(void)
{
	int fd = drm_open_driver(), value = -1;

	igt_assert_ok(__gem_getparam(fd, I915_PARAM_CMD_PARSER_VERSION,
				     &value));
	igt_assert_eq(value, 0);
	close(fd);
}

/* one run of an empty batch: batch_start_offset, batch_len and flags */
struct nop_run {
	uint32_t start, len;
	uint64_t flags;
};

/*
 * Run MI_BATCH_BUFFER_END at @bbe_at as each of @runs says, on @fd
 * (closed at the end): every exec succeeds and reports a sane offset,
 * and the batch is idle once waited for.
 */
static void nop_test(int fd, uint32_t bbe_at, const struct nop_run *runs,
		     size_t n)
{
	struct drm_i915_gem_exec_object2 obj = {
		.handle = bbe_create(fd, bbe_at),
		.offset = ~0ull,
	};
	size_t i;

	gem_gen(fd);
	for (i = 0; i < n; i++) {
		exec_one(fd, &obj, 1, runs[i].start, runs[i].len,
			 runs[i].flags);
		check_offset(fd, obj.offset, PAGE_SZ);
	}
	gem_sync(fd, obj.handle);
	igt_assert_eq(gem_busy(fd, obj.handle), 0);
	gem_close(fd, obj.handle);
	close(fd);
}

static void subtest_nop(void)
{
	static const struct nop_run runs[] = { { 0, 8, 0 } };

	nop_test(drm_open_driver(), 0, runs, ARRAY_SIZE(runs));
}

static void subtest_nop_render_node(void)
{
	static const struct nop_run runs[] = { { 0, 8, 0 } };

	nop_test(drm_open_driver_render(), 0, runs, ARRAY_SIZE(runs));
}

/* flags I915_EXEC_DEFAULT and I915_EXEC_RENDER both mean the render ring */
static void subtest_nop_rings(void)
{
	static const struct nop_run runs[] = {
		{ 0, 8, I915_EXEC_DEFAULT }, { 0, 8, I915_EXEC_RENDER },
	};

	nop_test(drm_open_driver(), 0, runs, ARRAY_SIZE(runs));
}

/*
 * batch_len 0: the rest of the object from batch_start_offset; the
 * whole page runs, MI_NOOPs (zeroes), then the end
 */
static void subtest_batch_len_zero(void)
{
	static const struct nop_run runs[] = { { 0, 0, 0 }, { 2048, 0, 0 } };

	nop_test(drm_open_driver(), PAGE_SZ - 8, runs, ARRAY_SIZE(runs));
}

/*
 * batch_start_offset: what lies before it never runs.  The batch
 * stores 0x11111111 into dword 0 of the target from offset 0 and
 * 0x22222222 into dword 1 from offset 64.
 */
static void subtest_batch_start_offset(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct bo target;
	uint32_t got[2];

	bo_init(&target, fd, PAGE_SZ);
	emit_store_dword(b, &target, 0, 0x11111111);
	batch_end(b);
	while (batch_offset(b) < 64)
		batch_emit(b, MI_NOOP);
	emit_store_dword(b, &target, 4, 0x22222222);
	batch_end(b);
	gem_write(fd, b->bo.handle, 0, b->dw, batch_offset(b));
	{
		struct drm_i915_gem_exec_object2 obj[2] = {
			{ .handle = target.handle },
			{ .handle = b->bo.handle,
			  .relocation_count = b->nreloc,
			  .relocs_ptr = to_user_pointer(b->reloc) },
		};

		exec_one(fd, obj, 2, 64, batch_offset(b) - 64, 0);
	}
	gem_read(fd, target.handle, 0, got, sizeof(got));
	igt_assert_eq_u64(got[0], 0);
	igt_assert_eq_u64(got[1], 0x22222222);

	bo_fini(&target, fd);
	batch_free(b);
	close(fd);
}

/*
 * MI_STORE_DWORD_IMM through a relocation writes the value: in a
 * non-secure batch on Gen3, in a secure one (as root and DRM master) on
 * Gen4, where the command is privileged.
 */
static void subtest_store_dword(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	uint32_t got[PAGE_SZ / 4], want[PAGE_SZ / 4] = { 0 };
	uint64_t flags = store_dword_imm_flags(fd);
	struct bo target;

	bo_init(&target, fd, PAGE_SZ);
	emit_store_dword_imm(b, &target, 0, 0xc0ffee42);
	want[0] = 0xc0ffee42;
	igt_assert_ok(__batch_submit(b, flags));
	/* pread waits for the GPU by itself */
	gem_read(fd, target.handle, 0, got, sizeof(got));
	igt_assert_mem(got, want, sizeof(got), "target after one store");
	check_offset(fd, target.offset, target.size);

	bo_fini(&target, fd);
	batch_free(b);
	close(fd);
}

/* every dword of two pages, each by its own store, nothing else touched */
static void subtest_store_many(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	static uint32_t got[2 * PAGE_SZ / 4], want[2 * PAGE_SZ / 4];
	struct bo target;
	unsigned int i;

	bo_init(&target, fd, 3 * PAGE_SZ);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		if (b->len + 8 > BATCH_MAX_DW || b->nreloc == BATCH_MAX_RELOCS)
			batch_submit(b);
		want[i] = pattern_dw(1, i);
		emit_store_dword(b, &target, PAGE_SZ / 2 + 4 * i, want[i]);
	}
	batch_submit(b);
	gem_read(fd, target.handle, PAGE_SZ / 2, got, sizeof(got));
	igt_assert_mem(got, want, sizeof(got), "stored dwords");
	/* the half pages around them stay zero */
	memset(want, 0, sizeof(want));
	gem_read(fd, target.handle, 0, got, PAGE_SZ / 2);
	igt_assert_mem(got, want, PAGE_SZ / 2, "before the stores");
	gem_read(fd, target.handle, 2 * PAGE_SZ + PAGE_SZ / 2, got,
		 PAGE_SZ / 2);
	igt_assert_mem(got, want, PAGE_SZ / 2, "after the stores");

	bo_fini(&target, fd);
	batch_free(b);
	close(fd);
}

/* a hundred execs in a row, each its store, in order, no waiting */
static void subtest_sequence(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	uint32_t got[100], want[100];
	struct bo target;
	unsigned int i;

	bo_init(&target, fd, PAGE_SZ);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		want[i] = pattern_dw(2, i);
		/* twice into the same dword: the later store wins */
		emit_store_dword(b, &target, 4 * i, ~want[i]);
		emit_store_dword(b, &target, 4 * i, want[i]);
		batch_submit(b);
	}
	gem_read(fd, target.handle, 0, got, sizeof(got));
	igt_assert_mem(got, want, sizeof(got), "after 100 execs");

	bo_fini(&target, fd);
	batch_free(b);
	close(fd);
}

/* offsets written back: disjoint, aligned as asked, inside the range */
static void subtest_offsets_written_back(void)
{
	static const uint64_t align[] = { 0, 4096, 65536, 1 << 20, 0, 8192 };
	struct drm_i915_gem_exec_object2 obj[ARRAY_SIZE(align) + 1];
	int fd = drm_open_driver();
	unsigned int i, j, n = ARRAY_SIZE(align);

	memset(obj, 0, sizeof(obj));
	for (i = 0; i < n; i++) {
		obj[i].handle = gem_create(fd, (i + 1) * PAGE_SZ);
		obj[i].alignment = align[i];
		obj[i].offset = ~0ull;
	}
	obj[n].handle = bbe_create(fd, 0);
	obj[n].offset = ~0ull;
	exec_one(fd, obj, n + 1, 0, 8, 0);

	for (i = 0; i <= n; i++) {
		uint64_t size = i < n ? (i + 1) * PAGE_SZ : PAGE_SZ;

		igt_info("object %u: offset %#llx", i,
			 (unsigned long long)obj[i].offset);
		check_offset(fd, obj[i].offset, size);
		if (i < n && align[i])
			igt_assert_eq_u64(obj[i].offset & (align[i] - 1), 0);
		for (j = 0; j < i; j++) {
			uint64_t sj = j < n ? (j + 1) * PAGE_SZ : PAGE_SZ;

			igt_assert(obj[i].offset + size <= obj[j].offset ||
				   obj[j].offset + sj <= obj[i].offset);
		}
	}
	gem_sync(fd, obj[n].handle);
	for (i = 0; i <= n; i++)
		gem_close(fd, obj[i].handle);
	close(fd);
}

/* BATCH_FIRST: element 0 is the batch */
static void subtest_batch_first(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct bo target;
	uint32_t got = 0;

	bo_init(&target, fd, PAGE_SZ);
	emit_store_dword(b, &target, 8, 0xba7c4f57);
	batch_end(b);
	gem_write(fd, b->bo.handle, 0, b->dw, batch_offset(b));
	{
		struct drm_i915_gem_exec_object2 obj[2] = {
			{ .handle = b->bo.handle,
			  .relocation_count = b->nreloc,
			  .relocs_ptr = to_user_pointer(b->reloc) },
			{ .handle = target.handle },
		};

		exec_one(fd, obj, 2, 0, batch_offset(b),
			 I915_EXEC_BATCH_FIRST);
	}
	gem_read(fd, target.handle, 8, &got, sizeof(got));
	igt_assert_eq_u64(got, 0xba7c4f57);

	bo_fini(&target, fd);
	batch_free(b);
	close(fd);
}

/* FENCE_OUT: a sync_file fd in the upper half of rsvd2 that signals */
static void subtest_fence_out(void)
{
	int fd = drm_open_driver(), has = 0;
	struct drm_i915_gem_exec_object2 obj = { .handle = bbe_create(fd, 0) };
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(&obj),
		.buffer_count = 1,
		.batch_len = 8,
		.flags = I915_EXEC_FENCE_OUT,
		.rsvd2 = ~0ull,
	};
	struct pollfd pfd;
	int fence;

	if (__gem_getparam(fd, I915_PARAM_HAS_EXEC_FENCE, &has) || !has)
		igt_skip("no HAS_EXEC_FENCE");
	eb.rsvd2 = 0;
	igt_assert_ok(__gem_execbuf_wr(fd, &eb));
	fence = eb.rsvd2 >> 32;
	igt_assert_lt(2, fence);	/* a new fd: not stdin, stdout or stderr */
	pfd.fd = fence;
	pfd.events = POLLIN;
	igt_assert_eq(poll(&pfd, 1, 10000), 1);
	igt_assert(pfd.revents & POLLIN);
	close(fence);
	gem_close(fd, obj.handle);
	close(fd);
}

static int client(void *arg)
{
	int fd = drm_open_driver(), seed = (int)(intptr_t)arg;
	struct batch *b = batch_new(fd);
	uint32_t got[256], want[256];
	struct bo target;
	unsigned int i;

	bo_init(&target, fd, PAGE_SZ);
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		want[i] = pattern_dw(seed, i);
		emit_store_dword(b, &target, 4 * i, want[i]);
		if (i % 16 == 15)
			batch_submit(b);
	}
	gem_read(fd, target.handle, 0, got, sizeof(got));
	igt_assert_mem(got, want, sizeof(got), "client %d", seed);
	bo_fini(&target, fd);
	batch_free(b);
	close(fd);
	return 0;
}

/* two processes, each its own fd and objects, executing at once */
static void subtest_two_clients(void)
{
	pid_t a = igt_fork(client, (void *)(intptr_t)10);
	pid_t b = igt_fork(client, (void *)(intptr_t)20);

	igt_assert_eq(igt_wait(a), 0);
	igt_assert_eq(igt_wait(b), 0);
}

/*
 * Many more requests than the ring holds, queued faster than the slowed
 * GPU runs them: the ring fills up, and from then on every exec waits
 * for the GPU to free space.  Each of the 1400 batches is written
 * beforehand (so that no pwrite waits) and stores its own value into its
 * own dword: a request lost to a ring overrun leaves its dword empty.
 */
#define RING_EXECS 1400

static void subtest_ring_full(void)
{
	static struct drm_i915_gem_relocation_entry reloc[RING_EXECS];
	static struct drm_i915_gem_exec_object2 obj[RING_EXECS][2];
	static uint32_t got[RING_EXECS], want[RING_EXECS];
	unsigned int k, len = 0;
	long long batches;
	struct bo target;
	double t0;
	int fd, gen;

	/*
	 * This caught a ring overrun (1400 execs "complete", 376 batches
	 * run: the driver judged space from a stale request tail).
	 */
	fd = drm_open_driver();
	gen = gem_gen(fd);

	bo_init(&target, fd, sizeof(want));
	for (k = 0; k < RING_EXECS; k++) {
		uint32_t cs[CS_STORE_DWORD_MAX + 2], addr_at;

		want[k] = pattern_dw(3, k);
		len = 4 * cs_end(cs, cs_store_dword(gen, cs, 0, want[k],
						    &addr_at));
		reloc[k].offset = 4 * addr_at;
		reloc[k].target_handle = target.handle;
		reloc[k].delta = 4 * k;
		reloc[k].presumed_offset = ~0ull;
		reloc[k].read_domains = I915_GEM_DOMAIN_INSTRUCTION;
		reloc[k].write_domain = I915_GEM_DOMAIN_INSTRUCTION;
		obj[k][0].handle = target.handle;
		obj[k][1].handle = gem_create(fd, PAGE_SZ);
		obj[k][1].relocation_count = 1;
		obj[k][1].relocs_ptr = to_user_pointer(&reloc[k]);
		gem_write(fd, obj[k][1].handle, 0, cs, len);
	}
	/* relocate them all now, so that the loop below never waits on that */
	for (k = 0; k < RING_EXECS; k++)
		exec_one(fd, obj[k], 2, 0, len, 0);
	gem_sync(fd, target.handle);
	memset(got, 0, sizeof(got));
	gem_write(fd, target.handle, 0, got, sizeof(got));

	/* ~7 ms a request: the ring (1024 of ours) fills within a second */
	sim_set_cmd_delay(1000);
	batches = sim_cs_value("batches");
	t0 = igt_now();
	for (k = 0; k < RING_EXECS; k++)
		exec_one(fd, obj[k], 2, 0, len, 0);
	igt_info("%d execs queued in %.2f s", RING_EXECS, igt_now() - t0);
	sim_set_cmd_delay(0);
	gem_read(fd, target.handle, 0, got, sizeof(got));
	igt_info("and done after %.2f s; the model ran %lld batches",
		 igt_now() - t0, sim_cs_value("batches") - batches);
	for (k = 0; k < RING_EXECS; k++)
		igt_assert_f(got[k] == want[k],
			     "exec %u of %d did not run (dword %#x, expected %#x)",
			     k, RING_EXECS, got[k], want[k]);
	for (k = 0; k < RING_EXECS; k++)
		gem_close(fd, obj[k][1].handle);
	bo_fini(&target, fd);
	close(fd);
}

/* one exec with 500 objects, every one written */
static void subtest_many_objects(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	static struct bo t[500];
	uint64_t start, end;
	unsigned int i;
	uint32_t got;

	for (i = 0; i < ARRAY_SIZE(t); i++) {
		bo_init(&t[i], fd, PAGE_SZ);
		emit_store_dword(b, &t[i], 4 * (i % 1024), 0x1000 + i);
	}
	batch_submit(b);
	gem_gtt_managed(fd, &start, &end);
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		igt_assert_lte_u64(start, t[i].offset);
		igt_assert_lte_u64(t[i].offset + PAGE_SZ, end);
		gem_read(fd, t[i].handle, 4 * (i % 1024), &got, 4);
		igt_assert_eq_u64(got, 0x1000 + i);
		bo_fini(&t[i], fd);
	}
	batch_free(b);
	close(fd);
}

/* MI_BATCH_BUFFER_START inside a batch: on to a second batch object */
static void subtest_chained_batch(void)
{
	int fd = drm_open_driver();
	struct batch *first = batch_new(fd), *second = batch_new(fd);
	struct bo target;
	uint32_t got;

	bo_init(&target, fd, PAGE_SZ);
	emit_store_dword(second, &target, 8, 0xc4a1);
	batch_end(second);
	gem_write(fd, second->bo.handle, 0, second->dw, batch_offset(second));

	emit_batch_start(first, &second->bo, 0);
	/* the second batch's relocations travel with its object */
	{
		struct drm_i915_gem_exec_object2 obj[3] = {
			{ .handle = target.handle },
			{ .handle = second->bo.handle,
			  .relocation_count = second->nreloc,
			  .relocs_ptr = to_user_pointer(second->reloc) },
			{ .handle = first->bo.handle,
			  .relocation_count = first->nreloc,
			  .relocs_ptr = to_user_pointer(first->reloc) },
		};

		batch_end(first);
		gem_write(fd, first->bo.handle, 0, first->dw,
			  batch_offset(first));
		exec_one(fd, obj, 3, 0, batch_offset(first), 0);
	}
	gem_read(fd, target.handle, 8, &got, sizeof(got));
	igt_assert_eq_u64(got, 0xc4a1);
	bo_fini(&target, fd);
	batch_free(first);
	batch_free(second);
	close(fd);
}

/* FENCE_IN: an exec behind another one's out-fence runs after it */
static void subtest_fence_in(void)
{
	int fd = drm_open_driver(), has = 0, fence;
	struct batch *b = batch_new(fd), *c = batch_new(fd);
	struct bo target;
	uint64_t rsvd2 = 0;
	uint32_t got[2];
	unsigned int i;

	if (__gem_getparam(fd, I915_PARAM_HAS_EXEC_FENCE, &has) || !has)
		igt_skip("no HAS_EXEC_FENCE");
	sim_set_cmd_delay(1000);
	bo_init(&target, fd, PAGE_SZ);
	/* a slow batch storing 1 into dword 0, its out-fence kept */
	for (i = 0; i < 200; i++)
		batch_emit(b, MI_NOOP);
	emit_store_dword(b, &target, 0, 1);
	igt_assert_ok(__batch_submit_wr(b, I915_EXEC_FENCE_OUT, &rsvd2));
	fence = rsvd2 >> 32;
	igt_assert_lte(0, fence);

	/* a quick one storing 2 into dword 1 behind it (its own object) */
	emit_store_dword(c, &target, 4, 2);
	rsvd2 = fence;
	igt_assert_ok(__batch_submit_wr(c, I915_EXEC_FENCE_IN, &rsvd2));
	close(fence);
	gem_read(fd, target.handle, 0, got, sizeof(got));
	igt_assert_eq_u64(got[0], 1);
	igt_assert_eq_u64(got[1], 2);
	bo_fini(&target, fd);
	batch_free(b);
	batch_free(c);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(getparam_execbuf2),
	SUBTEST(getparam_features),
	SUBTEST(getparam_unsupported),
	SUBTEST(nop),
	SUBTEST(nop_render_node),
	SUBTEST(nop_rings),
	SUBTEST(batch_len_zero),
	SUBTEST(batch_start_offset),
	SUBTEST(store_dword),
	SUBTEST(store_many),
	SUBTEST(sequence),
	SUBTEST(offsets_written_back),
	SUBTEST(batch_first),
	SUBTEST(fence_out),
	SUBTEST(two_clients),
	SUBTEST(ring_full),
	SUBTEST(many_objects),
	SUBTEST(chained_batch),
	SUBTEST(fence_in),
};

igt_main(tests)
