// SPDX-License-Identifier: GPL-2.0
/*
 * gem_exec_legacy: the design's interfaces of the 2008 X server era.
 *
 *  - EXECBUFFER (v1): a batch runs, offsets come back; with cliprects
 *    the batch runs once per rectangle (seen in the pixels: each run
 *    shifts a row of pixels one place right), behind a
 *    3DSTATE_DRAWING_RECTANGLE built from the rectangle, DR1 and DR4
 *    (seen in the model's record of drawing rectangles); no cliprects,
 *    no drawing rectangle; a bad rectangle or pointer, no objects or
 *    more than 1024 rectangles are refused and nothing runs; 1024
 *    rectangles work back to back wherever the ring's tail stands.
 *  - PIN/UNPIN: alignment honoured, one chipset flush per bind whatever
 *    the size, offsets stable, pins counted and
 *    owned by the file that made them; bad arguments refused.
 *  - GEM_INIT: bad ranges refused; a narrowed range is where objects go.
 *  - LEAVEVT unbinds every unpinned object (their contents stay
 *    readable), ENTERVT brings execution back.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "exec.h"

#define ROW	64	/* pixels in the shifted row */

/* a row of ROW distinct pixels and a scratch row */
struct shifter {
	struct bo row, tmp;
	struct surf srow, stmp;
	uint32_t orig[ROW];
};

static void shifter_init(struct shifter *sh, int fd)
{
	unsigned int i;

	bo_init(&sh->row, fd, PAGE_SZ);
	bo_init(&sh->tmp, fd, PAGE_SZ);
	sh->srow = (struct surf){ &sh->row, ROW * 4, 4, ROW, 1 };
	sh->stmp = (struct surf){ &sh->tmp, ROW * 4, 4, ROW, 1 };
	for (i = 0; i < ROW; i++)
		sh->orig[i] = 0xff000000 | pattern_dw(4, i);
	gem_write(fd, sh->row.handle, 0, sh->orig, sizeof(sh->orig));
}

static void shifter_fini(struct shifter *sh, int fd)
{
	bo_fini(&sh->row, fd);
	bo_fini(&sh->tmp, fd);
}

/* each run of this batch moves the row one pixel to the right */
static void emit_shift(struct batch *b, struct shifter *sh)
{
	emit_xy_copy(b, &sh->stmp, 0, 0, &sh->srow, 0, 0, ROW, 1);
	batch_emit(b, MI_FLUSH);
	emit_xy_copy(b, &sh->srow, 1, 0, &sh->stmp, 0, 0, ROW - 1, 1);
	batch_emit(b, MI_FLUSH);
}

/* how many times the batch ran, from the pixels (and they must agree) */
static int shifts(int fd, struct shifter *sh)
{
	uint32_t got[ROW];
	int k = 0, x;

	gem_read(fd, sh->row.handle, 0, got, sizeof(got));
	while (k + 1 < ROW && got[k + 1] == sh->orig[0])
		k++;
	for (x = 0; x < ROW; x++) {
		uint32_t want = sh->orig[x < k ? 0 : x - k];

		igt_assert_f(got[x] == want,
			     "pixel %d is %#x, expected %#x after %d runs",
			     x, got[x], want, k);
	}
	return k;
}

/* start a fresh record of drawing rectangles (skip if the model has none) */
static void drawrects_clear(void)
{
	int ret = sim_drawrects_clear();

	if (ret < 0)
		igt_skip("the model records no drawing rectangles (%s)",
			 igt_errname(ret));
}

static int drawrect_count(void)
{
	struct drawrect r;

	return sim_drawrects(&r, 0);
}

/* ------------------------------------------------------------------ */
/* EXECBUFFER v1 */

static void subtest_v1_store(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct bo target;
	uint32_t got[2];

	bo_init(&target, fd, PAGE_SZ);
	target.offset = 0x7ff00000;
	emit_store_dword(b, &target, 4, 0x11223344);
	igt_assert_ok(__batch_submit_v1(b, NULL, 0, 0, 0));
	igt_assert_neq(target.offset, 0x7ff00000);
	igt_assert_eq_u64(target.offset & (PAGE_SZ - 1), 0);
	gem_read(fd, target.handle, 0, got, sizeof(got));
	igt_assert_eq_u64(got[0], 0);
	igt_assert_eq_u64(got[1], 0x11223344);
	bo_fini(&target, fd);
	batch_free(b);
	close(fd);
}

