// SPDX-License-Identifier: GPL-2.0
/*
 * gem_tiled_gtt_flush: writes through a GTT mmap reach memory before the
 * CPU reads the pages another way, in igt's order: SET_DOMAIN(GTT, GTT)
 * first, then the first touch of the map (which faults the object in),
 * as gem_tiled_pread_basic, gem_tiled_pread_pwrite, gem_tiled_wb and
 * gem_tiled_wc fill their objects.  This driver sends an object whose
 * pages nothing else pins back to the CPU domain at the end of
 * SET_DOMAIN, so the domain no longer says that GTT writes are pending;
 * the fault must (i915_gem_domain.c).  On the model the writes sit in the
 * fenced aperture's shadow pages until a chipset flush; before the fix
 * pread saw the zeros of a new object.
 *
 *  - pread_x, pread_y: the pattern through the map, then pread: the
 *    pattern tiled (the reference tiling with swizzle).
 *  - cpu_map_x: the same, read through a CPU mmap after
 *    SET_DOMAIN(CPU, 0).
 *  - wc_map_x: the same through a WC mmap (I915_GEM_MMAP), without any
 *    SET_DOMAIN, as gem_tiled_wc reads.
 *  - pwrite_after: pread shows the map's writes, and a pwrite of other
 *    bytes afterwards shows through a new map (the flush did not leave a
 *    stale shadow behind).
 */
#include <sys/mman.h>
#include <unistd.h>

#include "tiled.h"

#define SIZE	TSURF_SIZE

/* The pattern through a GTT map, SET_DOMAIN before the first touch. */
static void write_through_map(int fd, struct tsurf *s, const uint8_t *pattern)
{
	uint8_t *map = gem_mmap_offset(fd, s->bo.handle, SIZE,
				       I915_MMAP_OFFSET_GTT);

	gem_set_domain(fd, s->bo.handle, I915_GEM_DOMAIN_GTT,
		       I915_GEM_DOMAIN_GTT);
	memcpy(map, pattern, SIZE);
	munmap(map, SIZE);
}

static void pread_after(uint32_t tiling)
{
	int fd = drm_open_driver();
	uint8_t *pattern = malloc(SIZE);
	struct tsurf s;

	igt_assert(pattern);
	tsurf_setup(fd);
	igt_fill_pattern(pattern, SIZE, 0x5e1 + tiling);
	tsurf_init(fd, &s, tiling);
	write_through_map(fd, &s, pattern);
	tsurf_check_tiled(fd, &s, pattern, "written through the map");
	bo_fini(&s.bo, fd);
	free(pattern);
	close(fd);
}

static void subtest_pread_x(void)
{
	pread_after(I915_TILING_X);
}

static void subtest_pread_y(void)
{
	pread_after(I915_TILING_Y);
}

static void subtest_cpu_map_x(void)
{
	int fd = drm_open_driver();
	uint8_t *pattern = malloc(SIZE), *want = malloc(SIZE), *cpu;
	struct tsurf s;

	igt_assert(pattern && want);
	tsurf_setup(fd);
	igt_fill_pattern(pattern, SIZE, 0x77c);
	tsurf_init(fd, &s, I915_TILING_X);
	write_through_map(fd, &s, pattern);

	cpu = gem_mmap__cpu(fd, s.bo.handle, 0, SIZE);
	gem_set_domain(fd, s.bo.handle, I915_GEM_DOMAIN_CPU, 0);
	tile(want, pattern, s.tiling, s.swizzle);
	igt_assert_mem(cpu, want, SIZE, "CPU mmap after GTT writes: swizzle %u",
		       s.swizzle);
	munmap(cpu, SIZE);
	bo_fini(&s.bo, fd);
	free(want);
	free(pattern);
	close(fd);
}

/* gem_tiled_wc's order: no SET_DOMAIN at all before the WC mmap reads */
static void subtest_wc_map_x(void)
{
	int fd = drm_open_driver();
	uint8_t *pattern = malloc(SIZE), *want = malloc(SIZE), *wc = NULL;
	struct tsurf s;

	igt_assert(pattern && want);
	tsurf_setup(fd);
	igt_fill_pattern(pattern, SIZE, 0x9a5);
	tsurf_init(fd, &s, I915_TILING_X);
	write_through_map(fd, &s, pattern);

	igt_assert_ok(__gem_mmap(fd, s.bo.handle, 0, SIZE, I915_MMAP_WC,
				 (void **)&wc));
	tile(want, pattern, s.tiling, s.swizzle);
	igt_assert_mem(wc, want, SIZE, "WC mmap after GTT writes: swizzle %u",
		       s.swizzle);
	munmap(wc, SIZE);
	bo_fini(&s.bo, fd);
	free(want);
	free(pattern);
	close(fd);
}

static void subtest_pwrite_after(void)
{
	int fd = drm_open_driver();
	uint8_t *pattern = malloc(SIZE), *other = malloc(SIZE);
	uint8_t *t = malloc(SIZE), *got = malloc(SIZE), *map;
	struct tsurf s;

	igt_assert(pattern && other && t && got);
	tsurf_setup(fd);
	igt_fill_pattern(pattern, SIZE, 0x123);
	igt_fill_pattern(other, SIZE, 0x456);
	tsurf_init(fd, &s, I915_TILING_X);
	write_through_map(fd, &s, pattern);
	tsurf_check_tiled(fd, &s, pattern, "written through the map");

	tile(t, other, s.tiling, s.swizzle);
	gem_write(fd, s.bo.handle, 0, t, SIZE);
	map = gem_mmap_offset(fd, s.bo.handle, SIZE, I915_MMAP_OFFSET_GTT);
	gem_set_domain(fd, s.bo.handle, I915_GEM_DOMAIN_GTT, 0);
	memcpy(got, map, SIZE);
	igt_assert_mem(got, other, SIZE, "GTT map after pwrite");
	munmap(map, SIZE);

	bo_fini(&s.bo, fd);
	free(got);
	free(t);
	free(other);
	free(pattern);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(pread_x),
	SUBTEST(pread_y),
	SUBTEST(cpu_map_x),
	SUBTEST(wc_map_x),
	SUBTEST(pwrite_after),
};

igt_main(tests)
