// SPDX-License-Identifier: GPL-2.0
/*
 * fault_inject: the driver's allocating paths under the kernel's fault
 * injection (CONFIG_FAILSLAB, CONFIG_FAIL_PAGE_ALLOC; the debug-kernel
 * lane).  Skips where the kernel has none (Debian's kernel).
 *
 * Two ways of failing allocations, both restricted to the test task:
 *
 *  - sweep: /proc/thread-self/fail-nth makes exactly the Nth allocation
 *    (slab object or page) of the task fail.  For N = 1, 2, ... the
 *    ioctl is run on fresh state until it no longer reaches an Nth
 *    allocation, so every allocation it makes fails once.
 *  - all: failslab and fail_page_alloc with task-filter=Y, probability
 *    100 and /proc/self/make-it-fail=1: every allocation of the task
 *    fails for the duration of one ioctl; then a random mix of ioctls
 *    at a lower probability.
 *
 * The paths: GEM_CREATE, GEM_CREATE_EXT (with a region list), I915_QUERY
 * (engines and memory regions in one call), PWRITE/PREAD (page pinning), MMAP (CPU and WC),
 * MMAP_OFFSET (GTT and WB, with the mmap of the offset),
 * SET_DOMAIN, SET_CACHING, PIN (GTT binding: pages, DMA mappings, a GTT
 * node), EXECBUFFER2 (a batch with a relocation; and a blit with
 * FENCE_OUT, with a FENCE_ARRAY, with TIMELINE_FENCES, queued behind a
 * FENCE_IN of vgem's unsignalled fence when vgem is loaded), FLINK, OPEN, and the debugfs files i915_gem_drop_caches
 * (write) and i915_gem_objects (read), USERPTR (with PROBE) and an
 * EXECBUFFER2 that pins a userptr object's pages, PRIME_FD_TO_HANDLE of a
 * vgem dma-buf (when vgem is loaded), MADVISE (DONTNEED purging an
 * object at once) and DROP_SHRINK_ALL (the shrinker purging a bound one).
 *
 * After every injected call: the ioctl returned 0 or an allocation
 * errno (ENOMEM, ENOSPC), i915_gem_objects is back to its count before
 * the call once the call's own results are undone and its state torn
 * down (within 2 s: objects the GPU used go when it retires them), and
 * the same call without injection succeeds.  An op with a ->check also
 * proves that a failed call had no effect and a successful one its
 * effect exactly once: the FENCE_OUT execbuffer XORs a colour into its
 * target (so that a batch run twice would undo itself), and a failed
 * call leaves the target's bytes and the lowest free fd as they were.  kmemleak (the lane's scan
 * before rmmod) catches what leaked outside the object count.
 *
 * Everything the injected window touches is set up before it: files
 * are open, user buffers are faulted in, so that the only allocations
 * in the window are the kernel's for the ioctl itself.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <drm/drm_mode.h>
#include <drm/vgem_drm.h>
#include <linux/dma-buf.h>

#include "gem.h"
#include "syncobj.h"

#define FI_ROOT "/sys/kernel/debug"
#define MAX_SWEEP 4000
#define OBJ_SIZE (4 * PAGE_SZ)

static int fail_nth_fd = -1;
static int make_it_fail_fd = -1;

/* ------------------------------------------------------------------ */
/* the fault-injection controls */

static void fi_set(const char *attr, const char *file, const char *val)
{
	char path[128];
	int ret;

	snprintf(path, sizeof(path), FI_ROOT "/%s/%s", attr, file);
	ret = igt_write_file(path, val);
	igt_assert_f(ret == 0, "writing %s to %s: %s", val, path,
		     igt_errname(ret));
}

/* probability 0: nothing fails but through fail-nth or fi_all() */
static void fi_configure(const char *prob)
{
	static const char *const attrs[] = { "failslab", "fail_page_alloc" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		fi_set(attrs[i], "task-filter", "Y");
		fi_set(attrs[i], "probability", prob);
		fi_set(attrs[i], "interval", "1");
		fi_set(attrs[i], "times", "-1");
		fi_set(attrs[i], "space", "0");
		fi_set(attrs[i], "verbose", "0");
		fi_set(attrs[i], "ignore-gfp-wait", "N");
	}
	fi_set("fail_page_alloc", "ignore-gfp-highmem", "N");
	fi_set("fail_page_alloc", "min-order", "0");
	fi_set("failslab", "cache-filter", "N");
}

static void fi_open(void)
{
	struct stat st;

	if (stat(FI_ROOT "/failslab", &st))
		mount("debugfs", FI_ROOT, "debugfs", 0, NULL);
	if (stat(FI_ROOT "/failslab", &st) ||
	    stat(FI_ROOT "/fail_page_alloc", &st))
		igt_skip("no failslab/fail_page_alloc in debugfs (kernel without CONFIG_FAULT_INJECTION_DEBUG_FS)");
	fail_nth_fd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	if (fail_nth_fd < 0)
		igt_skip("no /proc/thread-self/fail-nth");
	make_it_fail_fd = open("/proc/self/make-it-fail", O_RDWR | O_CLOEXEC);
	if (make_it_fail_fd < 0)
		igt_skip("no /proc/self/make-it-fail");
	fi_configure("0");
}

/* No allocation in here: the fds are open and the buffers on the stack. */
static void fd_put(int fd, unsigned int v)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", v);

	if (pwrite(fd, buf, len, 0) != len)
		igt_fail("writing fault-injection control: %s",
			 strerror(errno));
}

static unsigned int fd_get(int fd)
{
	char buf[16] = "";

	if (pread(fd, buf, sizeof(buf) - 1, 0) <= 0)
		igt_fail("reading fault-injection control: %s",
			 strerror(errno));
	return strtoul(buf, NULL, 10);
}