/* v1 and v2 execs of one client interleave in order */
static void subtest_v1_v2_interleaved(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	uint32_t got[64], want[64];
	struct bo target;
	unsigned int i;

	bo_init(&target, fd, PAGE_SZ);
	for (i = 0; i < 64; i++) {
		want[i] = pattern_dw(9, i);
		emit_store_dword(b, &target, 0, want[i]);
		emit_store_dword(b, &target, 4 * i, want[i]);
		if (i & 1)
			batch_submit(b);
		else
			igt_assert_ok(__batch_submit_v1(b, NULL, 0, 0, 0));
	}
	gem_read(fd, target.handle, 0, got, sizeof(got));
	want[0] = want[63];
	igt_assert_mem(got, want, sizeof(got), "after v1/v2 execs");
	bo_fini(&target, fd);
	batch_free(b);
	close(fd);
}

/* three cliprects: the batch runs three times */
static void subtest_cliprects_replay(void)
{
	const struct drm_clip_rect rects[3] = {
		{ 0, 0, 10, 10 }, { 100, 50, 200, 60 }, { 5, 600, 6, 601 },
	};
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct shifter sh;

	shifter_init(&sh, fd);
	emit_shift(b, &sh);
	igt_assert_ok(__batch_submit_v1(b, rects, 3, 0, 0));
	igt_assert_eq(shifts(fd, &sh), 3);
	/* and once more with a single rectangle: one more run */
	emit_shift(b, &sh);
	igt_assert_ok(__batch_submit_v1(b, rects, 1, 0, 0));
	igt_assert_eq(shifts(fd, &sh), 4);
	shifter_fini(&sh, fd);
	batch_free(b);
	close(fd);
}

/* no cliprects: one run */
static void subtest_no_cliprects_once(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct shifter sh;

	shifter_init(&sh, fd);
	emit_shift(b, &sh);
	igt_assert_ok(__batch_submit_v1(b, NULL, 0, 0, 0));
	igt_assert_eq(shifts(fd, &sh), 1);
	shifter_fini(&sh, fd);
	batch_free(b);
	close(fd);
}

/*
 * The drawing rectangle before each run: the rectangle (bottom-right
 * inclusive), the origin from DR4 and, on Gen3, DR1.
 */
static void subtest_cliprects_drawrects(void)
{
	const struct drm_clip_rect rects[3] = {
		{ 0, 0, 10, 10 }, { 100, 50, 200, 60 }, { 5, 600, 6, 601 },
	};
	const uint32_t dr1 = 1u << 30 | 2u << 26 | 1u << 24;
	const uint32_t dr4 = 12u << 16 | 34u;
	int fd = drm_open_driver(), gen = gem_gen(fd), n, i;
	struct batch *b = batch_new(fd);
	struct drawrect got[8];
	struct bo target;

	drawrects_clear();
	bo_init(&target, fd, PAGE_SZ);
	emit_store_dword(b, &target, 0, 1);
	igt_assert_ok(__batch_submit_v1(b, rects, 3, dr1, dr4));
	gem_sync(fd, b->bo.handle);
	n = sim_drawrects(got, ARRAY_SIZE(got));
	igt_assert_eq(n, 3);
	for (i = 0; i < 3; i++) {
		const struct drawrect *r = &got[i];

		igt_info("rect %d: %d,%d - %d,%d origin %d,%d dr1 %#x", i,
			 r->xmin, r->ymin, r->xmax, r->ymax, r->xorg, r->yorg,
			 r->dr1);
		igt_assert_eq(r->xmin, rects[i].x1);
		igt_assert_eq(r->ymin, rects[i].y1);
		igt_assert_eq(r->xmax, rects[i].x2 - 1);
		igt_assert_eq(r->ymax, rects[i].y2 - 1);
		igt_assert_eq(r->xorg, 34);
		igt_assert_eq(r->yorg, 12);
		if (gen == 3) {
			igt_assert(r->has_dr1);
			igt_assert_eq_u64(r->dr1, dr1);
		}
	}
	bo_fini(&target, fd);
	batch_free(b);
	close(fd);
}

/* no cliprects: no drawing rectangle at all */
static void subtest_no_cliprects_no_drawrect(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct bo target;

	drawrects_clear();
	bo_init(&target, fd, PAGE_SZ);
	emit_store_dword(b, &target, 0, 1);
	igt_assert_ok(__batch_submit_v1(b, NULL, 0, 0x40000000, 0x10001));
	gem_sync(fd, b->bo.handle);
	igt_assert_eq(drawrect_count(), 0);
	/* EXECBUFFER2 never emits one either */
	emit_store_dword(b, &target, 0, 2);
	batch_submit_sync(b);
	igt_assert_eq(drawrect_count(), 0);
	bo_fini(&target, fd);
	batch_free(b);
	close(fd);
}

