// SPDX-License-Identifier: GPL-2.0
/*
 * gem_exec_bad: every way EXECBUFFER2 refuses a request, with the errno
 * upstream i915 gives (i915_gem_check_execbuffer, eb_validate_vma,
 * eb_relocate_entry...) or, where upstream no longer checks, the design
 * (section 7.1: one write domain per target, write within read, targets
 * in the list).
 *
 * Each subtest starts from a good exec (a batch storing a magic value
 * into a target through one relocation), breaks one thing, and checks
 * the errno and that the rejected exec changed nothing: the store did
 * not happen, the batch was not patched, no offset was written back to
 * the relocations or the exec list.  At the end the good exec still
 * works and no object was leaked.
 */
#include <limits.h>
#include <stdarg.h>
#include <sys/mman.h>
#include <unistd.h>

#include "exec.h"

#define MAGIC	0x600d600d
#define INSTR	I915_GEM_DOMAIN_INSTRUCTION
#define RENDER	I915_GEM_DOMAIN_RENDER
#define SAMPLER	I915_GEM_DOMAIN_SAMPLER

struct probe {
	int fd, gen;
	uint32_t target, batch, len, addr_at;
	uint32_t cs[8];		/* what the batch object holds */
	struct drm_i915_gem_relocation_entry reloc[2];
	struct drm_i915_gem_exec_object2 obj[3];
	struct drm_i915_gem_execbuffer2 eb;
	long long objects;
};

/* the good request: store MAGIC into target dword 0 */
static void probe_reset(struct probe *p)
{
	uint32_t addr_at;
	unsigned int n = cs_store_dword(p->gen, p->cs, 0, MAGIC, &addr_at);

	p->addr_at = 4 * addr_at;
	p->len = 4 * cs_end(p->cs, n);
	gem_write(p->fd, p->batch, 0, p->cs, p->len);

	memset(p->reloc, 0, sizeof(p->reloc));
	p->reloc[0].target_handle = p->target;
	p->reloc[0].offset = p->addr_at;
	p->reloc[0].presumed_offset = ~0ull;
	p->reloc[0].read_domains = INSTR;
	p->reloc[0].write_domain = INSTR;
	memset(p->obj, 0, sizeof(p->obj));
	p->obj[0].handle = p->target;
	p->obj[1].handle = p->batch;
	p->obj[1].relocation_count = 1;
	p->obj[1].relocs_ptr = to_user_pointer(p->reloc);
	memset(&p->eb, 0, sizeof(p->eb));
	p->eb.buffers_ptr = to_user_pointer(p->obj);
	p->eb.buffer_count = 2;
	p->eb.batch_len = p->len;
}

/* the good request on @fd (which the probe closes at the end) */
static void probe_init_fd(struct probe *p, int fd)
{
	long long bytes;

	memset(p, 0, sizeof(*p));
	p->fd = fd;
	p->gen = gem_gen(p->fd);
	gem_quiescent_gpu(p->fd);
	igt_gem_objects(p->fd, &p->objects, &bytes);
	p->target = gem_create(p->fd, PAGE_SZ);
	p->batch = gem_create(p->fd, PAGE_SZ);
	probe_reset(p);
}

static void probe_init(struct probe *p)
{
	probe_init_fd(p, drm_open_driver());
}

static uint32_t target_dw0(struct probe *p)
{
	uint32_t v;

	gem_read(p->fd, p->target, 0, &v, sizeof(v));
	return v;
}

/*
 * The request as it stands fails with @err and changes nothing: the
 * store did not run, the batch was not patched, and neither the
 * relocation entries nor the exec objects were written back.
 */
#define probe_expect(p, err, ...) \
	probe_expect_at(__LINE__, p, err, __VA_ARGS__)

static void __attribute__((format(printf, 4, 5)))
probe_expect_at(int line, struct probe *p, int err, const char *fmt, ...)
{
	struct drm_i915_gem_relocation_entry reloc[2];
	struct drm_i915_gem_exec_object2 obj[3];
	uint32_t cs[8], v;
	char what[128];
	va_list ap;
	int ret;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	memcpy(reloc, p->reloc, sizeof(reloc));
	memcpy(obj, p->obj, sizeof(obj));
	ret = __gem_execbuf(p->fd, &p->eb);
	if (ret != err)
		igt_fail_at(__FILE__, line,
			    "%s: EXECBUFFER2 returned %d (%s), expected %d (%s)",
			    what, ret, igt_errname(ret), err, igt_errname(err));
	v = target_dw0(p);
	if (v)
		igt_fail_at(__FILE__, line, "%s: the store ran (%#x)", what, v);
	gem_read(p->fd, p->batch, 0, cs, p->len);
	igt_assert_mem_at(__FILE__, line, cs, p->cs, p->len,
			  "%s: the batch", what);
	igt_assert_mem_at(__FILE__, line, p->reloc, reloc, sizeof(reloc),
			  "%s: the relocation entries", what);
	igt_assert_mem_at(__FILE__, line, p->obj, obj, sizeof(obj),
			  "%s: the exec objects", what);
}

