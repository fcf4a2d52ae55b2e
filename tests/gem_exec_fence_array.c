// SPDX-License-Identifier: GPL-2.0
/*
 * gem_exec_fence_array: EXECBUFFER2 with syncobjs, as Mesa (crocus) and
 * igt use them.
 *
 *  - GETPARAM EXEC_FENCE_ARRAY, EXEC_TIMELINE_FENCES, EXEC_SUBMIT_FENCE
 *    answer 1;
 *  - I915_EXEC_FENCE_ARRAY: an exec signals a syncobj, which SYNCOBJ_WAIT
 *    sees unsignalled while the (slowed) batch runs and signalled after;
 *    an exec waits for a syncobj another exec signalled;
 *  - a syncobj holding another driver's fence (vgem's, imported from a
 *    sync_file): the exec waiting for it returns at once and stays
 *    queued (busy, its store not done) until it signals;
 *  - the TIMELINE_FENCES extension: points signalled in order, waited
 *    for, SYNCOBJ_QUERY;
 *  - FENCE_SUBMIT with the fence of a batch still running;
 *  - every bad field gets upstream's errno, and a rejected exec signals
 *    nothing.
 *
 * The vgem subtest needs vgem (scripts/vm/run.sh --kmod vgem) and skips
 * without it.
 */
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <drm/vgem_drm.h>
#include <linux/dma-buf.h>

#include "exec.h"
#include "syncobj.h"

#define MAGIC		0x5e7c0b1du
#define DELAY_US	1000	/* per command, for the slow batches */
#define SLOW_NOOPS	1000	/* about a second */

/* the fields of EXECBUFFER2 a test sets, and what came back */
struct xb {
	uint64_t flags;
	uint64_t cliprects_ptr;
	uint32_t num_cliprects;
	uint64_t rsvd2;
};

/*
 * @noops MI_NOOPs, then @value stored into @target (a new batch object,
 * closed afterwards, so that nothing waits for an earlier batch).
 */
static int exec_store(int fd, uint32_t target, uint32_t value,
		      unsigned int noops, struct xb *x)
{
	struct drm_i915_gem_relocation_entry reloc = {
		.target_handle = target,
		.presumed_offset = ~0ull,
		.read_domains = I915_GEM_DOMAIN_RENDER,
		.write_domain = I915_GEM_DOMAIN_RENDER,
	};
	struct drm_i915_gem_exec_object2 obj[2] = { { .handle = target } };
	struct drm_i915_gem_execbuffer2 eb = { };
	uint32_t *cs, addr_at;
	unsigned int n;
	int ret;

	cs = calloc(noops + CS_STORE_DWORD_MAX + 2, sizeof(*cs));
	igt_assert(cs);
	for (n = 0; n < noops; n++)
		cs[n] = MI_NOOP;
	n += cs_store_dword(gem_gen(fd), cs + n, 0, value, &addr_at);
	reloc.offset = 4 * (noops + addr_at);
	n = cs_end(cs, n);
	obj[1].handle = gem_create(fd, (4 * n + PAGE_SZ - 1) & ~(PAGE_SZ - 1));
	gem_write(fd, obj[1].handle, 0, cs, 4 * n);
	free(cs);
	obj[1].relocation_count = 1;
	obj[1].relocs_ptr = to_user_pointer(&reloc);
	eb.buffers_ptr = to_user_pointer(obj);
	eb.buffer_count = 2;
	eb.batch_len = 4 * n;
	eb.flags = x->flags;
	eb.cliprects_ptr = x->cliprects_ptr;
	eb.num_cliprects = x->num_cliprects;
	eb.rsvd2 = x->rsvd2;
	ret = igt_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &eb);
	x->rsvd2 = eb.rsvd2;
	gem_close(fd, obj[1].handle);
	return ret;
}

/* an exec with a FENCE_ARRAY of @n entries */
static int exec_fences(int fd, uint32_t target, uint32_t value,
		       unsigned int noops,
		       const struct drm_i915_gem_exec_fence *f, unsigned int n)
{
	struct xb x = {
		.flags = I915_EXEC_FENCE_ARRAY,
		.cliprects_ptr = to_user_pointer(f),
		.num_cliprects = n,
	};

	return exec_store(fd, target, value, noops, &x);
}

