// SPDX-License-Identifier: GPL-2.0
/*
 * The subtests gem_pread and gem_pwrite share (see rw.h).
 */
#include <sys/mman.h>
#include <unistd.h>

#include "rw.h"

#define GUARD 64

static const char *const dir_name[] = { "pread", "pwrite" };

void shadow_init(struct shadow *o, enum rw_dir dir)
{
	uint64_t size = 4 * PAGE_SZ + 1;

	o->fd = drm_open_driver();
	o->dir = dir;
	igt_assert_ok(__gem_create(o->fd, &size, &o->handle));
	igt_assert_eq_u64(size, SHADOW_SIZE);
	o->data = malloc(SHADOW_SIZE);
	igt_assert(o->data);
	igt_fill_pattern(o->data, SHADOW_SIZE, dir == RW_READ ? 0xc0 : 0xb0);
	gem_write(o->fd, o->handle, 0, o->data, SHADOW_SIZE);
}

void shadow_check(struct shadow *o, const char *what)
{
	unsigned char *buf = malloc(SHADOW_SIZE);

	igt_assert(buf);
	gem_read(o->fd, o->handle, 0, buf, SHADOW_SIZE);
	igt_assert_mem(buf, o->data, SHADOW_SIZE, "object after %s", what);
	free(buf);
}

void shadow_fini(struct shadow *o)
{
	gem_close(o->fd, o->handle);
	close(o->fd);
	free(o->data);
}

int shadow_rw(struct shadow *o, uint64_t offset, void *buf, uint64_t len)
{
	return __gem_rw(o->fd, o->dir == RW_WRITE, o->handle, offset, buf,
			len);
}

void shadow_rw_check(struct shadow *o, uint64_t off, uint64_t len,
		     unsigned int misalign)
{
	static uint32_t seed;
	size_t total = len + 2 * GUARD + misalign;
	unsigned char *buf = malloc(total), *guard = malloc(total);
	unsigned char *p = buf + GUARD + misalign;
	char what[96];
	int ret;

	igt_assert(buf && guard);
	snprintf(what, sizeof(what), "%s offset %llu length %llu (+%u)",
		 dir_name[o->dir], (unsigned long long)off,
		 (unsigned long long)len, misalign);
	memset(buf, 0xcd, total);
	memset(guard, 0xcd, total);
	if (o->dir == RW_WRITE)
		igt_fill_pattern(p, len, ++seed);
	ret = shadow_rw(o, off, p, len);
	if (ret)
		igt_info("%s", what);
	igt_assert_ok(ret);
	if (o->dir == RW_READ)
		igt_assert_mem(p, o->data + off, len, "%s", what);
	else
		memcpy(o->data + off, p, len);
	igt_assert_mem(buf, guard, GUARD + misalign, "guard before: %s", what);
	igt_assert_mem(p + len, guard, GUARD, "guard after: %s", what);
	shadow_check(o, what);
	free(buf);
	free(guard);
}

/* offsets and lengths that start, end and cross page boundaries */
void rw_offsets_lengths(enum rw_dir dir)
{
	static const uint64_t offsets[] = { 0, 1, 4095, 4096, 4097 };
	static const uint64_t lengths[] = { 1, 3, 4096, 8193 };
	struct shadow o;
	size_t i, j;

	shadow_init(&o, dir);
	for (i = 0; i < ARRAY_SIZE(offsets); i++)
		for (j = 0; j < ARRAY_SIZE(lengths); j++)
			shadow_rw_check(&o, offsets[i], lengths[j], 0);
	shadow_fini(&o);
}

/* up to the last byte: the last byte, the last page, the whole object */
void rw_to_the_end(enum rw_dir dir)
{
	struct shadow o;

	shadow_init(&o, dir);
	shadow_rw_check(&o, SHADOW_SIZE - 1, 1, 0);
	shadow_rw_check(&o, SHADOW_SIZE - PAGE_SZ - 5, PAGE_SZ + 5, 0);
	shadow_rw_check(&o, 0, SHADOW_SIZE, 0);
	shadow_fini(&o);
}

/* the user buffer need not be aligned */
void rw_unaligned_buffer(enum rw_dir dir)
{
	struct shadow o;
	unsigned int k;

	shadow_init(&o, dir);
	for (k = 1; k < 8; k += 3)
		shadow_rw_check(&o, 100 + k, 2 * PAGE_SZ + 5, k);
	shadow_fini(&o);
}

/* size 0 is a no-op, whatever the pointer */
void rw_size_zero(enum rw_dir dir)
{
	unsigned char byte = 0xee;
	struct shadow o;

	shadow_init(&o, dir);
	igt_assert_ok(shadow_rw(&o, 0, &byte, 0));
	igt_assert_eq(byte, 0xee);
	igt_assert_ok(shadow_rw(&o, 7, NULL, 0));
	igt_assert_ok(shadow_rw(&o, SHADOW_SIZE, &byte, 0));
	igt_assert_eq(byte, 0xee);
	shadow_check(&o, "size 0 transfers");
	shadow_fini(&o);
}

