// SPDX-License-Identifier: GPL-2.0
/*
 * gem_exec_reloc: relocations as section 7.1 of the design describes.
 *
 *  - a wrong presumed offset is patched (target offset + delta written
 *    into the object), and the new offsets are written back to the exec
 *    objects and to the relocation's presumed_offset;
 *  - a right presumed offset is trusted: the kernel leaves that dword
 *    alone (we plant a value it would have changed), with or without
 *    I915_EXEC_NO_RELOC;
 *  - NO_RELOC with no object moved reads no relocation at all (bad
 *    entries, an unreadable array pass, as upstream; intel-gpu-tools'
 *    gem_busy benchmark depends on it); once any object moved, every
 *    relocation is read and checked;
 *  - HANDLE_LUT (targets by index), relocations in a non-batch object,
 *    many relocations and deltas;
 *  - after GEM_INIT or eviction moved an object, the next exec
 *    relocates again; softpin (EXEC_OBJECT_PINNED) puts an object (and
 *    the batch, with NO_RELOC) where it is asked;
 *  - the relocation counters of debugfs i915_exec_stats: entries right
 *    and nothing moved are read once (none with NO_RELOC); stale ones
 *    are patched with one kernel mapping per page;
 *  - a long run of relocations alike (one target, one pair of domains)
 *    with one entry in the middle unlike the others in one field: it is
 *    checked in full (an error is its errno, a stale presumed offset is
 *    patched there alone);
 *  - millions of relocations (128 MiB of entries) without the kernel
 *    copying them: vmalloc use stays flat during the call (a sampling
 *    process reads VmallocUsed), and a relocation array whose pages are
 *    not resident (swapped or never touched) still works.
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exec.h"

#define INSTR I915_GEM_DOMAIN_INSTRUCTION

/* an exec of @n objects, the batch last, with @flags */
static int exec_list(int fd, struct drm_i915_gem_exec_object2 *obj,
		     unsigned int n, uint32_t len, uint64_t flags)
{
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(obj),
		.buffer_count = n,
		.batch_len = len,
		.flags = flags,
	};

	return __gem_execbuf(fd, &eb);
}

/*
 * A store batch by hand: MI_STORE_DWORD_IMM of @value to @addr, the
 * address dword at *@addr_at (byte offset).  Returns the length in bytes.
 */
static uint32_t write_store(int fd, int gen, uint32_t batch, uint32_t addr,
			    uint32_t value, uint32_t *addr_at)
{
	uint32_t cs[8], n;

	n = cs_end(cs, cs_store_dword(gen, cs, addr, value, addr_at));
	*addr_at *= 4;
	gem_write(fd, batch, 0, cs, 4 * n);
	return 4 * n;
}

struct store {
	int fd, gen;
	uint32_t target, batch;
	struct drm_i915_gem_relocation_entry reloc;
	struct drm_i915_gem_exec_object2 obj[2];
	uint32_t len;
};

static void store_init(struct store *s, int fd)
{
	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->gen = gem_gen(fd);
	s->target = gem_create(fd, 4 * PAGE_SZ);
	s->batch = gem_create(fd, PAGE_SZ);
}

static void store_fini(struct store *s)
{
	gem_close(s->fd, s->target);
	gem_close(s->fd, s->batch);
}

/*
 * Prepare a store of @value to target + @delta, the batch holding
 * @planted as the address and the relocation presuming @presumed.
 */
static void store_prepare(struct store *s, uint32_t delta, uint32_t value,
			  uint32_t planted, uint64_t presumed)
{
	uint32_t addr_at;

	s->len = write_store(s->fd, s->gen, s->batch, planted, value,
			     &addr_at);
	memset(&s->reloc, 0, sizeof(s->reloc));
	s->reloc.target_handle = s->target;
	s->reloc.offset = addr_at;
	s->reloc.delta = delta;
	s->reloc.presumed_offset = presumed;
	s->reloc.read_domains = INSTR;
	s->reloc.write_domain = INSTR;
	memset(s->obj, 0, sizeof(s->obj));
	s->obj[0].handle = s->target;
	s->obj[0].offset = presumed;
	s->obj[1].handle = s->batch;
	s->obj[1].relocation_count = 1;
	s->obj[1].relocs_ptr = to_user_pointer(&s->reloc);
}

static int store_exec(struct store *s, uint64_t flags)
{
	int ret = exec_list(s->fd, s->obj, 2, s->len, flags);

	if (!ret)
		gem_sync(s->fd, s->batch);
	return ret;
}

static uint32_t addr_dword(struct store *s)
{
	return gem_read_dword(s->fd, s->batch, s->reloc.offset);
}

/* learn where the target and the batch live (a first, relocated exec) */
static uint64_t store_settle(struct store *s)
{
	store_prepare(s, 0, 0, 0, ~0ull);
	igt_assert_ok(store_exec(s, 0));
	return s->obj[0].offset;
}

/* a wrong presumed offset: the kernel patches the dword */
static void subtest_wrong_presumed_patched(void)
{
	int fd = drm_open_driver();
	struct store s;
	uint64_t offset;

	store_init(&s, fd);
	store_prepare(&s, 0x104, 0x600dd00d, 0x7ff00000 + 0x104, 0x7ff00000);
	igt_assert_ok(store_exec(&s, 0));
	offset = s.obj[0].offset;
	igt_assert_neq(offset, 0x7ff00000);
	igt_assert_eq_u64(addr_dword(&s), (uint32_t)(offset + 0x104));
	igt_assert_eq_u64(gem_read_dword(fd, s.target, 0x104), 0x600dd00d);
	igt_assert_eq_u64(gem_read_dword(fd, s.target, 0x100), 0);
	store_fini(&s);
	close(fd);
}

/* the offsets are written back into the exec objects */
static void subtest_offsets_written_back(void)
{
	int fd = drm_open_driver();
	struct store s;

	store_init(&s, fd);
	store_prepare(&s, 0, 1, 0, 0x7ff00000);
	s.obj[1].offset = 0x7ff00000;
	igt_assert_ok(store_exec(&s, 0));
	igt_assert_neq(s.obj[0].offset, 0x7ff00000);
	igt_assert_neq(s.obj[1].offset, 0x7ff00000);
	igt_assert_eq_u64(s.obj[0].offset & (PAGE_SZ - 1), 0);
	igt_assert_eq_u64(s.obj[1].offset & (PAGE_SZ - 1), 0);
	igt_assert_neq(s.obj[0].offset, s.obj[1].offset);
	igt_assert_eq_u64(addr_dword(&s), (uint32_t)s.obj[0].offset);
	store_fini(&s);
	close(fd);
}

/* upstream also updates the relocation's presumed_offset it patched */
static void subtest_presumed_offset_written_back(void)
{
	int fd = drm_open_driver();
	struct store s;

	store_init(&s, fd);
	store_prepare(&s, 0, 1, 0, 0x7ff00000);
	igt_assert_ok(store_exec(&s, 0));
	igt_assert_eq_u64(s.reloc.presumed_offset, s.obj[0].offset);
	store_fini(&s);
	close(fd);
}