/* ------------------------------------------------------------------ */
/* the operations under test */

struct op_ctx {
	int fd;			/* the client */
	uint32_t target;	/* relocation target (execbuf) */
	int fd2;		/* a second client (GEM_OPEN) */
	uint32_t handle;	/* the object set up by ->setup */
	uint32_t out;		/* handle / name the op created */
	void *ptr;		/* mapping the op created */
	int dfd;		/* a debugfs file */
	char *buf;		/* user buffer, faulted in */
	char mask[32];		/* i915_gem_drop_caches mask */
	uint64_t rsvd2;		/* execbuf-fence-out: the fence fd out */
	uint32_t syncobj[3];	/* execbuf-fence-array: wait, signal, timeline */
	int free_fd;		/* the lowest free fd before the op */
	int vfd;		/* execbuf-corked: vgem, -1 without */
	uint32_t cork;		/* its unsignalled fence */
	int cork_sync;		/* a sync_file of it */
	long long baseline;	/* i915_gem_objects with nothing set up */
};

struct op {
	const char *name;
	void (*setup)(struct op_ctx *c);	/* not injected */
	int (*run)(struct op_ctx *c);		/* injected: 0 or -errno */
	void (*undo)(struct op_ctx *c);		/* after a successful run */
	void (*teardown)(struct op_ctx *c);	/* not injected */
	void (*check)(struct op_ctx *c, int ret); /* the effect, after run */
};

static void setup_object(struct op_ctx *c)
{
	c->handle = gem_create(c->fd, OBJ_SIZE);
}

static void teardown_object(struct op_ctx *c)
{
	gem_close(c->fd, c->handle);
}

static int run_create(struct op_ctx *c)
{
	uint64_t size = OBJ_SIZE;

	return __gem_create(c->fd, &size, &c->out);
}

static void undo_close_out(struct op_ctx *c)
{
	gem_close(c->fd, c->out);
}

/* GEM_CREATE_EXT with a MEMORY_REGIONS list naming system memory */
static int run_create_ext(struct op_ctx *c)
{
	struct drm_i915_gem_memory_class_instance region = {
		.memory_class = I915_MEMORY_CLASS_SYSTEM,
	};
	struct drm_i915_gem_create_ext_memory_regions ext = {
		.base.name = I915_GEM_CREATE_EXT_MEMORY_REGIONS,
		.num_regions = 1,
		.regions = to_user_pointer(&region),
	};
	struct drm_i915_gem_create_ext args = {
		.size = OBJ_SIZE,
		.extensions = to_user_pointer(&ext),
	};
	int ret = igt_ioctl(c->fd, DRM_IOCTL_I915_GEM_CREATE_EXT, &args);

	if (!ret)
		c->out = args.handle;
	return ret;
}

/* I915_QUERY of the engines and the memory regions, answers in c->buf */
static int run_query(struct op_ctx *c)
{
	struct drm_i915_query_item items[2] = {
		{ .query_id = DRM_I915_QUERY_ENGINE_INFO, .length = 1024,
		  .data_ptr = to_user_pointer(c->buf) },
		{ .query_id = DRM_I915_QUERY_MEMORY_REGIONS, .length = 1024,
		  .data_ptr = to_user_pointer(c->buf + 1024) },
	};
	struct drm_i915_query q = {
		.num_items = 2,
		.items_ptr = to_user_pointer(items),
	};
	int ret;

	memset(c->buf, 0, 2048);
	ret = igt_ioctl(c->fd, DRM_IOCTL_I915_QUERY, &q);
	if (ret)
		return ret;
	if (items[0].length < 0)
		return items[0].length;
	return items[1].length < 0 ? items[1].length : 0;
}

/* pwrite and pread across the three middle pages of a fresh object */
static int run_pwrite(struct op_ctx *c)
{
	return __gem_write(c->fd, c->handle, PAGE_SZ / 2, c->buf,
			   2 * PAGE_SZ + 100);
}

static int run_pread(struct op_ctx *c)
{
	return __gem_read(c->fd, c->handle, PAGE_SZ / 2, c->buf,
			  2 * PAGE_SZ + 100);
}

static int run_mmap(struct op_ctx *c)
{
	return __gem_mmap(c->fd, c->handle, 0, OBJ_SIZE, 0, &c->ptr);
}

static int run_mmap_wc(struct op_ctx *c)
{
	return __gem_mmap(c->fd, c->handle, 0, OBJ_SIZE, I915_MMAP_WC,
			  &c->ptr);
}

static void undo_munmap(struct op_ctx *c)
{
	munmap(c->ptr, OBJ_SIZE);
}

/* MMAP_OFFSET (the offset node) and the mmap of the offset */
static int run_mmap_offset(struct op_ctx *c, uint64_t flags)
{
	uint64_t off = 0;
	int ret = __gem_mmap_offset(c->fd, c->handle, flags, &off);

	if (ret)
		return ret;
	c->ptr = mmap(NULL, OBJ_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED,
		      c->fd, off);
	return c->ptr == MAP_FAILED ? -errno : 0;
}

static int run_mmap_offset_gtt(struct op_ctx *c)
{
	return run_mmap_offset(c, I915_MMAP_OFFSET_GTT);
}

static int run_mmap_offset_wb(struct op_ctx *c)
{
	return run_mmap_offset(c, I915_MMAP_OFFSET_WB);
}

static int run_set_domain_cpu(struct op_ctx *c)
{
	return __gem_set_domain(c->fd, c->handle, I915_GEM_DOMAIN_CPU,
				I915_GEM_DOMAIN_CPU);
}

static int run_set_domain_gtt(struct op_ctx *c)
{
	return __gem_set_domain(c->fd, c->handle, I915_GEM_DOMAIN_GTT,
				I915_GEM_DOMAIN_GTT);
}

