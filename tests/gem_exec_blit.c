// SPDX-License-Identifier: GPL-2.0
/*
 * gem_exec_blit: the 2D blitter through relocated objects, every byte of
 * every object compared with a CPU reference of the same blits.
 *
 *  - XY_COLOR_BLT fills and XY_SRC_COPY_BLT copies at 32, 16 and 8 bpp,
 *    read back by pread and through a CPU mmap after SET_DOMAIN(CPU);
 *  - the non-XY COLOR_BLT and SRC_COPY_BLT, and XY_SETUP_BLT before a
 *    blit (and its clip rectangle, with BR13 clip enable);
 *  - domain flushing both ways: a CPU write (pwrite, or a CPU mmap
 *    after SET_DOMAIN(CPU, CPU)) read by the GPU, a GPU write read by
 *    the CPU, and GPU to GPU through a chain of execs with no waits.
 */
#include <sys/mman.h>
#include <unistd.h>

#include "exec.h"

#define RENDER I915_GEM_DOMAIN_RENDER
#define CPU I915_GEM_DOMAIN_CPU

/* a surface with its object and its CPU reference */
struct image {
	struct bo bo;
	struct surf s;
	struct ref ref;
};

static void image_init(struct image *im, int fd, int width, int height,
		       int cpp, uint32_t pitch)
{
	uint64_t size = (uint64_t)pitch * height;

	bo_init(&im->bo, fd, size);
	im->s.bo = &im->bo;
	im->s.pitch = pitch;
	im->s.cpp = cpp;
	im->s.width = width;
	im->s.height = height;
	ref_init(&im->ref, &im->s, im->bo.size);
}

static void image_fini(struct image *im, int fd)
{
	ref_fini(&im->ref);
	bo_fini(&im->bo, fd);
}

static void fill(struct batch *b, struct image *im, int x, int y, int w,
		 int h, uint32_t color)
{
	emit_xy_fill(b, &im->s, x, y, w, h, color);
	ref_fill(&im->ref, x, y, w, h, color);
}

static void copy(struct batch *b, struct image *dst, int dx, int dy,
		 struct image *src, int sx, int sy, int w, int h)
{
	emit_xy_copy(b, &dst->s, dx, dy, &src->s, sx, sy, w, h);
	ref_copy(&dst->ref, dx, dy, &src->ref, sx, sy, w, h);
}

static void check(int fd, struct image *im, const char *what)
{
	check_surface(fd, im->bo.handle, &im->ref, "%s (pread)", what);
}

/* the same through a CPU mmap, after SET_DOMAIN(CPU) */
static void check_mmap(int fd, struct image *im, const char *what)
{
	void *map = gem_mmap__cpu(fd, im->bo.handle, 0, im->bo.size);

	gem_set_domain(fd, im->bo.handle, CPU, 0);
	check_pixels(map, &im->ref, "%s (CPU mmap)", what);
	munmap(map, im->bo.size);
}

/* a background, a few rectangles, edges and single pixels */
static void draw_scene(struct batch *b, struct image *im, uint32_t seed)
{
	int w = im->s.width, h = im->s.height;

	fill(b, im, 0, 0, w, h, pattern_dw(seed, 0));
	fill(b, im, 3, 5, w / 3, h / 2, pattern_dw(seed, 1));
	fill(b, im, w / 2, h / 4, w / 2, h - h / 4, pattern_dw(seed, 2));
	fill(b, im, w - 1, 0, 1, h, pattern_dw(seed, 3));
	fill(b, im, 0, h - 1, w, 1, pattern_dw(seed, 4));
	fill(b, im, 7, 9, 1, 1, pattern_dw(seed, 5));
	/* an empty rectangle draws nothing */
	fill(b, im, 10, 10, 0, 5, pattern_dw(seed, 6));
}

