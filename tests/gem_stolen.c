// SPDX-License-Identifier: GPL-2.0
/*
 * gem_stolen: the firmware's framebuffer in stolen memory survives GEM.
 *
 * On Gen3/Gen4 the BIOS maps the first GMS bytes of the GTT onto stolen
 * memory and the console (efifb, vesafb, simpledrm) keeps scanning out
 * from there: this driver does no modesetting.  The model does the same
 * at power-on (GMS in its host bridge's GMCH control, a pattern drawn
 * into the pages, the GTT entries set) and claims the start of the
 * aperture as the firmware framebuffer.  Checked here:
 *  - the driver bound although the framebuffer holds part of BAR 2, and
 *    after load the pattern and the entries are intact;
 *  - the managed range, GET_APERTURE and GEM_INIT leave stolen memory
 *    out; softpin into it is EINVAL;
 *  - eviction churn right above stolen memory (GEM_INIT, PIN, blits of
 *    more objects than the range holds) and an object moved by softpin
 *    from the bottom of the managed GTT to its top leave it intact;
 *  - the host bridge holds GMCH control, whose GMS is the stolen size,
 *    and no driver binds it.
 * The model checks once more after the driver unloaded and logs a
 * "BUG:" line that the suite catches if anything changed.
 */
#include <fcntl.h>
#include <libgen.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "exec.h"

#define MIB		(1ull << 20)
#define CHURN_RANGE	(16 * MIB)
#define CHURN_NOBJ	20
#define OBJ_SIZE	MIB
#define WIDTH		256
#define HEIGHT		1024
#define PITCH		(WIDTH * 4)
#define BAND		8	/* rows: two pages */
#define WALK_SIZE	MIB
#define WALK_STEPS	64

static void require_stolen(struct sim_stolen *st)
{
	int ret = sim_stolen(st);

	if (ret)
		igt_skip("no i915_sim/stolen: not the software model (%s)",
			 igt_errname(ret));
}

static void assert_fb_intact(const char *when)
{
	struct sim_stolen st;

	igt_assert_ok(sim_stolen(&st));
	igt_assert_f(st.pattern_intact, "%s: firmware framebuffer %s", when,
		     st.pattern);
	igt_assert_f(st.entries_intact, "%s: stolen GTT entries %s", when,
		     st.entries);
}

/* /proc/iomem has a line naming @name */
static bool iomem_has(const char *name)
{
	FILE *f = fopen("/proc/iomem", "r");
	char line[256];
	bool found = false;

	igt_assert(f);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, name))
			found = true;
	fclose(f);
	return found;
}

/*
 * The driver bound next to the firmware framebuffer's claim on BAR 2, and
 * the framebuffer is what the firmware drew.
 */
static void subtest_fb_intact_at_load(void)
{
	int fd = drm_open_driver();
	struct sim_stolen st;

	gem_gen(fd);
	require_stolen(&st);
	igt_info("stolen memory: %llu KiB, %s, %s", st.size >> 10,
		 st.pattern, st.entries);
	igt_assert_lt(0, st.size);
	igt_assert_eq_u64(gem_gtt_stolen(fd), st.size);
	igt_assert_f(iomem_has("i915_sim firmware framebuffer"),
		     "no firmware framebuffer claim in /proc/iomem");
	assert_fb_intact("after load");
	close(fd);
}

/* sysfs directory of the PCI function at @devfn beside the GPU of @fd */
static void pci_sibling(int fd, const char *slot, char *path, size_t len)
{
	char link[256], target[256];
	struct stat st;
	ssize_t n;

	igt_assert_ok(fstat(fd, &st) ? -errno : 0);
	snprintf(link, sizeof(link), "/sys/dev/char/%u:%u/device",
		 major(st.st_rdev), minor(st.st_rdev));
	n = readlink(link, target, sizeof(target) - 1);
	igt_assert_f(n > 0, "readlink %s", link);
	target[n] = '\0';
	/* ".../DDDD:BB:SS.F": keep DDDD:BB: */
	n = strlen(basename(target));
	igt_assert_lt(7, n);
	snprintf(path, len, "/sys/bus/pci/devices/%.*s%s", (int)(n - 4),
		 basename(target), slot);
}

