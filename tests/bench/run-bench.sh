#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/bench/run-bench.sh - the guest program of `make bench` (busybox
# sh; scripts/bench.sh hands it to scripts/vm/run.sh --script, which
# makes it /run-suite.sh in the VM).
#
# vgem (the reference GEM driver) is loaded at boot (run.sh --kmod vgem).
# For each simulated GPU in $SIMS: insmod i915_sim.ko ids=SIM and
# i915.ko, run /tests/gem_bench, rmmod both.  Results
# go to fd 3 as for the suite:
#   RESULT bench@SIM PASS|FAIL [why]
# FAIL when the client exits non-zero (a result it could not verify), or
# when the kernel log gained a warning.  Every client's table is
# collected in /out/bench.txt, which scripts/vm/run.sh --outdir brings
# back to the host.
#
# /etc/bench.conf may set SIMS, BENCH_SAMPLE_S (seconds per sample),
# BENCH_ONLY (goals: the references and issue 13's goals only),
# BENCH_TIMEOUT (seconds per client, default 900), I915_ARGS.

[ -r /etc/bench.conf ] && . /etc/bench.conf
SIMS=${SIMS:-"0x2772 0x2a42"}
BENCH_TIMEOUT=${BENCH_TIMEOUT:-900}
BIN=/tests/gem_bench
OUT=/out/bench.txt
export BENCH_SAMPLE_S BENCH_ONLY

# emit, log_clean (the suite's kernel-log check), load_gpus, unload_gpus
. /lib/guest-lib.sh

run_sim() {
	local sim=$1 why="" rc out
	out=/tmp/bench-$sim.txt
	if ! why=$(load_gpus "$sim"); then
		emit "RESULT bench@$sim FAIL $why"
		unload_gpus >/dev/null
		return
	fi
	log_clean "insmod@$sim" || why="${why:+$why; }kernel log"
	if [ -z "$why" ]; then
		echo "==== bench@$sim ===="
		timeout -s KILL "$BENCH_TIMEOUT" "$BIN" </dev/null >"$out" 2>&1
		rc=$?
		cat "$out"
		cat "$out" >>"$OUT"
		echo >>"$OUT"
		if [ $rc != 0 ]; then
			why="gem_bench exit $rc"
			echo "-- the kernel log's last lines:"
			dmesg | tail -n 40
			head -c 6000 /sys/class/drm/card*/error 2>/dev/null
		fi
	fi
	out=$(unload_gpus) || why="${why:+$why; }$out"
	log_clean "bench@$sim" || why="${why:+$why; }kernel log"
	if [ -n "$why" ]; then
		emit "RESULT bench@$sim FAIL $why"
		echo "FAIL bench@$sim: $why" >>"$OUT"
	else
		emit "RESULT bench@$sim PASS"
	fi
}

main() {
	local sim
	[ -x "$BIN" ] || { emit "BENCH-ERROR $BIN missing"; return 1; }
	for sim in $SIMS; do echo "PLAN bench@$sim"; done >&3
	log_clean boot || emit "BENCH-ERROR kernel log at boot"
	[ -d /sys/module/vgem ] || emit "BENCH-ERROR vgem is not loaded: the vgem lines will be missing"
	: >"$OUT"
	for sim in $SIMS; do
		run_sim "$sim"
	done
}

main