static void fill_test(int cpp, int width, int height, uint32_t pitch)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct image im;

	image_init(&im, fd, width, height, cpp, pitch);
	draw_scene(b, &im, cpp * 100);
	batch_submit(b);
	check(fd, &im, "after the fills");
	check_mmap(fd, &im, "after the fills");
	image_fini(&im, fd);
	batch_free(b);
	close(fd);
}

static void subtest_fill_32bpp(void)
{
	fill_test(4, 256, 64, 1024);
}

static void subtest_fill_16bpp(void)
{
	fill_test(2, 250, 61, 512);
}

static void subtest_fill_8bpp(void)
{
	fill_test(1, 301, 37, 320);
}

/* the pitch wider than the pixels: the bytes beyond stay untouched */
static void subtest_fill_pitch_padding(void)
{
	fill_test(4, 200, 50, 1024);
}

/* fill A, copy parts of it into B at other places, in one batch */
static void copy_test(int cpp, int width, int height, uint32_t pitch)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct image a, c;

	image_init(&a, fd, width, height, cpp, pitch);
	image_init(&c, fd, width, height, cpp, pitch);
	draw_scene(b, &a, cpp);
	fill(b, &c, 0, 0, width, height, pattern_dw(cpp, 99));
	batch_emit(b, MI_FLUSH);
	copy(b, &c, 1, 2, &a, 0, 0, width / 2, height / 2);
	copy(b, &c, width / 2, height / 2, &a, width / 4, height / 3,
	     width / 2, height / 2);
	copy(b, &c, width - 1, height - 1, &a, 5, 5, 1, 1);
	batch_submit(b);

	check(fd, &a, "source");
	check(fd, &c, "destination");
	check_mmap(fd, &a, "source");
	check_mmap(fd, &c, "destination");
	image_fini(&a, fd);
	image_fini(&c, fd);
	batch_free(b);
	close(fd);
}

static void subtest_copy_32bpp(void)
{
	copy_test(4, 256, 64, 1024);
}

static void subtest_copy_16bpp(void)
{
	copy_test(2, 250, 61, 512);
}

static void subtest_copy_8bpp(void)
{
	copy_test(1, 301, 37, 320);
}

/* a copy inside one object, source and destination apart */
static void subtest_copy_same_object(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct image a;

	image_init(&a, fd, 256, 64, 4, 1024);
	draw_scene(b, &a, 7);
	batch_emit(b, MI_FLUSH);
	copy(b, &a, 128, 0, &a, 0, 0, 100, 30);
	copy(b, &a, 0, 40, &a, 130, 2, 60, 20);
	batch_submit(b);
	check(fd, &a, "after copies within the object");
	image_fini(&a, fd);
	batch_free(b);
	close(fd);
}

/* 4 MiB surfaces: many pages, many GTT entries */
static void subtest_large(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct image a, c;

	image_init(&a, fd, 1024, 1024, 4, 4096);
	image_init(&c, fd, 1024, 1024, 4, 4096);
	draw_scene(b, &a, 3);
	batch_emit(b, MI_FLUSH);
	copy(b, &c, 0, 0, &a, 0, 0, 1024, 1024);
	copy(b, &c, 100, 900, &a, 500, 10, 400, 100);
	batch_submit(b);
	check(fd, &a, "4 MiB source");
	check(fd, &c, "4 MiB destination");
	image_fini(&a, fd);
	image_fini(&c, fd);
	batch_free(b);
	close(fd);
}

