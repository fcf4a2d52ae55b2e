// SPDX-License-Identifier: GPL-2.0
/* The DRM core's syncobj ioctls (see syncobj.h). */
#include <time.h>

#include "syncobj.h"

int __syncobj_create(int fd, uint32_t flags, uint32_t *handle)
{
	struct drm_syncobj_create args = { .flags = flags };
	int ret = igt_ioctl(fd, DRM_IOCTL_SYNCOBJ_CREATE, &args);

	*handle = args.handle;
	return ret;
}

uint32_t syncobj_create(int fd, uint32_t flags)
{
	uint32_t handle = 0;

	igt_assert_ok(__syncobj_create(fd, flags, &handle));
	return handle;
}

void syncobj_destroy(int fd, uint32_t handle)
{
	struct drm_syncobj_destroy args = { .handle = handle };

	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_SYNCOBJ_DESTROY, &args));
}

int __syncobj_wait(int fd, uint32_t handle, int64_t timeout_ns,
		   uint32_t flags)
{
	struct drm_syncobj_wait args = {
		.handles = to_user_pointer(&handle),
		.timeout_nsec = timeout_ns,
		.count_handles = 1,
		.flags = flags,
	};

	return igt_ioctl(fd, DRM_IOCTL_SYNCOBJ_WAIT, &args);
}

int __syncobj_timeline_wait(int fd, uint32_t handle, uint64_t point,
			    int64_t timeout_ns, uint32_t flags)
{
	struct drm_syncobj_timeline_wait args = {
		.handles = to_user_pointer(&handle),
		.points = to_user_pointer(&point),
		.timeout_nsec = timeout_ns,
		.count_handles = 1,
		.flags = flags,
	};

	return igt_ioctl(fd, DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT, &args);
}

uint64_t syncobj_query(int fd, uint32_t handle)
{
	uint64_t point = 0;
	struct drm_syncobj_timeline_array args = {
		.handles = to_user_pointer(&handle),
		.points = to_user_pointer(&point),
		.count_handles = 1,
	};

	igt_assert_ok(igt_ioctl(fd, DRM_IOCTL_SYNCOBJ_QUERY, &args));
	return point;
}

int64_t syncobj_deadline_ms(unsigned int ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ll + ts.tv_nsec + ms * 1000000ll;
}

int __syncobj_import_sync_file(int fd, uint32_t handle, int sync_file)
{
	struct drm_syncobj_handle args = {
		.handle = handle,
		.flags = DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE,
		.fd = sync_file,
	};

	return igt_ioctl(fd, DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE, &args);
}
