// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: software model - MI commands
 *
 * The memory-interface (client 0) commands of the render command
 * streamer, one function each, found through a table indexed by opcode
 * that also gives each command's length range and whether it is
 * privileged (see the command streamer's DOC for what privileged means
 * and what each command does).  Opcodes 0x00-0x0f are one dword; longer
 * ones carry their length in bits 5:0.  An opcode not in the table, or a
 * length outside its range, is an instruction error.
 */

#include "i915_cmd.h"
#include "i915_reg.h"
#include "i915_sim.h"
#include "i915_sim_cs.h"
#include "i915_sim_regs.h"

static u32 *reg(struct i915_sim *sim, u32 r)
{
	return i915_sim_reg(sim, r);
}

static enum i915_sim_cs_result mi_noop(struct i915_sim_cs *cs,
				       struct i915_sim_cmd *cmd)
{
	struct i915_sim *sim = cs->sim;
	unsigned long flags;

	if (!(cmd->dw[0] & I915_MI_NOOP_WRITE_NOPID))
		return I915_SIM_CS_NEXT;

	raw_spin_lock_irqsave(&sim->lock, flags);
	*reg(sim, I915_NOPID) = cmd->dw[0] & I915_MI_NOOP_NOPID_MASK;
	raw_spin_unlock_irqrestore(&sim->lock, flags);
	return I915_SIM_CS_NEXT;
}

static enum i915_sim_cs_result mi_user_interrupt(struct i915_sim_cs *cs,
						 struct i915_sim_cmd *cmd)
{
	atomic_long_inc(&cs->user_interrupts);
	i915_sim_irq_raise(cs->sim, I915_USER_INTERRUPT);
	return I915_SIM_CS_NEXT;
}

static enum i915_sim_cs_result mi_wait_for_event(struct i915_sim_cs *cs,
						 struct i915_sim_cmd *cmd)
{
	if (!(cmd->dw[0] & I915_MI_WAIT_EVENT_MASK))
		return I915_SIM_CS_NEXT;
	return I915_SIM_CS_WAIT;
}

static enum i915_sim_cs_result mi_flush(struct i915_sim_cs *cs,
					struct i915_sim_cmd *cmd)
{
	atomic_long_inc(&cs->flushes);
	return I915_SIM_CS_NEXT;
}

static enum i915_sim_cs_result mi_report_head(struct i915_sim_cs *cs,
					      struct i915_sim_cmd *cmd)
{
	struct i915_sim *sim = cs->sim;
	unsigned long flags;
	int ret;

	raw_spin_lock_irqsave(&sim->lock, flags);
	ret = i915_sim_hws_write32_locked(sim, I915_HWS_HEAD_REPORT_INDEX *
					  sizeof(u32),
					  *reg(sim, I915_RING_HEAD));
	raw_spin_unlock_irqrestore(&sim->lock, flags);
	if (ret)
		return i915_sim_cs_fault(cs, cmd, ret, I915_PGTBL_ERR_CS_GTT,
					 "status page write");
	return I915_SIM_CS_NEXT;
}

/* MI_ARB_ON_OFF and MI_SUSPEND_FLUSH: state without effect here. */
static enum i915_sim_cs_result mi_set_state(struct i915_sim_cs *cs,
					    bool *state, bool on)
{
	struct i915_sim *sim = cs->sim;
	unsigned long flags;

	raw_spin_lock_irqsave(&sim->lock, flags);
	*state = on;
	raw_spin_unlock_irqrestore(&sim->lock, flags);
	return I915_SIM_CS_NEXT;
}

static enum i915_sim_cs_result mi_arb_on_off(struct i915_sim_cs *cs,
					     struct i915_sim_cmd *cmd)
{
	return mi_set_state(cs, &cs->arb_enabled,
			    cmd->dw[0] & I915_MI_ARB_ENABLE);
}

