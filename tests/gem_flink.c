// SPDX-License-Identifier: GPL-2.0
/*
 * gem_flink: global names (GEM_FLINK) and opening them (GEM_OPEN), within
 * a process, across processes, their lifetime, and their refusal on the
 * render node.
 */
#include <sys/wait.h>
#include <unistd.h>

#include "gem.h"

/* a name is nonzero; flinking again returns the same name */
static void subtest_flink(void)
{
	int fd = drm_open_driver();
	uint32_t handle = gem_create(fd, PAGE_SZ);
	uint32_t name = gem_flink(fd, handle);

	igt_assert_eq(gem_flink(fd, handle), name);
	gem_close(fd, handle);
	close(fd);
}

/* different objects get different names */
static void subtest_flink_distinct(void)
{
	int fd = drm_open_driver();
	uint32_t h1 = gem_create(fd, PAGE_SZ), h2 = gem_create(fd, PAGE_SZ);

	igt_assert_neq(gem_flink(fd, h1), gem_flink(fd, h2));
	gem_close(fd, h1);
	gem_close(fd, h2);
	close(fd);
}

static void subtest_flink_bad_handle(void)
{
	int fd = drm_open_driver();
	uint32_t name = 0x5a5a;

	igt_assert_err(__gem_flink(fd, 0, &name), -ENOENT);
	igt_assert_err(__gem_flink(fd, 0xdeadbeef, &name), -ENOENT);
	igt_assert_eq(name, 0x5a5a);
	close(fd);
}

static void subtest_open_bad_name(void)
{
	int fd = drm_open_driver();
	uint32_t handle = 0;

	igt_assert_err(__gem_open(fd, 0, &handle, NULL), -ENOENT);
	igt_assert_err(__gem_open(fd, 0x7ffffff0, &handle, NULL), -ENOENT);
	close(fd);
}

/*
 * GEM_OPEN by name from a second fd: a handle to the same object, of
 * the right size; data written through either handle is read through
 * the other.
 */
static void subtest_open_shares_object(void)
{
	const uint64_t size = 3 * PAGE_SZ;
	int fd1 = drm_open_driver(), fd2 = drm_open_driver();
	unsigned char in[3 * 4096], out[3 * 4096];
	uint32_t h1 = gem_create(fd1, size - 100), h2 = 0;
	uint64_t size2 = 0;

	igt_assert_ok(__gem_open(fd2, gem_flink(fd1, h1), &h2, &size2));
	igt_assert_neq(h2, 0);
	igt_assert_eq_u64(size2, size);

	igt_fill_pattern(in, size, 11);
	gem_write(fd1, h1, 0, in, size);
	gem_read(fd2, h2, 0, out, size);
	igt_assert_mem(out, in, size, "written via fd1, read via fd2");

	igt_fill_pattern(in, size, 12);
	gem_write(fd2, h2, 0, in, size);
	gem_read(fd1, h1, 0, out, size);
	igt_assert_mem(out, in, size, "written via fd2, read via fd1");

	gem_close(fd2, h2);
	gem_close(fd1, h1);
	close(fd2);
	close(fd1);
}

/* opening a name in the file that owns it gives a working handle too */
static void subtest_open_same_file(void)
{
	int fd = drm_open_driver();
	uint32_t handle = gem_create(fd, PAGE_SZ);
	uint32_t name = gem_flink(fd, handle);
	uint32_t h2 = gem_open(fd, name);
	unsigned char byte = 0x77;

	gem_write(fd, h2, 100, &byte, 1);
	byte = 0;
	gem_read(fd, handle, 100, &byte, 1);
	igt_assert_eq(byte, 0x77);
	gem_close(fd, handle);
	if (h2 != handle) {
		/* the second handle keeps the object */
		byte = 0;
		gem_read(fd, h2, 100, &byte, 1);
		igt_assert_eq(byte, 0x77);
		gem_close(fd, h2);
	}
	igt_assert_err(__gem_close(fd, h2), -EINVAL);
	close(fd);
}

/* the name lives while any handle does, and dies with the last one */
static void subtest_name_lifetime(void)
{
	int fd1 = drm_open_driver(), fd2 = drm_open_driver();
	uint32_t h1 = gem_create(fd1, PAGE_SZ), h2, h3 = 0;
	uint32_t name = gem_flink(fd1, h1);
	unsigned char byte = 0x3c;

	h2 = gem_open(fd2, name);
	gem_write(fd2, h2, 17, &byte, 1);

	/* the creator's handle goes; fd2 still holds the object */
	gem_close(fd1, h1);
	h3 = gem_open(fd1, name);
	byte = 0;
	gem_read(fd1, h3, 17, &byte, 1);
	igt_assert_eq(byte, 0x3c);

	gem_close(fd1, h3);
	gem_close(fd2, h2);
	igt_assert_err(__gem_open(fd1, name, &h3, NULL), -ENOENT);
	igt_assert_err(__gem_open(fd2, name, &h3, NULL), -ENOENT);
	close(fd2);
	close(fd1);
}

/* closing the fd that holds the last handle also ends the name */
static void subtest_name_dies_with_fd(void)
{
	int fd1 = drm_open_driver(), fd2 = drm_open_driver();
	uint32_t name = gem_flink(fd1, gem_create(fd1, PAGE_SZ));
	uint32_t handle;

	close(fd1);
	igt_assert_err(__gem_open(fd2, name, &handle, NULL), -ENOENT);
	close(fd2);
}

/* ------------------------------------------------------------------ */
/* two processes */

struct share {
	int to_child[2], to_parent[2];
};

