// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: software model - creation and the hardware seam
 *
 * Owns the table of GPUs the model can impersonate, the lifetime of the one
 * &struct i915_sim (created at module load with sim=<id>, destroyed at
 * unload after the PCI driver is gone) and the model's implementation of
 * &struct i915_hw_funcs that the driver binds through i915_hw_sim_init().
 * Creation is the power-on: stolen memory and the firmware framebuffer
 * are set up before the PCI bus exists; destruction checks, once the
 * driver is gone, that the framebuffer and its GTT entries survived.
 */

#include <linux/gfp.h>
#include <linux/irq_work.h>
#include <linux/mm.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "i915_hw.h"
#include "i915_reg.h"
#include "i915_sim.h"
#include "i915_sim_regs.h"

/* Every Gen3/Gen4 part of the fact sheet, section 1.1, and its host bridge. */
static const struct i915_sim_chip i915_sim_chips[] = {
	{ 0x2582, 0x2580, 3, 0, "915G" },
	{ 0x258a, 0x2588, 3, 0, "E7221" },
	{ 0x2592, 0x2590, 3, I915_SIM_MOBILE, "915GM" },
	{ 0x2772, 0x2770, 3, 0, "945G" },
	{ 0x27a2, 0x27a0, 3, I915_SIM_MOBILE, "945GM" },
	{ 0x27ae, 0x27ac, 3, I915_SIM_MOBILE, "945GME" },
	{ 0x29b2, 0x29b0, 3, I915_SIM_G33, "Q35" },
	{ 0x29c2, 0x29c0, 3, I915_SIM_G33, "G33" },
	{ 0x29d2, 0x29d0, 3, I915_SIM_G33, "Q33" },
	{ 0xa001, 0xa000, 3, I915_SIM_G33, "Pineview G" },
	{ 0xa011, 0xa010, 3, I915_SIM_G33 | I915_SIM_MOBILE, "Pineview M" },
	{ 0x2972, 0x2970, 4, 0, "946GZ" },
	{ 0x2982, 0x2980, 4, 0, "G35" },
	{ 0x2992, 0x2990, 4, 0, "965Q" },
	{ 0x29a2, 0x29a0, 4, 0, "965G" },
	{ 0x2a02, 0x2a00, 4, I915_SIM_MOBILE, "965GM" },
	{ 0x2a12, 0x2a10, 4, I915_SIM_MOBILE, "965GME/GLE" },
	{ 0x2a42, 0x2a40, 4, I915_SIM_G4X | I915_SIM_MOBILE, "GM45" },
	{ 0x2e02, 0x2e00, 4, I915_SIM_G4X, "Eaglelake" },
	{ 0x2e12, 0x2e10, 4, I915_SIM_G4X, "Q45/Q43" },
	{ 0x2e22, 0x2e20, 4, I915_SIM_G4X, "G45/G43" },
	{ 0x2e32, 0x2e30, 4, I915_SIM_G4X, "G41" },
	{ 0x2e42, 0x2e40, 4, I915_SIM_G4X, "B43" },
	{ 0x2e92, 0x2e90, 4, I915_SIM_G4X, "B43" },
};

static const struct i915_sim_engine_regs i915_sim_gen3_regs = {
	.ipeir = I915_GEN3_IPEIR,
	.ipehr = I915_GEN3_IPEHR,
	.instdone = I915_GEN3_INSTDONE,
	.acthd = I915_GEN3_ACTHD,
	.dma_fadd = I915_GEN3_DMA_FADD,
};

static const struct i915_sim_engine_regs i915_sim_gen4_regs = {
	.ipeir = I965_IPEIR,
	.ipehr = I965_IPEHR,
	.instdone = I965_INSTDONE,
	.acthd = I965_ACTHD,
	.dma_fadd = I965_DMA_FADD,
};

/* The model; one at a time, set for the whole life of the PCI bus. */
static struct i915_sim *i915_sim_dev;

static const struct i915_sim_chip *sim_find_chip(u16 device_id)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(i915_sim_chips); i++)
		if (i915_sim_chips[i].device_id == device_id)
			return &i915_sim_chips[i];
	return NULL;
}

/*
 * GTT geometry: 915/945 map exactly the aperture; G33, Pineview and 965
 * read a PGTBL_CTL size code (512 KiB of entries here); G4x translate the
 * GMCH size into the code for 1 MiB.
 */
