// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: software model - the virtual PCI bus
 *
 * Presents one simulated GPU as PCI function 00:02.0 (8086:<id>, class
 * 0x030000) on a root bus of its own, in the highest free PCI domain not
 * above 0xffff (the first GPU gets ffff, the second fffe, ...), under a
 * platform device "i915_sim.<n>.auto".  The function's platform data is
 * the model's &struct i915_hw_backend, set before the function is added:
 * that is how the driver tells it from real silicon.  The bus answers config
 * cycles from a 256-byte config space per the rules below, owns one memory
 * window that the PCI core assigns the BARs from, and routes INTA# to a
 * one-interrupt IRQ domain, so the PCI driver probes it exactly like real
 * hardware.  Removing the bus unbinds the driver: a hot unplug.  So does
 * removing the function alone through sysfs (.../remove), and a rescan
 * (/sys/bus/pci/rescan) then finds the same GPU again, powered as it was:
 * a notifier on the PCI bus type gives the new function the backend and
 * makes it the model's, before any driver can bind it.  The firmware
 * framebuffer (below) goes with the first function and does not come
 * back, as on a machine whose firmware has run once.  x86's bus
 * data (domain, node) lives in the host bridge's private area, freed by
 * the PCI core with the last reference to the bus, because a driver may
 * hold the GPU's pci_dev, and through it the bus, after the model is
 * gone.
 *
 * Config space: COMMAND starts at 0 (x86's VGA fixups then leave the
 * device alone); BARs size and decode as on the real part (Gen3: BAR 0
 * MMIO, BAR 2 aperture, BAR 3 GTT; Gen4: 64-bit BAR 0 MMIO + GTT, 64-bit
 * BAR 2 aperture); one capability, power management (no MSI); GDRST
 * (0xc0) resets the render engine (i915_sim_engine_reset()) and reports
 * completion in the generation's style once the engine has stopped: the
 * status bit on 915/945/965 while the enable bit is held, the enable bit
 * clearing itself on G33, Pineview and G4x.  A media-domain reset (G4x)
 * leaves the render engine alone.
 *
 * Power: PMCSR takes D0 and D3hot (D1 and D2 writes are ignored).  D3hot
 * powers the GPU down (i915_sim_power_off(): registers, GTT and engine
 * state lost); back to D0, No_Soft_Reset being clear, the function resets:
 * config space returns to its power-on values (BARs and COMMAND cleared)
 * and the PCI core restores what it saved.  The platform device is the
 * motherboard: its PM domain cuts the GPU's power after the last device
 * suspended (suspend_noirq) when the system enters S3 (not for
 * suspend-to-idle or standby, nor for a hibernation image's freeze, but
 * for its poweroff), and gives it back first thing on resume, config
 * space at power-on values; while it is off config reads return all
 * ones.
 *
 * INTA# reaches pdev->irq through the host bridge's map_irq (the PCI core
 * calls it before probe); pdev->pin is cleared after the scan so that
 * ACPI does not try to route the pin (it would log "can't derive
 * routing").  A kernel without ACPI (the debug lane) routes through x86's
 * PIRQ/MP-table code instead, which reads the pin from config space at
 * pci_enable_device(), logs "can't find IRQ for PCI INT A" and leaves
 * pdev->irq alone, as long as the MP table has no entry for bus 0 slot 2
 * (true under QEMU with SeaBIOS and qboot).
 *
 * The host bridge at 00:00.0 (8086:<the part's bridge id>, class
 * 0x060000) exists for its config space: GMCH control (0x52) carries the
 * firmware's GMS choice, which sizes stolen memory (i915_sim_gtt.c), and
 * drivers read it there as on the chipset.  Its config space is read-only
 * (the firmware locked GMCH control).  No driver binds the bridge: its
 * driver_override names no driver (and without one it is not added at
 * all).  Debian builds agpgart-intel into the kernel, and bound to a
 * bridge with an Intel GMCH id it would find the simulated GPU through
 * intel_gmch_probe() and keep a reference to it in intel-gtt's global
 * state.
 *
 * The firmware framebuffer: before any driver binds, the bus claims the
 * start of the aperture (BAR 2) the size of stolen memory, busy, named
 * %I915_SIM_FB_NAME, as efifb, vesafb or simpledrm claim the console's
 * framebuffer on a real machine.
 *
 * Nothing is behind the BARs, so the memory window is claimed busy and
 * exclusive: no one maps any of it (sysfs resourceN, /proc/bus/pci,
 * /dev/mem) and no one claims a region in it (request_mem_region() fails
 * -EBUSY, where on a real machine only a claim overlapping the firmware
 * framebuffer would; upstream's i915, and this driver, claim none).
 * User space reads the registers through the model's own resource0
 * (i915_sim_regwin.c), which the function gets once it is added, and
 * again after a rescan.
 */

#include <linux/irq.h>
#include <linux/irqdomain.h>
#include <linux/log2.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/pm_domain.h>
#include <linux/slab.h>
#include <linux/suspend.h>

#include "i915_reg.h"
#include "i915_sim.h"
#include "i915_sim_regs.h"

#define SIM_NAME	"i915_sim"
#define I915_SIM_FB_NAME	"i915_sim firmware framebuffer"

/**
 * struct i915_sim_pci - the virtual PCI bus of one simulated GPU
 * @sim: the model
 * @domain: the bus's PCI domain
 * @host: platform device, parent of the host bridge
 * @busn: bus number range [00-ff]
 * @window: memory window, claimed in iomem_resource
 * @fwnode: name of @irq_domain
 * @irq_domain: one interrupt: the GPU's INTA#
 * @bus: the root bus
 * @cfg_lock: protects @cfg; taken inside the PCI core's config lock (and
 *	without it by x86's direct accessors); &i915_sim.lock nests inside it
 * @cfg: the GPU's config space
 * @wmask: per config byte, the bits software may change
 * @cfg_power_on: @cfg as it is at power-on
 * @cold: the platform cut the GPU's power (under @cfg_lock)
 * @pm_domain: the platform's power management of @host (S3 cuts power)
 * @bridge_cfg: the host bridge's config space (read-only)
 * @fb: the firmware framebuffer's claim on the aperture, or NULL
 * @fb_pdev: the function whose BAR 2 holds @fb
 * @regwin: the function's register window for user space, or NULL
 *	(under pci_lock_rescan_remove())
 * @regwin_work: gives a function that a rescan found its register window
 * @nb: on the PCI bus type: follows the GPU's function across a removal
 *	and a rescan (called under pci_lock_rescan_remove())
 */
struct i915_sim_pci {
	struct i915_sim *sim;
	int domain;
	struct platform_device *host;
	struct resource busn;
	struct resource window;
	struct fwnode_handle *fwnode;
	struct irq_domain *irq_domain;
	struct pci_bus *bus;
	raw_spinlock_t cfg_lock;
	u8 cfg[I915_SIM_CFG_SIZE];
	u8 wmask[I915_SIM_CFG_SIZE];
	u8 cfg_power_on[I915_SIM_CFG_SIZE];
	bool cold;
	struct dev_pm_domain pm_domain;
	u8 bridge_cfg[I915_SIM_CFG_SIZE];
	struct resource *fb;
	struct pci_dev *fb_pdev;
	struct i915_sim_regwin *regwin;
	struct work_struct regwin_work;
	struct notifier_block nb;
};

#define SIM_PMCSR	(I915_SIM_PM_CAP + PCI_PM_CTRL)
#define SIM_PM_D0	0
#define SIM_PM_D3HOT	3

/**
 * struct i915_sim_host - the host bridge's private area
 * @sysdata: x86 bus data: domain and node, everything else NULL
 * @pci: the bus, while it exists
 */
struct i915_sim_host {
	struct pci_sysdata sysdata;
	struct i915_sim_pci *pci;
};

static struct i915_sim_pci *bus_to_sim_pci(const struct pci_bus *bus)
{
	return container_of(to_pci_sysdata(bus), struct i915_sim_host,
			    sysdata)->pci;
}

/* Store @size bytes of @val little-endian at @where. */
static void cfg_put(u8 *space, unsigned int where, u32 val, unsigned int size)
{
	unsigned int i;

	for (i = 0; i < size; i++)
		space[where + i] = val >> (8 * i);
}

static u32 cfg_get(const u8 *space, unsigned int where, unsigned int size)
{
	unsigned int i;
	u32 val = 0;

	for (i = 0; i < size; i++)
		val |= (u32)space[where + i] << (8 * i);
	return val;
}

static void cfg_init_bar(struct i915_sim_pci *pci, unsigned int bar, u64 size,
			 u32 flags)
{
	unsigned int where = PCI_BASE_ADDRESS_0 + bar * sizeof(u32);
	u64 mask = ~(size - 1);

	cfg_put(pci->cfg, where, flags, sizeof(u32));
	cfg_put(pci->wmask, where,
		lower_32_bits(mask) & PCI_BASE_ADDRESS_MEM_MASK, sizeof(u32));
	if (flags & PCI_BASE_ADDRESS_MEM_TYPE_64)
		cfg_put(pci->wmask, where + sizeof(u32), upper_32_bits(mask),
			sizeof(u32));
}

static void cfg_init_bars(struct i915_sim_pci *pci)
{
	struct i915_sim *sim = pci->sim;
	u64 gtt_bytes = (u64)sim->gtt_entries * I915_SIM_PTE_BYTES;
	u32 mem64 = PCI_BASE_ADDRESS_MEM_TYPE_64;
	u32 gtt_offset;

	if (sim->chip->gen == 3) {
		cfg_init_bar(pci, I915_MMIO_BAR, I915_MMIO_SIZE, 0);
		cfg_init_bar(pci, I915_APERTURE_BAR, I915_SIM_APERTURE_SIZE,
			     PCI_BASE_ADDRESS_MEM_PREFETCH);
		cfg_init_bar(pci, I915_GEN3_GTT_BAR,
			     roundup_pow_of_two(gtt_bytes), 0);
		return;
	}

	/* Gen4: MMIO and GTT share 64-bit BAR 0. */
	gtt_offset = sim->chip->flags & I915_SIM_G4X ? I915_G4X_GTT_OFFSET :
						       I915_GEN4_GTT_OFFSET;
	cfg_init_bar(pci, I915_MMIO_BAR,
		     roundup_pow_of_two(gtt_offset + gtt_bytes), mem64);
	cfg_init_bar(pci, I915_APERTURE_BAR, I915_SIM_APERTURE_SIZE,
		     mem64 | PCI_BASE_ADDRESS_MEM_PREFETCH);
}

static void cfg_init(struct i915_sim_pci *pci)
{
	u16 id = pci->sim->chip->device_id;

	cfg_put(pci->cfg, PCI_VENDOR_ID, PCI_VENDOR_ID_INTEL, 2);
	cfg_put(pci->cfg, PCI_DEVICE_ID, id, 2);
	cfg_put(pci->wmask, PCI_COMMAND, I915_SIM_COMMAND_WMASK, 2);
	cfg_put(pci->cfg, PCI_REVISION_ID, I915_SIM_REVISION, 1);
	cfg_put(pci->cfg, PCI_CLASS_PROG, PCI_CLASS_DISPLAY_VGA << 8, 3);
	cfg_put(pci->wmask, PCI_CACHE_LINE_SIZE, 0xff, 1);
	cfg_put(pci->wmask, PCI_LATENCY_TIMER, 0xff, 1);
	cfg_put(pci->cfg, PCI_HEADER_TYPE, PCI_HEADER_TYPE_NORMAL, 1);
	cfg_init_bars(pci);
	cfg_put(pci->cfg, PCI_SUBSYSTEM_VENDOR_ID, PCI_VENDOR_ID_INTEL, 2);
	cfg_put(pci->cfg, PCI_SUBSYSTEM_ID, id, 2);
	cfg_put(pci->wmask, PCI_INTERRUPT_LINE, 0xff, 1);
	cfg_put(pci->cfg, PCI_INTERRUPT_PIN, I915_SIM_INTX_PIN, 1);
	cfg_put(pci->wmask, I915_PCI_GDRST,
		I915_GDRST_RESET_ENABLE | I915_GDRST_DOMAIN_MASK, 1);

	cfg_put(pci->cfg, PCI_STATUS, PCI_STATUS_CAP_LIST, 2);
	cfg_put(pci->cfg, PCI_CAPABILITY_LIST, I915_SIM_PM_CAP, 1);
	cfg_put(pci->cfg, I915_SIM_PM_CAP + PCI_CAP_LIST_ID, PCI_CAP_ID_PM, 1);
	cfg_put(pci->cfg, I915_SIM_PM_CAP + PCI_PM_PMC, I915_SIM_PMC, 2);
	cfg_put(pci->wmask, SIM_PMCSR, PCI_PM_CTRL_STATE_MASK, 2);
	memcpy(pci->cfg_power_on, pci->cfg, sizeof(pci->cfg));
}

/* Power is back, or D3hot went to D0: the function resets. */
static void cfg_power_on_locked(struct i915_sim_pci *pci)
{
	lockdep_assert_held(&pci->cfg_lock);
	memcpy(pci->cfg, pci->cfg_power_on, sizeof(pci->cfg));
	WRITE_ONCE(pci->sim->pci_command, 0);
	i915_sim_power_on(pci->sim);
}

static void cfg_pmcsr_written(struct i915_sim_pci *pci, u32 old)
{
	u32 state = cfg_get(pci->cfg, SIM_PMCSR, 2) & PCI_PM_CTRL_STATE_MASK;

	old &= PCI_PM_CTRL_STATE_MASK;
	if (state == old)
		return;
	if (state != SIM_PM_D0 && state != SIM_PM_D3HOT) {
		/* D1 and D2 are not supported: the write changes nothing. */
		cfg_put(pci->cfg, SIM_PMCSR, old, 2);
		return;
	}
	if (state == SIM_PM_D3HOT)
		i915_sim_power_off(pci->sim);
	else
		cfg_power_on_locked(pci);
}

static void cfg_init_bridge(struct i915_sim_pci *pci)
{
	const struct i915_sim_chip *chip = pci->sim->chip;
	u8 *cfg = pci->bridge_cfg;

	cfg_put(cfg, PCI_VENDOR_ID, PCI_VENDOR_ID_INTEL, 2);
	cfg_put(cfg, PCI_DEVICE_ID, chip->host_bridge_id, 2);
	cfg_put(cfg, PCI_COMMAND, PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER, 2);
	cfg_put(cfg, PCI_REVISION_ID, I915_SIM_REVISION, 1);
	cfg_put(cfg, PCI_CLASS_PROG, PCI_CLASS_BRIDGE_HOST << 8, 3);
	cfg_put(cfg, PCI_HEADER_TYPE, PCI_HEADER_TYPE_NORMAL, 1);
	cfg_put(cfg, PCI_SUBSYSTEM_VENDOR_ID, PCI_VENDOR_ID_INTEL, 2);
	cfg_put(cfg, PCI_SUBSYSTEM_ID, chip->host_bridge_id, 2);
	cfg_put(cfg, I915_GMCH_CTRL, pci->sim->gmch_ctrl, 2);
}

static bool cfg_hits(int where, int size, unsigned int reg)
{
	return reg >= where && reg < where + size;
}

static bool gdrst_status_style(struct i915_sim_pci *pci)
{
	return !(pci->sim->chip->flags & (I915_SIM_G33 | I915_SIM_G4X));
}

/* The render engine is in the domain a GDRST request names. */
static bool gdrst_resets_render(u8 gdrst)
{
	return (gdrst & I915_GDRST_DOMAIN_MASK) != I915_GDRST_DOMAIN_MEDIA;
}

/*
 * GDRST written.  Setting the enable bit asserts the reset of the named
 * domain (full and render stop the render engine; the model has no media
 * engine, so a media reset has nothing to stop).  915/945/965 hold the
 * reset while the enable bit stays set and report it in the status bit
 * (cfg_gdrst_update()); clearing the enable bit releases it and the status
 * bit.  G33, Pineview and G4x end the reset themselves and clear the enable
 * bit once it is done.
 */
static void cfg_gdrst_written(struct i915_sim_pci *pci, u8 old)
{
	u8 *gdrst = &pci->cfg[I915_PCI_GDRST];

	lockdep_assert_held(&pci->cfg_lock);
	if (*gdrst & I915_GDRST_RESET_ENABLE) {
		if (!(old & I915_GDRST_RESET_ENABLE) &&
		    gdrst_resets_render(*gdrst))
			i915_sim_engine_reset(pci->sim);
		return;
	}
	*gdrst &= ~I915_GDRST_RESET_STATUS;
	if ((old & I915_GDRST_RESET_ENABLE) && gdrst_resets_render(old))
		i915_sim_engine_reset_end(pci->sim);
}

/*
 * Before GDRST is read: a reset in progress completes once the engine has
 * stopped, i.e. once no command fetched before the reset is still being
 * executed.
 */
static void cfg_gdrst_update(struct i915_sim_pci *pci)
{
	u8 *gdrst = &pci->cfg[I915_PCI_GDRST];
	bool render = gdrst_resets_render(*gdrst);

	lockdep_assert_held(&pci->cfg_lock);
	if (!(*gdrst & I915_GDRST_RESET_ENABLE) ||
	    (render && !i915_sim_engine_reset_done(pci->sim)))
		return;
	if (gdrst_status_style(pci)) {
		*gdrst |= I915_GDRST_RESET_STATUS;
		return;
	}
	*gdrst &= ~I915_GDRST_RESET_ENABLE;
	if (render)
		i915_sim_engine_reset_end(pci->sim);
}

static bool cfg_present(struct pci_bus *bus, unsigned int devfn, int where,
			int size)
{
	return !bus->number && (devfn == I915_SIM_GPU_DEVFN ||
				devfn == I915_SIM_HOST_BRIDGE_DEVFN) &&
	       where >= 0 && where + size <= I915_SIM_CFG_SIZE;
}

static int sim_cfg_read(struct pci_bus *bus, unsigned int devfn, int where,
			int size, u32 *val)
{
	struct i915_sim_pci *pci = bus_to_sim_pci(bus);
	unsigned long flags;

	if (!cfg_present(bus, devfn, where, size)) {
		PCI_SET_ERROR_RESPONSE(val);
		return PCIBIOS_DEVICE_NOT_FOUND;
	}

	raw_spin_lock_irqsave(&pci->cfg_lock, flags);
	if (devfn == I915_SIM_GPU_DEVFN && !pci->cold &&
	    cfg_hits(where, size, I915_PCI_GDRST))
		cfg_gdrst_update(pci);
	if (devfn != I915_SIM_GPU_DEVFN)
		*val = cfg_get(pci->bridge_cfg, where, size);
	else if (pci->cold)
		PCI_SET_ERROR_RESPONSE(val);
	else
		*val = cfg_get(pci->cfg, where, size);
	raw_spin_unlock_irqrestore(&pci->cfg_lock, flags);
	return PCIBIOS_SUCCESSFUL;
}

static int sim_cfg_write(struct pci_bus *bus, unsigned int devfn, int where,
			 int size, u32 val)
{
	struct i915_sim_pci *pci = bus_to_sim_pci(bus);
	unsigned long flags;
	u32 pmcsr;
	u8 gdrst;
	int i;

	if (!cfg_present(bus, devfn, where, size))
		return PCIBIOS_DEVICE_NOT_FOUND;
	if (devfn != I915_SIM_GPU_DEVFN)
		return PCIBIOS_SUCCESSFUL;

	raw_spin_lock_irqsave(&pci->cfg_lock, flags);
	if (pci->cold)
		goto out_unlock;
	pmcsr = cfg_get(pci->cfg, SIM_PMCSR, 2);
	gdrst = pci->cfg[I915_PCI_GDRST];
	for (i = 0; i < size; i++) {
		u8 wmask = pci->wmask[where + i];
		u8 byte = val >> (8 * i);

		pci->cfg[where + i] = (pci->cfg[where + i] & ~wmask) |
				      (byte & wmask);
	}
	if (cfg_hits(where, size, PCI_COMMAND))
		WRITE_ONCE(pci->sim->pci_command,
			   cfg_get(pci->cfg, PCI_COMMAND, 2));
	if (cfg_hits(where, size, I915_PCI_GDRST))
		cfg_gdrst_written(pci, gdrst);
	if (cfg_hits(where, size, SIM_PMCSR))
		cfg_pmcsr_written(pci, pmcsr);
out_unlock:
	raw_spin_unlock_irqrestore(&pci->cfg_lock, flags);
	return PCIBIOS_SUCCESSFUL;
}

static struct pci_ops i915_sim_pci_ops = {
	.read = sim_cfg_read,
	.write = sim_cfg_write,
};

static bool domain_in_use(int domain)
{
	struct pci_bus *bus = NULL;

	while ((bus = pci_find_next_bus(bus)))
		if (pci_domain_nr(bus) == domain)
			return true;
	return false;
}

static int pick_domain(void)
{
	int domain;

	for (domain = I915_SIM_DOMAIN_MAX; domain > 0; domain--)
		if (!domain_in_use(domain))
			return domain;
	return -EBUSY;
}

/*
 * Claim the window's CPU range: the highest free window-aligned range of
 * physical address space, above 4 GiB.  Nothing is behind it, so no one
 * may map it: the claim is busy and exclusive, which makes the PCI core
 * refuse an mmap of any BAR's sysfs resourceN or /proc/bus/pci file, and
 * /dev/mem refuse the range (iomem_is_exclusive(); only iomem=relaxed on
 * the command line lifts that).  The PCI core still assigns the BARs from
 * it (allocate_resource() looks at ranges, not flags), but every
 * request_mem_region() in it fails -EBUSY.  The driver reaches the model
 * through the hardware seam only; user space reads the registers through
 * the model's own resource0 (i915_sim_regwin.c).
 */
static int window_claim(struct i915_sim_pci *pci)
{
	resource_size_t size = I915_SIM_WINDOW_SIZE;
	resource_size_t start;

	pci->window.name = SIM_NAME;
	pci->window.flags = IORESOURCE_MEM | IORESOURCE_BUSY |
			    IORESOURCE_EXCLUSIVE;
	start = ALIGN_DOWN(iomem_resource.end - size + 1, size);
	for (; start >= I915_SIM_WINDOW_CPU_MIN; start -= size) {
		pci->window.start = start;
		pci->window.end = start + size - 1;
		if (!request_resource(&iomem_resource, &pci->window))
			return 0;
	}
	return -ENOSPC;
}

static struct i915_sim_pci *dev_to_sim_pci(struct device *dev)
{
	return container_of(dev->pm_domain, struct i915_sim_pci, pm_domain);
}

/* The platform removes the GPU's power: every device is suspended. */
static int sim_platform_power_cut(struct device *dev)
{
	struct i915_sim_pci *pci = dev_to_sim_pci(dev);
	unsigned long flags;

	raw_spin_lock_irqsave(&pci->cfg_lock, flags);
	pci->cold = true;
	i915_sim_power_off(pci->sim);
	raw_spin_unlock_irqrestore(&pci->cfg_lock, flags);
	return 0;
}

static int sim_platform_power_restore(struct device *dev)
{
	struct i915_sim_pci *pci = dev_to_sim_pci(dev);
	unsigned long flags;

	raw_spin_lock_irqsave(&pci->cfg_lock, flags);
	if (pci->cold) {
		pci->cold = false;
		cfg_power_on_locked(pci);
	}
	raw_spin_unlock_irqrestore(&pci->cfg_lock, flags);
	return 0;
}

/* Only S3 removes power; suspend-to-idle and standby keep it. */
static int sim_platform_suspend_noirq(struct device *dev)
{
	if (pm_suspend_target_state != PM_SUSPEND_MEM)
		return 0;
	return sim_platform_power_cut(dev);
}

static const struct dev_pm_ops sim_platform_pm_ops = {
	.suspend_noirq = sim_platform_suspend_noirq,
	.resume_noirq = sim_platform_power_restore,
	.poweroff_noirq = sim_platform_power_cut,
	.restore_noirq = sim_platform_power_restore,
};

static int sim_irq_map(struct irq_domain *d, unsigned int virq,
		       irq_hw_number_t hw)
{
	static struct irq_chip chip = { .name = SIM_NAME };

	irq_set_chip_and_handler(virq, &chip, handle_simple_irq);
	irq_set_chip_data(virq, d->host_data);
	return 0;
}

static const struct irq_domain_ops sim_irq_domain_ops = {
	.map = sim_irq_map,
};

static int sim_irq_create(struct i915_sim_pci *pci)
{
	pci->fwnode = irq_domain_alloc_named_id_fwnode(SIM_NAME, pci->domain);
	if (!pci->fwnode)
		return -ENOMEM;

	pci->irq_domain = irq_domain_create_linear(pci->fwnode, 1,
						   &sim_irq_domain_ops, pci);
	if (!pci->irq_domain)
		goto err_fwnode;

	pci->sim->irq = irq_create_mapping(pci->irq_domain, 0);
	if (!pci->sim->irq)
		goto err_domain;
	return 0;

err_domain:
	irq_domain_remove(pci->irq_domain);
err_fwnode:
	irq_domain_free_fwnode(pci->fwnode);
	return -ENOMEM;
}

static void sim_irq_destroy(struct i915_sim_pci *pci)
{
	unsigned int irq = pci->sim->irq;

	/* Later raises see no line; let one in flight finish. */
	WRITE_ONCE(pci->sim->irq, 0);
	irq_work_sync(&pci->sim->irq_work);
	irq_dispose_mapping(irq);
	irq_domain_remove(pci->irq_domain);
	irq_domain_free_fwnode(pci->fwnode);
}

static int sim_map_irq(const struct pci_dev *dev, u8 slot, u8 pin)
{
	return bus_to_sim_pci(dev->bus)->sim->irq;
}

/* Register the host bridge and scan its bus; nothing is added yet. */
static int bus_create(struct i915_sim_pci *pci)
{
	resource_size_t offset = pci->window.start - I915_SIM_WINDOW_BUS_BASE;
	struct pci_host_bridge *bridge;
	struct i915_sim_host *host;
	int ret;

	bridge = pci_alloc_host_bridge(sizeof(*host));
	if (!bridge)
		return -ENOMEM;
	host = pci_host_bridge_priv(bridge);
	host->sysdata.domain = pci->domain;
	host->sysdata.node = first_online_node;
	host->pci = pci;

	pci->busn.name = SIM_NAME;
	pci->busn.start = 0;
	pci->busn.end = I915_SIM_BUS_MAX;
	pci->busn.flags = IORESOURCE_BUS;
	pci_add_resource(&bridge->windows, &pci->busn);
	pci_add_resource_offset(&bridge->windows, &pci->window, offset);
	bridge->dev.parent = &pci->host->dev;
	bridge->sysdata = &host->sysdata;
	bridge->ops = &i915_sim_pci_ops;
	bridge->map_irq = sim_map_irq;

	pci_lock_rescan_remove();
	ret = pci_scan_root_bus_bridge(bridge);
	pci_unlock_rescan_remove();
	if (ret) {
		/* Also frees the window list. */
		put_device(&bridge->dev);
		return ret;
	}
	WRITE_ONCE(pci->bus, bridge->bus);
	return 0;
}

static void bus_remove(struct i915_sim_pci *pci)
{
	struct pci_host_bridge *bridge = to_pci_host_bridge(pci->bus->bridge);

	pci_lock_rescan_remove();
	pci_stop_root_bus(pci->bus);
	pci_remove_root_bus(pci->bus);
	pci_unlock_rescan_remove();
	/*
	 * pci_remove_root_bus() only deletes the host bridge; our reference
	 * goes, and the last one frees it with our bus data.
	 */
	put_device(&bridge->dev);
}

/*
 * The console's firmware framebuffer claims the start of the aperture, as
 * efifb and friends do, busy.  Nothing is lost without it: the claim only
 * imitates a real machine.  The window is busy (window_claim()), so the
 * claim is made inside the BAR's resource, where request_mem_region()
 * would have put it.
 */
static void fb_claim(struct i915_sim_pci *pci, struct pci_dev *pdev)
{
	resource_size_t size = (resource_size_t)pci->sim->stolen_pages <<
			       PAGE_SHIFT;
	struct resource *bar = &pdev->resource[I915_APERTURE_BAR];

	if (!size || resource_size(bar) < size)
		return;
	pci->fb = __request_region(bar, bar->start, size, I915_SIM_FB_NAME, 0);
	pci->fb_pdev = pdev;
}

static void fb_release(struct i915_sim_pci *pci)
{
	if (!pci->fb)
		return;
	__release_region(&pci->fb_pdev->resource[I915_APERTURE_BAR],
			 pci->fb->start, resource_size(pci->fb));
	pci->fb = NULL;
	pci->fb_pdev = NULL;
}

/* Replace the function's resource0 with the model's register window. */
static void regwin_attach(struct i915_sim_pci *pci, struct pci_dev *pdev)
{
	struct i915_sim_regwin *win = i915_sim_regwin_attach(pci->sim, pdev);

	if (IS_ERR(win)) {
		pci_warn(pdev, "no register window for user space: %pe\n",
			 win);
		return;
	}
	pci->regwin = win;
}

/*
 * A rescan found the function again: once the rescan is over its sysfs
 * files exist (the PCI core makes them after the notifier's ADD_DEVICE).
 */
static void regwin_work(struct work_struct *work)
{
	struct i915_sim_pci *pci = container_of(work, struct i915_sim_pci,
						regwin_work);

	pci_lock_rescan_remove();
	if (!pci->regwin && pci->sim->pdev &&
	    pci->sim->pdev->res_attr[I915_MMIO_BAR])
		regwin_attach(pci, pci->sim->pdev);
	pci_unlock_rescan_remove();
}

/*
 * Add the host bridge with a driver_override no driver has, also across
 * a rescan; without one it stays scanned but not added.
 */
static void bridge_add(struct i915_sim_pci *pci)
{
	struct pci_dev *bridge = pci_get_slot(pci->bus,
					      I915_SIM_HOST_BRIDGE_DEVFN);

	if (!bridge)
		return;
	bridge->driver_override = kstrdup(SIM_NAME, GFP_KERNEL);
	if (bridge->driver_override)
		pci_bus_add_device(bridge);
	pci_dev_put(bridge);
}

/*
 * The GPU's function went (sysfs remove; the driver is already unbound) or
 * came back (a rescan; no driver bound yet, BARs still unassigned).  The
 * claim on the old BAR must go before the PCI core frees the BAR; the new
 * function gets the backend the first one had.
 */
static int sim_pci_notify(struct notifier_block *nb, unsigned long action,
			  void *data)
{
	struct i915_sim_pci *pci = container_of(nb, struct i915_sim_pci, nb);
	struct pci_dev *pdev = to_pci_dev(data);

	/* NULL during the first scan: bus_populate() does that one. */
	if (!READ_ONCE(pci->bus) || pdev->bus != pci->bus ||
	    pdev->devfn != I915_SIM_GPU_DEVFN)
		return NOTIFY_DONE;

	switch (action) {
	case BUS_NOTIFY_DEL_DEVICE:
		if (pdev != pci->sim->pdev)
			break;
		fb_release(pci);
		/* The PCI core removed the function's sysfs files. */
		i915_sim_regwin_detach(pci->regwin);
		pci->regwin = NULL;
		break;
	case BUS_NOTIFY_ADD_DEVICE:
		if (pdev == pci->sim->pdev)
			break;
		pdev->pin = 0;
		pdev->dev.platform_data = &pci->sim->backend;
		pci->sim->pdev->dev.platform_data = NULL;
		pci_dev_put(pci->sim->pdev);
		pci->sim->pdev = pci_dev_get(pdev);
		schedule_work(&pci->regwin_work);
		break;
	}
	return NOTIFY_OK;
}

/*
 * Hold the GPU, give it the model's backend, assign BARs, let the firmware
 * framebuffer claim its part of the aperture, then add the devices:
 * drivers probe the GPU (not the host bridge, see above).
 */
static int bus_populate(struct i915_sim_pci *pci)
{
	struct pci_dev *pdev;

	pci_lock_rescan_remove();
	pdev = pci_get_slot(pci->bus, I915_SIM_GPU_DEVFN);
	if (!pdev) {
		pci_unlock_rescan_remove();
		return -ENODEV;
	}
	/* The line is routed by map_irq; keep ACPI from trying to. */
	pdev->pin = 0;
	pdev->dev.platform_data = &pci->sim->backend;
	pci->sim->pdev = pdev;
	pci_assign_unassigned_bus_resources(pci->bus);
	fb_claim(pci, pdev);
	bridge_add(pci);
	pci_bus_add_device(pdev);
	regwin_attach(pci, pdev);
	pci_unlock_rescan_remove();
	return 0;
}

static int sim_pci_setup(struct i915_sim_pci *pci)
{
	int ret;

	ret = pick_domain();
	if (ret < 0)
		return ret;
	pci->domain = ret;

	pci->host = platform_device_register_simple(SIM_NAME,
						    PLATFORM_DEVID_AUTO,
						    NULL, 0);
	if (IS_ERR(pci->host))
		return PTR_ERR(pci->host);
	pci->pm_domain.ops = sim_platform_pm_ops;
	dev_pm_domain_set(&pci->host->dev, &pci->pm_domain);

	ret = window_claim(pci);
	if (ret)
		goto err_host;

	ret = sim_irq_create(pci);
	if (ret)
		goto err_window;

	pci->nb.notifier_call = sim_pci_notify;
	ret = bus_register_notifier(&pci_bus_type, &pci->nb);
	if (ret)
		goto err_irq;

	ret = bus_create(pci);
	if (ret)
		goto err_nb;

	ret = bus_populate(pci);
	if (ret)
		goto err_bus;
	return 0;

err_bus:
	fb_release(pci);
	bus_remove(pci);
	i915_sim_regwin_detach(pci->regwin);
	pci->regwin = NULL;
err_nb:
	bus_unregister_notifier(&pci_bus_type, &pci->nb);
err_irq:
	sim_irq_destroy(pci);
err_window:
	release_resource(&pci->window);
err_host:
	dev_pm_domain_set(&pci->host->dev, NULL);
	platform_device_unregister(pci->host);
	return ret;
}

/**
 * i915_sim_pci_create - present the model on a new virtual PCI bus
 * @sim: the model
 *
 * Drivers may probe the GPU before this returns; @sim must be complete.
 *
 * Return: 0 on success or a negative errno.
 */
int i915_sim_pci_create(struct i915_sim *sim)
{
	struct i915_sim_pci *pci;
	int ret;

	pci = kzalloc(sizeof(*pci), GFP_KERNEL);
	if (!pci)
		return -ENOMEM;

	pci->sim = sim;
	raw_spin_lock_init(&pci->cfg_lock);
	INIT_WORK(&pci->regwin_work, regwin_work);
	cfg_init(pci);
	cfg_init_bridge(pci);
	sim->pci = pci;

	ret = sim_pci_setup(pci);
	if (ret) {
		sim->pci = NULL;
		kfree(pci);
	}
	return ret;
}

/**
 * i915_sim_pci_destroy - remove the virtual PCI bus
 * @sim: the model
 *
 * Unbinds any driver from the GPU, then releases the bus, the interrupt
 * and the window.
 */
void i915_sim_pci_destroy(struct i915_sim *sim)
{
	struct i915_sim_pci *pci = sim->pci;

	bus_unregister_notifier(&pci_bus_type, &pci->nb);
	/* Before the function goes: the work reads its sysfs files. */
	cancel_work_sync(&pci->regwin_work);
	fb_release(pci);
	bus_remove(pci);
	/* bus_remove() removed the function's files: the mappings fault. */
	i915_sim_regwin_detach(pci->regwin);
	pci->regwin = NULL;
	/* A driver may hold the pci_dev longer: nothing of ours in it. */
	sim->pdev->dev.platform_data = NULL;
	pci_dev_put(sim->pdev);
	sim->pdev = NULL;
	sim_irq_destroy(pci);
	release_resource(&pci->window);
	dev_pm_domain_set(&pci->host->dev, NULL);
	platform_device_unregister(pci->host);
	sim->pci = NULL;
	kfree(pci);
}
