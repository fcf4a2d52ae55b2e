#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/check-modules.sh - host-side checks of the two built modules
# (the "modules" lane of `make check`): the production driver holds
# nothing of the model, and the model stands alone.
#
#   driver-alone@i915.ko   no symbol of the model in i915.ko's symbol
#                          table (defined or undefined: i915_sim*, sim_*),
#                          no string of the model (i915_sim, its debugfs
#                          and firmware-framebuffer names), no module
#                          parameter named sim*
#   model-alone@i915_sim.ko  modinfo shows no dependency on i915, and
#                          i915_sim.ko needs no symbol that i915.ko
#                          defines
#
# Output: "RESULT name PASS|FAIL [why]" lines, then
# "N passed, N failed, N skipped"; exit 1 on failure.
#
# Usage: scripts/check-modules.sh [I915_KO [I915_SIM_KO]]
#        (default: i915.ko and i915_sim.ko at the top of the repository)
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
I915_KO=${1:-$REPO/i915.ko}
SIM_KO=${2:-$REPO/i915_sim.ko}
PASSED=0 FAILED=0

result() {
	local name=$1 why=$2
	if [ -z "$why" ]; then
		echo "RESULT $name PASS"
		PASSED=$((PASSED + 1))
	else
		echo "RESULT $name FAIL $why"
		FAILED=$((FAILED + 1))
	fi
}

# What of the model is in i915.ko; empty when nothing.
driver_alone() {
	local syms strs parms why=''
	[ -f "$I915_KO" ] || { echo "$I915_KO missing: make modules"; return; }
	syms=$(nm "$I915_KO" | awk '{ print $NF }' |
		grep -E '(^|_)i915_sim|^sim_|_sim_(owns|create|destroy|init)' || true)
	strs=$(strings -a "$I915_KO" |
		grep -E 'i915_sim|firmware framebuffer|sim_cmd_delay|cmd_delay_us' || true)
	parms=$(modinfo -F parm "$I915_KO" | grep -E '^sim' || true)
	[ -z "$syms" ] || why="symbols: $(echo "$syms" | head -n 5 | tr '\n' ' ')"
	[ -z "$strs" ] || why="${why:+$why; }strings: $(echo "$strs" | head -n 5 | tr '\n' ' ')"
	[ -z "$parms" ] || why="${why:+$why; }parameters: $(echo "$parms" | cut -d: -f1 | tr '\n' ' ')"
	echo "$why"
}

# What i915_sim.ko takes from i915.ko; empty when nothing.
model_alone() {
	local deps shared why=''
	[ -f "$SIM_KO" ] || { echo "$SIM_KO missing: make modules (without I915_SIM=n)"; return; }
	deps=$(modinfo -F depends "$SIM_KO")
	case ",$deps," in
	*,i915,*) why="depends on i915 ($deps)" ;;
	esac
	if [ -f "$I915_KO" ]; then
		shared=$(comm -12 <(nm -u "$SIM_KO" | awk '{ print $NF }' | sort -u) \
			<(nm --defined-only "$I915_KO" | awk '{ print $NF }' | sort -u))
		[ -z "$shared" ] ||
			why="${why:+$why; }needs symbols of i915.ko: $(echo "$shared" | head -n 5 | tr '\n' ' ')"
	fi
	echo "$why"
}

result "driver-alone@i915.ko" "$(driver_alone)"
result "model-alone@i915_sim.ko" "$(model_alone)"
echo "$PASSED passed, $FAILED failed, 0 skipped"
[ "$FAILED" -eq 0 ]
