// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: software model - GTT and GPU memory access
 *
 * The model's GTT is an array of 32-bit entries in the generation's real
 * format: physical address bits 31:12, on G33/Pineview/965/G4x also bits
 * 35:32 in entry bits 7:4, the cache type in bits 2:1 and the valid bit.
 * Entries never written are invalid; cleared entries point at the model's
 * scratch page with the valid bit set, as intel-gtt leaves them.  The GTT
 * lives in the GPU: it powers on (at creation and after a power loss,
 * i915_sim_gtt_power_on_locked()) with every entry invalid, and entries
 * written while the GPU has no power are dropped.
 *
 * Stolen memory: at power-on the model does what the BIOS does.  GMS in
 * the host bridge's GMCH control (i915_sim_pci.c) says how much memory
 * the chipset takes from RAM for graphics; the model allocates that many
 * pages (not contiguous: only the GTT entries show where stolen memory
 * is), maps them at GTT address 0 and draws the firmware console's
 * framebuffer into them.  The console keeps scanning out from there after
 * any driver loads, so the pattern and the entries must survive the
 * driver: debugfs "stolen" checks both, and so does the model's teardown,
 * which logs a "BUG:" line when either changed.
 *
 * Every GPU access to memory goes through here: a graphics address is
 * translated by its entry (which must be valid and name a page the kernel
 * knows, pfn_valid()) and the page is accessed under &i915_sim.lock, so a
 * driver that clears entries and then frees the pages cannot race with the
 * model.  The command streamer's fetch translates once per page instead
 * (i915_sim_gtt_window_read32()): it holds a reference to the page and
 * reads it without the lock until it leaves the page or any entry is
 * written.  DMA needs bus mastering enabled in config space, as on
 * hardware.
 *
 * DMA addresses are physical addresses here: the virtual bus has no
 * IOMMU and no firmware node, so its devices use dma-direct.  A DMA mask
 * narrower than the memory the pages come from makes dma-direct bounce
 * through swiotlb (set up when RAM extends above 4 GiB), and the model,
 * like hardware, then sees the bounce page, which is copied back only at
 * unmap: the driver must allocate every page the GPU uses within its DMA
 * mask (the 32-bit parts: GFP_DMA32).  Entries pointing into swiotlb are
 * counted (debugfs "info": gtt_bounced) and logged once.
 */

#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/pci.h>
#include <linux/slab.h>
#include <linux/swiotlb.h>

#include "i915_reg.h"
#include "i915_sim.h"
#include "i915_sim_regs.h"

static u32 pte_encode(struct i915_sim *sim, u64 addr, u32 type)
{
	u64 limit = sim->pte_hi ? BIT_ULL(36) : BIT_ULL(32);
	u32 pte = lower_32_bits(addr) & I915_PTE_ADDR_MASK;

	/* The driver's DMA mask keeps addresses inside the PTE format. */
	if (WARN_ON_ONCE(addr >= limit))
		return 0;
	if (sim->pte_hi)
		pte |= (addr >> I965_PTE_ADDR_HI_SHIFT) & I965_PTE_ADDR_HI_MASK;
	return pte | type | I915_PTE_VALID;
}

/**
 * i915_sim_pte_decode - the physical address an entry points at
 * @sim: the model
 * @pte: a GTT entry
 * @phys: the page's physical address
 *
 * Return: 0, or -EFAULT if the entry is not valid.
 */
int i915_sim_pte_decode(struct i915_sim *sim, u32 pte, phys_addr_t *phys)
{
	u64 addr = pte & I915_PTE_ADDR_MASK;

	if (!(pte & I915_PTE_VALID))
		return -EFAULT;
	if (sim->pte_hi)
		addr |= (u64)(pte & I965_PTE_ADDR_HI_MASK) <<
			I965_PTE_ADDR_HI_SHIFT;
	*phys = addr;
	return 0;
}

