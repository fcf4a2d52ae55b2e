// SPDX-License-Identifier: GPL-2.0
/*
 * gem_exec_evict: more objects than the GTT holds.
 *
 * The managed range is narrowed with GEM_INIT (root, master) to 16 MiB
 * above the firmware's stolen memory so that the working set stays small for the VM; 32 objects of 1 MiB
 * (256x1024 pixels at 32 bpp) then cycle through execs that fill them
 * and copy between them, and every pixel of every object is checked at
 * the end.  One exec whose objects cannot fit together fails with
 * ENOSPC and does nothing (also in the whole GTT); pinned objects keep
 * their offsets and their contents through the churn and are never
 * evicted; the least recently used objects are evicted first; processes sharing one file and its objects exec and evict
 * concurrently; the room of an object closed while the GPU still uses it
 * is waited for, not -ENOSPC.  The whole GTT is given back at the end.
 */
#include <signal.h>
#include <unistd.h>

#include "exec.h"

#define RANGE		(16ull << 20)
#define NOBJ		32
#define OBJ_SIZE	(1ull << 20)
#define WIDTH		256
#define HEIGHT		1024
#define PITCH		(WIDTH * 4)

struct image {
	struct bo bo;
	struct surf s;
	struct ref ref;
	uint64_t first_offset;
	bool bound;
};

struct set {
	int fd;
	struct batch *b;
	struct image im[NOBJ];
	unsigned int moves;	/* objects found at a new offset */
	uint64_t start, end;
};

/* GEM_INIT to [start, end) counted from the top of stolen memory */
static void narrow_gtt(int fd, uint64_t start, uint64_t end)
{
	uint64_t base = gem_gtt_stolen(fd);

	gem_narrow_gtt(fd, base + start, base + end);
}

static void image_init(struct image *im, int fd)
{
	bo_init(&im->bo, fd, OBJ_SIZE);
	im->s.bo = &im->bo;
	im->s.pitch = PITCH;
	im->s.cpp = 4;
	im->s.width = WIDTH;
	im->s.height = HEIGHT;
	ref_init(&im->ref, &im->s, im->bo.size);
	im->bound = false;
}

/* GET_APERTURE: the whole GTT, and what GEM manages minus the pins */
static uint64_t aperture_available(int fd)
{
	struct drm_i915_gem_get_aperture ap = { 0 };

	igt_assert_ok(__gem_get_aperture(fd, &ap));
	igt_assert_eq_u64(ap.aper_size, gem_gtt_total(fd));
	return ap.aper_available_size;
}

static void __set_init(struct set *set, int n, bool narrow)
{
	int i;

	set->fd = drm_open_driver();
	gem_gen(set->fd);
	if (narrow)
		narrow_gtt(set->fd, 0, RANGE);
	gem_gtt_managed(set->fd, &set->start, &set->end);
	igt_info("managed range %#llx-%#llx",
		 (unsigned long long)set->start,
		 (unsigned long long)set->end);
	igt_assert_eq_u64(aperture_available(set->fd), set->end - set->start);
	set->b = batch_new(set->fd);
	set->moves = 0;
	for (i = 0; i < n; i++)
		image_init(&set->im[i], set->fd);
}

static void set_init(struct set *set, int n)
{
	__set_init(set, n, true);
}

static void __set_fini(struct set *set, int n, bool restore)
{
	int i;

	for (i = 0; i < n; i++) {
		ref_fini(&set->im[i].ref);
		bo_fini(&set->im[i].bo, set->fd);
	}
	batch_free(set->b);
	if (restore)
		gem_restore_gtt(set->fd);
	close(set->fd);
}

static void set_fini(struct set *set, int n)
{
	__set_fini(set, n, true);
}

/* after an exec: offsets inside the range; count the objects that moved */
static void note_offsets(struct set *set, struct image **used, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		struct image *im = used[i];

		igt_assert_lte_u64(set->start, im->bo.offset);
		igt_assert_lte_u64(im->bo.offset + OBJ_SIZE, set->end);
		if (im->bound && im->bo.offset != im->first_offset)
			set->moves++;
		if (!im->bound) {
			im->first_offset = im->bo.offset;
			im->bound = true;
		}
	}
}

