/* SPDX-License-Identifier: GPL-2.0 */
/**
 * DOC: software model of a Gen3/Gen4 GPU
 *
 * Each simulated GPU is one &struct i915_sim: a register file at the GPU's MMIO
 * offsets, a GTT of 32-bit entries in the generation's real format, the
 * interrupt latch (IER/IIR/IMR/ISR) driving an INTx line, and the PCI
 * function that presents it all on a virtual PCI bus (i915_sim_pci.c).
 * The driver reaches it only through &struct i915_hw_funcs, which it gets
 * from the &struct i915_hw_backend in the PCI function's platform data
 * (i915_sim.c).
 *
 * Files: i915_sim.c (the module, creation, chip table, the hardware seam),
 * i915_sim_mmio.c (register semantics, interrupts, errors),
 * i915_sim_gtt.c (GTT entries and GPU memory access), i915_sim_pci.c
 * (virtual PCI bus and config space), i915_sim_debugfs.c, and the render
 * engine: i915_sim_cs.c (the command streamer, a kernel thread),
 * i915_sim_mi.c (MI commands), i915_sim_blt.c (the 2D blitter),
 * i915_sim_3d.c (3D commands and the drawing-rectangle log), sharing
 * i915_sim_cs.h.
 *
 * The command streamer plugs in through @kick, @engine_busy and the
 * helpers below: i915_sim_gtt_read32()/write32()/copy() for memory
 * through the GTT, i915_sim_hws_write32() for the status page,
 * i915_sim_irq_raise() for interrupts, i915_sim_mmio_write_gpu() for
 * MI_LOAD_REGISTER_IMM and i915_sim_error_locked() /
 * i915_sim_page_fault_locked() for errors.
 */
#ifndef _I915_SIM_H_
#define _I915_SIM_H_

#include <linux/atomic.h>
#include <linux/irq_work.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/xarray.h>

#include "i915_hw.h"
#include "i915_reg.h"

struct dentry;
struct page;
struct pci_dev;
struct i915_sim_pci;
struct i915_sim_regwin;
struct i915_sim_cs;

/**
 * struct i915_sim_chip - one GPU the model can impersonate
 * @device_id: PCI device id
 * @host_bridge_id: PCI device id of its host bridge (00:00.0)
 * @gen: graphics generation, 3 or 4
 * @flags: I915_SIM_MOBILE, I915_SIM_G33, I915_SIM_G4X, I915_SIM_Y512,
 *	I915_SIM_PINEVIEW
 * @name: marketing name
 */
struct i915_sim_chip {
	u16 device_id;
	u16 host_bridge_id;
	u8 gen;
	u8 flags;
	const char *name;
};

#define I915_SIM_MOBILE		BIT(0)
/* G33/Q33/Q35/Pineview: GTT size code, 36-bit PTEs, status page in GGTT */
#define I915_SIM_G33		BIT(1)
/* G45/GM45 family: GTT at BAR0 + 2 MiB, status page in GGTT */
#define I915_SIM_G4X		BIT(2)
/* 915G/GM: 8 fences, Y tiles 512 bytes wide */
#define I915_SIM_Y512		BIT(3)
/* Pineview (with I915_SIM_G33): one memory channel, DCC */
#define I915_SIM_PINEVIEW	BIT(4)

/* Simulated GPUs one load of i915_sim.ko can create (ids=). */
#define I915_SIM_MAX_GPUS	8

/**
 * struct i915_sim_engine_regs - generation-dependent engine register offsets
 * @ipeir: instruction parser error identity
 * @ipehr: instruction parser error header
 * @instdone: instruction done
 * @acthd: active head
 * @dma_fadd: DMA fetch address
 */
struct i915_sim_engine_regs {
	u32 ipeir;
	u32 ipehr;
	u32 instdone;
	u32 acthd;
	u32 dma_fadd;
};

