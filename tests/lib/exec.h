/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Execution helpers for the tests: the ioctls of sections 7 and 8 of
 * the GEM design (EXECBUFFER, EXECBUFFER2, BUSY, WAIT, THROTTLE, PIN,
 * UNPIN, GEM_INIT, ENTERVT, LEAVEVT), the Gen3/Gen4 command encodings a
 * test batch needs (MI and 2D blitter, from the hardware fact sheet,
 * section 5), a small batch builder with relocations, a CPU reference
 * of the blits to compare every pixel against, and the knobs of the
 * software model (command delay, recorded drawing rectangles).
 *
 * As in gem.h: __foo() returns 0 or -errno, foo() asserts success.
 */
#ifndef IGT_EXEC_H
#define IGT_EXEC_H

#include "gem.h"

/* ------------------------------------------------------------------ */
/* the device */

/* 3 or 4, from i915_capabilities ("gen: N"); skips on anything else */
int gem_gen(int fd);
/* GTT size in bytes, from i915_capabilities ("gtt_total: N") */
uint64_t gem_gtt_total(int fd);
/*
 * The range GEM manages and the bytes allocated in it, from debugfs
 * i915_gtt ("managed: 0xS-0xE of 0xT", drm_mm's "total: .., used N").
 */
void gem_gtt_managed(int fd, uint64_t *start, uint64_t *end);
uint64_t gem_gtt_used(int fd);
/*
 * Bytes at GTT address 0 that the firmware mapped onto stolen memory
 * (i915_capabilities "stolen_size: N"): never managed, so a test that
 * narrows the GTT to a range of a given size starts it there.
 */
uint64_t gem_gtt_stolen(int fd);

/* ------------------------------------------------------------------ */
/* execbuffer */

int __gem_execbuf(int fd, struct drm_i915_gem_execbuffer2 *eb);
void gem_execbuf(int fd, struct drm_i915_gem_execbuffer2 *eb);
/* the _WR form: rsvd2 comes back (FENCE_OUT) */
int __gem_execbuf_wr(int fd, struct drm_i915_gem_execbuffer2 *eb);
/* the design's EXECBUFFER (v1, with cliprects) */
int __gem_execbuf_v1(int fd, struct drm_i915_gem_execbuffer *eb);

/* ------------------------------------------------------------------ */
/* waiting */

/* upstream's BUSY encoding for the render engine (class 0) */
#define BUSY_READ_RENDER	(0x10000u << I915_ENGINE_CLASS_RENDER)
#define BUSY_WRITE_RENDER	(I915_ENGINE_CLASS_RENDER + 1u)

int __gem_busy(int fd, uint32_t handle, uint32_t *busy);
uint32_t gem_busy(int fd, uint32_t handle);
/* WAIT; *timeout_ns is updated as the kernel writes it back */
int __gem_wait(int fd, uint32_t handle, int64_t *timeout_ns);
/* WAIT forever (bounded by the hang check): asserts 0 */
void gem_sync(int fd, uint32_t handle);
int __gem_throttle(int fd);

/* ------------------------------------------------------------------ */
/* root / master only */

/* DRM_IOCTL_SET_MASTER: 0 or -errno (EBUSY while another file is master) */
int gem_set_master(int fd);

int __gem_pin(int fd, uint32_t handle, uint64_t alignment,
	      uint64_t *offset);
uint64_t gem_pin(int fd, uint32_t handle, uint64_t alignment);
int __gem_unpin(int fd, uint32_t handle);
void gem_unpin(int fd, uint32_t handle);
int __gem_init(int fd, uint64_t start, uint64_t end);
int __gem_entervt(int fd);
int __gem_leavevt(int fd);

/*
 * GEM_INIT to [start, end) now, and back to the whole GTT when the
 * (sub)test process exits, however it exits (assertions call exit()).
 */
void gem_narrow_gtt(int fd, uint64_t start, uint64_t end);
void gem_restore_gtt(int fd);

/* ------------------------------------------------------------------ */
/* command encodings (hardware fact sheet, section 5) */