static enum i915_sim_cs_result mi_suspend_flush(struct i915_sim_cs *cs,
						struct i915_sim_cmd *cmd)
{
	return mi_set_state(cs, &cs->suspend_flush,
			    cmd->dw[0] & I915_MI_SUSPEND_FLUSH_EN);
}

static enum i915_sim_cs_result mi_batch_end(struct i915_sim_cs *cs,
					    struct i915_sim_cmd *cmd)
{
	return cmd->batch ? I915_SIM_CS_RETURN : I915_SIM_CS_NEXT;
}

static enum i915_sim_cs_result mi_batch_start(struct i915_sim_cs *cs,
					      struct i915_sim_cmd *cmd)
{
	bool gen3 = cs->sim->chip->gen == 3;
	bool non_secure;

	if ((cmd->dw[0] & I915_MI_BATCH_SPACE_MASK) != I915_MI_BATCH_GTT)
		return i915_sim_cs_bad(cs, cmd, "batch buffer not in the GTT");

	if (gen3)
		non_secure = cmd->dw[1] & I915_MI_BATCH_NON_SECURE;
	else
		non_secure = cmd->dw[0] & I965_MI_BATCH_NON_SECURE;
	cmd->target = cmd->dw[1] & I915_MI_BATCH_ADDR_MASK;
	cmd->target_secure = cmd->secure && !non_secure;
	return I915_SIM_CS_JUMP;
}

static enum i915_sim_cs_result mi_set_context(struct i915_sim_cs *cs,
					      struct i915_sim_cmd *cmd)
{
	return I915_SIM_CS_NEXT;
}

static enum i915_sim_cs_result mi_store_dword_imm(struct i915_sim_cs *cs,
						  struct i915_sim_cmd *cmd)
{
	bool gen3 = cs->sim->chip->gen == 3;
	u32 addr, val;
	int ret;

	if (cmd->len != (gen3 ? I915_MI_STORE_DWORD_IMM_GEN3_LEN :
				I915_MI_STORE_DWORD_IMM_GEN4_LEN))
		return i915_sim_cs_bad(cs, cmd, "MI_STORE_DWORD_IMM length");
	if (!(cmd->dw[0] & I915_MI_MEM_VIRTUAL)) {
		if (!cmd->secure)
			return i915_sim_cs_privilege(cs, cmd, true);
		return i915_sim_cs_bad(cs, cmd, "store to a physical address");
	}

	addr = (gen3 ? cmd->dw[1] : cmd->dw[2]) & ~(u32)(sizeof(u32) - 1);
	val = gen3 ? cmd->dw[2] : cmd->dw[3];
	ret = i915_sim_gtt_write32(cs->sim, addr, val);
	if (ret)
		return i915_sim_cs_fault(cs, cmd, ret, I915_PGTBL_ERR_CS_GTT,
					 "MI_STORE_DWORD_IMM through the GTT");
	return I915_SIM_CS_NEXT;
}

static enum i915_sim_cs_result mi_store_dword_index(struct i915_sim_cs *cs,
						    struct i915_sim_cmd *cmd)
{
	int ret;

	ret = i915_sim_hws_write32(cs->sim,
				   cmd->dw[1] & I915_MI_STORE_INDEX_MASK,
				   cmd->dw[2]);
	if (ret)
		return i915_sim_cs_fault(cs, cmd, ret, I915_PGTBL_ERR_CS_GTT,
					 "status page write");
	return I915_SIM_CS_NEXT;
}

/* Registers that hold physical addresses: refused (host memory). */
static bool lri_refused(u32 r)
{
	return r == I915_HWS_PGA || r == I915_PGTBL_CTL;
}

static enum i915_sim_cs_result mi_load_register_imm(struct i915_sim_cs *cs,
						    struct i915_sim_cmd *cmd)
{
	u32 i;

