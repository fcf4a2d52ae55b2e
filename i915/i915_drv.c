// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: driver glue
 *
 * Module entry points, the PCI driver that binds Gen3/Gen4 GPUs (real ones,
 * or the devices of the software model, i915_sim.ko, which look the same),
 * the DRM driver description with its ioctl table, bring-up and teardown
 * of the per-device subsystems in one ordered list, and system sleep.
 *
 * Sleep follows upstream's sequence for these generations.  suspend (also
 * freeze and poweroff for hibernation): refuse new work, wait for the GPU
 * to finish what is queued, disable interrupts, stop the ring, point the
 * GTT at scratch and save PCI config space.  suspend_late: disable the
 * device and put it in D3hot (not for hibernation: Gen3/Gen4 stay in D0
 * there, as upstream keeps them).  The GPU then has lost its registers
 * and its GTT (D3hot resets it, and S3 cuts its power).  resume_early: D0,
 * enable, bus mastering.  resume (thaw, restore): every bound object's
 * GTT entries, the interrupt masks, the ring with its GTT entries and
 * the status page, then work is taken again and the hang check restarts.
 * System memory - objects, the ring's contents, the status page - keeps
 * its contents throughout.
 */

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_prime.h>
#include <uapi/drm/i915_drm.h>
#include <drm/i915_pciids.h>
#include <linux/module.h>
#include <linux/pci.h>

#include "i915_drv.h"
#include "i915_reg.h"

static const struct i915_device_info i915g_info = {
	.gen = 3, .dma_bits = 32, .num_fences = 8,
	.has_snoop = true, .hws_needs_physical = true, .y_tile_512 = true,
	.unfenced_needs_alignment = true,
	.incoherent_ggtt = true,
};

static const struct i915_device_info i915gm_info = {
	.gen = 3, .is_mobile = true, .dma_bits = 32, .num_fences = 8,
	.has_snoop = true, .hws_needs_physical = true, .y_tile_512 = true,
};

static const struct i915_device_info i945g_info = {
	.gen = 3, .dma_bits = 32, .num_fences = 16,
	.has_snoop = true, .hws_needs_physical = true,
	.unfenced_needs_alignment = true,
};

static const struct i915_device_info i945gm_info = {
	.gen = 3, .is_mobile = true, .dma_bits = 32, .num_fences = 16,
	.has_snoop = true, .hws_needs_physical = true,
	.unfenced_needs_alignment = true,
};

static const struct i915_device_info g33_info = {
	.gen = 3, .dma_bits = 36, .num_fences = 16, .has_snoop = true,
	.swizzle_drb = true,
};

static const struct i915_device_info pnv_g_info = {
	.gen = 3, .dma_bits = 36, .num_fences = 16, .has_snoop = true,
};

static const struct i915_device_info pnv_m_info = {
	.gen = 3, .is_mobile = true, .dma_bits = 36, .num_fences = 16,
	.has_snoop = true,
};

static const struct i915_device_info i965g_info = {
	.gen = 4, .dma_bits = 36, .num_fences = 16,
	.hws_needs_physical = true, .swizzle_drb = true,
};

static const struct i915_device_info i965gm_info = {
	.gen = 4, .is_mobile = true, .dma_bits = 36, .num_fences = 16,
	.hws_needs_physical = true,
};

static const struct i915_device_info g45_info = {
	.gen = 4, .is_g4x = true, .dma_bits = 36, .num_fences = 16,
	.has_snoop = true, .swizzle_drb = true,
};

static const struct i915_device_info gm45_info = {
	.gen = 4, .is_g4x = true, .is_mobile = true, .dma_bits = 36,
	.num_fences = 16, .has_snoop = true,
};

