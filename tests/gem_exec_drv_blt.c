// SPDX-License-Identifier: GPL-2.0
/*
 * gem_exec_drv_blt: the driver's execution path end to end, as its author
 * checks it: blits through relocated objects, CPU/GPU domain transfers,
 * presumed offsets, eviction in a GTT narrowed by GEM_INIT, softpin with
 * NO_RELOC, cliprects (v1), fences, LEAVEVT/ENTERVT, BUSY/WAIT/THROTTLE
 * on slowed commands.
 */
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "gem.h"

#define MI_BATCH_BUFFER_END	(0xa << 23)
#define XY_COLOR_BLT		(0x54000000 | 4)
#define XY_SRC_COPY_BLT		(0x54c00000 | 6)
#define BLT_WRITE_ARGB		(3 << 20)
#define BR13_32BPP		(3 << 24)
#define ROP_PAT			(0xf0 << 16)
#define ROP_SRC			(0xcc << 16)

#define W	64
#define H	32
#define PITCH	(W * 4)
#define SIZE	(PITCH * H)

static int __execbuf(int fd, struct drm_i915_gem_execbuffer2 *eb)
{
	return igt_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, eb);
}

static void reloc(struct drm_i915_gem_relocation_entry *r, uint32_t target,
		  uint32_t offset, uint64_t presumed, bool write)
{
	memset(r, 0, sizeof(*r));
	r->target_handle = target;
	r->offset = offset;
	r->presumed_offset = presumed;
	r->read_domains = I915_GEM_DOMAIN_RENDER;
	r->write_domain = write ? I915_GEM_DOMAIN_RENDER : 0;
}

/* Batch: fill dst with @color; reloc at dword 4. */
static unsigned int fill_batch(uint32_t *b, uint32_t dst_addr, uint32_t color)
{
	unsigned int i = 0;

	b[i++] = XY_COLOR_BLT | BLT_WRITE_ARGB;
	b[i++] = BR13_32BPP | ROP_PAT | PITCH;
	b[i++] = 0;
	b[i++] = H << 16 | W;
	b[i++] = dst_addr;
	b[i++] = color;
	b[i++] = MI_BATCH_BUFFER_END;
	b[i++] = 0;
	return i;
}

/* Batch: copy src to dst; relocs at dwords 4 (dst) and 7 (src). */
static unsigned int copy_batch(uint32_t *b, uint32_t dst, uint32_t src)
{
	unsigned int i = 0;

	b[i++] = XY_SRC_COPY_BLT | BLT_WRITE_ARGB;
	b[i++] = BR13_32BPP | ROP_SRC | PITCH;
	b[i++] = 0;
	b[i++] = H << 16 | W;
	b[i++] = dst;
	b[i++] = 0;
	b[i++] = PITCH;
	b[i++] = src;
	b[i++] = MI_BATCH_BUFFER_END;
	b[i++] = 0;
	return i;
}

static void check_color(int fd, uint32_t handle, uint32_t color)
{
	static uint32_t buf[SIZE / 4];
	unsigned int i;

	gem_read(fd, handle, 0, buf, SIZE);
	for (i = 0; i < SIZE / 4; i++)
		if (buf[i] != color)
			igt_fail("pixel %u is 0x%08x, expected 0x%08x", i,
				 buf[i], color);
}

/* exec [dst, batch] filling dst; returns dst's offset */
static uint64_t fill(int fd, uint32_t dst, uint32_t color, uint64_t presumed)
{
	struct drm_i915_gem_relocation_entry r;
	struct drm_i915_gem_exec_object2 obj[2];
	struct drm_i915_gem_execbuffer2 eb;
	uint32_t b[16];
	unsigned int n;

	memset(obj, 0, sizeof(obj));
	obj[0].handle = dst;
	obj[1].handle = gem_create(fd, 4096);
	n = fill_batch(b, presumed, color);
	gem_write(fd, obj[1].handle, 0, b, n * 4);
	reloc(&r, dst, 16, presumed, true);
	obj[1].relocs_ptr = to_user_pointer(&r);
	obj[1].relocation_count = 1;
	memset(&eb, 0, sizeof(eb));
	eb.buffers_ptr = to_user_pointer(obj);
	eb.buffer_count = 2;
	igt_assert_ok(__execbuf(fd, &eb));
	igt_assert_eq_u64(r.presumed_offset, obj[0].offset);
	gem_close(fd, obj[1].handle);
	return obj[0].offset;
}

