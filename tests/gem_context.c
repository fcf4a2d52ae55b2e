// SPDX-License-Identifier: GPL-2.0
/*
 * gem_context: the default context 0 is the only one, answered as
 * upstream 6.1 answers on a part without logical contexts or full PPGTT:
 * CONTEXT_CREATE(_EXT) and VM_CREATE -ENODEV, CONTEXT_DESTROY and
 * VM_DESTROY -ENOENT (-EINVAL for their MBZ fields), and each
 * CONTEXT_GETPARAM/SETPARAM of context 0 with upstream's value or errno
 * (GTT_SIZE, PRIORITY, PERSISTENCE, PROTECTED_CONTENT, SSEU, VM, the
 * parameters upstream dropped).  The banning ones are gem_exec_reset's.
 */
#include <unistd.h>

#include "gem.h"

static int getp(int fd, struct drm_i915_gem_context_param *p)
{
	return igt_ioctl(fd, DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM, p);
}

static int setp(int fd, struct drm_i915_gem_context_param *p)
{
	return igt_ioctl(fd, DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM, p);
}

/* CONTEXT_CREATE(_EXT), CONTEXT_DESTROY, VM_CREATE, VM_DESTROY */
static void subtest_create_destroy(void)
{
	struct drm_i915_gem_context_create create = {};
	struct drm_i915_gem_context_create_ext ext = {};
	struct drm_i915_gem_context_destroy destroy = {};
	struct drm_i915_gem_vm_control vm = {};
	int fd = drm_open_driver_render();

	igt_assert_err(igt_ioctl(fd, DRM_IOCTL_I915_GEM_CONTEXT_CREATE,
				 &create), -ENODEV);
	igt_assert_eq(create.ctx_id, 0);
	igt_assert_err(igt_ioctl(fd, DRM_IOCTL_I915_GEM_CONTEXT_CREATE_EXT,
				 &ext), -ENODEV);
	ext.flags = ~0u;		/* even before the flags */
	ext.extensions = 8;
	igt_assert_err(igt_ioctl(fd, DRM_IOCTL_I915_GEM_CONTEXT_CREATE_EXT,
				 &ext), -ENODEV);

	igt_assert_err(igt_ioctl(fd, DRM_IOCTL_I915_GEM_CONTEXT_DESTROY,
				 &destroy), -ENOENT);
	destroy.ctx_id = 1;
	igt_assert_err(igt_ioctl(fd, DRM_IOCTL_I915_GEM_CONTEXT_DESTROY,
				 &destroy), -ENOENT);
	destroy.pad = 1;
	igt_assert_err(igt_ioctl(fd, DRM_IOCTL_I915_GEM_CONTEXT_DESTROY,
				 &destroy), -EINVAL);

	igt_assert_err(igt_ioctl(fd, DRM_IOCTL_I915_GEM_VM_CREATE, &vm),
		       -ENODEV);
	igt_assert_eq(vm.vm_id, 0);
	vm.flags = 1;
	igt_assert_err(igt_ioctl(fd, DRM_IOCTL_I915_GEM_VM_CREATE, &vm),
		       -ENODEV);
	igt_assert_err(igt_ioctl(fd, DRM_IOCTL_I915_GEM_VM_DESTROY, &vm),
		       -EINVAL);
	vm.flags = 0;
	vm.extensions = 8;
	igt_assert_err(igt_ioctl(fd, DRM_IOCTL_I915_GEM_VM_DESTROY, &vm),
		       -EINVAL);
	vm.extensions = 0;
	igt_assert_err(igt_ioctl(fd, DRM_IOCTL_I915_GEM_VM_DESTROY, &vm),
		       -ENOENT);
	vm.vm_id = 1;
	igt_assert_err(igt_ioctl(fd, DRM_IOCTL_I915_GEM_VM_DESTROY, &vm),
		       -ENOENT);
	close(fd);
}

