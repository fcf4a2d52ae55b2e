// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: software model - registers, interrupts and errors
 *
 * The semantics of the model's MMIO registers.  Unknown offsets read 0 and
 * keep what is written; offsets outside the 512 KiB register file or not
 * dword aligned read 0 and ignore writes; with memory decoding off in
 * config space every read returns all ones, as a master abort would.
 * An 8-byte CPU read (the seam's read64, for REG_READ) is one access:
 * both dwords are taken in the same instant.
 *
 * The Gen4 render timestamp (TIMESTAMP at 0x2358, its upper dword at
 * 0x235c) counts from 0 at power-on at the rate CLKCFG implies (one tick
 * every 16 host clocks: @i915_sim.ts_hz), computed from CLOCK_MONOTONIC
 * whenever it is read (by the CPU, by MI_STORE_REGISTER_MEM, by a
 * PIPE_CONTROL timestamp write), so it never goes back while the GPU has
 * power, and a 64-bit read sees both dwords of one count.  It is read
 * only.  Gen3 has no timestamp: 0x2358 is an unknown offset there.
 *
 * Interrupts: an event pulses ISR and latches into IIR unless IMR masks
 * it; IIR is write-1-to-clear, and a source that is still asserted in ISR
 * (the master error, level-triggered on EIR & ~EMR) latches again at once.
 * The INTx line is raised, from hard-IRQ context through an irq_work,
 * whenever IIR & IER is non-zero after an event or a write to IIR, IER or
 * IMR; the model does not repeat it while nothing changes.
 *
 * Power: when the GPU enters D3hot or the platform cuts its power (S3),
 * i915_sim_power_off() loses what silicon loses: every register goes back
 * to its power-on value (the ring disabled, interrupts masked and
 * disabled, nothing latched), the GTT to its power-on contents, and the
 * command streamer abandons what it was doing.  Until i915_sim_power_on()
 * MMIO reads all ones and writes are dropped, as are GTT writes and DMA.
 * System memory is untouched.
 */

#include <linux/interrupt.h>
#include <linux/irq.h>
#include <linux/math64.h>
#include <linux/pci.h>
#include <linux/timekeeping.h>

#include "i915_reg.h"
#include "i915_sim.h"
#include "i915_sim_regs.h"

static u32 *reg_ptr(struct i915_sim *sim, u32 reg)
{
	return i915_sim_reg(sim, reg);
}

/**
 * i915_sim_mmio_reset - load the power-on values of the register file
 * @sim: the model, not yet visible to anyone or its lock held
 */
void i915_sim_mmio_reset(struct i915_sim *sim)
{
	memset(sim->regs, 0, I915_MMIO_SIZE);
	WRITE_ONCE(sim->ts_epoch, ktime_get_ns());
	/* Firmware leaves the GTT enabled; the size code is read-only. */
	*reg_ptr(sim, I915_PGTBL_CTL) = sim->pgtbl_size | I915_PGTBL_ENABLE;
	*reg_ptr(sim, I915_IMR) = I915_SIM_IMR_RESET;
	*reg_ptr(sim, I915_EMR) = I915_SIM_EMR_RESET;
	*reg_ptr(sim, I915_HWSTAM) = I915_SIM_HWSTAM_RESET;
	*reg_ptr(sim, sim->eng.instdone) = I915_SIM_INSTDONE_IDLE;
	i915_sim_mc_reset(sim);
}

static bool mmio_decoded(struct i915_sim *sim)
{
	return (READ_ONCE(sim->pci_command) & PCI_COMMAND_MEMORY) &&
	       !READ_ONCE(sim->power_off);
}

static bool mmio_valid(u32 reg)
{
	return reg < I915_MMIO_SIZE && IS_ALIGNED(reg, sizeof(u32));
}

/**
 * i915_sim_timestamp - the Gen4 render timestamp's count now
 * @sim: the model
 *
 * Return: ticks since the GPU's power-on at @sim->ts_hz; 0 on Gen3.
 */
u64 i915_sim_timestamp(struct i915_sim *sim)
{
	u32 hz = READ_ONCE(sim->ts_hz);
	u64 ns = ktime_get_ns() - READ_ONCE(sim->ts_epoch);

	return hz ? mul_u64_u32_div(ns, hz, NSEC_PER_SEC) : 0;
}

static bool is_timestamp(struct i915_sim *sim, u32 reg)
{
	return sim->ts_hz && (reg == I965_RING_TIMESTAMP ||
			      reg == I965_RING_TIMESTAMP_UDW);
}

static u32 mmio_read_locked(struct i915_sim *sim, u32 reg)
{
	u32 val = *reg_ptr(sim, reg);

	if (reg == I915_MI_MODE && !sim->engine_busy)
		val |= I915_MI_MODE_IDLE;
	if (is_timestamp(sim, reg))
		val = reg == I965_RING_TIMESTAMP ?
		      lower_32_bits(i915_sim_timestamp(sim)) :
		      upper_32_bits(i915_sim_timestamp(sim));
	return val;
}

/**
 * i915_sim_mmio_peek - read a register regardless of PCI memory decoding
 * @sim: the model
 * @reg: byte offset
 *
 * For the model's own use (debugfs); the CPU path is i915_sim_mmio_read().
 *
 * Return: the register's value, 0 outside the register file.
 */
u32 i915_sim_mmio_peek(struct i915_sim *sim, u32 reg)
{
	unsigned long flags;
	u32 val;

	if (!mmio_valid(reg))
		return 0;

	raw_spin_lock_irqsave(&sim->lock, flags);
	val = mmio_read_locked(sim, reg);
	raw_spin_unlock_irqrestore(&sim->lock, flags);
	return val;
}

/**
 * i915_sim_mmio_read - read a register as the CPU would through BAR 0
 * @sim: the model
 * @reg: byte offset
 *
 * Return: the register's value; all ones while memory decoding is off.
 */
u32 i915_sim_mmio_read(struct i915_sim *sim, u32 reg)
{
	if (!mmio_decoded(sim))
		return ~0u;
	return i915_sim_mmio_peek(sim, reg);
}

/**
 * i915_sim_mmio_read64 - an 8-byte CPU read through BAR 0
 * @sim: the model
 * @reg: byte offset, 8-byte aligned
 *
 * Both dwords in the same instant (the timestamp's from one count).
 *
 * Return: the dword at @reg in bits 31:0 and the next in bits 63:32; all
 * ones while memory decoding is off, 0 outside the register file.
 */
u64 i915_sim_mmio_read64(struct i915_sim *sim, u32 reg)
{
	unsigned long flags;
	u64 val;

	if (!mmio_decoded(sim))
		return ~0ull;
	if (!IS_ALIGNED(reg, sizeof(u64)) || !mmio_valid(reg))
		return 0;

	raw_spin_lock_irqsave(&sim->lock, flags);
	if (is_timestamp(sim, reg))
		val = i915_sim_timestamp(sim);
	else
		val = (u64)mmio_read_locked(sim, reg + sizeof(u32)) << 32 |
		      mmio_read_locked(sim, reg);
	raw_spin_unlock_irqrestore(&sim->lock, flags);
	return val;
}

static void irq_relatch_locked(struct i915_sim *sim)
{
	*reg_ptr(sim, I915_IIR) |= *reg_ptr(sim, I915_ISR) &
				   ~*reg_ptr(sim, I915_IMR);
}

/**
 * i915_sim_irq_update_locked - raise the INTx line if IIR & IER is set
 * @sim: the model, its lock held
 */
void i915_sim_irq_update_locked(struct i915_sim *sim)
{
	lockdep_assert_held(&sim->lock);
	if (*reg_ptr(sim, I915_IIR) & *reg_ptr(sim, I915_IER))
		irq_work_queue(&sim->irq_work);
}

/**
 * i915_sim_irq_work - deliver the interrupt line to its handlers
 * @work: &i915_sim.irq_work
 *
 * Runs in hard-IRQ context, so handlers see what real INTx gives them.
 */
void i915_sim_irq_work(struct irq_work *work)
{
	struct i915_sim *sim = container_of(work, struct i915_sim, irq_work);
	unsigned int irq = READ_ONCE(sim->irq);
	bool asserted;

	raw_spin_lock(&sim->lock);
	asserted = *reg_ptr(sim, I915_IIR) & *reg_ptr(sim, I915_IER);
	raw_spin_unlock(&sim->lock);

	if (!asserted || !irq ||
	    (READ_ONCE(sim->pci_command) & PCI_COMMAND_INTX_DISABLE))
		return;
	atomic_long_inc(&sim->irq_asserts);
	generic_handle_irq(irq);
}

/* Copy ISR to status-page dword 0 if an ISR bit HWSTAM leaves unmasked moved. */
static void irq_mirror_isr_locked(struct i915_sim *sim, u32 changed)
{
	if (changed & ~*reg_ptr(sim, I915_HWSTAM))
		i915_sim_hws_write32_locked(sim, 0, *reg_ptr(sim, I915_ISR));
}

/**
 * i915_sim_irq_raise_locked - the hardware signals interrupt events
 * @sim: the model, its lock held
 * @bits: IIR/ISR bits of the events
 *
 * Each event pulses its ISR bit, latches into IIR unless IMR masks it, and
 * the line is raised if IER enables a latched bit.
 */
void i915_sim_irq_raise_locked(struct i915_sim *sim, u32 bits)
{
	u32 *isr = reg_ptr(sim, I915_ISR);
	u32 level = *isr;

	lockdep_assert_held(&sim->lock);
	*isr |= bits;
	irq_mirror_isr_locked(sim, *isr ^ level);
	*reg_ptr(sim, I915_IIR) |= bits & ~*reg_ptr(sim, I915_IMR);
	*isr = level;
	i915_sim_irq_update_locked(sim);
}

/**
 * i915_sim_irq_raise - the hardware signals interrupt events
 * @sim: the model
 * @bits: IIR/ISR bits of the events
 */
void i915_sim_irq_raise(struct i915_sim *sim, u32 bits)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&sim->lock, flags);
	i915_sim_irq_raise_locked(sim, bits);
	raw_spin_unlock_irqrestore(&sim->lock, flags);
}

