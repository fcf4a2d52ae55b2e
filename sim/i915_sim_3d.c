// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: software model - the 3D pipe
 *
 * The model renders nothing in 3D: it decodes the length of every 3D
 * (client 3) command and steps over it, after fetching it through the
 * GTT like any command.  Lengths follow the fact sheet: Gen3 table 5.8
 * (opcodes 0x19-0x1b are reserved: instruction error), Gen4/G4x table 5.9
 * ((DW0 & 0xff) + 2 but for the single-dword PIPELINE_SELECT and
 * VF_STATISTICS).  A Gen3 indexed 3DPRIMITIVE with a count of 0 runs to
 * the dword that holds a 0xffff index.
 *
 * Executed: 3DSTATE_DRAWING_RECTANGLE (Gen3 5-dword and Gen4 4-dword
 * forms, other lengths are instruction errors) is recorded for debugfs,
 * and the Gen4 PIPE_CONTROL (4 dwords) counts as a flush, performs its
 * post-sync write - the immediate QWORD, 0 for the depth count (nothing
 * is drawn), or the 64-bit TIMESTAMP register's count at that moment
 * (i915_sim_mmio.c) - at the QWORD address of dword 1 through the GTT
 * (the only translation on these parts, whatever bit 2 says), and raises
 * IIR bit 18 when the notify bit is set.
 *
 * debugfs i915_sim/<slot>/drawrects (0644): the drawing rectangles the engine
 * executed.  The first line is "total N", N counting every rectangle
 * since the log was last cleared; then the last at most
 * %I915_SIM_DRAWRECT_LOG (256) rectangles, oldest first, one a line, in
 * decimal: on Gen3 "dr1=0x%08x xmin ymin xmax ymax xorg yorg", on Gen4
 * "xmin ymin xmax ymax xorg yorg".  xmin..ymax are the unsigned 16-bit
 * fields of DR2/DR3 as the command holds them (the maxima inclusive);
 * xorg and yorg the signed 16-bit halves of DR4.  Writing anything to the
 * file clears the log.
 */

#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/seq_file.h>

#include "i915_cmd.h"
#include "i915_reg.h"
#include "i915_sim.h"
#include "i915_sim_cs.h"
#include "i915_sim_regs.h"

static enum i915_sim_cs_result decoded(struct i915_sim_cmd *cmd, u32 len,
				       i915_sim_cmd_fn exec)
{
	cmd->len = len;
	cmd->exec = exec;
	return I915_SIM_CS_NEXT;
}

static enum i915_sim_cs_result skip(struct i915_sim_cmd *cmd, u32 len)
{
	return decoded(cmd, len, i915_sim_cs_skip);
}

static void drawrect_log(struct i915_sim_cs *cs, u32 dr1, const u32 *dr)
{
	struct i915_sim_drawrect *r;

	spin_lock(&cs->rect_lock);
	r = &cs->rects[cs->rect_next];
	r->dr1 = dr1;
	r->dr2 = dr[0];
	r->dr3 = dr[1];
	r->dr4 = dr[2];
	cs->rect_next = (cs->rect_next + 1) % I915_SIM_DRAWRECT_LOG;
	cs->rect_total++;
	spin_unlock(&cs->rect_lock);
}

/* --- Gen3 -------------------------------------------------------------- */

/* Gen3 3DSTATE_DRAWING_RECTANGLE: header, DR1, DR2, DR3, DR4. */
static enum i915_sim_cs_result gen3_drawrect(struct i915_sim_cs *cs,
					     struct i915_sim_cmd *cmd)
{
	drawrect_log(cs, cmd->dw[1], &cmd->dw[2]);
	return I915_SIM_CS_NEXT;
}

static u32 gen3_1d_len(u32 dw)
{
	switch (I915_3D_SUBOP(dw)) {
	case I915_3D_1D_MAP_STATE:
	case I915_3D_1D_SAMPLER_STATE:
		return (dw & 0x3f) + 2;
	case I915_3D_1D_LOAD_STATE_IMM_2:
	case I915_3D_1D_LOAD_STATE_IMM_1:
		return (dw & 0x0f) + 2;
	case I915_3D_1D_PS_PROGRAM:
	case I915_3D_1D_PS_CONSTANTS:
		return (dw & 0xff) + 2;
	case I915_3D_1D_LOAD_INDIRECT:
		return (dw & 0xff) + 1;
	case I915_3D_1D_DRAWING_RECT:
	case I915_3D_1D_SCISSOR_RECT:
	case I915_3D_1D_DEST_BUFFER_VARS:
	case I915_3D_1D_BUFFER_INFO:
	case I915_3D_1D_CLEAR_PARAMS:
		return (dw & 0x0f) + 2;
	}
	return (dw & 0xffff) + 2;
}

