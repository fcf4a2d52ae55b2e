/* SPDX-License-Identifier: GPL-2.0 */
/**
 * DOC: software model configuration
 *
 * Choices the software model makes where real parts differ or the fact
 * sheet leaves a value open: aperture and BAR sizes, the virtual PCI bus
 * layout, config-space identity and register reset values.  Hardware facts
 * shared with the driver stay in i915_reg.h.
 */
#ifndef _I915_SIM_REGS_H_
#define _I915_SIM_REGS_H_

#include <linux/bits.h>
#include <linux/pci.h>
#include <linux/sizes.h>

/* Aperture (BAR 2) of every simulated part: the drivers just read it. */
#define I915_SIM_APERTURE_SIZE		SZ_256M

/* PTE table sizes chosen for parts whose GTT size is a PGTBL_CTL code. */
#define I915_SIM_I965_GTT_BYTES		SZ_512K	/* G33, PNV, 965: 512 MiB */
#define I915_SIM_G4X_GTT_BYTES		SZ_1M	/* G4x GMCH code 1: 1 GiB */
#define I915_SIM_PTE_BYTES		4

/* Virtual PCI topology: one root bus, the GPU at 00:02.0 */
#define I915_SIM_DOMAIN_MAX		0xffff	/* libdrm parses 4 hex digits */
#define I915_SIM_BUS_MAX		0xff
#define I915_SIM_GPU_DEVFN		PCI_DEVFN(2, 0)
#define I915_SIM_CFG_SIZE		256
#define I915_SIM_REVISION		0x02
#define I915_SIM_INTX_PIN		1	/* INTA# */
/*
 * The power-management capability, the only one in the list, where the
 * 945G and GM45 have theirs: PCI PM 1.1 with device-specific
 * initialisation, D0 and D3hot only, and No_Soft_Reset clear, so D3hot
 * to D0 resets the function.
 */
#define I915_SIM_PM_CAP			0xd0
#define I915_SIM_PMC			(0x0002 | PCI_PM_CAP_DSI)

/*
 * The firmware's choice of stolen memory (GMS in the host bridge's GMCH
 * control): 8 MiB on Gen3, 16 MiB on Gen4, values their BIOSes offer.
 * GMCH control is locked: writes to the host bridge are ignored.
 */
#define I915_SIM_GEN3_GMS		0x3	/* 8 MiB */
#define I915_SIM_GEN4_GMS		0x4	/* 16 MiB */
#define I915_SIM_HOST_BRIDGE_DEVFN	PCI_DEVFN(0, 0)

/*
 * One memory window holds every BAR.  Its CPU range is claimed in
 * iomem_resource (searched downwards from the top of physical space, never
 * below 4 GiB); its bus range starts at a fixed address below 4 GiB so
 * that 32-bit BARs fit.  Both are window-size aligned, which keeps every
 * BAR naturally aligned in either space.
 */
#define I915_SIM_WINDOW_SIZE		SZ_512M
#define I915_SIM_WINDOW_BUS_BASE	0x80000000ull
#define I915_SIM_WINDOW_CPU_MIN		SZ_4G

/* Config-space bits software may change in the GPU's COMMAND register */
#define I915_SIM_COMMAND_WMASK		(PCI_COMMAND_IO | PCI_COMMAND_MEMORY | \
					 PCI_COMMAND_MASTER | \
					 PCI_COMMAND_PARITY | \
					 PCI_COMMAND_SERR | \
					 PCI_COMMAND_INTX_DISABLE)

/* Register reset values: interrupts and error reporting all masked */
#define I915_SIM_IMR_RESET		0xffffffffu
#define I915_SIM_EMR_RESET		0xffffffffu
#define I915_SIM_HWSTAM_RESET		0xffffffffu
/*
 * Every unit reports "done" while the engine is idle; while the command
 * streamer executes, bit 0 reads "not done" (the model has one unit).
 */
#define I915_SIM_INSTDONE_IDLE		0xffffffffu
#define I915_SIM_INSTDONE_BUSY		0xfffffffeu

/*
 * IPEIR values the model reports with an instruction-parser error; the
 * register's real bit meanings are not known here, so these are the
 * model's: which kind of error stopped the engine.
 */
#define I915_SIM_IPEIR_BAD_COMMAND	BIT(0)	/* unknown or malformed */
#define I915_SIM_IPEIR_PRIVILEGE	BIT(1)	/* privileged, non-secure */
#define I915_SIM_IPEIR_FAULT		BIT(2)	/* GTT fault on an access */

/* Command streamer limits */
#define I915_SIM_CS_MAX_FETCH		260	/* dwords of a decoded command */
#define I915_SIM_CS_ABORT_CHECK		1024	/* dwords between stop checks */
#define I915_SIM_CMD_DELAY_MAX_US	1000000	/* sim_cmd_delay_us clamp */
#define I915_SIM_BLT_CHUNK		4096	/* bytes per blitter span */
#define I915_SIM_DRAWRECT_LOG		256	/* drawrects entries kept */

/* GTT updates are done in batches of this many entries per lock hold. */
#define I915_SIM_GTT_BATCH		512

#endif /* _I915_SIM_REGS_H_ */
