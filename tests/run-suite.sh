#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/run-suite.sh - the test suite runner inside the bench VM (busybox
# sh; started by scripts/vm/init, configured by /etc/bench.conf).
#
# The simulated GPUs of $SIMS are loaded all at once (SIMS_TOGETHER=1,
# the default: insmod i915_sim.ko ids=0x2772,0x2a42, then i915.ko; the
# GPUs become card0 and card1) or one at a time (SIMS_TOGETHER=0).  For
# each such group G (its name: the ids joined by "+", e.g. 0x2772+0x2a42):
#   load-unload@G    twice, log clean: i915_sim.ko then i915.ko, rmmod
#                    i915 then i915_sim; and i915.ko then i915_sim.ko (the
#                    driver binds the GPUs as they appear), rmmod i915_sim
#                    first (a hot unplug: the cards go) then i915
#   TEST@SIM         for every program in $TESTS_DIR (sorted) and every GPU
#                    SIM of the group, with both modules loaded and
#                    I915_PCI_SLOT=<the GPU's PCI slot> in the program's
#                    environment (tests/lib opens that GPU): exit 0 =
#                    PASS, 77 = SKIP, else FAIL; also FAIL if that GPU's
#                    i915_gem_objects is not back to 0 objects after it
#                    exits, or if the kernel log gained a warning; a test
#                    that hangs the GPU leaves it working (the driver
#                    resets it; tests that wedge it with reset=0 recover
#                    it themselves); after a program whose name contains
#                    "unplug" (it removes the GPUs) both modules are
#                    reloaded
#   rmmod@G          kmemleak scan (if the kernel has kmemleak), then
#                    rmmod i915 and i915_sim must succeed and the log stay
#                    clean
# and, if the kernel has kmemleak, after the last unload:
#   kmemleak@final   one more scan, which must find nothing
# Any kernel-log hit is printed in full on the console.
#
# Results go to fd 3 (the host's result channel, see scripts/vm/init) as
#   PLAN <name>@<sim or group>   (all of them first)   and
#   RESULT <name>@<sim or group> PASS|FAIL|SKIP [why] (also on stdout)
# Test programs run with BENCH_OUT=/out in their environment: files left
# there reach the host (scripts/vm/run.sh --outdir).
#
# /etc/bench.conf may set:
#   SIMS          PCI ids to simulate (default "0x2772 0x2a42")
#   SIMS_TOGETHER 1: all of SIMS loaded at once (default); 0: one at a time
#   FILTER        only tests whose name matches one of these shell
#                 patterns (space separated; default all)
#   EXCLUDE       skip tests matching these patterns (they get no result);
#                 a pattern NAME@SIM (e.g. gem_foo@0x2a42) skips the test
#                 on that GPU only
#   TEST_TIMEOUT  seconds per test program before SIGKILL (default 600)
#   KMEMLEAK_WAIT seconds to wait before a kmemleak scan, so that the
#                 newest objects are past its min_age (default 6)
#   KMEMLEAK_SCANS scans per check (default 1)
#   I915_KO, SIM_KO, TESTS_DIR, I915_ARGS (extra arguments of insmod i915)

[ -r /etc/bench.conf ] && . /etc/bench.conf
SIMS=${SIMS:-"0x2772 0x2a42"}
SIMS_TOGETHER=${SIMS_TOGETHER:-1}
TESTS_DIR=${TESTS_DIR:-/tests}
TEST_TIMEOUT=${TEST_TIMEOUT:-600}
KMEMLEAK_WAIT=${KMEMLEAK_WAIT:-6}
KMEMLEAK_SCANS=${KMEMLEAK_SCANS:-1}
DEBUGFS=/sys/kernel/debug
export BENCH_OUT="${BENCH_OUT:-/out}"

# emit, result, log_clean, wait_for, load_gpus, unload_gpus, sim_slot,
# objects_left, list_tests...
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

# The other order: the driver first, then the GPUs appear; the model
# goes first, unplugging them.  Why on stdout on failure.
load_unload_driver_first() {
	local out id slot
	# shellcheck disable=SC2086
	out=$(insmod "$I915_KO" $I915_ARGS 2>&1) || { echo "insmod i915 failed: $out"; return 1; }
	out=$(insmod "$SIM_KO" ids="$(sim_ids "$@")" 2>&1) ||
		{ echo "insmod i915_sim after i915 failed: $out"; return 1; }
	for id in "$@"; do
		wait_card "$id" || return 1
	done
	out=$(rmmod i915_sim 2>&1) || { echo "rmmod i915_sim before i915 failed: $out"; return 1; }
	for id in "$@"; do
		slot=$(sim_slot "$id") && { echo "8086:$id still at $slot after rmmod i915_sim"; return 1; }
	done
	if grep -qs '^DRIVER=i915$' /sys/class/drm/card*/device/uevent; then
		echo "i915 cards left after rmmod i915_sim: $(ls /sys/class/drm)"
		return 1
	fi
	out=$(rmmod i915 2>&1) || { echo "rmmod i915 failed: $out"; return 1; }
}