/* The master error interrupt is a level: EIR & ~EMR. */
static void error_update_locked(struct i915_sim *sim)
{
	u32 *isr = reg_ptr(sim, I915_ISR);
	u32 old = *isr;

	if (*reg_ptr(sim, I915_EIR) & ~*reg_ptr(sim, I915_EMR))
		*isr |= I915_MASTER_ERROR_INTERRUPT;
	else
		*isr &= ~I915_MASTER_ERROR_INTERRUPT;
	if (*isr == old)
		return;
	irq_mirror_isr_locked(sim, *isr ^ old);
	irq_relatch_locked(sim);
	i915_sim_irq_update_locked(sim);
}

/**
 * i915_sim_error_locked - the hardware detects errors
 * @sim: the model, its lock held
 * @eir: EIR bits of the errors
 *
 * Sets the bits in ESR and EIR; an error EMR does not mask raises the
 * master error interrupt.
 */
void i915_sim_error_locked(struct i915_sim *sim, u32 eir)
{
	lockdep_assert_held(&sim->lock);
	*reg_ptr(sim, I915_ESR) |= eir;
	*reg_ptr(sim, I915_EIR) |= eir;
	error_update_locked(sim);
}

/**
 * i915_sim_error - the hardware detects errors
 * @sim: the model
 * @eir: EIR bits of the errors
 */
