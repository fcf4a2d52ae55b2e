/* SPDX-License-Identifier: GPL-2.0 */
/**
 * DOC: Gen3/Gen4 register and GTT facts
 *
 * MMIO offsets, bit fields and PTE layouts of Intel Gen3 (915/945/G33/
 * Pineview) and Gen4 (965/G35/G4x) GPUs, shared by the driver and the
 * software model.  Facts from ../shared/reference/gen3-gen4-hardware.md.
 */
#ifndef _I915_REG_H_
#define _I915_REG_H_

#include <linux/bits.h>
#include <linux/types.h>

/*
 * Masked registers: bits 31:16 enable writes to bits 15:0.  Enabling a bit
 * b of 15:0 writes it together with its enable bit: b * 0x10001.
 */
#define I915_MASKED_BIT_ENABLE(b)	((b) * 0x10001u)
#define I915_MASKED_BIT_DISABLE(b)	((b) << 16)

/* PCI */
#define I915_MMIO_BAR			0
#define I915_GEN3_GTT_BAR		3
#define I915_APERTURE_BAR		2
#define I915_MMIO_SIZE			(512 * 1024)
#define I915_GEN4_GTT_OFFSET		(512 * 1024)
#define I915_G4X_GTT_OFFSET		(2 * 1024 * 1024)
#define I915_PCI_GDRST			0xc0

/* Host bridge (00:00.0) config space: graphics control (GGC) */
#define I915_GMCH_CTRL			0x52
#define   I915_GMCH_GMS_SHIFT		4	/* stolen size, 0 = none */
#define   I915_GMCH_GMS_MASK		(0xf << I915_GMCH_GMS_SHIFT)

/*
 * MiB of stolen memory per GMS code on 85x, 915/945, G33 and Gen4 (830
 * and 845 use another encoding); the codes a part accepts differ, the
 * meaning of each does not.
 */
static inline unsigned int i915_gms_stolen_mib(u16 gmch_ctrl)
{
	static const u16 mib[16] = {
		0, 1, 4, 8, 16, 32, 48, 64, 128, 256, 96, 160, 224, 352,
	};

	return mib[(gmch_ctrl & I915_GMCH_GMS_MASK) >> I915_GMCH_GMS_SHIFT];
}

/* GTT control */
#define I915_PGTBL_CTL			0x2020
#define   I915_PGTBL_ENABLE		BIT(0)
#define I915_PGTBL_ER			0x2024
/* PGTBL_ER client bits: IGT lists them for i945; assumed for all parts */
#define   I915_PGTBL_ERR_CS_GTT		BIT(19)
#define   I915_PGTBL_ERR_CS_INSTRUCTION	BIT(20)
#define I915_GFX_FLSH_CNTL		0x2170

/* Tiled surfaces: tile widths and the pitches a fence register holds */
#define I915_TILE_WIDTH			512	/* X; Y on 915G/GM too */
#define I945_TILE_WIDTH_Y		128	/* Y from 945G on */
#define I915_FENCE_MAX_PITCH		8192	/* Gen3: a power of two */
#define I965_FENCE_PITCH_UNIT		128	/* Gen4: pitch in 128 B units */
#define I965_FENCE_MAX_PITCH_VAL	0x400
/* Tile rows: X 8 rows of 512 B, Y 32 rows of 128 B (915G/GM: 8 of 512 B) */
#define I915_TILE_HEIGHT_X		8
#define I945_TILE_HEIGHT_Y		32
#define I915_TILE_HEIGHT_Y_512		8
#define I945_YTILE_OWORD		16	/* Y: 16-byte columns */
#define I915_YTILE_512_SPAN		32	/* 915G/GM Y: 32-byte columns */

/*
 * Fence registers (fact sheet 6.1-6.3).  Gen3: one dword each, 0-7 at
 * 0x2000, 8-15 (945/G33/Pineview) at 0x3000.  Gen4: 64-bit, LO and HI.
 */
#define I915_FENCE_REG_LOW		0x2000	/* fences 0-7 */
#define I915_FENCE_REG_HIGH		0x3000	/* fences 8-15 */
#define   I915_FENCE_START_MASK		0x0ff00000u
#define   I915_FENCE_TILING_Y		BIT(12)
#define   I915_FENCE_SIZE_SHIFT		8
#define   I915_FENCE_SIZE_MASK		(0xfu << I915_FENCE_SIZE_SHIFT)
#define   I915_FENCE_PITCH_SHIFT	4
#define   I915_FENCE_PITCH_MASK		(0xfu << I915_FENCE_PITCH_SHIFT)
#define   I915_FENCE_VALID		BIT(0)
#define I915_FENCE_MIN_SIZE		BIT(20)	/* size code 0 */
#define I965_FENCE_REG_LO(i)		(0x3000 + (i) * 8)
#define I965_FENCE_REG_HI(i)		(0x3004 + (i) * 8)
#define   I965_FENCE_ADDR_MASK		0xfffff000u
#define   I965_FENCE_PITCH_SHIFT	2
#define   I965_FENCE_PITCH_MASK		(0x3ffu << I965_FENCE_PITCH_SHIFT)
#define   I965_FENCE_TILING_Y		BIT(1)
#define   I965_FENCE_VALID		BIT(0)
#define I965_FENCE_PAGE			4096
#define I915_MAX_FENCES			16