test_load_unload() {
	local group="$1" i why=""
	shift
	for i in 1 2; do
		why=$(load_gpus "$@") || break
		why=$(unload_gpus) || break
		why=$(load_unload_driver_first "$@") || break
	done
	unload_gpus >/dev/null
	log_clean "load-unload@$group" || why="${why:+$why; }kernel log"
	if [ -n "$why" ]; then result "load-unload@$group FAIL $why"; else result "load-unload@$group PASS"; fi
}

run_test() {
	local t="$1" sim="$2" start rc why="" n slot
	echo "==== $t@$sim ===="
	start=$(now)
	if ! slot=$(sim_slot "$sim"); then
		result "$t@$sim FAIL no PCI function 8086:$sim"
		return
	fi
	I915_PCI_SLOT=$slot timeout -s KILL "$TEST_TIMEOUT" "$TESTS_DIR/$t" </dev/null
	rc=$?
	case $rc in
	0 | 77) ;;
	137) why="killed (timeout ${TEST_TIMEOUT}s?)" ;;
	*) why="exit $rc" ;;
	esac
	n=$(objects_left "$slot")
	if [ "$n" != 0 ]; then
		why="${why:+$why; }i915_gem_objects: $n objects left"
		cat "$(i915_debugfs "$slot")/i915_gem_objects" 2>/dev/null
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

# run_group GROUP SIM...: the suite with the GPUs SIM... loaded at once.
run_group() {
	local group="$1" sim t why
	shift
	test_load_unload "$group" "$@"
	if ! why=$(load_gpus "$@"); then
		log_clean "insmod@$group"
		for t in $TESTS; do
			for sim in "$@"; do
				matches "$t@$sim" "$EXCLUDE" ||
					result "$t@$sim FAIL not run: $why"
			done
		done
		result "rmmod@$group FAIL not run: $why"
		unload_gpus >/dev/null
		return
	fi
	log_clean "insmod@$group" || emit "BENCH-ERROR kernel log during insmod ids=$(sim_ids "$@")"
	for t in $TESTS; do
		for sim in "$@"; do
			matches "$t@$sim" "$EXCLUDE" && continue
			run_test "$t" "$sim"
			# A test that unplugs takes the GPUs away: give the next
			# test fresh devices.
			case $t in
			*unplug*) why=$(unload_gpus) && why=$(load_gpus "$@") ||
				emit "BENCH-ERROR reload after $t@$sim: $why" ;;
			esac
		done
	done
	why=
	kmemleak_clean || why="kmemleak"
	t=$(unload_gpus) || why="${why:+$why; }$t"
	log_clean "rmmod@$group" || why="${why:+$why; }kernel log"
	if [ -n "$why" ]; then result "rmmod@$group FAIL $why"; else result "rmmod@$group PASS"; fi
}

# for_each_group CMD...: CMD... GROUP SIM... for each group of GPUs that
# are loaded at once.
for_each_group() {
	local sim
	if [ "$SIMS_TOGETHER" = 1 ]; then
		# shellcheck disable=SC2086
		"$@" "$(echo $SIMS | tr ' ' '+')" $SIMS
	else
		for sim in $SIMS; do "$@" "$sim" "$sim"; done
	fi
}

plan_group() {
	local group="$1" sim t
	shift
	echo "PLAN load-unload@$group"
	for t in $TESTS; do
		for sim in "$@"; do
			matches "$t@$sim" "$EXCLUDE" || echo "PLAN $t@$sim"
		done
	done
	echo "PLAN rmmod@$group"
}

main() {
	[ -f "$I915_KO" ] || { emit "BENCH-ERROR $I915_KO missing"; return 1; }
	[ -f "$SIM_KO" ] || { emit "BENCH-ERROR $SIM_KO missing"; return 1; }
	TESTS=$(list_tests)
	[ -n "$TESTS" ] || { emit "BENCH-ERROR no test in $TESTS_DIR matches FILTER='$FILTER' EXCLUDE='$EXCLUDE'"; return 1; }
	for_each_group plan_group >&3
	[ -w $DEBUGFS/kmemleak ] && echo "PLAN kmemleak@final" >&3
	[ -w $DEBUGFS/kmemleak ] && echo clear >$DEBUGFS/kmemleak
	log_clean boot || emit "BENCH-ERROR kernel log at boot"
	for_each_group run_group
	if [ -w $DEBUGFS/kmemleak ]; then
		if kmemleak_clean; then result "kmemleak@final PASS"; else result "kmemleak@final FAIL"; fi
	fi
	echo "suite: finished in $(secs_since 0) since boot"
}

main
