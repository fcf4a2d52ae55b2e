// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: interrupts
 *
 * The Gen3/Gen4 render interrupts: IER/IIR/IMR programming, the hard-IRQ
 * handler on the GPU's INTx line and the error-interrupt acknowledgment.
 * Display interrupts are never unmasked: this driver does no modesetting.
 * A user interrupt (MI_USER_INTERRUPT) means "the breadcrumb in the status
 * page moved"; i915_irq_user_interrupt() is where requests get signalled.
 *
 * Every request ends with MI_USER_INTERRUPT, but the interrupt is unmasked
 * in IMR only while somebody needs it, as upstream's breadcrumbs do: a
 * fence whose signalling is enabled (a waiter, a fence callback of another
 * driver, a sync_file poll, a syncobj) arms it (i915_irq_user_arm()), and
 * the signalling that finds no such fence left masks it again
 * (i915_irq_user_disarm()).  A stream of batches nobody waits for costs no
 * interrupt at all; its requests are retired by a periodic tick
 * (i915_request.c).  IER enables the user interrupt all along: IMR alone
 * decides whether it latches in IIR, as on the silicon, so an event that
 * happens while it is masked is lost, and arming rereads the breadcrumb
 * after the unmask.
 */

#include <drm/drm_print.h>
#include <linux/interrupt.h>
#include <linux/pci.h>

#include "i915_drv.h"
#include "i915_reg.h"

/* The interrupts this driver handles: render user interrupt and errors. */
#define I915_IRQ_ENABLED	(I915_USER_INTERRUPT | I915_MASTER_ERROR_INTERRUPT)
/* Unmasked all along; the user interrupt only while armed. */
#define I915_IRQ_UNMASKED	I915_MASTER_ERROR_INTERRUPT
/*
 * Errors left unmasked in EMR, upstream's choice for these parts: page-table
 * errors, and on G4x the privilege errors.  The instruction error stays
 * masked (its EMR bit is reserved on G4x): it is still recorded in EIR,
 * where the error state of the hang finds it.
 */
#define I915_EMR_UNMASKED	I915_ERROR_PAGE_TABLE
#define G4X_EMR_UNMASKED	(GM45_ERROR_PAGE_TABLE | GM45_ERROR_MEM_PRIV | \
				 GM45_ERROR_CP_PRIV)

static void i915_irq_reset(struct i915_hw *hw)
{
	i915_write(hw, I915_IMR, ~0u);
	i915_posting_read(hw, I915_IMR);
	i915_write(hw, I915_IER, 0);
	/* IIR can hold a second, queued event: clear it twice. */
	i915_write(hw, I915_IIR, ~0u);
	i915_posting_read(hw, I915_IIR);
	i915_write(hw, I915_IIR, ~0u);
	i915_posting_read(hw, I915_IIR);
}

/* IMR for the current arming; &i915_ring.fence_lock held. */
static u32 i915_irq_imr(struct i915_device *i915)
{
	u32 unmasked = I915_IRQ_UNMASKED;

	if (i915->irq_user_armed)
		unmasked |= I915_USER_INTERRUPT;
	return ~unmasked;
}

/* Program the registers and allow IMR writes; &i915_ring.fence_lock held. */
static void i915_irq_postinstall(struct i915_device *i915)
{
	struct i915_hw *hw = &i915->hw;
	u32 emr = i915->info->is_g4x ? G4X_EMR_UNMASKED : I915_EMR_UNMASKED;

	lockdep_assert_held(&i915->ring.fence_lock);
	i915_write(hw, I915_EMR, (u32)~emr);
	i915_write(hw, I915_IER, I915_IRQ_ENABLED);
	i915_write(hw, I915_IMR, i915_irq_imr(i915));
	i915_posting_read(hw, I915_IMR);
	i915->irq_on = true;
}

/* Mask everything and stop IMR writes until the next postinstall. */
static void i915_irq_off(struct i915_device *i915)
{
	unsigned long flags;

	spin_lock_irqsave(&i915->ring.fence_lock, flags);
	i915->irq_on = false;
	i915_irq_reset(&i915->hw);
	spin_unlock_irqrestore(&i915->ring.fence_lock, flags);
}

/**
 * i915_irq_user_arm - unmask the user interrupt: a fence needs it
 * @i915: the device; &i915_ring.fence_lock held
 *
 * Counts an armed period if it was masked.  While the interrupts are off
 * (suspended, not installed) only the state is kept, and the next install
 * or resume programs it.  The caller rereads the breadcrumb afterwards:
 * a request that completed before the unmask raised no interrupt.
 */
void i915_irq_user_arm(struct i915_device *i915)
{
	struct i915_hw *hw = &i915->hw;

	lockdep_assert_held(&i915->ring.fence_lock);
	if (i915->irq_user_armed)
		return;
	i915->irq_user_armed = true;
	i915->irq_arms++;
	if (!i915->irq_on)
		return;
	i915_write(hw, I915_IMR, i915_irq_imr(i915));
	i915_posting_read(hw, I915_IMR);
	/* The unmask reached the GPU before the breadcrumb is read again. */
	rmb();
}

