// SPDX-License-Identifier: GPL-2.0
/*
 * mesa_gles: Debian's own Mesa (22.3) drives the GPU the runner selected,
 * as an application would: the DRI megadriver picks its driver from the
 * PCI id (i915g for the 945G, crocus for the GM45), GBM on the render
 * node of that GPU (I915_PCI_SLOT: with two GPUs loaded renderD128 is not
 * always it), EGL on the GBM platform, a surfaceless GLES2 context
 * rendering into a framebuffer object.
 *
 *  - context: the display initializes with the driver the PCI id calls
 *    for (not a software fallback), a GLES2 context becomes current;
 *  - clear: glClear + glReadPixels of a 64x64 RGBA target;
 *  - triangle: a shader program and one glDrawArrays;
 *  - texture: a 16x16 texture uploaded (glTexImage2D), read back through
 *    a framebuffer, and drawn with;
 *  - gbm_bo: GBM buffers (linear, and as the driver likes them) created,
 *    mapped (gbm_bo_map) for writing, written, unmapped, mapped for
 *    reading: every byte reads back.
 *
 * The model does not rasterize 3D (Documentation/model.rst): it decodes
 * every 3D command, executes the drawing rectangle and PIPE_CONTROL, and
 * draws nothing.  So the pixels of 3D rendering are not checked; what is
 * checked on every GPU is that Mesa submitted batches, that the model
 * executed all of them without an error (i915_sim/<slot>/cs "errors"
 * unchanged) and, for the draws, the drawing rectangle of the render
 * target (i915_sim/<slot>/drawrects), and that the driver captured no
 * error state.
 * What the CPU or the blitter produces is checked exactly where the driver
 * does it that way (struct gpu_rules): i915g clears with the blitter
 * (XY_COLOR_BLT), and a texture upload is a CPU write through a mapping.
 *
 * Every DRM ioctl Mesa issues is seen by an ioctl() defined here (the
 * executable's symbol is the one libdrm, GBM and the driver bind to) and
 * logged with its answer; any that fails and is not in expected_failures[]
 * (each entry says why upstream i915 fails it too) fails the subtest.
 * Mesa runs in a child process, its trace in shared memory, so that a
 * crash of Mesa still tells which ioctl failed before it.
 *
 * Known failures: gpu_rules[].xfail marks a GPU on which Mesa cannot run
 * yet, with the reason; such a subtest failing the expected way is
 * reported as a skip "expected failure: ...", and passing fails it
 * ("unexpected pass": remove the xfail).
 *
 * Needs the host's Mesa in the VM (scripts/vm/mkmesadisk.sh; skips
 * without it) and libgbm/libEGL/libGLESv2 to build (skips without them).
 */
#include <stdarg.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "exec.h"

#define W 64	/* the render target */
#define H 64

/* ------------------------------------------------------------------ */
/* what each GPU is expected to do */

/*
 * Per GPU: the Mesa driver its PCI id selects, which results are exact
 * (not 3D-rendered on the model), and whether Mesa is known not to run on
 * it yet.
 */
struct gpu_rules {
	uint32_t devid;
	const char *driver;	/* EGL's driver name for it */
	bool blit_clear;	/* glClear is a blit: read back exactly */
	/*
	 * Known not to work yet: the reason, and the ioctl whose failure
	 * is the expected one (its _IOC_NR).  THE place to flip once the
	 * driver has it.
	 */
	const char *xfail;
	unsigned int xfail_nr;
};

static const struct gpu_rules gpu_rules[] = {
	{ 0x2772, "i915", true, NULL, 0 },
	{ 0x2a42, "crocus", false, NULL, 0 },
};

/*
 * The failing ioctls Mesa may see.  Most are right: upstream 6.1's i915
 * answers the same on these parts (why says where).  Those marked
 * deviation are not: upstream answers otherwise, Mesa lives with ours,
 * and the entry says who owes the fix; they are tolerated (logged as
 * DEVIATION) so that the rest of the test guards what works, and an
 * entry goes when the driver answers as upstream.  param: the
 * (CONTEXT_)GETPARAM parameter, or -1 for any; devid: 0 for any GPU.
 */
