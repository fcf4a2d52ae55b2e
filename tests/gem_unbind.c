// SPDX-License-Identifier: GPL-2.0
/*
 * gem_unbind: the device goes away under its clients and comes back.
 *
 * The GPU is unbound from the driver through sysfs
 * (/sys/bus/pci/drivers/i915/unbind, as a hot unplug or a driver switch
 * does) and bound again:
 *
 *  - idle: every ioctl on a file that stays open answers -ENODEV
 *    afterwards, GETPARAM too (the -m32 build goes through the driver's
 *    own compat path); closing works; bind brings a device on which a
 *    blit lands.
 *  - exec_waiting: an EXECBUFFER2 waiting for its FENCE_IN when the
 *    unbind starts either runs before the device goes (its store lands),
 *    fails with -ENODEV/-EIO, or is accepted and then cancelled by an
 *    unbind that gave up waiting for the GPU and wedged it (its FENCE_OUT
 *    says -EIO; upstream's unbind always wedges); it never reaches a
 *    device torn down under it.
 *  - busy: clients in the middle of EXECBUFFER2, of WAIT on slow batches
 *    and of PWRITE/PREAD loops while the unbind happens get 0 or
 *    -ENODEV/-EIO, never anything else, and exit; their last stores are
 *    in their objects up to the unbind; then bind and a blit.
 *  - sync_file: a FENCE_OUT sync_file kept across the unbind, with every
 *    DRM file closed, still answers SYNC_IOC_FILE_INFO (signalled) and
 *    closes cleanly.
 *
 * The runner checks the kernel log (no oops, no WARN, no KASAN report)
 * and the object count of the new device.
 */
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/sync_file.h>

#include "exec.h"

#define DRIVER_DIR	"/sys/bus/pci/drivers/i915"

static char pci_addr[256];
static pid_t bind_owner;

static bool bound(void)
{
	char path[sizeof(DRIVER_DIR) + sizeof(pci_addr)];

	snprintf(path, sizeof(path), DRIVER_DIR "/%s", pci_addr);
	return access(path, F_OK) == 0;
}

static void bind_device(void)
{
	double t0 = igt_now();
	int fd;

	igt_assert_ok(igt_write_file(DRIVER_DIR "/bind", pci_addr));
	igt_assert(bound());
	/* the nodes appear as udev (or devtmpfs) makes them */
	for (;;) {
		fd = __drm_open_driver(false);
		if (fd >= 0)
			break;
		igt_assert_f(igt_now() - t0 < 10, "no i915 node after bind");
		igt_sleep_ms(10);
	}
	close(fd);
}

/* A failed subtest must not leave the device unbound for the next one. */
static void bind_at_exit(void)
{
	if (getpid() == bind_owner && pci_addr[0] && !bound() &&
	    igt_write_file(DRIVER_DIR "/bind", pci_addr))
		fprintf(stderr, "  could not bind %s again\n", pci_addr);
}

/* The PCI address of the GPU under test, or of the first bound to i915. */
static void find_device(void)
{
	struct dirent *de;
	DIR *dir = opendir(DRIVER_DIR);

	if (!dir)
		igt_skip("no %s", DRIVER_DIR);
	if (igt_device_slot())
		snprintf(pci_addr, sizeof(pci_addr), "%s", igt_device_slot());
	while (!pci_addr[0] && (de = readdir(dir))) {
		if (strchr(de->d_name, ':') && strchr(de->d_name, '.')) {
			snprintf(pci_addr, sizeof(pci_addr), "%s", de->d_name);
			break;
		}
	}
	closedir(dir);
	if (!pci_addr[0])
		igt_skip("no device bound to i915");
	if (access(DRIVER_DIR "/unbind", W_OK))
		igt_skip("cannot write %s/unbind", DRIVER_DIR);
	bind_owner = getpid();
	atexit(bind_at_exit);
	igt_info("device %s", pci_addr);
}

