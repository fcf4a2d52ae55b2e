// SPDX-License-Identifier: GPL-2.0
/*
 * Execution helpers: execbuffer and friends, a batch builder, the blits
 * and their CPU reference, and the software model's knobs.
 */
#include <ctype.h>
#include <inttypes.h>
#include <fcntl.h>
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/sync_file.h>

#include "exec.h"

/* ------------------------------------------------------------------ */
/* the device */

/* the number after "@key: " in i915_capabilities, or -1 */
static long long capability(int fd, const char *key)
{
	char buf[4096];
	long long v;
	int ret;

	ret = igt_debugfs_read(fd, "i915_capabilities", buf, sizeof(buf));
	igt_assert_f(ret > 0, "reading i915_capabilities: %s",
		     igt_errname(ret));
	return igt_key_value(buf, key, &v) ? -1 : v;
}

int gem_gen(int fd)
{
	long long gen = capability(fd, "gen");

	if (gen != 3 && gen != 4)
		igt_skip("not a Gen3/Gen4 GPU (gen %lld)", gen);
	return gen;
}

uint64_t gem_gtt_total(int fd)
{
	long long total = capability(fd, "gtt_total");

	igt_assert_f(total > 0, "no gtt_total in i915_capabilities");
	return total;
}

uint64_t gem_gtt_stolen(int fd)
{
	long long stolen = capability(fd, "stolen_size");

	igt_assert_f(stolen >= 0, "no stolen_size in i915_capabilities");
	return stolen;
}

static void read_gtt(int fd, char *buf, size_t len)
{
	int ret = igt_debugfs_read(fd, "i915_gtt", buf, len);

	igt_assert_f(ret > 0, "reading i915_gtt: %s", igt_errname(ret));
}

void gem_gtt_managed(int fd, uint64_t *start, uint64_t *end)
{
	static char buf[1 << 16];
	unsigned long long s, e;
	char *p;

	read_gtt(fd, buf, sizeof(buf));
	p = strstr(buf, "managed:");
	igt_assert_f(p && sscanf(p, "managed: %llx-%llx", &s, &e) == 2,
		     "no \"managed: start-end\" in i915_gtt");
	*start = s;
	*end = e;
}

uint64_t gem_gtt_used(int fd)
{
	static char buf[1 << 20];
	unsigned long long used;
	char *p;

	read_gtt(fd, buf, sizeof(buf));
	p = strstr(buf, "total:");
	igt_assert_f(p, "no drm_mm summary (\"total: ..\") in i915_gtt");
	p = strstr(p, "used");
	igt_assert_f(p && sscanf(p, "used %llu", &used) == 1,
		     "no \"used N\" in i915_gtt");
	return used;
}

/* ------------------------------------------------------------------ */
/* execbuffer */

int __gem_execbuf(int fd, struct drm_i915_gem_execbuffer2 *eb)
{
	return igt_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2, eb);
}

void gem_execbuf(int fd, struct drm_i915_gem_execbuffer2 *eb)
{
	igt_assert_ok(__gem_execbuf(fd, eb));
}

int __gem_execbuf_wr(int fd, struct drm_i915_gem_execbuffer2 *eb)
{
	return igt_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER2_WR, eb);
}

int __gem_execbuf_v1(int fd, struct drm_i915_gem_execbuffer *eb)
{
	return igt_ioctl(fd, DRM_IOCTL_I915_GEM_EXECBUFFER, eb);
}

/* ------------------------------------------------------------------ */
/* waiting */

int __gem_busy(int fd, uint32_t handle, uint32_t *busy)
{
	uint32_t b = 0xdeadbeef;
	int ret = __gem_handle_ioctl(fd, DRM_IOCTL_I915_GEM_BUSY, handle, &b);

	if (!ret)
		*busy = b;
	return ret;
}

uint32_t gem_busy(int fd, uint32_t handle)
{
	uint32_t busy = 0;

	igt_assert_ok(__gem_busy(fd, handle, &busy));
	return busy;
}

int __gem_wait(int fd, uint32_t handle, int64_t *timeout_ns)
{
	struct drm_i915_gem_wait w = {
		.bo_handle = handle,
		.timeout_ns = *timeout_ns,
	};
	int ret = igt_ioctl(fd, DRM_IOCTL_I915_GEM_WAIT, &w);

	*timeout_ns = w.timeout_ns;
	return ret;
}

void gem_sync(int fd, uint32_t handle)
{
	int64_t forever = -1;

	igt_assert_ok(__gem_wait(fd, handle, &forever));
}

int __gem_throttle(int fd)
{
	return igt_ioctl(fd, DRM_IOCTL_I915_GEM_THROTTLE, NULL);
}

/* ------------------------------------------------------------------ */
/* root / master only */

int __gem_pin(int fd, uint32_t handle, uint64_t alignment, uint64_t *offset)
{
	struct drm_i915_gem_pin p = {
		.handle = handle,
		.alignment = alignment,
		.offset = ~0ull,
	};
	int ret = igt_ioctl(fd, DRM_IOCTL_I915_GEM_PIN, &p);

	if (!ret && offset)
		*offset = p.offset;
	return ret;
}

uint64_t gem_pin(int fd, uint32_t handle, uint64_t alignment)
{
	uint64_t offset = ~0ull;

	igt_assert_ok(__gem_pin(fd, handle, alignment, &offset));
	return offset;
}

