#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/vm/guest-lib.sh - what the bench VM's guest programs share
# (busybox sh): the result channel, the kernel-log check, loading the
# model (i915_sim.ko ids=...) and the driver (i915.ko), where each
# simulated GPU and its debugfs files are, and which test programs to run.
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

I915_KO=${I915_KO:-/i915.ko}
SIM_KO=${SIM_KO:-/i915_sim.ko}
I915_ARGS=${I915_ARGS:-}

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

# i915_debugfs [SLOT]: the DRM debugfs directory of the i915 device on
# PCI function SLOT (default $I915_PCI_SLOT, else the first i915 device),
# found by its "name" file (another DRM driver, e.g. vgem loaded at boot,
# may be minor 0); /sys/kernel/debug/dri/0 when none answers.
i915_debugfs() {
	local d slot=${1:-${I915_PCI_SLOT:-}}
	# the first line of "name": "i915 dev=<PCI slot> [master=...]"
	for d in /sys/kernel/debug/dri/*; do
		case $(cat "$d/name" 2>/dev/null) in
		"i915 dev=$slot"*) echo "$d"; return ;;
		esac
	done
	echo /sys/kernel/debug/dri/0
}

# objects_left SLOT: the object count of the i915 device on PCI slot SLOT
# (first token of the first line of its i915_gem_objects), retried for up
# to 2 s in case the driver frees objects from a worker; "missing" if the
# file is not there.
objects_left() {
	local f i=0 n
	f=$(i915_debugfs "$1")/i915_gem_objects
	[ -r "$f" ] || { echo "missing"; return; }
	while :; do
		n=$(head -n 1 "$f" | cut -d' ' -f1)
		[ "$n" = 0 ] || [ $i -ge 20 ] && break
		sleep 0.1
		i=$((i + 1))
	done
	echo "$n"
}

# kill_program PATH: SIGKILL every process whose argv[0] is PATH (a killed
# binary's forked children: igt_fork), again until none is left (a child
# may fork while it dies), for up to about 10 s; the number of processes
# still there on stdout.  Debian's busybox has no pkill or pgrep.
kill_program() {
	local p n i=0
	while :; do
		n=0
		for p in /proc/[0-9]*; do
			# a process that ended meanwhile has no cmdline
			[ "$({ tr '\0' '\n' <"$p/cmdline"; } 2>/dev/null |
				head -n 1)" = "$1" ] || continue
			kill -KILL "${p##*/}" 2>/dev/null
			n=$((n + 1))
		done
		[ $n = 0 ] || [ $i -ge 100 ] && break
		sleep 0.1
		i=$((i + 1))
	done
	echo "$n"
}

# sim_ids ID...: the ids= argument of i915_sim.ko, "0x2772,0x2a42".
sim_ids() {
	echo "$*" | tr ' ' ','
}

# sim_slot ID: the PCI slot name (e.g. ffff:00:02.0) of the simulated GPU
# with PCI device id ID; fails if there is none.
sim_slot() {
	local d want
	want=$(printf '0x%04x' "$1")
	for d in /sys/bus/pci/devices/*; do
		[ "$(cat "$d/vendor" 2>/dev/null)" = 0x8086 ] || continue
		[ "$(cat "$d/device" 2>/dev/null)" = "$want" ] || continue
		[ "$(cat "$d/class" 2>/dev/null)" = 0x030000 ] || continue
		echo "${d##*/}"
		return 0
	done
	return 1
}

# wait_card ID: the simulated GPU ID is bound, with its primary and render
# nodes in /dev/dri; why on stdout on failure.
wait_card() {
	local slot i=0 n d
	slot=$(sim_slot "$1") || { echo "no PCI function 8086:$1"; return 1; }
	while [ $i -lt 100 ]; do
		n=0
		for d in "/sys/bus/pci/devices/$slot"/drm/card* \
			"/sys/bus/pci/devices/$slot"/drm/renderD*; do
			[ -e "/dev/dri/${d##*/}" ] && n=$((n + 1))
		done
		[ $n = 2 ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	echo "$slot (8086:$1) has no /dev/dri nodes"
	return 1
}

# load_gpus ID...: insmod i915_sim.ko ids=ID,... then i915.ko, and wait
# until every GPU is bound; why on stdout on failure.
load_gpus() {
	local out id
	if ! out=$(insmod "$SIM_KO" ids="$(sim_ids "$@")" 2>&1); then
		echo "insmod i915_sim failed: $out"
		return 1
	fi
	# shellcheck disable=SC2086
	if ! out=$(insmod "$I915_KO" $I915_ARGS 2>&1); then
		echo "insmod i915 failed: $out"
		return 1
	fi
	for id in "$@"; do
		wait_card "$id" || return 1
	done
}

# unload_gpus: rmmod i915, then i915_sim; why on stdout on failure.
unload_gpus() {
	local out
	if [ -d /sys/module/i915 ] && ! out=$(rmmod i915 2>&1); then
		echo "rmmod i915 failed: $out"
		return 1
	fi
	if [ -d /sys/module/i915_sim ] && ! out=$(rmmod i915_sim 2>&1); then
		echo "rmmod i915_sim failed: $out"
		return 1
	fi
}

# matches NAME "PATTERNS": NAME matches one of the glob PATTERNS.
# The patterns are split on blanks but not expanded against the guest's
# current directory ("mesa*" is not the /mesa mount point).
matches() {
	local name="$1" pats="$2" p
	set -f
	for p in $pats; do
		# shellcheck disable=SC2254
		case $name in $p) set +f; return 0 ;; esac
	done
	set +f
	return 1
}

# list_tests: the executables in $TESTS_DIR that match $FILTER (if set)
# and not $EXCLUDE (if set), one name a line.
list_tests() {
	local f n
	for f in "$TESTS_DIR"/*; do
		[ -f "$f" ] && [ -x "$f" ] || continue
		n=${f##*/}
		[ -n "$FILTER" ] && ! matches "$n" "$FILTER" && continue
		[ -n "$EXCLUDE" ] && matches "$n" "$EXCLUDE" && continue
		echo "$n"
	done
}
