// SPDX-License-Identifier: GPL-2.0
/*
 * gem_exec_async: an execbuffer that depends on a fence that has not
 * signalled (another driver's, here vgem's "cork") returns at once; its
 * request is queued and published (busy, its out-fence pending) and runs
 * when the fence signals, as upstream's do:
 *
 *  - vgem_cork: vgem's write fence in the dma_resv of an object the batch
 *    reads; the request stays queued past three hang checks without being
 *    taken for a hang, then its store lands;
 *  - fence_in: FENCE_IN with a sync_file of vgem's fence;
 *  - syncobj: a FENCE_ARRAY wait on a syncobj holding vgem's fence;
 *  - order: a batch without dependencies behind a corked one, and another
 *    client's, are held back too (one timeline, as upstream's legacy
 *    ring): both return at once, and run after it, in order;
 *  - close: the submitter closes its file with its request corked: it
 *    runs when the cork signals, its store seen through another file;
 *  - wedge: the GPU wedged (reset=0) with a request corked: it stays busy
 *    until the cork signals, then completes with -EIO, as igt's gem_eio
 *    in-flight-external expects;
 *  - unwedge: a request corked across a wedge and an unwedge completes
 *    with -EIO when the cork signals, its store not run; work submitted
 *    after the unwedge runs;
 *  - banned: a client banned by a hang (not recoverable: its first) has
 *    its request behind the hang in the ring and its corked one skipped
 *    with -EIO, while an innocent request between them runs;
 *  - nonblock: on an O_NONBLOCK file, execbuffers behind a cork fill the
 *    queue and then answer -EWOULDBLOCK; on a blocking file the next one
 *    waits, interruptibly (EINTR); every one runs after the cork.
 *
 * Needs vgem (scripts/vm/run.sh --kmod vgem); skips without it.
 */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#include <unistd.h>

#include <drm/vgem_drm.h>
#include <linux/dma-buf.h>

#include "exec.h"
#include "syncobj.h"

#define MAGIC		0x600dc0deu
#define RETURN_MS	1000	/* "at once": generous for TCG */

struct cork {
	int vfd;
	uint32_t vhandle;
	int dmabuf;
	uint32_t fence;
	struct bo bo;		/* the vgem buffer, imported */
};

/* A vgem buffer with an unsignalled write fence, imported into @fd. */
static void cork_plug(struct cork *c, int fd)
{
	struct drm_mode_create_dumb dumb = {
		.width = 1024, .height = 1, .bpp = 32,
	};
	struct drm_vgem_fence_attach attach = { .flags = VGEM_FENCE_WRITE };
	struct drm_prime_handle ph = { .flags = DRM_CLOEXEC };

	c->vfd = drm_open_named("vgem");
	if (c->vfd < 0)
		igt_skip("no vgem (run.sh --kmod vgem)");
	igt_assert_ok(igt_ioctl(c->vfd, DRM_IOCTL_MODE_CREATE_DUMB, &dumb));
	c->vhandle = dumb.handle;
	attach.handle = dumb.handle;
	igt_assert_ok(igt_ioctl(c->vfd, DRM_IOCTL_VGEM_FENCE_ATTACH, &attach));
	c->fence = attach.out_fence;
	ph.handle = dumb.handle;
	igt_assert_ok(igt_ioctl(c->vfd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &ph));
	c->dmabuf = ph.fd;

	memset(&ph, 0, sizeof(ph));
	ph.fd = c->dmabuf;
	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &ph));
	memset(&c->bo, 0, sizeof(c->bo));
	c->bo.handle = ph.handle;
	c->bo.size = dumb.size;
}

/* A sync_file of the cork's fence. */
static int cork_sync_file(struct cork *c)
{
	struct dma_buf_export_sync_file ex = { .flags = DMA_BUF_SYNC_WRITE };

	igt_assert_ok(igt_ioctl(c->dmabuf, DMA_BUF_IOCTL_EXPORT_SYNC_FILE,
				&ex));
	return ex.fd;
}

static void cork_unplug(struct cork *c)
{
	struct drm_vgem_fence_signal sig = { .fence = c->fence };

	igt_assert_ok(igt_ioctl(c->vfd, DRM_IOCTL_VGEM_FENCE_SIGNAL, &sig));
}

static void cork_fini(struct cork *c, int fd)
{
	gem_close(fd, c->bo.handle);
	close(c->dmabuf);
	close(c->vfd);
}

/* Is the sync_file still pending (poll answers nothing at once)? */
static bool fence_pending(int sync_fd)
{
	struct pollfd p = { .fd = sync_fd, .events = POLLIN };

	return poll(&p, 1, 0) == 0;
}