static const struct pci_device_id i915_pci_ids[] = {
	INTEL_I915G_IDS(&i915g_info),
	INTEL_I915GM_IDS(&i915gm_info),
	INTEL_I945G_IDS(&i945g_info),
	INTEL_I945GM_IDS(&i945gm_info),
	INTEL_G33_IDS(&g33_info),
	INTEL_PINEVIEW_G_IDS(&pnv_g_info),
	INTEL_PINEVIEW_M_IDS(&pnv_m_info),
	INTEL_I965G_IDS(&i965g_info),
	INTEL_I965GM_IDS(&i965gm_info),
	INTEL_GM45_IDS(&gm45_info),
	INTEL_G45_IDS(&g45_info),
	{ }
};
MODULE_DEVICE_TABLE(pci, i915_pci_ids);

/*
 * The object and GTT ioctls, which may reach the hardware (GTT entries,
 * the ring, registers), run inside drm_dev_enter(): once
 * i915_pci_remove() has unplugged the DRM device they answer -ENODEV, and
 * the remove waits for those already running before it tears anything
 * down.  Their waits for the GPU are
 * bounded by the hang check, which runs until the teardown.  GETPARAM
 * reads static facts; BUSY, WAIT and THROTTLE only read fences, which the
 * remove signals before the ring goes: they stay outside.
 */
#define I915_HW_IOCTL(fn)						\
static int fn##_hw(struct drm_device *dev, void *data,			\
		   struct drm_file *file)				\
{									\
	int idx, ret;							\
									\
	if (!drm_dev_enter(dev, &idx))					\
		return -ENODEV;						\
	ret = fn(dev, data, file);					\
	drm_dev_exit(idx);						\
	return ret;							\
}

I915_HW_IOCTL(i915_gem_init_ioctl)
I915_HW_IOCTL(i915_gem_execbuffer_ioctl)
I915_HW_IOCTL(i915_gem_execbuffer2_ioctl)
I915_HW_IOCTL(i915_gem_pin_ioctl)
I915_HW_IOCTL(i915_gem_unpin_ioctl)
I915_HW_IOCTL(i915_gem_set_caching_ioctl)
I915_HW_IOCTL(i915_gem_get_caching_ioctl)
I915_HW_IOCTL(i915_gem_entervt_ioctl)
I915_HW_IOCTL(i915_gem_leavevt_ioctl)
I915_HW_IOCTL(i915_gem_create_ioctl)
I915_HW_IOCTL(i915_gem_create_ext_ioctl)
I915_HW_IOCTL(i915_gem_pread_ioctl)
I915_HW_IOCTL(i915_gem_pwrite_ioctl)
I915_HW_IOCTL(i915_gem_mmap_ioctl)
I915_HW_IOCTL(i915_gem_mmap_offset_ioctl)
I915_HW_IOCTL(i915_gem_set_domain_ioctl)
I915_HW_IOCTL(i915_gem_sw_finish_ioctl)
I915_HW_IOCTL(i915_gem_get_aperture_ioctl)
I915_HW_IOCTL(i915_gem_set_tiling_ioctl)
I915_HW_IOCTL(i915_gem_get_tiling_ioctl)
I915_HW_IOCTL(i915_gem_userptr_ioctl)
I915_HW_IOCTL(i915_reg_read_ioctl)

