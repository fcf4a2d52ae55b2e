/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Thin wrappers of the GEM and i915 ioctls for the tests.
 *
 * __gem_foo() returns 0 or -errno and leaves every decision to the
 * caller; gem_foo() asserts success (and returns the useful value).
 */
#ifndef IGT_GEM_H
#define IGT_GEM_H

#include "igt-lite.h"

static inline uint64_t to_user_pointer(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

static inline void *from_user_pointer(uint64_t u)
{
	return (void *)(uintptr_t)u;
}

/*
 * An ioctl whose argument is a handle and one 32-bit word (GEM_CLOSE,
 * SW_FINISH, SET/GET_CACHING, BUSY, UNPIN): *@value (0 if NULL) goes in
 * and, on success, the kernel's word comes back in it.
 */
int __gem_handle_ioctl(int fd, unsigned long request, uint32_t handle,
		       uint32_t *value);

/* GETPARAM */
int __gem_getparam(int fd, int param, int *value);
int gem_getparam(int fd, int param);

/* GEM_CREATE: *size in, rounded size out */
int __gem_create(int fd, uint64_t *size, uint32_t *handle);
uint32_t gem_create(int fd, uint64_t size);

/* GEM_CLOSE */
int __gem_close(int fd, uint32_t handle);
void gem_close(int fd, uint32_t handle);

/* GEM_FLINK, GEM_OPEN */
int __gem_flink(int fd, uint32_t handle, uint32_t *name);
uint32_t gem_flink(int fd, uint32_t handle);
int __gem_open(int fd, uint32_t name, uint32_t *handle, uint64_t *size);
uint32_t gem_open(int fd, uint32_t name);

/* PREAD, PWRITE; __gem_rw() is either, for code that tests both */
int __gem_rw(int fd, bool write, uint32_t handle, uint64_t offset,
	     const void *buf, uint64_t len);
int __gem_read(int fd, uint32_t handle, uint64_t offset, void *buf,
	       uint64_t len);
void gem_read(int fd, uint32_t handle, uint64_t offset, void *buf,
	      uint64_t len);
/* the dword at @offset of @handle, read with PREAD */
uint32_t gem_read_dword(int fd, uint32_t handle, uint64_t offset);
int __gem_write(int fd, uint32_t handle, uint64_t offset, const void *buf,
		uint64_t len);
void gem_write(int fd, uint32_t handle, uint64_t offset, const void *buf,
	       uint64_t len);

/* I915_GEM_MMAP: returns the address in *ptr */
int __gem_mmap(int fd, uint32_t handle, uint64_t offset, uint64_t size,
	       uint64_t flags, void **ptr);
void *gem_mmap__cpu(int fd, uint32_t handle, uint64_t offset,
		    uint64_t size);

/*
 * MMAP_OFFSET (MMAP_GTT is flags I915_MMAP_OFFSET_GTT): the fake offset
 * in *offset; gem_mmap_offset() maps @size bytes of it with PROT_READ |
 * PROT_WRITE, MAP_SHARED and asserts success
 */
int __gem_mmap_offset(int fd, uint32_t handle, uint64_t flags,
		      uint64_t *offset);
void *gem_mmap_offset(int fd, uint32_t handle, uint64_t size,
		      uint64_t flags);

/* SET_DOMAIN, SW_FINISH */
/*
 * The second line of debugfs i915_gem_objects: the bound objects and the
 * purgeable (populated DONTNEED) ones; a NULL pointer skips its number.
 */
void gem_object_counts(int fd, long long *bound, long long *purgeable,
		       long long *purgeable_bytes);

int __gem_set_domain(int fd, uint32_t handle, uint32_t read, uint32_t write);
void gem_set_domain(int fd, uint32_t handle, uint32_t read, uint32_t write);
int __gem_sw_finish(int fd, uint32_t handle);

/* SET_CACHING, GET_CACHING */
int __gem_set_caching(int fd, uint32_t handle, uint32_t caching);
int __gem_get_caching(int fd, uint32_t handle, uint32_t *caching);
uint32_t gem_get_caching(int fd, uint32_t handle);

/* GET_APERTURE */
int __gem_get_aperture(int fd, struct drm_i915_gem_get_aperture *ap);

/* i915_gem_objects count, after waiting up to 2 s for it to equal @want */
long long gem_wait_object_count(int fd, long long want);

/*
 * Does reading (@write false) or writing @v to (@write true) @p raise
 * SIGBUS?  The fault is caught; the previous SIGBUS action is restored.
 */
bool access_faults(volatile uint32_t *p, bool write, uint32_t v);

#endif /* IGT_GEM_H */
