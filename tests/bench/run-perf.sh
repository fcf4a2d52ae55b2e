#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/bench/run-perf.sh - the guest program of scripts/bench.sh --perf:
# where the time of issue 13's goal lines goes, by sampling.  For each
# simulated GPU in $SIMS and each goal line in $PROFILE_GOALS (see
# BENCH_PROFILE in gem_bench.c), the line's operation runs N times
# (BENCH_PROFILE_N, or a default per line), untimed, under perf record
# (the cpu-clock event at 4 kHz on both CPUs, with kernel call chains:
# TCG has no hardware counters).  Only the
# samples taken inside the EXECBUFFER2 ioctl are counted, by the awk
# program perf-sum.awk: per function where the time was (the leaf), and
# per call path of up to PERF_DEPTH (default 4) functions below
# exec_run(); the totals go to /out/perf.txt.  The samples of the rest
# of the run (gem_bench's references, the model's thread) are summed per
# task and function too.  A sample is 250 us of a CPU's time: divided by
# N it is the time per exec.
#
# Unlike the function-graph tracer of run-profile.sh, sampling slows
# nothing it measures (the tracer inflates every traced call); a time
# spent with interrupts off is counted where they are enabled again
# (_raw_spin_unlock_irqrestore and the like).
#
# /etc/bench.conf may set SIMS, PROFILE_GOALS (default "1 6"),
# PERF_DEPTH, BENCH_PROFILE_N (default: enough runs of the line for about
# ten seconds of samples, from 50000 empty execs to 2000 of 1000 objects),
# I915_ARGS.

[ -r /etc/bench.conf ] && . /etc/bench.conf
SIMS=${SIMS:-"0x2772 0x2a42"}
PROFILE_GOALS=${PROFILE_GOALS:-"1 6"}
PERF_DEPTH=${PERF_DEPTH:-4}
N=${BENCH_PROFILE_N:-}
BIN=/tests/gem_bench
PERF=/usr/bin/perf
OUT=/out/perf.txt

# How many times goal line $1 runs, unless BENCH_PROFILE_N says.
goal_n() {
	if [ -n "$N" ]; then
		echo "$N"
		return
	fi
	case $1 in
	1 | 2) echo 50000 ;;
	3 | 4) echo 20000 ;;
	5) echo 5000 ;;
	*) echo 2000 ;;
	esac
}

# emit, load_gpus, unload_gpus
. /lib/guest-lib.sh

perf_goal() {
	local sim=$1 goal=$2 n
	n=$(goal_n "$goal")
	BENCH_ONLY=goals BENCH_PROFILE=$goal BENCH_PROFILE_N=$n \
		"$PERF" record -q -a -g -F 4000 -e cpu-clock \
		-o /tmp/perf.data "$BIN" >/dev/null 2>&1 || return 1
	{
		echo "== $sim goal $goal, $n times: samples of 250 us"
		"$PERF" script -i /tmp/perf.data -F comm,ip,sym 2>/dev/null |
			awk -v DEPTH="$PERF_DEPTH" -f /lib/perf-sum.awk
		echo
	} >>"$OUT"
	rm -f /tmp/perf.data
}

run_sim() {
	local sim=$1 why goal
	if ! why=$(load_gpus "$sim"); then
		emit "RESULT perf@$sim FAIL $why"
		unload_gpus >/dev/null
		return
	fi
	for goal in $PROFILE_GOALS; do
		echo "perf: $sim goal $goal"
		if ! perf_goal "$sim" "$goal"; then
			emit "RESULT perf@$sim FAIL goal $goal: perf record failed"
			unload_gpus >/dev/null
			return
		fi
	done
	why=$(unload_gpus) || { emit "RESULT perf@$sim FAIL $why"; return; }
	emit "RESULT perf@$sim PASS"
}

main() {
	local sim
	[ -x "$BIN" ] || { emit "BENCH-ERROR $BIN missing"; return 1; }
	[ -x "$PERF" ] || { emit "BENCH-ERROR $PERF missing"; return 1; }
	for sim in $SIMS; do echo "PLAN perf@$sim"; done >&3
	# kernel symbols and system-wide sampling for root
	echo 0 >/proc/sys/kernel/kptr_restrict
	echo -1 >/proc/sys/kernel/perf_event_paranoid
	: >"$OUT"
	for sim in $SIMS; do
		run_sim "$sim"
	done
}

main
