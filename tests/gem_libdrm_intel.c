// SPDX-License-Identifier: GPL-2.0
/*
 * gem_libdrm_intel: the driver as libdrm_intel (intel_bufmgr.h) drives it,
 * the way the Intel 2D drivers and old Mesa do.  Everything the GPU and
 * the objects go through is a libdrm_intel call; the test only looks
 * (debugfs, sysfs, GET_APERTURE) to know what the answers must be.
 *
 *  - bufmgr_init: drm_intel_bufmgr_gem_init finds the device, its devid
 *    is the PCI id and libdrm took it for the generation the driver is
 *    (only Gen3 makes libdrm ask for NUM_FENCES_AVAIL); a second init on
 *    the same fd gives the same bufmgr;
 *  - aperture: drm_intel_get_aperture_sizes and
 *    drm_intel_bufmgr_check_aperture_space against the GTT the driver
 *    reports, for bo lists and for a batch's relocation tree;
 *  - blit: the 2D drivers' batchbuffer (commands in memory, each address
 *    the target's offset64 + delta announced by drm_intel_bo_emit_reloc,
 *    check_aperture_space before each operation, subdata + mrb_exec to
 *    flush): XY_COLOR_BLT fills and XY_SRC_COPY_BLT copies from a
 *    CPU-written (bo_map) source, every byte checked through bo_map and
 *    through get_subdata;
 *  - offsets_reexec: offset64 after exec is where the kernel put each
 *    object (the dwords it patched into the batch say so), a second
 *    exec of the same batch redraws, and a batch built with the
 *    presumed offsets needs no patching;
 *  - busy_wait: around a slowed batch (sim_cmd_delay_us), bo_busy,
 *    gem_bo_wait with 0 / short / long / infinite timeouts,
 *    bo_wait_rendering, and bo_map / get_subdata waiting for the GPU;
 *  - exec_rings: mrb_exec on rings these GPUs lack fails with -EINVAL
 *    (from the kernel or from libdrm) and changes nothing; RENDER works;
 *  - flink_open: bo_flink in one bufmgr, bo_gem_create_from_name in a
 *    second one on another fd, both see the same bytes; prime: the same
 *    through export_to_prime / create_from_prime (libdrm's imports ask
 *    GET_TILING and give up if it fails);
 *  - bo_reuse: enable_reuse, hundreds of allocations served by a few
 *    GEM objects, the cache's time-out and destroy free them all;
 *  - bo_cache_reclaim: the cached bos (MADVISE DONTNEED) are purgeable,
 *    DROP_SHRINK_ALL purges them, and libdrm then replaces them with new
 *    bos (MADVISE WILLNEED answers retained 0);
 *  - other_entry_points: map__cpu / map__wc, pin, GTT maps, tiling,
 *    madvise, contexts, userptr, reg_read (the Gen4 timestamp; -EINVAL
 *    on Gen3, as upstream): what works is checked, what the driver lacks
 *    must fail cleanly, and each outcome is listed.
 *
 * Every ioctl libdrm issues is seen by an ioctl() defined here (libdrm
 * calls the C library's ioctl through the PLT, so this one wins) and each
 * subtest lists which ones it made and what the driver answered.
 */
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "exec.h"

#ifdef HAVE_LIBDRM_INTEL
#include <intel_bufmgr.h>

#define RENDER I915_GEM_DOMAIN_RENDER

#define BATCH_BYTES	16384	/* batch object and bufmgr batch size */
#define BATCH_DW	(BATCH_BYTES / 4)
#define DELAY_US	1000	/* per command, for busy_wait */

/* ------------------------------------------------------------------ */
/* the ioctl trace */

struct trace_ent {
	unsigned int nr;	/* DRM_IOCTL_NR */
	int param;		/* GETPARAM's param, else -1 */
	int err;		/* 0 or an errno */
	int value;		/* GETPARAM's last answer */
	unsigned int count;
};

static struct trace_ent trace[128];
static unsigned int ntrace;
static bool trace_paused;	/* around the test's own look-ups */

static void trace_record(unsigned long request, void *arg, int err)
{
	unsigned int nr = _IOC_NR(request), i;
	int param = -1, value = 0;

	if (nr == _IOC_NR(DRM_IOCTL_I915_GETPARAM) && arg) {
		drm_i915_getparam_t *gp = arg;

		param = gp->param;
		if (!err && gp->value)
			value = *gp->value;
	}
	for (i = 0; i < ntrace; i++) {
		struct trace_ent *t = &trace[i];

		if (t->nr == nr && t->param == param && t->err == err) {
			t->count++;
			t->value = value;
			return;
		}
	}
	if (ntrace < ARRAY_SIZE(trace))
		trace[ntrace++] = (struct trace_ent){ nr, param, err, value, 1 };
}

/*
 * libdrm's drmIoctl() and libdrm_intel call ioctl(); the definition in
 * the executable is the one the dynamic linker binds them to.
 */
int ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;
	long ret;
	int err;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	ret = syscall(SYS_ioctl, fd, request, arg);
	err = ret < 0 ? errno : 0;
	if (_IOC_TYPE(request) == DRM_IOCTL_BASE && !trace_paused)
		trace_record(request, arg, err);
	errno = err;
	return ret;
}

static void trace_reset(void)
{
	ntrace = 0;
}

/* calls of @request answered with @err (-1: any answer) */
static unsigned int trace_count(unsigned long request, int err)
{
	unsigned int i, n = 0;

	for (i = 0; i < ntrace; i++)
		if (trace[i].nr == _IOC_NR(request) &&
		    (err < 0 || trace[i].err == err))
			n += trace[i].count;
	return n;
}

/* the answer to GETPARAM(@param): 0 or an errno; -1 if never asked */
static int trace_getparam(int param, int *value)
{
	unsigned int i;

	for (i = 0; i < ntrace; i++) {
		if (trace[i].nr == _IOC_NR(DRM_IOCTL_I915_GETPARAM) &&
		    trace[i].param == param) {
			if (value)
				*value = trace[i].value;
			return trace[i].err;
		}
	}
	return -1;
}

#define NAME(x) { _IOC_NR(DRM_IOCTL_##x), #x }
static const struct { unsigned int nr; const char *name; } ioctl_names[] = {
	NAME(VERSION), NAME(GEM_CLOSE), NAME(GEM_FLINK), NAME(GEM_OPEN),
	NAME(PRIME_HANDLE_TO_FD), NAME(PRIME_FD_TO_HANDLE),
	NAME(I915_GETPARAM), NAME(I915_GEM_EXECBUFFER),
	NAME(I915_GEM_EXECBUFFER2), NAME(I915_GEM_PIN), NAME(I915_GEM_UNPIN),
	NAME(I915_GEM_BUSY), NAME(I915_GEM_THROTTLE), NAME(I915_GEM_CREATE),
	NAME(I915_GEM_PREAD), NAME(I915_GEM_PWRITE), NAME(I915_GEM_MMAP),
	NAME(I915_GEM_SET_DOMAIN), NAME(I915_GEM_SW_FINISH),
	NAME(I915_GEM_SET_TILING), NAME(I915_GEM_GET_TILING),
	NAME(I915_GEM_GET_APERTURE), NAME(I915_GEM_MMAP_GTT),
	NAME(I915_GEM_MADVISE), NAME(I915_GEM_WAIT),
	NAME(I915_GEM_CONTEXT_CREATE), NAME(I915_GEM_CONTEXT_DESTROY),
	NAME(I915_GEM_USERPTR), NAME(I915_REG_READ),
	NAME(I915_GET_RESET_STATS), NAME(I915_GET_PIPE_FROM_CRTC_ID),
};

