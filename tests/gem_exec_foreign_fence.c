// SPDX-License-Identifier: GPL-2.0
/*
 * gem_exec_foreign_fence: an execbuffer that must wait for another
 * driver's fence does not wait on the CPU, nor holds its objects' locks.
 *
 * An i915 object is shared with vgem through a dma-buf, and vgem puts an
 * unsignalled write fence into its dma_resv (VGEM_FENCE_ATTACH).  Client
 * A's execbuffer reads that object and writes a second, shared one: its
 * batch must wait for the vgem fence (implicit sync), but the execbuffer
 * returns at once, its request queued.  Client B's execbuffer on the
 * second object answers at once too (queued behind A's, as upstream's
 * one timeline), and the object is busy until the fence is signalled and
 * A's store lands.
 *
 * The same with FENCE_IN and a sync_file of an unfinished i915 batch.
 *
 * Needs vgem (scripts/vm/run.sh --kmod vgem) for the first; skips
 * without it.
 */
#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <drm/vgem_drm.h>

#include "exec.h"

#define MAGIC		0xf0e1d2c3u
#define B_TIMEOUT_MS	3000	/* B's calls are interrupted after this */

static void on_alarm(int sig)
{
}

static int prime_handle_to_fd(int fd, uint32_t handle)
{
	struct drm_prime_handle args = { .handle = handle, .flags = DRM_CLOEXEC };

	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_PRIME_HANDLE_TO_FD, &args));
	return args.fd;
}

static uint32_t prime_fd_to_handle(int fd, int dmabuf)
{
	struct drm_prime_handle args = { .fd = dmabuf };

	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_PRIME_FD_TO_HANDLE, &args));
	return args.handle;
}

/* one ioctl, interrupted (EINTR) if it blocks for B_TIMEOUT_MS */
static int ioctl_bounded(int fd, unsigned long req, void *arg)
{
	struct itimerval it = {
		.it_value = { B_TIMEOUT_MS / 1000, (B_TIMEOUT_MS % 1000) * 1000 },
	};
	struct itimerval off = { };
	int ret;

	setitimer(ITIMER_REAL, &it, NULL);
	ret = ioctl(fd, req, arg) ? -errno : 0;
	setitimer(ITIMER_REAL, &off, NULL);
	return ret;
}

/*
 * Client A: on @fd, an execbuffer reading @in (no relocation: listed) and
 * storing MAGIC into @shared through a relocation, with @flags and @rsvd2.
 */
struct client_a {
	int fd, gen;
	uint32_t in, shared, batch;
	uint64_t flags, rsvd2;
};

static int run_client_a(void *arg)
{
	struct client_a *a = arg;
	struct drm_i915_gem_relocation_entry reloc = { };
	struct drm_i915_gem_exec_object2 obj[3] = { };
	struct drm_i915_gem_execbuffer2 eb = { };
	uint32_t cs[8], addr_at;
	unsigned int n;

	n = cs_store_dword(a->gen, cs, 0, MAGIC, &addr_at);
	n = cs_end(cs, n);
	gem_write(a->fd, a->batch, 0, cs, 4 * n);
	reloc.target_handle = a->shared;
	reloc.offset = 4 * addr_at;
	reloc.presumed_offset = ~0ull;
	reloc.read_domains = I915_GEM_DOMAIN_RENDER;
	reloc.write_domain = I915_GEM_DOMAIN_RENDER;
	obj[0].handle = a->in;
	obj[1].handle = a->shared;
	obj[2].handle = a->batch;
	obj[2].relocation_count = 1;
	obj[2].relocs_ptr = to_user_pointer(&reloc);
	eb.buffers_ptr = to_user_pointer(obj);
	eb.buffer_count = 3;
	eb.batch_len = 4 * n;
	eb.flags = a->flags;
	eb.rsvd2 = a->rsvd2;
	gem_execbuf(a->fd, &eb);
	return 0;
}

/*
 * A (@pid) returned at once; B, on its own file, runs a batch with
 * @shared_b, answered at once, and the object stays busy.
 */
