// SPDX-License-Identifier: GPL-2.0
/*
 * tests/demo.c - the demo client of `make demo` (scripts/demo.sh).
 *
 * Shows a person that the driver bound the simulated GPU like real
 * hardware: the PCI device as sysfs sees it, the DRM driver's
 * version, a few GETPARAMs and the aperture, then one GEM object created,
 * written (across a page boundary), read back with pread and through a CPU
 * mmap, shared by flink/open and closed.  Prints what it does, writes the
 * same report to $BENCH_OUT/demo.txt when BENCH_OUT is set (the bench
 * brings that file back to the host), exits 0 when every step worked.
 *
 * Built by tests/Makefile like every test (build/demo): libc and the
 * kernel's uapi headers only, so it also runs in the suite.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm/drm.h>
#include <drm/i915_drm.h>

static FILE *report;
static int failures;

static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (report) {
		va_start(ap, fmt);
		vfprintf(report, fmt, ap);
		va_end(ap);
	}
}

static void step(int ok, const char *what)
{
	say("  [%s] %s\n", ok ? " ok " : "FAIL", what);
	if (!ok)
		failures++;
}

static unsigned long sysfs_hex(const char *name)
{
	char path[256], buf[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/drm/card0/device/%s", name);
	f = fopen(path, "r");
	if (!f)
		return ~0UL;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	return strtoul(buf, NULL, 16);
}

static const char *sysfs_link(const char *name, char *buf, size_t len)
{
	char path[256];
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/class/drm/card0/device%s", name);
	n = readlink(path, buf, len - 1);
	if (n < 0)
		return "?";
	buf[n] = 0;
	return strrchr(buf, '/') ? strrchr(buf, '/') + 1 : buf;
}

/* An lspci-like line for the DRM device's parent, from sysfs. */
static unsigned long show_pci(void)
{
	char slot[256], drv[256];
	unsigned long vendor = sysfs_hex("vendor");
	unsigned long device = sysfs_hex("device");
	unsigned long class = sysfs_hex("class");

	say("PCI (sysfs):  %s VGA compatible controller [%04lx]: [%04lx:%04lx], driver %s\n",
	    sysfs_link("", slot, sizeof(slot)), class >> 8, vendor, device,
	    sysfs_link("/driver", drv, sizeof(drv)));
	step(vendor == 0x8086, "vendor is Intel (0x8086)");
	step((class >> 8) == 0x0300, "class is VGA compatible controller (0x0300)");
	return device;
}

static int drm_ioctl(int fd, unsigned long request, void *arg)
{
	int ret;

	do
		ret = ioctl(fd, request, arg);
	while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret;
}

static void show_version(int fd)
{
	char name[32] = "", date[32] = "", desc[128] = "";
	struct drm_version v = {
		.name = name, .name_len = sizeof(name) - 1,
		.date = date, .date_len = sizeof(date) - 1,
		.desc = desc, .desc_len = sizeof(desc) - 1,
	};

	if (drm_ioctl(fd, DRM_IOCTL_VERSION, &v)) {
		step(0, "DRM_IOCTL_VERSION");
		return;
	}
	say("DRM driver:   %s %d.%d.%d (%s) \"%s\"\n", name, v.version_major,
	    v.version_minor, v.version_patchlevel, date, desc);
	step(!strcmp(name, "i915"), "driver name is i915");
}

static int getparam(int fd, int param, int *value)
{
	struct drm_i915_getparam gp = { .param = param, .value = value };

	return drm_ioctl(fd, DRM_IOCTL_I915_GETPARAM, &gp);
}

static void show_params(int fd, unsigned long device)
{
	struct drm_i915_gem_get_aperture ap = { 0 };
	int chipset = -1, has_gem = -1, fences = -1, bogus;

	step(getparam(fd, I915_PARAM_CHIPSET_ID, &chipset) == 0 &&
	     (unsigned long)chipset == device, "GETPARAM CHIPSET_ID matches the PCI id");
	step(getparam(fd, I915_PARAM_HAS_GEM, &has_gem) == 0 && has_gem == 1,
	     "GETPARAM HAS_GEM is 1");
	step(getparam(fd, I915_PARAM_NUM_FENCES_AVAIL, &fences) == 0 && fences > 0,
	     "GETPARAM NUM_FENCES_AVAIL answers");
	step(getparam(fd, 0x7fff, &bogus) == -1 && errno == EINVAL,
	     "an unknown GETPARAM is refused with EINVAL");
	say("GETPARAM:     chipset 0x%04x, has_gem %d, fences %d\n", chipset, has_gem, fences);

	step(drm_ioctl(fd, DRM_IOCTL_I915_GEM_GET_APERTURE, &ap) == 0, "GET_APERTURE");
	say("aperture:     %llu KiB, %llu KiB available\n",
	    (unsigned long long)ap.aper_size >> 10,
	    (unsigned long long)ap.aper_available_size >> 10);
}

