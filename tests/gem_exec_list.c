// SPDX-License-Identifier: GPL-2.0
/*
 * gem_exec_list: long object lists.  The kernel copies the list and
 * looks its handles up a chunk at a time and checks short lists for
 * duplicates pair by pair, long ones through a table: every entry of a
 * 100-object list is still checked in list order (an unknown handle is
 * -ENOENT, a bad entry before it -EINVAL, an object listed twice
 * -EINVAL, wherever the chunks split the list), and lists of 2 to 9
 * objects find their duplicates too.  The GTT offsets come back, v1 and
 * v2, and an entry whose offset is already right is not written: an
 * exec of a list with every offset right leaves the list's pages clean
 * (their soft-dirty bits, /proc/self/pagemap, stay clear).  Handles
 * closed and created again while the list executes harm nothing.  The
 * file's handle cache (drm_gem.c) gives the object a handle names now,
 * never one it named before, through every handle of it in any file, and
 * grows with a list of 1,500 handles.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "exec.h"

#define N_LONG	100	/* objects of the long list: several chunks */
#define SOFT_DIRTY	(1ull << 55)	/* pagemap: the page was written */

struct list {
	int fd;
	long long objects;
	uint32_t handle[N_LONG];	/* the batch last */
	struct drm_i915_gem_exec_object2 *obj;	/* its own pages */
	size_t obj_size;
};

static void list_init(struct list *l)
{
	long long bytes;
	unsigned int i;

	memset(l, 0, sizeof(*l));
	l->fd = drm_open_driver();
	gem_quiescent_gpu(l->fd);
	igt_gem_objects(l->fd, &l->objects, &bytes);
	for (i = 0; i + 1 < N_LONG; i++)
		l->handle[i] = gem_create(l->fd, PAGE_SZ);
	l->handle[N_LONG - 1] = bbe_create(l->fd, 0);
	l->obj_size = N_LONG * sizeof(*l->obj);
	l->obj = mmap(NULL, l->obj_size, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	igt_assert(l->obj != MAP_FAILED);
}

/* the first @n handles, @n - 1 the batch, offsets 0 */
static void list_reset(struct list *l, unsigned int n)
{
	unsigned int i;

	memset(l->obj, 0, l->obj_size);
	for (i = 0; i + 1 < n; i++)
		l->obj[i].handle = l->handle[i];
	l->obj[n - 1].handle = l->handle[N_LONG - 1];
}

static int list_exec(struct list *l, unsigned int n)
{
	struct drm_i915_gem_execbuffer2 eb = {
		.buffers_ptr = to_user_pointer(l->obj),
		.buffer_count = n,
	};

	return __gem_execbuf(l->fd, &eb);
}

#define list_expect(l, n, err, what) do { \
	int __r = list_exec(l, n); \
	igt_assert_f(__r == (err), "%s: EXECBUFFER2 returned %d (%s), expected %d (%s)", \
		     what, __r, igt_errname(__r), err, igt_errname(err)); \
} while (0)

/* the batch still runs, and nothing leaked */
static void list_fini(struct list *l)
{
	unsigned int i;

	list_reset(l, N_LONG);
	igt_assert_ok(list_exec(l, N_LONG));
	for (i = 0; i < N_LONG; i++)
		gem_close(l->fd, l->handle[i]);
	munmap(l->obj, l->obj_size);
	igt_assert_eq(gem_wait_object_count(l->fd, l->objects), l->objects);
	close(l->fd);
}

/* offsets written back: page aligned, in the managed range, apart */
static void check_offsets(int fd, const struct drm_i915_gem_exec_object2 *obj,
			  unsigned int n)
{
	uint64_t start, end;
	unsigned int i, j;

	gem_gtt_managed(fd, &start, &end);
	for (i = 0; i < n; i++) {
		igt_assert_f(!(obj[i].offset & (PAGE_SZ - 1)) &&
			     obj[i].offset >= start &&
			     obj[i].offset + PAGE_SZ <= end,
			     "entry %u: offset %#llx", i,
			     (unsigned long long)obj[i].offset);
		for (j = 0; j < i; j++)
			igt_assert_f(obj[i].offset != obj[j].offset,
				     "entries %u and %u both at %#llx", j, i,
				     (unsigned long long)obj[i].offset);
	}
}

