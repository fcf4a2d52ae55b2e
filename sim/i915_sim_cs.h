/* SPDX-License-Identifier: GPL-2.0 */
/**
 * DOC: software model - command streamer internals
 *
 * Shared by the command streamer (i915_sim_cs.c), its MI commands
 * (i915_sim_mi.c), the blitter (i915_sim_blt.c) and the 3D pipe
 * (i915_sim_3d.c): the engine state of
 * &struct i915_sim_cs and &struct i915_sim_cmd, one command being
 * executed.  The streamer fetches and decodes a header, asks the client's
 * decoder for the length and the function that executes it, fetches the
 * dwords and calls that function; the function reports how the stream
 * goes on as an &enum i915_sim_cs_result.
 */
#ifndef _I915_SIM_CS_H_
#define _I915_SIM_CS_H_

#include <linux/atomic.h>
#include <linux/spinlock.h>
#include <linux/types.h>

#include "i915_sim.h"
#include "i915_sim_regs.h"

struct dentry;
struct task_struct;
struct i915_sim_cs;
struct i915_sim_cmd;

/**
 * enum i915_sim_cs_result - how the command stream goes on after a command
 * @I915_SIM_CS_NEXT: with the next command
 * @I915_SIM_CS_JUMP: at &i915_sim_cmd.target (MI_BATCH_BUFFER_START)
 * @I915_SIM_CS_RETURN: in the ring after the batch (MI_BATCH_BUFFER_END)
 * @I915_SIM_CS_WAIT: with the next command once the wait is released
 * @I915_SIM_CS_STALL: not yet: the ring does not hold the whole command
 * @I915_SIM_CS_ERROR: never: the command set an error, the engine stops
 * @I915_SIM_CS_ABORT: as the reset or stop that interrupted it decides
 */
enum i915_sim_cs_result {
	I915_SIM_CS_NEXT,
	I915_SIM_CS_JUMP,
	I915_SIM_CS_RETURN,
	I915_SIM_CS_WAIT,
	I915_SIM_CS_STALL,
	I915_SIM_CS_ERROR,
	I915_SIM_CS_ABORT,
};

typedef enum i915_sim_cs_result (*i915_sim_cmd_fn)(struct i915_sim_cs *cs,
						   struct i915_sim_cmd *cmd);

/**
 * struct i915_sim_cmd - one command as the streamer fetches it
 * @batch: the command is in a batch buffer (else in the ring)
 * @secure: privileged commands are allowed (the ring, a secure batch)
 * @addr: GTT address of its header
 * @ring_start: ring: GTT address of the ring
 * @ring_size: ring: size in bytes
 * @head_reg: ring: RING_HEAD when the command was fetched
 * @head: ring: byte offset of the header in the ring
 * @avail: ring: bytes between the header and the tail
 * @epoch: &i915_sim_cs.epoch when the command was fetched
 * @len: total dwords, set by the decoder
 * @exec: executes the command, set by the decoder
 * @exec_locked: executes it with the model's lock held, or NULL; set by
 *	the decoder (cs_execute_locked())
 * @privileged: only executed when @secure, set by the decoder
 * @mem_privilege: the privilege is a memory access (a physical address)
 * @fetched: dwords of @dw read (the decoder may read more than the header)
 * @dw: the command's dwords, when @len <= %I915_SIM_CS_MAX_FETCH
 * @target: JUMP: GTT address of the batch
 * @target_secure: JUMP: the batch is secure
 * @eir: ERROR: EIR bits
 * @ipeir: ERROR: IPEIR bits
 * @pgtbl_er: ERROR: PGTBL_ER bits of a page fault (EIR page-table error)
 * @why: ERROR: what was wrong, for debugfs
 * @fault: ERROR: the kind of GTT fault, NULL if none
 */
struct i915_sim_cmd {
	bool batch;
	bool secure;
	u32 addr;
	u32 ring_start;
	u32 ring_size;
	u32 head_reg;
	u32 head;
	u32 avail;
	unsigned int epoch;