static void fill(struct set *set, struct image *im, int x, int y, int w,
		 int h, uint32_t color)
{
	emit_xy_fill(set->b, &im->s, x, y, w, h, color);
	ref_fill(&im->ref, x, y, w, h, color);
}

static void copy(struct set *set, struct image *dst, int dx, int dy,
		 struct image *src, int sx, int sy, int w, int h)
{
	emit_xy_copy(set->b, &dst->s, dx, dy, &src->s, sx, sy, w, h);
	ref_copy(&dst->ref, dx, dy, &src->ref, sx, sy, w, h);
}

/* one exec per object: a background and a band of its own */
static void paint_all(struct set *set, int first, int n, uint32_t seed)
{
	int i;

	for (i = first; i < first + n; i++) {
		struct image *im = &set->im[i];

		fill(set, im, 0, 0, WIDTH, HEIGHT, pattern_dw(seed, i));
		fill(set, im, i, 4 * i, 64, 100, pattern_dw(seed + 1, i));
		batch_submit(set->b);
		note_offsets(set, &im, 1);
	}
}

/* execs of three objects: two sources copied into a destination */
static void mix_all(struct set *set, int first, int n, int step)
{
	int i;

	for (i = 0; i < n; i++) {
		struct image *used[3] = {
			&set->im[first + i],
			&set->im[first + (i + step) % n],
			&set->im[first + (i + 2 * step + 1) % n],
		};

		copy(set, used[0], 100, 200 + i, used[1], i, 4 * i, 120, 150);
		copy(set, used[0], 0, 700, used[2], 10, 0, 256, 100);
		batch_submit(set->b);
		note_offsets(set, used, 3);
	}
}

static void check_all(struct set *set, int first, int n)
{
	int i;

	for (i = first; i < first + n; i++)
		check_surface(set->fd, set->im[i].bo.handle, &set->im[i].ref,
			      "object %d", i);
}

/* 32 MiB of objects through a 16 MiB GTT, every pixel right */
static void subtest_twice_the_gtt(void)
{
	struct set set;

	set_init(&set, NOBJ);
	igt_assert_lte_u64(set.end - set.start, NOBJ * OBJ_SIZE / 2);
	paint_all(&set, 0, NOBJ, 1);
	mix_all(&set, 0, NOBJ, 5);
	paint_all(&set, 0, NOBJ / 2, 3);
	mix_all(&set, 0, NOBJ, 11);
	igt_info("%u times an object came back at a new offset", set.moves);
	check_all(&set, 0, NOBJ);
	set_fini(&set, NOBJ);
}

/* the same with the GPU slowed: objects still busy when evicted */
static void subtest_twice_the_gtt_busy(void)
{
	struct set set;

	sim_set_cmd_delay(2000);
	set_init(&set, NOBJ);
	paint_all(&set, 0, NOBJ, 5);
	mix_all(&set, 0, NOBJ, 3);
	check_all(&set, 0, NOBJ);
	sim_set_cmd_delay(0);
	set_fini(&set, NOBJ);
}

static void on_signal(int sig)
{
	(void)sig;
}

static int signaller(void *arg)
{
	pid_t parent = (pid_t)(intptr_t)arg;

	for (;;) {
		if (kill(parent, SIGUSR1))
			return 0;
		usleep(100);
	}
}

/*
 * The same while a signal arrives every 100 us: every wait and
 * eviction gets interrupted and restarted (igt_ioctl retries EINTR),
 * and nothing is lost or leaked.
 */
static void subtest_twice_the_gtt_interrupted(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct set set;
	pid_t child;

	sigemptyset(&sa.sa_mask);
	igt_assert_eq(sigaction(SIGUSR1, &sa, NULL), 0);
	sim_set_cmd_delay(500);
	set_init(&set, NOBJ);
	child = igt_fork(signaller, (void *)(intptr_t)getpid());
	paint_all(&set, 0, NOBJ, 21);
	mix_all(&set, 0, NOBJ, 9);
	kill(child, SIGKILL);
	igt_wait(child);
	check_all(&set, 0, NOBJ);
	sim_set_cmd_delay(0);
	set_fini(&set, NOBJ);
}

