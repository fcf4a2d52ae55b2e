// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: debugfs
 *
 * Files under /sys/kernel/debug/dri/<minor>/ for tests and for people:
 * i915_capabilities (what the bound GPU is), i915_gem_objects (object
 * count and bytes first, then each object), i915_gem_drop_caches (write
 * a hex mask of DROP_* bits as igt does; reading returns the supported
 * mask), i915_gtt (the managed range and its allocations),
 * i915_interrupt_info (interrupt counters, whether the user interrupt is
 * armed and how often it was, and the registers), i915_requests
 * (the breadcrumb, the hang checks run so far and every request not yet
 * retired, with its age),
 * i915_ring (the ring's registers and the driver's view of it),
 * i915_shrinker_info (the shrinker's seeks and batch, as upstream, and
 * the objects it has claimed and unbound so far),
 * i915_swizzle_info (the bit-6 swizzling of X and Y tiling, as upstream
 * prints it, and "L-shaped memory detected" where detection failed),
 * i915_wa_registers (the context workarounds per engine, as upstream
 * prints them: none on Gen3/Gen4, so the file is empty),
 * i915_wedged (upstream's forced-reset knob: reads 1 while the device is
 * wedged; writing an engine mask with the render engine's bit resets the
 * GPU now, see i915_reset_debugfs_set()),
 * i915_exec_stats (the execbuffer path's lock backoffs and relocation
 * counters, see i915_reloc_stats()),
 * i915_error_state (the error state of the first hang, as sysfs
 * card<N>/error; writing anything clears it) and i915_gpu_info (an error
 * state captured when the file is opened, not kept): see
 * i915_gpu_error.c.
 */

#include <drm/drm_debugfs.h>
#include <drm/drm_file.h>
#include <drm/drm_print.h>
#include <linux/debugfs.h>
#include <linux/pci.h>
#include <linux/seq_file.h>
#include <linux/string_helpers.h>
#include <uapi/drm/i915_drm.h>

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
	seq_printf(m, "stolen_size: %llu\n", i915->hw.stolen_size);
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
	unsigned long arms;
	bool armed;

	seq_printf(m, "interrupts: %d\n", atomic_read(&i915->irq_count));
	seq_printf(m, "user interrupts: %d\n", atomic_read(&i915->irq_user));
	seq_printf(m, "error interrupts: %d\n",
		   atomic_read(&i915->irq_errors));
	spin_lock_irq(&i915->ring.fence_lock);
	armed = i915->irq_user_armed;
	arms = i915->irq_arms;
	spin_unlock_irq(&i915->ring.fence_lock);
	seq_printf(m, "user interrupt armed: %s\n", str_yes_no(armed));
	seq_printf(m, "user interrupt arms: %lu\n", arms);
	seq_printf(m, "IER: 0x%08x\n", i915_read(hw, I915_IER));
	seq_printf(m, "IIR: 0x%08x\n", i915_read(hw, I915_IIR));
	seq_printf(m, "IMR: 0x%08x\n", i915_read(hw, I915_IMR));
	seq_printf(m, "ISR: 0x%08x\n", i915_read(hw, I915_ISR));
	seq_printf(m, "EIR: 0x%08x\n", i915_read(hw, I915_EIR));
	seq_printf(m, "EMR: 0x%08x\n", i915_read(hw, I915_EMR));
	return 0;
}

static int i915_requests_show(struct seq_file *m, void *unused)
{
	struct drm_printer p = drm_seq_file_printer(m);

	i915_request_print(node_to_i915(m), &p);
	return 0;
}

/* Per generation: the ACTHD, IPEIR, IPEHR and INSTDONE offsets. */
static void ring_print_status(struct seq_file *m, struct i915_device *i915)
{
	struct i915_hw *hw = &i915->hw;
	bool gen3 = i915->info->gen < 4;

	seq_printf(m, "ACTHD: 0x%08x\n", i915_ring_acthd(i915));
	seq_printf(m, "IPEIR: 0x%08x\n",
		   i915_read(hw, gen3 ? I915_GEN3_IPEIR : I965_IPEIR));
	seq_printf(m, "IPEHR: 0x%08x\n",
		   i915_read(hw, gen3 ? I915_GEN3_IPEHR : I965_IPEHR));
	seq_printf(m, "INSTDONE: 0x%08x\n",
		   i915_read(hw, gen3 ? I915_GEN3_INSTDONE : I965_INSTDONE));
}

static int i915_ring_show(struct seq_file *m, void *unused)
{
	struct i915_device *i915 = node_to_i915(m);
	struct i915_ring *ring = &i915->ring;
	struct i915_hw *hw = &i915->hw;

	seq_printf(m, "size: %u, gtt offset: 0x%08x, driver tail: 0x%x\n",
		   ring->size, ring->gtt_offset, READ_ONCE(ring->tail));
	seq_printf(m, "START: 0x%08x\n", i915_read(hw, I915_RING_START));
	seq_printf(m, "HEAD: 0x%08x\n", i915_read(hw, I915_RING_HEAD));
	seq_printf(m, "TAIL: 0x%08x\n", i915_read(hw, I915_RING_TAIL));
	seq_printf(m, "CTL: 0x%08x\n", i915_read(hw, I915_RING_CTL));
	seq_printf(m, "HWS_PGA: 0x%08x\n", i915_read(hw, I915_HWS_PGA));
	seq_printf(m, "MI_MODE: 0x%08x\n", i915_read(hw, I915_MI_MODE));
	ring_print_status(m, i915);
	return 0;
}

