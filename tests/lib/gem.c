// SPDX-License-Identifier: GPL-2.0
/*
 * Thin wrappers of the GEM and i915 ioctls.
 */
#include <setjmp.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <sys/mman.h>

#include "gem.h"

int __gem_getparam(int fd, int param, int *value)
{
	struct drm_i915_getparam gp = { .param = param, .value = value };

	return igt_ioctl(fd, DRM_IOCTL_I915_GETPARAM, &gp);
}

int gem_getparam(int fd, int param)
{
	int value = -1;

	igt_assert_ok(__gem_getparam(fd, param, &value));
	return value;
}

int __gem_create(int fd, uint64_t *size, uint32_t *handle)
{
	struct drm_i915_gem_create c = { .size = *size };
	int ret = igt_ioctl(fd, DRM_IOCTL_I915_GEM_CREATE, &c);

	if (!ret) {
		*size = c.size;
		*handle = c.handle;
	}
	return ret;
}

uint32_t gem_create(int fd, uint64_t size)
{
	uint32_t handle = 0;

	igt_assert_ok(__gem_create(fd, &size, &handle));
	igt_assert_neq(handle, 0);
	return handle;
}

/*
 * The ioctls whose argument is one handle and one more 32-bit word
 * (struct drm_gem_close, drm_i915_gem_unpin, _busy, _caching; the
 * kernel copies only the size the request encodes, so 4-byte
 * drm_i915_gem_sw_finish fits too): the word in @value goes in, and
 * comes back in it.
 */
struct handle_arg {
	uint32_t handle;
	uint32_t value;
};

int __gem_handle_ioctl(int fd, unsigned long request, uint32_t handle,
		       uint32_t *value)
{
	struct handle_arg arg = { .handle = handle, .value = value ? *value : 0 };
	int ret = igt_ioctl(fd, request, &arg);

	if (!ret && value)
		*value = arg.value;
	return ret;
}

_Static_assert(sizeof(struct drm_gem_close) == sizeof(struct handle_arg) &&
	       sizeof(struct drm_i915_gem_unpin) == sizeof(struct handle_arg) &&
	       sizeof(struct drm_i915_gem_busy) == sizeof(struct handle_arg) &&
	       sizeof(struct drm_i915_gem_caching) == sizeof(struct handle_arg) &&
	       offsetof(struct drm_i915_gem_busy, busy) ==
	       offsetof(struct handle_arg, value) &&
	       offsetof(struct drm_i915_gem_caching, caching) ==
	       offsetof(struct handle_arg, value),
	       "not a handle and a 32-bit value");

int __gem_close(int fd, uint32_t handle)
{
	return __gem_handle_ioctl(fd, DRM_IOCTL_GEM_CLOSE, handle, NULL);
}

void gem_close(int fd, uint32_t handle)
{
	igt_assert_ok(__gem_close(fd, handle));
}

int __gem_flink(int fd, uint32_t handle, uint32_t *name)
{
	struct drm_gem_flink f = { .handle = handle };
	int ret = igt_ioctl(fd, DRM_IOCTL_GEM_FLINK, &f);

	if (!ret)
		*name = f.name;
	return ret;
}

uint32_t gem_flink(int fd, uint32_t handle)
{
	uint32_t name = 0;

	igt_assert_ok(__gem_flink(fd, handle, &name));
	igt_assert_neq(name, 0);
	return name;
}

int __gem_open(int fd, uint32_t name, uint32_t *handle, uint64_t *size)
{
	struct drm_gem_open o = { .name = name };
	int ret = igt_ioctl(fd, DRM_IOCTL_GEM_OPEN, &o);

	if (!ret) {
		*handle = o.handle;
		if (size)
			*size = o.size;
	}
	return ret;
}

uint32_t gem_open(int fd, uint32_t name)
{
	uint32_t handle = 0;

	igt_assert_ok(__gem_open(fd, name, &handle, NULL));
	igt_assert_neq(handle, 0);
	return handle;
}

/* struct drm_i915_gem_pread and _pwrite are the same five fields */
_Static_assert(sizeof(struct drm_i915_gem_pread) ==
	       sizeof(struct drm_i915_gem_pwrite) &&
	       offsetof(struct drm_i915_gem_pread, data_ptr) ==
	       offsetof(struct drm_i915_gem_pwrite, data_ptr) &&
	       offsetof(struct drm_i915_gem_pread, size) ==
	       offsetof(struct drm_i915_gem_pwrite, size),
	       "PREAD and PWRITE arguments differ");

int __gem_rw(int fd, bool write, uint32_t handle, uint64_t offset,
	     const void *buf, uint64_t len)
{
	struct drm_i915_gem_pread p = {
		.handle = handle,
		.offset = offset,
		.size = len,
		.data_ptr = to_user_pointer(buf),
	};

	return igt_ioctl(fd, write ? DRM_IOCTL_I915_GEM_PWRITE :
				     DRM_IOCTL_I915_GEM_PREAD, &p);
}

int __gem_read(int fd, uint32_t handle, uint64_t offset, void *buf,
	       uint64_t len)
{
	return __gem_rw(fd, false, handle, offset, buf, len);
}

void gem_read(int fd, uint32_t handle, uint64_t offset, void *buf,
	      uint64_t len)
{
	igt_assert_ok(__gem_read(fd, handle, offset, buf, len));
}

uint32_t gem_read_dword(int fd, uint32_t handle, uint64_t offset)
{
	uint32_t v;

	gem_read(fd, handle, offset, &v, sizeof(v));
	return v;
}

