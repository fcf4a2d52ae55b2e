// SPDX-License-Identifier: GPL-2.0
/*
 * gem_reg_read: the GPU's timestamp as clients see it, as upstream 6.1
 * gives it.  GETPARAM CS_TIMESTAMP_FREQUENCY answers hrawclk / 16, hrawclk
 * being what CLKCFG's FSB straps say (mobile and desktop encodings), on
 * both generations.  REG_READ reads the render timestamp (0x2358) on
 * Gen4, with flags 0 (one 8-byte read) or I915_REG_READ_8B_WA (two dword
 * reads), from the primary and the render node; it advances, at the
 * rate GETPARAM gives (measured against CLOCK_MONOTONIC over at least
 * 200 ms, each end bracketed by two clock reads, within a factor of 2:
 * nothing here depends on speed); any other offset or flag is -EINVAL,
 * and on Gen3, which has no timestamp, every offset is.  A batch's
 * MI_STORE_REGISTER_MEM of both dwords and a PIPE_CONTROL timestamp
 * write store a value between two REG_READs around the batch.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "exec.h"

#define TIMESTAMP		0x2358ull
#define TIMESTAMP_UDW		0x235cull
#define REG_READ_8B_WA		1ull

#define MI_STORE_REGISTER_MEM	MI_INSTR(0x24, 1)	/* 3 dwords */
#define PIPE_CONTROL		0x7a000002u		/* Gen4, 4 dwords */
#define   PIPE_CONTROL_WRITE_TIMESTAMP	(3u << 14)
#define   PIPE_CONTROL_GLOBAL_GTT	(1u << 2)	/* in dword 1 */

static int __reg_read(int fd, uint64_t offset, uint64_t *val)
{
	struct drm_i915_reg_read r = { .offset = offset };
	int ret = igt_ioctl(fd, DRM_IOCTL_I915_REG_READ, &r);

	if (!ret && val)
		*val = r.val;
	return ret;
}

static uint64_t reg_read(int fd, uint64_t flags)
{
	uint64_t val = 0;

	igt_assert_ok(__reg_read(fd, TIMESTAMP | flags, &val));
	return val;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static bool is_mobile(int fd)
{
	char buf[4096];
	int ret = igt_debugfs_read(fd, "i915_capabilities", buf, sizeof(buf));

	igt_assert_lt(0, ret);
	return strstr(buf, "is_mobile: yes");
}

/* upstream's hrawclk (kHz) from CLKCFG's FSB straps, 133333 if unknown */
static unsigned int hrawclk_khz(uint32_t clkcfg, bool mobile)
{
	static const unsigned int mobile_khz[8] = {
		100000, 133333, 200000, 166667, 0, 0, 266667, 333333,
	};
	static const unsigned int desktop_khz[8] = {
		266667, 133333, 200000, 166667, 333333, 100000, 400000, 0,
	};
	unsigned int khz = (mobile ? mobile_khz : desktop_khz)[clkcfg & 7];

	return khz ? khz : 133333;
}

static void require_gen4(int fd)
{
	if (gem_gen(fd) < 4)
		igt_skip("Gen3 has no timestamp\n");
}

/* CS_TIMESTAMP_FREQUENCY is hrawclk / 16, from the GPU's CLKCFG */
static void subtest_frequency(void)
{
	int fd = drm_open_driver();
	long long clkcfg = sim_reg("CLKCFG");
	bool mobile = is_mobile(fd);
	int want, freq = 0;

	igt_assert_lte(0, clkcfg);
	want = hrawclk_khz(clkcfg, mobile) * 1000 / 16;
	igt_assert_ok(__gem_getparam(fd, I915_PARAM_CS_TIMESTAMP_FREQUENCY,
				     &freq));
	igt_info("CLKCFG %#llx (%s): %d Hz, want %d\n", clkcfg,
		 mobile ? "mobile" : "desktop", freq, want);
	igt_assert_eq(freq, want);
	close(fd);
}

/* Gen3: no register to read, whatever the flags */
static void subtest_gen3_einval(void)
{
	int fd = drm_open_driver();
	uint64_t f;

	if (gem_gen(fd) != 3)
		igt_skip("Gen4 has a timestamp\n");
	for (f = 0; f < 8; f++)
		igt_assert_err(__reg_read(fd, TIMESTAMP | f, NULL), -EINVAL);
	igt_assert_err(__reg_read(fd, TIMESTAMP_UDW, NULL), -EINVAL);
	close(fd);
}

/* Gen4: the timestamp reads; every other offset or flag is -EINVAL */
static void subtest_bad_offsets(void)
{
	static const uint64_t bad[] = {
		TIMESTAMP | 2, TIMESTAMP | 3, TIMESTAMP | 4, TIMESTAMP | 7,
		TIMESTAMP_UDW, TIMESTAMP_UDW | REG_READ_8B_WA,
		TIMESTAMP - 8, TIMESTAMP + 8, 0x2030, 0x10c00, 0,
		TIMESTAMP | 1ull << 32, TIMESTAMP | 1ull << 63, ~0ull,
	};
	int fd = drm_open_driver();
	unsigned int i;

	require_gen4(fd);
	igt_assert_ok(__reg_read(fd, TIMESTAMP, NULL));
	igt_assert_ok(__reg_read(fd, TIMESTAMP | REG_READ_8B_WA, NULL));
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		igt_info("offset %#llx\n", (unsigned long long)bad[i]);
		igt_assert_err(__reg_read(fd, bad[i], NULL), -EINVAL);
	}
	close(fd);
}