void i915_sim_error(struct i915_sim *sim, u32 eir)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&sim->lock, flags);
	i915_sim_error_locked(sim, eir);
	raw_spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * i915_sim_page_fault_locked - a GPU access hit an invalid GTT entry
 * @sim: the model, its lock held
 * @pgtbl_er: PGTBL_ER bits naming the client that faulted
 */
void i915_sim_page_fault_locked(struct i915_sim *sim, u32 pgtbl_er)
{
	lockdep_assert_held(&sim->lock);
	*reg_ptr(sim, I915_PGTBL_ER) |= pgtbl_er;
	i915_sim_error_locked(sim, sim->eir_page_table);
}

/**
 * i915_sim_engine_reset - GDRST asserts the render domain's reset
 * @sim: the model
 *
 * The engine stops wherever it is (in the ring, in a batch, in a batch
 * that loops) and stays stopped while @sim->in_reset: the command it was
 * executing ends early (i915_sim_cs_aborted()) and commits nothing.  The
 * ring registers, the engine's error and status registers, HWS_PGA and
 * the interrupt registers go back to their power-on values (interrupts
 * masked and disabled, nothing latched, the line quiet); memory, the GTT
 * and PGTBL_CTL are untouched.  i915_sim_engine_reset_done() says when
 * the engine has stopped, i915_sim_engine_reset_end() releases it.
 */