#define PARAM(x) { I915_PARAM_##x, #x }
static const struct { int param; const char *name; } param_names[] = {
	PARAM(CHIPSET_ID), PARAM(HAS_EXECBUF2), PARAM(HAS_BSD),
	PARAM(HAS_BLT), PARAM(HAS_RELAXED_FENCING), PARAM(HAS_EXEC_ASYNC),
	PARAM(HAS_WAIT_TIMEOUT), PARAM(HAS_LLC), PARAM(HAS_VEBOX),
	PARAM(HAS_EXEC_SOFTPIN), PARAM(NUM_FENCES_AVAIL),
	PARAM(HAS_ALIASING_PPGTT),
};

static const char *ioctl_name(unsigned int nr)
{
	static char buf[16];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ioctl_names); i++)
		if (ioctl_names[i].nr == nr)
			return ioctl_names[i].name;
	snprintf(buf, sizeof(buf), "nr %#x", nr);
	return buf;
}

static const char *param_name(int param)
{
	static char buf[16];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(param_names); i++)
		if (param_names[i].param == param)
			return param_names[i].name;
	snprintf(buf, sizeof(buf), "%d", param);
	return buf;
}

/* one line per ioctl (and GETPARAM param) and answer */
static void trace_report(void)
{
	unsigned int i;

	for (i = 0; i < ntrace; i++) {
		const struct trace_ent *t = &trace[i];
		char what[64], value[32] = "";

		if (t->param >= 0) {
			snprintf(what, sizeof(what), "%s(%s)",
				 ioctl_name(t->nr), param_name(t->param));
			if (!t->err)
				snprintf(value, sizeof(value), " = %#x",
					 t->value);
		} else {
			snprintf(what, sizeof(what), "%s", ioctl_name(t->nr));
		}
		igt_info("libdrm ioctl %-40s x%-4u -> %s%s", what, t->count,
			 igt_errname(-t->err), value);
	}
}

/* ------------------------------------------------------------------ */
/* bufmgr and objects */

static drm_intel_bufmgr *bufmgr_new(int fd)
{
	drm_intel_bufmgr *bufmgr = drm_intel_bufmgr_gem_init(fd, BATCH_BYTES);

	igt_assert_f(bufmgr, "drm_intel_bufmgr_gem_init failed");
	return bufmgr;
}

static drm_intel_bo *bo_new(drm_intel_bufmgr *bufmgr, const char *name,
			    unsigned long size)
{
	drm_intel_bo *bo = drm_intel_bo_alloc(bufmgr, name, size, 0);

	igt_assert_f(bo, "drm_intel_bo_alloc(%s, %lu) failed", name, size);
	igt_assert_lte_u64(size, bo->size);
	return bo;
}

/* a 32 bpp surface in a bo, with its CPU reference */
struct image {
	drm_intel_bo *bo;
	struct surf s;		/* s.bo unused: geometry for the reference */
	struct ref ref;
};

static void image_init(struct image *im, drm_intel_bufmgr *bufmgr,
		       const char *name, int width, int height)
{
	/* the 2D drivers' linear pitch: 64-byte aligned */
	uint32_t pitch = ((uint32_t)width * 4 + 63) & ~63u;

	im->bo = bo_new(bufmgr, name, (unsigned long)pitch * height);
	im->s.bo = NULL;
	im->s.pitch = pitch;
	im->s.cpp = 4;
	im->s.width = width;
	im->s.height = height;
	ref_init(&im->ref, &im->s, im->bo->size);
}

static void image_fini(struct image *im)
{
	ref_fini(&im->ref);
	drm_intel_bo_unreference(im->bo);
	im->bo = NULL;
}

/* every byte, through drm_intel_bo_map and then drm_intel_bo_get_subdata */
static void check_image(struct image *im, const char *what)
{
	uint8_t *buf;

	igt_assert_ok(drm_intel_bo_map(im->bo, 0));
	igt_assert(im->bo->virtual);
	check_pixels(im->bo->virtual, &im->ref, "%s (bo_map)", what);
	igt_assert_ok(drm_intel_bo_unmap(im->bo));
	igt_assert(!im->bo->virtual);

	buf = malloc(im->ref.size);
	igt_assert(buf);
	memset(buf, 0x5a, im->ref.size);
	igt_assert_ok(drm_intel_bo_get_subdata(im->bo, 0, im->ref.size, buf));
	check_pixels(buf, &im->ref, "%s (get_subdata)", what);
	free(buf);
}

/* the source data written by the CPU through a write mapping */
static void image_upload(struct image *im, uint32_t seed)
{
	igt_fill_pattern(im->ref.px, im->ref.size, seed);
	igt_assert_ok(drm_intel_bo_map(im->bo, 1));
	memcpy(im->bo->virtual, im->ref.px, im->ref.size);
	igt_assert_ok(drm_intel_bo_unmap(im->bo));
}

/* ------------------------------------------------------------------ */
/* the batchbuffer of the Intel 2D drivers */

struct batch_reloc {
	unsigned int dw;	/* index of the address dword */
	drm_intel_bo *target;
	uint32_t delta;
};

struct lbatch {
	drm_intel_bufmgr *bufmgr;
	drm_intel_bo *bo;
	uint32_t dw[BATCH_DW];
	unsigned int used;	/* dwords */
	struct batch_reloc reloc[BATCH_DW / 2];
	unsigned int nreloc;
	bool ended;		/* MI_BATCH_BUFFER_END written and uploaded */
};

static void lbatch_start(struct lbatch *b)
{
	b->bo = bo_new(b->bufmgr, "batch", BATCH_BYTES);
	b->used = 0;
	b->nreloc = 0;
	b->ended = false;
}

static struct lbatch *lbatch_new(drm_intel_bufmgr *bufmgr)
{
	struct lbatch *b = calloc(1, sizeof(*b));

	igt_assert(b);
	b->bufmgr = bufmgr;
	lbatch_start(b);
	return b;
}

static void lbatch_free(struct lbatch *b)
{
	if (b->bo)
		drm_intel_bo_unreference(b->bo);
	free(b);
}

static void out(struct lbatch *b, uint32_t dw)
{
	igt_assert(!b->ended);
	igt_assert_lt(b->used, BATCH_DW - 2);
	b->dw[b->used++] = dw;
}

/*
 * OUT_RELOC: announce the relocation at this dword, then write the
 * address the target will have if it does not move: offset64 + delta.
 */
static void out_reloc(struct lbatch *b, drm_intel_bo *target, uint32_t delta,
		      uint32_t read, uint32_t write)
{
	igt_assert_ok(drm_intel_bo_emit_reloc(b->bo, b->used * 4, target,
					      delta, read, write));
	b->reloc[b->nreloc++] = (struct batch_reloc){ b->used, target, delta };
	out(b, (uint32_t)(target->offset64 + delta));
}

/* what the 2D drivers do before each operation: room for it all? */
static void require_space(struct lbatch *b, drm_intel_bo *dst,
			  drm_intel_bo *src)
{
	drm_intel_bo *bos[3] = { b->bo, dst, src };

	igt_assert_ok(drm_intel_bufmgr_check_aperture_space(bos,
							    src ? 3 : 2));
}

static void lbatch_end(struct lbatch *b)
{
	if (b->ended)
		return;
	b->ended = true;
	b->dw[b->used++] = MI_BATCH_BUFFER_END;
	if (b->used & 1)
		b->dw[b->used++] = MI_NOOP;
	igt_assert_ok(drm_intel_bo_subdata(b->bo, 0, b->used * 4, b->dw));
}