static void show_gem(int fd)
{
	static const char msg[] = "Hello from a GEM object on a simulated Intel GPU!";
	struct drm_i915_gem_create create = { .size = 10000 };
	struct drm_i915_gem_pwrite pw = { 0 };
	struct drm_i915_gem_pread pr = { 0 };
	struct drm_i915_gem_mmap mm = { 0 };
	struct drm_i915_gem_set_domain sd = { 0 };
	struct drm_gem_flink flink = { 0 };
	struct drm_gem_open open_arg = { 0 };
	struct drm_gem_close cl = { 0 };
	char back[sizeof(msg)] = "";
	uint64_t off = 4096 - 20; /* crosses the first page boundary */

	if (drm_ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &create)) {
		step(0, "GEM_CREATE");
		return;
	}
	say("GEM object:   handle %u, asked 10000 bytes, got %llu\n", create.handle,
	    (unsigned long long)create.size);
	step(create.size == 12288, "GEM_CREATE rounds the size up to whole pages");

	pw.handle = create.handle;
	pw.offset = off;
	pw.size = sizeof(msg);
	pw.data_ptr = (uintptr_t)msg;
	step(drm_ioctl(fd, DRM_IOCTL_I915_GEM_PWRITE, &pw) == 0, "PWRITE across a page boundary");

	pr.handle = create.handle;
	pr.offset = off;
	pr.size = sizeof(back);
	pr.data_ptr = (uintptr_t)back;
	step(drm_ioctl(fd, DRM_IOCTL_I915_GEM_PREAD, &pr) == 0 && !memcmp(back, msg, sizeof(msg)),
	     "PREAD returns what was written");
	say("read back:    \"%s\"\n", back);

	mm.handle = create.handle;
	mm.size = create.size;
	if (drm_ioctl(fd, DRM_IOCTL_I915_GEM_MMAP, &mm) == 0) {
		const char *p = (const char *)(uintptr_t)mm.addr_ptr;

		sd.handle = create.handle;
		sd.read_domains = I915_GEM_DOMAIN_CPU;
		step(drm_ioctl(fd, DRM_IOCTL_I915_GEM_SET_DOMAIN, &sd) == 0, "SET_DOMAIN CPU");
		step(!memcmp(p + off, msg, sizeof(msg)), "a CPU mmap shows the same bytes");
		munmap((void *)p, create.size);
	} else {
		step(0, "GEM_MMAP");
	}

	flink.handle = create.handle;
	step(drm_ioctl(fd, DRM_IOCTL_GEM_FLINK, &flink) == 0 && flink.name, "GEM_FLINK gives a name");
	open_arg.name = flink.name;
	step(drm_ioctl(fd, DRM_IOCTL_GEM_OPEN, &open_arg) == 0 && open_arg.size == create.size,
	     "GEM_OPEN of that name finds the object");
	say("shared:       flink name %u, opened again as handle %u\n", flink.name,
	    open_arg.handle);

	cl.handle = open_arg.handle;
	step(!open_arg.handle || drm_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &cl) == 0, "GEM_CLOSE (second handle)");
	cl.handle = create.handle;
	step(drm_ioctl(fd, DRM_IOCTL_GEM_CLOSE, &cl) == 0, "GEM_CLOSE (first handle)");
}

static void open_report(void)
{
	const char *dir = getenv("BENCH_OUT");
	char path[512];

	if (!dir || !*dir)
		return;
	snprintf(path, sizeof(path), "%s/demo.txt", dir);
	report = fopen(path, "w");
	if (!report)
		fprintf(stderr, "demo: cannot write %s: %s\n", path, strerror(errno));
}

int main(void)
{
	unsigned long device;
	int fd;

	open_report();
	say("i915gem demo: the driver on a simulated Intel GPU\n");
	fd = open("/dev/dri/card0", O_RDWR);
	if (fd < 0) {
		say("cannot open /dev/dri/card0: %s\n", strerror(errno));
		return 1;
	}
	device = show_pci();
	show_version(fd);
	show_params(fd, device);
	show_gem(fd);
	close(fd);
	say("demo: %s (%d failed step%s)\n", failures ? "FAILED" : "all steps worked",
	    failures, failures == 1 ? "" : "s");
	if (report)
		fclose(report);
	return failures ? 1 : 0;
}