static enum i915_sim_cs_result gen3_decode_1d(struct i915_sim_cs *cs,
					      struct i915_sim_cmd *cmd)
{
	u32 dw = cmd->dw[0], len = gen3_1d_len(dw);

	if (I915_3D_SUBOP(dw) != I915_3D_1D_DRAWING_RECT)
		return skip(cmd, len);
	if (len != I915_GEN3_DRAWRECT_LEN)
		return i915_sim_cs_bad(cs, cmd,
				       "3DSTATE_DRAWING_RECTANGLE length");
	return decoded(cmd, len, gen3_drawrect);
}

/* Indexed 3DPRIMITIVE without a count: up to the 0xffff index. */
static enum i915_sim_cs_result gen3_scan_indices(struct i915_sim_cs *cs,
						 struct i915_sim_cmd *cmd)
{
	u32 i, v;
	int ret;

	for (i = 1; ; i++) {
		ret = i915_sim_cs_fetch(cs, cmd, i, &v);
		if (ret == -EAGAIN)
			return I915_SIM_CS_STALL;
		if (ret)
			return i915_sim_cs_fault(cs, cmd, ret,
						 I915_PGTBL_ERR_CS_INSTRUCTION,
						 "3DPRIMITIVE index fetch");
		if ((v & 0xffff) == I915_PRIM_INDEX_END ||
		    (v >> 16) == I915_PRIM_INDEX_END)
			return skip(cmd, i + 1);
		if (!(i % I915_SIM_CS_ABORT_CHECK)) {
			if (i915_sim_cs_aborted(cs, cmd))
				return I915_SIM_CS_ABORT;
			cond_resched();
		}
	}
}

static enum i915_sim_cs_result gen3_decode_primitive(struct i915_sim_cs *cs,
						     struct i915_sim_cmd *cmd)
{
	u32 dw = cmd->dw[0], count = dw & I915_PRIM_COUNT_MASK;

	if (!(dw & I915_PRIM_INDIRECT))
		return skip(cmd, (dw & I915_PRIM_INLINE_LEN_MASK) + 2);
	if (!(dw & I915_PRIM_INDEXED))
		return skip(cmd, 2);
	if (count)
		return skip(cmd, (count + 1) / 2 + 1);
	return gen3_scan_indices(cs, cmd);
}

static enum i915_sim_cs_result gen3_decode(struct i915_sim_cs *cs,
					   struct i915_sim_cmd *cmd)
{
	u32 dw = cmd->dw[0];

	switch (I915_3D_OPCODE(dw)) {
	case 0 ... I915_3D_LAST_INLINE_OP:
	case I915_3D_OP_1C:
		return skip(cmd, 1);
	case I915_3D_OP_1D:
		return gen3_decode_1d(cs, cmd);
	case I915_3D_OP_1E:
		return skip(cmd, dw & I915_3D_1E_LONG ? (dw & 0xffff) + 1 : 1);
	case I915_3D_OP_PRIMITIVE:
		return gen3_decode_primitive(cs, cmd);
	}
	return i915_sim_cs_bad(cs, cmd, "reserved 3D opcode");
}

/* --- Gen4 -------------------------------------------------------------- */

/* Gen4 3DSTATE_DRAWING_RECTANGLE: header, DR2, DR3, DR4. */
static enum i915_sim_cs_result gen4_drawrect(struct i915_sim_cs *cs,
					     struct i915_sim_cmd *cmd)
{
	drawrect_log(cs, 0, &cmd->dw[1]);
	return I915_SIM_CS_NEXT;
}

static u64 pipe_control_value(struct i915_sim_cs *cs,
			      const struct i915_sim_cmd *cmd)
{
	switch (I965_PIPE_CONTROL_POST_SYNC(cmd->dw[0])) {
	case I965_PIPE_CONTROL_WRITE_IMM:
		return (u64)cmd->dw[3] << 32 | cmd->dw[2];
	case I965_PIPE_CONTROL_WRITE_TIME:
		return i915_sim_timestamp(cs->sim);
	}
	return 0;	/* PS_DEPTH_COUNT: no pixel was drawn */
}

static enum i915_sim_cs_result pipe_control(struct i915_sim_cs *cs,
					    struct i915_sim_cmd *cmd)
{
	u32 addr = cmd->dw[1] & I965_PIPE_CONTROL_ADDR_MASK;
	__le64 val = cpu_to_le64(pipe_control_value(cs, cmd));
	int ret;

	atomic_long_inc(&cs->flushes);
	if (I965_PIPE_CONTROL_POST_SYNC(cmd->dw[0]) !=
	    I965_PIPE_CONTROL_NO_WRITE) {
		ret = i915_sim_gtt_copy(cs->sim, addr, &val, sizeof(val), true);
		if (ret)
			return i915_sim_cs_fault(cs, cmd, ret,
						 I915_PGTBL_ERR_CS_GTT,
						 "PIPE_CONTROL write");
	}
	if (cmd->dw[0] & I965_PIPE_CONTROL_NOTIFY)
		i915_sim_irq_raise(cs->sim, I915_PIPE_CONTROL_NOTIFY_INTERRUPT);
	return I915_SIM_CS_NEXT;
}