/* an empty or inverted rectangle is refused, and nothing runs */
static void subtest_bad_cliprect(void)
{
	static const struct drm_clip_rect bad[] = {
		{ 10, 0, 10, 5 },	/* x1 == x2 */
		{ 10, 0, 5, 5 },	/* x1 > x2 */
		{ 0, 7, 5, 7 },		/* y1 == y2 */
		{ 0, 9, 5, 3 },		/* y1 > y2 */
	};
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct shifter sh;
	unsigned int i;

	shifter_init(&sh, fd);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct drm_clip_rect rects[2] = { { 0, 0, 8, 8 }, bad[i] };
		int ret;

		emit_shift(b, &sh);
		ret = __batch_submit_v1(b, rects, 2, 0, 0);
		if (ret != -EINVAL)
			igt_info("rectangle %u", i);
		igt_assert_err(ret, -EINVAL);
	}
	igt_assert_eq(shifts(fd, &sh), 0);
	shifter_fini(&sh, fd);
	batch_free(b);
	close(fd);
}

static void subtest_bad_cliprects_ptr(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct shifter sh;

	shifter_init(&sh, fd);
	emit_shift(b, &sh);
	igt_assert_err(__batch_submit_v1(b, (void *)8, 1, 0, 0), -EFAULT);
	igt_assert_eq(shifts(fd, &sh), 0);
	shifter_fini(&sh, fd);
	batch_free(b);
	close(fd);
}

/* more than 1024 cliprects, or no objects: EINVAL, and nothing runs */
static void subtest_v1_bad_counts(void)
{
	static struct drm_clip_rect rects[1025];
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct drm_i915_gem_exec_object obj = { .handle = b->bo.handle };
	struct drm_i915_gem_execbuffer eb = {
		.buffers_ptr = to_user_pointer(&obj),
		.buffer_count = 0,
		.batch_len = 8,
	};
	struct shifter sh;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(rects); i++)
		rects[i] = (struct drm_clip_rect){ 0, 0, 8, 8 };
	shifter_init(&sh, fd);
	emit_shift(b, &sh);
	igt_assert_err(__batch_submit_v1(b, rects, 1025, 0, 0), -EINVAL);
	emit_shift(b, &sh);
	igt_assert_err(__batch_submit_v1(b, rects, 100000, 0, 0), -EINVAL);
	igt_assert_err(__gem_execbuf_v1(fd, &eb), -EINVAL);
	igt_assert_eq(shifts(fd, &sh), 0);
	shifter_fini(&sh, fd);
	batch_free(b);
	close(fd);
}

/*
 * The largest accepted cliprect list, back to back, wherever the ring's
 * tail stands: 1024 rectangles fill 28,700 of the 32 KiB ring on Gen3,
 * so nearly every one of them wraps.  Before each of the 50 execs, 0 to
 * 20 small ones move the tail.  The model must have executed one drawing
 * rectangle per rectangle of every exec, the last ones logged being the
 * last exec's own; every fifth exec also shifts its own row of pixels
 * once per rectangle, and its row must show exactly 1024 runs (the
 * others run an empty batch, which keeps the debug kernel's run short).
 */
#define BIG_SHIFTS	5	/* every fifth exec shifts pixels */
#define BIG_EXECS	50
#define BIG_RECTS	1024
#define BIG_ROW		(BIG_RECTS + 16)

