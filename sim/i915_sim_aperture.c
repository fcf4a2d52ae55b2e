// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: software model - the aperture through fences
 *
 * On silicon a CPU access to the aperture (BAR 2) inside a valid fence's
 * range is detiled by the fence on its way to memory: the CPU sees the
 * surface linear.  The model's BAR 2 has nothing behind it; the driver
 * maps the page i915_hw_aperture_pfn() names for each aperture page.
 * Outside fences that is the page the GTT entry points at.  Inside one
 * there is no such page (a linear 4 KiB of a tiled surface is spread over
 * several), so the model hands out a shadow page: a page of its own that
 * holds the linear image of that aperture page, and a copy of what the
 * shadow held when it last agreed with memory (the snapshot).
 *
 * The shadow and the tiled memory behind it are merged at the points
 * where the hardware's aperture writes are visible to the GPU and the
 * GPU's writes to the CPU, at a byte's granularity: a byte the CPU
 * changed since the snapshot goes to memory (through the fence's
 * layout, bit-6 swizzled), otherwise a byte memory changed comes to the
 * shadow.  The points:
 *
 * - every chipset flush (the driver's flush of GTT writes, domain
 *   changes, a ring tail write): every shadow, since the CPU may have
 *   written the shadows or memory directly (a shadow neither side
 *   changed since its snapshot costs a read of memory and two
 *   comparisons);
 * - before every command the command streamer fetches from the ring (not
 *   from a batch): before a batch starts and after it returns, before the
 *   breadcrumb that says it finished (there only the shadows whose fence
 *   range the GPU wrote since the last merge: the model tracks the range
 *   of the GPU's writes; the CPU's writes reached memory at the chipset
 *   flush before the ring's tail moved);
 * - before GTT entries under a fence's range change (the shadows of the
 *   changed pages are then dropped: the driver zapped the user PTEs that
 *   point at them, as it must before rewriting an entry on silicon);
 * - a fence register write makes the shadows check their layout at the
 *   next of those points and at the next aperture_pfn: a shadow made
 *   under a fence that no longer describes its page is merged with the
 *   layout it was made with, then dropped (the driver zaps before it
 *   rewrites a fence).
 *
 * Limits: between two of those points the CPU and the GPU do not see
 * each other's writes (silicon would show them after the write-combining
 * buffers drain, with no ordering a client may rely on without a flush);
 * a byte both wrote between two points keeps the CPU's value; the
 * shadows cost a page and a snapshot each, and a comparison of all of
 * them at every chipset flush (one per execbuffer); what a CPU access hits when the fence's tiled
 * address has no valid GTT entry (silicon: whatever the GMCH does) is a
 * shadow read as zeros and writes that go nowhere.
 *
 * Locking: &i915_sim.shadow_lock (a mutex: every caller is in process
 * context, the seam's gtt_insert, gtt_clear, chipset_flush and
 * aperture_pfn, and the command streamer's thread) is taken outside
 * &i915_sim.lock (which each memory access takes) and never across an
 * allocation: a reclaim may unbind through the driver and reach
 * gtt_clear.
 */

#include <linux/highmem.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "i915_sim.h"

/**
 * struct sim_shadow - the linear image of one fenced aperture page
 * @page: what the CPU maps
 * @snap: @page's contents when it last agreed with memory
 * @f: the fence layout it was made under
 */
struct sim_shadow {
	struct page *page;
	u64 *snap;
	struct i915_sim_fence_desc f;
};

/* Copy a linear range of a fenced surface to or from tiled memory. */
static int shadow_copy(struct i915_sim *sim,
		       const struct i915_sim_fence_desc *f, u32 addr,
		       void *buf, size_t len, bool to_gpu)
{
	u32 run, n;
	u64 off;
	int ret;

	while (len) {
		off = i915_sim_tiled_offset(sim, addr - f->start, f->stride,
					    f->y, &run);
		n = min_t(size_t, len, run);
		ret = i915_sim_gtt_copy(sim, f->start + off, buf, n, to_gpu);
		if (ret)
			return ret;
		addr += n;
		buf += n;
		len -= n;
	}
	return 0;
}

/*
 * Read a linear range of a fenced surface from tiled memory, as
 * shadow_copy() does, but with one GTT lookup and one mapping for each
 * run of pieces that land in the same page: a swizzled page is 64 pieces
 * in 8 pages, and a chipset flush reads every shadow's page.
 */
static int shadow_read(struct i915_sim *sim,
		       const struct i915_sim_fence_desc *f, u32 addr,
		       void *buf, size_t len)
{
	struct page *page = NULL;
	u32 run, n, gpa, cur = 0;
	unsigned long flags;
	void *vaddr = NULL;
	int ret = 0;

	raw_spin_lock_irqsave(&sim->lock, flags);
	while (len) {
		gpa = f->start + i915_sim_tiled_offset(sim, addr - f->start,
						       f->stride, f->y, &run);
		n = min_t(size_t, min_t(size_t, len, run),
			  PAGE_SIZE - offset_in_page(gpa));
		if (!page || gpa >> PAGE_SHIFT != cur) {
			if (vaddr)
				kunmap_local(vaddr);
			vaddr = NULL;
			page = i915_sim_gtt_page_locked(sim, gpa);
			if (IS_ERR(page)) {
				atomic_long_inc(&sim->gtt_faults);
				ret = PTR_ERR(page);
				break;
			}
			vaddr = kmap_local_page(page);
			cur = gpa >> PAGE_SHIFT;
		}
		memcpy(buf, vaddr + offset_in_page(gpa), n);
		addr += n;
		buf += n;
		len -= n;
	}
	if (vaddr)
		kunmap_local(vaddr);
	raw_spin_unlock_irqrestore(&sim->lock, flags);
	return ret;
}

static bool same_layout(const struct i915_sim_fence_desc *a,
			const struct i915_sim_fence_desc *b)
{
	return a->start == b->start && a->end == b->end &&
	       a->stride == b->stride && a->y == b->y;
}

/* 0xff in every byte where @x has a bit set. */
static u64 byte_mask(u64 x)
{
	u64 m = 0;
	unsigned int i;

	for (i = 0; i < sizeof(x); i++)
		if (x & (0xffull << (8 * i)))
			m |= 0xffull << (8 * i);
	return m;
}

/* Merge one shadow with memory (see the DOC); under the shadow lock. */
static void shadow_merge(struct i915_sim *sim, unsigned long idx,
			 struct sim_shadow *sh)
{
	u32 addr = idx << PAGE_SHIFT;
	u64 *mem = sim->shadow_buf;
	u64 *cpu, c, m, v;
	unsigned int i;

	lockdep_assert_held(&sim->shadow_lock);
	if (shadow_read(sim, &sh->f, addr, mem, PAGE_SIZE))
		return;	/* memory out of reach: keep what the CPU has */

	cpu = kmap_local_page(sh->page);
	/* Neither side changed since the snapshot: the common case. */
	if (!memcmp(mem, sh->snap, PAGE_SIZE) &&
	    !memcmp(cpu, sh->snap, PAGE_SIZE)) {
		kunmap_local(cpu);
		return;
	}
	for (i = 0; i < PAGE_SIZE / sizeof(u64); i++) {
		c = READ_ONCE(cpu[i]);
		m = byte_mask(c ^ sh->snap[i]);
		v = (c & m) | (mem[i] & ~m);
		if (v != mem[i])
			shadow_copy(sim, &sh->f, addr + i * sizeof(u64), &v,
				    sizeof(v), true);
		/* A CPU store racing with this merge wins next time. */
		if (v != c)
			cmpxchg64(&cpu[i], c, v);
		sh->snap[i] = v;
	}
	kunmap_local(cpu);
}

static void shadow_free(struct sim_shadow *sh)
{
	if (!sh)
		return;
	if (sh->page)
		__free_page(sh->page);
	kfree(sh->snap);
	kfree(sh);
}

static struct sim_shadow *shadow_alloc(void)
{
	struct sim_shadow *sh = kzalloc(sizeof(*sh), GFP_KERNEL);

	if (!sh)
		return NULL;
	sh->page = alloc_page(GFP_KERNEL);
	sh->snap = kmalloc(PAGE_SIZE, GFP_KERNEL);
	if (!sh->page || !sh->snap) {
		shadow_free(sh);
		return NULL;
	}
	return sh;
}

/* Merge, then drop, a shadow whose fence changed; under the lock. */
static void shadows_check_layout_locked(struct i915_sim *sim)
{
	int gen = atomic_read(&sim->fence_writes);
	struct i915_sim_fence_desc f;
	struct sim_shadow *sh;
	unsigned long idx;

	lockdep_assert_held(&sim->shadow_lock);
	if (gen == sim->shadow_fence_gen)
		return;
	sim->shadow_fence_gen = gen;
	xa_for_each(&sim->shadows, idx, sh) {
		if (i915_sim_fence_find(sim, idx << PAGE_SHIFT, &f) == 1 &&
		    same_layout(&f, &sh->f))
			continue;
		shadow_merge(sim, idx, sh);
		xa_erase(&sim->shadows, idx);
		shadow_free(sh);
	}
}

/**
 * i915_sim_shadow_pfn - the shadow page of a fenced aperture page
 * @sim: the model
 * @addr: the aperture (GTT) address, inside the range of fence @f
 * @f: the fence that holds @addr
 * @pfn: set to the shadow's page frame
 *
 * Made and filled from memory on the first call, kept until its fence or
 * its GTT entries change (see the DOC).
 *
 * Return: 0, -ENOMEM, or -EFAULT when the tiled memory behind the page
 * cannot be read.
 */
int i915_sim_shadow_pfn(struct i915_sim *sim, u32 addr,
			const struct i915_sim_fence_desc *f,
			unsigned long *pfn)
{
	unsigned long idx = addr >> PAGE_SHIFT;
	struct sim_shadow *sh, *new;
	void *vaddr;
	int ret;

	new = shadow_alloc();
	if (!new)
		return -ENOMEM;
	ret = xa_reserve(&sim->shadows, idx, GFP_KERNEL);
	if (ret)
		goto out;

	mutex_lock(&sim->shadow_lock);
	shadows_check_layout_locked(sim);
	sh = xa_load(&sim->shadows, idx);
	if (!sh) {
		ret = shadow_read(sim, f, addr & PAGE_MASK, sim->shadow_buf,
				  PAGE_SIZE);
		if (ret) {
			ret = -EFAULT;
			xa_release(&sim->shadows, idx);
			goto unlock;
		}
		vaddr = kmap_local_page(new->page);
		memcpy(vaddr, sim->shadow_buf, PAGE_SIZE);
		kunmap_local(vaddr);
		memcpy(new->snap, sim->shadow_buf, PAGE_SIZE);
		new->f = *f;
		/* The slot is reserved (unless a layout check freed it). */
		ret = xa_err(xa_store(&sim->shadows, idx, new, GFP_NOWAIT));
		if (ret)
			goto unlock;
		sh = new;
		new = NULL;
	}
	*pfn = page_to_pfn(sh->page);
unlock:
	mutex_unlock(&sim->shadow_lock);
out:
	shadow_free(new);
	return ret;
}

/**
 * i915_sim_shadow_sync - merge the shadows with memory
 * @sim: the model, in process context
 * @all: every shadow (the chipset flush: the CPU may have written the
 *	shadows, or memory behind the aperture's back through its caches),
 *	else only those whose fence range the GPU wrote since the last sync
 *
 * For the chipset flush and the command streamer (see the DOC).
 */
void i915_sim_shadow_sync(struct i915_sim *sim, bool all)
{
	struct sim_shadow *sh;
	unsigned long idx, flags;
	u64 lo, hi;

	if (xa_empty(&sim->shadows))
		return;
	mutex_lock(&sim->shadow_lock);
	shadows_check_layout_locked(sim);
	raw_spin_lock_irqsave(&sim->lock, flags);
	lo = sim->gpu_dirty_lo;
	hi = sim->gpu_dirty_hi;
	sim->gpu_dirty_lo = U64_MAX;
	sim->gpu_dirty_hi = 0;
	raw_spin_unlock_irqrestore(&sim->lock, flags);
	if (all || lo < hi) {
		xa_for_each(&sim->shadows, idx, sh) {
			if (all || (sh->f.start < hi && sh->f.end > lo))
				shadow_merge(sim, idx, sh);
		}
	}
	mutex_unlock(&sim->shadow_lock);
}

/**
 * i915_sim_shadow_check - drop the shadows a fence write left behind
 * @sim: the model, in process context
 *
 * For an aperture page outside every fence: the CPU's writes to a shadow
 * of the page's last fence reach memory before the page is mapped linear.
 */
void i915_sim_shadow_check(struct i915_sim *sim)
{
	if (xa_empty(&sim->shadows) ||
	    atomic_read(&sim->fence_writes) == READ_ONCE(sim->shadow_fence_gen))
		return;
	mutex_lock(&sim->shadow_lock);
	shadows_check_layout_locked(sim);
	mutex_unlock(&sim->shadow_lock);
}

/**
 * i915_sim_shadow_gtt_changed - GTT entries are about to be rewritten
 * @sim: the model, in process context
 * @first: first entry
 * @count: entries
 *
 * Shadows whose fence range meets the entries are merged while the old
 * entries stand; those of the rewritten pages themselves are dropped.
 */
void i915_sim_shadow_gtt_changed(struct i915_sim *sim, unsigned int first,
				 unsigned int count)
{
	u64 start = (u64)first << PAGE_SHIFT;
	u64 end = (u64)(first + count) << PAGE_SHIFT;
	struct sim_shadow *sh;
	unsigned long idx;

	if (xa_empty(&sim->shadows) || !count)
		return;
	mutex_lock(&sim->shadow_lock);
	shadows_check_layout_locked(sim);
	xa_for_each(&sim->shadows, idx, sh) {
		if (sh->f.end <= start || sh->f.start >= end)
			continue;
		shadow_merge(sim, idx, sh);
		if (idx >= first && idx < first + count) {
			xa_erase(&sim->shadows, idx);
			shadow_free(sh);
		}
	}
	mutex_unlock(&sim->shadow_lock);
}

/**
 * i915_sim_aperture_init - no shadows yet
 * @sim: the model, being created
 *
 * Return: 0 or -ENOMEM.
 */
int i915_sim_aperture_init(struct i915_sim *sim)
{
	mutex_init(&sim->shadow_lock);
	xa_init(&sim->shadows);
	sim->gpu_dirty_lo = U64_MAX;
	sim->shadow_buf = kmalloc(PAGE_SIZE, GFP_KERNEL);
	return sim->shadow_buf ? 0 : -ENOMEM;
}

/**
 * i915_sim_aperture_fini - free the shadows
 * @sim: the model, its driver gone (no user PTE points at a shadow)
 */
void i915_sim_aperture_fini(struct i915_sim *sim)
{
	struct sim_shadow *sh;
	unsigned long idx;

	xa_for_each(&sim->shadows, idx, sh)
		shadow_free(sh);
	xa_destroy(&sim->shadows);
	kfree(sim->shadow_buf);
	sim->shadow_buf = NULL;
	mutex_destroy(&sim->shadow_lock);
}
