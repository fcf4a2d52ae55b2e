// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: hardware backend selection
 *
 * The only place that decides whether the bound GPU is real silicon or the
 * software model.  Everything after i915_hw_init() goes through
 * &struct i915_hw_funcs without knowing which backend answers.
 */

#include <linux/pci.h>

#include "i915_hw.h"

/**
 * i915_hw_init - attach the hardware backend for a bound GPU
 * @hw: the seam to fill in
 * @pdev: the GPU's PCI function
 *
 * Return: 0 on success or a negative errno.
 */
int i915_hw_init(struct i915_hw *hw, struct pci_dev *pdev)
{
	if (i915_sim_owns(pdev))
		return i915_hw_sim_init(hw, pdev);
	return i915_hw_gmch_init(hw, pdev);
}

/**
 * i915_hw_fini - release the hardware backend
 * @hw: the seam filled by i915_hw_init()
 */
void i915_hw_fini(struct i915_hw *hw)
{
	hw->funcs->fini(hw);
}
