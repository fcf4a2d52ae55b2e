// SPDX-License-Identifier: GPL-2.0
/*
 * gem_mmap_gtt: mappings through the aperture (MMAP_GTT, and MMAP_OFFSET
 * with I915_MMAP_OFFSET_GTT), what i915g maps every buffer with:
 *  - written through the map, read by pread and by a blit; written by a
 *    blit (SET_DOMAIN(GTT) waits for it) and read through the map;
 *  - an object larger than the mappable aperture, mapped and touched end
 *    to end (partial views);
 *  - eviction of a faulted object (debugfs drop_caches) zaps the user
 *    PTEs: the next access faults and binds it again (the GTT's bound
 *    bytes grow back), with the same bytes; a caching change zaps too
 *    (snooped: SIGBUS as upstream);
 *  - handle closed while mapped, munmap, fork; the GETPARAMs; mmap of an
 *    offset by another client or beyond the object.
 */
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec.h"

#define SZ_1M (1024ull * 1024)

static void *map_gtt(int fd, uint32_t handle, uint64_t size)
{
	return gem_mmap_offset(fd, handle, size, I915_MMAP_OFFSET_GTT);
}

/* the legacy MMAP_GTT ioctl (struct drm_i915_gem_mmap_gtt) */
static int __mmap_gtt_legacy(int fd, uint32_t handle, uint64_t *offset)
{
	struct drm_i915_gem_mmap_gtt m = { .handle = handle, .pad = 0xdead };
	int ret = igt_ioctl(fd, DRM_IOCTL_I915_GEM_MMAP_GTT, &m);

	if (!ret)
		*offset = m.offset;
	return ret;
}

static void subtest_getparam(void)
{
	int fd = drm_open_driver();

	igt_assert_eq(gem_getparam(fd, I915_PARAM_MMAP_GTT_VERSION), 4);
	igt_assert_eq(gem_getparam(fd, I915_PARAM_MMAP_VERSION), 1);
	/* 945G and GM45 both have a coherent GGTT (only the 915G has not) */
	igt_assert_eq(gem_getparam(fd, I915_PARAM_MMAP_GTT_COHERENT), 1);
	close(fd);
}

/* MMAP_GTT and MMAP_OFFSET(GTT) name the same offset */
static void subtest_legacy_ioctl(void)
{
	int fd = drm_open_driver();
	uint32_t h = gem_create(fd, PAGE_SZ);
	uint64_t a = 0, b = 0;

	igt_assert_ok(__mmap_gtt_legacy(fd, h, &a));
	igt_assert_ok(__gem_mmap_offset(fd, h, I915_MMAP_OFFSET_GTT, &b));
	igt_assert_eq_u64(a, b);
	igt_assert(a && !(a & (PAGE_SZ - 1)));
	igt_assert_err(__mmap_gtt_legacy(fd, h + 1, &a), -ENOENT);
	gem_close(fd, h);
	close(fd);
}

static void fill_u32(uint32_t *p, size_t n, uint32_t seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = seed + i * 0x01010101u;
}

static void subtest_write_pread(void)
{
	int fd = drm_open_driver();
	const uint64_t size = 16 * PAGE_SZ;
	uint32_t h = gem_create(fd, size);
	uint32_t *map, *in = malloc(size), *out = malloc(size);

	map = map_gtt(fd, h, size);
	gem_set_domain(fd, h, I915_GEM_DOMAIN_GTT, I915_GEM_DOMAIN_GTT);
	fill_u32(in, size / 4, 0x1234);
	memcpy(map, in, size);
	gem_read(fd, h, 0, out, size);
	igt_assert_mem(out, in, size, "pread of GTT map writes");

	/* and the other way: pwrite, read through the map */
	fill_u32(in, size / 4, 0xabc0);
	gem_write(fd, h, 0, in, size);
	gem_set_domain(fd, h, I915_GEM_DOMAIN_GTT, 0);
	igt_assert_mem(map, in, size, "GTT map of pwritten data");

	igt_assert_eq(munmap(map, size), 0);
	gem_close(fd, h);
	free(in);
	free(out);
	close(fd);
}

#define W 256
#define H 64