int __gem_unpin(int fd, uint32_t handle)
{
	return __gem_handle_ioctl(fd, DRM_IOCTL_I915_GEM_UNPIN, handle, NULL);
}

void gem_unpin(int fd, uint32_t handle)
{
	igt_assert_ok(__gem_unpin(fd, handle));
}

int __gem_init(int fd, uint64_t start, uint64_t end)
{
	struct drm_i915_gem_init i = { .gtt_start = start, .gtt_end = end };

	return igt_ioctl(fd, DRM_IOCTL_I915_GEM_INIT, &i);
}

int __gem_entervt(int fd)
{
	return igt_ioctl(fd, DRM_IOCTL_I915_GEM_ENTERVT, NULL);
}

int __gem_leavevt(int fd)
{
	return igt_ioctl(fd, DRM_IOCTL_I915_GEM_LEAVEVT, NULL);
}

/*
 * The whole GTT goes back to GEM when the process that narrowed it exits
 * (not when a child it forked exits: that would undo it under its
 * parent).  The module parameters below work the same way.
 */
static uint64_t restore_total;
static pid_t restore_total_owner;

static int restore_gtt(void)
{
	int fd = __drm_open_driver(false), ret;

	if (fd < 0)
		return fd;
	ret = __gem_init(fd, 0, restore_total);
	close(fd);
	return ret;
}

static void restore_gtt_at_exit(void)
{
	int fd;

	if (getpid() != restore_total_owner || !restore_total ||
	    !restore_gtt())
		return;
	/*
	 * A failed subtest may still hold pinned objects (GEM_INIT says
	 * EBUSY) or the master: the process is ending, so let go of every
	 * file descriptor and try again.
	 */
	for (fd = 3; fd < 1024; fd++)
		close(fd);
	if (restore_gtt())
		fprintf(stderr, "  could not give GEM the whole GTT back\n");
}

void gem_restore_gtt(int fd)
{
	igt_assert_ok(__gem_init(fd, 0, gem_gtt_total(fd)));
}

void gem_narrow_gtt(int fd, uint64_t start, uint64_t end)
{
	if (!restore_total) {
		restore_total = gem_gtt_total(fd);
		restore_total_owner = getpid();
		atexit(restore_gtt_at_exit);
	}
	igt_assert_ok(__gem_init(fd, start, end));
}

/* ------------------------------------------------------------------ */
/* objects and batches */

uint32_t br13_depth(int cpp)
{
	switch (cpp) {
	case 1:
		return BR13_DEPTH_8;
	case 2:
		return BR13_DEPTH_565;
	case 4:
		return BR13_DEPTH_32;
	}
	igt_fail("no blitter depth for %d bytes per pixel", cpp);
}

void bo_init(struct bo *bo, int fd, uint64_t size)
{
	bo->handle = gem_create(fd, size);
	bo->size = (size + PAGE_SZ - 1) & ~(PAGE_SZ - 1);
	bo->offset = 0;
	bo->flags = 0;
}

void bo_fini(struct bo *bo, int fd)
{
	gem_close(fd, bo->handle);
	bo->handle = 0;
}

struct batch *batch_new(int fd)
{
	struct batch *b = calloc(1, sizeof(*b));

	igt_assert(b);
	b->fd = fd;
	b->gen = gem_gen(fd);
	bo_init(&b->bo, fd, sizeof(b->dw));
	return b;
}

void batch_free(struct batch *b)
{
	bo_fini(&b->bo, b->fd);
	free(b);
}

uint32_t batch_offset(const struct batch *b)
{
	return b->len * 4;
}

void batch_emit(struct batch *b, uint32_t dw)
{
	igt_assert_f(b->len < BATCH_MAX_DW, "batch full");
	b->dw[b->len++] = dw;
}

void batch_add(struct batch *b, struct bo *target)
{
	unsigned int i;

	if (target == &b->bo)
		return;
	for (i = 0; i < b->nobj; i++)
		if (b->obj[i] == target)
			return;
	igt_assert_f(b->nobj < BATCH_MAX_OBJS, "too many objects");
	b->obj[b->nobj++] = target;
}

void batch_reloc(struct batch *b, struct bo *target, uint32_t delta,
		 uint32_t read_domains, uint32_t write_domain)
{
	struct drm_i915_gem_relocation_entry *r;

	igt_assert_f(b->nreloc < BATCH_MAX_RELOCS, "too many relocations");
	batch_add(b, target);
	r = &b->reloc[b->nreloc++];
	r->target_handle = target->handle;
	r->delta = delta;
	r->offset = batch_offset(b);
	r->presumed_offset = target->offset;
	r->read_domains = read_domains;
	r->write_domain = write_domain;
	batch_emit(b, (uint32_t)(target->offset + delta));
}

void batch_end(struct batch *b)
{
	batch_emit(b, MI_BATCH_BUFFER_END);
	if (b->len & 1)
		batch_emit(b, MI_NOOP);
}

uint32_t bbe_create(int fd, uint32_t offset)
{
	const uint32_t bbe[2] = { MI_BATCH_BUFFER_END, MI_NOOP };
	uint32_t handle = gem_create(fd, PAGE_SZ);

	gem_write(fd, handle, offset, bbe, sizeof(bbe));
	return handle;
}

static void batch_reset(struct batch *b)
{
	b->len = 0;
	b->nreloc = 0;
	b->nobj = 0;
}

int __batch_submit(struct batch *b, uint64_t flags)
{
	return __batch_submit_wr(b, flags, NULL);
}