static void subtest_cliprects_max_back_to_back(void)
{
	static struct drm_clip_rect rects[BIG_EXECS][BIG_RECTS];
	static struct drawrect got[256];
	int fd = drm_open_driver();
	struct batch *small = batch_new(fd), *b[BIG_EXECS];
	uint32_t *orig = malloc(BIG_ROW * 4), *px = malloc(BIG_ROW * 4);
	struct bo row[BIG_EXECS], tmp, target;
	struct surf srow, stmp;
	int i, j, k, n, ret;

	igt_assert(orig && px);
	drawrects_clear();
	for (i = 0; i < BIG_ROW; i++)
		orig[i] = 0xff000000 | pattern_dw(5, i);
	bo_init(&tmp, fd, 2 * PAGE_SZ);
	bo_init(&target, fd, PAGE_SZ);
	stmp = (struct surf){ &tmp, BIG_ROW * 4, 4, BIG_ROW, 1 };
	for (i = 0; i < BIG_EXECS; i++) {
		bo_init(&row[i], fd, 2 * PAGE_SZ);
		gem_write(fd, row[i].handle, 0, orig, BIG_ROW * 4);
		b[i] = batch_new(fd);
		srow = (struct surf){ &row[i], BIG_ROW * 4, 4, BIG_ROW, 1 };
		if (i % BIG_SHIFTS == 0) {
			emit_xy_copy(b[i], &stmp, 0, 0, &srow, 0, 0, BIG_ROW,
				     1);
			batch_emit(b[i], MI_FLUSH);
			emit_xy_copy(b[i], &srow, 1, 0, &stmp, 0, 0,
				     BIG_ROW - 1, 1);
			batch_emit(b[i], MI_FLUSH);
		}
		for (j = 0; j < BIG_RECTS; j++)
			rects[i][j] = (struct drm_clip_rect){
				j, i, j + 1 + i, i + 1 + j % 7 };
	}

	for (i = 0; i < BIG_EXECS; i++) {
		for (k = 0; k < i % 21; k++) {
			emit_store_dword(small, &target, 4 * k, i << 8 | k);
			batch_submit(small);
		}
		ret = __batch_submit_v1(b[i], rects[i], BIG_RECTS, 0, 0);
		igt_assert_f(ret == 0,
			     "exec %d of %d cliprects after %d small ones: %s",
			     i, BIG_RECTS, i % 21, igt_errname(ret));
	}

	gem_sync(fd, b[BIG_EXECS - 1]->bo.handle);
	for (i = 0; i < BIG_EXECS; i += BIG_SHIFTS) {
		gem_read(fd, row[i].handle, 0, px, BIG_ROW * 4);
		for (j = 0; j < BIG_ROW; j++) {
			uint32_t want = orig[j < BIG_RECTS ? 0 : j - BIG_RECTS];

			igt_assert_f(px[j] == want,
				     "exec %d: pixel %d is %#x, expected %#x after %d runs",
				     i, j, px[j], want, BIG_RECTS);
		}
	}
	n = sim_drawrects(got, ARRAY_SIZE(got));
	igt_assert_eq(n, BIG_EXECS * BIG_RECTS);
	for (j = 0; j < (int)ARRAY_SIZE(got); j++) {
		const struct drm_clip_rect *r =
			&rects[BIG_EXECS - 1][BIG_RECTS - ARRAY_SIZE(got) + j];

		igt_assert_eq(got[j].xmin, r->x1);
		igt_assert_eq(got[j].ymin, r->y1);
		igt_assert_eq(got[j].xmax, r->x2 - 1);
		igt_assert_eq(got[j].ymax, r->y2 - 1);
	}

	for (i = 0; i < BIG_EXECS; i++) {
		batch_free(b[i]);
		bo_fini(&row[i], fd);
	}
	bo_fini(&tmp, fd);
	bo_fini(&target, fd);
	batch_free(small);
	free(orig);
	free(px);
	close(fd);
}

/* ------------------------------------------------------------------ */
/* PIN / UNPIN */

/* the offset an exec of @handle reports (it must not move a pinned one) */
static uint64_t exec_offset(int fd, uint32_t handle, uint64_t presumed)
{
	struct drm_i915_gem_exec_object2 obj[2] = {
		{ .handle = handle, .offset = presumed },
		{ .handle = bbe_create(fd, 0) },
	};
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(obj),
		.buffer_count = 2,
		.batch_len = 8,
	};

	gem_execbuf(fd, &eb);
	gem_sync(fd, obj[1].handle);
	gem_close(fd, obj[1].handle);
	return obj[0].offset;
}

/* the model's count of chipset flushes (debugfs i915_sim/<slot>/info) */
static long long sim_flushes(void)
{
	char path[256];
	long long v;
	int ret;

	sim_debugfs_path(path, sizeof(path), "info");
	ret = igt_file_key_value(path, "flushes", &v);

	if (ret)
		igt_skip("no i915_sim/info flushes (%s)", igt_errname(ret));
	return v;
}

/*
 * Binding is one range insert: one posting read and one chipset flush
 * for the whole object, whatever its size (intel-gtt's insert_page costs
 * one of each per page).  Every page is then where the GPU looks.
 */
