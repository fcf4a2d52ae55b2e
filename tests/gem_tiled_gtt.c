// SPDX-License-Identifier: GPL-2.0
/*
 * gem_tiled_gtt: GTT mmaps (MMAP_OFFSET GTT) of tiled objects go through a
 * fence: the CPU sees the linear image, while pread sees the bytes as the
 * GPU stores them (the reference tiling of fact sheet section 6.5, bit-6
 * swizzled as SET_TILING reports).
 *
 *  - read_x, read_y: a pattern blitted into the tiled object (on Gen4,
 *    whose blitter has no Y tiling, a Y object is pwritten in the
 *    reference layout), then read through the GTT map: the pattern; and
 *    by pread: the pattern tiled.
 *  - write_x, write_y: the pattern written through the GTT map, read by
 *    pread (tiled) and blitted to a linear object (the pattern; not for
 *    Y on Gen4).
 *  - steal: more tiled objects than fence registers, each written
 *    through its own map in turn (every fault steals a fence and zaps its
 *    old owner), then all read through their maps again (each refaults)
 *    and by pread.
 *  - tiling_change: SET_TILING while mapped zaps the map: NONE shows the
 *    tiled bytes, X again the pattern, through the same mapping.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "tiled.h"

#define WIDTH		TSURF_WIDTH
#define HEIGHT		TSURF_HEIGHT
#define STRIDE		TSURF_STRIDE
#define SIZE		TSURF_SIZE

/* Gen4's blitter has no Y tiling */
static bool can_blit(uint32_t tiling)
{
	return tsurf_gen() < 4 || tiling != I915_TILING_Y;
}

static void *map_gtt(int fd, struct tsurf *s)
{
	return gem_mmap_offset(fd, s->bo.handle, SIZE, I915_MMAP_OFFSET_GTT);
}

static void check_map(int fd, struct tsurf *s, const uint8_t *map,
		      const uint8_t *linear, const char *what)
{
	uint8_t *got = malloc(SIZE);

	igt_assert(got);
	gem_set_domain(fd, s->bo.handle, I915_GEM_DOMAIN_GTT, 0);
	memcpy(got, map, SIZE);
	igt_assert_mem(got, linear, SIZE, "%s (GTT map): tiling %u", what,
		       s->tiling);
	free(got);
}

/*
 * Into the GTT write domain for writes through @map.  The map is touched
 * first: its fault binds the object, pinning its pages, which keeps the
 * domain (this driver returns an object whose pages are released to the
 * CPU domain); the flush that leaving the GTT domain does is where the
 * model's fenced aperture writes reach memory.
 */
static void gtt_write_domain(int fd, struct tsurf *s, const uint8_t *map)
{
	uint8_t touch = *(volatile const uint8_t *)map;

	(void)touch;
	gem_set_domain(fd, s->bo.handle, I915_GEM_DOMAIN_GTT,
		       I915_GEM_DOMAIN_GTT);
}

/* The pattern into the tiled object by the blitter, or by pwrite. */
static void fill_tiled(int fd, struct tsurf *s, const uint8_t *pattern)
{
	struct tsurf src;
	uint8_t *t;

	if (!can_blit(s->tiling)) {
		t = malloc(SIZE);
		igt_assert(t);
		tile(t, pattern, s->tiling, s->swizzle);
		gem_write(fd, s->bo.handle, 0, t, SIZE);
		free(t);
		return;
	}
	tsurf_init(fd, &src, I915_TILING_NONE);
	gem_write(fd, src.bo.handle, 0, pattern, SIZE);
	tsurf_copy(fd, s, &src);
	bo_fini(&src.bo, fd);
}

static void read_tiled(uint32_t tiling)
{
	int fd = drm_open_driver();
	uint8_t *pattern = malloc(SIZE), *map;
	struct tsurf s;

	igt_assert(pattern);
	tsurf_setup(fd);
	igt_fill_pattern(pattern, SIZE, 0x9e7 + tiling);
	tsurf_init(fd, &s, tiling);
	map = map_gtt(fd, &s);

	fill_tiled(fd, &s, pattern);
	tsurf_check_tiled(fd, &s, pattern, can_blit(tiling) ? "blitted" : "pwritten");
	check_map(fd, &s, map, pattern, "read back");
	igt_info("tiling %u swizzle %u: %d bytes linear through the map",
		 tiling, s.swizzle, SIZE);

	munmap(map, SIZE);
	bo_fini(&s.bo, fd);
	free(pattern);
	close(fd);
}

