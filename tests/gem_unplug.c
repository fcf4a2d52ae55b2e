// SPDX-License-Identifier: GPL-2.0
/*
 * gem_unplug: the model's module goes away under the driver and its
 * clients.
 *
 * rmmod i915_sim removes every simulated GPU, a hot unplug for i915.ko,
 * which stays loaded:
 *
 *  - idle: rmmod i915_sim succeeds with the driver bound and its file
 *    open; the PCI function and the DRM nodes go, every ioctl on the
 *    file answers -ENODEV, close works; loading the model again brings
 *    GPUs that the driver, still loaded, binds and runs a batch on.
 *  - clients: the same while the clients hold a primary and a render
 *    fd, objects with contents, a CPU mmap, a FENCE_OUT sync_file, a
 *    running slow batch and a child blocked in GEM_WAIT on its target:
 *    rmmod i915_sim succeeds, the waiter returns 0 or -ENODEV (never
 *    -EIO: a wait on work the unplug's wedge ended is over, as upstream),
 *    the sync_file is signalled, the mmap still reads back what was
 *    written, ioctls answer -ENODEV, and once everything is closed
 *    rmmod i915 succeeds: the driver kept no reference on the model, and
 *    the model none on the driver.
 *  - queued: a client queues a minute of slow batches and closes its file
 *    (as a killed one does); the unplug waits for them only a bounded
 *    time (i915_request_quiesce(): 10 s), then wedges the GPU with a
 *    reset, instead of waiting for the whole queue as it did: rmmod
 *    i915_sim returns within 25 s.
 *  - rescan: the GPU's PCI function alone removed through sysfs, then
 *    found again by /sys/bus/pci/rescan: the driver binds it as the
 *    model's again (not as real silicon: intel-gtt would fail to enable
 *    the GTT) and a store lands; rmmod i915_sim then frees nothing twice
 *    (the firmware framebuffer's claim went with the first function).
 *
 * Each subtest loads both modules again at the end (I915_KO, SIM_KO and
 * I915_ARGS from /etc/bench.conf; the model with the ids it had), also
 * when it fails.  The runner checks the kernel log (no oops, no WARN, no
 * KASAN report: the driver must not touch the model after its remove).
 */
#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/sync_file.h>

#include "exec.h"
#include "modules.h"

#define DELAY_US	2000	/* per command: the batch runs about 1 s */
#define NOOPS		500

/* rmmod i915_sim: the GPUs go, the driver stays */
static void unplug(const char *slot)
{
	char path[128];
	double t0 = igt_now();

	igt_assert_ok(module_unload("i915_sim"));
	igt_info("rmmod i915_sim took %.3f s", igt_now() - t0);
	igt_assert(module_loaded("i915"));
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s", slot);
	igt_assert_f(access(path, F_OK), "%s still there", path);
}

static void assert_gone(int fd)
{
	int value;

	igt_assert_err(__gem_getparam(fd, I915_PARAM_CHIPSET_ID, &value),
		       -ENODEV);
	igt_assert_err(__gem_create(fd, &(uint64_t){ PAGE_SZ },
				    &(uint32_t){ 0 }), -ENODEV);
}

/* After loading the model again: a store lands on the GPU under test. */
static void check_store(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct bo t;
	uint32_t got;

	bo_init(&t, fd, PAGE_SZ);
	emit_store_dword(b, &t, 0, 0x5eed5eed);
	batch_submit(b);
	gem_read(fd, t.handle, 0, &got, sizeof(got));
	igt_assert_eq_u64(got, 0x5eed5eed);
	batch_free(b);
	bo_fini(&t, fd);
	close(fd);
}

static void device_slot(int fd, char *slot, size_t len)
{
	igt_assert_ok(drm_device_slot(fd, slot, len));
	igt_info("GPU %s", slot);
}

static void subtest_idle(void)
{
	char slot[64];
	int fd;

	module_require_model();
	fd = drm_open_driver();
	device_slot(fd, slot, sizeof(slot));
	unplug(slot);
	assert_gone(fd);
	close(fd);
	igt_assert_ok(module_load_missing());
	check_store();
}

/* a child blocked in WAIT on @handle; exits 0 if WAIT ended as allowed */
static int waiter(void *arg)
{
	int fd = ((int *)arg)[0];
	uint32_t handle = ((int *)arg)[1];
	int64_t timeout = -1;
	int ret = __gem_wait(fd, handle, &timeout);

	if (ret && ret != -ENODEV) {
		fprintf(stderr, "  WAIT across the unplug: %s\n",
			strerror(-ret));
		return 1;
	}
	return 0;
}

