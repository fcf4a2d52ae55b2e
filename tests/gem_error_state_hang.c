// SPDX-License-Identifier: GPL-2.0
/*
 * gem_error_state_hang: the error state of a GPU hang, in upstream's
 * format, in sysfs card<N>/error and debugfs i915_error_state.
 *
 *  none        with nothing captured both read exactly upstream's
 *              "No error state collected\n" (after a write cleared them)
 *  loop        a batch that jumps to its own start for ever, with a
 *              second object flagged EXEC_OBJECT_CAPTURE holding a
 *              pattern: once the hang check gives up, both files hold
 *              the same text: the PCI id, the engine's registers (ACTHD
 *              inside the batch), the whole batch ("batch" at its GTT
 *              address, dword for dword), the pattern ("user"), the
 *              ring ("ring" at ring START, holding the
 *              MI_BATCH_BUFFER_START of the batch); the text is left in
 *              $BENCH_OUT for intel_error_decode (scripts/check.sh)
 *  first_kept  a second hang (a blit, then an unknown MI opcode, which
 *              raises the instruction error) leaves the first state in
 *              place; after a write to sysfs clears it, the next hang is
 *              captured: IPEHR holds the bad command, ACTHD its address;
 *              a write to debugfs clears it again
 *  gpu_info_faults  (debug lane: fail-nth) every allocation of a capture
 *              (debugfs i915_gpu_info, the same code in the opener's
 *              task) and of making its text fails once in turn: the
 *              open or read fails with ENOMEM or the text is complete
 *              or says it is partial; no crash, no leak, no WARN
 *
 * All softpinned (no relocation), so that the batch the error state
 * shows is exactly the one written.  The GPU is left wedged by each hang
 * and brought back through debugfs i915_wedged (when a reset replaces
 * the wedge, nothing is left to bring back).
 */
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exec.h"

#define HANGCHECK_MS	100
#define OBJ_SIZE	4096u
#define OBJ_DW		(OBJ_SIZE / 4)
#define SEED_LOOP	0x100f
#define SEED_BAD	0xbad
#define BAD_CMD		(0x1fu << 23)	/* MI opcode 0x1f: none */
#define NONE_TEXT	"No error state collected\n"

/* ------------------------------------------------------------------ */
/* reading and clearing the two files */

/* Both files, which must hold the same text; returns it (malloc'd). */
static char *read_error(int fd, size_t *len)
{
	char sysfs[128], debugfs[128], *a, *b;
	size_t la, lb;

	gem_error_state_paths(fd, sysfs, debugfs, sizeof(sysfs));
	a = igt_read_whole(sysfs, 4096, &la);
	b = igt_read_whole(debugfs, 1000, &lb);
	igt_assert_f(la == lb && !memcmp(a, b, la),
		     "%s (%zu bytes) and %s (%zu bytes) differ", sysfs, la,
		     debugfs, lb);
	free(b);
	*len = la;
	return a;
}

static void clear_error(int fd, bool through_sysfs)
{
	char sysfs[128], debugfs[128];

	gem_error_state_paths(fd, sysfs, debugfs, sizeof(sysfs));
	igt_assert_ok(igt_write_file(through_sysfs ? sysfs : debugfs, "1"));
}

static void assert_none(int fd)
{
	size_t len;
	char *text = read_error(fd, &len);

	igt_assert_f(!strcmp(text, NONE_TEXT),
		     "with nothing captured the error state reads \"%.200s\"",
		     text);
	free(text);
}

/* ------------------------------------------------------------------ */
/* parsing the text */

/* The value after "@key" at the start of a line, e.g. "  ACTHD: 0x". */
static bool reg_value(const char *text, const char *key, uint32_t *v)
{
	size_t klen = strlen(key);
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, key, klen)) {
			*v = strtoul(p + klen, NULL, 16);
			return true;
		}
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return false;
}

