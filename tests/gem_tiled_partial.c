// SPDX-License-Identifier: GPL-2.0
/*
 * gem_tiled_partial: GTT mmaps of tiled objects too big for the mappable
 * aperture go through partial views, each with a fence of its own: the
 * CPU still sees the whole object linear, while pread sees the bytes as
 * the GPU stores them (the reference tiling of tests/lib/tiled.c, bit-6
 * swizzled as SET_TILING reports).
 *
 *  - big_x, big_y: an object larger than the mappable aperture.  A word
 *    every 5 MiB written through the map, in order (more views than are
 *    kept and than there are fences: they evict each other and steal
 *    each other's fences), read back through the map and by pread at
 *    the tiled offset; 2 MiB across a view boundary written through the
 *    map and compared by pread with the reference tiling; 2 MiB pwritten
 *    in the tiled layout and read linear through the map.
 *  - half_x, half_y: an object just over half the mappable aperture (its
 *    fence would take more than half): the same checks on its first and
 *    last pages.
 *  - unbind: an object just over half the aperture: views dropped while
 *    mapped (debugfs drop_caches unbinds everything): the map shows the
 *    same bytes again; then SET_TILING NONE while mapped shows the tiled
 *    bytes through the same map.
 *  - fences_taken: every fence register held by a small tiled object
 *    faulted through its own map, then the big object faulted: its
 *    views steal them; all objects read back through their maps.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "tiled.h"

#define SZ_1M		(1024 * 1024ull)
#define BOUNDARY_LEN	(2 * SZ_1M)
/*
 * Pages between samples, about 5 MiB: each in a view of its own, more
 * views than are kept (32) and than there are fences, at a cost the
 * debug lane affords (a view's fault makes a shadow page per page).
 */
#define SPREAD		1283

struct big {
	struct tsurf s;
	uint64_t size;
	volatile uint32_t *map;
};

static void big_init(int fd, struct big *b, uint64_t size, uint32_t tiling)
{
	b->size = size;
	b->s.bo.handle = gem_create(fd, size);
	b->s.bo.size = size;
	tsurf_set_tiling(fd, &b->s, tiling);
	b->map = gem_mmap_offset(fd, b->s.bo.handle, size,
				 I915_MMAP_OFFSET_GTT);
}

static void big_fini(int fd, struct big *b)
{
	igt_assert_eq(munmap((void *)b->map, b->size), 0);
	gem_close(fd, b->s.bo.handle);
}

/* the linear byte offset of page @i's sample word */
static uint64_t sample_at(uint64_t i)
{
	return i * PAGE_SZ + (i % 1000) * 4;
}

static uint32_t sample(uint64_t i, uint32_t seed)
{
	return seed ^ (uint32_t)(i * 0x9e3779b1u);
}

/* pread of the 4 bytes the GPU stores linear word @v at */
static uint32_t read_tiled_word(int fd, struct big *b, uint64_t v)
{
	uint32_t w;

	gem_read(fd, b->s.bo.handle, tile_offset(b->s.tiling, b->s.swizzle, v),
		 &w, 4);
	return w;
}

/*
 * The merge point of the model's fenced aperture: the CPU's writes
 * through the map reach memory (a chipset flush), as they would on
 * silicon once the write-combining buffers drain.
 */
static void flush_map(int fd, struct big *b)
{
	gem_set_domain(fd, b->s.bo.handle, I915_GEM_DOMAIN_GTT, 0);
}

static void write_samples(struct big *b, uint64_t first, uint64_t end,
			  uint64_t step, uint32_t seed)
{
	uint64_t i;

	for (i = first; i < end; i += step)
		b->map[sample_at(i) / 4] = sample(i, seed);
}