static int run_set_caching(struct op_ctx *c)
{
	return __gem_set_caching(c->fd, c->handle, I915_CACHING_CACHED);
}

/* PIN binds the object into the GTT: pages, DMA mappings, a GTT node */
static int run_pin(struct op_ctx *c)
{
	struct drm_i915_gem_pin pin = { .handle = c->handle };

	return igt_ioctl(c->fd, DRM_IOCTL_I915_GEM_PIN, &pin);
}

static void undo_unpin(struct op_ctx *c)
{
	struct drm_i915_gem_unpin unpin = { .handle = c->handle };

	igt_assert_ok(igt_ioctl(c->fd, DRM_IOCTL_I915_GEM_UNPIN, &unpin));
}

/*
 * EXECBUFFER2: a batch (MI_BATCH_BUFFER_END) and a target object it
 * holds one relocation to, written past the end of what runs.
 */
#define MI_BATCH_BUFFER_END (0x0a << 23)

static void setup_execbuf(struct op_ctx *c)
{
	uint32_t batch[8] = { MI_BATCH_BUFFER_END, 0 };

	setup_object(c);
	gem_write(c->fd, c->handle, 0, batch, sizeof(batch));
	c->target = gem_create(c->fd, PAGE_SZ);
}

static void teardown_execbuf(struct op_ctx *c)
{
	gem_close(c->fd, c->target);
	teardown_object(c);
}

static int run_execbuf(struct op_ctx *c)
{
	struct drm_i915_gem_relocation_entry reloc = {
		.target_handle = c->target,
		.offset = 16,
		.presumed_offset = ~0ull,
		.read_domains = I915_GEM_DOMAIN_RENDER,
	};
	struct drm_i915_gem_exec_object2 obj[2] = {
		{ .handle = c->target },
		{ .handle = c->handle, .relocation_count = 1,
		  .relocs_ptr = to_user_pointer(&reloc) },
	};
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(obj),
		.buffer_count = 2,
		.batch_len = 8,
		.flags = I915_EXEC_RENDER,
	};

	return igt_ioctl(c->fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb);
}

/* wait for the batch: the objects are busy until it retires */
static void undo_execbuf(struct op_ctx *c)
{
	gem_set_domain(c->fd, c->handle, I915_GEM_DOMAIN_CPU, 0);
}

/*
 * EXECBUFFER2_WR with FENCE_OUT: an XY_COLOR_BLT with ROP 0x5a (pattern
 * XOR destination) over the whole 4 KiB target, through a relocation.
 */
#define FO_COLOR	0x5a5aa5a5u
#define FO_SEED		0xf0f0

static int lowest_free_fd(void)
{
	int fd = dup(0);

	igt_assert_lte(0, fd);
	close(fd);
	return fd;
}

static void setup_execbuf_fence_out(struct op_ctx *c)
{
	uint32_t batch[8] = {
		(2u << 29) | (0x50u << 22) | (3u << 20) | 4,	/* XY_COLOR_BLT */
		(3u << 24) | (0x5au << 16) | 128,	/* 32 bpp, P^D, pitch */
		0,					/* (0, 0) */
		32u << 16 | 32,				/* (32, 32) */
		0,					/* target: relocated */
		FO_COLOR,
		MI_BATCH_BUFFER_END,
		0,
	};
	uint32_t pattern[PAGE_SZ / 4];
	unsigned int i;

	setup_object(c);
	gem_write(c->fd, c->handle, 0, batch, sizeof(batch));
	c->target = gem_create(c->fd, PAGE_SZ);
	for (i = 0; i < PAGE_SZ / 4; i++)
		pattern[i] = FO_SEED + i;
	gem_write(c->fd, c->target, 0, pattern, sizeof(pattern));
	c->rsvd2 = 0;
	c->free_fd = lowest_free_fd();
}

static int run_execbuf_fence_out(struct op_ctx *c)
{
	struct drm_i915_gem_relocation_entry reloc = {
		.target_handle = c->target,
		.offset = 16,
		.presumed_offset = ~0ull,
		.read_domains = I915_GEM_DOMAIN_RENDER,
		.write_domain = I915_GEM_DOMAIN_RENDER,
	};
	struct drm_i915_gem_exec_object2 obj[2] = {
		{ .handle = c->target },
		{ .handle = c->handle, .relocation_count = 1,
		  .relocs_ptr = to_user_pointer(&reloc) },
	};
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(obj),
		.buffer_count = 2,
		.batch_len = 32,
		.flags = I915_EXEC_RENDER | I915_EXEC_FENCE_OUT,
	};
	int ret;

	ret = igt_ioctl(c->fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb);
	c->rsvd2 = eb.rsvd2;
	return ret;
}

/* the target: XORed once after a success, untouched after an error */
static void check_fo_target(struct op_ctx *c, int ret)
{
	uint32_t got[PAGE_SZ / 4], want;
	unsigned int i;

	/* if a failed call queued the batch anyway, it would land now */
	gem_set_domain(c->fd, c->target, I915_GEM_DOMAIN_CPU, 0);
	gem_read(c->fd, c->target, 0, got, sizeof(got));
	for (i = 0; i < PAGE_SZ / 4; i++) {
		want = FO_SEED + i;
		if (!ret)
			want ^= FO_COLOR;
		igt_assert_f(got[i] == want,
			     "execbuf returned %s: dword %u of the target is 0x%08x, expected 0x%08x",
			     igt_errname(ret), i, got[i], want);
	}
}

