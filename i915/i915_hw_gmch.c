// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: real-hardware backend
 *
 * The hardware seam for real Gen3/Gen4 silicon: registers through a mapping
 * of the MMIO BAR, GTT entries and the chipset flush through the kernel's
 * intel-gtt library (the intel_gmch_* exports), which also owns the GTT
 * mapping, the scratch page and the flush page.
 */

#include <drm/intel-gtt.h>
#include <linux/agp_backend.h>
#include <linux/io-64-nonatomic-lo-hi.h>
#include <linux/io-mapping.h>
#include <linux/pci.h>
#include <linux/slab.h>

#include "i915_hw.h"
#include "i915_reg.h"

/**
 * struct i915_gmch - state of the real-hardware backend
 * @regs: the MMIO register window
 * @bridge: the host bridge at 00:00.0, which intel-gtt inspects
 * @aperture: the CPU aperture, write-combining
 */
struct i915_gmch {
	void __iomem *regs;
	struct pci_dev *bridge;
	struct io_mapping *aperture;
};

static struct i915_gmch *to_gmch(struct i915_hw *hw)
{
	return hw->priv;
}

static u32 gmch_read32(struct i915_hw *hw, u32 reg)
{
	return ioread32(to_gmch(hw)->regs + reg);
}

static u64 gmch_read64(struct i915_hw *hw, u32 reg)
{
	return readq(to_gmch(hw)->regs + reg);
}

static void gmch_write32(struct i915_hw *hw, u32 reg, u32 val)
{
	iowrite32(val, to_gmch(hw)->regs + reg);
}

static void gmch_insert_sg(struct i915_hw *hw, struct sg_table *st,
			   unsigned int first, unsigned int flags)
{
	intel_gmch_gtt_insert_sg_entries(st, first, flags);
}

/* One intel-gtt call per range: its posting read and flush happen once. */
static void gmch_gtt_insert(struct i915_hw *hw, unsigned int first,
			    const dma_addr_t *addrs, unsigned int count,
			    enum i915_gtt_caching caching)
{
	unsigned int flags = caching == I915_GTT_SNOOPED ?
			     AGP_USER_CACHED_MEMORY : AGP_USER_MEMORY;

	i915_hw_gtt_insert_range(hw, first, addrs, count, flags,
				 gmch_insert_sg);
}

static void gmch_gtt_clear(struct i915_hw *hw, unsigned int first,
			   unsigned int count)
{
	intel_gmch_gtt_clear_range(first, count);
	intel_gmch_gtt_flush();
}

static void gmch_chipset_flush(struct i915_hw *hw)
{
	intel_gmch_gtt_flush();
}

/* The GMCH translates aperture accesses itself: the page is the BAR's. */
static int gmch_aperture_pfn(struct i915_hw *hw, u64 offset,
			     unsigned long *pfn)
{
	*pfn = PHYS_PFN(to_gmch(hw)->aperture->base + offset);
	return 0;
}

static void gmch_fini(struct i915_hw *hw)
{
	struct i915_gmch *gmch = to_gmch(hw);

	io_mapping_free(gmch->aperture);
	pci_iounmap(hw->pdev, gmch->regs);
	intel_gmch_remove();
	pci_dev_put(gmch->bridge);
	kfree(gmch);
}

/* The GTT is off after S3 on some chipsets: intel-gtt turns it on. */
static int gmch_resume(struct i915_hw *hw)
{
	return intel_gmch_enable_gtt() ? 0 : -EIO;
}

static const struct i915_hw_funcs gmch_funcs = {
	.read32 = gmch_read32,
	.read64 = gmch_read64,
	.write32 = gmch_write32,
	.gtt_insert = gmch_gtt_insert,
	.gtt_clear = gmch_gtt_clear,
	.chipset_flush = gmch_chipset_flush,
	.fini = gmch_fini,
	.resume = gmch_resume,
	.aperture_pfn = gmch_aperture_pfn,
};

static int gmch_probe(struct i915_hw *hw, struct i915_gmch *gmch)
{
	if (!intel_gmch_probe(gmch->bridge, hw->pdev, NULL))
		return -EIO;

	intel_gmch_gtt_get(&hw->gtt_total, &hw->mappable_base,
			   &hw->mappable_end);
	if (!intel_gmch_enable_gtt()) {
		intel_gmch_remove();
		return -EIO;
	}
	return 0;
}

/**
 * i915_hw_gmch_init - attach real Gen3/Gen4 hardware
 * @hw: the seam to fill in
 * @pdev: the GPU's PCI function, enabled (its regions are not claimed)
 *
 * Return: 0 on success, -ENODEV without a host bridge, -EIO if intel-gtt
 * does not recognise the chipset, -ENOMEM if the registers cannot be mapped.
 */
int i915_hw_gmch_init(struct i915_hw *hw, struct pci_dev *pdev)
{
	struct i915_gmch *gmch;
	int ret;

	gmch = kzalloc(sizeof(*gmch), GFP_KERNEL);
	if (!gmch)
		return -ENOMEM;

	gmch->bridge = pci_get_domain_bus_and_slot(pci_domain_nr(pdev->bus), 0,
						   PCI_DEVFN(0, 0));
	if (!gmch->bridge) {
		ret = -ENODEV;
		goto err_free;
	}

	hw->pdev = pdev;
	hw->priv = gmch;
	ret = gmch_probe(hw, gmch);
	if (ret)
		goto err_bridge;

	gmch->regs = pci_iomap(pdev, I915_MMIO_BAR, I915_MMIO_SIZE);
	if (!gmch->regs) {
		ret = -ENOMEM;
		goto err_gmch;
	}

	gmch->aperture = io_mapping_create_wc(hw->mappable_base,
					      hw->mappable_end);
	if (!gmch->aperture) {
		ret = -ENOMEM;
		goto err_regs;
	}

	hw->funcs = &gmch_funcs;
	return 0;

err_regs:
	pci_iounmap(pdev, gmch->regs);
err_gmch:
	intel_gmch_remove();
err_bridge:
	pci_dev_put(gmch->bridge);
err_free:
	kfree(gmch);
	return ret;
}