static void check_samples(int fd, struct big *b, uint64_t first,
			  uint64_t end, uint64_t step, uint32_t seed,
			  const char *what)
{
	uint64_t i;

	/*
	 * Through the map first, then by pread: a pread after a fault of the
	 * writable map flushes it (a chipset flush, which the model pays
	 * for with a merge of every shadow of every view), so interleaving
	 * the two would flush once per sample for nothing.
	 */
	for (i = first; i < end; i += step)
		igt_assert_f(b->map[sample_at(i) / 4] == sample(i, seed),
			     "%s: page %llu through the map: 0x%08x, not 0x%08x\n",
			     what, (unsigned long long)i,
			     b->map[sample_at(i) / 4], sample(i, seed));
	for (i = first; i < end; i += step) {
		igt_assert_f(read_tiled_word(fd, b, sample_at(i)) ==
			     sample(i, seed),
			     "%s: page %llu by pread (tiled): 0x%08x, not 0x%08x\n",
			     what, (unsigned long long)i,
			     read_tiled_word(fd, b, sample_at(i)),
			     sample(i, seed));
	}
}

/*
 * @len bytes from @start (both whole rows of tiles: the rows are tiled
 * alone) written through the map, compared by pread with the reference
 * tiling; then pwritten tiled, read linear through the map.
 */
static void check_range(int fd, struct big *b, uint64_t start, uint64_t len,
			uint32_t seed)
{
	uint8_t *pattern = malloc(len), *want = malloc(len), *got = malloc(len);
	uint64_t v;

	igt_assert(pattern && want && got);
	igt_fill_pattern(pattern, len, seed);
	memcpy((uint8_t *)b->map + start, pattern, len);
	flush_map(fd, b);
	for (v = 0; v < len; v++)
		want[tile_offset(b->s.tiling, b->s.swizzle, start + v) - start] =
			pattern[v];
	gem_read(fd, b->s.bo.handle, start, got, len);
	igt_assert_mem(got, want, len, "written through the map at %llu MiB, by pread",
		       (unsigned long long)(start >> 20));

	igt_fill_pattern(pattern, len, seed + 1);
	for (v = 0; v < len; v++)
		want[tile_offset(b->s.tiling, b->s.swizzle, start + v) - start] =
			pattern[v];
	gem_write(fd, b->s.bo.handle, start, want, len);
	gem_set_domain(fd, b->s.bo.handle, I915_GEM_DOMAIN_GTT, 0);
	memcpy(got, (uint8_t *)b->map + start, len);
	igt_assert_mem(got, pattern, len, "pwritten tiled at %llu MiB, through the map",
		       (unsigned long long)(start >> 20));
	free(pattern);
	free(want);
	free(got);
}

static void big(uint32_t tiling)
{
	int fd = drm_open_driver();
	uint64_t size = drm_aperture_size(fd) + 4 * SZ_1M;
	uint64_t pages = size / PAGE_SZ;
	struct big b;

	tsurf_setup(fd);
	big_init(fd, &b, size, tiling);

	write_samples(&b, 0, pages, SPREAD, 0x7a000000u + tiling);
	write_samples(&b, pages - 1, pages, 1, 0x7a000000u + tiling);
	flush_map(fd, &b);
	check_samples(fd, &b, 0, pages, SPREAD, 0x7a000000u + tiling, "in order");
	/* backwards: every view was dropped meanwhile */
	check_samples(fd, &b, pages - 1, pages, 1, 0x7a000000u + tiling, "last");
	check_samples(fd, &b, 0, 1, 1, 0x7a000000u + tiling, "first");

	check_range(fd, &b, 7 * SZ_1M, BOUNDARY_LEN, 0x1234 + tiling);
	check_range(fd, &b, size - BOUNDARY_LEN, BOUNDARY_LEN, 0x4321 + tiling);
	igt_info("%llu MiB %s-tiled through partial views",
		 (unsigned long long)(size >> 20), tiling == I915_TILING_X ? "X" : "Y");

	big_fini(fd, &b);
	close(fd);
}

static void subtest_big_x(void)
{
	big(I915_TILING_X);
}

static void subtest_big_y(void)
{
	big(I915_TILING_Y);
}