int __batch_submit_wr(struct batch *b, uint64_t flags, uint64_t *rsvd2)
{
	struct drm_i915_gem_execbuffer2 eb = { 0 };
	unsigned int i, n = b->nobj;
	int ret;

	batch_end(b);
	gem_write(b->fd, b->bo.handle, 0, b->dw, batch_offset(b));

	memset(b->exec, 0, sizeof(b->exec));
	for (i = 0; i < n; i++) {
		b->exec[i].handle = b->obj[i]->handle;
		b->exec[i].offset = b->obj[i]->offset;
		b->exec[i].flags = b->obj[i]->flags;
	}
	b->exec[n].handle = b->bo.handle;
	b->exec[n].offset = b->bo.offset;
	b->exec[n].relocation_count = b->nreloc;
	b->exec[n].relocs_ptr = to_user_pointer(b->reloc);

	eb.buffers_ptr = to_user_pointer(b->exec);
	eb.buffer_count = n + 1;
	eb.batch_len = batch_offset(b);
	eb.flags = flags;
	if (rsvd2) {
		eb.rsvd2 = *rsvd2;
		ret = __gem_execbuf_wr(b->fd, &eb);
		*rsvd2 = eb.rsvd2;
	} else {
		ret = __gem_execbuf(b->fd, &eb);
	}
	if (!ret) {
		for (i = 0; i < n; i++)
			b->obj[i]->offset = b->exec[i].offset;
		b->bo.offset = b->exec[n].offset;
	}
	batch_reset(b);
	return ret;
}

int batch_submit_fence(struct batch *b)
{
	uint64_t rsvd2 = 0;

	igt_assert_ok(__batch_submit_wr(b, I915_EXEC_FENCE_OUT, &rsvd2));
	igt_assert_lte(0, (int)(rsvd2 >> 32));
	return rsvd2 >> 32;
}

int sync_file_status(int sync_fd)
{
	struct sync_file_info info;

	memset(&info, 0, sizeof(info));
	igt_assert_ok(igt_ioctl(sync_fd, SYNC_IOC_FILE_INFO, &info));
	return info.status;
}

int __batch_submit_v1(struct batch *b, const struct drm_clip_rect *rects,
		      unsigned int nrects, uint32_t dr1, uint32_t dr4)
{
	struct drm_i915_gem_exec_object exec[BATCH_MAX_OBJS + 1];
	struct drm_i915_gem_execbuffer eb = { 0 };
	unsigned int i, n = b->nobj;
	int ret;

	batch_end(b);
	gem_write(b->fd, b->bo.handle, 0, b->dw, batch_offset(b));

	memset(exec, 0, sizeof(exec));
	for (i = 0; i < n; i++) {
		exec[i].handle = b->obj[i]->handle;
		exec[i].offset = b->obj[i]->offset;
	}
	exec[n].handle = b->bo.handle;
	exec[n].offset = b->bo.offset;
	exec[n].relocation_count = b->nreloc;
	exec[n].relocs_ptr = to_user_pointer(b->reloc);

	eb.buffers_ptr = to_user_pointer(exec);
	eb.buffer_count = n + 1;
	eb.batch_len = batch_offset(b);
	eb.DR1 = dr1;
	eb.DR4 = dr4;
	eb.num_cliprects = nrects;
	eb.cliprects_ptr = to_user_pointer(rects);
	ret = __gem_execbuf_v1(b->fd, &eb);
	if (!ret) {
		for (i = 0; i < n; i++)
			b->obj[i]->offset = exec[i].offset;
		b->bo.offset = exec[n].offset;
	}
	batch_reset(b);
	return ret;
}

void batch_submit(struct batch *b)
{
	igt_assert_ok(__batch_submit(b, 0));
}

void batch_submit_sync(struct batch *b)
{
	batch_submit(b);
	gem_sync(b->fd, b->bo.handle);
}

static const struct mi_rule mi_table[] = {
	{ "MI_NOOP", 0x00, { 1, 1 }, { false, false } },
	{ "MI_USER_INTERRUPT", 0x02, { 1, 1 }, { false, false } },
	{ "MI_WAIT_FOR_EVENT", 0x03, { 1, 1 }, { false, false } },
	{ "MI_FLUSH", 0x04, { 1, 1 }, { false, false } },
	{ "MI_ARB_CHECK", 0x05, { 1, 1 }, { false, false } },
	{ "MI_REPORT_HEAD", 0x07, { 1, 1 }, { false, false } },
	{ "MI_ARB_ON_OFF", 0x08, { 1, 1 }, { false, false } },
	{ "MI_BATCH_BUFFER_END", 0x0a, { 1, 1 }, { false, false } },
	{ "MI_SUSPEND_FLUSH", 0x0b, { 1, 1 }, { false, false } },
	{ "MI_OVERLAY_FLIP", 0x11, { 2, 2 }, { false, false } },
	{ "MI_LOAD_SCAN_LINES_INCL", 0x12, { 2, 2 }, { false, false } },
	{ "MI_LOAD_SCAN_LINES_EXCL", 0x13, { 2, 2 }, { false, false } },
	{ "MI_DISPLAY_FLIP", 0x14, { 3, 4 }, { false, false } },
	{ "MI_SET_CONTEXT", 0x18, { 2, 2 }, { true, true } },
	{ "MI_STORE_DWORD_IMM", 0x20, { 3, 4 }, { false, true } },
	{ "MI_STORE_DWORD_INDEX", 0x21, { 3, 3 }, { true, true } },
	{ "MI_LOAD_REGISTER_IMM", 0x22, { 3, 3 }, { true, true } },
	{ "MI_STORE_REGISTER_MEM", 0x24, { 3, 3 }, { true, true } },
	{ "MI_BATCH_BUFFER_START", 0x31, { 2, 2 }, { false, false } },
};

