// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: software model - creation, the module and the hardware seam
 *
 * i915_sim.ko creates one simulated GPU per PCI device id of its ids=
 * parameter (insmod i915_sim.ko ids=0x2772,0x2a42), up to
 * %I915_SIM_MAX_GPUS, in that order, at load; removing the module removes
 * them, in the reverse order, which is a hot unplug for whatever driver
 * is bound to them.  This file owns the table of GPUs the model can
 * impersonate, the lifetime of each &struct i915_sim and the model's
 * implementation of &struct i915_hw_funcs.  Each GPU is a PCI function on
 * a virtual PCI bus of its own (i915_sim_pci.c) that carries a
 * &struct i915_hw_backend in its platform data: i915.ko binds it through
 * its ordinary PCI id table, finds the backend there and fills its seam
 * through it.  Neither module uses a symbol of the other, so they load
 * in either order.
 *
 * Creation is the power-on: stolen memory and the firmware framebuffer
 * are set up before the PCI bus exists; destruction checks, once the
 * driver is gone, that the framebuffer and its GTT entries survived.
 */

#include <linux/debugfs.h>
#include <linux/gfp.h>
#include <linux/irq_work.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "i915_hw.h"
#include "i915_reg.h"
#include "i915_sim.h"
#include "i915_sim_regs.h"