/**
 * struct i915_sim - one simulated GPU
 * @backend: what the GPU's PCI function carries in its platform data for
 *	the driver: how to attach to this model
 * @chip: what is impersonated
 * @eng: engine register offsets of this generation
 * @gtt_entries: number of GTT entries (4 KiB each)
 * @pgtbl_size: PGTBL_CTL size code that reads back (0 on 915/945)
 * @pte_hi: PTEs carry physical address bits 35:32 in bits 7:4
 * @hws_in_ggtt: HWS_PGA is a GGTT offset rather than a physical address
 * @hws_hi: a physical HWS_PGA carries address bits 35:32 in bits 7:4
 * @eir_page_table: the EIR bit of a page-table error
 * @scratch: zeroed page that cleared GTT entries point at
 * @scratch_phys: physical address of @scratch
 * @gmch_ctrl: GMCH control in the host bridge's config space, as the
 *	firmware left it; its GMS field sizes the stolen memory
 * @stolen_pages: pages of stolen memory
 * @stolen: the pages standing in for stolen memory, which the firmware
 *	maps at GTT address 0 and fills with its framebuffer at power-on
 * @swz_x: address bits whose parity the memory controller's
 *	configuration XORs into bit 6 of X-tiled accesses (i915_sim_fence.c)
 * @swz_y: the same for Y-tiled accesses
 * @ts_hz: Gen4: the rate of the render engine's timestamp, one tick every
 *	16 host clocks of the FSB that CLKCFG gives (i915_sim_fence.c); 0 on
 *	Gen3, which has no timestamp
 * @ts_epoch: CLOCK_MONOTONIC (ns) when the timestamp was last 0: the
 *	GPU's power-on (written under @lock)
 * @lock: protects @regs, @gtt, @engine_busy, @kick and the engine state
 *	of @cs; taken from any context including hard IRQ (raw, irqsave).
 *	It nests inside the PCI config-space lock (a GDRST write resets the
 *	engine); only the scheduler's locks are taken inside it, when @kick
 *	wakes the command streamer's thread.  Memory accessed through the
 *	GTT is read and written under it, so once gtt_clear returns no
 *	access to an old page is in flight; but for command fetches, which
 *	translate a page under it, take a reference to the page and read
 *	it without the lock until @gtt_gen moves (&struct
 *	i915_sim_gtt_window): such a read is a fetch made just before the
 *	entry changed, of a page that cannot be freed meanwhile.  The
 *	command streamer holds it only between commands and for single
 *	accesses, never across one.
 * @regs: register file, I915_MMIO_SIZE bytes, indexed by offset / 4
 * @gtt: the GTT entries
 * @gtt_gen: bumped under @lock with every write of @gtt, read without it
 *	by the holders of a &struct i915_sim_gtt_window
 * @engine_busy: the command streamer is executing (MI_MODE idle reads 0)
 * @in_reset: GDRST holds the render engine in reset: nothing executes
 * @kick: command streamer hook, called under @lock after a write to the
 *	render ring's TAIL or CTL or to MI_MODE and after a GDRST reset;
 *	NULL while there is none; must not sleep
 * @cs: the command streamer (&struct i915_sim_cs, i915_sim_cs.h)
 * @pci_command: last value written to config COMMAND (memory decode, bus
 *	mastering and INTx disable gate MMIO, DMA and the interrupt line)
 * @irq_work: raises the interrupt line from hard-IRQ context
 * @irq: Linux IRQ number of the INTx line
 * @flushes: chipset flushes seen (debugfs)
 * @irq_asserts: times the interrupt line was raised (debugfs)
 * @gtt_faults: GPU accesses refused by the GTT (debugfs)
 * @gtt_bounced: GTT entries written with a swiotlb bounce address (debugfs)
 * @power_off: the GPU has no power, or is in D3hot: MMIO reads all ones,
 *	and MMIO writes, GTT writes and DMA are dropped (written under @lock)
 * @power_cycles: times the GPU lost its state to a power transition
 *	(debugfs)
 * @shadow_lock: protects @shadows and @shadow_buf; innermost of the
 *	model's sleeping locks, outside @lock, never held across an
 *	allocation (i915_sim_aperture.c)
 * @shadows: the shadow pages of fenced aperture pages, by GTT page
 * @shadow_buf: one page of scratch for a merge
 * @fence_writes: fence register writes, a generation for the shadows
 * @shadow_fence_gen: @fence_writes when the shadows were last checked
 * @gpu_dirty_lo: lowest GTT address the GPU wrote since the shadows'
 *	last merge (under @lock)
 * @gpu_dirty_hi: end of the highest such write (under @lock)
 * @bound: a driver holds the hardware seam
 * @pci: the virtual PCI bus
 * @pdev: the GPU's PCI function (a reference is held)
 * @debugfs: the GPU's debugfs directory, i915_sim/<PCI slot>
 */