static void half(uint32_t tiling)
{
	int fd = drm_open_driver();
	uint64_t size = drm_aperture_size(fd) / 2 + 2 * SZ_1M;
	uint64_t pages = size / PAGE_SZ;
	struct big b;

	tsurf_setup(fd);
	big_init(fd, &b, size, tiling);

	write_samples(&b, 0, 512, 1, 0x3c000000u);
	write_samples(&b, pages - 512, pages, 1, 0x3c000000u);
	flush_map(fd, &b);
	check_samples(fd, &b, 0, 512, 1, 0x3c000000u, "first 2 MiB");
	check_samples(fd, &b, pages - 512, pages, 1, 0x3c000000u, "last 2 MiB");
	check_range(fd, &b, size - BOUNDARY_LEN, BOUNDARY_LEN, 0x99 + tiling);

	big_fini(fd, &b);
	close(fd);
}

static void subtest_half_x(void)
{
	half(I915_TILING_X);
}

static void subtest_half_y(void)
{
	half(I915_TILING_Y);
}

static void subtest_unbind(void)
{
	int fd = drm_open_driver();
	uint64_t size = drm_aperture_size(fd) / 2 + 2 * SZ_1M;
	uint64_t pages = size / PAGE_SZ;
	uint64_t step = SPREAD, i;
	uint32_t swizzle, w;
	struct big b;

	tsurf_setup(fd);
	big_init(fd, &b, size, I915_TILING_X);
	swizzle = b.s.swizzle;
	write_samples(&b, 0, pages, step, 0x51000000u);
	flush_map(fd, &b);

	igt_assert_ok(igt_debugfs_write(fd, "i915_gem_drop_caches", "0x2"));
	check_samples(fd, &b, 0, pages, step, 0x51000000u, "after unbind");
	igt_assert_ok(igt_debugfs_write(fd, "i915_gem_drop_caches", "0x2"));

	/* linear now: the same map shows the bytes as stored */
	tsurf_set_tiling(fd, &b.s, I915_TILING_NONE);
	for (i = 0; i < pages; i += step) {
		uint64_t t = tile_offset(I915_TILING_X, swizzle, sample_at(i));

		w = b.map[t / 4];
		igt_assert_f(w == sample(i, 0x51000000u),
			     "NONE after X: page %llu at %llu: 0x%08x, not 0x%08x\n",
			     (unsigned long long)i, (unsigned long long)t, w,
			     sample(i, 0x51000000u));
	}
	tsurf_set_tiling(fd, &b.s, I915_TILING_X);
	check_samples(fd, &b, 0, pages, step, 0x51000000u, "X, NONE, X again");

	big_fini(fd, &b);
	close(fd);
}

static void subtest_fences_taken(void)
{
	int fd = drm_open_driver();
	int fences = gem_getparam(fd, I915_PARAM_NUM_FENCES_AVAIL), i, r;
	uint64_t size = drm_aperture_size(fd) + 4 * SZ_1M;
	uint64_t pages = size / PAGE_SZ;
	struct big b, *small;

	tsurf_setup(fd);
	small = calloc(fences, sizeof(*small));
	igt_assert(small);
	for (i = 0; i < fences; i++)
		big_init(fd, &small[i], SZ_1M,
			 i & 1 ? I915_TILING_Y : I915_TILING_X);
	big_init(fd, &b, size, I915_TILING_Y);

	for (r = 0; r < 2; r++) {
		/* every register to a small object, through its map */
		for (i = 0; i < fences; i++) {
			write_samples(&small[i], 0, 256, 1, 0x600 + r * 64 + i);
			flush_map(fd, &small[i]);
		}
		/* then views of the big one take them */
		write_samples(&b, r * 4096, r * 4096 + 2048, 1, 0x0b000000u + r);
		flush_map(fd, &b);
		for (i = 0; i < fences; i++)
			check_samples(fd, &small[i], 0, 256, 1,
				      0x600 + r * 64 + i, "small object");
		check_samples(fd, &b, r * 4096, r * 4096 + 2048, 1,
			      0x0b000000u + r, "big object");
	}
	igt_assert(pages > 8192);
	igt_info("%d fences, taken by %d small objects and a big one's views",
		 fences, fences);

	for (i = 0; i < fences; i++)
		big_fini(fd, &small[i]);
	big_fini(fd, &b);
	free(small);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(big_x),
	SUBTEST(big_y),
	SUBTEST(half_x),
	SUBTEST(half_y),
	SUBTEST(unbind),
	SUBTEST(fences_taken),
};

igt_main(tests)