const struct mi_rule *mi_rule(int gen, uint32_t op)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mi_table); i++)
		if (mi_table[i].op == op && mi_table[i].len[gen >= 4])
			return &mi_table[i];
	return NULL;
}

const struct mi_rule *mi_rules(unsigned int *n)
{
	*n = ARRAY_SIZE(mi_table);
	return mi_table;
}

int gem_set_master(int fd)
{
	return igt_ioctl(fd, DRM_IOCTL_SET_MASTER, NULL);
}

/* ------------------------------------------------------------------ */
/* commands */

unsigned int cs_store_dword_imm(int gen, uint32_t *cs, uint32_t addr,
				uint32_t value, uint32_t *addr_at)
{
	unsigned int n = 0;

	if (gen >= 4) {
		cs[n++] = MI_STORE_DWORD_IMM_GEN4 | MI_MEM_VIRTUAL;
		cs[n++] = 0;
	} else {
		cs[n++] = MI_STORE_DWORD_IMM_GEN3 | MI_MEM_VIRTUAL;
	}
	*addr_at = n;
	cs[n++] = addr;
	cs[n++] = value;
	return n;
}

unsigned int cs_store_dword(int gen, uint32_t *cs, uint32_t addr,
			    uint32_t value, uint32_t *addr_at)
{
	unsigned int n = 0;

	if (gen < 4)
		return cs_store_dword_imm(gen, cs, addr, value, addr_at);
	/* one 32 bpp pixel: the blitter writes exactly that dword */
	cs[n++] = XY_COLOR_BLT | BLT_WRITE_ARGB;
	cs[n++] = BR13_DEPTH_32 | BR13_ROP(ROP_PATCOPY) | sizeof(uint32_t);
	cs[n++] = 0;				/* x1, y1 */
	cs[n++] = 1u << 16 | 1;			/* x2, y2 */
	*addr_at = n;
	cs[n++] = addr;
	cs[n++] = value;
	return n;
}

unsigned int cs_end(uint32_t *cs, unsigned int n)
{
	cs[n++] = MI_BATCH_BUFFER_END;
	if (n & 1)
		cs[n++] = MI_NOOP;
	return n;
}

void emit_store_dword(struct batch *b, struct bo *target, uint32_t offset,
		      uint32_t value)
{
	const uint32_t dom = I915_GEM_DOMAIN_INSTRUCTION;
	uint32_t cs[CS_STORE_DWORD_MAX], addr_at, i;
	unsigned int n = cs_store_dword(b->gen, cs, 0, value, &addr_at);

	for (i = 0; i < n; i++) {
		if (i == addr_at)
			batch_reloc(b, target, offset, dom, dom);
		else
			batch_emit(b, cs[i]);
	}
}

void emit_store_dword_imm(struct batch *b, struct bo *target,
			  uint32_t offset, uint32_t value)
{
	const uint32_t dom = I915_GEM_DOMAIN_INSTRUCTION;
	uint32_t cs[CS_STORE_DWORD_MAX], addr_at, i;
	unsigned int n = cs_store_dword_imm(b->gen, cs, 0, value, &addr_at);

	for (i = 0; i < n; i++) {
		if (i == addr_at)
			batch_reloc(b, target, offset, dom, dom);
		else
			batch_emit(b, cs[i]);
	}
}

uint64_t store_dword_imm_flags(int fd)
{
	if (gem_gen(fd) < 4)
		return 0;
	igt_assert_ok(gem_set_master(fd));
	return I915_EXEC_SECURE;
}

void emit_batch_start(struct batch *b, struct bo *target, uint32_t offset)
{
	if (b->gen >= 4) {
		batch_emit(b, MI_BATCH_BUFFER_START | MI_BATCH_GTT |
			      MI_BATCH_NON_SECURE_I965);
		batch_reloc(b, target, offset, I915_GEM_DOMAIN_COMMAND, 0);
	} else {
		batch_emit(b, MI_BATCH_BUFFER_START | MI_BATCH_GTT);
		batch_reloc(b, target, offset | MI_BATCH_NON_SECURE,
			    I915_GEM_DOMAIN_COMMAND, 0);
	}
}

static uint32_t blt_write_bits(int cpp)
{
	return cpp == 4 ? BLT_WRITE_ARGB : 0;
}

static uint32_t xy(int x, int y)
{
	return (uint32_t)y << 16 | (uint16_t)x;
}

/* the first two dwords of every blit: the command, then BR13 */
static void emit_blt_header(struct batch *b, uint32_t cmd, uint8_t rop,
			    const struct surf *dst)
{
	batch_emit(b, cmd | blt_write_bits(dst->cpp));
	batch_emit(b, BR13_ROP(rop) | br13_depth(dst->cpp) | dst->pitch);
}

void emit_xy_fill(struct batch *b, const struct surf *dst, int x, int y,
		  int w, int h, uint32_t color)
{
	const uint32_t dom = I915_GEM_DOMAIN_RENDER;

	emit_blt_header(b, XY_COLOR_BLT, ROP_PATCOPY, dst);
	batch_emit(b, xy(x, y));
	batch_emit(b, xy(x + w, y + h));
	batch_reloc(b, dst->bo, 0, dom, dom);
	batch_emit(b, color);
}