static const struct expected_failure {
	unsigned long request;
	int param;
	int err;
	uint32_t devid;
	bool deviation;
	const char *why;
} expected_failures[] = {
	{ DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM, I915_CONTEXT_PARAM_PRIORITY,
	  ENODEV, 0, false,
	  "ring submission has no priority scheduler (caps.scheduler 0): "
	  "upstream's validate_priority() says -ENODEV" },
	{ DRM_IOCTL_I915_GEM_CONTEXT_CREATE, -1, ENODEV, 0x2772, false,
	  "Gen3 has no render context image (intel_engine_context_size() 0), "
	  "so no has_logical_contexts: upstream says -ENODEV" },
	{ DRM_IOCTL_I915_GETPARAM, I915_PARAM_SLICE_MASK, ENODEV, 0, false,
	  "no slice topology before Gen8: upstream's empty mask is -ENODEV" },
	/* deviations */
	{ DRM_IOCTL_I915_GEM_CONTEXT_CREATE, -1, ENODEV, 0x2a42, true,
	  "upstream creates logical contexts on Gen4 (CXT_SIZE, "
	  "MI_SET_CONTEXT); this driver has context 0 only "
	  "(Documentation/differences.rst), crocus falls back to it" },
	{ DRM_IOCTL_I915_GETPARAM, I915_PARAM_PERF_REVISION, EINVAL, 0, true,
	  "upstream: 5 (i915_perf_ioctl_version) even where perf is "
	  "unavailable; this driver has no i915 perf" },
};

/* ------------------------------------------------------------------ */
/* the ioctl trace, in memory shared with the child running Mesa */

struct trace_ent {
	unsigned int nr;	/* _IOC_NR; DRM core below 0x40 */
	int param;		/* (CONTEXT_)GETPARAM's param, else -1 */
	int err;		/* 0 or an errno */
	unsigned int count;
};

struct trace {
	unsigned int n;
	bool overflow;
	bool paused;
	struct trace_ent e[256];
};

static struct trace *trace;

static void trace_record(unsigned long request, void *arg, int err)
{
	unsigned int nr = _IOC_NR(request), i;
	int param = -1;

	if (nr == _IOC_NR(DRM_IOCTL_I915_GETPARAM) && arg)
		param = ((drm_i915_getparam_t *)arg)->param;
	else if ((nr == _IOC_NR(DRM_IOCTL_I915_GEM_CONTEXT_GETPARAM) ||
		  nr == _IOC_NR(DRM_IOCTL_I915_GEM_CONTEXT_SETPARAM)) && arg)
		param = ((struct drm_i915_gem_context_param *)arg)->param;
	for (i = 0; i < trace->n; i++) {
		struct trace_ent *t = &trace->e[i];

		if (t->nr == nr && t->param == param && t->err == err) {
			t->count++;
			return;
		}
	}
	if (trace->n < ARRAY_SIZE(trace->e))
		trace->e[trace->n++] = (struct trace_ent){ nr, param, err, 1 };
	else
		trace->overflow = true;
}

/*
 * libdrm, GBM and the driver call ioctl() through the PLT; the definition
 * in the executable is the one the dynamic linker binds them to.
 */
int ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;
	long ret;
	int err;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	ret = syscall(SYS_ioctl, fd, request, arg);
	err = ret < 0 ? errno : 0;
	if (trace && !trace->paused && _IOC_TYPE(request) == DRM_IOCTL_BASE)
		trace_record(request, arg, err);
	errno = err;
	return ret;
}