/* COLOR_BLT and SRC_COPY_BLT: widths in bytes, start addresses */
static void legacy_blt_test(int cpp)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct image a, c;

	image_init(&a, fd, 128, 40, cpp, 128 * cpp + 64);
	image_init(&c, fd, 128, 40, cpp, 128 * cpp);
	emit_color_blt(b, &a.s, 0, 0, 128, 40, pattern_dw(cpp, 1));
	ref_fill(&a.ref, 0, 0, 128, 40, pattern_dw(cpp, 1));
	emit_color_blt(b, &a.s, 17, 3, 50, 20, pattern_dw(cpp, 2));
	ref_fill(&a.ref, 17, 3, 50, 20, pattern_dw(cpp, 2));
	emit_color_blt(b, &c.s, 0, 0, 128, 40, pattern_dw(cpp, 3));
	ref_fill(&c.ref, 0, 0, 128, 40, pattern_dw(cpp, 3));
	batch_emit(b, MI_FLUSH);
	emit_src_copy_blt(b, &c.s, 60, 10, &a.s, 10, 0, 60, 30);
	ref_copy(&c.ref, 60, 10, &a.ref, 10, 0, 60, 30);
	batch_submit(b);
	check(fd, &a, "COLOR_BLT");
	check(fd, &c, "SRC_COPY_BLT");
	image_fini(&a, fd);
	image_fini(&c, fd);
	batch_free(b);
	close(fd);
}

static void subtest_color_src_copy_blt_32bpp(void)
{
	legacy_blt_test(4);
}

static void subtest_color_src_copy_blt_16bpp(void)
{
	legacy_blt_test(2);
}

static void subtest_color_src_copy_blt_8bpp(void)
{
	legacy_blt_test(1);
}

/*
 * XY_SETUP_BLT: BR13, clip rectangle (top-left inclusive, bottom-right
 * exclusive), destination, colours, pattern address.
 */
static void emit_xy_setup(struct batch *b, struct image *im, int cx1,
			  int cy1, int cx2, int cy2, uint32_t bg, uint32_t fg)
{
	batch_emit(b, XY_SETUP_BLT | (im->s.cpp == 4 ? BLT_WRITE_ARGB : 0));
	batch_emit(b, BR13_ROP(ROP_PATCOPY) | br13_depth(im->s.cpp) |
		      im->s.pitch);
	batch_emit(b, (uint32_t)cy1 << 16 | cx1);
	batch_emit(b, (uint32_t)cy2 << 16 | cx2);
	batch_reloc(b, &im->bo, 0, RENDER, RENDER);
	batch_emit(b, bg);
	batch_emit(b, fg);
	batch_emit(b, 0);	/* pattern address: no pattern */
}

/* XY_SETUP_BLT executes (and is skipped over) without disturbing blits */
static void subtest_xy_setup_blt(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct image a;

	image_init(&a, fd, 256, 64, 4, 1024);
	emit_xy_setup(b, &a, 0, 0, 256, 64, 0x11111111, 0x22222222);
	draw_scene(b, &a, 11);
	batch_submit(b);
	check(fd, &a, "fills after XY_SETUP_BLT");
	image_fini(&a, fd);
	batch_free(b);
	close(fd);
}

/*
 * BR13 clip enable: an XY_COLOR_BLT draws only inside the clip
 * rectangle of the last XY_SETUP_BLT; without the bit it ignores it.
 */
static void subtest_xy_clip(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct image a;

	image_init(&a, fd, 256, 64, 4, 1024);
	fill(b, &a, 0, 0, 256, 64, 0xff000000);
	emit_xy_setup(b, &a, 40, 10, 120, 50, 0, 0);
	/* clipped: only [40,120) x [10,50) of [20,200) x [0,30) */
	batch_emit(b, XY_COLOR_BLT | BLT_WRITE_ARGB);
	batch_emit(b, BR13_CLIP_ENABLE | BR13_ROP(ROP_PATCOPY) |
		      BR13_DEPTH_32 | a.s.pitch);
	batch_emit(b, 0 << 16 | 20);
	batch_emit(b, 30 << 16 | 200);
	batch_reloc(b, &a.bo, 0, RENDER, RENDER);
	batch_emit(b, 0xff00ff00);
	ref_fill(&a.ref, 40, 10, 80, 20, 0xff00ff00);
	/* not clipped */
	fill(b, &a, 0, 55, 256, 5, 0xff0000ff);
	batch_submit(b);
	check(fd, &a, "clipped fill");
	image_fini(&a, fd);
	batch_free(b);
	close(fd);
}

