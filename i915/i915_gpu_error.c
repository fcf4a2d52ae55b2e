// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: error state
 *
 * When the GPU hangs, the driver takes a snapshot of what it was doing,
 * the error state, and keeps it for the user: /sys/class/drm/card<N>/error
 * (a binary attribute of the DRM minor's device, mode 0600) and debugfs
 * dri/<N>/i915_error_state show the same text.  The text follows upstream
 * i915's format, so that intel_error_decode (igt-gpu-tools) decodes it:
 * a header (the "GPU HANG: ecode" line, kernel and driver version, time,
 * the hung process, "PCI ID: 0x...", which picks the decoder), the global
 * registers (IER, EIR, PGTBL_ER), the render engine's registers (ring
 * START, HEAD, TAIL, CTL, MI_MODE, HWS_PGA, ACTHD, IPEIR, IPEHR, ESR,
 * INSTDONE, on Gen4 also INSTDONE1, BBADDR, BB_STATE and INSTPS; INSTPM,
 * DMA_FADD), then the buffers, each a line
 * "rcs0 --- <name> = 0x<upper> <lower GTT address>" followed by its
 * contents as one line of uncompressed ascii85 ("~" then 5 characters a
 * dword, "z" for a zero dword): the status page ("HW Status", where the
 * GPU finds it through the GTT), the guilty batch ("batch", the whole
 * object), every object of the guilty execbuffer flagged
 * EXEC_OBJECT_CAPTURE ("user") and the whole ring ("ring").  ACTHD is
 * printed as one 32-bit value, as upstream did for these GPUs, so that
 * the decoder marks the command the engine was on with "HEAD".
 *
 * Only the first error state is kept, as upstream does: later hangs are
 * not captured until it is cleared by writing anything to either file.
 * Reading with nothing captured gives "No error state collected\n"
 * (upstream's sysfs text; its debugfs file reads empty then), and
 * reading after a capture that found no memory at all fails with -ENOMEM
 * until the state is cleared, as upstream.
 *
 * i915_error_capture() runs where the driver declares the GPU hung, just
 * before the reset (or the wedge) loses the engine's registers: from the
 * reset path, under &i915_ring.fence_lock (interrupts off), which keeps
 * the guilty request from completing, and so its objects from being
 * freed and unbound (an object the GPU still uses is freed only after
 * its fences signalled: drm_gem.c), while their pages are copied.  So it never
 * sleeps: registers are read through the seam, memory comes from
 * GFP_NOWAIT allocations (no reclaim, and unlike GFP_ATOMIC no dip into
 * the emergency reserves), pages are copied
 * through kmap_local_page() after a clflush of what the GPU may have
 * written past the CPU cache, and at most %I915_ERROR_MAX_PAGES pages of
 * buffers are kept.  A failed allocation leaves the capture partial, and
 * the text says so ("Capture incomplete: ..." in the header, "(partial:
 * ...)" after a buffer); it never fails the hang handling.  The text is
 * made on the first read, in process context.
 *
 * debugfs i915_gpu_info (upstream's file) captures an error state of the
 * GPU as it is when the file is opened, with the oldest outstanding
 * request as the guilty one, and keeps it for that open file only.  It
 * runs the same capture code in the opener's task, which is what lets a
 * test sweep the capture's allocations with fail-nth.
 */

#include <drm/drm_cache.h>
#include <drm/drm_file.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <uapi/drm/i915_drm.h>
#include <linux/ascii85.h>
#include <linux/debugfs.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/iommu.h>
#include <linux/kref.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/pci.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/sysfs.h>
#include <linux/utsname.h>

#include "i915_cmd.h"
#include "i915_drv.h"
#include "i915_reg.h"

/* Allocations of the capture: it runs with interrupts off. */
#define I915_ERROR_GFP		(GFP_NOWAIT | __GFP_NOWARN)
/* At most this much buffer contents in one error state. */
#define I915_ERROR_MAX_PAGES	(SZ_8M >> PAGE_SHIFT)

/* upstream's name of the render engine */
#define I915_ERROR_ENGINE	"rcs0"

static const char i915_error_none[] = "No error state collected\n";

/**
 * struct i915_error_object - one buffer copied into an error state
 * @link: entry in &i915_error_state.objects, in the order printed
 * @name: "HW Status", "batch", "user" or "ring"
 * @gtt_offset: the buffer's GTT address
 * @size: bytes of the buffer
 * @captured: bytes copied, less than @size when the capture was cut short
 * @why: why it was cut short, or NULL
 * @pages: the copy, pages linked through page->lru
 */
struct i915_error_object {
	struct list_head link;
	const char *name;
	u32 gtt_offset;
	u32 size;
	u32 captured;
	const char *why;
	struct list_head pages;
};

/**
 * struct i915_error_state - what the GPU was doing when it hung
 * @ref: held by &i915_gpu_error.first and by each reader
 * @time: wall-clock time of the capture
 * @boottime: time since boot
 * @jiffies: jiffies at the capture
 * @device: PCI device id
 * @revision: PCI revision
 * @subsystem_vendor: PCI subsystem vendor
 * @subsystem_device: PCI subsystem device
 * @gen: graphics generation
 * @iommu: DMA goes through an IOMMU
 * @ier: IER
 * @eir: EIR
 * @pgtbl_er: PGTBL_ER
 * @start: ring START
 * @head: ring HEAD
 * @tail: ring TAIL
 * @ctl: ring CTL
 * @mode: MI_MODE
 * @hws: HWS_PGA
 * @acthd: ACTHD
 * @ipeir: IPEIR
 * @ipehr: IPEHR
 * @esr: ESR
 * @instdone: INSTDONE
 * @instdone1: INSTDONE1 (Gen4)
 * @bbaddr: BBADDR (Gen4)
 * @bbstate: BB_STATE (Gen4)
 * @instps: INSTPS (Gen4)
 * @instpm: INSTPM
 * @faddr: DMA_FADD
 * @has_request: a request was outstanding: the next fields describe it
 * @seqno: its seqno
 * @breadcrumb: the ring's breadcrumb at the capture
 * @pid: thread-group id of its submitter
 * @comm: the submitter's command name
 * @batch_start: GTT address of its batch object
 * @batch_size: bytes of the batch object
 * @missing: buffers not captured at all (no memory for them)
 * @pages_left: pages the capture may still copy
 * @objects: the buffers (&struct i915_error_object), in print order
 * @text_lock: serialises making @text
 * @text: the text, made on the first read, or NULL
 * @text_len: bytes of @text
 */
struct i915_error_state {
	struct kref ref;
	ktime_t time;
	ktime_t boottime;
	unsigned long jiffies;
	u16 device;
	u8 revision;
	u16 subsystem_vendor;
	u16 subsystem_device;
	u8 gen;
	bool iommu;

	u32 ier;
	u32 eir;
	u32 pgtbl_er;
	u32 start;
	u32 head;
	u32 tail;
	u32 ctl;
	u32 mode;
	u32 hws;
	u32 acthd;
	u32 ipeir;
	u32 ipehr;
	u32 esr;
	u32 instdone;
	u32 instdone1;
	u32 bbaddr;
	u32 bbstate;
	u32 instps;
	u32 instpm;
	u32 faddr;

	bool has_request;
	u64 seqno;
	u32 breadcrumb;
	pid_t pid;
	char comm[TASK_COMM_LEN];
	u32 batch_start;
	u32 batch_size;

	unsigned int missing;
	unsigned int pages_left;
	struct list_head objects;

	struct mutex text_lock; /* making @text */
	char *text;
	size_t text_len;
};

/* -------------------------------------------------------------------- */
/* capture: any context, under the ring's fence_lock */

static void record_registers(struct i915_error_state *s,
			     struct i915_device *i915)
{
	struct i915_hw *hw = &i915->hw;

	s->ier = i915_read(hw, I915_IER);
	s->eir = i915_read(hw, I915_EIR);
	s->pgtbl_er = i915_read(hw, I915_PGTBL_ER);
	s->start = i915_read(hw, I915_RING_START);
	s->head = i915_read(hw, I915_RING_HEAD);
	s->tail = i915_read(hw, I915_RING_TAIL);
	s->ctl = i915_read(hw, I915_RING_CTL);
	s->mode = i915_read(hw, I915_MI_MODE);
	s->hws = i915_read(hw, I915_HWS_PGA);
	s->acthd = i915_ring_acthd(i915);
	s->esr = i915_read(hw, I915_ESR);
	s->instpm = i915_read(hw, I915_INSTPM);
	if (s->gen >= 4) {
		s->ipeir = i915_read(hw, I965_IPEIR);
		s->ipehr = i915_read(hw, I965_IPEHR);
		s->instdone = i915_read(hw, I965_INSTDONE);
		s->instdone1 = i915_read(hw, I965_INSTDONE1);
		s->instps = i915_read(hw, I965_INSTPS);
		s->bbaddr = i915_read(hw, I965_BBADDR);
		s->bbstate = i915_read(hw, I965_BBSTATE);
		s->faddr = i915_read(hw, I965_DMA_FADD);
	} else {
		s->ipeir = i915_read(hw, I915_GEN3_IPEIR);
		s->ipehr = i915_read(hw, I915_GEN3_IPEHR);
		s->instdone = i915_read(hw, I915_GEN3_INSTDONE);
		s->faddr = i915_read(hw, I915_GEN3_DMA_FADD);
	}
}

/*
 * Copy @size bytes of a buffer, from its pages (@pages, flushed from the
 * CPU cache first if @clflush) or from a kernel mapping (@vaddr), and add
 * it to @s before @before (NULL: at the end).  Stops early, saying why,
 * when memory or the page budget runs out; returns NULL (counted in
 * &i915_error_state.missing) if not even the object could be allocated.
 */
static struct i915_error_object *
capture_buffer(struct i915_error_state *s, struct i915_error_object *before,
	       const char *name, u32 gtt_offset, u32 size,
	       struct page **pages, const void *vaddr, bool clflush)
{
	unsigned int i, n = DIV_ROUND_UP(size, PAGE_SIZE);
	struct i915_error_object *eo;

	eo = kzalloc(sizeof(*eo), I915_ERROR_GFP);
	if (!eo) {
		s->missing++;
		return NULL;
	}
	INIT_LIST_HEAD(&eo->pages);
	eo->name = name;
	eo->gtt_offset = gtt_offset;
	eo->size = size;

	for (i = 0; i < n; i++) {
		struct page *page;
		void *src;

		if (!s->pages_left) {
			eo->why = "over the capture limit";
			break;
		}
		page = alloc_page(I915_ERROR_GFP);
		if (!page) {
			eo->why = "out of memory";
			break;
		}
		if (pages) {
			if (clflush)
				drm_clflush_pages(&pages[i], 1);
			src = kmap_local_page(pages[i]);
			memcpy(page_address(page), src, PAGE_SIZE);
			kunmap_local(src);
		} else {
			memcpy(page_address(page), vaddr + i * PAGE_SIZE,
			       PAGE_SIZE);
		}
		list_add_tail(&page->lru, &eo->pages);
		s->pages_left--;
	}
	eo->captured = min_t(u32, size, i * PAGE_SIZE);

	if (before)
		list_add_tail(&eo->link, &before->link);
	else
		list_add_tail(&eo->link, &s->objects);
	return eo;
}

/* A GEM object of the guilty request, bound and pinned while it runs. */
static void capture_gem_object(struct i915_error_state *s,
			       struct i915_error_object *before,
			       const char *name, struct drm_gem_object *gem)
{
	struct i915_gem_object *obj = to_i915_obj(gem);

	if (!obj->pages || !drm_mm_node_allocated(&obj->gtt_node)) {
		s->missing++;
		return;
	}
	capture_buffer(s, before, name, lower_32_bits(obj->gtt_node.start),
		       gem->size, obj->pages, NULL,
		       obj->cache_level == I915_CACHING_NONE);
}

static void record_request(struct i915_error_state *s,
			   struct i915_error_object *ring,
			   struct i915_request *rq)
{
	unsigned int i;

	s->has_request = true;
	s->seqno = rq->fence.seqno;
	s->pid = rq->pid;
	strscpy(s->comm, rq->comm, sizeof(s->comm));

	if (rq->batch) {
		struct i915_gem_object *obj = to_i915_obj(rq->batch);

		if (drm_mm_node_allocated(&obj->gtt_node)) {
			s->batch_start = lower_32_bits(obj->gtt_node.start);
			s->batch_size = rq->batch->size;
		}
		capture_gem_object(s, ring, "batch", rq->batch);
	}
	for (i = 0; i < rq->num_captures; i++)
		capture_gem_object(s, ring, "user", rq->captures[i]);
}

static struct i915_error_state *
error_state_create(struct i915_device *i915, struct i915_request *guilty)
{
	struct pci_dev *pdev = to_pci_dev(i915->drm.dev);
	struct i915_ring *ring = &i915->ring;
	struct i915_error_object *ring_obj;
	struct i915_error_state *s;

	s = kzalloc(sizeof(*s), I915_ERROR_GFP);
	if (!s)
		return NULL;
	kref_init(&s->ref);
	INIT_LIST_HEAD(&s->objects);
	mutex_init(&s->text_lock);
	s->pages_left = I915_ERROR_MAX_PAGES;

	s->time = ktime_get_real();
	s->boottime = ktime_get_boottime();
	s->jiffies = jiffies;
	s->device = pdev->device;
	s->revision = pdev->revision;
	s->subsystem_vendor = pdev->subsystem_vendor;
	s->subsystem_device = pdev->subsystem_device;
	s->gen = i915->info->gen;
	s->iommu = device_iommu_mapped(&pdev->dev);
	s->breadcrumb = READ_ONCE(ring->hws[I915_HWS_SEQNO_INDEX]);
	record_registers(s, i915);

	/* Printed in upstream's order: status page, batch, user, ring. */
	if (!i915->info->hws_needs_physical)
		capture_buffer(s, NULL, "HW Status", ring->hws_gtt, PAGE_SIZE,
			       NULL, ring->hws, false);
	ring_obj = capture_buffer(s, NULL, "ring", ring->gtt_offset,
				  ring->size, NULL, ring->vaddr, false);
	if (guilty)
		record_request(s, ring_obj, guilty);
	return s;
}

static void error_state_release(struct kref *ref)
{
	struct i915_error_state *s = container_of(ref, typeof(*s), ref);
	struct i915_error_object *eo, *next_eo;
	struct page *page, *next;

	list_for_each_entry_safe(eo, next_eo, &s->objects, link) {
		list_for_each_entry_safe(page, next, &eo->pages, lru) {
			list_del(&page->lru);
			__free_page(page);
		}
		kfree(eo);
	}
	kvfree(s->text);
	mutex_destroy(&s->text_lock);
	kfree(s);
}

static void error_state_put(struct i915_error_state *s)
{
	if (!IS_ERR_OR_NULL(s))
		kref_put(&s->ref, error_state_release);
}

/* upstream's "ecode": something to tell one hang from another */
static u32 error_state_ecode(const struct i915_error_state *s)
{
	return s->ipehr ^ s->instdone;
}

/**
 * i915_error_capture - capture the error state of a hang, if none is kept
 * @i915: the device
 * @guilty: the request that hung (its batch and EXEC_OBJECT_CAPTURE
 *	objects are copied), or NULL if no request was outstanding
 *
 * Called where the driver declares the GPU hung, before the engine is
 * stopped or reset and before any request is completed: by
 * i915_request_capture_error() from the reset path (the hang-check
 * worker, debugfs i915_wedged), with &i915_ring.fence_lock held and
 * interrupts off; @guilty is on
 * &i915_ring.requests and not signalled, so its objects stay bound.  It
 * never sleeps and takes no lock but &i915_gpu_error.lock.  If an error
 * state is kept already nothing is captured (only the first is kept
 * until it is cleared); if memory runs short the capture is partial and
 * says so, and if not even its header can be allocated, reading the
 * error state fails with -ENOMEM until it is cleared.
 */
void i915_error_capture(struct i915_device *i915, struct i915_request *guilty)
{
	struct i915_gpu_error *error = &i915->error;
	struct i915_error_state *s;
	unsigned long flags;
	bool stored = false;

	if (READ_ONCE(error->first))
		return;

	s = error_state_create(i915, guilty);
	if (!s)
		drm_err(&i915->drm, "GPU HANG: no memory for the error state\n");
	else if (s->has_request)
		drm_info(&i915->drm, "GPU HANG: ecode %u:1:%08x, in %s [%d]\n",
			 s->gen, error_state_ecode(s), s->comm, s->pid);
	else
		drm_info(&i915->drm, "GPU HANG: ecode %u:1:%08x\n",
			 s->gen, error_state_ecode(s));

	spin_lock_irqsave(&error->lock, flags);
	if (!error->first) {
		error->first = s ?: ERR_PTR(-ENOMEM);
		stored = true;
	}
	spin_unlock_irqrestore(&error->lock, flags);
	if (!stored)
		error_state_put(s);
	else if (s)
		drm_info(&i915->drm, "GPU crash dump saved to /sys/class/drm/card%d/error\n",
			 i915->drm.primary->index);
}

/**
 * i915_error_capture_object - copy an object into the error state if
 *	the request hangs
 * @rq: a request not yet emitted
 * @obj: one of its objects, flagged EXEC_OBJECT_CAPTURE (no reference:
 *	it lives while the request runs, see &i915_request.num_objects)
 *
 * Called in process context, at most &i915_request.num_objects times.
 *
 * Return: 0 or -ENOMEM.
 */
int i915_error_capture_object(struct i915_request *rq,
			      struct drm_gem_object *obj)
{
	if (!rq->captures) {
		rq->captures = kvmalloc_array(rq->num_objects,
					      sizeof(*rq->captures),
					      GFP_KERNEL_ACCOUNT);
		if (!rq->captures)
			return -ENOMEM;
	}
	if (WARN_ON_ONCE(rq->num_captures >= rq->num_objects))
		return -EINVAL;
	rq->captures[rq->num_captures++] = obj;
	return 0;
}

/* -------------------------------------------------------------------- */
/* the text, made in process context */

/* Text into @buf, or only counted while @buf is NULL. */
struct error_buf {
	char *buf;
	size_t size;
	size_t len;
};

static void err_puts(struct error_buf *e, const char *str)
{
	size_t len = strlen(str);

	if (e->buf && e->len + len <= e->size)
		memcpy(e->buf + e->len, str, len);
	e->len += len;
}

static __printf(2, 3) void err_printf(struct error_buf *e,
				      const char *fmt, ...)
{
	size_t room = e->buf && e->len < e->size ? e->size - e->len : 0;
	va_list args;

	va_start(args, fmt);
	e->len += vsnprintf(room ? e->buf + e->len : NULL, room, fmt, args);
	va_end(args);
}

static void print_object(struct error_buf *e,
			 const struct i915_error_object *eo)
{
	char out[ASCII85_BUFSZ];
	u32 left = eo->captured;
	struct page *page;

	err_printf(e, "%s --- %s = 0x%08x %08x\n", I915_ERROR_ENGINE,
		   eo->name, 0, eo->gtt_offset);
	if (left) {
		err_puts(e, "~");
		list_for_each_entry(page, &eo->pages, lru) {
			const u32 *dw = page_address(page);
			u32 i, n = min_t(u32, left, PAGE_SIZE) / 4;

			for (i = 0; i < n; i++)
				err_puts(e, ascii85_encode(dw[i], out));
			left -= n * 4;
		}
		err_puts(e, "\n");
	}
	if (eo->why)
		err_printf(e, "  (partial: %u of %u bytes captured, %s)\n",
			   eo->captured, eo->size, eo->why);
}

static void print_engine(struct error_buf *e, const struct i915_error_state *s)
{
	err_printf(e, "%s command stream:\n", I915_ERROR_ENGINE);
	err_printf(e, "  START: 0x%08x\n", s->start);
	err_printf(e, "  HEAD:  0x%08x\n", s->head);
	err_printf(e, "  TAIL:  0x%08x\n", s->tail);
	err_printf(e, "  CTL:   0x%08x\n", s->ctl);
	err_printf(e, "  MODE:  0x%08x\n", s->mode);
	err_printf(e, "  HWS:   0x%08x\n", s->hws);
	err_printf(e, "  ACTHD: 0x%08x\n", s->acthd);
	err_printf(e, "  IPEIR: 0x%08x\n", s->ipeir);
	err_printf(e, "  IPEHR: 0x%08x\n", s->ipehr);
	err_printf(e, "  ESR:   0x%08x\n", s->esr);
	err_printf(e, "  INSTDONE: 0x%08x\n", s->instdone);
	if (s->gen >= 4)
		err_printf(e, "  SC_INSTDONE: 0x%08x\n", s->instdone1);
	if (s->batch_size)
		err_printf(e, "  batch: [0x%08x_%08x, 0x%08x_%08x]\n", 0,
			   s->batch_start, 0, s->batch_start + s->batch_size);
	if (s->gen >= 4) {
		err_printf(e, "  BBADDR: 0x%08x_%08x\n", 0, s->bbaddr);
		err_printf(e, "  BB_STATE: 0x%08x\n", s->bbstate);
		err_printf(e, "  INSTPS: 0x%08x\n", s->instps);
	}
	err_printf(e, "  INSTPM: 0x%08x\n", s->instpm);
	err_printf(e, "  FADDR: 0x%08x %08x\n", 0, s->faddr);
	err_printf(e, "  hung: %u\n", s->has_request);
	err_printf(e, "  engine reset count: 0\n");
	if (s->has_request)
		err_printf(e, "  seqno: 0x%08llx, breadcrumb: 0x%08x\n",
			   s->seqno, s->breadcrumb);
}

static void error_state_print(struct error_buf *e,
			      const struct i915_error_state *s,
			      unsigned long now)
{
	const struct i915_error_object *eo;
	struct timespec64 ts;

	err_printf(e, "GPU HANG: ecode %u:1:%08x", s->gen, error_state_ecode(s));
	if (s->has_request)
		err_printf(e, ", in %s [%d]", s->comm, s->pid);
	err_puts(e, "\n");
	err_printf(e, "Kernel: %s %s\n", init_utsname()->release,
		   init_utsname()->machine);
	err_printf(e, "Driver: %s\n", DRIVER_DATE);
	ts = ktime_to_timespec64(s->time);
	err_printf(e, "Time: %lld s %ld us\n", (s64)ts.tv_sec,
		   ts.tv_nsec / NSEC_PER_USEC);
	ts = ktime_to_timespec64(s->boottime);
	err_printf(e, "Boottime: %lld s %ld us\n", (s64)ts.tv_sec,
		   ts.tv_nsec / NSEC_PER_USEC);
	err_printf(e, "Capture: %lu jiffies; %u ms ago\n", s->jiffies,
		   jiffies_to_msecs(now - s->jiffies));
	if (s->has_request)
		err_printf(e, "Active process (on ring %s): %s [%d]\n",
			   I915_ERROR_ENGINE, s->comm, s->pid);
	err_printf(e, "Reset count: 0\n");
	err_printf(e, "PCI ID: 0x%04x\n", s->device);
	err_printf(e, "PCI Revision: 0x%02x\n", s->revision);
	err_printf(e, "PCI Subsystem: %04x:%04x\n", s->subsystem_vendor,
		   s->subsystem_device);
	err_printf(e, "IOMMU enabled?: %d\n", s->iommu);
	if (s->missing)
		err_printf(e, "Capture incomplete: %u buffers not captured (out of memory)\n",
			   s->missing);
	err_printf(e, "IER: 0x%08x\n", s->ier);
	err_printf(e, "EIR: 0x%08x\n", s->eir);
	err_printf(e, "PGTBL_ER: 0x%08x\n", s->pgtbl_er);
	print_engine(e, s);
	list_for_each_entry(eo, &s->objects, link)
		print_object(e, eo);
}

/* Make the text once; then it stays as long as the state. */
static int error_state_render(struct i915_error_state *s)
{
	unsigned long now = jiffies;
	struct error_buf e = {};
	int ret = 0;

	mutex_lock(&s->text_lock);
	if (s->text)
		goto out;
	error_state_print(&e, s, now);
	/* Room for the NUL that vsnprintf() writes after the last line. */
	e.size = e.len + 1;
	e.len = 0;
	e.buf = kvmalloc(e.size, GFP_KERNEL);
	if (!e.buf) {
		ret = -ENOMEM;
		goto out;
	}
	error_state_print(&e, s, now);
	s->text = e.buf;
	s->text_len = min(e.len, e.size - 1);
out:
	mutex_unlock(&s->text_lock);
	return ret;
}

/* The first error state with a reference, or NULL, or an ERR_PTR(). */
static struct i915_error_state *error_state_get(struct i915_device *i915)
{
	struct i915_error_state *s;

	spin_lock_irq(&i915->error.lock);
	s = i915->error.first;
	if (!IS_ERR_OR_NULL(s))
		kref_get(&s->ref);
	spin_unlock_irq(&i915->error.lock);
	return s;
}

static void error_state_clear(struct i915_device *i915)
{
	struct i915_error_state *s;

	spin_lock_irq(&i915->error.lock);
	s = i915->error.first;
	i915->error.first = NULL;
	spin_unlock_irq(&i915->error.lock);
	error_state_put(s);
}

/*
 * The text of @s (NULL: nothing collected) from @off into @buf, at most
 * @count bytes: the bytes copied, or -errno.
 */
static ssize_t error_state_read(struct i915_error_state *s, char *buf,
				loff_t off, size_t count)
{
	const char *text = i915_error_none;
	size_t len = sizeof(i915_error_none) - 1;
	int ret;

	if (IS_ERR(s))
		return PTR_ERR(s);
	if (s) {
		ret = error_state_render(s);
		if (ret)
			return ret;
		text = s->text;
		len = s->text_len;
	}
	if (off < 0)
		return -EINVAL;
	if (off >= len)
		return 0;
	count = min_t(size_t, count, len - off);
	memcpy(buf, text + off, count);
	return count;
}

/* -------------------------------------------------------------------- */
/* sysfs card<N>/error */

static struct i915_device *kobj_to_i915(struct kobject *kobj)
{
	struct drm_minor *minor = dev_get_drvdata(kobj_to_dev(kobj));

	return to_i915(minor->dev);
}

static ssize_t error_attr_read(struct file *filp, struct kobject *kobj,
			       struct bin_attribute *attr, char *buf,
			       loff_t off, size_t count)
{
	struct i915_error_state *s = error_state_get(kobj_to_i915(kobj));
	ssize_t ret = error_state_read(s, buf, off, count);

	error_state_put(s);
	return ret;
}

static ssize_t error_attr_write(struct file *filp, struct kobject *kobj,
				struct bin_attribute *attr, char *buf,
				loff_t off, size_t count)
{
	struct i915_device *i915 = kobj_to_i915(kobj);

	drm_dbg(&i915->drm, "clearing the error state\n");
	error_state_clear(i915);
	return count;
}

static const struct bin_attribute i915_error_attr = {
	.attr.name = "error",
	.attr.mode = 0600,
	.read = error_attr_read,
	.write = error_attr_write,
};

/* -------------------------------------------------------------------- */
/* debugfs i915_error_state and i915_gpu_info */

static ssize_t error_file_read(struct file *file, char __user *ubuf,
			       size_t count, loff_t *pos)
{
	struct i915_error_state *s = file->private_data;
	ssize_t ret;
	char *buf;

	count = min_t(size_t, count, SZ_64K);
	buf = kmalloc(count, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	ret = error_state_read(s, buf, *pos, count);
	if (ret > 0) {
		if (copy_to_user(ubuf, buf, ret))
			ret = -EFAULT;
		else
			*pos += ret;
	}
	kfree(buf);
	return ret;
}

static int error_file_release(struct inode *inode, struct file *file)
{
	error_state_put(file->private_data);
	return 0;
}

/* An ERR_PTR() is kept too: reads fail with it, writes clear it. */
static int error_state_open(struct inode *inode, struct file *file)
{
	file->private_data = error_state_get(inode->i_private);
	return 0;
}

static ssize_t error_state_write(struct file *file, const char __user *ubuf,
				 size_t count, loff_t *pos)
{
	struct i915_device *i915 = file_inode(file)->i_private;

	drm_dbg(&i915->drm, "clearing the error state\n");
	error_state_clear(i915);
	return count;
}

const struct file_operations i915_error_state_fops = {
	.owner = THIS_MODULE,
	.open = error_state_open,
	.read = error_file_read,
	.write = error_state_write,
	.llseek = default_llseek,
	.release = error_file_release,
};

static int gpu_info_open(struct inode *inode, struct file *file)
{
	struct i915_device *i915 = inode->i_private;
	struct i915_ring *ring = &i915->ring;
	struct i915_request *rq, *guilty = NULL;
	struct i915_error_state *s;
	unsigned long flags;

	spin_lock_irqsave(&ring->fence_lock, flags);
	list_for_each_entry(rq, &ring->requests, link) {
		if (!dma_fence_is_signaled_locked(&rq->fence)) {
			guilty = rq;
			break;
		}
	}
	s = error_state_create(i915, guilty);
	spin_unlock_irqrestore(&ring->fence_lock, flags);
	if (!s)
		return -ENOMEM;
	file->private_data = s;
	return 0;
}

const struct file_operations i915_gpu_info_fops = {
	.owner = THIS_MODULE,
	.open = gpu_info_open,
	.read = error_file_read,
	.llseek = default_llseek,
	.release = error_file_release,
};

/* -------------------------------------------------------------------- */
/* setup */

static void error_fini(struct drm_device *drm, void *unused)
{
	error_state_clear(to_i915(drm));
}

/**
 * i915_error_init - prepare the device's error state
 * @i915: the device, before its interrupt is installed
 *
 * The error state kept is freed with the DRM device.
 *
 * Return: 0 or -ENOMEM.
 */
int i915_error_init(struct i915_device *i915)
{
	spin_lock_init(&i915->error.lock);
	return drmm_add_action_or_reset(&i915->drm, error_fini, NULL);
}

/**
 * i915_error_register - create sysfs card<N>/error
 * @i915: the device, just registered
 *
 * A failure is only logged, as upstream does: the error state is a
 * debugging aid.
 */
void i915_error_register(struct i915_device *i915)
{
	struct device *kdev = i915->drm.primary->kdev;

	if (sysfs_create_bin_file(&kdev->kobj, &i915_error_attr))
		drm_warn(&i915->drm, "no sysfs error file\n");
}

/**
 * i915_error_unregister - remove sysfs card<N>/error
 * @i915: the device, before it is unplugged
 *
 * Waits for the reads and writes under way.
 */
void i915_error_unregister(struct i915_device *i915)
{
	sysfs_remove_bin_file(&i915->drm.primary->kdev->kobj,
			      &i915_error_attr);
}