/* ran once (every dword XORed once) or, after an error, not at all */
static void check_execbuf_fence_out(struct op_ctx *c, int ret)
{
	int fence = c->rsvd2 >> 32;

	if (ret) {
		igt_assert_f(lowest_free_fd() == c->free_fd,
			     "failed execbuf (%s) left fd %d in use",
			     igt_errname(ret), c->free_fd);
	} else {
		igt_assert_f(fence >= 0 && fcntl(fence, F_GETFD) >= 0,
			     "no fence fd %d", fence);
		close(fence);
	}
	check_fo_target(c, ret);
}

/*
 * The same blit with syncobjs: it waits for a signalled one and signals
 * another (FENCE_ARRAY), or also a timeline point 1 (TIMELINE_FENCES).
 */
static void setup_execbuf_fence_array(struct op_ctx *c)
{
	setup_execbuf_fence_out(c);
	c->syncobj[0] = syncobj_create(c->fd, DRM_SYNCOBJ_CREATE_SIGNALED);
	c->syncobj[1] = syncobj_create(c->fd, 0);
	c->syncobj[2] = syncobj_create(c->fd, 0);
}

static void teardown_execbuf_fence_array(struct op_ctx *c)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(c->syncobj); i++)
		syncobj_destroy(c->fd, c->syncobj[i]);
	teardown_execbuf(c);
}

static int run_execbuf_syncobjs(struct op_ctx *c, bool timeline)
{
	struct drm_i915_gem_relocation_entry reloc = {
		.target_handle = c->target,
		.offset = 16,
		.presumed_offset = ~0ull,
		.read_domains = I915_GEM_DOMAIN_RENDER,
		.write_domain = I915_GEM_DOMAIN_RENDER,
	};
	struct drm_i915_gem_exec_object2 obj[2] = {
		{ .handle = c->target },
		{ .handle = c->handle, .relocation_count = 1,
		  .relocs_ptr = to_user_pointer(&reloc) },
	};
	struct drm_i915_gem_exec_fence f[3] = {
		{ .handle = c->syncobj[0], .flags = I915_EXEC_FENCE_WAIT },
		{ .handle = c->syncobj[1], .flags = I915_EXEC_FENCE_SIGNAL },
		{ .handle = c->syncobj[2], .flags = I915_EXEC_FENCE_SIGNAL },
	};
	uint64_t points[3] = { 0, 0, 1 };
	struct drm_i915_gem_execbuffer_ext_timeline_fences ext = {
		.base.name = DRM_I915_GEM_EXECBUFFER_EXT_TIMELINE_FENCES,
		.fence_count = 3,
		.handles_ptr = to_user_pointer(f),
		.values_ptr = to_user_pointer(points),
	};
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(obj),
		.buffer_count = 2,
		.batch_len = 32,
		.flags = I915_EXEC_RENDER | I915_EXEC_FENCE_ARRAY,
		.cliprects_ptr = to_user_pointer(f),
		.num_cliprects = 2,
	};

	if (timeline) {
		eb.flags = I915_EXEC_RENDER | I915_EXEC_USE_EXTENSIONS;
		eb.cliprects_ptr = to_user_pointer(&ext);
		eb.num_cliprects = 0;
	}
	return igt_ioctl(c->fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &eb);
}

static int run_execbuf_fence_array(struct op_ctx *c)
{
	return run_execbuf_syncobjs(c, false);
}

static int run_execbuf_timeline(struct op_ctx *c)
{
	return run_execbuf_syncobjs(c, true);
}

/* signalled (and point 1 there) after a success, untouched after an error */
static void check_execbuf_fence_array(struct op_ctx *c, int ret)
{
	int64_t forever = syncobj_deadline_ms(20000);

	if (ret) {
		igt_assert_err(__syncobj_wait(c->fd, c->syncobj[1], 0, 0),
			       -EINVAL);
		igt_assert_eq_u64(syncobj_query(c->fd, c->syncobj[2]), 0);
	} else {
		igt_assert_ok(__syncobj_wait(c->fd, c->syncobj[1], forever, 0));
	}
	check_fo_target(c, ret);
}

/*
 * The FENCE_OUT blit with FENCE_IN of vgem's unsignalled fence: the
 * request is queued behind it (a callback allocated, the commands kept)
 * and runs once the check signals it.
 */
static void setup_execbuf_corked(struct op_ctx *c)
{
	struct drm_mode_create_dumb dumb = {
		.width = 1024, .height = 1, .bpp = 32,
	};
	struct drm_vgem_fence_attach attach = { .flags = VGEM_FENCE_WRITE };
	struct drm_prime_handle ph = { .flags = DRM_CLOEXEC };
	struct dma_buf_export_sync_file ex = { .flags = DMA_BUF_SYNC_WRITE };

	setup_execbuf_fence_out(c);
	c->vfd = drm_open_named("vgem");
	if (c->vfd < 0)
		return;
	igt_assert_ok(igt_ioctl(c->vfd, DRM_IOCTL_MODE_CREATE_DUMB, &dumb));
	attach.handle = dumb.handle;
	igt_assert_ok(igt_ioctl(c->vfd, DRM_IOCTL_VGEM_FENCE_ATTACH, &attach));
	c->cork = attach.out_fence;
	ph.handle = dumb.handle;
	igt_assert_ok(igt_ioctl(c->vfd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph));
	igt_assert_ok(igt_ioctl(ph.fd, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &ex));
	close(ph.fd);
	c->cork_sync = ex.fd;
	c->free_fd = lowest_free_fd();
}

static void teardown_execbuf_corked(struct op_ctx *c)
{
	if (c->vfd >= 0) {
		close(c->cork_sync);
		close(c->vfd);
	}
	teardown_execbuf(c);
}