#define MI_INSTR(op, len)	(((uint32_t)(op) << 23) | (len))
#define MI_NOOP			MI_INSTR(0x00, 0)
#define MI_USER_INTERRUPT	MI_INSTR(0x02, 0)
#define MI_FLUSH		MI_INSTR(0x04, 0)
#define MI_BATCH_BUFFER_END	MI_INSTR(0x0a, 0)
#define MI_STORE_DWORD_IMM_GEN3	MI_INSTR(0x20, 1)	/* 3 dwords */
#define MI_STORE_DWORD_IMM_GEN4	MI_INSTR(0x20, 2)	/* 4 dwords */
#define   MI_MEM_VIRTUAL	(1u << 22)		/* GTT address */
#define MI_LOAD_REGISTER_IMM(n)	MI_INSTR(0x22, 2 * (n) - 1)
#define MI_BATCH_BUFFER_START	MI_INSTR(0x31, 0)
#define   MI_BATCH_GTT		(2u << 6)
#define   MI_BATCH_NON_SECURE	(1u << 0)	/* gen3: in dword 1 */
#define   MI_BATCH_NON_SECURE_I965 (1u << 8)	/* gen4: in dword 0 */

#define MI_ARB_CHECK		MI_INSTR(0x05, 0)
#define MI_NOOP_WRITE_NOPID	(1u << 22)	/* bits 21:0 into NOPID */
#define REG_NOPID		0x2094	/* NOPID register */

/*
 * The MI command lists of Gen3 and Gen4 (fact sheet 5.2; the model's
 * table in sim/i915_sim_mi.c): each command's total length in dwords on
 * Gen3 and on Gen4 (0: not on that generation; MI_LOAD_REGISTER_IMM
 * takes any odd length from 3) and whether it is privileged there (a
 * non-secure batch does not execute it).  Every other opcode is an
 * instruction error.
 */
struct mi_rule {
	const char *name;
	uint32_t op;
	unsigned int len[2];	/* [0] Gen3, [1] Gen4 */
	bool priv[2];
};

/* the rule of opcode @op on @gen, or NULL if @gen does not have it */
const struct mi_rule *mi_rule(int gen, uint32_t op);
/* every rule, in opcode order; *@n gets their number */
const struct mi_rule *mi_rules(unsigned int *n);

#define BLT_INSTR(op, len)	((2u << 29) | ((uint32_t)(op) << 22) | (len))
#define XY_SETUP_BLT		BLT_INSTR(0x01, 6)	/* 8 dwords */
#define XY_SETUP_CLIP_BLT	BLT_INSTR(0x03, 1)	/* 3 dwords */
#define COLOR_BLT		BLT_INSTR(0x40, 3)	/* 5 dwords */
#define SRC_COPY_BLT		BLT_INSTR(0x43, 4)	/* 6 dwords */
#define XY_COLOR_BLT		BLT_INSTR(0x50, 4)	/* 6 dwords */
#define XY_SRC_COPY_BLT		BLT_INSTR(0x53, 6)	/* 8 dwords */
#define   BLT_WRITE_ALPHA	(1u << 21)
#define   BLT_WRITE_RGB		(1u << 20)
#define   BLT_WRITE_ARGB	(BLT_WRITE_ALPHA | BLT_WRITE_RGB)

#define BR13_CLIP_ENABLE	(1u << 30)
#define BR13_DEPTH_8		(0u << 24)
#define BR13_DEPTH_565		(1u << 24)
#define BR13_DEPTH_1555		(2u << 24)
#define BR13_DEPTH_32		(3u << 24)
#define BR13_ROP(rop)		((uint32_t)(rop) << 16)
#define ROP_SRCCOPY		0xcc
#define ROP_PATCOPY		0xf0

#define GEN3_DRAWRECT		0x7d800003u	/* 5 dwords */
#define GEN4_DRAWRECT		0x79000002u	/* 4 dwords */