/* one client of many: 10 MiB of its own through the shared 16 MiB */
static int client(void *arg)
{
	struct set set;
	int seed = (int)(intptr_t)arg;

	__set_init(&set, 10, false);
	paint_all(&set, 0, 10, seed);
	mix_all(&set, 0, 10, 3);
	paint_all(&set, 0, 5, seed + 1);
	mix_all(&set, 0, 10, 7);
	check_all(&set, 0, 10);
	__set_fini(&set, 10, false);
	return 0;
}

/* four clients at once, each evicting the others' objects */
static void subtest_twice_the_gtt_clients(void)
{
	int fd = drm_open_driver();
	pid_t pid[4];
	int i;

	gem_gen(fd);
	sim_set_cmd_delay(200);
	narrow_gtt(fd, 0, RANGE);
	for (i = 0; i < 4; i++)
		pid[i] = igt_fork(client, (void *)(intptr_t)(100 + 10 * i));
	for (i = 0; i < 4; i++)
		igt_assert_eq(igt_wait(pid[i]), 0);
	sim_set_cmd_delay(0);
	gem_restore_gtt(fd);
	close(fd);
}

/* exec of @n objects + a batch of MI_BATCH_BUFFER_END */
static int exec_objects(int fd, const uint32_t *handles, int n,
			struct drm_i915_gem_exec_object2 *obj)
{
	struct drm_i915_gem_execbuffer2 eb = { 0 };
	int i, ret;

	memset(obj, 0, (n + 1) * sizeof(*obj));
	for (i = 0; i < n; i++)
		obj[i].handle = handles[i];
	obj[n].handle = bbe_create(fd, 0);
	eb.buffers_ptr = to_user_pointer(obj);
	eb.buffer_count = n + 1;
	eb.batch_len = 8;
	ret = __gem_execbuf(fd, &eb);
	if (!ret)
		gem_sync(fd, obj[n].handle);
	gem_close(fd, obj[n].handle);
	return ret;
}

/* one exec needing more than the whole range: ENOSPC, nothing harmed */
static void subtest_too_big_enospc(void)
{
	struct drm_i915_gem_exec_object2 obj[NOBJ + 1];
	uint32_t handles[NOBJ];
	struct set set;
	int i;

	set_init(&set, 20);
	paint_all(&set, 0, 20, 7);
	for (i = 0; i < 20; i++)
		handles[i] = set.im[i].bo.handle;
	igt_assert_err(exec_objects(set.fd, handles, 20, obj), -ENOSPC);
	/* a single object larger than the range */
	handles[0] = gem_create(set.fd, 2 * RANGE);
	igt_assert_err(exec_objects(set.fd, handles, 1, obj), -ENOSPC);
	gem_close(set.fd, handles[0]);
	/* what fits still runs, and nothing was damaged */
	for (i = 0; i < 8; i++)
		handles[i] = set.im[i].bo.handle;
	igt_assert_ok(exec_objects(set.fd, handles, 8, obj));
	mix_all(&set, 0, 20, 3);
	check_all(&set, 0, 20);
	set_fini(&set, 20);
}

/* the same in the whole GTT: two objects of more than half of it each */
static void subtest_too_big_whole_gtt(void)
{
	struct drm_i915_gem_exec_object2 obj[3];
	int fd = drm_open_driver();
	uint64_t half = aperture_available(fd) / 2;
	uint32_t handles[2];
	int i;

	for (i = 0; i < 2; i++)
		handles[i] = gem_create(fd, half + PAGE_SZ);
	igt_assert_err(exec_objects(fd, handles, 2, obj), -ENOSPC);
	/* either alone fits */
	igt_assert_ok(exec_objects(fd, handles, 1, obj));
	for (i = 0; i < 2; i++)
		gem_close(fd, handles[i]);
	close(fd);
}