static int run_execbuf_corked(struct op_ctx *c)
{
	struct drm_i915_gem_relocation_entry reloc = {
		.target_handle = c->target,
		.offset = 16,
		.presumed_offset = ~0ull,
		.read_domains = I915_GEM_DOMAIN_RENDER,
		.write_domain = I915_GEM_DOMAIN_RENDER,
	};
	struct drm_i915_gem_exec_object2 obj[2] = {
		{ .handle = c->target },
		{ .handle = c->handle, .relocation_count = 1,
		  .relocs_ptr = to_user_pointer(&reloc) },
	};
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(obj),
		.buffer_count = 2,
		.batch_len = 32,
		.flags = I915_EXEC_RENDER | I915_EXEC_FENCE_OUT |
			 I915_EXEC_FENCE_IN,
		.rsvd2 = c->cork_sync,
	};
	int ret;

	if (c->vfd < 0)
		return -ENODEV; /* not supported: skipped */
	ret = igt_ioctl(c->fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb);
	c->rsvd2 = eb.rsvd2;
	return ret;
}

/* queued until the cork signals, then as execbuf-fence-out */
static void check_execbuf_corked(struct op_ctx *c, int ret)
{
	struct drm_vgem_fence_signal sig = { .fence = c->cork };

	if (c->vfd < 0)
		return;
	if (!ret) {
		struct pollfd p = { .fd = c->rsvd2 >> 32, .events = POLLIN };

		igt_assert_f(poll(&p, 1, 0) == 0,
			     "the corked batch's fence signalled");
	}
	igt_assert_ok(igt_ioctl(c->vfd, DRM_IOCTL_VGEM_FENCE_SIGNAL, &sig));
	check_execbuf_fence_out(c, ret);
}

static void check_execbuf_timeline(struct op_ctx *c, int ret)
{
	check_execbuf_fence_array(c, ret);
	if (!ret)
		igt_assert_ok(__syncobj_timeline_wait(c->fd, c->syncobj[2], 1,
						      syncobj_deadline_ms(20000),
						      0));
}

static int run_flink(struct op_ctx *c)
{
	return __gem_flink(c->fd, c->handle, &c->out);
}

static void setup_flinked(struct op_ctx *c)
{
	setup_object(c);
	c->out = gem_flink(c->fd, c->handle);
}

static int run_open(struct op_ctx *c)
{
	uint64_t size;
	uint32_t name = c->out;

	return __gem_open(c->fd2, name, &c->out, &size);
}

static void undo_close_out2(struct op_ctx *c)
{
	gem_close(c->fd2, c->out);
}

static void setup_debugfs(struct op_ctx *c, const char *name, int flags)
{
	char path[256];
	char buf[64];
	int ret;

	ret = igt_debugfs_read(c->fd, name, buf, sizeof(buf));
	if (ret < 0)
		igt_skip("no debugfs %s: %s", name, igt_errname(ret));
	snprintf(path, sizeof(path), FI_ROOT "/dri/%d/%s",
		 drm_primary_minor(c->fd), name);
	c->dfd = open(path, flags | O_CLOEXEC);
	igt_assert_f(c->dfd >= 0, "open %s: %s", path, strerror(errno));
}

static void teardown_debugfs(struct op_ctx *c)
{
	close(c->dfd);
}

static void setup_drop_caches(struct op_ctx *c)
{
	char buf[64];
	unsigned long long mask;

	setup_object(c);
	/* pages present, so there is something to drop */
	gem_write(c->fd, c->handle, 0, c->buf, PAGE_SZ);
	igt_assert_lt(0, igt_debugfs_read(c->fd, "i915_gem_drop_caches",
					  buf, sizeof(buf)));
	mask = strtoull(buf, NULL, 0);
	snprintf(c->mask, sizeof(c->mask), "0x%llx", mask);
	setup_debugfs(c, "i915_gem_drop_caches", O_WRONLY);
}

static void teardown_debugfs_object(struct op_ctx *c)
{
	teardown_debugfs(c);
	teardown_object(c);
}

static int run_drop_caches(struct op_ctx *c)
{
	ssize_t len = strlen(c->mask);
	ssize_t w = write(c->dfd, c->mask, len);	/* not seekable */

	if (w < 0)
		return -errno;
	return w == len ? 0 : -EIO;
}

static void setup_gem_objects(struct op_ctx *c)
{
	setup_object(c);
	setup_debugfs(c, "i915_gem_objects", O_RDONLY);
}

static int run_read_gem_objects(struct op_ctx *c)
{
	ssize_t r = pread(c->dfd, c->buf, 2 * PAGE_SZ, 0);

	return r < 0 ? -errno : 0;
}