static const struct drm_ioctl_desc i915_ioctls[] = {
	DRM_IOCTL_DEF_DRV(I915_GETPARAM, i915_getparam_ioctl,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_INIT, i915_gem_init_ioctl_hw,
			  DRM_AUTH | DRM_MASTER | DRM_ROOT_ONLY),
	DRM_IOCTL_DEF_DRV(I915_GEM_EXECBUFFER, i915_gem_execbuffer_ioctl_hw,
			  DRM_AUTH),
	DRM_IOCTL_DEF_DRV(I915_GEM_EXECBUFFER2_WR, i915_gem_execbuffer2_ioctl_hw,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_PIN, i915_gem_pin_ioctl_hw,
			  DRM_AUTH | DRM_ROOT_ONLY),
	DRM_IOCTL_DEF_DRV(I915_GEM_UNPIN, i915_gem_unpin_ioctl_hw,
			  DRM_AUTH | DRM_ROOT_ONLY),
	DRM_IOCTL_DEF_DRV(I915_GEM_BUSY, i915_gem_busy_ioctl,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_SET_CACHING, i915_gem_set_caching_ioctl_hw,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_GET_CACHING, i915_gem_get_caching_ioctl_hw,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_THROTTLE, i915_gem_throttle_ioctl,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_ENTERVT, i915_gem_entervt_ioctl_hw,
			  DRM_AUTH | DRM_MASTER | DRM_ROOT_ONLY),
	DRM_IOCTL_DEF_DRV(I915_GEM_LEAVEVT, i915_gem_leavevt_ioctl_hw,
			  DRM_AUTH | DRM_MASTER | DRM_ROOT_ONLY),
	DRM_IOCTL_DEF_DRV(I915_GEM_CREATE, i915_gem_create_ioctl_hw,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_PREAD, i915_gem_pread_ioctl_hw,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_PWRITE, i915_gem_pwrite_ioctl_hw,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_MMAP, i915_gem_mmap_ioctl_hw,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_SET_DOMAIN, i915_gem_set_domain_ioctl_hw,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_SW_FINISH, i915_gem_sw_finish_ioctl_hw,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_GET_APERTURE, i915_gem_get_aperture_ioctl_hw,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_WAIT, i915_gem_wait_ioctl,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_SET_TILING, i915_gem_set_tiling_ioctl_hw,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_GET_TILING, i915_gem_get_tiling_ioctl_hw,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_REG_READ, i915_reg_read_ioctl_hw,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GET_RESET_STATS, i915_reset_stats_ioctl,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_CONTEXT_GETPARAM,
			  i915_context_getparam_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_CONTEXT_SETPARAM,
			  i915_context_setparam_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_CONTEXT_CREATE_EXT,
			  i915_context_create_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_CONTEXT_DESTROY,
			  i915_context_destroy_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_VM_CREATE, i915_vm_create_ioctl,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_VM_DESTROY, i915_vm_destroy_ioctl,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_QUERY, i915_query_ioctl, DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_MMAP_OFFSET, i915_gem_mmap_offset_ioctl_hw,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_MADVISE, i915_gem_madvise_ioctl,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_CREATE_EXT, i915_gem_create_ext_ioctl_hw,
			  DRM_RENDER_ALLOW),
	DRM_IOCTL_DEF_DRV(I915_GEM_USERPTR, i915_gem_userptr_ioctl_hw,
			  DRM_RENDER_ALLOW),
};

static const struct file_operations i915_fops = {
	.owner = THIS_MODULE,
	.open = drm_open,
	.release = drm_release,
	.unlocked_ioctl = drm_ioctl,
	.compat_ioctl = i915_compat_ioctl,
	.poll = drm_poll,
	.read = drm_read,
	.llseek = noop_llseek,
	.mmap = i915_gem_mmap,
};

static const struct drm_driver i915_drm_driver = {
	.driver_features = DRIVER_GEM | DRIVER_RENDER | DRIVER_SYNCOBJ |
			   DRIVER_SYNCOBJ_TIMELINE,
	.open = i915_gem_open,
	.postclose = i915_gem_postclose,
	.debugfs_init = i915_debugfs_init,
	.prime_handle_to_fd = drm_gem_prime_handle_to_fd,
	.prime_fd_to_handle = drm_gem_prime_fd_to_handle,
	.gem_prime_import = i915_gem_prime_import,
	.ioctls = i915_ioctls,
	.num_ioctls = ARRAY_SIZE(i915_ioctls),
	.fops = &i915_fops,
	.name = DRIVER_NAME,
	.desc = DRIVER_DESC,
	.date = DRIVER_DATE,
	.major = DRIVER_MAJOR,
	.minor = DRIVER_MINOR,
	.patchlevel = DRIVER_PATCHLEVEL,
};

/*
 * Bring-up of one GPU: each subsystem's init in order; the failure path
 * and i915_device_fini() undo them in exactly the reverse order.
 */