static uint32_t read_u32(int fd, uint32_t handle)
{
	uint32_t v;

	gem_read(fd, handle, 0, &v, sizeof(v));
	return v;
}

static int64_t wait_ns(int fd, uint32_t handle, int64_t ns)
{
	return __gem_wait(fd, handle, &ns);
}

/*
 * A batch storing @value at @dst, listing @dep (the cork) if not NULL;
 * submitted with @flags and @rsvd2 (FENCE_OUT comes back in it).  Asserts
 * that it returned within RETURN_MS.
 */
static int submit_store(int fd, struct bo *dst, uint32_t value,
			struct bo *dep, uint64_t flags, uint64_t *rsvd2)
{
	struct batch *b = batch_new(fd);
	double t;
	int ret;

	emit_store_dword(b, dst, 0, value);
	if (dep)
		batch_add(b, dep);
	t = igt_now();
	ret = __batch_submit_wr(b, flags, rsvd2);
	t = igt_now() - t;
	batch_free(b);
	igt_assert_f(t < RETURN_MS / 1000.0,
		     "the execbuffer took %.2f s: it waited on the CPU", t);
	return ret;
}

/* Queued, not run: busy, WAIT times out, the value not there. */
static void assert_queued(int fd, struct bo *dst, int out_fence)
{
	igt_assert_f(gem_busy(fd, dst->handle),
		     "the queued request's object is not busy");
	igt_assert_err(wait_ns(fd, dst->handle, 0), -ETIME);
	if (out_fence >= 0)
		igt_assert_f(fence_pending(out_fence),
			     "the queued request's out-fence signalled");
}

static void assert_landed(int fd, struct bo *dst, uint32_t value)
{
	gem_sync(fd, dst->handle);
	igt_assert_eq_u64(read_u32(fd, dst->handle), value);
}

static void subtest_vgem_cork(void)
{
	int fd = drm_open_driver();
	uint64_t rsvd2 = 0;
	struct cork c;
	struct bo dst;

	cork_plug(&c, fd);
	bo_init(&dst, fd, PAGE_SZ);
	igt_assert_ok(submit_store(fd, &dst, MAGIC, &c.bo, I915_EXEC_FENCE_OUT,
				   &rsvd2));
	assert_queued(fd, &dst, rsvd2 >> 32);
	/* queued, not hung: three hang checks of 100 ms */
	gem_set_hangcheck_ms(100);
	igt_sleep_ms(1000);
	assert_queued(fd, &dst, rsvd2 >> 32);

	cork_unplug(&c);
	assert_landed(fd, &dst, MAGIC);
	igt_assert_eq(sync_file_status(rsvd2 >> 32), 1);
	igt_assert_eq(gem_wedged_debugfs(fd), 0);

	close(rsvd2 >> 32);
	bo_fini(&dst, fd);
	cork_fini(&c, fd);
	close(fd);
}

static void subtest_fence_in(void)
{
	int fd = drm_open_driver();
	uint64_t rsvd2;
	struct cork c;
	struct bo dst;
	int in;

	cork_plug(&c, fd);
	in = cork_sync_file(&c);
	bo_init(&dst, fd, PAGE_SZ);
	rsvd2 = in;
	igt_assert_ok(submit_store(fd, &dst, MAGIC, NULL,
				   I915_EXEC_FENCE_IN | I915_EXEC_FENCE_OUT,
				   &rsvd2));
	assert_queued(fd, &dst, rsvd2 >> 32);
	cork_unplug(&c);
	assert_landed(fd, &dst, MAGIC);
	igt_assert_eq(sync_file_status(rsvd2 >> 32), 1);

	close(rsvd2 >> 32);
	close(in);
	bo_fini(&dst, fd);
	cork_fini(&c, fd);
	close(fd);
}