static void unbind_device(void)
{
	double t0 = igt_now();

	igt_assert_ok(igt_write_file(DRIVER_DIR "/unbind", pci_addr));
	igt_assert(!bound());
	igt_info("unbind took %.3f s", igt_now() - t0);
}

/* After bind: a fill blit lands, pixel for pixel. */
static void check_blit(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct bo dst;
	struct surf s;
	struct ref r;

	bo_init(&dst, fd, 16 * PAGE_SZ);
	s = (struct surf){ &dst, 1024, 4, 256, 64 };
	ref_init(&r, &s, dst.size);
	emit_xy_fill(b, &s, 3, 5, 200, 50, 0xc0ffee42);
	ref_fill(&r, 3, 5, 200, 50, 0xc0ffee42);
	batch_submit(b);
	check_surface(fd, dst.handle, &r, "a fill after bind");
	ref_fini(&r);
	bo_fini(&dst, fd);
	batch_free(b);
	close(fd);
}

static bool gone(int err)
{
	return err == -ENODEV || err == -EIO;
}

/* ------------------------------------------------------------------ */

static void subtest_idle(void)
{
	int fd, value;
	uint32_t handle;
	uint64_t size = PAGE_SZ;
	struct drm_i915_gem_exec_object2 obj = { 0 };
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(&obj),
		.buffer_count = 1,
		.batch_len = 8,
	};

	find_device();
	fd = drm_open_driver();
	obj.handle = bbe_create(fd, 0);
	gem_execbuf(fd, &eb);
	gem_sync(fd, obj.handle);

	unbind_device();
	igt_assert_err(__gem_getparam(fd, I915_PARAM_CHIPSET_ID, &value),
		       -ENODEV);
	igt_assert_err(__gem_create(fd, &size, &handle), -ENODEV);
	igt_assert_err(__gem_execbuf(fd, &eb), -ENODEV);
	igt_assert_err(__gem_write(fd, obj.handle, 0, &value, 4), -ENODEV);
	close(fd);

	bind_device();
	check_blit();
}

/* ------------------------------------------------------------------ */
/* clients at work while the device goes */

enum client_kind { EXECER, WAITER, WRITER, NKINDS };

static const char *const kind_name[] = { "exec", "wait", "pwrite" };

/*
 * EXECBUFFER2 of a store into a target, back to back, each batch (of 8)
 * storing its own value; every 16th exec is waited for and the values of
 * the last 8 read back.  Ends at the first -ENODEV/-EIO.
 */
static int execer(int fd, int gen, int ready)
{
	uint32_t target = gem_create(fd, PAGE_SZ), got[8];
	struct drm_i915_gem_relocation_entry reloc[8];
	struct drm_i915_gem_exec_object2 obj[8][2];
	struct drm_i915_gem_execbuffer2 eb[8];
	unsigned int i, execs = 0;
	int ret;

	for (i = 0; i < 8; i++) {
		uint32_t cs[16], addr_at, n;

		n = cs_store_dword(gen, cs, 4 * i, 0x5eed0000 + i, &addr_at);
		n = cs_end(cs, n);
		reloc[i] = (struct drm_i915_gem_relocation_entry){
			.target_handle = target,
			.delta = 4 * i,
			.offset = 4 * addr_at,
			.presumed_offset = ~0ull,
			.read_domains = I915_GEM_DOMAIN_RENDER,
			.write_domain = I915_GEM_DOMAIN_RENDER,
		};
		obj[i][0] = (struct drm_i915_gem_exec_object2){
			.handle = target,
		};
		obj[i][1] = (struct drm_i915_gem_exec_object2){
			.handle = gem_create(fd, PAGE_SZ),
			.relocation_count = 1,
			.relocs_ptr = to_user_pointer(&reloc[i]),
		};
		gem_write(fd, obj[i][1].handle, 0, cs, 4 * n);
		eb[i] = (struct drm_i915_gem_execbuffer2){
			.buffers_ptr = to_user_pointer(obj[i]),
			.buffer_count = 2,
			.batch_len = 4 * n,
		};
	}
	igt_assert_eq(write(ready, "r", 1), 1);
	for (;;) {
		ret = __gem_execbuf(fd, &eb[execs % 8]);
		if (!ret && !(++execs % 16)) {
			int64_t t = -1;

			ret = __gem_wait(fd, target, &t);
			if (!ret)
				ret = __gem_read(fd, target, 0, got,
						 sizeof(got));
			for (i = 0; !ret && i < 8; i++)
				igt_assert_eq_u64(got[i], 0x5eed0000 + i);
		}
		if (ret) {
			igt_assert_f(gone(ret), "exec client: %s",
				     strerror(-ret));
			return execs;
		}
	}
}

