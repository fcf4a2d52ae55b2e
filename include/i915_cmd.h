/* SPDX-License-Identifier: GPL-2.0 */
/**
 * DOC: Gen3/Gen4 command encodings
 *
 * Dword layouts of the commands the driver emits and the software model's
 * command streamer and blitter execute: MI (client 0), 2D blitter
 * (client 2) and the 3D (client 3) commands the driver uses for cliprects.
 * Facts from ../shared/reference/gen3-gen4-hardware.md, section 5.
 */
#ifndef _I915_CMD_H_
#define _I915_CMD_H_

#include <linux/bits.h>

/* Header decoding */
#define I915_CMD_CLIENT(dw)		(((dw) >> 29) & 0x7)
#define   I915_CLIENT_MI		0
#define   I915_CLIENT_2D		2
#define   I915_CLIENT_3D		3
#define I915_MI_OPCODE(dw)		(((dw) >> 23) & 0x3f)
#define I915_MI_OPCODES			64
#define I915_MI_LEN_MASK		0x3f	/* opcodes >= 0x10: total - 2 */
#define I915_MI_FIRST_LONG_OPCODE	0x10
#define I915_2D_OPCODE(dw)		(((dw) >> 22) & 0x7f)
#define I915_2D_LEN_MASK		0xff	/* total - 2 */

#define I915_MI_INSTR(op, len)		(((op) << 23) | (len))

/*
 * MI commands: the opcodes of the Gen3 and Gen4 command lists (fact sheet
 * 5.2).  Every other opcode, among them the later generations' 0x16
 * MI_SEMAPHORE_MBOX, 0x26 MI_FLUSH_DW, 0x28 MI_REPORT_PERF_COUNT, 0x29
 * MI_LOAD_REGISTER_MEM and Gen2's 0x30 MI_BATCH_BUFFER, is an
 * instruction error on these parts.
 */
#define I915_MI_NOOP_OP			0x00
#define I915_MI_USER_INTERRUPT_OP	0x02
#define I915_MI_WAIT_FOR_EVENT_OP	0x03
#define I915_MI_FLUSH_OP		0x04
#define I915_MI_ARB_CHECK_OP		0x05
#define I915_MI_REPORT_HEAD_OP		0x07
#define I915_MI_ARB_ON_OFF_OP		0x08
#define I915_MI_BATCH_BUFFER_END_OP	0x0a
#define I915_MI_SUSPEND_FLUSH_OP	0x0b
#define I915_MI_OVERLAY_FLIP_OP		0x11
#define I915_MI_LOAD_SCAN_LINES_INCL_OP	0x12
#define I915_MI_LOAD_SCAN_LINES_EXCL_OP	0x13
#define I915_MI_DISPLAY_FLIP_OP		0x14
#define I915_MI_SET_CONTEXT_OP		0x18
#define I915_MI_STORE_DWORD_IMM_OP	0x20
#define I915_MI_STORE_DWORD_INDEX_OP	0x21
#define I915_MI_LOAD_REGISTER_IMM_OP	0x22
#define I915_MI_STORE_REGISTER_MEM_OP	0x24
#define I915_MI_BATCH_BUFFER_START_OP	0x31