static void share_init(struct share *s)
{
	igt_assert_eq(pipe(s->to_child), 0);
	igt_assert_eq(pipe(s->to_parent), 0);
}

/* after the fork: each side keeps its own ends, so a dead peer is EOF */
static void share_parent_side(struct share *s)
{
	close(s->to_child[0]);
	close(s->to_parent[1]);
}

static void share_child_side(struct share *s)
{
	close(s->to_child[1]);
	close(s->to_parent[0]);
}

static void share_fini_parent(struct share *s)
{
	close(s->to_child[1]);
	close(s->to_parent[0]);
}

static void send_u32(int fd, uint32_t v)
{
	igt_assert_eq(write(fd, &v, sizeof(v)), sizeof(v));
}

static uint32_t recv_u32(int fd)
{
	uint32_t v = 0;

	igt_assert_eq(read(fd, &v, sizeof(v)), sizeof(v));
	return v;
}

/*
 * The child opens the parent's object by name, checks the parent's
 * pattern, writes its own, and closes everything.
 */
static int share_child(void *arg)
{
	struct share *s = arg;
	unsigned char in[2 * 4096], out[2 * 4096];
	int fd = drm_open_driver();
	uint32_t name, handle = 0;
	uint64_t size = 0;

	share_child_side(s);
	name = recv_u32(s->to_child[0]);

	igt_assert_ok(__gem_open(fd, name, &handle, &size));
	igt_assert_eq_u64(size, sizeof(in));
	igt_fill_pattern(in, sizeof(in), 21);
	gem_read(fd, handle, 0, out, sizeof(out));
	igt_assert_mem(out, in, sizeof(in), "child reads parent's data");

	igt_fill_pattern(in, sizeof(in), 22);
	gem_write(fd, handle, 0, in, sizeof(in));
	gem_close(fd, handle);
	close(fd);
	send_u32(s->to_parent[1], 1);
	return 0;
}

static void subtest_two_processes(void)
{
	unsigned char in[2 * 4096], out[2 * 4096];
	int fd = drm_open_driver();
	uint32_t handle = gem_create(fd, sizeof(in));
	struct share s;
	pid_t pid;

	share_init(&s);
	pid = igt_fork(share_child, &s);
	share_parent_side(&s);

	igt_fill_pattern(in, sizeof(in), 21);
	gem_write(fd, handle, 0, in, sizeof(in));
	send_u32(s.to_child[1], gem_flink(fd, handle));
	igt_assert_eq(recv_u32(s.to_parent[0]), 1);
	igt_assert_eq(igt_wait(pid), 0);

	igt_fill_pattern(in, sizeof(in), 22);
	gem_read(fd, handle, 0, out, sizeof(out));
	igt_assert_mem(out, in, sizeof(in), "parent reads child's data");

	gem_close(fd, handle);
	close(fd);
	share_fini_parent(&s);
}

/*
 * The other way round: a child creates and names an object, the parent
 * opens it, and the object outlives the child that created it.
 */
static int create_child(void *arg)
{
	struct share *s = arg;
	unsigned char in[4096];
	int fd = drm_open_driver();
	uint32_t handle = gem_create(fd, sizeof(in));

	share_child_side(s);
	igt_fill_pattern(in, sizeof(in), 31);
	gem_write(fd, handle, 0, in, sizeof(in));
	send_u32(s->to_parent[1], gem_flink(fd, handle));
	/* hold the object until the parent has opened it */
	igt_assert_eq(recv_u32(s->to_child[0]), 2);
	gem_close(fd, handle);
	close(fd);
	return 0;
}

static void subtest_outlives_creator(void)
{
	unsigned char in[4096], out[4096];
	int fd = drm_open_driver();
	uint32_t handle, name;
	struct share s;
	pid_t pid;

	share_init(&s);
	pid = igt_fork(create_child, &s);
	share_parent_side(&s);
	name = recv_u32(s.to_parent[0]);
	handle = gem_open(fd, name);
	send_u32(s.to_child[1], 2);
	igt_assert_eq(igt_wait(pid), 0);

	igt_fill_pattern(in, sizeof(in), 31);
	gem_read(fd, handle, 0, out, sizeof(out));
	igt_assert_mem(out, in, sizeof(in), "data of the exited creator");
	gem_close(fd, handle);
	close(fd);
	share_fini_parent(&s);
}

/* ------------------------------------------------------------------ */
/* render node: GEM_FLINK and GEM_OPEN are not render-allowed */

static void subtest_render_flink(void)
{
	int fd = drm_open_driver_render();
	uint32_t handle = gem_create(fd, PAGE_SZ), name = 0;

	igt_assert_err(__gem_flink(fd, handle, &name), -EACCES);
	gem_close(fd, handle);
	close(fd);
}

static void subtest_render_open(void)
{
	int card = drm_open_driver(), render = drm_open_driver_render();
	uint32_t handle = gem_create(card, PAGE_SZ), h = 0;
	uint32_t name = gem_flink(card, handle);

	igt_assert_err(__gem_open(render, name, &h, NULL), -EACCES);
	gem_close(card, handle);
	close(render);
	close(card);
}

static const struct igt_subtest tests[] = {
	SUBTEST(flink),
	SUBTEST(flink_distinct),
	SUBTEST(flink_bad_handle),
	SUBTEST(open_bad_name),
	SUBTEST(open_shares_object),
	SUBTEST(open_same_file),
	SUBTEST(name_lifetime),
	SUBTEST(name_dies_with_fd),
	SUBTEST(two_processes),
	SUBTEST(outlives_creator),
	SUBTEST(render_flink),
	SUBTEST(render_open),
};

igt_main(tests)
