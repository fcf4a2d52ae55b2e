// SPDX-License-Identifier: GPL-2.0
/*
 * gem_tiled_vs_blt: what igt's gem_set_tiling_vs_blt does, with the
 * bytes it reads checked one by one (X tiling, blits with fenced
 * relocations, the GPU kept busy by a spinner as igt's is).
 *
 *  - pwrite_fenced: an X-tiled object that holds a fence from a GTT
 *    fault and is left in the GTT domain (igt's untiled-to-tiled keeps
 *    its buffer X-tiled in the kernel: intel_buf_init_using_handle()
 *    asks for no SET_TILING for I915_TILING_NONE); pwrite of linear data
 *    stores the bytes as given (pread shows them so, as upstream's pwrite
 *    of a tiled object, which goes through an unfenced aperture page or
 *    through shmem, never through the object's fence); an untiled
 *    XY_SRC_COPY_BLT with a fenced relocation then reads them on Gen3
 *    through the fence (the detiled image, as a GTT map shows it), on
 *    Gen4 as stored (its blitter ignores fences).
 *  - retile_none, retile_x: igt's tiled-to-untiled and tiled-to-tiled at
 *    igt's size: the GTT map writes a pattern into an X-tiled object;
 *    behind a spinner, a fenced blit copies it to a linear one,
 *    SET_TILING changes the tiling (to NONE, or X of another stride)
 *    while that blit waits, a 1-pixel fenced blit with the new tiling
 *    follows; then the spinner is ended.  The first blit must still have
 *    read through the old fence: the linear copy is the pattern.  On Gen3
 *    SET_TILING waits for that blit (a child ends the spinner meanwhile;
 *    upstream waits at the next fenced execbuffer); on Gen4, whose GPU
 *    never uses fences, it must not wait: the spinner is still running
 *    when it returns (before, it waited for the hang check).
 *  - retile_hang: as retile_none, but nobody ends the spinner: on Gen3
 *    SET_TILING waits for the blit behind it until the hang check (at
 *    300 ms, so that a blit the host starves for less than 0.9 s is not
 *    taken for stuck; igt waits ~30 s at the default) resets the GPU;
 *    the spinner is the guilty one and the blit behind it, innocent,
 *    still lands.
 *    On Gen4 it is retile_none again.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "tiled.h"

#define SIZE		TSURF_SIZE
#define RENDER		I915_GEM_DOMAIN_RENDER
#define SPIN_NOOPS	64
#define SPIN_END_MS	500
#define HANGCHECK_MS	300
#define XY_SRC_TILED	(1u << 15)

static uint8_t *map_gtt(int fd, uint32_t handle, uint64_t size)
{
	return gem_mmap_offset(fd, handle, size, I915_MMAP_OFFSET_GTT);
}

/* A fence from a GTT fault, the object left in the GTT domain (as igt). */
static void fault_fence(int fd, struct tsurf *s)
{
	uint8_t *map = map_gtt(fd, s->bo.handle, SIZE);

	gem_set_domain(fd, s->bo.handle, I915_GEM_DOMAIN_GTT,
		       I915_GEM_DOMAIN_GTT);
	*(volatile uint32_t *)map = 0;
	munmap(map, SIZE);
}

/*
 * igt's blit: XY_SRC_COPY_BLT of the whole surface without tiled bits,
 * both relocations fenced (EXEC_OBJECT_NEEDS_FENCE on both objects, as
 * intel_bb_emit_reloc_fenced() asks).
 */
static void emit_fenced_copy(struct batch *b, struct tsurf *dst,
			     struct tsurf *src, int width, int height)
{
	dst->bo.flags |= EXEC_OBJECT_NEEDS_FENCE;
	src->bo.flags |= EXEC_OBJECT_NEEDS_FENCE;
	batch_emit(b, XY_SRC_COPY_BLT | BLT_WRITE_ARGB);
	batch_emit(b, BR13_ROP(ROP_SRCCOPY) | BR13_DEPTH_32 | TSURF_STRIDE);
	batch_emit(b, 0);
	batch_emit(b, (uint32_t)height << 16 | (uint32_t)width);
	batch_reloc(b, &dst->bo, 0, RENDER, RENDER);
	batch_emit(b, 0);
	batch_emit(b, TSURF_STRIDE);
	batch_reloc(b, &src->bo, 0, RENDER, 0);
}