/* soft-dirty bits of the pages of [p, p + size): clear, or read them */
static void soft_dirty_clear(void)
{
	int fd = open("/proc/self/clear_refs", O_WRONLY);

	igt_assert(fd >= 0);
	igt_assert_eq(write(fd, "4", 1), 1);
	close(fd);
}

static bool soft_dirty(const void *p)
{
	int fd = open("/proc/self/pagemap", O_RDONLY);
	uint64_t e = 0;
	off_t at = (uintptr_t)p / PAGE_SZ * sizeof(e);

	igt_assert(fd >= 0);
	igt_assert_eq(pread(fd, &e, sizeof(e), at), (ssize_t)sizeof(e));
	close(fd);
	return e & SOFT_DIRTY;
}

/* the kernel tracks soft-dirty pages (CONFIG_MEM_SOFT_DIRTY) */
static void require_soft_dirty(struct list *l)
{
	soft_dirty_clear();
	if (soft_dirty(l->obj)) {
		list_fini(l);
		igt_skip("soft-dirty bits stay set after clear_refs");
	}
	l->obj[0].pad_to_size = 0;	/* a write */
	if (!soft_dirty(l->obj)) {
		list_fini(l);
		igt_skip("no soft-dirty tracking (CONFIG_MEM_SOFT_DIRTY)");
	}
}

/*
 * 100 objects: their offsets come back; executed again as they came
 * back, the list's pages are not written at all; one entry wrong, only
 * its page is written, and the entry is right again.
 */
static void subtest_offsets_written_back_once(void)
{
	struct drm_i915_gem_exec_object2 want[N_LONG];
	size_t pages;
	struct list l;
	unsigned int i, wrong = 57;

	list_init(&l);
	list_reset(&l, N_LONG);
	for (i = 0; i < N_LONG; i++)
		l.obj[i].offset = 0xdead000;	/* a presumed offset, wrong */
	igt_assert_ok(list_exec(&l, N_LONG));
	check_offsets(l.fd, l.obj, N_LONG);
	memcpy(want, l.obj, sizeof(want));

	require_soft_dirty(&l);
	pages = (l.obj_size + PAGE_SZ - 1) / PAGE_SZ;
	soft_dirty_clear();
	igt_assert_ok(list_exec(&l, N_LONG));
	igt_assert_mem(l.obj, want, sizeof(want), "the list after an exec");
	for (i = 0; i < pages; i++)
		igt_assert_f(!soft_dirty((char *)l.obj + i * PAGE_SZ),
			     "page %u of the list written back, every offset was right",
			     i);

	l.obj[wrong].offset = want[wrong].offset + 16 * PAGE_SZ;
	soft_dirty_clear();
	igt_assert_ok(list_exec(&l, N_LONG));
	igt_assert_mem(l.obj, want, sizeof(want), "the list after an exec");
	for (i = 0; i < pages; i++) {
		bool has = (char *)&l.obj[wrong] - (char *)l.obj >=
			   (ptrdiff_t)(i * PAGE_SZ) &&
			   (char *)&l.obj[wrong] - (char *)l.obj <
			   (ptrdiff_t)((i + 1) * PAGE_SZ);

		igt_assert_f(soft_dirty((char *)l.obj + i * PAGE_SZ) == has,
			     "page %u of the list: written %d, entry %u's page %d",
			     i, !has, wrong, has);
	}
	list_fini(&l);
}