static void subtest_pin_one_flush(void)
{
	static const unsigned int npages[] = { 1, 3, 1024 };
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	size_t i;

	for (i = 0; i < ARRAY_SIZE(npages); i++) {
		uint64_t size = (uint64_t)npages[i] * PAGE_SZ;
		uint32_t got[2], p;
		long long before;
		struct bo t;

		bo_init(&t, fd, size);
		for (p = 0; p < npages[i]; p++)
			gem_write(fd, t.handle, p * PAGE_SZ, &p, sizeof(p));
		before = sim_flushes();
		t.offset = gem_pin(fd, t.handle, 0);
		igt_info("%u pages: %lld flushes", npages[i],
			 sim_flushes() - before);
		igt_assert_eq(sim_flushes() - before, 1);
		/* every 7th page and the last one */
		for (p = 0; p < npages[i]; p = p + 7 < npages[i] ? p + 7 :
		     (p == npages[i] - 1 ? npages[i] : npages[i] - 1))
			emit_store_dword(b, &t, p * PAGE_SZ + 4, ~p);
		batch_submit_sync(b);
		for (p = 0; p < npages[i]; p = p + 7 < npages[i] ? p + 7 :
		     (p == npages[i] - 1 ? npages[i] : npages[i] - 1)) {
			gem_read(fd, t.handle, p * PAGE_SZ, got, sizeof(got));
			igt_assert_eq_u64(got[0], p);
			igt_assert_eq_u64(got[1], ~p);
		}
		gem_unpin(fd, t.handle);
		bo_fini(&t, fd);
	}
	batch_free(b);
	close(fd);
}

static void subtest_pin_alignment(void)
{
	static const uint64_t align[] = {
		0, 4096, 65536, 1 << 20, 4 << 20, 16 << 20,
	};
	int fd = drm_open_driver();
	uint32_t handle[ARRAY_SIZE(align)];
	uint64_t offset[ARRAY_SIZE(align)], start, end;
	size_t i;

	gem_gen(fd);
	gem_gtt_managed(fd, &start, &end);
	for (i = 0; i < ARRAY_SIZE(align); i++) {
		handle[i] = gem_create(fd, (i + 1) * PAGE_SZ);
		offset[i] = gem_pin(fd, handle[i], align[i]);
		igt_info("alignment %#llx: offset %#llx",
			 (unsigned long long)align[i],
			 (unsigned long long)offset[i]);
		igt_assert_eq_u64(offset[i] & (PAGE_SZ - 1), 0);
		if (align[i])
			igt_assert_eq_u64(offset[i] & (align[i] - 1), 0);
		igt_assert_lte_u64(start, offset[i]);
		igt_assert_lte_u64(offset[i] + (i + 1) * PAGE_SZ, end);
	}
	for (i = 0; i < ARRAY_SIZE(align); i++) {
		igt_assert_eq_u64(exec_offset(fd, handle[i], 0), offset[i]);
		gem_unpin(fd, handle[i]);
		gem_close(fd, handle[i]);
	}
	close(fd);
}

/* a second pin answers the same offset; as many unpins as pins */
static void subtest_pin_counted(void)
{
	int fd = drm_open_driver();
	uint32_t handle = gem_create(fd, 8 * PAGE_SZ);
	uint64_t offset = gem_pin(fd, handle, 0);

	igt_assert_eq_u64(gem_pin(fd, handle, 0), offset);
	igt_assert_eq_u64(gem_pin(fd, handle, 4096), offset);
	igt_assert_eq_u64(exec_offset(fd, handle, 0x7ff00000), offset);
	gem_unpin(fd, handle);
	gem_unpin(fd, handle);
	igt_assert_eq_u64(exec_offset(fd, handle, 0), offset);
	gem_unpin(fd, handle);
	igt_assert_err(__gem_unpin(fd, handle), -EINVAL);
	gem_close(fd, handle);
	close(fd);
}

/* the data of a pinned object survives execs around it */
static void subtest_pin_exec(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	uint32_t got[16], want[16];
	struct bo target;
	int i;

	bo_init(&target, fd, PAGE_SZ);
	target.offset = gem_pin(fd, target.handle, 65536);
	for (i = 0; i < 16; i++) {
		want[i] = pattern_dw(77, i);
		emit_store_dword(b, &target, 4 * i, want[i]);
	}
	batch_submit_sync(b);
	gem_read(fd, target.handle, 0, got, sizeof(got));
	igt_assert_mem(got, want, sizeof(got), "stores into a pinned object");
	gem_unpin(fd, target.handle);
	bo_fini(&target, fd);
	batch_free(b);
	close(fd);
}