static void subtest_pwrite_fenced(void)
{
	int fd = drm_open_driver();
	uint8_t *pattern = malloc(SIZE), *view = malloc(SIZE),
		*got = malloc(SIZE), *map;
	struct tsurf src, dst;
	struct batch *b;

	igt_assert(pattern && view && got);
	tsurf_setup(fd);
	igt_fill_pattern(pattern, SIZE, 0xb17);
	tsurf_init(fd, &dst, I915_TILING_NONE);
	tsurf_init(fd, &src, I915_TILING_X);
	fault_fence(fd, &src);

	gem_write(fd, src.bo.handle, 0, pattern, SIZE);
	gem_read(fd, src.bo.handle, 0, got, SIZE);
	igt_assert_mem(got, pattern, SIZE, "pread after pwrite of a fenced X object");

	/* the CPU's view through the fence: the stored bytes detiled */
	map = map_gtt(fd, src.bo.handle, SIZE);
	gem_set_domain(fd, src.bo.handle, I915_GEM_DOMAIN_GTT, 0);
	memcpy(view, map, SIZE);
	munmap(map, SIZE);
	for (uint64_t v = 0; v < SIZE; v++)
		igt_assert_f(view[v] == pattern[tile_offset(I915_TILING_X,
							    src.swizzle, v)],
			     "GTT view byte %llu", (unsigned long long)v);

	b = batch_new(fd);
	emit_fenced_copy(b, &dst, &src, TSURF_WIDTH, TSURF_HEIGHT);
	batch_submit_sync(b);
	gem_read(fd, dst.bo.handle, 0, got, SIZE);
	if (tsurf_gen() < 4)
		igt_assert_mem(got, view, SIZE, "Gen3 fenced blit: the detiled image");
	else
		igt_assert_mem(got, pattern, SIZE, "Gen4 blit: the stored bytes");

	batch_free(b);
	bo_fini(&src.bo, fd);
	bo_fini(&dst.bo, fd);
	free(pattern);
	free(view);
	free(got);
	close(fd);
}

/*
 * A batch that loops until its first dword becomes MI_BATCH_BUFFER_END
 * (igt's spinner does the same with its condition dword); *@end is the
 * batch object's GTT map, to write it.
 */
static struct batch *spin_start(int fd, volatile uint32_t **end)
{
	struct batch *b = batch_new(fd);
	unsigned int i;

	for (i = 0; i < SPIN_NOOPS; i++)
		batch_emit(b, MI_NOOP);
	emit_batch_start(b, &b->bo, 0);
	batch_submit(b);
	*end = (volatile uint32_t *)map_gtt(fd, b->bo.handle, b->bo.size);
	return b;
}

static void spin_end(struct batch *b, volatile uint32_t *end)
{
	end[0] = MI_BATCH_BUFFER_END;
	__sync_synchronize();
	munmap((void *)end, b->bo.size);
}

static volatile uint32_t *child_end;

/* the child ends the spinner, after the parent has blocked */
static int spin_end_later(void *arg)
{
	igt_sleep_ms(SPIN_END_MS);
	child_end[0] = MI_BATCH_BUFFER_END;
	__sync_synchronize();
	return 0;
}

/* igt's test object: 1 MiB, 1024 x 256 pixels of 4 bytes */
#define IGT_STRIDE	4096
#define IGT_WIDTH	(IGT_STRIDE / 4)
#define IGT_HEIGHT	256
#define IGT_SIZE	(IGT_STRIDE * IGT_HEIGHT)

static void set_tiling(int fd, uint32_t handle, uint32_t tiling,
		       uint32_t stride)
{
	struct drm_i915_gem_set_tiling st = {
		.handle = handle, .tiling_mode = tiling, .stride = stride,
	};

	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_I915_GEM_SET_TILING, &st));
	igt_assert_eq(st.tiling_mode, tiling);
}

/*
 * igt's blit of @w x @h pixels from @src (@tiled on Gen4: the source
 * tiled bit and a pitch in dwords) to @dst, both relocations fenced.
 */