static void sim_configure(struct i915_sim *sim, const struct i915_sim_chip *c)
{
	bool g33 = c->flags & I915_SIM_G33;
	bool g4x = c->flags & I915_SIM_G4X;

	sim->chip = c;
	sim->eng = c->gen == 3 ? i915_sim_gen3_regs : i915_sim_gen4_regs;
	sim->pte_hi = g33 || c->gen == 4;
	sim->hws_in_ggtt = g33 || g4x;
	sim->hws_hi = c->gen == 4 && !g4x;
	sim->eir_page_table = g4x ? GM45_ERROR_PAGE_TABLE :
				    I915_ERROR_PAGE_TABLE;
	sim->gmch_ctrl = (c->gen == 3 ? I915_SIM_GEN3_GMS : I915_SIM_GEN4_GMS) <<
			 I915_GMCH_GMS_SHIFT;

	if (g4x) {
		sim->pgtbl_size = I965_PGTBL_SIZE_1M;
		sim->gtt_entries = I915_SIM_G4X_GTT_BYTES / I915_SIM_PTE_BYTES;
	} else if (sim->pte_hi) {
		sim->pgtbl_size = I965_PGTBL_SIZE_512K;
		sim->gtt_entries = I915_SIM_I965_GTT_BYTES / I915_SIM_PTE_BYTES;
	} else {
		sim->pgtbl_size = 0;
		sim->gtt_entries = I915_SIM_APERTURE_SIZE / I915_GTT_PAGE_SIZE;
	}
}

static int sim_alloc_state(struct i915_sim *sim)
{
	sim->regs = vzalloc(I915_MMIO_SIZE);
	if (!sim->regs)
		return -ENOMEM;

	sim->gtt = vzalloc(array_size(sim->gtt_entries, sizeof(*sim->gtt)));
	if (!sim->gtt)
		goto err_regs;

	/* Below 4 GiB: every PTE format can point at it. */
	sim->scratch = alloc_page(GFP_KERNEL | GFP_DMA32 | __GFP_ZERO);
	if (!sim->scratch)
		goto err_gtt;
	sim->scratch_phys = page_to_phys(sim->scratch);

	if (i915_sim_stolen_init(sim))
		goto err_scratch;
	return 0;

err_scratch:
	__free_page(sim->scratch);
err_gtt:
	vfree(sim->gtt);
err_regs:
	vfree(sim->regs);
	return -ENOMEM;
}

static void sim_free_state(struct i915_sim *sim)
{
	i915_sim_stolen_fini(sim);
	__free_page(sim->scratch);
	vfree(sim->gtt);
	vfree(sim->regs);
}

/**
 * i915_sim_create - create the simulated GPU and its virtual PCI bus
 * @device_id: PCI device id of the Gen3/Gen4 part to impersonate
 *
 * The GPU appears as 8086:@device_id at 00:02.0 of a new PCI domain and
 * the PCI driver binds it like real hardware.
 *
 * Return: 0 on success, -EINVAL for an id that is not a supported
 * Gen3/Gen4 part, -EBUSY if a model already exists, or another negative
 * errno.
 */
int i915_sim_create(u16 device_id)
{
	const struct i915_sim_chip *chip = sim_find_chip(device_id);
	struct i915_sim *sim;
	int ret;

	if (!chip)
		return -EINVAL;
	if (i915_sim_dev)
		return -EBUSY;

	sim = kzalloc(sizeof(*sim), GFP_KERNEL);
	if (!sim)
		return -ENOMEM;

	sim_configure(sim, chip);
	raw_spin_lock_init(&sim->lock);
	sim->irq_work = IRQ_WORK_INIT_HARD(i915_sim_irq_work);
	ret = sim_alloc_state(sim);
	if (ret)
		goto err_free;
	i915_sim_mmio_reset(sim);
	ret = i915_sim_cs_init(sim);
	if (ret)
		goto err_state;

	/* Set before the bus exists: probing asks i915_sim_owns(). */
	i915_sim_dev = sim;
	ret = i915_sim_pci_create(sim);
	if (ret)
		goto err_cs;

	i915_sim_debugfs_init(sim);
	return 0;

err_cs:
	i915_sim_dev = NULL;
	i915_sim_cs_fini(sim);
	irq_work_sync(&sim->irq_work);
err_state:
	sim_free_state(sim);
err_free:
	kfree(sim);
	return ret;
}

/*
 * The console keeps scanning out of stolen memory after the driver left:
 * a driver that wrote into it or took its GTT entries away broke the
 * screen.  Say so in the words the test harness looks for.
 */
static void sim_check_stolen(struct i915_sim *sim)
{
	struct i915_sim_stolen_state st;

	if (!sim->stolen_pages)
		return;
	i915_sim_stolen_check(sim, &st);
	if (st.bad_dwords)
		pr_err("i915_sim: BUG: firmware framebuffer overwritten: %lu dwords of stolen memory changed, the first at 0x%lx\n",
		       st.bad_dwords, st.first_bad);
	if (st.bad_entries)
		pr_err("i915_sim: BUG: firmware framebuffer unmapped: %u GTT entries of stolen memory changed, the first is entry %u\n",
		       st.bad_entries, st.first_bad_entry);
	if (!st.bad_dwords && !st.bad_entries)
		pr_info("i915_sim: firmware framebuffer intact (%u KiB of stolen memory)\n",
			sim->stolen_pages * (unsigned int)(PAGE_SIZE / SZ_1K));
}

