// SPDX-License-Identifier: GPL-2.0
/*
 * DOC: debugfs
 *
 * Files under /sys/kernel/debug/dri/<minor>/ for tests and for people:
 * i915_capabilities (what the bound GPU is), i915_gem_objects (object
 * count and bytes first, then each object), i915_gem_drop_caches (write
 * a hex mask of DROP_* bits as igt does; reading returns the supported
 * mask), i915_gtt (the managed range and its allocations) and
 * i915_interrupt_info (interrupt counters and registers).
 */

#include <drm/drm_debugfs.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>
#include <linux/debugfs.h>
#include <linux/pci.h>
#include <linux/seq_file.h>

#include "i915_drv.h"
#include "i915_reg.h"

static struct i915_device *node_to_i915(struct seq_file *m)
{
	struct drm_info_node *node = m->private;

	return to_i915(node->minor->dev);
}

static int i915_capabilities_show(struct seq_file *m, void *unused)
{
	struct i915_device *i915 = node_to_i915(m);
	const struct i915_device_info *info = i915->info;
	struct pci_dev *pdev = to_pci_dev(i915->drm.dev);

	seq_printf(m, "pci id: 0x%04x\n", pdev->device);
	seq_printf(m, "revision: 0x%02x\n", pdev->revision);
	seq_printf(m, "gen: %u\n", info->gen);
	seq_printf(m, "is_g4x: %s\n", str_yes_no(info->is_g4x));
	seq_printf(m, "is_mobile: %s\n", str_yes_no(info->is_mobile));
	seq_printf(m, "has_snoop: %s\n", str_yes_no(info->has_snoop));
	seq_printf(m, "hws_needs_physical: %s\n",
		   str_yes_no(info->hws_needs_physical));
	seq_printf(m, "dma_bits: %u\n", info->dma_bits);
	seq_printf(m, "num_fences: %u\n", info->num_fences);
	seq_printf(m, "gtt_total: %llu\n", i915->hw.gtt_total);
	seq_printf(m, "aperture: %pa + %pa\n", &i915->hw.mappable_base,
		   &i915->hw.mappable_end);
	return 0;
}

static int i915_gem_objects_show(struct seq_file *m, void *unused)
{
	struct drm_printer p = drm_seq_file_printer(m);

	i915_gem_print_objects(node_to_i915(m), &p);
	return 0;
}

static int i915_gtt_show(struct seq_file *m, void *unused)
{
	struct i915_gtt *gtt = &node_to_i915(m)->gtt;
	struct drm_printer p = drm_seq_file_printer(m);

	mutex_lock(&gtt->lock);
	drm_printf(&p, "managed: 0x%llx-0x%llx of 0x%llx, pinned %llu bytes\n",
		   gtt->start, gtt->end, gtt->total, gtt->pinned_bytes);
	drm_mm_print(&gtt->mm, &p);
	mutex_unlock(&gtt->lock);
	return 0;
}

static int i915_interrupt_info_show(struct seq_file *m, void *unused)
{
	struct i915_device *i915 = node_to_i915(m);
	struct i915_hw *hw = &i915->hw;

	seq_printf(m, "interrupts: %d\n", atomic_read(&i915->irq_count));
	seq_printf(m, "user interrupts: %d\n", atomic_read(&i915->irq_user));
	seq_printf(m, "error interrupts: %d\n",
		   atomic_read(&i915->irq_errors));
	seq_printf(m, "IER: 0x%08x\n", i915_read(hw, I915_IER));
	seq_printf(m, "IIR: 0x%08x\n", i915_read(hw, I915_IIR));
	seq_printf(m, "IMR: 0x%08x\n", i915_read(hw, I915_IMR));
	seq_printf(m, "ISR: 0x%08x\n", i915_read(hw, I915_ISR));
	seq_printf(m, "EIR: 0x%08x\n", i915_read(hw, I915_EIR));
	seq_printf(m, "EMR: 0x%08x\n", i915_read(hw, I915_EMR));
	return 0;
}

static const struct drm_info_list i915_debugfs_list[] = {
	{ "i915_capabilities", i915_capabilities_show, 0 },
	{ "i915_gem_objects", i915_gem_objects_show, 0 },
	{ "i915_gtt", i915_gtt_show, 0 },
	{ "i915_interrupt_info", i915_interrupt_info_show, 0 },
};

static int i915_drop_caches_get(void *data, u64 *val)
{
	*val = i915_gem_drop_caches_supported();
	return 0;
}

static int i915_drop_caches_set(void *data, u64 val)
{
	return i915_gem_drop_caches(data, val);
}

DEFINE_DEBUGFS_ATTRIBUTE(i915_drop_caches_fops, i915_drop_caches_get,
			 i915_drop_caches_set, "0x%08llx\n");

/**
 * i915_debugfs_init - create the driver's debugfs files
 * @minor: the DRM minor whose debugfs directory receives them
 */
void i915_debugfs_init(struct drm_minor *minor)
{
	struct i915_device *i915 = to_i915(minor->dev);

	drm_debugfs_create_files(i915_debugfs_list,
				 ARRAY_SIZE(i915_debugfs_list),
				 minor->debugfs_root, minor);
	debugfs_create_file("i915_gem_drop_caches", 0644, minor->debugfs_root,
			    i915, &i915_drop_caches_fops);
}