	u32 len;
	i915_sim_cmd_fn exec;
	i915_sim_cmd_fn exec_locked;
	bool privileged;
	bool mem_privilege;
	u32 fetched;
	u32 dw[I915_SIM_CS_MAX_FETCH];

	u32 target;
	bool target_secure;
	u32 eir;
	u32 ipeir;
	u32 pgtbl_er;
	const char *why;
	const char *fault;
};

/**
 * struct i915_sim_blt_setup - state XY_SETUP_BLT leaves for later blits
 * @br13: BR13 of the setup
 * @clip_x1: clip rectangle left (inclusive)
 * @clip_y1: clip rectangle top (inclusive)
 * @clip_x2: clip rectangle right (exclusive)
 * @clip_y2: clip rectangle bottom (exclusive)
 * @dst: destination base address
 * @bg: background colour
 * @fg: foreground colour
 * @pattern: pattern base address
 */
struct i915_sim_blt_setup {
	u32 br13;
	s32 clip_x1, clip_y1, clip_x2, clip_y2;
	u32 dst;
	u32 bg;
	u32 fg;
	u32 pattern;
};

/**
 * struct i915_sim_drawrect - one 3DSTATE_DRAWING_RECTANGLE executed
 * @dr1: Gen3 DR1 (flags); 0 on Gen4
 * @dr2: ymin << 16 | xmin
 * @dr3: ymax << 16 | xmax (inclusive)
 * @dr4: origin, yorg << 16 | xorg (signed)
 */
struct i915_sim_drawrect {
	u32 dr1;
	u32 dr2;
	u32 dr3;
	u32 dr4;
};

/**
 * struct i915_sim_cs - the render command streamer of the model
 * @sim: the model
 * @task: the kernel thread that executes commands
 * @in_batch: executing a batch buffer (HEAD is past its BATCH_BUFFER_START)
 * @batch_addr: GTT address of the next command of the batch
 * @batch_start: GTT address the batch started at (debugfs)
 * @batch_secure: the batch may use privileged commands
 * @executing: a command is being executed outside &i915_sim.lock
 * @waiting: blocked in MI_WAIT_FOR_EVENT (RING_WAIT is set in RING_CTL)
 * @halted: stopped by an error until the ring is disabled or reset
 * @stalled: the ring holds part of a command; wait for TAIL to move
 * @stall_tail: TAIL when @stalled was set
 * @epoch: bumped when the ring is disabled or the engine reset; a command
 *	fetched in an older epoch is dropped, and long ones stop early
 * @arb_enabled: MI_ARB_ON_OFF state (no effect: one ring)
 * @suspend_flush: MI_SUSPEND_FLUSH state (no effect: no display)
 * @err_addr: GTT address of the command that stopped the engine
 * @err_header: its header
 * @err_why: what was wrong with it, NULL if nothing stopped the engine
 * @err_fault: the kind of GTT fault, NULL if it was none
 * @commands: commands executed (debugfs)
 * @batches: batch buffers started (debugfs)
 * @blits: blits executed (debugfs)
 * @blit_bytes: bytes written by blits (debugfs)
 * @flushes: MI_FLUSH and PIPE_CONTROL executed (debugfs)
 * @user_interrupts: MI_USER_INTERRUPT executed (debugfs)
 * @errors: errors that stopped the engine (debugfs)
 * @privileged_noops: privileged commands of non-secure batches, dropped
 *	(debugfs)
 * @idle_looks: looks at the ring under the model's lock by the idle poll
 *	(debugfs): one per poll, however long it lasts
 * @locked_commands: commands executed within the hold of the model's lock
 *	that picked them (cs_execute_locked(); debugfs)
 * @cmd: the command being executed; the thread's own
 * @fetch: the page commands are fetched from; the thread's own
 * @blt: blitter setup state; the thread's own
 * @span_dst: blitter span buffer; the thread's own
 * @span_src: blitter span buffer; the thread's own
 * @rect_lock: protects @rects, @rect_next and @rect_total; taken by the
 *	thread and by debugfs, never with &i915_sim.lock held
 * @rects: the last %I915_SIM_DRAWRECT_LOG drawing rectangles
 * @rect_next: slot of @rects the next rectangle goes to
 * @rect_total: drawing rectangles executed since the log was cleared
 *
 * @kicks: kicks so far (written under &i915_sim.lock, read without it
 *	by the thread's idle poll)
 * @asleep: the thread found no work and sleeps, or is about to: the next
 *	kick wakes it (under &i915_sim.lock; a thread woken otherwise, by
 *	kthread_stop(), leaves it set and costs that kick a needless wake-up)
 *
 * The fields from @in_batch to @err_fault are protected by &i915_sim.lock
 * (@epoch is also read without it, to stop long commands early).
 */