/*
 * A right presumed offset is trusted: the batch says offset + 0x40
 * while the relocation says delta 0 and presumes the real offset.
 * Left alone, the store lands at 0x40; patched, it would land at 0.
 */
static void right_presumed_test(uint64_t flags)
{
	int fd = drm_open_driver();
	struct store s;
	uint64_t offset;

	store_init(&s, fd);
	offset = store_settle(&s);
	store_prepare(&s, 0, 0x5a5a5a5a, (uint32_t)offset + 0x40, offset);
	igt_assert_ok(store_exec(&s, flags));
	igt_assert_eq_u64(s.obj[0].offset, offset);
	igt_assert_eq_u64(addr_dword(&s), (uint32_t)offset + 0x40);
	igt_assert_eq_u64(gem_read_dword(fd, s.target, 0x40), 0x5a5a5a5a);
	igt_assert_eq_u64(gem_read_dword(fd, s.target, 0), 0);
	store_fini(&s);
	close(fd);
}

static void subtest_right_presumed_left_alone(void)
{
	right_presumed_test(0);
}

/* NO_RELOC: the exec objects' offsets are right, nothing is relocated */
static void subtest_no_reloc(void)
{
	int fd = drm_open_driver();
	struct store s;
	uint64_t target, batch;

	store_init(&s, fd);
	target = store_settle(&s);
	batch = s.obj[1].offset;
	store_prepare(&s, 0, 0x0abcdef0, (uint32_t)target + 0x80, target);
	s.obj[1].offset = batch;
	igt_assert_ok(store_exec(&s, I915_EXEC_NO_RELOC));
	igt_assert_eq_u64(s.obj[0].offset, target);
	igt_assert_eq_u64(s.obj[1].offset, batch);
	igt_assert_eq_u64(addr_dword(&s), (uint32_t)target + 0x80);
	igt_assert_eq_u64(gem_read_dword(fd, s.target, 0x80), 0x0abcdef0);
	store_fini(&s);
	close(fd);
}

/* NO_RELOC with wrong offsets: the kernel still relocates what moved */
static void subtest_no_reloc_wrong_offsets(void)
{
	int fd = drm_open_driver();
	struct store s;

	store_init(&s, fd);
	store_prepare(&s, 0x20, 0x13572468, 0x7ff00020, 0x7ff00000);
	s.obj[1].offset = 0x7fe00000;
	igt_assert_ok(store_exec(&s, I915_EXEC_NO_RELOC));
	igt_assert_eq_u64(addr_dword(&s), (uint32_t)s.obj[0].offset + 0x20);
	igt_assert_eq_u64(gem_read_dword(fd, s.target, 0x20), 0x13572468);
	store_fini(&s);
	close(fd);
}

/*
 * NO_RELOC and no object moved: upstream reads not one relocation.
 * Entries that would be rejected if read (a target outside the list,
 * an offset outside the object), an array that cannot be read and a
 * count no execbuffer may have all pass, and nothing is patched.
 */