	/* One header and register/value pairs: an odd length. */
	if (!(cmd->len & 1))
		return i915_sim_cs_bad(cs, cmd, "MI_LOAD_REGISTER_IMM length");
	for (i = 1; i < cmd->len; i += 2)
		if (lri_refused(cmd->dw[i] & I915_MI_LRI_REG_MASK))
			return i915_sim_cs_bad(cs, cmd,
					       "MI_LOAD_REGISTER_IMM to a physical address register");
	for (i = 1; i < cmd->len; i += 2)
		i915_sim_mmio_write_gpu(cs->sim,
					cmd->dw[i] & I915_MI_LRI_REG_MASK,
					cmd->dw[i + 1]);
	return I915_SIM_CS_NEXT;
}

/**
 * struct mi_desc - how the command streamer executes an MI opcode
 * @min_len: fewest dwords
 * @max_len: most dwords
 * @privileged: not allowed in a non-secure batch
 * @exec: executes it
 */
struct mi_desc {
	u8 min_len;
	u8 max_len;
	bool privileged;
	i915_sim_cmd_fn exec;
};

#define MI_MAX_LEN	(I915_MI_LEN_MASK + 2)

static const struct mi_desc mi_cmds[I915_MI_OPCODES] = {
	[I915_MI_NOOP_OP] = { 1, 1, false, mi_noop },
	[I915_MI_USER_INTERRUPT_OP] = { 1, 1, false, mi_user_interrupt },
	[I915_MI_WAIT_FOR_EVENT_OP] = { 1, 1, false, mi_wait_for_event },
	[I915_MI_FLUSH_OP] = { 1, 1, false, mi_flush },
	[I915_MI_REPORT_HEAD_OP] = { 1, 1, false, mi_report_head },
	[I915_MI_ARB_ON_OFF_OP] = { 1, 1, false, mi_arb_on_off },
	[I915_MI_BATCH_BUFFER_END_OP] = { 1, 1, false, mi_batch_end },
	[I915_MI_SUSPEND_FLUSH_OP] = { 1, 1, false, mi_suspend_flush },
	[I915_MI_SET_CONTEXT_OP] = { I915_MI_SET_CONTEXT_LEN,
				     I915_MI_SET_CONTEXT_LEN, true,
				     mi_set_context },
	[I915_MI_STORE_DWORD_IMM_OP] = { I915_MI_STORE_DWORD_IMM_GEN3_LEN,
					 I915_MI_STORE_DWORD_IMM_GEN4_LEN,
					 false, mi_store_dword_imm },
	[I915_MI_STORE_DWORD_INDEX_OP] = { I915_MI_STORE_DWORD_INDEX_LEN,
					   I915_MI_STORE_DWORD_INDEX_LEN, true,
					   mi_store_dword_index },
	[I915_MI_LOAD_REGISTER_IMM_OP] = { 3, MI_MAX_LEN, true,
					   mi_load_register_imm },
	[I915_MI_BATCH_BUFFER_START_OP] = { I915_MI_BATCH_BUFFER_START_LEN,
					    I915_MI_BATCH_BUFFER_START_LEN,
					    false, mi_batch_start },
};

/**
 * i915_sim_mi_decode - decode an MI command
 * @cs: the command streamer
 * @cmd: the command, its header fetched
 *
 * Return: %I915_SIM_CS_NEXT with the length, executor and privilege set in
 * @cmd, or %I915_SIM_CS_ERROR for an unknown opcode or a bad length.
 */
enum i915_sim_cs_result i915_sim_mi_decode(struct i915_sim_cs *cs,
					   struct i915_sim_cmd *cmd)
{
	u32 dw = cmd->dw[0];
	u32 op = I915_MI_OPCODE(dw);
	const struct mi_desc *d = &mi_cmds[op];
	u32 len = op < I915_MI_FIRST_LONG_OPCODE ? 1 : I915_MI_LEN(dw);

	if (!d->exec)
		return i915_sim_cs_bad(cs, cmd, "unknown MI opcode");
	if (len < d->min_len || len > d->max_len)
		return i915_sim_cs_bad(cs, cmd, "bad MI command length");
	cmd->len = len;
	cmd->exec = d->exec;
	cmd->privileged = d->privileged;
	return I915_SIM_CS_NEXT;
}