/* end, upload and execute on @ring; the batch object is kept */
static int lbatch_exec(struct lbatch *b, unsigned int ring)
{
	lbatch_end(b);
	return drm_intel_bo_mrb_exec(b->bo, b->used * 4, NULL, 0, 0, ring);
}

/* intel_batch_submit(): execute, drop the batch object, start a new one */
static void lbatch_flush(struct lbatch *b)
{
	igt_assert_ok(lbatch_exec(b, I915_EXEC_RENDER));
	drm_intel_bo_unreference(b->bo);
	lbatch_start(b);
}

static void fill(struct lbatch *b, struct image *dst, int x, int y, int w,
		 int h, uint32_t color)
{
	require_space(b, dst->bo, NULL);
	out(b, XY_COLOR_BLT | BLT_WRITE_ARGB);
	out(b, BR13_ROP(ROP_PATCOPY) | BR13_DEPTH_32 | dst->s.pitch);
	out(b, (uint32_t)y << 16 | x);
	out(b, (uint32_t)(y + h) << 16 | (x + w));
	out_reloc(b, dst->bo, 0, RENDER, RENDER);
	out(b, color);
	ref_fill(&dst->ref, x, y, w, h, color);
}

/*
 * XY_SRC_COPY_BLT; the source address is the object + the offset of
 * (sx, sy), so that its relocation has a delta, and its origin is 0, 0.
 */
static void copy(struct lbatch *b, struct image *dst, int dx, int dy,
		 struct image *src, int sx, int sy, int w, int h)
{
	require_space(b, dst->bo, src->bo);
	out(b, XY_SRC_COPY_BLT | BLT_WRITE_ARGB);
	out(b, BR13_ROP(ROP_SRCCOPY) | BR13_DEPTH_32 | dst->s.pitch);
	out(b, (uint32_t)dy << 16 | dx);
	out(b, (uint32_t)(dy + h) << 16 | (dx + w));
	out_reloc(b, dst->bo, 0, RENDER, RENDER);
	out(b, 0);
	out(b, src->s.pitch);
	out_reloc(b, src->bo, (uint32_t)sy * src->s.pitch + sx * 4, RENDER, 0);
	ref_copy(&dst->ref, dx, dy, &src->ref, sx, sy, w, h);
}

/* ------------------------------------------------------------------ */
/* bufmgr_init */

static void subtest_bufmgr_init(void)
{
	int fd = drm_open_driver();
	unsigned long long pci = drm_sysfs_device_attr(fd, "device");
	int gen = gem_gen(fd), value = 0;
	drm_intel_bufmgr *bufmgr, *again;
	unsigned int i;

	trace_reset();
	bufmgr = bufmgr_new(fd);
	igt_assert_f(trace_count(DRM_IOCTL_I915_GEM_GET_APERTURE, -1) == 1,
		     "the ioctl trace saw no GET_APERTURE: is ioctl() "
		     "not interposed?");
	igt_assert_eq(trace_count(DRM_IOCTL_I915_GEM_GET_APERTURE, 0), 1);
	igt_assert_eq(trace_getparam(I915_PARAM_CHIPSET_ID, &value), 0);
	igt_assert_eq_u64(value, pci);
	igt_assert_eq_u64(drm_intel_bufmgr_gem_get_devid(bufmgr), pci);
	igt_info("devid %#x, gen %d", drm_intel_bufmgr_gem_get_devid(bufmgr),
		 gen);

	/* libdrm needs EXECBUF2 (else it falls back to the v1 exec) */
	igt_assert_eq(trace_getparam(I915_PARAM_HAS_EXECBUF2, NULL), 0);
	igt_assert_eq(trace_getparam(I915_PARAM_HAS_WAIT_TIMEOUT, NULL), 0);
	/*
	 * The generation libdrm derived from the devid: it asks for the
	 * fences only below Gen4, and about 48-bit PPGTT only from Gen8.
	 */
	if (gen == 3) {
		igt_assert_eq(trace_getparam(I915_PARAM_NUM_FENCES_AVAIL,
					     &value), 0);
		igt_assert_lt(2, value);
	} else {
		igt_assert_eq(trace_getparam(I915_PARAM_NUM_FENCES_AVAIL,
					     NULL), -1);
	}
	igt_assert_eq(trace_getparam(I915_PARAM_HAS_ALIASING_PPGTT, NULL), -1);
	/* what the driver refuses libdrm takes for "no" */
	for (i = 0; i < ntrace; i++)
		if (trace[i].param >= 0 && trace[i].err)
			igt_info("GETPARAM(%s) refused with %s: libdrm takes "
				 "it for \"no\"", param_name(trace[i].param),
				 igt_errname(-trace[i].err));

	/* the bufmgr of an fd is shared and reference counted */
	again = drm_intel_bufmgr_gem_init(fd, BATCH_BYTES);
	igt_assert(again == bufmgr);
	drm_intel_bufmgr_destroy(again);
	trace_report();
	drm_intel_bufmgr_destroy(bufmgr);
	close(fd);
}

/* ------------------------------------------------------------------ */
/* aperture */

static unsigned long page_down(uint64_t x)
{
	return x & ~(uint64_t)(PAGE_SZ - 1);
}

static void subtest_aperture(void)
{
	int fd = drm_open_driver();
	struct drm_i915_gem_get_aperture ap = {};
	drm_intel_bufmgr *bufmgr;
	size_t mappable = 0, total = 0;
	uint64_t gtt_size, threshold;
	drm_intel_bo *a, *b, *c, *big, *bos[2];
	struct lbatch *lb;
	unsigned long sz;
	char caps[4096], *p;

	trace_reset();
	igt_assert_ok(drm_intel_get_aperture_sizes(fd, &mappable, &total));
	igt_assert_eq_u64(total, gem_gtt_total(fd));
	igt_assert(mappable > 0);
	igt_assert_lt(0, igt_debugfs_read(fd, "i915_capabilities", caps,
					  sizeof(caps)));
	p = strstr(caps, "aperture:");
	igt_info("GTT %zu bytes; libdrm's mappable aperture %zu bytes "
		 "(it probes PCI 0000:00:02.0 BAR 2 with libpciaccess, "
		 "or assumes 64 MiB); the driver's %.*s", total, mappable,
		 p ? (int)strcspn(p, "\n") : 0, p ? p : "");

	/* what the bufmgr takes for the GTT: aper_available_size */
	trace_paused = true;
	igt_assert_ok(__gem_get_aperture(fd, &ap));
	trace_paused = false;
	bufmgr = bufmgr_new(fd);
	gtt_size = ap.aper_available_size;
	if (gem_gen(fd) == 3 && gtt_size > 256ull << 20)
		gtt_size -= 256ull << 20;	/* libdrm: unmappable part */
	threshold = (unsigned int)(gtt_size * 3 / 4);

	/* a bo list: up to 3/4 of that fits, a page more does not */
	sz = page_down(threshold);
	big = bo_new(bufmgr, "big", sz);
	bos[0] = big;
	igt_assert_ok(drm_intel_bufmgr_check_aperture_space(bos, 1));
	drm_intel_bo_unreference(big);
	big = bo_new(bufmgr, "big", sz + PAGE_SZ);
	bos[0] = big;
	igt_assert_err(drm_intel_bufmgr_check_aperture_space(bos, 1),
		       -ENOSPC);
	drm_intel_bo_unreference(big);

	/* a batch counts what its relocations point at */
	lb = lbatch_new(bufmgr);
	/*
	 * Sizes libdrm does not round up to a cache bucket (buckets stop
	 * at 112 MiB, and 4 KiB and 64 KiB are bucket sizes): the batch,
	 * a and b fill 3/4 of the GTT to a page, c is more than that page.
	 */
	sz = page_down(threshold) - BATCH_BYTES - 2 * PAGE_SZ;
	igt_assert_lt(112ll << 20, sz);
	a = bo_new(bufmgr, "a", sz);
	b = bo_new(bufmgr, "b", PAGE_SZ);
	c = bo_new(bufmgr, "c", 16 * PAGE_SZ);
	igt_assert_eq_u64(a->size, sz);
	igt_assert_eq_u64(b->size, PAGE_SZ);
	igt_assert_eq_u64(c->size, 16 * PAGE_SZ);
	igt_assert_ok(drm_intel_bo_emit_reloc(lb->bo, 0, a, 0, RENDER, 0));
	igt_assert_ok(drm_intel_bo_emit_reloc(lb->bo, 4, b, 0, RENDER, 0));
	bos[0] = lb->bo;
	igt_assert_ok(drm_intel_bufmgr_check_aperture_space(bos, 1));
	/* c fits beside the batch alone, not beside the batch's tree */
	bos[1] = c;
	igt_assert_err(drm_intel_bufmgr_check_aperture_space(bos, 2),
		       -ENOSPC);
	igt_assert_ok(drm_intel_bo_emit_reloc(lb->bo, 8, c, 0, RENDER, 0));
	igt_assert_err(drm_intel_bufmgr_check_aperture_space(bos, 1),
		       -ENOSPC);
	drm_intel_bo_unreference(a);
	drm_intel_bo_unreference(b);
	drm_intel_bo_unreference(c);
	lbatch_free(lb);	/* drops the last references to a, b, c */
	trace_report();
	drm_intel_bufmgr_destroy(bufmgr);
	igt_assert_eq(gem_wait_object_count(fd, 0), 0);
	close(fd);
}

