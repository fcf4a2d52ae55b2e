// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: software model - MI commands
 *
 * The memory-interface (client 0) commands of the render command
 * streamer, one function each, found through a table indexed by opcode
 * that gives, for each command of the Gen3 and Gen4 command lists, its
 * length range on each generation (none: the generation does not have
 * it) and whether it is privileged (see the command streamer's DOC for
 * what privileged means and what each command does).  Opcodes 0x00-0x0f
 * are one dword; longer ones carry their length in bits 5:0.  An opcode
 * not in the table or not on this generation, or a length outside its
 * range, is an instruction error, whether or not the batch is secure:
 * the length is checked before the privilege.
 *
 * The table, and why (fact sheet 5.2; a row marked (?) is not confirmed
 * by a PRM, the reason for the choice follows it):
 *
 *   0x00 MI_NOOP              1    executes (bit 22 writes NOPID)
 *   0x02 MI_USER_INTERRUPT    1    executes
 *   0x03 MI_WAIT_FOR_EVENT    1    executes
 *   0x04 MI_FLUSH             1    executes (counts)
 *   0x05 MI_ARB_CHECK         1    no-op: one ring, nothing to arbitrate;
 *                                  upstream's selftest spinners use it on
 *                                  every generation, igt's spinner in
 *                                  non-secure batches
 *   0x07 MI_REPORT_HEAD       1    executes
 *   0x08 MI_ARB_ON_OFF        1    recorded, no effect (?) kept as before
 *   0x0a MI_BATCH_BUFFER_END  1    executes
 *   0x0b MI_SUSPEND_FLUSH     1    recorded, no effect (?) kept as before
 *   0x11 MI_OVERLAY_FLIP      2    no-op: no display (?) not privileged,
 *   0x12 MI_LOAD_SCAN_LINES_INCL 2 no-op   as MI_WAIT_FOR_EVENT, the
 *   0x13 MI_LOAD_SCAN_LINES_EXCL 2 no-op   display commands of the
 *   0x14 MI_DISPLAY_FLIP      3/4  no-op   list (Gen3 3 dwords, Gen4 4)
 *   0x18 MI_SET_CONTEXT       2    privileged; accepted, no context image
 *   0x20 MI_STORE_DATA_IMM    3/4  executes (Gen3 3 dwords, Gen4 4);
 *                                  privileged on Gen4 (igt and upstream's
 *                                  selftests use secure batches for it on
 *                                  gen 4-5, not on Gen3), to a physical
 *                                  address on both
 *   0x21 MI_STORE_DATA_INDEX  3    privileged; executes
 *   0x22 MI_LOAD_REGISTER_IMM odd  privileged; executes
 *   0x24 MI_STORE_REGISTER_MEM 3   privileged (?) as the register and
 *                                  store commands; executes (GTT only)
 *   0x31 MI_BATCH_BUFFER_START 2   executes
 *
 * Not in the table: 0x30 MI_BATCH_BUFFER (?) upstream uses it on Gen2
 * only; 0x29 MI_LOAD_REGISTER_MEM, 0x28 MI_REPORT_PERF_COUNT (?) later
 * generations; 0x16, 0x26 and every other opcode.
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

/* MI_NOOP within the hold of the model's lock that picked it. */
static enum i915_sim_cs_result mi_noop_locked(struct i915_sim_cs *cs,
					      struct i915_sim_cmd *cmd)
{
	struct i915_sim *sim = cs->sim;

	lockdep_assert_held(&sim->lock);
	if (cmd->dw[0] & I915_MI_NOOP_WRITE_NOPID)
		*reg(sim, I915_NOPID) = cmd->dw[0] & I915_MI_NOOP_NOPID_MASK;
	return I915_SIM_CS_NEXT;
}

static enum i915_sim_cs_result mi_user_interrupt(struct i915_sim_cs *cs,
						 struct i915_sim_cmd *cmd)
{
	atomic_long_inc(&cs->user_interrupts);
	i915_sim_irq_raise(cs->sim, I915_USER_INTERRUPT);
	return I915_SIM_CS_NEXT;
}