static void emit_igt_copy(struct batch *b, struct bo *dst, struct bo *src,
			  bool tiled, int w, int h, uint32_t stride)
{
	uint32_t cmd = XY_SRC_COPY_BLT | BLT_WRITE_ARGB, spitch = stride;

	if (b->gen >= 4 && tiled) {
		cmd |= XY_SRC_TILED;
		spitch /= 4;
	}
	dst->flags |= EXEC_OBJECT_NEEDS_FENCE;
	src->flags |= EXEC_OBJECT_NEEDS_FENCE;
	batch_emit(b, cmd);
	batch_emit(b, BR13_ROP(ROP_SRCCOPY) | BR13_DEPTH_32 | stride);
	batch_emit(b, 0);
	batch_emit(b, (uint32_t)h << 16 | (uint32_t)w);
	batch_reloc(b, dst, 0, RENDER, RENDER);
	batch_emit(b, 0);
	batch_emit(b, spitch);
	batch_reloc(b, src, 0, RENDER, 0);
}

/*
 * igt's tiled-to-* sequence, at igt's size; @after and @stride_after the
 * second tiling, @hang: leave the spinner to the hang check.
 */
static void retile(uint32_t after, uint32_t stride_after, bool hang)
{
	int fd = drm_open_driver();
	uint8_t *pattern = malloc(IGT_SIZE), *got = malloc(IGT_SIZE), *map;
	volatile uint32_t *end;
	struct batch *spin, *b, *b2;
	struct bo test, target;
	pid_t child = 0;
	bool gen3;
	double t0;

	igt_assert(pattern && got);
	tsurf_setup(fd);
	gen3 = tsurf_gen() < 4;
	/* Gen4 keeps the default: a slow host must not reset the spinner */
	if (hang && gen3)
		gem_require_unwedged(fd, HANGCHECK_MS);
	igt_fill_pattern(pattern, IGT_SIZE, 0x7e57 + after);
	bo_init(&target, fd, IGT_SIZE);
	bo_init(&test, fd, IGT_SIZE);
	/* igt binds it untiled first (a GTT fault), then tiles it */
	map = map_gtt(fd, test.handle, IGT_SIZE);
	gem_set_domain(fd, test.handle, I915_GEM_DOMAIN_GTT,
		       I915_GEM_DOMAIN_GTT);
	*(volatile uint32_t *)map = 0;
	munmap(map, IGT_SIZE);
	set_tiling(fd, test.handle, I915_TILING_X, IGT_STRIDE);
	map = map_gtt(fd, test.handle, IGT_SIZE);
	gem_set_domain(fd, test.handle, I915_GEM_DOMAIN_GTT,
		       I915_GEM_DOMAIN_GTT);
	memcpy(map, pattern, IGT_SIZE);
	munmap(map, IGT_SIZE);

	spin = spin_start(fd, &end);
	b = batch_new(fd);
	emit_igt_copy(b, &target, &test, true, IGT_WIDTH, IGT_HEIGHT,
		      IGT_STRIDE);
	batch_submit(b);

	if (gen3 && !hang) {
		child_end = end;
		child = igt_fork(spin_end_later, NULL);
	}
	t0 = igt_now();
	set_tiling(fd, test.handle, after, stride_after);
	igt_info("SET_TILING took %.2f s", igt_now() - t0);
	/* Gen4's GPU never uses the fence: nothing to wait for */
	if (!gen3)
		igt_assert_f(gem_busy(fd, spin->bo.handle),
			     "SET_TILING on Gen4 waited for the GPU");

	/* a batch object of its own: the first one is still busy (pwrite) */
	b2 = batch_new(fd);
	test.flags = 0;
	emit_igt_copy(b2, &test, &test, false, 1, 1,
		      after ? stride_after : IGT_STRIDE);
	batch_submit(b2);
	if (child)
		igt_assert_eq(igt_wait(child), 0);
	spin_end(spin, end);

	gem_read(fd, target.handle, 0, got, IGT_SIZE);
	igt_assert_mem(got, pattern, IGT_SIZE,
		       "the blit queued before SET_TILING (%u, %u)", after,
		       stride_after);

	batch_free(b2);
	batch_free(b);
	batch_free(spin);
	bo_fini(&test, fd);
	bo_fini(&target, fd);
	free(pattern);
	free(got);
	close(fd);
}

static void subtest_retile_none(void)
{
	retile(I915_TILING_NONE, 0, false);
}

static void subtest_retile_x(void)
{
	retile(I915_TILING_X, IGT_STRIDE / 2, false);
}

static void subtest_retile_hang(void)
{
	retile(I915_TILING_NONE, 0, true);
}

static const struct igt_subtest tests[] = {
	SUBTEST(pwrite_fenced),
	SUBTEST_T(retile_none, 60),
	SUBTEST_T(retile_x, 60),
	SUBTEST_T(retile_hang, 60),
};

igt_main(tests)