static void subtest_pin_bad_args(void)
{
	int fd = drm_open_driver();
	uint32_t handle = gem_create(fd, PAGE_SZ);
	struct drm_i915_gem_pin pin = { .handle = handle, .pad = 1 };
	struct drm_i915_gem_unpin unpin = { .handle = handle, .pad = 1 };

	igt_assert_err(igt_ioctl(fd, DRM_IOCTL_I915_GEM_PIN, &pin), -EINVAL);
	igt_assert_err(__gem_pin(fd, handle, 3, NULL), -EINVAL);
	igt_assert_err(__gem_pin(fd, handle, 4096 + 1, NULL), -EINVAL);
	igt_assert_err(__gem_pin(fd, 0, 0, NULL), -ENOENT);
	igt_assert_err(__gem_pin(fd, handle + 1000, 0, NULL), -ENOENT);
	/* never pinned */
	igt_assert_err(__gem_unpin(fd, handle), -EINVAL);
	igt_assert_err(__gem_unpin(fd, handle + 1000), -ENOENT);
	gem_pin(fd, handle, 0);
	igt_assert_err(igt_ioctl(fd, DRM_IOCTL_I915_GEM_UNPIN, &unpin),
		       -EINVAL);
	gem_unpin(fd, handle);
	gem_close(fd, handle);
	close(fd);
}

/* a pin belongs to its file: another file can neither unpin nor pin it */
static void subtest_pin_other_file(void)
{
	int fd = drm_open_driver(), other = drm_open_driver();
	uint32_t handle = gem_create(fd, PAGE_SZ), theirs;
	uint64_t offset = gem_pin(fd, handle, 0);

	theirs = gem_open(other, gem_flink(fd, handle));
	igt_assert_err(__gem_unpin(other, theirs), -EINVAL);
	igt_assert_err(__gem_pin(other, theirs, 0, NULL), -EINVAL);
	gem_close(other, theirs);
	close(other);
	/* still pinned, by us */
	igt_assert_eq_u64(gem_pin(fd, handle, 0), offset);
	gem_unpin(fd, handle);
	gem_unpin(fd, handle);
	gem_close(fd, handle);
	close(fd);
}

/*
 * Closing a pinned object's last handle frees it (no pin leak).  The
 * objects of the subtests before, which their last requests may still
 * hold, are let go first: the count must fall by this object alone.
 */
static void subtest_pin_close(void)
{
	int fd = drm_open_driver();
	uint32_t handle;
	long long count, bytes;

	gem_quiescent_gpu(fd);
	handle = gem_create(fd, 4 * PAGE_SZ);
	igt_gem_objects(fd, &count, &bytes);
	gem_pin(fd, handle, 0);
	gem_close(fd, handle);
	igt_assert_eq(gem_wait_object_count(fd, count - 1), count - 1);
	close(fd);
}

/* ------------------------------------------------------------------ */
/* GEM_INIT */

static void subtest_gem_init_bad_ranges(void)
{
	int fd = drm_open_driver();
	uint64_t total = gem_gtt_total(fd), start, end, s2, e2;

	gem_gtt_managed(fd, &start, &end);
	igt_assert_err(__gem_init(fd, 1 << 20, 1 << 20), -EINVAL);
	igt_assert_err(__gem_init(fd, 2 << 20, 1 << 20), -EINVAL);
	igt_assert_err(__gem_init(fd, (1 << 20) + 1, 2 << 20), -EINVAL);
	igt_assert_err(__gem_init(fd, 1 << 20, (2 << 20) + 2048), -EINVAL);
	igt_assert_err(__gem_init(fd, 0, total + PAGE_SZ), -EINVAL);
	igt_assert_err(__gem_init(fd, total, total + (1 << 20)), -EINVAL);
	igt_assert_err(__gem_init(fd, 0, ~0ull & ~(PAGE_SZ - 1)), -EINVAL);
	/* nothing changed */
	gem_gtt_managed(fd, &s2, &e2);
	igt_assert_eq_u64(s2, start);
	igt_assert_eq_u64(e2, end);
	close(fd);
}