/* BR13 depth code for 1, 2 or 4 bytes per pixel */
uint32_t br13_depth(int cpp);

/* ------------------------------------------------------------------ */
/* objects and batches */

/* an object and the GTT offset the kernel last reported for it */
struct bo {
	uint32_t handle;
	uint64_t size;
	uint64_t offset;	/* presumed offset for the next relocation */
	uint64_t flags;		/* exec object flags, e.g. NEEDS_FENCE */
};

void bo_init(struct bo *bo, int fd, uint64_t size);
void bo_fini(struct bo *bo, int fd);

#define BATCH_MAX_DW		4096	/* 16 KiB batch object */
#define BATCH_MAX_RELOCS	1024
#define BATCH_MAX_OBJS		1024

/*
 * A batch under construction: its commands in memory, its relocations
 * and the objects it refers to.  batch_submit() ends it, writes it into
 * its object, executes it with EXECBUFFER2 (the referenced objects
 * first, then the batch) and starts a new, empty batch in the same
 * object.
 */
struct batch {
	int fd;
	int gen;
	struct bo bo;
	uint32_t dw[BATCH_MAX_DW];
	unsigned int len;
	struct drm_i915_gem_relocation_entry reloc[BATCH_MAX_RELOCS];
	unsigned int nreloc;
	struct bo *obj[BATCH_MAX_OBJS];
	unsigned int nobj;
	/* the exec list of the last submission, offsets written back */
	struct drm_i915_gem_exec_object2 exec[BATCH_MAX_OBJS + 1];
};

struct batch *batch_new(int fd);
void batch_free(struct batch *b);
/* byte offset of the next dword */
uint32_t batch_offset(const struct batch *b);
void batch_emit(struct batch *b, uint32_t dw);
/*
 * Emit the address of @target + @delta as the kernel will see it: the
 * presumed offset (@target->offset) + @delta, with a relocation entry.
 */
void batch_reloc(struct batch *b, struct bo *target, uint32_t delta,
		 uint32_t read_domains, uint32_t write_domain);
/* list @target in the exec list without a relocation */
void batch_add(struct batch *b, struct bo *target);
/* MI_BATCH_BUFFER_END, padded with MI_NOOP to a multiple of 8 bytes */
void batch_end(struct batch *b);
/* a new 4 KiB object holding MI_BATCH_BUFFER_END at byte @offset */
uint32_t bbe_create(int fd, uint32_t offset);
/*
 * End, write and execute the batch with @flags (EXECBUFFER2); on
 * success every bo's offset is updated from the write-back.
 * Returns 0 or -errno and starts a new batch either way.
 */
int __batch_submit(struct batch *b, uint64_t flags);
/* the same with EXECBUFFER2_WR: *@rsvd2 in (FENCE_IN) and out (FENCE_OUT) */
int __batch_submit_wr(struct batch *b, uint64_t flags, uint64_t *rsvd2);
void batch_submit(struct batch *b);
/*
 * The same through the design's EXECBUFFER (v1): no flags, and the
 * batch replayed once per cliprect behind a drawing rectangle.
 */
int __batch_submit_v1(struct batch *b, const struct drm_clip_rect *rects,
		      unsigned int nrects, uint32_t dr1, uint32_t dr4);
/* batch_submit(), then wait for it */
void batch_submit_sync(struct batch *b);
/* batch_submit() with FENCE_OUT: returns the request's sync_file */
int batch_submit_fence(struct batch *b);
/*
 * SYNC_IOC_FILE_INFO's status of @sync_fd: 1 signalled, 0 active, or
 * the fence's error (-EIO: the GPU hung on it), as upstream reports it
 */
int sync_file_status(int sync_fd);

/* ------------------------------------------------------------------ */
/* commands with relocations */

/*
 * Write @value at @target + @offset from a non-secure batch: the Gen3
 * MI_STORE_DWORD_IMM, and on Gen4, where MI_STORE_DWORD_IMM is privileged
 * (the hardware drops it in a non-secure batch), an XY_COLOR_BLT of one
 * 32 bpp pixel there.
 */