/* a slow batch (many NOOPs), then WAIT for it without a timeout */
static int waiter(int fd, int gen, int ready)
{
	static uint32_t cs[2048];
	struct drm_i915_gem_exec_object2 obj = { 0 };
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(&obj),
		.buffer_count = 1,
	};
	unsigned int n = 0, rounds = 0;
	int ret;

	(void)gen;
	while (n < 1000)
		cs[n++] = MI_NOOP;
	n = cs_end(cs, n);
	eb.batch_len = 4 * n;
	obj.handle = gem_create(fd, sizeof(cs));
	gem_write(fd, obj.handle, 0, cs, 4 * n);
	igt_assert_eq(write(ready, "r", 1), 1);
	for (;;) {
		int64_t t = -1;

		ret = __gem_execbuf(fd, &eb);
		if (!ret)
			ret = __gem_wait(fd, obj.handle, &t);
		if (ret) {
			igt_assert_f(gone(ret), "wait client: %s",
				     strerror(-ret));
			return rounds;
		}
		rounds++;
	}
}

/* PWRITE and PREAD of 256 KiB, compared */
static int writer(int fd, int gen, int ready)
{
	static uint8_t buf[256 << 10], back[256 << 10];
	uint32_t handle = gem_create(fd, sizeof(buf));
	unsigned int rounds = 0;
	int ret;

	(void)gen;
	igt_assert_eq(write(ready, "r", 1), 1);
	for (;;) {
		igt_fill_pattern(buf, sizeof(buf), rounds);
		ret = __gem_write(fd, handle, 0, buf, sizeof(buf));
		if (!ret)
			ret = __gem_read(fd, handle, 0, back, sizeof(back));
		if (ret) {
			igt_assert_f(gone(ret), "pwrite client: %s",
				     strerror(-ret));
			return rounds;
		}
		igt_assert(!memcmp(buf, back, sizeof(buf)));
		rounds++;
	}
}

struct client {
	enum client_kind kind;
	int ready;	/* write end of a pipe: a byte once set up */
};

static int client(void *p)
{
	const struct client *c = p;
	int fd = drm_open_driver(), gen = gem_gen(fd), done;
	static int (*const fn[])(int, int, int) = { execer, waiter, writer };

	/* each writes its byte to c->ready once set up */
	done = fn[c->kind](fd, gen, c->ready);
	igt_info("%s client: %d rounds before the device went",
		 kind_name[c->kind], done);
	close(fd);
	return 0;
}

static void subtest_busy(void)
{
	const unsigned int per_kind = 2;
	pid_t pid[NKINDS * 2];
	struct client c[NKINDS * 2];
	int p[2], fd;
	unsigned int i;
	char byte;
	double t0;

	find_device();
	fd = drm_open_driver();
	gem_gen(fd);
	close(fd);
	/* slow enough that batches are on the GPU when it goes */
	sim_set_cmd_delay(20);
	igt_assert_ok(pipe(p));
	for (i = 0; i < NKINDS * per_kind; i++) {
		c[i].kind = i % NKINDS;
		c[i].ready = p[1];
		pid[i] = igt_fork(client, &c[i]);
	}
	for (i = 0; i < NKINDS * per_kind; i++)
		igt_assert_eq(read(p[0], &byte, 1), 1);
	igt_sleep_ms(500);

	unbind_device();
	t0 = igt_now();
	for (i = 0; i < NKINDS * per_kind; i++)
		igt_assert_eq(igt_wait(pid[i]), 0);
	igt_info("clients gone %.3f s after the unbind", igt_now() - t0);
	close(p[0]);
	close(p[1]);

	bind_device();
	check_blit();
}

