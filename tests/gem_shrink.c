// SPDX-License-Identifier: GPL-2.0
/*
 * gem_shrink: the shrinker under real memory pressure (i915_gem_shrinker.c).
 *
 *  - bound_working_set: more bound, idle objects than the memory left
 *    free.  Most of the VM's RAM is locked away first (mlock), so that
 *    what remains is half the working set; then each object is written
 *    with a pattern (pwrite), bound by a batch whose GPU write stamps one
 *    dword, and left idle.  A bound object pins its pages, so without a
 *    shrinker binding runs out of memory (ENOMEM, or the OOM killer);
 *    with it, idle objects are unbound under pressure, their pages
 *    swapped out, and swapped back in when read: every byte must read
 *    back, and fewer objects than were bound may still be bound (the GTT
 *    has room for all of them, so eviction did not unbind any);
 *  - dontneed_pressure: DONTNEED objects the GPU used (they have pages)
 *    are purged when memory runs short: 256 MiB more anonymous memory
 *    than is available is touched, and more, 64 MiB at a time, until
 *    half of the DONTNEED objects are purged or swap is nearly full;
 *    then at least half of them answer WILLNEED with retained 0 and their
 *    use with EFAULT, while WILLNEED objects bound beside them read back
 *    intact.
 *
 * Both skip without active swap.  Sizes adapt to MemAvailable and the
 * GTT; the memory locked or touched is always released before checking.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "exec.h"

#define OBJ_SIZE	(4ull << 20)
#define STAMP_OFFSET	4096
#define MIB		(1ll << 20)

static bool swap_active(void)
{
	return igt_meminfo_kib("SwapFree") > 0;
}

static uint32_t madvise_retained(int fd, uint32_t handle, uint32_t madv)
{
	struct drm_i915_gem_madvise arg = { .handle = handle, .madv = madv };

	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_I915_GEM_MADVISE, &arg));
	return arg.retained;
}

/* the pattern of object @i, with the GPU's stamp where it wrote it */
static void expected(uint32_t *buf, unsigned int i)
{
	igt_fill_pattern(buf, OBJ_SIZE, 0x5eed0000 + i);
}

static uint32_t stamp(unsigned int i)
{
	return 0xc0de0000 + i;
}

/* pwrite the pattern, then bind the object with a GPU write of its stamp */
static void fill_and_bind(int fd, struct bo *bo, unsigned int i,
			  uint32_t *buf)
{
	struct batch *b;
	int ret;

	expected(buf, i);
	gem_write(fd, bo->handle, 0, buf, OBJ_SIZE);
	b = batch_new(fd);
	emit_store_dword(b, bo, STAMP_OFFSET, stamp(i));
	ret = __batch_submit(b, 0);
	igt_assert_f(!ret, "binding object %u: %s", i, igt_errname(ret));
	gem_sync(fd, b->bo.handle);
	batch_free(b);
}

static void check_object(int fd, struct bo *bo, unsigned int i,
			 uint32_t *want, uint32_t *got)
{
	expected(want, i);
	want[STAMP_OFFSET / 4] = stamp(i);
	gem_read(fd, bo->handle, 0, got, OBJ_SIZE);
	igt_assert_mem(got, want, OBJ_SIZE, "object %u", i);
}

static void *map_anon(long long bytes, int flags)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);

	igt_assert_f(p != MAP_FAILED, "mmap of %lld MiB", bytes / MIB);
	return p;
}