#define NAME(x) { _IOC_NR(DRM_IOCTL_##x), #x }
static const struct { unsigned int nr; const char *name; } ioctl_names[] = {
	NAME(VERSION), NAME(GET_UNIQUE), NAME(GET_MAGIC), NAME(GET_CAP),
	NAME(SET_CLIENT_CAP), NAME(SET_VERSION), NAME(GEM_CLOSE),
	NAME(GEM_FLINK), NAME(GEM_OPEN), NAME(PRIME_HANDLE_TO_FD),
	NAME(PRIME_FD_TO_HANDLE), NAME(SYNCOBJ_CREATE),
	NAME(SYNCOBJ_DESTROY), NAME(SYNCOBJ_HANDLE_TO_FD),
	NAME(SYNCOBJ_FD_TO_HANDLE), NAME(SYNCOBJ_WAIT), NAME(SYNCOBJ_RESET),
	NAME(SYNCOBJ_SIGNAL), NAME(SYNCOBJ_TIMELINE_WAIT),
	NAME(SYNCOBJ_QUERY), NAME(SYNCOBJ_TRANSFER),
	NAME(SYNCOBJ_TIMELINE_SIGNAL), NAME(I915_GETPARAM),
	NAME(I915_GEM_EXECBUFFER2), NAME(I915_GEM_BUSY),
	NAME(I915_GEM_SET_CACHING), NAME(I915_GEM_GET_CACHING),
	NAME(I915_GEM_THROTTLE), NAME(I915_GEM_CREATE), NAME(I915_GEM_PREAD),
	NAME(I915_GEM_PWRITE), NAME(I915_GEM_MMAP), NAME(I915_GEM_MMAP_GTT),
	NAME(I915_GEM_SET_DOMAIN), NAME(I915_GEM_SW_FINISH),
	NAME(I915_GEM_SET_TILING), NAME(I915_GEM_GET_TILING),
	NAME(I915_GEM_GET_APERTURE), NAME(I915_GEM_MADVISE),
	NAME(I915_GEM_WAIT), NAME(I915_GEM_CONTEXT_CREATE),
	NAME(I915_GEM_CONTEXT_DESTROY),
	NAME(I915_REG_READ), NAME(I915_GET_RESET_STATS),
	NAME(I915_GEM_USERPTR), NAME(I915_GEM_CONTEXT_GETPARAM),
	NAME(I915_GEM_CONTEXT_SETPARAM), NAME(I915_PERF_OPEN),
	NAME(I915_QUERY), NAME(I915_GEM_VM_CREATE), NAME(I915_GEM_VM_DESTROY),
	NAME(I915_GEM_CREATE_EXT), NAME(I915_GEM_PIN), NAME(I915_GEM_UNPIN),
};

static const char *ioctl_name(unsigned int nr)
{
	static char buf[32];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ioctl_names); i++)
		if (ioctl_names[i].nr == nr)
			return ioctl_names[i].name;
	snprintf(buf, sizeof(buf), "ioctl 0x%02x", nr);
	return buf;
}

static const struct expected_failure *expected(const struct trace_ent *t,
					       uint32_t devid)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(expected_failures); i++) {
		const struct expected_failure *x = &expected_failures[i];

		if (_IOC_NR(x->request) == t->nr && x->err == t->err &&
		    (x->param < 0 || x->param == t->param) &&
		    (!x->devid || x->devid == devid))
			return x;
	}
	return NULL;
}

/*
 * Log the trace; return the number of failing ioctls not expected.
 * *@xfail_seen: @xfail_nr failed; *@xfail_ok: it was called and succeeded.
 */