/* ------------------------------------------------------------------ */

static void subtest_sync_file(void)
{
	int fd, sync_fd;
	uint64_t rsvd2 = 0;
	struct drm_i915_gem_exec_object2 obj = { 0 };
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(&obj),
		.buffer_count = 1,
		.batch_len = 8,
		.flags = I915_EXEC_FENCE_OUT,
	};
	struct sync_file_info info;

	find_device();
	fd = drm_open_driver();
	obj.handle = bbe_create(fd, 0);
	eb.rsvd2 = rsvd2;
	igt_assert_ok(__gem_execbuf_wr(fd, &eb));
	sync_fd = eb.rsvd2 >> 32;
	igt_assert_lte(0, sync_fd);
	close(fd);

	unbind_device();
	memset(&info, 0, sizeof(info));
	igt_assert_ok(igt_ioctl(sync_fd, SYNC_IOC_FILE_INFO, &info));
	igt_info("sync_file \"%s\": status %d", info.name, info.status);
	igt_assert_eq(info.status, 1);
	igt_assert_eq(info.num_fences, 1);
	close(sync_fd);

	bind_device();
	check_blit();
}

/* ------------------------------------------------------------------ */

struct fenced_exec {
	int fd;
	int gen;
	uint32_t target;
	int fence;	/* FENCE_IN */
	int ready;	/* write end of a pipe: a byte once set up */
};

#define EXEC_REFUSED	3	/* exit code: -ENODEV/-EIO */
#define EXEC_CANCELLED	4	/* exit code: accepted, its fence says -EIO */

#define FENCED_EXECS	8
#define FENCED_EXTRA	64	/* objects each exec binds besides its own */

/*
 * EXECBUFFER2 of a store into dword @arg of the target, behind FENCE_IN,
 * with many objects to bind, so that the execs are still at work when
 * the fence signals and the unbind goes on.
 */
static struct fenced_exec fenced;

static int exec_behind_fence(void *arg)
{
	const struct fenced_exec *f = &fenced;
	unsigned int idx = (uintptr_t)arg, i;
	uint32_t cs[16], addr_at, n;
	struct drm_i915_gem_relocation_entry reloc = {
		.target_handle = f->target,
		.delta = 4 * idx,
		.read_domains = I915_GEM_DOMAIN_RENDER,
		.write_domain = I915_GEM_DOMAIN_RENDER,
		.presumed_offset = ~0ull,
	};
	struct drm_i915_gem_exec_object2 obj[FENCED_EXTRA + 2] = { { 0 } };
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(obj),
		.buffer_count = FENCED_EXTRA + 2,
		.flags = I915_EXEC_FENCE_IN | I915_EXEC_FENCE_OUT,
		.rsvd2 = (uint32_t)f->fence,
	};
	struct pollfd pfd = { .events = POLLIN };
	int ret;

	for (i = 0; i < FENCED_EXTRA; i++)
		obj[i].handle = gem_create(f->fd, 4 * PAGE_SZ);
	obj[FENCED_EXTRA].handle = f->target;
	obj[FENCED_EXTRA + 1].handle = gem_create(f->fd, PAGE_SZ);
	obj[FENCED_EXTRA + 1].relocation_count = 1;
	obj[FENCED_EXTRA + 1].relocs_ptr = to_user_pointer(&reloc);
	n = cs_end(cs, cs_store_dword(f->gen, cs, 4 * idx, 0xfe11ce00 + idx,
				      &addr_at));
	reloc.offset = 4 * addr_at;
	gem_write(f->fd, obj[FENCED_EXTRA + 1].handle, 0, cs, 4 * n);
	eb.batch_len = 4 * n;
	igt_assert_eq(write(f->ready, "r", 1), 1);
	ret = __gem_execbuf_wr(f->fd, &eb);
	if (ret) {
		igt_assert_f(gone(ret), "exec: %s", strerror(-ret));
		return EXEC_REFUSED;
	}
	/*
	 * Accepted: it runs, or an unbind that could not wait for the GPU
	 * wedged it (upstream's unbind wedges at once): its fence says so.
	 */
	pfd.fd = eb.rsvd2 >> 32;
	igt_assert_f(poll(&pfd, 1, 60000) == 1, "the exec's fence never signalled");
	ret = sync_file_status(pfd.fd);
	close(pfd.fd);
	igt_assert_f(ret == 1 || ret == -EIO, "the exec's fence says %d", ret);
	return ret == 1 ? 0 : EXEC_CANCELLED;
}

