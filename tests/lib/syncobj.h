/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DRM core's syncobj ioctls (DRM_IOCTL_SYNCOBJ_*), which a driver
 * with DRIVER_SYNCOBJ and DRIVER_SYNCOBJ_TIMELINE offers, for the tests
 * of EXECBUFFER2's FENCE_ARRAY and TIMELINE_FENCES.
 *
 * As in gem.h: __foo() returns 0 or -errno, foo() asserts success.
 */
#ifndef IGT_SYNCOBJ_H
#define IGT_SYNCOBJ_H

#include "gem.h"

/* SYNCOBJ_CREATE with @flags (DRM_SYNCOBJ_CREATE_SIGNALED) */
int __syncobj_create(int fd, uint32_t flags, uint32_t *handle);
uint32_t syncobj_create(int fd, uint32_t flags);
void syncobj_destroy(int fd, uint32_t handle);
/*
 * SYNCOBJ_WAIT for one binary syncobj until @timeout_ns (absolute
 * CLOCK_MONOTONIC; 0 polls) with @flags: 0, -ETIME, or -EINVAL when it
 * has no fence (without WAIT_FOR_SUBMIT).
 */
int __syncobj_wait(int fd, uint32_t handle, int64_t timeout_ns,
		   uint32_t flags);
/* SYNCOBJ_TIMELINE_WAIT for @point of one syncobj, as __syncobj_wait() */
int __syncobj_timeline_wait(int fd, uint32_t handle, uint64_t point,
			    int64_t timeout_ns, uint32_t flags);
/* SYNCOBJ_QUERY: the last signalled point of a timeline syncobj */
uint64_t syncobj_query(int fd, uint32_t handle);
/* an absolute CLOCK_MONOTONIC deadline @ms from now, for the waits */
int64_t syncobj_deadline_ms(unsigned int ms);
/* SYNCOBJ_FD_TO_HANDLE with IMPORT_SYNC_FILE: @sync_file into @handle */
int __syncobj_import_sync_file(int fd, uint32_t handle, int sync_file);

#endif /* IGT_SYNCOBJ_H */