static uint32_t reg(const char *text, const char *key)
{
	uint32_t v;

	igt_assert_f(reg_value(text, key, &v), "no \"%s\" line in:\n%.2000s",
		     key, text);
	return v;
}

/*
 * The buffer "rcs0 --- @name = 0x00000000 <@addr>" decoded from its
 * ascii85 line into @dw (at most @max dwords): the count, or -1 if
 * there is no such buffer.
 */
static int buffer(const char *text, const char *name, uint32_t addr,
		  uint32_t *dw, int max)
{
	char head[128];
	const char *p;
	int n = 0;

	snprintf(head, sizeof(head), "rcs0 --- %s = 0x00000000 %08x\n", name,
		 addr);
	p = strstr(text, head);
	if (!p)
		return -1;
	p += strlen(head);
	igt_assert_f(*p == '~', "buffer %s at 0x%08x: no ascii85 line", name,
		     addr);
	for (p++; *p >= '!' && *p <= 'z'; n++) {
		uint32_t v = 0;
		int i;

		igt_assert(n < max);
		if (*p == 'z') {
			p++;
		} else {
			for (i = 0; i < 5; i++) {
				igt_assert(p[i] >= '!' && p[i] <= 'u');
				v = v * 85 + (p[i] - '!');
			}
			p += 5;
		}
		dw[n] = v;
	}
	igt_assert_f(*p == '\n', "buffer %s: stray 0x%02x in ascii85", name,
		     *p);
	return n;
}

/* ------------------------------------------------------------------ */
/* the hangs */

struct hang {
	int fd;
	int gen;
	uint32_t batch, user, target;		/* handles */
	uint32_t batch_addr, user_addr, target_addr;
	uint32_t dw[OBJ_DW];			/* the batch as written */
	unsigned int len;			/* its dwords */
	uint32_t pattern[OBJ_DW];		/* the user object */
	uint32_t bad_at;			/* address of the bad command */
	bool written;				/* the batch is in its object */
};

static void hang_init(struct hang *h, int fd, uint32_t seed)
{
	uint64_t start, end, base;
	unsigned int i;

	memset(h, 0, sizeof(*h));
	h->fd = fd;
	h->gen = gem_gen(fd);
	gem_gtt_managed(fd, &start, &end);
	base = (start + (1 << 20) - 1) & ~(uint64_t)((1 << 20) - 1);
	igt_assert(base + (4 << 20) <= end);
	h->batch_addr = base + (1 << 20);
	h->user_addr = base + (2 << 20);
	h->target_addr = base + (3 << 20);
	h->batch = gem_create(fd, OBJ_SIZE);
	h->user = gem_create(fd, OBJ_SIZE);
	h->target = gem_create(fd, OBJ_SIZE);
	for (i = 0; i < OBJ_DW; i++)
		h->pattern[i] = pattern_dw(seed, i);
	gem_write(fd, h->user, 0, h->pattern, OBJ_SIZE);
}

static void hang_fini(struct hang *h)
{
	gem_close(h->fd, h->batch);
	gem_close(h->fd, h->user);
	gem_close(h->fd, h->target);
}

static void emit(struct hang *h, uint32_t dw)
{
	h->dw[h->len++] = dw;
}

/* MI_BATCH_BUFFER_START (GTT, non-secure) to @addr */
static void emit_bbs(struct hang *h, uint32_t addr)
{
	if (h->gen >= 4) {
		emit(h, MI_BATCH_BUFFER_START | MI_BATCH_GTT |
			MI_BATCH_NON_SECURE_I965);
		emit(h, addr);
	} else {
		emit(h, MI_BATCH_BUFFER_START | MI_BATCH_GTT);
		emit(h, addr | MI_BATCH_NON_SECURE);
	}
}

/* a few MI_NOOPs, then back to the start, for ever */
static void build_loop(struct hang *h)
{
	int i;

	for (i = 0; i < 6; i++)
		emit(h, MI_NOOP);
	emit_bbs(h, h->batch_addr);
}

