#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# scripts/igt/guest.sh - runs igt's test binaries inside the bench VM
# (busybox sh; scripts/igt/run.sh passes it to scripts/vm/run.sh --script,
# the binaries as --tests, vgem loaded with --kmod vgem as igt's CI does).
#
# Both simulated GPUs of $SIMS are loaded at once (card0, card1 besides
# vgem's card).  For every binary in /tests (sorted, FILTER/EXCLUDE as
# tests/run-suite.sh) and every GPU, the binary runs whole with
# IGT_DEVICE=drm:/dev/dri/cardN of that GPU (then the other GPUs' cards,
# ";"-separated: igt's multigpu-* subtests use them), under IGT_TIMEOUT seconds
# (SIGKILL, then every process of the binary: its igt_fork children), its
# output in /out/igt/<gpu>/<binary>.log; then that GPU's
# i915_gem_objects must be back to 0 (within about 15 s: a killed
# binary's spinner ends at the next hangcheck reset) and the kernel log
# clean, both blamed on the binary.  After a binary that did not exit 0
# (pass) or 77 (skip), left objects or dirtied the log, both modules are
# reloaded, so that the next binary finds fresh GPUs.
#
# Results on fd 3 (the host's channel, see scripts/vm/init):
#   RESULT <binary>@<gpu> PASS <secs> exit <rc>   the binary ran to its end
#                                                 (its subtests are judged
#                                                 on the host, against the
#                                                 lists in tests/igt/)
#   RESULT <binary>@<gpu> SKIP <secs>             exit 77: all skipped
#   RESULT <binary>@<gpu> FAIL <secs> why         killed (timeout), left
#                                                 objects, kernel log, or
#                                                 the modules would not
#                                                 reload
# and /out/igt/<gpu>/<binary>.{log,status} (status: "rc secs why").
#
# /etc/bench.conf: SIMS, FILTER, EXCLUDE (as tests/run-suite.sh),
# IGT_TIMEOUT (seconds per binary, default 600), IGT_ARGS_<binary>
# (extra arguments of that binary, e.g. subtest filters; see run.sh).

# shellcheck shell=dash disable=SC3043,SC1091
[ -r /etc/bench.conf ] && . /etc/bench.conf
SIMS=${SIMS:-"0x2772 0x2a42"}
TESTS_DIR=${TESTS_DIR:-/tests}
IGT_TIMEOUT=${IGT_TIMEOUT:-600}
OUT=/out/igt

# emit, result, log_clean, load_gpus, unload_gpus, sim_slot, objects_left,
# list_tests
. /lib/guest-lib.sh

# gpu_name ID: the name of the lists in tests/igt/ (945g, gm45).
gpu_name() {
	case $1 in
	0x2772) echo 945g ;;
	0x2a42) echo gm45 ;;
	*) echo "$1" ;;
	esac
}

# card_of SLOT: the primary node (card1...) of the GPU at PCI slot SLOT.
card_of() {
	local d
	for d in "/sys/bus/pci/devices/$1"/drm/card*; do
		[ -e "$d" ] && { echo "${d##*/}"; return 0; }
	done
	return 1
}

# Seconds since boot, whole.
now() {
	cut -d' ' -f1 /proc/uptime | cut -d. -f1
}