/* an exec with one TIMELINE_FENCES extension of @n entries */
static int exec_timeline(int fd, uint32_t target, uint32_t value,
			 unsigned int noops,
			 const struct drm_i915_gem_exec_fence *f,
			 const uint64_t *points, unsigned int n)
{
	struct drm_i915_gem_execbuffer_ext_timeline_fences ext = {
		.base.name = DRM_I915_GEM_EXECBUFFER_EXT_TIMELINE_FENCES,
		.fence_count = n,
		.handles_ptr = to_user_pointer(f),
		.values_ptr = to_user_pointer(points),
	};
	struct xb x = {
		.flags = I915_EXEC_USE_EXTENSIONS,
		.cliprects_ptr = to_user_pointer(&ext),
	};

	return exec_store(fd, target, value, noops, &x);
}

static uint32_t read_u32(int fd, uint32_t handle)
{
	uint32_t v;

	gem_read(fd, handle, 0, &v, sizeof(v));
	return v;
}

static void subtest_getparams(void)
{
	int fd = drm_open_driver();

	igt_assert_eq(gem_getparam(fd, I915_PARAM_HAS_EXEC_FENCE_ARRAY), 1);
	igt_assert_eq(gem_getparam(fd, I915_PARAM_HAS_EXEC_TIMELINE_FENCES), 1);
	igt_assert_eq(gem_getparam(fd, I915_PARAM_HAS_EXEC_SUBMIT_FENCE), 1);
	close(fd);
}

/* a slow batch signals S: unsignalled while it runs, signalled after */
static void subtest_signal(void)
{
	int fd = drm_open_driver_render();
	uint32_t s = syncobj_create(fd, 0), t = gem_create(fd, PAGE_SZ);
	struct drm_i915_gem_exec_fence f = {
		.handle = s, .flags = I915_EXEC_FENCE_SIGNAL,
	};

	/* no fence yet: SYNCOBJ_WAIT says so */
	igt_assert_err(__syncobj_wait(fd, s, 0, 0), -EINVAL);
	sim_set_cmd_delay(DELAY_US);
	igt_assert_ok(exec_fences(fd, t, MAGIC, SLOW_NOOPS, &f, 1));
	igt_assert_err(__syncobj_wait(fd, s, 0, 0), -ETIME);
	igt_assert_ok(__syncobj_wait(fd, s, syncobj_deadline_ms(20000), 0));
	igt_assert_eq_u64(gem_busy(fd, t), 0);
	igt_assert_eq_u64(read_u32(fd, t), MAGIC);
	syncobj_destroy(fd, s);
	gem_close(fd, t);
	close(fd);
}

/* B waits for S, which A signals; B signals S2 */
static void subtest_wait_exec(void)
{
	int fd = drm_open_driver_render();
	uint32_t s = syncobj_create(fd, 0), s2 = syncobj_create(fd, 0);
	uint32_t ta = gem_create(fd, PAGE_SZ), tb = gem_create(fd, PAGE_SZ);
	struct drm_i915_gem_exec_fence fa = {
		.handle = s, .flags = I915_EXEC_FENCE_SIGNAL,
	};
	struct drm_i915_gem_exec_fence fb[2] = {
		{ .handle = s, .flags = I915_EXEC_FENCE_WAIT },
		{ .handle = s2, .flags = I915_EXEC_FENCE_SIGNAL },
	};

	sim_set_cmd_delay(DELAY_US);
	igt_assert_ok(exec_fences(fd, ta, 1, SLOW_NOOPS, &fa, 1));
	igt_assert_ok(exec_fences(fd, tb, 2, 0, fb, 2));
	/* A's batch is ahead in the ring: B was queued, not waited for */
	igt_assert_err(__syncobj_wait(fd, s, 0, 0), -ETIME);
	igt_assert_err(__syncobj_wait(fd, s2, 0, 0), -ETIME);
	igt_assert_ok(__syncobj_wait(fd, s2, syncobj_deadline_ms(20000), 0));
	igt_assert_ok(__syncobj_wait(fd, s, 0, 0));
	igt_assert_eq_u64(read_u32(fd, ta), 1);
	igt_assert_eq_u64(read_u32(fd, tb), 2);
	syncobj_destroy(fd, s);
	syncobj_destroy(fd, s2);
	gem_close(fd, ta);
	gem_close(fd, tb);
	close(fd);
}