/* a fill of the target, then a command no GPU knows */
static void build_bad(struct hang *h)
{
	emit(h, XY_COLOR_BLT | BLT_WRITE_ARGB);
	emit(h, BR13_ROP(ROP_PATCOPY) | BR13_DEPTH_32 | 256);
	emit(h, 0);
	emit(h, 16 << 16 | 64);
	emit(h, h->target_addr);
	emit(h, 0x00c0ffee);
	emit(h, MI_NOOP);
	h->bad_at = h->batch_addr + 4 * h->len;
	emit(h, BAD_CMD);
	emit(h, MI_BATCH_BUFFER_END);
	emit(h, MI_NOOP);
}

/* Submit the batch, softpinned, with the user object flagged CAPTURE. */
static void hang_submit(struct hang *h)
{
	struct drm_i915_gem_exec_object2 obj[3] = {
		{ .handle = h->target, .offset = h->target_addr,
		  .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE },
		{ .handle = h->user, .offset = h->user_addr,
		  .flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_CAPTURE },
		{ .handle = h->batch, .offset = h->batch_addr,
		  .flags = EXEC_OBJECT_PINNED },
	};
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(obj),
		.buffer_count = 3,
		.batch_len = OBJ_SIZE,
	};

	/* once: the batch's contents do not change */
	if (!h->written)
		gem_write(h->fd, h->batch, 0, h->dw, 4 * h->len);
	h->written = true;
	gem_execbuf(h->fd, &eb);
}

/*
 * The hang is declared: the batch's wait ends, with 0 as upstream's (the
 * error state the callers read is the proof of the hang).
 */
static void hang_wait(struct hang *h)
{
	int64_t forever = -1;
	double t0 = igt_now();
	int ret = __gem_wait(h->fd, h->batch, &forever);

	igt_info("the hung batch's WAIT: %s after %.2f s", igt_errname(ret),
		 igt_now() - t0);
	igt_assert_ok(ret);
}

/* today a hang wedges the device: bring it back */
static void recover(int fd)
{
	if (gem_wedged_debugfs(fd))
		gem_unwedge(fd);
}

/* ------------------------------------------------------------------ */
/* what every error state of such a hang holds */

static uint32_t bufdw[1 << 16];

static void check_state(const struct hang *h, const char *text)
{
	uint32_t start, ctl, acthd;
	int n, i;
	bool found = false;

	igt_assert_f(!strncmp(text, "GPU HANG: ecode ", 16),
		     "the error state starts \"%.40s\"", text);
	igt_assert_eq(reg(text, "PCI ID: 0x"), gem_pci_id(h->fd));
	/* the registers intel_error_decode and people read */
	reg(text, "Kernel: ");
	reg(text, "Time: ");
	reg(text, "EIR: 0x");
	reg(text, "PGTBL_ER: 0x");
	reg(text, "  HEAD:  0x");
	reg(text, "  TAIL:  0x");
	reg(text, "  HWS:   0x");
	reg(text, "  IPEIR: 0x");
	reg(text, "  IPEHR: 0x");
	reg(text, "  ESR:   0x");
	reg(text, "  INSTDONE: 0x");
	reg(text, "  INSTPM: 0x");
	if (h->gen >= 4) {
		reg(text, "  INSTPS: 0x");
		reg(text, "  BBADDR: 0x");
	}
	start = reg(text, "  START: 0x");
	ctl = reg(text, "  CTL:   0x");
	igt_assert_f(ctl & 1, "ring CTL 0x%08x: not valid", ctl);
	acthd = reg(text, "  ACTHD: 0x");
	igt_info("ACTHD 0x%08x, batch at 0x%08x", acthd, h->batch_addr);

	/* the batch, dword for dword, then zeros to the object's end */
	n = buffer(text, "batch", h->batch_addr, bufdw, OBJ_DW);
	igt_assert_f(n == (int)OBJ_DW, "batch buffer: %d dwords", n);
	for (i = 0; i < n; i++)
		igt_assert_f(bufdw[i] == (i < (int)h->len ? h->dw[i] : 0),
			     "batch dword %d: 0x%08x, wrote 0x%08x", i,
			     bufdw[i], i < (int)h->len ? h->dw[i] : 0);

	/* the object flagged EXEC_OBJECT_CAPTURE */
	n = buffer(text, "user", h->user_addr, bufdw, OBJ_DW);
	igt_assert_f(n == (int)OBJ_DW, "user buffer: %d dwords", n);
	igt_assert_mem(bufdw, h->pattern, OBJ_SIZE, "the captured object");
	/* and nothing else of the exec */
	igt_assert_eq(buffer(text, "user", h->target_addr, bufdw, OBJ_DW), -1);

	/* the ring, with the jump into the batch */
	n = buffer(text, "ring", start, bufdw, ARRAY_SIZE(bufdw));
	igt_assert_f(n > 0, "no ring buffer at START 0x%08x", start);
	for (i = 0; i + 1 < n; i++)
		if (bufdw[i] >> 23 == MI_BATCH_BUFFER_START >> 23 &&
		    (bufdw[i + 1] & ~3u) == h->batch_addr)
			found = true;
	igt_assert_f(found, "no MI_BATCH_BUFFER_START 0x%08x in the ring",
		     h->batch_addr);
}