# run_binary BINARY SIM: one binary on one GPU; non-zero if the modules
# must be reloaded after it.
run_binary() {
	local t="$1" sim="$2" gpu slot card start rc why="" n i args devs other oslot ocard left
	gpu=$(gpu_name "$sim")
	mkdir -p "$OUT/$gpu"
	echo "==== $t@$gpu ===="
	start=$(now)
	if ! slot=$(sim_slot "$sim") || ! card=$(card_of "$slot"); then
		result "$t@$gpu FAIL 0s no card for 8086:$sim"
		echo "- 0 no card" >"$OUT/$gpu/$t.status"
		return 1
	fi
	# the GPU under test first; the others for igt's multigpu-* subtests
	devs=drm:/dev/dri/$card
	for other in $SIMS; do
		[ "$other" != "$sim" ] || continue
		oslot=$(sim_slot "$other") && ocard=$(card_of "$oslot") &&
			devs="$devs;drm:/dev/dri/$ocard"
	done
	eval "args=\${IGT_ARGS_$t:-}"
	set -f	# igt's subtest wildcards are its own
	# shellcheck disable=SC2086
	IGT_DEVICE=$devs timeout -s KILL "$IGT_TIMEOUT" \
		"$TESTS_DIR/$t" $args </dev/null >"$OUT/$gpu/$t.log" 2>&1
	rc=$?
	set +f
	# children igt forked (igt_fork) outlive a killed parent: they would
	# go on running and hold the device open
	left=$(kill_program "$TESTS_DIR/$t")
	# what people read on the console: the verdicts and failures
	grep -E '^(Subtest|Dynamic subtest) .*: (FAIL|CRASH|TIMEOUT)|^Received signal|^Stack trace' \
		"$OUT/$gpu/$t.log"
	[ $rc = 137 ] && why="killed after ${IGT_TIMEOUT}s (timeout)"
	[ "$left" = 0 ] ||
		why="${why:+$why; }$left of its processes still there 10 s after SIGKILL"
	n=$(objects_left "$slot")
	# a killed binary's last batch (igt's spinner) ends when hangcheck
	# resets it, some seconds after its file closes (upstream: within its
	# heartbeat); objects_left waits 2 s, give it about 15 s in all
	i=0
	while [ "$n" != 0 ] && [ "$n" != missing ] && [ $i -lt 5 ]; do
		sleep 1
		n=$(objects_left "$slot")
		i=$((i + 1))
	done
	if [ "$n" = missing ]; then
		why="${why:+$why; }the GPU has no i915_gem_objects after it (gone?)"
	elif [ "$n" != 0 ]; then
		why="${why:+$why; }i915_gem_objects: $n objects left"
		cat "$(i915_debugfs "$slot")/i915_gem_objects" 2>/dev/null
	fi
	log_clean "$t@$gpu" || why="${why:+$why; }kernel log"
	echo "$rc $(($(now) - start)) $why" >"$OUT/$gpu/$t.status"
	if [ -n "$why" ]; then
		result "$t@$gpu FAIL $(($(now) - start))s $why"
	elif [ $rc = 77 ]; then
		result "$t@$gpu SKIP $(($(now) - start))s"
	else
		result "$t@$gpu PASS $(($(now) - start))s exit $rc"
	fi
	[ -z "$why" ] && { [ $rc = 0 ] || [ $rc = 77 ]; }
}

# reload SIM...: unload both modules, retried for 30 s while the killed
# binary's processes still hold the device, and load them again; why on
# stdout on failure (the run goes on with what is loaded).
reload() {
	local i=0 why
	while ! why=$(unload_gpus); do
		i=$((i + 1))
		[ $i -lt 30 ] || { echo "$why"; return 1; }
		sleep 1
	done
	load_gpus "$@"
}

main() {
	local tests t sim why
	tests=$(list_tests)
	[ -n "$tests" ] || { emit "BENCH-ERROR no igt binary matches FILTER='$FILTER' EXCLUDE='$EXCLUDE'"; return 1; }
	for t in $tests; do
		for sim in $SIMS; do echo "PLAN $t@$(gpu_name "$sim")"; done
	done >&3
	log_clean boot || emit "BENCH-ERROR kernel log at boot"
	# shellcheck disable=SC2086
	if ! why=$(load_gpus $SIMS); then
		emit "BENCH-ERROR cannot load the GPUs: $why"
		return 1
	fi
	log_clean insmod || emit "BENCH-ERROR kernel log during insmod"
	for t in $tests; do
		for sim in $SIMS; do
			run_binary "$t" "$sim" && continue
			# shellcheck disable=SC2086
			why=$(reload $SIMS) ||
				emit "BENCH-ERROR reload after $t@$(gpu_name "$sim"): $why"
			log_clean "reload after $t" ||
				emit "BENCH-ERROR kernel log while reloading after $t@$(gpu_name "$sim")"
		done
	done
	why=$(unload_gpus) || emit "BENCH-ERROR at the end: $why"
	log_clean rmmod || emit "BENCH-ERROR kernel log at rmmod"
	echo "igt: finished in $(now) s since boot"
}

main
rc=$?
# the logs travel as one compressed file, whatever happened
[ -d "$OUT" ] && tar -C /out -czf /out/igt.tar.gz igt && rm -rf "$OUT"
exit $rc
