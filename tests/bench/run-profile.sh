#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tests/bench/run-profile.sh - the guest program of scripts/bench.sh
# --profile: where the time of issue 13's goal lines goes, with ftrace
# (Debian's kernel has the function-graph tracer; perf would need its
# libraries in the initramfs).  For each simulated GPU in $SIMS and each
# goal line in $PROFILE_GOALS (see BENCH_PROFILE in gem_bench.c), the
# line's operation runs BENCH_PROFILE_N times, untimed:
#   - goal 2 (exec + WAIT, the hand-off) under the scheduler, IRQ and
#     i915 trace events: the raw trace goes to /out/handoff-SIM.txt;
#   - the others under the function-graph tracer rooted at the
#     EXECBUFFER2 ioctl, PROFILE_DEPTH levels deep (default 4): the time
#     per function, summed over the last 512 KiB of trace per CPU (the
#     last execs of the run), goes to /out/profile.txt.
# The function-graph tracer slows every traced call: the totals rank the
# functions, they are not the untraced times.
#
# /etc/bench.conf may set SIMS, PROFILE_GOALS (default "1 2 3 4 5 6"),
# PROFILE_DEPTH, BENCH_PROFILE_N, I915_ARGS.

[ -r /etc/bench.conf ] && . /etc/bench.conf
SIMS=${SIMS:-"0x2772 0x2a42"}
PROFILE_GOALS=${PROFILE_GOALS:-"1 2 3 4 5 6"}
PROFILE_DEPTH=${PROFILE_DEPTH:-4}
BIN=/tests/gem_bench
OUT=/out/profile.txt
T=/sys/kernel/tracing
export BENCH_PROFILE_N

# emit, log_clean, load_gpus, unload_gpus
. /lib/guest-lib.sh

# Sum the function-graph durations per depth and function: the top 30.
graph_sum() {
	awk -F'|' '
	/us / {
		d = $1; sub(/^.*\) */, "", d); sub(/^[-+!#*@$] */, "", d)
		sub(/ us.*/, "", d)
		f = $2; depth = match(f, /[^ ]/); depth = int((depth - 3) / 2)
		gsub(/[{}();]|\/\*|\*\/|\[i915[_a-z]*\]/, "", f)
		gsub(/ +/, " ", f); sub(/^ /, "", f); sub(/ $/, "", f)
		k = depth " " f; t[k] += d; n[k]++
	}
	END { for (k in t) printf "%12.0f us %8d  %s\n", t[k], n[k], k }' |
		sort -rn | head -n 30
}

# The function-graph tracer, on from graph_on to graph_off: switching
# tracers patches every function of the kernel, slow under TCG.
graph_on() {
	echo 0 >$T/tracing_on
	# Small: printing the trace resolves every module symbol slowly.
	echo 512 >$T/buffer_size_kb
	echo i915_gem_execbuffer2_ioctl >$T/set_graph_function
	echo "$PROFILE_DEPTH" >$T/max_graph_depth
	echo 1 >$T/options/funcgraph-tail
	echo function_graph >$T/current_tracer
}

graph_off() {
	echo nop >$T/current_tracer
	: >$T/set_graph_function
}

profile_graph() {
	local sim=$1 goal=$2
	: >$T/trace
	echo 1 >$T/tracing_on
	BENCH_ONLY=goals BENCH_PROFILE=$goal "$BIN" >/dev/null 2>&1
	echo 0 >$T/tracing_on
	{
		echo "== $sim goal $goal: time (traced) calls depth function"
		graph_sum <$T/trace
		echo
	} >>"$OUT"
}

profile_handoff() {
	local sim=$1 e
	echo 0 >$T/tracing_on
	echo nop >$T/current_tracer
	: >$T/trace
	echo 2048 >$T/buffer_size_kb
	for e in sched/sched_switch sched/sched_wakeup irq/irq_handler_entry \
		 i915/i915_request_emit i915/i915_request_signal \
		 i915/i915_exec_submit raw_syscalls/sys_enter \
		 raw_syscalls/sys_exit; do
		[ -d "$T/events/$e" ] && echo 1 >"$T/events/$e/enable"
	done
	echo 1 >$T/tracing_on
	BENCH_ONLY=goals BENCH_PROFILE=2 "$BIN" >/dev/null 2>&1
	echo 0 >$T/tracing_on
	cat $T/trace >/out/handoff-$sim.txt
	echo 0 >$T/events/enable
}

run_sim() {
	local sim=$1 why goal
	if ! why=$(load_gpus "$sim"); then
		emit "RESULT profile@$sim FAIL $why"
		unload_gpus >/dev/null
		return
	fi
	case " $PROFILE_GOALS " in
	*" 2 "*)
		echo "profile: $sim hand-off"
		profile_handoff "$sim"
		;;
	esac
	graph_on
	for goal in $PROFILE_GOALS; do
		[ "$goal" = 2 ] && continue
		echo "profile: $sim goal $goal"
		profile_graph "$sim" "$goal"
	done
	graph_off
	why=$(unload_gpus) || { emit "RESULT profile@$sim FAIL $why"; return; }
	emit "RESULT profile@$sim PASS"
}

main() {
	local sim
	[ -e $T/trace ] || mount -t tracefs nodev $T
	[ -x "$BIN" ] || { emit "BENCH-ERROR $BIN missing"; return 1; }
	for sim in $SIMS; do echo "PLAN profile@$sim"; done >&3
	: >"$OUT"
	for sim in $SIMS; do
		run_sim "$sim"
	done
}

main
