// SPDX-License-Identifier: GPL-2.0
/*
 * gem_userptr: objects on the caller's own memory (USERPTR), as upstream
 * 6.1 answers on Gen3/Gen4.
 *
 *  - blit: the blitter copies from a malloc'ed buffer into an object and
 *    back into the buffer, read by the CPU straight from the buffer;
 *  - probe: GETPARAM HAS_USERPTR_PROBE, PROBE on a mapped range and on one
 *    with a hole (EFAULT at once; without PROBE, at the first exec);
 *  - bad: every bad field (flags, size, alignment, address) and what a
 *    userptr object refuses (READ_ONLY, UNSYNCHRONIZED, pread, pwrite,
 *    CPU mmap, caching changes, PRIME export) with upstream's errno;
 *  - munmap_bound: the range unmapped while the object is bound: the next
 *    exec is EFAULT; memory mapped again there is what the next exec uses;
 *  - munmap_busy: munmap() while a slow batch writes the buffer returns
 *    only once the GPU is done, and the object is then idle;
 *  - fork: a child that inherited the file cannot use the parent's
 *    object (EFAULT), and the parent's pages are still its own after
 *    the fork (copy-on-write);
 *  - set_domain: SET_DOMAIN pins the pages (EFAULT without them).
 */
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <unistd.h>

#include "exec.h"

#define W		256	/* pixels of 4 bytes: one page per row */
#define H		16
#define SIZE		((uint64_t)W * 4 * H)

static int __userptr(int fd, void *ptr, uint64_t size, uint32_t flags,
		     uint32_t *handle)
{
	struct drm_i915_gem_userptr arg = {
		.user_ptr = to_user_pointer(ptr),
		.user_size = size,
		.flags = flags,
	};
	int ret;

	ret = igt_ioctl(fd, DRM_IOCTL_I915_GEM_USERPTR, &arg);
	if (!ret)
		*handle = arg.handle;
	return ret;
}

static uint32_t userptr(int fd, void *ptr, uint64_t size)
{
	uint32_t handle = 0;

	igt_assert_ok(__userptr(fd, ptr, size, 0, &handle));
	return handle;
}

/* the driver, with USERPTR (a kernel without MMU notifiers has none) */
static int open_userptr(void)
{
	int fd = drm_open_driver();
	uint32_t handle;
	void *p;
	int ret;

	igt_assert_eq(posix_memalign(&p, PAGE_SZ, PAGE_SZ), 0);
	ret = __userptr(fd, p, PAGE_SZ, 0, &handle);
	if (ret == -ENODEV)
		igt_skip("no USERPTR (kernel without CONFIG_MMU_NOTIFIER)");
	igt_assert_ok(ret);
	gem_close(fd, handle);
	free(p);
	return fd;
}

static void *map_anon(uint64_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	igt_assert(p != MAP_FAILED);
	return p;
}

static void subtest_blit(void)
{
	int fd = open_userptr();
	struct bo up = { .size = SIZE }, bo;
	long long objects, bytes;
	uint32_t *mem, *buf;

	/* no object of an earlier client still on its way out */
	gem_quiescent_gpu(fd);
	igt_gem_objects(fd, &objects, &bytes);
	igt_assert_eq(posix_memalign((void **)&mem, PAGE_SZ, SIZE), 0);
	pattern_fill(mem, SIZE, 1);
	up.handle = userptr(fd, mem, SIZE);
	igt_assert_eq_u64(gem_get_caching(fd, up.handle), I915_CACHING_CACHED);
	bo_init(&bo, fd, SIZE);

	/* the user's bytes, read by the GPU */
	igt_assert_ok(blit_linear32(fd, &bo, &up, W, H));
	pattern_check_object(fd, bo.handle, SIZE, 1, "copy of the user buffer");

	/* the GPU's bytes, read by the CPU from the buffer itself */
	buf = malloc(SIZE);
	igt_assert(buf);
	pattern_fill(buf, SIZE, 2);
	gem_write(fd, bo.handle, 0, buf, SIZE);
	igt_assert_ok(blit_linear32(fd, &up, &bo, W, H));
	gem_set_domain(fd, up.handle, I915_GEM_DOMAIN_CPU, 0);
	pattern_check(mem, SIZE, 2, "user buffer written by the blitter");

	/* the CPU writes the buffer again: the GPU sees it (snooped) */
	pattern_fill(mem, SIZE, 3);
	igt_assert_ok(blit_linear32(fd, &bo, &up, W, H));
	pattern_check_object(fd, bo.handle, SIZE, 3,
			     "copy of the rewritten buffer");

	gem_close(fd, up.handle);
	bo_fini(&bo, fd);
	igt_assert_eq(gem_wait_object_count(fd, objects), objects);
	free(buf);
	free(mem);
	close(fd);
}