static enum i915_sim_cs_result gen4_decode(struct i915_sim_cs *cs,
					   struct i915_sim_cmd *cmd)
{
	u32 dw = cmd->dw[0], len = I965_3D_LEN(dw);

	switch (I965_3D_CMD(dw)) {
	case I965_PIPELINE_SELECT_CMD:
	case G4X_PIPELINE_SELECT_CMD:
	case I965_VF_STATISTICS_CMD:
	case G4X_VF_STATISTICS_CMD:
		return skip(cmd, 1);
	case I965_DRAWRECT_CMD:
		if (len != I965_DRAWRECT_LEN)
			return i915_sim_cs_bad(cs, cmd,
					       "3DSTATE_DRAWING_RECTANGLE length");
		return decoded(cmd, len, gen4_drawrect);
	case I965_PIPE_CONTROL_CMD:
		if (len != I965_PIPE_CONTROL_LEN)
			return i915_sim_cs_bad(cs, cmd, "PIPE_CONTROL length");
		return decoded(cmd, len, pipe_control);
	}
	return skip(cmd, len);
}

/**
 * i915_sim_3d_decode - decode a 3D command
 * @cs: the command streamer
 * @cmd: the command, its header fetched
 *
 * Return: %I915_SIM_CS_NEXT with the length and executor set in @cmd,
 * %I915_SIM_CS_ERROR for a reserved opcode or a bad length, or what
 * fetching a Gen3 index list returned.
 */
enum i915_sim_cs_result i915_sim_3d_decode(struct i915_sim_cs *cs,
					   struct i915_sim_cmd *cmd)
{
	if (cs->sim->chip->gen == 3)
		return gen3_decode(cs, cmd);
	return gen4_decode(cs, cmd);
}

/**
 * i915_sim_3d_init - set up the 3D state of a new command streamer
 * @cs: the command streamer
 */
void i915_sim_3d_init(struct i915_sim_cs *cs)
{
	spin_lock_init(&cs->rect_lock);
}

/* --- debugfs ------------------------------------------------------------- */

static void drawrect_show(struct seq_file *m, const struct i915_sim_drawrect *r,
			  bool gen3)
{
	if (gen3)
		seq_printf(m, "dr1=0x%08x ", r->dr1);
	seq_printf(m, "%u %u %u %u %d %d\n",
		   I915_DRAWRECT_X(r->dr2), I915_DRAWRECT_Y(r->dr2),
		   I915_DRAWRECT_X(r->dr3), I915_DRAWRECT_Y(r->dr3),
		   I915_DRAWRECT_ORIGIN_X(r->dr4),
		   I915_DRAWRECT_ORIGIN_Y(r->dr4));
}

static int sim_drawrects_show(struct seq_file *m, void *data)
{
	struct i915_sim_cs *cs = m->private;
	bool gen3 = cs->sim->chip->gen == 3;
	unsigned int i, n, first;

	spin_lock(&cs->rect_lock);
	n = min_t(u64, cs->rect_total, I915_SIM_DRAWRECT_LOG);
	first = (cs->rect_next + I915_SIM_DRAWRECT_LOG - n) %
		I915_SIM_DRAWRECT_LOG;
	seq_printf(m, "total %llu\n", cs->rect_total);
	for (i = 0; i < n; i++)
		drawrect_show(m, &cs->rects[(first + i) %
					    I915_SIM_DRAWRECT_LOG], gen3);
	spin_unlock(&cs->rect_lock);
	return 0;
}

static int sim_drawrects_open(struct inode *inode, struct file *file)
{
	return single_open(file, sim_drawrects_show, inode->i_private);
}

static ssize_t sim_drawrects_write(struct file *file, const char __user *ubuf,
				   size_t len, loff_t *ppos)
{
	struct seq_file *m = file->private_data;
	struct i915_sim_cs *cs = m->private;

	spin_lock(&cs->rect_lock);
	cs->rect_total = 0;
	cs->rect_next = 0;
	spin_unlock(&cs->rect_lock);
	return len;
}

static const struct file_operations sim_drawrects_fops = {
	.owner = THIS_MODULE,
	.open = sim_drawrects_open,
	.read = seq_read,
	.write = sim_drawrects_write,
	.llseek = seq_lseek,
	.release = single_release,
};

/**
 * i915_sim_3d_debugfs_init - create i915_sim/<slot>/drawrects
 * @cs: the command streamer
 * @dir: the model's debugfs directory
 */
void i915_sim_3d_debugfs_init(struct i915_sim_cs *cs, struct dentry *dir)
{
	debugfs_create_file("drawrects", 0644, dir, cs, &sim_drawrects_fops);
}
