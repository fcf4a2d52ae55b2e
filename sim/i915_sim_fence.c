// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: software model - fences, tiling and the memory controller
 *
 * Fence registers keep what is written, in the hardware's layout (Gen3:
 * one dword each, 0-7 at 0x2000 and on 945/G33/Pineview 8-15 at 0x3000;
 * Gen4: LO/HI pairs at 0x3000).  They are decoded on every access that
 * goes through them: i915_sim_fence_translate() turns an address inside
 * a valid fence's range into where the tiled, bit-6 swizzled surface
 * keeps that byte (the fact sheet's section 6.5 arithmetic: X tiles of
 * 512 bytes by 8 rows, Y tiles of 16-byte columns by 32 rows, on
 * 915G/GM Y tiles of 32-byte columns by 8 rows).  On Gen3 the blitter's
 * memory accesses go through it (i915_sim_fence_copy()); the model's 3D
 * engine draws nothing, so nothing else does.  Gen4's GPU ignores fences
 * (its blitter has tiled bits); the fence table is there for the CPU's
 * aperture, whose fenced pages the model shows through shadow pages
 * (i915_sim_aperture.c).
 *
 * Strictness: silicon does not define what a fence with an impossible
 * layout does; the model makes an access that hits one a GTT fault
 * (page-table error): on Gen3 a start that is not a multiple of the
 * size, on Gen4 a last page below the start.  Overlapping fences: the
 * lowest-numbered one wins.
 *
 * The memory controller (MCHBAR mirror at 0x10000): DCC, DCC2 and
 * C0DRB3/C1DRB3 read what the part's chosen configuration says and
 * ignore writes; the bit-6 swizzling of tiled accesses follows from that
 * configuration, as on silicon:
 *
 * - 915G, E7221, 945G: two matched DIMMs in dual-channel interleaved
 *   mode with the channel XOR disabled (BIOS "enhanced addressing" off),
 *   the usual desktop build of these boards: X tiles swizzle bit 6 with
 *   bits 9 and 10, Y tiles with bit 9.
 * - 915GM, 945GM/GME, Pineview, 965GM/GME, GM45: one DIMM, single channel
 *   (a laptop or netbook with one SO-DIMM; Pineview's controller has one
 *   channel), DCC2 saying modified enhanced addressing is off: no
 *   swizzling.
 * - G33/Q33/Q35, 946GZ/965G/G35/Q965, G45 family: two channels of equal
 *   size (C0DRB3 = C1DRB3), interleaved: 9_10 and 9.
 *
 * No part is given a bit-17 (or bit-11) channel XOR: bit 17 is a
 * physical-address bit that follows the page, not the GTT address, and
 * needs the driver's page-swap fix-ups, which it does not have.
 *
 * CLKCFG (MCHBAR 0xc00, mirrored at 0x10c00) reads the FSB and memory
 * frequency straps of the same usual builds and ignores writes: desktop
 * parts an 800 MHz FSB with DDR2-667 (a 945G board with a Core 2 or a
 * Pentium D), GM45 a 1066 MHz FSB with DDR2-800 (a Core 2 Duo P8x00
 * laptop), the other mobile parts a 667 MHz FSB with DDR2-533.  The FSB
 * code is the mobile encoding on mobile parts and the desktop one on the
 * others (they differ: 6 is 1066 MHz on one and 1600 MHz on the other).
 * The Gen4 timestamp ticks once every 16 host clocks, the host clock
 * being a quarter of the FSB: 12.5 MHz on the desktop Gen4 parts,
 * 16.67 MHz on GM45, 12.5 MHz on 965GM/GME.
 */

#include <linux/bitops.h>
#include <linux/math64.h>

#include "i915_cmd.h"
#include "i915_reg.h"
#include "i915_sim.h"
#include "i915_sim_regs.h"

/* DRB3 in 64 MiB units: 1 GiB per channel. */
#define SIM_DRB3_1G		0x10