/* each value of the array @vals in turn in @lvalue: refused with @err */
#define probe_expect_each(p, lvalue, vals, err) do { \
	size_t __i; \
	for (__i = 0; __i < ARRAY_SIZE(vals); __i++) { \
		(lvalue) = (vals)[__i]; \
		probe_expect(p, err, "%s = %#llx", #lvalue, \
			     (unsigned long long)(vals)[__i]); \
	} \
} while (0)

/*
 * A second relocation of the batch: @target at @offset (past the end of
 * the commands, it is patched but never executed), with these domains.
 */
static void probe_add_reloc(struct probe *p, uint32_t target,
			    uint64_t offset, uint32_t read, uint32_t write)
{
	p->reloc[1] = p->reloc[0];
	p->reloc[1].target_handle = target;
	p->reloc[1].offset = offset;
	p->reloc[1].read_domains = read;
	p->reloc[1].write_domain = write;
	p->obj[1].relocation_count = 2;
}

/* the good request works after all that */
static void probe_good(struct probe *p)
{
	probe_reset(p);
	gem_execbuf(p->fd, &p->eb);
	igt_assert_eq_u64(target_dw0(p), MAGIC);
}

/* ... and nothing leaked */
static void probe_fini(struct probe *p)
{
	probe_good(p);
	gem_close(p->fd, p->target);
	gem_close(p->fd, p->batch);
	igt_assert_eq(gem_wait_object_count(p->fd, p->objects), p->objects);
	close(p->fd);
}

/* an address that faults: a PROT_NONE page (never unmapped, it's a test) */
static void *bad_ptr(void)
{
	void *p = mmap(NULL, PAGE_SZ, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);

	igt_assert(p != MAP_FAILED);
	return p;
}

/* a relocation's read and write domains */
struct domains {
	uint32_t read, write;
};

/* each pair of domains of @bad on the store's relocation: EINVAL */
static void expect_domains_refused(const struct domains *bad, size_t n)
{
	struct probe p;
	size_t i;

	probe_init(&p);
	for (i = 0; i < n; i++) {
		p.reloc[0].read_domains = bad[i].read;
		p.reloc[0].write_domain = bad[i].write;
		probe_expect(&p, -EINVAL, "read %#x write %#x", bad[i].read,
			     bad[i].write);
	}
	probe_fini(&p);
}

/* batch_start_offset and batch_len */
struct range {
	uint32_t start, len;
};

/* each batch range of @bad: EINVAL */
static void expect_batch_ranges_refused(const struct range *bad, size_t n)
{
	struct probe p;
	size_t i;

	probe_init(&p);
	for (i = 0; i < n; i++) {
		p.eb.batch_start_offset = bad[i].start;
		p.eb.batch_len = bad[i].len;
		probe_expect(&p, -EINVAL, "start %#x len %#x", bad[i].start,
			     bad[i].len);
	}
	probe_fini(&p);
}

/* ------------------------------------------------------------------ */

static void subtest_good_request(void)
{
	struct probe p;

	probe_init(&p);
	probe_fini(&p);
}

static void subtest_buffer_count_zero(void)
{
	struct probe p;

	probe_init(&p);
	p.eb.buffer_count = 0;
	probe_expect(&p, -EINVAL, "buffer_count 0");
	probe_fini(&p);
}

static void subtest_buffer_count_huge(void)
{
	static const uint32_t counts[] = {
		UINT32_MAX, (uint32_t)INT_MAX + 1, UINT32_MAX / 2 + 7,
	};
	struct probe p;

	probe_init(&p);
	probe_expect_each(&p, p.eb.buffer_count, counts, -EINVAL);
	probe_fini(&p);
}

