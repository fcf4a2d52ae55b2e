// SPDX-License-Identifier: GPL-2.0
/*
 * tests/bench/gem_bench.c - the benchmark client of `make bench`
 * (scripts/bench.sh, tests/bench/run-bench.sh).  Not a test: it is built
 * into tests/build/bench/, outside the directory the suite runs, and
 * `make check` never runs it.
 *
 * Every speed is printed as an absolute number AND as a ratio against a
 * reference measured in the same process, in the same boot, because under
 * QEMU TCG a syscall costs 3-6x native and memcpy 12-21x: only ratios
 * within one run mean anything.  The references:
 *   - DRM_IOCTL_VERSION on the same fd (a DRM-core ioctl that reaches the
 *     driver only for its name strings),
 *   - memcpy() of the same size between two malloc'd buffers,
 *   - for the vgem lines, the same operation on i915: vgem is the GEM
 *     driver without hardware of Debian's kernel (drm_gem_shmem), used
 *     when /dev/dri has a vgem node.
 *
 * Each line is the median of 7 samples; each sample repeats the
 * operation enough times to take about BENCH_SAMPLE_S seconds (default
 * 0.25; calibrated by a first run, which also warms caches and
 * mappings).  Each sample is preceded by one sample of the line's
 * reference, and the ratio printed is the median of the 5 pairwise
 * ratios, so that the host's load changing during the run moves both
 * sides.  Times come from clock_gettime(CLOCK_MONOTONIC).
 *
 * The program checks that what it measured really happened (pread gives
 * back what pwrite and the mmaps wrote, the blit copied every pixel, the
 * model's command streamer ran exactly as many batches and blits as were
 * submitted, no object is left) and exits 1 when anything fails, 0
 * otherwise.
 *
 * The goals of issue 13 (the execbuffer path) come last, each a ratio of
 * two interleaved operations with the goal's limit and whether it holds.
 *
 * Usage: gem_bench [-s SECONDS_PER_SAMPLE] [-g]   (-g, or BENCH_ONLY=goals:
 * the references and the goals only)
 */
#include <fcntl.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "exec.h"

#define SAMPLES		7
#define MIB		(1024u * 1024u)
#define KIB		1024u

/* ------------------------------------------------------------------ */
/* timing */

static double sample_s = 0.25;

typedef void (*bench_fn)(void *ctx, long n);

/* an operation to time: @fn(@ctx, n) does it n times */
struct op {
	bench_fn fn;
	void *ctx;
	long n;			/* per sample, once calibrated */
};