void emit_xy_copy(struct batch *b, const struct surf *dst, int dx, int dy,
		  const struct surf *src, int sx, int sy, int w, int h)
{
	const uint32_t dom = I915_GEM_DOMAIN_RENDER;

	igt_assert_eq(dst->cpp, src->cpp);
	emit_blt_header(b, XY_SRC_COPY_BLT, ROP_SRCCOPY, dst);
	batch_emit(b, xy(dx, dy));
	batch_emit(b, xy(dx + w, dy + h));
	batch_reloc(b, dst->bo, 0, dom, dom);
	batch_emit(b, xy(sx, sy));
	batch_emit(b, src->pitch);
	batch_reloc(b, src->bo, 0, dom, 0);
}

void emit_color_blt(struct batch *b, const struct surf *dst, int x, int y,
		    int w, int h, uint32_t color)
{
	const uint32_t dom = I915_GEM_DOMAIN_RENDER;

	emit_blt_header(b, COLOR_BLT, ROP_PATCOPY, dst);
	batch_emit(b, (uint32_t)h << 16 | (uint32_t)(w * dst->cpp));
	batch_reloc(b, dst->bo, y * dst->pitch + x * dst->cpp, dom, dom);
	batch_emit(b, color);
}

void emit_src_copy_blt(struct batch *b, const struct surf *dst, int dx,
		       int dy, const struct surf *src, int sx, int sy, int w,
		       int h)
{
	const uint32_t dom = I915_GEM_DOMAIN_RENDER;

	igt_assert_eq(dst->cpp, src->cpp);
	emit_blt_header(b, SRC_COPY_BLT, ROP_SRCCOPY, dst);
	batch_emit(b, (uint32_t)h << 16 | (uint32_t)(w * dst->cpp));
	batch_reloc(b, dst->bo, dy * dst->pitch + dx * dst->cpp, dom, dom);
	batch_emit(b, src->pitch);
	batch_reloc(b, src->bo, sy * src->pitch + sx * src->cpp, dom, 0);
}

/* ------------------------------------------------------------------ */
/* the CPU reference */

void ref_init(struct ref *r, const struct surf *s, uint64_t size)
{
	igt_assert_lte_u64((uint64_t)s->pitch * s->height, size);
	r->pitch = s->pitch;
	r->cpp = s->cpp;
	r->width = s->width;
	r->height = s->height;
	r->size = size;
	r->px = calloc(1, size);
	igt_assert(r->px);
}

void ref_fini(struct ref *r)
{
	free(r->px);
	r->px = NULL;
}

static void put_pixel(const struct ref *r, uint8_t *p, uint32_t v)
{
	memcpy(p, &v, r->cpp);	/* little endian: the low bytes */
}

void ref_fill(struct ref *r, int x, int y, int w, int h, uint32_t color)
{
	int i, j;

	for (j = y; j < y + h; j++)
		for (i = x; i < x + w; i++)
			put_pixel(r, r->px + (size_t)j * r->pitch +
				  (size_t)i * r->cpp, color);
}

void ref_copy(struct ref *dst, int dx, int dy, const struct ref *src,
	      int sx, int sy, int w, int h)
{
	int j;

	igt_assert_eq(dst->cpp, src->cpp);
	for (j = 0; j < h; j++)
		memmove(dst->px + (size_t)(dy + j) * dst->pitch +
			(size_t)dx * dst->cpp,
			src->px + (size_t)(sy + j) * src->pitch +
			(size_t)sx * src->cpp, (size_t)w * dst->cpp);
}

uint32_t ref_pixel(const struct ref *r, const uint8_t *buf, int x, int y)
{
	uint32_t v = 0;

	memcpy(&v, buf + (size_t)y * r->pitch + (size_t)x * r->cpp, r->cpp);
	return v;
}

static void vcheck_pixels(const char *file, int line, const uint8_t *buf,
			  const struct ref *r, const char *fmt, va_list ap)
{
	size_t i, first, bad = 0;
	char what[256];

	if (!memcmp(buf, r->px, r->size))
		return;
	for (i = 0, first = r->size; i < r->size; i++) {
		if (buf[i] != r->px[i]) {
			if (first == r->size)
				first = i;
			bad++;
		}
	}
	vsnprintf(what, sizeof(what), fmt, ap);
	if (first < (size_t)r->pitch * r->height &&
	    first % r->pitch < (size_t)r->width * r->cpp) {
		int y = first / r->pitch, x = first % r->pitch / r->cpp;

		igt_fail_at(file, line,
			    "%s: %zu bytes differ; first pixel (%d, %d) is 0x%0*x, expected 0x%0*x",
			    what, bad, x, y, 2 * r->cpp,
			    ref_pixel(r, buf, x, y), 2 * r->cpp,
			    ref_pixel(r, r->px, x, y));
	}
	igt_fail_at(file, line,
		    "%s: %zu bytes differ; first at byte %zu (outside the pixels, pitch %u): 0x%02x, expected 0x%02x",
		    what, bad, first, r->pitch, buf[first], r->px[first]);
}

void check_pixels_at(const char *file, int line, const uint8_t *buf,
		     const struct ref *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vcheck_pixels(file, line, buf, r, fmt, ap);
	va_end(ap);
}