void i915_sim_engine_reset(struct i915_sim *sim)
{
	static const u32 zeroed[] = {
		I915_RING_TAIL, I915_RING_HEAD, I915_RING_START, I915_RING_CTL,
		I915_MI_MODE, I915_INSTPM, I915_HWS_PGA, I915_IER, I915_IIR,
		I915_ISR, I915_ESR, I915_EIR,
	};
	unsigned long flags;
	unsigned int i;

	raw_spin_lock_irqsave(&sim->lock, flags);
	sim->in_reset = true;
	for (i = 0; i < ARRAY_SIZE(zeroed); i++)
		*reg_ptr(sim, zeroed[i]) = 0;
	*reg_ptr(sim, I915_IMR) = I915_SIM_IMR_RESET;
	*reg_ptr(sim, I915_EMR) = I915_SIM_EMR_RESET;
	*reg_ptr(sim, I915_HWSTAM) = I915_SIM_HWSTAM_RESET;
	*reg_ptr(sim, sim->eng.acthd) = 0;
	*reg_ptr(sim, sim->eng.dma_fadd) = 0;
	*reg_ptr(sim, sim->eng.ipeir) = 0;
	*reg_ptr(sim, sim->eng.ipehr) = 0;
	*reg_ptr(sim, sim->eng.instdone) = I915_SIM_INSTDONE_IDLE;
	if (sim->kick)
		sim->kick(sim);
	raw_spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * i915_sim_engine_reset_done - has the engine stopped since its reset?
 * @sim: the model, i915_sim_engine_reset() called
 *
 * Return: true once no command fetched before the reset is still being
 * executed (a long blit notices the reset between two spans).
 */
bool i915_sim_engine_reset_done(struct i915_sim *sim)
{
	unsigned long flags;
	bool done;

	raw_spin_lock_irqsave(&sim->lock, flags);
	done = !sim->cs || i915_sim_cs_quiet_locked(sim->cs);
	raw_spin_unlock_irqrestore(&sim->lock, flags);
	return done;
}

/**
 * i915_sim_engine_reset_end - GDRST releases the render domain's reset
 * @sim: the model
 *
 * The engine may run again once the driver has programmed its ring.
 */
void i915_sim_engine_reset_end(struct i915_sim *sim)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&sim->lock, flags);
	sim->in_reset = false;
	if (sim->kick)
		sim->kick(sim);
	raw_spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * i915_sim_power_off - the GPU loses power (D3hot, or the platform's S3)
 * @sim: the model
 *
 * Registers and GTT go back to their power-on contents, latched
 * interrupts are dropped and the command streamer abandons its batch, its
 * wait or its error (its kick sees the ring disabled).  A GPU already
 * without power has nothing more to lose.  Called under the PCI
 * config-space lock; never sleeps.
 */
void i915_sim_power_off(struct i915_sim *sim)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&sim->lock, flags);
	if (sim->power_off) {
		raw_spin_unlock_irqrestore(&sim->lock, flags);
		return;
	}
	WRITE_ONCE(sim->power_off, true);
	i915_sim_mmio_reset(sim);
	i915_sim_gtt_power_on_locked(sim);
	if (sim->kick)
		sim->kick(sim);
	raw_spin_unlock_irqrestore(&sim->lock, flags);
	atomic_long_inc(&sim->power_cycles);
}

/**
 * i915_sim_power_on - the GPU is powered and in D0 again
 * @sim: the model, after i915_sim_power_off()
 *
 * It comes up in its power-on state; the driver programs it afresh.  The
 * firmware's stolen-memory entries are back (i915_sim_stolen_map()): on
 * resume from S3 the BIOS writes them before any driver runs.  The model
 * does the same after a D3hot cycle without S3, where no firmware runs
 * (unconfirmed on silicon), because no driver owns those entries.
 */
void i915_sim_power_on(struct i915_sim *sim)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&sim->lock, flags);
	WRITE_ONCE(sim->power_off, false);
	WRITE_ONCE(sim->ts_epoch, ktime_get_ns());
	raw_spin_unlock_irqrestore(&sim->lock, flags);
	i915_sim_stolen_map(sim);
}

static bool is_masked_reg(u32 reg)
{
	switch (reg) {
	case I915_MI_MODE:
	case I915_INSTPM:
	case I915_MI_ARB_STATE:
	case I915_CACHE_MODE_0:
	case I915_ECOSKPD:
		return true;
	}
	return false;
}

/* Bits 31:16 select which of bits 15:0 the write changes. */
static void write_masked_locked(struct i915_sim *sim, u32 reg, u32 val)
{
	u32 *r = reg_ptr(sim, reg);
	u32 mask = val >> 16;

	if (reg == I915_MI_MODE)
		mask &= ~I915_MI_MODE_IDLE;
	*r = (*r & ~mask) | (val & mask);
}