static void subtest_clients(void)
{
	int fd, rfd, sync_fd, status, args[2];
	struct sync_file_info info;
	struct pollfd pfd;
	uint64_t rsvd2 = 0;
	struct batch *b;
	struct bo t, data;
	uint32_t *map, got;
	unsigned int i;
	char slot[64];
	pid_t child;

	module_require_model();
	fd = drm_open_driver();
	rfd = drm_open_driver_render();
	device_slot(fd, slot, sizeof(slot));

	bo_init(&data, rfd, 4 * PAGE_SZ);
	map = gem_mmap__cpu(rfd, data.handle, 0, 4 * PAGE_SZ);
	for (i = 0; i < 4 * PAGE_SZ / 4; i++)
		map[i] = pattern_dw(7, i);

	sim_set_cmd_delay(DELAY_US);
	bo_init(&t, fd, PAGE_SZ);
	b = batch_new(fd);
	for (i = 0; i < NOOPS; i++)
		batch_emit(b, MI_NOOP);
	emit_store_dword(b, &t, 0, 0xdeadbeef);
	igt_assert_ok(__batch_submit_wr(b, I915_EXEC_FENCE_OUT, &rsvd2));
	sync_fd = rsvd2 >> 32;
	igt_assert_lte(0, sync_fd);
	igt_assert(gem_busy(fd, t.handle));

	args[0] = fd;
	args[1] = t.handle;
	child = igt_fork(waiter, args);
	igt_sleep_ms(100);

	unplug(slot);
	igt_assert(waitpid(child, &status, 0) == child);
	igt_assert_f(WIFEXITED(status) && !WEXITSTATUS(status),
		     "the waiter: status 0x%x", status);

	pfd.fd = sync_fd;
	pfd.events = POLLIN;
	igt_assert_eq(poll(&pfd, 1, 0), 1);
	memset(&info, 0, sizeof(info));
	igt_assert_ok(igt_ioctl(sync_fd, SYNC_IOC_FILE_INFO, &info));
	igt_info("sync_file \"%s\": status %d", info.name, info.status);
	igt_assert_neq(info.status, 0);

	for (i = 0; i < 4 * PAGE_SZ / 4; i++)
		igt_assert_eq_u64(map[i], pattern_dw(7, i));
	assert_gone(fd);
	assert_gone(rfd);
	igt_assert_err(__gem_read(rfd, data.handle, 0, &got, sizeof(got)),
		       -ENODEV);

	munmap(map, 4 * PAGE_SZ);
	close(sync_fd);
	close(rfd);
	close(fd);
	free(b);	/* its object went with fd */
	igt_assert_ok(module_unload_retry("i915", 10));
	igt_assert_ok(module_load_missing());
	check_store();
}

#define QUEUED_DELAY_US	20000	/* per command: each batch runs 15 s */
#define QUEUED_NOOPS	750
#define QUEUED_BATCHES	4
#define QUEUED_MAX_S	25

static void subtest_queued(void)
{
	struct batch *b[QUEUED_BATCHES];
	char slot[64];
	struct bo t;
	unsigned int i, n;
	double t0;
	int fd;

	module_require_model();
	fd = drm_open_driver();
	device_slot(fd, slot, sizeof(slot));
	sim_set_cmd_delay(QUEUED_DELAY_US);
	bo_init(&t, fd, PAGE_SZ);
	for (i = 0; i < QUEUED_BATCHES; i++) {
		b[i] = batch_new(fd);
		for (n = 0; n < QUEUED_NOOPS; n++)
			batch_emit(b[i], MI_NOOP);
		emit_store_dword(b[i], &t, 4 * i, 0xdeadbeef);
		batch_submit(b[i]);
	}
	igt_assert(gem_busy(fd, t.handle));
	/* a killed client: its objects live on in its requests */
	close(fd);
	for (i = 0; i < QUEUED_BATCHES; i++)
		free(b[i]);	/* their objects went with fd */

	t0 = igt_now();
	unplug(slot);
	igt_assert_f(igt_now() - t0 < QUEUED_MAX_S,
		     "the unplug waited %.1f s for a dead client's queue",
		     igt_now() - t0);
	igt_assert_ok(module_unload_retry("i915", 10));
	igt_assert_ok(module_load_missing());
	check_store();
}

static void subtest_rescan(void)
{
	char slot[64], path[128];
	double t0;
	int fd;

	module_require_model();
	fd = drm_open_driver();
	device_slot(fd, slot, sizeof(slot));
	close(fd);
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/remove", slot);
	igt_assert_ok(igt_write_file(path, "1"));
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s", slot);
	igt_assert_f(access(path, F_OK), "%s still there", path);

	igt_assert_ok(igt_write_file("/sys/bus/pci/rescan", "1"));
	igt_assert_f(!access(path, F_OK), "%s not found again", path);
	t0 = igt_now();
	while ((fd = __drm_open_driver(false)) < 0 && igt_now() - t0 < 10)
		igt_sleep_ms(10);
	igt_assert_f(fd >= 0, "i915 did not bind %s after the rescan", slot);
	close(fd);
	check_store();

	/* the firmware framebuffer's claim went with the first function */
	unplug(slot);
	igt_assert_ok(module_load_missing());
	check_store();
}

static const struct igt_subtest tests[] = {
	SUBTEST(idle),
	SUBTEST(rescan),
	SUBTEST_T(clients, 120),
	SUBTEST_T(queued, 150),
};

igt_main(tests)