/* both read forms, on both nodes, see one clock that moves forward */
static void subtest_advances(void)
{
	int fd = drm_open_driver();
	int rfd;
	uint64_t a, b, c, d;

	require_gen4(fd);
	rfd = drm_open_driver_render();
	a = reg_read(fd, 0);
	b = reg_read(fd, REG_READ_8B_WA);
	igt_sleep_ms(10);
	c = reg_read(rfd, 0);
	d = reg_read(rfd, REG_READ_8B_WA);
	igt_info("%#llx %#llx %#llx %#llx\n", (unsigned long long)a,
		 (unsigned long long)b, (unsigned long long)c,
		 (unsigned long long)d);
	igt_assert_lte_u64(a, b);
	igt_assert_lte_u64(b, c);
	igt_assert_lte_u64(c, d);
	igt_assert(a < c);
	close(rfd);
	close(fd);
}

struct sample {
	uint64_t before, ts, after;
};

static void sample(int fd, struct sample *s)
{
	s->before = now_ns();
	s->ts = reg_read(fd, REG_READ_8B_WA);
	s->after = now_ns();
}

/*
 * The register counts at the rate GETPARAM gives: over >= 200 ms of
 * CLOCK_MONOTONIC, the rate lies between the ticks over the longest and
 * over the shortest interval the clock reads allow, and each bound is
 * within a factor of 2 of the frequency.
 */
static void subtest_rate(void)
{
	int fd = drm_open_driver();
	struct sample s0, s1;
	double lo, hi, ticks;
	int freq;

	require_gen4(fd);
	freq = gem_getparam(fd, I915_PARAM_CS_TIMESTAMP_FREQUENCY);
	igt_assert_lt(0, freq);
	sample(fd, &s0);
	do {
		igt_sleep_ms(100);
		sample(fd, &s1);
	} while (s1.before - s0.after < 200000000ull);

	ticks = (double)(s1.ts - s0.ts);
	lo = ticks * 1e9 / (double)(s1.after - s0.before);
	hi = ticks * 1e9 / (double)(s1.before - s0.after);
	igt_info("%.0f ticks in %.3f-%.3f s: %.0f-%.0f Hz, GETPARAM %d Hz\n",
		 ticks, (s1.before - s0.after) / 1e9,
		 (s1.after - s0.before) / 1e9, lo, hi, freq);
	igt_assert_f(lo <= 2.0 * freq && hi >= 0.5 * freq,
		     "rate %.0f-%.0f Hz, GETPARAM %d Hz\n", lo, hi, freq);
	close(fd);
}

static void emit_srm(struct batch *b, struct bo *target, uint64_t reg,
		     uint32_t off)
{
	batch_emit(b, MI_STORE_REGISTER_MEM | MI_MEM_VIRTUAL);
	batch_emit(b, reg);
	batch_reloc(b, target, off, I915_GEM_DOMAIN_INSTRUCTION,
		    I915_GEM_DOMAIN_INSTRUCTION);
}

/*
 * Run a batch that stores the timestamp and read it back.  The
 * MI_STORE_REGISTER_MEM batch stores the upper dword, the lower and the
 * upper again (a secure batch: the command is privileged on the model);
 * false if the upper dword moved in between (try again).
 */
static bool batch_store(int fd, bool pipe_control, uint64_t *before,
			uint64_t *got, uint64_t *after)
{
	struct batch *b = batch_new(fd);
	struct bo target;
	uint32_t dw[3];
	bool ok = true;

	bo_init(&target, fd, PAGE_SZ);
	if (pipe_control) {
		batch_emit(b, PIPE_CONTROL | PIPE_CONTROL_WRITE_TIMESTAMP);
		batch_reloc(b, &target, PIPE_CONTROL_GLOBAL_GTT,
			    I915_GEM_DOMAIN_INSTRUCTION,
			    I915_GEM_DOMAIN_INSTRUCTION);
		batch_emit(b, 0);
		batch_emit(b, 0);
	} else {
		emit_srm(b, &target, TIMESTAMP_UDW, 8);
		emit_srm(b, &target, TIMESTAMP, 0);
		emit_srm(b, &target, TIMESTAMP_UDW, 4);
	}

	*before = reg_read(fd, REG_READ_8B_WA);
	igt_assert_ok(__batch_submit(b, pipe_control ? 0 : I915_EXEC_SECURE));
	gem_sync(fd, b->bo.handle);
	*after = reg_read(fd, REG_READ_8B_WA);

	gem_read(fd, target.handle, 0, dw, sizeof(dw));
	*got = (uint64_t)dw[1] << 32 | dw[0];
	if (!pipe_control && dw[1] != dw[2])
		ok = false;
	igt_info("before %#llx stored %#llx after %#llx\n",
		 (unsigned long long)*before, (unsigned long long)*got,
		 (unsigned long long)*after);

	batch_free(b);
	bo_fini(&target, fd);
	return ok;
}

/* a batch's store of the timestamp lands between two CPU reads */
static void check_batch_store(bool pipe_control)
{
	int fd = drm_open_driver();
	uint64_t before, after, got;
	int tries = 0;

	require_gen4(fd);
	while (!batch_store(fd, pipe_control, &before, &got, &after))
		igt_assert_lt(++tries, 3);
	igt_assert_lte_u64(before, got);
	igt_assert_lte_u64(got, after);
	close(fd);
}

static void subtest_store_register_mem(void)
{
	check_batch_store(false);
}

static void subtest_pipe_control(void)
{
	check_batch_store(true);
}

static const struct igt_subtest tests[] = {
	SUBTEST(frequency),
	SUBTEST(gen3_einval),
	SUBTEST(bad_offsets),
	SUBTEST(advances),
	SUBTEST(rate),
	SUBTEST(store_register_mem),
	SUBTEST(pipe_control),
};

igt_main(tests)
