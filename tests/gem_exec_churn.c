// SPDX-License-Identifier: GPL-2.0
/*
 * gem_exec_churn: object contents survive eviction churn.
 *
 * Several processes, each with its own file, share a narrow managed
 * range (GEM_INIT through the parent's file, root and master), so that
 * execs keep evicting each other's objects.  Each process keeps a pool
 * of small objects and a CPU copy of every byte of them, and in random
 * order: closes objects and creates new ones, pins and unpins some
 * (with or without an alignment), evicts everything with GEM_INIT over
 * a moving range (EBUSY while anything is pinned, after evicting the
 * rest), switches caching (which unbinds), and executes batches of
 * dword writes (cs_store_dword()) into other pool objects through
 * relocations (half of them storing a relocated address, as a relocation
 * test does), with
 * more relocated dwords that are data: at offset 0 of every page of the
 * batch (dword 0 itself when the batch starts at byte 8) and elsewhere,
 * targeting the batch itself or the other objects.  Presumed offsets
 * are the last ones the kernel reported, or stale on purpose so that the
 * kernel patches; some execs ask for an alignment, some use NO_RELOC
 * (and flag the objects they store into EXEC_OBJECT_WRITE, as upstream
 * requires: while nothing moved, no relocation is read).
 *
 * Every batch is read back (PREAD) before and after its exec and must
 * hold exactly what was written, with each relocated dword equal to its
 * entry's written-back presumed offset + delta; stored dwords are read
 * back after the exec (one exec in four) or with their object later; an
 * object is compared whole before it is closed.  An exec failing with
 * anything but ENOSPC fails (a GPU that ran garbage wedges: EIO), and
 * the GPU must still run a batch at the end.
 *
 * The client keeps the relocation contract: every relocated dword it
 * writes is its entry's presumed_offset + delta.  The kernel trusts a
 * presumed offset that matches the target's address and leaves the dword
 * alone (gem_exec_reloc right_presumed_left_alone, as upstream), so a
 * client that rewrites a batch from a stale copy while reusing the
 * presumed offsets the kernel wrote back stores through an old address:
 * once eviction has moved things, that is another object's page.
 *
 * Subtests: one process (GEM_INIT, PIN/UNPIN and create/close together),
 * four processes, and four with a slow GPU (sim_cmd_delay_us) so that
 * eviction and closing hit busy objects.  Each runs GEM_CHURN_SECONDS
 * (environment; default 8) seconds: about 25 s a GPU under TCG.
 */
#include <signal.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "exec.h"

#define RANGE		(512ull << 10)	/* 128 pages for everyone */
#define NPROC		4
#define POOL		32
#define MAX_PAGES	4
#define MAX_TARGETS	3
#define MAX_STORES	6
#define MAX_PINS	2
#define MAX_RELOCS	(2 * MAX_STORES + 2 * MAX_PAGES)

/* the parent's file, master: the children's GEM_INIT goes through it */
static int master_fd = -1;
/* the lowest address GEM manages: past the firmware's stolen memory */
static uint64_t gtt_base;

struct cobj {
	uint32_t handle;
	uint32_t size;
	uint64_t offset;	/* last offset the kernel reported */
	unsigned int pins;
	uint32_t *shadow;	/* what the object holds */
};

struct churn {
	int fd;			/* this process's own file */
	int gen;
	unsigned int seed;
	struct cobj obj[POOL];
	unsigned long execs, patched, inits, inits_busy, pins, closes, enospc;
	uint32_t buf[MAX_PAGES * 1024];
};

static unsigned int rnd(struct churn *c, unsigned int n)
{
	return rand_r(&c->seed) % n;
}

static void obj_create(struct churn *c, struct cobj *o)
{
	unsigned int i;

	o->size = (1 + rnd(c, MAX_PAGES)) * PAGE_SZ;
	o->handle = gem_create(c->fd, o->size);
	o->offset = 0;
	o->pins = 0;
	o->shadow = malloc(o->size);
	igt_assert(o->shadow);
	for (i = 0; i < o->size / 4; i++)
		o->shadow[i] = 0x5a000000u | rand_r(&c->seed) % 0x1000000u;
	gem_write(c->fd, o->handle, 0, o->shadow, o->size);
}