/* MI commands: whole first dwords */
#define I915_MI_NOOP			I915_MI_INSTR(I915_MI_NOOP_OP, 0)
#define I915_MI_USER_INTERRUPT		I915_MI_INSTR(I915_MI_USER_INTERRUPT_OP, 0)
#define I915_MI_FLUSH			I915_MI_INSTR(I915_MI_FLUSH_OP, 0)
#define   I915_MI_READ_FLUSH		BIT(0)
#define   I915_MI_EXE_FLUSH		BIT(1)
#define   I915_MI_NO_WRITE_FLUSH	BIT(2)
#define   I915_MI_INVALIDATE_ISP	BIT(5)
#define I915_MI_BATCH_BUFFER_END	I915_MI_INSTR(I915_MI_BATCH_BUFFER_END_OP, 0)
#define I915_MI_STORE_DWORD_INDEX	I915_MI_INSTR(I915_MI_STORE_DWORD_INDEX_OP, 1)
#define I915_MI_STORE_DWORD_IMM_GEN3	I915_MI_INSTR(I915_MI_STORE_DWORD_IMM_OP, 1)
#define I915_MI_STORE_DWORD_IMM_GEN4	I915_MI_INSTR(I915_MI_STORE_DWORD_IMM_OP, 2)
#define   I915_MI_MEM_VIRTUAL		BIT(22)	/* address is a GTT address */
#define I915_MI_LOAD_REGISTER_IMM(n)	I915_MI_INSTR(I915_MI_LOAD_REGISTER_IMM_OP, \
						      2 * (n) - 1)
#define I915_MI_BATCH_BUFFER_START	I915_MI_INSTR(I915_MI_BATCH_BUFFER_START_OP, 0)
#define   I915_MI_BATCH_GTT		(2 << 6)
#define   I915_MI_BATCH_NON_SECURE	BIT(0)	/* gen3: in dword 1 */
#define   I965_MI_BATCH_NON_SECURE	BIT(8)	/* gen4: in dword 0 */
#define I915_MI_NOOP_WRITE_NOPID	BIT(22)
#define   I915_MI_NOOP_NOPID_MASK	GENMASK(21, 0)

/* MI command fields the command streamer decodes (fact sheet 5.2, 5.3) */
#define I915_MI_WAIT_FOR_EVENT		I915_MI_INSTR(I915_MI_WAIT_FOR_EVENT_OP, 0)
#define   I915_MI_WAIT_EVENT_MASK	GENMASK(22, 0)	/* events + cc wait */
#define I915_MI_REPORT_HEAD		I915_MI_INSTR(I915_MI_REPORT_HEAD_OP, 0)
#define I915_MI_ARB_ON_OFF		I915_MI_INSTR(I915_MI_ARB_ON_OFF_OP, 0)
#define   I915_MI_ARB_ENABLE		BIT(0)
#define I915_MI_SUSPEND_FLUSH		I915_MI_INSTR(I915_MI_SUSPEND_FLUSH_OP, 0)
#define   I915_MI_SUSPEND_FLUSH_EN	BIT(0)
#define I915_MI_ARB_CHECK		I915_MI_INSTR(I915_MI_ARB_CHECK_OP, 0)
#define I915_MI_OVERLAY_FLIP_LEN	2
#define I915_MI_LOAD_SCAN_LINES_LEN	2
#define I915_MI_DISPLAY_FLIP_GEN3_LEN	3	/* MI_DISPLAY_FLIP_I915 */
#define I915_MI_DISPLAY_FLIP_GEN4_LEN	4
#define I915_MI_SET_CONTEXT		I915_MI_INSTR(I915_MI_SET_CONTEXT_OP, 0)
#define I915_MI_SET_CONTEXT_LEN		2
#define I915_MI_STORE_REGISTER_MEM_LEN	3
#define I915_MI_STORE_DWORD_IMM_GEN3_LEN	3
#define I915_MI_STORE_DWORD_IMM_GEN4_LEN	4
#define I915_MI_STORE_DWORD_INDEX_LEN	3
#define   I915_MI_STORE_INDEX_MASK	0xffc	/* byte offset in the HWS */
#define   I915_MI_LRI_REG_MASK		0x007ffffc
#define I915_MI_BATCH_BUFFER_START_LEN	2
#define   I915_MI_BATCH_SPACE_MASK	(3 << 6)
#define   I915_MI_BATCH_ADDR_MASK	0xfffffffcu
#define I915_MI_LEN(dw)			(((dw) & I915_MI_LEN_MASK) + 2)

/* Status page layout (dword indices) */
#define I915_HWS_HEAD_REPORT_INDEX	0x04	/* ring 0 head report */
#define I915_HWS_SEQNO_INDEX		0x40
#define I915_HWS_SEQNO_ADDR		(I915_HWS_SEQNO_INDEX * 4)