static unsigned int sysfs_hex(const char *dir, const char *name)
{
	char path[600], buf[32] = "";
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	igt_assert_f(fd >= 0, "open %s", path);
	igt_assert_lt(0, read(fd, buf, sizeof(buf) - 1));
	close(fd);
	return strtoul(buf, NULL, 16);
}

static bool has_driver(const char *dir)
{
	char path[600];
	struct stat st;

	snprintf(path, sizeof(path), "%s/driver", dir);
	return !lstat(path, &st);
}

/*
 * The host bridge at 00:00.0 carries GMCH control (0x52) whose GMS field
 * gives the stolen size the driver reports; no driver binds the bridge,
 * not even after a rescan of the PCI buses.
 */
static void subtest_host_bridge_gmch(void)
{
	static const unsigned int gms_mib[16] = {
		0, 1, 4, 8, 16, 32, 48, 64, 128, 256, 96, 160, 224, 352,
	};
	int fd = drm_open_driver();
	struct sim_stolen st;
	char dir[512], path[600];
	uint16_t gmch = 0;
	int cfg, rescan;

	gem_gen(fd);
	require_stolen(&st);
	pci_sibling(fd, "00.0", dir, sizeof(dir));
	igt_info("host bridge %s: %04x:%04x class %06x", dir,
		 sysfs_hex(dir, "vendor"), sysfs_hex(dir, "device"),
		 sysfs_hex(dir, "class"));
	igt_assert_eq(sysfs_hex(dir, "vendor"), 0x8086);
	igt_assert_eq(sysfs_hex(dir, "class"), 0x060000);

	snprintf(path, sizeof(path), "%s/config", dir);
	cfg = open(path, O_RDONLY);
	igt_assert_f(cfg >= 0, "open %s", path);
	igt_assert_eq(pread(cfg, &gmch, 2, 0x52), 2);
	close(cfg);
	igt_info("GMCH control %#06x", gmch);
	igt_assert_eq_u64((uint64_t)gms_mib[(gmch >> 4) & 0xf] * MIB,
			  gem_gtt_stolen(fd));
	igt_assert_eq_u64(gem_gtt_stolen(fd), st.size);

	igt_assert_f(!has_driver(dir), "a driver bound the host bridge");
	rescan = open("/sys/bus/pci/rescan", O_WRONLY);
	igt_assert(rescan >= 0);
	igt_assert_eq(write(rescan, "1", 1), 1);
	close(rescan);
	igt_assert_f(!has_driver(dir),
		     "a driver bound the host bridge after a rescan");
	close(fd);
}

/* GET_APERTURE, the managed range and GEM_INIT leave stolen memory out */
static void subtest_managed_range_excludes_stolen(void)
{
	struct drm_i915_gem_get_aperture ap = { 0 };
	int fd = drm_open_driver();
	uint64_t stolen, total, start, end;
	struct sim_stolen st;

	gem_gen(fd);
	require_stolen(&st);
	stolen = gem_gtt_stolen(fd);
	total = gem_gtt_total(fd);

	gem_gtt_managed(fd, &start, &end);
	igt_assert_eq_u64(start, stolen);
	igt_assert_ok(__gem_get_aperture(fd, &ap));
	igt_assert_eq_u64(ap.aper_size, total);
	igt_assert_eq_u64(ap.aper_available_size, end - start);
	igt_assert_lte_u64(ap.aper_available_size, total - stolen);

	/* a range inside stolen memory is empty once that is taken out */
	igt_assert_err(__gem_init(fd, 0, stolen), -EINVAL);
	igt_assert_err(__gem_init(fd, stolen / 2, stolen), -EINVAL);
	/* one that starts inside starts right above it */
	gem_narrow_gtt(fd, stolen / 2, stolen + MIB);
	gem_gtt_managed(fd, &start, &end);
	igt_assert_eq_u64(start, stolen);
	igt_assert_eq_u64(end, stolen + MIB);
	igt_assert_ok(__gem_get_aperture(fd, &ap));
	igt_assert_eq_u64(ap.aper_available_size, MIB);
	gem_restore_gtt(fd);
	gem_gtt_managed(fd, &start, &end);
	igt_assert_eq_u64(start, stolen);
	assert_fb_intact("after GEM_INIT");
	close(fd);
}