static void client_b_not_blocked(int fd_b, uint32_t shared_b, pid_t pid)
{
	struct drm_i915_gem_exec_object2 obj[2] = { };
	struct drm_i915_gem_execbuffer2 eb = { };
	struct sigaction sa = { .sa_handler = on_alarm };
	int64_t timeout = 0;
	int status;

	igt_assert_eq(sigaction(SIGALRM, &sa, NULL), 0);
	igt_sleep_ms(500);
	igt_assert_f(waitpid(pid, &status, WNOHANG) == pid &&
		     WIFEXITED(status) && WEXITSTATUS(status) == 0,
		     "client A's execbuffer waited for its fence");

	obj[0].handle = shared_b;
	obj[1].handle = bbe_create(fd_b, 0);
	eb.buffers_ptr = to_user_pointer(obj);
	eb.buffer_count = 2;
	igt_assert_f(ioctl_bounded(fd_b, DRM_IOCTL_I915_GEM_EXECBUFFER2,
				   &eb) == 0,
		     "client B's execbuffer waited for client A's fence");
	gem_close(fd_b, obj[1].handle);
	igt_assert_err(__gem_wait(fd_b, shared_b, &timeout), -ETIME);
}

static void subtest_vgem_fence(void)
{
	int vfd = drm_open_named("vgem"), fd = drm_open_driver(), fd_b, dmabuf;
	struct drm_vgem_fence_attach attach = { .flags = VGEM_FENCE_WRITE };
	struct drm_vgem_fence_signal sig = { };
	struct client_a a = { .fd = fd };
	uint32_t v;
	pid_t pid;

	if (vfd < 0)
		igt_skip("no vgem (run.sh --kmod vgem)");
	a.gen = gem_gen(fd);
	a.in = gem_create(fd, PAGE_SZ);
	a.shared = gem_create(fd, PAGE_SZ);
	a.batch = gem_create(fd, PAGE_SZ);

	/* vgem's unsignalled write fence in the dma_resv of @in */
	dmabuf = prime_handle_to_fd(fd, a.in);
	attach.handle = prime_fd_to_handle(vfd, dmabuf);
	igt_assert_ok(igt_ioctl(vfd, DRM_IOCTL_VGEM_FENCE_ATTACH, &attach));

	fd_b = drm_open_driver();
	pid = igt_fork(run_client_a, &a);
	client_b_not_blocked(fd_b, gem_open(fd_b, gem_flink(fd, a.shared)),
			     pid);

	/* the fence signals: A's store runs */
	sig.fence = attach.out_fence;
	igt_assert_ok(igt_ioctl(vfd, DRM_IOCTL_VGEM_FENCE_SIGNAL, &sig));
	gem_sync(fd, a.shared);
	gem_read(fd, a.shared, 0, &v, sizeof(v));
	igt_assert_eq_u64(v, MAGIC);

	close(dmabuf);
	close(fd_b);
	close(vfd);
	close(fd);
}

/* FENCE_IN of a batch still running (slowed model): B is not blocked */
static void subtest_fence_in(void)
{
	int fd = drm_open_driver(), fd_b;
	struct client_a a = { .fd = fd };
	struct batch *slow;
	struct bo dummy;
	uint64_t rsvd2 = 0;
	unsigned int i;
	uint32_t v;
	pid_t pid;

	a.gen = gem_gen(fd);
	a.in = gem_create(fd, PAGE_SZ);
	a.shared = gem_create(fd, PAGE_SZ);
	a.batch = gem_create(fd, PAGE_SZ);

	/* ~3 s of NOOPs on an object of its own; its fence as FENCE_IN */
	sim_set_cmd_delay(1000);
	slow = batch_new(fd);
	bo_init(&dummy, fd, PAGE_SZ);
	for (i = 0; i < 3000; i++)
		batch_emit(slow, MI_NOOP);
	batch_add(slow, &dummy);
	igt_assert_ok(__batch_submit_wr(slow, I915_EXEC_FENCE_OUT, &rsvd2));
	a.flags = I915_EXEC_FENCE_IN;
	a.rsvd2 = rsvd2 >> 32;

	fd_b = drm_open_driver();
	pid = igt_fork(run_client_a, &a);
	client_b_not_blocked(fd_b, gem_open(fd_b, gem_flink(fd, a.shared)),
			     pid);
	sim_set_cmd_delay(0);
	gem_sync(fd, a.shared);
	gem_read(fd, a.shared, 0, &v, sizeof(v));
	igt_assert_eq_u64(v, MAGIC);

	close(rsvd2 >> 32);
	batch_free(slow);
	bo_fini(&dummy, fd);
	close(fd_b);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST_T(vgem_fence, 60),
	SUBTEST_T(fence_in, 60),
};

igt_main(tests)