void check_surface_at(const char *file, int line, int fd, uint32_t handle,
		      const struct ref *r, const char *fmt, ...)
{
	uint8_t *buf = malloc(r->size);
	va_list ap;

	igt_assert(buf);
	gem_read(fd, handle, 0, buf, r->size);
	va_start(ap, fmt);
	vcheck_pixels(file, line, buf, r, fmt, ap);
	va_end(ap);
	free(buf);
}

/* ------------------------------------------------------------------ */
/* the software model */

#define SIM_DELAY_PARAM "/sys/module/i915_sim/parameters/cmd_delay_us"
#define HANGCHECK_PARAM "/sys/module/i915/parameters/hangcheck_ms"
#define RESET_PARAM "/sys/module/i915/parameters/reset"
#define SIM_DEBUGFS "/sys/kernel/debug/i915_sim"

void sim_debugfs_path(char *buf, size_t len, const char *name)
{
	const char *slot = igt_device_slot();
	char dev[64] = "none";
	int fd;

	if (!slot) {
		fd = __drm_open_driver(false);
		if (fd >= 0) {
			drm_device_slot(fd, dev, sizeof(dev));
			close(fd);
		}
		slot = dev;
	}
	snprintf(buf, len, SIM_DEBUGFS "/%s/%s", slot, name);
}

/* fopen() of the GPU's file @name of the model's debugfs */
static FILE *sim_debugfs_open(const char *name, const char *mode)
{
	char path[256];

	sim_debugfs_path(path, sizeof(path), name);
	return fopen(path, mode);
}

static long read_param(const char *path)
{
	char buf[64] = "";
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return strtol(buf, NULL, 0);
}

static int write_param(const char *path, long value)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%ld", value);
	return igt_write_file(path, buf);
}

/* a module parameter a test changed, put back when its process exits */
struct saved_param {
	const char *path;
	long value;	/* -1 until changed */
	pid_t owner;	/* the process that changed it first */
};

static struct saved_param delay_param = { SIM_DELAY_PARAM, -1, 0 };
static struct saved_param hangcheck_param = { HANGCHECK_PARAM, -1, 0 };
static struct saved_param reset_param = { RESET_PARAM, -1, 0 };

static void restore_params(void)
{
	struct saved_param *const params[] = {
		&delay_param, &hangcheck_param, &reset_param,
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(params); i++)
		if (params[i]->value >= 0 && params[i]->owner == getpid())
			write_param(params[i]->path, params[i]->value);
}

static void set_param(struct saved_param *p, unsigned int value)
{
	static bool registered;

	if (p->value < 0) {
		p->value = read_param(p->path);
		igt_assert(p->value >= 0);
		p->owner = getpid();
		if (!registered) {
			atexit(restore_params);
			registered = true;
		}
	}
	igt_assert_ok(write_param(p->path, value));
}

bool sim_has_cmd_delay(void)
{
	return access(SIM_DELAY_PARAM, W_OK) == 0;
}

void sim_set_cmd_delay(unsigned int us)
{
	if (!sim_has_cmd_delay())
		igt_skip("the model has no %s", SIM_DELAY_PARAM);
	set_param(&delay_param, us);
}

void gem_set_hangcheck_ms(unsigned int ms)
{
	if (access(HANGCHECK_PARAM, W_OK))
		igt_skip("no writable %s", HANGCHECK_PARAM);
	set_param(&hangcheck_param, ms);
}

long long gem_hang_checks(int fd)
{
	char buf[4096];
	long long v;
	int ret;

	ret = igt_debugfs_read(fd, "i915_requests", buf, sizeof(buf));
	igt_assert_f(ret >= 0, "debugfs i915_requests: %s",
		     igt_errname(ret));
	igt_assert_f(igt_key_value(buf, "hang checks", &v) == 0,
		     "no \"hang checks:\" line in i915_requests");
	return v;
}

void gem_set_reset(unsigned int value)
{
	igt_assert_f(access(RESET_PARAM, W_OK) == 0, "no writable %s",
		     RESET_PARAM);
	set_param(&reset_param, value);
}

int __gem_reset_stats(int fd, struct drm_i915_reset_stats *rs)
{
	return ioctl(fd, DRM_IOCTL_I915_GET_RESET_STATS, rs) ? -errno : 0;
}

void gem_reset_stats(int fd, struct drm_i915_reset_stats *rs)
{
	memset(rs, 0, sizeof(*rs));
	igt_assert_ok(__gem_reset_stats(fd, rs));
}

int __gem_context_param(int fd, bool set, struct drm_i915_gem_context_param *p)
{
	unsigned long cmd = set ? DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM :
				  DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM;

	return ioctl(fd, cmd, p) ? -errno : 0;
}

void gem_error_state_paths(int fd, char *sysfs, char *debugfs, size_t len)
{
	int minor = drm_primary_minor(fd);
	struct stat st;

	snprintf(sysfs, len, "/sys/class/drm/card%d/error", minor);
	if (stat("/sys/kernel/debug/dri", &st))
		mount("debugfs", "/sys/kernel/debug", "debugfs", 0, NULL);
	snprintf(debugfs, len, "/sys/kernel/debug/dri/%d/i915_error_state",
		 minor);
}