/* 2D blitter: opcodes (bits 28:22) */
#define I915_2D_LEN(dw)			(((dw) & I915_2D_LEN_MASK) + 2)
#define I915_2D_XY_SETUP_BLT_OP		0x01
#define I915_2D_XY_SETUP_CLIP_BLT_OP	0x03
#define I915_2D_COLOR_BLT_OP		0x40
#define I915_2D_SRC_COPY_BLT_OP		0x43
#define I915_2D_XY_COLOR_BLT_OP		0x50
#define I915_2D_XY_SRC_COPY_BLT_OP	0x53

/* 2D blitter: first dwords with their length fields */
#define I915_XY_SETUP_BLT		(0x40400000 | 6)
#define I915_XY_SETUP_CLIP_BLT		(0x40c00000 | 1)
#define I915_COLOR_BLT			(0x50000000 | 3)
#define I915_SRC_COPY_BLT		(0x50c00000 | 4)
#define I915_XY_COLOR_BLT		(0x54000000 | 4)
#define I915_XY_SRC_COPY_BLT		(0x54c00000 | 6)
#define   I915_BLT_WRITE_ALPHA		BIT(21)
#define   I915_BLT_WRITE_RGB		BIT(20)
#define   I915_BLT_WRITE_ARGB		(I915_BLT_WRITE_ALPHA | I915_BLT_WRITE_RGB)
#define   I965_BLT_SRC_TILED		BIT(15)
#define   I965_BLT_DST_TILED		BIT(11)
/* BR13 */
#define I915_BR13_SOLID_PATTERN		BIT(31)
#define I915_BR13_CLIP_ENABLE		BIT(30)
#define I915_BR13_DEPTH_SHIFT		24
#define I915_BR13_DEPTH(code)		((code) << I915_BR13_DEPTH_SHIFT)
#define I915_BR13_DEPTH_MASK		I915_BR13_DEPTH(3)
#define   I915_BR13_DEPTH_8		I915_BR13_DEPTH(0)
#define   I915_BR13_DEPTH_565		I915_BR13_DEPTH(1)
#define   I915_BR13_DEPTH_1555		I915_BR13_DEPTH(2)
#define   I915_BR13_DEPTH_32		I915_BR13_DEPTH(3)
#define I915_BR13_ROP_SHIFT		16
#define I915_BR13_ROP_MASK		(0xff << I915_BR13_ROP_SHIFT)
#define   I915_ROP_SRCCOPY		0xcc
#define   I915_ROP_PATCOPY		0xf0
#define I915_BR13_PITCH_MASK		0xffff	/* signed 16-bit bytes */
#define I915_BR11_PITCH_MASK		0xffff	/* source pitch, signed */
/* XY coordinates: y in 31:16, x in 15:0, signed; x2/y2 exclusive */
#define I915_BLT_X(dw)			((s16)((dw) & 0xffff))
#define I915_BLT_Y(dw)			((s16)((dw) >> 16))
/* Gen4 X-tiled surfaces as the blitter sees them: 512 bytes x 8 rows */
#define I965_XTILE_WIDTH		512
#define I965_XTILE_HEIGHT		8
#define I965_XTILE_SIZE			4096
/* Bit-6 swizzling keeps 64-byte runs together */
#define I915_SWIZZLE_UNIT		64

/* 3DSTATE_DRAWING_RECTANGLE (cliprects) */
#define I915_GEN3_DRAWRECT		0x7d800003	/* 5 dwords */
#define I915_GEN3_DRAWRECT_LEN		5
#define I965_DRAWRECT			0x79000002	/* 4 dwords */
#define I965_DRAWRECT_LEN		4
#define I915_DRAWRECT_X(dw)		((dw) & 0xffff)
#define I915_DRAWRECT_Y(dw)		((dw) >> 16)
#define I915_DRAWRECT_ORIGIN_X(dw)	((s16)((dw) & 0xffff))
#define I915_DRAWRECT_ORIGIN_Y(dw)	((s16)((dw) >> 16))