struct i915_sim {
	struct i915_hw_backend backend;
	const struct i915_sim_chip *chip;
	struct i915_sim_engine_regs eng;
	u32 gtt_entries;
	u32 pgtbl_size;
	bool pte_hi;
	bool hws_in_ggtt;
	bool hws_hi;
	u32 eir_page_table;
	struct page *scratch;
	phys_addr_t scratch_phys;
	u16 gmch_ctrl;
	unsigned int stolen_pages;
	struct page **stolen;
	u32 swz_x;
	u32 swz_y;
	u32 ts_hz;
	u64 ts_epoch;

	raw_spinlock_t lock;
	u32 *regs;
	u32 *gtt;
	unsigned long gtt_gen;
	bool engine_busy;
	bool in_reset;
	void (*kick)(struct i915_sim *sim);
	struct i915_sim_cs *cs;

	u16 pci_command;
	struct irq_work irq_work;
	unsigned int irq;
	atomic_long_t flushes;
	atomic_long_t irq_asserts;
	atomic_long_t gtt_faults;
	atomic_long_t gtt_bounced;
	bool power_off;
	atomic_long_t power_cycles;
	atomic_t bound;

	struct mutex shadow_lock; /* see above */
	struct xarray shadows;
	void *shadow_buf;
	atomic_t fence_writes;
	int shadow_fence_gen;
	u64 gpu_dirty_lo;
	u64 gpu_dirty_hi;

	struct i915_sim_pci *pci;
	struct pci_dev *pdev;
	struct dentry *debugfs;
};

/* Raw access to one register; @reg must be below I915_MMIO_SIZE. */
static inline u32 *i915_sim_reg(struct i915_sim *sim, u32 reg)
{
	return &sim->regs[reg / sizeof(u32)];
}

/* i915_sim_mmio.c: registers, interrupts, errors */
void i915_sim_mmio_reset(struct i915_sim *sim);
u32 i915_sim_mmio_peek(struct i915_sim *sim, u32 reg);
u32 i915_sim_mmio_read(struct i915_sim *sim, u32 reg);
u64 i915_sim_mmio_read64(struct i915_sim *sim, u32 reg);
u64 i915_sim_timestamp(struct i915_sim *sim);
void i915_sim_mmio_write(struct i915_sim *sim, u32 reg, u32 val);
void i915_sim_mmio_write_gpu(struct i915_sim *sim, u32 reg, u32 val);
void i915_sim_engine_reset(struct i915_sim *sim);
bool i915_sim_engine_reset_done(struct i915_sim *sim);
void i915_sim_engine_reset_end(struct i915_sim *sim);
void i915_sim_power_off(struct i915_sim *sim);
void i915_sim_power_on(struct i915_sim *sim);
void i915_sim_irq_raise(struct i915_sim *sim, u32 bits);
void i915_sim_irq_raise_locked(struct i915_sim *sim, u32 bits);
void i915_sim_irq_update_locked(struct i915_sim *sim);
void i915_sim_irq_work(struct irq_work *work);
void i915_sim_error(struct i915_sim *sim, u32 eir);
void i915_sim_error_locked(struct i915_sim *sim, u32 eir);
void i915_sim_page_fault_locked(struct i915_sim *sim, u32 pgtbl_er);

/* i915_sim_gtt.c: GTT entries and GPU memory access */
void i915_sim_gtt_set(struct i915_sim *sim, unsigned int first,
		      const dma_addr_t *addrs, unsigned int count, u32 type);
void i915_sim_gtt_set_scratch(struct i915_sim *sim, unsigned int first,
			      unsigned int count);
void i915_sim_gtt_power_on_locked(struct i915_sim *sim);
int i915_sim_pte_decode(struct i915_sim *sim, u32 pte, phys_addr_t *phys);
struct page *i915_sim_gtt_page_locked(struct i915_sim *sim, u32 addr);
int i915_sim_aperture_pfn(struct i915_sim *sim, u64 offset,
			  unsigned long *pfn);
int i915_sim_gtt_copy(struct i915_sim *sim, u32 addr, void *buf, size_t len,
		      bool to_gpu);
int i915_sim_gtt_read32(struct i915_sim *sim, u32 addr, u32 *val);
int i915_sim_gtt_write32(struct i915_sim *sim, u32 addr, u32 val);
int i915_sim_gtt_invalidate(struct i915_sim *sim, u32 addr);

/**
 * struct i915_sim_gtt_window - one page of graphics memory held for reads
 * @addr: GTT address of the page
 * @page: the page it translated to, a reference held; NULL when none
 * @vaddr: the page's kernel mapping
 * @gen: &i915_sim.gtt_gen when @addr was translated
 * @lookups: translations made for reads through the window (debugfs)
 *
 * The reader's own (the command streamer's fetch): no lock.
 */
