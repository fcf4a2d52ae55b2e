#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/demo.sh - `make demo`: install the dependencies, build i915.ko
# and i915_sim.ko and the demo client (tests/demo.c -> tests/build/demo),
# boot the VM on Debian's kernel, load the model with a simulated 945G
# (insmod i915_sim.ko ids=0x2772, or DEMO_SIM=0x2a42 for the GM45) and
# the driver, and run the demo client there.  What the
# client leaves in the guest's /out (its report, demo.txt) lands in
# ./demo-out/ on the host.
#
# Usage: scripts/demo.sh [extra scripts/vm/run.sh options]
# Env: DEMO_SIM (default 0x2772), DEMO_OUT (default <repo>/demo-out).
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=vm/lib.sh
. "$REPO/scripts/vm/lib.sh"

SIM=${DEMO_SIM:-0x2772}
OUT=${DEMO_OUT:-$REPO/demo-out}

build() {
	"$REPO/scripts/install-deps.sh"
	make -C "$REPO" modules
	[ -f "$REPO/tests/demo.c" ] || die "tests/demo.c missing"
	make -C "$REPO/tests" build/demo
}

main() {
	local dir rc=0
	build
	dir=$(mktemp -d)
	trap 'rm -rf "$dir"' EXIT
	cp "$REPO/tests/build/demo" "$dir/demo"
	rm -rf "$OUT"
	"$REPO/scripts/vm/run.sh" --lane demo --sims "$SIM" --tests "$dir" \
		--outdir "$OUT" --timeout 600 "$@" || rc=$?
	if [ -f "$OUT/demo.txt" ]; then
		echo
		echo "The demo's report, as the client wrote it inside the VM ($OUT/demo.txt):"
		sed 's/^/  | /' "$OUT/demo.txt"
	else
		echo "demo: the client left no report (expected $OUT/demo.txt)"
		rc=1
	fi
	exit $rc
}

main "$@"
