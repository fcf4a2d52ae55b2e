# SPDX-License-Identifier: GPL-2.0
#
# Out-of-tree build of i915.ko (the driver, i915/) and i915_sim.ko (the
# GPU model, sim/; "make I915_SIM=n" leaves it out).  "make" builds
# against the running Debian 6.1 headers (or KDIR=); "make lint" runs
# W=1, sparse, checkpatch, kernel-doc and scripts/check-docs.sh;
# "make check" runs the VM test suite; "make demo" the demo; "make bench"
# the benchmarks (bench-out/bench.txt); "make dkms-deb" the Debian DKMS
# package (dkms-out/i915gem-dkms_<version>_all.deb, version in dkms.conf);
# "make igt" igt-gpu-tools' tests in the VM against tests/igt/'s lists
# (IGT_UPDATE=1 rewrites the lists from the run; IGT_TARBALL=).

KVER ?= $(shell scripts/kver.sh)
KDIR ?= /usr/src/linux-headers-$(KVER)
LINUX_SRC ?= /usr/src/linux-source-6.1
PWD := $(shell pwd)

SRCS := $(filter-out %.mod.c,$(wildcard i915/*.[ch] sim/*.[ch] include/*.h))

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(PWD) modules

clean:
	$(MAKE) -C $(KDIR) M=$(PWD) clean
	$(MAKE) -C tests clean
	rm -rf dkms-out

tests:
	$(MAKE) -C tests

# W=1 and sparse must be silent; checkpatch --strict must pass; kernel-doc
# must not warn; Documentation/ must match the tree (scripts/check-docs.sh).
lint:
	$(MAKE) -C $(KDIR) M=$(PWD) clean
	$(MAKE) -C $(KDIR) M=$(PWD) W=1 C=2 modules 2>&1 | tee .lint.log
	@! grep -E 'warning:|error:' .lint.log
	$(LINUX_SRC)/scripts/checkpatch.pl --strict --no-tree --terse \
		--ignore FILE_PATH_CHANGES,SPDX_LICENSE_TAG -f $(SRCS)
	$(LINUX_SRC)/scripts/kernel-doc -none $(SRCS) 2>&1 | \
		tee .kdoc.log; ! test -s .kdoc.log
	LINUX_SRC=$(LINUX_SRC) scripts/check-docs.sh

deps:
	scripts/install-deps.sh

check:
	scripts/check.sh

demo:
	scripts/demo.sh

bench:
	scripts/bench.sh

dkms-deb:
	scripts/dkms-deb.sh

igt: modules
	scripts/igt/run.sh $(if $(filter-out 0,$(IGT_UPDATE)),--update)

.PHONY: all modules clean tests lint deps check demo bench dkms-deb igt