static unsigned int trace_check(uint32_t devid, unsigned int xfail_nr,
				bool *xfail_seen, bool *xfail_ok)
{
	unsigned int i, bad = 0;

	*xfail_seen = false;
	*xfail_ok = false;
	for (i = 0; i < trace->n; i++) {
		const struct trace_ent *t = &trace->e[i];
		const struct expected_failure *x =
			t->err ? expected(t, devid) : NULL;
		char what[64];

		if (t->param >= 0)
			snprintf(what, sizeof(what), "%s(%d)", ioctl_name(t->nr),
				 t->param);
		else
			snprintf(what, sizeof(what), "%s", ioctl_name(t->nr));
		igt_info("mesa ioctl %-36s x%-4u -> %s%s%s", what, t->count,
			 igt_errname(-t->err),
			 !t->err ? "" : !x ? ": UNEXPECTED" :
			 x->deviation ? ": DEVIATION (tolerated), " :
			 ": expected, ", x ? x->why : "");
		if (t->err && !x) {
			bad++;
			if (xfail_nr && t->nr == xfail_nr)
				*xfail_seen = true;
		}
		if (!t->err && xfail_nr && t->nr == xfail_nr)
			*xfail_ok = true;
	}
	igt_assert_f(!trace->overflow, "more distinct ioctls than the trace holds");
	return bad;
}

/* ------------------------------------------------------------------ */
/* Mesa */

#ifdef HAVE_MESA
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <gbm.h>

#define TEX 16

struct mesa {
	int fd;
	struct gbm_device *gbm;
	EGLDisplay dpy;
	EGLContext ctx;
	GLuint fbo, rt;
	const struct gpu_rules *rules;
};

static void check_gl(const char *what)
{
	GLenum e = glGetError();

	igt_assert_f(e == GL_NO_ERROR, "%s: GL error 0x%x", what, e);
}

static void mesa_init(struct mesa *m, const struct gpu_rules *rules)
{
	static const EGLint ctx_attr[] = {
		EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE
	};
	static const EGLint cfg_attr[] = {
		EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT,
		EGL_SURFACE_TYPE, EGL_DONT_CARE,
		EGL_NONE
	};
	PFNEGLGETPLATFORMDISPLAYEXTPROC get_display;
	const char *(*driver_name)(EGLDisplay dpy);
	const char *exts, *name;
	EGLint major, minor, n;
	EGLConfig cfg;

	m->rules = rules;
	m->fd = drm_open_driver_render();
	m->gbm = gbm_create_device(m->fd);
	igt_assert_f(m->gbm, "gbm_create_device failed");
	igt_info("gbm backend %s", gbm_device_get_backend_name(m->gbm));

	get_display = (void *)eglGetProcAddress("eglGetPlatformDisplayEXT");
	igt_assert(get_display);
	m->dpy = get_display(EGL_PLATFORM_GBM_KHR, m->gbm, NULL);
	igt_assert_f(m->dpy != EGL_NO_DISPLAY, "no EGL display on GBM");
	igt_assert_f(eglInitialize(m->dpy, &major, &minor),
		     "eglInitialize: 0x%x", eglGetError());
	igt_info("EGL %d.%d %s", major, minor,
		 eglQueryString(m->dpy, EGL_VENDOR));

	/* the driver of the PCI id, not a software fallback */
	driver_name = (void *)eglGetProcAddress("eglGetDisplayDriverName");
	igt_assert_f(driver_name, "no EGL_MESA_query_driver");
	name = driver_name(m->dpy);
	igt_assert_f(name && !strcmp(name, rules->driver),
		     "EGL driver %s, expected %s", name ?: "(none)",
		     rules->driver);

	exts = eglQueryString(m->dpy, EGL_EXTENSIONS);
	igt_assert_f(strstr(exts, "EGL_KHR_surfaceless_context"),
		     "no EGL_KHR_surfaceless_context: %s", exts);
	igt_assert(eglBindAPI(EGL_OPENGL_ES_API));
	igt_assert_f(eglChooseConfig(m->dpy, cfg_attr, &cfg, 1, &n) && n == 1,
		     "no GLES2 config");
	m->ctx = eglCreateContext(m->dpy, cfg, EGL_NO_CONTEXT, ctx_attr);
	igt_assert_f(m->ctx != EGL_NO_CONTEXT, "eglCreateContext: 0x%x",
		     eglGetError());
	igt_assert_f(eglMakeCurrent(m->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE,
				    m->ctx), "eglMakeCurrent: 0x%x",
		     eglGetError());
	igt_info("GL_RENDERER %s, GL_VERSION %s",
		 (const char *)glGetString(GL_RENDERER),
		 (const char *)glGetString(GL_VERSION));
	check_gl("context");
}

