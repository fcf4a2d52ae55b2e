#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/debugkernel/guest.sh - the debug lane's guest program (busybox
# sh), run by scripts/vm/init in place of tests/run-suite.sh, which
# scripts/debugkernel/lane.sh puts in the image as /suite.sh.
#
#   debug-kernel@boot  the bug finders are really there: KASAN initialized,
#                      lockdep, kmemleak, fault injection, UBSAN in the
#                      config; the boot log is clean
#   (the suite)        /suite.sh: every test on every simulated GPU, with
#                      a kmemleak scan before each rmmod
#   churn@SIM          CHURN_CYCLES times: insmod i915_sim.ko ids=SIM and
#                      i915.ko, workers (/tests/fault_exit --worker) killed
#                      with SIGKILL in the middle of their work, rmmod at
#                      once: i915 then i915_sim in odd cycles, i915_sim
#                      first in even ones (a hot unplug under the dying
#                      clients); log clean
#   kmemleak@churn     a kmemleak scan after the last rmmod of the cycles:
#                      must be empty (the suite scans after its own as
#                      kmemleak@final)
#
# Results go to fd 3 like the suite's (PLAN / RESULT lines).
# shellcheck shell=dash disable=SC3028,SC1091
[ -r /etc/bench.conf ] && . /etc/bench.conf
SIMS=${SIMS:-"0x2772 0x2a42"}
CHURN_CYCLES=${CHURN_CYCLES:-4}
WORKER=/tests/fault_exit
DEBUGFS=/sys/kernel/debug
KMEMLEAK=$DEBUGFS/kmemleak

# emit, result, log_clean (the kernel-log check, debug reports included),
# wait_for, load_gpus, i915_debugfs
. /lib/guest-lib.sh

# Scan (twice: an object is reported once it is 5 s old and was found
# unreferenced) and print what kmemleak holds; fails if anything.
kmemleak_clean() {
	local leaks
	echo scan >"$KMEMLEAK"
	sleep 5
	echo scan >"$KMEMLEAK"
	leaks=$(cat "$KMEMLEAK")
	echo clear >"$KMEMLEAK"
	[ -z "$leaks" ] && return 0
	echo "---- kmemleak ----"
	echo "$leaks"
	echo "---- end of kmemleak ----"
	return 1
}

check_kernel() {
	local why=
	dmesg | grep -q 'KernelAddressSanitizer initialized' || why="$why no KASAN;"
	[ -e /proc/lockdep ] || why="$why no lockdep;"
	[ -w "$KMEMLEAK" ] || why="$why no kmemleak;"
	[ -d $DEBUGFS/failslab ] && [ -d $DEBUGFS/fail_page_alloc ] ||
		why="$why no fault injection;"
	zcat /proc/config.gz 2>/dev/null | grep -q '^CONFIG_UBSAN=y' || why="$why no UBSAN;"
	zcat /proc/config.gz 2>/dev/null | grep -q '^CONFIG_DEBUG_OBJECTS=y' || why="$why no DEBUG_OBJECTS;"
	if [ -w "$KMEMLEAK" ]; then
		# no scan thread: scans happen when the bench asks for them
		echo scan=off >"$KMEMLEAK"
	fi
	# The boot itself must be clean, with the debug options' benign boot
	# lines ("RCU lockdep checking is enabled") aside.
	log_clean boot || why="$why boot log;"
	echo "debug kernel: $(uname -r): $(grep -c . /proc/lockdep 2>/dev/null) lock classes at boot"
	if [ -n "$why" ]; then result "debug-kernel@boot FAIL$why"; else result "debug-kernel@boot PASS"; fi
}

# rmmod $1, retried while the killed workers' files are still being
# closed.
unload() {
	local i=0 out
	while ! out=$(rmmod "$1" 2>&1); do
		i=$((i + 1))
		if [ $i -ge 50 ]; then
			echo "rmmod failed: $out"
			return 1
		fi
		sleep 0.1
	done
}

churn() {
	local sim=$1 cycle=0 why='' pids p nw ms out
	dmesg -c >/dev/null
	while [ $cycle -lt "$CHURN_CYCLES" ]; do
		cycle=$((cycle + 1))
		if ! out=$(load_gpus "$sim"); then
			why="cycle $cycle: $out"
			break
		fi
		pids=
		nw=$((1 + cycle % 3))
		for p in $(seq "$nw"); do
			"$WORKER" --worker >/dev/null 2>&1 &
			pids="$pids $!"
		done
		ms=$((300 + RANDOM % 1500))
		sleep "$((ms / 1000)).$(printf %03d $((ms % 1000)))"
		echo "churn@$sim cycle $cycle: $nw workers killed after ${ms} ms," \
			"$(head -n 1 "$(i915_debugfs)"/i915_gem_objects 2>/dev/null)"
		for p in $pids; do
			kill -0 "$p" 2>/dev/null || why="${why:+$why; }cycle $cycle: a worker died before the kill"
			kill -9 "$p" 2>/dev/null
		done
		for p in $pids; do wait "$p" 2>/dev/null; done
		if [ $((cycle % 2)) = 0 ]; then
			out=$(unload i915_sim) && out=$(unload i915)
		else
			out=$(unload i915) && out=$(unload i915_sim)
		fi || { why="${why:+$why; }cycle $cycle: $out"; break; }
		log_clean "churn@$sim cycle $cycle" || { why="${why:+$why; }cycle $cycle: kernel log"; break; }
	done
	if [ -n "$why" ]; then result "churn@$sim FAIL $why"; else result "churn@$sim PASS"; fi
}

main() {
	local sim rc why=
	{
		echo "PLAN debug-kernel@boot"
		if [ "$CHURN_CYCLES" -gt 0 ] && [ -x "$WORKER" ]; then
			for sim in $SIMS; do echo "PLAN churn@$sim"; done
		fi
		[ "$CHURN_CYCLES" -gt 0 ] && [ -x "$WORKER" ] && echo "PLAN kmemleak@churn"
	} >&3
	check_kernel
	sh /suite.sh
	rc=$?
	if [ "$CHURN_CYCLES" -gt 0 ] && [ -x "$WORKER" ]; then
		lsmod | grep -q '^i915 ' && { emit "BENCH-ERROR i915 still loaded after the suite"; rmmod i915; }
		lsmod | grep -q '^i915_sim ' && { emit "BENCH-ERROR i915_sim still loaded after the suite"; rmmod i915_sim; }
		# the suite reported its leaks already; these are the cycles'
		[ -w "$KMEMLEAK" ] && { echo scan >"$KMEMLEAK"; echo clear >"$KMEMLEAK"; }
		for sim in $SIMS; do
			churn "$sim"
		done
		log_clean "the cycles" || why="$why kernel log;"
		if [ -w "$KMEMLEAK" ]; then
			kmemleak_clean || why="$why kmemleak;"
		else
			why="$why no kmemleak;"
		fi
		if [ -n "$why" ]; then result "kmemleak@churn FAIL$why"; else result "kmemleak@churn PASS"; fi
	fi
	echo "debug lane: guest finished in $(cut -d' ' -f1 /proc/uptime) s since boot"
	return $rc
}

main
