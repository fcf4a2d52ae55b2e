#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/run-suite.sh - the test suite runner inside the bench VM (busybox
# sh; started by scripts/vm/init, configured by /etc/bench.conf).
#
# For each simulated GPU in $SIMS:
#   load-unload@SIM  insmod i915.ko sim=SIM / rmmod, twice, log clean
#   TEST@SIM         for every program in $TESTS_DIR (sorted), with the
#                    module loaded: exit 0 = PASS, 77 = SKIP, else FAIL;
#                    also FAIL if i915_gem_objects is not back to 0 objects
#                    after it exits, or if the kernel log gained a warning
#                    (a test that hangs the GPU leaves it working: the
#                    driver resets it, and tests that wedge it with
#                    reset=0 recover it themselves)
#   rmmod@SIM        kmemleak scan (if the kernel has kmemleak), then
#                    rmmod i915 must succeed and the log stay clean
# and, if the kernel has kmemleak, after the last unload:
#   kmemleak@final   one more scan, which must find nothing
# Any kernel-log hit is printed in full on the console.
#
# Results go to fd 3 (the host's result channel, see scripts/vm/init) as
#   PLAN <name>@<sim>   (all of them first)   and
#   RESULT <name>@<sim> PASS|FAIL|SKIP [why] (also on stdout)
# Test programs run with BENCH_OUT=/out in their environment: files left
# there reach the host (scripts/vm/run.sh --outdir).
#
# /etc/bench.conf may set:
#   SIMS          PCI ids to simulate (default "0x2772 0x2a42")
#   FILTER        only tests whose name matches one of these shell
#                 patterns (space separated; default all)
#   EXCLUDE       skip tests matching these patterns (they get no result)
#   TEST_TIMEOUT  seconds per test program before SIGKILL (default 600)
#   KMEMLEAK_WAIT seconds to wait before a kmemleak scan, so that the
#                 newest objects are past its min_age (default 6)
#   KMEMLEAK_SCANS scans per check (default 1)
#   I915_KO, TESTS_DIR, I915_ARGS (extra insmod arguments)

[ -r /etc/bench.conf ] && . /etc/bench.conf
SIMS=${SIMS:-"0x2772 0x2a42"}
TESTS_DIR=${TESTS_DIR:-/tests}
I915_KO=${I915_KO:-/i915.ko}
TEST_TIMEOUT=${TEST_TIMEOUT:-600}
I915_ARGS=${I915_ARGS:-}
KMEMLEAK_WAIT=${KMEMLEAK_WAIT:-6}
KMEMLEAK_SCANS=${KMEMLEAK_SCANS:-1}
DEBUGFS=/sys/kernel/debug
export BENCH_OUT="${BENCH_OUT:-/out}"

# emit, result, log_clean, wait_for
. /lib/guest-lib.sh

# Centiseconds since boot.
now() {
	local u
	u=$(cut -d' ' -f1 /proc/uptime)
	echo "${u%.*}${u#*.}"
}

secs_since() {
	local d=$(($(now) - $1))
	printf '%d.%02ds' $((d / 100)) $((d % 100))
}

matches() {
	local name="$1" pats="$2" p
	for p in $pats; do
		# shellcheck disable=SC2254
		case $name in $p) return 0 ;; esac
	done
	return 1
}

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

# insmod with sim=$1; why on stdout on failure.
load() {
	local out
	# shellcheck disable=SC2086
	if ! out=$(insmod "$I915_KO" sim="$1" $I915_ARGS 2>&1); then
		echo "insmod failed: $out"
		return 1
	fi
	wait_for /dev/dri/card0 || { echo "no /dev/dri/card0 after insmod"; return 1; }
	wait_for /dev/dri/renderD128 || { echo "no /dev/dri/renderD128 after insmod"; return 1; }
}

unload() {
	local out
	out=$(rmmod i915 2>&1) || { echo "rmmod failed: $out"; return 1; }
}

# Object count: first token of the first line of i915_gem_objects, retried
# for up to 2 s in case the driver frees objects from a worker.
objects_left() {
	local f i=0 n
	f=$(i915_debugfs)/i915_gem_objects
	[ -r "$f" ] || { echo "missing"; return; }
	while :; do
		n=$(head -n 1 "$f" | cut -d' ' -f1)
		[ "$n" = 0 ] || [ $i -ge 20 ] && break
		sleep 0.1
		i=$((i + 1))
	done
	echo "$n"
}