/* FSB (kHz) and CLKCFG of the part's usual build, as the DOC says */
static u32 chip_clkcfg(const struct i915_sim_chip *c, u32 *fsb_khz)
{
	if (!(c->flags & I915_SIM_MOBILE)) {
		*fsb_khz = 800000;
		return I915_CLKCFG_FSB_800 | I915_CLKCFG_MEM_667;
	}
	if (c->flags & I915_SIM_G4X) {
		*fsb_khz = 1066667;
		return I915_CLKCFG_FSB_1067 | I915_CLKCFG_MEM_800;
	}
	if (c->gen == 4) {
		*fsb_khz = 800000;
		return I915_CLKCFG_FSB_800 | I915_CLKCFG_MEM_533;
	}
	*fsb_khz = 666667;
	return I915_CLKCFG_FSB_667 | I915_CLKCFG_MEM_533;
}

static bool chip_desktop_dual(const struct i915_sim_chip *c)
{
	return c->gen == 3 && !(c->flags & (I915_SIM_MOBILE | I915_SIM_G33));
}

static bool chip_drb(const struct i915_sim_chip *c)
{
	if (c->gen == 4)
		return !(c->flags & I915_SIM_MOBILE);
	return (c->flags & I915_SIM_G33) && !(c->flags & I915_SIM_PINEVIEW);
}

/**
 * i915_sim_mc_reset - the memory controller's registers and swizzling
 * @sim: the model, at power-on (its lock held or not yet visible)
 */
void i915_sim_mc_reset(struct i915_sim *sim)
{
	const struct i915_sim_chip *c = sim->chip;
	u32 swz_x = 0, swz_y = 0, fsb_khz;

	*i915_sim_reg(sim, I915_CLKCFG) = chip_clkcfg(c, &fsb_khz);
	/* hclk is FSB / 4; the timestamp counts every 16 of them */
	sim->ts_hz = 0;
	if (c->gen == 4)
		sim->ts_hz = div_u64((u64)fsb_khz * 1000,
				     4 * I915_TIMESTAMP_HCLK_DIVIDER);

	if (chip_drb(c)) {
		*i915_sim_reg(sim, I965_C0DRB3_DW) =
			SIM_DRB3_1G << I965_DRB3_SHIFT;
		*i915_sim_reg(sim, I965_C1DRB3_DW) =
			SIM_DRB3_1G << I965_DRB3_SHIFT;
		swz_x = BIT(9) | BIT(10);
		swz_y = BIT(9);
	} else if (chip_desktop_dual(c)) {
		*i915_sim_reg(sim, I915_DCC) = I915_DCC_DUAL_INTERLEAVED |
					       I915_DCC_CHANNEL_XOR_DISABLE;
		swz_x = BIT(9) | BIT(10);
		swz_y = BIT(9);
	} else {
		*i915_sim_reg(sim, I915_DCC) = I915_DCC_SINGLE_CHANNEL;
		if (c->gen == 4)
			*i915_sim_reg(sim, I915_DCC2) =
				I965_DCC2_MODIFIED_ENHANCED_DISABLE;
	}
	sim->swz_x = swz_x;
	sim->swz_y = swz_y;
}

/**
 * i915_sim_mc_read_only - is @reg a memory-controller register?
 * @sim: the model
 * @reg: byte offset
 *
 * Return: true for DCC, DCC2, the DRB3 dwords and CLKCFG, which ignore
 * writes.
 */
bool i915_sim_mc_read_only(struct i915_sim *sim, u32 reg)
{
	return reg == I915_DCC || reg == I915_DCC2 || reg == I965_C1DRB3_DW ||
	       reg == I915_CLKCFG;
}

/**
 * struct sim_fence - a fence register decoded
 * @start: first GTT address of its range
 * @end: end of the range (exclusive)
 * @stride: bytes per row of tiles
 * @y: Y tiling
 * @bad: a layout silicon does not define
 */