struct waiter {
	int fd;
	uint32_t target, syncobj;
	bool timeline;
};

static int run_waiter(void *arg)
{
	struct waiter *w = arg;
	struct drm_i915_gem_exec_fence f = {
		.handle = w->syncobj, .flags = I915_EXEC_FENCE_WAIT,
	};
	uint64_t point = 0;

	if (w->timeline)
		igt_assert_ok(exec_timeline(w->fd, w->target, MAGIC, 0, &f,
					    &point, 1));
	else
		igt_assert_ok(exec_fences(w->fd, w->target, MAGIC, 0, &f, 1));
	return 0;
}

/*
 * A syncobj holding vgem's unsignalled fence, imported from a sync_file
 * (DMA_BUF_IOCTL_EXPORT_SYNC_FILE of a vgem dma-buf): the exec waiting
 * for it returns at once, and its batch is held until vgem signals,
 * through either array.
 */
static void vgem_wait(bool timeline)
{
	int vfd = drm_open_named("vgem"), fd = drm_open_driver_render(), dmabuf;
	int64_t timeout = 0;
	struct drm_vgem_fence_attach attach = { .flags = VGEM_FENCE_WRITE };
	struct drm_vgem_fence_signal sig = { };
	struct drm_mode_create_dumb dumb = {
		.width = 1024, .height = 1, .bpp = 32,
	};
	struct drm_prime_handle ph = { .flags = DRM_CLOEXEC };
	struct dma_buf_export_sync_file ex = { .flags = DMA_BUF_SYNC_WRITE };
	struct waiter w = { .fd = fd, .timeline = timeline };
	pid_t pid;

	if (vfd < 0)
		igt_skip("no vgem (run.sh --kmod vgem)");
	igt_assert_ok(igt_ioctl(vfd, DRM_IOCTL_MODE_CREATE_DUMB, &dumb));
	attach.handle = dumb.handle;
	igt_assert_ok(igt_ioctl(vfd, DRM_IOCTL_VGEM_FENCE_ATTACH, &attach));
	ph.handle = dumb.handle;
	igt_assert_ok(igt_ioctl(vfd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph));
	dmabuf = ph.fd;
	igt_assert_ok(igt_ioctl(dmabuf, DMA_BUF_IOCTL_EXPORT_SYNC_FILE, &ex));

	w.target = gem_create(fd, PAGE_SZ);
	w.syncobj = syncobj_create(fd, 0);
	igt_assert_ok(__syncobj_import_sync_file(fd, w.syncobj, ex.fd));
	igt_assert_err(__syncobj_wait(fd, w.syncobj, 0, 0), -ETIME);

	/* queued, not waited for on the CPU (a pread would wait for it) */
	pid = igt_fork(run_waiter, &w);
	igt_assert_eq(igt_wait(pid), 0);
	igt_sleep_ms(200);
	igt_assert_err(__gem_wait(fd, w.target, &timeout), -ETIME);

	sig.fence = attach.out_fence;
	igt_assert_ok(igt_ioctl(vfd, DRM_IOCTL_VGEM_FENCE_SIGNAL, &sig));
	gem_sync(fd, w.target);
	igt_assert_eq_u64(read_u32(fd, w.target), MAGIC);

	syncobj_destroy(fd, w.syncobj);
	gem_close(fd, w.target);
	close(ex.fd);
	close(dmabuf);
	close(vfd);
	close(fd);
}

static void subtest_vgem_sync_file(void)
{
	vgem_wait(false);
}

static void subtest_vgem_sync_file_timeline(void)
{
	vgem_wait(true);
}

