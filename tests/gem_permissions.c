// SPDX-License-Identifier: GPL-2.0
/*
 * gem_permissions: who may call what.
 *
 *  - PIN, UNPIN, GEM_INIT, ENTERVT and LEAVEVT are root-only
 *    (DRM_ROOT_ONLY): an unprivileged client gets EACCES from the DRM
 *    core, whether it opened the node itself or inherited a root fd.
 *  - On the render node they are not allowed even for root (no
 *    DRM_RENDER_ALLOW): EACCES.
 *  - The GEM ioctls are DRM_RENDER_ALLOW: an unprivileged client can
 *    use them on the render node.
 *  - GEM_FLINK/GEM_OPEN need an authenticated client (DRM_AUTH): an
 *    unprivileged, non-master client of the primary node gets EACCES.
 *
 * The privileged ioctls are called with arguments that would be
 * rejected anyway (handle 0, an empty GTT range), so a missing
 * permission check shows up as a different errno, not as damage.
 */
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gem.h"

struct priv_ioctl {
	const char *name;
	unsigned long request;
};

static const struct priv_ioctl priv_ioctls[] = {
	{ "PIN", DRM_IOCTL_I915_GEM_PIN },
	{ "UNPIN", DRM_IOCTL_I915_GEM_UNPIN },
	{ "GEM_INIT", DRM_IOCTL_I915_GEM_INIT },
	{ "ENTERVT", DRM_IOCTL_I915_GEM_ENTERVT },
	{ "LEAVEVT", DRM_IOCTL_I915_GEM_LEAVEVT },
};

/* every root-only ioctl on @fd fails with EACCES */
static void check_priv_refused(int fd)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(priv_ioctls); i++) {
		/* big enough for any of the argument structs, all zero */
		union {
			struct drm_i915_gem_pin pin;
			struct drm_i915_gem_unpin unpin;
			struct drm_i915_gem_init init;
		} arg;
		int ret;

		memset(&arg, 0, sizeof(arg));
		ret = igt_ioctl(fd, priv_ioctls[i].request, &arg);
		if (ret != -EACCES)
			igt_info("%s", priv_ioctls[i].name);
		igt_assert_err(ret, -EACCES);
	}
}

/*
 * chmod @path to @mode | @add, remembering the old mode in @saved;
 * returns false if nothing needed to change.
 */
static bool mode_add(const char *path, mode_t add, mode_t *saved)
{
	struct stat st;

	igt_assert_f(!stat(path, &st), "stat %s: %s", path, strerror(errno));
	*saved = st.st_mode & 07777;
	if ((*saved & add) == add)
		return false;
	igt_assert_eq(chmod(path, *saved | add), 0);
	return true;
}

/*
 * Let others open a device node while @fn runs in an unprivileged
 * child: DRM nodes are often 0600 (devtmpfs), and the directories on
 * the way must be searchable (a minimal initramfs may have a 0700 /).
 * Every mode is restored afterwards.
 */
static void run_unprivileged(const char *node, int (*fn)(void *), void *arg)
{
	static const char *const dirs[] = { "/", "/dev", "/dev/dri" };
	bool changed[ARRAY_SIZE(dirs)];
	mode_t saved[ARRAY_SIZE(dirs)], node_mode;
	bool node_changed;
	size_t i;
	int rc;

	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		changed[i] = mode_add(dirs[i], 0001, &saved[i]);
		if (changed[i])
			igt_info("%s was mode %04o: made searchable for the test",
				 dirs[i], saved[i]);
	}
	node_changed = mode_add(node, 0666, &node_mode);
	rc = igt_wait(igt_fork(fn, arg));
	if (node_changed)
		igt_assert_eq(chmod(node, node_mode), 0);
	for (i = ARRAY_SIZE(dirs); i-- > 0; )
		if (changed[i])
			igt_assert_eq(chmod(dirs[i], saved[i]), 0);
	igt_assert_eq(rc, 0);
}

static void node_of(bool render, char *buf, size_t len)
{
	int fd = render ? drm_open_driver_render() : drm_open_driver();

	drm_node_path(fd, buf, len);
	close(fd);
}

/* open @node as the current (unprivileged) user; it must be i915 */
static int open_node(const char *node)
{
	int fd = __drm_open_driver(strstr(node, "renderD") != NULL);

	igt_assert_f(fd >= 0, "unprivileged open of %s: %s", node,
		     igt_errname(fd));
	return fd;
}

/* ------------------------------------------------------------------ */

/* as nobody, open @arg (a node path): every root-only ioctl refused */
static int unpriv_child(void *arg)
{
	const char *node = arg;
	int fd;

	igt_drop_root();
	fd = open_node(node);
	check_priv_refused(fd);
	close(fd);
	return 0;
}

