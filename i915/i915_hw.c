// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: hardware backend selection
 *
 * The only place that decides whether the bound GPU is real silicon or a
 * device that brings its own backend (&struct i915_hw_backend in its
 * platform data: the software model's).  Everything after i915_hw_init()
 * goes through &struct i915_hw_funcs without knowing which backend
 * answers.  What both read the same way, from PCI config space, is read
 * here: the size of the stolen memory the firmware maps at the start of the
 * GTT.
 */

#include <linux/pci.h>
#include <linux/scatterlist.h>
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
	const struct i915_hw_backend *backend = dev_get_platdata(&pdev->dev);
	int ret;

	if (backend)
		ret = backend->init(hw, pdev);
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
	/*
	 * The backend may be gone soon (the model's module unloads after
	 * its devices): a call after this faults here, not in freed code.
	 */
	hw->funcs = NULL;
	hw->priv = NULL;
}

/* The DMA-contiguous runs of pages in @addrs. */
static unsigned int hw_count_runs(const dma_addr_t *addrs, unsigned int count)
{
	unsigned int i, runs = count ? 1 : 0;

	for (i = 1; i < count; i++)
		if (addrs[i] != addrs[i - 1] + PAGE_SIZE)
			runs++;
	return runs;
}

/* Fill @sg with the run starting at @addrs[0]: how many pages it holds. */
static unsigned int hw_fill_run(struct scatterlist *sg, const dma_addr_t *addrs,
				unsigned int count)
{
	unsigned int n = 1;

	while (n < count && addrs[n] == addrs[n - 1] + PAGE_SIZE)
		n++;
	sg_dma_address(sg) = addrs[0];
	sg_dma_len(sg) = n << PAGE_SHIFT;
	return n;
}

/**
 * i915_hw_gtt_insert_range - write a range of GTT entries in one insert
 * @hw: the seam
 * @first: first entry
 * @addrs: DMA address of each page
 * @count: number of entries
 * @flags: the backend's entry type
 * @insert_sg: the backend's insert of an sg table
 *
 * Builds a scatterlist with one element per run of DMA-contiguous pages and
 * hands it to @insert_sg at once, so that binding an object of any size
 * costs one posting read and one chipset flush, not one per page.  Without
 * memory for the table, the runs go one at a time (still correct, only
 * slower).
 */
void i915_hw_gtt_insert_range(struct i915_hw *hw, unsigned int first,
			      const dma_addr_t *addrs, unsigned int count,
			      unsigned int flags, i915_hw_insert_sg_fn insert_sg)
{
	struct scatterlist one, *sg;
	struct sg_table st;
	unsigned int n;

	if (!count)
		return;

	if (!sg_alloc_table(&st, hw_count_runs(addrs, count),
			    GFP_KERNEL | __GFP_NOWARN)) {
		for (sg = st.sgl, n = 0; n < count; sg = sg_next(sg))
			n += hw_fill_run(sg, addrs + n, count - n);
		insert_sg(hw, &st, first, flags);
		sg_free_table(&st);
		return;
	}

	st.sgl = &one;
	st.nents = 1;
	st.orig_nents = 1;
	while (count) {
		sg_init_table(&one, 1);
		n = hw_fill_run(&one, addrs, count);
		insert_sg(hw, &st, first, flags);
		addrs += n;
		first += n;
		count -= n;
	}
}
