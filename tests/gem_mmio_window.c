// SPDX-License-Identifier: GPL-2.0
/*
 * gem_mmio_window: root reads the GPU's registers through sysfs resource0,
 * as igt's intel_register_access_init() and intel_reg do on real silicon.
 *
 * libpciaccess's pci_device_map_range() opens
 * /sys/bus/pci/devices/<slot>/resource0 and mmaps it shared, readable and
 * writable, at the offset of the range in the BAR.  The driver claims no
 * BAR (upstream claims none, and a claim makes the PCI core refuse the
 * mmap); the model presents its registers there (sim/i915_sim_regwin.c):
 *  - read: the ring's START, CTL and HWS_PGA, which the driver wrote, read
 *    through the window as the driver reads them (debugfs i915_ring),
 *    through a mapping of the whole register file and through one page
 *    mapped at an offset; PGTBL_CTL has the GTT enabled; a mapping past
 *    the BAR's end is refused (EINVAL), as the PCI core refuses it;
 *  - follows: the window does not go stale: with the ring's page already
 *    read, a batch is submitted and waited for, and the window comes to
 *    show the new TAIL, HEAD equal to it;
 *  - moves: while a slow batch runs (the model's cmd_delay_us), ACTHD read
 *    through the window takes more than one value;
 *  - write: a store through the window raises SIGBUS (user-space writes
 *    are not modelled; they are not lost silently), to a page already
 *    read and to one never touched, and the register keeps its value;
 *  - other_bars: the BARs with nothing behind them on the model (the
 *    aperture's resource2 and resource2_wc, Gen3's GTT BAR's resource3)
 *    still cannot be mapped (EINVAL), and where /dev/mem refuses RAM
 *    (CONFIG_STRICT_DEVMEM, Debian's) it refuses the BARs' physical
 *    ranges too;
 *  - remove: the function removed through sysfs with the window mapped:
 *    the mapping raises SIGBUS; a rescan finds the GPU again, whose new
 *    resource0 reads its registers;
 *  - unload: rmmod i915_sim with the window mapped: the mapping raises
 *    SIGBUS, nothing oopses (the runner checks the kernel log), and the
 *    modules load again.
 */
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "exec.h"
#include "modules.h"

/* register offsets in BAR 0 (include/i915_reg.h) */
#define PGTBL_CTL	0x2020
#define   PGTBL_ENABLE	(1u << 0)
#define RING_TAIL	0x2030
#define RING_HEAD	0x2034
#define   HEAD_ADDR	0x001ffffc
#define RING_START	0x2038
#define RING_CTL	0x203c
#define   RING_VALID	(1u << 0)
#define HWS_PGA		0x2080
#define GEN3_ACTHD	0x20c8
#define I965_ACTHD	0x2074
#define REG_FILE	(512 * 1024)	/* what igt maps on Gen3/Gen4 */

static void bar_path(const char *slot, const char *file, char *buf,
		     size_t len)
{
	snprintf(buf, len, "/sys/bus/pci/devices/%s/%s", slot, file);
}

/* BAR @bar's start and length, from sysfs "resource" */
static void bar_range(const char *slot, int bar, uint64_t *start,
		      uint64_t *len)
{
	unsigned long long s, e, flags;
	char path[128];
	FILE *f;
	int i;

	bar_path(slot, "resource", path, sizeof(path));
	f = fopen(path, "r");
	igt_assert_f(f, "%s: %s", path, strerror(errno));
	for (i = 0; i <= bar; i++)
		igt_assert(fscanf(f, "%llx %llx %llx", &s, &e, &flags) == 3);
	fclose(f);
	*start = s;
	*len = e ? e - s + 1 : 0;
}

/* mmap @len bytes of the slot's sysfs file @name at @offset */
static void *__map_file(const char *slot, const char *name, size_t len,
			off_t offset, int *err)
{
	char path[128];
	void *p;
	int fd;

	bar_path(slot, name, path, sizeof(path));
	fd = open(path, O_RDWR | O_CLOEXEC);
	igt_assert_f(fd >= 0, "%s: %s", path, strerror(errno));
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset);
	*err = p == MAP_FAILED ? errno : 0;
	close(fd);
	return p == MAP_FAILED ? NULL : p;
}