static void subtest_fill_copy(void)
{
	int fd = drm_open_driver();
	struct drm_i915_gem_relocation_entry r[2];
	struct drm_i915_gem_exec_object2 obj[3];
	struct drm_i915_gem_execbuffer2 eb;
	uint32_t src = gem_create(fd, SIZE), dst = gem_create(fd, SIZE);
	uint32_t b[16], *map;
	unsigned int n, i;

	fill(fd, src, 0xff00ff00, 0);
	check_color(fd, src, 0xff00ff00);

	memset(obj, 0, sizeof(obj));
	obj[0].handle = dst;
	obj[1].handle = src;
	obj[2].handle = gem_create(fd, 4096);
	n = copy_batch(b, 0, 0);
	gem_write(fd, obj[2].handle, 0, b, n * 4);
	reloc(&r[0], dst, 16, -1, true);
	reloc(&r[1], src, 28, -1, false);
	obj[2].relocs_ptr = to_user_pointer(r);
	obj[2].relocation_count = 2;
	memset(&eb, 0, sizeof(eb));
	eb.buffers_ptr = to_user_pointer(obj);
	eb.buffer_count = 3;
	igt_assert_ok(__execbuf(fd, &eb));
	igt_assert_eq_u64(r[0].presumed_offset, obj[0].offset);
	igt_assert_eq_u64(r[1].presumed_offset, obj[1].offset);

	map = gem_mmap__cpu(fd, dst, 0, SIZE);
	gem_set_domain(fd, dst, I915_GEM_DOMAIN_CPU, 0);
	for (i = 0; i < SIZE / 4; i++)
		igt_assert_eq(map[i], 0xff00ff00);
	/* CPU writes, GPU reads: copy dst back into src after the CPU wrote */
	gem_set_domain(fd, dst, I915_GEM_DOMAIN_CPU, I915_GEM_DOMAIN_CPU);
	for (i = 0; i < SIZE / 4; i++)
		map[i] = i;
	munmap(map, SIZE);
	obj[0].handle = src;
	obj[1].handle = dst;
	reloc(&r[0], src, 16, -1, true);
	reloc(&r[1], dst, 28, -1, false);
	igt_assert_ok(__execbuf(fd, &eb));
	{
		static uint32_t buf[SIZE / 4];

		gem_read(fd, src, 0, buf, SIZE);
		for (i = 0; i < SIZE / 4; i++)
			igt_assert_eq(buf[i], i);
	}
	gem_close(fd, obj[2].handle);
	gem_close(fd, src);
	gem_close(fd, dst);
	close(fd);
}

/* Right presumed offsets are left alone, wrong ones patched. */
static void subtest_presumed(void)
{
	int fd = drm_open_driver();
	uint32_t dst = gem_create(fd, SIZE);
	uint64_t off;

	off = fill(fd, dst, 0x11111111, 0);
	check_color(fd, dst, 0x11111111);
	igt_assert_eq_u64(fill(fd, dst, 0x22222222, off), off);
	check_color(fd, dst, 0x22222222);
	gem_close(fd, dst);
	close(fd);
}

/* Softpin and NO_RELOC: the batch is written with the final address. */
static void subtest_softpin(void)
{
	int fd = drm_open_driver();
	struct drm_i915_gem_exec_object2 obj[2];
	struct drm_i915_gem_execbuffer2 eb;
	uint32_t b[16];
	unsigned int n;

	memset(obj, 0, sizeof(obj));
	obj[0].handle = gem_create(fd, SIZE);
	obj[0].offset = 8 << 20;
	obj[0].flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE;
	obj[1].handle = gem_create(fd, 4096);
	obj[1].offset = 9 << 20;
	obj[1].flags = EXEC_OBJECT_PINNED;
	n = fill_batch(b, 8 << 20, 0x33333333);
	gem_write(fd, obj[1].handle, 0, b, n * 4);
	memset(&eb, 0, sizeof(eb));
	eb.buffers_ptr = to_user_pointer(obj);
	eb.buffer_count = 2;
	eb.flags = I915_EXEC_NO_RELOC | I915_EXEC_HANDLE_LUT;
	igt_assert_ok(__execbuf(fd, &eb));
	igt_assert_eq_u64(obj[0].offset, 8 << 20);
	igt_assert_eq_u64(obj[1].offset, 9 << 20);
	check_color(fd, obj[0].handle, 0x33333333);
	gem_close(fd, obj[0].handle);
	gem_close(fd, obj[1].handle);
	close(fd);
}