/* a narrowed range is where execs and pins put objects */
static void subtest_gem_init_narrows(void)
{
	const uint64_t start = 32 << 20, end = 40 << 20;
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	uint64_t s, e, pinned;
	struct bo t[8];
	uint32_t got;
	int i;

	gem_narrow_gtt(fd, start, end);
	gem_gtt_managed(fd, &s, &e);
	igt_assert_eq_u64(s, start);
	igt_assert_eq_u64(e, end);
	for (i = 0; i < 8; i++) {
		bo_init(&t[i], fd, (i + 1) * 16 * PAGE_SZ);
		emit_store_dword(b, &t[i], 4 * i, i + 1);
	}
	batch_submit_sync(b);
	for (i = 0; i < 8; i++) {
		igt_assert_lte_u64(start, t[i].offset);
		igt_assert_lte_u64(t[i].offset + t[i].size, end);
		gem_read(fd, t[i].handle, 4 * i, &got, 4);
		igt_assert_eq(got, i + 1);
	}
	igt_assert_lte_u64(start, b->bo.offset);
	igt_assert_lte_u64(b->bo.offset + b->bo.size, end);
	pinned = gem_pin(fd, t[0].handle, 1 << 20);
	igt_assert_lte_u64(start, pinned);
	igt_assert_lte_u64(pinned + t[0].size, end);
	gem_unpin(fd, t[0].handle);
	for (i = 0; i < 8; i++)
		bo_fini(&t[i], fd);
	batch_free(b);
	gem_restore_gtt(fd);
	close(fd);
}

/* GEM_INIT cannot move a pinned object: EBUSY, and the range stays */
static void subtest_gem_init_pinned_busy(void)
{
	int fd = drm_open_driver();
	uint32_t handle = gem_create(fd, PAGE_SZ);
	uint64_t start, end, s, e, offset;

	gem_gtt_managed(fd, &start, &end);
	offset = gem_pin(fd, handle, 0);
	igt_assert_err(__gem_init(fd, 64 << 20, 80 << 20), -EBUSY);
	gem_gtt_managed(fd, &s, &e);
	igt_assert_eq_u64(s, start);
	igt_assert_eq_u64(e, end);
	igt_assert_eq_u64(gem_pin(fd, handle, 0), offset);
	gem_unpin(fd, handle);
	gem_unpin(fd, handle);
	gem_close(fd, handle);
	close(fd);
}

/* a slow batch storing 64 dwords into @t; the caller frees it */
static struct batch *slow_stores(int fd, struct bo *t, uint32_t *want,
				 uint32_t seed)
{
	struct batch *b = batch_new(fd);
	int i;

	for (i = 0; i < 64; i++) {
		want[i] = pattern_dw(seed, i);
		emit_store_dword(b, t, 4 * i, want[i]);
	}
	batch_submit(b);
	return b;
}

/* GEM_INIT while the GPU uses objects: it waits, nothing is lost */
static void subtest_gem_init_while_busy(void)
{
	int fd = drm_open_driver();
	uint32_t got[64], want[64];
	struct batch *b;
	struct bo t;

	sim_set_cmd_delay(2000);
	bo_init(&t, fd, PAGE_SZ);
	b = slow_stores(fd, &t, want, 51);
	igt_assert_neq(gem_busy(fd, t.handle), 0);
	gem_narrow_gtt(fd, 96 << 20, 112 << 20);
	sim_set_cmd_delay(0);
	gem_read(fd, t.handle, 0, got, sizeof(got));
	igt_assert_mem(got, want, sizeof(got), "stores across GEM_INIT");
	emit_store_dword(b, &t, 0, 0xabc);
	batch_submit_sync(b);
	igt_assert_lte_u64(96 << 20, t.offset);
	igt_assert_lte_u64(t.offset + t.size, 112 << 20);
	bo_fini(&t, fd);
	batch_free(b);
	gem_restore_gtt(fd);
	close(fd);
}

/* PIN with an alignment the busy object's place lacks: it moves, safely */
static void subtest_pin_realign_busy(void)
{
	int fd = drm_open_driver();
	uint32_t got[64], want[64];
	uint64_t offset;
	struct batch *b;
	struct bo t;

	sim_set_cmd_delay(2000);
	bo_init(&t, fd, PAGE_SZ);
	b = slow_stores(fd, &t, want, 52);
	igt_info("busy at %#llx", (unsigned long long)t.offset);
	igt_assert_neq(gem_busy(fd, t.handle), 0);
	offset = gem_pin(fd, t.handle, 16 << 20);
	igt_assert_eq_u64(offset & ((16 << 20) - 1), 0);
	sim_set_cmd_delay(0);
	gem_read(fd, t.handle, 0, got, sizeof(got));
	igt_assert_mem(got, want, sizeof(got), "stores across the move");
	gem_unpin(fd, t.handle);
	bo_fini(&t, fd);
	batch_free(b);
	close(fd);
}