static int i915_device_init(struct i915_device *i915, struct pci_dev *pdev)
{
	int ret;

	spin_lock_init(&i915->obj_lock);
	INIT_LIST_HEAD(&i915->objects);
	i915_gem_free_init(i915);
	i915_reset_init(i915);
	i915_gem_userptr_init(i915);

	ret = i915_error_init(i915);
	if (ret)
		return ret;

	ret = i915_hw_init(&i915->hw, pdev);
	if (ret)
		return ret;
	i915_timestamp_init(i915);

	ret = i915_gtt_init(i915);
	if (ret)
		goto err_hw;

	ret = i915_fence_init(i915);
	if (ret)
		goto err_gtt;

	ret = i915_ring_init(i915);
	if (ret)
		goto err_fence;

	ret = i915_request_init(i915);
	if (ret)
		goto err_ring;

	ret = i915_irq_init(i915);
	if (ret)
		goto err_request;

	ret = i915_gem_init(i915);
	if (ret)
		goto err_irq;

	return 0;

err_irq:
	i915_irq_fini(i915);
err_request:
	i915_request_fini(i915);
err_ring:
	i915_ring_fini(i915);
err_fence:
	i915_fence_fini(i915);
err_gtt:
	i915_gtt_fini(i915);
err_hw:
	i915_hw_fini(&i915->hw);
	return ret;
}

static void i915_device_fini(struct i915_device *i915)
{
	i915_request_quiesce(i915);
	i915_gem_fini(i915);
	i915_irq_fini(i915);
	i915_request_fini(i915);
	i915_ring_fini(i915);
	i915_fence_fini(i915);
	i915_gtt_fini(i915);
	i915_hw_fini(&i915->hw);
}

static int i915_pci_setup(struct pci_dev *pdev,
			  const struct i915_device_info *info)
{
	int ret;

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;

	/*
	 * No claim on the BARs, as upstream makes none: a busy region makes
	 * the PCI core refuse the sysfs mmap of resourceN (iomem_is_exclusive()
	 * under CONFIG_IO_STRICT_DEVMEM, which Debian sets), and igt and
	 * intel_reg read the registers through a mapping of resource0 beside
	 * the driver.  Upstream's one claim is on stolen memory, for its
	 * stolen objects; this driver has none (stolen memory stays the
	 * firmware's framebuffer, outside the managed GTT range).
	 */
	pci_set_master(pdev);
	/*
	 * The GTT takes any page anywhere: binding maps an object's runs of
	 * contiguous pages as one segment each, whatever their length (the
	 * PCI core's default caps a segment at 64 KiB), as upstream does.
	 */
	ret = dma_set_max_seg_size(&pdev->dev, UINT_MAX);
	if (ret)
		return ret;
	return dma_set_mask_and_coherent(&pdev->dev,
					 DMA_BIT_MASK(info->dma_bits));
}

static int i915_pci_probe(struct pci_dev *pdev, const struct pci_device_id *ent)
{
	const struct i915_device_info *info = (void *)ent->driver_data;
	struct i915_device *i915;
	int ret;

	ret = i915_pci_setup(pdev, info);
	if (ret)
		return ret;

	i915 = devm_drm_dev_alloc(&pdev->dev, &i915_drm_driver,
				  struct i915_device, drm);
	if (IS_ERR(i915))
		return PTR_ERR(i915);
	i915->info = info;
	pci_set_drvdata(pdev, i915);

	ret = i915_device_init(i915, pdev);
	if (ret)
		return ret;

	ret = drm_dev_register(&i915->drm, 0);
	if (ret)
		goto err_fini;
	i915_error_register(i915);

	drm_info(&i915->drm, "Gen%u GPU %04x:%04x bound, %llu MiB GTT\n",
		 info->gen, pdev->vendor, pdev->device,
		 i915->hw.gtt_total >> 20);
	return 0;

err_fini:
	i915_device_fini(i915);
	return ret;
}

