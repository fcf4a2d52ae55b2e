// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: hardware backend selection
 *
 * The only place that decides whether the bound GPU is real silicon or the
 * software model.  Everything after i915_hw_init() goes through
 * &struct i915_hw_funcs without knowing which backend answers.  What both
 * read the same way, from PCI config space, is read here: the size of the
 * stolen memory the firmware maps at the start of the GTT.
 */

#include <linux/pci.h>
#include <linux/sizes.h>

#include "i915_hw.h"
#include "i915_reg.h"

/*
 * The firmware maps the first GMS bytes of the aperture onto stolen memory
 * and keeps its framebuffer there.  The size is in GMCH control of the
 * host bridge, 00:00.0 of the GPU's PCI domain; no bridge, no stolen
 * memory.  Only what the aperture can map counts.
 */
static void hw_read_stolen(struct i915_hw *hw, struct pci_dev *pdev)
{
	struct pci_dev *bridge;
	u16 gmch_ctrl = 0;
	u64 size;

	hw->stolen_size = 0;
	bridge = pci_get_domain_bus_and_slot(pci_domain_nr(pdev->bus), 0,
					     PCI_DEVFN(0, 0));
	if (!bridge)
		return;
	pci_read_config_word(bridge, I915_GMCH_CTRL, &gmch_ctrl);
	pci_dev_put(bridge);

	size = (u64)i915_gms_stolen_mib(gmch_ctrl) * SZ_1M;
	hw->stolen_size = min3(size, hw->gtt_total, (u64)hw->mappable_end);
	if (hw->stolen_size)
		pci_info(pdev, "%llu KiB of stolen memory mapped at GTT 0 by the firmware, kept\n",
			 hw->stolen_size >> 10);
}

/**
 * i915_hw_init - attach the hardware backend for a bound GPU
 * @hw: the seam to fill in
 * @pdev: the GPU's PCI function
 *
 * Also fills in @hw->stolen_size from the host bridge.
 *
 * Return: 0 on success or a negative errno.
 */
int i915_hw_init(struct i915_hw *hw, struct pci_dev *pdev)
{
	int ret;

	if (i915_sim_owns(pdev))
		ret = i915_hw_sim_init(hw, pdev);
	else
		ret = i915_hw_gmch_init(hw, pdev);
	if (!ret)
		hw_read_stolen(hw, pdev);
	return ret;
}

/**
 * i915_hw_fini - release the hardware backend
 * @hw: the seam filled by i915_hw_init()
 */
void i915_hw_fini(struct i915_hw *hw)
{
	hw->funcs->fini(hw);
}
