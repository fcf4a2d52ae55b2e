// SPDX-License-Identifier: GPL-2.0
/*
 * gem_prime_mmap: mmap() of a dma-buf this driver exported, and
 * DMA_BUF_IOCTL_SYNC around CPU access through it, as upstream i915 6.1
 * answers them (igt's prime_mmap and gem_concurrent_blit's dmabuf mode):
 *
 *  - gpu_to_cpu: what the GPU wrote (MI_STORE_DWORD) reads back through
 *    the dma-buf's mapping after SYNC_START(READ), and what the CPU wrote
 *    through it after SYNC_START(WRITE)..SYNC_END reads back with pread;
 *  - outlives: the mapping stays valid once the handle and the dma-buf fd
 *    are closed, and the object goes with munmap (the harness counts);
 *  - bad: a mapping larger than the object is EINVAL, bad SYNC flags
 *    EINVAL.
 */
#include <fcntl.h>
#include <linux/dma-buf.h>
#include <sys/mman.h>
#include <unistd.h>

#include "exec.h"

#define OBJ_SIZE	(16 * 1024)

static int prime_export(int fd, uint32_t handle)
{
	struct drm_prime_handle args = {
		.handle = handle,
		.flags = DRM_CLOEXEC | DRM_RDWR,
		.fd = -1,
	};

	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &args));
	return args.fd;
}

static int dmabuf_sync(int dmabuf, uint64_t flags)
{
	struct dma_buf_sync arg = { .flags = flags };

	return igt_ioctl(dmabuf, DMA_BUF_IOCTL_SYNC, &arg) ? -errno : 0;
}

static uint32_t *dmabuf_mmap(int dmabuf, size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
		       dmabuf, 0);

	igt_assert_f(p != MAP_FAILED, "mmap of the dma-buf: errno %d", errno);
	return p;
}

static void gpu_write(int fd, struct bo *bo, uint32_t offset, uint32_t value)
{
	struct batch *b = batch_new(fd);

	emit_store_dword(b, bo, offset, value);
	batch_submit_sync(b);
	batch_free(b);
}

static void subtest_gpu_to_cpu(void)
{
	int fd = drm_open_driver(), dmabuf;
	uint32_t *map, v;
	struct bo bo;

	bo_init(&bo, fd, OBJ_SIZE);
	dmabuf = prime_export(fd, bo.handle);
	map = dmabuf_mmap(dmabuf, OBJ_SIZE);

	gpu_write(fd, &bo, 4096 + 8, 0xc0ffee01);
	igt_assert_ok(dmabuf_sync(dmabuf, DMA_BUF_SYNC_START |
					  DMA_BUF_SYNC_READ));
	igt_assert_eq(map[(4096 + 8) / 4], 0xc0ffee01);
	igt_assert_ok(dmabuf_sync(dmabuf, DMA_BUF_SYNC_END |
					  DMA_BUF_SYNC_READ));

	igt_assert_ok(dmabuf_sync(dmabuf, DMA_BUF_SYNC_START |
					  DMA_BUF_SYNC_RW));
	map[OBJ_SIZE / 4 - 1] = 0x600dcafe;
	igt_assert_ok(dmabuf_sync(dmabuf, DMA_BUF_SYNC_END |
					  DMA_BUF_SYNC_RW));
	gem_read(fd, bo.handle, OBJ_SIZE - 4, &v, sizeof(v));
	igt_assert_eq(v, 0x600dcafe);

	munmap(map, OBJ_SIZE);
	close(dmabuf);
	bo_fini(&bo, fd);
	close(fd);
}

static void subtest_outlives(void)
{
	int fd = drm_open_driver(), dmabuf;
	uint32_t handle = gem_create(fd, OBJ_SIZE), *map;
	uint32_t v = 0x12345678;

	gem_write(fd, handle, 256, &v, sizeof(v));
	dmabuf = prime_export(fd, handle);
	map = dmabuf_mmap(dmabuf, OBJ_SIZE);
	gem_close(fd, handle);
	close(dmabuf);
	close(fd);
	igt_assert_eq(map[64], 0x12345678);
	map[65] = 1;
	munmap(map, OBJ_SIZE);
}

static void subtest_bad(void)
{
	int fd = drm_open_driver(), dmabuf;
	uint32_t handle = gem_create(fd, OBJ_SIZE);
	void *p;

	dmabuf = prime_export(fd, handle);
	p = mmap(NULL, 2 * OBJ_SIZE, PROT_READ, MAP_SHARED, dmabuf, 0);
	igt_assert(p == MAP_FAILED);
	igt_assert_eq(errno, EINVAL);
	igt_assert_err(dmabuf_sync(dmabuf, DMA_BUF_SYNC_START), -EINVAL);
	igt_assert_err(dmabuf_sync(dmabuf, ~0ull), -EINVAL);
	close(dmabuf);
	gem_close(fd, handle);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(gpu_to_cpu),
	SUBTEST(outlives),
	SUBTEST(bad),
};

igt_main(tests)
