#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/bench.sh - `make bench`: install the dependencies, build i915.ko,
# i915_sim.ko and the benchmark client (tests/bench/gem_bench.c ->
# tests/build/bench/gem_bench), boot the VM on Debian's kernel with vgem
# (the reference GEM driver, from the same kernel's modules) loaded at
# boot (run.sh --kmod vgem), and run the client on each simulated GPU
# (tests/bench/run-bench.sh is the guest program).  The tables come back
# as ./bench-out/bench.txt, with a header naming the date, the source and
# the host, and are printed.
#
# The client measures everything as ratios to references taken in the
# same boot (DRM_IOCTL_VERSION, memcpy, vgem): absolute numbers under
# QEMU TCG mean little.  See the README, section "Benchmarks".
#
# Usage: scripts/bench.sh [--profile|--perf|--ab REV] [extra scripts/vm/run.sh options]
#   --profile: instead of the tables, where the time of issue 13's goal
#   lines goes (tests/bench/run-profile.sh, ftrace): ./bench-out/profile.txt
#   and the raw hand-off traces ./bench-out/handoff-<id>.txt
#   --perf: the same by sampling (tests/bench/run-perf.sh, Debian's perf
#   in the VM): ./bench-out/perf.txt
#   --ab REV: the tables of revision REV's modules and of the tree's, in
#   turns of one boot (tests/bench/run-ab.sh): ./bench-out/ab.txt, and
#   the goal lines side by side in ./bench-out/ab-summary.txt
# Env: BENCH_SIMS (default "0x2772 0x2a42"), BENCH_OUT (default
#      <repo>/bench-out), BENCH_SAMPLE_S (seconds per sample, default 0.25),
#      BENCH_ONLY (goals: only the references and issue 13's goal lines);
#      with --profile also BENCH_PROFILE_N, PROFILE_GOALS, PROFILE_DEPTH
#      (see tests/bench/run-profile.sh), with --perf BENCH_PROFILE_N,
#      PROFILE_GOALS, PERF_DEPTH (tests/bench/run-perf.sh), with --ab
#      AB_ROUNDS (default 2)
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=vm/lib.sh
. "$REPO/scripts/vm/lib.sh"

SIMS=${BENCH_SIMS:-0x2772 0x2a42}
OUT=${BENCH_OUT:-$REPO/bench-out}
SAMPLE_S=${BENCH_SAMPLE_S:-0.25}
ONLY=${BENCH_ONLY:-}

build() {
	"$REPO/scripts/install-deps.sh"
	make -C "$REPO" modules
	make -C "$REPO/tests" bench
}

# The modules of revision $1, built in $2 from git archive (no worktree
# left behind).
build_base() {
	mkdir -p "$2"
	git -C "$REPO" archive "$1" | tar -x -C "$2"
	make -C "$2" modules >"$2/build.log" 2>&1 ||
		die "building $1 failed: see $2/build.log"
}

# Debian's perf (package linux-perf, of the same kernel series as the
# VM's), which the initramfs gets with its libraries.
perf_binary() {
	local p
	for p in /usr/bin/perf /usr/bin/perf_6.1; do
		if [ -x "$p" ] && file -L "$p" | grep -q ELF; then
			echo "$p"
			return
		fi
	done
	die "no perf binary: install linux-perf (scripts/install-deps.sh does)"
}

header() {
	local cpu
	cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
	echo "i915gem benchmarks (make bench), $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "source: $(git -C "$REPO" describe --always --dirty 2>/dev/null || echo unknown)"
	echo "host: ${cpu:-unknown CPU}, $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg) (at the end, this VM included)"
	echo "VM: $(qemu-system-x86_64 --version | head -n 1), TCG, 1024 MiB, 2 CPUs, Debian kernel $KVER"
	echo
}

main() {
	local rc=0 d script=run-bench.sh lane=bench table=bench.txt extra=()
	local base=
	if [ "${1:-}" = --profile ]; then
		shift
		script=run-profile.sh lane=profile table=profile.txt
	elif [ "${1:-}" = --ab ]; then
		[ -n "${2:-}" ] || die "--ab needs a base revision"
		base=$2
		shift 2
		script=run-ab.sh lane=ab table=ab.txt
	elif [ "${1:-}" = --perf ]; then
		shift
		script=run-perf.sh lane=perf table=perf.txt
		extra=(--extra "$(perf_binary):/usr/bin/perf"
		       --extra "$REPO/tests/bench/perf-sum.awk:/lib/perf-sum.awk")
	fi
	build
	d=$(kimg_dir)
	[ -f "$d/.complete" ] || die "no Debian kernel image in $d: run scripts/install-deps.sh"
	KVER=$(ls "$d/root/lib/modules")
	DIR=$(mktemp -d)
	trap 'rm -rf "$DIR"' EXIT
	mkdir -p "$DIR/tests"
	cp "$REPO/tests/build/bench/gem_bench" "$DIR/tests/gem_bench"
	if [ -n "$base" ]; then
		build_base "$base" "$DIR/base"
		extra=(--extra "$DIR/base/i915.ko:/base/i915.ko"
		       --extra "$DIR/base/i915_sim.ko:/base/i915_sim.ko")
	fi
	rm -rf "$OUT"
	local sets=() v
	for v in BENCH_PROFILE_N PROFILE_GOALS PROFILE_DEPTH PERF_DEPTH AB_ROUNDS; do
		[ -z "${!v:-}" ] || sets+=(--set "$v='${!v}'")
	done
	"$REPO/scripts/vm/run.sh" --lane "$lane" --sims "$SIMS" --tests "$DIR/tests" \
		--script "$REPO/tests/bench/$script" --outdir "$OUT" \
		--set "BENCH_SAMPLE_S=$SAMPLE_S" --set "BENCH_ONLY=$ONLY" --timeout 1800 --kmod vgem \
		"${sets[@]}" ${extra[@]+"${extra[@]}"} "$@" || rc=$?
	if [ -s "$OUT/$table" ]; then
		{ header; cat "$OUT/$table"; } >"$DIR/$table"
		mv "$DIR/$table" "$OUT/$table"
		echo
		echo "The benchmark tables ($OUT/$table):"
		cat "$OUT/$table"
		if [ -n "$base" ]; then
			{ header; echo "base: $base"; echo
			  awk -f "$REPO/tests/bench/ab-sum.awk" "$OUT/$table"; } \
				>"$OUT/ab-summary.txt"
			echo
			cat "$OUT/ab-summary.txt"
		fi
	else
		echo "bench: the client left no tables (expected $OUT/$table)"
		rc=1
	fi
	exit $rc
}

main "$@"
