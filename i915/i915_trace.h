/* SPDX-License-Identifier: GPL-2.0 */
/**
 * DOC: tracepoints
 *
 * Events of the execution path, under the trace system "i915gem" (not
 * "i915": tools that know the in-tree driver's events would misread these):
 * an execbuffer reaching the ring, a request emitted, signalled and
 * retired, and the GTT binding, unbinding and evicting objects.  Enable
 * them with e.g. "echo 1 > /sys/kernel/tracing/events/i915gem/enable".
 */
#if !defined(_I915_TRACE_H_) || defined(TRACE_HEADER_MULTI_READ)
#define _I915_TRACE_H_

#include <linux/tracepoint.h>
#include <linux/types.h>

#include "i915_drv.h"

struct i915_exec;	/* i915_gem_execbuffer.h */

#undef TRACE_SYSTEM
#define TRACE_SYSTEM i915gem
#define TRACE_INCLUDE_FILE i915_trace

TRACE_EVENT(i915_exec_submit,
	    TP_PROTO(struct i915_exec *eb, u64 batch_addr),
	    TP_ARGS(eb, batch_addr),

	    TP_STRUCT__entry(__field(u64, seqno)
			     __field(u64, flags)
			     __field(u64, batch_addr)
			     __field(u32, count)
			     __field(u32, batch_len)
			     __field(u32, cliprects)),

	    TP_fast_assign(__entry->seqno = eb->rq->fence.seqno;
			   __entry->flags = eb->flags;
			   __entry->batch_addr = batch_addr;
			   __entry->count = eb->count;
			   __entry->batch_len = eb->batch_len;
			   __entry->cliprects = eb->num_cliprects;),

	    TP_printk("seqno=%llu objects=%u batch=0x%llx+%u cliprects=%u flags=0x%llx",
		      __entry->seqno, __entry->count, __entry->batch_addr,
		      __entry->batch_len, __entry->cliprects, __entry->flags)
);

DECLARE_EVENT_CLASS(i915_request_class,
		    TP_PROTO(struct i915_request *rq),
		    TP_ARGS(rq),

		    TP_STRUCT__entry(__field(u64, seqno)
				     __field(u32, tail)
				     __field(int, error)),

		    TP_fast_assign(__entry->seqno = rq->fence.seqno;
				   __entry->tail = rq->tail;
				   __entry->error = rq->fence.error;),

		    TP_printk("seqno=%llu tail=0x%x error=%d", __entry->seqno,
			      __entry->tail, __entry->error)
);

DEFINE_EVENT(i915_request_class, i915_request_emit,
	     TP_PROTO(struct i915_request *rq),
	     TP_ARGS(rq)
);

DEFINE_EVENT(i915_request_class, i915_request_signal,
	     TP_PROTO(struct i915_request *rq),
	     TP_ARGS(rq)
);

DEFINE_EVENT(i915_request_class, i915_request_retire,
	     TP_PROTO(struct i915_request *rq),
	     TP_ARGS(rq)
);

DECLARE_EVENT_CLASS(i915_gtt_class,
		    TP_PROTO(struct i915_gem_object *obj, u64 offset, u64 size),
		    TP_ARGS(obj, offset, size),

		    TP_STRUCT__entry(__field(const void *, obj)
				     __field(u64, offset)
				     __field(u64, size)),

		    TP_fast_assign(__entry->obj = obj;
				   __entry->offset = offset;
				   __entry->size = size;),

		    TP_printk("obj=%p offset=0x%llx size=0x%llx", __entry->obj,
			      __entry->offset, __entry->size)
);

DEFINE_EVENT(i915_gtt_class, i915_gtt_bind,
	     TP_PROTO(struct i915_gem_object *obj, u64 offset, u64 size),
	     TP_ARGS(obj, offset, size)
);

DEFINE_EVENT(i915_gtt_class, i915_gtt_unbind,
	     TP_PROTO(struct i915_gem_object *obj, u64 offset, u64 size),
	     TP_ARGS(obj, offset, size)
);

DEFINE_EVENT(i915_gtt_class, i915_gtt_evict,
	     TP_PROTO(struct i915_gem_object *obj, u64 offset, u64 size),
	     TP_ARGS(obj, offset, size)
);

TRACE_EVENT(i915_gtt_evict_something,
	    TP_PROTO(u64 size, u64 alignment),
	    TP_ARGS(size, alignment),

	    TP_STRUCT__entry(__field(u64, size)
			     __field(u64, alignment)),

	    TP_fast_assign(__entry->size = size;
			   __entry->alignment = alignment;),

	    TP_printk("size=0x%llx alignment=0x%llx", __entry->size,
		      __entry->alignment)
);

TRACE_EVENT(i915_gtt_evict_node,
	    TP_PROTO(u64 offset, u64 size),
	    TP_ARGS(offset, size),

	    TP_STRUCT__entry(__field(u64, offset)
			     __field(u64, size)),

	    TP_fast_assign(__entry->offset = offset;
			   __entry->size = size;),

	    TP_printk("offset=0x%llx size=0x%llx", __entry->offset,
		      __entry->size)
);

#endif /* _I915_TRACE_H_ */

/* This part must be outside the include guard. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#include <trace/define_trace.h>