/* an object listed twice, anywhere in a long list or a short one */
static void subtest_duplicates(void)
{
	static const unsigned int pairs[][2] = {
		{ 0, 99 }, { 0, 1 }, { 31, 32 }, { 7, 8 }, { 40, 72 },
		{ 63, 64 }, { 97, 98 },
	};
	char what[64];
	struct list l;
	unsigned int i, n;

	list_init(&l);
	for (i = 0; i < ARRAY_SIZE(pairs); i++) {
		list_reset(&l, N_LONG);
		l.obj[pairs[i][0]] = l.obj[pairs[i][1]];
		snprintf(what, sizeof(what), "entries %u and %u", pairs[i][0],
			 pairs[i][1]);
		list_expect(&l, N_LONG, -EINVAL, what);
	}
	/* the same object under a second handle */
	list_reset(&l, N_LONG);
	l.obj[70].handle = gem_open(l.fd, gem_flink(l.fd, l.handle[10]));
	list_expect(&l, N_LONG, -EINVAL, "entries 10 and 70, two handles");
	gem_close(l.fd, l.obj[70].handle);

	/* short lists: the batch twice, the first object twice */
	for (n = 2; n <= 9; n++) {
		list_reset(&l, n);
		l.obj[0] = l.obj[n - 1];
		snprintf(what, sizeof(what), "%u objects, batch twice", n);
		list_expect(&l, n, -EINVAL, what);
		if (n < 3)
			continue;
		list_reset(&l, n);
		l.obj[n - 2] = l.obj[0];
		snprintf(what, sizeof(what), "%u objects, first twice", n);
		list_expect(&l, n, -EINVAL, what);
		list_reset(&l, n);
		igt_assert_ok(list_exec(&l, n));
	}
	list_fini(&l);
}

/* unknown handles, and the first bad entry in list order decides */
static void subtest_bad_entries_in_order(void)
{
	static const unsigned int missing[] = { 0, 31, 32, 33, 63, 64, 98 };
	const uint64_t bad_flags = 1ull << 40;
	char what[64];
	struct list l;
	unsigned int i;

	list_init(&l);
	for (i = 0; i < ARRAY_SIZE(missing); i++) {
		list_reset(&l, N_LONG);
		l.obj[missing[i]].handle = 0xfffff0;
		snprintf(what, sizeof(what), "entry %u unknown", missing[i]);
		list_expect(&l, N_LONG, -ENOENT, what);
	}
	list_reset(&l, N_LONG);
	l.obj[N_LONG - 1].handle = 0xfffff0;
	list_expect(&l, N_LONG, -ENOENT, "the batch unknown");

	/* bad flags first, then an unknown handle: other chunk, same chunk */
	list_reset(&l, N_LONG);
	l.obj[5].flags = bad_flags;
	l.obj[50].handle = 0xfffff0;
	list_expect(&l, N_LONG, -EINVAL, "entry 5 bad, entry 50 unknown");
	list_reset(&l, N_LONG);
	l.obj[33].flags = bad_flags;
	l.obj[40].handle = 0xfffff0;
	list_expect(&l, N_LONG, -EINVAL, "entry 33 bad, entry 40 unknown");
	/* and the other way round */
	list_reset(&l, N_LONG);
	l.obj[5].handle = 0xfffff0;
	l.obj[50].flags = bad_flags;
	list_expect(&l, N_LONG, -ENOENT, "entry 5 unknown, entry 50 bad");
	list_reset(&l, N_LONG);
	l.obj[35].handle = 0xfffff0;
	l.obj[40].flags = bad_flags;
	list_expect(&l, N_LONG, -ENOENT, "entry 35 unknown, entry 40 bad");
	list_fini(&l);
}

/* EXECBUFFER (v1): its shorter entries, offsets back in each */
static void subtest_v1_long_list(void)
{
	struct drm_i915_gem_exec_object *obj;
	struct drm_i915_gem_execbuffer eb = { };
	struct list l;
	unsigned int i, n = 20;
	uint64_t start, end;

	list_init(&l);
	obj = calloc(n, sizeof(*obj));
	igt_assert(obj);
	for (i = 0; i + 1 < n; i++)
		obj[i].handle = l.handle[i];
	obj[n - 1].handle = l.handle[N_LONG - 1];
	eb.buffers_ptr = to_user_pointer(obj);
	eb.buffer_count = n;
	igt_assert_ok(__gem_execbuf_v1(l.fd, &eb));
	gem_gtt_managed(l.fd, &start, &end);
	for (i = 0; i < n; i++)
		igt_assert_f(obj[i].offset >= start && obj[i].offset < end &&
			     !(obj[i].offset & (PAGE_SZ - 1)),
			     "v1 entry %u: offset %#llx", i,
			     (unsigned long long)obj[i].offset);
	obj[12].handle = 0xfffff0;
	igt_assert_err(__gem_execbuf_v1(l.fd, &eb), -ENOENT);
	free(obj);
	list_fini(&l);
}