/* ------------------------------------------------------------------ */
/* blit */

static void subtest_blit(void)
{
	int fd = drm_open_driver();
	drm_intel_bufmgr *bufmgr = bufmgr_new(fd);
	struct image src, dst, dst2;
	struct lbatch *b;

	trace_reset();
	image_init(&src, bufmgr, "src", 128, 64);
	image_init(&dst, bufmgr, "dst", 200, 75);
	image_init(&dst2, bufmgr, "dst2", 100, 40);
	image_upload(&src, 17);
	b = lbatch_new(bufmgr);

	fill(b, &dst, 0, 0, 200, 75, 0xff102030);
	fill(b, &dst, 10, 5, 50, 20, 0xffa0b0c0);
	fill(b, &dst, 199, 0, 1, 75, 0xff00ff00);
	copy(b, &dst, 100, 30, &src, 0, 0, 64, 32);
	out(b, MI_FLUSH);
	copy(b, &dst, 120, 0, &dst, 10, 5, 50, 20);
	copy(b, &dst2, 0, 0, &src, 64, 32, 63, 31);
	fill(b, &dst2, 0, 39, 100, 1, 0xffffffff);
	lbatch_flush(b);

	/* a second batch object, the GPU reading what it wrote before */
	copy(b, &dst2, 30, 20, &dst, 95, 25, 70, 20);
	fill(b, &dst, 0, 70, 200, 5, 0xff445566);
	lbatch_flush(b);

	check_image(&dst, "dst");
	check_image(&dst2, "dst2");
	check_image(&src, "src, only read");
	igt_assert_eq(trace_count(DRM_IOCTL_I915_GEM_EXECBUFFER2, 0), 2);
	trace_report();

	lbatch_free(b);
	image_fini(&src);
	image_fini(&dst);
	image_fini(&dst2);
	drm_intel_bufmgr_destroy(bufmgr);
	igt_assert_eq(gem_wait_object_count(fd, 0), 0);
	close(fd);
}

/* ------------------------------------------------------------------ */
/* offsets_reexec */

/*
 * Where libdrm believes each object is (offset64) against what the
 * kernel patched into the batch, and the objects apart in the GTT.
 */
static void check_offsets(struct lbatch *b, drm_intel_bo **bos, int n,
			  uint64_t gtt_total, bool expect_unpatched)
{
	uint32_t *got = malloc(b->used * 4);
	unsigned int i;
	int j, k;

	igt_assert(got);
	igt_assert_ok(drm_intel_bo_get_subdata(b->bo, 0, b->used * 4, got));
	for (i = 0; i < b->nreloc; i++) {
		const struct batch_reloc *r = &b->reloc[i];
		uint32_t want = (uint32_t)(r->target->offset64 + r->delta);

		igt_assert_f(got[r->dw] == want,
			     "batch dword %u is %#x, offset64 %#llx + delta "
			     "%#x says %#x", r->dw, got[r->dw],
			     (unsigned long long)r->target->offset64,
			     r->delta, want);
		if (expect_unpatched)
			igt_assert_eq_u64(got[r->dw], b->dw[r->dw]);
	}
	free(got);
	for (j = 0; j < n; j++) {
		igt_assert(bos[j]->offset64 != 0);
		igt_assert_eq_u64(bos[j]->offset64 % PAGE_SZ, 0);
		igt_assert_eq_u64(bos[j]->offset, bos[j]->offset64);
		igt_assert_lte_u64(bos[j]->offset64 + bos[j]->size, gtt_total);
		for (k = 0; k < j; k++)
			igt_assert_f(bos[j]->offset64 + bos[j]->size <=
					     bos[k]->offset64 ||
				     bos[k]->offset64 + bos[k]->size <=
					     bos[j]->offset64,
				     "objects %d and %d overlap", j, k);
	}
}

static void subtest_offsets_reexec(void)
{
	int fd = drm_open_driver();
	uint64_t gtt_total = gem_gtt_total(fd), before[3];
	drm_intel_bufmgr *bufmgr = bufmgr_new(fd);
	struct image src, dst;
	struct lbatch *b;
	drm_intel_bo *bos[3];
	bool moved = false;
	uint8_t *zero;
	int i;

	image_init(&src, bufmgr, "src", 64, 32);
	image_init(&dst, bufmgr, "dst", 128, 48);
	image_upload(&src, 5);
	b = lbatch_new(bufmgr);
	bos[0] = b->bo;
	bos[1] = dst.bo;
	bos[2] = src.bo;
	for (i = 0; i < 3; i++)	/* never executed: no offset known yet */
		igt_assert_eq_u64(bos[i]->offset64, 0);

	trace_reset();
	fill(b, &dst, 0, 0, 128, 48, 0xff808080);
	copy(b, &dst, 3, 4, &src, 10, 7, 40, 20);
	fill(b, &dst, 60, 30, 30, 10, 0xff0000ff);
	copy(b, &dst, 100, 0, &src, 63, 31, 1, 1);
	igt_assert_ok(lbatch_exec(b, I915_EXEC_RENDER));
	/* presumed 0 everywhere: the kernel patched every address */
	check_offsets(b, bos, 3, gtt_total, false);
	check_image(&dst, "first exec");
	for (i = 0; i < 3; i++)
		igt_info("%s at %#llx", i ? (i == 1 ? "dst" : "src") : "batch",
			 (unsigned long long)bos[i]->offset64);

	/* the same batch again, over a destination the CPU cleared */
	zero = calloc(1, dst.ref.size);
	igt_assert(zero);
	igt_assert_ok(drm_intel_bo_subdata(dst.bo, 0, dst.ref.size, zero));
	free(zero);
	for (i = 0; i < 3; i++)
		before[i] = bos[i]->offset64;
	igt_assert_ok(drm_intel_bo_exec(b->bo, b->used * 4, NULL, 0, 0));
	check_offsets(b, bos, 3, gtt_total, false);
	check_image(&dst, "second exec of the same batch");
	for (i = 0; i < 3; i++)
		if (before[i] != bos[i]->offset64)
			igt_info("object %d moved: %#llx -> %#llx", i,
				 (unsigned long long)before[i],
				 (unsigned long long)bos[i]->offset64);

	/*
	 * A new batch written with the offsets libdrm now knows: while the
	 * targets stay where they are, the batch runs as written.
	 */
	drm_intel_bo_unreference(b->bo);
	lbatch_start(b);
	bos[0] = b->bo;
	fill(b, &dst, 5, 5, 20, 20, 0xffffff00);
	copy(b, &dst, 50, 10, &src, 0, 0, 30, 15);
	for (i = 1; i < 3; i++)
		before[i] = bos[i]->offset64;
	igt_assert_ok(lbatch_exec(b, I915_EXEC_RENDER));
	for (i = 1; i < 3; i++)
		moved |= before[i] != bos[i]->offset64;
	if (moved)
		igt_info("a target moved: the kernel patched the new batch");
	check_offsets(b, bos, 3, gtt_total, !moved);
	check_image(&dst, "batch with presumed offsets");
	igt_assert_eq(trace_count(DRM_IOCTL_I915_GEM_EXECBUFFER2, 0), 3);
	trace_report();

	lbatch_free(b);
	image_fini(&src);
	image_fini(&dst);
	drm_intel_bufmgr_destroy(bufmgr);
	igt_assert_eq(gem_wait_object_count(fd, 0), 0);
	close(fd);
}