static int exec_pinned(int fd, uint32_t handle, uint64_t offset,
		       uint32_t batch, uint32_t len)
{
	struct drm_i915_gem_exec_object2 obj[2];
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(obj),
		.buffer_count = 2,
		.batch_len = len,
	};

	memset(obj, 0, sizeof(obj));
	obj[0].handle = handle;
	obj[0].offset = offset;
	obj[0].flags = EXEC_OBJECT_PINNED;
	obj[1].handle = batch;
	return __gem_execbuf(fd, &eb);
}

/* softpin anywhere into stolen memory is outside the managed range */
static void subtest_softpin_into_stolen(void)
{
	int fd = drm_open_driver();
	uint32_t handle = gem_create(fd, 64 << 10);
	uint32_t batch = bbe_create(fd, 0);
	struct sim_stolen st;
	uint64_t stolen;

	gem_gen(fd);
	require_stolen(&st);
	stolen = gem_gtt_stolen(fd);

	igt_assert_err(exec_pinned(fd, handle, 0, batch, 8), -EINVAL);
	igt_assert_err(exec_pinned(fd, handle, PAGE_SZ, batch, 8), -EINVAL);
	igt_assert_err(exec_pinned(fd, handle, stolen / 2, batch, 8), -EINVAL);
	igt_assert_err(exec_pinned(fd, handle, stolen - (64 << 10), batch, 8),
		       -EINVAL);
	/* straddling the end of stolen memory */
	igt_assert_err(exec_pinned(fd, handle, stolen - PAGE_SZ, batch, 8),
		       -EINVAL);
	/* the first address above it is fine */
	igt_assert_ok(exec_pinned(fd, handle, stolen, batch, 8));
	gem_sync(fd, batch);

	gem_close(fd, batch);
	gem_close(fd, handle);
	assert_fb_intact("after softpin");
	close(fd);
}

struct image {
	struct bo bo;
	struct surf s;
	struct ref ref;
};

/*
 * Eviction churn right above stolen memory: more objects than the
 * range holds, filled and copied by the blitter, with GEM_INIT (which
 * evicts everything) and PIN/UNPIN (which takes the lowest hole) in
 * between; every pixel checked at the end.
 */
static void subtest_churn_above_stolen(void)
{
	int fd = drm_open_driver();
	struct image *im = calloc(CHURN_NOBJ, sizeof(*im));
	struct batch *b = batch_new(fd);
	uint64_t stolen, start, end;
	struct sim_stolen st;
	int round, i;

	gem_gen(fd);
	require_stolen(&st);
	igt_assert(im);
	stolen = gem_gtt_stolen(fd);
	/* from 0: GEM_INIT takes stolen memory out itself */
	gem_narrow_gtt(fd, 0, stolen + CHURN_RANGE);
	gem_gtt_managed(fd, &start, &end);
	igt_assert_eq_u64(start, stolen);

	for (i = 0; i < CHURN_NOBJ; i++) {
		bo_init(&im[i].bo, fd, OBJ_SIZE);
		im[i].s = (struct surf){ &im[i].bo, PITCH, 4, WIDTH, HEIGHT };
		ref_init(&im[i].ref, &im[i].s, OBJ_SIZE);
	}

	for (round = 0; round < 4; round++) {
		for (i = 0; i < CHURN_NOBJ; i++) {
			struct image *a = &im[(i + round) % CHURN_NOBJ];
			struct image *c = &im[(i * 7 + round + 1) % CHURN_NOBJ];
			uint32_t color = pattern_dw(round, i);

			if (a == c)
				continue;
			/* its first and last pages, right at its ends */
			emit_xy_fill(b, &a->s, 0, 0, WIDTH, BAND, color);
			ref_fill(&a->ref, 0, 0, WIDTH, BAND, color);
			emit_xy_fill(b, &a->s, 0, HEIGHT - BAND, WIDTH, BAND,
				     ~color);
			ref_fill(&a->ref, 0, HEIGHT - BAND, WIDTH, BAND,
				 ~color);
			emit_xy_copy(b, &c->s, 0, (round + 1) * BAND, &a->s,
				     0, HEIGHT - BAND, WIDTH, BAND);
			ref_copy(&c->ref, 0, (round + 1) * BAND, &a->ref, 0,
				 HEIGHT - BAND, WIDTH, BAND);
			batch_submit(b);
			igt_assert_lte_u64(stolen, a->bo.offset);
			igt_assert_lte_u64(stolen, c->bo.offset);
		}
		if (round % 2) {
			/* GEM_INIT evicts all; PIN then takes the lowest hole */
			igt_assert_ok(__gem_init(fd, 0, stolen + CHURN_RANGE));
			igt_assert_eq_u64(gem_pin(fd, im[round].bo.handle, 0),
					  stolen);
			emit_xy_fill(b, &im[round].s, 0, 0, WIDTH, 1, round);
			ref_fill(&im[round].ref, 0, 0, WIDTH, 1, round);
			batch_submit_sync(b);
			gem_unpin(fd, im[round].bo.handle);
		}
	}

	for (i = 0; i < CHURN_NOBJ; i++) {
		check_surface(fd, im[i].bo.handle, &im[i].ref, "object %d", i);
		ref_fini(&im[i].ref);
		bo_fini(&im[i].bo, fd);
	}
	batch_free(b);
	free(im);
	gem_restore_gtt(fd);
	assert_fb_intact("after churn above stolen memory");
	close(fd);
}