static enum i915_sim_cs_result mi_user_interrupt_locked(struct i915_sim_cs *cs,
							struct i915_sim_cmd *cmd)
{
	lockdep_assert_held(&cs->sim->lock);
	atomic_long_inc(&cs->user_interrupts);
	i915_sim_irq_raise_locked(cs->sim, I915_USER_INTERRUPT);
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

/*
 * MI_ARB_CHECK (one ring: nothing to switch to) and the display commands
 * MI_OVERLAY_FLIP, MI_LOAD_SCAN_LINES_* and MI_DISPLAY_FLIP (no display):
 * nothing the model keeps changes.
 */
static enum i915_sim_cs_result mi_nothing(struct i915_sim_cs *cs,
					  struct i915_sim_cmd *cmd)
{
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

	if (!(cmd->dw[0] & I915_MI_MEM_VIRTUAL))
		return i915_sim_cs_bad(cs, cmd, "store to a physical address");

	addr = (gen3 ? cmd->dw[1] : cmd->dw[2]) & ~(u32)(sizeof(u32) - 1);
	val = gen3 ? cmd->dw[2] : cmd->dw[3];
	ret = i915_sim_gtt_write32(cs->sim, addr, val);
	if (ret)
		return i915_sim_cs_fault(cs, cmd, ret, I915_PGTBL_ERR_CS_GTT,
					 "MI_STORE_DWORD_IMM through the GTT");
	return I915_SIM_CS_NEXT;
}

/* The status page write of MI_STORE_DWORD_INDEX, with the lock held or not. */
static enum i915_sim_cs_result store_dword_index(struct i915_sim_cs *cs,
						 struct i915_sim_cmd *cmd,
						 bool locked)
{
	u32 offset = cmd->dw[1] & I915_MI_STORE_INDEX_MASK;
	int ret;

	if (locked)
		ret = i915_sim_hws_write32_locked(cs->sim, offset, cmd->dw[2]);
	else
		ret = i915_sim_hws_write32(cs->sim, offset, cmd->dw[2]);
	if (ret)
		return i915_sim_cs_fault(cs, cmd, ret, I915_PGTBL_ERR_CS_GTT,
					 "status page write");
	return I915_SIM_CS_NEXT;
}

static enum i915_sim_cs_result mi_store_dword_index(struct i915_sim_cs *cs,
						    struct i915_sim_cmd *cmd)
{
	return store_dword_index(cs, cmd, false);
}

static enum i915_sim_cs_result
mi_store_dword_index_locked(struct i915_sim_cs *cs, struct i915_sim_cmd *cmd)
{
	lockdep_assert_held(&cs->sim->lock);
	return store_dword_index(cs, cmd, true);
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

static enum i915_sim_cs_result mi_store_register_mem(struct i915_sim_cs *cs,
						     struct i915_sim_cmd *cmd)
{
	u32 val;
	int ret;

	if (!(cmd->dw[0] & I915_MI_MEM_VIRTUAL))
		return i915_sim_cs_bad(cs, cmd, "store to a physical address");
	val = i915_sim_mmio_peek(cs->sim, cmd->dw[1] & I915_MI_LRI_REG_MASK);
	ret = i915_sim_gtt_write32(cs->sim,
				   cmd->dw[2] & ~(u32)(sizeof(u32) - 1), val);
	if (ret)
		return i915_sim_cs_fault(cs, cmd, ret, I915_PGTBL_ERR_CS_GTT,
					 "MI_STORE_REGISTER_MEM through the GTT");
	return I915_SIM_CS_NEXT;
}

/**
 * struct mi_desc - how the command streamer executes an MI opcode
 * @min_len: fewest dwords, on Gen3 and on Gen4; 0: not on that generation
 * @max_len: most dwords, on Gen3 and on Gen4
 * @privileged: not executed in a non-secure batch
 * @exec: executes it
 * @exec_locked: executes it with the model's lock held (takes no lock,
 *	does not sleep), or NULL; the same effects and errors as @exec
 */
struct mi_desc {
	u8 min_len[2];
	u8 max_len[2];
	bool privileged;
	i915_sim_cmd_fn exec;
	i915_sim_cmd_fn exec_locked;
};

#define MI_MAX_LEN	(I915_MI_LEN_MASK + 2)

static const struct mi_desc mi_cmds[I915_MI_OPCODES] = {
	[I915_MI_NOOP_OP] = { { 1, 1 }, { 1, 1 }, false, mi_noop,
			      mi_noop_locked },
	[I915_MI_USER_INTERRUPT_OP] = { { 1, 1 }, { 1, 1 }, false,
					mi_user_interrupt,
					mi_user_interrupt_locked },
	[I915_MI_WAIT_FOR_EVENT_OP] = { { 1, 1 }, { 1, 1 }, false,
					mi_wait_for_event },
	[I915_MI_FLUSH_OP] = { { 1, 1 }, { 1, 1 }, false, mi_flush, mi_flush },
	[I915_MI_ARB_CHECK_OP] = { { 1, 1 }, { 1, 1 }, false, mi_nothing,
				   mi_nothing },
	[I915_MI_REPORT_HEAD_OP] = { { 1, 1 }, { 1, 1 }, false,
				     mi_report_head },
	[I915_MI_ARB_ON_OFF_OP] = { { 1, 1 }, { 1, 1 }, false,
				    mi_arb_on_off },
	[I915_MI_BATCH_BUFFER_END_OP] = { { 1, 1 }, { 1, 1 }, false,
					  mi_batch_end, mi_batch_end },
	[I915_MI_SUSPEND_FLUSH_OP] = { { 1, 1 }, { 1, 1 }, false,
				       mi_suspend_flush },
	[I915_MI_OVERLAY_FLIP_OP] = {
		{ I915_MI_OVERLAY_FLIP_LEN, I915_MI_OVERLAY_FLIP_LEN },
		{ I915_MI_OVERLAY_FLIP_LEN, I915_MI_OVERLAY_FLIP_LEN },
		false, mi_nothing },
	[I915_MI_LOAD_SCAN_LINES_INCL_OP] = {
		{ I915_MI_LOAD_SCAN_LINES_LEN, I915_MI_LOAD_SCAN_LINES_LEN },
		{ I915_MI_LOAD_SCAN_LINES_LEN, I915_MI_LOAD_SCAN_LINES_LEN }, false, mi_nothing },
	[I915_MI_LOAD_SCAN_LINES_EXCL_OP] = {
		{ I915_MI_LOAD_SCAN_LINES_LEN, I915_MI_LOAD_SCAN_LINES_LEN },
		{ I915_MI_LOAD_SCAN_LINES_LEN, I915_MI_LOAD_SCAN_LINES_LEN }, false, mi_nothing },
	[I915_MI_DISPLAY_FLIP_OP] = {
		{ I915_MI_DISPLAY_FLIP_GEN3_LEN, I915_MI_DISPLAY_FLIP_GEN4_LEN },
		{ I915_MI_DISPLAY_FLIP_GEN3_LEN, I915_MI_DISPLAY_FLIP_GEN4_LEN },
		false, mi_nothing },
	[I915_MI_SET_CONTEXT_OP] = {
		{ I915_MI_SET_CONTEXT_LEN, I915_MI_SET_CONTEXT_LEN },
		{ I915_MI_SET_CONTEXT_LEN, I915_MI_SET_CONTEXT_LEN },
		true, mi_set_context },
	/* privileged on Gen4, and to a physical address: see decode */
	[I915_MI_STORE_DWORD_IMM_OP] = {
		{ I915_MI_STORE_DWORD_IMM_GEN3_LEN,
		  I915_MI_STORE_DWORD_IMM_GEN4_LEN },
		{ I915_MI_STORE_DWORD_IMM_GEN3_LEN,
		  I915_MI_STORE_DWORD_IMM_GEN4_LEN },
		false, mi_store_dword_imm },
	[I915_MI_STORE_DWORD_INDEX_OP] = {
		{ I915_MI_STORE_DWORD_INDEX_LEN, I915_MI_STORE_DWORD_INDEX_LEN },
		{ I915_MI_STORE_DWORD_INDEX_LEN, I915_MI_STORE_DWORD_INDEX_LEN },
		true, mi_store_dword_index, mi_store_dword_index_locked },
	/* any number of pairs: odd lengths, see decode */
	[I915_MI_LOAD_REGISTER_IMM_OP] = { { 3, 3 },
					   { MI_MAX_LEN, MI_MAX_LEN },
					   true, mi_load_register_imm },
	[I915_MI_STORE_REGISTER_MEM_OP] = {
		{ I915_MI_STORE_REGISTER_MEM_LEN, I915_MI_STORE_REGISTER_MEM_LEN },
		{ I915_MI_STORE_REGISTER_MEM_LEN, I915_MI_STORE_REGISTER_MEM_LEN },
		true, mi_store_register_mem },
	[I915_MI_BATCH_BUFFER_START_OP] = {
		{ I915_MI_BATCH_BUFFER_START_LEN, I915_MI_BATCH_BUFFER_START_LEN },
		{ I915_MI_BATCH_BUFFER_START_LEN, I915_MI_BATCH_BUFFER_START_LEN },
		false, mi_batch_start, mi_batch_start },
};

/*
 * MI_STORE_DATA_IMM is privileged on Gen4 (igt's gem_exec_store and
 * upstream's selftests submit it in secure batches on gen 4 and 5 only)
 * and, on both generations, when it stores to a physical address.
 */
static void mi_store_privilege(struct i915_sim_cs *cs,
			       struct i915_sim_cmd *cmd)
{
	if (!(cmd->dw[0] & I915_MI_MEM_VIRTUAL)) {
		cmd->privileged = true;
		cmd->mem_privilege = true;
	} else if (cs->sim->chip->gen >= 4) {
		cmd->privileged = true;
	}
}

/**
 * i915_sim_mi_decode - decode an MI command
 * @cs: the command streamer
 * @cmd: the command, its header fetched
 *
 * Return: %I915_SIM_CS_NEXT with the length, executor and privilege set in
 * @cmd, or %I915_SIM_CS_ERROR for an opcode this generation does not
 * have or a bad length.
 */
enum i915_sim_cs_result i915_sim_mi_decode(struct i915_sim_cs *cs,
					   struct i915_sim_cmd *cmd)
{
	u32 dw = cmd->dw[0];
	u32 op = I915_MI_OPCODE(dw);
	const struct mi_desc *d = &mi_cmds[op];
	u32 len = op < I915_MI_FIRST_LONG_OPCODE ? 1 : I915_MI_LEN(dw);
	unsigned int g = cs->sim->chip->gen >= 4;

	if (!d->exec || !d->min_len[g])
		return i915_sim_cs_bad(cs, cmd, "unknown MI opcode");
	if (len < d->min_len[g] || len > d->max_len[g])
		return i915_sim_cs_bad(cs, cmd, "bad MI command length");
	/* one header and register/value pairs: an odd length */
	if (op == I915_MI_LOAD_REGISTER_IMM_OP && !(len & 1))
		return i915_sim_cs_bad(cs, cmd, "MI_LOAD_REGISTER_IMM length");
	cmd->len = len;
	cmd->exec = d->exec;
	cmd->exec_locked = d->exec_locked;
	cmd->privileged = d->privileged;
	if (op == I915_MI_STORE_DWORD_IMM_OP)
		mi_store_privilege(cs, cmd);
	return I915_SIM_CS_NEXT;
}