/*
 * Leave the text and what intel_error_decode must print for its batch
 * in $BENCH_OUT: <name>.txt and <name>.expect (one extended regular
 * expression a line, each to match a line of the decoded batch).
 */
/* ------------------------------------------------------------------ */

static void subtest_none(void)
{
	int fd = drm_open_driver();

	clear_error(fd, true);
	assert_none(fd);
	clear_error(fd, false);
	assert_none(fd);
	close(fd);
}

static void subtest_loop(void)
{
	static const char *const expect[] = {
		"MI_BATCH_BUFFER_START",
		" HEAD 0x[0-9a-f]{8}: ",
	};
	int fd = drm_open_driver();
	struct hang h;
	char *text;
	size_t len;

	gem_require_unwedged(fd, HANGCHECK_MS);
	clear_error(fd, true);
	hang_init(&h, fd, SEED_LOOP);
	build_loop(&h);
	hang_submit(&h);
	hang_wait(&h);

	text = read_error(fd, &len);
	igt_info("error state: %zu bytes", len);
	check_state(&h, text);
	{
		uint32_t acthd = reg(text, "  ACTHD: 0x");

		igt_assert_f(acthd >= h.batch_addr &&
			     acthd < h.batch_addr + 4 * h.len,
			     "ACTHD 0x%08x outside the looping batch [0x%08x, 0x%08x)",
			     acthd, h.batch_addr, h.batch_addr + 4 * h.len);
	}
	gem_error_state_save(fd, "loop", text, expect, ARRAY_SIZE(expect));
	free(text);
	/* kept for first_kept */
	hang_fini(&h);
	recover(fd);
	close(fd);
}

