// SPDX-License-Identifier: GPL-2.0
/*
 * gem_fence_unload: a fence that left the driver keeps the module.
 *
 * A request's fence can outlive every DRM file: as a FENCE_OUT sync_file,
 * or taken from an exported object's dma_resv
 * (DMA_BUF_IOCTL_EXPORT_SYNC_FILE), whether the object was exported
 * before or after the request.  The fence's ops are module code, so:
 * with such a sync_file open and every DRM file (and dma-buf) closed,
 * rmmod is refused with EAGAIN; SYNC_IOC_FILE_INFO on the sync_file still
 * answers (signalled, named by the driver); once it is closed rmmod
 * works.  The module is loaded again as the runner loaded it (I915_KO and
 * I915_ARGS from /etc/bench.conf; the simulated GPUs of i915_sim.ko stay
 * and are bound again), so the program leaves it as it found it.
 */
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <linux/dma-buf.h>
#include <linux/sync_file.h>

#include "exec.h"
#include "modules.h"

/* Every DRM file and dma-buf is closed: rmmod must wait for @sync_fd. */
static void unload_with(int sync_fd)
{
	struct sync_file_info info;
	double t0;
	int ret;

	ret = module_unload("i915");
	igt_assert_f(ret == -EAGAIN,
		     "rmmod with a sync_file open: %s (EAGAIN expected)",
		     ret ? strerror(-ret) : "succeeded");
	igt_assert(module_loaded("i915"));

	memset(&info, 0, sizeof(info));
	igt_assert_ok(igt_ioctl(sync_fd, SYNC_IOC_FILE_INFO, &info));
	igt_info("sync_file \"%s\": status %d, %u fences", info.name,
		 info.status, info.num_fences);
	igt_assert_eq(info.status, 1);
	igt_assert(!strncmp(info.name, "i915", 4));
	close(sync_fd);

	/* the last reference goes from a work item: give it a moment */
	t0 = igt_now();
	while ((ret = module_unload("i915")) == -EAGAIN && igt_now() - t0 < 10)
		igt_sleep_ms(10);
	igt_assert_f(!ret, "rmmod after the sync_file closed: %s",
		     strerror(-ret));
	igt_info("unloaded %.3f s after the sync_file closed",
		 igt_now() - t0);
	igt_assert_ok(module_load_missing());
}

/* an object holding the store's target, and the batch storing into it */
static void exec_store(int fd, uint32_t target, uint64_t flags,
		       uint64_t *rsvd2)
{
	uint32_t cs[16], addr_at, n;
	struct drm_i915_gem_relocation_entry reloc = {
		.target_handle = target,
		.read_domains = I915_GEM_DOMAIN_RENDER,
		.write_domain = I915_GEM_DOMAIN_RENDER,
		.presumed_offset = ~0ull,
	};
	struct drm_i915_gem_exec_object2 obj[2] = {
		{ .handle = target },
		{ .handle = gem_create(fd, PAGE_SZ), .relocation_count = 1,
		  .relocs_ptr = to_user_pointer(&reloc) },
	};
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(obj),
		.buffer_count = 2,
		.flags = flags,
	};

	n = cs_end(cs, cs_store_dword(gem_gen(fd), cs, 0, 0xdeadf00d,
				      &addr_at));
	reloc.offset = 4 * addr_at;
	gem_write(fd, obj[1].handle, 0, cs, 4 * n);
	eb.batch_len = 4 * n;
	igt_assert_ok(__gem_execbuf_wr(fd, &eb));
	if (rsvd2)
		*rsvd2 = eb.rsvd2;
	gem_close(fd, obj[1].handle);
}

static void subtest_fence_out(void)
{
	int fd, render, sync_fd;
	uint64_t rsvd2 = 0;
	uint32_t target;

	module_require_driver();
	fd = drm_open_driver();
	render = drm_open_driver_render();
	target = gem_create(render, PAGE_SZ);
	exec_store(render, target, I915_EXEC_FENCE_OUT, &rsvd2);
	sync_fd = rsvd2 >> 32;
	igt_assert_lte(0, sync_fd);
	gem_sync(render, target);
	close(render);
	close(fd);
	unload_with(sync_fd);
}

/* the fence of a request on an exported object, through the dma-buf */
static void dmabuf_fence(bool export_first)
{
	struct drm_prime_handle prime = { .flags = DRM_CLOEXEC };
	struct dma_buf_export_sync_file ex = { .flags = DMA_BUF_SYNC_RW };
	int fd;

	module_require_driver();
	/*
	 * A signalled fence is not exported (the dma-buf hands out a stub
	 * of the core's then): the batch must still be running.
	 */
	sim_set_cmd_delay(20000);
	fd = drm_open_driver();
	prime.handle = gem_create(fd, PAGE_SZ);
	if (export_first)
		igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD,
					&prime));
	exec_store(fd, prime.handle, 0, NULL);
	if (!export_first)
		igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD,
					&prime));
	igt_assert_ok(igt_ioctl(prime.fd, DMA_BUF_IOCTL_EXPORT_SYNC_FILE,
				&ex));
	igt_assert(gem_busy(fd, prime.handle));
	gem_sync(fd, prime.handle);
	close(prime.fd);
	close(fd);
	unload_with(ex.fd);
}

static void subtest_dmabuf_exported_before(void)
{
	dmabuf_fence(true);
}

static void subtest_dmabuf_exported_after(void)
{
	dmabuf_fence(false);
}

static const struct igt_subtest tests[] = {
	SUBTEST(fence_out),
	SUBTEST(dmabuf_exported_before),
	SUBTEST(dmabuf_exported_after),
};

igt_main(tests)