/* ------------------------------------------------------------------ */
/* busy_wait */

#define SLOW_FILLS	300

/* @n one-pixel fills, one command each: about n * DELAY_US on the GPU */
static void slow_fills(struct lbatch *b, struct image *im, int n,
		       uint32_t seed)
{
	int i;

	for (i = 0; i < n; i++)
		fill(b, im, i % im->s.width, i / im->s.width % im->s.height,
		     1, 1, pattern_dw(seed, i));
}

static void check_subdata(struct image *im, const char *what)
{
	uint8_t *buf = malloc(im->ref.size);

	igt_assert(buf);
	igt_assert_ok(drm_intel_bo_get_subdata(im->bo, 0, im->ref.size, buf));
	check_pixels(buf, &im->ref, "%s (get_subdata)", what);
	free(buf);
}

static void subtest_busy_wait(void)
{
	static const char *const how[] = {
		"gem_bo_wait(0, 20 ms, 30 s)", "gem_bo_wait(-1)",
		"bo_wait_rendering", "bo_map", "bo_get_subdata",
	};
	int fd = drm_open_driver();
	drm_intel_bufmgr *bufmgr;
	struct image dst;
	struct lbatch *b;
	unsigned int round;
	double t0, t;

	sim_set_cmd_delay(DELAY_US);
	bufmgr = bufmgr_new(fd);
	image_init(&dst, bufmgr, "dst", 64, 32);
	b = lbatch_new(bufmgr);
	trace_reset();
	igt_assert(!drm_intel_bo_busy(dst.bo));
	igt_assert_ok(drm_intel_gem_bo_wait(dst.bo, 0));

	for (round = 0; round < ARRAY_SIZE(how); round++) {
		slow_fills(b, &dst, SLOW_FILLS, round);
		igt_assert_ok(lbatch_exec(b, I915_EXEC_RENDER));
		t0 = igt_now();
		igt_assert(drm_intel_bo_busy(dst.bo));
		igt_assert(drm_intel_bo_busy(b->bo));
		switch (round) {
		case 0:
			igt_assert_err(drm_intel_gem_bo_wait(dst.bo, 0), -ETIME);
			t = igt_now();
			igt_assert_err(drm_intel_gem_bo_wait(dst.bo, 20000000),
				       -ETIME);
			/*
			 * It waited (not a poll); the kernel counts jiffies,
			 * which under TCG may run a little ahead of the
			 * monotonic clock, so no exact lower bound.
			 */
			igt_info("20 ms timeout: -ETIME after %.1f ms",
				 (igt_now() - t) * 1000);
			igt_assert_lte(10, (igt_now() - t) * 1000);
			igt_assert(drm_intel_bo_busy(dst.bo));
			igt_assert_ok(drm_intel_gem_bo_wait(dst.bo,
							    30000000000ll));
			break;
		case 1:
			igt_assert_ok(drm_intel_gem_bo_wait(dst.bo, -1));
			break;
		case 2:
			drm_intel_bo_wait_rendering(dst.bo);
			break;
		case 3:
			/* SET_DOMAIN(CPU) waits for the GPU's write */
			check_image(&dst, "mapped while busy");
			break;
		case 4:
			/* PREAD waits too */
			check_subdata(&dst, "read while busy");
			break;
		}
		igt_info("%s: idle after %.3f s", how[round], igt_now() - t0);
		igt_assert(!drm_intel_bo_busy(dst.bo));
		igt_assert(!drm_intel_bo_busy(b->bo));
		igt_assert_ok(drm_intel_gem_bo_wait(dst.bo, 0));
		check_image(&dst, how[round]);
		drm_intel_bo_unreference(b->bo);
		lbatch_start(b);
	}
	trace_report();

	lbatch_free(b);
	image_fini(&dst);
	drm_intel_bufmgr_destroy(bufmgr);
	igt_assert_eq(gem_wait_object_count(fd, 0), 0);
	close(fd);
}

/* ------------------------------------------------------------------ */
/* exec_rings */

static void subtest_exec_rings(void)
{
	int fd = drm_open_driver();
	drm_intel_bufmgr *bufmgr = bufmgr_new(fd);
	struct image dst;
	struct lbatch *b;
	uint8_t *buf;
	size_t i;

	image_init(&dst, bufmgr, "dst", 64, 16);
	b = lbatch_new(bufmgr);
	fill(b, &dst, 0, 0, 64, 16, 0xff123456);
	fill(b, &dst, 8, 8, 4, 4, 0xff654321);

	/*
	 * libdrm takes a GETPARAM that succeeds as "the ring exists",
	 * whatever the value (0 here, as upstream says for Gen3/4): the
	 * kernel refuses BLT and BSD.  VEBOX it checks by value and
	 * refuses itself, and an unknown ring too.
	 */
	trace_reset();
	igt_assert_err(lbatch_exec(b, I915_EXEC_BLT), -EINVAL);
	igt_assert_err(lbatch_exec(b, I915_EXEC_BSD), -EINVAL);
	igt_assert_eq(trace_count(DRM_IOCTL_I915_GEM_EXECBUFFER2, EINVAL), 2);
	igt_assert_err(lbatch_exec(b, I915_EXEC_VEBOX), -EINVAL);
	igt_assert_err(lbatch_exec(b, 7), -EINVAL);
	igt_assert_eq(trace_count(DRM_IOCTL_I915_GEM_EXECBUFFER2, -1), 2);

	/* nothing ran, nothing was written back */
	igt_assert_eq_u64(dst.bo->offset64, 0);
	igt_assert_eq_u64(b->bo->offset64, 0);
	buf = malloc(dst.ref.size);
	igt_assert(buf);
	igt_assert_ok(drm_intel_bo_get_subdata(dst.bo, 0, dst.ref.size, buf));
	for (i = 0; i < dst.ref.size; i++)
		igt_assert_f(!buf[i], "byte %zu is %#x after a refused exec",
			     i, buf[i]);
	free(buf);

	/* the same batch, relocations and all, on the render ring */
	igt_assert_ok(lbatch_exec(b, I915_EXEC_RENDER));
	check_image(&dst, "after the refused rings");
	igt_assert_ok(drm_intel_bo_mrb_exec(b->bo, b->used * 4, NULL, 0, 0,
					    I915_EXEC_DEFAULT));
	check_image(&dst, "I915_EXEC_DEFAULT");
	trace_report();

	lbatch_free(b);
	image_fini(&dst);
	drm_intel_bufmgr_destroy(bufmgr);
	igt_assert_eq(gem_wait_object_count(fd, 0), 0);
	close(fd);
}