struct i915_sim_gtt_window {
	u32 addr;
	struct page *page;
	void *vaddr;
	unsigned long gen;
	unsigned long lookups;
};

int i915_sim_gtt_window_read32(struct i915_sim *sim,
			       struct i915_sim_gtt_window *w, u32 addr,
			       u32 *val);
int i915_sim_gtt_window_peek32(struct i915_sim *sim,
			       const struct i915_sim_gtt_window *w, u32 addr,
			       u32 *val);
void i915_sim_gtt_window_drop(struct i915_sim_gtt_window *w);
int i915_sim_hws_write32_locked(struct i915_sim *sim, u32 offset, u32 val);
int i915_sim_hws_write32(struct i915_sim *sim, u32 offset, u32 val);
int i915_sim_stolen_init(struct i915_sim *sim);
void i915_sim_stolen_map(struct i915_sim *sim);
void i915_sim_stolen_fini(struct i915_sim *sim);

/**
 * struct i915_sim_stolen_state - what became of the firmware's stolen memory
 * @bad_dwords: framebuffer dwords that no longer hold the firmware's pattern
 * @first_bad: byte offset of the first of them
 * @bad_entries: GTT entries of the stolen range no longer pointing at
 *	their stolen page
 * @first_bad_entry: index of the first of them
 */
struct i915_sim_stolen_state {
	unsigned long bad_dwords;
	unsigned long first_bad;
	unsigned int bad_entries;
	unsigned int first_bad_entry;
};

void i915_sim_stolen_check(struct i915_sim *sim,
			   struct i915_sim_stolen_state *state);

/* i915_sim_fence.c: fences, tiled addressing, the memory controller */
void i915_sim_mc_reset(struct i915_sim *sim);
bool i915_sim_mc_read_only(struct i915_sim *sim, u32 reg);
u64 i915_sim_tiled_offset(struct i915_sim *sim, u64 v, u32 stride, bool y,
			  u32 *run);
int i915_sim_fence_translate(struct i915_sim *sim, u32 addr, u32 *out,
			     u32 *run);
int i915_sim_fence_copy(struct i915_sim *sim, u32 addr, void *buf,
			size_t len, bool to_gpu);

/**
 * struct i915_sim_fence_desc - the layout of one valid fence
 * @start: first GTT address of its range
 * @end: end of the range (exclusive)
 * @stride: bytes per row of tiles
 * @y: Y tiling, else X
 */
struct i915_sim_fence_desc {
	u64 start;
	u64 end;
	u32 stride;
	bool y;
};

int i915_sim_fence_find(struct i915_sim *sim, u32 addr,
			struct i915_sim_fence_desc *d);
bool i915_sim_fence_reg_is(struct i915_sim *sim, u32 reg);

/* i915_sim_aperture.c: the CPU's view of fenced aperture pages */
int i915_sim_aperture_init(struct i915_sim *sim);
void i915_sim_aperture_fini(struct i915_sim *sim);
int i915_sim_shadow_pfn(struct i915_sim *sim, u32 addr,
			const struct i915_sim_fence_desc *f,
			unsigned long *pfn);
void i915_sim_shadow_sync(struct i915_sim *sim, bool all);
void i915_sim_shadow_check(struct i915_sim *sim);
void i915_sim_shadow_gtt_changed(struct i915_sim *sim, unsigned int first,
				 unsigned int count);

/* i915_sim_pci.c: the virtual PCI bus */
int i915_sim_pci_create(struct i915_sim *sim);
void i915_sim_pci_destroy(struct i915_sim *sim);

/* i915_sim_regwin.c: the register window of user space (sysfs resource0) */
struct i915_sim_regwin *i915_sim_regwin_attach(struct i915_sim *sim,
					       struct pci_dev *pdev);
void i915_sim_regwin_detach(struct i915_sim_regwin *win);

/* i915_sim_cs.c: the render command streamer */
int i915_sim_cs_init(struct i915_sim *sim);
void i915_sim_cs_fini(struct i915_sim *sim);
bool i915_sim_cs_quiet_locked(struct i915_sim_cs *cs);
void i915_sim_cs_debugfs_init(struct i915_sim *sim, struct dentry *dir);

/* i915_sim_debugfs.c */
void i915_sim_debugfs_init(struct i915_sim *sim, struct dentry *root);
void i915_sim_debugfs_fini(struct i915_sim *sim);

#endif /* _I915_SIM_H_ */