/* Every Gen3/Gen4 part of the fact sheet, section 1.1, and its host bridge. */
static const struct i915_sim_chip i915_sim_chips[] = {
	{ 0x2582, 0x2580, 3, I915_SIM_Y512, "915G" },
	{ 0x258a, 0x2588, 3, I915_SIM_Y512, "E7221" },
	{ 0x2592, 0x2590, 3, I915_SIM_MOBILE | I915_SIM_Y512, "915GM" },
	{ 0x2772, 0x2770, 3, 0, "945G" },
	{ 0x27a2, 0x27a0, 3, I915_SIM_MOBILE, "945GM" },
	{ 0x27ae, 0x27ac, 3, I915_SIM_MOBILE, "945GME" },
	{ 0x29b2, 0x29b0, 3, I915_SIM_G33, "Q35" },
	{ 0x29c2, 0x29c0, 3, I915_SIM_G33, "G33" },
	{ 0x29d2, 0x29d0, 3, I915_SIM_G33, "Q33" },
	{ 0xa001, 0xa000, 3, I915_SIM_G33 | I915_SIM_PINEVIEW, "Pineview G" },
	{ 0xa011, 0xa010, 3, I915_SIM_G33 | I915_SIM_PINEVIEW | I915_SIM_MOBILE,
	  "Pineview M" },
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

static struct i915_sim *to_sim(struct i915_hw *hw)
{
	return hw->priv;
}

static u32 sim_hw_read32(struct i915_hw *hw, u32 reg)
{
	return i915_sim_mmio_read(to_sim(hw), reg);
}

static u64 sim_hw_read64(struct i915_hw *hw, u32 reg)
{
	return i915_sim_mmio_read64(to_sim(hw), reg);
}

static void sim_hw_write32(struct i915_hw *hw, u32 reg, u32 val)
{
	i915_sim_mmio_write(to_sim(hw), reg, val);
}

/* As intel-gtt's insert: the entries, then one posting read and flush. */
static void sim_hw_gtt_insert(struct i915_hw *hw, unsigned int first,
			      const dma_addr_t *addrs, unsigned int count,
			      enum i915_gtt_caching caching)
{
	u32 type = caching == I915_GTT_SNOOPED ? I915_PTE_SNOOPED :
						 I915_PTE_UNCACHED;
	struct i915_sim *sim = to_sim(hw);

	if (!count)
		return;
	i915_sim_shadow_gtt_changed(sim, first, count);
	i915_sim_gtt_set(sim, first, addrs, count, type);
	atomic_long_inc(&sim->flushes);
}

static void sim_hw_gtt_clear(struct i915_hw *hw, unsigned int first,
			     unsigned int count)
{
	i915_sim_shadow_gtt_changed(to_sim(hw), first, count);
	i915_sim_gtt_set_scratch(to_sim(hw), first, count);
}

static void sim_hw_chipset_flush(struct i915_hw *hw)
{
	/*
	 * The model's memory is coherent: a flush is a barrier, and the
	 * point where the aperture's fenced shadows meet memory.
	 */
	mb();
	i915_sim_shadow_sync(to_sim(hw), true);
	atomic_long_inc(&to_sim(hw)->flushes);
}

static int sim_hw_aperture_pfn(struct i915_hw *hw, u64 offset,
			       unsigned long *pfn)
{
	return i915_sim_aperture_pfn(to_sim(hw), offset, pfn);
}

static void sim_hw_fini(struct i915_hw *hw)
{
	atomic_set(&to_sim(hw)->bound, 0);
}

static const struct i915_hw_funcs i915_sim_hw_funcs = {
	.read32 = sim_hw_read32,
	.read64 = sim_hw_read64,
	.write32 = sim_hw_write32,
	.gtt_insert = sim_hw_gtt_insert,
	.gtt_clear = sim_hw_gtt_clear,
	.chipset_flush = sim_hw_chipset_flush,
	.fini = sim_hw_fini,
	.aperture_pfn = sim_hw_aperture_pfn,
};

/*
 * The backend's init, which the driver finds in the GPU's platform data:
 * attach the driver's seam to the model behind @pdev.  -ENODEV if the
 * aperture BAR was not assigned, -EBUSY if a driver is already attached.
 */
static int sim_hw_init(struct i915_hw *hw, struct pci_dev *pdev)
{
	struct i915_sim *sim = container_of(dev_get_platdata(&pdev->dev),
					    struct i915_sim, backend);

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

/*
 * Create one simulated GPU: its state at power-on, then its PCI bus, on
 * which the driver may bind it before this returns.
 */
static struct i915_sim *sim_create(const struct i915_sim_chip *chip)
{
	struct i915_sim *sim;
	int ret;

	sim = kzalloc(sizeof(*sim), GFP_KERNEL);
	if (!sim)
		return ERR_PTR(-ENOMEM);

	sim_configure(sim, chip);
	sim->backend.init = sim_hw_init;
	raw_spin_lock_init(&sim->lock);
	sim->irq_work = IRQ_WORK_INIT_HARD(i915_sim_irq_work);
	ret = sim_alloc_state(sim);
	if (ret)
		goto err_free;
	i915_sim_mmio_reset(sim);
	ret = i915_sim_aperture_init(sim);
	if (ret)
		goto err_aperture;
	ret = i915_sim_cs_init(sim);
	if (ret)
		goto err_aperture;

	ret = i915_sim_pci_create(sim);
	if (ret)
		goto err_cs;
	return sim;

err_cs:
	i915_sim_cs_fini(sim);
	irq_work_sync(&sim->irq_work);
err_aperture:
	i915_sim_aperture_fini(sim);
	sim_free_state(sim);
err_free:
	kfree(sim);
	return ERR_PTR(ret);
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

/* Unplug the GPU (the driver's remove runs), then free the model. */
static void sim_destroy(struct i915_sim *sim)
{
	i915_sim_debugfs_fini(sim);
	i915_sim_pci_destroy(sim);
	/* The driver is gone; the engine may still have raised an interrupt. */
	i915_sim_cs_fini(sim);
	irq_work_sync(&sim->irq_work);
	sim_check_stolen(sim);
	i915_sim_aperture_fini(sim);
	sim_free_state(sim);
	kfree(sim);
}

/* The GPUs of this load, in the order of ids=. */
static u16 sim_ids[I915_SIM_MAX_GPUS];
static unsigned int sim_nr_ids;
module_param_array_named(ids, sim_ids, ushort, &sim_nr_ids, 0444);
MODULE_PARM_DESC(ids,
		 "PCI device ids of the Gen3/Gen4 GPUs to simulate, one GPU each (e.g. 0x2772 945G, 0x2a42 GM45; ids=0x2772,0x2a42)");

static struct i915_sim *sim_gpus[I915_SIM_MAX_GPUS];
static struct dentry *sim_debugfs_root;

static void sim_destroy_all(void)
{
	unsigned int i = sim_nr_ids;

	while (i--) {
		if (sim_gpus[i])
			sim_destroy(sim_gpus[i]);
		sim_gpus[i] = NULL;
	}
	debugfs_remove(sim_debugfs_root);
}

static int __init i915_sim_init(void)
{
	const struct i915_sim_chip *chip;
	struct i915_sim *sim;
	unsigned int i;

	if (!sim_nr_ids) {
		pr_err("i915_sim: no GPU to simulate: ids=<PCI device id>[,...]\n");
		return -EINVAL;
	}
	for (i = 0; i < sim_nr_ids; i++) {
		if (!sim_find_chip(sim_ids[i])) {
			pr_err("i915_sim: 0x%04x is not a Gen3/Gen4 GPU the model knows\n",
			       sim_ids[i]);
			return -EINVAL;
		}
	}

	sim_debugfs_root = debugfs_create_dir(KBUILD_MODNAME, NULL);
	for (i = 0; i < sim_nr_ids; i++) {
		chip = sim_find_chip(sim_ids[i]);
		sim = sim_create(chip);
		if (IS_ERR(sim)) {
			pr_err("i915_sim: creating the %s (0x%04x): %pe\n",
			       chip->name, chip->device_id, sim);
			sim_destroy_all();
			return PTR_ERR(sim);
		}
		sim_gpus[i] = sim;
		i915_sim_debugfs_init(sim, sim_debugfs_root);
	}
	return 0;
}

static void __exit i915_sim_exit(void)
{
	sim_destroy_all();
}

module_init(i915_sim_init);
module_exit(i915_sim_exit);

MODULE_AUTHOR("i915gem developers");
MODULE_DESCRIPTION("Register-level software model of Intel Gen3/Gen4 GPUs, on virtual PCI buses");
MODULE_LICENSE("GPL");