/* run @fn(node) as nobody, the primary or the render node open to it */
static void run_on_node(bool render, int (*fn)(void *))
{
	char node[64];

	node_of(render, node, sizeof(node));
	run_unprivileged(node, fn, node);
}

/* an unprivileged client of the primary node: root-only refused */
static void subtest_unprivileged_card(void)
{
	run_on_node(false, unpriv_child);
}

static int inherited_fd_child(void *arg)
{
	int fd = *(int *)arg;

	igt_drop_root();
	check_priv_refused(fd);
	return 0;
}

/* the check is on the caller, not on who opened the file */
static void subtest_unprivileged_inherited_fd(void)
{
	int fd = drm_open_driver();

	igt_fork_and_check(inherited_fd_child, &fd);
	close(fd);
}

/* not on the render node, even for root */
static void subtest_render_root(void)
{
	int fd = drm_open_driver_render();

	igt_assert_eq(geteuid(), 0);
	check_priv_refused(fd);
	close(fd);
}

static void subtest_render_unprivileged(void)
{
	run_on_node(true, unpriv_child);
}

/* everything a render client does, as nobody */
static int render_gem_child(void *arg)
{
	const char *node = arg;
	struct drm_i915_gem_get_aperture ap;
	unsigned char in[2 * 4096], out[2 * 4096];
	uint32_t handle, name;
	unsigned char *ptr;
	int fd;

	igt_drop_root();
	fd = open_node(node);
	igt_assert_eq(gem_getparam(fd, I915_PARAM_HAS_GEM), 1);
	igt_assert(gem_getparam(fd, I915_PARAM_CHIPSET_ID) > 0);
	igt_assert_ok(__gem_get_aperture(fd, &ap));

	handle = gem_create(fd, sizeof(in));
	igt_fill_pattern(in, sizeof(in), 1);
	gem_write(fd, handle, 0, in, sizeof(in));
	gem_read(fd, handle, 0, out, sizeof(out));
	igt_assert_mem(out, in, sizeof(in), "pread on the render node");

	ptr = gem_mmap__cpu(fd, handle, 0, sizeof(in));
	gem_set_domain(fd, handle, I915_GEM_DOMAIN_CPU, 0);
	igt_assert_mem(ptr, in, sizeof(in), "mmap on the render node");
	gem_set_domain(fd, handle, I915_GEM_DOMAIN_CPU, I915_GEM_DOMAIN_CPU);
	memset(ptr, 0x3a, PAGE_SZ);
	igt_assert_ok(__gem_sw_finish(fd, handle));
	gem_read(fd, handle, 0, out, PAGE_SZ);
	igt_assert_eq(out[0], 0x3a);
	igt_assert_eq(out[PAGE_SZ - 1], 0x3a);
	munmap(ptr, sizeof(in));

	igt_assert_ok(__gem_set_caching(fd, handle, I915_CACHING_CACHED));
	igt_assert_eq(gem_get_caching(fd, handle), I915_CACHING_CACHED);
	gem_set_domain(fd, handle, I915_GEM_DOMAIN_GTT, I915_GEM_DOMAIN_GTT);

	/* but no global names */
	igt_assert_err(__gem_flink(fd, handle, &name), -EACCES);
	gem_close(fd, handle);
	close(fd);
	return 0;
}

static void subtest_render_gem_unprivileged(void)
{
	run_on_node(true, render_gem_child);
}

/*
 * An unprivileged client of the primary node while another client is
 * master: not authenticated, so no FLINK or OPEN; GEM itself works.
 */
struct unauth {
	char node[64];
	uint32_t name;
};

static int unauth_child(void *arg)
{
	struct unauth *u = arg;
	uint32_t handle, h2 = 0, name = 0;
	int fd;

	igt_drop_root();
	fd = open_node(u->node);
	handle = gem_create(fd, PAGE_SZ);
	igt_assert_err(__gem_flink(fd, handle, &name), -EACCES);
	igt_assert_err(__gem_open(fd, u->name, &h2, NULL), -EACCES);
	check_priv_refused(fd);
	gem_close(fd, handle);
	close(fd);
	return 0;
}

static void subtest_unauthenticated_card(void)
{
	int master = drm_open_driver();
	uint32_t handle = gem_create(master, PAGE_SZ);
	struct unauth u;

	drm_node_path(master, u.node, sizeof(u.node));
	u.name = gem_flink(master, handle);
	run_unprivileged(u.node, unauth_child, &u);
	gem_close(master, handle);
	close(master);
}

static const struct igt_subtest tests[] = {
	SUBTEST(unprivileged_card),
	SUBTEST(unprivileged_inherited_fd),
	SUBTEST(render_root),
	SUBTEST(render_unprivileged),
	SUBTEST(render_gem_unprivileged),
	SUBTEST(unauthenticated_card),
};

igt_main(tests)