static void subtest_bound_working_set(void)
{
	int fd = drm_open_driver();
	long long avail, ballast, working, bound, purgeable;
	uint64_t start, end;
	unsigned int n, i;
	uint32_t *buf, *got;
	struct bo *bos;
	void *locked = NULL;

	if (!swap_active())
		igt_skip("no active swap");
	gem_gtt_managed(fd, &start, &end);
	/* all of it fits in the GTT: eviction never has to unbind */
	working = (long long)(end - start) * 3 / 4;
	if (working > 128 * MIB)
		working = 128 * MIB;
	n = working / OBJ_SIZE;
	working = n * OBJ_SIZE;

	/* leave free half of what the objects need */
	avail = igt_meminfo_kib("MemAvailable") << 10;
	ballast = avail - working / 2;
	igt_info("MemAvailable %lld MiB, %u objects (%lld MiB), locking %lld MiB",
		 avail / MIB, n, working / MIB, ballast / MIB);
	if (ballast > 0)
		locked = map_anon(ballast, MAP_LOCKED | MAP_POPULATE);
	igt_info("MemAvailable %lld MiB once locked",
		 igt_meminfo_kib("MemAvailable") >> 10);

	buf = malloc(OBJ_SIZE);
	got = malloc(OBJ_SIZE);
	bos = calloc(n, sizeof(*bos));
	igt_assert(buf && got && bos);
	for (i = 0; i < n; i++) {
		bo_init(&bos[i], fd, OBJ_SIZE);
		fill_and_bind(fd, &bos[i], i, buf);
	}
	gem_object_counts(fd, &bound, &purgeable, NULL);
	igt_info("%lld of %u objects still bound, MemAvailable %lld MiB, SwapFree %lld MiB",
		 bound, n, igt_meminfo_kib("MemAvailable") >> 10,
		 igt_meminfo_kib("SwapFree") >> 10);

	if (locked)
		munmap(locked, ballast);
	for (i = 0; i < n; i++)
		check_object(fd, &bos[i], i, buf, got);
	/* the shrinker unbound some: nothing else would have */
	igt_assert_lt(bound, n);

	for (i = 0; i < n; i++)
		bo_fini(&bos[i], fd);
	free(bos);
	free(got);
	free(buf);
	close(fd);
}

static void subtest_dontneed_pressure(void)
{
	enum { PURGEABLE = 16, KEPT = 4 };
	struct bo bos[PURGEABLE + KEPT];
	int fd = drm_open_driver();
	long long avail, pressure, limit, off, bound, purgeable;
	unsigned int i, purged = 0;
	uint32_t *buf, *got;
	char *mem;

	if (!swap_active())
		igt_skip("no active swap");
	buf = malloc(OBJ_SIZE);
	got = malloc(OBJ_SIZE);
	igt_assert(buf && got);
	for (i = 0; i < PURGEABLE + KEPT; i++) {
		bo_init(&bos[i], fd, OBJ_SIZE);
		fill_and_bind(fd, &bos[i], i, buf);
		if (i < PURGEABLE)
			igt_assert_eq(madvise_retained(fd, bos[i].handle,
						       I915_MADV_DONTNEED), 1);
	}
	gem_object_counts(fd, &bound, &purgeable, NULL);
	igt_assert_eq(purgeable, PURGEABLE);

	/*
	 * Touch more than is available: reclaim has to find the rest.  How
	 * much of it reclaim asks of the shrinker varies (in batches of
	 * 16 MiB), so past 256 MiB beyond MemAvailable the pressure grows
	 * by 64 MiB until half the DONTNEED objects are gone, up to what
	 * swap can take.
	 */
	avail = igt_meminfo_kib("MemAvailable") << 10;
	pressure = avail + 256 * MIB;
	limit = avail + (igt_meminfo_kib("SwapFree") << 10) - 256 * MIB;
	if (limit > avail + 1024 * MIB)
		limit = avail + 1024 * MIB;
	igt_assert_lte(pressure, limit);
	igt_info("MemAvailable %lld MiB, touching %lld MiB and up to %lld MiB",
		 avail / MIB, pressure / MIB, limit / MIB);
	mem = map_anon(limit, MAP_NORESERVE);
	for (off = 0; off < limit; off += PAGE_SZ) {
		if (off >= pressure && off % (64 * MIB) == 0) {
			gem_object_counts(fd, &bound, &purgeable, NULL);
			if (purgeable <= PURGEABLE / 2)
				break;
		}
		mem[off] = 1;
	}
	gem_object_counts(fd, &bound, &purgeable, NULL);
	igt_info("touched %lld MiB: %lld bound, %lld purgeable, SwapFree %lld MiB",
		 off / MIB, bound, purgeable,
		 igt_meminfo_kib("SwapFree") >> 10);
	munmap(mem, limit);

	for (i = 0; i < PURGEABLE; i++) {
		uint32_t v;

		if (madvise_retained(fd, bos[i].handle, I915_MADV_WILLNEED))
			continue;
		purged++;
		igt_assert_err(__gem_read(fd, bos[i].handle, 0, &v,
					  sizeof(v)), -EFAULT);
	}
	igt_info("%u of %u DONTNEED objects purged", purged, PURGEABLE);
	igt_assert_lte(PURGEABLE / 2, purged);
	for (i = PURGEABLE; i < PURGEABLE + KEPT; i++)
		check_object(fd, &bos[i], i, buf, got);

	for (i = 0; i < PURGEABLE + KEPT; i++)
		bo_fini(&bos[i], fd);
	free(got);
	free(buf);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(bound_working_set),
	SUBTEST(dontneed_pressure),
};

igt_main(tests)