/* FENCE_ARRAY: wait for a syncobj holding the cork, signal another. */
static void subtest_syncobj(void)
{
	int fd = drm_open_driver(), in;
	struct drm_i915_gem_exec_fence f[2];
	struct drm_i915_gem_execbuffer2 eb = { };
	struct drm_i915_gem_exec_object2 obj[2] = { };
	struct batch *b;
	struct cork c;
	struct bo dst;
	double t;

	cork_plug(&c, fd);
	in = cork_sync_file(&c);
	f[0].handle = syncobj_create(fd, 0);
	f[0].flags = I915_EXEC_FENCE_WAIT;
	igt_assert_ok(__syncobj_import_sync_file(fd, f[0].handle, in));
	f[1].handle = syncobj_create(fd, 0);
	f[1].flags = I915_EXEC_FENCE_SIGNAL;
	bo_init(&dst, fd, PAGE_SZ);

	/* the store through a relocation: batch_* builds it, submitted here */
	b = batch_new(fd);
	emit_store_dword(b, &dst, 0, MAGIC);
	batch_end(b);
	gem_write(fd, b->bo.handle, 0, b->dw, batch_offset(b));
	obj[0].handle = dst.handle;
	obj[1].handle = b->bo.handle;
	obj[1].relocation_count = b->nreloc;
	obj[1].relocs_ptr = to_user_pointer(b->reloc);
	b->reloc[0].target_handle = dst.handle;
	eb.buffers_ptr = to_user_pointer(obj);
	eb.buffer_count = 2;
	eb.batch_len = batch_offset(b);
	eb.flags = I915_EXEC_FENCE_ARRAY;
	eb.cliprects_ptr = to_user_pointer(f);
	eb.num_cliprects = 2;
	t = igt_now();
	gem_execbuf(fd, &eb);
	t = igt_now() - t;
	igt_assert_f(t < RETURN_MS / 1000.0,
		     "the execbuffer took %.2f s: it waited on the CPU", t);

	assert_queued(fd, &dst, -1);
	igt_assert_err(__syncobj_wait(fd, f[1].handle, 0, 0), -ETIME);
	cork_unplug(&c);
	igt_assert_ok(__syncobj_wait(fd, f[1].handle,
				     syncobj_deadline_ms(10000), 0));
	assert_landed(fd, &dst, MAGIC);

	batch_free(b);
	syncobj_destroy(fd, f[0].handle);
	syncobj_destroy(fd, f[1].handle);
	close(in);
	bo_fini(&dst, fd);
	cork_fini(&c, fd);
	close(fd);
}

/*
 * Behind a corked store of 1: this file's store of 2 and another file's
 * store of 3 to its own object, neither with a dependency.  Both wait
 * for the corked one (one timeline); 2 lands after 1.
 */
static void subtest_order(void)
{
	int fd = drm_open_driver(), fd2 = drm_open_driver();
	uint64_t r1 = 0, r2 = 0, r3 = 0;
	struct bo dst, dst2;
	struct cork c;

	cork_plug(&c, fd);
	bo_init(&dst, fd, PAGE_SZ);
	bo_init(&dst2, fd2, PAGE_SZ);
	igt_assert_ok(submit_store(fd, &dst, 1, &c.bo, I915_EXEC_FENCE_OUT,
				   &r1));
	igt_assert_ok(submit_store(fd, &dst, 2, NULL, I915_EXEC_FENCE_OUT,
				   &r2));
	igt_assert_ok(submit_store(fd2, &dst2, 3, NULL, I915_EXEC_FENCE_OUT,
				   &r3));
	igt_sleep_ms(200);
	assert_queued(fd, &dst, r1 >> 32);
	igt_assert(fence_pending(r2 >> 32));
	assert_queued(fd2, &dst2, r3 >> 32);

	cork_unplug(&c);
	assert_landed(fd, &dst, 2);
	assert_landed(fd2, &dst2, 3);
	igt_assert_eq(sync_file_status(r1 >> 32), 1);
	igt_assert_eq(sync_file_status(r2 >> 32), 1);
	igt_assert_eq(sync_file_status(r3 >> 32), 1);

	close(r1 >> 32);
	close(r2 >> 32);
	close(r3 >> 32);
	bo_fini(&dst2, fd2);
	bo_fini(&dst, fd);
	cork_fini(&c, fd);
	close(fd2);
	close(fd);
}

static void subtest_close(void)
{
	int fd = drm_open_driver(), fd2 = drm_open_driver();
	long long before, after, bytes;
	struct cork c;
	struct bo dst;
	uint32_t h2;

	/* the objects of earlier subtests retired and freed first */
	gem_quiescent_gpu(fd2);
	igt_gem_objects(fd2, &before, &bytes);
	cork_plug(&c, fd);
	bo_init(&dst, fd, PAGE_SZ);
	h2 = gem_open(fd2, gem_flink(fd, dst.handle));
	igt_assert_ok(submit_store(fd, &dst, MAGIC, &c.bo, 0, NULL));
	assert_queued(fd2, &(struct bo){ .handle = h2 }, -1);

	/* the submitter goes with its request queued */
	gem_close(fd, c.bo.handle);
	close(fd);
	igt_sleep_ms(200);
	igt_assert(gem_busy(fd2, h2));
	cork_unplug(&c);
	gem_sync(fd2, h2);
	igt_assert_eq_u64(read_u32(fd2, h2), MAGIC);

	gem_close(fd2, h2);
	close(c.dmabuf);
	close(c.vfd);
	gem_quiescent_gpu(fd2);
	igt_gem_objects(fd2, &after, &bytes);
	igt_assert_eq(after, before);
	close(fd2);
}