/* ------------------------------------------------------------------ */
/* flink_open */

static void subtest_flink_open(void)
{
	int fd1 = drm_open_driver(), fd2 = drm_open_driver();
	drm_intel_bufmgr *m1 = bufmgr_new(fd1), *m2 = bufmgr_new(fd2);
	struct image im, view;
	struct lbatch *b1, *b2;
	drm_intel_bo *bo2, *again;
	uint32_t name = 0, name2 = 0;

	igt_assert(m1 != m2);
	image_init(&im, m1, "shared", 96, 32);
	image_upload(&im, 33);
	b1 = lbatch_new(m1);
	fill(b1, &im, 10, 10, 20, 5, 0xffc0ffee);
	lbatch_flush(b1);

	trace_reset();
	igt_assert(drm_intel_bo_is_reusable(im.bo));
	igt_assert_ok(drm_intel_bo_flink(im.bo, &name));
	igt_assert(name != 0);
	igt_assert_ok(drm_intel_bo_flink(im.bo, &name2));
	igt_assert_eq(name2, name);
	igt_assert_eq(trace_count(DRM_IOCTL_GEM_FLINK, 0), 1);
	/* a named object never goes back to the bo cache */
	igt_assert(!drm_intel_bo_is_reusable(im.bo));

	bo2 = drm_intel_bo_gem_create_from_name(m2, "shared", name);
	if (!bo2) {
		unsigned int i;
		int err = 0;

		trace_report();
		igt_assert_eq(trace_count(DRM_IOCTL_GEM_OPEN, 0), 1);
		for (i = 0; i < ntrace; i++)
			if (trace[i].nr ==
			    _IOC_NR(DRM_IOCTL_I915_GEM_GET_TILING))
				err = trace[i].err;
		igt_assert_f(err, "create_from_name failed, GET_TILING did not");
		/* libdrm closed the handle GEM_OPEN gave it */
		igt_assert_eq(trace_count(DRM_IOCTL_GEM_CLOSE, 0), 1);
		igt_fail("drm_intel_bo_gem_create_from_name() asks "
			 "I915_GEM_GET_TILING after GEM_OPEN and gives up "
			 "(closes the handle, returns NULL) when it fails: "
			 "the driver answers %s", igt_errname(-err));
	}
	igt_assert_eq_u64(bo2->size, im.bo->size);
	again = drm_intel_bo_gem_create_from_name(m2, "again", name);
	igt_assert(again == bo2);	/* libdrm's name table */
	drm_intel_bo_unreference(again);

	/* fd2 sees what fd1's CPU and GPU wrote */
	view = im;		/* shares the reference pixels */
	view.bo = bo2;
	check_image(&view, "through the name, on the second fd");

	/* fd2's GPU writes, fd1 reads (waiting for fd2's request) */
	b2 = lbatch_new(m2);
	fill(b2, &view, 0, 0, 8, 8, 0xff0badf0);
	copy(b2, &view, 40, 20, &view, 0, 0, 30, 10);
	lbatch_flush(b2);
	check_image(&im, "on the first fd after the second fd's blits");
	check_image(&view, "on the second fd after its blits");
	trace_report();

	lbatch_free(b2);
	drm_intel_bo_unreference(bo2);
	drm_intel_bufmgr_destroy(m2);
	close(fd2);
	lbatch_free(b1);
	image_fini(&im);
	drm_intel_bufmgr_destroy(m1);
	igt_assert_eq(gem_wait_object_count(fd1, 0), 0);
	close(fd1);
}

/* ------------------------------------------------------------------ */
/* bo_reuse */

static long long object_count(int fd)
{
	long long count, bytes;

	igt_gem_objects(fd, &count, &bytes);
	return count;
}

static void subtest_bo_reuse(void)
{
	static const unsigned long sizes[] = {
		4096, 8192, 12288, 16384, 20000, 65536, 100000, 262144,
		1 << 20,
	};
	enum { LIVE = 12, ROUNDS = 40 };
	int fd = drm_open_driver();
	drm_intel_bufmgr *bufmgr;
	drm_intel_bo *bo[LIVE], *a;
	unsigned int allocs = 0, creates, closes, round, i;
	uint32_t tag, got;
	struct lbatch *b;
	int madv_err = 0;

	igt_assert_eq(gem_wait_object_count(fd, 0), 0);
	bufmgr = bufmgr_new(fd);
	drm_intel_bufmgr_gem_enable_reuse(bufmgr);
	trace_reset();

	/*
	 * a freed idle bo is the next one of its bucket, contents and all;
	 * it must have pages for that (the read gets them, as upstream):
	 * one that never had any is purged by the cache's MADVISE(DONTNEED)
	 */
	a = bo_new(bufmgr, "a", 8192);
	tag = 0xfeedface;
	igt_assert_ok(drm_intel_bo_subdata(a, 100, 4, &tag));
	igt_assert_ok(drm_intel_bo_get_subdata(a, 100, 4, &got));
	i = a->handle;
	drm_intel_bo_unreference(a);
	igt_assert_eq(object_count(fd), 1);	/* cached, not closed */
	igt_assert_eq(trace_count(DRM_IOCTL_GEM_CLOSE, -1), 0);
	a = bo_new(bufmgr, "a again", 8000);
	igt_assert_eq(a->handle, i);
	igt_assert_ok(drm_intel_bo_get_subdata(a, 100, 4, &got));
	igt_assert_eq_u64(got, tag);
	drm_intel_bo_unreference(a);
	/* MADVISE(DONTNEED) into the cache (twice), MADVISE(WILLNEED) out */
	igt_assert_eq(trace_count(DRM_IOCTL_I915_GEM_MADVISE, -1), 3);
	allocs = 2;

	/* churn: sizes rotating over the buckets, some used by the GPU */
	b = lbatch_new(bufmgr);
	allocs++;
	for (round = 0; round < ROUNDS; round++) {
		bool gpu = round % 4 == 3;

		for (i = 0; i < LIVE; i++) {
			unsigned long size = sizes[(i + round) % ARRAY_SIZE(sizes)];

			bo[i] = bo_new(bufmgr, "churn", size);
			allocs++;
			tag = pattern_dw(round, i);
			igt_assert_ok(drm_intel_bo_subdata(bo[i], size - 4, 4,
							   &tag));
			if (round % 5 == 1) {
				igt_assert_ok(drm_intel_bo_map(bo[i], 1));
				((uint32_t *)bo[i]->virtual)[1] = ~tag;
				igt_assert_ok(drm_intel_bo_unmap(bo[i]));
			}
			if (gpu) {
				/* the first 64 pixels, seen as a 256-byte row */
				require_space(b, bo[i], NULL);
				out(b, XY_COLOR_BLT | BLT_WRITE_ARGB);
				out(b, BR13_ROP(ROP_PATCOPY) | BR13_DEPTH_32 |
				       256);
				out(b, 0);
				out(b, 1 << 16 | 64);
				out_reloc(b, bo[i], 0, RENDER, RENDER);
				out(b, tag);
			}
		}
		if (gpu) {
			lbatch_flush(b);
			allocs++;
		}
		for (i = 0; i < LIVE; i++) {
			unsigned long size = sizes[(i + round) % ARRAY_SIZE(sizes)];
			uint32_t words[2];

			tag = pattern_dw(round, i);
			igt_assert_ok(drm_intel_bo_get_subdata(bo[i], size - 4,
							       4, &got));
			igt_assert_eq_u64(got, tag);
			igt_assert_ok(drm_intel_bo_get_subdata(bo[i], 0, 8,
							       words));
			if (gpu) {
				igt_assert_eq_u64(words[0], tag);
				igt_assert_eq_u64(words[1], tag);
			} else if (round % 5 == 1) {
				igt_assert_eq_u64(words[1], ~tag);
			}
		}
		/* freed in an order that differs from round to round */
		for (i = 0; i < LIVE; i++)
			drm_intel_bo_unreference(bo[(i * 5 + round) % LIVE]);
	}
	creates = trace_count(DRM_IOCTL_I915_GEM_CREATE, 0);
	igt_info("%u allocations served by %u GEM objects (%lld cached now)",
		 allocs, creates, object_count(fd));
	igt_assert_lt(creates, allocs / 8);

	/* cached objects idle for more than a second go on the next free */
	sleep(3);
	a = bo_new(bufmgr, "late", 4096);
	drm_intel_bo_unreference(a);
	igt_assert_eq(object_count(fd), 2);	/* it and the batch */

	for (i = 0; i < ntrace; i++)
		if (trace[i].nr == _IOC_NR(DRM_IOCTL_I915_GEM_MADVISE))
			madv_err = trace[i].err;
	if (madv_err)
		igt_info("I915_GEM_MADVISE answered %s: libdrm ignores it "
			 "(retained stays 1), so the cache works, but the "
			 "kernel cannot purge the cached objects",
			 igt_errname(-madv_err));
	trace_report();

	lbatch_free(b);
	drm_intel_bufmgr_destroy(bufmgr);
	igt_assert_eq(gem_wait_object_count(fd, 0), 0);
	creates = trace_count(DRM_IOCTL_I915_GEM_CREATE, 0);
	closes = trace_count(DRM_IOCTL_GEM_CLOSE, 0);
	igt_assert_eq(closes, creates);
	close(fd);
}