char *igt_read_whole(const char *path, size_t chunk, size_t *len)
{
	size_t size = 1 << 16, n = 0;
	char *buf = malloc(size + 1);
	int f = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	igt_assert_f(f >= 0, "open %s: %s", path, strerror(errno));
	igt_assert(buf);
	for (;;) {
		if (size - n < chunk) {
			size *= 2;
			buf = realloc(buf, size + 1);
			igt_assert(buf);
		}
		r = read(f, buf + n, chunk);
		igt_assert_f(r >= 0, "read %s at %zu: %s", path, n,
			     strerror(errno));
		if (!r)
			break;
		n += r;
	}
	close(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

uint32_t gem_pci_id(int fd)
{
	char buf[4096];
	long long v;

	igt_assert(igt_debugfs_read(fd, "i915_capabilities", buf,
				    sizeof(buf)) > 0);
	igt_assert_eq(igt_key_value(buf, "pci id", &v), 0);
	return v;
}

void gem_error_state_save(int fd, const char *what, const char *text,
		 const char *const *expect, int nexpect)
{
	const char *dir = getenv("BENCH_OUT");
	char path[256];
	FILE *f;
	int i;

	if (!dir || !*dir)
		return;
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/error_state-%04x-%s.txt", dir,
		 gem_pci_id(fd), what);
	f = fopen(path, "w");
	igt_assert_f(f, "%s: %s", path, strerror(errno));
	fputs(text, f);
	igt_assert_eq(fclose(f), 0);
	snprintf(path, sizeof(path), "%s/error_state-%04x-%s.expect", dir,
		 gem_pci_id(fd), what);
	f = fopen(path, "w");
	igt_assert_f(f, "%s: %s", path, strerror(errno));
	for (i = 0; i < nexpect; i++)
		fprintf(f, "%s\n", expect[i]);
	igt_assert_eq(fclose(f), 0);
	igt_info("left %s", path);
}

void gem_error_state_clear(int fd)
{
	igt_assert_ok(igt_debugfs_write(fd, "i915_error_state", "1"));
}

uint32_t gem_error_state_reg(int fd, const char *name)
{
	static char buf[65536];
	char key[64];
	const char *p;
	int n;

	n = igt_debugfs_read(fd, "i915_error_state", buf, sizeof(buf));
	igt_assert_lt(0, n);
	snprintf(key, sizeof(key), "\n  %s: 0x", name);
	p = strstr(buf, key);
	igt_assert_f(p, "no \"%s\" line in the error state:\n%.1000s",
		     name, buf);
	return strtoul(p + strlen(key), NULL, 16);
}

uint32_t gem_reset_count(int fd)
{
	struct drm_i915_reset_stats rs;

	gem_reset_stats(fd, &rs);
	return rs.reset_count;
}

void gem_set_unbannable(int fd)
{
	struct drm_i915_gem_context_param p = {
		.param = I915_CONTEXT_PARAM_BANNABLE,
	};

	igt_assert_ok(__gem_context_param(fd, true, &p));
}

void gem_force_reset(int fd)
{
	/* every engine, as igt writes it */
	igt_assert_ok(igt_debugfs_write(fd, "i915_wedged",
					"18446744073709551615"));
}

void gem_quiescent_gpu(int fd)
{
	igt_assert_ok(igt_debugfs_write(fd, "i915_gem_drop_caches", "0x5c"));
}

bool gem_is_wedged(int fd)
{
	struct drm_i915_gem_exec_object2 obj = {
		.handle = bbe_create(fd, 0),
	};
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(&obj),
		.buffer_count = 1,
		.batch_len = 8,
	};
	int ret;

	ret = __gem_execbuf(fd, &eb);
	if (!ret) {
		int64_t timeout = 10ll * 1000 * 1000 * 1000;

		ret = __gem_wait(fd, obj.handle, &timeout);
	}
	gem_close(fd, obj.handle);
	igt_assert_f(ret == 0 || ret == -EIO, "an empty batch: %s",
		     igt_errname(ret));
	return ret == -EIO;
}

int gem_wedged_debugfs(int fd)
{
	char buf[16];
	int ret = igt_debugfs_read(fd, "i915_wedged", buf, sizeof(buf));

	igt_assert_f(ret > 0, "reading i915_wedged: %s", igt_errname(ret));
	igt_assert_f(buf[0] == '0' || buf[0] == '1',
		     "i915_wedged reads \"%s\"", buf);
	return buf[0] - '0';
}

void gem_unwedge(int fd)
{
	struct batch *b;
	struct bo dst;
	struct surf s;
	struct ref r;

	gem_set_reset(1);
	gem_force_reset(fd);
	igt_assert_eq(gem_wedged_debugfs(fd), 0);
	igt_assert(!gem_is_wedged(fd));
	/* the blitter draws again */
	b = batch_new(fd);
	bo_init(&dst, fd, PAGE_SZ);
	s = (struct surf){ &dst, 256, 4, 64, 16 };
	ref_init(&r, &s, dst.size);
	emit_xy_fill(b, &s, 0, 0, 64, 16, 0x12345678);
	ref_fill(&r, 0, 0, 64, 16, 0x12345678);
	batch_submit(b);
	check_surface(fd, dst.handle, &r, "a fill after unwedging");
	ref_fini(&r);
	bo_fini(&dst, fd);
	batch_free(b);
}

void gem_require_unwedged(int fd, unsigned int hangcheck_ms)
{
	gem_gen(fd);
	if (gem_is_wedged(fd))
		igt_skip("the device is wedged already (reload the module)");
	igt_assert_eq(gem_wedged_debugfs(fd), 0);
	gem_set_hangcheck_ms(hangcheck_ms);
}

