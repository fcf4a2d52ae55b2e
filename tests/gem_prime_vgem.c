// SPDX-License-Identifier: GPL-2.0
/*
 * gem_prime_vgem: another driver's buffers (vgem's) imported by
 * PRIME_FD_TO_HANDLE, as upstream's i915_gem_prime_import() does.
 *
 *  - blit: a vgem buffer, written through vgem's mmap, imported; the
 *    blitter copies it into an object of ours and back from one, read
 *    through vgem's mmap; pread and pwrite of the imported object; the
 *    CPU mmap ioctl refuses it (ENXIO), and so does a relocation to patch
 *    in it (ENODEV); importing the same dma-buf again
 *    gives the same handle, and our own dma-buf gives back our object;
 *    every object is gone after the closes;
 *  - fence: vgem's unsignalled write fence (VGEM_FENCE_ATTACH) holds back
 *    an exec that writes the imported buffer until VGEM_FENCE_SIGNAL; a
 *    read fence holds back a writer but not a reader;
 *  - our_fence: our batch writing the imported buffer is in the
 *    dma-buf's reservation: poll() on the dma-buf says busy until the
 *    batch is done, and then vgem's mmap shows what it wrote;
 *  - gtt_mmap: MMAP_GTT of the imported buffer maps it through the
 *    aperture, as upstream's: our writes through it are read through
 *    vgem's mmap and vgem's writes through it (igt's prime_vgem basic-gtt);
 *    a WB or WC offset of it is ENODEV, as upstream's.
 *
 * Needs vgem (scripts/vm/run.sh --kmod vgem); skips without it.
 */
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <drm/drm_mode.h>
#include <drm/vgem_drm.h>

#include "exec.h"

#define W		256	/* pixels of 4 bytes: one page per row */
#define H		16
#define SIZE		((uint64_t)W * 4 * H)

struct vbo {
	int vfd;
	uint32_t handle;
	uint32_t pitch;
	uint64_t size;
	uint32_t *map;
};

static int open_vgem(void)
{
	int vfd = drm_open_named("vgem");

	if (vfd < 0)
		igt_skip("no vgem (run.sh --kmod vgem)");
	return vfd;
}

static void vbo_create(struct vbo *v, int vfd)
{
	struct drm_mode_create_dumb create = {
		.width = W, .height = H, .bpp = 32,
	};
	struct drm_mode_map_dumb map = { };

	igt_assert_ok(igt_ioctl(vfd, DRM_IOCTL_MODE_CREATE_DUMB, &create));
	igt_assert_eq(create.pitch, W * 4);
	igt_assert(create.size >= SIZE);
	v->vfd = vfd;
	v->handle = create.handle;
	v->pitch = create.pitch;
	v->size = create.size;
	map.handle = v->handle;
	igt_assert_ok(igt_ioctl(vfd, DRM_IOCTL_MODE_MAP_DUMB, &map));
	v->map = mmap(NULL, v->size, PROT_READ | PROT_WRITE, MAP_SHARED, vfd,
		      map.offset);
	igt_assert(v->map != MAP_FAILED);
}

static void vbo_destroy(struct vbo *v)
{
	munmap(v->map, v->size);
	gem_close(v->vfd, v->handle);
}

static int prime_export(int fd, uint32_t handle)
{
	struct drm_prime_handle args = {
		.handle = handle,
		.flags = DRM_CLOEXEC | DRM_RDWR,
	};

	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &args));
	return args.fd;
}

static uint32_t prime_import(int fd, int dmabuf)
{
	struct drm_prime_handle args = { .fd = dmabuf };

	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &args));
	return args.handle;
}

/* an exec of @batch, whose first dword gets @target's address; -errno */
static int reloc_in(int fd, struct bo *batch, struct bo *target)
{
	struct drm_i915_gem_relocation_entry reloc = {
		.target_handle = target->handle,
		.presumed_offset = ~0ull,
		.read_domains = I915_GEM_DOMAIN_RENDER,
	};
	struct drm_i915_gem_exec_object2 obj[2] = {
		{ .handle = target->handle },
		{ .handle = batch->handle, .relocation_count = 1,
		  .relocs_ptr = to_user_pointer(&reloc) },
	};
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(obj),
		.buffer_count = 2,
		.batch_start_offset = 8,
		.batch_len = 8,
	};

	return __gem_execbuf(fd, &eb);
}