/*
 * bo_cache_reclaim: the bos libdrm keeps in its cache (MADVISE DONTNEED)
 * are what the kernel gives back first: each one the GPU used is
 * purgeable while cached; DROP_SHRINK_ALL (the shrinker's scan) purges
 * them all; the next allocations find them gone (MADVISE WILLNEED says
 * retained 0), so libdrm frees them and makes new, zeroed bos, which
 * work.
 */
static void subtest_bo_cache_reclaim(void)
{
	enum { N = 16, SIZE = 1 << 20 };
	int fd = drm_open_driver();
	drm_intel_bufmgr *bufmgr;
	long long count, bytes, objects;
	unsigned int creates, i, round;
	drm_intel_bo *bo[N];
	struct lbatch *b;
	uint32_t got[2];

	igt_assert_eq(gem_wait_object_count(fd, 0), 0);
	bufmgr = bufmgr_new(fd);
	drm_intel_bufmgr_gem_enable_reuse(bufmgr);
	b = lbatch_new(bufmgr);
	trace_reset();

	for (round = 0; round < 2; round++) {
		for (i = 0; i < N; i++) {
			uint32_t tag = pattern_dw(round, i);

			bo[i] = bo_new(bufmgr, "cached", SIZE);
			igt_assert_ok(drm_intel_bo_get_subdata(bo[i], 0, 8,
							       got));
			/* round 1: new objects, not the purged ones */
			igt_assert_eq_u64(got[0], 0);
			igt_assert_eq_u64(got[1], 0);
			require_space(b, bo[i], NULL);
			out(b, XY_COLOR_BLT | BLT_WRITE_ARGB);
			out(b, BR13_ROP(ROP_PATCOPY) | BR13_DEPTH_32 | 256);
			out(b, 0);
			out(b, 1 << 16 | 2);
			out_reloc(b, bo[i], 0, RENDER, RENDER);
			out(b, tag);
		}
		lbatch_flush(b);
		for (i = 0; i < N; i++) {
			igt_assert_ok(drm_intel_bo_get_subdata(bo[i], 0, 8,
							       got));
			igt_assert_eq_u64(got[0], pattern_dw(round, i));
			igt_assert_eq_u64(got[1], pattern_dw(round, i));
			drm_intel_bo_unreference(bo[i]);
		}

		/* all in the cache with their pages, purgeable (the old
		 * batch too, once libdrm cached it)
		 */
		objects = object_count(fd);
		gem_object_counts(fd, NULL, &count, &bytes);
		igt_info("round %u: %lld objects, %lld purgeable (%lld MiB)",
			 round, objects, count, bytes >> 20);
		igt_assert_lte(N, count);
		igt_assert_lte((long long)N * SIZE, bytes);

		igt_assert_ok(igt_debugfs_write(fd, "i915_gem_drop_caches",
						"0x20"));
		gem_object_counts(fd, NULL, &count, &bytes);
		igt_assert_eq(count, 0);
		igt_assert_eq(object_count(fd), objects);	/* still cached */
	}
	/* round 1 found every cached bo purged and made new ones */
	creates = trace_count(DRM_IOCTL_I915_GEM_CREATE, 0);
	igt_info("%u GEM objects created for %u bos", creates, 2 * N);
	igt_assert_lte(2 * N, creates);
	trace_report();

	lbatch_free(b);
	drm_intel_bufmgr_destroy(bufmgr);
	igt_assert_eq(gem_wait_object_count(fd, 0), 0);
	close(fd);
}

/* ------------------------------------------------------------------ */
/* prime */

static void subtest_prime(void)
{
	int fd1 = drm_open_driver(), fd2 = drm_open_driver();
	drm_intel_bufmgr *m1 = bufmgr_new(fd1), *m2 = bufmgr_new(fd2);
	drm_intel_bo *same, *bo2;
	struct image im, view;
	int dmabuf = -1;

	image_init(&im, m1, "exported", 64, 16);
	image_upload(&im, 44);
	trace_reset();
	igt_assert_ok(drm_intel_bo_gem_export_to_prime(im.bo, &dmabuf));
	igt_assert_lte(0, dmabuf);
	igt_assert(!drm_intel_bo_is_reusable(im.bo));
	/* imported where it lives: libdrm finds its own bo by handle */
	same = drm_intel_bo_gem_create_from_prime(m1, dmabuf, im.bo->size);
	igt_assert(same == im.bo);
	drm_intel_bo_unreference(same);

	bo2 = drm_intel_bo_gem_create_from_prime(m2, dmabuf, im.bo->size);
	if (!bo2) {
		unsigned int i;
		int err = 0;

		trace_report();
		igt_assert_eq(trace_count(DRM_IOCTL_PRIME_FD_TO_HANDLE, 0), 2);
		for (i = 0; i < ntrace; i++)
			if (trace[i].nr ==
			    _IOC_NR(DRM_IOCTL_I915_GEM_GET_TILING))
				err = trace[i].err;
		igt_assert_f(err, "create_from_prime failed, GET_TILING did not");
		igt_fail("drm_intel_bo_gem_create_from_prime() asks "
			 "I915_GEM_GET_TILING after PRIME_FD_TO_HANDLE and "
			 "gives up (closes the handle, returns NULL) when it "
			 "fails: the driver answers %s", igt_errname(-err));
	}
	igt_assert_eq_u64(bo2->size, im.bo->size);	/* lseek on the fd */
	view = im;
	view.bo = bo2;
	check_image(&view, "imported on the second fd");
	trace_report();
	drm_intel_bo_unreference(bo2);
	drm_intel_bufmgr_destroy(m2);
	close(fd2);
	close(dmabuf);
	image_fini(&im);
	drm_intel_bufmgr_destroy(m1);
	igt_assert_eq(gem_wait_object_count(fd1, 0), 0);
	close(fd1);
}

