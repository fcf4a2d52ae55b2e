#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/vm/guest-lib.sh - what the bench VM's guest programs share
# (busybox sh): the result channel, the kernel-log check and where the
# i915 device's debugfs files are.
# scripts/vm/mkinitramfs.sh installs it as /lib/guest-lib.sh; the suite
# (tests/run-suite.sh), the debug lane's guest.sh and the benchmark's
# run-bench.sh source it.
#
# Results go to fd 3, the host's result channel (scripts/vm/init), and to
# stdout; without fd 3 (a program started by hand) only to stdout.
# shellcheck shell=dash disable=SC3043

# What in the kernel log fails a run: warnings and crashes, lockdep,
# hung tasks, the bug finders of the debug kernel (KASAN, UBSAN,
# kmemleak, DEBUG_OBJECTS, DMA-API debugging, list and refcount checks)
# and a resource released twice.
KLOG_BAD='WARNING:|\bBUG\b|Oops|lockdep|possible circular|possible recursive|hung task|blocked for more than|general protection|KASAN|UBSAN|suspected memory leak|list_add corruption|list_del corruption|refcount_t|Call Trace|DEBUG_LOCKS_WARN|suspicious RCU|ODEBUG|DMA-API|INFO: |Trying to free nonexistent'
# What the debug options print when all is well.
KLOG_BENIGN='RCU lockdep checking is enabled|DMA-API: preallocated [0-9]+ debug entries|DMA-API: debugging enabled by kernel config|DMA-API: dma_debug_entry pool grown to'

[ -e /proc/self/fd/3 ] || exec 3>/dev/null

emit() {
	echo "$*"
	echo "$*" >&3
}

result() {
	emit "RESULT $*"
}

# log_clean WHAT: read and clear the kernel log since the last call;
# print it whole and fail if it holds anything from $KLOG_BAD, benign
# lines aside.
log_clean() {
	local what="$1" chunk
	chunk=$(dmesg -c)
	[ -n "$chunk" ] || return 0
	echo "$chunk" | grep -Ev "$KLOG_BENIGN" | grep -Eq "$KLOG_BAD" || return 0
	echo "---- kernel log during $what ----"
	echo "$chunk"
	echo "---- end of kernel log during $what ----"
	return 1
}

# wait_for PATH: up to 10 s for PATH to appear.
wait_for() {
	local i=0
	while [ ! -e "$1" ] && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	[ -e "$1" ]
}

# i915_debugfs: the DRM debugfs directory of the i915 device, found by
# driver name (another DRM driver, e.g. vgem loaded at boot, may be
# minor 0); /sys/kernel/debug/dri/0 when none answers.
i915_debugfs() {
	local d
	for d in /sys/kernel/debug/dri/*; do
		case $(cat "$d/name" 2>/dev/null) in
		"i915 "*) echo "$d"; return ;;
		esac
	done
	echo /sys/kernel/debug/dri/0
}
