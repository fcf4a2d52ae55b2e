// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: software model - the register window of user space
 *
 * On a real machine root reads the GPU's registers by mapping its MMIO BAR
 * through sysfs (/sys/bus/pci/devices/<slot>/resource0, as libpciaccess's
 * pci_device_map_range() does for igt and intel_reg): the PCI core maps
 * the BAR's physical range.  The model's BARs have nothing behind them
 * (its window is claimed busy and exclusive, so the PCI core refuses to
 * map any of them), so the model presents resource0 itself: when the
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
 * elsewhere.  The other BARs (aperture, Gen3's GTT) keep the core's
 * files, which refuse to map them.
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
 * nothing pins them.
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
 * @refresh: zaps the mapped pages while @files is not empty
 */
struct i915_sim_regwin {
	struct i915_sim *sim;
	struct pci_dev *pdev;
	resource_size_t bar_len;
	u32 gtt_offset;
	struct mutex lock; /* see above */
	struct list_head files;
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
	/* The page table takes this reference; a zap frees the page. */
	vmf->page = page;
	return 0;
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
	if (!list_empty(&win->files))
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

/**
 * i915_sim_regwin_attach - present the register window as @pdev's resource0
 * @sim: the model
 * @pdev: the GPU's function, added (its sysfs resource files exist)
 *
 * Called under pci_lock_rescan_remove(), so that the function is neither
 * removed nor its files made again meanwhile.
 *
 * Return: the window, or an ERR_PTR(): the core's resource0 then stays,
 * refusing to map the BAR.
 */
struct i915_sim_regwin *i915_sim_regwin_attach(struct i915_sim *sim,
					       struct pci_dev *pdev)
{
	struct bin_attribute *old = pdev->res_attr[I915_MMIO_BAR];
	struct i915_sim_regwin *win;
	struct bin_attribute *attr;
	char *name;
	int ret;

	if (!old)
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
	INIT_DELAYED_WORK(&win->refresh, regwin_refresh);

	/* As the PCI core allocates it: the name after the attribute. */
	attr = kzalloc(sizeof(*attr) + sizeof("resource0"), GFP_KERNEL);
	if (!attr) {
		ret = -ENOMEM;
		goto err_win;
	}
	name = (char *)(attr + 1);
	snprintf(name, sizeof("resource0"), "resource%d", I915_MMIO_BAR);
	sysfs_bin_attr_init(attr);
	attr->attr.name = name;
	attr->attr.mode = 0600;
	attr->size = win->bar_len;
	attr->mmap = regwin_mmap;
	attr->private = win;

	sysfs_remove_bin_file(&pdev->dev.kobj, old);
	ret = sysfs_create_bin_file(&pdev->dev.kobj, attr);
	if (ret) {
		if (sysfs_create_bin_file(&pdev->dev.kobj, old)) {
			pdev->res_attr[I915_MMIO_BAR] = NULL;
			kfree(old);
		}
		goto err_attr;
	}
	pdev->res_attr[I915_MMIO_BAR] = attr;
	kfree(old);
	return win;

err_attr:
	kfree(attr);
err_win:
	kfree(win);
	return ERR_PTR(ret);
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
	list_for_each_entry_safe(f, n, &win->files, link) {
		list_del(&f->link);
		fput(f->file);
		kfree(f);
	}
	mutex_destroy(&win->lock);
	kfree(win);
}