/*
 * An EXECBUFFER2 waiting for its FENCE_IN (a slow batch's sync_file)
 * when the unbind starts: it runs to its end before the device goes
 * (its store lands) or fails with -ENODEV/-EIO, and never touches a
 * device that is gone.
 */
static void subtest_exec_waiting(void)
{
	static uint32_t cs[4096];
	struct fenced_exec *f = &fenced;
	struct drm_i915_gem_exec_object2 obj = { 0 };
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(&obj),
		.buffer_count = 1,
		.flags = I915_EXEC_FENCE_OUT,
	};
	pid_t pid[FENCED_EXECS];
	volatile uint32_t *map;
	unsigned int n = 0, i, ran = 0, cancelled = 0;
	struct pollfd pfd;
	int rc, p[2];
	char byte;

	find_device();
	f->fd = drm_open_driver();
	f->gen = gem_gen(f->fd);
	f->target = gem_create(f->fd, PAGE_SZ);
	map = gem_mmap__cpu(f->fd, f->target, 0, PAGE_SZ);
	sim_set_cmd_delay(1000);
	while (n < 2000)
		cs[n++] = MI_NOOP;
	n = cs_end(cs, n);
	obj.handle = gem_create(f->fd, sizeof(cs));
	gem_write(f->fd, obj.handle, 0, cs, 4 * n);
	eb.batch_len = 4 * n;
	igt_assert_ok(__gem_execbuf_wr(f->fd, &eb));
	f->fence = eb.rsvd2 >> 32;

	igt_assert_ok(pipe(p));
	f->ready = p[1];
	for (i = 0; i < FENCED_EXECS; i++)
		pid[i] = igt_fork(exec_behind_fence, (void *)(uintptr_t)i);
	for (i = 0; i < FENCED_EXECS; i++)
		igt_assert_eq(read(p[0], &byte, 1), 1);
	igt_sleep_ms(100);
	pfd = (struct pollfd){ .fd = f->fence, .events = POLLIN };
	igt_info("the fence is %s when the unbind starts",
		 poll(&pfd, 1, 0) ? "signalled" : "pending");
	unbind_device();
	for (i = 0; i < FENCED_EXECS; i++) {
		rc = igt_wait(pid[i]);
		igt_assert(rc == 0 || rc == EXEC_REFUSED ||
			   rc == EXEC_CANCELLED);
		/* ran: its store is there; refused: it is not */
		if (rc != EXEC_CANCELLED)
			igt_assert_eq_u64(map[i], rc == 0 ? 0xfe11ce00 + i : 0);
		ran += rc == 0;
		cancelled += rc == EXEC_CANCELLED;
	}
	igt_info("%u of %d execs behind the fence ran, %u cancelled by a wedge",
		 ran, FENCED_EXECS, cancelled);
	close(p[0]);
	close(p[1]);
	close(f->fence);
	close(f->fd);

	bind_device();
	check_blit();
}

static const struct igt_subtest tests[] = {
	SUBTEST(idle),
	SUBTEST(exec_waiting),
	SUBTEST_T(busy, 120),
	SUBTEST(sync_file),
};

igt_main(tests)
