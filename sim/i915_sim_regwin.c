// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: software model - the register window of user space
 *
 * On a real machine root reads the GPU's registers by mapping its MMIO BAR
 * through sysfs (/sys/bus/pci/devices/<slot>/resource0, as libpciaccess's
 * pci_device_map_range() does for igt and intel_reg): the PCI core maps
 * the BAR's physical range.  The model's BARs have nothing behind them
 * (its window is claimed busy and exclusive, so that a kernel with
 * CONFIG_STRICT_DEVMEM refuses to map any of it), so the model presents
 * resource0 itself: when the
 * GPU's function is added (and again after a rescan finds it) the PCI
 * core's resource0 attribute is replaced by one of the same name and mode
 * (0600), allocated as the core allocates its own, which the core frees
 * when it removes the function.  Its mmap takes the same checks as the
 * core's (lockdown's PCI access, the range within the BAR) and gives a
 * mapping whose pages are filled when they are faulted in with what the
 * CPU would read at those offsets at that moment: the registers through
 * i915_sim_mmio_read() (no register's read has a side effect in the
 * model; all ones while memory decoding is off or the GPU is powered
 * down), on Gen4 the GTT entries in the upper part of BAR 0, and 0
 * elsewhere.  The other BARs' files (the aperture's resource2 and
 * resource2_wc, Gen3's GTT BAR's resource3) are replaced too, by files
 * whose mmap fails with EINVAL, as the core's does for a claimed range:
 * nothing is behind them, and the model's claim on its window keeps the
 * core's from mapping them only on a kernel with CONFIG_STRICT_DEVMEM.
 *
 * The values must not go stale: while a mapping exists, a delayed work
 * zaps the window's pages every %REGWIN_REFRESH_MS ms
 * (unmap_mapping_range() on the address space of the sysfs file's inode,
 * where the mappings are), so a reader polling a register faults again
 * and sees it move (ring HEAD, ACTHD, IIR) within that period.  The work
 * holds a reference to each file mapped and runs until none of them has
 * been mapped for %REGWIN_GRACE_MS ms (a mapping is linked into the
 * address space only after the mmap call returns).
 *
 * User-space register writes are not modelled: the pages are mapped read
 * only and a store through a shared mapping faults with SIGBUS, rather
 * than being lost silently (a private mapping gets a private copy, as a
 * private mapping of a real BAR does).  The pages are ordinary pages
 * (the kernfs file wraps every vm operation but pfn_mkwrite, which a
 * VM_PFNMAP mapping would need to refuse a store), with VM_IO so that
 * nothing pins them.  A page is handed to the fault locked, with a
 * reference of the window's besides the page table's: the fault path
 * unlocks it only after the page table took it, and a zap in between
 * must not free a locked page under it.  The work drops the window's
 * references of pages the fault path has unlocked.
 *
 * Removal: the PCI core removes the attribute before the function goes;
 * kernfs waits for faults in flight, zaps every mapping of the file, and
 * from then on answers faults with SIGBUS without calling the model, so
 * a mapping that outlives the function, or the module, only faults.  The
 * model then detaches (i915_sim_regwin_detach()): the work stops and the
 * files are let go.
 *
 * The model's register read is reached here only from the model itself:
 * this is the model presenting its own BAR, not the driver reaching the
 * model, so the driver still reaches the model only through the hardware
 * seam.
 */

#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/pci.h>
#include <linux/security.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/workqueue.h>

#include "i915_reg.h"
#include "i915_sim.h"

/* How often a mapped window's pages are dropped and read again. */
#define REGWIN_REFRESH_MS	4
/* How long a file mapped but not (yet, or any more) in use is followed. */
#define REGWIN_GRACE_MS		1000

/**
 * struct i915_sim_regwin - the register window of one GPU function
 * @sim: the model
 * @pdev: the function whose resource0 is ours
 * @bar_len: length of BAR 0
 * @gtt_offset: offset of the GTT in BAR 0 (Gen4), 0 if it has none
 * @lock: protects @files
 * @files: the &struct regwin_file of every file mapped
 * @pages_lock: protects @pages; taken in the fault path
 * @pages: pages handed to a fault, through their lru, each with a
 *	reference of ours until the fault path has unlocked it
 * @refresh: zaps the mapped pages while @files is not empty, and lets go
 *	of @pages
 */
struct i915_sim_regwin {
	struct i915_sim *sim;
	struct pci_dev *pdev;
	resource_size_t bar_len;
	u32 gtt_offset;
	struct mutex lock; /* see above */
	struct list_head files;
	spinlock_t pages_lock; /* see above */
	struct list_head pages;
	struct delayed_work refresh;
};

/**
 * struct regwin_file - a file of the window that was mapped
 * @link: in &i915_sim_regwin.files
 * @file: the file, a reference held
 * @mapped: jiffies of its last mmap
 */
struct regwin_file {
	struct list_head link;
	struct file *file;
	unsigned long mapped;
};