/* mmap @len bytes of the slot's resource<bar> at @offset, as libpciaccess */
static void *__map_bar(const char *slot, int bar, size_t len, off_t offset,
		       int *err)
{
	char name[16];

	snprintf(name, sizeof(name), "resource%d", bar);
	return __map_file(slot, name, len, offset, err);
}

static volatile uint32_t *map_regs(const char *slot)
{
	int err;
	void *p = __map_bar(slot, 0, REG_FILE, 0, &err);

	igt_assert_f(p, "mmap of %s's resource0: %s", slot, strerror(err));
	return p;
}

static uint32_t rd(volatile uint32_t *regs, uint32_t reg)
{
	return regs[reg / 4];
}

/* The value the driver reads for @name in debugfs i915_ring. */
static uint32_t ring_debugfs(int fd, const char *name)
{
	char buf[4096], want[32], *p;
	int ret;

	ret = igt_debugfs_read(fd, "i915_ring", buf, sizeof(buf));
	igt_assert_f(ret > 0, "i915_ring: %s", igt_errname(ret));
	snprintf(want, sizeof(want), "\n%s: ", name);
	p = strstr(buf, want);
	igt_assert_f(p, "no %s in i915_ring:\n%s", name, buf);
	return strtoul(p + strlen(want), NULL, 0);
}

static int open_gpu(char *slot, size_t len)
{
	int fd = drm_open_driver();

	igt_assert_ok(drm_device_slot(fd, slot, len));
	igt_info("GPU %s", slot);
	return fd;
}

/* one store, waited for: the ring's TAIL moves */
static void store_sync(int fd)
{
	struct batch *b = batch_new(fd);
	struct bo t;
	uint32_t got;

	bo_init(&t, fd, PAGE_SZ);
	emit_store_dword(b, &t, 0, 0xc0ffee);
	batch_submit(b);
	gem_read(fd, t.handle, 0, &got, sizeof(got));
	igt_assert_eq_u64(got, 0xc0ffee);
	batch_free(b);
	bo_fini(&t, fd);
}

static void subtest_read(void)
{
	volatile uint32_t *regs, *page;
	uint64_t start, len;
	char slot[64];
	int fd, err;

	fd = open_gpu(slot, sizeof(slot));
	store_sync(fd);	/* the ring has been used */
	regs = map_regs(slot);

	igt_assert_eq_u64(rd(regs, RING_START), ring_debugfs(fd, "START"));
	igt_assert_eq_u64(rd(regs, RING_CTL), ring_debugfs(fd, "CTL"));
	igt_assert(rd(regs, RING_CTL) & RING_VALID);
	igt_assert_eq_u64(rd(regs, HWS_PGA), ring_debugfs(fd, "HWS_PGA"));
	igt_assert(rd(regs, HWS_PGA));
	igt_assert(rd(regs, PGTBL_CTL) & PGTBL_ENABLE);
	igt_info("START 0x%08x CTL 0x%08x HWS_PGA 0x%08x PGTBL_CTL 0x%08x",
		 rd(regs, RING_START), rd(regs, RING_CTL), rd(regs, HWS_PGA),
		 rd(regs, PGTBL_CTL));

	/* one page at an offset, as pci_device_map_range() of a range */
	page = __map_bar(slot, 0, PAGE_SZ, 0x2000, &err);
	igt_assert_f(page, "mmap at offset 0x2000: %s", strerror(err));
	igt_assert_eq_u64(page[(RING_START - 0x2000) / 4],
			  rd(regs, RING_START));
	igt_assert_eq_u64(page[(HWS_PGA - 0x2000) / 4], rd(regs, HWS_PGA));
	munmap((void *)page, PAGE_SZ);

	/* past the BAR's end: refused as the PCI core refuses it */
	bar_range(slot, 0, &start, &len);
	igt_assert(len >= REG_FILE);
	page = __map_bar(slot, 0, 2 * PAGE_SZ, len - PAGE_SZ, &err);
	igt_assert_f(!page, "a mapping past the BAR's end was allowed");
	igt_assert_eq(err, EINVAL);

	munmap((void *)regs, REG_FILE);
	close(fd);
}

