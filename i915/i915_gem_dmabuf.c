// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: other drivers' dma-bufs (PRIME import)
 *
 * PRIME_FD_TO_HANDLE of a dma-buf, as upstream's i915_gem_prime_import():
 * one this device exported gives back its own object; any other (another
 * GPU's, vgem's, a camera's) becomes an object whose backing store is the
 * dma-buf.  The device is attached to the dma-buf at import; the
 * attachment is mapped (a scatterlist of DMA addresses for this device)
 * by the first page pin, that is when the object is first bound, and
 * stays mapped while the object is bound; the last unpin unmaps it, and
 * freeing the object detaches.  The GTT takes the exporter's addresses as
 * they are (i915_gtt.c).
 *
 * The object shares the dma-buf's dma_resv: execbuffer waits for the
 * exporter's fences (write fences before a read, all before a write)
 * before the batch is queued, as for any foreign fence, and its own
 * fences go into the same dma_resv, where the exporter and other
 * importers see them; the object counts as exported, so those fences may
 * outlive the device (see i915_request_escape()).  GTT entries are
 * uncached, and the CPU caches are written back when the attachment is
 * mapped, as upstream does, so that what the exporter's CPU wrote is in
 * memory.
 *
 * Such an object has no shmfs file and maybe no struct pages: the CPU
 * mmap ioctl answers -ENXIO as upstream, and pread and pwrite go through
 * the exporter's kernel mapping (dma_buf_vmap()) where upstream goes
 * through the GTT aperture; the bytes are the same.
 */

#include <drm/drm_cache.h>
#include <drm/drm_prime.h>
#include <drm/drm_print.h>
#include <uapi/drm/i915_drm.h>
#include <linux/dma-buf.h>
#include <linux/dma-resv.h>
#include <linux/iosys-map.h>
#include <linux/pagemap.h>
#include <linux/uaccess.h>
#include <asm/smp.h>

#include "i915_drv.h"

MODULE_IMPORT_NS(DMA_BUF);

static int dmabuf_get_pages(struct i915_gem_object *obj)
{
	struct sg_table *sgt;

	sgt = dma_buf_map_attachment(obj->base.import_attach,
				     DMA_BIDIRECTIONAL);
	if (IS_ERR(sgt))
		return PTR_ERR(sgt);

	/* The GPU does not snoop: what CPUs wrote must be in memory. */
	wbinvd_on_all_cpus();
	obj->sgt = sgt;
	return 0;
}

static void dmabuf_put_pages(struct i915_gem_object *obj)
{
	dma_buf_unmap_attachment(obj->base.import_attach, obj->sgt,
				 DMA_BIDIRECTIONAL);
	obj->sgt = NULL;
}

static void dmabuf_release(struct i915_gem_object *obj)
{
	/* Detaches and drops the import's reference to the dma-buf. */
	drm_prime_gem_destroy(&obj->base, NULL);
}

static const struct i915_gem_object_ops i915_gem_dmabuf_ops = {
	.name = "dma-buf",
	.get_pages = dmabuf_get_pages,
	.put_pages = dmabuf_put_pages,
	.release = dmabuf_release,
};

/**
 * i915_gem_prime_import - the driver's &drm_driver.gem_prime_import
 * @dev: DRM device
 * @dma_buf: the dma-buf to import
 *
 * Return: this device's own object for a dma-buf it exported (with a new
 * reference), a new object on @dma_buf for any other, or an ERR_PTR():
 * -EINVAL for a size that is not whole pages, -E2BIG for more than
 * INT_MAX pages, the exporter's errno from the attachment, -ENOMEM.
 */
struct drm_gem_object *i915_gem_prime_import(struct drm_device *dev,
					     struct dma_buf *dma_buf)
{
	struct dma_buf_attachment *attach;
	struct i915_gem_object *obj;
	struct drm_gem_object *gem;

	/* Exported by a GEM driver through the core: priv is its object. */
	if (dma_buf->ops->release == drm_gem_dmabuf_release) {
		gem = dma_buf->priv;
		if (gem->dev == dev) {
			drm_gem_object_get(gem);
			return gem;
		}
	}

	if (!dma_buf->size || !PAGE_ALIGNED(dma_buf->size))
		return ERR_PTR(-EINVAL);
	if (dma_buf->size >> PAGE_SHIFT > INT_MAX)
		return ERR_PTR(-E2BIG);

	attach = dma_buf_attach(dma_buf, dev->dev);
	if (IS_ERR(attach))
		return ERR_CAST(attach);
	get_dma_buf(dma_buf);

	obj = i915_gem_object_create_private(to_i915(dev), dma_buf->size,
					     &i915_gem_dmabuf_ops,
					     dma_buf->resv);
	if (IS_ERR(obj)) {
		dma_buf_detach(dma_buf, attach);
		dma_buf_put(dma_buf);
		return ERR_CAST(obj);
	}
	obj->base.import_attach = attach;
	/* Coherent memory, outside any cache, as upstream says. */
	obj->read_domains = I915_GEM_DOMAIN_GTT;
	obj->write_domain = 0;
	/* Its fences are the dma-buf's: they leave the driver. */
	obj->exported = true;
	return &obj->base;
}

/**
 * i915_gem_dmabuf_copy - pread or pwrite of an imported dma-buf
 * @obj: an imported object, no lock held, its domains prepared
 *	(i915_gem_object_prepare_read() or _write())
 * @offset: first byte of the object
 * @user: user buffer
 * @size: bytes to copy; [@offset, @offset + @size) lies in the object
 * @write: pwrite (else pread)
 *
 * Copies through the exporter's kernel mapping, with the CPU caches
 * flushed around the bytes copied, since the GPU does not snoop them.
 *
 * Return: 0; -EFAULT for a bad user buffer; -ENODEV if the exporter has
 * no kernel mapping to give (or only an I/O one); the exporter's errno.
 */
int i915_gem_dmabuf_copy(struct i915_gem_object *obj, u64 offset,
			 char __user *user, u64 size, bool write)
{
	struct dma_buf *dma_buf = obj->base.import_attach->dmabuf;
	struct iosys_map map;
	unsigned long left;
	char *vaddr;
	int ret;

	if (!dma_buf->ops->vmap)
		return -ENODEV;
	/* As the shmfs pwrite: a bad buffer leaves the object untouched. */
	if (write && fault_in_readable(user, size))
		return -EFAULT;
	ret = dma_buf_vmap(dma_buf, &map);
	if (ret)
		return ret;
	if (map.is_iomem) {
		ret = -ENODEV;
		goto out;
	}

	vaddr = (char *)map.vaddr + offset;
	if (write) {
		left = copy_from_user(vaddr, user, size);
		drm_clflush_virt_range(vaddr, size);
	} else {
		drm_clflush_virt_range(vaddr, size);
		left = copy_to_user(user, vaddr, size);
	}
	ret = left ? -EFAULT : 0;
out:
	dma_buf_vunmap(dma_buf, &map);
	return ret;
}