/*
 * Handles closed while the list executes: a child sharing the file
 * closes each object of the list and creates another (which takes the
 * freed handle), while the parent keeps executing the long list.  An
 * exec finds every handle (0) or a closed one (-ENOENT), nothing else;
 * an object whose last handle went while its exec still held it locked
 * lives on until the exec lets go of it (the debug lane's KASAN would
 * see a use after free), and none is left at the end.
 */
static int close_recreate(void *arg)
{
	struct list *l = arg;
	double end = igt_now() + 2;
	unsigned int i;

	while (igt_now() < end)
		for (i = 0; i + 1 < N_LONG; i++) {
			gem_close(l->fd, l->handle[i]);
			igt_assert_eq(gem_create(l->fd, PAGE_SZ), l->handle[i]);
		}
	return 0;
}

static void subtest_closed_while_executing(void)
{
	double end;
	unsigned int n = 0, missing = 0;
	struct list l;
	pid_t pid;
	int ret;

	list_init(&l);
	pid = igt_fork(close_recreate, &l);
	end = igt_now() + 2;
	while (igt_now() < end) {
		list_reset(&l, N_LONG);
		ret = list_exec(&l, N_LONG);
		igt_assert_f(ret == 0 || ret == -ENOENT,
			     "EXECBUFFER2 returned %d (%s)", ret,
			     igt_errname(ret));
		n++;
		missing += ret == -ENOENT;
	}
	igt_assert_eq(igt_wait(pid), 0);
	igt_info("%u execs, %u found a handle closed\n", n, missing);
	igt_assert(n > missing);
	list_fini(&l);
}

/* @value at @handle + 0 by the GPU; 0 once it landed, or the exec's errno */
static int store(int fd, struct batch *b, uint32_t handle, uint32_t value)
{
	struct bo t = { .handle = handle, .size = PAGE_SZ };
	int ret;

	emit_store_dword(b, &t, 0, value);
	ret = __batch_submit(b, 0);
	if (!ret)
		gem_sync(fd, handle);
	return ret;
}

/*
 * A handle executed (so cached), closed and created again: the exec of
 * the closed handle is -ENOENT, the new object under the same number
 * gets the GPU's write and the old one is freed.
 */
static void subtest_handle_reused(void)
{
	long long objects, bytes;
	int fd = drm_open_driver();
	struct batch *b = batch_new(fd);
	uint32_t h, again;
	unsigned int i;

	igt_gem_objects(fd, &objects, &bytes);
	h = gem_create(fd, PAGE_SZ);
	for (i = 0; i < 4; i++) {
		igt_assert_ok(store(fd, b, h, 0x1000 + i));
		igt_assert_eq(gem_read_dword(fd, h, 0), 0x1000 + i);
		gem_close(fd, h);
		igt_assert_eq(store(fd, b, h, 0xdead), -ENOENT);
		again = gem_create(fd, PAGE_SZ);
		igt_assert_eq(again, h);
		igt_assert_eq(gem_read_dword(fd, h, 0), 0);
		igt_assert_eq(gem_wait_object_count(fd, objects + 1),
			      objects + 1);
	}
	gem_close(fd, h);
	igt_assert_eq(gem_wait_object_count(fd, objects), objects);
	batch_free(b);
	close(fd);
}

/*
 * One object under a handle of each of two files and a second handle of
 * the first: each finds it, the one cached first or not, and still does
 * after another closes (a handle, or the other file); the closed handle's
 * number, reused, names the new object only.
 */