static void write_tiled(uint32_t tiling)
{
	int fd = drm_open_driver();
	uint8_t *pattern = malloc(SIZE), *got = malloc(SIZE), *map;
	struct tsurf s, back;

	igt_assert(pattern && got);
	tsurf_setup(fd);
	igt_fill_pattern(pattern, SIZE, 0x3a1 + tiling);
	tsurf_init(fd, &s, tiling);
	map = map_gtt(fd, &s);

	gtt_write_domain(fd, &s, map);
	memcpy(map, pattern, SIZE);
	tsurf_check_tiled(fd, &s, pattern, "written through the map");
	if (can_blit(tiling)) {
		tsurf_init(fd, &back, I915_TILING_NONE);
		tsurf_copy(fd, &back, &s);
		gem_read(fd, back.bo.handle, 0, got, SIZE);
		igt_assert_mem(got, pattern, SIZE, "blitted to linear");
		bo_fini(&back.bo, fd);
	}

	munmap(map, SIZE);
	bo_fini(&s.bo, fd);
	free(pattern);
	free(got);
	close(fd);
}

static void subtest_read_x(void)
{
	read_tiled(I915_TILING_X);
}

static void subtest_read_y(void)
{
	read_tiled(I915_TILING_Y);
}

static void subtest_write_x(void)
{
	write_tiled(I915_TILING_X);
}

static void subtest_write_y(void)
{
	write_tiled(I915_TILING_Y);
}

#define STEAL_EXTRA	3

static void subtest_steal(void)
{
	int fd = drm_open_driver();
	int fences = gem_getparam(fd, I915_PARAM_NUM_FENCES_AVAIL);
	int n = fences + STEAL_EXTRA, i, r;
	uint8_t *pattern = malloc(SIZE), **map;
	struct tsurf *s;

	tsurf_setup(fd);
	s = calloc(n, sizeof(*s));
	map = calloc(n, sizeof(*map));
	igt_assert(s && map && pattern);
	for (i = 0; i < n; i++) {
		tsurf_init(fd, &s[i], i & 1 ? I915_TILING_Y : I915_TILING_X);
		map[i] = map_gtt(fd, &s[i]);
	}

	/* twice round: the second round refaults every stolen fence */
	for (r = 0; r < 2; r++) {
		for (i = 0; i < n; i++) {
			igt_fill_pattern(pattern, SIZE, 0x5700 + r * n + i);
			gtt_write_domain(fd, &s[i], map[i]);
			memcpy(map[i], pattern, SIZE);
		}
		for (i = 0; i < n; i++) {
			igt_fill_pattern(pattern, SIZE, 0x5700 + r * n + i);
			check_map(fd, &s[i], map[i], pattern, "after steals");
			tsurf_check_tiled(fd, &s[i], pattern, "after steals");
		}
	}
	igt_info("%d mapped tiled objects through %d fences", n, fences);

	for (i = 0; i < n; i++) {
		munmap(map[i], SIZE);
		bo_fini(&s[i].bo, fd);
	}
	free(map);
	free(s);
	free(pattern);
	close(fd);
}

static void subtest_tiling_change(void)
{
	int fd = drm_open_driver();
	uint8_t *pattern = malloc(SIZE), *tiled = malloc(SIZE), *map;
	struct tsurf s;
	uint32_t swizzle;

	igt_assert(pattern && tiled);
	tsurf_setup(fd);
	igt_fill_pattern(pattern, SIZE, 0x71c);
	tsurf_init(fd, &s, I915_TILING_X);
	swizzle = s.swizzle;
	map = map_gtt(fd, &s);
	gtt_write_domain(fd, &s, map);
	memcpy(map, pattern, SIZE);
	check_map(fd, &s, map, pattern, "X");

	/* linear now: the same mapping shows the bytes as stored */
	tsurf_set_tiling(fd, &s, I915_TILING_NONE);
	tile(tiled, pattern, I915_TILING_X, swizzle);
	check_map(fd, &s, map, tiled, "X, then NONE");

	tsurf_set_tiling(fd, &s, I915_TILING_X);
	check_map(fd, &s, map, pattern, "X, NONE, X again");
	tsurf_check_tiled(fd, &s, pattern, "X, NONE, X again");

	munmap(map, SIZE);
	bo_fini(&s.bo, fd);
	free(pattern);
	free(tiled);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(read_x),
	SUBTEST(read_y),
	SUBTEST(write_x),
	SUBTEST(write_y),
	SUBTEST(steal),
	SUBTEST(tiling_change),
};

igt_main(tests)