# With kmemleak in the kernel: wait until new objects are old enough to
# be reported, scan, print and clear what it found; fail if anything.
kmemleak_clean() {
	local f=$DEBUGFS/kmemleak leaks i=0
	[ -w "$f" ] || return 0
	sleep "$KMEMLEAK_WAIT"
	while [ $i -lt "$KMEMLEAK_SCANS" ]; do
		echo scan >"$f"
		i=$((i + 1))
	done
	leaks=$(cat "$f")
	echo clear >"$f"
	[ -z "$leaks" ] && return 0
	echo "---- kmemleak ----"
	echo "$leaks"
	echo "---- end of kmemleak ----"
	return 1
}

test_load_unload() {
	local sim="$1" i why=""
	for i in 1 2; do
		why=$(load "$sim") || break
		why=$(unload) || break
	done
	log_clean "load-unload@$sim" || why="${why:+$why; }kernel log"
	if [ -n "$why" ]; then result "load-unload@$sim FAIL $why"; else result "load-unload@$sim PASS"; fi
}

run_test() {
	local t="$1" sim="$2" start rc why="" n
	echo "==== $t@$sim ===="
	start=$(now)
	timeout -s KILL "$TEST_TIMEOUT" "$TESTS_DIR/$t" </dev/null
	rc=$?
	case $rc in
	0 | 77) ;;
	137) why="killed (timeout ${TEST_TIMEOUT}s?)" ;;
	*) why="exit $rc" ;;
	esac
	n=$(objects_left)
	if [ "$n" != 0 ]; then
		why="${why:+$why; }i915_gem_objects: $n objects left"
		cat "$(i915_debugfs)/i915_gem_objects" 2>/dev/null
	fi
	log_clean "$t@$sim" || why="${why:+$why; }kernel log"
	if [ -n "$why" ]; then
		result "$t@$sim FAIL $(secs_since "$start") $why"
	elif [ $rc = 77 ]; then
		result "$t@$sim SKIP $(secs_since "$start")"
	else
		result "$t@$sim PASS $(secs_since "$start")"
	fi
}

run_sim() {
	local sim="$1" t why
	test_load_unload "$sim"
	if ! why=$(load "$sim"); then
		log_clean "insmod@$sim"
		for t in $TESTS; do result "$t@$sim FAIL not run: $why"; done
		result "rmmod@$sim FAIL not run: $why"
		return
	fi
	log_clean "insmod@$sim" || emit "BENCH-ERROR kernel log during insmod sim=$sim"
	for t in $TESTS; do
		run_test "$t" "$sim"
	done
	why=
	kmemleak_clean || why="kmemleak"
	t=$(unload) || why="${why:+$why; }$t"
	log_clean "rmmod@$sim" || why="${why:+$why; }kernel log"
	if [ -n "$why" ]; then result "rmmod@$sim FAIL $why"; else result "rmmod@$sim PASS"; fi
}

main() {
	local sim t
	[ -f "$I915_KO" ] || { emit "BENCH-ERROR $I915_KO missing"; return 1; }
	TESTS=$(list_tests)
	[ -n "$TESTS" ] || { emit "BENCH-ERROR no test in $TESTS_DIR matches FILTER='$FILTER' EXCLUDE='$EXCLUDE'"; return 1; }
	for sim in $SIMS; do
		echo "PLAN load-unload@$sim"
		for t in $TESTS; do echo "PLAN $t@$sim"; done
		echo "PLAN rmmod@$sim"
	done >&3
	[ -w $DEBUGFS/kmemleak ] && echo "PLAN kmemleak@final" >&3
	[ -w $DEBUGFS/kmemleak ] && echo clear >$DEBUGFS/kmemleak
	log_clean boot || emit "BENCH-ERROR kernel log at boot"
	for sim in $SIMS; do
		run_sim "$sim"
	done
	if [ -w $DEBUGFS/kmemleak ]; then
		if kmemleak_clean; then result "kmemleak@final PASS"; else result "kmemleak@final FAIL"; fi
	fi
	echo "suite: finished in $(secs_since 0) since boot"
}

main
