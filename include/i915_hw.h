/* SPDX-License-Identifier: GPL-2.0 */
/**
 * DOC: hardware interface
 *
 * The one narrow seam between the driver and a Gen3/Gen4 GPU.  Everything
 * the driver does to the hardware goes through &struct i915_hw_funcs,
 * each callback behind a wrapper below (i915_read(), i915_write(),
 * i915_read64(), i915_hw_gtt_insert(), i915_hw_gtt_clear(),
 * i915_chipset_flush(), i915_hw_resume(), i915_hw_aperture_pfn(),
 * i915_hw_fini()): 32-bit register access, one 64-bit register read (a
 * single 8-byte CPU access, as REG_READ makes), GTT entry insert and
 * clear (each flushed to the GPU), the chipset flush, resume, the page
 * behind an aperture address (for GTT mmaps) and teardown.  Interrupts
 * arrive through the kernel's ordinary IRQ API on pdev->irq.  There are
 * two implementations, chosen once at probe by i915_hw_init(): real
 * silicon (i915_hw_gmch.c: BAR0 MMIO and the kernel's intel_gmch_*
 * exports), and whatever &struct i915_hw_backend the PCI function itself
 * carries: the software model, i915_sim.ko, attaches one to each device
 * it creates.  No other code knows which one it talks to.  PCI config
 * space is the other way in: the stolen-memory size comes from the host
 * bridge at 00:00.0 of the GPU's PCI domain, whether the chipset or the
 * model answers it (i915_hw.c).
 */
#ifndef _I915_HW_H_
#define _I915_HW_H_

#include <linux/errno.h>
#include <linux/types.h>

struct pci_dev;
struct i915_hw;

/**
 * enum i915_gtt_caching - PTE cacheability type
 * @I915_GTT_UNCACHED: uncached main memory (PTE type 00)
 * @I915_GTT_SNOOPED: snooped/cached main memory (PTE type 11)
 */
enum i915_gtt_caching {
	I915_GTT_UNCACHED,
	I915_GTT_SNOOPED,
};

/**
 * struct i915_hw_funcs - operations one hardware backend provides
 * @read32: read a 32-bit MMIO register at byte offset @reg
 * @write32: write a 32-bit MMIO register at byte offset @reg
 * @read64: read the 8 bytes at byte offset @reg (8-byte aligned) in one
 *	CPU access, as upstream's 64-bit register read does (readq; two
 *	dword reads, lower first, where the CPU has no 8-byte access)
 * @gtt_insert: point GTT entries [@first, @first + @count) at the pages
 *	whose DMA addresses are in @addrs, then make the writes visible to the
 *	GPU: one range, with one posting read and one chipset flush for all of
 *	it (real silicon goes through i915_hw_gtt_insert_range())
 * @gtt_clear: point GTT entries [@first, @first + @count) at the scratch page
 * @chipset_flush: push CPU writes out of the chipset's write buffers into
 *	memory (the "flush page" write on Gen3/Gen4)
 * @fini: release what the backend's init acquired
 * @resume: the GPU lost power: enable its GTT again (before any entry is
 *	written); returns 0 or a negative errno; NULL if nothing is needed
 * @aperture_pfn: the page frame a CPU access to byte @offset of the
 *	aperture (BAR 2) reaches, for inserting into a user mapping: on real
 *	silicon the aperture page itself (the GMCH translates it through GTT
 *	entry @offset >> PAGE_SHIFT on every access), on the model the page
 *	that entry points at now.  Valid until the driver rewrites or clears
 *	that entry: before it does, the driver zaps every user PTE it made
 *	from the answer.  Returns 0, or -EFAULT/-EIO when the page cannot be
 *	reached (no valid entry, memory decode off, no power)
 *
 * Every callback may be called from process context; @read32 and @write32
 * also from hard-IRQ context.
 */
struct i915_hw_funcs {
	u32 (*read32)(struct i915_hw *hw, u32 reg);
	void (*write32)(struct i915_hw *hw, u32 reg, u32 val);
	u64 (*read64)(struct i915_hw *hw, u32 reg);
	void (*gtt_insert)(struct i915_hw *hw, unsigned int first,
			   const dma_addr_t *addrs, unsigned int count,
			   enum i915_gtt_caching caching);
	void (*gtt_clear)(struct i915_hw *hw, unsigned int first,
			  unsigned int count);
	void (*chipset_flush)(struct i915_hw *hw);
	void (*fini)(struct i915_hw *hw);
	int (*resume)(struct i915_hw *hw);
	int (*aperture_pfn)(struct i915_hw *hw, u64 offset, unsigned long *pfn);
};