/* nodes of @size in use in the GTT, from debugfs i915_gtt (drm_mm_print) */
static int gtt_nodes_of_size(int fd, uint64_t size)
{
	static char buf[64 << 10];
	unsigned long long start, end, sz;
	char *line, *save = NULL;
	int n = 0;

	igt_assert(igt_debugfs_read(fd, "i915_gtt", buf, sizeof(buf)) > 0);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (sscanf(line, "%llx-%llx: %llu: used", &start, &end, &sz) == 3 &&
		    strstr(line, ": used") && sz == size)
			n++;
	return n;
}

/*
 * Eviction takes the least recently used objects first, executions
 * counting as uses: A bound, then B, then A used again; an object that
 * needs room evicts some of B and none of A.  (The execbuffer only
 * stamps its objects; the LRU list is put in order when eviction walks
 * it, and this is what shows that it is.)  The two groups differ in size
 * so that debugfs i915_gtt tells their nodes apart.
 *
 * The shrinker takes the least recently used first too, but it works
 * beside eviction: an object it has claimed is one eviction must pass
 * over, and eviction's victims are ones it passes over, so a guest short
 * of memory (the debug lane's, after the subtests before), whose
 * shrinker runs at any moment, may see either take what the other left.
 * A round during which the shrinker claimed anything (debugfs
 * i915_shrinker_info) proves nothing either way and is run again; a
 * round without it must keep the order.  On the debug lane's kernel a
 * ww lock of an eviction victim answers -EDEADLK now and then, and the
 * execbuffer backs off keeping that victim locked: it must stay a
 * victim (once A5 was evicted in its place).
 */
#define LRU_N		6
#define LRU_A		(1ull << 20)
#define LRU_B		((1ull << 20) + (64 << 10))
#define LRU_ROUNDS	5

/* Objects the shrinker has claimed so far. */
static long long shrinker_claims(int fd)
{
	char buf[256], *p;

	igt_assert(igt_debugfs_read(fd, "i915_shrinker_info", buf,
				    sizeof(buf)) > 0);
	p = strstr(buf, "claimed = ");
	igt_assert(p);
	return strtoll(p + strlen("claimed = "), NULL, 10);
}

/*
 * Whether every object of A is still bound and, once the big object
 * needed room (@b_evicted), some of B are not, else all of them are.
 */
static bool check_lru(int fd, const char *when, bool b_evicted)
{
	int a = gtt_nodes_of_size(fd, LRU_A);
	int b = gtt_nodes_of_size(fd, LRU_B);

	igt_info("%s: %d of A and %d of B bound\n", when, a, b);
	return a == LRU_N && (b_evicted ? b < LRU_N : b == LRU_N);
}

/* One round: whether the order held, in a managed range of its own. */
static bool lru_round(int fd)
{
	struct drm_i915_gem_exec_object2 obj[LRU_N + 1];
	static char map[64 << 10];
	uint32_t a[LRU_N], b[LRU_N], big;
	bool held;
	int i;

	narrow_gtt(fd, 0, RANGE);
	for (i = 0; i < LRU_N; i++) {
		a[i] = gem_create(fd, LRU_A);
		b[i] = gem_create(fd, LRU_B);
	}
	igt_assert_ok(exec_objects(fd, a, LRU_N, obj));
	igt_assert_ok(exec_objects(fd, b, LRU_N, obj));
	igt_assert_ok(exec_objects(fd, a, LRU_N, obj));	/* A used last */
	held = check_lru(fd, "A, B, A executed", false);
	igt_assert(igt_debugfs_read(fd, "i915_gtt", map, sizeof(map)) > 0);

	/* 16 MiB managed, 12.4 MiB bound: 6 MiB more needs evictions */
	big = gem_create(fd, 6ull << 20);
	igt_assert_ok(exec_objects(fd, &big, 1, obj));
	held &= check_lru(fd, "6 MiB executed", true);
	if (!held) {
		/* where each was, for the log: A 0x100000, B 0x110000 */
		igt_info("before the 6 MiB exec:\n%s", map);
		igt_assert(igt_debugfs_read(fd, "i915_gtt", map,
					    sizeof(map)) > 0);
		igt_info("after it:\n%s", map);
	}
	igt_assert(gtt_nodes_of_size(fd, LRU_A) +
		   gtt_nodes_of_size(fd, LRU_B) < 2 * LRU_N);

	gem_close(fd, big);
	for (i = 0; i < LRU_N; i++) {
		gem_close(fd, a[i]);
		gem_close(fd, b[i]);
	}
	return held;
}

