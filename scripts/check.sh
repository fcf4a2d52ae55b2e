#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/check.sh - `make check` and so CI (.ci/run): install the
# dependencies, build i915.ko, i915_sim.ko and the tests, check the
# modules, run the VM suite on both simulated GPUs, lane by lane, and
# end with the line
#   N passed, N failed, N skipped
# Exit status non-zero if anything failed, a lane crashed or timed out.
#
# Lanes:
#   modules scripts/check-modules.sh on the host: i915.ko holds nothing
#           of the model (symbols, strings, a sim parameter) and
#           i915_sim.ko does not depend on i915.ko.
#   debian  scripts/vm/run.sh on Debian's kernel (the headers' exact
#           version), with the i915.ko and i915_sim.ko that `make
#           modules` built, both simulated GPUs loaded at once (card0 and
#           card1, every test on each), and vgem loaded
#           (gem_exec_foreign_fence shares objects with it).
#   debug   scripts/debugkernel/lane.sh, when it exists and is executable
#           (issue 3), each simulated GPU loaded alone.  Contract: it prints what it likes, ends its output
#           with a line "N passed, N failed[, N skipped]" (scripts/vm/run.sh
#           prints one) and exits non-zero on failure.  A lane that exits
#           non-zero without counting a failure counts as one failure.
#   igt     scripts/igt/run.sh --fast: the gem_*, prime_*, syncobj_* and
#           core_* subtests of igt's own first CI subset (igt-gpu-tools'
#           tests/intel-ci/fast-feedback.testlist), only those binaries
#           built (cached), in the VM on both GPUs with vgem, judged
#           against tests/igt/'s lists.  The whole of igt is `make igt`
#           (hours: Documentation/testing.rst, "igt").
#   dkms    scripts/dkms-check.sh, on the host: `make dkms-deb`'s package,
#           `dkms build` of it for the installed headers in a throw-away
#           tree, i915.ko's modinfo against make's (result "dkms").
# After the debian lane, the GPU error states its tests left in the VM's
# /out are decoded on the host with intel_error_decode
# (scripts/error-decode.sh), counted as the lane "error-decode".
#
# Usage: scripts/check.sh [extra scripts/vm/run.sh options for the debian
#        lane, e.g. --filter 'gem_basic*']
# Env: CHECK_LANES (default "modules debian debug dkms igt": which lanes
# to run).
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=vm/lib.sh
. "$REPO/scripts/vm/lib.sh"

LANES=${CHECK_LANES:-modules debian debug dkms igt}
TOTAL_P=0 TOTAL_F=0 TOTAL_S=0
SUMMARY=()

build() {
	"$REPO/scripts/install-deps.sh"
	make -C "$REPO" modules
	[ -f "$REPO/tests/Makefile" ] || die "tests/Makefile missing"
	make -C "$REPO" tests
}

# run_lane NAME CMD...: run a lane, add its counts to the totals.
run_lane() {
	local name=$1 log rc=0 t0=$SECONDS line p=0 f=0 s=0
	shift
	log=$(mktemp)
	note "lane $name: $*"
	"$@" 2>&1 | tee "$log" || rc=${PIPESTATUS[0]}
	line=$(grep -E '^([A-Za-z]+: )?[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1 || true)
	rm -f "$log"
	if [ -n "$line" ]; then
		line=${line#*: }
		p=$(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')
		f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
		case $line in *skipped*) s=$(echo "$line" | sed -E 's/.* ([0-9]+) skipped.*/\1/') ;; esac
	fi
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1
		echo "FAIL lane $name: exit status $rc without a counted failure"
	fi
	TOTAL_P=$((TOTAL_P + p)) TOTAL_F=$((TOTAL_F + f)) TOTAL_S=$((TOTAL_S + s))
	SUMMARY+=("lane $name: $p passed, $f failed, $s skipped in $((SECONDS - t0)) s")
}

main() {
	local t0=$SECONDS lane out
	build
	for lane in $LANES; do
		case $lane in
		modules) run_lane modules "$REPO/scripts/check-modules.sh" ;;
		debian)
			out=$(mktemp -d)
			run_lane debian "$REPO/scripts/vm/run.sh" --lane debian \
				--kmod vgem --outdir "$out" "$@"
			run_lane error-decode "$REPO/scripts/error-decode.sh" "$out"
			rm -rf "$out"
			;;
		debug)
			if [ -x "$REPO/scripts/debugkernel/lane.sh" ]; then
				run_lane debug "$REPO/scripts/debugkernel/lane.sh"
			else
				note "no executable scripts/debugkernel/lane.sh: the debug lane does not exist yet"
			fi
			;;
		dkms) run_lane dkms "$REPO/scripts/dkms-check.sh" ;;
		igt) run_lane igt "$REPO/scripts/igt/run.sh" --fast ;;
		*) die "unknown lane $lane in CHECK_LANES" ;;
		esac
	done
	echo "=== make check: $((SECONDS - t0)) s ==="
	printf '%s\n' "${SUMMARY[@]}"
	echo "$TOTAL_P passed, $TOTAL_F failed, $TOTAL_S skipped"
	[ "$TOTAL_F" -eq 0 ]
}

main "$@"