/**
 * i915_irq_user_disarm - mask the user interrupt: no fence needs it
 * @i915: the device; &i915_ring.fence_lock held
 */
void i915_irq_user_disarm(struct i915_device *i915)
{
	lockdep_assert_held(&i915->ring.fence_lock);
	if (!i915->irq_user_armed)
		return;
	i915->irq_user_armed = false;
	if (i915->irq_on)
		i915_write(&i915->hw, I915_IMR, i915_irq_imr(i915));
}

/*
 * Acknowledge an error interrupt: clear EIR, and mask in EMR any error bit
 * that refuses to clear so that it cannot storm.  As upstream's, nothing
 * more: an error that stopped the engine is found by the hang check, which
 * sees the engine no longer advance, and the reset captures the error
 * state then.
 */
static void i915_irq_error(struct i915_device *i915)
{
	struct i915_hw *hw = &i915->hw;
	u32 eir = i915_read(hw, I915_EIR);
	u32 stuck;

	atomic_inc(&i915->irq_errors);
	i915_write(hw, I915_EIR, eir);
	stuck = i915_read(hw, I915_EIR);
	if (stuck) {
		i915_write(hw, I915_EMR, i915_read(hw, I915_EMR) | stuck);
		i915_write(hw, I915_EIR, stuck);
	}
	drm_dbg(&i915->drm, "master error, EIR 0x%08x, stuck 0x%08x\n", eir,
		stuck);
}

static irqreturn_t i915_irq_handler(int irq, void *arg)
{
	struct i915_device *i915 = arg;
	struct i915_hw *hw = &i915->hw;
	u32 iir;

	iir = i915_read(hw, I915_IIR);
	/* All ones: the GPU does not answer (D3hot), the line is shared. */
	if (!iir || iir == ~0u)
		return IRQ_NONE;

	atomic_inc(&i915->irq_count);
	if (iir & I915_MASTER_ERROR_INTERRUPT)
		i915_irq_error(i915);

	i915_write(hw, I915_IIR, iir);

	if (iir & I915_USER_INTERRUPT)
		i915_irq_user_interrupt(i915);

	return IRQ_HANDLED;
}

/**
 * i915_irq_clear_errors - forget a past GPU error
 * @i915: the device, its ring idle
 *
 * Clears the error identity register and unmasks again the errors that
 * i915_irq_error() masked because they would not clear.
 */
void i915_irq_clear_errors(struct i915_device *i915)
{
	struct i915_hw *hw = &i915->hw;
	u32 emr = i915->info->is_g4x ? G4X_EMR_UNMASKED : I915_EMR_UNMASKED;

	i915_write(hw, I915_EIR, i915_read(hw, I915_EIR));
	i915_write(hw, I915_EMR, (u32)~emr);
	i915_posting_read(hw, I915_EMR);
}

/**
 * i915_irq_user_interrupt - the ring executed MI_USER_INTERRUPT
 * @i915: the device
 *
 * Called from the hard-IRQ handler: counts the interrupt and signals the
 * requests whose breadcrumb has passed.
 */
void i915_irq_user_interrupt(struct i915_device *i915)
{
	atomic_inc(&i915->irq_user);
	i915_request_signal(i915);
}

/**
 * i915_irq_suspend - disable the GPU's interrupts before it loses power
 * @i915: the device, idle
 *
 * Masks and disables every interrupt and waits for a handler that is
 * still running.
 */
void i915_irq_suspend(struct i915_device *i915)
{
	i915_irq_off(i915);
	synchronize_irq(i915->hw.pdev->irq);
}

/**
 * i915_irq_resume - program the interrupt registers again after a resume
 * @i915: the device
 *
 * The GPU comes back with IER, IMR and EMR at their power-on values
 * (everything masked): clear what may have latched, then unmask what the
 * driver handles, as at bring-up (the user interrupt if a fence armed it).
 */
void i915_irq_resume(struct i915_device *i915)
{
	unsigned long flags;

	spin_lock_irqsave(&i915->ring.fence_lock, flags);
	i915_irq_reset(&i915->hw);
	i915_irq_postinstall(i915);
	spin_unlock_irqrestore(&i915->ring.fence_lock, flags);
}

/**
 * i915_irq_init - install the interrupt handler and enable interrupts
 * @i915: the device
 *
 * Return: 0 on success, -ENODEV if the GPU has no interrupt line, or the
 * errno of request_irq().
 */
int i915_irq_init(struct i915_device *i915)
{
	struct pci_dev *pdev = i915->hw.pdev;
	int ret;

	if (!pdev->irq)
		return -ENODEV;

	i915_irq_reset(&i915->hw);
	ret = request_irq(pdev->irq, i915_irq_handler, IRQF_SHARED,
			  DRIVER_NAME, i915);
	if (ret)
		return ret;

	i915_irq_resume(i915);
	return 0;
}

/**
 * i915_irq_fini - disable interrupts and remove the handler
 * @i915: the device
 */
void i915_irq_fini(struct i915_device *i915)
{
	i915_irq_off(i915);
	free_irq(i915->hw.pdev->irq, i915);
}