/* the simple GETPARAMs of context 0 and their SETPARAMs */
static void subtest_params(void)
{
	struct drm_i915_gem_context_param p = {};
	struct drm_i915_gem_get_aperture ap;
	int fd = drm_open_driver();

	/* GTT_SIZE: the whole global GTT, size 0 written back */
	igt_assert_ok(__gem_get_aperture(fd, &ap));
	p.param = I915_CONTEXT_PARAM_GTT_SIZE;
	p.size = 99;
	igt_assert_ok(getp(fd, &p));
	igt_assert_eq(p.size, 0);
	igt_assert_eq_u64(p.value, ap.aper_size);
	igt_assert_err(setp(fd, &p), -EINVAL);

	/* PRIORITY: normal; no scheduler to change it */
	p.param = I915_CONTEXT_PARAM_PRIORITY;
	p.value = 5;
	igt_assert_ok(getp(fd, &p));
	igt_assert_eq_u64(p.value, I915_CONTEXT_DEFAULT_PRIORITY);
	p.value = 0;
	igt_assert_err(setp(fd, &p), -ENODEV);
	p.size = 1;
	igt_assert_err(setp(fd, &p), -EINVAL);
	p.size = 0;

	/* PERSISTENCE: on; cannot be turned off without preemption */
	p.param = I915_CONTEXT_PARAM_PERSISTENCE;
	igt_assert_ok(getp(fd, &p));
	igt_assert_eq_u64(p.value, 1);
	igt_assert_ok(setp(fd, &p));
	p.value = 0;
	igt_assert_err(setp(fd, &p), -ENODEV);
	p.size = 4;
	p.value = 1;
	igt_assert_err(setp(fd, &p), -EINVAL);
	p.size = 0;

	/* PROTECTED_CONTENT: off; only settable at creation */
	p.param = I915_CONTEXT_PARAM_PROTECTED_CONTENT;
	p.value = 7;
	igt_assert_ok(getp(fd, &p));
	igt_assert_eq_u64(p.value, 0);
	igt_assert_err(setp(fd, &p), -EINVAL);

	/* VM: no full PPGTT; ENGINES, RINGSIZE, NO_ZEROMAP: gone or n/a */
	p.param = I915_CONTEXT_PARAM_VM;
	igt_assert_err(getp(fd, &p), -ENODEV);
	igt_assert_err(setp(fd, &p), -EINVAL);
	p.param = I915_CONTEXT_PARAM_ENGINES;
	igt_assert_err(getp(fd, &p), -EINVAL);
	igt_assert_err(setp(fd, &p), -EINVAL);
	p.param = I915_CONTEXT_PARAM_RINGSIZE;
	igt_assert_err(getp(fd, &p), -EINVAL);
	igt_assert_err(setp(fd, &p), -EINVAL);
	p.param = I915_CONTEXT_PARAM_NO_ZEROMAP;
	igt_assert_err(getp(fd, &p), -EINVAL);
	igt_assert_err(setp(fd, &p), -EINVAL);

	/* NO_ERROR_CAPTURE round trip */
	p.param = I915_CONTEXT_PARAM_NO_ERROR_CAPTURE;
	p.value = 1;
	igt_assert_ok(setp(fd, &p));
	p.value = 5;
	igt_assert_ok(getp(fd, &p));
	igt_assert_eq_u64(p.value, 1);

	/* another context */
	p.ctx_id = 1;
	p.param = I915_CONTEXT_PARAM_PRIORITY;
	igt_assert_err(getp(fd, &p), -ENOENT);
	igt_assert_err(setp(fd, &p), -ENOENT);
	close(fd);
}

/* SSEU of context 0: the render engine's, all zero; not settable */
static void subtest_sseu(void)
{
	struct drm_i915_gem_context_param_sseu s;
	struct drm_i915_gem_context_param p = {
		.param = I915_CONTEXT_PARAM_SSEU,
	};
	int fd = drm_open_driver();

	/* size 0: the size needed */
	igt_assert_ok(getp(fd, &p));
	igt_assert_eq(p.size, sizeof(s));
	igt_assert_eq(sizeof(s), 32);

	memset(&s, 0xff, sizeof(s));
	s.engine.engine_class = I915_ENGINE_CLASS_RENDER;
	s.engine.engine_instance = 0;
	s.flags = 0;
	s.rsvd = 0;
	p.value = to_user_pointer(&s);
	igt_assert_ok(getp(fd, &p));
	igt_assert_eq(p.size, sizeof(s));
	igt_assert_eq_u64(s.slice_mask, 0);
	igt_assert_eq_u64(s.subslice_mask, 0);
	igt_assert_eq(s.min_eus_per_subslice, 0);
	igt_assert_eq(s.max_eus_per_subslice, 0);

	/* too small, rsvd, flags, engine index, other engines, bad pointer */
	p.size = sizeof(s) - 1;
	igt_assert_err(getp(fd, &p), -EINVAL);
	p.size = sizeof(s);
	s.rsvd = 1;
	igt_assert_err(getp(fd, &p), -EINVAL);
	s.rsvd = 0;
	s.flags = I915_CONTEXT_SSEU_FLAG_ENGINE_INDEX;
	igt_assert_err(getp(fd, &p), -EINVAL);
	s.flags = 2;
	igt_assert_err(getp(fd, &p), -EINVAL);
	s.flags = 0;
	s.engine.engine_class = I915_ENGINE_CLASS_COPY;
	igt_assert_err(getp(fd, &p), -EINVAL);
	s.engine.engine_class = I915_ENGINE_CLASS_RENDER;
	s.engine.engine_instance = 1;
	igt_assert_err(getp(fd, &p), -EINVAL);
	s.engine.engine_instance = 0;
	p.value = 8;
	igt_assert_err(getp(fd, &p), -EFAULT);

	/* SETPARAM: size checked, then Gen11 only */
	p.value = to_user_pointer(&s);
	igt_assert_err(setp(fd, &p), -ENODEV);
	p.size = sizeof(s) - 1;
	igt_assert_err(setp(fd, &p), -EINVAL);
	close(fd);
}

static const struct igt_subtest tests[] = {
	SUBTEST(create_destroy),
	SUBTEST(params),
	SUBTEST(sseu),
};

igt_main(tests)
