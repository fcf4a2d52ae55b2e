// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: software model - the command streamer
 *
 * The render command streamer runs in a kernel thread of its own,
 * asynchronous to the CPU like the hardware.  While the ring is valid
 * (RING_CTL bit 0), not stopped (MI_MODE STOP_RING) and HEAD != TAIL, or
 * a batch buffer is running, it fetches one command at a time through the
 * GTT, executes it and moves on: HEAD (with its wrap count) in the ring,
 * its own batch pointer in a batch.  ACTHD holds the GTT address of the
 * command being executed; MI_MODE reads idle (bit 9) and INSTDONE all
 * done once nothing is left.  STOP_RING holds the engine only between two
 * commands of the ring: a batch runs on to its end (an arbitration point
 * inside it is the "strict" model's business), so a batch that loops
 * keeps the engine until a GDRST reset.  Writes to TAIL, RING_CTL or
 * MI_MODE (and a GDRST reset) kick the thread through &i915_sim.kick; out
 * of work, it watches the ring for 50 us before it sleeps, so that a tail
 * write soon after needs no wake-up.  &i915_sim.lock is
 * held to read and update the engine state between two commands (one
 * hold commits a command and picks the next), and a short MI command of
 * the ring that needs nothing the lock forbids (MI_NOOP, MI_FLUSH,
 * MI_ARB_CHECK, MI_USER_INTERRUPT, MI_STORE_DWORD_INDEX,
 * MI_BATCH_BUFFER_START and _END, every dword in the page already
 * translated, no command delay) also executes within that hold, up to 16
 * commands a hold, with the same checks: a request's breadcrumb no longer
 * takes and drops the lock once or twice a command (debugfs
 * locked_commands).  A batch's commands keep one hold each, so that the
 * CPU may see the engine at any of them;
 * memory is read again for every command (nothing of a batch is cached),
 * and a command may take long (a blit) without holding anything.  Commands
 * are fetched a page at a time: one GTT lookup under the lock per page of
 * the ring or batch (&i915_sim_gtt_window), whose dwords are then read
 * from memory one by one without it, as long as no GTT entry is written;
 * a command that crosses into the next page translates that page at its
 * first dword there, so a fault names that dword.
 *
 * MI commands (i915_sim_mi.c, whose DOC has the whole table): MI_NOOP
 * (bit 22 writes NOPID), MI_FLUSH (all bits; memory is written directly,
 * so a flush only counts), MI_USER_INTERRUPT (IIR bit 1),
 * MI_WAIT_FOR_EVENT, MI_REPORT_HEAD (HEAD into status-page dword 4),
 * MI_ARB_ON_OFF and MI_SUSPEND_FLUSH (recorded, no effect), MI_ARB_CHECK
 * (no-op: one ring), MI_OVERLAY_FLIP, MI_LOAD_SCAN_LINES_INCL/EXCL and
 * MI_DISPLAY_FLIP (no-ops: no display), MI_SET_CONTEXT (accepted; no
 * context image is saved or restored), MI_STORE_DWORD_IMM (Gen3 3-dword
 * and Gen4 4-dword forms, GTT addresses), MI_STORE_DWORD_INDEX (into the
 * status page), MI_LOAD_REGISTER_IMM (any number of pairs, through the
 * model's register write path), MI_STORE_REGISTER_MEM (GTT addresses),
 * MI_BATCH_BUFFER_START (Gen3 and Gen4 forms, GTT batches only) and
 * MI_BATCH_BUFFER_END; the blitter (i915_sim_blt.c) and the 3D pipe
 * (i915_sim_3d.c) execute their clients' commands.
 *
 * Batches: MI_BATCH_BUFFER_START in the ring moves HEAD past itself and
 * runs the batch until MI_BATCH_BUFFER_END returns to the ring.  One
 * inside a batch chains: it jumps, and the MI_BATCH_BUFFER_END of the new
 * batch returns to the ring (the fact sheet leaves chaining versus nesting
 * open; the model chains).  A chained batch is non-secure if either batch
 * is.  MI_BATCH_BUFFER_END in the ring does nothing.
 *
 * Privileged commands - MI_LOAD_REGISTER_IMM, MI_STORE_DWORD_INDEX,
 * MI_STORE_REGISTER_MEM, MI_SET_CONTEXT, MI_STORE_DWORD_IMM on Gen4, and
 * MI_STORE_DWORD_IMM to a physical address on both - run in the ring and
 * in secure batches.  In a non-secure batch the hardware drops them: the
 * command is fetched and executed as MI_NOOP, and the stream goes on; G4x
 * reports it in ESR and EIR (bit 3 command privilege violation, bit 4
 * for the physical store), raising the master error interrupt unless EMR
 * masks it, while Gen3 and the 965G have no such bit and say nothing.
 * (Later generations' documentation and upstream's command parser say
 * the hardware "noops" them; no Gen3/Gen4 PRM text was at hand.)  A
 * physical store or batch is not supported even where it is allowed (it
 * would reach any host memory): instruction error.  So is
 * MI_LOAD_REGISTER_IMM to HWS_PGA or PGTBL_CTL, the registers that hold
 * physical addresses.
 *
 * Errors: an MI opcode the generation does not have, client 1 or 4-7, a
 * reserved 3D opcode, a 2D command the model does not implement, a length
 * the command does not have, or a command longer than the ring is an
 * instruction error (EIR and ESR bit 0); a fetch
 * or access through an invalid GTT entry, beyond the GTT, or while the
 * GTT or bus mastering is disabled, is a page-table error with PGTBL_ER
 * bit 20 (instruction fetch) or 19 (data).  IPEHR gets the header, IPEIR
 * the model's %I915_SIM_IPEIR_* reason, ACTHD stays on the command, EIR
 * and ESR get the error and the master error interrupt is raised unless
 * EMR masks it.  The engine then halts: HEAD is not advanced and nothing
 * more runs until the ring is disabled (RING_CTL written without
 * RING_VALID, the first step of the driver's ring start sequence) or the
 * engine is reset through GDRST; both also abandon a running batch and a
 * wait.  Like the hardware the model does not know where a batch object
 * ends: a batch without MI_BATCH_BUFFER_END runs on into whatever the GTT
 * maps after it (scratch pages read as MI_NOOP) and faults at the end of
 * the GTT.
 *
 * MI_WAIT_FOR_EVENT with any event or condition bit set waits for ever:
 * there is no display, so no event arrives.  RING_CTL bit 11 (RING_WAIT)
 * is set while it waits and ACTHD stays on it; rewriting RING_CTL (what
 * an old-style hang check does to kick the ring) releases it and the
 * stream goes on after it.  With no bit set it does not wait.
 *
 * A command the ring does not yet hold completely (its end is past TAIL)
 * waits for TAIL to move.  A batch that loops for ever keeps the thread
 * busy but preemptible; the driver's hang check sees no progress.
 *
 * GDRST (i915_sim_engine_reset()) stops the engine wherever it is: the
 * command being executed ends early and commits nothing (its epoch is
 * gone), the batch, wait, stall and error are forgotten, and nothing runs
 * while the reset is asserted.  The reset reads complete in config space
 * only once the thread is between commands (i915_sim_cs_quiet_locked()),
 * so no write of the old stream lands after the driver saw it complete.
 *
 * Module parameter cmd_delay_us (0644, microseconds, default 0, at
 * most 1000000): the time the command streamer spends on every command,
 * so that tests can see objects busy, throttling and timeouts.  HEAD moves
 * past a command only once its time is up.
 *
 * debugfs i915_sim/<slot>/cs: the engine, one "key: value" a line - state
 * (disabled, idle, running, waiting, stopped or halted), start, ctl, head,
 * tail, acthd, busy (MI_MODE not idle), halted, batch ("none", or the
 * next command's address, "started" and the batch's start address,
 * "secure" or "non-secure"), error ("none", or the address and header of
 * the last command that halted the engine and what was wrong, with the
 * kind of GTT fault after a colon), then the counters commands, batches,
 * blits, blit_bytes, flushes, user_interrupts, errors, privileged_noops,
 * idle_looks, locked_commands (commands executed within the hold of
 * the lock that picked them), fetch_lookups (pages translated for
 * command fetches),
 * drawrects and the current cmd_delay_us.  Addresses and registers in
 * hex, counters in decimal.
 */

#include <linux/debugfs.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string_helpers.h>

#include "i915_cmd.h"
#include "i915_reg.h"
#include "i915_sim.h"
#include "i915_sim_cs.h"
#include "i915_sim_regs.h"

static unsigned int sim_cmd_delay_us;
module_param_named(cmd_delay_us, sim_cmd_delay_us, uint, 0644);
MODULE_PARM_DESC(cmd_delay_us,
		 "Microseconds the command streamer of every simulated GPU spends on each command (default 0, at most 1000000)");

static u32 *reg(struct i915_sim *sim, u32 r)
{
	return i915_sim_reg(sim, r);
}

/* The ring registers as the command streamer sees them. */
struct ring_state {
	bool valid;
	u32 start;
	u32 size;
	u32 head_reg;
	u32 head;
	u32 tail;
};

static void ring_read_locked(struct i915_sim *sim, struct ring_state *r)
{
	u32 ctl = *reg(sim, I915_RING_CTL);

	lockdep_assert_held(&sim->lock);
	r->valid = ctl & I915_RING_VALID;
	r->size = (ctl & I915_RING_NR_PAGES) + I915_GTT_PAGE_SIZE;
	r->start = *reg(sim, I915_RING_START);
	r->head_reg = *reg(sim, I915_RING_HEAD);
	r->head = r->head_reg & I915_HEAD_ADDR;
	r->tail = *reg(sim, I915_RING_TAIL) & I915_TAIL_ADDR;
}

static bool stop_requested_locked(struct i915_sim *sim)
{
	lockdep_assert_held(&sim->lock);
	return *reg(sim, I915_MI_MODE) & I915_MI_MODE_STOP_RING;
}

/*
 * Held still: GDRST holds the engine in reset, or STOP_RING is set and
 * the engine stands between two commands of the ring.  STOP_RING does not
 * stop a batch: it runs to its MI_BATCH_BUFFER_END (one that loops, until
 * a reset).
 */
static bool cs_held_locked(struct i915_sim_cs *cs)
{
	struct i915_sim *sim = cs->sim;

	lockdep_assert_held(&sim->lock);
	return sim->in_reset || (stop_requested_locked(sim) && !cs->in_batch);
}

/* Work is queued: the ring is valid and a batch runs or HEAD != TAIL. */
static bool cs_pending_locked(struct i915_sim_cs *cs)
{
	struct ring_state r;

	lockdep_assert_held(&cs->sim->lock);
	ring_read_locked(cs->sim, &r);
	return r.valid && (cs->in_batch || r.head != r.tail);
}

/* MI_MODE idle and INSTDONE follow what the engine is doing. */
static void cs_update_busy_locked(struct i915_sim_cs *cs)
{
	struct i915_sim *sim = cs->sim;
	bool busy;

	lockdep_assert_held(&sim->lock);
	busy = cs->executing ||
	       (cs_pending_locked(cs) && !cs_held_locked(cs));
	sim->engine_busy = busy;
	*reg(sim, sim->eng.instdone) = busy ? I915_SIM_INSTDONE_BUSY :
					      I915_SIM_INSTDONE_IDLE;
}

/*
 * May the next command run?  A wait ends when RING_WAIT was cleared by a
 * RING_CTL write; a stall when TAIL moved.
 */
static bool cs_ready_locked(struct i915_sim_cs *cs, const struct ring_state *r)
{
	struct i915_sim *sim = cs->sim;

	lockdep_assert_held(&sim->lock);
	if (!r->valid || cs->halted || cs_held_locked(cs))
		return false;
	if (cs->waiting) {
		if (*reg(sim, I915_RING_CTL) & I915_RING_WAIT)
			return false;
		cs->waiting = false;
	}
	if (cs->in_batch)
		return true;
	if (cs->stalled && r->tail == cs->stall_tail)
		return false;
	return r->head != r->tail;
}

/*
 * Is there work?  If not and the thread is about to sleep (@sleeping: its
 * task state set already), @cs->asleep tells the next kick to wake it.
 */
static bool cs_has_work(struct i915_sim_cs *cs, bool sleeping)
{
	struct i915_sim *sim = cs->sim;
	struct ring_state r;
	unsigned long flags;
	bool ready;

	raw_spin_lock_irqsave(&sim->lock, flags);
	ring_read_locked(sim, &r);
	ready = cs_ready_locked(cs, &r);
	if (!ready && sleeping)
		cs->asleep = true;
	raw_spin_unlock_irqrestore(&sim->lock, flags);
	return ready;
}

/* The ring was disabled or the engine reset: forget batch, wait, error. */
static void cs_reset_locked(struct i915_sim_cs *cs)
{
	struct i915_sim *sim = cs->sim;

	lockdep_assert_held(&sim->lock);
	cs->in_batch = false;
	cs->waiting = false;
	cs->halted = false;
	cs->stalled = false;
	cs->epoch++;
	*reg(sim, I915_RING_CTL) &= ~I915_RING_WAIT;
}

/* &i915_sim.kick: under the model's lock, in the writer's context. */
static void cs_kick(struct i915_sim *sim)
{
	struct i915_sim_cs *cs = sim->cs;
	bool reset;

	lockdep_assert_held(&sim->lock);
	reset = !(*reg(sim, I915_RING_CTL) & I915_RING_VALID) || sim->in_reset;
	if (reset)
		cs_reset_locked(cs);
	cs_update_busy_locked(cs);
	/* What the idle poll watches, without the lock (cs_poll_for_work()). */
	WRITE_ONCE(cs->kicks, cs->kicks + 1);
	/*
	 * Running or polling, the thread sees the kick without a wake-up;
	 * a reset also cuts short the delay of the command it executes.
	 */
	if (cs->asleep || reset) {
		cs->asleep = false;
		wake_up_process(cs->task);
	}
}

/**
 * i915_sim_cs_quiet_locked - is no command being executed?
 * @cs: the command streamer, the model's lock held
 *
 * Return: true when the thread is between two commands (or asleep).
 */
bool i915_sim_cs_quiet_locked(struct i915_sim_cs *cs)
{
	lockdep_assert_held(&cs->sim->lock);
	return !cs->executing;
}

/* Take the engine's halting error into the error registers. */
static void cs_halt_locked(struct i915_sim_cs *cs, struct i915_sim_cmd *cmd)
{
	struct i915_sim *sim = cs->sim;

	lockdep_assert_held(&sim->lock);
	cs->halted = true;
	cs->err_addr = cmd->addr;
	cs->err_header = cmd->dw[0];
	cs->err_why = cmd->why;
	cs->err_fault = cmd->fault;
	*reg(sim, sim->eng.acthd) = cmd->addr;
	*reg(sim, sim->eng.ipehr) = cmd->dw[0];
	*reg(sim, sim->eng.ipeir) |= cmd->ipeir;
	if (cmd->pgtbl_er)
		i915_sim_page_fault_locked(sim, cmd->pgtbl_er);
	if (cmd->eir)
		i915_sim_error_locked(sim, cmd->eir);
	atomic_long_inc(&cs->errors);
	dev_dbg(&sim->pdev->dev, "command streamer halted at 0x%08x, header 0x%08x: %s\n",
		cmd->addr, cmd->dw[0], cmd->why);
}

/* Move past the command: HEAD (unless the driver moved it) or the batch. */
static void cs_advance_locked(struct i915_sim_cs *cs, struct i915_sim_cmd *cmd)
{
	u32 *head = reg(cs->sim, I915_RING_HEAD);
	u32 wrap = *head & I915_HEAD_WRAP_COUNT;
	u32 off = cmd->head + cmd->len * sizeof(u32);

	lockdep_assert_held(&cs->sim->lock);
	if (cmd->batch) {
		cs->batch_addr = cmd->addr + cmd->len * sizeof(u32);
		return;
	}
	if (*head != cmd->head_reg)
		return;
	if (off >= cmd->ring_size) {
		off -= cmd->ring_size;
		wrap += I915_HEAD_WRAP_ONE;
	}
	*head = wrap | off;
}

static void cs_start_batch_locked(struct i915_sim_cs *cs,
				  struct i915_sim_cmd *cmd)
{
	lockdep_assert_held(&cs->sim->lock);
	cs->in_batch = true;
	cs->batch_addr = cmd->target;
	cs->batch_start = cmd->target;
	cs->batch_secure = cmd->target_secure;
	atomic_long_inc(&cs->batches);
}

/* Apply how the command ended, in the epoch it was fetched in. */
static void cs_commit_locked(struct i915_sim_cs *cs, struct i915_sim_cmd *cmd,
			     enum i915_sim_cs_result res)
{
	struct i915_sim *sim = cs->sim;

	lockdep_assert_held(&sim->lock);
	switch (res) {
	case I915_SIM_CS_NEXT:
		cs_advance_locked(cs, cmd);
		break;
	case I915_SIM_CS_WAIT:
		cs_advance_locked(cs, cmd);
		cs->waiting = true;
		*reg(sim, I915_RING_CTL) |= I915_RING_WAIT;
		break;
	case I915_SIM_CS_JUMP:
		if (!cmd->batch)
			cs_advance_locked(cs, cmd);
		cs_start_batch_locked(cs, cmd);
		break;
	case I915_SIM_CS_RETURN:
		cs->in_batch = false;
		break;
	case I915_SIM_CS_STALL:
		cs->stalled = true;
		cs->stall_tail = *reg(sim, I915_RING_TAIL) & I915_TAIL_ADDR;
		return;
	case I915_SIM_CS_ERROR:
		cs_halt_locked(cs, cmd);
		return;
	case I915_SIM_CS_ABORT:
		return;
	}
	atomic_long_inc(&cs->commands);
}

static void cmd_init(struct i915_sim_cmd *cmd, unsigned int epoch)
{
	cmd->epoch = epoch;
	cmd->len = 0;
	cmd->exec = NULL;
	cmd->exec_locked = NULL;
	cmd->privileged = false;
	cmd->mem_privilege = false;
	cmd->fetched = 0;
	cmd->dw[0] = 0;
	cmd->eir = 0;
	cmd->ipeir = 0;
	cmd->pgtbl_er = 0;
	cmd->why = NULL;
	cmd->fault = NULL;
}

/*
 * Pick the next command: in the batch, or at HEAD.  HEAD or TAIL beyond
 * the ring is an error that halts the engine here.
 */
static bool cs_begin_locked(struct i915_sim_cs *cs, struct i915_sim_cmd *cmd)
{
	struct i915_sim *sim = cs->sim;
	struct ring_state r;

	lockdep_assert_held(&sim->lock);
	ring_read_locked(sim, &r);
	if (!cs_ready_locked(cs, &r))
		return false;

	cmd_init(cmd, cs->epoch);
	cmd->batch = cs->in_batch;
	if (cmd->batch) {
		cmd->secure = cs->batch_secure;
		cmd->addr = cs->batch_addr;
	} else {
		cmd->secure = true;
		cmd->ring_start = r.start;
		cmd->ring_size = r.size;
		cmd->head_reg = r.head_reg;
		cmd->head = r.head;
		cmd->avail = (r.tail + r.size - r.head) % r.size;
		cmd->addr = r.start + r.head;
		if (r.head >= r.size || r.tail >= r.size) {
			i915_sim_cs_bad(cs, cmd, "HEAD or TAIL beyond the ring");
			cs_halt_locked(cs, cmd);
			return false;
		}
	}
	cs->executing = true;
	cs->stalled = false;
	*reg(sim, sim->eng.acthd) = cmd->addr;
	*reg(sim, sim->eng.dma_fadd) = cmd->addr;
	cs_update_busy_locked(cs);
	return true;
}

/**
 * i915_sim_cs_bad - the command is unknown or malformed
 * @cs: the command streamer
 * @cmd: the command
 * @why: what is wrong, for debugfs
 *
 * Return: %I915_SIM_CS_ERROR; the engine halts with an instruction error.
 */
enum i915_sim_cs_result i915_sim_cs_bad(struct i915_sim_cs *cs,
					struct i915_sim_cmd *cmd,
					const char *why)
{
	cmd->eir = I915_ERROR_INSTRUCTION;
	cmd->ipeir = I915_SIM_IPEIR_BAD_COMMAND;
	cmd->why = why;
	return I915_SIM_CS_ERROR;
}

/**
 * i915_sim_cs_privilege - a privileged command in a non-secure batch
 * @cs: the command streamer
 * @cmd: the command, decoded and fetched
 *
 * The hardware drops the command (executes it as MI_NOOP) and goes on;
 * G4x reports it in ESR and EIR as a command privilege violation, or a
 * memory privilege violation for a store to a physical address.  Gen3
 * and the 965G have no such error bit: the command is dropped silently.
 *
 * Return: %I915_SIM_CS_NEXT.
 */
enum i915_sim_cs_result i915_sim_cs_privilege(struct i915_sim_cs *cs,
					      struct i915_sim_cmd *cmd)
{
	struct i915_sim *sim = cs->sim;

	atomic_long_inc(&cs->privileged_noops);
	dev_dbg(&sim->pdev->dev, "privileged command 0x%08x at 0x%08x in a non-secure batch dropped\n",
		cmd->dw[0], cmd->addr);
	if (sim->chip->flags & I915_SIM_G4X)
		i915_sim_error(sim, cmd->mem_privilege ? GM45_ERROR_MEM_PRIV :
							 GM45_ERROR_CP_PRIV);
	return I915_SIM_CS_NEXT;
}

/**
 * i915_sim_cs_fault - a GPU access of the command failed in the GTT
 * @cs: the command streamer
 * @cmd: the command
 * @err: the error of the access (i915_sim_gtt_copy())
 * @pgtbl_er: PGTBL_ER bits naming the client
 * @why: what was accessed, for debugfs
 *
 * Return: %I915_SIM_CS_ERROR; the engine halts with a page-table error.
 */
enum i915_sim_cs_result i915_sim_cs_fault(struct i915_sim_cs *cs,
					  struct i915_sim_cmd *cmd, int err,
					  u32 pgtbl_er, const char *why)
{
	cmd->pgtbl_er = pgtbl_er;
	cmd->ipeir = I915_SIM_IPEIR_FAULT;
	cmd->why = why;
	switch (err) {
	case -ERANGE:
		cmd->fault = "beyond the GTT";
		break;
	case -EIO:
		cmd->fault = "GTT or bus mastering disabled";
		break;
	default:
		cmd->fault = "invalid GTT entry";
		break;
	}
	return I915_SIM_CS_ERROR;
}

/**
 * i915_sim_cs_skip - execute a command that changes nothing the model keeps
 * @cs: the command streamer
 * @cmd: the command, fetched
 *
 * For 3D state and primitives: the model renders nothing.
 *
 * Return: %I915_SIM_CS_NEXT.
 */
enum i915_sim_cs_result i915_sim_cs_skip(struct i915_sim_cs *cs,
					 struct i915_sim_cmd *cmd)
{
	return I915_SIM_CS_NEXT;
}

/**
 * i915_sim_cs_aborted - should a long command stop early?
 * @cs: the command streamer; called from its thread
 * @cmd: the command being executed
 *
 * Return: true if the ring was disabled or the engine reset since @cmd
 * was fetched, or the model is going away.
 */
bool i915_sim_cs_aborted(struct i915_sim_cs *cs, struct i915_sim_cmd *cmd)
{
	return READ_ONCE(cs->epoch) != cmd->epoch || kthread_should_stop();
}

/* GTT address of dword @index of the command; -EAGAIN past TAIL. */
static int cmd_addr(const struct i915_sim_cmd *cmd, u32 index, u32 *addr)
{
	u64 off = (u64)index * sizeof(u32);
	u64 a;

	if (cmd->batch) {
		a = cmd->addr + off;
	} else {
		if (off + sizeof(u32) > cmd->avail)
			return -EAGAIN;
		a = cmd->ring_start + (cmd->head + off) % cmd->ring_size;
	}
	if (a > U32_MAX - sizeof(u32) + 1)
		return -ERANGE;
	*addr = a;
	return 0;
}

/**
 * i915_sim_cs_fetch - read a dword of the command being executed
 * @cs: the command streamer
 * @cmd: the command
 * @index: which dword, 0 for the header
 * @val: the dword
 *
 * In the ring, dwords wrap at the end of the ring and stop at TAIL.
 *
 * Return: 0, -EAGAIN if the ring does not hold that dword yet, or the
 * GTT error of the read.
 */
int i915_sim_cs_fetch(struct i915_sim_cs *cs, struct i915_sim_cmd *cmd,
		      u32 index, u32 *val)
{
	u32 addr;
	int ret;

	ret = cmd_addr(cmd, index, &addr);
	if (ret)
		return ret;
	return i915_sim_gtt_window_read32(cs->sim, &cs->fetch, addr, val);
}

/* A command too long to keep: check it is there, page by page. */
static int cs_probe(struct i915_sim_cs *cs, struct i915_sim_cmd *cmd)
{
	u32 i = cmd->fetched, addr, val;
	int ret;

	while (i < cmd->len) {
		ret = cmd_addr(cmd, i, &addr);
		if (!ret)
			ret = i915_sim_gtt_window_read32(cs->sim, &cs->fetch,
							 addr, &val);
		if (ret)
			return ret;
		if (i == cmd->len - 1)
			break;
		i += (I915_GTT_PAGE_SIZE - offset_in_page(addr)) / sizeof(u32);
		i = min(i, cmd->len - 1);
	}
	return 0;
}

/* Fetch the rest of the decoded command. */
static enum i915_sim_cs_result cs_load(struct i915_sim_cs *cs,
				       struct i915_sim_cmd *cmd)
{
	int ret = 0;

	if (!cmd->batch) {
		if ((u64)cmd->len * sizeof(u32) >= cmd->ring_size)
			return i915_sim_cs_bad(cs, cmd, "command longer than the ring");
		if (cmd->len * sizeof(u32) > cmd->avail)
			return I915_SIM_CS_STALL;
	}

	if (cmd->len > I915_SIM_CS_MAX_FETCH) {
		ret = cs_probe(cs, cmd);
	} else {
		for (; cmd->fetched < cmd->len && !ret; cmd->fetched++)
			ret = i915_sim_cs_fetch(cs, cmd, cmd->fetched,
						&cmd->dw[cmd->fetched]);
	}
	if (ret)
		return i915_sim_cs_fault(cs, cmd, ret,
					 I915_PGTBL_ERR_CS_INSTRUCTION,
					 "command fetch through the GTT");
	return I915_SIM_CS_NEXT;
}

/* --- one command ----------------------------------------------------------- */

static enum i915_sim_cs_result cs_decode(struct i915_sim_cs *cs,
					 struct i915_sim_cmd *cmd)
{
	switch (I915_CMD_CLIENT(cmd->dw[0])) {
	case I915_CLIENT_MI:
		return i915_sim_mi_decode(cs, cmd);
	case I915_CLIENT_2D:
		return i915_sim_blt_decode(cs, cmd);
	case I915_CLIENT_3D:
		return i915_sim_3d_decode(cs, cmd);
	}
	return i915_sim_cs_bad(cs, cmd, "reserved command client");
}

static enum i915_sim_cs_result cs_execute(struct i915_sim_cs *cs,
					  struct i915_sim_cmd *cmd)
{
	enum i915_sim_cs_result res;
	int ret;

	ret = i915_sim_cs_fetch(cs, cmd, 0, &cmd->dw[0]);
	if (ret == -EAGAIN)
		return I915_SIM_CS_STALL;
	if (ret)
		return i915_sim_cs_fault(cs, cmd, ret,
					 I915_PGTBL_ERR_CS_INSTRUCTION,
					 "command fetch through the GTT");
	cmd->fetched = 1;

	res = cs_decode(cs, cmd);
	if (res != I915_SIM_CS_NEXT)
		return res;
	res = cs_load(cs, cmd);
	if (res != I915_SIM_CS_NEXT)
		return res;
	if (cmd->privileged && !cmd->secure)
		return i915_sim_cs_privilege(cs, cmd);
	return cmd->exec(cs, cmd);
}

/*
 * At most this many commands run within one hold of the model's lock
 * (cs_execute_locked()), so that the CPU's register accesses, which take
 * it too, wait no longer than a few commands.
 */
#define CS_LOCKED_RUN	16

/*
 * Execute the command picked under the lock without dropping it, when
 * that needs nothing the lock forbids: a command of the ring (the
 * driver's own: a batch keeps one hold per command, so that the CPU, a
 * hang check sampling ACTHD, may see the engine at any of its commands),
 * an MI command with an executor for it (no lock taken, no sleep:
 * MI_NOOP, MI_FLUSH, MI_ARB_CHECK, MI_USER_INTERRUPT,
 * MI_STORE_DWORD_INDEX, MI_BATCH_BUFFER_START and _END), every dword of
 * it in the page the fetch window holds (nothing to translate), no
 * command delay, and no shadow of a fenced aperture page to merge.  The
 * checks are the slow path's, in its order: the fetch's window and DMA
 * checks, the decoder's opcode and length, the ring's room, the
 * privilege.  Anything else, errors included, goes the
 * slow path (cs_execute()) from the start, which reports it.
 *
 * Return: true with @res set if the command ran; false, @cmd as picked,
 * otherwise.
 */
static bool cs_execute_locked(struct i915_sim_cs *cs, struct i915_sim_cmd *cmd,
			      enum i915_sim_cs_result *res)
{
	struct i915_sim *sim = cs->sim;
	u32 addr;

	lockdep_assert_held(&sim->lock);
	if (cmd->batch || READ_ONCE(sim_cmd_delay_us) ||
	    !xa_empty(&sim->shadows))
		return false;
	if (cmd_addr(cmd, 0, &addr) ||
	    i915_sim_gtt_window_peek32(sim, &cs->fetch, addr, &cmd->dw[0]))
		return false;
	cmd->fetched = 1;
	if (I915_CMD_CLIENT(cmd->dw[0]) != I915_CLIENT_MI ||
	    i915_sim_mi_decode(cs, cmd) != I915_SIM_CS_NEXT ||
	    !cmd->exec_locked || cmd->len > I915_SIM_CS_MAX_FETCH)
		goto slow;
	if ((u64)cmd->len * sizeof(u32) >= cmd->ring_size ||
	    cmd->len * sizeof(u32) > cmd->avail)
		goto slow;
	for (; cmd->fetched < cmd->len; cmd->fetched++) {
		if (cmd_addr(cmd, cmd->fetched, &addr) ||
		    i915_sim_gtt_window_peek32(sim, &cs->fetch, addr,
					       &cmd->dw[cmd->fetched]))
			goto slow;
	}
	if (cmd->privileged && !cmd->secure)
		goto slow;
	*res = cmd->exec_locked(cs, cmd);
	atomic_long_inc(&cs->locked_commands);
	return true;
slow:
	cmd_init(cmd, cmd->epoch);
	return false;
}

/* sim_cmd_delay_us of the command's time; a reset or stop cuts it short. */
static void cs_delay(struct i915_sim_cs *cs, struct i915_sim_cmd *cmd)
{
	unsigned int us = min_t(unsigned int, READ_ONCE(sim_cmd_delay_us),
				I915_SIM_CMD_DELAY_MAX_US);
	ktime_t end;

	if (!us)
		return;
	end = ktime_add_us(ktime_get(), us);
	for (;;) {
		set_current_state(TASK_IDLE);
		if (i915_sim_cs_aborted(cs, cmd))
			break;
		/* 0 once the time is up; kicks wake it early. */
		if (!schedule_hrtimeout_range(&end, 0, HRTIMER_MODE_ABS))
			break;
	}
	__set_current_state(TASK_RUNNING);
}

/*
 * Execute commands while there are some; false if there was none.  One
 * hold of the lock commits a command and picks the next one, and runs up
 * to %CS_LOCKED_RUN of those that cs_execute_locked() can run in it; the
 * thread stops to yield the CPU when the scheduler asks.
 */
static bool cs_step(struct i915_sim_cs *cs)
{
	struct i915_sim *sim = cs->sim;
	struct i915_sim_cmd *cmd = &cs->cmd;
	enum i915_sim_cs_result res;
	unsigned int run = 0;
	unsigned long flags;
	bool ran = false;

	raw_spin_lock_irqsave(&sim->lock, flags);
	while (cs_begin_locked(cs, cmd)) {
		ran = true;
		if (run < CS_LOCKED_RUN && cs_execute_locked(cs, cmd, &res)) {
			run++;
			/* The lock was held throughout: the epoch is the same. */
			cs->executing = false;
			cs_commit_locked(cs, cmd, res);
			if (need_resched() || kthread_should_stop())
				break;
			continue;
		}
		run = 0;
		raw_spin_unlock_irqrestore(&sim->lock, flags);

		/* Around batches: the CPU's fenced aperture writes meet memory. */
		if (!cmd->batch)
			i915_sim_shadow_sync(sim, false);
		res = cs_execute(cs, cmd);
		if (res != I915_SIM_CS_STALL && res != I915_SIM_CS_ABORT)
			cs_delay(cs, cmd);

		raw_spin_lock_irqsave(&sim->lock, flags);
		cs->executing = false;
		if (cmd->epoch == cs->epoch)
			cs_commit_locked(cs, cmd, res);
		if (res == I915_SIM_CS_STALL || need_resched() ||
		    kthread_should_stop())
			break;
	}
	cs_update_busy_locked(cs);
	raw_spin_unlock_irqrestore(&sim->lock, flags);
	return ran;
}

/*
 * Out of work, the thread watches the ring for CS_IDLE_POLL_NS before it
 * sleeps, as a command streamer keeps fetching: a tail write within that
 * time finds it running and needs no wake-up.  (Under TCG, waking the
 * thread on a halted vCPU took 16-25 us of the 100 us hand-off from the
 * tail write to the waiter; see Documentation/benchmarks.rst.)  Work
 * only ever arrives with a kick (a write to TAIL, RING_CTL or MI_MODE, a
 * reset), so the poll watches the kick count, without the model's lock:
 * polling under the lock kept the CPU's register writes and reads
 * waiting for it.
 */
#define CS_IDLE_POLL_NS	(50 * NSEC_PER_USEC)

static bool cs_poll_for_work(struct i915_sim_cs *cs)
{
	unsigned long kicks = READ_ONCE(cs->kicks);
	u64 end = local_clock() + CS_IDLE_POLL_NS;

	atomic_long_inc(&cs->idle_looks);
	if (cs_has_work(cs, false))
		return true;
	do {
		if (kthread_should_stop() || need_resched())
			return false;
		if (READ_ONCE(cs->kicks) != kicks)
			return true;
		cpu_relax();
	} while (local_clock() < end);
	return false;
}

static int cs_thread(void *data)
{
	struct i915_sim_cs *cs = data;

	while (!kthread_should_stop()) {
		if (cs_step(cs)) {
			cond_resched();
			continue;
		}
		if (cs_poll_for_work(cs))
			continue;
		/* Asleep, the thread holds no page. */
		i915_sim_gtt_window_drop(&cs->fetch);
		set_current_state(TASK_IDLE);
		if (!kthread_should_stop() && !cs_has_work(cs, true))
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	i915_sim_gtt_window_drop(&cs->fetch);
	return 0;
}

/**
 * i915_sim_cs_init - create the command streamer and start its thread
 * @sim: the model, not yet on its PCI bus
 *
 * Return: 0 or a negative errno.
 */
int i915_sim_cs_init(struct i915_sim *sim)
{
	struct task_struct *task;
	struct i915_sim_cs *cs;
	unsigned long flags;

	cs = kvzalloc(sizeof(*cs), GFP_KERNEL);
	if (!cs)
		return -ENOMEM;
	cs->sim = sim;
	cs->arb_enabled = true;
	i915_sim_3d_init(cs);

	task = kthread_create(cs_thread, cs, "i915_sim_cs");
	if (IS_ERR(task)) {
		kvfree(cs);
		return PTR_ERR(task);
	}
	cs->task = task;

	raw_spin_lock_irqsave(&sim->lock, flags);
	sim->cs = cs;
	sim->kick = cs_kick;
	raw_spin_unlock_irqrestore(&sim->lock, flags);
	wake_up_process(task);
	return 0;
}

/**
 * i915_sim_cs_fini - stop the command streamer's thread and free it
 * @sim: the model, off its PCI bus (no driver writes registers any more)
 *
 * A command in progress (a long blit, a delay) is cut short.
 */
void i915_sim_cs_fini(struct i915_sim *sim)
{
	struct i915_sim_cs *cs = sim->cs;
	unsigned long flags;

	if (!cs)
		return;

	raw_spin_lock_irqsave(&sim->lock, flags);
	sim->kick = NULL;
	raw_spin_unlock_irqrestore(&sim->lock, flags);

	kthread_stop(cs->task);

	raw_spin_lock_irqsave(&sim->lock, flags);
	sim->cs = NULL;
	sim->engine_busy = false;
	raw_spin_unlock_irqrestore(&sim->lock, flags);
	kvfree(cs);
}

/* --- debugfs ------------------------------------------------------------- */

/* What debugfs prints, copied under the lock. */
struct cs_snapshot {
	struct ring_state ring;
	u32 ctl;
	u32 acthd;
	bool busy;
	bool stop;
	bool in_batch;
	bool waiting;
	bool halted;
	bool batch_secure;
	u32 batch_addr;
	u32 batch_start;
	u32 err_addr;
	u32 err_header;
	const char *err_why;
	const char *err_fault;
};

static void cs_snapshot(struct i915_sim_cs *cs, struct cs_snapshot *s)
{
	struct i915_sim *sim = cs->sim;
	unsigned long flags;

	raw_spin_lock_irqsave(&sim->lock, flags);
	ring_read_locked(sim, &s->ring);
	s->ctl = *reg(sim, I915_RING_CTL);
	s->acthd = *reg(sim, sim->eng.acthd);
	s->busy = sim->engine_busy;
	s->stop = stop_requested_locked(sim);
	s->in_batch = cs->in_batch;
	s->waiting = cs->waiting;
	s->halted = cs->halted;
	s->batch_secure = cs->batch_secure;
	s->batch_addr = cs->batch_addr;
	s->batch_start = cs->batch_start;
	s->err_addr = cs->err_addr;
	s->err_header = cs->err_header;
	s->err_why = cs->err_why;
	s->err_fault = cs->err_fault;
	raw_spin_unlock_irqrestore(&sim->lock, flags);
}

static const char *cs_state_name(const struct cs_snapshot *s)
{
	if (!s->ring.valid)
		return "disabled";
	if (s->halted)
		return "halted";
	if (s->waiting)
		return "waiting";
	if (s->stop)
		return "stopped";
	return s->busy ? "running" : "idle";
}

static void cs_show_counters(struct seq_file *m, struct i915_sim_cs *cs)
{
	u64 rects;

	spin_lock(&cs->rect_lock);
	rects = cs->rect_total;
	spin_unlock(&cs->rect_lock);

	seq_printf(m, "commands: %ld\n", atomic_long_read(&cs->commands));
	seq_printf(m, "batches: %ld\n", atomic_long_read(&cs->batches));
	seq_printf(m, "blits: %ld\n", atomic_long_read(&cs->blits));
	seq_printf(m, "blit_bytes: %ld\n", atomic_long_read(&cs->blit_bytes));
	seq_printf(m, "flushes: %ld\n", atomic_long_read(&cs->flushes));
	seq_printf(m, "user_interrupts: %ld\n",
		   atomic_long_read(&cs->user_interrupts));
	seq_printf(m, "errors: %ld\n", atomic_long_read(&cs->errors));
	seq_printf(m, "privileged_noops: %ld\n",
		   atomic_long_read(&cs->privileged_noops));
	seq_printf(m, "idle_looks: %ld\n", atomic_long_read(&cs->idle_looks));
	seq_printf(m, "locked_commands: %ld\n",
		   atomic_long_read(&cs->locked_commands));
	seq_printf(m, "fetch_lookups: %lu\n", READ_ONCE(cs->fetch.lookups));
	seq_printf(m, "drawrects: %llu\n", rects);
	seq_printf(m, "cmd_delay_us: %u\n", READ_ONCE(sim_cmd_delay_us));
}

static int sim_cs_show(struct seq_file *m, void *data)
{
	struct i915_sim_cs *cs = m->private;
	struct cs_snapshot s;

	cs_snapshot(cs, &s);
	seq_printf(m, "state: %s\n", cs_state_name(&s));
	seq_printf(m, "start: 0x%08x\n", s.ring.start);
	seq_printf(m, "ctl: 0x%08x\n", s.ctl);
	seq_printf(m, "head: 0x%08x\n", s.ring.head_reg);
	seq_printf(m, "tail: 0x%08x\n", s.ring.tail);
	seq_printf(m, "acthd: 0x%08x\n", s.acthd);
	seq_printf(m, "busy: %s\n", str_yes_no(s.busy));
	seq_printf(m, "halted: %s\n", str_yes_no(s.halted));
	if (s.in_batch)
		seq_printf(m, "batch: 0x%08x started 0x%08x %s\n",
			   s.batch_addr, s.batch_start,
			   s.batch_secure ? "secure" : "non-secure");
	else
		seq_puts(m, "batch: none\n");
	if (s.err_why)
		seq_printf(m, "error: 0x%08x header 0x%08x %s%s%s\n",
			   s.err_addr, s.err_header, s.err_why,
			   s.err_fault ? ": " : "",
			   s.err_fault ? s.err_fault : "");
	else
		seq_puts(m, "error: none\n");
	cs_show_counters(m, cs);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_cs);

/**
 * i915_sim_cs_debugfs_init - the command streamer's debugfs files
 * @sim: the model, its command streamer created
 * @dir: the model's debugfs directory
 *
 * Creates "cs" here and "drawrects" in i915_sim_3d.c.
 */
void i915_sim_cs_debugfs_init(struct i915_sim *sim, struct dentry *dir)
{
	struct i915_sim_cs *cs = sim->cs;

	debugfs_create_file("cs", 0444, dir, cs, &sim_cs_fops);
	i915_sim_3d_debugfs_init(cs, dir);
}