/* timeline points 1 and 2 signalled by slow batches, in order */
static void subtest_timeline(void)
{
	int fd = drm_open_driver_render();
	uint32_t tl = syncobj_create(fd, 0), t = gem_create(fd, PAGE_SZ);
	uint32_t t2 = gem_create(fd, PAGE_SZ);
	struct drm_i915_gem_exec_fence sig = {
		.handle = tl, .flags = I915_EXEC_FENCE_SIGNAL,
	};
	struct drm_i915_gem_exec_fence wait = {
		.handle = tl, .flags = I915_EXEC_FENCE_WAIT,
	};
	uint64_t point;

	sim_set_cmd_delay(DELAY_US);
	point = 1;
	igt_assert_ok(exec_timeline(fd, t, 1, SLOW_NOOPS, &sig, &point, 1));
	igt_assert_err(__syncobj_timeline_wait(fd, tl, 1, 0, 0), -ETIME);
	igt_assert_eq_u64(syncobj_query(fd, tl), 0);
	igt_assert_ok(__syncobj_timeline_wait(fd, tl, 1,
					      syncobj_deadline_ms(20000), 0));
	igt_assert_eq_u64(syncobj_query(fd, tl), 1);
	igt_assert_eq_u64(read_u32(fd, t), 1);

	point = 2;
	igt_assert_ok(exec_timeline(fd, t, 2, SLOW_NOOPS, &sig, &point, 1));
	igt_assert_err(__syncobj_timeline_wait(fd, tl, 2, 0, 0), -ETIME);
	igt_assert_eq_u64(syncobj_query(fd, tl), 1);

	/* a wait for point 2, queued behind it */
	igt_assert_ok(exec_timeline(fd, t2, 3, 0, &wait, &point, 1));
	igt_assert_ok(__syncobj_timeline_wait(fd, tl, 2,
					      syncobj_deadline_ms(20000), 0));
	igt_assert_eq_u64(syncobj_query(fd, tl), 2);
	gem_sync(fd, t2);
	igt_assert_eq_u64(read_u32(fd, t), 2);
	igt_assert_eq_u64(read_u32(fd, t2), 3);

	/* point 0 signals the binary fence: the timeline's last point */
	point = 0;
	igt_assert_ok(exec_timeline(fd, t2, 4, 0, &sig, &point, 1));
	igt_assert_ok(__syncobj_wait(fd, tl, syncobj_deadline_ms(20000), 0));
	gem_sync(fd, t2);
	igt_assert_eq_u64(read_u32(fd, t2), 4);

	syncobj_destroy(fd, tl);
	gem_close(fd, t);
	gem_close(fd, t2);
	close(fd);
}

/* FENCE_SUBMIT of a running batch's fence: queued behind it at once */
static void subtest_submit(void)
{
	int fd = drm_open_driver_render();
	uint32_t ta = gem_create(fd, PAGE_SZ), tb = gem_create(fd, PAGE_SZ);
	struct xb a = { .flags = I915_EXEC_FENCE_OUT }, b = { };

	sim_set_cmd_delay(DELAY_US);
	igt_assert_ok(exec_store(fd, ta, 1, SLOW_NOOPS, &a));
	b.flags = I915_EXEC_FENCE_SUBMIT;
	b.rsvd2 = a.rsvd2 >> 32;
	igt_assert_ok(exec_store(fd, tb, 2, 0, &b));
	igt_assert_f(gem_busy(fd, ta), "the exec waited for its submit fence");
	gem_sync(fd, tb);
	igt_assert_eq_u64(gem_busy(fd, ta), 0);
	igt_assert_eq_u64(read_u32(fd, ta), 1);
	igt_assert_eq_u64(read_u32(fd, tb), 2);
	close(a.rsvd2 >> 32);
	gem_close(fd, ta);
	gem_close(fd, tb);
	close(fd);
}

/* a rejected exec signals nothing and stores nothing */
#define assert_rejected(fd, expr, err, s, t) do { \
	igt_assert_err(expr, err); \
	igt_assert_err(__syncobj_wait(fd, s, 0, 0), -EINVAL); \
	igt_assert_eq_u64(read_u32(fd, t), 0); \
} while (0)

