// SPDX-License-Identifier: GPL-2.0
/*
 * gem_unbind_gtt: what the driver leaves in the GTT when it lets go of
 * the GPU.
 *
 * The driver is unbound from the simulated GPU through sysfs (the model,
 * i915_sim.ko, stays): the GTT entries of the ring and of the
 * status page (where it lives in the GTT) must no longer point at the
 * pages the driver freed, but at the scratch page or nowhere
 * (debugfs i915_sim/<slot>/gtt), like every other entry the driver used.  Then
 * the driver binds again and the GPU works.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "exec.h"

#define RING_SIZE	(32 * 1024)
#define DRV		"/sys/bus/pci/drivers/i915"

/* debugfs i915_sim/<slot>/gtt, found while the driver is bound */
static char sim_gtt[256];

/* i915_capabilities says "hws_needs_physical: no" */
static bool hws_in_gtt(int fd)
{
	char buf[4096];
	int ret = igt_debugfs_read(fd, "i915_capabilities", buf, sizeof(buf));

	igt_assert_f(ret >= 0, "debugfs i915_capabilities: %s",
		     igt_errname(ret));
	return strstr(buf, "hws_needs_physical: no");
}

/* the PCI address of the GPU behind @fd */
static void pci_name(int fd, char *name, size_t len)
{
	char path[PATH_MAX], link[PATH_MAX];
	const char *base;
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/class/drm/card%d/device",
		 drm_primary_minor(fd));
	n = readlink(path, link, sizeof(link) - 1);
	igt_assert_f(n > 0, "readlink %s", path);
	link[n] = '\0';
	base = strrchr(link, '/');
	snprintf(name, len, "%s", base ? base + 1 : link);
}

/*
 * Every page of [start, end) in the model's GTT dump is "scratch" or
 * "invalid"; the dump lists runs "0xS-0xE count kind...".
 */
static void assert_unmapped(const char *what, uint64_t start, uint64_t end)
{
	FILE *f = fopen(sim_gtt, "r");
	char line[256];
	bool seen = false;

	igt_assert_f(f, "%s", sim_gtt);
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e;
		unsigned int count;
		char kind[32];

		if (sscanf(line, "0x%llx-0x%llx %u %31s", &s, &e, &count,
			   kind) != 4)
			continue;
		if (e < start || s >= end)
			continue;
		seen = true;
		igt_assert_f(!strcmp(kind, "scratch") ||
			     !strcmp(kind, "invalid"),
			     "%s at 0x%llx: entries 0x%llx-0x%llx still point at %s",
			     what, (unsigned long long)start, s, e,
			     line + strcspn(line, "p"));
	}
	fclose(f);
	igt_assert_f(seen, "%s: 0x%llx not in %s", what,
		     (unsigned long long)start, sim_gtt);
}

static char bound_name[PATH_MAX];

/* bind the driver again, whatever happened, for the tests after this one */
static void rebind(void)
{
	char path[PATH_MAX + 64];
	int i;

	snprintf(path, sizeof(path), DRV "/%s", bound_name);
	if (!access(path, F_OK))
		return;
	igt_write_file(DRV "/bind", bound_name);
	for (i = 0; i < 100 && access(path, F_OK); i++)
		usleep(10 * 1000);
}

static void subtest_unbind_clears_ring(void)
{
	char name[PATH_MAX], path[PATH_MAX + 64];
	uint64_t ring_start, hws = 0;
	int fd = drm_open_driver();
	struct batch *b;
	struct bo target;
	uint32_t got;
	int i;

	sim_debugfs_path(sim_gtt, sizeof(sim_gtt), "gtt");
	if (access(sim_gtt, R_OK))
		igt_skip("no %s", sim_gtt);
	pci_name(fd, name, sizeof(name));
	ring_start = igt_debugfs_value(fd, "i915_ring", "START");
	if (hws_in_gtt(fd))
		hws = igt_debugfs_value(fd, "i915_ring", "HWS_PGA");
	igt_info("%s: ring at 0x%llx, status page %s 0x%llx", name,
		 (unsigned long long)ring_start, hws ? "at" : "physical",
		 (unsigned long long)hws);
	b = batch_new(fd);
	bo_init(&target, fd, PAGE_SZ);
	emit_store_dword(b, &target, 0, 1);
	batch_submit_sync(b);
	bo_fini(&target, fd);
	batch_free(b);
	close(fd);

	snprintf(bound_name, sizeof(bound_name), "%s", name);
	atexit(rebind);
	igt_assert_ok(igt_write_file(DRV "/unbind", name));
	assert_unmapped("ring", ring_start, ring_start + RING_SIZE);
	if (hws)
		assert_unmapped("status page", hws, hws + PAGE_SZ);

	igt_assert_ok(igt_write_file(DRV "/bind", name));
	snprintf(path, sizeof(path), DRV "/%s", name);
	for (i = 0; i < 100 && access(path, F_OK); i++)
		usleep(10 * 1000);
	fd = drm_open_driver();
	b = batch_new(fd);
	bo_init(&target, fd, PAGE_SZ);
	emit_store_dword(b, &target, 0, 0x600d);
	batch_submit_sync(b);
	gem_read(fd, target.handle, 0, &got, sizeof(got));
	igt_assert_eq_u64(got, 0x600d);
	bo_fini(&target, fd);
	batch_free(b);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(unbind_clears_ring),
};

igt_main(tests)