/* a CPU write by pwrite, read by the GPU (copy) */
static void subtest_cpu_pwrite_gpu_read(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct image a, c;

	image_init(&a, fd, 256, 64, 4, 1024);
	image_init(&c, fd, 256, 64, 4, 1024);
	/* the GPU first, so that the CPU write must wait and flush */
	fill(b, &a, 0, 0, 256, 64, 0x12345678);
	batch_submit(b);
	igt_fill_pattern(a.ref.px, a.ref.size, 5);
	gem_write(fd, a.bo.handle, 0, a.ref.px, a.ref.size);
	copy(b, &c, 0, 0, &a, 0, 0, 256, 64);
	batch_submit(b);
	check(fd, &c, "GPU copy of pwritten data");
	image_fini(&a, fd);
	image_fini(&c, fd);
	batch_free(b);
	close(fd);
}

/* a CPU write through a CPU mmap after SET_DOMAIN(CPU, CPU), read by the GPU */
static void subtest_cpu_mmap_write_gpu_read(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct image a, c;
	uint8_t *map;
	int round;

	image_init(&a, fd, 256, 64, 4, 1024);
	image_init(&c, fd, 256, 64, 4, 1024);
	map = gem_mmap__cpu(fd, a.bo.handle, 0, a.bo.size);
	for (round = 0; round < 3; round++) {
		/* the GPU wrote it last: SET_DOMAIN waits, then the CPU writes */
		fill(b, &a, 0, 0, 256, 64, pattern_dw(round, 77));
		batch_submit(b);
		gem_set_domain(fd, a.bo.handle, CPU, CPU);
		igt_fill_pattern(a.ref.px, a.ref.size, 20 + round);
		memcpy(map, a.ref.px, a.ref.size);
		/* the execbuffer flushes the CPU caches for the blitter */
		copy(b, &c, 0, 0, &a, 0, 0, 256, 64);
		batch_submit(b);
		check(fd, &c, "GPU copy of CPU-mmap-written data");
	}
	munmap(map, a.bo.size);
	image_fini(&a, fd);
	image_fini(&c, fd);
	batch_free(b);
	close(fd);
}

/* a GPU write read by the CPU, over and over through the same mapping */
static void subtest_gpu_write_cpu_read(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct image a;
	uint8_t *map;
	int round;

	image_init(&a, fd, 256, 64, 4, 1024);
	map = gem_mmap__cpu(fd, a.bo.handle, 0, a.bo.size);
	for (round = 0; round < 4; round++) {
		draw_scene(b, &a, 40 + round);
		batch_submit(b);
		gem_set_domain(fd, a.bo.handle, CPU, 0);
		check_pixels(map, &a.ref, "round %d (CPU mmap)", round);
		check(fd, &a, "round");
	}
	munmap(map, a.bo.size);
	image_fini(&a, fd);
	batch_free(b);
	close(fd);
}

/* GPU to GPU: A -> B -> C -> A in separate execs, no waiting between */
static void subtest_gpu_chain(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct image im[3];
	int i;

	for (i = 0; i < 3; i++)
		image_init(&im[i], fd, 256, 64, 4, 1024);
	draw_scene(b, &im[0], 50);
	batch_submit(b);
	copy(b, &im[1], 0, 0, &im[0], 0, 0, 256, 64);
	batch_submit(b);
	copy(b, &im[2], 10, 10, &im[1], 0, 0, 200, 40);
	batch_submit(b);
	copy(b, &im[0], 128, 32, &im[2], 0, 0, 128, 32);
	batch_submit(b);
	fill(b, &im[1], 0, 0, 16, 16, 0xdeadbeef);
	batch_submit(b);
	for (i = 0; i < 3; i++)
		check(fd, &im[i], "chain");
	for (i = 0; i < 3; i++)
		image_fini(&im[i], fd);
	batch_free(b);
	close(fd);
}