static void subtest_blit(void)
{
	int vfd = open_vgem(), fd = drm_open_driver(), fd2, dmabuf, own;
	long long objects, bytes;
	struct bo imp = { }, bo;
	struct vbo v;
	uint32_t *buf;
	void *ptr;

	gem_quiescent_gpu(fd);
	igt_gem_objects(fd, &objects, &bytes);
	vbo_create(&v, vfd);
	pattern_fill(v.map, SIZE, 1);
	dmabuf = prime_export(vfd, v.handle);
	imp.handle = prime_import(fd, dmabuf);
	imp.size = v.size;
	igt_assert_eq(prime_import(fd, dmabuf), imp.handle);
	bo_init(&bo, fd, SIZE);

	/* vgem's bytes, read by our GPU */
	igt_assert_ok(blit_linear32(fd, &bo, &imp, W, H));
	pattern_check_object(fd, bo.handle, SIZE, 1, "copy of the vgem buffer");

	/* our GPU's bytes, read through vgem's mmap */
	buf = malloc(SIZE);
	igt_assert(buf);
	pattern_fill(buf, SIZE, 2);
	gem_write(fd, bo.handle, 0, buf, SIZE);
	igt_assert_ok(blit_linear32(fd, &imp, &bo, W, H));
	gem_sync(fd, imp.handle);
	pattern_check(v.map, SIZE, 2, "vgem buffer written by the blitter");

	/* pread and pwrite of the imported object */
	pattern_check_object(fd, imp.handle, SIZE, 2,
			     "pread of the imported object");
	pattern_fill(buf, SIZE, 3);
	gem_write(fd, imp.handle, 0, buf, SIZE);
	pattern_check(v.map, SIZE, 3, "vgem buffer after pwrite");
	igt_assert_eq(__gem_mmap(fd, imp.handle, 0, PAGE_SZ, 0, &ptr),
		      -ENXIO);
	/* a relocation to patch in it: no pages of ours to write through */
	igt_assert_eq(reloc_in(fd, &imp, &bo), -ENODEV);
	pattern_check(v.map, SIZE, 3,
		      "vgem buffer after the refused relocation");

	/* our own dma-buf, imported by another file: our object */
	own = prime_export(fd, bo.handle);
	igt_assert_eq(prime_import(fd, own), bo.handle);
	fd2 = drm_open_driver();
	pattern_check_object(fd2, prime_import(fd2, own), SIZE, 2,
			     "our object imported by another file");
	close(fd2);
	close(own);

	close(dmabuf);
	gem_close(fd, imp.handle);
	bo_fini(&bo, fd);
	igt_assert_eq(gem_wait_object_count(fd, objects), objects);
	vbo_destroy(&v);
	free(buf);
	close(fd);
	close(vfd);
}

struct child {
	int fd;
	struct bo *dst, *src;
};

static int child_blit(void *data)
{
	struct child *c = data;

	igt_assert_ok(blit_linear32(c->fd, c->dst, c->src, W, H));
	gem_sync(c->fd, c->dst->handle);
	return 0;
}

/* is @pid still running after @ms? */
static bool still_running(pid_t pid, unsigned int ms)
{
	int status;

	igt_sleep_ms(ms);
	return waitpid(pid, &status, WNOHANG) == 0;
}

static void subtest_fence(void)
{
	int vfd = open_vgem(), fd = drm_open_driver(), dmabuf;
	struct drm_vgem_fence_attach attach = { .flags = VGEM_FENCE_WRITE };
	struct drm_vgem_fence_signal sig = { };
	struct bo imp = { }, bo;
	struct child c = { .fd = fd };
	struct vbo v;
	uint32_t *buf;
	pid_t pid;

	vbo_create(&v, vfd);
	memset(v.map, 0, v.size);
	dmabuf = prime_export(vfd, v.handle);
	imp.handle = prime_import(fd, dmabuf);
	imp.size = v.size;
	bo_init(&bo, fd, SIZE);
	buf = malloc(SIZE);
	igt_assert(buf);
	pattern_fill(buf, SIZE, 4);
	gem_write(fd, bo.handle, 0, buf, SIZE);

	/* a write fence: our write waits for it */
	attach.handle = v.handle;
	igt_assert_ok(igt_ioctl(vfd, DRM_IOCTL_VGEM_FENCE_ATTACH, &attach));
	c.dst = &imp;
	c.src = &bo;
	pid = igt_fork(child_blit, &c);
	igt_assert_f(still_running(pid, 500),
		     "the exec did not wait for vgem's write fence");
	igt_assert_eq_u64(v.map[0], 0);
	sig.fence = attach.out_fence;
	igt_assert_ok(igt_ioctl(vfd, DRM_IOCTL_VGEM_FENCE_SIGNAL, &sig));
	igt_assert_eq(igt_wait(pid), 0);
	pattern_check(v.map, SIZE, 4, "vgem buffer after the fence signalled");

	/* a read fence: our read goes ahead, our write waits */
	attach.flags = 0;
	igt_assert_ok(igt_ioctl(vfd, DRM_IOCTL_VGEM_FENCE_ATTACH, &attach));
	c.dst = &bo;
	c.src = &imp;
	pid = igt_fork(child_blit, &c);
	igt_assert_eq(igt_wait(pid), 0);
	pattern_check_object(fd, bo.handle, SIZE, 4,
			     "copy made past vgem's read fence");
	pattern_fill(buf, SIZE, 5);
	gem_write(fd, bo.handle, 0, buf, SIZE);
	c.dst = &imp;
	c.src = &bo;
	pid = igt_fork(child_blit, &c);
	igt_assert_f(still_running(pid, 500),
		     "the exec did not wait for vgem's read fence");
	pattern_check(v.map, SIZE, 4,
		      "vgem buffer before the read fence signalled");
	sig.fence = attach.out_fence;
	igt_assert_ok(igt_ioctl(vfd, DRM_IOCTL_VGEM_FENCE_SIGNAL, &sig));
	igt_assert_eq(igt_wait(pid), 0);
	pattern_check(v.map, SIZE, 5,
		      "vgem buffer after the read fence signalled");

	close(dmabuf);
	gem_close(fd, imp.handle);
	bo_fini(&bo, fd);
	vbo_destroy(&v);
	free(buf);
	close(fd);
	close(vfd);
}