/* an exec of a batch that does nothing, with @handle listed; 0 or -errno */
static int exec_with(int fd, uint32_t handle)
{
	struct drm_i915_gem_exec_object2 obj[2] = { };
	struct drm_i915_gem_execbuffer2 eb = { };
	int ret;

	obj[0].handle = handle;
	obj[1].handle = bbe_create(fd, 0);
	eb.buffers_ptr = to_user_pointer(obj);
	eb.buffer_count = 2;
	ret = __gem_execbuf(fd, &eb);
	gem_close(fd, obj[1].handle);
	return ret;
}

static void subtest_probe(void)
{
	int fd = open_userptr();
	uint32_t handle = 0, bo;
	uint64_t off;
	char *p;

	igt_assert_eq(gem_getparam(fd, I915_PARAM_HAS_USERPTR_PROBE), 1);

	p = map_anon(3 * PAGE_SZ);
	igt_assert_ok(__userptr(fd, p, 3 * PAGE_SZ, I915_USERPTR_PROBE,
				&handle));
	gem_close(fd, handle);

	/* a hole in the middle */
	igt_assert_eq(munmap(p + PAGE_SZ, PAGE_SZ), 0);
	igt_assert_eq(__userptr(fd, p, 3 * PAGE_SZ, I915_USERPTR_PROBE,
				&handle), -EFAULT);
	igt_assert_ok(__userptr(fd, p + 2 * PAGE_SZ, PAGE_SZ,
				I915_USERPTR_PROBE, &handle));
	igt_assert_ok(exec_with(fd, handle));
	gem_close(fd, handle);

	/* without PROBE the hole is found by the first use */
	handle = userptr(fd, p, 3 * PAGE_SZ);
	igt_assert_eq(exec_with(fd, handle), -EFAULT);
	igt_assert_eq(__gem_set_domain(fd, handle, I915_GEM_DOMAIN_CPU, 0),
		      -EFAULT);
	gem_close(fd, handle);

	/*
	 * A GEM object's CPU mapping in the hole (igt's probe test): its
	 * pages cannot be pinned (VM_IO; upstream's are VM_PFNMAP), EFAULT
	 */
	bo = gem_create(fd, PAGE_SZ);
	igt_assert_ok(__gem_mmap_offset(fd, bo, I915_MMAP_OFFSET_WB, &off));
	igt_assert(mmap(p + PAGE_SZ, PAGE_SZ, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_FIXED, fd, off) == p + PAGE_SZ);
	igt_assert_eq(__userptr(fd, p, 3 * PAGE_SZ, I915_USERPTR_PROBE,
				&handle), -EFAULT);
	igt_assert_eq(__userptr(fd, p + PAGE_SZ, PAGE_SZ, I915_USERPTR_PROBE,
				&handle), -EFAULT);
	munmap(p, 3 * PAGE_SZ);
	gem_close(fd, bo);
	close(fd);
}