/* the whole object against its CPU copy */
static void obj_check(struct churn *c, struct cobj *o, const char *when)
{
	unsigned int i;

	gem_read(c->fd, o->handle, 0, c->buf, o->size);
	for (i = 0; i < o->size / 4; i++) {
		if (c->buf[i] == o->shadow[i])
			continue;
		igt_fail("pid %d: %s: handle %u (%u bytes, last at %#llx): dword %#x (page %u offset %#x) is %#010x, expected %#010x",
			 getpid(), when, o->handle, o->size,
			 (unsigned long long)o->offset, i * 4, i / 1024,
			 (i % 1024) * 4, c->buf[i], o->shadow[i]);
	}
}

static void obj_close(struct churn *c, struct cobj *o)
{
	obj_check(c, o, "before close");
	gem_close(c->fd, o->handle);
	free(o->shadow);
	c->closes++;
}

static void do_pin(struct churn *c)
{
	struct cobj *o = &c->obj[rnd(c, POOL)];
	unsigned int pinned = 0, i;
	uint64_t offset;
	int ret;

	for (i = 0; i < POOL; i++)
		pinned += c->obj[i].pins != 0;
	if (o->pins) {
		gem_unpin(c->fd, o->handle);
		o->pins--;
		return;
	}
	if (pinned >= MAX_PINS)
		return;
	ret = __gem_pin(c->fd, o->handle, rnd(c, 2) ? 0 : PAGE_SZ << rnd(c, 4),
			&offset);
	igt_assert_f(ret == 0 || ret == -ENOSPC, "PIN: %s", igt_errname(ret));
	if (!ret) {
		o->pins++;
		o->offset = offset;
		c->pins++;
	}
}

static void do_init(struct churn *c)
{
	uint64_t start = gtt_base + rnd(c, 4) * 64 * PAGE_SZ;
	int ret = __gem_init(master_fd, start, start + RANGE);

	igt_assert_f(ret == 0 || ret == -EBUSY, "GEM_INIT: %s",
		     igt_errname(ret));
	c->inits++;
	c->inits_busy += ret == -EBUSY;
}

/*
 * A batch in one pool object, stores into up to MAX_TARGETS others;
 * read back before and after, targets' stored dwords after.
 */