/* a W x H RGBA render target, bound */
static void mesa_target(struct mesa *m)
{
	glGenTextures(1, &m->rt);
	glBindTexture(GL_TEXTURE_2D, m->rt);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, W, H, 0, GL_RGBA,
		     GL_UNSIGNED_BYTE, NULL);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	glGenFramebuffers(1, &m->fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, m->fbo);
	glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
			       GL_TEXTURE_2D, m->rt, 0);
	igt_assert_eq(glCheckFramebufferStatus(GL_FRAMEBUFFER),
		      GL_FRAMEBUFFER_COMPLETE);
	glViewport(0, 0, W, H);
	check_gl("render target");
}

static void mesa_fini(struct mesa *m)
{
	if (m->fbo) {
		glDeleteFramebuffers(1, &m->fbo);
		glDeleteTextures(1, &m->rt);
	}
	eglMakeCurrent(m->dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
	eglDestroyContext(m->dpy, m->ctx);
	eglTerminate(m->dpy);
	gbm_device_destroy(m->gbm);
	close(m->fd);
}

/* read the target back; count the pixels equal to @rgba */
static unsigned int read_count(uint32_t rgba, uint32_t *first)
{
	static uint32_t px[W * H];
	unsigned int i, n = 0;

	memset(px, 0x5a, sizeof(px));
	glReadPixels(0, 0, W, H, GL_RGBA, GL_UNSIGNED_BYTE, px);
	check_gl("glReadPixels");
	for (i = 0; i < W * H; i++)
		n += px[i] == rgba;
	*first = px[0];
	return n;
}

static void step_context(struct mesa *m)
{
	/* mesa_init did it all */
}

static void step_clear(struct mesa *m)
{
	/* bytes R, G, B, A in memory: exactly representable in 8 bits */
	static const uint8_t c[4] = { 0x20, 0x40, 0xc0, 0xff };
	uint32_t rgba, first;
	unsigned int n;

	memcpy(&rgba, c, 4);
	mesa_target(m);
	glClearColor(c[0] / 255.0f, c[1] / 255.0f, c[2] / 255.0f,
		     c[3] / 255.0f);
	glClear(GL_COLOR_BUFFER_BIT);
	check_gl("glClear");
	n = read_count(rgba, &first);
	igt_info("clear: %u of %u pixels read back 0x%08x (first 0x%08x)", n,
		 W * H, rgba, first);
	if (m->rules->blit_clear)
		igt_assert_f(n == W * H, "the blitter's clear read back %u of %u",
			     n, W * H);
}

static GLuint shader(GLenum type, const char *src)
{
	GLuint s = glCreateShader(type);
	GLint ok = 0;
	char log[512] = "";

	glShaderSource(s, 1, &src, NULL);
	glCompileShader(s);
	glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
	if (!ok)
		glGetShaderInfoLog(s, sizeof(log), NULL, log);
	igt_assert_f(ok, "shader: %s", log);
	return s;
}

static GLuint program(const char *vs, const char *fs)
{
	GLuint p = glCreateProgram();
	GLint ok = 0;

	glAttachShader(p, shader(GL_VERTEX_SHADER, vs));
	glAttachShader(p, shader(GL_FRAGMENT_SHADER, fs));
	glBindAttribLocation(p, 0, "pos");
	glLinkProgram(p);
	glGetProgramiv(p, GL_LINK_STATUS, &ok);
	igt_assert_f(ok, "program does not link");
	glUseProgram(p);
	check_gl("program");
	return p;
}

static void step_triangle(struct mesa *m)
{
	static const GLfloat tri[] = { -1, -1, 1, -1, 0, 1 };
	uint32_t first;
	GLuint p;

	mesa_target(m);
	p = program("attribute vec2 pos;\n"
		    "void main() { gl_Position = vec4(pos, 0.0, 1.0); }\n",
		    "precision mediump float;\n"
		    "void main() { gl_FragColor = vec4(1.0, 0.5, 0.0, 1.0); }\n");
	glClearColor(0, 0, 0, 1);
	glClear(GL_COLOR_BUFFER_BIT);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, tri);
	glEnableVertexAttribArray(0);
	glDrawArrays(GL_TRIANGLES, 0, 3);
	check_gl("glDrawArrays");
	/* 3D: the model draws nothing, so only logged */
	read_count(0, &first);
	igt_info("triangle: centre pixel not checked (no 3D rasterizer)");
	glDeleteProgram(p);
}