/* GTT map writes reach the blitter; blitter writes reach the map */
static void subtest_blit(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct bo src, dst;
	struct surf ss, ds;
	uint32_t *map, *want = malloc(W * H * 4), *got = malloc(W * H * 4);
	int i;

	bo_init(&src, fd, W * H * 4);
	bo_init(&dst, fd, W * H * 4);
	surf_linear32(&ss, &src, W, H);
	surf_linear32(&ds, &dst, W, H);

	map = map_gtt(fd, src.handle, W * H * 4);
	gem_set_domain(fd, src.handle, I915_GEM_DOMAIN_GTT,
		       I915_GEM_DOMAIN_GTT);
	fill_u32(want, W * H, 0x7700);
	memcpy(map, want, W * H * 4);

	emit_xy_copy(b, &ds, 0, 0, &ss, 0, 0, W, H);
	batch_submit(b);
	gem_read(fd, dst.handle, 0, got, W * H * 4);
	igt_assert_mem(got, want, W * H * 4, "blit of GTT map writes");

	/* a blitter fill of src, read through its map after SET_DOMAIN */
	emit_xy_fill(b, &ss, 0, 0, W, H, 0xc0ffee11);
	batch_submit(b);
	gem_set_domain(fd, src.handle, I915_GEM_DOMAIN_GTT, 0);
	for (i = 0; i < W * H; i++)
		igt_assert_f(map[i] == 0xc0ffee11,
			     "map dword %d: 0x%08x after the fill\n", i, map[i]);

	igt_assert_eq(munmap(map, W * H * 4), 0);
	bo_fini(&src, fd);
	bo_fini(&dst, fd);
	batch_free(b);
	free(want);
	free(got);
	close(fd);
}

/*
 * Larger than the mappable aperture: only partial views can map it.
 * Every page is written through the map (no SET_DOMAIN: that would pin
 * all of it), the first and last chunk read back through it again, and
 * samples by pread.
 */
static void subtest_huge(void)
{
	int fd = drm_open_driver();
	uint64_t size = drm_aperture_size(fd) + 4 * SZ_1M;
	uint64_t pages = size / PAGE_SZ, i;
	uint32_t h = gem_create(fd, size), v;
	volatile uint32_t *map = map_gtt(fd, h, size);

#define HUGE_AT(i) ((i) * PAGE_SZ / 4 + ((i) % 1024))
	for (i = 0; i < pages; i++)
		map[HUGE_AT(i)] = 0x5a000000u ^ i;
	for (i = 0; i < 256; i++) {
		igt_assert_eq(map[HUGE_AT(i)], 0x5a000000u ^ i);
		igt_assert_eq(map[HUGE_AT(pages - 1 - i)],
			      0x5a000000u ^ (pages - 1 - i));
	}
	for (i = 0; i < pages; i += pages / 13) {
		gem_read(fd, h, HUGE_AT(i) * 4, &v, 4);
		igt_assert_eq(v, 0x5a000000u ^ i);
	}
	gem_read(fd, h, HUGE_AT(pages - 1) * 4, &v, 4);
	igt_assert_eq(v, 0x5a000000u ^ (pages - 1));

	igt_assert_eq(munmap((void *)map, size), 0);
	gem_close(fd, h);
	close(fd);
}

/*
 * Evicted while mapped: the user PTEs go with the binding, so the next
 * access faults, binds the object again, and sees the same bytes.
 */
static void subtest_evict(void)
{
	int fd = drm_open_driver();
	const uint64_t size = 8 * PAGE_SZ;
	uint32_t h = gem_create(fd, size);
	uint32_t *map = map_gtt(fd, h, size), *in = malloc(size);
	uint32_t *out = malloc(size);
	uint64_t used;

	fill_u32(in, size / 4, 0x31);
	memcpy(map, in, size);

	igt_assert_ok(igt_debugfs_write(fd, "i915_gem_drop_caches", "0x2"));
	used = gem_gtt_used(fd);
	/* the PTEs are gone: reading faults and binds it again */
	igt_assert_mem(map, in, size, "GTT map after eviction");
	igt_assert_eq_u64(gem_gtt_used(fd), used + size);

	/* written after a second eviction, read by pread */
	igt_assert_ok(igt_debugfs_write(fd, "i915_gem_drop_caches", "0x2"));
	fill_u32(in, size / 4, 0x77);
	memcpy(map, in, size);
	igt_assert_eq_u64(gem_gtt_used(fd), used + size);
	gem_read(fd, h, 0, out, size);
	igt_assert_mem(out, in, size, "pread after refault writes");
	igt_assert_eq(munmap(map, size), 0);
	gem_close(fd, h);
	free(in);
	free(out);
	close(fd);
}

/* does touching @p raise SIGBUS? */
static bool read_faults(volatile uint32_t *p)
{
	return access_faults(p, false, 0);
}

/*
 * A caching change unbinds and must zap: a snooped object cannot be
 * accessed through the GTT on these parts (SIGBUS, as upstream), so an
 * access that still succeeds used a stale PTE.
 */