static void do_exec(struct churn *c)
{
	struct drm_i915_gem_relocation_entry reloc[MAX_RELOCS];
	struct drm_i915_gem_exec_object2 exec[MAX_TARGETS + 1];
	struct drm_i915_gem_execbuffer2 eb = { 0 };
	struct { unsigned int t, vrel; uint32_t off, val; } st[MAX_STORES];
	struct cobj *tgt[MAX_TARGETS + 1], *b;
	unsigned int ntgt = 0, nst, nrel = 0, i, j, p, idx;
	uint32_t start, dw, at, len, n;
	bool noreloc = !rnd(c, 4);
	int ret;

	b = &c->obj[rnd(c, POOL)];
	obj_check(c, b, "batch before exec");

	/* targets: distinct pool objects other than the batch */
	for (i = 0; i < 8 && ntgt < 1 + rnd(c, MAX_TARGETS); i++) {
		struct cobj *o = &c->obj[rnd(c, POOL)];

		for (j = 0; j < ntgt; j++)
			if (tgt[j] == o)
				break;
		if (o != b && j == ntgt)
			tgt[ntgt++] = o;
	}
	if (!ntgt)
		return;
	tgt[ntgt] = b;	/* the batch, last: index ntgt */

	/* commands: at 0 or 8 (then dword 0 is a relocated address) */
	start = rnd(c, 2) ? 8 : 0;
	dw = start / 4;
	nst = 1 + rnd(c, MAX_STORES);
	for (i = 0; i < nst; i++) {
		struct drm_i915_gem_relocation_entry *r = &reloc[nrel++];
		struct cobj *t;

		st[i].t = rnd(c, ntgt);
		t = tgt[st[i].t];
		st[i].off = rnd(c, t->size / 4) * 4;
		st[i].val = 0xc0000000u | (c->seed & 0xffffff);
		rand_r(&c->seed);
		n = cs_store_dword(c->gen, &b->shadow[dw], 0, st[i].val, &at);
		r->offset = (dw + at) * 4;
		r->delta = st[i].off;
		r->target_handle = st[i].t;
		r->read_domains = I915_GEM_DOMAIN_RENDER;
		r->write_domain = I915_GEM_DOMAIN_RENDER;

		/* half the stores write an address: a relocated value */
		st[i].vrel = rnd(c, 2) ? nrel : MAX_RELOCS;
		if (st[i].vrel < MAX_RELOCS) {
			r = &reloc[nrel++];
			r->offset = (dw + at + 1) * 4;
			r->delta = 0;
			r->target_handle = rnd(c, ntgt + 1);
			r->read_domains = I915_GEM_DOMAIN_SAMPLER;
			r->write_domain = 0;
		}
		dw += n;
	}
	b->shadow[dw++] = MI_BATCH_BUFFER_END;
	if (dw & 1)
		b->shadow[dw++] = MI_NOOP;
	len = dw * 4 - start;

	/* relocated dwords that are data: offset 0 of pages, and elsewhere */
	for (p = 0; p < b->size / PAGE_SZ; p++) {
		for (j = 0; j < 2; j++) {
			struct drm_i915_gem_relocation_entry *r;

			if (j == 0 && p == 0 && start == 0)
				continue;
			idx = p * 1024 + (j == 0 ? 0 : 1 + rnd(c, 1023));
			if (idx < dw && !(p == 0 && j == 0))
				continue;
			if (j == 1 && rnd(c, 2))
				continue;
			r = &reloc[nrel++];
			r->offset = idx * 4;
			r->delta = rnd(c, 2) ? 0 : rnd(c, 64) * 4;
			r->target_handle = rnd(c, ntgt + 1);
			r->read_domains = I915_GEM_DOMAIN_SAMPLER;
			r->write_domain = 0;
		}
	}

	/* presumed offsets: the last known, or stale now and then */
	for (i = 0; i < nrel; i++) {
		struct cobj *t = tgt[reloc[i].target_handle];

		reloc[i].presumed_offset = rnd(c, 4) || noreloc ? t->offset :
					   t->offset + PAGE_SZ;
		b->shadow[reloc[i].offset / 4] =
			(uint32_t)(reloc[i].presumed_offset + reloc[i].delta);
	}
	gem_write(c->fd, b->handle, 0, b->shadow, b->size);

	memset(exec, 0, sizeof(exec));
	for (i = 0; i <= ntgt; i++) {
		exec[i].handle = tgt[i]->handle;
		exec[i].offset = tgt[i]->offset;
		if (!tgt[i]->pins && !rnd(c, 8))
			exec[i].alignment = PAGE_SZ << rnd(c, 4);
	}
	/* NO_RELOC: relocations unread, what is written must be flagged */
	for (i = 0; noreloc && i < nst; i++)
		exec[st[i].t].flags |= EXEC_OBJECT_WRITE;
	exec[ntgt].relocation_count = nrel;
	exec[ntgt].relocs_ptr = to_user_pointer(reloc);
	eb.buffers_ptr = to_user_pointer(exec);
	eb.buffer_count = ntgt + 1;
	eb.batch_start_offset = start;
	eb.batch_len = len;
	eb.flags = I915_EXEC_HANDLE_LUT | (noreloc ? I915_EXEC_NO_RELOC : 0);
	ret = __gem_execbuf(c->fd, &eb);
	igt_assert_f(ret == 0 || ret == -ENOSPC, "EXECBUFFER2: %s%s",
		     igt_errname(ret),
		     ret == -EIO ? " (the GPU hung: it ran garbage?)" : "");

	/* whatever was patched was written back, also on failure */
	for (i = 0; i < nrel; i++) {
		uint32_t v = (uint32_t)(reloc[i].presumed_offset +
					reloc[i].delta);

		if (b->shadow[reloc[i].offset / 4] != v)
			c->patched++;
		b->shadow[reloc[i].offset / 4] = v;
	}
	if (ret) {
		c->enospc++;
		obj_check(c, b, "batch after ENOSPC");
		return;
	}
	c->execs++;
	for (i = 0; i <= ntgt; i++)
		tgt[i]->offset = exec[i].offset;
	for (i = 0; i < nst; i++) {
		if (st[i].vrel < MAX_RELOCS)
			st[i].val = b->shadow[reloc[st[i].vrel].offset / 4];
		tgt[st[i].t]->shadow[st[i].off / 4] = st[i].val;
	}

	obj_check(c, b, "batch after exec");
	if (rnd(c, 4))
		return;	/* the stores are checked later, with the objects */
	for (i = 0; i < nst; i++) {
		struct cobj *t = tgt[st[i].t];
		uint32_t v;

		gem_read(c->fd, t->handle, st[i].off, &v, 4);
		igt_assert_f(v == t->shadow[st[i].off / 4],
			     "pid %d: store to handle %u+%#x: %#010x, expected %#010x",
			     getpid(), t->handle, st[i].off, v,
			     t->shadow[st[i].off / 4]);
	}
}

