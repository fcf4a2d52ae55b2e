// SPDX-License-Identifier: GPL-2.0
/*
 * Unloading and loading the modules under test (see modules.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "igt-lite.h"
#include "modules.h"

#define SIM_IDS		"/sys/module/i915_sim/parameters/ids"

static char sim_ids[256];	/* the model's ids when it was required */
static pid_t reload_owner;

bool module_loaded(const char *module)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/module/%s/initstate", module);
	return access(path, F_OK) == 0;
}

int module_unload(const char *module)
{
	return syscall(SYS_delete_module, module, O_NONBLOCK) ? -errno : 0;
}

int module_unload_retry(const char *module, double seconds)
{
	double t0 = igt_now();
	int ret;

	while ((ret = module_unload(module)) == -EAGAIN &&
	       igt_now() - t0 < seconds)
		igt_sleep_ms(10);
	return ret;
}

int module_load_missing(void)
{
	char cmd[1024];
	double t0 = igt_now();
	int fd;

	snprintf(cmd, sizeof(cmd),
		 "[ -r /etc/bench.conf ] && . /etc/bench.conf; "
		 "{ [ -d /sys/module/i915_sim ] || [ -z '%s' ] || "
		 "insmod \"${SIM_KO:-/i915_sim.ko}\" ids=%s; } && "
		 "{ [ -d /sys/module/i915 ] || "
		 "insmod \"${I915_KO:-/i915.ko}\" $I915_ARGS; }",
		 sim_ids, sim_ids);
	if (system(cmd))
		return -EIO;
	while ((fd = __drm_open_driver(false)) < 0) {
		if (igt_now() - t0 > 10)
			return fd;
		igt_sleep_ms(10);
	}
	close(fd);
	return 0;
}

/* Whatever happened, the next program finds the modules loaded. */
static void reload_at_exit(void)
{
	if (getpid() != reload_owner)
		return;
	if ((sim_ids[0] && !module_loaded("i915_sim")) ||
	    !module_loaded("i915")) {
		if (module_load_missing())
			fprintf(stderr, "  could not load the modules again\n");
	}
}

static void reload_on_exit(void)
{
	if (!reload_owner) {
		reload_owner = getpid();
		atexit(reload_at_exit);
	}
}

void module_require_model(void)
{
	FILE *f = fopen(SIM_IDS, "r");

	if (!f || !fgets(sim_ids, sizeof(sim_ids), f))
		igt_skip("no %s: the model is not loaded", SIM_IDS);
	fclose(f);
	sim_ids[strcspn(sim_ids, "\n")] = '\0';
	igt_assert(sim_ids[0]);
	/* the ids go into a shell command */
	igt_assert(strspn(sim_ids, "0123456789abcdefABCDEFx,") ==
		   strlen(sim_ids));
	reload_on_exit();
}

void module_require_driver(void)
{
	const char *ko = getenv("I915_KO");

	if (access(ko && *ko ? ko : "/i915.ko", R_OK))
		igt_skip("no i915.ko to load again (I915_KO)");
	reload_on_exit();
}