/*
 * One object moved by softpin through the managed GTT in WALK_STEPS
 * steps, from just above stolen memory to the top: at each place the GPU
 * writes its first and last dword.
 */
static void subtest_walk_whole_gtt(void)
{
	int fd = drm_open_driver();
	uint32_t handle = gem_create(fd, WALK_SIZE);
	uint32_t batch = gem_create(fd, PAGE_SZ);
	uint64_t start, end, off, stride;
	struct sim_stolen st;
	unsigned int steps = 0;
	int gen = gem_gen(fd);

	require_stolen(&st);
	gem_gtt_managed(fd, &start, &end);
	igt_assert_eq_u64(start, gem_gtt_stolen(fd));
	/* the batch goes into the last room; everything else is walked */
	stride = (end - start - WALK_SIZE - 64 * PAGE_SZ) / (WALK_STEPS - 1);
	stride &= ~(PAGE_SZ - 1);
	igt_assert_lte_u64(WALK_SIZE, stride);
	for (off = start; off + WALK_SIZE + 64 * PAGE_SZ <= end;
	     off += stride, steps++) {
		uint32_t cs[16], at, v[2];
		unsigned int n;

		n = cs_store_dword(gen, cs, off, 0x5e000000 | steps, &at);
		n += cs_store_dword(gen, cs + n, off + WALK_SIZE - 4,
				    0x5f000000 | steps, &at);
		n = cs_end(cs, n);
		gem_write(fd, batch, 0, cs, n * 4);
		igt_assert_ok(exec_pinned(fd, handle, off, batch, n * 4));
		/* no relocation told the kernel about the writes */
		gem_sync(fd, batch);
		gem_read(fd, handle, 0, &v[0], 4);
		gem_read(fd, handle, WALK_SIZE - 4, &v[1], 4);
		igt_assert_eq_u64(v[0], 0x5e000000 | steps);
		igt_assert_eq_u64(v[1], 0x5f000000 | steps);
	}
	igt_info("walked %u places of %llu MiB from %#llx to %#llx", steps,
		 WALK_SIZE >> 20, (unsigned long long)start,
		 (unsigned long long)(off - stride + WALK_SIZE));
	igt_assert_eq(steps, WALK_STEPS);
	gem_close(fd, batch);
	gem_close(fd, handle);
	assert_fb_intact("after the walk through the GTT");
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(fb_intact_at_load),
	SUBTEST(host_bridge_gmch),
	SUBTEST(managed_range_excludes_stolen),
	SUBTEST(softpin_into_stolen),
	SUBTEST(churn_above_stolen),
	SUBTEST(walk_whole_gtt),
};

igt_main(tests)