static void subtest_wedge(void)
{
	int fd = drm_open_driver();
	uint64_t rsvd2 = 0;
	struct cork c;
	struct bo dst;

	gem_require_unwedged(fd, 1000);
	cork_plug(&c, fd);
	bo_init(&dst, fd, PAGE_SZ);
	igt_assert_ok(submit_store(fd, &dst, MAGIC, &c.bo, I915_EXEC_FENCE_OUT,
				   &rsvd2));
	gem_set_reset(0);
	gem_force_reset(fd);	/* reset=0: wedges */
	igt_assert_eq(gem_wedged_debugfs(fd), 1);
	igt_assert(gem_is_wedged(fd));

	/* upstream: still busy until its dependency signals */
	igt_sleep_ms(200);
	assert_queued(fd, &dst, rsvd2 >> 32);
	cork_unplug(&c);
	igt_assert_eq(wait_ns(fd, dst.handle, 10ll * 1000 * 1000 * 1000), 0);
	igt_assert_eq(sync_file_status(rsvd2 >> 32), -EIO);
	igt_assert_eq_u64(read_u32(fd, dst.handle), 0);

	gem_unwedge(fd);
	close(rsvd2 >> 32);
	bo_fini(&dst, fd);
	cork_fini(&c, fd);
	close(fd);
}

/* A batch that runs 500 MI_NOOPs (ACTHD moves) and jumps to its start. */
static struct batch *loop_batch(int fd)
{
	struct batch *b = batch_new(fd);
	unsigned int i;

	for (i = 0; i < 500; i++)
		batch_emit(b, MI_NOOP);
	emit_batch_start(b, &b->bo, 0);
	return b;
}

/* Wait up to @ms for @sync_fd to signal; its status then. */
static int sync_file_wait(int sync_fd, int ms)
{
	struct pollfd p = { .fd = sync_fd, .events = POLLIN };

	igt_assert_f(poll(&p, 1, ms) == 1, "no signal within %d ms", ms);
	return sync_file_status(sync_fd);
}

/*
 * A client that is not recoverable is banned by its first hang: its
 * request behind the hang in the ring and its request queued behind a
 * cork are skipped with -EIO (their stores never land), an innocent
 * client's request between them runs.
 */
static void subtest_banned(void)
{
	struct drm_i915_gem_context_param p = {
		.param = I915_CONTEXT_PARAM_RECOVERABLE,
	};
	int fd = drm_open_driver(), ifd = drm_open_driver();
	uint64_t loop = 0, ring = 0, inno = 0, queued = 0;
	struct bo dst, qdst, idst;
	struct batch *b;
	struct cork c;

	gem_require_unwedged(fd, 1000);
	gem_set_reset(1);
	gem_set_hangcheck_ms(100);
	igt_assert_ok(__gem_context_param(fd, true, &p));
	cork_plug(&c, fd);
	bo_init(&dst, fd, PAGE_SZ);
	bo_init(&qdst, fd, PAGE_SZ);
	bo_init(&idst, ifd, PAGE_SZ);

	b = loop_batch(fd);
	igt_assert_ok(__batch_submit_wr(b, I915_EXEC_FENCE_OUT, &loop));
	igt_assert_ok(submit_store(fd, &dst, MAGIC, NULL, I915_EXEC_FENCE_OUT,
				   &ring));
	igt_assert_ok(submit_store(ifd, &idst, MAGIC, NULL,
				   I915_EXEC_FENCE_OUT, &inno));
	igt_assert_ok(submit_store(fd, &qdst, MAGIC, &c.bo,
				   I915_EXEC_FENCE_OUT, &queued));

	igt_assert_eq(sync_file_wait(loop >> 32, 30000), -EIO);
	igt_assert_eq(sync_file_wait(ring >> 32, 10000), -EIO);
	igt_assert_eq(sync_file_wait(inno >> 32, 10000), 1);
	assert_landed(ifd, &idst, MAGIC);
	igt_assert_eq_u64(read_u32(fd, dst.handle), 0);
	igt_assert_eq(submit_store(fd, &dst, MAGIC, NULL, 0, NULL), -EIO);

	cork_unplug(&c);
	igt_assert_eq(sync_file_wait(queued >> 32, 10000), -EIO);
	igt_assert_eq_u64(read_u32(fd, qdst.handle), 0);
	igt_assert_eq(gem_wedged_debugfs(fd), 0);

	close(loop >> 32);
	close(ring >> 32);
	close(inno >> 32);
	close(queued >> 32);
	batch_free(b);
	bo_fini(&dst, fd);
	bo_fini(&qdst, fd);
	bo_fini(&idst, ifd);
	cork_fini(&c, fd);
	close(ifd);
	close(fd);
}