struct sim_fence {
	u64 start;
	u64 end;
	u32 stride;
	bool y;
	bool bad;
};

static unsigned int sim_num_fences(struct i915_sim *sim)
{
	if (sim->chip->gen == 3 && (sim->chip->flags & I915_SIM_Y512))
		return 8;
	return I915_MAX_FENCES;
}

static bool sim_fence_decode(struct i915_sim *sim, unsigned int i,
			     struct sim_fence *f)
{
	u32 val, hi, width;

	if (sim->chip->gen >= 4) {
		val = READ_ONCE(*i915_sim_reg(sim, I965_FENCE_REG_LO(i)));
		hi = READ_ONCE(*i915_sim_reg(sim, I965_FENCE_REG_HI(i)));
		if (!(val & I965_FENCE_VALID))
			return false;
		f->start = val & I965_FENCE_ADDR_MASK;
		f->end = (u64)(hi & I965_FENCE_ADDR_MASK) + I965_FENCE_PAGE;
		f->stride = (((val & I965_FENCE_PITCH_MASK) >>
			      I965_FENCE_PITCH_SHIFT) + 1) *
			    I965_FENCE_PITCH_UNIT;
		f->y = val & I965_FENCE_TILING_Y;
		f->bad = f->end <= f->start;
		return true;
	}

	val = READ_ONCE(*i915_sim_reg(sim, i915_fence_reg(i)));
	if (!(val & I915_FENCE_VALID))
		return false;
	f->y = val & I915_FENCE_TILING_Y;
	width = f->y && !(sim->chip->flags & I915_SIM_Y512) ?
		I945_TILE_WIDTH_Y : I915_TILE_WIDTH;
	f->start = val & I915_FENCE_START_MASK;
	f->end = f->start + ((u64)I915_FENCE_MIN_SIZE <<
			     ((val & I915_FENCE_SIZE_MASK) >>
			      I915_FENCE_SIZE_SHIFT));
	f->stride = width << ((val & I915_FENCE_PITCH_MASK) >>
			      I915_FENCE_PITCH_SHIFT);
	f->bad = !IS_ALIGNED(f->start, f->end - f->start);
	return true;
}

/* Bit 6 takes the parity of the address bits in @mask. */
static u64 swizzle(u64 off, u32 mask)
{
	return off ^ ((u64)(hweight32((u32)off & mask) & 1) << 6);
}

/**
 * i915_sim_tiled_offset - where a tiled surface keeps a byte
 * @sim: the model
 * @v: linear offset of the byte within the surface (row * stride + x)
 * @stride: bytes per row of the surface, a multiple of the tile width
 * @y: Y tiling, else X
 * @run: set to the bytes from @v on that stay contiguous
 *
 * Return: the byte's offset in the tiled surface, bit-6 swizzled as this
 * part's memory controller swizzles it.
 */
u64 i915_sim_tiled_offset(struct i915_sim *sim, u64 v, u32 stride, bool y,
			  u32 *run)
{
	bool y512 = sim->chip->flags & I915_SIM_Y512;
	u64 row = div_u64(v, stride);
	u32 x = v - row * stride, h, span, tiles, off, mask;

	if (!y) {
		h = I915_TILE_HEIGHT_X;
		span = I915_TILE_WIDTH;
		mask = sim->swz_x;
	} else {
		h = y512 ? I915_TILE_HEIGHT_Y_512 : I945_TILE_HEIGHT_Y;
		span = y512 ? I915_YTILE_512_SPAN : I945_YTILE_OWORD;
		mask = sim->swz_y;
	}
	tiles = h * span;	/* bytes of one column of a tile */
	off = (row % h) * span + (x / span) * tiles + x % span;
	*run = span - x % span;
	if (mask)
		*run = min_t(u32, *run, I915_SWIZZLE_UNIT - x % I915_SWIZZLE_UNIT);
	return swizzle((row / h) * stride * h + off, mask);
}