/**
 * struct i915_hw - one bound GPU as the driver sees it
 * @funcs: the backend's operations
 * @pdev: the GPU's PCI function
 * @gtt_total: bytes of graphics address space the GTT maps
 * @mappable_base: bus address of the CPU aperture (BAR 2)
 * @mappable_end: size in bytes of the CPU aperture
 * @stolen_size: bytes at the start of the GTT that the firmware maps onto
 *	stolen memory (the GMS field of the host bridge's GMCH control
 *	register): the console's framebuffer scans out from there, so the
 *	driver never writes those entries
 * @priv: backend-private state
 */
struct i915_hw {
	const struct i915_hw_funcs *funcs;
	struct pci_dev *pdev;
	u64 gtt_total;
	phys_addr_t mappable_base;
	resource_size_t mappable_end;
	u64 stolen_size;
	void *priv;
};

int i915_hw_init(struct i915_hw *hw, struct pci_dev *pdev);
void i915_hw_fini(struct i915_hw *hw);

struct sg_table;
/*
 * A backend's insert of the pages of @st (DMA addresses and lengths) at
 * entries from @first, followed by one posting read and one chipset
 * flush: intel_gmch_gtt_insert_sg_entries() on real hardware.
 */
typedef void (*i915_hw_insert_sg_fn)(struct i915_hw *hw, struct sg_table *st,
				     unsigned int first, unsigned int flags);
void i915_hw_gtt_insert_range(struct i915_hw *hw, unsigned int first,
			      const dma_addr_t *addrs, unsigned int count,
			      unsigned int flags, i915_hw_insert_sg_fn insert_sg);

/* i915_hw_gmch.c: real Gen3/Gen4 silicon */
int i915_hw_gmch_init(struct i915_hw *hw, struct pci_dev *pdev);

/**
 * struct i915_hw_backend - a backend that a PCI function brings along
 * @init: attach to @pdev: fill in @hw's funcs, priv, gtt_total,
 *	mappable_base and mappable_end (i915_hw_init() reads the stolen size
 *	after it); 0 or a negative errno
 *
 * A device that is not the chipset's own GPU (the software model's)
 * points its dev.platform_data at one of these before the device is
 * added; real GPUs have no platform data and get the gmch backend.  The
 * driver takes no reference on the module behind it: that module removes
 * its devices before it goes, and the driver never calls the backend once
 * its PCI remove has returned.
 */
struct i915_hw_backend {
	int (*init)(struct i915_hw *hw, struct pci_dev *pdev);
};

/*
 * The driver calls a backend only through these wrappers, one per
 * callback (and i915_hw_fini() for @fini), never through hw->funcs.
 */

static inline u32 i915_read(struct i915_hw *hw, u32 reg)
{
	return hw->funcs->read32(hw, reg);
}

static inline void i915_write(struct i915_hw *hw, u32 reg, u32 val)
{
	hw->funcs->write32(hw, reg, val);
}

static inline u64 i915_read64(struct i915_hw *hw, u32 reg)
{
	return hw->funcs->read64(hw, reg);
}

static inline void i915_posting_read(struct i915_hw *hw, u32 reg)
{
	(void)hw->funcs->read32(hw, reg);
}

static inline void i915_chipset_flush(struct i915_hw *hw)
{
	hw->funcs->chipset_flush(hw);
}

/**
 * i915_hw_gtt_insert - point GTT entries at pages, visible to the GPU
 * @hw: the seam
 * @first: first entry
 * @addrs: DMA address of each page
 * @count: number of entries
 * @caching: snooped or uncached entries
 */
static inline void i915_hw_gtt_insert(struct i915_hw *hw, unsigned int first,
				      const dma_addr_t *addrs,
				      unsigned int count,
				      enum i915_gtt_caching caching)
{
	hw->funcs->gtt_insert(hw, first, addrs, count, caching);
}

/**
 * i915_hw_gtt_clear - point GTT entries at the scratch page
 * @hw: the seam
 * @first: first entry
 * @count: number of entries
 */
static inline void i915_hw_gtt_clear(struct i915_hw *hw, unsigned int first,
				     unsigned int count)
{
	hw->funcs->gtt_clear(hw, first, count);
}

/**
 * i915_hw_resume - enable the GPU's GTT again after it lost power
 * @hw: the seam
 *
 * Return: 0, also when the backend needs nothing done, or a negative errno.
 */
static inline int i915_hw_resume(struct i915_hw *hw)
{
	return hw->funcs->resume ? hw->funcs->resume(hw) : 0;
}

/**
 * i915_hw_aperture_pfn - the page frame behind one aperture address
 * @hw: the seam
 * @offset: byte offset in the aperture (a GTT address below mappable_end)
 * @pfn: returns the page frame to insert into a user mapping
 *
 * Return: 0, or a negative errno when the page cannot be reached.
 */
static inline int i915_hw_aperture_pfn(struct i915_hw *hw, u64 offset,
				       unsigned long *pfn)
{
	if (offset >= hw->mappable_end)
		return -EFAULT;
	return hw->funcs->aperture_pfn(hw, offset, pfn);
}

#endif /* _I915_HW_H_ */
