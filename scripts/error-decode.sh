#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/error-decode.sh DIR - decode, on the host, the GPU error states
# the tests left in DIR (the VM's /out, brought back by scripts/vm/run.sh
# --outdir) with Debian's intel_error_decode (package intel-gpu-tools),
# as a user would.  tests/gem_error_state_hang and gem_exec_reset leave
# NAME.txt (the text of sysfs card<N>/error) and NAME.expect (through
# gem_error_state_save() of tests/lib): extended regular expressions,
# one a line, each of which must match a line of what intel_error_decode
# prints for the batch ("batch (rcs0) at 0x...", up to the next buffer).
#
# One result line per error state, "RESULT intel_error_decode@NAME PASS"
# (or FAIL, with the decoder's batch section), then the line
#   N passed, N failed, N skipped
# (the skip: no error state in DIR, e.g. when the test was filtered out).
# Exit status non-zero if anything failed.
set -euo pipefail

DIR=${1:?usage: $0 DIR}
DECODE=${INTEL_ERROR_DECODE:-intel_error_decode}
pass=0 fail=0 skip=0

# The decoded batch of error state $1 on stdout.
batch_section() {
	"$DECODE" "$1" 2>&1 </dev/null |
		awk '/^batch \(rcs0\) at 0x/ { on = 1; print; next }
		     on && / \(rcs0\) at 0x/ { on = 0 }
		     on { print }'
}

check_one() {
	local txt=$1 name expect decoded re missing=()
	name=$(basename "$txt" .txt)
	expect=${txt%.txt}.expect
	decoded=$(batch_section "$txt")
	if [ -z "$decoded" ]; then
		missing+=("no decoded batch")
	elif [ -f "$expect" ]; then
		while IFS= read -r re; do
			[ -n "$re" ] || continue
			grep -Eq -- "$re" <<<"$decoded" || missing+=("$re")
		done <"$expect"
	fi
	if [ ${#missing[@]} -eq 0 ]; then
		echo "RESULT intel_error_decode@$name PASS"
		pass=$((pass + 1))
	else
		echo "RESULT intel_error_decode@$name FAIL: not decoded: ${missing[*]}"
		head -n 40 <<<"$decoded" | sed 's/^/    /'
		fail=$((fail + 1))
	fi
}

main() {
	local f found=
	if ! command -v "$DECODE" >/dev/null; then
		echo "RESULT intel_error_decode FAIL: no $DECODE (scripts/install-deps.sh installs intel-gpu-tools)"
		echo "0 passed, 1 failed, 0 skipped"
		exit 1
	fi
	for f in "$DIR"/error_state-*.txt; do
		[ -f "$f" ] || continue
		found=1
		check_one "$f"
	done
	[ -n "$found" ] || { echo "no error state in $DIR: nothing to decode"; skip=1; }
	echo "$pass passed, $fail failed, $skip skipped"
	[ "$fail" -eq 0 ]
}

main