/* USERPTR on four pages of c->ptr, mapped and faulted in by the setup */
static void setup_userptr_mem(struct op_ctx *c)
{
	c->ptr = mmap(NULL, OBJ_SIZE, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	igt_assert(c->ptr != MAP_FAILED);
}

static void teardown_userptr_mem(struct op_ctx *c)
{
	munmap(c->ptr, OBJ_SIZE);
}

static int __userptr(struct op_ctx *c, uint32_t *handle)
{
	struct drm_i915_gem_userptr args = {
		.user_ptr = to_user_pointer(c->ptr),
		.user_size = OBJ_SIZE,
		.flags = I915_USERPTR_PROBE,
	};
	int ret = igt_ioctl(c->fd, DRM_IOCTL_I915_GEM_USERPTR, &args);

	if (!ret)
		*handle = args.handle;
	return ret;
}

static int run_userptr(struct op_ctx *c)
{
	return __userptr(c, &c->out);
}

/* an exec listing a fresh userptr object: its pages pinned and bound */
static void setup_userptr_exec(struct op_ctx *c)
{
	setup_userptr_mem(c);
	setup_execbuf(c);
	gem_close(c->fd, c->target);
	igt_assert_ok(__userptr(c, &c->target));
}

static void teardown_userptr_exec(struct op_ctx *c)
{
	teardown_execbuf(c);
	teardown_userptr_mem(c);
}

/* PRIME_FD_TO_HANDLE of a vgem dma-buf (c->dfd: vgem, c->rsvd2: the fd) */
static void setup_prime_import(struct op_ctx *c)
{
	struct drm_mode_create_dumb create = {
		.width = 1024, .height = 4, .bpp = 32,
	};
	struct drm_prime_handle prime = { .flags = DRM_CLOEXEC };

	c->dfd = drm_open_named("vgem");
	if (c->dfd < 0)
		return;
	igt_assert_ok(igt_ioctl(c->dfd, DRM_IOCTL_MODE_CREATE_DUMB,
				&create));
	prime.handle = create.handle;
	igt_assert_ok(igt_ioctl(c->dfd, DRM_IOCTL_PRIME_HANDLE_TO_FD,
				&prime));
	gem_close(c->dfd, create.handle);
	c->rsvd2 = prime.fd;
}

static void teardown_prime_import(struct op_ctx *c)
{
	if (c->dfd < 0)
		return;
	close(c->rsvd2);
	close(c->dfd);
	c->dfd = -1;
}

static int run_prime_import(struct op_ctx *c)
{
	struct drm_prime_handle prime = { .fd = c->rsvd2 };
	int ret;

	if (c->dfd < 0)
		return -ENODEV;	/* no vgem: not supported here */
	ret = igt_ioctl(c->fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &prime);
	if (!ret)
		c->out = prime.handle;
	return ret;
}

/* MADVISE(DONTNEED) of an object that has no pages: purged at once */
static void setup_written_object(struct op_ctx *c)
{
	setup_object(c);
	gem_write(c->fd, c->handle, 0, c->buf, OBJ_SIZE);
}

static int run_madvise_purge(struct op_ctx *c)
{
	struct drm_i915_gem_madvise madv = {
		.handle = c->handle,
		.madv = I915_MADV_DONTNEED,
	};
	int ret = igt_ioctl(c->fd, DRM_IOCTL_I915_GEM_MADVISE, &madv);

	if (!ret && madv.retained)
		return -EINVAL;	/* not purged */
	return ret;
}

/*
 * DROP_SHRINK_ALL (the shrinker's scan) of a bound, idle DONTNEED object:
 * unbound and purged
 */
static void setup_shrink(struct op_ctx *c)
{
	struct drm_i915_gem_madvise madv = { .madv = I915_MADV_DONTNEED };
	struct drm_i915_gem_pin pin = { .alignment = 0 };

	setup_written_object(c);
	pin.handle = c->handle;
	igt_assert_ok(igt_ioctl(c->fd, DRM_IOCTL_I915_GEM_PIN, &pin));
	undo_unpin(c);			/* bound, not pinned */
	madv.handle = c->handle;
	igt_assert_ok(igt_ioctl(c->fd, DRM_IOCTL_I915_GEM_MADVISE, &madv));
	igt_assert_eq(madv.retained, 1);
	strcpy(c->mask, "0x20");
	setup_debugfs(c, "i915_gem_drop_caches", O_WRONLY);
}

static const struct op ops[] = {
	{ "create", NULL, run_create, undo_close_out, NULL, NULL },
	{ "create-ext", NULL, run_create_ext, undo_close_out, NULL, NULL },
	{ "query", NULL, run_query, NULL, NULL, NULL },
	{ "pwrite", setup_object, run_pwrite, NULL, teardown_object, NULL },
	{ "pread", setup_object, run_pread, NULL, teardown_object, NULL },
	{ "mmap", setup_object, run_mmap, undo_munmap, teardown_object, NULL },
	{ "mmap-wc", setup_object, run_mmap_wc, undo_munmap,
	  teardown_object, NULL },
	{ "mmap-offset-gtt", setup_object, run_mmap_offset_gtt, undo_munmap,
	  teardown_object, NULL },
	{ "mmap-offset-wb", setup_object, run_mmap_offset_wb, undo_munmap,
	  teardown_object, NULL },
	{ "set-domain-cpu", setup_object, run_set_domain_cpu, NULL,
	  teardown_object, NULL },
	{ "set-domain-gtt", setup_object, run_set_domain_gtt, NULL,
	  teardown_object, NULL },
	{ "set-caching", setup_object, run_set_caching, NULL,
	  teardown_object, NULL },
	{ "pin", setup_object, run_pin, undo_unpin, teardown_object, NULL },
	{ "execbuf", setup_execbuf, run_execbuf, undo_execbuf,
	  teardown_execbuf, NULL },
	{ "execbuf-fence-out", setup_execbuf_fence_out, run_execbuf_fence_out,
	  undo_execbuf, teardown_execbuf, check_execbuf_fence_out },
	{ "execbuf-fence-array", setup_execbuf_fence_array,
	  run_execbuf_fence_array, undo_execbuf, teardown_execbuf_fence_array,
	  check_execbuf_fence_array },
	{ "execbuf-timeline", setup_execbuf_fence_array, run_execbuf_timeline,
	  undo_execbuf, teardown_execbuf_fence_array, check_execbuf_timeline },
	{ "execbuf-corked", setup_execbuf_corked, run_execbuf_corked,
	  undo_execbuf, teardown_execbuf_corked, check_execbuf_corked },
	{ "flink", setup_object, run_flink, NULL, teardown_object, NULL },
	{ "open", setup_flinked, run_open, undo_close_out2, teardown_object,
	  NULL },
	{ "drop-caches", setup_drop_caches, run_drop_caches, NULL,
	  teardown_debugfs_object, NULL },
	{ "read-gem-objects", setup_gem_objects, run_read_gem_objects, NULL,
	  teardown_debugfs_object, NULL },
	{ "userptr", setup_userptr_mem, run_userptr, undo_close_out,
	  teardown_userptr_mem, NULL },
	{ "userptr-exec", setup_userptr_exec, run_execbuf, undo_execbuf,
	  teardown_userptr_exec, NULL },
	{ "prime-import", setup_prime_import, run_prime_import,
	  undo_close_out, teardown_prime_import, NULL },
	{ "madvise-purge", setup_written_object, run_madvise_purge, NULL,
	  teardown_object, NULL },
	{ "shrink-all", setup_shrink, run_drop_caches, NULL,
	  teardown_debugfs_object, NULL },
};

static const struct op *find_op(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ops); i++)
		if (!strcmp(ops[i].name, name))
			return &ops[i];
	igt_fail("no op %s", name);
}