/* What the CPU reads at @offset of BAR 0. */
static u32 regwin_read(struct i915_sim_regwin *win, u32 offset)
{
	struct i915_sim *sim = win->sim;
	unsigned long flags;
	u32 entry, val;

	if (offset < I915_MMIO_SIZE)
		return i915_sim_mmio_read(sim, offset);
	if (!win->gtt_offset || offset < win->gtt_offset)
		return 0;
	entry = (offset - win->gtt_offset) / sizeof(u32);
	if (entry >= sim->gtt_entries)
		return 0;
	/* The same decoding as the registers': all ones without it. */
	if (i915_sim_mmio_read(sim, I915_PGTBL_CTL) == ~0u)
		return ~0u;
	raw_spin_lock_irqsave(&sim->lock, flags);
	val = sim->gtt[entry];
	raw_spin_unlock_irqrestore(&sim->lock, flags);
	return val;
}

static vm_fault_t regwin_fault(struct vm_fault *vmf)
{
	struct i915_sim_regwin *win = vmf->vma->vm_private_data;
	u32 base = vmf->pgoff << PAGE_SHIFT;
	struct page *page;
	unsigned int i;
	u32 *p;

	if ((vmf->flags & FAULT_FLAG_WRITE) &&
	    (vmf->vma->vm_flags & VM_SHARED))
		return VM_FAULT_SIGBUS;

	page = alloc_page(GFP_HIGHUSER);
	if (!page)
		return VM_FAULT_OOM;
	p = kmap_local_page(page);
	for (i = 0; i < PAGE_SIZE / sizeof(u32); i++)
		p[i] = regwin_read(win, base + i * sizeof(u32));
	kunmap_local(p);

	/*
	 * The page table takes the allocation's reference.  Ours keeps the
	 * page while the fault path holds it locked (see above).
	 */
	__folio_set_locked(page_folio(page));
	get_page(page);
	spin_lock(&win->pages_lock);
	list_add_tail(&page->lru, &win->pages);
	spin_unlock(&win->pages_lock);
	vmf->page = page;
	return VM_FAULT_LOCKED;
}

/* A store through a shared mapping of a page already read. */
static vm_fault_t regwin_page_mkwrite(struct vm_fault *vmf)
{
	return VM_FAULT_SIGBUS;
}

static const struct vm_operations_struct regwin_vm_ops = {
	.fault = regwin_fault,
	.page_mkwrite = regwin_page_mkwrite,
};

/* Drop our references to the pages the fault path is done with (@all: wait). */
static bool regwin_put_pages(struct i915_sim_regwin *win, bool all)
{
	struct page *page, *n;
	LIST_HEAD(done);
	bool left;

	spin_lock(&win->pages_lock);
	list_for_each_entry_safe(page, n, &win->pages, lru) {
		if (all || !PageLocked(page))
			list_move(&page->lru, &done);
	}
	left = !list_empty(&win->pages);
	spin_unlock(&win->pages_lock);

	list_for_each_entry_safe(page, n, &done, lru) {
		list_del(&page->lru);
		folio_wait_locked(page_folio(page));
		put_page(page);
	}
	return left;
}

static void regwin_refresh(struct work_struct *work)
{
	struct i915_sim_regwin *win =
		container_of(work, struct i915_sim_regwin, refresh.work);
	unsigned long grace = msecs_to_jiffies(REGWIN_GRACE_MS);
	struct regwin_file *f, *n;

	mutex_lock(&win->lock);
	list_for_each_entry_safe(f, n, &win->files, link) {
		struct address_space *mapping = f->file->f_mapping;

		if (mapping_mapped(mapping)) {
			unmap_mapping_range(mapping, 0, 0, 1);
			f->mapped = jiffies;
		} else if (time_after(jiffies, f->mapped + grace)) {
			list_del(&f->link);
			fput(f->file);
			kfree(f);
		}
	}
	if (regwin_put_pages(win, false) || !list_empty(&win->files))
		schedule_delayed_work(&win->refresh,
				      msecs_to_jiffies(REGWIN_REFRESH_MS));
	mutex_unlock(&win->lock);
}

/* Follow @file's mappings until they are gone. */
static int regwin_follow(struct i915_sim_regwin *win, struct file *file)
{
	struct regwin_file *f;

	mutex_lock(&win->lock);
	list_for_each_entry(f, &win->files, link) {
		if (f->file == file)
			goto found;
	}
	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f) {
		mutex_unlock(&win->lock);
		return -ENOMEM;
	}
	f->file = get_file(file);
	list_add(&f->link, &win->files);
found:
	f->mapped = jiffies;
	schedule_delayed_work(&win->refresh,
			      msecs_to_jiffies(REGWIN_REFRESH_MS));
	mutex_unlock(&win->lock);
	return 0;
}

static int regwin_mmap(struct file *file, struct kobject *kobj,
		       struct bin_attribute *attr, struct vm_area_struct *vma)
{
	struct i915_sim_regwin *win = attr->private;
	unsigned long pages = DIV_ROUND_UP(win->bar_len, PAGE_SIZE);
	int ret;