static void subtest_first_kept(void)
{
	static const char *const expect[] = {
		"XY_COLOR_BLT",
		" HEAD 0x0f800000: +MI UNKNOWN",
		"MI_BATCH_BUFFER_END",
	};
	int fd = drm_open_driver();
	struct hang h;
	uint32_t first[OBJ_DW];
	char *text;
	size_t len;
	int i;

	gem_require_unwedged(fd, HANGCHECK_MS);
	text = read_error(fd, &len);
	if (!strcmp(text, NONE_TEXT))
		igt_fail("no error state kept (did loop run?)");
	free(text);

	/* a second hang: the first state stays */
	hang_init(&h, fd, SEED_BAD);
	build_bad(&h);
	hang_submit(&h);
	hang_wait(&h);
	text = read_error(fd, &len);
	igt_assert_eq(buffer(text, "user", h.user_addr, bufdw, OBJ_DW),
		      (int)OBJ_DW);
	for (i = 0; i < (int)OBJ_DW; i++)
		first[i] = pattern_dw(SEED_LOOP, i);
	igt_assert_mem(bufdw, first, OBJ_SIZE,
		       "the user object of the first hang, still kept");
	igt_assert_neq(reg(text, "  IPEHR: 0x"), BAD_CMD);
	free(text);
	recover(fd);

	/* cleared through sysfs, the next hang is captured */
	clear_error(fd, true);
	assert_none(fd);
	hang_submit(&h);
	hang_wait(&h);
	text = read_error(fd, &len);
	check_state(&h, text);
	igt_assert_eq(reg(text, "  IPEHR: 0x"), BAD_CMD);
	igt_assert_eq(reg(text, "  ACTHD: 0x"), h.bad_at);
	gem_error_state_save(fd, "badcmd", text, expect, ARRAY_SIZE(expect));
	free(text);

	/* and through debugfs */
	clear_error(fd, false);
	assert_none(fd);
	hang_fini(&h);
	recover(fd);
	close(fd);
}

/* ------------------------------------------------------------------ */
/* fault injection: the debug lane */

#define FI_ROOT "/sys/kernel/debug"

static int fail_nth = -1;

static void fi_set(const char *attr, const char *file, const char *val)
{
	char path[128];

	snprintf(path, sizeof(path), FI_ROOT "/%s/%s", attr, file);
	igt_assert_ok(igt_write_file(path, val));
}

/* fail-nth only: both attributes restricted to tasks that ask */
static void fi_open(void)
{
	static const char *const attrs[] = { "failslab", "fail_page_alloc" };
	struct stat st;
	size_t i;

	if (stat(FI_ROOT "/failslab", &st))
		mount("debugfs", FI_ROOT, "debugfs", 0, NULL);
	if (stat(FI_ROOT "/failslab", &st) ||
	    stat(FI_ROOT "/fail_page_alloc", &st))
		igt_skip("no failslab/fail_page_alloc (kernel without CONFIG_FAULT_INJECTION_DEBUG_FS)");
	fail_nth = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	if (fail_nth < 0)
		igt_skip("no /proc/thread-self/fail-nth");
	for (i = 0; i < ARRAY_SIZE(attrs); i++) {
		fi_set(attrs[i], "task-filter", "Y");
		fi_set(attrs[i], "probability", "0");
		fi_set(attrs[i], "interval", "1");
		fi_set(attrs[i], "times", "-1");
		fi_set(attrs[i], "space", "0");
		fi_set(attrs[i], "verbose", "0");
		fi_set(attrs[i], "ignore-gfp-wait", "N");
	}
	fi_set("fail_page_alloc", "ignore-gfp-highmem", "N");
	fi_set("fail_page_alloc", "min-order", "0");
}

static void nth_put(unsigned int v)
{
	char buf[16];
	int len = snprintf(buf, sizeof(buf), "%u", v);

	igt_assert_eq(pwrite(fail_nth, buf, len, 0), len);
}

static unsigned int nth_get(void)
{
	char buf[16] = "";

	igt_assert(pread(fail_nth, buf, sizeof(buf) - 1, 0) > 0);
	return strtoul(buf, NULL, 10);
}

static char info_buf[1 << 20];

/* A text i915_gpu_info gave: whole, or saying what is missing. */
static bool check_info(const char *text, size_t len, uint32_t id)
{
	char pci[32];

	igt_assert_f(len < sizeof(info_buf) - 1, "i915_gpu_info too long");
	igt_assert_f(!strncmp(text, "GPU HANG: ecode ", 16),
		     "i915_gpu_info starts \"%.40s\"", text);
	snprintf(pci, sizeof(pci), "\nPCI ID: 0x%04x\n", id);
	igt_assert_f(strstr(text, pci), "no \"PCI ID: 0x%04x\"", id);
	igt_assert(text[len - 1] == '\n');
	return strstr(text, "Capture incomplete: ") ||
	       strstr(text, "(partial: ");
}

