#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/bench/run-ab.sh - the guest program of scripts/bench.sh --ab: an
# A/B of two builds in one boot.  For each simulated GPU in $SIMS,
# AB_ROUNDS times (default 2), the base build (/base/i915.ko and
# /base/i915_sim.ko) and the tree's (/i915.ko, /i915_sim.ko) are loaded
# in turn, base first in odd rounds and second in even ones, and
# /tests/gem_bench runs against each; every table goes
# to /out/ab.txt under a line "=== <sim> base|change run <n>".  Two boots
# under TCG do not see the same host; turns of one boot nearly do.
# Results: RESULT ab@<sim>-base|change-<n> PASS|FAIL [why].
#
# /etc/bench.conf may set SIMS, AB_ROUNDS, BENCH_SAMPLE_S, BENCH_ONLY,
# BENCH_TIMEOUT (seconds per client, default 900), I915_ARGS.

[ -r /etc/bench.conf ] && . /etc/bench.conf
SIMS=${SIMS:-"0x2772 0x2a42"}
AB_ROUNDS=${AB_ROUNDS:-2}
BENCH_TIMEOUT=${BENCH_TIMEOUT:-900}
BIN=/tests/gem_bench
OUT=/out/ab.txt
export BENCH_SAMPLE_S BENCH_ONLY

# emit, log_clean, load_gpus (which loads $SIM_KO and $I915_KO), unload_gpus
. /lib/guest-lib.sh

# One turn: build $2 (base or change) on GPU $1, round $3.
run_turn() {
	local name="ab@$1-$2-$3" why="" out
	if [ "$2" = base ]; then
		I915_KO=/base/i915.ko SIM_KO=/base/i915_sim.ko
	else
		I915_KO=/i915.ko SIM_KO=/i915_sim.ko
	fi
	if ! why=$(load_gpus "$1"); then
		emit "RESULT $name FAIL $why"
		unload_gpus >/dev/null
		return
	fi
	echo "=== $1 $2 run $3" >>"$OUT"
	timeout -s KILL "$BENCH_TIMEOUT" "$BIN" </dev/null >>"$OUT" 2>&1 ||
		why="gem_bench exit $?"
	out=$(unload_gpus) || why="${why:+$why; }$out"
	log_clean "$name" >/dev/null || why="${why:+$why; }kernel log"
	if [ -n "$why" ]; then
		emit "RESULT $name FAIL $why"
	else
		emit "RESULT $name PASS"
	fi
}

for sim in $SIMS; do
	r=1
	while [ "$r" -le "$AB_ROUNDS" ]; do
		echo "PLAN ab@$sim-base-$r" >&3
		echo "PLAN ab@$sim-change-$r" >&3
		r=$((r + 1))
	done
done
: >"$OUT"
for sim in $SIMS; do
	r=1
	while [ "$r" -le "$AB_ROUNDS" ]; do
		# Odd rounds base first, even rounds the change first: a turn
		# that always came second would carry any drift of the boot.
		if [ $((r % 2)) = 1 ]; then
			run_turn "$sim" base "$r"
			run_turn "$sim" change "$r"
		else
			run_turn "$sim" change "$r"
			run_turn "$sim" base "$r"
		fi
		r=$((r + 1))
	done
done