/*
 * Corked across a wedge and an unwedge: when the cork signals, the
 * request completes with -EIO and its store never lands (upstream's
 * unwedge waits for it; either way it does not run).
 */
static void subtest_unwedge(void)
{
	int fd = drm_open_driver();
	uint64_t rsvd2 = 0;
	struct cork c;
	struct bo dst, after;

	gem_require_unwedged(fd, 1000);
	cork_plug(&c, fd);
	bo_init(&dst, fd, PAGE_SZ);
	bo_init(&after, fd, PAGE_SZ);
	igt_assert_ok(submit_store(fd, &dst, MAGIC, &c.bo, I915_EXEC_FENCE_OUT,
				   &rsvd2));
	gem_set_reset(0);
	gem_force_reset(fd);	/* reset=0: wedges */
	igt_assert_eq(gem_wedged_debugfs(fd), 1);
	/* gem_unwedge() without its blit, which would wait behind the cork */
	gem_set_reset(1);
	gem_force_reset(fd);
	igt_assert_eq(gem_wedged_debugfs(fd), 0);
	/* new work behind it runs once the cork signals */
	igt_assert_ok(submit_store(fd, &after, MAGIC, NULL, 0, NULL));
	assert_queued(fd, &dst, rsvd2 >> 32);

	cork_unplug(&c);
	igt_assert_eq(sync_file_wait(rsvd2 >> 32, 10000), -EIO);
	assert_landed(fd, &after, MAGIC);
	igt_assert_eq_u64(read_u32(fd, dst.handle), 0);

	close(rsvd2 >> 32);
	bo_fini(&dst, fd);
	bo_fini(&after, fd);
	cork_fini(&c, fd);
	close(fd);
}

static void on_alarm(int sig)
{
}

#define NONBLOCK_MAX	100000

/* One EXECBUFFER2, not restarted on EINTR or EAGAIN as igt_ioctl() is. */
static int raw_execbuf(int fd, struct drm_i915_gem_execbuffer2 *eb)
{
	return ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, eb) ? -errno : 0;
}

static void subtest_nonblock(void)
{
	int fd = drm_open_driver();
	struct sigaction sa = { .sa_handler = on_alarm };
	struct itimerval it = { .it_value = { 0, 500 * 1000 } }, off = { };
	struct drm_i915_gem_exec_object2 obj[2] = { };
	struct drm_i915_gem_execbuffer2 eb = { };
	unsigned int count = 0;
	struct cork c;
	int ret;

	cork_plug(&c, fd);
	obj[0].handle = c.bo.handle;
	obj[1].handle = bbe_create(fd, 0);
	eb.buffers_ptr = to_user_pointer(obj);
	eb.buffer_count = 2;

	igt_assert_eq(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK), 0);
	while ((ret = raw_execbuf(fd, &eb)) == 0 && count < NONBLOCK_MAX)
		count++;
	igt_info("%u execbuffers queued behind the cork\n", count);
	igt_assert_err(ret, -EWOULDBLOCK);
	igt_assert(count > 2);
	assert_queued(fd, &(struct bo){ .handle = obj[1].handle }, -1);

	/* blocking: the next one waits for the queue, until a signal */
	igt_assert_eq(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK), 0);
	igt_assert_eq(sigaction(SIGALRM, &sa, NULL), 0);
	setitimer(ITIMER_REAL, &it, NULL);
	ret = raw_execbuf(fd, &eb);
	setitimer(ITIMER_REAL, &off, NULL);
	igt_assert_err(ret, -EINTR);

	cork_unplug(&c);
	gem_sync(fd, obj[1].handle);
	igt_assert_ok(__gem_execbuf(fd, &eb));
	gem_sync(fd, obj[1].handle);

	gem_close(fd, obj[1].handle);
	cork_fini(&c, fd);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST_T(vgem_cork, 60),
	SUBTEST_T(fence_in, 60),
	SUBTEST_T(syncobj, 60),
	SUBTEST_T(order, 60),
	SUBTEST_T(close, 60),
	SUBTEST_T(wedge, 60),
	SUBTEST_T(banned, 60),
	SUBTEST_T(unwedge, 60),
	SUBTEST_T(nonblock, 120),
};

igt_main(tests)