static void subtest_follows(void)
{
	volatile uint32_t *regs;
	uint32_t tail0, tail, head;
	char slot[64];
	double t0;
	int fd;

	fd = open_gpu(slot, sizeof(slot));
	regs = map_regs(slot);
	tail0 = rd(regs, RING_TAIL);	/* the page is in */
	store_sync(fd);
	tail = ring_debugfs(fd, "TAIL");
	igt_assert_f(tail != tail0, "the batch did not move TAIL (0x%x)",
		     tail);

	t0 = igt_now();
	while (rd(regs, RING_TAIL) != tail && igt_now() - t0 < 10)
		igt_sleep_ms(1);
	igt_assert_f(rd(regs, RING_TAIL) == tail,
		     "the window still shows TAIL 0x%x, not 0x%x, after 10 s",
		     rd(regs, RING_TAIL), tail);
	while ((head = rd(regs, RING_HEAD) & HEAD_ADDR) != tail &&
	       igt_now() - t0 < 10)
		igt_sleep_ms(1);
	igt_assert_f(head == tail, "HEAD 0x%x, TAIL 0x%x", head, tail);
	igt_info("TAIL 0x%x -> 0x%x, seen after %.3f s", tail0, tail,
		 igt_now() - t0);
	munmap((void *)regs, REG_FILE);
	close(fd);
}

static void subtest_moves(void)
{
	uint32_t acthd_reg, first, last, seen = 0;
	volatile uint32_t *regs;
	struct batch *b;
	char slot[64];
	int fd, i;

	sim_set_cmd_delay(1000);
	fd = open_gpu(slot, sizeof(slot));
	acthd_reg = gem_gen(fd) == 3 ? GEN3_ACTHD : I965_ACTHD;
	regs = map_regs(slot);

	b = batch_new(fd);
	for (i = 0; i < 1000; i++)	/* about a second */
		batch_emit(b, 0);	/* MI_NOOP */
	first = last = rd(regs, acthd_reg);
	batch_submit(b);
	while (gem_busy(fd, b->bo.handle)) {
		uint32_t v = rd(regs, acthd_reg);

		if (v != last) {
			seen++;
			last = v;
		}
		igt_sleep_ms(1);
	}
	igt_info("ACTHD 0x%08x -> 0x%08x, %u changes seen while busy", first,
		 last, seen);
	igt_assert_f(seen >= 2, "ACTHD changed %u times in the window", seen);
	batch_free(b);
	munmap((void *)regs, REG_FILE);
	close(fd);
}

static void subtest_write(void)
{
	volatile uint32_t *regs;
	uint32_t start;
	char slot[64];
	int fd;

	fd = open_gpu(slot, sizeof(slot));
	regs = map_regs(slot);
	start = rd(regs, RING_START);
	igt_assert_f(access_faults(regs + RING_START / 4, true, 0),
		     "a store to a page read went through");
	igt_assert_f(access_faults(regs + 0x40000 / 4, true, 0),
		     "a store to a page never read went through");
	igt_assert_eq_u64(rd(regs, RING_START), start);
	igt_assert_eq_u64(ring_debugfs(fd, "START"), start);
	igt_assert(!access_faults(regs + RING_START / 4, false, 0));
	munmap((void *)regs, REG_FILE);
	close(fd);
}

/* Does /dev/mem refuse RAM (CONFIG_STRICT_DEVMEM)?  RAM is at 1 MiB. */
static bool devmem_strict(int mem)
{
	void *p = mmap(NULL, PAGE_SZ, PROT_READ, MAP_SHARED, mem, 1 << 20);

	if (p == MAP_FAILED)
		return true;
	munmap(p, PAGE_SZ);
	return false;
}