static void subtest_our_fence(void)
{
	int vfd = open_vgem(), fd = drm_open_driver(), dmabuf;
	struct bo imp = { }, bo;
	struct pollfd pfd = { .events = POLLIN };
	struct surf sd, ss;
	struct batch *b;
	struct vbo v;
	uint32_t *buf;
	unsigned int i;

	if (!sim_has_cmd_delay())
		igt_skip("no cmd_delay_us in the model");
	vbo_create(&v, vfd);
	memset(v.map, 0, v.size);
	dmabuf = prime_export(vfd, v.handle);
	imp.handle = prime_import(fd, dmabuf);
	imp.size = v.size;
	bo_init(&bo, fd, SIZE);
	buf = malloc(SIZE);
	igt_assert(buf);
	pattern_fill(buf, SIZE, 6);
	gem_write(fd, bo.handle, 0, buf, SIZE);

	/* ~1 s of NOOPs, then the blitter writes the vgem buffer */
	sim_set_cmd_delay(1000);
	b = batch_new(fd);
	for (i = 0; i < 1000; i++)
		batch_emit(b, MI_NOOP);
	surf_linear32(&sd, &imp, W, H);
	surf_linear32(&ss, &bo, W, H);
	emit_xy_copy(b, &sd, 0, 0, &ss, 0, 0, W, H);
	batch_submit(b);

	/* the dma-buf has our write fence: busy for readers, until done */
	pfd.fd = dmabuf;
	igt_assert_eq(poll(&pfd, 1, 0), 0);
	igt_assert_eq(poll(&pfd, 1, 30000), 1);
	igt_assert_eq_u64(gem_busy(fd, imp.handle), 0);
	sim_set_cmd_delay(0);
	pattern_check(v.map, SIZE, 6, "vgem buffer once the dma-buf is idle");

	batch_free(b);
	close(dmabuf);
	gem_close(fd, imp.handle);
	bo_fini(&bo, fd);
	vbo_destroy(&v);
	free(buf);
	close(fd);
	close(vfd);
}

static void subtest_gtt_mmap(void)
{
	int vfd = open_vgem(), fd = drm_open_driver(), dmabuf;
	long long objects, bytes;
	uint64_t offset;
	uint32_t handle;
	struct vbo v;
	uint32_t *ptr;

	gem_quiescent_gpu(fd);
	igt_gem_objects(fd, &objects, &bytes);
	vbo_create(&v, vfd);
	dmabuf = prime_export(vfd, v.handle);
	handle = prime_import(fd, dmabuf);
	close(dmabuf);
	igt_assert_eq(__gem_mmap_offset(fd, handle, I915_MMAP_OFFSET_WB,
					&offset), -ENODEV);
	igt_assert_eq(__gem_mmap_offset(fd, handle, I915_MMAP_OFFSET_WC,
					&offset), -ENODEV);

	ptr = gem_mmap_offset(fd, handle, v.size, I915_MMAP_OFFSET_GTT);
	pattern_fill(ptr, SIZE, 4);
	munmap(ptr, v.size);
	pattern_check(v.map, SIZE, 4, "our GTT mmap's writes, through vgem's");

	pattern_fill(v.map, SIZE, 5);
	ptr = gem_mmap_offset(fd, handle, v.size, I915_MMAP_OFFSET_GTT);
	pattern_check(ptr, SIZE, 5, "vgem's writes, through our GTT mmap");
	munmap(ptr, v.size);

	gem_close(fd, handle);
	igt_assert_eq(gem_wait_object_count(fd, objects), objects);
	vbo_destroy(&v);
	close(fd);
	close(vfd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(blit),
	SUBTEST(gtt_mmap),
	SUBTEST_T(fence, 60),
	SUBTEST_T(our_fence, 60),
};

igt_main(tests)