void emit_store_dword(struct batch *b, struct bo *target, uint32_t offset,
		      uint32_t value);
/*
 * MI_STORE_DWORD_IMM itself, for tests whose point is the store; submit
 * it with store_dword_imm_flags(), which on Gen4 makes @fd DRM master
 * (it must be root) and returns I915_EXEC_SECURE, else 0.
 */
void emit_store_dword_imm(struct batch *b, struct bo *target,
			  uint32_t offset, uint32_t value);
uint64_t store_dword_imm_flags(int fd);
/*
 * MI_BATCH_BUFFER_START (GTT, non-secure, in the gen3 or gen4 form) to
 * @target + @offset: the batch goes on there and does not come back.
 */
void emit_batch_start(struct batch *b, struct bo *target, uint32_t offset);

/*
 * The same write by hand, for tests that build their own exec lists
 * and relocations: the commands for GTT address @addr at @cs, their
 * length in dwords returned and the index of the address dword (where
 * a relocation goes) in *@addr_at.  cs_end() appends
 * MI_BATCH_BUFFER_END (and a MI_NOOP to an even count) at @cs[@n] and
 * returns the new count.
 */
unsigned int cs_store_dword(int gen, uint32_t *cs, uint32_t addr,
			    uint32_t value, uint32_t *addr_at);
/* at most this many dwords; the value follows the address dword */
#define CS_STORE_DWORD_MAX	6
/*
 * MI_STORE_DWORD_IMM itself (gen3 or gen4 form), for tests whose point is
 * the store: on Gen4 only a secure batch (I915_EXEC_SECURE, DRM master
 * and root) executes it.
 */
unsigned int cs_store_dword_imm(int gen, uint32_t *cs, uint32_t addr,
				uint32_t value, uint32_t *addr_at);
unsigned int cs_end(uint32_t *cs, unsigned int n);

/* a surface: @bo seen as @width x @height pixels of @cpp bytes */
struct surf {
	struct bo *bo;
	uint32_t pitch;		/* bytes */
	int cpp;		/* 1, 2 or 4 */
	int width, height;
};

/* @s is @bo as @width x @height 32-bit pixels, rows packed (pitch w * 4) */
void surf_linear32(struct surf *s, struct bo *bo, int width, int height);
/*
 * One XY_SRC_COPY_BLT of a whole @width x @height 32-bit linear image
 * from @src to @dst, submitted at once; 0 or -errno of the exec
 */
int blit_linear32(int fd, struct bo *dst, struct bo *src, int width,
		  int height);

/* XY_COLOR_BLT of @color into [x, x+w) x [y, y+h) */
void emit_xy_fill(struct batch *b, const struct surf *dst, int x, int y,
		  int w, int h, uint32_t color);
/* XY_SRC_COPY_BLT of a w x h block from @src (sx, sy) to @dst (dx, dy) */
void emit_xy_copy(struct batch *b, const struct surf *dst, int dx, int dy,
		  const struct surf *src, int sx, int sy, int w, int h);
/* the same with COLOR_BLT / SRC_COPY_BLT (no XY: byte widths, addresses) */
void emit_color_blt(struct batch *b, const struct surf *dst, int x, int y,
		    int w, int h, uint32_t color);
void emit_src_copy_blt(struct batch *b, const struct surf *dst, int dx,
		       int dy, const struct surf *src, int sx, int sy, int w,
		       int h);

/* ------------------------------------------------------------------ */
/* the CPU reference: what a surface must hold after the same blits */

struct ref {
	uint32_t pitch;
	int cpp;
	int width, height;
	size_t size;		/* bytes, the whole object */
	uint8_t *px;
};

void ref_init(struct ref *r, const struct surf *s, uint64_t size);
void ref_fini(struct ref *r);
void ref_fill(struct ref *r, int x, int y, int w, int h, uint32_t color);
void ref_copy(struct ref *dst, int dx, int dy, const struct ref *src,
	      int sx, int sy, int w, int h);
