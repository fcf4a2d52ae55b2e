// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: software model - the 2D blitter
 *
 * Executes the blitter (client 2) commands XY_SETUP_BLT,
 * XY_SETUP_CLIP_BLT, COLOR_BLT, SRC_COPY_BLT, XY_COLOR_BLT and
 * XY_SRC_COPY_BLT at 8, 16 (565 and 1555) and 32 bits per pixel.  Any
 * other 2D opcode, and a length a command does not have, is an
 * instruction error: the model does not pretend to draw what it cannot.
 *
 * Pixels are combined by the ROP3 of BR13 bit by bit: the result bit is
 * bit ((P << 2) | (S << 1) | D) of the ROP, P the pattern (the solid
 * colour of the colour blits, 0 for the copies), S the source (0 for the
 * colour blits), D the destination; 0xcc copies, 0xf0 fills.  At 32 bpp
 * BR00 bits 21 and 20 say whether alpha and RGB are written; at 8 and 16
 * bpp every bit is.  Pitches are signed 16-bit bytes; XY coordinates are
 * signed 16-bit, y in 31:16 and x in 15:0, the second corner exclusive.
 * Non-XY commands take a width in bytes (whole pixels are drawn) and the
 * address of the first byte.
 *
 * The XY commands clip to the XY_SETUP clip rectangle (left/top
 * inclusive, right/bottom exclusive, as the XY rectangles; the fact sheet
 * does not say) when BR13 bit 30 is set; nothing is ever written outside
 * the destination rectangle.  On Gen4 the tiled bits (BR00 11 destination,
 * 15 source) select X tiling (512-byte by 8-row tiles, bit 6 swizzled as
 * the part's memory controller asks, see i915_sim_fence.c) with the pitch
 * in dwords; a tiled surface needs a positive pitch that is a multiple of
 * 512 bytes and non-negative coordinates.  Gen4's blitter has no Y
 * tiling (BCS_SWCTRL came with Gen6).  Gen3 has no tiled bits: every
 * access of its blitter goes through the fence registers, which tile
 * whatever falls in a fenced range (i915_sim_fence_copy()).
 *
 * Overlapping copies behave as memmove: within one surface (same base,
 * pitch and tiling) rows and spans are copied in the order that reads
 * every source pixel before it is overwritten; for other linear surfaces
 * whose bytes overlap, the order follows the addresses.
 *
 * All pixel memory is read and written through the GTT, one span (at
 * most %I915_SIM_BLT_CHUNK bytes of a row, one tile column) at a time;
 * an address outside the GTT or through an invalid entry is a page-table
 * error (PGTBL_ER bit 19).  Between rows the blitter yields and stops
 * early if the engine is reset or the model goes away.
 */

#include <linux/bitops.h>
#include <linux/sched.h>

#include "i915_cmd.h"
#include "i915_reg.h"
#include "i915_sim.h"
#include "i915_sim_cs.h"
#include "i915_sim_regs.h"

/**
 * struct blt_surf - a surface as the blitter addresses it
 * @base: GTT address of pixel (0, 0), or of the first byte (non-XY)
 * @pitch: bytes from one row to the next
 * @tiled: X-tiled (Gen4)
 * @swz: when tiled, the address bits whose parity is XORed into bit 6
 */
struct blt_surf {
	u32 base;
	s32 pitch;
	bool tiled;
	u32 swz;
};

/**
 * struct blt_op - one blit, clipped and decoded
 * @dst: destination surface
 * @src: source surface, if @has_src
 * @has_src: the ROP reads a source
 * @x: destination left, pixels
 * @y: destination top
 * @sx: source left
 * @sy: source top
 * @width: pixels per row
 * @height: rows
 * @cpp: bytes per pixel
 * @rop: ROP3
 * @pat: pattern over a dword, in memory byte order
 * @mask: bits of each dword that are written, in memory byte order
 */
struct blt_op {
	struct blt_surf dst;
	struct blt_surf src;
	bool has_src;
	s32 x, y;
	s32 sx, sy;
	u32 width;
	u32 height;
	u32 cpp;
	u8 rop;
	u32 pat;
	u32 mask;
};

/* A rectangle in pixels, (x1, y1) inclusive and (x2, y2) exclusive. */
struct blt_rect {
	s32 x1, y1, x2, y2;
};

static bool rop_uses_src(u8 rop)
{
	return ((rop >> 2) ^ rop) & 0x33;
}

static bool rop_uses_dst(u8 rop)
{
	return ((rop >> 1) ^ rop) & 0x55;
}

/* One dword of the ROP3: each result bit indexes the ROP by P, S, D. */
static u32 rop3(u8 rop, u32 p, u32 s, u32 d)
{
	unsigned int i;
	u32 r = 0;

	if (rop == I915_ROP_SRCCOPY)
		return s;
	if (rop == I915_ROP_PATCOPY)
		return p;
	for (i = 0; i < 8; i++)
		if (rop & BIT(i))
			r |= (i & 4 ? p : ~p) & (i & 2 ? s : ~s) &
			     (i & 1 ? d : ~d);
	return r;
}

static u32 br13_cpp(u32 br13)
{
	switch (br13 & I915_BR13_DEPTH_MASK) {
	case I915_BR13_DEPTH_8:
		return 1;
	case I915_BR13_DEPTH_32:
		return 4;
	}
	return 2;
}

static s32 blt_pitch(u32 dw)
{
	return (s16)(dw & I915_BR13_PITCH_MASK);
}

/* BR13: depth, ROP and destination pitch; tiled only on Gen4. */
static void blt_op_init(struct i915_sim_cs *cs, struct blt_op *op, u32 br00,
			u32 br13, bool xy)
{
	op->cpp = br13_cpp(br13);
	op->rop = (br13 & I915_BR13_ROP_MASK) >> I915_BR13_ROP_SHIFT;
	op->dst.pitch = blt_pitch(br13);
	op->dst.tiled = xy && cs->sim->chip->gen >= 4 &&
			(br00 & I965_BLT_DST_TILED);
	if (op->dst.tiled) {
		op->dst.pitch *= sizeof(u32);
		op->dst.swz = cs->sim->swz_x;
	}
}

/* The solid colour over a dword, and which of its bits are written. */
static void blt_set_colour(struct blt_op *op, u32 br00, u32 colour)
{
	u32 pat, mask = ~0u;

	switch (op->cpp) {
	case 1:
		pat = (colour & 0xff) * 0x01010101u;
		break;
	case 2:
		pat = (colour & 0xffff) * 0x00010001u;
		break;
	default:
		pat = colour;
		mask = (br00 & I915_BLT_WRITE_ALPHA ? 0xff000000u : 0) |
		       (br00 & I915_BLT_WRITE_RGB ? 0x00ffffffu : 0);
		break;
	}
	op->pat = (__force u32)cpu_to_le32(pat);
	op->mask = (__force u32)cpu_to_le32(mask);
}

static void blt_set_mask(struct blt_op *op, u32 br00)
{
	blt_set_colour(op, br00, 0);
	op->pat = 0;
}

/* XY commands: clip to the setup's clip rectangle if BR13 asks. */
static bool blt_clip(const struct i915_sim_cs *cs, u32 br13,
		     struct blt_rect *r)
{
	const struct i915_sim_blt_setup *s = &cs->blt;

	if (br13 & I915_BR13_CLIP_ENABLE) {
		r->x1 = max(r->x1, s->clip_x1);
		r->y1 = max(r->y1, s->clip_y1);
		r->x2 = min(r->x2, s->clip_x2);
		r->y2 = min(r->y2, s->clip_y2);
	}
	return r->x1 < r->x2 && r->y1 < r->y2;
}

static void blt_set_rect(struct blt_op *op, const struct blt_rect *r)
{
	op->x = r->x1;
	op->y = r->y1;
	op->width = r->x2 - r->x1;
	op->height = r->y2 - r->y1;
}

/*
 * COLOR_BLT and SRC_COPY_BLT start alike: BR13, height << 16 | width in
 * bytes (whole pixels are drawn), destination address.
 */
static void blt_op_init_bytes(struct i915_sim_cs *cs, struct blt_op *op,
			      const u32 *dw)
{
	blt_op_init(cs, op, dw[0], dw[1], false);
	op->dst.base = dw[3];
	op->width = (dw[2] & 0xffff) / op->cpp;
	op->height = dw[2] >> 16;
}

/*
 * XY_COLOR_BLT and XY_SRC_COPY_BLT start alike: BR13, destination
 * top-left and bottom-right (clipped if BR13 asks), base.  False if the
 * clipped rectangle is empty: nothing to draw.
 */
static bool blt_op_init_xy(struct i915_sim_cs *cs, struct blt_op *op,
			   const u32 *dw)
{
	struct blt_rect r = {
		I915_BLT_X(dw[2]), I915_BLT_Y(dw[2]),
		I915_BLT_X(dw[3]), I915_BLT_Y(dw[3]),
	};

	if (!blt_clip(cs, dw[1], &r))
		return false;
	blt_op_init(cs, op, dw[0], dw[1], true);
	op->dst.base = dw[4];
	blt_set_rect(op, &r);
	return true;
}

/*
 * GTT address of byte @xb of row @y (x and y >= 0 when tiled), bit 6
 * swizzled as the memory controller's configuration asks.
 */
static s64 surf_addr(const struct blt_surf *s, s64 xb, s64 y)
{
	u32 tx = xb, ty = y;
	s64 a;

	if (!s->tiled)
		return s->base + y * s->pitch + xb;
	a = s->base + (s64)(ty / I965_XTILE_HEIGHT) * s->pitch *
		      I965_XTILE_HEIGHT +
	    (s64)(tx / I965_XTILE_WIDTH) * I965_XTILE_SIZE +
	    (ty % I965_XTILE_HEIGHT) * I965_XTILE_WIDTH +
	    tx % I965_XTILE_WIDTH;
	return a ^ ((s64)(hweight32((u32)a & s->swz) & 1) << 6);
}

/* Bytes contiguous in memory from byte @xb on (@back: up to @xb). */
static u32 surf_room(const struct blt_surf *s, s64 xb, bool back)
{
	u32 x = xb;

	u32 unit = s->swz ? I915_SWIZZLE_UNIT : I965_XTILE_WIDTH;

	if (!s->tiled)
		return U32_MAX;
	if (back)
		return (x - 1) % unit + 1;
	return unit - x % unit;
}

static bool surf_valid(const struct blt_surf *s, s32 x, s32 y)
{
	if (!s->tiled)
		return true;
	return s->pitch > 0 && !(s->pitch % I965_XTILE_WIDTH) &&
	       x >= 0 && y >= 0;
}

static int blt_copy(struct i915_sim *sim, s64 addr, void *buf, u32 len,
		    bool to_gpu)
{
	if (addr < 0 || addr + len > U32_MAX)
		return -ERANGE;
	if (sim->chip->gen == 3)
		return i915_sim_fence_copy(sim, addr, buf, len, to_gpu);
	return i915_sim_gtt_copy(sim, addr, buf, len, to_gpu);
}

/* Lowest and highest byte address of the rows of a rectangle. */
static void surf_range(const struct blt_surf *s, s64 xb, s64 y, u32 bytes,
		       u32 height, s64 *lo, s64 *hi)
{
	s64 first, last;

	if (s->tiled) {
		first = surf_addr(s, 0, round_down(y, I965_XTILE_HEIGHT));
		last = surf_addr(s, 0, round_up(y + height, I965_XTILE_HEIGHT));
		*lo = first;
		*hi = last;
		return;
	}
	first = surf_addr(s, xb, y);
	last = surf_addr(s, xb, y + height - 1);
	*lo = min(first, last);
	*hi = max(first, last) + bytes;
}

/* The copy order that makes overlapping blits behave as memmove. */
static void blt_order(const struct blt_op *op, bool *rev_y, bool *rev_x)
{
	u32 bytes = op->width * op->cpp;
	s64 dlo, dhi, slo, shi, d;

	*rev_y = false;
	*rev_x = false;
	if (!op->has_src)
		return;
	if (op->dst.base == op->src.base && op->dst.pitch == op->src.pitch &&
	    op->dst.tiled == op->src.tiled) {
		*rev_y = op->y > op->sy;
		*rev_x = op->y == op->sy && op->x > op->sx;
		return;
	}

	surf_range(&op->dst, (s64)op->x * op->cpp, op->y, bytes, op->height,
		   &dlo, &dhi);
	surf_range(&op->src, (s64)op->sx * op->cpp, op->sy, bytes, op->height,
		   &slo, &shi);
	if (dlo >= shi || slo >= dhi)
		return;
	d = surf_addr(&op->dst, (s64)op->x * op->cpp, op->y) -
	    surf_addr(&op->src, (s64)op->sx * op->cpp, op->sy);
	*rev_x = d > 0;
	*rev_y = (d > 0) == (op->dst.pitch > 0);
}

static void blt_combine(const struct blt_op *op, u32 *d, const u32 *s,
			u32 words)
{
	u32 i;

	for (i = 0; i < words; i++) {
		u32 r = rop3(op->rop, op->pat, op->has_src ? s[i] : 0, d[i]);

		d[i] = (r & op->mask) | (d[i] & ~op->mask);
	}
}

/* Bytes [@off, @off + @n) of row @row of the blit. */
static int blt_span(struct i915_sim_cs *cs, const struct blt_op *op, u32 row,
		    u32 off, u32 n)
{
	struct i915_sim *sim = cs->sim;
	u32 *d = (u32 *)cs->span_dst, *s = (u32 *)cs->span_src;
	s64 daddr = surf_addr(&op->dst, (s64)op->x * op->cpp + off,
			      (s64)op->y + row);
	int ret;

	if (op->has_src) {
		s64 saddr = surf_addr(&op->src, (s64)op->sx * op->cpp + off,
				      (s64)op->sy + row);

		ret = blt_copy(sim, saddr, s, n, false);
		if (ret)
			return ret;
	}
	if (rop_uses_dst(op->rop) || op->mask != ~0u) {
		ret = blt_copy(sim, daddr, d, n, false);
		if (ret)
			return ret;
	}
	blt_combine(op, d, s, DIV_ROUND_UP(n, sizeof(u32)));
	return blt_copy(sim, daddr, d, n, true);
}

/* Longest span that stays contiguous in both surfaces. */
static u32 blt_span_len(const struct blt_op *op, u32 off, u32 left, bool back)
{
	u32 n = min_t(u32, left, I915_SIM_BLT_CHUNK);

	n = min(n, surf_room(&op->dst, (s64)op->x * op->cpp + off, back));
	if (op->has_src)
		n = min(n, surf_room(&op->src, (s64)op->sx * op->cpp + off,
				     back));
	return n;
}

static int blt_row(struct i915_sim_cs *cs, const struct blt_op *op, u32 row,
		   bool rev_x)
{
	u32 bytes = op->width * op->cpp, done = 0, n;
	int ret;

	while (done < bytes) {
		if (rev_x) {
			n = blt_span_len(op, bytes - done, bytes - done, true);
			ret = blt_span(cs, op, row, bytes - done - n, n);
		} else {
			n = blt_span_len(op, done, bytes - done, false);
			ret = blt_span(cs, op, row, done, n);
		}
		if (ret)
			return ret;
		done += n;
	}
	return 0;
}

static enum i915_sim_cs_result blt_run(struct i915_sim_cs *cs,
				       struct i915_sim_cmd *cmd,
				       const struct blt_op *op)
{
	bool rev_y, rev_x;
	u32 i;
	int ret;

	if (!surf_valid(&op->dst, op->x, op->y) ||
	    (op->has_src && !surf_valid(&op->src, op->sx, op->sy)))
		return i915_sim_cs_bad(cs, cmd, "bad tiled surface");

	blt_order(op, &rev_y, &rev_x);
	for (i = 0; i < op->height; i++) {
		ret = blt_row(cs, op, rev_y ? op->height - 1 - i : i, rev_x);
		if (ret)
			return i915_sim_cs_fault(cs, cmd, ret,
						 I915_PGTBL_ERR_CS_GTT,
						 "blit through the GTT");
		if (i915_sim_cs_aborted(cs, cmd))
			return I915_SIM_CS_ABORT;
		cond_resched();
	}
	atomic_long_inc(&cs->blits);
	atomic_long_add((long)op->width * op->cpp * op->height,
			&cs->blit_bytes);
	return I915_SIM_CS_NEXT;
}

/* --- commands ------------------------------------------------------------ */

static enum i915_sim_cs_result xy_setup_blt(struct i915_sim_cs *cs,
					    struct i915_sim_cmd *cmd)
{
	struct i915_sim_blt_setup *s = &cs->blt;
	const u32 *dw = cmd->dw;

	s->br13 = dw[1];
	s->clip_x1 = I915_BLT_X(dw[2]);
	s->clip_y1 = I915_BLT_Y(dw[2]);
	s->clip_x2 = I915_BLT_X(dw[3]);
	s->clip_y2 = I915_BLT_Y(dw[3]);
	s->dst = dw[4];
	s->bg = dw[5];
	s->fg = dw[6];
	s->pattern = dw[7];
	return I915_SIM_CS_NEXT;
}

static enum i915_sim_cs_result xy_setup_clip_blt(struct i915_sim_cs *cs,
						 struct i915_sim_cmd *cmd)
{
	struct i915_sim_blt_setup *s = &cs->blt;

	s->clip_x1 = I915_BLT_X(cmd->dw[1]);
	s->clip_y1 = I915_BLT_Y(cmd->dw[1]);
	s->clip_x2 = I915_BLT_X(cmd->dw[2]);
	s->clip_y2 = I915_BLT_Y(cmd->dw[2]);
	return I915_SIM_CS_NEXT;
}

/* COLOR_BLT: BR13, height << 16 | width in bytes, address, colour. */
static enum i915_sim_cs_result color_blt(struct i915_sim_cs *cs,
					 struct i915_sim_cmd *cmd)
{
	const u32 *dw = cmd->dw;
	struct blt_op op = { };

	blt_op_init_bytes(cs, &op, dw);
	blt_set_colour(&op, dw[0], dw[4]);
	return blt_run(cs, cmd, &op);
}

/* SRC_COPY_BLT: BR13, size in bytes, dst, source pitch, source. */
static enum i915_sim_cs_result src_copy_blt(struct i915_sim_cs *cs,
					    struct i915_sim_cmd *cmd)
{
	const u32 *dw = cmd->dw;
	struct blt_op op = { };

	blt_op_init_bytes(cs, &op, dw);
	op.src.pitch = blt_pitch(dw[4]);
	op.src.base = dw[5];
	op.has_src = rop_uses_src(op.rop);
	blt_set_mask(&op, dw[0]);
	return blt_run(cs, cmd, &op);
}

/* XY_COLOR_BLT: BR13, top-left, bottom-right, base, colour. */
static enum i915_sim_cs_result xy_color_blt(struct i915_sim_cs *cs,
					    struct i915_sim_cmd *cmd)
{
	const u32 *dw = cmd->dw;
	struct blt_op op = { };

	if (!blt_op_init_xy(cs, &op, dw))
		return I915_SIM_CS_NEXT;
	blt_set_colour(&op, dw[0], dw[5]);
	return blt_run(cs, cmd, &op);
}

/*
 * XY_SRC_COPY_BLT: BR13, destination corners, base, source top-left,
 * source pitch, source base.  Clipping moves the source with the
 * destination.
 */
static enum i915_sim_cs_result xy_src_copy_blt(struct i915_sim_cs *cs,
					       struct i915_sim_cmd *cmd)
{
	const u32 *dw = cmd->dw;
	s32 dx = I915_BLT_X(dw[5]) - I915_BLT_X(dw[2]);
	s32 dy = I915_BLT_Y(dw[5]) - I915_BLT_Y(dw[2]);
	struct blt_op op = { };

	if (!blt_op_init_xy(cs, &op, dw))
		return I915_SIM_CS_NEXT;
	op.sx = op.x + dx;
	op.sy = op.y + dy;
	op.src.base = dw[7];
	op.src.pitch = blt_pitch(dw[6]);
	op.src.tiled = cs->sim->chip->gen >= 4 &&
		       (dw[0] & I965_BLT_SRC_TILED);
	if (op.src.tiled) {
		op.src.pitch *= sizeof(u32);
		op.src.swz = cs->sim->swz_x;
	}
	op.has_src = rop_uses_src(op.rop);
	blt_set_mask(&op, dw[0]);
	return blt_run(cs, cmd, &op);
}

/**
 * struct blt_desc - a 2D command the model executes
 * @opcode: BR00 bits 28:22
 * @len: its length in dwords
 * @exec: executes it
 */
struct blt_desc {
	u8 opcode;
	u8 len;
	i915_sim_cmd_fn exec;
};

static const struct blt_desc blt_cmds[] = {
	{ I915_2D_XY_SETUP_BLT_OP, 8, xy_setup_blt },
	{ I915_2D_XY_SETUP_CLIP_BLT_OP, 3, xy_setup_clip_blt },
	{ I915_2D_COLOR_BLT_OP, 5, color_blt },
	{ I915_2D_SRC_COPY_BLT_OP, 6, src_copy_blt },
	{ I915_2D_XY_COLOR_BLT_OP, 6, xy_color_blt },
	{ I915_2D_XY_SRC_COPY_BLT_OP, 8, xy_src_copy_blt },
};

/**
 * i915_sim_blt_decode - decode a blitter command
 * @cs: the command streamer
 * @cmd: the command, its header fetched
 *
 * Return: %I915_SIM_CS_NEXT with the length and executor set in @cmd, or
 * %I915_SIM_CS_ERROR for a command the model does not execute or a wrong
 * length.
 */
enum i915_sim_cs_result i915_sim_blt_decode(struct i915_sim_cs *cs,
					    struct i915_sim_cmd *cmd)
{
	u32 op = I915_2D_OPCODE(cmd->dw[0]);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(blt_cmds); i++) {
		if (blt_cmds[i].opcode != op)
			continue;
		if (I915_2D_LEN(cmd->dw[0]) != blt_cmds[i].len)
			return i915_sim_cs_bad(cs, cmd, "bad 2D command length");
		cmd->len = blt_cmds[i].len;
		cmd->exec = blt_cmds[i].exec;
		return I915_SIM_CS_NEXT;
	}
	return i915_sim_cs_bad(cs, cmd, "2D command the model does not execute");
}