static void subtest_lru_order(void)
{
	int fd = drm_open_driver();
	long long before;
	int round;

	gem_gen(fd);
	for (round = 0; round < LRU_ROUNDS; round++) {
		before = shrinker_claims(fd);
		if (lru_round(fd)) {
			gem_restore_gtt(fd);
			close(fd);
			return;
		}
		igt_assert_f(shrinker_claims(fd) != before,
			     "the least recently used were not the ones evicted, and the shrinker claimed nothing");
		igt_info("the shrinker claimed objects during round %d: again\n",
			 round + 1);
	}
	gem_restore_gtt(fd);
	close(fd);
	igt_skip("the shrinker claimed objects during each of %d rounds",
		 LRU_ROUNDS);
}

/* debugfs DROP_SHRINK_ALL in a loop: the shrinker claims and unbinds */
static int shrink_forever(void *arg)
{
	int fd = drm_open_driver();

	for (;;)
		igt_debugfs_write(fd, "i915_gem_drop_caches", "0x20");
	return 0;
}

/*
 * GEM_INIT while the shrinker holds idle objects (and, for the closed
 * ones, drops their last reference, so that their free unbinds them):
 * GEM_INIT waits for those and succeeds rather than find them still bound
 * and answer EBUSY.
 */
static void subtest_init_while_shrinking(void)
{
	enum { N = 16, ROUNDS = 50 };
	struct drm_i915_gem_exec_object2 obj[N + 1];
	struct drm_i915_gem_execbuffer2 eb = { 0 };
	int fd = drm_open_driver();
	uint64_t total = gem_gtt_total(fd);
	int round, i, busy = 0;
	pid_t pid;

	pid = igt_fork(shrink_forever, NULL);
	for (round = 0; round < ROUNDS; round++) {
		memset(obj, 0, sizeof(obj));
		for (i = 0; i < N; i++)
			obj[i].handle = gem_create(fd, 256 << 10);
		obj[N].handle = bbe_create(fd, 0);
		eb.buffers_ptr = to_user_pointer(obj);
		eb.buffer_count = N + 1;
		eb.batch_len = 8;
		igt_assert_ok(__gem_execbuf(fd, &eb));
		gem_sync(fd, obj[N].handle);
		for (i = 0; i < N / 2; i++)
			gem_close(fd, obj[i].handle);
		if (__gem_init(fd, 0, total) == -EBUSY)
			busy++;
		for (; i <= N; i++)
			gem_close(fd, obj[i].handle);
	}
	kill(pid, SIGKILL);
	igt_wait(pid);
	close(fd);
	igt_info("GEM_INIT answered EBUSY %d times of %d", busy, ROUNDS);
	igt_assert_eq(busy, 0);
}

