// SPDX-License-Identifier: GPL-2.0
/*
 * tests/demo.c - the demo client of `make demo` (scripts/demo.sh).
 *
 * Shows a person that the driver bound the simulated GPU like real
 * hardware: the PCI device as sysfs sees it, the DRM driver's
 * version, a few GETPARAMs and the aperture, then one GEM object created,
 * written (across a page boundary), read back with pread and through a CPU
 * mmap, shared by flink/open and closed.  Then the GPU draws a picture:
 * batches of XY_COLOR_BLT fills and XY_SRC_COPY_BLT copies through
 * relocated objects on the simulated blitter, read back with pread,
 * checked pixel by pixel against the same drawing done by the CPU, and
 * written as a PNG.  Prints what it does, writes the same report to
 * $BENCH_OUT/demo.txt and the picture to $BENCH_OUT/demo.png when
 * BENCH_OUT is set (the bench brings those files back to the host),
 * exits 0 when every step worked.
 *
 * Built by tests/Makefile like every test (build/demo), with the test
 * library for the batch builder, so it also runs in the suite.
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

#include "exec.h"

static FILE *report;
static int failures;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

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

/* the i915 primary node's minor: card<minor> in /dev/dri and sysfs */
static int card_minor;

static unsigned long sysfs_hex(const char *name)
{
	char path[256], buf[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/drm/card%d/device/%s",
		 card_minor, name);
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

	snprintf(path, sizeof(path), "/sys/class/drm/card%d/device%s",
		 card_minor, name);
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

/* ------------------------------------------------------------------ */
/* a PNG writer: RGB, 8 bits, zlib "stored" blocks (no compression) */

static uint32_t crc_table[256];

static void crc_init(void)
{
	uint32_t c, n, k;

	for (n = 0; n < 256; n++) {
		for (c = n, k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
		crc_table[n] = c;
	}
}

static uint32_t crc_update(uint32_t crc, const uint8_t *p, size_t len)
{
	while (len--)
		crc = crc_table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return crc;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

/* one chunk: length, type, data, CRC-32 of type and data */
static void png_chunk(FILE *f, const char *type, const uint8_t *data,
		      size_t len)
{
	uint8_t be[4];
	uint32_t crc;

	put_be32(be, len);
	fwrite(be, 1, 4, f);
	fwrite(type, 1, 4, f);
	fwrite(data, 1, len, f);
	crc = crc_update(0xffffffffu, (const uint8_t *)type, 4);
	crc = crc_update(crc, data, len) ^ 0xffffffffu;
	put_be32(be, crc);
	fwrite(be, 1, 4, f);
}

/*
 * Write @width x @height pixels of 32 bpp XRGB (little endian, @pitch
 * bytes a row) as an RGB PNG.  Returns 0 or -errno.
 */
static int write_png(const char *path, const uint8_t *px, int width,
		     int height, uint32_t pitch)
{
	static const uint8_t sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a,
					'\n' };
	size_t raw_len = (size_t)height * (1 + 3 * width);
	size_t nblocks = (raw_len + 65534) / 65535;
	size_t z_len = 2 + raw_len + 5 * nblocks + 4, i, zi, done;
	uint8_t *raw = malloc(raw_len), *z = malloc(z_len), ihdr[13];
	uint32_t a = 1, b = 0;
	int x, y, ret = 0;
	FILE *f;

	if (!raw || !z) {
		free(raw);
		free(z);
		return -ENOMEM;
	}
	/* the scanlines: filter type 0, then R G B */
	for (y = 0, i = 0; y < height; y++) {
		raw[i++] = 0;
		for (x = 0; x < width; x++) {
			const uint8_t *p = px + (size_t)y * pitch + 4 * x;

			raw[i++] = p[2];
			raw[i++] = p[1];
			raw[i++] = p[0];
		}
	}
	/* zlib: header, stored deflate blocks, Adler-32 */
	zi = 0;
	z[zi++] = 0x78;
	z[zi++] = 0x01;
	for (done = 0; done < raw_len; ) {
		size_t n = raw_len - done > 65535 ? 65535 : raw_len - done;

		z[zi++] = done + n == raw_len;	/* BFINAL, BTYPE 00 */
		z[zi++] = n & 0xff;
		z[zi++] = n >> 8;
		z[zi++] = ~n & 0xff;
		z[zi++] = (~n >> 8) & 0xff;
		memcpy(z + zi, raw + done, n);
		zi += n;
		done += n;
	}
	for (i = 0; i < raw_len; i++) {
		a = (a + raw[i]) % 65521;
		b = (b + a) % 65521;
	}
	put_be32(z + zi, b << 16 | a);
	zi += 4;

	put_be32(ihdr, width);
	put_be32(ihdr + 4, height);
	ihdr[8] = 8;	/* bits per channel */
	ihdr[9] = 2;	/* RGB */
	ihdr[10] = ihdr[11] = ihdr[12] = 0;

	crc_init();
	f = fopen(path, "wb");
	if (!f) {
		ret = -errno;
	} else {
		fwrite(sig, 1, sizeof(sig), f);
		png_chunk(f, "IHDR", ihdr, sizeof(ihdr));
		png_chunk(f, "IDAT", z, zi);
		png_chunk(f, "IEND", NULL, 0);
		if (fclose(f))
			ret = -errno;
	}
	free(raw);
	free(z);
	return ret;
}

/* ------------------------------------------------------------------ */
/* the picture, drawn by the blitter */

#define PIC_W		320
#define PIC_H		240
#define HORIZON		168
#define SPRITE		64

struct canvas {
	struct batch *b;
	struct surf s;
	struct ref ref;
	int fills, copies, execs, failed;
};

static uint32_t rgb(int r, int g, int bl)
{
	return 0xff000000u | (uint32_t)r << 16 | (uint32_t)g << 8 | bl;
}

static uint32_t mix(uint32_t c0, uint32_t c1, int i, int n)
{
	int r = ((c0 >> 16 & 0xff) * (n - i) + (c1 >> 16 & 0xff) * i) / n;
	int g = ((c0 >> 8 & 0xff) * (n - i) + (c1 >> 8 & 0xff) * i) / n;
	int bl = ((c0 & 0xff) * (n - i) + (c1 & 0xff) * i) / n;

	return rgb(r, g, bl);
}

/* submit what is queued when the batch is nearly full (or @now) */
static void flush_batch(struct canvas *c, int now)
{
	int ret;

	if (!c->b->len || (!now && c->b->len + 16 < BATCH_MAX_DW))
		return;
	ret = __batch_submit(c->b, 0);
	c->execs++;
	if (ret) {
		if (!c->failed++)
			say("  EXECBUFFER2 failed: %s\n", strerror(-ret));
	}
}

static void fill_on(struct canvas *c, struct surf *s, struct ref *r, int x,
		    int y, int w, int h, uint32_t color)
{
	if (w <= 0 || h <= 0)
		return;
	flush_batch(c, 0);
	emit_xy_fill(c->b, s, x, y, w, h, color);
	ref_fill(r, x, y, w, h, color);
	c->fills++;
}

static void fill(struct canvas *c, int x, int y, int w, int h, uint32_t color)
{
	fill_on(c, &c->s, &c->ref, x, y, w, h, color);
}

/* a 3x5 font for the letters we need, one row a byte (bit 2 = left) */
static const struct { char ch; uint8_t rows[5]; } font[] = {
	{ 'i', { 2, 0, 2, 2, 2 } },
	{ '9', { 7, 5, 7, 1, 7 } },
	{ '1', { 2, 6, 2, 2, 7 } },
	{ '5', { 7, 4, 7, 1, 7 } },
	{ 'G', { 7, 4, 5, 5, 7 } },
	{ 'E', { 7, 4, 6, 4, 7 } },
	{ 'M', { 5, 7, 7, 5, 5 } },
};

static void text(struct canvas *c, int x, int y, int scale, const char *str,
		 uint32_t color)
{
	for (; *str; str++, x += 4 * scale) {
		unsigned int i, row, col;

		for (i = 0; i < sizeof(font) / sizeof(font[0]); i++) {
			if (font[i].ch != *str)
				continue;
			for (row = 0; row < 5; row++)
				for (col = 0; col < 3; col++)
					if (font[i].rows[row] & (4 >> col))
						fill(c, x + col * scale,
						     y + row * scale, scale,
						     scale, color);
		}
	}
}

/* a house drawn in its own object over what it holds */
static void draw_house(struct canvas *c, struct surf *s, struct ref *r)
{
	int y;

	/* the roof: a triangle, one fill per row */
	for (y = 0; y < 24; y++)
		fill_on(c, s, r, 30 - y, 4 + y, 4 + 2 * y, 1,
			mix(rgb(0x9a, 0x2a, 0x1c), rgb(0x6a, 0x1a, 0x10), y,
			    24));
	fill_on(c, s, r, 10, 28, 44, 36, rgb(0xe8, 0xd8, 0xb0));	/* walls */
	fill_on(c, s, r, 27, 42, 10, 22, rgb(0x6b, 0x42, 0x26));	/* door */
	fill_on(c, s, r, 15, 34, 9, 9, rgb(0xff, 0xe0, 0x70));	/* windows */
	fill_on(c, s, r, 40, 34, 9, 9, rgb(0xff, 0xe0, 0x70));
	fill_on(c, s, r, 19, 34, 1, 9, rgb(0x50, 0x40, 0x30));
	fill_on(c, s, r, 44, 34, 1, 9, rgb(0x50, 0x40, 0x30));
	fill_on(c, s, r, 42, 8, 6, 14, rgb(0x70, 0x30, 0x20));	/* chimney */
}

/*
 * A house at (x, y): the canvas there is copied into the sprite object,
 * the house drawn on it, and the sprite copied back: three execs, the
 * objects passing between the blitter's reads and writes.
 */
static void house_at(struct canvas *c, struct surf *s, struct ref *r, int x,
		     int y)
{
	flush_batch(c, 1);
	emit_xy_copy(c->b, s, 0, 0, &c->s, x, y, SPRITE, SPRITE);
	ref_copy(r, 0, 0, &c->ref, x, y, SPRITE, SPRITE);
	c->copies++;
	flush_batch(c, 1);
	draw_house(c, s, r);
	flush_batch(c, 1);
	emit_xy_copy(c->b, &c->s, x, y, s, 0, 0, SPRITE, SPRITE);
	ref_copy(&c->ref, x, y, r, 0, 0, SPRITE, SPRITE);
	c->copies++;
	flush_batch(c, 1);
}

static void draw_picture(struct canvas *c, struct surf *sprite,
			 struct ref *sprite_ref)
{
	const int sun_x = 236, sun_y = HORIZON - 6, sun_r = 34;
	int y;

	/* the sky: a sunset gradient, one fill per row */
	for (y = 0; y < HORIZON; y++)
		fill(c, 0, y, PIC_W, 1,
		     mix(rgb(0x10, 0x18, 0x50), rgb(0xf8, 0xa0, 0x58), y,
			 HORIZON));
	/* the sun, row by row, setting behind the hills */
	for (y = -sun_r; y <= sun_r && sun_y + y < HORIZON; y++) {
		int half = 0;

		while ((half + 1) * (half + 1) + y * y <= sun_r * sun_r)
			half++;
		fill(c, sun_x - half, sun_y + y, 2 * half + 1, 1,
		     mix(rgb(0xff, 0xf0, 0x90), rgb(0xff, 0x80, 0x30),
			 y + sun_r, 2 * sun_r));
	}
	/* the hills */
	for (y = HORIZON; y < PIC_H; y++)
		fill(c, 0, y, PIC_W, 1,
		     mix(rgb(0x3c, 0x7a, 0x30), rgb(0x18, 0x40, 0x18),
			 y - HORIZON, PIC_H - HORIZON));
	/* two houses, each drawn in a sprite object and copied in */
	house_at(c, sprite, sprite_ref, 28, HORIZON - 40);
	house_at(c, sprite, sprite_ref, 112, HORIZON - 28);
	/* a path, the title, a frame */
	fill(c, 139, HORIZON + 36, 10, PIC_H - HORIZON - 36,
	     rgb(0xb0, 0x90, 0x60));
	text(c, 14, 12, 5, "i915", rgb(0xff, 0xff, 0xff));
	text(c, 14, 44, 3, "GEM", rgb(0xff, 0xd0, 0x80));
	fill(c, 0, 0, PIC_W, 2, rgb(0x20, 0x20, 0x20));
	fill(c, 0, PIC_H - 2, PIC_W, 2, rgb(0x20, 0x20, 0x20));
	fill(c, 0, 0, 2, PIC_H, rgb(0x20, 0x20, 0x20));
	fill(c, PIC_W - 2, 0, 2, PIC_H, rgb(0x20, 0x20, 0x20));
	flush_batch(c, 1);
}

static void show_blitter(int fd)
{
	const char *dir = getenv("BENCH_OUT");
	struct bo canvas_bo, sprite_bo;
	struct surf sprite;
	struct ref sprite_ref;
	struct canvas c = { 0 };
	uint8_t *px;
	size_t bad = 0, i;
	char path[512];
	double t0;

	c.b = batch_new(fd);
	bo_init(&canvas_bo, fd, PIC_W * 4 * PIC_H);
	bo_init(&sprite_bo, fd, SPRITE * 4 * SPRITE);
	c.s = (struct surf){ &canvas_bo, PIC_W * 4, 4, PIC_W, PIC_H };
	sprite = (struct surf){ &sprite_bo, SPRITE * 4, 4, SPRITE, SPRITE };
	ref_init(&c.ref, &c.s, canvas_bo.size);
	ref_init(&sprite_ref, &sprite, sprite_bo.size);

	t0 = igt_now();
	draw_picture(&c, &sprite, &sprite_ref);
	say("blitter:      %d XY_COLOR_BLT fills and %d XY_SRC_COPY_BLT copies in %d execbuffers (%.2f s)\n",
	    c.fills, c.copies, c.execs, igt_now() - t0);
	step(!c.failed, "EXECBUFFER2 ran every batch");
	say("objects:      canvas at GTT %#llx, house sprite at %#llx, batch at %#llx\n",
	    (unsigned long long)canvas_bo.offset,
	    (unsigned long long)sprite_bo.offset,
	    (unsigned long long)c.b->bo.offset);

	px = malloc(canvas_bo.size);
	if (px && !__gem_read(fd, canvas_bo.handle, 0, px, canvas_bo.size)) {
		for (i = 0; i < canvas_bo.size; i++)
			bad += px[i] != c.ref.px[i];
		step(!c.failed && !bad,
		     "PREAD of the canvas: every pixel equals the CPU's drawing");
		if (bad)
			say("  %zu of %zu bytes differ\n", bad,
			    (size_t)canvas_bo.size);
		if (dir && *dir) {
			int ret;

			snprintf(path, sizeof(path), "%s/demo.png", dir);
			ret = write_png(path, px, PIC_W, PIC_H, PIC_W * 4);
			step(!ret, "wrote the picture as demo.png");
		}
		say("demo.png:     %dx%d, drawn by the GPU's blitter: a sunset sky of %d one-pixel-high fills, a setting sun, green hills, two houses drawn in a sprite object and copied in and out, and \"i915 GEM\" in block letters\n",
		    PIC_W, PIC_H, HORIZON);
	} else {
		step(0, "PREAD of the canvas");
	}
	free(px);
	ref_fini(&c.ref);
	ref_fini(&sprite_ref);
	bo_fini(&canvas_bo, fd);
	bo_fini(&sprite_bo, fd);
	batch_free(c.b);
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
	fd = __drm_open_driver(false);
	if (fd < 0) {
		say("cannot open the i915 node in /dev/dri: %s\n",
		    strerror(-fd));
		return 1;
	}
	card_minor = drm_minor(fd);
	device = show_pci();
	show_version(fd);
	show_params(fd, device);
	show_gem(fd);
	show_blitter(fd);
	close(fd);
	say("demo: %s (%d failed step%s)\n", failures ? "FAILED" : "all steps worked",
	    failures, failures == 1 ? "" : "s");
	if (report)
		fclose(report);
	return failures ? 1 : 0;
}