static void subtest_buffers_ptr_bad(void)
{
	struct probe p;
	uint8_t *page;

	probe_init(&p);
	p.eb.buffers_ptr = 0;
	probe_expect(&p, -EFAULT, "buffers_ptr NULL");
	p.eb.buffers_ptr = 8;
	probe_expect(&p, -EFAULT, "buffers_ptr 8");
	p.eb.buffers_ptr = to_user_pointer(bad_ptr());
	probe_expect(&p, -EFAULT, "buffers_ptr unmapped");
	p.eb.buffers_ptr = -4096ull;
	probe_expect(&p, -EFAULT, "buffers_ptr kernel address");
	/* the first entry readable, the second not */
	page = mmap(NULL, 2 * PAGE_SZ, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	igt_assert(page != MAP_FAILED);
	igt_assert_eq(mprotect(page + PAGE_SZ, PAGE_SZ, PROT_NONE), 0);
	memcpy(page + PAGE_SZ - sizeof(p.obj[0]), &p.obj[0], sizeof(p.obj[0]));
	p.eb.buffers_ptr = to_user_pointer(page + PAGE_SZ - sizeof(p.obj[0]));
	probe_expect(&p, -EFAULT, "buffers_ptr straddling a bad page");
	munmap(page, 2 * PAGE_SZ);
	probe_fini(&p);
}

static void subtest_relocs_ptr_bad(void)
{
	struct probe p;

	probe_init(&p);
	p.obj[1].relocs_ptr = 0;
	probe_expect(&p, -EFAULT, "relocs_ptr NULL");
	p.obj[1].relocs_ptr = 8;
	probe_expect(&p, -EFAULT, "relocs_ptr 8");
	p.obj[1].relocs_ptr = to_user_pointer(bad_ptr());
	probe_expect(&p, -EFAULT, "relocs_ptr unmapped");
	p.obj[1].relocs_ptr = -4096ull;
	probe_expect(&p, -EFAULT, "relocs_ptr kernel address");
	probe_fini(&p);
}

/*
 * A relocation array whose third entry lies on a page that faults:
 * -EFAULT, whether the entries before it are good or the first names a
 * target outside the list (the entries are read a chunk at a time before
 * any of the chunk is refused, as upstream copies its chunk first).
 */
static void subtest_relocs_straddling_bad_page(void)
{
	struct drm_i915_gem_relocation_entry *r;
	uint32_t outsider;
	struct probe p;
	char *page;

	probe_init(&p);
	outsider = gem_create(p.fd, PAGE_SZ);
	page = mmap(NULL, 2 * PAGE_SZ, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	igt_assert(page != MAP_FAILED);
	igt_assert_eq(mprotect(page + PAGE_SZ, PAGE_SZ, PROT_NONE), 0);
	r = (void *)(page + PAGE_SZ - 2 * sizeof(*r));
	r[0] = p.reloc[0];
	r[1] = p.reloc[0];
	p.obj[1].relocs_ptr = to_user_pointer(r);
	p.obj[1].relocation_count = 3;
	probe_expect(&p, -EFAULT, "two good entries, then a bad page");
	r[0].target_handle = outsider;
	probe_expect(&p, -EFAULT, "a target outside the list, then a bad page");
	/* without the unreadable entry: the first entry's own error */
	p.obj[1].relocation_count = 2;
	probe_expect(&p, -ENOENT, "a target outside the list, readable");
	munmap(page, 2 * PAGE_SZ);
	gem_close(p.fd, outsider);
	probe_fini(&p);
}

/* upstream: a valid pointer and a count beyond it faults */
static void subtest_relocation_count_huge(void)
{
	static const uint32_t counts[] = {
		UINT32_MAX, INT32_MAX, 1 << 26,	/* 2 GiB of entries */
	};
	struct probe p;

	probe_init(&p);
	probe_expect_each(&p, p.obj[1].relocation_count, counts, -EFAULT);
	probe_fini(&p);
}

/* a read-only relocation array or exec list is fine (write-back lost) */
static void subtest_read_only_arrays(void)
{
	struct probe p;
	void *ro;

	probe_init(&p);
	ro = mmap(NULL, PAGE_SZ, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	igt_assert(ro != MAP_FAILED);
	memcpy(ro, p.reloc, sizeof(p.reloc[0]));
	memcpy((char *)ro + 1024, p.obj, 2 * sizeof(p.obj[0]));
	((struct drm_i915_gem_exec_object2 *)((char *)ro + 1024))[1].relocs_ptr =
		to_user_pointer(ro);
	igt_assert_eq(mprotect(ro, PAGE_SZ, PROT_READ), 0);
	p.eb.buffers_ptr = to_user_pointer((char *)ro + 1024);
	gem_execbuf(p.fd, &p.eb);
	igt_assert_eq_u64(target_dw0(&p), MAGIC);
	munmap(ro, PAGE_SZ);
	gem_write(p.fd, p.target, 0, &(uint32_t){ 0 }, 4);
	probe_fini(&p);
}

static void subtest_reloc_target_not_in_list(void)
{
	struct probe p;
	uint32_t outsider;

	probe_init(&p);
	outsider = gem_create(p.fd, PAGE_SZ);
	p.reloc[0].target_handle = outsider;
	probe_expect(&p, -ENOENT, "target not in the list");
	p.reloc[0].target_handle = outsider + 100;
	probe_expect(&p, -ENOENT, "target not a handle");
	p.reloc[0].target_handle = 0;
	probe_expect(&p, -ENOENT, "target handle 0");
	gem_close(p.fd, outsider);
	probe_fini(&p);
}

static void subtest_reloc_lut_index_bad(void)
{
	static const uint32_t bad[] = { 2 /* == count */, ~0u };
	struct probe p;

	probe_init(&p);
	p.eb.flags = I915_EXEC_HANDLE_LUT;
	probe_expect_each(&p, p.reloc[0].target_handle, bad, -ENOENT);
	probe_fini(&p);
}

/* the relocated dword must lie inside the object (presumed wrong) */
static void subtest_reloc_offset_out_of_bounds(void)
{
	static const uint64_t bad[] = {
		PAGE_SZ, PAGE_SZ - 2, PAGE_SZ + 4, 1ull << 32, 1ull << 40,
		-4ull,
	};
	struct probe p;

	probe_init(&p);
	probe_expect_each(&p, p.reloc[0].offset, bad, -EINVAL);
	probe_fini(&p);
}

static void subtest_reloc_offset_unaligned(void)
{
	struct probe p;
	uint32_t i;

	probe_init(&p);
	for (i = 1; i < 4; i++) {
		p.reloc[0].offset = p.addr_at + i;
		probe_expect(&p, -EINVAL, "reloc offset %u", p.addr_at + i);
	}
	probe_fini(&p);
}

/* the last dword of the object is a valid place for a relocation */
static void subtest_reloc_offset_last_dword(void)
{
	struct probe p;

	probe_init(&p);
	probe_add_reloc(&p, p.target, PAGE_SZ - 4, INSTR, INSTR);
	gem_execbuf(p.fd, &p.eb);
	igt_assert_eq_u64(target_dw0(&p), MAGIC);
	gem_write(p.fd, p.target, 0, &(uint32_t){ 0 }, 4);
	probe_fini(&p);
}

/* one relocation naming two write domains */
static void subtest_reloc_two_write_domains(void)
{
	static const struct domains bad[] = {
		{ RENDER | SAMPLER, RENDER | SAMPLER },
	};

	expect_domains_refused(bad, ARRAY_SIZE(bad));
}

/* two relocations writing one target in different domains */
static void subtest_reloc_conflicting_write_domains(void)
{
	struct probe p;

	probe_init(&p);
	probe_add_reloc(&p, p.target, p.len, RENDER, RENDER);
	probe_expect(&p, -EINVAL, "writes INSTRUCTION and RENDER");
	probe_fini(&p);
}

/*
 * What the domain checks must let through: no domains at all, the same
 * write domain twice, a write plus other reads of the same target.
 */
static void subtest_reloc_domains_accepted(void)
{
	static const struct { struct domains d0, d1; } ok[] = {
		{ { INSTR, INSTR }, { 0, 0 } },
		{ { INSTR, INSTR }, { INSTR, INSTR } },
		{ { INSTR, INSTR }, { SAMPLER, 0 } },
		{ { INSTR | SAMPLER, INSTR }, { RENDER | SAMPLER, 0 } },
		{ { 0, 0 }, { INSTR, INSTR } },
	};
	struct probe p;
	size_t i;

	probe_init(&p);
	for (i = 0; i < ARRAY_SIZE(ok); i++) {
		int ret;

		p.reloc[0].read_domains = ok[i].d0.read;
		p.reloc[0].write_domain = ok[i].d0.write;
		probe_add_reloc(&p, p.target, p.len, ok[i].d1.read,
				ok[i].d1.write);
		ret = __gem_execbuf(p.fd, &p.eb);
		if (ret)
			igt_info("read %#x write %#x, then read %#x write %#x",
				 ok[i].d0.read, ok[i].d0.write, ok[i].d1.read,
				 ok[i].d1.write);
		igt_assert_ok(ret);
		igt_assert_eq_u64(target_dw0(&p), MAGIC);
		gem_write(p.fd, p.target, 0, &(uint32_t){ 0 }, 4);
		probe_reset(&p);
	}
	probe_fini(&p);
}

/* the write domain must be among the read domains */
static void subtest_reloc_write_not_in_read(void)
{
	static const struct domains bad[] = {
		{ 0, RENDER }, { SAMPLER, RENDER }, { RENDER, INSTR },
		{ I915_GEM_DOMAIN_VERTEX, I915_GEM_DOMAIN_COMMAND },
	};

	expect_domains_refused(bad, ARRAY_SIZE(bad));
}

/* CPU, GTT and unknown domains are not the GPU's */
static void subtest_reloc_non_gpu_domains(void)
{
	static const struct domains bad[] = {
		{ I915_GEM_DOMAIN_CPU, 0 },
		{ I915_GEM_DOMAIN_CPU, I915_GEM_DOMAIN_CPU },
		{ RENDER | I915_GEM_DOMAIN_CPU, RENDER },
		{ I915_GEM_DOMAIN_GTT, 0 },
		{ I915_GEM_DOMAIN_GTT, I915_GEM_DOMAIN_GTT },
		{ 0x80, 0 }, { 1u << 30, 0 }, { 0x80000000, 0 },
		{ RENDER | 0x100, RENDER },
	};

	expect_domains_refused(bad, ARRAY_SIZE(bad));
}

/* a relocation that makes the GPU write the batch (self-modifying) */
static void subtest_reloc_writes_batch(void)
{
	struct probe p;

	probe_init(&p);
	probe_add_reloc(&p, p.batch, p.len, RENDER, RENDER);
	probe_expect(&p, -EINVAL, "the batch as a write target");
	probe_fini(&p);
}

static void subtest_duplicate_handles(void)
{
	struct probe p;

	probe_init(&p);
	p.obj[2] = p.obj[1];
	p.obj[1] = p.obj[0];
	p.eb.buffer_count = 3;
	probe_expect(&p, -EINVAL, "target listed twice");
	/* the same object under a second handle of this file */
	p.obj[1].handle = gem_open(p.fd, gem_flink(p.fd, p.target));
	probe_expect(&p, -EINVAL, "target listed under two handles");
	gem_close(p.fd, p.obj[1].handle);
	probe_reset(&p);
	p.obj[2] = p.obj[1];
	p.eb.buffer_count = 3;
	p.obj[1].relocation_count = 0;
	probe_expect(&p, -EINVAL, "batch listed twice");
	probe_fini(&p);
}

/* a handle that is no object */
static void subtest_bad_handle(void)
{
	struct probe p;

	probe_init(&p);
	p.obj[0].handle = p.target + 100;
	probe_expect(&p, -ENOENT, "object handle unknown");
	p.obj[0].handle = 0;
	probe_expect(&p, -ENOENT, "object handle 0");
	probe_reset(&p);
	p.obj[1].handle = p.batch + 100;
	probe_expect(&p, -ENOENT, "batch handle unknown");
	probe_fini(&p);
}

/* start and length are multiples of 8 (upstream), as MI_BATCH_BUFFER_START needs */
static void subtest_batch_unaligned(void)
{
	static const struct range bad[] = {
		{ 2, 0 }, { 4, 0 }, { 0, 2 }, { 0, 12 }, { 1, 8 }, { 0, 7 },
	};

	expect_batch_ranges_refused(bad, ARRAY_SIZE(bad));
}

static void subtest_batch_beyond_object(void)
{
	static const struct range bad[] = {
		{ PAGE_SZ, 0 }, { PAGE_SZ, 8 }, { PAGE_SZ - 8, 16 },
		{ 0, PAGE_SZ + 8 }, { 1u << 31, 8 }, { 8, 0xfffffff8 },
		{ 0xfffffff8, 16 },
	};

	expect_batch_ranges_refused(bad, ARRAY_SIZE(bad));
}

/* flags nobody defined, and those upstream refuses on these GPUs */
static void subtest_unknown_flags(void)
{
	static const uint64_t bad[] = {
		1ull << 22, 1ull << 23, 1ull << 31, 1ull << 32, 1ull << 40,
		1ull << 63,
		I915_EXEC_CONSTANTS_ABSOLUTE, I915_EXEC_CONSTANTS_REL_SURFACE,
		I915_EXEC_CONSTANTS_MASK, I915_EXEC_GEN7_SOL_RESET,
		I915_EXEC_RESOURCE_STREAMER, I915_EXEC_BSD_RING1, I915_EXEC_RENDER | I915_EXEC_BSD_RING1,
		I915_EXEC_RENDER | I915_EXEC_BSD_RING2,
	};
	struct probe p;

	probe_init(&p);
	probe_expect_each(&p, p.eb.flags, bad, -EINVAL);
	probe_fini(&p);
}

/* an in-fence that is no sync_file: -1, or no open file at all */
static void subtest_bad_fence_in(void)
{
	static const uint64_t fds[] = { 0xffffffff, 1000 };
	struct probe p;

	probe_init(&p);
	p.eb.flags = I915_EXEC_FENCE_IN;
	probe_expect_each(&p, p.eb.rsvd2, fds, -EINVAL);
	p.eb.flags = I915_EXEC_FENCE_SUBMIT;
	p.eb.rsvd2 = 0xffffffff;
	probe_expect(&p, -EINVAL, "FENCE_SUBMIT fd -1");
	probe_fini(&p);
}

/* the render ring only: BSD, BLT, VEBOX and every selector up to 63 */
static void subtest_unknown_rings(void)
{
	struct probe p;
	uint64_t ring;

	probe_init(&p);
	for (ring = I915_EXEC_BSD; ring <= I915_EXEC_RING_MASK; ring++) {
		p.eb.flags = ring;
		probe_expect(&p, -EINVAL, "ring %llu",
			     (unsigned long long)ring);
	}
	probe_fini(&p);
}

/* rsvd1 is the context id: there are no contexts but the default */
static void subtest_rsvd1_context(void)
{
	static const uint64_t ctx[] = { 1, 0xffffffff };
	struct probe p;

	probe_init(&p);
	probe_expect_each(&p, p.eb.rsvd1, ctx, -ENOENT);
	probe_fini(&p);
}

/* EXECBUFFER2 has no cliprects, DR1 or DR4 */
static void subtest_cliprects_on_execbuffer2(void)
{
	struct drm_clip_rect rect = { 0, 0, 10, 10 };
	struct probe p;

	probe_init(&p);
	p.eb.num_cliprects = 1;
	p.eb.cliprects_ptr = to_user_pointer(&rect);
	probe_expect(&p, -EINVAL, "one cliprect");
	p.eb.num_cliprects = 0;
	probe_expect(&p, -EINVAL, "cliprects_ptr alone");
	p.eb.cliprects_ptr = 0;
	p.eb.num_cliprects = 1;
	probe_expect(&p, -EINVAL, "num_cliprects alone");
	p.eb.num_cliprects = 0;
	p.eb.DR1 = 1;
	probe_expect(&p, -EINVAL, "DR1");
	p.eb.DR1 = 0;
	p.eb.DR4 = 0x00010001;
	probe_expect(&p, -EINVAL, "DR4");
	probe_fini(&p);
}

static void subtest_unknown_object_flags(void)
{
	static const uint64_t bad[] = {
		1ull << 8, 1ull << 16, 1ull << 31, 1ull << 32, 1ull << 40,
		1ull << 63,
	};
	struct probe p;

	probe_init(&p);
	probe_expect_each(&p, p.obj[0].flags, bad, -EINVAL);
	p.obj[0].flags = 0;
	p.obj[1].flags = 1ull << 40;
	probe_expect(&p, -EINVAL, "batch flags 1<<40");
	probe_fini(&p);
}

static void subtest_object_alignment_bad(void)
{
	static const uint64_t bad[] = { 3, 4097, 3 << 12, (1ull << 40) + 1 };
	struct probe p;

	probe_init(&p);
	probe_expect_each(&p, p.obj[0].alignment, bad, -EINVAL);
	probe_fini(&p);
}

/*
 * A softpin offset must be page aligned, and aligned as the object
 * asks.
 */
static void subtest_softpin_unaligned(void)
{
	static const uint64_t bad[] = { (16 << 20) + 64, (16 << 20) + 2048 };
	struct probe p;

	probe_init(&p);
	p.obj[0].flags = EXEC_OBJECT_PINNED;
	probe_expect_each(&p, p.obj[0].offset, bad, -EINVAL);
	p.obj[0].offset = 1 << 20;
	p.obj[0].alignment = 2 << 20;
	probe_expect(&p, -EINVAL, "softpin at 1 MiB, alignment 2 MiB");
	probe_fini(&p);
}

/* softpin beyond the GTT, or partly beyond */
static void subtest_softpin_out_of_range(void)
{
	struct probe p;
	uint64_t total;

	probe_init(&p);
	total = gem_gtt_total(p.fd);
	{
		const uint64_t bad[] = {
			total, 1ull << 32, 1ull << 40, -PAGE_SZ,
		};

		p.obj[0].flags = EXEC_OBJECT_PINNED;
		probe_expect_each(&p, p.obj[0].offset, bad, -EINVAL);
	}
	/* two pages, the second beyond the end */
	p.obj[0].offset = total - PAGE_SZ;
	p.obj[0].handle = gem_create(p.fd, 2 * PAGE_SZ);
	p.reloc[0].target_handle = p.obj[0].handle;
	probe_expect(&p, -EINVAL, "softpin across the end of the GTT");
	gem_close(p.fd, p.obj[0].handle);
	probe_fini(&p);
}

/* two objects softpinned over each other in one exec */
static void subtest_softpin_overlap(void)
{
	struct probe p;

	probe_init(&p);
	p.obj[2] = p.obj[1];
	p.obj[1].handle = gem_create(p.fd, 2 * PAGE_SZ);
	p.obj[1].relocation_count = 0;
	p.obj[0].flags = EXEC_OBJECT_PINNED;
	p.obj[0].offset = 32 << 20;
	p.obj[1].flags = EXEC_OBJECT_PINNED;
	p.obj[1].offset = (32 << 20) - PAGE_SZ;
	p.eb.buffer_count = 3;
	probe_expect(&p, -EINVAL, "2 pages at 32 MiB - 4 KiB, 1 at 32 MiB");
	p.obj[1].offset = 32 << 20;
	probe_expect(&p, -EINVAL, "two objects at 32 MiB");
	gem_close(p.fd, p.obj[1].handle);
	probe_fini(&p);
}

/* upstream refuses a batch that is marked written (self-modifying) */
static void subtest_batch_marked_write(void)
{
	struct probe p;

	probe_init(&p);
	p.obj[1].flags = EXEC_OBJECT_WRITE;
	probe_expect(&p, -EINVAL, "batch with EXEC_OBJECT_WRITE");
	probe_fini(&p);
}

/* a secure batch needs root (CAP_SYS_ADMIN) and the master: EPERM */
static int secure_child(void *arg)
{
	struct probe p;

	(void)arg;
	probe_init_fd(&p, drm_open_driver_render());
	igt_drop_root();
	p.eb.flags = I915_EXEC_SECURE;
	probe_expect(&p, -EPERM, "I915_EXEC_SECURE as nobody");
	probe_good(&p);
	close(p.fd);
	return 0;
}

static void subtest_secure_unprivileged(void)
{
	int fd = drm_open_driver();
	long long objects, bytes;

	gem_quiescent_gpu(fd);
	igt_gem_objects(fd, &objects, &bytes);
	igt_fork_and_check(secure_child, NULL);
	igt_assert_eq(gem_wait_object_count(fd, objects), objects);
	close(fd);
}

/* after a run of bad requests, everything still works */
/*
 * pad_to_size that can never fit: larger than the GTT, or two halves of
 * 2^64 whose sum wraps.  -ENOSPC, as upstream answers a binding larger
 * than the address space, before anything is evicted.
 */
static void subtest_pad_to_size_huge(void)
{
	struct probe p;
	uint64_t total;

	probe_init(&p);
	total = gem_gtt_total(p.fd);
	p.obj[2] = p.obj[1];
	p.obj[1].handle = gem_create(p.fd, PAGE_SZ);
	p.obj[1].relocation_count = 0;
	p.eb.buffer_count = 3;
	p.obj[0].flags = EXEC_OBJECT_PAD_TO_SIZE;
	{
		const uint64_t bad[] = {
			total + PAGE_SZ, 1ull << 32, 1ull << 63, -PAGE_SZ,
		};

		probe_expect_each(&p, p.obj[0].pad_to_size, bad, -ENOSPC);
	}
	/* 2^63 + 2^63 wraps to 0 */
	p.obj[0].pad_to_size = 1ull << 63;
	p.obj[1].flags = EXEC_OBJECT_PAD_TO_SIZE;
	p.obj[1].pad_to_size = 1ull << 63;
	probe_expect(&p, -ENOSPC, "two objects padded to 2^63");
	/* -4 KiB + 8 KiB wraps to 4 KiB */
	p.obj[0].pad_to_size = -PAGE_SZ;
	p.obj[1].pad_to_size = 2 * PAGE_SZ;
	probe_expect(&p, -ENOSPC, "-4 KiB and 8 KiB");
	/* a pad that fits is fine */
	p.obj[0].pad_to_size = 2 * PAGE_SZ;
	p.obj[1].pad_to_size = 2 * PAGE_SZ;
	igt_assert_ok(__gem_execbuf(p.fd, &p.eb));
	gem_close(p.fd, p.obj[1].handle);
	probe_reset(&p);
	probe_fini(&p);
}

/*
 * The same beside a busy object: answered at once, without waiting for
 * the GPU (the object is still busy after the call).
 */
static void subtest_pad_to_size_huge_busy(void)
{
	enum { NOOPS = 2000 };
	static uint32_t cs[NOOPS + 2];
	struct drm_i915_gem_exec_object2 slow_obj[2] = { };
	struct drm_i915_gem_execbuffer2 slow = { };
	struct probe p;
	uint32_t slow_batch, extra;
	unsigned int i;

	probe_init(&p);
	/* the target busy for ~2 s: a batch of NOOPs that lists it written */
	for (i = 0; i < NOOPS; i++)
		cs[i] = MI_NOOP;
	cs[NOOPS] = MI_BATCH_BUFFER_END;
	cs[NOOPS + 1] = MI_NOOP;
	slow_batch = gem_create(p.fd, sizeof(cs));
	gem_write(p.fd, slow_batch, 0, cs, sizeof(cs));
	slow_obj[0].handle = p.target;
	slow_obj[0].flags = EXEC_OBJECT_WRITE;
	slow_obj[1].handle = slow_batch;
	slow.buffers_ptr = to_user_pointer(slow_obj);
	slow.buffer_count = 2;
	sim_set_cmd_delay(1000);
	gem_execbuf(p.fd, &slow);
	igt_assert_neq(gem_busy(p.fd, p.target), 0);

	/* target and another object padded to 2^63 each, then the batch */
	extra = gem_create(p.fd, PAGE_SZ);
	p.obj[2] = p.obj[1];
	memset(&p.obj[1], 0, sizeof(p.obj[1]));
	p.obj[1].handle = extra;
	p.obj[0].flags = EXEC_OBJECT_PAD_TO_SIZE;
	p.obj[0].pad_to_size = 1ull << 63;
	p.obj[1].flags = EXEC_OBJECT_PAD_TO_SIZE;
	p.obj[1].pad_to_size = 1ull << 63;
	p.eb.buffer_count = 3;
	igt_assert_err(__gem_execbuf(p.fd, &p.eb), -ENOSPC);
	igt_assert_f(gem_busy(p.fd, p.target) != 0,
		     "the busy object went idle during the refused exec: it waited for the GPU");

	sim_set_cmd_delay(0);
	gem_sync(p.fd, p.target);
	gem_close(p.fd, extra);
	gem_close(p.fd, slow_batch);
	probe_reset(&p);
	probe_fini(&p);
}

static void subtest_all_then_good(void)
{
	struct probe p;
	int i;

	probe_init(&p);
	for (i = 0; i < 50; i++) {
		p.eb.buffer_count = 0;
		probe_expect(&p, -EINVAL, "round %d", i);
		probe_reset(&p);
		p.reloc[0].target_handle = 0;
		probe_expect(&p, -ENOENT, "round %d", i);
		probe_reset(&p);
		p.reloc[0].offset = PAGE_SZ;
		probe_expect(&p, -EINVAL, "round %d", i);
		probe_reset(&p);
		p.eb.flags = 1ull << 40;
		probe_expect(&p, -EINVAL, "round %d", i);
		probe_reset(&p);
	}
	probe_fini(&p);
}

static const struct igt_subtest tests[] = {
	SUBTEST(good_request),
	SUBTEST(buffer_count_zero),
	SUBTEST(buffer_count_huge),
	SUBTEST(buffers_ptr_bad),
	SUBTEST(relocs_ptr_bad),
	SUBTEST(relocs_straddling_bad_page),
	SUBTEST(relocation_count_huge),
	SUBTEST(read_only_arrays),
	SUBTEST(reloc_target_not_in_list),
	SUBTEST(reloc_lut_index_bad),
	SUBTEST(reloc_offset_out_of_bounds),
	SUBTEST(reloc_offset_unaligned),
	SUBTEST(reloc_offset_last_dword),
	SUBTEST(reloc_two_write_domains),
	SUBTEST(reloc_conflicting_write_domains),
	SUBTEST(reloc_domains_accepted),
	SUBTEST(reloc_write_not_in_read),
	SUBTEST(reloc_non_gpu_domains),
	SUBTEST(reloc_writes_batch),
	SUBTEST(duplicate_handles),
	SUBTEST(bad_handle),
	SUBTEST(batch_unaligned),
	SUBTEST(batch_beyond_object),
	SUBTEST(unknown_flags),
	SUBTEST(bad_fence_in),
	SUBTEST(unknown_rings),
	SUBTEST(rsvd1_context),
	SUBTEST(cliprects_on_execbuffer2),
	SUBTEST(unknown_object_flags),
	SUBTEST(object_alignment_bad),
	SUBTEST(softpin_unaligned),
	SUBTEST(softpin_out_of_range),
	SUBTEST(softpin_overlap),
	SUBTEST(batch_marked_write),
	SUBTEST(secure_unprivileged),
	SUBTEST(pad_to_size_huge),
	SUBTEST(pad_to_size_huge_busy),
	SUBTEST(all_then_good),
};

igt_main(tests)