/* pixel (x, y) of a surface stored in @buf */
uint32_t ref_pixel(const struct ref *r, const uint8_t *buf, int x, int y);

/*
 * Compare the whole object (pread) with the reference; on a difference
 * name the first wrong pixel, its value and the expected one.
 */
#define check_surface(fd, handle, ref, ...) \
	check_surface_at(__FILE__, __LINE__, fd, handle, ref, __VA_ARGS__)
void check_surface_at(const char *file, int line, int fd, uint32_t handle,
		      const struct ref *r, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
/* the same, on bytes already read (e.g. through a CPU mmap) */
#define check_pixels(buf, ref, ...) \
	check_pixels_at(__FILE__, __LINE__, buf, ref, __VA_ARGS__)
void check_pixels_at(const char *file, int line, const uint8_t *buf,
		     const struct ref *r, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* ------------------------------------------------------------------ */
/* the software model */

/*
 * The path of file @name in the model's debugfs directory of the GPU
 * under test: /sys/kernel/debug/i915_sim/<PCI slot>/<name>, the slot
 * being I915_PCI_SLOT's or else the first i915 device's.
 */
void sim_debugfs_path(char *buf, size_t len, const char *name);

/*
 * The model's per-command delay (parameter cmd_delay_us of i915_sim.ko,
 * one for every simulated GPU).
 * sim_has_cmd_delay() is false without the parameter; sim_set_cmd_delay()
 * skips then, and restores the old value when the process exits.
 */
bool sim_has_cmd_delay(void);
void sim_set_cmd_delay(unsigned int us);

/*
 * The driver's hang check interval (module parameter hangcheck_ms),
 * restored when the process exits; skips without the parameter.
 */
void gem_set_hangcheck_ms(unsigned int ms);
/* The hang checks run so far (debugfs i915_requests, "hang checks: N"). */
long long gem_hang_checks(int fd);
/*
 * The driver's module parameter reset (0: a hang wedges the device, 1: it
 * resets the GPU), restored when the process exits; asserts that the
 * parameter exists and is writable, as igt does.
 */
void gem_set_reset(unsigned int value);
/* GET_RESET_STATS: 0 or -errno; the asserting form zeroes @rs first */
int __gem_reset_stats(int fd, struct drm_i915_reset_stats *rs);
void gem_reset_stats(int fd, struct drm_i915_reset_stats *rs);
/* CONTEXT_SETPARAM (@set) or CONTEXT_GETPARAM: 0 or -errno */
int __gem_context_param(int fd, bool set,
			struct drm_i915_gem_context_param *p);
/* sysfs card<N>/error and debugfs i915_error_state of @fd's device */
void gem_error_state_paths(int fd, char *sysfs, char *debugfs, size_t len);
/* the whole of @path, read @chunk bytes at a time; malloc'd, 0-ended */
char *igt_read_whole(const char *path, size_t chunk, size_t *len);
/* the PCI device id of @fd's GPU (debugfs i915_capabilities) */
uint32_t gem_pci_id(int fd);
/*
 * Leave @text in $BENCH_OUT as error_state-<pci id>-@what.txt, with the
 * @n regular expressions of @expect that scripts/error-decode.sh must
 * find in intel_error_decode's decoding of its batch (.expect).
 */
void gem_error_state_save(int fd, const char *what, const char *text,
			  const char *const *expect, int n);
/* debugfs i915_error_state: clear it; a register of the kept state */
void gem_error_state_clear(int fd);
uint32_t gem_error_state_reg(int fd, const char *name);
/* GET_RESET_STATS' count of GPU resets (root only, as upstream) */
uint32_t gem_reset_count(int fd);
/* CONTEXT_SETPARAM BANNABLE = 0 (root only): hangs never ban this fd */
void gem_set_unbannable(int fd);
/* debugfs i915_wedged written with every engine: reset the GPU now */
void gem_force_reset(int fd);
/* an empty batch fails with EIO: the device is wedged */
bool gem_is_wedged(int fd);
/*
 * igt's gem_quiescent_gpu(): debugfs i915_gem_drop_caches with ACTIVE,
 * RETIRE, FREED and IDLE, so that no request (or object it holds) is
 * left from earlier work.
 */
void gem_quiescent_gpu(int fd);
/* debugfs i915_wedged: 1 while the driver holds the GPU for hung, else 0 */
int gem_wedged_debugfs(int fd);
/*
 * Recover a wedged device: reset=1, then debugfs i915_wedged written with
 * every engine (a reset, which unwedges); assert that it worked:
 * i915_wedged reads 0, an empty batch runs and a blit (XY_COLOR_BLT)
 * lands.
 */
void gem_unwedge(int fd);
/*
 * Before hanging the GPU on purpose: skip if the device is wedged
 * already (the bench reloads the module after a program named *hang*),
 * assert that i915_wedged agrees, and set the hang check to
 * @hangcheck_ms (restored at exit).
 */
void gem_require_unwedged(int fd, unsigned int hangcheck_ms);
/*
 * After it, in a subtest of its own: the device is still wedged (the
 * subtest @hang did that) and gem_unwedge() brings it back.
 */
void gem_recover_wedged(const char *hang);

/*
 * A register of the model as debugfs i915_sim/<slot>/regs lists it
 * ("offset value [name]"; registers not listed read 0): by @name, or
 * -errno if the model has no such file.
 */
long long sim_reg(const char *name);

/*
 * A counter or value of the model's command streamer, as debugfs
 * i915_sim/<slot>/cs lists it ("key: value"); -errno without the file or
 * key.
 */
long long sim_cs_value(const char *key);
/*
 * Wait (10 s at most) until the model's engine is idle ("busy: no"):
 * past the end of the ring, the MI_USER_INTERRUPT after a breadcrumb
 * included.
 */
void sim_wait_idle(void);

/* one 3DSTATE_DRAWING_RECTANGLE the model executed */
struct drawrect {
	int xmin, ymin, xmax, ymax;	/* the maxima inclusive */
	int xorg, yorg;			/* DR4 */
	uint32_t dr1;			/* Gen3 only */
	bool has_dr1;
};

/*
 * The model's record of drawing rectangles (i915_sim/<slot>/drawrects:
 * "total N", then the last 256 at most, oldest first).  Returns N, the
 * rectangles executed since the record was cleared, and stores the
 * oldest listed ones (at most @max) in @r; or -errno without the file.
 */
/*
 * The firmware framebuffer in the model's stolen memory (debugfs
 * i915_sim/<slot>/stolen): its size, and whether its pattern and its GTT
 * entries are still what the firmware left.  0, or -errno without the
 * file.
 */
struct sim_stolen {
	unsigned long long size;
	bool pattern_intact;
	bool entries_intact;
	char pattern[256];	/* the "pattern:" line */
	char entries[256];	/* the "entries:" line */
};

int sim_stolen(struct sim_stolen *st);

int sim_drawrects(struct drawrect *r, int max);
/* empty the record; 0 or -errno */
int sim_drawrects_clear(void);

/* a pattern dword for the value stored at @i with @seed */
static inline uint32_t pattern_dw(uint32_t seed, uint32_t i)
{
	uint32_t x = seed * 0x9e3779b1u ^ (i + 1) * 0x85ebca6bu;

	x ^= x >> 15;
	x *= 0x2c1b3c6du;
	x ^= x >> 12;
	return x ? x : 1;
}

/* @bytes of pattern_dw(@seed, i) dwords at @p */
void pattern_fill(void *p, size_t bytes, uint32_t seed);
/* @bytes at @p hold pattern_dw(@seed, i), or the first wrong dword fails */
void pattern_check(const void *p, size_t bytes, uint32_t seed,
		   const char *what);
/* the same of the first @bytes of object @handle, read with PREAD */
void pattern_check_object(int fd, uint32_t handle, size_t bytes,
			  uint32_t seed, const char *what);

#endif /* IGT_EXEC_H */