static void subtest_bad(void)
{
	int fd = open_userptr();
	struct drm_prime_handle prime = { .flags = DRM_CLOEXEC };
	long long objects, bytes;
	uint32_t handle = 0, caching, word = 0;
	char *p = map_anon(2 * PAGE_SZ);
	void *ptr;

	/* no object of an earlier client still on its way out */
	gem_quiescent_gpu(fd);
	igt_gem_objects(fd, &objects, &bytes);
	/* flags */
	igt_assert_eq(__userptr(fd, p, PAGE_SZ, 0x4, &handle), -EINVAL);
	igt_assert_eq(__userptr(fd, p, PAGE_SZ, 0x10, &handle), -EINVAL);
	igt_assert_eq(__userptr(fd, p, PAGE_SZ, I915_USERPTR_READ_ONLY,
				&handle), -ENODEV);
	igt_assert_eq(__userptr(fd, p, PAGE_SZ, I915_USERPTR_UNSYNCHRONIZED,
				&handle), -ENODEV);
	/* sizes and addresses */
	igt_assert_eq(__userptr(fd, p, 0, 0, &handle), -EINVAL);
	igt_assert_eq(__userptr(fd, p, 100, 0, &handle), -EINVAL);
	igt_assert_eq(__userptr(fd, p + 8, PAGE_SZ, 0, &handle), -EINVAL);
	igt_assert_eq(__userptr(fd, (void *)(uintptr_t)0xffff800000000000ull,
				PAGE_SZ, 0, &handle), -EFAULT);
	igt_assert_eq(__userptr(fd, p, 1ull << 62, 0, &handle), -EFAULT);
	/* inside the address space, but more than INT_MAX pages */
	igt_assert_eq(__userptr(fd, (void *)(uintptr_t)(1ull << 32), 1ull << 44, 0,
				&handle), -E2BIG);
	/* the kernel's order: unknown flags before a bad size */
	igt_assert_eq(__userptr(fd, p, 0, 0x4, &handle), -EINVAL);
	igt_assert_eq(__userptr(fd, (void *)(uintptr_t)0xffff800000000000ull,
				PAGE_SZ, I915_USERPTR_READ_ONLY, &handle),
		      -EFAULT);

	/* what a userptr object refuses */
	handle = userptr(fd, p, 2 * PAGE_SZ);
	igt_assert_eq(__gem_read(fd, handle, 0, &word, sizeof(word)),
		      -EINVAL);
	igt_assert_eq(__gem_write(fd, handle, 0, &word, sizeof(word)),
		      -EINVAL);
	igt_assert_eq(__gem_mmap(fd, handle, 0, PAGE_SZ, 0, &ptr), -ENXIO);
	igt_assert_eq(__gem_set_caching(fd, handle, I915_CACHING_NONE),
		      -ENXIO);
	igt_assert_eq(__gem_set_caching(fd, handle, I915_CACHING_DISPLAY),
		      -ENXIO);
	igt_assert_ok(__gem_set_caching(fd, handle, I915_CACHING_CACHED));
	igt_assert_ok(__gem_get_caching(fd, handle, &caching));
	igt_assert_eq_u64(caching, I915_CACHING_CACHED);
	prime.handle = handle;
	igt_assert_eq(igt_ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &prime),
		      -EINVAL);
	/* and what it still does */
	igt_assert_ok(exec_with(fd, handle));
	gem_set_domain(fd, handle, I915_GEM_DOMAIN_CPU, I915_GEM_DOMAIN_CPU);
	gem_close(fd, handle);

	igt_assert_eq(gem_wait_object_count(fd, objects), objects);
	munmap(p, 2 * PAGE_SZ);
	close(fd);
}