static void write_pgtbl_ctl_locked(struct i915_sim *sim, u32 val)
{
	u32 keep = I915_PGTBL_ADDR_MASK | I915_PGTBL_ENABLE;

	if (sim->pte_hi)
		keep |= I965_PGTBL_ADDR_HI_MASK;
	*reg_ptr(sim, I915_PGTBL_CTL) = (val & keep) | sim->pgtbl_size;
}

static bool write_ring_locked(struct i915_sim *sim, u32 reg, u32 val)
{
	u32 *r = reg_ptr(sim, reg);

	switch (reg) {
	case I915_RING_TAIL:
		*r = val & I915_TAIL_ADDR;
		return true;
	case I915_RING_HEAD:
		*r = val & (I915_HEAD_ADDR | I915_HEAD_WRAP_COUNT);
		return true;
	case I915_RING_START:
		*r = val & I915_RING_START_MASK;
		return true;
	case I915_RING_CTL:
		/* RING_WAIT is read-only; rewriting CTL releases the wait. */
		*r = val & ~I915_RING_WAIT;
		return true;
	}
	return false;
}

/* Write-1-to-clear registers; returns false if @reg is not one. */
static bool write_w1c_locked(struct i915_sim *sim, u32 reg, u32 val)
{
	if (reg != I915_IIR && reg != I915_EIR && reg != I915_PGTBL_ER &&
	    reg != sim->eng.ipeir)
		return false;

	*reg_ptr(sim, reg) &= ~val;
	if (reg == I915_EIR)
		*reg_ptr(sim, I915_ESR) &= ~val;
	return true;
}

static bool is_read_only(struct i915_sim *sim, u32 reg)
{
	return reg == I915_ISR || reg == I915_ESR || reg == sim->eng.ipehr ||
	       reg == sim->eng.instdone || reg == sim->eng.acthd ||
	       reg == sim->eng.dma_fadd || is_timestamp(sim, reg) ||
	       i915_sim_mc_read_only(sim, reg);
}

static void mmio_write_locked(struct i915_sim *sim, u32 reg, u32 val)
{
	if (is_read_only(sim, reg))
		return;

	if (write_w1c_locked(sim, reg, val)) {
		/* A source still asserted latches again. */
		irq_relatch_locked(sim);
		error_update_locked(sim);
	} else if (is_masked_reg(reg)) {
		write_masked_locked(sim, reg, val);
	} else if (reg == I915_PGTBL_CTL) {
		write_pgtbl_ctl_locked(sim, val);
	} else if (!write_ring_locked(sim, reg, val)) {
		*reg_ptr(sim, reg) = val;
	}
	/* The aperture's shadows check their layout again (aperture.c). */
	if (i915_sim_fence_reg_is(sim, reg))
		atomic_inc(&sim->fence_writes);

	switch (reg) {
	case I915_IER:
	case I915_IMR:
	case I915_IIR:
		irq_relatch_locked(sim);
		i915_sim_irq_update_locked(sim);
		break;
	case I915_EMR:
		error_update_locked(sim);
		break;
	case I915_RING_TAIL:
	case I915_RING_CTL:
	case I915_MI_MODE:
		if (sim->kick)
			sim->kick(sim);
		break;
	}
}

/**
 * i915_sim_mmio_write_gpu - the GPU writes one of its registers
 * @sim: the model
 * @reg: byte offset
 * @val: value
 *
 * For MI_LOAD_REGISTER_IMM: the same semantics as a CPU write, whether or
 * not the CPU may reach BAR 0.  Offsets outside the register file are
 * ignored.
 */
void i915_sim_mmio_write_gpu(struct i915_sim *sim, u32 reg, u32 val)
{
	unsigned long flags;

	if (!mmio_valid(reg))
		return;

	raw_spin_lock_irqsave(&sim->lock, flags);
	if (!sim->power_off)
		mmio_write_locked(sim, reg, val);
	raw_spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * i915_sim_mmio_write - write a register as the CPU would through BAR 0
 * @sim: the model
 * @reg: byte offset
 * @val: value
 */
void i915_sim_mmio_write(struct i915_sim *sim, u32 reg, u32 val)
{
	unsigned long flags;

	if (!mmio_decoded(sim) || !mmio_valid(reg))
		return;

	raw_spin_lock_irqsave(&sim->lock, flags);
	mmio_write_locked(sim, reg, val);
	raw_spin_unlock_irqrestore(&sim->lock, flags);
}