static double churn_seconds(void)
{
	const char *s = getenv("GEM_CHURN_SECONDS");
	double v = s ? atof(s) : 0;

	return v > 0 ? v : 8;
}

/* one process: @arg is its number; mix of everything until the end */
static int churn_child(void *arg)
{
	static struct churn c;
	double end;
	unsigned int i, op;

	c.seed = 0x9e3779b9u * (unsigned int)(uintptr_t)arg + getpid();
	c.fd = drm_open_driver();
	c.gen = gem_gen(c.fd);
	for (i = 0; i < POOL; i++)
		obj_create(&c, &c.obj[i]);

	end = igt_now() + churn_seconds();
	while (igt_now() < end) {
		op = rnd(&c, 100);
		if (op < 70) {
			do_exec(&c);
		} else if (op < 85) {
			struct cobj *o = &c.obj[rnd(&c, POOL)];

			obj_close(&c, o);
			obj_create(&c, o);
		} else if (op < 94) {
			do_pin(&c);
		} else if (op < 97) {
			struct cobj *o = &c.obj[rnd(&c, POOL)];
			int ret = __gem_set_caching(c.fd, o->handle, rnd(&c, 2));

			igt_assert_f(!ret || ret == -EBUSY, "SET_CACHING: %s",
				     igt_errname(ret));
		} else {
			do_init(&c);
		}
	}

	for (i = 0; i < POOL; i++)
		obj_close(&c, &c.obj[i]);
	igt_info("pid %d: %lu execs (%lu ENOSPC), %lu relocations patched, %lu pins, %lu closes, %lu GEM_INIT (%lu EBUSY)",
		 getpid(), c.execs, c.enospc, c.patched, c.pins, c.closes,
		 c.inits, c.inits_busy);
	close(c.fd);
	return 0;
}

static void churn(unsigned int nproc, unsigned int delay_us)
{
	int fd = drm_open_driver();
	pid_t pid[NPROC];
	unsigned int i;
	uint32_t bbe;
	int rc, fail = 0;

	gem_gen(fd);
	master_fd = fd;
	if (delay_us)
		sim_set_cmd_delay(delay_us);
	gtt_base = gem_gtt_stolen(fd);
	if (gtt_base < PAGE_SZ)
		gtt_base = PAGE_SZ;
	gem_narrow_gtt(fd, gtt_base, gtt_base + RANGE);
	for (i = 0; i < nproc; i++)
		pid[i] = igt_fork(churn_child, (void *)(uintptr_t)i);
	for (i = 0; i < nproc; i++) {
		rc = igt_wait(pid[i]);
		if (rc)
			fail = rc;
	}
	if (delay_us)
		sim_set_cmd_delay(0);
	igt_assert_eq(fail, 0);

	/* the GPU still runs batches */
	bbe = bbe_create(fd, 0);
	{
		struct drm_i915_gem_exec_object2 obj = { .handle = bbe };
		struct drm_i915_gem_execbuffer2 eb = {
			.buffers_ptr = to_user_pointer(&obj),
			.buffer_count = 1,
		};

		igt_assert_ok(__gem_execbuf(fd, &eb));
	}
	gem_sync(fd, bbe);
	gem_close(fd, bbe);
	gem_restore_gtt(fd);
	close(fd);
}

/* one process: GEM_INIT, PIN/UNPIN and create/close churn together */
static void subtest_one_process(void)
{
	churn(1, 0);
}

/* four processes evicting each other's objects */
static void subtest_four_processes(void)
{
	churn(NPROC, 0);
}

/* the same with a slow GPU: many requests in flight, busy evictions */
static void subtest_four_processes_busy(void)
{
	churn(NPROC, 20);
}

static const struct igt_subtest tests[] = {
	SUBTEST_T(one_process, 120),
	SUBTEST_T(four_processes, 120),
	SUBTEST_T(four_processes_busy, 120),
};

igt_main(tests)