/* Open and read i915_gpu_info, the @nth allocation failing (0: none). */
static int gpu_info(const char *path, unsigned int open_nth,
		    unsigned int read_nth, bool *reached, size_t *len)
{
	int f, ret = 0;
	ssize_t r;

	*reached = false;
	*len = 0;
	nth_put(open_nth);
	f = open(path, O_RDONLY | O_CLOEXEC);
	if (f < 0)
		ret = -errno;
	if (open_nth)
		*reached = !nth_get();
	nth_put(0);
	if (ret)
		return ret;

	nth_put(read_nth);
	r = read(f, info_buf, sizeof(info_buf) - 1);
	if (r < 0)
		ret = -errno;
	if (read_nth)
		*reached = !nth_get();
	nth_put(0);
	if (!ret) {
		*len = r;
		/* the rest, without injection */
		while ((r = read(f, info_buf + *len,
				 sizeof(info_buf) - 1 - *len)) > 0)
			*len += r;
		igt_assert(r == 0);
		info_buf[*len] = '\0';
	}
	close(f);
	return ret;
}

static void subtest_gpu_info_faults(void)
{
	int fd = drm_open_driver();
	unsigned int nth, partial = 0, failed = 0, which;
	char path[128];
	struct hang h;
	bool reached;
	size_t len;
	int ret;

	fi_open();
	/* slow to give up: the sweep runs while the batch loops */
	gem_require_unwedged(fd, 5000);
	snprintf(path, sizeof(path), FI_ROOT "/dri/%d/i915_gpu_info",
		 drm_primary_minor(fd));
	hang_init(&h, fd, SEED_LOOP);
	build_loop(&h);
	hang_submit(&h);

	/* once whole: the batch and the captured object are in it */
	igt_assert_ok(gpu_info(path, 0, 0, &reached, &len));
	igt_assert(!check_info(info_buf, len, gem_pci_id(fd)));
	igt_assert_eq(buffer(info_buf, "user", h.user_addr, bufdw, OBJ_DW),
		      (int)OBJ_DW);
	igt_assert_mem(bufdw, h.pattern, OBJ_SIZE, "i915_gpu_info's object");

	/* which 0: the open (the capture), 1: the first read (the text) */
	for (which = 0; which < 2; which++) {
		for (nth = 1; nth < 1000; nth++) {
			ret = gpu_info(path, which ? 0 : nth, which ? nth : 0,
				       &reached, &len);
			if (!reached) {
				igt_assert_ok(ret);
				break;
			}
			igt_assert_f(ret == 0 || ret == -ENOMEM,
				     "i915_gpu_info with allocation %u of the %s failing: %s",
				     nth, which ? "read" : "open",
				     igt_errname(ret));
			if (ret)
				failed++;
			else
				partial += check_info(info_buf, len,
						      gem_pci_id(fd));
		}
		igt_info("%s: %u allocations", which ? "read" : "open",
			 nth - 1);
	}
	igt_info("%u failures returned ENOMEM, %u gave a partial capture",
		 failed, partial);
	igt_assert_f(partial > 0, "no failure reached the capture itself");
	igt_assert(!gem_wedged_debugfs(fd));

	/* now let the hang check give up on the loop */
	gem_set_hangcheck_ms(HANGCHECK_MS);
	hang_wait(&h);
	hang_fini(&h);
	recover(fd);
	clear_error(fd, true);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(none),
	SUBTEST_T(loop, 60),
	SUBTEST_T(first_kept, 60),
	SUBTEST_T(gpu_info_faults, 300),
};

igt_main(tests)