/* The MMIO offset of Gen3 fence register @i. */
static inline u32 i915_fence_reg(unsigned int i)
{
	if (i < 8)
		return I915_FENCE_REG_LOW + i * 4;
	return I915_FENCE_REG_HIGH + (i - 8) * 4;
}

/* GTT page-table entries */
#define I915_GTT_PAGE_SIZE		4096
#define I915_PTE_VALID			BIT(0)
#define I915_PTE_TYPE_MASK		GENMASK(2, 1)
#define I915_PTE_UNCACHED		0
#define I915_PTE_SNOOPED		GENMASK(2, 1)
#define I915_PTE_ADDR_MASK		0xfffff000u
#define I965_PTE_ADDR_HI_MASK		0xf0u	/* phys bits 35:32 in 7:4 */
#define I965_PTE_ADDR_HI_SHIFT		28

/* Render ring (PRB0) */
#define I915_RENDER_RING_BASE		0x2000
#define I915_RING_TAIL			0x2030
#define I915_RING_HEAD			0x2034
#define I915_RING_START			0x2038
#define I915_RING_CTL			0x203c
#define   I915_TAIL_ADDR		0x001ffff8
#define   I915_HEAD_ADDR		0x001ffffc
#define   I915_HEAD_WRAP_ONE		0x00200000
#define   I915_RING_VALID		BIT(0)
#define   I915_RING_WAIT		BIT(11)
#define   I915_RING_NR_PAGES		0x001ff000
#define   I915_RING_CTL_SIZE(bytes)	(((bytes) - 4096) & I915_RING_NR_PAGES)
#define I915_HWS_PGA			0x2080
#define   I915_HWS_ADDR_MASK		0xfffff000u
#define   I965_HWS_ADDR_HI_MASK		0xf0u	/* phys bits 35:32 in 7:4 */
#define   I965_HWS_ADDR_HI_SHIFT	28
#define I915_HWSTAM			0x2098
#define   I915_HWSTAM_USER_ONLY		((u32)~I915_USER_INTERRUPT)
#define I915_MI_MODE			0x209c
#define   I915_MI_MODE_STOP_RING	BIT(8)
#define   I915_MI_MODE_IDLE		BIT(9)
#define I915_INSTPM			0x20c0

/* Per-generation engine status registers */
#define I915_GEN3_IPEIR			0x2088
#define I915_GEN3_IPEHR			0x208c
#define I915_GEN3_INSTDONE		0x2090
#define I915_GEN3_ACTHD			0x20c8
#define I965_IPEIR			0x2064
#define I965_IPEHR			0x2068
#define I965_INSTDONE			0x206c
#define I965_ACTHD			0x2074

/* Interrupts */
#define I915_IER			0x20a0
#define I915_IIR			0x20a4
#define I915_IMR			0x20a8
#define I915_ISR			0x20ac
#define   I915_USER_INTERRUPT		BIT(1)
#define   I915_MASTER_ERROR_INTERRUPT	BIT(15)
#define   I915_PIPE_CONTROL_NOTIFY_INTERRUPT	BIT(18)
#define   I915_BSD_USER_INTERRUPT	BIT(25)

/* Errors */
#define I915_EIR			0x20b0
#define I915_EMR			0x20b4
#define I915_ESR			0x20b8
#define   I915_ERROR_INSTRUCTION	BIT(0)
#define   I915_ERROR_PAGE_TABLE		BIT(4)
#define   GM45_ERROR_CP_PRIV		BIT(3)
#define   GM45_ERROR_MEM_PRIV		BIT(4)
#define   GM45_ERROR_PAGE_TABLE		BIT(5)

/*
 * Further facts used by the software model (fact sheet sections 1.4, 1.6,
 * 3.1, 3.3, 3.5, 4.5, 6.6 and 9).
 */

/* PGTBL_CTL fields: size code (G33/965/G4x) and table address */
#define   I965_PGTBL_SIZE(code)		((code) << 1)
#define   I915_PGTBL_SIZE_MASK		I965_PGTBL_SIZE(7)
#define   I965_PGTBL_SIZE_512K		I965_PGTBL_SIZE(0)
#define   I965_PGTBL_SIZE_256K		I965_PGTBL_SIZE(1)
#define   I965_PGTBL_SIZE_128K		I965_PGTBL_SIZE(2)
#define   I965_PGTBL_SIZE_1M		I965_PGTBL_SIZE(3)
#define   I965_PGTBL_SIZE_2M		I965_PGTBL_SIZE(4)
#define   I965_PGTBL_SIZE_1_5M		I965_PGTBL_SIZE(5)
#define   I965_PGTBL_ADDR_HI_MASK	0xf0u	/* phys bits 35:32 in 7:4 */
#define   I915_PGTBL_ADDR_MASK		0xfffff000u
#define I965_PGTBL_CTL2			0x20c4