/* ------------------------------------------------------------------ */
/* LEAVEVT / ENTERVT */

static void subtest_leavevt_entervt(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct bo t[3], pinned;
	uint64_t pin_offset;
	uint32_t got;
	int i;

	bo_init(&pinned, fd, 4 * PAGE_SZ);
	pin_offset = gem_pin(fd, pinned.handle, 0);
	pinned.offset = pin_offset;
	for (i = 0; i < 3; i++) {
		bo_init(&t[i], fd, 16 * PAGE_SZ);
		emit_store_dword(b, &t[i], 0, 0x100 + i);
	}
	emit_store_dword(b, &pinned, 0, 0x200);
	batch_submit_sync(b);
	igt_assert_lte_u64(pinned.size + 3 * 16 * PAGE_SZ + b->bo.size,
			   gem_gtt_used(fd));

	igt_assert_ok(__gem_leavevt(fd));
	/* only the pinned object is left in the GTT */
	igt_assert_eq_u64(gem_gtt_used(fd), pinned.size);
	igt_assert_eq_u64(gem_pin(fd, pinned.handle, 0), pin_offset);
	gem_unpin(fd, pinned.handle);
	/* the unbound objects still hold what the GPU wrote */
	for (i = 0; i < 3; i++) {
		gem_read(fd, t[i].handle, 0, &got, 4);
		igt_assert_eq(got, 0x100 + i);
	}

	igt_assert_ok(__gem_entervt(fd));
	for (i = 0; i < 3; i++)
		emit_store_dword(b, &t[i], 4, 0x300 + i);
	emit_store_dword(b, &pinned, 4, 0x400);
	batch_submit_sync(b);
	igt_assert_eq_u64(pinned.offset, pin_offset);
	for (i = 0; i < 3; i++) {
		gem_read(fd, t[i].handle, 0, &got, 4);
		igt_assert_eq(got, 0x100 + i);
		gem_read(fd, t[i].handle, 4, &got, 4);
		igt_assert_eq(got, 0x300 + i);
		bo_fini(&t[i], fd);
	}
	gem_read(fd, pinned.handle, 0, &got, 4);
	igt_assert_eq(got, 0x200);
	gem_read(fd, pinned.handle, 4, &got, 4);
	igt_assert_eq(got, 0x400);
	gem_unpin(fd, pinned.handle);
	bo_fini(&pinned, fd);
	batch_free(b);
	close(fd);
}

/* LEAVEVT waits for the GPU before unbinding what it still uses */
static void subtest_leavevt_busy(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	uint32_t got[64], want[64];
	struct bo t;
	int i;

	sim_set_cmd_delay(2000);
	bo_init(&t, fd, PAGE_SZ);
	for (i = 0; i < 64; i++) {
		want[i] = pattern_dw(31, i);
		emit_store_dword(b, &t, 4 * i, want[i]);
	}
	batch_submit(b);
	igt_assert_ok(__gem_leavevt(fd));
	igt_assert_eq_u64(gem_gtt_used(fd), 0);
	sim_set_cmd_delay(0);
	igt_assert_ok(__gem_entervt(fd));
	gem_read(fd, t.handle, 0, got, sizeof(got));
	igt_assert_mem(got, want, sizeof(got), "stores across LEAVEVT");
	bo_fini(&t, fd);
	batch_free(b);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(v1_store),
	SUBTEST(v1_v2_interleaved),
	SUBTEST(cliprects_replay),
	SUBTEST(no_cliprects_once),
	SUBTEST(cliprects_drawrects),
	SUBTEST(no_cliprects_no_drawrect),
	SUBTEST(bad_cliprect),
	SUBTEST(bad_cliprects_ptr),
	SUBTEST(v1_bad_counts),
	SUBTEST(cliprects_max_back_to_back),
	SUBTEST(pin_alignment),
	SUBTEST(pin_one_flush),
	SUBTEST(pin_counted),
	SUBTEST(pin_exec),
	SUBTEST(pin_bad_args),
	SUBTEST(pin_other_file),
	SUBTEST(pin_close),
	SUBTEST(gem_init_bad_ranges),
	SUBTEST(gem_init_narrows),
	SUBTEST(gem_init_pinned_busy),
	SUBTEST(gem_init_while_busy),
	SUBTEST(pin_realign_busy),
	SUBTEST(leavevt_entervt),
	SUBTEST(leavevt_busy),
};

igt_main(tests)