void gem_recover_wedged(const char *hang)
{
	int fd = drm_open_driver();

	if (!gem_wedged_debugfs(fd))
		igt_fail("the device is not wedged (did %s run?)", hang);
	gem_unwedge(fd);
	close(fd);
}

long long sim_reg(const char *name)
{
	FILE *f = sim_debugfs_open("regs", "r");
	char line[256], rname[64];
	unsigned long off, val;
	long long found = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx %lx %63s", &off, &val, rname) == 3 &&
		    !strcmp(rname, name))
			found = val;
	}
	fclose(f);
	return found;
}

long long sim_cs_value(const char *key)
{
	char path[256];
	long long v;
	int ret;

	sim_debugfs_path(path, sizeof(path), "cs");
	ret = igt_file_key_value(path, key, &v);

	return ret ? ret : v;
}

void sim_wait_idle(void)
{
	double t0 = igt_now();
	char buf[4096], path[256];
	ssize_t n;
	int fd;

	sim_debugfs_path(path, sizeof(path), "cs");
	for (;;) {
		fd = open(path, O_RDONLY);
		igt_assert_f(fd >= 0, "opening %s: %s", path, strerror(errno));
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		igt_assert_lt(0, n);
		buf[n] = '\0';
		if (strstr(buf, "\nbusy: no\n"))
			return;
		igt_assert_f(igt_now() - t0 < 10, "the engine is still busy");
		usleep(1000);
	}
}

int sim_stolen(struct sim_stolen *st)
{
	FILE *f = sim_debugfs_open("stolen", "r");
	char line[256];

	if (!f)
		return -errno;
	memset(st, 0, sizeof(*st));
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "size: %llu", &st->size) == 1)
			continue;
		if (!strncmp(line, "pattern: ", 9)) {
			snprintf(st->pattern, sizeof(st->pattern), "%.200s", line);
			st->pattern_intact = !strcmp(line + 9, "intact");
		} else if (!strncmp(line, "entries: ", 9)) {
			snprintf(st->entries, sizeof(st->entries), "%.200s", line);
			st->entries_intact = !strcmp(line + 9, "intact");
		}
	}
	fclose(f);
	return 0;
}

int sim_drawrects(struct drawrect *r, int max)
{
	FILE *f = sim_debugfs_open("drawrects", "r");
	unsigned long long total = 0;
	char line[256];
	int n = 0;

	if (!f)
		return -errno;
	igt_assert_f(fgets(line, sizeof(line), f) &&
		     sscanf(line, "total %llu", &total) == 1,
		     "i915_sim/drawrects: no \"total N\" first");
	while (n < max && fgets(line, sizeof(line), f)) {
		struct drawrect *d = &r[n];
		unsigned int dr1;

		if (sscanf(line, "dr1=%x %d %d %d %d %d %d", &dr1, &d->xmin,
			   &d->ymin, &d->xmax, &d->ymax, &d->xorg,
			   &d->yorg) == 7) {
			d->dr1 = dr1;
			d->has_dr1 = true;
		} else {
			igt_assert_f(sscanf(line, "%d %d %d %d %d %d",
					    &d->xmin, &d->ymin, &d->xmax,
					    &d->ymax, &d->xorg,
					    &d->yorg) == 6,
				     "i915_sim/drawrects: \"%s\"", line);
			d->dr1 = 0;
			d->has_dr1 = false;
		}
		n++;
	}
	fclose(f);
	return total;
}

int sim_drawrects_clear(void)
{
	char path[256];
	int fd, ret = 0;

	sim_debugfs_path(path, sizeof(path), "drawrects");
	fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (write(fd, "0\n", 2) != 2)
		ret = -errno;
	close(fd);
	return ret;
}

void pattern_fill(void *p, size_t bytes, uint32_t seed)
{
	uint32_t *dw = p;
	size_t i;

	for (i = 0; i < bytes / 4; i++)
		dw[i] = pattern_dw(seed, i);
}

void pattern_check(const void *p, size_t bytes, uint32_t seed,
		   const char *what)
{
	const uint32_t *dw = p;
	size_t i;

	for (i = 0; i < bytes / 4; i++)
		igt_assert_f(dw[i] == pattern_dw(seed, i),
			     "%s: dword %zu is 0x%08x, not 0x%08x",
			     what, i, dw[i], pattern_dw(seed, i));
}

void pattern_check_object(int fd, uint32_t handle, size_t bytes,
			  uint32_t seed, const char *what)
{
	uint32_t *buf = malloc(bytes);

	igt_assert(buf);
	gem_read(fd, handle, 0, buf, bytes);
	pattern_check(buf, bytes, seed, what);
	free(buf);
}

void surf_linear32(struct surf *s, struct bo *bo, int width, int height)
{
	s->bo = bo;
	s->pitch = width * 4;
	s->cpp = 4;
	s->width = width;
	s->height = height;
}

int blit_linear32(int fd, struct bo *dst, struct bo *src, int width,
		  int height)
{
	struct batch *b = batch_new(fd);
	struct surf sd, ss;
	int ret;

	surf_linear32(&sd, dst, width, height);
	surf_linear32(&ss, src, width, height);
	emit_xy_copy(b, &sd, 0, 0, &ss, 0, 0, width, height);
	ret = __batch_submit(b, 0);
	batch_free(b);
	return ret;
}