/* pinned objects: same offset, same contents, after all the churn */
static void subtest_pinned_stay(void)
{
	struct image *pinned[2];
	uint64_t offset[2];
	struct set set;
	int i;

	set_init(&set, NOBJ);
	pinned[0] = &set.im[0];
	pinned[1] = &set.im[1];
	offset[0] = gem_pin(set.fd, pinned[0]->bo.handle, 0);
	offset[1] = gem_pin(set.fd, pinned[1]->bo.handle, 1 << 20);
	igt_assert_eq_u64(offset[1] & ((1 << 20) - 1), 0);
	igt_assert_eq_u64(aperture_available(set.fd),
			  set.end - set.start - 2 * OBJ_SIZE);
	for (i = 0; i < 2; i++) {
		igt_info("pinned at %#llx", (unsigned long long)offset[i]);
		pinned[i]->bo.offset = offset[i];
	}
	paint_all(&set, 0, 2, 9);
	paint_all(&set, 2, NOBJ - 2, 10);
	mix_all(&set, 2, NOBJ - 2, 7);
	/* the pinned ones as sources now and then */
	copy(&set, &set.im[5], 0, 0, pinned[0], 0, 0, 200, 200);
	copy(&set, &set.im[6], 0, 0, pinned[1], 0, 0, 200, 200);
	batch_submit(set.b);
	mix_all(&set, 2, NOBJ - 2, 13);
	for (i = 0; i < 2; i++) {
		igt_assert_eq_u64(pinned[i]->bo.offset, offset[i]);
		/* pinning again answers the same offset */
		igt_assert_eq_u64(gem_pin(set.fd, pinned[i]->bo.handle, 0),
				  offset[i]);
		gem_unpin(set.fd, pinned[i]->bo.handle);
	}
	check_all(&set, 0, NOBJ);
	for (i = 0; i < 2; i++)
		gem_unpin(set.fd, pinned[i]->bo.handle);
	set_fini(&set, NOBJ);
}

/* pinned objects are never evicted: ENOSPC until one is unpinned */
static void subtest_pinned_not_evicted(void)
{
	struct drm_i915_gem_exec_object2 obj[NOBJ + 1];
	uint32_t handles[NOBJ];
	uint64_t offset[12];
	struct set set;
	int i;

	set_init(&set, 18);
	for (i = 0; i < 12; i++)
		offset[i] = gem_pin(set.fd, set.im[i].bo.handle, 0);
	for (i = 0; i < 6; i++)
		handles[i] = set.im[12 + i].bo.handle;
	/* 12 MiB pinned, 6 MiB more do not fit in 16 MiB */
	igt_assert_err(exec_objects(set.fd, handles, 6, obj), -ENOSPC);
	for (i = 0; i < 12; i++)
		igt_assert_eq_u64(gem_pin(set.fd, set.im[i].bo.handle, 0),
				  offset[i]);
	for (i = 0; i < 12; i++) {
		gem_unpin(set.fd, set.im[i].bo.handle);
		gem_unpin(set.fd, set.im[i].bo.handle);
	}
	igt_assert_ok(exec_objects(set.fd, handles, 6, obj));
	set_fini(&set, 18);
}

/*
 * Shared objects under contention: NSHARED objects of 512 KiB in a
 * 6 MiB range (1-7 MiB, so 12 fit), and NCHILD processes on the same
 * file, forked after the objects were made, each executing SHARED_LOOPS
 * fills of 4 distinct objects picked at random.  Execs that lock the
 * same objects back off from each other (ww), evict each other's
 * objects and retire concurrently.  Every fill of object i paints the
 * same 64x4 block with the colour i, so the end result is known.
 */
#define NSHARED		24
#define NCHILD		4
#define SHARED_LOOPS	100

struct shared {
	int fd;
	struct bo bo[NSHARED];
	struct surf s[NSHARED];
};

static int shared_child(void *arg)
{
	struct shared *sh = arg;
	struct batch *b = batch_new(sh->fd);
	unsigned int seed = getpid(), loop, i, j, pick[4];

	for (loop = 0; loop < SHARED_LOOPS; loop++) {
		for (i = 0; i < 4; i++) {
			do {
				pick[i] = rand_r(&seed) % NSHARED;
				for (j = 0; j < i && pick[j] != pick[i]; j++)
					;
			} while (j < i);
			emit_xy_fill(b, &sh->s[pick[i]], 0, 0, 64, 4, pick[i]);
		}
		batch_submit(b);
	}
	batch_free(b);
	return 0;
}

