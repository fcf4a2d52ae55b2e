// SPDX-License-Identifier: GPL-2.0
/*
 * gem_swap: objects are pageable.  Create more object memory than the
 * machine has RAM (1.5x MemTotal, as far as swap allows), write a
 * distinct pattern into every object, then read every byte of every
 * object back and compare.  Unpinned objects must go to swap and come
 * back intact; a driver that pins them runs out of memory instead.
 *
 * The patterns cost nothing to make: one random buffer a little larger
 * than an object, and object i is that buffer starting at a shift of
 * i * 264 bytes, so every object (and every page) differs from the
 * others.  Skips without active swap.
 *
 * Size in MiB can be forced with GEM_SWAP_MIB=<n> in the environment.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "gem.h"

#define OBJ_SIZE (16ull << 20)
#define SHIFT_STEP 264
#define SHIFT_SPAN (64 << 10)
#define CHUNK (1ull << 20)

static size_t shift_of(unsigned int i)
{
	return ((size_t)i * SHIFT_STEP) % SHIFT_SPAN;
}

static bool swap_active(void)
{
	char line[256];
	int lines = 0;
	FILE *f = fopen("/proc/swaps", "r");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		lines++;
	fclose(f);
	return lines > 1;	/* the header, then one line per device */
}

/* how many objects: 1.5x RAM, bounded by what RAM + free swap can hold */
static unsigned int object_count(void)
{
	long long mem = igt_meminfo_kib("MemTotal") << 10;
	long long avail = igt_meminfo_kib("MemAvailable") << 10;
	long long swap = igt_meminfo_kib("SwapFree") << 10;
	long long want = mem / 2 * 3, room;
	const char *env = getenv("GEM_SWAP_MIB");

	if (env && atoll(env) >= 16)
		return (atoll(env) << 20) / OBJ_SIZE;
	if (!swap_active() || swap <= 0)
		igt_skip("no active swap (/proc/swaps): cannot exceed RAM");
	/* keep 10% of the total and 64 MiB for everyone else */
	room = (avail + swap) - (avail + swap) / 10 - (64ll << 20);
	igt_info("MemTotal %lld MiB, MemAvailable %lld MiB, SwapFree %lld MiB",
		 mem >> 20, avail >> 20, swap >> 20);
	if (want > room)
		want = room;
	if (want <= mem)
		igt_skip("swap too small to exceed RAM (room %lld MiB)",
			 room >> 20);
	return (want + OBJ_SIZE - 1) / OBJ_SIZE;
}

static void verify_object(int fd, uint32_t handle, unsigned int i,
			  const unsigned char *src, unsigned char *buf)
{
	uint64_t off;

	for (off = 0; off < OBJ_SIZE; off += CHUNK) {
		gem_read(fd, handle, off, buf, CHUNK);
		igt_assert_mem(buf, src + shift_of(i) + off, CHUNK,
			       "object %u at offset %#llx", i,
			       (unsigned long long)off);
	}
}

/* through a CPU map too: the pages fault back in from swap */
static void verify_object_mmap(int fd, uint32_t handle, unsigned int i,
			       const unsigned char *src)
{
	unsigned char *ptr = gem_mmap__cpu(fd, handle, 0, OBJ_SIZE);

	gem_set_domain(fd, handle, I915_GEM_DOMAIN_CPU, 0);
	igt_assert_mem(ptr, src + shift_of(i), OBJ_SIZE,
		       "object %u through a CPU map", i);
	munmap(ptr, OBJ_SIZE);
}

static double mib_per_s(unsigned int n, double secs)
{
	return secs > 0 ? n * (OBJ_SIZE >> 20) / secs : 0;
}

static void subtest_more_than_ram(void)
{
	unsigned int n = object_count(), i;
	size_t src_size = OBJ_SIZE + SHIFT_SPAN;
	unsigned char *src = malloc(src_size), *buf = malloc(CHUNK);
	uint32_t *handles = calloc(n, sizeof(*handles));
	int fd = drm_open_driver();
	long long swap0 = igt_meminfo_kib("SwapFree");
	double t0;

	igt_assert(src && buf && handles);
	igt_fill_pattern(src, src_size, 0x5eed);
	igt_info("%u objects of %llu MiB: %llu MiB", n, OBJ_SIZE >> 20,
		 n * (OBJ_SIZE >> 20));

	t0 = igt_now();
	for (i = 0; i < n; i++) {
		handles[i] = gem_create(fd, OBJ_SIZE);
		gem_write(fd, handles[i], 0, src + shift_of(i), OBJ_SIZE);
	}
	igt_info("written in %.1f s (%.0f MiB/s), swap used %lld MiB",
		 igt_now() - t0, mib_per_s(n, igt_now() - t0),
		 (swap0 - igt_meminfo_kib("SwapFree")) >> 10);

	t0 = igt_now();
	for (i = 0; i < n; i++)
		verify_object(fd, handles[i], i, src, buf);
	igt_info("read back in %.1f s (%.0f MiB/s)", igt_now() - t0,
		 mib_per_s(n, igt_now() - t0));

	/* the first objects written are the likeliest to be in swap now */
	for (i = 0; i < n && i < 2; i++)
		verify_object_mmap(fd, handles[i], i, src);

	for (i = 0; i < n; i++)
		gem_close(fd, handles[i]);
	close(fd);
	free(handles);
	free(buf);
	free(src);
}

static const struct igt_subtest tests[] = {
	SUBTEST_T(more_than_ram, 590),
};

igt_main(tests)