int __gem_write(int fd, uint32_t handle, uint64_t offset, const void *buf,
		uint64_t len)
{
	return __gem_rw(fd, true, handle, offset, buf, len);
}

void gem_write(int fd, uint32_t handle, uint64_t offset, const void *buf,
	       uint64_t len)
{
	igt_assert_ok(__gem_write(fd, handle, offset, buf, len));
}

int __gem_mmap(int fd, uint32_t handle, uint64_t offset, uint64_t size,
	       uint64_t flags, void **ptr)
{
	struct drm_i915_gem_mmap m = {
		.handle = handle,
		.offset = offset,
		.size = size,
		.flags = flags,
	};
	int ret = igt_ioctl(fd, DRM_IOCTL_I915_GEM_MMAP, &m);

	if (!ret) {
		/* a 32-bit caller must get an address it can use */
		igt_assert_eq_u64(m.addr_ptr, (uintptr_t)m.addr_ptr);
		*ptr = from_user_pointer(m.addr_ptr);
	}
	return ret;
}

void *gem_mmap__cpu(int fd, uint32_t handle, uint64_t offset, uint64_t size)
{
	void *ptr = NULL;

	igt_assert_ok(__gem_mmap(fd, handle, offset, size, 0, &ptr));
	igt_assert(ptr);
	return ptr;
}

int __gem_mmap_offset(int fd, uint32_t handle, uint64_t flags,
		      uint64_t *offset)
{
	struct drm_i915_gem_mmap_offset m = {
		.handle = handle,
		.flags = flags,
	};
	int ret = igt_ioctl(fd, DRM_IOCTL_I915_GEM_MMAP_OFFSET, &m);

	if (!ret)
		*offset = m.offset;
	return ret;
}

void *gem_mmap_offset(int fd, uint32_t handle, uint64_t size,
		      uint64_t flags)
{
	uint64_t offset = 0;
	void *ptr;

	igt_assert_ok(__gem_mmap_offset(fd, handle, flags, &offset));
	ptr = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, offset);
	igt_assert_f(ptr != MAP_FAILED, "mmap of offset 0x%" PRIx64 ": %s\n",
		     offset, strerror(errno));
	return ptr;
}

int __gem_set_domain(int fd, uint32_t handle, uint32_t read, uint32_t write)
{
	struct drm_i915_gem_set_domain d = {
		.handle = handle,
		.read_domains = read,
		.write_domain = write,
	};

	return igt_ioctl(fd, DRM_IOCTL_I915_GEM_SET_DOMAIN, &d);
}

void gem_set_domain(int fd, uint32_t handle, uint32_t read, uint32_t write)
{
	igt_assert_ok(__gem_set_domain(fd, handle, read, write));
}

int __gem_sw_finish(int fd, uint32_t handle)
{
	return __gem_handle_ioctl(fd, DRM_IOCTL_I915_GEM_SW_FINISH, handle,
				  NULL);
}

int __gem_set_caching(int fd, uint32_t handle, uint32_t caching)
{
	return __gem_handle_ioctl(fd, DRM_IOCTL_I915_GEM_SET_CACHING, handle,
				  &caching);
}

int __gem_get_caching(int fd, uint32_t handle, uint32_t *caching)
{
	uint32_t c = 0xdeadbeef;
	int ret = __gem_handle_ioctl(fd, DRM_IOCTL_I915_GEM_GET_CACHING,
				     handle, &c);

	if (!ret)
		*caching = c;
	return ret;
}

uint32_t gem_get_caching(int fd, uint32_t handle)
{
	uint32_t caching = ~0u;

	igt_assert_ok(__gem_get_caching(fd, handle, &caching));
	return caching;
}

int __gem_get_aperture(int fd, struct drm_i915_gem_get_aperture *ap)
{
	memset(ap, 0, sizeof(*ap));
	return igt_ioctl(fd, DRM_IOCTL_I915_GEM_GET_APERTURE, ap);
}

long long gem_wait_object_count(int fd, long long want)
{
	double end = igt_now() + 2.0;
	long long count, bytes;

	for (;;) {
		igt_gem_objects(fd, &count, &bytes);
		if (count == want || igt_now() > end)
			return count;
		usleep(10000);
	}
}

void gem_object_counts(int fd, long long *bound, long long *purgeable,
		       long long *purgeable_bytes)
{
	long long b, bb, p, pb;
	char buf[1 << 16], *line;
	int ret;

	ret = igt_debugfs_read(fd, "i915_gem_objects", buf, sizeof(buf));
	igt_assert_f(ret > 0, "reading i915_gem_objects: %s",
		     igt_errname(ret));
	line = strchr(buf, '\n');
	igt_assert(line);
	igt_assert_f(sscanf(line + 1,
			    "%lld bound objects, %lld bytes; %lld purgeable objects, %lld bytes",
			    &b, &bb, &p, &pb) == 4,
		     "second line of i915_gem_objects: %.80s", line + 1);
	if (bound)
		*bound = b;
	if (purgeable)
		*purgeable = p;
	if (purgeable_bytes)
		*purgeable_bytes = pb;
}

static sigjmp_buf sigbus_jmp;

static void on_sigbus(int sig)
{
	siglongjmp(sigbus_jmp, sig);
}

bool access_faults(volatile uint32_t *p, bool write, uint32_t v)
{
	struct sigaction sa = { .sa_handler = on_sigbus }, old;
	bool bus = false;

	sigaction(SIGBUS, &sa, &old);
	if (sigsetjmp(sigbus_jmp, 1))
		bus = true;
	else if (write)
		*p = v;
	else
		(void)*p;
	sigaction(SIGBUS, &old, NULL);
	return bus;
}