static void subtest_shared_objects_concurrent(void)
{
	struct shared sh;
	pid_t pid[NCHILD];
	struct ref r;
	int i;

	sh.fd = drm_open_driver();
	gem_gen(sh.fd);
	narrow_gtt(sh.fd, 1 << 20, 7 << 20);
	for (i = 0; i < NSHARED; i++) {
		bo_init(&sh.bo[i], sh.fd, 512 << 10);
		sh.s[i] = (struct surf){ &sh.bo[i], 256, 4, 64, 4 };
	}
	for (i = 0; i < NCHILD; i++)
		pid[i] = igt_fork(shared_child, &sh);
	for (i = 0; i < NCHILD; i++)
		igt_assert_eq(igt_wait(pid[i]), 0);
	for (i = 0; i < NSHARED; i++) {
		ref_init(&r, &sh.s[i], sh.bo[i].size);
		ref_fill(&r, 0, 0, 64, 4, i);
		check_surface(sh.fd, sh.bo[i].handle, &r, "object %d", i);
		ref_fini(&r);
		bo_fini(&sh.bo[i], sh.fd);
	}
	gem_restore_gtt(sh.fd);
	close(sh.fd);
}

/*
 * An object closed while its batch runs is freed (and unbound) only once
 * the batch is done.  An exec that needs its room waits for that, with
 * the room asked for anywhere or, softpinned, at the closed object's own
 * address; before, the evictor would have given up with -ENOSPC.
 */
#define SLOW_NOOPS	500	/* half a second at 1 ms per command */

static void subtest_closed_busy_room(void)
{
	struct drm_i915_gem_exec_object2 obj[2];
	struct drm_i915_gem_execbuffer2 eb;
	struct batch *slow, *b;
	struct bo big, next;
	uint64_t where;
	uint32_t value;
	int fd, pass, i;

	fd = drm_open_driver();
	gem_gen(fd);
	sim_set_cmd_delay(1000);
	narrow_gtt(fd, 0, RANGE);
	for (pass = 0; pass < 2; pass++) {
		slow = batch_new(fd);
		bo_init(&big, fd, RANGE * 3 / 4);
		for (i = 0; i < SLOW_NOOPS; i++)
			batch_emit(slow, MI_NOOP);
		emit_store_dword(slow, &big, 0, 1);
		batch_submit(slow);
		where = big.offset;
		gem_close(fd, big.handle);
		igt_assert_neq(gem_busy(fd, slow->bo.handle), 0);

		if (pass == 0) {
			/* as big as the closed one: only its room holds it */
			b = batch_new(fd);
			bo_init(&next, fd, RANGE * 3 / 4);
			emit_store_dword(b, &next, 0, 0x5eed);
			igt_assert_ok(__batch_submit(b, 0));
			gem_sync(fd, next.handle);
			gem_read(fd, next.handle, 0, &value, sizeof(value));
			igt_assert_eq_u64(value, 0x5eed);
			batch_free(b);
		} else {
			/* a page at the closed object's address */
			memset(obj, 0, sizeof(obj));
			memset(&eb, 0, sizeof(eb));
			bo_init(&next, fd, PAGE_SZ);
			obj[0].handle = next.handle;
			obj[0].offset = where;
			obj[0].flags = EXEC_OBJECT_PINNED;
			obj[1].handle = bbe_create(fd, 0);
			eb.buffers_ptr = to_user_pointer(obj);
			eb.buffer_count = 2;
			igt_assert_ok(__gem_execbuf(fd, &eb));
			igt_assert_eq_u64(obj[0].offset, where);
			gem_sync(fd, obj[1].handle);
			gem_close(fd, obj[1].handle);
		}
		/* the closed object's batch wrote into it while it lived */
		igt_assert_eq(gem_busy(fd, slow->bo.handle), 0);
		bo_fini(&next, fd);
		batch_free(slow);
	}
	gem_restore_gtt(fd);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(twice_the_gtt),
	SUBTEST(twice_the_gtt_busy),
	SUBTEST(twice_the_gtt_interrupted),
	SUBTEST(twice_the_gtt_clients),
	SUBTEST(too_big_enospc),
	SUBTEST(too_big_whole_gtt),
	SUBTEST(lru_order),
	SUBTEST(init_while_shrinking),
	SUBTEST(pinned_stay),
	SUBTEST(pinned_not_evicted),
	SUBTEST(shared_objects_concurrent),
	SUBTEST(closed_busy_room),
};

igt_main(tests)