/* A bounce buffer gets the GPU's writes only until the driver unmaps it. */
static u32 pte_encode_dma(struct i915_sim *sim, dma_addr_t addr, u32 type)
{
	struct device *dev = &sim->pdev->dev;

	if (is_swiotlb_buffer(dev, addr)) {
		atomic_long_inc(&sim->gtt_bounced);
		dev_warn_once(dev, "GTT entry points at a swiotlb bounce buffer: object pages must lie within the DMA mask\n");
	}
	return pte_encode(sim, addr, type);
}

/* An entry was written: command fetches translate again. */
static void gtt_changed_locked(struct i915_sim *sim)
{
	lockdep_assert_held(&sim->lock);
	WRITE_ONCE(sim->gtt_gen, sim->gtt_gen + 1);
}

/* Callers are the driver's GTT code: a bad range is a driver bug. */
static bool gtt_range_bad(struct i915_sim *sim, unsigned int first,
			  unsigned int count)
{
	return WARN_ON_ONCE(first > sim->gtt_entries ||
			    count > sim->gtt_entries - first);
}

/* Write entries, dropping the lock every batch to bound IRQ-off time. */
static void gtt_write_scratch(struct i915_sim *sim, unsigned int first,
			      unsigned int count)
{
	u32 scratch = pte_encode(sim, sim->scratch_phys, I915_PTE_UNCACHED);
	unsigned long flags;
	unsigned int i;

	if (gtt_range_bad(sim, first, count))
		return;

	raw_spin_lock_irqsave(&sim->lock, flags);
	for (i = 0; i < count && !sim->power_off; i++) {
		WRITE_ONCE(sim->gtt[first + i], scratch);
		gtt_changed_locked(sim);
		if ((i + 1) % I915_SIM_GTT_BATCH == 0) {
			raw_spin_unlock_irqrestore(&sim->lock, flags);
			raw_spin_lock_irqsave(&sim->lock, flags);
		}
	}
	raw_spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * i915_sim_gtt_set - write GTT entries for a range of pages
 * @sim: the model
 * @first: first entry
 * @addrs: the DMA address of each page
 * @count: number of entries
 * @type: I915_PTE_UNCACHED or I915_PTE_SNOOPED
 */
void i915_sim_gtt_set(struct i915_sim *sim, unsigned int first,
		      const dma_addr_t *addrs, unsigned int count, u32 type)
{
	unsigned long flags;
	unsigned int i;

	if (gtt_range_bad(sim, first, count))
		return;

	raw_spin_lock_irqsave(&sim->lock, flags);
	for (i = 0; i < count; ) {
		if (sim->power_off)
			break;
		WRITE_ONCE(sim->gtt[first + i],
			   pte_encode_dma(sim, addrs[i], type));
		gtt_changed_locked(sim);
		if (++i % I915_SIM_GTT_BATCH == 0) {
			raw_spin_unlock_irqrestore(&sim->lock, flags);
			raw_spin_lock_irqsave(&sim->lock, flags);
		}
	}
	raw_spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * i915_sim_gtt_set_scratch - point GTT entries at the scratch page
 * @sim: the model
 * @first: first entry
 * @count: number of entries
 */
void i915_sim_gtt_set_scratch(struct i915_sim *sim, unsigned int first,
			      unsigned int count)
{
	gtt_write_scratch(sim, first, count);
}

/**
 * i915_sim_gtt_power_on_locked - the GTT's contents after power-on
 * @sim: the model, its lock held
 *
 * Every entry invalid; the firmware maps stolen memory again once power
 * is back (i915_sim_power_on()).
 */
void i915_sim_gtt_power_on_locked(struct i915_sim *sim)
{
	lockdep_assert_held(&sim->lock);
	memset(sim->gtt, 0, array_size(sim->gtt_entries, sizeof(*sim->gtt)));
	gtt_changed_locked(sim);
}

static bool dma_allowed(struct i915_sim *sim)
{
	return (READ_ONCE(sim->pci_command) & PCI_COMMAND_MASTER) &&
	       !READ_ONCE(sim->power_off);
}

static struct page *phys_page(phys_addr_t phys)
{
	unsigned long pfn = PHYS_PFN(phys);

	return pfn_valid(pfn) ? pfn_to_page(pfn) : ERR_PTR(-EFAULT);
}

/**
 * i915_sim_gtt_page_locked - translate a graphics address to its page
 * @sim: the model, its lock held (keep it while using the page)
 * @addr: graphics address
 *
 * Return: the page, or ERR_PTR(-ERANGE) beyond the GTT, ERR_PTR(-EFAULT)
 * for an invalid entry or one naming no page, ERR_PTR(-EIO) while the GTT
 * is disabled in PGTBL_CTL or bus mastering is off.
 */
struct page *i915_sim_gtt_page_locked(struct i915_sim *sim, u32 addr)
{
	unsigned int idx = addr / I915_GTT_PAGE_SIZE;
	phys_addr_t phys;

	lockdep_assert_held(&sim->lock);
	if (!dma_allowed(sim) ||
	    !(*i915_sim_reg(sim, I915_PGTBL_CTL) & I915_PGTBL_ENABLE))
		return ERR_PTR(-EIO);
	if (idx >= sim->gtt_entries)
		return ERR_PTR(-ERANGE);
	if (i915_sim_pte_decode(sim, sim->gtt[idx], &phys))
		return ERR_PTR(-EFAULT);
	return phys_page(phys);
}

/**
 * i915_sim_aperture_pfn - the page a CPU access to the aperture reaches
 * @sim: the model
 * @offset: byte offset in the aperture (BAR 2)
 * @pfn: returns the page frame
 *
 * The model's BAR 2 is an address range with nothing behind it, so a CPU
 * mapping of the aperture cannot map the BAR: it maps the page that the
 * model's own GTT entry for @offset points at, read now under the model's
 * lock, the very page the GPU reaches at that graphics address (the
 * scratch page for a cleared entry).  Real silicon translates on every
 * access; here the translation is made once per user PTE, so the answer
 * holds only until that entry is rewritten, and the driver zaps its user
 * PTEs before it rewrites one, as it must on silicon too.  Inside a valid
 * fence's range the answer is a shadow page holding the linear image
 * (i915_sim_aperture.c), valid until that fence or the entries under it
 * are rewritten.
 *
 * Return: 0, -EIO while memory decode is off or the GPU has no power,
 * -EFAULT for an offset beyond the GTT or an invalid entry.
 */
int i915_sim_aperture_pfn(struct i915_sim *sim, u64 offset,
			  unsigned long *pfn)
{
	unsigned long idx = offset / I915_GTT_PAGE_SIZE;
	struct i915_sim_fence_desc f;
	phys_addr_t phys;
	unsigned long flags;
	int ret = 0;

	if (!(READ_ONCE(sim->pci_command) & PCI_COMMAND_MEMORY) ||
	    READ_ONCE(sim->power_off))
		return -EIO;
	if (idx >= sim->gtt_entries)
		return -EFAULT;
	/* Through a fence: the linear image, in a shadow page. */
	ret = i915_sim_fence_find(sim, offset, &f);
	if (ret)
		return ret < 0 ? ret : i915_sim_shadow_pfn(sim, offset, &f, pfn);
	i915_sim_shadow_check(sim);

	raw_spin_lock_irqsave(&sim->lock, flags);
	if (!(READ_ONCE(sim->pci_command) & PCI_COMMAND_MEMORY) ||
	    READ_ONCE(sim->power_off))
		ret = -EIO;
	else if (idx >= sim->gtt_entries ||
		 i915_sim_pte_decode(sim, sim->gtt[idx], &phys) ||
		 !pfn_valid(PHYS_PFN(phys)))
		ret = -EFAULT;
	else
		*pfn = PHYS_PFN(phys);
	raw_spin_unlock_irqrestore(&sim->lock, flags);
	return ret;
}

/* Copy within one page; @len must not cross a page boundary. */
static int gtt_copy_page(struct i915_sim *sim, u32 addr, void *buf,
			 size_t len, bool to_gpu)
{
	unsigned int offset = offset_in_page(addr);
	unsigned long flags;
	struct page *page;
	void *vaddr;

	raw_spin_lock_irqsave(&sim->lock, flags);
	page = i915_sim_gtt_page_locked(sim, addr);
	if (IS_ERR(page)) {
		raw_spin_unlock_irqrestore(&sim->lock, flags);
		atomic_long_inc(&sim->gtt_faults);
		return PTR_ERR(page);
	}
	vaddr = kmap_local_page(page);
	if (to_gpu) {
		memcpy(vaddr + offset, buf, len);
		/* For the aperture's shadows (i915_sim_aperture.c). */
		sim->gpu_dirty_lo = min_t(u64, sim->gpu_dirty_lo, addr);
		sim->gpu_dirty_hi = max_t(u64, sim->gpu_dirty_hi, addr + len);
	} else {
		memcpy(buf, vaddr + offset, len);
	}
	kunmap_local(vaddr);
	raw_spin_unlock_irqrestore(&sim->lock, flags);
	return 0;
}

/**
 * i915_sim_gtt_copy - the GPU reads or writes memory through the GTT
 * @sim: the model
 * @addr: graphics address
 * @buf: kernel buffer
 * @len: bytes
 * @to_gpu: true to write @buf to graphics memory, false to read into it
 *
 * Page by page; on error the pages before the failing one were copied.
 * Faults are counted but not reported: the caller decides which error
 * register (and client bit) the access sets.
 *
 * Return: 0, or the error of i915_sim_gtt_page_locked().
 */
int i915_sim_gtt_copy(struct i915_sim *sim, u32 addr, void *buf, size_t len,
		      bool to_gpu)
{
	u64 end = (u64)addr + len;
	int ret;

	if (end > (u64)sim->gtt_entries * I915_GTT_PAGE_SIZE)
		return -ERANGE;

	while (len) {
		size_t chunk = min_t(size_t, len,
				     PAGE_SIZE - offset_in_page(addr));

		ret = gtt_copy_page(sim, addr, buf, chunk, to_gpu);
		if (ret)
			return ret;
		addr += chunk;
		buf += chunk;
		len -= chunk;
	}
	return 0;
}

/**
 * i915_sim_gtt_read32 - the GPU reads a dword through the GTT
 * @sim: the model
 * @addr: graphics address, dword aligned
 * @val: the value read
 *
 * Return: 0, -EINVAL if @addr is not aligned, or as i915_sim_gtt_copy().
 */
int i915_sim_gtt_read32(struct i915_sim *sim, u32 addr, u32 *val)
{
	if (!IS_ALIGNED(addr, sizeof(u32)))
		return -EINVAL;
	return i915_sim_gtt_copy(sim, addr, val, sizeof(*val), false);
}

/**
 * i915_sim_gtt_write32 - the GPU writes a dword through the GTT
 * @sim: the model
 * @addr: graphics address, dword aligned
 * @val: the value to write
 *
 * Return: 0, -EINVAL if @addr is not aligned, or as i915_sim_gtt_copy().
 */
int i915_sim_gtt_write32(struct i915_sim *sim, u32 addr, u32 val)
{
	if (!IS_ALIGNED(addr, sizeof(u32)))
		return -EINVAL;
	return i915_sim_gtt_copy(sim, addr, &val, sizeof(val), true);
}

/**
 * i915_sim_gtt_invalidate - clear the valid bit of one GTT entry
 * @sim: the model
 * @addr: a graphics address in the entry's page
 *
 * For tests (debugfs gtt_invalidate): the GPU faults on that page until
 * the driver writes the entry again.
 *
 * Return: 0, or -ERANGE beyond the GTT.
 */
int i915_sim_gtt_invalidate(struct i915_sim *sim, u32 addr)
{
	unsigned int idx = addr / I915_GTT_PAGE_SIZE;
	unsigned long flags;

	if (idx >= sim->gtt_entries)
		return -ERANGE;
	raw_spin_lock_irqsave(&sim->lock, flags);
	WRITE_ONCE(sim->gtt[idx], sim->gtt[idx] & ~I915_PTE_VALID);
	gtt_changed_locked(sim);
	raw_spin_unlock_irqrestore(&sim->lock, flags);
	return 0;
}

/* May the page @w holds still be read for @addr, without the lock? */
static bool gtt_window_valid(struct i915_sim *sim,
			     const struct i915_sim_gtt_window *w, u32 addr)
{
	return w->page && round_down(addr, I915_GTT_PAGE_SIZE) == w->addr &&
	       READ_ONCE(sim->gtt_gen) == w->gen && dma_allowed(sim) &&
	       (READ_ONCE(*i915_sim_reg(sim, I915_PGTBL_CTL)) &
		I915_PGTBL_ENABLE);
}

/**
 * i915_sim_gtt_window_drop - let go of the page a window holds
 * @w: the window, which may hold none; in the thread that reads through it
 */
void i915_sim_gtt_window_drop(struct i915_sim_gtt_window *w)
{
	if (!w->page)
		return;
	kunmap_local(w->vaddr);
	folio_put(page_folio(w->page));
	w->page = NULL;
	w->vaddr = NULL;
}

/**
 * i915_sim_gtt_window_read32 - the GPU reads a dword, a page translated once
 * @sim: the model
 * @w: the reader's window, kept between calls
 * @addr: graphics address, dword aligned
 * @val: the value read
 *
 * As i915_sim_gtt_read32() (the same errors, in the same order), but the
 * page is translated under the model's lock only when @addr leaves the
 * page @w holds or a GTT entry was written since (&i915_sim.gtt_gen): the
 * page is then held by a reference and read without the lock.  Bus
 * mastering, power and PGTBL_CTL are checked at every read.  The memory
 * itself is read at every call: nothing is cached but the translation.
 * A page the kernel does not count references on (none should be in the
 * GTT) is read under the lock, and not held.
 *
 * Return: 0, -EINVAL if @addr is not aligned, or as i915_sim_gtt_copy().
 */
int i915_sim_gtt_window_read32(struct i915_sim *sim,
			       struct i915_sim_gtt_window *w, u32 addr,
			       u32 *val)
{
	unsigned long flags;
	struct page *page;
	void *vaddr;

	if (!IS_ALIGNED(addr, sizeof(u32)))
		return -EINVAL;
	if ((u64)addr + sizeof(u32) > (u64)sim->gtt_entries * I915_GTT_PAGE_SIZE)
		return -ERANGE;
	if (gtt_window_valid(sim, w, addr))
		goto read;

	i915_sim_gtt_window_drop(w);
	raw_spin_lock_irqsave(&sim->lock, flags);
	page = i915_sim_gtt_page_locked(sim, addr);
	if (IS_ERR(page)) {
		raw_spin_unlock_irqrestore(&sim->lock, flags);
		atomic_long_inc(&sim->gtt_faults);
		return PTR_ERR(page);
	}
	if (!folio_try_get(page_folio(page))) {
		vaddr = kmap_local_page(page);
		*val = READ_ONCE(*(u32 *)(vaddr + offset_in_page(addr)));
		kunmap_local(vaddr);
		raw_spin_unlock_irqrestore(&sim->lock, flags);
		return 0;
	}
	w->gen = sim->gtt_gen;
	raw_spin_unlock_irqrestore(&sim->lock, flags);
	w->page = page;
	w->addr = round_down(addr, I915_GTT_PAGE_SIZE);
	/* The reader's thread's own, kept across commands: nested maps pair. */
	w->vaddr = kmap_local_page(page);
	WRITE_ONCE(w->lookups, w->lookups + 1);
read:
	*val = READ_ONCE(*(u32 *)(w->vaddr + offset_in_page(addr)));
	return 0;
}

/**
 * i915_sim_gtt_window_peek32 - read a dword through a window, no translation
 * @sim: the model, its lock held
 * @w: the reader's window
 * @addr: graphics address
 * @val: the value read
 *
 * For a reader that holds the model's lock: reads @addr only where
 * i915_sim_gtt_window_read32() would read it without translating (the
 * same checks of the window, bus mastering, power and PGTBL_CTL).
 *
 * Return: 0, or -EAGAIN for anything else (not aligned, beyond the GTT,
 * another page, an entry written since, DMA or the GTT off): the caller
 * drops the lock and reads through i915_sim_gtt_window_read32(), which
 * translates or returns the error.
 */
int i915_sim_gtt_window_peek32(struct i915_sim *sim,
			       const struct i915_sim_gtt_window *w, u32 addr,
			       u32 *val)
{
	lockdep_assert_held(&sim->lock);
	if (!IS_ALIGNED(addr, sizeof(u32)) ||
	    (u64)addr + sizeof(u32) > (u64)sim->gtt_entries * I915_GTT_PAGE_SIZE ||
	    !gtt_window_valid(sim, w, addr))
		return -EAGAIN;
	*val = READ_ONCE(*(u32 *)(w->vaddr + offset_in_page(addr)));
	return 0;
}

/* The status page as HWS_PGA names it: a GGTT offset or a physical page. */
static struct page *hws_page_locked(struct i915_sim *sim)
{
	u32 pga = *i915_sim_reg(sim, I915_HWS_PGA);
	u64 phys = pga & I915_HWS_ADDR_MASK;

	if (sim->hws_in_ggtt)
		return i915_sim_gtt_page_locked(sim, phys);
	if (!dma_allowed(sim))
		return ERR_PTR(-EIO);
	if (sim->hws_hi)
		phys |= (u64)(pga & I965_HWS_ADDR_HI_MASK) <<
			I965_HWS_ADDR_HI_SHIFT;
	/* Never programmed: do not scribble over physical page 0. */
	if (!phys)
		return ERR_PTR(-EFAULT);
	return phys_page(phys);
}

/**
 * i915_sim_hws_write32_locked - the GPU writes a hardware status page dword
 * @sim: the model, its lock held
 * @offset: byte offset in the status page, dword aligned
 * @val: the value to write
 *
 * Return: 0, -EINVAL for a bad @offset, or the translation error.
 */
int i915_sim_hws_write32_locked(struct i915_sim *sim, u32 offset, u32 val)
{
	struct page *page;
	u32 *vaddr;

	lockdep_assert_held(&sim->lock);
	if (offset >= I915_GTT_PAGE_SIZE || !IS_ALIGNED(offset, sizeof(u32)))
		return -EINVAL;

	page = hws_page_locked(sim);
	if (IS_ERR(page)) {
		atomic_long_inc(&sim->gtt_faults);
		return PTR_ERR(page);
	}
	vaddr = kmap_local_page(page);
	vaddr[offset / sizeof(u32)] = val;
	kunmap_local(vaddr);
	return 0;
}

/**
 * i915_sim_hws_write32 - the GPU writes a hardware status page dword
 * @sim: the model
 * @offset: byte offset in the status page, dword aligned
 * @val: the value to write
 *
 * Return: as i915_sim_hws_write32_locked().
 */
int i915_sim_hws_write32(struct i915_sim *sim, u32 offset, u32 val)
{
	unsigned long flags;
	int ret;

	raw_spin_lock_irqsave(&sim->lock, flags);
	ret = i915_sim_hws_write32_locked(sim, offset, val);
	raw_spin_unlock_irqrestore(&sim->lock, flags);
	return ret;
}

/*
 * What the firmware's console draws into stolen memory: a value that
 * depends on the byte offset, so that a lost, moved or overwritten page
 * shows.
 */
static u32 stolen_pattern(unsigned long offset)
{
	return (u32)(offset * 0x9e3779b1ul) ^ 0xf1f0fb00u;
}

/**
 * i915_sim_stolen_init - power-on: stolen memory and the firmware framebuffer
 * @sim: the model, before its PCI bus exists
 *
 * Allocates the pages that stand in for the stolen memory @sim->gmch_ctrl
 * announces (below 4 GiB, where every PTE format reaches), draws the
 * firmware's framebuffer pattern into all of it and maps it at GTT address
 * 0 (i915_sim_stolen_map()), as the BIOS leaves the hardware before any
 * driver loads.
 *
 * Return: 0 on success, -ENOMEM.
 */
int i915_sim_stolen_init(struct i915_sim *sim)
{
	unsigned long bytes = i915_gms_stolen_mib(sim->gmch_ctrl) * SZ_1M;
	unsigned int i, n = min_t(unsigned long, bytes / PAGE_SIZE,
				  sim->gtt_entries);
	unsigned int j;

	if (!n)
		return 0;
	sim->stolen = kvcalloc(n, sizeof(*sim->stolen), GFP_KERNEL);
	if (!sim->stolen)
		return -ENOMEM;

	for (i = 0; i < n; i++) {
		u32 *vaddr;

		sim->stolen[i] = alloc_page(GFP_KERNEL | GFP_DMA32);
		if (!sim->stolen[i])
			goto err;
		sim->stolen_pages = i + 1;
		vaddr = kmap_local_page(sim->stolen[i]);
		for (j = 0; j < PAGE_SIZE / sizeof(u32); j++)
			vaddr[j] = stolen_pattern(i * PAGE_SIZE +
						  j * sizeof(u32));
		kunmap_local(vaddr);
		cond_resched();
	}
	i915_sim_stolen_map(sim);
	return 0;

err:
	i915_sim_stolen_fini(sim);
	return -ENOMEM;
}

/**
 * i915_sim_stolen_map - the firmware maps stolen memory at GTT address 0
 * @sim: the model
 *
 * Points the first @sim->stolen_pages entries at the stolen pages,
 * uncached, as the BIOS does at power-on.
 */
void i915_sim_stolen_map(struct i915_sim *sim)
{
	unsigned long flags;
	unsigned int i;

	raw_spin_lock_irqsave(&sim->lock, flags);
	for (i = 0; i < sim->stolen_pages; i++) {
		WRITE_ONCE(sim->gtt[i],
			   pte_encode(sim, page_to_phys(sim->stolen[i]),
				      I915_PTE_UNCACHED));
		gtt_changed_locked(sim);
		if ((i + 1) % I915_SIM_GTT_BATCH == 0) {
			raw_spin_unlock_irqrestore(&sim->lock, flags);
			raw_spin_lock_irqsave(&sim->lock, flags);
		}
	}
	raw_spin_unlock_irqrestore(&sim->lock, flags);
}

/**
 * i915_sim_stolen_check - is the firmware framebuffer still there?
 * @sim: the model
 * @state: filled with what changed since power-on
 *
 * Compares every dword of stolen memory with the firmware's pattern and
 * every entry of the stolen range with its page.
 */
void i915_sim_stolen_check(struct i915_sim *sim,
			   struct i915_sim_stolen_state *state)
{
	unsigned long flags;
	unsigned int i, j;

	memset(state, 0, sizeof(*state));
	for (i = 0; i < sim->stolen_pages; i++) {
		const u32 *vaddr = kmap_local_page(sim->stolen[i]);
		u32 want;

		for (j = 0; j < PAGE_SIZE / sizeof(u32); j++) {
			unsigned long offset = i * PAGE_SIZE + j * sizeof(u32);

			if (vaddr[j] == stolen_pattern(offset))
				continue;
			if (!state->bad_dwords++)
				state->first_bad = offset;
		}
		kunmap_local(vaddr);

		want = pte_encode(sim, page_to_phys(sim->stolen[i]),
				  I915_PTE_UNCACHED);
		raw_spin_lock_irqsave(&sim->lock, flags);
		if (READ_ONCE(sim->gtt[i]) != want && !state->bad_entries++)
			state->first_bad_entry = i;
		raw_spin_unlock_irqrestore(&sim->lock, flags);
		cond_resched();
	}
}

/**
 * i915_sim_stolen_fini - free the stolen memory
 * @sim: the model, its PCI bus gone
 */
void i915_sim_stolen_fini(struct i915_sim *sim)
{
	unsigned int i;

	for (i = 0; i < sim->stolen_pages; i++)
		__free_page(sim->stolen[i]);
	kvfree(sim->stolen);
	sim->stolen = NULL;
	sim->stolen_pages = 0;
}