static void step_texture(struct mesa *m)
{
	static const GLfloat quad[] = { -1, -1, 1, -1, -1, 1, 1, 1 };
	static uint32_t texels[TEX * TEX], back[TEX * TEX];
	GLuint tex, fbo, p;
	uint32_t first;
	unsigned int i, same = 0;

	for (i = 0; i < TEX * TEX; i++)
		texels[i] = pattern_dw(0x7e57, i) | 0xff000000;
	glGenTextures(1, &tex);
	glBindTexture(GL_TEXTURE_2D, tex);
	glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, TEX, TEX, 0, GL_RGBA,
		     GL_UNSIGNED_BYTE, texels);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
	glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
	check_gl("glTexImage2D");

	/* the upload, read back through a framebuffer of the texture */
	glGenFramebuffers(1, &fbo);
	glBindFramebuffer(GL_FRAMEBUFFER, fbo);
	glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0,
			       GL_TEXTURE_2D, tex, 0);
	igt_assert_eq(glCheckFramebufferStatus(GL_FRAMEBUFFER),
		      GL_FRAMEBUFFER_COMPLETE);
	glReadPixels(0, 0, TEX, TEX, GL_RGBA, GL_UNSIGNED_BYTE, back);
	check_gl("glReadPixels of the texture");
	for (i = 0; i < TEX * TEX; i++)
		same += back[i] == texels[i];
	igt_info("texture: %u of %u texels read back as uploaded", same,
		 TEX * TEX);
	/* the upload and this read are CPU copies through a mapping */
	igt_assert_f(same == TEX * TEX,
		     "%u of %u texels read back as uploaded", same, TEX * TEX);
	glDeleteFramebuffers(1, &fbo);

	/* and drawn with */
	mesa_target(m);
	p = program("attribute vec2 pos;\n"
		    "varying vec2 uv;\n"
		    "void main() { uv = pos * 0.5 + 0.5;\n"
		    "  gl_Position = vec4(pos, 0.0, 1.0); }\n",
		    "precision mediump float;\n"
		    "uniform sampler2D tex;\n"
		    "varying vec2 uv;\n"
		    "void main() { gl_FragColor = texture2D(tex, uv); }\n");
	glActiveTexture(GL_TEXTURE0);
	glBindTexture(GL_TEXTURE_2D, tex);
	glUniform1i(glGetUniformLocation(p, "tex"), 0);
	glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, quad);
	glEnableVertexAttribArray(0);
	glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
	check_gl("textured draw");
	read_count(0, &first);
	glDeleteProgram(p);
	glDeleteTextures(1, &tex);
}