/* Module-wide counters of the execbuffer path (tests read them). */
static int i915_exec_stats_show(struct seq_file *m, void *unused)
{
	u64 backoffs, repeats;

	i915_ww_stats(&backoffs, &repeats);
	seq_printf(m, "ww_backoffs: %llu\n", backoffs);
	seq_printf(m, "ww_repeats: %llu\n", repeats);
	i915_reloc_stats(m);
	return 0;
}

/*
 * Upstream's two lines, and how many objects the shrinker has claimed
 * and unbound so far (gem_exec_evict lru_order tells by them whether the
 * shrinker worked beside its eviction).
 */
static int i915_shrinker_info_show(struct seq_file *m, void *unused)
{
	struct i915_device *i915 = node_to_i915(m);

	seq_printf(m, "seeks = %d\n", i915->shrinker.seeks);
	seq_printf(m, "batch = %ld\n", i915->shrinker.batch);
	seq_printf(m, "claimed = %ld\n",
		   atomic_long_read(&i915->shrink_claimed));
	seq_printf(m, "unbound = %ld\n",
		   atomic_long_read(&i915->shrink_unbound));
	return 0;
}

static int i915_gem_fence_regs_show(struct seq_file *m, void *data)
{
	struct drm_printer p = drm_seq_file_printer(m);

	i915_fence_print(node_to_i915(m), &p);
	return 0;
}

static const char *swizzle_name(u32 swizzle)
{
	static const char *const names[] = {
		[I915_BIT_6_SWIZZLE_NONE] = "none",
		[I915_BIT_6_SWIZZLE_9] = "bit9",
		[I915_BIT_6_SWIZZLE_9_10] = "bit9/bit10",
		[I915_BIT_6_SWIZZLE_9_11] = "bit9/bit11",
		[I915_BIT_6_SWIZZLE_9_10_11] = "bit9/bit10/bit11",
		[I915_BIT_6_SWIZZLE_9_17] = "bit9/bit17",
		[I915_BIT_6_SWIZZLE_9_10_17] = "bit9/bit10/bit17",
	};

	return swizzle < ARRAY_SIZE(names) && names[swizzle] ?
	       names[swizzle] : "unknown";
}

/* As upstream's: igt's gem_tiled_swapping looks for "L-shaped" here. */
static int i915_swizzle_info_show(struct seq_file *m, void *unused)
{
	struct i915_device *i915 = node_to_i915(m);

	seq_printf(m, "bit6 swizzle for X-tiling = %s\n",
		   swizzle_name(i915_fence_swizzle(i915, I915_TILING_X)));
	seq_printf(m, "bit6 swizzle for Y-tiling = %s\n",
		   swizzle_name(i915_fence_swizzle(i915, I915_TILING_Y)));
	if (i915_fence_swizzle_unknown(i915))
		seq_puts(m, "L-shaped memory detected\n");
	return 0;
}

/*
 * Upstream prints, for each engine whose context workaround list is not
 * empty, "<engine>: Workarounds applied: <count>" and one "0x<reg>:
 * 0x<value>, mask: 0x<mask>" line per register.  Gen3/Gen4 have no
 * context workarounds (upstream's list starts at Gen6; these parts have
 * no logical context for them to live in) and this driver writes no
 * workaround register at all, so nothing is printed, as upstream prints
 * nothing on these parts: igt's gem_workarounds skips on the empty file.
 */
static int i915_wa_registers_show(struct seq_file *m, void *unused)
{
	return 0;
}

static const struct drm_info_list i915_debugfs_list[] = {
	{ "i915_capabilities", i915_capabilities_show, 0 },
	{ "i915_exec_stats", i915_exec_stats_show, 0 },
	{ "i915_gem_fence_regs", i915_gem_fence_regs_show, 0 },
	{ "i915_gem_objects", i915_gem_objects_show, 0 },
	{ "i915_gtt", i915_gtt_show, 0 },
	{ "i915_interrupt_info", i915_interrupt_info_show, 0 },
	{ "i915_requests", i915_requests_show, 0 },
	{ "i915_ring", i915_ring_show, 0 },
	{ "i915_shrinker_info", i915_shrinker_info_show, 0 },
	{ "i915_swizzle_info", i915_swizzle_info_show, 0 },
	{ "i915_wa_registers", i915_wa_registers_show, 0 },
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

static int i915_wedged_get(void *data, u64 *val)
{
	struct i915_device *i915 = data;

	*val = READ_ONCE(i915->ring.wedged);
	return 0;
}

static int i915_wedged_set(void *data, u64 val)
{
	return i915_reset_debugfs_set(data, val);
}

DEFINE_DEBUGFS_ATTRIBUTE(i915_wedged_fops, i915_wedged_get, i915_wedged_set,
			 "%llu\n");

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
	debugfs_create_file("i915_wedged", 0644, minor->debugfs_root, i915,
			    &i915_wedged_fops);
	debugfs_create_file("i915_error_state", 0644, minor->debugfs_root,
			    i915, &i915_error_state_fops);
	debugfs_create_file("i915_gpu_info", 0444, minor->debugfs_root, i915,
			    &i915_gpu_info_fops);
}