	ret = security_locked_down(LOCKDOWN_PCI_ACCESS);
	if (ret)
		return ret;
	if (vma->vm_pgoff >= pages || vma_pages(vma) > pages - vma->vm_pgoff)
		return -EINVAL;

	ret = regwin_follow(win, file);
	if (ret)
		return ret;
	vma->vm_flags |= VM_IO | VM_DONTEXPAND | VM_DONTDUMP;
	vma->vm_ops = &regwin_vm_ops;
	vma->vm_private_data = win;
	return 0;
}

/* The other BARs: nothing is behind them. */
static int regwin_mmap_refused(struct file *file, struct kobject *kobj,
			       struct bin_attribute *attr,
			       struct vm_area_struct *vma)
{
	return -EINVAL;
}

/*
 * Replace the PCI core's attribute *@slot with ours, the register window
 * if @win, else a refusal, allocated as the core allocates its own (the
 * name after the attribute): the core frees it with the function.
 */
static int regwin_replace(struct pci_dev *pdev, struct bin_attribute **slot,
			  struct i915_sim_regwin *win)
{
	struct kobject *kobj = &pdev->dev.kobj;
	struct bin_attribute *old = *slot;
	size_t len = strlen(old->attr.name) + 1;
	struct bin_attribute *attr;
	int ret;

	attr = kzalloc(sizeof(*attr) + len, GFP_KERNEL);
	if (!attr)
		return -ENOMEM;
	memcpy(attr + 1, old->attr.name, len);
	sysfs_bin_attr_init(attr);
	attr->attr.name = (char *)(attr + 1);
	attr->attr.mode = 0600;
	attr->size = old->size;
	attr->mmap = win ? regwin_mmap : regwin_mmap_refused;
	attr->private = win;

	sysfs_remove_bin_file(kobj, old);
	ret = sysfs_create_bin_file(kobj, attr);
	if (ret) {
		kfree(attr);
		if (sysfs_create_bin_file(kobj, old)) {
			*slot = NULL;
			kfree(old);
		}
		return ret;
	}
	*slot = attr;
	kfree(old);
	return 0;
}

/**
 * i915_sim_regwin_attach - present the register window as @pdev's resource0
 * @sim: the model
 * @pdev: the GPU's function, added (its sysfs resource files exist)
 *
 * Replaces the files of every BAR: resource0 with the register window,
 * the others with files that refuse to be mapped.  Called under
 * pci_lock_rescan_remove(), so that the function is neither removed nor
 * its files made again meanwhile.
 *
 * Return: the window, or an ERR_PTR() (the files already replaced stay;
 * those not replaced are the core's, which refuse to map the BARs on a
 * kernel with CONFIG_STRICT_DEVMEM).
 */
struct i915_sim_regwin *i915_sim_regwin_attach(struct i915_sim *sim,
					       struct pci_dev *pdev)
{
	struct i915_sim_regwin *win;
	int bar, ret = 0;

	if (!pdev->res_attr[I915_MMIO_BAR])
		return ERR_PTR(-ENODEV);

	win = kzalloc(sizeof(*win), GFP_KERNEL);
	if (!win)
		return ERR_PTR(-ENOMEM);
	win->sim = sim;
	win->pdev = pdev;
	win->bar_len = pci_resource_len(pdev, I915_MMIO_BAR);
	if (sim->chip->gen >= 4)
		win->gtt_offset = sim->chip->flags & I915_SIM_G4X ?
				  I915_G4X_GTT_OFFSET : I915_GEN4_GTT_OFFSET;
	mutex_init(&win->lock);
	INIT_LIST_HEAD(&win->files);
	spin_lock_init(&win->pages_lock);
	INIT_LIST_HEAD(&win->pages);
	INIT_DELAYED_WORK(&win->refresh, regwin_refresh);

	/* resource0 last: @win is freed on failure, no file names it yet */
	for (bar = 0; bar < PCI_STD_NUM_BARS && !ret; bar++) {
		if (bar != I915_MMIO_BAR && pdev->res_attr[bar])
			ret = regwin_replace(pdev, &pdev->res_attr[bar], NULL);
		if (!ret && pdev->res_attr_wc[bar])
			ret = regwin_replace(pdev, &pdev->res_attr_wc[bar],
					     NULL);
	}
	if (!ret)
		ret = regwin_replace(pdev, &pdev->res_attr[I915_MMIO_BAR], win);
	if (ret) {
		mutex_destroy(&win->lock);
		kfree(win);
		return ERR_PTR(ret);
	}
	return win;
}

/**
 * i915_sim_regwin_detach - forget a window whose function was removed
 * @win: the window, or NULL
 *
 * The PCI core has removed (and freed) the attribute: no mmap or fault
 * reaches @win any more.
 */
void i915_sim_regwin_detach(struct i915_sim_regwin *win)
{
	struct regwin_file *f, *n;

	if (!win)
		return;
	cancel_delayed_work_sync(&win->refresh);
	regwin_put_pages(win, true);
	list_for_each_entry_safe(f, n, &win->files, link) {
		list_del(&f->link);
		fput(f->file);
		kfree(f);
	}
	mutex_destroy(&win->lock);
	kfree(win);
}