/* the ROP3 result for one bit of pattern, source and destination */
static uint32_t rop3(uint8_t rop, uint32_t p, uint32_t src, uint32_t d)
{
	uint32_t r = 0;
	int bit;

	for (bit = 0; bit < 32; bit++) {
		int idx = (p >> bit & 1) << 2 | (src >> bit & 1) << 1 |
			  (d >> bit & 1);

		r |= (uint32_t)(rop >> idx & 1) << bit;
	}
	return r;
}

/*
 * Raster operations beyond fill and copy: for XY_COLOR_BLT those that
 * depend only on the colour and the destination, for XY_SRC_COPY_BLT
 * those that depend only on the source and the destination.
 */
static void subtest_rops(void)
{
	static const uint8_t color_rops[] = {
		0x00, 0xff, 0x55, 0x5a, 0xa0, 0xfa, 0x0f, 0xaa, 0xf5,
	};
	static const uint8_t copy_rops[] = {
		0x66, 0x88, 0xee, 0x33, 0x99, 0x44, 0xbb,
	};
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct image dst, src;
	size_t i;
	int x, y;

	image_init(&dst, fd, 64, 16, 4, 256);
	image_init(&src, fd, 64, 16, 4, 256);
	igt_fill_pattern(src.ref.px, src.ref.size, 90);
	gem_write(fd, src.bo.handle, 0, src.ref.px, src.ref.size);
	for (i = 0; i < ARRAY_SIZE(color_rops) + ARRAY_SIZE(copy_rops); i++) {
		bool color = i < ARRAY_SIZE(color_rops);
		uint8_t rop = color ? color_rops[i] :
				      copy_rops[i - ARRAY_SIZE(color_rops)];
		uint32_t c = pattern_dw(91, i);

		igt_fill_pattern(dst.ref.px, dst.ref.size, 92 + i);
		gem_write(fd, dst.bo.handle, 0, dst.ref.px, dst.ref.size);
		batch_emit(b, (color ? XY_COLOR_BLT : XY_SRC_COPY_BLT) |
			      BLT_WRITE_ARGB);
		batch_emit(b, BR13_ROP(rop) | BR13_DEPTH_32 | dst.s.pitch);
		batch_emit(b, 2 << 16 | 3);
		batch_emit(b, 14 << 16 | 60);
		batch_reloc(b, &dst.bo, 0, RENDER, RENDER);
		if (color) {
			batch_emit(b, c);
		} else {
			batch_emit(b, 1 << 16 | 1);
			batch_emit(b, src.s.pitch);
			batch_reloc(b, &src.bo, 0, RENDER, 0);
		}
		batch_submit(b);
		for (y = 2; y < 14; y++) {
			for (x = 3; x < 60; x++) {
				uint32_t *d = (uint32_t *)(dst.ref.px +
							   y * 256 + 4 * x);
				uint32_t sv = ref_pixel(&src.ref, src.ref.px,
							x - 2, y - 1);

				*d = color ? rop3(rop, c, 0, *d) :
					     rop3(rop, 0, sv, *d);
			}
		}
		check_surface(fd, dst.bo.handle, &dst.ref, "ROP %#04x", rop);
	}
	image_fini(&dst, fd);
	image_fini(&src, fd);
	batch_free(b);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(fill_32bpp),
	SUBTEST(fill_16bpp),
	SUBTEST(fill_8bpp),
	SUBTEST(fill_pitch_padding),
	SUBTEST(copy_32bpp),
	SUBTEST(copy_16bpp),
	SUBTEST(copy_8bpp),
	SUBTEST(copy_same_object),
	SUBTEST(large),
	SUBTEST(color_src_copy_blt_32bpp),
	SUBTEST(color_src_copy_blt_16bpp),
	SUBTEST(color_src_copy_blt_8bpp),
	SUBTEST(xy_setup_blt),
	SUBTEST(xy_clip),
	SUBTEST(cpu_pwrite_gpu_read),
	SUBTEST(cpu_mmap_write_gpu_read),
	SUBTEST(gpu_write_cpu_read),
	SUBTEST(gpu_chain),
	SUBTEST(rops),
};

igt_main(tests)