/* one GBM buffer: mapped for writing, written, mapped for reading */
static void gbm_bo_rw(struct mesa *m, uint32_t usage, const char *what)
{
	struct gbm_bo *bo;
	uint32_t stride, x, y, bad = 0;
	void *map_data = NULL;
	uint8_t *p;

	bo = gbm_bo_create(m->gbm, W, H, GBM_FORMAT_ARGB8888, usage);
	igt_assert_f(bo, "gbm_bo_create %s: %s", what, strerror(errno));
	igt_info("gbm bo %s: %ux%u stride %u modifier 0x%" PRIx64, what,
		 gbm_bo_get_width(bo), gbm_bo_get_height(bo),
		 gbm_bo_get_stride(bo), (uint64_t)gbm_bo_get_modifier(bo));

	p = gbm_bo_map(bo, 0, 0, W, H, GBM_BO_TRANSFER_WRITE, &stride,
		       &map_data);
	igt_assert_f(p, "gbm_bo_map %s for writing failed", what);
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			((uint32_t *)(p + y * stride))[x] =
				pattern_dw(0x6b0, y * W + x);
	gbm_bo_unmap(bo, map_data);

	map_data = NULL;
	p = gbm_bo_map(bo, 0, 0, W, H, GBM_BO_TRANSFER_READ, &stride,
		       &map_data);
	igt_assert_f(p, "gbm_bo_map %s for reading failed", what);
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			bad += ((uint32_t *)(p + y * stride))[x] !=
			       pattern_dw(0x6b0, y * W + x);
	gbm_bo_unmap(bo, map_data);
	gbm_bo_destroy(bo);
	igt_assert_f(!bad, "gbm bo %s: %u of %u pixels differ", what, bad,
		     W * H);
}

static void step_gbm_bo(struct mesa *m)
{
	gbm_bo_rw(m, GBM_BO_USE_RENDERING | GBM_BO_USE_LINEAR, "linear");
	gbm_bo_rw(m, GBM_BO_USE_RENDERING, "rendering");
}

typedef void (*step_fn)(struct mesa *m);

struct step_arg {
	const struct gpu_rules *rules;
	step_fn fn;
};

static int mesa_child(void *data)
{
	const struct step_arg *a = data;
	struct mesa m = { 0 };

	mesa_init(&m, a->rules);
	a->fn(&m);
	glFinish();
	check_gl("glFinish");
	mesa_fini(&m);
	return 0;
}

static bool have_mesa(void)
{
	return true;
}
#else
typedef void *step_fn;
#define step_context NULL
#define step_clear NULL
#define step_triangle NULL
#define step_texture NULL
#define step_gbm_bo NULL
static int mesa_child(void *data)
{
	return 1;
}

static bool have_mesa(void)
{
	return false;
}
#endif

/* ------------------------------------------------------------------ */
/* the harness around one step */

static const struct gpu_rules *rules_for(uint32_t devid)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(gpu_rules); i++)
		if (gpu_rules[i].devid == devid)
			return &gpu_rules[i];
	return NULL;
}

/* the driver's error state is empty */
static bool no_error_state(int fd)
{
	char sysfs[256], debugfs[256], *text;
	size_t len;
	bool none;

	gem_error_state_paths(fd, sysfs, debugfs, sizeof(sysfs));
	text = igt_read_whole(debugfs, 4096, &len);
	igt_assert_f(text, "cannot read %s", debugfs);
	none = !strncmp(text, "No error state", 14);
	if (!none)
		igt_info("error state: %.200s", text);
	free(text);
	return none;
}

/*
 * The drawing rectangles the model executed: one must be the W x H
 * render target's, the proof that Mesa's 3D state reached the engine.
 */
static bool drew_target(void)
{
	static struct drawrect r[256];
	int i, n = sim_drawrects(r, ARRAY_SIZE(r));

	igt_assert_f(n >= 0, "no i915_sim/<slot>/drawrects (%s)",
		     igt_errname(n));
	if (n > (int)ARRAY_SIZE(r))
		n = ARRAY_SIZE(r);
	for (i = 0; i < n; i++)
		if (!r[i].xmin && !r[i].ymin && r[i].xmax == W - 1 &&
		    r[i].ymax == H - 1)
			return true;
	igt_info("%d drawing rectangles, none 0,0-%d,%d", n, W - 1, H - 1);
	return false;
}