static void subtest_other_bars(void)
{
	static const char *const files[] = {
		"resource2", "resource2_wc", "resource3",
	};
	uint64_t start, len;
	char slot[64], path[128];
	int fd, i, err, mem;
	void *p;

	fd = open_gpu(slot, sizeof(slot));
	for (i = 0; i < (int)ARRAY_SIZE(files); i++) {
		bar_path(slot, files[i], path, sizeof(path));
		if (access(path, F_OK)) {
			/* Gen4 has no BAR 3 */
			igt_assert(gem_gen(fd) == 4 && i == 2);
			continue;
		}
		p = __map_file(slot, files[i], PAGE_SZ, 0, &err);
		igt_assert_f(!p, "%s was mapped", files[i]);
		igt_assert_eq(err, EINVAL);
	}

	mem = open("/dev/mem", O_RDONLY | O_CLOEXEC);
	if (mem < 0) {
		igt_info("no /dev/mem: %s", strerror(errno));
	} else if (!devmem_strict(mem)) {
		igt_info("/dev/mem maps RAM: no CONFIG_STRICT_DEVMEM, which "
			 "would keep it from the BARs");
	} else {
		for (i = 0; i <= (gem_gen(fd) == 3 ? 3 : 2); i++) {
			if (i == 1)
				continue;
			bar_range(slot, i, &start, &len);
			p = mmap(NULL, PAGE_SZ, PROT_READ, MAP_SHARED, mem,
				 start + len - PAGE_SZ);
			igt_assert_f(p == MAP_FAILED,
				     "/dev/mem mapped BAR %d's end (0x%llx)",
				     i, (unsigned long long)start);
		}
	}
	if (mem >= 0)
		close(mem);
	close(fd);
}

/* ------------------------------------------------------------------ */
/* removal and unload with the window mapped */

static void subtest_remove(void)
{
	volatile uint32_t *regs;
	char slot[64], path[128];
	uint32_t start;
	double t0;
	int fd;

	module_require_model();
	fd = open_gpu(slot, sizeof(slot));
	close(fd);
	regs = map_regs(slot);
	start = rd(regs, RING_START);
	igt_assert(start);

	bar_path(slot, "remove", path, sizeof(path));
	igt_assert_ok(igt_write_file(path, "1"));
	igt_assert_f(access_faults(regs + RING_START / 4, false, 0),
		     "the window of a removed function still reads");
	igt_assert(access_faults(regs + 0x40000 / 4, false, 0));
	munmap((void *)regs, REG_FILE);

	igt_assert_ok(igt_write_file("/sys/bus/pci/rescan", "1"));
	t0 = igt_now();
	while ((fd = __drm_open_driver(false)) < 0 && igt_now() - t0 < 10)
		igt_sleep_ms(10);
	igt_assert_f(fd >= 0, "i915 did not bind %s after the rescan", slot);
	store_sync(fd);
	/* the model replaces resource0 once the rescan is over */
	regs = NULL;
	while (igt_now() - t0 < 10) {
		int err;

		regs = __map_bar(slot, 0, REG_FILE, 0, &err);
		if (regs)
			break;
		igt_assert_eq(err, EINVAL);
		igt_sleep_ms(10);
	}
	igt_assert_f(regs, "resource0 of the rescanned function not mappable");
	igt_assert_eq_u64(rd(regs, RING_START), ring_debugfs(fd, "START"));
	igt_assert(rd(regs, RING_CTL) & RING_VALID);
	munmap((void *)regs, REG_FILE);
	close(fd);
}

static void subtest_unload(void)
{
	volatile uint32_t *regs;
	char slot[64];
	int fd;

	module_require_model();
	fd = open_gpu(slot, sizeof(slot));
	close(fd);
	regs = map_regs(slot);
	igt_assert(rd(regs, RING_START));

	igt_assert_ok(syscall(SYS_delete_module, "i915_sim", O_NONBLOCK) ?
		      -errno : 0);
	igt_assert(module_loaded("i915"));
	igt_assert_f(access_faults(regs + RING_START / 4, false, 0),
		     "the window still reads after rmmod i915_sim");
	igt_assert(access_faults(regs + 0x40000 / 4, false, 0));
	igt_assert(access_faults(regs + RING_START / 4, true, 0));
	munmap((void *)regs, REG_FILE);

	igt_assert_ok(module_load_missing());
	fd = open_gpu(slot, sizeof(slot));
	store_sync(fd);
	regs = map_regs(slot);
	igt_assert_eq_u64(rd(regs, RING_START), ring_debugfs(fd, "START"));
	munmap((void *)regs, REG_FILE);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(read),
	SUBTEST(follows),
	SUBTEST(moves),
	SUBTEST(write),
	SUBTEST(other_bars),
	SUBTEST(remove),
	SUBTEST(unload),
};

igt_main(tests)