/* FENCE_OUT, BUSY, WAIT and FENCE_IN. */
static void subtest_fences(void)
{
	int fd = drm_open_driver();
	struct drm_i915_gem_exec_object2 obj[2];
	struct drm_i915_gem_execbuffer2 eb;
	struct drm_i915_gem_wait w;
	struct pollfd p;
	uint32_t b[16];
	unsigned int n;
	int fence;

	memset(obj, 0, sizeof(obj));
	obj[0].handle = gem_create(fd, SIZE);
	obj[0].offset = 16 << 20;
	obj[0].flags = EXEC_OBJECT_PINNED | EXEC_OBJECT_WRITE;
	obj[1].handle = gem_create(fd, 4096);
	n = fill_batch(b, 16 << 20, 0x44444444);
	gem_write(fd, obj[1].handle, 0, b, n * 4);
	memset(&eb, 0, sizeof(eb));
	eb.buffers_ptr = to_user_pointer(obj);
	eb.buffer_count = 2;
	eb.flags = I915_EXEC_FENCE_OUT;
	igt_assert_ok(__execbuf(fd, &eb));
	fence = eb.rsvd2 >> 32;
	igt_assert(fence > 2);
	p.fd = fence;
	p.events = POLLIN;
	igt_assert_eq(poll(&p, 1, 5000), 1);

	eb.flags = I915_EXEC_FENCE_IN;
	eb.rsvd2 = fence;
	igt_assert_ok(__execbuf(fd, &eb));
	memset(&w, 0, sizeof(w));
	w.bo_handle = obj[0].handle;
	w.timeout_ns = 5000000000ll;
	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &w));
	check_color(fd, obj[0].handle, 0x44444444);
	close(fence);
	gem_close(fd, obj[0].handle);
	gem_close(fd, obj[1].handle);
	close(fd);
}

/*
 * The model's log of drawing rectangles (debugfs i915_sim/drawrects, one
 * a line, Gen3 lines prefixed with dr1=): its last @n lines must be
 * @rects, inclusive, with the DR1 and DR4 given.
 */
static void check_drawrects(int fd, const struct drm_clip_rect *rects,
			    unsigned int n, uint32_t dr1, uint32_t dr4)
{
	static char buf[65536];
	unsigned int x1, y1, x2, y2, i;
	int ox, oy, len;
	char *line, *end;
	uint32_t d1;

	len = igt_debugfs_read(fd, "../../i915_sim/drawrects", buf, sizeof(buf));
	if (len <= 0) {
		igt_info("no i915_sim/drawrects to check");
		return;
	}
	end = buf + len;
	while (end > buf && end[-1] == '\n')
		*--end = 0;
	for (i = n; i-- > 0;) {
		line = strrchr(buf, '\n');
		igt_assert(line);
		*line++ = 0;
		d1 = dr1;
		if (!strncmp(line, "dr1=", 4)) {
			d1 = strtoul(line + 4, &line, 16);
		}
		igt_assert_eq(sscanf(line, "%u %u %u %u %d %d", &x1, &y1, &x2,
				     &y2, &ox, &oy), 6);
		igt_assert_eq(d1, dr1);
		igt_assert_eq(x1, rects[i].x1);
		igt_assert_eq(y1, rects[i].y1);
		igt_assert_eq(x2, rects[i].x2 - 1);
		igt_assert_eq(y2, rects[i].y2 - 1);
		igt_assert_eq(ox, (int)(dr4 & 0xffff));
		igt_assert_eq(oy, (int)(dr4 >> 16));
	}
}

/* v1 with cliprects: the batch runs once per rectangle. */
static void subtest_cliprects(void)
{
	int fd = drm_open_driver();
	struct drm_i915_gem_relocation_entry r;
	struct drm_i915_gem_exec_object obj[2];
	struct drm_i915_gem_execbuffer eb;
	struct drm_clip_rect rects[3] = {
		{ 0, 0, 10, 10 }, { 5, 5, 20, 30 }, { 100, 200, 101, 201 },
	};
	uint32_t b[16];
	unsigned int n;

	memset(obj, 0, sizeof(obj));
	obj[0].handle = gem_create(fd, SIZE);
	obj[1].handle = gem_create(fd, 4096);
	n = fill_batch(b, 0, 0x55555555);
	gem_write(fd, obj[1].handle, 0, b, n * 4);
	reloc(&r, obj[0].handle, 16, -1, true);
	obj[1].relocs_ptr = to_user_pointer(&r);
	obj[1].relocation_count = 1;
	memset(&eb, 0, sizeof(eb));
	eb.buffers_ptr = to_user_pointer(obj);
	eb.buffer_count = 2;
	eb.num_cliprects = 3;
	eb.cliprects_ptr = to_user_pointer(rects);
	eb.DR1 = 0x12345678;
	eb.DR4 = 0x00030004;
	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER, &eb));
	igt_assert(obj[0].offset != 0);
	check_color(fd, obj[0].handle, 0x55555555);
	check_drawrects(fd, rects, 3, eb.DR1, eb.DR4);
	gem_close(fd, obj[0].handle);
	gem_close(fd, obj[1].handle);
	close(fd);
}

/*
 * Eviction: GEM_INIT narrows the GTT to 8 MiB, then 32 objects of 512 KiB
 * (twice the GTT) are filled in turn, twice, and checked; an exec bigger
 * than the GTT fails with -ENOSPC; a pinned object keeps its offset.
 */