static void run_step(step_fn fn, bool renders, bool draws)
{
	const struct gpu_rules *rules;
	struct step_arg arg;
	long long errors, batches;
	char why[512] = "";
	bool xfail_seen, xfail_ok;
	unsigned int bad;
	int fd, rc;

	if (!have_mesa())
		igt_skip("built without libgbm/libEGL/libGLESv2 (mesa -dev packages)");
	if (access("/mesa/dri/crocus_dri.so", R_OK) &&
	    !getenv("LIBGL_DRIVERS_PATH") &&
	    access("/usr/lib/x86_64-linux-gnu/dri/crocus_dri.so", R_OK))
		igt_skip("no Mesa DRI driver (scripts/vm/mkmesadisk.sh)");
	fd = drm_open_driver();
	rules = rules_for(gem_pci_id(fd));
	if (!rules)
		igt_skip("no Mesa driver known for 0x%04x", gem_pci_id(fd));
	gem_quiescent_gpu(fd);
	igt_assert_f(no_error_state(fd), "an error state before Mesa ran");
	errors = sim_cs_value("errors");
	batches = sim_cs_value("batches");
	igt_assert_f(errors >= 0 && batches >= 0,
		     "no i915_sim/<slot>/cs counters (%lld, %lld)", errors,
		     batches);

	igt_assert_ok(sim_drawrects_clear());

	trace = mmap(NULL, sizeof(*trace), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	igt_assert(trace != MAP_FAILED);
	setenv("MESA_SHADER_CACHE_DISABLE", "true", 1);
	arg = (struct step_arg){ rules, fn };
	trace->paused = false;
	rc = igt_wait(igt_fork(mesa_child, &arg));
	trace->paused = true;

	gem_quiescent_gpu(fd);
	sim_wait_idle();
	bad = trace_check(rules->devid, rules->xfail_nr, &xfail_seen,
			  &xfail_ok);
	batches = sim_cs_value("batches") - batches;
	errors = sim_cs_value("errors") - errors;
	igt_info("Mesa exited %d; the model ran %lld batches, %lld errors",
		 rc, batches, errors);

	if (rc)
		snprintf(why + strlen(why), sizeof(why) - strlen(why),
			 "Mesa's process exited %d; ", rc);
	if (bad)
		snprintf(why + strlen(why), sizeof(why) - strlen(why),
			 "%u failing ioctls not expected; ", bad);
	if (errors)
		snprintf(why + strlen(why), sizeof(why) - strlen(why),
			 "%lld command errors in the model; ", errors);
	if (!no_error_state(fd))
		snprintf(why + strlen(why), sizeof(why) - strlen(why),
			 "the driver captured an error state; ");
	if (renders && !rc && batches <= 0)
		snprintf(why + strlen(why), sizeof(why) - strlen(why),
			 "no batch reached the GPU; ");
	if (draws && !rc && !drew_target())
		snprintf(why + strlen(why), sizeof(why) - strlen(why),
			 "no drawing rectangle of the target executed; ");
	close(fd);

	if (rules->xfail) {
		if (!why[0] && xfail_ok)
			igt_fail("unexpected pass: %s works now, remove the "
				 "xfail of 0x%04x in gpu_rules[]",
				 ioctl_name(rules->xfail_nr), rules->devid);
		if (xfail_seen)
			igt_skip("expected failure: %s (%s failed; %s)",
				 rules->xfail, ioctl_name(rules->xfail_nr), why);
	}
	igt_assert_f(!why[0], "%s", why);
}

static void subtest_context(void)
{
	run_step(step_context, false, false);
}

static void subtest_clear(void)
{
	run_step(step_clear, true, false);
}

static void subtest_triangle(void)
{
	run_step(step_triangle, true, true);
}

static void subtest_texture(void)
{
	run_step(step_texture, true, true);
}

static void subtest_gbm_bo(void)
{
	run_step(step_gbm_bo, false, false);
}

static const struct igt_subtest tests[] = {
	SUBTEST(context),
	SUBTEST(clear),
	SUBTEST(triangle),
	SUBTEST(texture),
	SUBTEST(gbm_bo),
};

igt_main(tests)