static void subtest_munmap_bound(void)
{
	int fd = open_userptr();
	struct bo up = { .size = SIZE }, bo;
	uint32_t *mem, *again;

	mem = map_anon(SIZE);
	pattern_fill(mem, SIZE, 4);
	up.handle = userptr(fd, mem, SIZE);
	bo_init(&bo, fd, SIZE);
	igt_assert_ok(blit_linear32(fd, &bo, &up, W, H));
	pattern_check_object(fd, bo.handle, SIZE, 4, "copy of the user buffer");

	/* bound and idle: unmapped, the next use finds no pages */
	igt_assert_eq(munmap(mem, SIZE), 0);
	igt_assert_eq(blit_linear32(fd, &bo, &up, W, H), -EFAULT);
	igt_assert_eq(blit_linear32(fd, &up, &bo, W, H), -EFAULT);

	/* new memory at the same address is what the object is now */
	again = mmap(mem, SIZE, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	igt_assert(again == mem);
	pattern_fill(again, SIZE, 5);
	igt_assert_ok(blit_linear32(fd, &bo, &up, W, H));
	pattern_check_object(fd, bo.handle, SIZE, 5, "copy of the new memory");
	gem_write(fd, bo.handle, 0, mem, SIZE);
	pattern_fill(again, SIZE, 6);
	igt_assert_ok(blit_linear32(fd, &bo, &up, W, H));
	pattern_check_object(fd, bo.handle, SIZE, 6,
			     "copy after the CPU wrote again");

	gem_close(fd, up.handle);
	bo_fini(&bo, fd);
	munmap(again, SIZE);
	close(fd);
}

static uint64_t now_ms(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (uint64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

static void subtest_munmap_busy(void)
{
	int fd = open_userptr();
	struct bo up = { .size = SIZE }, bo;
	struct batch *b;
	struct surf sd, ss;
	uint64_t t0, t;
	uint32_t *mem;
	unsigned int i;

	if (!sim_has_cmd_delay())
		igt_skip("no cmd_delay_us in the model");
	mem = map_anon(SIZE);
	up.handle = userptr(fd, mem, SIZE);
	bo_init(&bo, fd, SIZE);

	/* ~1.5 s of NOOPs, then the blitter writes the user buffer */
	sim_set_cmd_delay(1000);
	b = batch_new(fd);
	for (i = 0; i < 1500; i++)
		batch_emit(b, MI_NOOP);
	surf_linear32(&sd, &up, W, H);
	surf_linear32(&ss, &bo, W, H);
	emit_xy_copy(b, &sd, 0, 0, &ss, 0, 0, W, H);
	t0 = now_ms();
	batch_submit(b);
	igt_assert(gem_busy(fd, up.handle));

	/* munmap waits for the GPU: the object is idle when it returns */
	igt_assert_eq(munmap(mem, SIZE), 0);
	t = now_ms() - t0;
	igt_info("munmap returned after %" PRIu64 " ms", t);
	igt_assert_eq_u64(gem_busy(fd, up.handle), 0);
	igt_assert(t >= 500);
	sim_set_cmd_delay(0);

	igt_assert_eq(exec_with(fd, up.handle), -EFAULT);
	gem_close(fd, up.handle);
	bo_fini(&bo, fd);
	batch_free(b);
	close(fd);
}

struct fork_arg {
	int fd;
	uint32_t handle;
	uint32_t *mem;
};

static int child_uses_parents(void *data)
{
	struct fork_arg *a = data;

	igt_assert_eq(exec_with(a->fd, a->handle), -EFAULT);
	igt_assert_eq(__gem_set_domain(a->fd, a->handle, I915_GEM_DOMAIN_CPU,
				       0), -EFAULT);
	/* the child's own copy of the buffer, written */
	pattern_fill(a->mem, SIZE, 8);
	return 0;
}

static void subtest_fork(void)
{
	int fd = open_userptr();
	struct bo up = { .size = SIZE }, bo;
	struct fork_arg a = { .fd = fd };
	uint32_t *mem;

	mem = map_anon(SIZE);
	pattern_fill(mem, SIZE, 7);
	up.handle = userptr(fd, mem, SIZE);
	bo_init(&bo, fd, SIZE);
	igt_assert_ok(blit_linear32(fd, &bo, &up, W, H));

	a.handle = up.handle;
	a.mem = mem;
	igt_fork_and_check(child_uses_parents, &a);

	/* the parent's pages are its own: its bytes, not the child's */
	pattern_check(mem, SIZE, 7, "parent's buffer after the fork");
	igt_assert_ok(blit_linear32(fd, &bo, &up, W, H));
	pattern_check_object(fd, bo.handle, SIZE, 7,
			     "copy of the parent's buffer");
	pattern_fill(mem, SIZE, 9);
	igt_assert_ok(blit_linear32(fd, &bo, &up, W, H));
	pattern_check_object(fd, bo.handle, SIZE, 9,
			     "copy after the parent wrote");

	gem_close(fd, up.handle);
	bo_fini(&bo, fd);
	munmap(mem, SIZE);
	close(fd);
}

static void subtest_set_domain(void)
{
	int fd = open_userptr();
	uint32_t handle;
	char *p = map_anon(PAGE_SZ);

	handle = userptr(fd, p, PAGE_SZ);
	gem_set_domain(fd, handle, I915_GEM_DOMAIN_GTT, I915_GEM_DOMAIN_GTT);
	gem_set_domain(fd, handle, I915_GEM_DOMAIN_CPU, 0);
	igt_assert_eq(munmap(p, PAGE_SZ), 0);
	igt_assert_eq(__gem_set_domain(fd, handle, I915_GEM_DOMAIN_CPU, 0),
		      -EFAULT);
	gem_close(fd, handle);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(blit),
	SUBTEST(probe),
	SUBTEST(bad),
	SUBTEST(munmap_bound),
	SUBTEST_T(munmap_busy, 60),
	SUBTEST(fork),
	SUBTEST(set_domain),
};

igt_main(tests)