static void subtest_no_reloc_unread(void)
{
	int fd = drm_open_driver();
	struct drm_i915_gem_relocation_entry bad[2];
	uint64_t target, batch;
	struct store s;
	void *hole;

	store_init(&s, fd);
	target = store_settle(&s);
	batch = s.obj[1].offset;
	store_prepare(&s, 0, 0x0badc0de, (uint32_t)target + 0x90, target);
	s.obj[1].offset = batch;
	bad[0] = s.reloc;
	bad[0].target_handle = 0xdeadbeef;
	bad[0].presumed_offset = ~0ull;
	bad[1] = s.reloc;
	bad[1].offset = 4 * PAGE_SZ;
	bad[1].presumed_offset = ~0ull;
	s.obj[1].relocs_ptr = to_user_pointer(bad);
	s.obj[1].relocation_count = 2;
	igt_assert_ok(store_exec(&s, I915_EXEC_NO_RELOC));
	igt_assert_eq_u64(s.obj[0].offset, target);
	igt_assert_eq_u64(s.obj[1].offset, batch);
	igt_assert_eq_u64(addr_dword(&s), (uint32_t)target + 0x90);
	igt_assert_eq_u64(gem_read_dword(fd, s.target, 0x90), 0x0badc0de);
	igt_assert_eq_u64(bad[0].presumed_offset, ~0ull);
	igt_assert_eq_u64(bad[1].presumed_offset, ~0ull);

	hole = mmap(NULL, PAGE_SZ, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	igt_assert(hole != MAP_FAILED);
	s.obj[1].relocs_ptr = to_user_pointer(hole);
	s.obj[1].relocation_count = 0xffffffff;
	igt_assert_ok(store_exec(&s, I915_EXEC_NO_RELOC));
	igt_assert_eq_u64(addr_dword(&s), (uint32_t)target + 0x90);
	/* without NO_RELOC they are read, as always */
	igt_assert_eq(store_exec(&s, 0), -EFAULT);
	s.obj[1].relocs_ptr = to_user_pointer(bad);
	s.obj[1].relocation_count = 2;
	igt_assert_eq(store_exec(&s, 0), -ENOENT);
	munmap(hole, PAGE_SZ);
	store_fini(&s);
	close(fd);
}

/*
 * NO_RELOC once an object moved: every object's relocations are read
 * (not only those naming the object that moved) and checked strictly.
 * Here only a third object, which no relocation names, is evicted by a
 * squatter softpinned over it; the batch and its target stay put.
 */
static void subtest_no_reloc_moved_reads_relocs(void)
{
	int fd = drm_open_driver();
	struct drm_i915_gem_relocation_entry relocs[2];
	struct drm_i915_gem_exec_object2 obj[3], sq[2];
	uint32_t other = gem_create(fd, 4 * PAGE_SZ);
	uint32_t squatter = gem_create(fd, 4 * PAGE_SZ);
	uint32_t bbe_batch = bbe_create(fd, 0);
	uint64_t target, planted;
	struct store s;

	store_init(&s, fd);
	store_prepare(&s, 0x60, 0x60606060, 0, ~0ull);
	memset(obj, 0, sizeof(obj));
	obj[0] = s.obj[0];
	obj[1].handle = other;
	obj[2] = s.obj[1];
	igt_assert_ok(exec_list(fd, obj, 3, s.len, 0));
	gem_sync(fd, s.batch);
	target = obj[0].offset;

	/* a wrong presumed offset, and a target outside the list */
	planted = (uint32_t)target + 0x20;
	store_prepare(&s, 0x60, 0x60606060, planted, target + 0x1000);
	relocs[0] = s.reloc;
	relocs[1] = s.reloc;
	relocs[1].target_handle = 0xdeadbeef;
	obj[2].relocs_ptr = to_user_pointer(relocs);
	obj[2].relocation_count = 2;
	igt_assert_ok(exec_list(fd, obj, 3, s.len, I915_EXEC_NO_RELOC));
	gem_sync(fd, s.batch);
	igt_assert_eq_u64(addr_dword(&s), planted);
	igt_assert_eq_u64(gem_read_dword(fd, s.target, 0x20), 0x60606060);

	memset(sq, 0, sizeof(sq));
	sq[0].handle = squatter;
	sq[0].offset = obj[1].offset;
	sq[0].flags = EXEC_OBJECT_PINNED;
	sq[1].handle = bbe_batch;
	igt_assert_ok(exec_list(fd, sq, 2, 8, 0));
	igt_assert_eq_u64(sq[0].offset, obj[1].offset);
	gem_sync(fd, bbe_batch);

	igt_assert_eq(exec_list(fd, obj, 3, s.len, I915_EXEC_NO_RELOC),
		      -ENOENT);
	relocs[1] = s.reloc;
	relocs[1].offset = PAGE_SZ;
	igt_assert_eq(exec_list(fd, obj, 3, s.len, I915_EXEC_NO_RELOC),
		      -EINVAL);
	relocs[1] = s.reloc;
	relocs[1].read_domains = I915_GEM_DOMAIN_CPU;
	igt_assert_eq(exec_list(fd, obj, 3, s.len, I915_EXEC_NO_RELOC),
		      -EINVAL);
	igt_assert_eq_u64(addr_dword(&s), planted);

	relocs[1] = s.reloc;
	igt_assert_ok(exec_list(fd, obj, 3, s.len, I915_EXEC_NO_RELOC));
	gem_sync(fd, s.batch);
	igt_assert_neq(obj[1].offset, sq[0].offset);
	igt_assert_eq_u64(obj[0].offset, target);
	igt_assert_eq_u64(addr_dword(&s), (uint32_t)target + 0x60);
	igt_assert_eq_u64(gem_read_dword(fd, s.target, 0x60), 0x60606060);
	igt_assert_eq_u64(relocs[0].presumed_offset, target);
	gem_close(fd, other);
	gem_close(fd, squatter);
	gem_close(fd, bbe_batch);
	store_fini(&s);
	close(fd);
}

/*
 * intel-gpu-tools' benchmarks/gem_busy.c, its execbuffer pattern: two
 * objects with HANDLE_LUT | NO_RELOC, a first exec without relocations
 * (which learns the offsets), a probe of rings 1..15, then relocations
 * that name their targets by GEM handle although HANDLE_LUT is set (the
 * batch's handle is out of the list's range; in the WRITE variant the
 * other one names the batch as a written target).  Upstream never reads
 * them since nothing moves; the benchmark's execs must all succeed.
 * (The benchmark's batch jumps to itself until the CPU ends it; this
 * one ends at once: dwords 1 and 256 are sentinels the relocations
 * would overwrite.)
 */
static void gem_busy_pattern(bool write)
{
	int fd = drm_open_driver();
	struct drm_i915_gem_execbuffer2 eb;
	struct drm_i915_gem_exec_object2 obj[2];
	struct drm_i915_gem_relocation_entry reloc[2];
	uint32_t cs[2] = { MI_BATCH_BUFFER_END, 0x5e5e5e5e };
	uint64_t offsets[2];
	unsigned int engines[16], nengine = 0, ring, rep;
	int fence;

	memset(obj, 0, sizeof(obj));
	obj[0].handle = gem_create(fd, PAGE_SZ);
	if (write)
		obj[0].flags = EXEC_OBJECT_WRITE;
	obj[1].handle = gem_create(fd, PAGE_SZ);
	igt_assert_lte(2, obj[1].handle);
	gem_write(fd, obj[1].handle, 0, cs, sizeof(cs));
	gem_write(fd, obj[1].handle, 1024, &cs[1], sizeof(cs[1]));

	memset(&eb, 0, sizeof(eb));
	eb.buffers_ptr = to_user_pointer(obj);
	eb.buffer_count = 2;
	eb.flags = I915_EXEC_HANDLE_LUT | I915_EXEC_NO_RELOC;
	igt_assert_ok(__gem_execbuf(fd, &eb));
	for (ring = 1; ring < 16; ring++) {
		eb.flags &= ~(uint64_t)(I915_EXEC_RING_MASK | I915_EXEC_BSD_MASK);
		eb.flags |= ring;
		if (__gem_execbuf(fd, &eb) == 0)
			engines[nengine++] = ring;
	}
	igt_assert_lte(1, nengine);
	offsets[0] = obj[0].offset;
	offsets[1] = obj[1].offset;

	obj[1].relocs_ptr = to_user_pointer(reloc);
	obj[1].relocation_count = 2;
	memset(reloc, 0, sizeof(reloc));
	reloc[0].target_handle = obj[1].handle;
	reloc[0].presumed_offset = obj[1].offset;
	reloc[0].offset = sizeof(uint32_t);
	reloc[0].delta = gem_gen(fd) < 4;
	reloc[0].read_domains = I915_GEM_DOMAIN_COMMAND;
	reloc[1].target_handle = obj[0].handle;
	reloc[1].presumed_offset = obj[0].offset;
	reloc[1].offset = 1024;
	reloc[1].read_domains = I915_GEM_DOMAIN_RENDER;
	if (write)
		reloc[1].write_domain = I915_GEM_DOMAIN_RENDER;

	for (rep = 0; rep < 3; rep++) {
		fence = -1;
		for (ring = 0; ring < nengine; ring++) {
			eb.flags &= ~(3ull << 16);
			if (rep == 1)
				eb.flags |= I915_EXEC_FENCE_OUT;
			eb.flags &= ~(uint64_t)(I915_EXEC_RING_MASK |
						I915_EXEC_BSD_MASK);
			eb.flags |= engines[ring];
			eb.rsvd2 = 0;
			igt_assert_ok(__gem_execbuf_wr(fd, &eb));
			if (eb.flags & I915_EXEC_FENCE_OUT) {
				igt_assert_lte(0, fence = eb.rsvd2 >> 32);
				close(fence);
			}
		}
		(void)gem_busy(fd, obj[0].handle);
		gem_sync(fd, obj[1].handle);
		igt_assert_eq(gem_busy(fd, obj[0].handle), 0);
		igt_assert_eq_u64(obj[0].offset, offsets[0]);
		igt_assert_eq_u64(obj[1].offset, offsets[1]);
		igt_assert_eq_u64(gem_read_dword(fd, obj[1].handle, 4),
				  0x5e5e5e5e);
		igt_assert_eq_u64(gem_read_dword(fd, obj[1].handle, 1024),
				  0x5e5e5e5e);
		igt_assert_eq_u64(reloc[0].presumed_offset, offsets[1]);
	}
	gem_close(fd, obj[0].handle);
	gem_close(fd, obj[1].handle);
	close(fd);
}

static void subtest_gem_busy_pattern(void)
{
	gem_busy_pattern(false);
	gem_busy_pattern(true);
}

/* HANDLE_LUT: target_handle is an index into the exec list */
static void subtest_handle_lut(void)
{
	int fd = drm_open_driver();
	struct store s;

	store_init(&s, fd);
	store_prepare(&s, 0x10, 0x1d1d1d1d, 0, ~0ull);
	s.reloc.target_handle = 0;
	igt_assert_ok(store_exec(&s, I915_EXEC_HANDLE_LUT));
	igt_assert_eq_u64(gem_read_dword(fd, s.target, 0x10), 0x1d1d1d1d);
	igt_assert_eq_u64(addr_dword(&s), (uint32_t)s.obj[0].offset + 0x10);
	store_fini(&s);
	close(fd);
}

/* HANDLE_LUT and BATCH_FIRST together: the batch is index 0 */
static void subtest_handle_lut_batch_first(void)
{
	int fd = drm_open_driver();
	struct store s;
	struct drm_i915_gem_exec_object2 swapped[2];

	store_init(&s, fd);
	store_prepare(&s, 0x30, 0x2e2e2e2e, 0, ~0ull);
	s.reloc.target_handle = 1;
	swapped[0] = s.obj[1];
	swapped[1] = s.obj[0];
	igt_assert_ok(exec_list(fd, swapped, 2, s.len,
				I915_EXEC_HANDLE_LUT | I915_EXEC_BATCH_FIRST));
	gem_sync(fd, s.batch);
	igt_assert_eq_u64(gem_read_dword(fd, s.target, 0x30), 0x2e2e2e2e);
	store_fini(&s);
	close(fd);
}

/*
 * Relocations in an object that is not the batch: the kernel patches
 * them there too (the object holds addresses, nothing executes it).
 */
static void subtest_reloc_in_data_object(void)
{
	int fd = drm_open_driver();
	struct drm_i915_gem_relocation_entry r[3];
	struct drm_i915_gem_exec_object2 obj[3];
	uint32_t target = gem_create(fd, PAGE_SZ);
	uint32_t data = gem_create(fd, 2 * PAGE_SZ);
	uint32_t batch = bbe_create(fd, 0);
	int i;

	gem_gen(fd);
	memset(r, 0, sizeof(r));
	for (i = 0; i < 3; i++) {
		r[i].target_handle = target;
		r[i].offset = i * 2052;	/* the last one in the second page */
		r[i].delta = i * 0x100;
		r[i].presumed_offset = ~0ull;
		r[i].read_domains = I915_GEM_DOMAIN_SAMPLER;
	}
	memset(obj, 0, sizeof(obj));
	obj[0].handle = target;
	obj[1].handle = data;
	obj[1].relocation_count = 3;
	obj[1].relocs_ptr = to_user_pointer(r);
	obj[2].handle = batch;
	igt_assert_ok(exec_list(fd, obj, 3, 8, 0));
	for (i = 0; i < 3; i++)
		igt_assert_eq_u64(gem_read_dword(fd, data, i * 2052),
				  (uint32_t)obj[0].offset + i * 0x100);
	igt_assert_eq_u64(gem_read_dword(fd, data, 4), 0);
	gem_close(fd, target);
	gem_close(fd, data);
	gem_close(fd, batch);
	close(fd);
}

/*
 * many relocations, many deltas, several targets, one batch (of
 * MI_STORE_DWORD_IMM, secure on Gen4: 800 blits would not fit)
 */
static void subtest_many_relocs(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	uint64_t flags = store_dword_imm_flags(fd);
	struct bo t[4];
	static uint32_t got[4][256];
	uint32_t want[4][256];
	unsigned int i, k;

	for (k = 0; k < 4; k++) {
		bo_init(&t[k], fd, PAGE_SZ);
		t[k].offset = 0x7f000000 + k * PAGE_SZ;	/* all wrong */
	}
	for (i = 0; i < 200; i++) {
		for (k = 0; k < 4; k++) {
			want[k][i] = pattern_dw(k, i);
			emit_store_dword_imm(b, &t[k], 4 * i, want[k][i]);
		}
	}
	igt_info("%u relocations in one batch", b->nreloc);
	igt_assert_ok(__batch_submit(b, flags));
	for (k = 0; k < 4; k++) {
		gem_read(fd, t[k].handle, 0, got[k], 200 * 4);
		igt_assert_mem(got[k], want[k], 200 * 4, "target %u", k);
		bo_fini(&t[k], fd);
	}
	batch_free(b);
	close(fd);
}

/*
 * GEM_INIT to a range above the object's old offset: it must move, and
 * an exec presuming the old offset gets relocated there.
 */
static void subtest_relocate_after_gem_init(void)
{
	int fd = drm_open_driver();
	uint64_t old, start, end;
	struct store s;

	store_init(&s, fd);
	old = store_settle(&s);
	start = ((old + 4 * PAGE_SZ) & ~((1ull << 20) - 1)) + (1 << 20);
	if (start < (64ull << 20))
		start = 64ull << 20;
	end = start + (16 << 20);
	igt_assert_lte_u64(end, gem_gtt_total(fd) - (1 << 20));
	gem_narrow_gtt(fd, start, end);

	store_prepare(&s, 0x44, 0x44444444, (uint32_t)old + 0x44, old);
	igt_assert_ok(store_exec(&s, 0));
	igt_info("target moved from %#llx to %#llx",
		 (unsigned long long)old, (unsigned long long)s.obj[0].offset);
	igt_assert_lte_u64(start, s.obj[0].offset);
	igt_assert_lte_u64(s.obj[0].offset + 4 * PAGE_SZ, end);
	igt_assert_eq_u64(addr_dword(&s), (uint32_t)s.obj[0].offset + 0x44);
	igt_assert_eq_u64(gem_read_dword(fd, s.target, 0x44), 0x44444444);
	store_fini(&s);
	gem_restore_gtt(fd);
	close(fd);
}

/*
 * Eviction: another object softpinned over the target's old place
 * evicts it; the next exec presuming the old offset is relocated.
 */
static void subtest_relocate_after_eviction(void)
{
	int fd = drm_open_driver();
	struct drm_i915_gem_exec_object2 obj[2];
	uint32_t squatter = gem_create(fd, 4 * PAGE_SZ);
	uint32_t bbe_batch = bbe_create(fd, 0);
	uint64_t old;
	struct store s;

	store_init(&s, fd);
	old = store_settle(&s);
	memset(obj, 0, sizeof(obj));
	obj[0].handle = squatter;
	obj[0].offset = old;
	obj[0].flags = EXEC_OBJECT_PINNED;
	obj[1].handle = bbe_batch;
	igt_assert_ok(exec_list(fd, obj, 2, 8, 0));
	igt_assert_eq_u64(obj[0].offset, old);
	gem_sync(fd, bbe_batch);

	store_prepare(&s, 0x48, 0x48484848, (uint32_t)old + 0x48, old);
	igt_assert_ok(store_exec(&s, 0));
	igt_info("target moved from %#llx to %#llx",
		 (unsigned long long)old, (unsigned long long)s.obj[0].offset);
	igt_assert_neq(s.obj[0].offset, old);
	igt_assert_eq_u64(addr_dword(&s), (uint32_t)s.obj[0].offset + 0x48);
	igt_assert_eq_u64(gem_read_dword(fd, s.target, 0x48), 0x48484848);
	igt_assert_eq_u64(gem_read_dword(fd, squatter, 0x48), 0);
	gem_close(fd, squatter);
	gem_close(fd, bbe_batch);
	store_fini(&s);
	close(fd);
}

/*
 * EXEC_OBJECT_PINNED: the object goes where asked, no relocation
 * needed; with @pin_batch the batch is softpinned 1 MiB above it too.
 */
static void softpin_test(bool pin_batch, uint64_t flags)
{
	int fd = drm_open_driver();
	uint64_t start, end, want;
	struct store s;

	store_init(&s, fd);
	gem_gtt_managed(fd, &start, &end);
	want = ((start + end) / 2) & ~((1ull << 20) - 1);
	store_prepare(&s, 0, 0x50f7a1, (uint32_t)want + 0x10, want);
	s.obj[1].relocation_count = 0;
	s.obj[0].flags = EXEC_OBJECT_PINNED;
	if (pin_batch) {
		s.obj[1].offset = want + (1 << 20);
		s.obj[1].flags = EXEC_OBJECT_PINNED;
	}
	igt_assert_ok(store_exec(&s, flags));
	igt_assert_eq_u64(s.obj[0].offset, want);
	if (pin_batch)
		igt_assert_eq_u64(s.obj[1].offset, want + (1 << 20));
	igt_assert_eq_u64(gem_read_dword(fd, s.target, 0x10), 0x50f7a1);
	store_fini(&s);
	close(fd);
}

static void subtest_softpin(void)
{
	softpin_test(false, 0);
}

/* the batch softpinned as well, with NO_RELOC and HANDLE_LUT */
static void subtest_softpin_batch_no_reloc(void)
{
	softpin_test(true, I915_EXEC_NO_RELOC | I915_EXEC_HANDLE_LUT);
}

/*
 * Relocation writes wait for the GPU: a slow batch is still running
 * when the same batch object is executed again with its address dword
 * relocated to another target.  Patched too early, the running batch
 * would store into the second target instead of the first.
 */
static void subtest_reloc_waits_for_busy_batch(void)
{
	int fd = drm_open_driver();
	struct drm_i915_gem_relocation_entry reloc;
	struct drm_i915_gem_exec_object2 obj[2];
	uint32_t t1, t2, batch, cs[512], n = 0, addr_at, v1, v2;
	int gen = gem_gen(fd);

	sim_set_cmd_delay(1000);
	t1 = gem_create(fd, PAGE_SZ);
	t2 = gem_create(fd, PAGE_SZ);
	batch = gem_create(fd, 4 * PAGE_SZ);
	while (n < 400)
		cs[n++] = MI_NOOP;
	n += cs_store_dword(gen, cs + n, 0, 0x5100, &addr_at);
	addr_at = 4 * (400 + addr_at);
	n = cs_end(cs, n);
	gem_write(fd, batch, 0, cs, 4 * n);

	memset(&reloc, 0, sizeof(reloc));
	reloc.target_handle = t1;
	reloc.offset = addr_at;
	reloc.presumed_offset = ~0ull;
	reloc.read_domains = INSTR;
	reloc.write_domain = INSTR;
	memset(obj, 0, sizeof(obj));
	obj[0].handle = t1;
	obj[1].handle = batch;
	obj[1].relocation_count = 1;
	obj[1].relocs_ptr = to_user_pointer(&reloc);
	igt_assert_ok(exec_list(fd, obj, 2, 4 * n, 0));
	igt_assert_neq(gem_busy(fd, batch), 0);

	/* again, now storing into t2: the kernel must wait to patch */
	reloc.target_handle = t2;
	reloc.presumed_offset = ~0ull;
	obj[0].handle = t2;
	obj[0].offset = 0;
	igt_assert_ok(exec_list(fd, obj, 2, 4 * n, 0));
	gem_sync(fd, batch);
	v1 = gem_read_dword(fd, t1, 0);
	v2 = gem_read_dword(fd, t2, 0);
	igt_info("first target %#x, second %#x", v1, v2);
	igt_assert_eq_u64(v1, 0x5100);
	igt_assert_eq_u64(v2, 0x5100);
	gem_close(fd, t1);
	gem_close(fd, t2);
	gem_close(fd, batch);
	close(fd);
}

/*
 * A relocation in an object the GPU is still reading: a slow batch
 * copies it with the blitter while the next exec asks the kernel to
 * patch one of its dwords.  The copy must show the old dword.
 */
static void subtest_reloc_waits_for_busy_reader(void)
{
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	struct drm_i915_gem_relocation_entry reloc;
	struct drm_i915_gem_exec_object2 obj[3];
	uint32_t want[1024], got[1024];
	struct bo data, copy, target;
	struct surf sd, sc;
	unsigned int i;

	sim_set_cmd_delay(1000);
	bo_init(&data, fd, PAGE_SZ);
	bo_init(&copy, fd, PAGE_SZ);
	bo_init(&target, fd, PAGE_SZ);
	igt_fill_pattern(want, sizeof(want), 8);
	gem_write(fd, data.handle, 0, want, sizeof(want));
	sd = (struct surf){ &data, 1024, 4, 256, 4 };
	sc = (struct surf){ &copy, 1024, 4, 256, 4 };
	for (i = 0; i < 300; i++)
		batch_emit(b, MI_NOOP);
	emit_xy_copy(b, &sc, 0, 0, &sd, 0, 0, 256, 4);
	batch_submit(b);
	igt_assert_neq(gem_busy(fd, data.handle), 0);

	memset(&reloc, 0, sizeof(reloc));
	reloc.target_handle = target.handle;
	reloc.offset = 400;
	reloc.presumed_offset = ~0ull;
	reloc.read_domains = I915_GEM_DOMAIN_SAMPLER;
	memset(obj, 0, sizeof(obj));
	obj[0].handle = target.handle;
	obj[1].handle = data.handle;
	obj[1].relocation_count = 1;
	obj[1].relocs_ptr = to_user_pointer(&reloc);
	obj[2].handle = bbe_create(fd, 0);
	igt_assert_ok(exec_list(fd, obj, 3, 8, 0));
	gem_sync(fd, obj[2].handle);

	gem_read(fd, copy.handle, 0, got, sizeof(got));
	igt_assert_mem(got, want, sizeof(got), "the blitter's copy");
	want[100] = (uint32_t)obj[0].offset;
	gem_read(fd, data.handle, 0, got, sizeof(got));
	igt_assert_mem(got, want, sizeof(got), "the patched object");

	gem_close(fd, obj[2].handle);
	bo_fini(&data, fd);
	bo_fini(&copy, fd);
	bo_fini(&target, fd);
	batch_free(b);
	close(fd);
}

#define RUN	300	/* relocations alike, past RELOC_CHUNK */
#define ODD	200	/* the entry unlike the others */

/* dword 2 + i of the batch (after its MI_BATCH_BUFFER_END): target + i */
static void run_relocs(struct drm_i915_gem_relocation_entry *r,
		       uint32_t target, uint64_t presumed)
{
	unsigned int i;

	memset(r, 0, RUN * sizeof(*r));
	for (i = 0; i < RUN; i++) {
		r[i].target_handle = target;
		r[i].offset = 8 + 4 * i;
		r[i].delta = i;
		r[i].presumed_offset = presumed;
		r[i].read_domains = I915_GEM_DOMAIN_RENDER;
	}
}

/*
 * RUN relocations into one target with the same domains, right; entry
 * ODD changed in one field: refused with its errno (and a good exec
 * after it works), or, with only its presumed offset wrong, patched
 * there alone (a planted value in every other dword stays).
 */
static void subtest_run_with_one_unlike(void)
{
	static const struct {
		const char *what;
		int err;
	} cases[] = {
		{ "offset unaligned", -EINVAL },
		{ "offset past the object", -EINVAL },
		{ "offset at the last dword", 0 },
		{ "read domain CPU", -EINVAL },
		{ "write domain outside the reads", -EINVAL },
		{ "write domain render", 0 },
		{ "target not in the list", -ENOENT },
		{ "presumed offset stale", 0 },
	};
	struct drm_i915_gem_relocation_entry *r = calloc(RUN, sizeof(*r));
	struct drm_i915_gem_exec_object2 obj[2] = { };
	int fd = drm_open_driver(), ret;
	uint32_t plant[RUN], dw;
	uint64_t offset;
	unsigned int c, i;

	igt_assert(r);
	obj[0].handle = gem_create(fd, PAGE_SZ);
	obj[1].handle = bbe_create(fd, 0);
	obj[1].relocs_ptr = to_user_pointer(r);
	obj[1].relocation_count = RUN;
	run_relocs(r, obj[0].handle, ~0ull);
	igt_assert_ok(exec_list(fd, obj, 2, 8, 0));
	offset = obj[0].offset;
	for (i = 0; i < RUN; i++)
		igt_assert_eq_u64(gem_read_dword(fd, obj[1].handle, 8 + 4 * i),
				  (uint32_t)(offset + i));

	for (c = 0; c < ARRAY_SIZE(cases); c++) {
		for (i = 0; i < RUN; i++)
			plant[i] = 0xc0de0000 + i;
		gem_write(fd, obj[1].handle, 8, plant, 4 * RUN);
		run_relocs(r, obj[0].handle, offset);
		switch (c) {
		case 0:
			r[ODD].offset += 1;
			break;
		case 1:
			r[ODD].offset = PAGE_SZ;
			break;
		case 2:
			r[ODD].offset = PAGE_SZ - 4;
			r[ODD].presumed_offset = 0;
			break;
		case 3:
			r[ODD].read_domains = I915_GEM_DOMAIN_CPU;
			break;
		case 4:
			r[ODD].write_domain = I915_GEM_DOMAIN_SAMPLER;
			break;
		case 5:
			r[ODD].write_domain = I915_GEM_DOMAIN_RENDER;
			break;
		case 6:
			r[ODD].target_handle = 0xdead;
			break;
		case 7:
			r[ODD].presumed_offset = offset + PAGE_SZ;
			break;
		}
		ret = exec_list(fd, obj, 2, 8, 0);
		igt_assert_f(ret == cases[c].err, "%s: %d (%s), expected %d",
			     cases[c].what, ret, igt_errname(ret), cases[c].err);
		igt_assert_eq_u64(obj[0].offset, offset);
		/* only a stale presumed offset is patched, where it is */
		for (i = 0; i < RUN; i++) {
			dw = gem_read_dword(fd, obj[1].handle, 8 + 4 * i);
			if (c == 7 && i == ODD)
				igt_assert_eq_u64(dw, (uint32_t)(offset + i));
			else
				igt_assert_f(dw == plant[i], "%s: dword %u is %#x",
					     cases[c].what, i, dw);
		}
		if (c == 2)
			igt_assert_eq_u64(gem_read_dword(fd, obj[1].handle,
							 PAGE_SZ - 4),
					  (uint32_t)(offset + ODD));
		if (ret) {	/* a good exec works after it */
			run_relocs(r, obj[0].handle, offset);
			igt_assert_ok(exec_list(fd, obj, 2, 8, 0));
		}
	}
	gem_close(fd, obj[0].handle);
	gem_close(fd, obj[1].handle);
	free(r);
	close(fd);
}

/*
 * @total relocations of one object, the array built from one 2 MiB
 * memfd of entries mapped again and again (no 128 MiB of user memory):
 * returns the array, munmap with @total * 32 bytes.
 */
#define RELOCS_PER_MAP	(2u << 20) / sizeof(struct drm_i915_gem_relocation_entry)

static struct drm_i915_gem_relocation_entry *
repeated_relocs(const struct drm_i915_gem_relocation_entry *first,
		const struct drm_i915_gem_relocation_entry *rest,
		unsigned int total)
{
	size_t map = RELOCS_PER_MAP * sizeof(*first);
	size_t size = (size_t)total * sizeof(*first);
	struct drm_i915_gem_relocation_entry *e, *arr;
	int mfd = memfd_create("relocs", MFD_CLOEXEC);
	unsigned int i;
	size_t off;

	igt_assert_lte(0, mfd);
	igt_assert_eq(ftruncate(mfd, map), 0);
	e = mmap(NULL, map, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	igt_assert(e != MAP_FAILED);
	for (i = 0; i < RELOCS_PER_MAP; i++)
		e[i] = *rest;
	munmap(e, map);

	igt_assert_eq(size % map, 0);
	arr = mmap(NULL, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	igt_assert(arr != MAP_FAILED);
	for (off = 0; off < size; off += map)
		igt_assert((char *)arr + off ==
			   mmap((char *)arr + off, map, PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_FIXED, mfd, 0));
	close(mfd);
	/* the first entry differs: a private page over the first map */
	e = mmap(arr, PAGE_SZ, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	igt_assert(e == arr);
	for (i = 0; i < PAGE_SZ / sizeof(*e); i++)
		e[i] = *rest;
	e[0] = *first;
	return arr;
}

static long long vmalloc_used_kib(void)
{
	long long kib = igt_meminfo_kib("VmallocUsed");

	igt_assert_lte(0, kib);
	return kib;
}

/* a process that samples VmallocUsed until killed, its peak to @wfd */
static pid_t vmalloc_sampler(int wfd)
{
	pid_t pid = fork();
	long long peak = 0, now;
	struct timespec ts = { 0, 1000000 };

	igt_assert_lte(0, pid);
	if (pid)
		return pid;
	for (;;) {
		now = vmalloc_used_kib();
		if (now > peak) {
			peak = now;
			if (write(wfd, &peak, sizeof(peak)) != sizeof(peak))
				_exit(1);
		}
		nanosleep(&ts, NULL);
	}
}

static long long sampler_stop(pid_t pid, int rfd)
{
	long long v, peak = 0;

	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	while (read(rfd, &v, sizeof(v)) == sizeof(v))
		peak = v;
	close(rfd);
	return peak;
}

static void subtest_huge_count_not_copied(void)
{
	enum { TOTAL = 4u << 20 };	/* 128 MiB of entries */
	int fd = drm_open_driver(), gen = gem_gen(fd), pipefd[2];
	struct drm_i915_gem_relocation_entry first = { }, rest = { };
	struct drm_i915_gem_exec_object2 obj[2] = { };
	struct drm_i915_gem_relocation_entry *arr;
	uint32_t cs[8], addr_at, target, batch;
	long long before, peak;
	unsigned int n;
	double t0;
	pid_t pid;
	int ret;

	/* learn where the target goes, then pin it there (no patching) */
	target = gem_create(fd, PAGE_SZ);
	batch = bbe_create(fd, 0);
	obj[0].handle = target;
	obj[1].handle = batch;
	igt_assert_ok(exec_list(fd, obj, 2, 8, 0));
	obj[0].flags = EXEC_OBJECT_PINNED;

	/* the batch stores 0xb16 into the target through relocation 0 */
	n = cs_store_dword(gen, cs, obj[0].offset, 0xb16, &addr_at);
	n = cs_end(cs, n);
	gem_write(fd, batch, 0, cs, 4 * n);
	first.target_handle = 0;		/* HANDLE_LUT: the target */
	first.offset = 4 * addr_at;
	first.presumed_offset = obj[0].offset;
	first.read_domains = I915_GEM_DOMAIN_RENDER;
	first.write_domain = I915_GEM_DOMAIN_RENDER;
	/* and millions more, right already, at a dword the batch never runs */
	rest = first;
	rest.offset = PAGE_SZ - 4;
	rest.write_domain = 0;
	arr = repeated_relocs(&first, &rest, TOTAL);
	obj[1].relocation_count = TOTAL;
	obj[1].relocs_ptr = to_user_pointer(arr);

	igt_assert_eq(pipe2(pipefd, O_NONBLOCK), 0);
	before = vmalloc_used_kib();
	pid = vmalloc_sampler(pipefd[1]);
	close(pipefd[1]);
	t0 = igt_now();
	ret = exec_list(fd, obj, 2, 4 * n, I915_EXEC_HANDLE_LUT);
	peak = sampler_stop(pid, pipefd[0]);
	igt_info("%u relocations: %s in %.2f s; VmallocUsed %lld KiB, peak %lld KiB",
		 TOTAL, igt_errname(ret), igt_now() - t0, before, peak);
	igt_assert_ok(ret);
	igt_assert_f(peak < before + 32 * 1024,
		     "VmallocUsed rose by %lld KiB during the call: the relocations were copied",
		     peak - before);
	igt_assert_eq_u64(gem_read_dword(fd, target, 0), 0xb16);

	munmap(arr, (size_t)TOTAL * sizeof(*arr));
	gem_close(fd, target);
	gem_close(fd, batch);
	close(fd);
}

static long long exec_stat(int fd, const char *key)
{
	char buf[512];
	long long v;

	if (igt_debugfs_read(fd, "i915_exec_stats", buf, sizeof(buf)) < 0 ||
	    igt_key_value(buf, key, &v))
		return -1;
	return v;
}

static long long reloc_refaults(int fd)
{
	return exec_stat(fd, "reloc_refaults");
}

/* the relocation counters of i915_exec_stats, before and after */
struct reloc_stats {
	long long read, patched, maps;
};

static struct reloc_stats reloc_stats(int fd)
{
	struct reloc_stats r = {
		.read = exec_stat(fd, "reloc_entries_read"),
		.patched = exec_stat(fd, "reloc_patched"),
		.maps = exec_stat(fd, "reloc_page_maps"),
	};

	igt_assert_f(r.read >= 0 && r.patched >= 0 && r.maps >= 0,
		     "i915_exec_stats has no reloc_entries_read, reloc_patched or reloc_page_maps");
	return r;
}

enum { DENSE = 2048 };	/* dwords 1.. of a 3-page object: 3 pages */

/*
 * A batch (MI_BATCH_BUFFER_END) whose dwords 1..DENSE are relocated to a
 * target, delta = the dword's index: 2048 entries over 3 pages.
 */
static void dense_init(int fd, uint32_t *batch, uint32_t *target,
		       struct drm_i915_gem_relocation_entry *r,
		       struct drm_i915_gem_exec_object2 *obj)
{
	uint32_t bbe = MI_BATCH_BUFFER_END;
	unsigned int i;

	*target = gem_create(fd, PAGE_SZ);
	*batch = gem_create(fd, 3 * PAGE_SZ);
	gem_write(fd, *batch, 0, &bbe, sizeof(bbe));
	for (i = 0; i < DENSE; i++) {
		r[i] = (struct drm_i915_gem_relocation_entry){
			.target_handle = *target, .offset = 4 * (i + 1),
			.delta = i, .read_domains = I915_GEM_DOMAIN_RENDER,
			.presumed_offset = ~0ull,
		};
	}
	memset(obj, 0, 2 * sizeof(*obj));
	obj[0].handle = *target;
	obj[1].handle = *batch;
	obj[1].relocs_ptr = to_user_pointer(r);
	obj[1].relocation_count = DENSE;
}

/* every relocated dword and every presumed offset names the target */
static void dense_check(int fd, uint32_t batch,
			const struct drm_i915_gem_relocation_entry *r,
			uint64_t offset)
{
	static uint32_t dw[DENSE + 1];
	unsigned int i;

	gem_read(fd, batch, 0, dw, sizeof(dw));
	for (i = 0; i < DENSE; i++) {
		igt_assert_eq_u64(dw[i + 1], (uint32_t)offset + i);
		igt_assert_eq_u64(r[i].presumed_offset, offset);
	}
}

/*
 * Stale relocations are patched page by page: 2048 dense entries over 3
 * pages of the batch take 3 kernel mappings (one per page, not one per
 * entry), every dword gets target + delta and every presumed offset is
 * written back; the next exec, all offsets right, patches none.
 */
static void subtest_stale_relocs_one_map_per_page(void)
{
	int fd = drm_open_driver();
	static struct drm_i915_gem_relocation_entry r[DENSE];
	struct drm_i915_gem_exec_object2 obj[2];
	struct reloc_stats a, b;
	uint32_t batch, target;

	dense_init(fd, &batch, &target, r, obj);
	a = reloc_stats(fd);
	igt_assert_ok(exec_list(fd, obj, 2, 8, 0));
	b = reloc_stats(fd);
	igt_info("%d stale entries: %lld patched, %lld page maps, %lld entries read",
		 DENSE, b.patched - a.patched, b.maps - a.maps, b.read - a.read);
	igt_assert_eq(b.patched - a.patched, DENSE);
	igt_assert_eq(b.maps - a.maps, 3);
	dense_check(fd, batch, r, obj[0].offset);

	a = reloc_stats(fd);
	igt_assert_ok(exec_list(fd, obj, 2, 8, 0));
	b = reloc_stats(fd);
	igt_assert_eq(b.patched - a.patched, 0);
	igt_assert_eq(b.maps - a.maps, 0);
	dense_check(fd, batch, r, obj[0].offset);

	gem_close(fd, batch);
	gem_close(fd, target);
	close(fd);
}

/*
 * Relocations whose presumed offsets are all right, nothing moved: the
 * kernel reads each entry once (to check it, as upstream reads it once),
 * not again under its locks; with I915_EXEC_NO_RELOC not at all.  One
 * stale entry among them: that object's entries are read again, and only
 * that entry is patched.
 */
static void subtest_valid_relocs_read_once(void)
{
	int fd = drm_open_driver();
	static struct drm_i915_gem_relocation_entry r[DENSE];
	struct drm_i915_gem_exec_object2 obj[2];
	struct reloc_stats a, b;
	uint32_t batch, target;

	dense_init(fd, &batch, &target, r, obj);
	igt_assert_ok(exec_list(fd, obj, 2, 8, 0));
	dense_check(fd, batch, r, obj[0].offset);

	a = reloc_stats(fd);
	igt_assert_ok(exec_list(fd, obj, 2, 8, 0));
	b = reloc_stats(fd);
	igt_info("%d valid entries: %lld entries read", DENSE, b.read - a.read);
	igt_assert_eq(b.read - a.read, DENSE);
	igt_assert_eq(b.patched - a.patched, 0);

	a = reloc_stats(fd);
	igt_assert_ok(exec_list(fd, obj, 2, 8, I915_EXEC_NO_RELOC));
	b = reloc_stats(fd);
	igt_assert_eq(b.read - a.read, 0);

	/* one stale entry: read twice (check, patch), patched, written back */
	r[1000].presumed_offset = 0x1000;
	a = reloc_stats(fd);
	igt_assert_ok(exec_list(fd, obj, 2, 8, 0));
	b = reloc_stats(fd);
	igt_info("one stale entry: %lld entries read, %lld patched",
		 b.read - a.read, b.patched - a.patched);
	igt_assert_eq(b.patched - a.patched, 1);
	igt_assert_eq(b.maps - a.maps, 1);
	igt_assert_eq(b.read - a.read, 3 * DENSE);
	dense_check(fd, batch, r, obj[0].offset);

	gem_close(fd, batch);
	gem_close(fd, target);
	close(fd);
}

struct zapper {
	void *addr;
	size_t size;
	volatile int stop;
};

/* drop the mapping's page table entries again and again for a while */
static void *zap(void *arg)
{
	struct zapper *z = arg;
	struct timespec ts = { 0, 200000 };
	int i;

	for (i = 0; i < 5000 && !z->stop; i++) {
		madvise(z->addr, z->size, MADV_DONTNEED);
		nanosleep(&ts, NULL);
	}
	return NULL;
}

/*
 * Relocation pages that are not resident when the kernel reads them
 * under its locks: a thread keeps zapping the page table entries of a
 * shared mapping of them (the data stays in the page cache), so that the
 * read without page faults fails; the kernel drops its locks, faults the
 * chunk in and starts over.  Every exec completes with the right result.
 */
static void subtest_relocs_not_resident(void)
{
	enum { COUNT = 8192, EXECS = 40 };	/* 64 pages of entries */
	int fd = drm_open_driver(), gen = gem_gen(fd);
	struct drm_i915_gem_exec_object2 obj[2] = { };
	struct drm_i915_gem_relocation_entry *arr;
	size_t size = COUNT * sizeof(*arr);
	uint32_t cs[8], addr_at, target, batch;
	long long faults0, faults;
	struct zapper z = { };
	unsigned int n, i;
	pthread_t thread;
	int mfd;

	target = gem_create(fd, PAGE_SZ);
	batch = gem_create(fd, PAGE_SZ);
	n = cs_store_dword(gen, cs, 0, 0, &addr_at);
	n = cs_end(cs, n);
	mfd = memfd_create("relocs", MFD_CLOEXEC);
	igt_assert_lte(0, mfd);
	igt_assert_eq(ftruncate(mfd, size), 0);
	arr = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	igt_assert(arr != MAP_FAILED);
	close(mfd);
	/* every entry the store's address, always stale: always patched */
	for (i = 0; i < COUNT; i++) {
		arr[i].target_handle = 0;	/* HANDLE_LUT: the target */
		arr[i].offset = 4 * addr_at;
		arr[i].read_domains = I915_GEM_DOMAIN_RENDER;
		arr[i].write_domain = I915_GEM_DOMAIN_RENDER;
	}
	obj[0].handle = target;
	obj[1].handle = batch;
	obj[1].relocation_count = COUNT;
	obj[1].relocs_ptr = to_user_pointer(arr);

	faults0 = reloc_refaults(fd);
	z.addr = arr;
	z.size = size;
	igt_assert_eq(pthread_create(&thread, NULL, zap, &z), 0);
	for (i = 0; i < EXECS; i++) {
		cs[addr_at + 1] = i + 1;	/* the value stored */
		gem_write(fd, batch, 0, cs, 4 * n);
		arr[0].presumed_offset = ~0ull;
		igt_assert_ok(exec_list(fd, obj, 2, 4 * n,
					I915_EXEC_HANDLE_LUT));
		igt_assert_eq_u64(gem_read_dword(fd, target, 0), i + 1);
	}
	z.stop = 1;
	pthread_join(thread, NULL);
	faults = reloc_refaults(fd);
	igt_info("%d execs of %d relocations: %lld chunks faulted in again",
		 EXECS, COUNT, faults - faults0);

	munmap(arr, size);
	gem_close(fd, target);
	gem_close(fd, batch);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(wrong_presumed_patched),
	SUBTEST(offsets_written_back),
	SUBTEST(presumed_offset_written_back),
	SUBTEST(right_presumed_left_alone),
	SUBTEST(no_reloc),
	SUBTEST(no_reloc_wrong_offsets),
	SUBTEST(no_reloc_unread),
	SUBTEST(no_reloc_moved_reads_relocs),
	SUBTEST(gem_busy_pattern),
	SUBTEST(handle_lut),
	SUBTEST(handle_lut_batch_first),
	SUBTEST(reloc_in_data_object),
	SUBTEST(many_relocs),
	SUBTEST(run_with_one_unlike),
	SUBTEST(relocate_after_gem_init),
	SUBTEST(relocate_after_eviction),
	SUBTEST(softpin),
	SUBTEST(softpin_batch_no_reloc),
	SUBTEST(reloc_waits_for_busy_batch),
	SUBTEST(reloc_waits_for_busy_reader),
	SUBTEST_T(huge_count_not_copied, 120),
	SUBTEST_T(relocs_not_resident, 120),
	SUBTEST(stale_relocs_one_map_per_page),
	SUBTEST(valid_relocs_read_once),
};

igt_main(tests)