static void subtest_bad(void)
{
	int fd = drm_open_driver_render();
	uint32_t s = syncobj_create(fd, 0), empty = syncobj_create(fd, 0);
	uint32_t tl = syncobj_create(fd, 0), t = gem_create(fd, PAGE_SZ);
	uint32_t done = syncobj_create(fd, DRM_SYNCOBJ_CREATE_SIGNALED);
	struct drm_i915_gem_exec_fence f[2] = {
		{ .handle = s, .flags = I915_EXEC_FENCE_SIGNAL },
	};
	struct drm_i915_gem_execbuffer_ext_timeline_fences ext = {
		.base.name = DRM_I915_GEM_EXECBUFFER_EXT_TIMELINE_FENCES,
		.fence_count = 2,
		.handles_ptr = to_user_pointer(f),
	};
	uint64_t points[2] = { 0, 0 };
	struct xb x;

	ext.values_ptr = to_user_pointer(points);

	/* FENCE_ARRAY: bad flags, handle, an empty wait, unreadable */
	f[1] = (struct drm_i915_gem_exec_fence){ .handle = done, .flags = 4 };
	assert_rejected(fd, exec_fences(fd, t, 1, 0, f, 2), -EINVAL, s, t);
	f[1] = (struct drm_i915_gem_exec_fence){
		.handle = 0x7fff, .flags = I915_EXEC_FENCE_WAIT };
	assert_rejected(fd, exec_fences(fd, t, 1, 0, f, 2), -ENOENT, s, t);
	f[1].handle = 0;
	assert_rejected(fd, exec_fences(fd, t, 1, 0, f, 2), -ENOENT, s, t);
	f[1].handle = empty;
	assert_rejected(fd, exec_fences(fd, t, 1, 0, f, 2), -EINVAL, s, t);
	x = (struct xb){ .flags = I915_EXEC_FENCE_ARRAY, .num_cliprects = 2,
			 .cliprects_ptr = 8 };
	assert_rejected(fd, exec_store(fd, t, 1, 0, &x), -EFAULT, s, t);
	/* cliprects without FENCE_ARRAY are still -EINVAL */
	x = (struct xb){ .num_cliprects = 2,
			 .cliprects_ptr = to_user_pointer(f) };
	assert_rejected(fd, exec_store(fd, t, 1, 0, &x), -EINVAL, s, t);
	/* USE_EXTENSIONS with FENCE_ARRAY, or with num_cliprects */
	f[1] = (struct drm_i915_gem_exec_fence){
		.handle = done, .flags = I915_EXEC_FENCE_WAIT };
	x = (struct xb){ .flags = I915_EXEC_FENCE_ARRAY |
			 I915_EXEC_USE_EXTENSIONS,
			 .num_cliprects = 2, .cliprects_ptr = to_user_pointer(f) };
	assert_rejected(fd, exec_store(fd, t, 1, 0, &x), -EINVAL, s, t);
	x = (struct xb){ .flags = I915_EXEC_USE_EXTENSIONS, .num_cliprects = 1,
			 .cliprects_ptr = to_user_pointer(&ext) };
	assert_rejected(fd, exec_store(fd, t, 1, 0, &x), -EINVAL, s, t);
	/* FENCE_IN and FENCE_SUBMIT together; a bad submit fd */
	x = (struct xb){ .flags = I915_EXEC_FENCE_IN | I915_EXEC_FENCE_SUBMIT };
	assert_rejected(fd, exec_store(fd, t, 1, 0, &x), -EINVAL, s, t);
	x = (struct xb){ .flags = I915_EXEC_FENCE_SUBMIT, .rsvd2 = 0 };
	assert_rejected(fd, exec_store(fd, t, 1, 0, &x), -EINVAL, s, t);

	/* the extension chain: name, flags, rsvd, unreadable, a loop */
	ext.base.name = 1;
	x = (struct xb){ .flags = I915_EXEC_USE_EXTENSIONS,
			 .cliprects_ptr = to_user_pointer(&ext) };
	assert_rejected(fd, exec_store(fd, t, 1, 0, &x), -EINVAL, s, t);
	ext.base.name = DRM_I915_GEM_EXECBUFFER_EXT_TIMELINE_FENCES;
	ext.base.flags = 1;
	assert_rejected(fd, exec_store(fd, t, 1, 0, &x), -EINVAL, s, t);
	ext.base.flags = 0;
	ext.base.rsvd[1] = 1;
	assert_rejected(fd, exec_store(fd, t, 1, 0, &x), -EINVAL, s, t);
	ext.base.rsvd[1] = 0;
	ext.base.next_extension = 8;
	assert_rejected(fd, exec_store(fd, t, 1, 0, &x), -EFAULT, s, t);
	ext.base.next_extension = to_user_pointer(&ext);
	ext.fence_count = 0;
	assert_rejected(fd, exec_store(fd, t, 1, 0, &x), -E2BIG, s, t);
	ext.base.next_extension = 0;
	ext.fence_count = 2;
	ext.values_ptr = 8;
	assert_rejected(fd, exec_store(fd, t, 1, 0, &x), -EFAULT, s, t);
	ext.values_ptr = to_user_pointer(points);

	/* timeline entries: bad flags, handle, empty, missing point */
	f[1] = (struct drm_i915_gem_exec_fence){ .handle = done, .flags = 4 };
	assert_rejected(fd, exec_store(fd, t, 1, 0, &x), -EINVAL, s, t);
	f[1] = (struct drm_i915_gem_exec_fence){
		.handle = 0x7fff, .flags = I915_EXEC_FENCE_WAIT };
	assert_rejected(fd, exec_store(fd, t, 1, 0, &x), -ENOENT, s, t);
	f[1].handle = empty;
	assert_rejected(fd, exec_store(fd, t, 1, 0, &x), -EINVAL, s, t);
	f[1].handle = done;	/* binary, no point 5 */
	points[1] = 5;
	assert_rejected(fd, exec_store(fd, t, 1, 0, &x), -EINVAL, s, t);
	/* waiting for and signalling one point */
	f[1] = (struct drm_i915_gem_exec_fence){ .handle = tl,
		.flags = I915_EXEC_FENCE_WAIT | I915_EXEC_FENCE_SIGNAL };
	points[1] = 1;
	{
		uint64_t p = 1;
		struct drm_i915_gem_exec_fence g = {
			.handle = tl, .flags = I915_EXEC_FENCE_SIGNAL };
		uint32_t t2 = gem_create(fd, PAGE_SZ);

		igt_assert_ok(exec_timeline(fd, t2, 1, 0, &g, &p, 1));
		gem_sync(fd, t2);
		gem_close(fd, t2);
	}
	assert_rejected(fd, exec_store(fd, t, 1, 0, &x), -EINVAL, s, t);
	/* a point not there yet on a timeline */
	f[1].flags = I915_EXEC_FENCE_WAIT;
	points[1] = 3;
	assert_rejected(fd, exec_store(fd, t, 1, 0, &x), -EINVAL, s, t);
	igt_assert_eq_u64(syncobj_query(fd, tl), 1);

	/* and then the same arrays, right, work */
	points[1] = 1;
	igt_assert_ok(exec_store(fd, t, 7, 0, &x));
	igt_assert_ok(__syncobj_wait(fd, s, syncobj_deadline_ms(20000), 0));
	gem_sync(fd, t);
	igt_assert_eq_u64(read_u32(fd, t), 7);

	syncobj_destroy(fd, s);
	syncobj_destroy(fd, empty);
	syncobj_destroy(fd, tl);
	syncobj_destroy(fd, done);
	gem_close(fd, t);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(getparams),
	SUBTEST_T(signal, 60),
	SUBTEST_T(wait_exec, 60),
	SUBTEST_T(vgem_sync_file, 60),
	SUBTEST_T(vgem_sync_file_timeline, 60),
	SUBTEST_T(timeline, 60),
	SUBTEST_T(submit, 60),
	SUBTEST_T(bad, 60),
};

igt_main(tests)