static void subtest_caching_zaps(void)
{
	int fd = drm_open_driver();
	uint32_t h = gem_create(fd, PAGE_SZ);
	volatile uint32_t *map = map_gtt(fd, h, PAGE_SZ);

	map[5] = 0x12345678;
	igt_assert(!read_faults(map));
	igt_assert_ok(__gem_set_caching(fd, h, I915_CACHING_CACHED));
	igt_assert(read_faults(map));
	igt_assert_ok(__gem_set_caching(fd, h, I915_CACHING_NONE));
	igt_assert(!read_faults(map));
	igt_assert_eq(map[5], 0x12345678);
	igt_assert_eq(munmap((void *)map, PAGE_SZ), 0);
	gem_close(fd, h);
	close(fd);
}

/* the mapping keeps the object after its handle is closed */
static void subtest_close_mapped(void)
{
	int fd = drm_open_driver();
	long long before = gem_wait_object_count(fd, -1);
	uint32_t h = gem_create(fd, 2 * PAGE_SZ);
	volatile uint32_t *map = map_gtt(fd, h, 2 * PAGE_SZ);
	uint64_t off;

	map[0] = 0xfeedbeef;
	igt_assert_ok(__gem_mmap_offset(fd, h, I915_MMAP_OFFSET_GTT, &off));
	gem_close(fd, h);
	igt_assert_eq(map[0], 0xfeedbeef);
	map[1024] = 0x1;
	igt_assert_eq(map[1024], 0x1);
	/* the handle is gone: the offset cannot be mapped again */
	igt_assert(mmap(NULL, PAGE_SZ, PROT_READ, MAP_SHARED, fd, off) ==
		   MAP_FAILED);
	igt_assert_eq(errno, EACCES);
	igt_assert_eq(gem_wait_object_count(fd, before + 1), before + 1);
	igt_assert_eq(munmap((void *)map, 2 * PAGE_SZ), 0);
	igt_assert_eq(gem_wait_object_count(fd, before), before);
	close(fd);
}

/* another client, or a range beyond the object, cannot be mapped */
static void subtest_bad_mmap(void)
{
	int fd = drm_open_driver(), other = drm_open_driver();
	uint32_t h = gem_create(fd, 2 * PAGE_SZ);
	uint64_t off;
	void *p;

	igt_assert_ok(__gem_mmap_offset(fd, h, I915_MMAP_OFFSET_GTT, &off));
	p = mmap(NULL, PAGE_SZ, PROT_READ, MAP_SHARED, other, off);
	igt_assert(p == MAP_FAILED && errno == EACCES);
	p = mmap(NULL, 3 * PAGE_SZ, PROT_READ, MAP_SHARED, fd, off);
	igt_assert(p == MAP_FAILED && errno == EINVAL);
	p = mmap(NULL, PAGE_SZ, PROT_READ, MAP_SHARED, fd, off + PAGE_SZ);
	igt_assert(p == MAP_FAILED && errno == EINVAL);
	p = mmap(NULL, PAGE_SZ, PROT_READ, MAP_SHARED, fd, 0);
	igt_assert(p == MAP_FAILED && errno == EINVAL);
	/* a part from the start is fine */
	p = mmap(NULL, PAGE_SZ, PROT_READ, MAP_SHARED, fd, off);
	igt_assert(p != MAP_FAILED);
	igt_assert_eq(munmap(p, PAGE_SZ), 0);
	gem_close(fd, h);
	close(other);
	close(fd);
}

/* the child sees and writes the parent's object through the mapping */
static void subtest_fork(void)
{
	int fd = drm_open_driver(), status;
	uint32_t h = gem_create(fd, PAGE_SZ), v;
	volatile uint32_t *map = map_gtt(fd, h, PAGE_SZ);
	pid_t pid;

	map[0] = 0xaaaa5555;
	pid = fork();
	igt_assert(pid >= 0);
	if (pid == 0) {
		_exit(map[0] == 0xaaaa5555 ? (map[1] = 0x600d, 0) : 1);
	}
	igt_assert_eq(waitpid(pid, &status, 0), pid);
	igt_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	gem_read(fd, h, 4, &v, 4);
	igt_assert_eq(v, 0x600d);
	igt_assert_eq(map[1], 0x600d);
	igt_assert_eq(munmap((void *)map, PAGE_SZ), 0);
	gem_close(fd, h);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(getparam),
	SUBTEST(legacy_ioctl),
	SUBTEST(write_pread),
	SUBTEST(blit),
	SUBTEST(huge),
	SUBTEST(evict),
	SUBTEST(caching_zaps),
	SUBTEST(close_mapped),
	SUBTEST(bad_mmap),
	SUBTEST(fork),
};

igt_main(tests)
