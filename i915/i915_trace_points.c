// SPDX-License-Identifier: GPL-2.0
/**
 * DOC: tracepoint definitions
 *
 * The one place that instantiates the events declared in i915_trace.h.
 */

#include "i915_drv.h"
#include "i915_gem_execbuffer.h"

#ifndef __CHECKER__
#define CREATE_TRACE_POINTS
#include "i915_trace.h"
#endif