struct result {
	double med, min, max;	/* seconds per operation */
	long n;			/* operations per sample */
	/*
	 * with a reference: (time per op) / (reference's time per op) of
	 * each sample and the reference sample run just before it, sorted
	 */
	double q[SAMPLES];
	bool paired;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double time_n(bench_fn fn, void *ctx, long n)
{
	double t0 = now();

	fn(ctx, n);
	return now() - t0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* grow n until one run takes a quarter of a sample, scale to a sample */
static long calibrate(bench_fn fn, void *ctx)
{
	double t;
	long n = 1;

	for (;;) {
		t = time_n(fn, ctx, n);
		if (t >= sample_s / 4 || n > (1L << 40))
			break;
		n *= t < sample_s / 100 ? 10 : 2;
	}
	n = (long)(n * (sample_s / t));
	return n < 1 ? 1 : n;
}

/*
 * Time @o: calibrate, then SAMPLES samples of o->n operations.  With a
 * reference @ref (already calibrated), every sample is preceded by one
 * sample of the reference and the pair gives one ratio, so that a change
 * of the host's load during the run moves both sides of the ratio.
 */
static struct result measure(struct op *o, const struct op *ref)
{
	double s[SAMPLES], tr = 0;
	struct result r = { .paired = ref != NULL };
	int i;

	o->n = calibrate(o->fn, o->ctx);
	for (i = 0; i < SAMPLES; i++) {
		if (ref)
			tr = time_n(ref->fn, ref->ctx, ref->n) / ref->n;
		s[i] = time_n(o->fn, o->ctx, o->n) / o->n;
		if (ref)
			r.q[i] = s[i] / tr;
	}
	qsort(s, SAMPLES, sizeof(s[0]), cmp_double);
	qsort(r.q, SAMPLES, sizeof(r.q[0]), cmp_double);
	r.med = s[SAMPLES / 2];
	r.min = s[0];
	r.max = s[SAMPLES - 1];
	r.n = o->n;
	return r;
}

/* ------------------------------------------------------------------ */
/* output */

static int failures;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void fail(const char *fmt, ...)
{
	va_list ap;

	printf("FAIL: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	failures++;
}

#define check(cond, ...) do { if (!(cond)) fail(__VA_ARGS__); } while (0)

static const char *fmt_time(double s, char *buf, size_t len)
{
	if (s < 1e-3)
		snprintf(buf, len, "%.2f us", s * 1e6);
	else if (s < 1)
		snprintf(buf, len, "%.2f ms", s * 1e3);
	else
		snprintf(buf, len, "%.2f s", s);
	return buf;
}

static double mbps(const struct result *r, size_t bytes)
{
	return bytes / r->med / 1e6;
}

static void heading(const char *what)
{
	printf("%s\n", what);
}

static void print_row(const char *name, const char *abs, double ratio,
		      const char *to, double spread)
{
	char ratio_s[32] = "";

	if (ratio > 0)
		snprintf(ratio_s, sizeof(ratio_s), "%.2f", ratio);
	printf("  %-46s %12s %7s  %-27s %4.0f%%\n", name, abs, ratio_s, to,
	       100 * spread);
	fflush(stdout);
}

/* (max - min) / median of the absolute samples */
static double spread_abs(const struct result *r)
{
	return (r->max - r->min) / r->med;
}

/* the same for k * q^e (e = 1 or -1) of the paired ratios */
static double spread_q(const struct result *r, int e)
{
	double a = r->q[0], b = r->q[SAMPLES - 1], m = r->q[SAMPLES / 2];

	return e > 0 ? (b - a) / m : (1 / a - 1 / b) * m;
}

static double median_q(const struct result *r)
{
	return r->q[SAMPLES / 2];
}

/* a reference line: time per op or MB/s, no ratio */
static void row_ref(const char *name, const struct result *r, size_t bytes)
{
	char t[32];

	if (bytes)
		snprintf(t, sizeof(t), "%.0f MB/s", mbps(r, bytes));
	else
		fmt_time(r->med, t, sizeof(t));
	print_row(name, t, 0, "(reference)", spread_abs(r));
}

/* time per op; ratio = time / the reference's time */
static void row_time(const char *name, const struct result *r,
		     const char *to)
{
	char t[32];

	print_row(name, fmt_time(r->med, t, sizeof(t)), median_q(r), to,
		  spread_q(r, 1));
}

/*
 * MB/s of @bytes per op; ratio = this MB/s / the reference's MB/s, the
 * reference moving @ref_bytes per op
 */
static void row_rate(const char *name, const struct result *r, size_t bytes,
		     size_t ref_bytes, const char *to)
{
	char t[32];

	snprintf(t, sizeof(t), "%.0f MB/s", mbps(r, bytes));
	print_row(name, t, (double)bytes / ref_bytes / median_q(r), to,
		  spread_q(r, -1));
}

/* a vgem line timed against the same operation on i915 */
static void row_vgem(const char *name, const struct result *r, size_t bytes)
{
	char t[32];

	if (bytes)
		snprintf(t, sizeof(t), "%.0f MB/s", mbps(r, bytes));
	else
		fmt_time(r->med, t, sizeof(t));
	print_row(name, t, 1 / median_q(r), "i915 time / vgem time",
		  spread_q(r, -1));
}

/* ------------------------------------------------------------------ */
/* devices */

static const char *gpu_name(int id)
{
	switch (id) {
	case 0x2772: return "945G";
	case 0x2a42: return "GM45";
	}
	return "?";
}

/* ------------------------------------------------------------------ */
/* the operations */

struct ctx {
	int fd;			/* i915 primary node */
	int vfd;		/* vgem primary node, or -1 */
	uint32_t handle;	/* the i915 object the operation uses */
	uint32_t vhandle;	/* the vgem dumb buffer it uses */
	uint32_t name;		/* @handle's flink name (checked every call) */
	int value;		/* GETPARAM answer (checked) */
	size_t size;		/* bytes per copy */
	void *src, *dst;	/* malloc'd buffers of @size */
	void *map;		/* a mapping of @size bytes */
	long ops;		/* operations done (execs, blits) */
	struct batch *batch;	/* blit */
	struct surf s_src, s_dst;
	struct drm_i915_gem_exec_object2 exec;
	struct drm_i915_gem_execbuffer2 eb;
};

static void do_version(void *p, long n)
{
	struct ctx *c = p;
	char name[8];
	struct drm_version v;

	while (n--) {
		memset(&v, 0, sizeof(v));
		v.name = name;
		v.name_len = sizeof(name);
		if (ioctl(c->fd, DRM_IOCTL_VERSION, &v))
			fail("DRM_IOCTL_VERSION: %s", strerror(errno));
	}
}

static void do_getparam(void *p, long n)
{
	struct ctx *c = p;
	struct drm_i915_getparam gp = { .param = I915_PARAM_CHIPSET_ID };
	int v;

	gp.value = &v;
	while (n--) {
		v = 0;
		if (ioctl(c->fd, DRM_IOCTL_I915_GETPARAM, &gp) || v != c->value)
			fail("GETPARAM CHIPSET_ID: %s, %#x", strerror(errno), v);
	}
}

static void do_busy(void *p, long n)
{
	struct ctx *c = p;
	struct drm_i915_gem_busy b = { .handle = c->handle };

	while (n--) {
		b.busy = ~0u;
		if (ioctl(c->fd, DRM_IOCTL_I915_GEM_BUSY, &b) || b.busy)
			fail("GEM_BUSY of an idle object: %s, busy %#x",
			     strerror(errno), b.busy);
	}
}

static void do_flink(void *p, long n)
{
	struct ctx *c = p;
	struct drm_gem_flink f = { .handle = c->handle };

	while (n--) {
		f.name = 0;
		if (ioctl(c->fd, DRM_IOCTL_GEM_FLINK, &f) || f.name != c->name)
			fail("GEM_FLINK: %s, name %u (want %u)",
			     strerror(errno), f.name, c->name);
	}
}

static void do_create_close(void *p, long n)
{
	struct ctx *c = p;
	struct drm_i915_gem_create cr;
	struct drm_gem_close cl = { 0 };

	while (n--) {
		cr.size = 4096;
		cr.handle = 0;
		if (ioctl(c->fd, DRM_IOCTL_I915_GEM_CREATE, &cr) ||
		    !cr.handle || cr.size != 4096) {
			fail("GEM_CREATE 4 KiB: %s", strerror(errno));
			return;
		}
		cl.handle = cr.handle;
		if (ioctl(c->fd, DRM_IOCTL_GEM_CLOSE, &cl))
			fail("GEM_CLOSE: %s", strerror(errno));
	}
}

static void do_dumb_create_close(void *p, long n)
{
	struct ctx *c = p;
	struct drm_mode_create_dumb cr;
	struct drm_gem_close cl = { 0 };

	while (n--) {
		memset(&cr, 0, sizeof(cr));
		cr.width = 1024;
		cr.height = 1;
		cr.bpp = 32;
		if (ioctl(c->fd, DRM_IOCTL_MODE_CREATE_DUMB, &cr) ||
		    !cr.handle || cr.size < 4096) {
			fail("MODE_CREATE_DUMB 4 KiB: %s", strerror(errno));
			return;
		}
		cl.handle = cr.handle;
		if (ioctl(c->fd, DRM_IOCTL_GEM_CLOSE, &cl))
			fail("GEM_CLOSE: %s", strerror(errno));
	}
}

static void do_memcpy(void *p, long n)
{
	struct ctx *c = p;

	while (n--) {
		memcpy(c->dst, c->src, c->size);
		__asm__ volatile("" : : "r"(c->dst) : "memory");
	}
}

static void do_pwrite(void *p, long n)
{
	struct ctx *c = p;
	struct drm_i915_gem_pwrite pw = {
		.handle = c->handle, .size = c->size,
		.data_ptr = to_user_pointer(c->src),
	};

	while (n--)
		if (ioctl(c->fd, DRM_IOCTL_I915_GEM_PWRITE, &pw))
			fail("PWRITE: %s", strerror(errno));
}

static void do_pread(void *p, long n)
{
	struct ctx *c = p;
	struct drm_i915_gem_pread pr = {
		.handle = c->handle, .size = c->size,
		.data_ptr = to_user_pointer(c->dst),
	};

	while (n--)
		if (ioctl(c->fd, DRM_IOCTL_I915_GEM_PREAD, &pr))
			fail("PREAD: %s", strerror(errno));
}

/* memcpy into an existing mapping */
static void do_map_write(void *p, long n)
{
	struct ctx *c = p;

	while (n--) {
		memcpy(c->map, c->src, c->size);
		__asm__ volatile("" : : "r"(c->map) : "memory");
	}
}

/* I915_GEM_MMAP, write every byte (faulting every page in), munmap */
static void do_gem_mmap_write_unmap(void *p, long n)
{
	struct ctx *c = p;
	void *ptr;
	int ret;

	while (n--) {
		ret = __gem_mmap(c->fd, c->handle, 0, c->size, 0, &ptr);
		if (ret) {
			fail("I915_GEM_MMAP: %s", igt_errname(ret));
			return;
		}
		memcpy(ptr, c->src, c->size);
		__asm__ volatile("" : : "r"(ptr) : "memory");
		munmap(ptr, c->size);
	}
}

/* MODE_MAP_DUMB, mmap, write every byte, munmap */
static void do_dumb_mmap_write_unmap(void *p, long n)
{
	struct ctx *c = p;
	struct drm_mode_map_dumb md = { .handle = c->vhandle };
	void *ptr;

	while (n--) {
		md.offset = 0;
		if (ioctl(c->vfd, DRM_IOCTL_MODE_MAP_DUMB, &md)) {
			fail("MODE_MAP_DUMB: %s", strerror(errno));
			return;
		}
		ptr = mmap(NULL, c->size, PROT_READ | PROT_WRITE, MAP_SHARED,
			   c->vfd, md.offset);
		if (ptr == MAP_FAILED) {
			fail("mmap of a vgem dumb buffer: %s", strerror(errno));
			return;
		}
		memcpy(ptr, c->src, c->size);
		__asm__ volatile("" : : "r"(ptr) : "memory");
		munmap(ptr, c->size);
	}
}

/* one EXECBUFFER2 of the empty batch, then GEM_WAIT for it */
static void do_exec_wait(void *p, long n)
{
	struct ctx *c = p;
	struct drm_i915_gem_wait w = { .bo_handle = c->handle };

	while (n--) {
		if (ioctl(c->fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &c->eb)) {
			fail("EXECBUFFER2: %s", strerror(errno));
			return;
		}
		c->ops++;
		w.timeout_ns = 10ll * 1000 * 1000 * 1000;
		if (ioctl(c->fd, DRM_IOCTL_I915_GEM_WAIT, &w)) {
			fail("GEM_WAIT: %s", strerror(errno));
			return;
		}
	}
}

/* n EXECBUFFER2 of the empty batch, then one GEM_WAIT for the last */
static void do_exec_nowait(void *p, long n)
{
	struct ctx *c = p;
	struct drm_i915_gem_wait w = { .bo_handle = c->handle };

	while (n--) {
		if (ioctl(c->fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, &c->eb)) {
			fail("EXECBUFFER2: %s", strerror(errno));
			return;
		}
		c->ops++;
	}
	w.timeout_ns = 60ll * 1000 * 1000 * 1000;
	if (ioctl(c->fd, DRM_IOCTL_I915_GEM_WAIT, &w))
		fail("GEM_WAIT: %s", strerror(errno));
}

/* one XY_SRC_COPY_BLT of the whole surface, executed and waited for */
static void do_blit(void *p, long n)
{
	struct ctx *c = p;
	int ret;

	while (n--) {
		emit_xy_copy(c->batch, &c->s_dst, 0, 0, &c->s_src, 0, 0,
			     c->s_src.width, c->s_src.height);
		ret = __batch_submit(c->batch, 0);
		if (ret) {
			fail("EXECBUFFER2 of a blit: %s", igt_errname(ret));
			return;
		}
		c->ops++;
		gem_sync(c->fd, c->s_dst.bo->handle);
	}
}

/* ------------------------------------------------------------------ */
/* the benchmark */

/* the references, calibrated once and run again beside every line */
struct refs {
	struct ctx version_c, memcpy_1m_c, memcpy_64k_c;
	struct op version, memcpy_1m, memcpy_64k;
};

static void *xmalloc(size_t size, uint32_t seed)
{
	void *p = malloc(size);

	igt_assert(p);
	igt_fill_pattern(p, size, seed);
	return p;
}

static struct op op(bench_fn fn, void *ctx)
{
	return (struct op){ .fn = fn, .ctx = ctx };
}

/* pread the first @len bytes of @handle and compare them with @want */
static void check_object(int fd, uint32_t handle, const void *want,
			 size_t len, const char *what)
{
	void *got = xmalloc(len, 0);

	gem_read(fd, handle, 0, got, len);
	check(!memcmp(got, want, len),
	      "%s: pread does not give back what was written", what);
	free(got);
}

static void bench_refs(struct ctx *c, struct refs *r)
{
	struct result res;
	struct ctx v = *c;
	struct op vo;

	heading("references");
	r->version_c = *c;
	r->version = op(do_version, &r->version_c);
	res = measure(&r->version, NULL);
	row_ref("DRM_IOCTL_VERSION, i915 card fd", &res, 0);
	if (c->vfd >= 0) {
		v.fd = c->vfd;
		vo = op(do_version, &v);
		res = measure(&vo, &r->version);
		row_vgem("DRM_IOCTL_VERSION, vgem card fd", &res, 0);
	}

	r->memcpy_1m_c = *c;
	r->memcpy_1m_c.size = MIB;
	r->memcpy_1m_c.src = xmalloc(MIB, 1);
	r->memcpy_1m_c.dst = xmalloc(MIB, 2);
	r->memcpy_1m = op(do_memcpy, &r->memcpy_1m_c);
	res = measure(&r->memcpy_1m, NULL);
	row_ref("memcpy 1 MiB", &res, MIB);

	r->memcpy_64k_c = *c;
	r->memcpy_64k_c.size = 64 * KIB;
	r->memcpy_64k_c.src = xmalloc(64 * KIB, 1);
	r->memcpy_64k_c.dst = xmalloc(64 * KIB, 2);
	r->memcpy_64k = op(do_memcpy, &r->memcpy_64k_c);
	res = measure(&r->memcpy_64k, &r->memcpy_1m);
	row_rate("memcpy 64 KiB", &res, 64 * KIB, MIB, "memcpy 1 MiB");
}

static void bench_ioctls(struct ctx *c, struct refs *r)
{
	struct op gp = op(do_getparam, c), busy = op(do_busy, c);
	struct op fl = op(do_flink, c);
	struct result res;

	heading("trivial ioctls (ratio: time / DRM_IOCTL_VERSION's)");
	c->handle = gem_create(c->fd, 4096);
	c->name = gem_flink(c->fd, c->handle);
	c->value = gem_getparam(c->fd, I915_PARAM_CHIPSET_ID);
	check(c->value == (int)drm_sysfs_device_attr(c->fd, "device"),
	      "GETPARAM CHIPSET_ID %#x is not the PCI device id", c->value);

	res = measure(&gp, &r->version);
	row_time("I915_GETPARAM (CHIPSET_ID)", &res, "VERSION (i915)");
	res = measure(&busy, &r->version);
	row_time("I915_GEM_BUSY, idle object", &res, "VERSION (i915)");
	res = measure(&fl, &r->version);
	row_time("GEM_FLINK of a named object, i915", &res, "VERSION (i915)");

	if (c->vfd >= 0) {
		struct drm_mode_create_dumb cr = {
			.width = 1024, .height = 1, .bpp = 32,
		};
		struct drm_gem_flink f = { 0 };
		struct ctx v = *c;
		struct op vfl = op(do_flink, &v);

		igt_assert_ok(igt_ioctl(c->vfd, DRM_IOCTL_MODE_CREATE_DUMB, &cr));
		f.handle = cr.handle;
		igt_assert_ok(igt_ioctl(c->vfd, DRM_IOCTL_GEM_FLINK, &f));
		v.fd = c->vfd;
		v.handle = cr.handle;
		v.name = f.name;
		res = measure(&vfl, &fl);
		row_vgem("GEM_FLINK of a named object, vgem", &res, 0);
		gem_close(c->vfd, cr.handle);
	}
	gem_close(c->fd, c->handle);
}

static void bench_create(struct ctx *c, struct refs *r)
{
	struct op cr = op(do_create_close, c);
	struct result res;

	heading("object create + close, 4 KiB");
	res = measure(&cr, &r->version);
	row_time("i915 GEM_CREATE + GEM_CLOSE", &res, "VERSION (i915)");
	if (c->vfd >= 0) {
		struct ctx v = *c;
		struct op vcr = op(do_dumb_create_close, &v);

		v.fd = c->vfd;
		res = measure(&vcr, &cr);
		row_vgem("vgem MODE_CREATE_DUMB + GEM_CLOSE", &res, 0);
	}
	check(gem_wait_object_count(c->fd, 0) == 0,
	      "i915_gem_objects: objects left after create+close");
}

static void bench_copy_size(struct ctx *c, size_t size, const char *sz,
			    struct op *ref, const char *refname)
{
	struct op pw = op(do_pwrite, c), pr = op(do_pread, c);
	struct result res;
	char name[64];

	c->size = size;
	c->handle = gem_create(c->fd, size);
	c->src = xmalloc(size, 3);
	c->dst = xmalloc(size, 4);

	res = measure(&pw, ref);
	snprintf(name, sizeof(name), "pwrite %s", sz);
	row_rate(name, &res, size, size, refname);
	check_object(c->fd, c->handle, c->src, size, name);

	res = measure(&pr, ref);
	snprintf(name, sizeof(name), "pread %s", sz);
	row_rate(name, &res, size, size, refname);
	check(!memcmp(c->dst, c->src, size), "%s: read back something else", name);

	gem_close(c->fd, c->handle);
	free(c->src);
	free(c->dst);
}

/* map the vgem dumb buffer at @offset again and compare it with @want */
static void check_vgem(int vfd, uint64_t offset, const void *want)
{
	void *again = mmap(NULL, MIB, PROT_READ, MAP_SHARED, vfd, offset);

	igt_assert(again != MAP_FAILED);
	check(!memcmp(again, want, MIB),
	      "vgem: a new mapping does not show what was written");
	munmap(again, MIB);
}

static void bench_mmap(struct ctx *c, struct refs *r)
{
	struct op mw = op(do_map_write, c);
	struct op mwu = op(do_gem_mmap_write_unmap, c);
	struct drm_mode_create_dumb cr = {
		.width = 1024, .height = 256, .bpp = 32,
	};
	struct drm_mode_map_dumb md = { 0 };
	struct ctx v = *c;
	struct op vmw = op(do_map_write, &v);
	struct op vmwu = op(do_dumb_mmap_write_unmap, &v);
	struct result res;

	c->size = MIB;
	c->src = xmalloc(MIB, 5);
	/* i915: I915_GEM_MMAP, a CPU (write-back) mapping of the shmfs pages */
	c->handle = gem_create(c->fd, MIB);
	c->map = gem_mmap__cpu(c->fd, c->handle, 0, MIB);
	gem_set_domain(c->fd, c->handle, I915_GEM_DOMAIN_CPU,
		       I915_GEM_DOMAIN_CPU);
	/* vgem: a dumb buffer, MODE_MAP_DUMB + mmap of the card fd */
	if (c->vfd >= 0) {
		igt_assert_ok(igt_ioctl(c->vfd, DRM_IOCTL_MODE_CREATE_DUMB, &cr));
		igt_assert_lte_u64(MIB, cr.size);
		md.handle = cr.handle;
		igt_assert_ok(igt_ioctl(c->vfd, DRM_IOCTL_MODE_MAP_DUMB, &md));
		v = *c;
		v.vfd = c->vfd;
		v.vhandle = cr.handle;
		v.map = mmap(NULL, MIB, PROT_READ | PROT_WRITE, MAP_SHARED,
			     c->vfd, md.offset);
		igt_assert(v.map != MAP_FAILED);
	}

	res = measure(&mw, &r->memcpy_1m);
	row_rate("i915 GEM_MMAP, write 1 MiB (mapped)", &res, MIB, MIB,
		 "memcpy 1 MiB");
	check_object(c->fd, c->handle, c->src, MIB, "write through GEM_MMAP");
	if (c->vfd >= 0) {
		res = measure(&vmw, &mw);
		row_vgem("vgem dumb mmap, write 1 MiB (mapped)", &res, MIB);
		check_vgem(c->vfd, md.offset, c->src);
	}

	/*
	 * Now without a long-lived mapping, as a client that maps, writes
	 * and unmaps: vgem (drm_gem_shmem) pins the pages and makes them
	 * write-combining on the first mapping and undoes both on the last
	 * munmap, i915 leaves the pages in the shmfs page cache.
	 */
	munmap(c->map, MIB);
	if (c->vfd >= 0)
		munmap(v.map, MIB);
	igt_fill_pattern(c->src, MIB, 6);
	res = measure(&mwu, &r->memcpy_1m);
	row_rate("i915 GEM_MMAP + write 1 MiB + munmap", &res, MIB, MIB,
		 "memcpy 1 MiB");
	check_object(c->fd, c->handle, c->src, MIB,
		     "write through a new GEM_MMAP");
	if (c->vfd >= 0) {
		igt_fill_pattern(c->src, MIB, 7);
		res = measure(&vmwu, &mwu);
		row_vgem("vgem MAP_DUMB + mmap + write 1 MiB + munmap", &res,
			 MIB);
		check_vgem(c->vfd, md.offset, c->src);
		gem_close(c->vfd, cr.handle);
	}
	gem_close(c->fd, c->handle);
	free(c->src);
}

/* the model's counter @key, or -1 without the model's debugfs */
static long long cs_counter(const char *key)
{
	long long v = sim_cs_value(key);

	return v < 0 ? -1 : v;
}

static void check_counter(const char *key, long long before, long long want)
{
	long long after = cs_counter(key);

	if (before < 0 || after < 0)
		return;
	check(after - before == want,
	      "the model's %s counter moved by %lld, expected %lld", key,
	      after - before, want);
}

static void bench_exec(struct ctx *c, struct refs *r)
{
	const uint32_t bbe[2] = { MI_BATCH_BUFFER_END, MI_NOOP };
	struct op ew = op(do_exec_wait, c), en = op(do_exec_nowait, c);
	struct op blt = op(do_blit, c);
	long long batches, blits, bytes;
	struct result res;
	struct bo src, dst;
	struct ref ref;
	char t[64];

	heading("execution (the batches run in the software model of the GPU)");
	c->handle = gem_create(c->fd, 4096);
	gem_write(c->fd, c->handle, 0, bbe, sizeof(bbe));
	memset(&c->exec, 0, sizeof(c->exec));
	c->exec.handle = c->handle;
	memset(&c->eb, 0, sizeof(c->eb));
	c->eb.buffers_ptr = to_user_pointer(&c->exec);
	c->eb.buffer_count = 1;
	c->eb.batch_len = sizeof(bbe);

	batches = cs_counter("batches");
	c->ops = 0;
	res = measure(&ew, &r->version);
	row_time("exec empty batch + GEM_WAIT", &res, "VERSION (i915)");
	check_counter("batches", batches, c->ops);

	batches = cs_counter("batches");
	c->ops = 0;
	res = measure(&en, &r->version);
	snprintf(t, sizeof(t), "%.0f /s", 1 / res.med);
	print_row("exec empty batch, no wait (execs/s)", t, median_q(&res),
		  "VERSION (i915), per exec", spread_q(&res, 1));
	check_counter("batches", batches, c->ops);
	check(gem_busy(c->fd, c->handle) == 0, "the batch is still busy");
	gem_close(c->fd, c->handle);

	/* XY_SRC_COPY_BLT of a 512 x 512 x 32 bpp surface: 1 MiB */
	bo_init(&src, c->fd, MIB);
	bo_init(&dst, c->fd, MIB);
	c->s_src = (struct surf){ .bo = &src, .pitch = 2048, .cpp = 4,
				  .width = 512, .height = 512 };
	c->s_dst = c->s_src;
	c->s_dst.bo = &dst;
	c->batch = batch_new(c->fd);
	ref_init(&ref, &c->s_src, MIB);
	igt_fill_pattern(ref.px, MIB, 9);
	gem_write(c->fd, src.handle, 0, ref.px, MIB);

	batches = cs_counter("batches");
	blits = cs_counter("blits");
	bytes = cs_counter("blit_bytes");
	c->ops = 0;
	do_blit(c, 1);
	check_surface(c->fd, dst.handle, &ref, "1 MiB XY_SRC_COPY_BLT");
	res = measure(&blt, &r->memcpy_1m);
	row_rate("XY_SRC_COPY_BLT 1 MiB 32bpp + GEM_WAIT", &res, MIB, MIB,
		 "memcpy 1 MiB (the model)");
	check_counter("batches", batches, c->ops);
	check_counter("blits", blits, c->ops);
	check_counter("blit_bytes", bytes, c->ops * (long long)MIB);
	check_surface(c->fd, dst.handle, &ref, "1 MiB XY_SRC_COPY_BLT, again");
	ref_fini(&ref);
	batch_free(c->batch);
	bo_fini(&src, c->fd);
	bo_fini(&dst, c->fd);
}

/* ------------------------------------------------------------------ */
/* the goals of issue 13: the execbuffer path */

#define GOAL_RELOCS	1000	/* relocations of the reloc lines */
#define GOAL_OBJECTS	1000	/* objects of the many-objects line */
#define GOAL_BATCH	(16 * KIB)	/* room for a dword per relocation */
/*
 * The model's hand-off (tail write to breadcrumb to the waiter woken) in
 * GETPARAMs, measured on 2026-11-24 before it was changed (the GM45's,
 * the larger of the two GPUs' medians): the goal is half of it.
 */
#define GOAL_HANDOFF_BEFORE	64.0

struct goal_ctx {
	int fd;
	uint32_t batch[2];	/* alternated: each exec finds its batch idle */
	uint32_t target;
	uint32_t *idle;		/* GOAL_OBJECTS - 1 objects, never written */
	struct drm_i915_gem_relocation_entry *relocs[2];
	struct drm_i915_gem_exec_object2 *objs[2];
	struct drm_i915_gem_execbuffer2 eb[2];
	unsigned int nrelocs;	/* per exec: 0 or GOAL_RELOCS */
	bool stale;		/* every presumed offset wrong before each exec */
	long ops;
};

/* The exec list of batch @i: [target,] [idle objects,] batch. */
static void goal_setup(struct goal_ctx *g, unsigned int nobjs,
		       unsigned int nrelocs, bool stale, uint64_t flags)
{
	unsigned int i, k, n;

	g->nrelocs = nrelocs;
	g->stale = stale;
	for (i = 0; i < 2; i++) {
		struct drm_i915_gem_exec_object2 *o = g->objs[i];

		memset(o, 0, GOAL_OBJECTS * sizeof(*o));
		n = 0;
		if (nrelocs)
			o[n++].handle = g->target;
		for (k = 0; k + 1 < nobjs; k++)
			o[n++].handle = g->idle[k];
		o[n].handle = g->batch[i];
		o[n].relocs_ptr = to_user_pointer(g->relocs[i]);
		o[n].relocation_count = nrelocs;
		n++;
		memset(&g->eb[i], 0, sizeof(g->eb[i]));
		g->eb[i].buffers_ptr = to_user_pointer(o);
		g->eb[i].buffer_count = n;
		g->eb[i].batch_len = 8;
		g->eb[i].flags = flags;
	}
}

static void goal_exec(struct goal_ctx *g, unsigned int i)
{
	unsigned int k;

	if (g->stale)
		for (k = 0; k < g->nrelocs; k++)
			g->relocs[i][k].presumed_offset = ~0ull;
	if (ioctl(g->fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, &g->eb[i])) {
		fail("EXECBUFFER2 (%u objects, %u relocations): %s",
		     g->eb[i].buffer_count, g->nrelocs, strerror(errno));
		exit(1);	/* a hung or wedged GPU: no more numbers */
	}
	g->ops++;
}

/* one WAIT for both batches */
static void goal_sync(struct goal_ctx *g)
{
	gem_sync(g->fd, g->batch[0]);
	gem_sync(g->fd, g->batch[1]);
}

/* n execs, alternating the two batches, then one WAIT for both */
static void do_goal_exec(void *p, long n)
{
	struct goal_ctx *g = p;
	long i;

	for (i = 0; i < n; i++)
		goal_exec(g, i & 1);
	goal_sync(g);
}

/* exec and WAIT, n times */
static void do_goal_exec_wait(void *p, long n)
{
	struct goal_ctx *g = p;
	long i;

	for (i = 0; i < n; i++) {
		goal_exec(g, i & 1);
		gem_sync(g->fd, g->batch[i & 1]);
	}
}

static int goals_held, goals_total;

/*
 * The host's share in a line: WINDOWS windows of @per execs of @g back
 * to back, each window timed (two clock reads a window, none per exec),
 * the mean exec of each window sorted into @t.  On this project's
 * host the 1000-object exec runs for tens of milliseconds to seconds at
 * a time 1.3-1.9 times as slow as the rest of the time, with the same
 * code (Documentation/benchmarks.rst, "The host's slow spells"): the
 * 10th and 90th percentiles of the windows show whether the line was
 * measured in such a spell.
 */
#define WINDOWS		100
#define WINDOW_EXECS	25	/* of 1000 objects: about 10 ms */

static void goal_windows(struct goal_ctx *g, long per, double *t)
{
	double t0;
	long k;
	int w;

	for (w = 0; w < WINDOWS; w++) {
		t0 = now();
		for (k = 0; k < per; k++)
			goal_exec(g, k & 1);
		t[w] = (now() - t0) / per;
	}
	goal_sync(g);
	qsort(t, WINDOWS, sizeof(t[0]), cmp_double);
}

/* debugfs i915_interrupt_info's @key ("user interrupts"), or -1 */
static long long irq_counter(int fd, const char *key)
{
	char buf[1024];
	long long v;

	if (igt_debugfs_read(fd, "i915_interrupt_info", buf, sizeof(buf)) <= 0 ||
	    igt_key_value(buf, key, &v))
		return -1;
	return v;
}

/*
 * BENCH_PROFILE=N: goal line N (1: empty exec, 2: exec + WAIT, 3 and 4:
 * valid relocations without and with NO_RELOC, 5: stale relocations,
 * 6: 1000 objects) is not measured but run BENCH_PROFILE_N times (default
 * 1000), untimed, for a profiler (ftrace) to watch; the others are left
 * out, and the program exits right after it.
 */
static int profile_goal;

/* Measure @o against @ref, or with BENCH_PROFILE only run it. */
static bool goal_measure(int line, struct op *o, struct op *ref,
			 struct result *res)
{
	const char *n = getenv("BENCH_PROFILE_N");

	if (!profile_goal) {
		*res = measure(o, ref);
		return true;
	}
	if (line == profile_goal) {
		printf("profile: goal %d, %d times\n", line, n ? atoi(n) : 1000);
		o->fn(o->ctx, n ? atoi(n) : 1000);
		/* nothing after it in the trace; closing the fd frees all */
		exit(failures ? 1 : 0);
	}
	return false;
}

static void print_goal(const char *name, double ratio, double limit,
		       const char *unit, double spread)
{
	char lim[40];
	bool holds = ratio <= limit;

	snprintf(lim, sizeof(lim), "<= %g %s: %s", limit, unit,
		 holds ? "holds" : "MISSED");
	print_row(name, "", ratio, lim, spread);
	goals_total++;
	goals_held += holds;
}

/*
 * Under a goal line, the absolute times of both its execs (the reference
 * as the median time over the median ratio): which side moved, which the
 * ratio alone does not say.
 */
static void print_exec_times(const char *exec, const char *ref,
			     const struct result *res)
{
	printf("    %s: %.1f us, %s: about %.2f us\n", exec, res->med * 1e6,
	       ref, res->med * 1e6 / median_q(res));
}

/* Every relocated dword holds the target's address, every presumed too. */
static void goal_check_relocs(struct goal_ctx *g, const char *what)
{
	uint32_t *dw;
	uint64_t offset = g->objs[0][0].offset;
	unsigned int i, k, bad = 0;

	/* BENCH_PROFILE: the lines before the one profiled may not have run */
	if (profile_goal)
		return;
	dw = malloc(GOAL_BATCH);
	igt_assert(dw);
	for (i = 0; i < 2; i++) {
		gem_read(g->fd, g->batch[i], 0, dw, GOAL_BATCH);
		for (k = 0; k < GOAL_RELOCS; k++) {
			bad += dw[2 + k] != (uint32_t)(offset + k);
			bad += g->relocs[i][k].presumed_offset != offset;
		}
		bad += g->objs[i][0].offset != offset;
	}
	check(!bad, "%s: %u relocated dwords or presumed offsets wrong",
	      what, bad);
	free(dw);
}

static void bench_goals(struct ctx *c, struct refs *r)
{
	const uint32_t bbe[2] = { MI_BATCH_BUFFER_END, MI_NOOP };
	struct goal_ctx g = { .fd = c->fd }, g0;
	struct op gp = op(do_getparam, c), ref = op(do_goal_exec, &g0);
	struct op o = op(do_goal_exec, &g);
	struct op ow = op(do_goal_exec_wait, &g);
	double exec_gp = 0, wait_gp, handoff;
	long long batches, irqs, arms, execs;
	struct result res;
	unsigned int i, k;

	(void)r;
	if (getenv("BENCH_PROFILE"))
		profile_goal = atoi(getenv("BENCH_PROFILE"));
	heading("issue 13 goals (each a ratio of two interleaved operations)");
	c->value = gem_getparam(c->fd, I915_PARAM_CHIPSET_ID);
	g.target = gem_create(c->fd, 4096);
	g.idle = calloc(GOAL_OBJECTS, sizeof(*g.idle));
	igt_assert(g.idle);
	for (k = 0; k + 1 < GOAL_OBJECTS; k++)
		g.idle[k] = gem_create(c->fd, 4096);
	for (i = 0; i < 2; i++) {
		g.batch[i] = gem_create(c->fd, GOAL_BATCH);
		gem_write(c->fd, g.batch[i], 0, bbe, sizeof(bbe));
		g.objs[i] = calloc(GOAL_OBJECTS, sizeof(*g.objs[i]));
		g.relocs[i] = calloc(GOAL_RELOCS, sizeof(*g.relocs[i]));
		igt_assert(g.objs[i] && g.relocs[i]);
		/* dword k + 2 (after the end of the batch): target + k */
		for (k = 0; k < GOAL_RELOCS; k++) {
			g.relocs[i][k].target_handle = g.target;
			g.relocs[i][k].offset = 8 + 4 * k;
			g.relocs[i][k].delta = k;
			g.relocs[i][k].read_domains = I915_GEM_DOMAIN_RENDER;
			g.relocs[i][k].presumed_offset = ~0ull;
		}
	}
	/*
	 * The reference gets object lists of its own: with g's, setting up
	 * g (the target first, the batch last) would leave the reference's
	 * one-object list naming the target as its batch.
	 */
	g0 = g;
	for (i = 0; i < 2; i++) {
		g0.objs[i] = calloc(GOAL_OBJECTS, sizeof(*g0.objs[i]));
		igt_assert(g0.objs[i]);
	}
	batches = cs_counter("batches");
	gp.n = calibrate(gp.fn, gp.ctx);

	/* the empty batch, back to back, in GETPARAMs */
	goal_setup(&g, 1, 0, false, 0);
	irqs = irq_counter(c->fd, "user interrupts");
	arms = irq_counter(c->fd, "user interrupt arms");
	execs = cs_counter("batches");
	if (goal_measure(1, &o, &gp, &res)) {
		exec_gp = median_q(&res);
		print_goal("exec empty batch, per exec / GETPARAM", exec_gp,
			   10, "GETPARAMs", spread_q(&res, 1));
		/* where the interrupts went: per exec, all samples included */
		execs = execs < 0 ? -1 : cs_counter("batches") - execs;
		if (execs > 0 && irqs >= 0)
			printf("    user interrupts: %lld for %lld execs, the interrupt armed %lld times\n",
			       irq_counter(c->fd, "user interrupts") - irqs,
			       execs, arms < 0 ? -1 :
			       irq_counter(c->fd, "user interrupt arms") - arms);
	}
	/* the hand-off: what the WAIT adds to an exec, in GETPARAMs */
	if (goal_measure(2, &ow, &gp, &res)) {
		wait_gp = median_q(&res);
		handoff = wait_gp - exec_gp;
		row_time("exec empty batch + GEM_WAIT", &res, "GETPARAM");
		print_goal("  hand-off: (exec + WAIT) - exec, / GETPARAM",
			   handoff, GOAL_HANDOFF_BEFORE / 2,
			   "GETPARAMs (half of before)", spread_q(&res, 1));
		printf("  %-46s %11.0f%%\n",
		       "  hand-off, share of the round trip",
		       100 * handoff / wait_gp);
	}

	/* the references: the same execs without relocations */
	goal_setup(&g0, 1, 0, false, 0);
	ref.n = calibrate(ref.fn, ref.ctx);
	goal_setup(&g, 1, GOAL_RELOCS, false, 0);
	do_goal_exec(&g, 2);	/* now every presumed offset is right */
	if (goal_measure(3, &o, &ref, &res))
		print_goal("1000 valid relocations / none", median_q(&res),
			   2.5, "x", spread_q(&res, 1));
	goal_check_relocs(&g, "1000 valid relocations");

	goal_setup(&g0, 1, 0, false, I915_EXEC_NO_RELOC);
	ref.n = calibrate(ref.fn, ref.ctx);
	goal_setup(&g, 1, GOAL_RELOCS, false, I915_EXEC_NO_RELOC);
	do_goal_exec(&g, 2);	/* the offsets written back: nothing moves */
	if (goal_measure(4, &o, &ref, &res))
		print_goal("1000 valid relocations / none, NO_RELOC",
			   median_q(&res), 1.2, "x", spread_q(&res, 1));
	goal_check_relocs(&g, "1000 valid relocations, NO_RELOC");

	goal_setup(&g0, 1, 0, false, 0);
	ref.n = calibrate(ref.fn, ref.ctx);
	goal_setup(&g, 1, GOAL_RELOCS, true, 0);
	if (goal_measure(5, &o, &ref, &res)) {
		print_goal("1000 stale relocations / none", median_q(&res),
			   25, "x", spread_q(&res, 1));
		print_exec_times("the exec with 1000 stale relocations",
				 "without", &res);
	}
	goal_check_relocs(&g, "1000 stale relocations");

	goal_setup(&g, GOAL_OBJECTS, 0, false, 0);
	if (goal_measure(6, &o, &ref, &res)) {
		print_goal("1000 objects / 1 object", median_q(&res), 40, "x",
			   spread_q(&res, 1));
		print_exec_times("the exec of 1000 objects", "of 1 object",
				 &res);
	}
	if (!profile_goal) {
		double t[WINDOWS];

		goal_windows(&g, WINDOW_EXECS, t);	/* about 1 s */
		printf("    the exec of 1000 objects in %d windows of %d execs: 10th percentile %.0f us, median %.0f us, 90th %.0f us\n",
		       WINDOWS, WINDOW_EXECS, t[WINDOWS / 10] * 1e6,
		       t[WINDOWS / 2] * 1e6,
		       t[WINDOWS - 1 - WINDOWS / 10] * 1e6);
	}

	check_counter("batches", batches, g.ops + g0.ops);
	printf("  goals: %d of %d hold\n", goals_held, goals_total);
	for (i = 0; i < 2; i++) {
		gem_close(c->fd, g.batch[i]);
		free(g.objs[i]);
		free(g0.objs[i]);
		free(g.relocs[i]);
	}
	for (k = 0; k + 1 < GOAL_OBJECTS; k++)
		gem_close(c->fd, g.idle[k]);
	gem_close(c->fd, g.target);
	free(g.idle);
}

int main(int argc, char **argv)
{
	struct ctx c = { .fd = -1, .vfd = -1 };
	struct utsname u;
	struct refs r;
	bool only_goals = getenv("BENCH_ONLY") &&
			  !strcmp(getenv("BENCH_ONLY"), "goals");
	int opt, id;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (getenv("BENCH_SAMPLE_S"))
		sample_s = atof(getenv("BENCH_SAMPLE_S"));
	while ((opt = getopt(argc, argv, "s:g")) != -1) {
		if (opt == 'g') {
			only_goals = true;
			continue;
		}
		if (opt != 's') {
			fprintf(stderr, "usage: %s [-s seconds-per-sample] [-g]\n", argv[0]);
			return 2;
		}
		sample_s = atof(optarg);
	}
	if (sample_s <= 0)
		sample_s = 0.25;

	c.fd = drm_open_named("i915");
	if (c.fd < 0) {
		printf("FAIL: no i915 card node in /dev/dri\n");
		return 1;
	}
	c.vfd = drm_open_named("vgem");
	id = gem_getparam(c.fd, I915_PARAM_CHIPSET_ID);
	uname(&u);
	printf("== i915 0x%04x (%s, gen %d) ==\n", id, gpu_name(id),
	       gem_gen(c.fd));
	printf("kernel %s, %ld CPUs.  Each line: median of %d samples of ~%.2f s;\n"
	       "a ratio is the median of %d ratios, each sample against a sample of\n"
	       "the reference run just before it; spread = (max - min) / median.\n",
	       u.release, sysconf(_SC_NPROCESSORS_ONLN), SAMPLES, sample_s,
	       SAMPLES);
	if (c.vfd < 0)
		printf("(no vgem node in /dev/dri: the vgem lines are left out)\n");
	printf("  %-46s %12s %7s  %-27s %5s\n", "", "absolute", "ratio",
	       "ratio to", "spread");

	bench_refs(&c, &r);
	if (!only_goals) {
		bench_ioctls(&c, &r);
		bench_create(&c, &r);
		heading("copies (ratio: MB/s / memcpy's MB/s of the same size)");
		bench_copy_size(&c, MIB, "1 MiB", &r.memcpy_1m, "memcpy 1 MiB");
		bench_copy_size(&c, 64 * KIB, "64 KiB", &r.memcpy_64k,
				"memcpy 64 KiB");
		bench_mmap(&c, &r);
		bench_exec(&c, &r);
	}
	bench_goals(&c, &r);

	check(gem_wait_object_count(c.fd, 0) == 0,
	      "i915_gem_objects: objects left at the end");
	if (c.vfd >= 0)
		close(c.vfd);
	close(c.fd);
	printf("%s\n", failures ?
	       "bench: FAILED (the numbers above are not to be trusted)" :
	       "bench: every result checked");
	return failures ? 1 : 0;
}
