/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Unloading and loading the modules under test, for the programs that
 * take the driver (i915.ko) or the model (i915_sim.ko) away and must
 * leave both as the runner loaded them: I915_KO, SIM_KO and I915_ARGS
 * come from /etc/bench.conf (the guest's init writes it), the model's
 * GPUs from its ids parameter, remembered before anything is unloaded.
 *
 * A program calls module_require_model() or module_require_driver()
 * first: each skips when what it needs is missing, and makes the program
 * load whatever is missing again when it exits, also when a subtest
 * failed (only in the process that called it, not in forked children).
 */
#ifndef IGT_MODULES_H
#define IGT_MODULES_H

#include <stdbool.h>

/* /sys/module/<module> exists and the module finished loading */
bool module_loaded(const char *module);
/* rmmod without waiting: 0 or -errno (-EAGAIN while the module is busy) */
int module_unload(const char *module);
/* module_unload(), retried for up to @seconds while it answers -EAGAIN */
int module_unload_retry(const char *module, double seconds);
/*
 * insmod i915_sim.ko (with the remembered ids) and i915.ko where
 * missing, then wait up to 10 s for the driver's node: 0 or -errno.
 */
int module_load_missing(void);
/* Skip unless the model is loaded; remember its ids; reload at exit. */
void module_require_model(void);
/* Skip unless i915.ko can be loaded again; reload it at exit. */
void module_require_driver(void);

#endif
