// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: software model - debugfs
 *
 * /sys/kernel/debug/i915_sim/<PCI slot>/ (e.g. i915_sim/ffff:00:02.0/) shows
 * one simulated GPU from the hardware side:
 *
 * - info: what is simulated, where, and counters (chipset flushes,
 *   interrupt-line assertions, refused GPU accesses), how DMA reaches
 *   the model, and its power: "power: on" or "off", and "power_cycles:
 *   N", the times it lost its state to D3hot or to the platform's S3.
 * - regs: every non-zero register as "offset value [name]", one a line.
 * - gtt: first line "mapped N scratch N invalid N entries N" (N mapped
 *   counts valid entries that do not point at the scratch page); then one
 *   line per run of entries: graphics address range, page count, and
 *   "invalid", "scratch", or the physical range and cache type of pages
 *   that are physically contiguous.
 * - raise_irq: write a hex mask of IIR bits; the model signals those
 *   events as its hardware would (ISR pulse, IIR latch unless IMR masks
 *   the bit, INTx if IER enables it).
 * - raise_error: write a hex mask of EIR bits; the model records those
 *   errors (ESR, EIR, and the master error interrupt unless EMR masks
 *   them).
 * - stolen: the host bridge and its GMCH control, the size of stolen
 *   memory, then "pattern: intact" while every dword still holds the
 *   firmware framebuffer's pattern (else "pattern: N dwords changed,
 *   first at 0xOFFSET") and "entries: intact" while every GTT entry of the
 *   stolen range points at its stolen page (else "entries: N changed,
 *   first INDEX").
 * - gtt_invalidate: write a hex graphics address; the model clears the
 *   valid bit of its GTT entry, as a driver writing a bad entry would, so
 *   that tests can make the GPU fault there.  The driver's next write of
 *   the entry repairs it.
 * - cs: the command streamer's state and counters (i915_sim_cs.c).
 * - drawrects: the drawing rectangles executed (i915_sim_3d.c).
 */

#include <linux/debugfs.h>
#include <linux/dma-map-ops.h>
#include <linux/fs.h>
#include <linux/pci.h>
#include <linux/seq_file.h>
#include <linux/swiotlb.h>

#include "i915_reg.h"
#include "i915_sim.h"
#include "i915_sim_regs.h"

static const struct {
	u32 reg;
	const char *name;
} sim_reg_names[] = {
	{ I915_PGTBL_CTL, "PGTBL_CTL" },
	{ I915_PGTBL_ER, "PGTBL_ER" },
	{ I915_RING_TAIL, "RING_TAIL" },
	{ I915_RING_HEAD, "RING_HEAD" },
	{ I915_RING_START, "RING_START" },
	{ I915_RING_CTL, "RING_CTL" },
	{ I915_HWS_PGA, "HWS_PGA" },
	{ I915_NOPID, "NOPID" },
	{ I915_HWSTAM, "HWSTAM" },
	{ I915_MI_MODE, "MI_MODE" },
	{ I915_IER, "IER" },
	{ I915_IIR, "IIR" },
	{ I915_IMR, "IMR" },
	{ I915_ISR, "ISR" },
	{ I915_EIR, "EIR" },
	{ I915_EMR, "EMR" },
	{ I915_ESR, "ESR" },
	{ I915_INSTPM, "INSTPM" },
	{ I915_MI_ARB_STATE, "MI_ARB_STATE" },
	{ I915_CACHE_MODE_0, "CACHE_MODE_0" },
	{ I915_GFX_FLSH_CNTL, "GFX_FLSH_CNTL" },
	{ I915_ECOSKPD, "ECOSKPD" },
	{ I915_DCC, "DCC" },
	{ I915_DCC2, "DCC2" },
	{ I915_CLKCFG, "CLKCFG" },
};

static const char *reg_name(struct i915_sim *sim, u32 reg)
{
	unsigned int i;

	if (reg == sim->eng.ipeir)
		return "IPEIR";
	if (reg == sim->eng.ipehr)
		return "IPEHR";
	if (reg == sim->eng.instdone)
		return "INSTDONE";
	if (reg == sim->eng.acthd)
		return "ACTHD";
	if (reg == sim->eng.dma_fadd)
		return "DMA_FADD";
	for (i = 0; i < ARRAY_SIZE(sim_reg_names); i++)
		if (sim_reg_names[i].reg == reg)
			return sim_reg_names[i].name;
	return "";
}

static int sim_info_show(struct seq_file *m, void *data)
{
	struct i915_sim *sim = m->private;
	struct device *dev = &sim->pdev->dev;
	u64 gtt_bytes = (u64)sim->gtt_entries * I915_GTT_PAGE_SIZE;

	seq_printf(m, "device: 8086:%04x %s (gen %u)\n",
		   sim->chip->device_id, sim->chip->name, sim->chip->gen);
	seq_printf(m, "pci: %s irq %u\n", pci_name(sim->pdev), sim->irq);
	seq_printf(m, "gtt: %u entries, %llu MiB, %s PTEs\n",
		   sim->gtt_entries, gtt_bytes >> 20,
		   sim->pte_hi ? "36-bit" : "32-bit");
	seq_printf(m, "aperture: %u MiB\n", I915_SIM_APERTURE_SIZE >> 20);
	seq_printf(m, "hws: %s\n", sim->hws_in_ggtt ? "ggtt" : "physical");
	seq_printf(m, "dma: %s, swiotlb %s\n",
		   get_dma_ops(dev) ? "dma_map_ops" : "direct",
		   is_swiotlb_active(dev) ? "active" : "inactive");
	seq_printf(m, "bound: %d\n", atomic_read(&sim->bound));
	seq_printf(m, "flushes: %ld\n", atomic_long_read(&sim->flushes));
	seq_printf(m, "irq_asserts: %ld\n",
		   atomic_long_read(&sim->irq_asserts));
	seq_printf(m, "gtt_faults: %ld\n", atomic_long_read(&sim->gtt_faults));
	seq_printf(m, "gtt_bounced: %ld\n",
		   atomic_long_read(&sim->gtt_bounced));
	seq_printf(m, "power: %s\n", READ_ONCE(sim->power_off) ? "off" : "on");
	seq_printf(m, "power_cycles: %ld\n",
		   atomic_long_read(&sim->power_cycles));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_info);

static int sim_stolen_show(struct seq_file *m, void *data)
{
	struct i915_sim *sim = m->private;
	struct i915_sim_stolen_state st;

	i915_sim_stolen_check(sim, &st);
	seq_printf(m, "host bridge: 8086:%04x gmch_ctrl 0x%04x\n",
		   sim->chip->host_bridge_id, sim->gmch_ctrl);
	seq_printf(m, "size: %lu\n", (unsigned long)sim->stolen_pages <<
		   PAGE_SHIFT);
	if (st.bad_dwords)
		seq_printf(m, "pattern: %lu dwords changed, first at 0x%lx\n",
			   st.bad_dwords, st.first_bad);
	else
		seq_puts(m, "pattern: intact\n");
	if (st.bad_entries)
		seq_printf(m, "entries: %u changed, first %u\n",
			   st.bad_entries, st.first_bad_entry);
	else
		seq_puts(m, "entries: intact\n");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_stolen);

static int sim_regs_show(struct seq_file *m, void *data)
{
	struct i915_sim *sim = m->private;
	u32 reg;

	for (reg = 0; reg < I915_MMIO_SIZE; reg += sizeof(u32)) {
		u32 val;

		/* Unlocked peek first: the register file is mostly zero. */
		if (!READ_ONCE(*i915_sim_reg(sim, reg)) && reg != I915_MI_MODE)
			continue;
		val = i915_sim_mmio_peek(sim, reg);
		if (val)
			seq_printf(m, "0x%05x 0x%08x %s\n", reg, val,
				   reg_name(sim, reg));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_regs);

enum gtt_kind { GTT_INVALID, GTT_SCRATCH, GTT_MAPPED };

/* A run of GTT entries of one kind (mapped: physically contiguous). */
struct gtt_run {
	unsigned int first;
	unsigned int count;
	enum gtt_kind kind;
	phys_addr_t phys;
	u32 type;
};

static enum gtt_kind gtt_classify(struct i915_sim *sim, u32 pte,
				  phys_addr_t *phys)
{
	if (i915_sim_pte_decode(sim, pte, phys))
		return GTT_INVALID;
	return *phys == sim->scratch_phys ? GTT_SCRATCH : GTT_MAPPED;
}

static bool gtt_run_extends(const struct gtt_run *run, enum gtt_kind kind,
			    phys_addr_t phys, u32 type)
{
	if (!run->count || run->kind != kind)
		return false;
	if (kind != GTT_MAPPED)
		return true;
	return run->type == type &&
	       phys == run->phys + (phys_addr_t)run->count * I915_GTT_PAGE_SIZE;
}

static void gtt_run_show(struct seq_file *m, const struct gtt_run *run)
{
	u64 start = (u64)run->first * I915_GTT_PAGE_SIZE;
	u64 end = start + (u64)run->count * I915_GTT_PAGE_SIZE - 1;

	if (!run->count)
		return;
	seq_printf(m, "0x%08llx-0x%08llx %7u ", start, end, run->count);
	if (run->kind == GTT_INVALID) {
		seq_puts(m, "invalid\n");
	} else if (run->kind == GTT_SCRATCH) {
		seq_puts(m, "scratch\n");
	} else {
		seq_printf(m, "phys 0x%09llx-0x%09llx %s\n", (u64)run->phys,
			   (u64)run->phys + end - start,
			   run->type == I915_PTE_SNOOPED ? "snooped" : "uncached");
	}
}

static void gtt_count(struct i915_sim *sim, unsigned int *counts)
{
	phys_addr_t phys;
	unsigned int i;

	for (i = 0; i < sim->gtt_entries; i++)
		counts[gtt_classify(sim, READ_ONCE(sim->gtt[i]), &phys)]++;
}

static int sim_gtt_show(struct seq_file *m, void *data)
{
	struct i915_sim *sim = m->private;
	unsigned int counts[GTT_MAPPED + 1] = { };
	struct gtt_run run = { };
	unsigned int i;

	gtt_count(sim, counts);
	seq_printf(m, "mapped %u scratch %u invalid %u entries %u\n",
		   counts[GTT_MAPPED], counts[GTT_SCRATCH], counts[GTT_INVALID],
		   sim->gtt_entries);

	for (i = 0; i < sim->gtt_entries; i++) {
		u32 pte = READ_ONCE(sim->gtt[i]);
		u32 type = pte & I915_PTE_TYPE_MASK;
		phys_addr_t phys;
		enum gtt_kind kind = gtt_classify(sim, pte, &phys);

		if (gtt_run_extends(&run, kind, phys, type)) {
			run.count++;
			continue;
		}
		gtt_run_show(m, &run);
		run = (struct gtt_run){ i, 1, kind, phys, type };
	}
	gtt_run_show(m, &run);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(sim_gtt);

/* raise_irq and raise_error: a hex mask of bits, handed to @raise. */
static ssize_t sim_raise_write(struct file *file, const char __user *ubuf,
			       size_t len,
			       void (*raise)(struct i915_sim *sim, u32 bits))
{
	u32 bits;
	int ret;

	ret = kstrtou32_from_user(ubuf, len, 16, &bits);
	if (ret)
		return ret;
	raise(file->private_data, bits);
	return len;
}

static ssize_t sim_raise_irq_write(struct file *file, const char __user *ubuf,
				   size_t len, loff_t *ppos)
{
	return sim_raise_write(file, ubuf, len, i915_sim_irq_raise);
}

static const struct file_operations sim_raise_irq_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = sim_raise_irq_write,
	.llseek = noop_llseek,
};

static ssize_t sim_raise_error_write(struct file *file,
				     const char __user *ubuf, size_t len,
				     loff_t *ppos)
{
	return sim_raise_write(file, ubuf, len, i915_sim_error);
}

static const struct file_operations sim_raise_error_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = sim_raise_error_write,
	.llseek = noop_llseek,
};

static ssize_t sim_gtt_invalidate_write(struct file *file,
					const char __user *ubuf, size_t len,
					loff_t *ppos)
{
	u32 addr;
	int ret;

	ret = kstrtou32_from_user(ubuf, len, 16, &addr);
	if (!ret)
		ret = i915_sim_gtt_invalidate(file->private_data, addr);
	return ret ? ret : len;
}

static const struct file_operations sim_gtt_invalidate_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = sim_gtt_invalidate_write,
	.llseek = noop_llseek,
};