/* ------------------------------------------------------------------ */
/* driving them */

static long long object_count(int fd)
{
	long long count, bytes;

	igt_gem_objects(fd, &count, &bytes);
	igt_assert_f(count >= 0, "no object count in i915_gem_objects");
	return count;
}

static void ctx_init(struct op_ctx *c)
{
	memset(c, 0, sizeof(*c));
	c->fd = drm_open_driver();
	c->fd2 = drm_open_driver();
	c->dfd = -1;
	c->buf = malloc(4 * PAGE_SZ);
	igt_assert(c->buf);
	/* fault the buffer in: no page fault inside the window */
	igt_fill_pattern(c->buf, 4 * PAGE_SZ, 0xfa17);
	igt_assert_eq(mlock(c->buf, 4 * PAGE_SZ), 0);
	c->baseline = object_count(c->fd);
}

static bool allowed_error(int ret)
{
	return ret == -ENOMEM || ret == -ENOSPC;
}

/*
 * Run @op once without injection.  An op this GPU or kernel does not
 * support (write-combining without PAT, snooping on a GPU without it)
 * answers with an error of its own: false, and the caller skips it.
 */
static bool op_supported(const struct op *op, struct op_ctx *c)
{
	int ret;

	if (op->setup)
		op->setup(c);
	ret = op->run(c);
	if (op->check)
		op->check(c, ret);
	if (ret == 0 && op->undo)
		op->undo(c);
	if (op->teardown)
		op->teardown(c);
	if (ret)
		igt_info("%s without injection: %s: not tested", op->name,
			 igt_errname(ret));
	return ret == 0;
}

/*
 * Set up @op on fresh state, run it with the @nth allocation of this
 * task failing (0: none), check the result and undo it.  Returns false
 * once the op made fewer than @nth allocations.
 */
static bool run_injected(const struct op *op, struct op_ctx *c,
			 unsigned int nth, unsigned int *failures)
{
	unsigned int left;
	long long now;
	int ret;

	if (op->setup)
		op->setup(c);

	fd_put(fail_nth_fd, nth);
	ret = op->run(c);
	left = fd_get(fail_nth_fd);
	fd_put(fail_nth_fd, 0);

	if (nth && left) {
		/* the nth allocation was never reached: a clean run */
		igt_assert_f(ret == 0, "%s with %u allocations: %s", op->name,
			     nth - left, igt_errname(ret));
	}
	igt_assert_f(ret == 0 || allowed_error(ret),
		     "%s with allocation %u failing returned %s", op->name,
		     nth, igt_errname(ret));
	if (ret)
		(*failures)++;
	if (op->check)
		op->check(c, ret);
	if (ret == 0 && op->undo)
		op->undo(c);
	if (op->teardown)
		op->teardown(c);
	now = gem_wait_object_count(c->fd, c->baseline);
	igt_assert_f(now == c->baseline,
		     "%s with allocation %u failing (ret %s): objects %lld, expected %lld",
		     op->name, nth, igt_errname(ret), now, c->baseline);
	return !(nth && left);
}

static void sweep(const char *name)
{
	const struct op *op = find_op(name);
	unsigned int nth, failures = 0, dummy = 0;
	struct op_ctx c;

	fi_open();
	ctx_init(&c);

	/* once without injection: the op works at all */
	if (!op_supported(op, &c))
		igt_skip("%s is not supported here", op->name);

	for (nth = 1; nth <= MAX_SWEEP; nth++) {
		if (!run_injected(op, &c, nth, &failures))
			break;
		/* and the next call, without injection, works */
		run_injected(op, &c, 0, &dummy);
		igt_assert_f(dummy == 0,
			     "%s failed without injection after allocation %u failed",
			     op->name, nth);
	}
	igt_assert_f(nth <= MAX_SWEEP, "%s: more than %d allocations?",
		     op->name, MAX_SWEEP);
	igt_info("%s: %u allocations, %u of their failures reached the caller",
		 op->name, nth - 1, failures);
	close(c.fd2);
	close(c.fd);
}

#define SWEEP(n, op) static void subtest_sweep_##n(void) { sweep(op); }
SWEEP(create, "create")
SWEEP(create_ext, "create-ext")
SWEEP(query, "query")
SWEEP(pwrite, "pwrite")
SWEEP(pread, "pread")
SWEEP(mmap, "mmap")
SWEEP(mmap_wc, "mmap-wc")
SWEEP(set_domain_cpu, "set-domain-cpu")
SWEEP(set_domain_gtt, "set-domain-gtt")
SWEEP(set_caching, "set-caching")
SWEEP(pin, "pin")
SWEEP(execbuf, "execbuf")
SWEEP(execbuf_fence_out, "execbuf-fence-out")
SWEEP(execbuf_fence_array, "execbuf-fence-array")
SWEEP(execbuf_timeline, "execbuf-timeline")
SWEEP(execbuf_corked, "execbuf-corked")
SWEEP(flink, "flink")
SWEEP(open, "open")
SWEEP(drop_caches, "drop-caches")
SWEEP(read_gem_objects, "read-gem-objects")
SWEEP(userptr, "userptr")
SWEEP(userptr_exec, "userptr-exec")
SWEEP(prime_import, "prime-import")
SWEEP(madvise_purge, "madvise-purge")
SWEEP(shrink_all, "shrink-all")