struct i915_sim_cs {
	struct i915_sim *sim;
	struct task_struct *task;

	bool in_batch;
	u32 batch_addr;
	u32 batch_start;
	bool batch_secure;
	bool executing;
	bool waiting;
	bool halted;
	bool stalled;
	u32 stall_tail;
	unsigned int epoch;
	bool arb_enabled;
	bool suspend_flush;
	unsigned long kicks;
	bool asleep;
	u32 err_addr;
	u32 err_header;
	const char *err_why;
	const char *err_fault;

	atomic_long_t commands;
	atomic_long_t batches;
	atomic_long_t blits;
	atomic_long_t blit_bytes;
	atomic_long_t flushes;
	atomic_long_t user_interrupts;
	atomic_long_t errors;
	atomic_long_t privileged_noops;
	atomic_long_t idle_looks;
	atomic_long_t locked_commands;

	struct i915_sim_cmd cmd;
	struct i915_sim_gtt_window fetch;
	struct i915_sim_blt_setup blt;
	u8 span_dst[I915_SIM_BLT_CHUNK] __aligned(8);
	u8 span_src[I915_SIM_BLT_CHUNK] __aligned(8);

	spinlock_t rect_lock; /* the drawing-rectangle log below */
	struct i915_sim_drawrect rects[I915_SIM_DRAWRECT_LOG];
	unsigned int rect_next;
	u64 rect_total;
};

/* i915_sim_cs.c */
int i915_sim_cs_fetch(struct i915_sim_cs *cs, struct i915_sim_cmd *cmd,
		      u32 index, u32 *val);
bool i915_sim_cs_aborted(struct i915_sim_cs *cs, struct i915_sim_cmd *cmd);
enum i915_sim_cs_result i915_sim_cs_bad(struct i915_sim_cs *cs,
					struct i915_sim_cmd *cmd,
					const char *why);
enum i915_sim_cs_result i915_sim_cs_fault(struct i915_sim_cs *cs,
					  struct i915_sim_cmd *cmd, int err,
					  u32 pgtbl_er, const char *why);
enum i915_sim_cs_result i915_sim_cs_privilege(struct i915_sim_cs *cs,
					      struct i915_sim_cmd *cmd);
enum i915_sim_cs_result i915_sim_cs_skip(struct i915_sim_cs *cs,
					 struct i915_sim_cmd *cmd);

/* i915_sim_mi.c */
enum i915_sim_cs_result i915_sim_mi_decode(struct i915_sim_cs *cs,
					   struct i915_sim_cmd *cmd);

/* i915_sim_blt.c */
enum i915_sim_cs_result i915_sim_blt_decode(struct i915_sim_cs *cs,
					    struct i915_sim_cmd *cmd);

/* i915_sim_3d.c */
enum i915_sim_cs_result i915_sim_3d_decode(struct i915_sim_cs *cs,
					   struct i915_sim_cmd *cmd);
void i915_sim_3d_init(struct i915_sim_cs *cs);
void i915_sim_3d_debugfs_init(struct i915_sim_cs *cs, struct dentry *dir);

#endif /* _I915_SIM_CS_H_ */