static void subtest_evict(void)
{
	int fd = drm_open_driver();
	struct drm_i915_gem_init init = { .gtt_start = 1 << 20,
					  .gtt_end = 9 << 20 };
	struct drm_i915_gem_pin pin;
	struct drm_i915_gem_exec_object2 obj[3];
	struct drm_i915_gem_execbuffer2 eb;
	uint32_t h[32], pinned;
	unsigned int i, round;

	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_I915_GEM_INIT, &init));
	pinned = gem_create(fd, 1 << 20);
	memset(&pin, 0, sizeof(pin));
	pin.handle = pinned;
	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_I915_GEM_PIN, &pin));
	igt_info("pinned at 0x%llx", (unsigned long long)pin.offset);

	for (i = 0; i < 32; i++)
		h[i] = gem_create(fd, 512 << 10);
	for (round = 0; round < 2; round++)
		for (i = 0; i < 32; i++)
			fill(fd, h[i], round << 16 | i, 0);
	for (i = 0; i < 32; i++) {
		uint32_t v;

		gem_read(fd, h[i], 4, &v, 4);
		igt_assert_eq(v, 1 << 16 | i);
	}

	memset(obj, 0, sizeof(obj));
	obj[0].handle = gem_create(fd, 4 << 20);
	obj[1].handle = gem_create(fd, 4 << 20);
	obj[2].handle = gem_create(fd, 4096);
	memset(&eb, 0, sizeof(eb));
	eb.buffers_ptr = to_user_pointer(obj);
	eb.buffer_count = 3;
	igt_assert_err(__execbuf(fd, &eb), -ENOSPC);

	{
		uint64_t off = pin.offset;

		igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_I915_GEM_PIN, &pin));
		igt_assert_eq_u64(pin.offset, off);
	}
	for (i = 0; i < 3; i++)
		gem_close(fd, obj[i].handle);
	for (i = 0; i < 32; i++)
		gem_close(fd, h[i]);
	gem_close(fd, pinned);
	{
		struct drm_i915_gem_get_aperture ap;

		igt_assert_ok(__gem_get_aperture(fd, &ap));
		init.gtt_start = 0;
		init.gtt_end = ap.aper_size;
	}
	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_I915_GEM_INIT, &init));
	close(fd);
}

/* ENTERVT/LEAVEVT, THROTTLE around real work. */
static void subtest_vt(void)
{
	int fd = drm_open_driver();
	uint32_t dst = gem_create(fd, SIZE);

	fill(fd, dst, 0x66666666, 0);
	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_I915_GEM_THROTTLE, NULL));
	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_I915_GEM_LEAVEVT, NULL));
	check_color(fd, dst, 0x66666666);
	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_I915_GEM_ENTERVT, NULL));
	fill(fd, dst, 0x77777777, 0);
	check_color(fd, dst, 0x77777777);
	gem_close(fd, dst);
	close(fd);
}

/* The model's per-command delay; false if there is no such parameter. */
static bool set_cmd_delay(unsigned int us)
{
	FILE *f = fopen("/sys/module/i915/parameters/sim_cmd_delay_us", "w");
	bool ok;

	if (!f)
		return false;
	ok = fprintf(f, "%u\n", us) > 0;
	return fclose(f) == 0 && ok;
}

/* Slow commands: BUSY, WAIT timing out, THROTTLE. */
static void subtest_slow(void)
{
	int fd = drm_open_driver();
	struct drm_i915_gem_wait w;
	struct drm_i915_gem_busy busy;
	uint32_t dst = gem_create(fd, SIZE);
	double t0;

	if (!set_cmd_delay(20000))
		igt_skip("no sim_cmd_delay_us: not the model");
	fill(fd, dst, 0xabababab, 0);
	memset(&busy, 0, sizeof(busy));
	busy.handle = dst;
	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_I915_GEM_BUSY, &busy));
	igt_info("busy 0x%x", busy.busy);
	igt_assert(busy.busy != 0);
	memset(&w, 0, sizeof(w));
	w.bo_handle = dst;
	w.timeout_ns = 1000;
	igt_assert_err(igt_ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &w), -ETIME);
	igt_assert_eq(w.timeout_ns, 0);
	t0 = igt_now();
	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_I915_GEM_THROTTLE, NULL));
	igt_info("throttle %.3f s", igt_now() - t0);
	w.timeout_ns = 5000000000ll;
	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &w));
	igt_info("%lld ns left", (long long)w.timeout_ns);
	igt_assert(w.timeout_ns > 0);
	set_cmd_delay(0);
	check_color(fd, dst, 0xabababab);
	gem_close(fd, dst);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(slow),
	SUBTEST(fill_copy),
	SUBTEST(presumed),
	SUBTEST(softpin),
	SUBTEST(fences),
	SUBTEST(cliprects),
	SUBTEST(evict),
	SUBTEST(vt),
};

igt_main(tests)
