/* SPDX-License-Identifier: GPL-2.0 */
/*
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
#define I915_MI_LEN_MASK		0x3f	/* opcodes >= 0x10: total - 2 */
#define I915_MI_FIRST_LONG_OPCODE	0x10
#define I915_2D_OPCODE(dw)		(((dw) >> 22) & 0x7f)
#define I915_2D_LEN_MASK		0xff	/* total - 2 */

#define I915_MI_INSTR(op, len)		(((op) << 23) | (len))

/* MI commands: opcodes */
#define I915_MI_NOOP_OP			0x00
#define I915_MI_USER_INTERRUPT_OP	0x02
#define I915_MI_WAIT_FOR_EVENT_OP	0x03
#define I915_MI_FLUSH_OP		0x04
#define I915_MI_REPORT_HEAD_OP		0x07
#define I915_MI_ARB_ON_OFF_OP		0x08
#define I915_MI_BATCH_BUFFER_END_OP	0x0a
#define I915_MI_SUSPEND_FLUSH_OP	0x0b
#define I915_MI_SET_CONTEXT_OP		0x18
#define I915_MI_STORE_DWORD_IMM_OP	0x20
#define I915_MI_STORE_DWORD_INDEX_OP	0x21
#define I915_MI_LOAD_REGISTER_IMM_OP	0x22
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

/* Status page layout (dword indices) */
#define I915_HWS_SEQNO_INDEX		0x40
#define I915_HWS_SEQNO_ADDR		(I915_HWS_SEQNO_INDEX * 4)

/* 2D blitter: first dwords with their length fields */
#define I915_XY_SETUP_BLT		(0x40400000 | 6)
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
#define I915_BR13_PITCH_MASK		0xffff

/* 3DSTATE_DRAWING_RECTANGLE (cliprects) */
#define I915_GEN3_DRAWRECT		0x7d800003	/* 5 dwords */
#define I915_GEN3_DRAWRECT_LEN		5
#define I965_DRAWRECT			0x79000002	/* 4 dwords */
#define I965_DRAWRECT_LEN		4

#endif /* _I915_CMD_H_ */