/*
 * Every allocation of the task fails (probability 100, make-it-fail) for
 * one call of each op; creation must fail with an errno, the others may
 * succeed when they need no new memory.
 */
static void subtest_all_fail(void)
{
	unsigned int failures = 0, dummy = 0;
	struct op_ctx c;
	size_t i;

	fi_open();
	ctx_init(&c);
	fi_configure("100");

	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		const struct op *op = &ops[i];
		int ret;

		if (!op_supported(op, &c))
			continue;
		if (op->setup)
			op->setup(&c);
		fd_put(make_it_fail_fd, 1);
		ret = op->run(&c);
		fd_put(make_it_fail_fd, 0);
		igt_info("%s with every allocation failing: %s", op->name,
			 igt_errname(ret));
		igt_assert_f(ret == 0 || allowed_error(ret),
			     "%s with every allocation failing returned %s",
			     op->name, igt_errname(ret));
		if (op->run == run_create)
			igt_assert_f(ret != 0,
				     "create succeeded with every allocation failing");
		if (ret)
			failures++;
		if (op->check)
			op->check(&c, ret);
		if (ret == 0 && op->undo)
			op->undo(&c);
		if (op->teardown)
			op->teardown(&c);
		igt_assert_eq(gem_wait_object_count(c.fd, c.baseline),
			      c.baseline);
		/* the same op without injection */
		run_injected(op, &c, 0, &dummy);
		igt_assert_eq(dummy, 0);
	}
	fi_configure("0");
	igt_assert_lt(0, failures);
	close(c.fd2);
	close(c.fd);
}

/*
 * A random mix of creates, pwrites, preads, mmaps and closes on a set of
 * live objects with 20% of the task's allocations failing; every call
 * succeeds or fails cleanly, and at the end every object closes and the
 * count returns to where it began.
 */
static void subtest_random(void)
{
	enum { NOBJ = 16, ROUNDS = 600 };
	uint32_t handles[NOBJ] = { 0 };
	unsigned int fails = 0, calls = 0;
	struct op_ctx c;
	int i, r;

	fi_open();
	ctx_init(&c);
	fi_configure("20");
	srandom(0x915);

	for (r = 0; r < ROUNDS; r++) {
		int k = random() % NOBJ, what = random() % 5, ret;
		/* off + PAGE_SZ + 1 <= size */
		uint64_t size = (2 + random() % 3) * PAGE_SZ;
		uint64_t off = random() % (PAGE_SZ - 1);
		void *ptr = NULL;

		if (!handles[k])
			what = 0;
		fd_put(make_it_fail_fd, 1);
		switch (what) {
		case 0:
			if (handles[k]) {
				ret = __gem_close(c.fd, handles[k]);
				if (!ret)
					handles[k] = 0;
			} else {
				ret = __gem_create(c.fd, &size, &handles[k]);
			}
			break;
		case 1:
			ret = __gem_write(c.fd, handles[k], off, c.buf,
					  PAGE_SZ + 1);
			break;
		case 2:
			ret = __gem_read(c.fd, handles[k], off, c.buf,
					 PAGE_SZ + 1);
			break;
		case 3:
			ret = __gem_mmap(c.fd, handles[k], 0, PAGE_SZ, 0,
					 &ptr);
			break;
		default:
			ret = __gem_set_domain(c.fd, handles[k],
					       I915_GEM_DOMAIN_CPU, 0);
			break;
		}
		fd_put(make_it_fail_fd, 0);
		calls++;
		igt_assert_f(ret == 0 || allowed_error(ret),
			     "round %d op %d returned %s", r, what,
			     igt_errname(ret));
		if (ret)
			fails++;
		if (ptr)
			munmap(ptr, PAGE_SZ);
	}
	fi_configure("0");
	for (i = 0; i < NOBJ; i++)
		if (handles[i])
			gem_close(c.fd, handles[i]);
	igt_info("%u calls, %u failed", calls, fails);
	igt_assert_eq(gem_wait_object_count(c.fd, c.baseline), c.baseline);
	close(c.fd2);
	close(c.fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(sweep_create),
	SUBTEST(sweep_create_ext),
	SUBTEST(sweep_query),
	SUBTEST(sweep_pwrite),
	SUBTEST(sweep_pread),
	SUBTEST(sweep_mmap),
	SUBTEST(sweep_mmap_wc),
	SUBTEST(sweep_set_domain_cpu),
	SUBTEST(sweep_set_domain_gtt),
	SUBTEST(sweep_set_caching),
	SUBTEST(sweep_pin),
	SUBTEST(sweep_execbuf),
	SUBTEST(sweep_execbuf_fence_out),
	SUBTEST(sweep_execbuf_fence_array),
	SUBTEST(sweep_execbuf_timeline),
	SUBTEST(sweep_execbuf_corked),
	SUBTEST(sweep_flink),
	SUBTEST(sweep_open),
	SUBTEST(sweep_drop_caches),
	SUBTEST(sweep_read_gem_objects),
	SUBTEST(sweep_userptr),
	SUBTEST(sweep_userptr_exec),
	SUBTEST(sweep_prime_import),
	SUBTEST(sweep_madvise_purge),
	SUBTEST(sweep_shrink_all),
	SUBTEST(all_fail),
	SUBTEST(random),
};

igt_main(tests)