/* More ring and engine registers */
#define I915_PRB1_BASE			0x2040
#define I915_PRB2_BASE			0x2050
#define   I915_HEAD_WRAP_COUNT		0xffe00000u
#define   I915_RING_START_MASK		0xfffff000u
#define I915_NOPID			0x2094
#define I915_GEN3_DMA_FADD		0x20d0
#define I965_INSTPS			0x2070
#define I965_DMA_FADD			0x2078
#define I965_INSTDONE1			0x207c
#define I915_MI_ARB_STATE		0x20e4	/* masked */
#define I965_BBSTATE			0x2110	/* read by error capture */
#define I965_BBADDR			0x2140	/* last batch head address */
#define I915_CACHE_MODE_0		0x2120	/* masked */
#define I965_CXT_SIZE			0x21a0
#define I915_ECOSKPD			0x21d0	/* masked */

/*
 * Gen4: the render engine's timestamp, 64 bits as two dwords (lower,
 * upper), read only; it counts once every 16 host clocks (hrawclk, a
 * quarter of the FSB frequency that CLKCFG's straps give).  Gen3 has no
 * such register (upstream's REG_READ list starts at Gen4).
 */
#define I965_RING_TIMESTAMP		(I915_RENDER_RING_BASE + 0x358)
#define I965_RING_TIMESTAMP_UDW		(I915_RENDER_RING_BASE + 0x35c)
#define   I915_TIMESTAMP_HCLK_DIVIDER	16

/* G4x: video decode clock gating (the VCP must be clocked for a media reset) */
#define G4X_VDECCLK_GATE_D		0x620c
#define   G4X_VCP_UNIT_CLOCK_GATE_DISABLE	BIT(4)

/* MCHBAR mirror: DRAM channel configuration (swizzle detection) */
#define I915_DCC			0x10200
#define   I915_DCC_ADDRESSING_MODE_MASK	3
#define   I915_DCC_SINGLE_CHANNEL	0
#define   I915_DCC_DUAL_ASYMMETRIC	1
#define   I915_DCC_DUAL_INTERLEAVED	2
#define   I915_DCC_CHANNEL_XOR_BIT_17	BIT(9)
#define   I915_DCC_CHANNEL_XOR_DISABLE	BIT(10)
#define I915_DCC2			0x10204
#define   I965_DCC2_MODIFIED_ENHANCED_DISABLE	BIT(20)
/*
 * G33, 965G and G45 desktop parts: the top of rank 3 of each channel,
 * 16-bit registers in the upper halves of these dwords.
 */
#define I965_C0DRB3_DW			0x10204	/* C0DRB3 at 0x10206 */
#define I965_C1DRB3_DW			0x10604	/* C1DRB3 at 0x10606 */
#define   I965_DRB3_SHIFT		16

/*
 * MCHBAR mirror: clocking configuration (Gen3/Gen4).  Bits 2:0 are the
 * FSB frequency straps, whose codes mobile and desktop parts assign
 * differently; bits 6:4 the memory frequency.
 */
#define I915_CLKCFG			0x10c00
#define   I915_CLKCFG_FSB_MASK		0x7
#define   I915_CLKCFG_FSB_400		0	/* mobile */
#define   I915_CLKCFG_FSB_533		1
#define   I915_CLKCFG_FSB_800		2
#define   I915_CLKCFG_FSB_667		3
#define   I915_CLKCFG_FSB_1067		6	/* mobile */
#define   I915_CLKCFG_FSB_1333		7	/* mobile */
#define   I915_CLKCFG_FSB_1067_ALT	0	/* desktop */
#define   I915_CLKCFG_FSB_1333_ALT	4	/* desktop */
#define   I915_CLKCFG_FSB_400_ALT	5	/* desktop */
#define   I915_CLKCFG_FSB_1600_ALT	6	/* desktop */
#define   I915_CLKCFG_MEM(code)		((code) << 4)
#define   I915_CLKCFG_MEM_MASK		I915_CLKCFG_MEM(7)
#define   I915_CLKCFG_MEM_533		I915_CLKCFG_MEM(1)
#define   I915_CLKCFG_MEM_667		I915_CLKCFG_MEM(2)
#define   I915_CLKCFG_MEM_800		I915_CLKCFG_MEM(3)
/* hrawclk (kHz) where the straps give none the table knows */
#define I915_HRAWCLK_DEFAULT_KHZ	133333

/* GPU PCI config space */
#define I915_PCI_BSM			0x5c
#define   I915_GDRST_RESET_ENABLE	BIT(0)
#define   I915_GDRST_RESET_STATUS	BIT(1)
#define   I915_GDRST_DOMAIN_MASK	(3 << 2)
#define   I915_GDRST_DOMAIN(d)		((d) << 2)
#define   I915_GDRST_DOMAIN_FULL	I915_GDRST_DOMAIN(0)
#define   I915_GDRST_DOMAIN_RENDER	I915_GDRST_DOMAIN(1)
#define   I915_GDRST_DOMAIN_MEDIA	I915_GDRST_DOMAIN(3)

#endif /* _I915_REG_H_ */