static void subtest_handle_shared(void)
{
	long long objects, bytes;
	int fd = drm_open_driver(), other = drm_open_driver();
	struct batch *b = batch_new(fd), *ob;
	uint32_t h, name, second, theirs, reused;

	igt_gem_objects(fd, &objects, &bytes);	/* ob's batch goes again */
	ob = batch_new(other);
	h = gem_create(fd, PAGE_SZ);
	name = gem_flink(fd, h);
	second = gem_open(fd, name);
	theirs = gem_open(other, name);

	igt_assert_ok(store(other, ob, theirs, 1));	/* cached there */
	igt_assert_ok(store(fd, b, h, 2));
	igt_assert_ok(store(fd, b, second, 3));
	igt_assert_eq(gem_read_dword(other, theirs, 0), 3);
	batch_free(ob);
	close(other);
	igt_assert_ok(store(fd, b, h, 4));		/* cached here */
	igt_assert_ok(store(fd, b, second, 5));
	igt_assert_eq(gem_read_dword(fd, h, 0), 5);
	gem_close(fd, h);
	igt_assert_eq(store(fd, b, h, 6), -ENOENT);
	igt_assert_ok(store(fd, b, second, 7));
	reused = gem_create(fd, PAGE_SZ);
	igt_assert_eq(reused, h);
	igt_assert_ok(store(fd, b, reused, 8));
	igt_assert_eq(gem_read_dword(fd, second, 0), 7);
	igt_assert_eq(gem_read_dword(fd, reused, 0), 8);
	gem_close(fd, reused);
	gem_close(fd, second);
	igt_assert_eq(gem_wait_object_count(fd, objects), objects);
	batch_free(b);
	close(fd);
}

#define N_MANY	1500	/* handles past several sizes of the cache */

/*
 * A list of N_MANY objects, executed three times (the cache grows during
 * the first, is used by the others), every offset back and apart; then
 * with every other handle closed and created again, the GPU writes a
 * dword into each of the new objects through one exec.
 */
static void subtest_many_handles(void)
{
	struct drm_i915_gem_exec_object2 *obj;
	struct drm_i915_gem_execbuffer2 eb = { .buffer_count = N_MANY };
	long long objects, bytes;
	int fd = drm_open_driver();
	struct batch *b;
	struct bo *t;
	unsigned int i, k;

	igt_gem_objects(fd, &objects, &bytes);
	obj = calloc(N_MANY, sizeof(*obj));
	igt_assert(obj);
	for (i = 0; i + 1 < N_MANY; i++)
		obj[i].handle = gem_create(fd, PAGE_SZ);
	obj[N_MANY - 1].handle = bbe_create(fd, 0);
	eb.buffers_ptr = to_user_pointer(obj);
	for (k = 0; k < 3; k++) {
		gem_execbuf(fd, &eb);
		check_offsets(fd, obj, N_MANY);
	}

	for (i = 0; i + 1 < N_MANY; i += 2) {
		gem_close(fd, obj[i].handle);
		igt_assert_eq(gem_create(fd, PAGE_SZ), obj[i].handle);
	}
	b = batch_new(fd);
	t = calloc(N_MANY / 2, sizeof(*t));
	igt_assert(t);
	for (i = 0, k = 0; i + 1 < N_MANY; i += 2, k++) {
		t[k].handle = obj[i].handle;
		t[k].size = PAGE_SZ;
		if (k < 300)	/* a batch's worth of writes */
			emit_store_dword(b, &t[k], 0, 0x5000 + i);
		else
			batch_add(b, &t[k]);
	}
	batch_submit_sync(b);
	for (i = 0, k = 0; i + 1 < N_MANY; i += 2, k++)
		igt_assert_eq(gem_read_dword(fd, obj[i].handle, 0),
			      k < 300 ? 0x5000 + i : 0);

	batch_free(b);
	free(t);
	for (i = 0; i < N_MANY; i++)
		gem_close(fd, obj[i].handle);
	free(obj);
	igt_assert_eq(gem_wait_object_count(fd, objects), objects);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(offsets_written_back_once),
	SUBTEST(duplicates),
	SUBTEST(bad_entries_in_order),
	SUBTEST(v1_long_list),
	SUBTEST(closed_while_executing),
	SUBTEST(handle_reused),
	SUBTEST(handle_shared),
	SUBTEST(many_handles),
};

igt_main(tests)