/*
 * Gen3 3D (client 3) length rules, fact sheet 5.8: the opcode in bits
 * 28:24, for 0x1d a sub-opcode in bits 23:16.
 */
#define I915_3D_OPCODE(dw)		(((dw) >> 24) & 0x1f)
#define I915_3D_SUBOP(dw)		(((dw) >> 16) & 0xff)
#define I915_3D_LAST_INLINE_OP		0x18	/* 0x00-0x18: one dword */
#define I915_3D_OP_1C			0x1c	/* one dword */
#define I915_3D_OP_1D			0x1d	/* sub-opcode decides */
#define   I915_3D_1D_MAP_STATE		0x00	/* (dw & 0x3f) + 2 */
#define   I915_3D_1D_SAMPLER_STATE	0x01
#define   I915_3D_1D_LOAD_STATE_IMM_2	0x03	/* (dw & 0x0f) + 2 */
#define   I915_3D_1D_LOAD_STATE_IMM_1	0x04
#define   I915_3D_1D_PS_PROGRAM		0x05	/* (dw & 0xff) + 2 */
#define   I915_3D_1D_PS_CONSTANTS	0x06
#define   I915_3D_1D_LOAD_INDIRECT	0x07	/* (dw & 0xff) + 1 */
#define   I915_3D_1D_DRAWING_RECT	0x80	/* (dw & 0x0f) + 2 */
#define   I915_3D_1D_SCISSOR_RECT	0x81
#define   I915_3D_1D_DEST_BUFFER_VARS	0x85
#define   I915_3D_1D_BUFFER_INFO	0x8e
#define   I915_3D_1D_CLEAR_PARAMS	0x9c
#define I915_3D_OP_1E			0x1e	/* bit 23: (dw & 0xffff) + 1 */
#define   I915_3D_1E_LONG		BIT(23)
#define I915_3D_OP_PRIMITIVE		0x1f
#define   I915_PRIM_INDIRECT		BIT(23)	/* vertices not inline */
#define   I915_PRIM_INDEXED		BIT(17)
#define   I915_PRIM_INLINE_LEN_MASK	0x3ffff	/* inline: + 2 */
#define   I915_PRIM_COUNT_MASK		0xffff
#define   I915_PRIM_INDEX_END		0xffff	/* count 0: terminator */

/*
 * Gen4/G4x GFXPIPE (client 3), fact sheet 5.9: bits 31:16 name the
 * command; total = (dw & 0xff) + 2 but for the single-dword ones.
 */
#define I965_3D_CMD(dw)			((dw) >> 16)
#define I965_3D_LEN(dw)			(((dw) & 0xff) + 2)
#define I965_PIPELINE_SELECT_CMD	0x6104
#define G4X_PIPELINE_SELECT_CMD		0x6904
#define I965_VF_STATISTICS_CMD		0x680b
#define G4X_VF_STATISTICS_CMD		0x780b
#define I965_DRAWRECT_CMD		0x7900
#define I965_PIPE_CONTROL_CMD		0x7a00
#define I965_PIPE_CONTROL_LEN		4
#define   I965_PIPE_CONTROL_POST_SYNC(dw)	(((dw) >> 14) & 3)
#define     I965_PIPE_CONTROL_NO_WRITE	0
#define     I965_PIPE_CONTROL_WRITE_IMM	1
#define     I965_PIPE_CONTROL_WRITE_DEPTH	2
#define     I965_PIPE_CONTROL_WRITE_TIME	3
#define   I965_PIPE_CONTROL_NOTIFY	BIT(8)
#define   I965_PIPE_CONTROL_GGTT	BIT(2)	/* in dword 1 */
#define   I965_PIPE_CONTROL_ADDR_MASK	0xfffffff8u

#endif /* _I915_CMD_H_ */