/*
 * Unbind (sysfs, hot unplug, rmmod of i915 or of the model, i915_sim):
 * from drm_dev_unplug() on, every new ioctl answers -ENODEV, none is left
 * inside drm_dev_enter() and debugfs is gone; the GPU then finishes what
 * is queued, or after a bounded wait is wedged with a reset
 * (i915_request_quiesce(): what is left completes with -EIO), so every
 * waiter returns, and the device is torn down.  Clients keep their files,
 * objects and mappings until they close them; the DRM device (and with it
 * this struct) goes with the last of them, or with the last fence that
 * escaped (i915_request_escape()).
 *
 * Once this returns nothing calls the hardware backend again, whose code
 * and state may be gone (the model's module unloads right after): the
 * hang check and the retire worker are cancelled, the interrupt handler
 * is freed, every object is unbound from the GTT (their frees write no
 * entry) and escaped fences read only the status page, in system memory.
 * No reference is held on the backend's module.
 */
static void i915_pci_remove(struct pci_dev *pdev)
{
	struct i915_device *i915 = pci_get_drvdata(pdev);

	i915_error_unregister(i915);
	drm_dev_unplug(&i915->drm);
	i915_device_fini(i915);
}

static int i915_pm_suspend(struct device *kdev)
{
	struct pci_dev *pdev = to_pci_dev(kdev);
	struct i915_device *i915 = pci_get_drvdata(pdev);

	i915_request_suspend(i915);
	i915_irq_suspend(i915);
	i915_ring_suspend(i915);
	i915_gtt_suspend(i915);
	pci_save_state(pdev);
	return 0;
}

/* Hibernation: Gen3/Gen4 stay in D0 while the image is made and saved. */
static int i915_pm_freeze_late(struct device *kdev)
{
	pci_disable_device(to_pci_dev(kdev));
	return 0;
}

static int i915_pm_suspend_late(struct device *kdev)
{
	struct pci_dev *pdev = to_pci_dev(kdev);
	int ret;

	pci_disable_device(pdev);
	ret = pci_set_power_state(pdev, PCI_D3hot);
	if (ret)
		pci_dbg(pdev, "staying in D0: %d\n", ret);
	return 0;
}

static int i915_pm_resume_early(struct device *kdev)
{
	struct pci_dev *pdev = to_pci_dev(kdev);
	int ret;

	ret = pci_set_power_state(pdev, PCI_D0);
	if (ret)
		return ret;
	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	pci_set_master(pdev);
	return 0;
}

static int i915_pm_resume(struct device *kdev)
{
	struct i915_device *i915 = pci_get_drvdata(to_pci_dev(kdev));

	i915_gtt_resume(i915);
	i915_fence_restore(i915);
	i915_irq_resume(i915);
	if (i915_ring_resume(i915))
		i915_request_wedge(i915);
	i915_request_resume(i915);
	return 0;
}

static const struct dev_pm_ops i915_pm_ops = {
	.suspend = i915_pm_suspend,
	.suspend_late = i915_pm_suspend_late,
	.resume_early = i915_pm_resume_early,
	.resume = i915_pm_resume,
	.freeze = i915_pm_suspend,
	.freeze_late = i915_pm_freeze_late,
	.thaw_early = i915_pm_resume_early,
	.thaw = i915_pm_resume,
	.poweroff = i915_pm_suspend,
	.poweroff_late = i915_pm_freeze_late,
	.restore_early = i915_pm_resume_early,
	.restore = i915_pm_resume,
};

static struct pci_driver i915_pci_driver = {
	.name = DRIVER_NAME,
	.id_table = i915_pci_ids,
	.probe = i915_pci_probe,
	.remove = i915_pci_remove,
	.driver.pm = pm_sleep_ptr(&i915_pm_ops),
};

static int __init i915_init(void)
{
	int ret;

	ret = i915_request_module_init();
	if (ret)
		return ret;

	ret = pci_register_driver(&i915_pci_driver);
	if (ret)
		i915_request_module_exit();
	return ret;
}

static void __exit i915_exit(void)
{
	pci_unregister_driver(&i915_pci_driver);
	i915_request_module_exit();
}

module_init(i915_init);
module_exit(i915_exit);

MODULE_AUTHOR("i915gem developers");
MODULE_DESCRIPTION(DRIVER_DESC);
MODULE_LICENSE("GPL");