/**
 * i915_sim_destroy - remove the virtual PCI bus and free the model
 *
 * Unbinds whatever driver is still bound to the simulated GPU.
 */
void i915_sim_destroy(void)
{
	struct i915_sim *sim = i915_sim_dev;

	if (!sim)
		return;

	i915_sim_debugfs_fini(sim);
	i915_sim_pci_destroy(sim);
	i915_sim_dev = NULL;
	/* The driver is gone; the engine may still have raised an interrupt. */
	i915_sim_cs_fini(sim);
	irq_work_sync(&sim->irq_work);
	sim_check_stolen(sim);
	sim_free_state(sim);
	kfree(sim);
}

/**
 * i915_sim_owns - is this PCI function the software model?
 * @pdev: a PCI function being probed
 *
 * Return: true iff @pdev is the simulated GPU.
 */
bool i915_sim_owns(struct pci_dev *pdev)
{
	return i915_sim_dev && i915_sim_dev->pdev == pdev;
}

static struct i915_sim *to_sim(struct i915_hw *hw)
{
	return hw->priv;
}

static u32 sim_hw_read32(struct i915_hw *hw, u32 reg)
{
	return i915_sim_mmio_read(to_sim(hw), reg);
}

static void sim_hw_write32(struct i915_hw *hw, u32 reg, u32 val)
{
	i915_sim_mmio_write(to_sim(hw), reg, val);
}

/* intel-gtt's sg insert: the entries, then one posting read and flush. */
static void sim_hw_insert_sg(struct i915_hw *hw, struct sg_table *st,
			     unsigned int first, unsigned int type)
{
	struct i915_sim *sim = to_sim(hw);

	i915_sim_gtt_set(sim, first, st, type);
	atomic_long_inc(&sim->flushes);
}

static void sim_hw_gtt_insert(struct i915_hw *hw, unsigned int first,
			      const dma_addr_t *addrs, unsigned int count,
			      enum i915_gtt_caching caching)
{
	u32 type = caching == I915_GTT_SNOOPED ? I915_PTE_SNOOPED :
						 I915_PTE_UNCACHED;

	i915_hw_gtt_insert_range(hw, first, addrs, count, type,
				 sim_hw_insert_sg);
}

static void sim_hw_gtt_clear(struct i915_hw *hw, unsigned int first,
			     unsigned int count)
{
	i915_sim_gtt_set_scratch(to_sim(hw), first, count);
}

static void sim_hw_chipset_flush(struct i915_hw *hw)
{
	/* The model's memory is coherent: a flush is a barrier. */
	mb();
	atomic_long_inc(&to_sim(hw)->flushes);
}

static void sim_hw_fini(struct i915_hw *hw)
{
	atomic_set(&to_sim(hw)->bound, 0);
}

static const struct i915_hw_funcs i915_sim_hw_funcs = {
	.read32 = sim_hw_read32,
	.write32 = sim_hw_write32,
	.gtt_insert = sim_hw_gtt_insert,
	.gtt_clear = sim_hw_gtt_clear,
	.chipset_flush = sim_hw_chipset_flush,
	.fini = sim_hw_fini,
};

/**
 * i915_hw_sim_init - attach the driver to the software model
 * @hw: the seam to fill in
 * @pdev: the simulated GPU (i915_sim_owns() is true for it)
 *
 * Return: 0 on success, -ENODEV if @pdev is not the model or its aperture
 * BAR was not assigned, -EBUSY if a driver is already attached.
 */
int i915_hw_sim_init(struct i915_hw *hw, struct pci_dev *pdev)
{
	struct i915_sim *sim = i915_sim_dev;

	if (!sim || sim->pdev != pdev)
		return -ENODEV;
	if (!pci_resource_len(pdev, I915_APERTURE_BAR))
		return -ENODEV;
	if (atomic_cmpxchg(&sim->bound, 0, 1))
		return -EBUSY;

	hw->funcs = &i915_sim_hw_funcs;
	hw->pdev = pdev;
	hw->priv = sim;
	hw->gtt_total = (u64)sim->gtt_entries * I915_GTT_PAGE_SIZE;
	hw->mappable_base = pci_resource_start(pdev, I915_APERTURE_BAR);
	hw->mappable_end = pci_resource_len(pdev, I915_APERTURE_BAR);
	return 0;
}