/**
 * i915_sim_fence_translate - a GTT address as the fences see it
 * @sim: the model
 * @addr: GTT address
 * @out: set to the address the access really reaches
 * @run: set to the bytes from @addr on that stay contiguous there
 *
 * Return: 0, or -EFAULT if @addr hits a fence silicon does not define.
 */
int i915_sim_fence_translate(struct i915_sim *sim, u32 addr, u32 *out,
			     u32 *run)
{
	u64 next = (u64)U32_MAX + 1;
	struct sim_fence f;
	unsigned int i;

	for (i = 0; i < sim_num_fences(sim); i++) {
		if (!sim_fence_decode(sim, i, &f))
			continue;
		if (addr < f.start) {
			next = min(next, f.start);
			continue;
		}
		if (addr >= f.end)
			continue;
		if (f.bad)
			return -EFAULT;
		*out = f.start + i915_sim_tiled_offset(sim, addr - f.start,
						       f.stride, f.y, run);
		*run = min_t(u64, *run, f.end - addr);
		return 0;
	}
	*out = addr;
	*run = min_t(u64, next - addr, U32_MAX);
	return 0;
}

/**
 * i915_sim_fence_find - the fence whose range holds a GTT address
 * @sim: the model
 * @addr: GTT address
 * @d: set to the fence's layout
 *
 * The lowest-numbered valid fence holding @addr, as for the GPU.
 *
 * Return: 1 and @d set, 0 if no valid fence holds @addr, -EFAULT if the
 * one that does has a layout silicon does not define.
 */
int i915_sim_fence_find(struct i915_sim *sim, u32 addr,
			struct i915_sim_fence_desc *d)
{
	struct sim_fence f;
	unsigned int i;

	for (i = 0; i < sim_num_fences(sim); i++) {
		if (!sim_fence_decode(sim, i, &f) || addr < f.start ||
		    addr >= f.end)
			continue;
		if (f.bad)
			return -EFAULT;
		d->start = f.start;
		d->end = f.end;
		d->stride = f.stride;
		d->y = f.y;
		return 1;
	}
	return 0;
}

/**
 * i915_sim_fence_reg_is - is @reg one of this part's fence registers?
 * @sim: the model
 * @reg: byte offset
 *
 * Return: true for a fence register (either half on Gen4).
 */
bool i915_sim_fence_reg_is(struct i915_sim *sim, u32 reg)
{
	unsigned int n = sim_num_fences(sim);

	if (sim->chip->gen >= 4)
		return reg >= I965_FENCE_REG_LO(0) &&
		       reg < I965_FENCE_REG_LO(n);
	if (reg >= I915_FENCE_REG_LOW && reg < I915_FENCE_REG_LOW + 8 * 4)
		return true;
	return n > 8 && reg >= I915_FENCE_REG_HIGH &&
	       reg < I915_FENCE_REG_HIGH + (n - 8) * 4;
}

/**
 * i915_sim_fence_copy - copy GPU memory through the fences
 * @sim: the model
 * @addr: GTT address
 * @buf: the bytes
 * @len: how many
 * @to_gpu: write to the GPU's memory, else read
 *
 * As i915_sim_gtt_copy(), each byte at the address the fences give it.
 *
 * Return: 0, or a negative errno (a GTT fault) as i915_sim_gtt_copy().
 */
int i915_sim_fence_copy(struct i915_sim *sim, u32 addr, void *buf,
			size_t len, bool to_gpu)
{
	u32 phys, run, n;
	int ret;

	while (len) {
		ret = i915_sim_fence_translate(sim, addr, &phys, &run);
		if (ret)
			return ret;
		n = min_t(size_t, len, run);
		ret = i915_sim_gtt_copy(sim, phys, buf, n, to_gpu);
		if (ret)
			return ret;
		addr += n;
		buf += n;
		len -= n;
	}
	return 0;
}