/* ------------------------------------------------------------------ */
/* other_entry_points */

/*
 * The rest of intel_bufmgr.h that reaches the kernel: what works must
 * work, what the driver lacks must fail cleanly (an error or NULL from
 * libdrm, no object left behind); each outcome is listed.
 */
static void subtest_other_entry_points(void)
{
	int fd = drm_open_driver();
	drm_intel_bufmgr *bufmgr = bufmgr_new(fd);
	uint32_t tiling = I915_TILING_X, swizzle, word = 0x600dcafe, got = 0;
	drm_intel_context *ctx;
	drm_intel_bo *bo, *tiled;
	unsigned long pitch = 0;
	uint64_t reg = 0;
	int err;
	void *ptr, *user;
	int ret;

	bo = bo_new(bufmgr, "plain", 4 * PAGE_SZ);

	/* CPU and WC maps (I915_GEM_MMAP and its WC flag) */
	trace_reset();
	ptr = drm_intel_gem_bo_map__cpu(bo);
	igt_assert(ptr);
	igt_assert(drm_intel_gem_bo_map__cpu(bo) == ptr);	/* kept */
	ptr = drm_intel_gem_bo_map__wc(bo);
	if (ptr) {
		((volatile uint32_t *)ptr)[10] = word;
		igt_assert_ok(drm_intel_bo_get_subdata(bo, 40, 4, &got));
		igt_assert_eq_u64(got, word);
		igt_info("map__wc: works");
	} else {
		igt_assert_eq(trace_count(DRM_IOCTL_I915_GEM_MMAP, ENODEV), 1);
		igt_info("map__wc: NULL, the CPU has no PAT (MMAP -> ENODEV)");
	}

	/* PIN/UNPIN (root): the offset is libdrm's offset64 */
	ret = drm_intel_bo_pin(bo, PAGE_SZ);
	igt_info("bo_pin: %s, offset %#llx", igt_errname(ret),
		 (unsigned long long)bo->offset64);
	igt_assert_ok(ret);
	igt_assert(bo->offset64 && bo->offset64 % PAGE_SZ == 0);
	igt_assert_ok(drm_intel_bo_unpin(bo));

	/* GTT maps (I915_GEM_MMAP_GTT) */
	ret = drm_intel_gem_bo_map_gtt(bo);
	igt_info("gem_bo_map_gtt: %s", igt_errname(ret));
	if (!ret) {
		((volatile uint32_t *)bo->virtual)[20] = ~word;
		igt_assert_ok(drm_intel_gem_bo_unmap_gtt(bo));
		igt_assert_ok(drm_intel_bo_get_subdata(bo, 80, 4, &got));
		igt_assert_eq_u64(got, ~word);
	}
	ptr = drm_intel_gem_bo_map__gtt(bo);
	igt_info("gem_bo_map__gtt: %s", ptr ? "a pointer" : "NULL");
	igt_assert_eq(!ptr, !!ret);

	/* tiling (I915_GEM_SET_TILING) */
	tiled = drm_intel_bo_alloc_tiled(bufmgr, "tiled", 256, 64, 4, &tiling,
					 &pitch, 0);
	igt_info("bo_alloc_tiled(X): %s", tiled ? "a bo" : "NULL");
	/* an X-tiled bo, its pitch a whole number of tiles */
	igt_assert(tiled);
	igt_assert_ok(drm_intel_bo_get_tiling(tiled, &tiling, &swizzle));
	igt_info("  tiling %u, swizzle %u, pitch %lu", tiling, swizzle, pitch);
	igt_assert_eq(tiling, I915_TILING_X);
	igt_assert(swizzle != I915_BIT_6_SWIZZLE_UNKNOWN);
	igt_assert(pitch >= 256 * 4 && pitch % 512 == 0);
	drm_intel_bo_unreference(tiled);
	tiling = I915_TILING_X;
	ret = drm_intel_bo_set_tiling(bo, &tiling, 1024);
	igt_info("bo_set_tiling(X): %s, tiling now %u", igt_errname(ret),
		 tiling);
	igt_assert_ok(ret);
	igt_assert_eq(tiling, I915_TILING_X);
	tiling = I915_TILING_NONE;
	igt_assert_ok(drm_intel_bo_set_tiling(bo, &tiling, 0));

	/* purgeability (I915_GEM_MADVISE): 1 = still has its pages */
	igt_info("bo_madvise(DONTNEED): %d, (WILLNEED): %d",
		 drm_intel_bo_madvise(bo, I915_MADV_DONTNEED),
		 drm_intel_bo_madvise(bo, I915_MADV_WILLNEED));

	/* hardware contexts, userptr, register reads, KMS pipes */
	ctx = drm_intel_gem_context_create(bufmgr);
	igt_info("gem_context_create: %s", ctx ? "a context" : "NULL");
	if (ctx)
		drm_intel_gem_context_destroy(ctx);
	igt_assert_eq(posix_memalign(&user, PAGE_SZ, PAGE_SZ), 0);
	tiled = drm_intel_bo_alloc_userptr(bufmgr, "userptr", user,
					   I915_TILING_NONE, 0, PAGE_SZ, 0);
	igt_info("bo_alloc_userptr: %s", tiled ? "a bo" : "NULL");
	if (tiled)
		drm_intel_bo_unreference(tiled);
	ret = drm_intel_reg_read(bufmgr, 0x2358, &reg);	/* TIMESTAMP */
	err = ret ? errno : 0;
	igt_info("reg_read(TIMESTAMP): %d (errno %s), %#llx", ret,
		 ret ? igt_errname(-err) : "-", (unsigned long long)reg);
	/* as upstream: the Gen4 render timestamp, nothing on Gen3 */
	if (gem_gen(fd) >= 4)
		igt_assert_eq(ret, 0);
	else
		igt_assert_eq(err, EINVAL);
	igt_info("get_pipe_from_crtc_id(1): %d",
		 drm_intel_get_pipe_from_crtc_id(bufmgr, 1));
	trace_report();

	drm_intel_bo_unreference(bo);
	drm_intel_bufmgr_destroy(bufmgr);
	free(user);
	igt_assert_eq(gem_wait_object_count(fd, 0), 0);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(bufmgr_init),
	SUBTEST(aperture),
	SUBTEST(blit),
	SUBTEST(offsets_reexec),
	SUBTEST(busy_wait),
	SUBTEST(exec_rings),
	SUBTEST(flink_open),
	SUBTEST(prime),
	SUBTEST(bo_reuse),
	SUBTEST(bo_cache_reclaim),
	SUBTEST(other_entry_points),
};

igt_main(tests)

#else /* !HAVE_LIBDRM_INTEL */

int main(void)
{
	printf("gem_libdrm_intel: built without libdrm_intel "
	       "(pkg-config libdrm_intel): SKIP\n");
	return IGT_EXIT_SKIP;
}

#endif