/**
 * i915_sim_debugfs_init - create the GPU's directory of files
 * @sim: the model, on its PCI bus
 * @root: the module's directory, /sys/kernel/debug/i915_sim
 *
 * The directory is named after the GPU's PCI function.
 */
void i915_sim_debugfs_init(struct i915_sim *sim, struct dentry *root)
{
	struct dentry *dir = debugfs_create_dir(pci_name(sim->pdev), root);

	sim->debugfs = dir;
	debugfs_create_file("info", 0444, dir, sim, &sim_info_fops);
	debugfs_create_file("regs", 0444, dir, sim, &sim_regs_fops);
	debugfs_create_file("gtt", 0444, dir, sim, &sim_gtt_fops);
	debugfs_create_file("stolen", 0444, dir, sim, &sim_stolen_fops);
	debugfs_create_file("raise_irq", 0200, dir, sim, &sim_raise_irq_fops);
	debugfs_create_file("raise_error", 0200, dir, sim,
			    &sim_raise_error_fops);
	debugfs_create_file("gtt_invalidate", 0200, dir, sim,
			    &sim_gtt_invalidate_fops);
	i915_sim_cs_debugfs_init(sim, dir);
}

/**
 * i915_sim_debugfs_fini - remove the model's debugfs directory
 * @sim: the model
 *
 * Waits for readers and writers of its files to finish.
 */
void i915_sim_debugfs_fini(struct i915_sim *sim)
{
	debugfs_remove_recursive(sim->debugfs);
	sim->debugfs = NULL;
}