/* offset + size beyond the object: EINVAL, buffer and object untouched */
void rw_beyond_object(enum rw_dir dir)
{
	static const struct { uint64_t off, len; } cases[] = {
		{ 0, SHADOW_SIZE + 1 },
		{ 1, SHADOW_SIZE },
		{ SHADOW_SIZE - 1, 2 },
		{ SHADOW_SIZE, 1 },
		{ SHADOW_SIZE + PAGE_SZ, 1 },
		{ 1ull << 32, 1 },
	};
	unsigned char *buf = malloc(SHADOW_SIZE + 1);
	unsigned char *want = malloc(SHADOW_SIZE + 1);
	struct shadow o;
	size_t i;

	igt_assert(buf && want);
	memset(buf, 0x11, SHADOW_SIZE + 1);
	memset(want, 0x11, SHADOW_SIZE + 1);
	shadow_init(&o, dir);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		int ret = shadow_rw(&o, cases[i].off, buf, cases[i].len);

		if (ret != -EINVAL)
			igt_info("offset %#llx size %#llx",
				 (unsigned long long)cases[i].off,
				 (unsigned long long)cases[i].len);
		igt_assert_err(ret, -EINVAL);
	}
	igt_assert_mem(buf, want, SHADOW_SIZE + 1, "buffer of rejected %ss",
		       dir_name[dir]);
	shadow_check(&o, "transfers beyond the object");
	shadow_fini(&o);
	free(buf);
	free(want);
}

/* offset + size wraps around 2^64: EINVAL */
void rw_offset_overflow(enum rw_dir dir)
{
	unsigned char buf[16] = { 0 };
	struct shadow o;

	shadow_init(&o, dir);
	igt_assert_err(shadow_rw(&o, ~0ull - 1, buf, 2), -EINVAL);
	igt_assert_err(shadow_rw(&o, ~0ull, buf, 1), -EINVAL);
	igt_assert_err(shadow_rw(&o, ~0ull - 4, buf, 16), -EINVAL);
	shadow_check(&o, "overflowing offsets");
	shadow_fini(&o);
}

/*
 * A size so large that [buf, buf + size) is no valid user memory:
 * upstream checks access_ok() before the bounds, so EFAULT.
 */
void rw_size_overflow(enum rw_dir dir)
{
	unsigned char buf[16] = { 0 };
	struct shadow o;

	shadow_init(&o, dir);
	igt_assert_err(shadow_rw(&o, 0, buf, ~0ull), -EFAULT);
	igt_assert_err(shadow_rw(&o, 4096, buf, 1ull << 63), -EFAULT);
	shadow_check(&o, "overflowing sizes");
	shadow_fini(&o);
}

void rw_bad_handle(enum rw_dir dir)
{
	unsigned char buf[16] = { 0 };
	int fd = drm_open_driver();

	igt_assert_err(__gem_rw(fd, dir == RW_WRITE, 0, 0, buf, 1), -ENOENT);
	igt_assert_err(__gem_rw(fd, dir == RW_WRITE, 0xdeadbeef, 0, buf, 16),
		       -ENOENT);
	close(fd);
}

/* a user buffer the kernel cannot touch: EFAULT, the object unchanged */
void rw_bad_pointer(enum rw_dir dir)
{
	struct shadow o;

	shadow_init(&o, dir);
	igt_assert_err(shadow_rw(&o, 0, NULL, PAGE_SZ), -EFAULT);
	shadow_check(&o, "NULL");
	igt_assert_err(shadow_rw(&o, 1, (void *)(uintptr_t)8, 3 * PAGE_SZ),
		       -EFAULT);
	shadow_check(&o, "address 8");
#if UINTPTR_MAX > 0xffffffffu
	igt_assert_err(shadow_rw(&o, 0, (void *)0xffff888000000000ull, 64),
		       -EFAULT);
	shadow_check(&o, "a kernel address");
#endif
	shadow_fini(&o);
}

/*
 * A user buffer whose first page is mapped and second is not: EFAULT,
 * and not even the first page reaches the object; the mapped page
 * alone still works.
 */
void rw_partly_unmapped(enum rw_dir dir)
{
	static const struct { uint64_t off, at; } cases[] = {
		{ 0, 0 }, { 3, 5 }, { 2 * PAGE_SZ + 100, 100 },
	};
	unsigned char *buf = mmap(NULL, 2 * PAGE_SZ, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct shadow o;
	size_t i;

	igt_assert(buf != MAP_FAILED);
	igt_fill_pattern(buf, 2 * PAGE_SZ, 7);
	igt_assert_eq(munmap(buf + PAGE_SZ, PAGE_SZ), 0);
	shadow_init(&o, dir);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		igt_assert_err(shadow_rw(&o, cases[i].off, buf + cases[i].at,
					 2 * PAGE_SZ), -EFAULT);
		shadow_check(&o, "a transfer across an unmapped page");
	}

	igt_assert_ok(shadow_rw(&o, PAGE_SZ, buf, PAGE_SZ));
	if (dir == RW_READ)
		igt_assert_mem(buf, o.data + PAGE_SZ, PAGE_SZ,
			       "the mapped page");
	else
		memcpy(o.data + PAGE_SZ, buf, PAGE_SZ);
	shadow_check(&o, "a transfer of the mapped page");
	shadow_fini(&o);
	munmap(buf, PAGE_SZ);
}

/* the same with a PROT_NONE page in the middle of the buffer */
void rw_prot_none_hole(enum rw_dir dir)
{
	unsigned char *buf = mmap(NULL, 3 * PAGE_SZ, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct shadow o;

	igt_assert(buf != MAP_FAILED);
	igt_fill_pattern(buf, 3 * PAGE_SZ, 8);
	igt_assert_eq(mprotect(buf + PAGE_SZ, PAGE_SZ, PROT_NONE), 0);
	shadow_init(&o, dir);
	igt_assert_err(shadow_rw(&o, 10, buf, 3 * PAGE_SZ), -EFAULT);
	shadow_check(&o, "a transfer across a PROT_NONE page");
	shadow_fini(&o);
	munmap(buf, 3 * PAGE_SZ);
}
