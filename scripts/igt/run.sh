#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/igt/run.sh - `make igt`: build igt-gpu-tools' gem_*, prime_*,
# syncobj_* and core_* tests once (scripts/igt/build.sh, cached), run them
# in the bench VM on both simulated GPUs at once with vgem loaded
# (scripts/vm/run.sh --script scripts/igt/guest.sh --kmod vgem), and judge
# every subtest against tests/igt/<gpu>-{fails,skips,flakes}.txt
# (scripts/igt/results.py).  Ends with "N passed, N failed, N skipped";
# exit status non-zero on any unexpected result (a failure, a pass of a
# listed failure, a crash, a timeout, a kernel-log problem, a leak) or a
# VM that did not finish.
#
# Usage: scripts/igt/run.sh [--fast] [--update] [--filter 'PATS'] [--exclude 'PATS']
#                           [other scripts/vm/run.sh options, e.g. --sims]
#   --fast           make check's igt lane: only what igt's own CI runs
#                    first, the gem_/prime_/syncobj_/core_ entries of igt's
#                    tests/intel-ci/fast-feedback.testlist (read from igt's
#                    tree): those binaries are built, and each runs exactly
#                    the subtests named there (--run-subtest, and
#                    --dynamic-subtest for BINARY@SUBTEST@DYNAMIC entries);
#                    tests/igt/args.txt is not read, but an entry
#                    tests/igt/fast-exclude.txt names is left out (it
#                    says why).  Judged against the same lists; a listed
#                    subtest this run did not run is not judged
#   --update         rewrite tests/igt/<gpu>-fails.txt and -skips.txt from
#                    this run (reasons from tests/igt/reasons.txt; lists of
#                    binaries that did not run are kept)
#   --filter/--exclude  igt binaries to run, shell patterns ('gem_exec_*')
# Env: IGT_TARBALL (see build.sh), IGT_UPDATE=1 (as --update),
# IGT_TIMEOUT (seconds per binary, default 300), IGT_VM_TIMEOUT (whole VM,
# default 4200, with --fast 1200), IGT_OUT (results, default igt-out/ of the repo: the
# logs in IGT_OUT/vm/igt/<gpu>/<binary>.log), I915GEM_VM_LOCK.
# Per-binary arguments (igt's own subtest filters) come from
# tests/igt/args.txt: "BINARY ARGS...  # why", one binary a line; ARGS
# "-" leaves the binary out.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=../vm/lib.sh
. "$REPO/scripts/vm/lib.sh"

UPDATE=${IGT_UPDATE:-}
[ "$UPDATE" = 0 ] && UPDATE=
IGT_TIMEOUT=${IGT_TIMEOUT:-300}
VM_TIMEOUT=${IGT_VM_TIMEOUT:-4200}
OUT=${IGT_OUT:-$REPO/igt-out}
LISTS=$REPO/tests/igt

# fast_args DIR: "BINARY ARGS" lines for the binaries of igt's
# fast-feedback list (build.sh --fast's DIR/fast.txt): the subtests named
# there for each, as igt's --run-subtest and --dynamic-subtest lists; a
# binary named without a subtest runs whole (no ARGS).  The entries of
# tests/igt/fast-exclude.txt are left out ("BINARY -" if none is left).
fast_args() {
	local b list
	list=$(mktemp)
	sed 's/#.*//; s/[[:space:]]*$//; /^$/d' "$LISTS/fast-exclude.txt" |
		grep -vxF -f - "$1/src/tests/intel-ci/fast-feedback.testlist" >"$list" || true
	sed 's/[[:space:]]*#.*//; /^$/d; s/^/not run: /' "$LISTS/fast-exclude.txt" >&2
	while read -r b; do
		b=${b#tests/}
		awk -v b="$b" -F@ '
			$1 == "igt" && $2 == b {
				if (NF == 2) { whole = 1; next }
				if (!($3 in seen)) { seen[$3]; subs = subs (subs ? "," : "") $3 }
				if (NF > 3 && !($4 in dseen)) { dseen[$4]; dyn = dyn (dyn ? "," : "") $4 }
			}
			END {
				if (whole) { print b; exit }
				if (!subs) { print b " -"; exit }
				printf "%s --run-subtest %s%s\n", b, subs, dyn ? " --dynamic-subtest " dyn : ""
			}' "$list"
	done <"$1/fast.txt"
	rm -f "$list"
}

main() {
	local dir b args line libgcc rc=0 vmargs=() fast='' list
	while [ $# -gt 0 ]; do
		case $1 in
		--update) UPDATE=1; shift ;;
		--fast) fast=1; shift ;;
		*) vmargs+=("$1"); shift ;;
		esac
	done
	[ -z "$fast" ] || VM_TIMEOUT=${IGT_VM_TIMEOUT:-1200}
	dir=$("$REPO/scripts/igt/build.sh" ${fast:+--fast} | tail -n 1)
	# keep the build from being pruned while we use it
	exec 8>>"$dir/.lock"
	flock -s 8
	rm -rf "$OUT"
	mkdir -p "$OUT/bin"
	list=$dir/tests.txt
	[ -z "$fast" ] || list=$dir/fast.txt
	while read -r b; do
		ln -s "$dir/build/$b" "$OUT/bin/"
	done <"$list"
	# igt's own per-binary options: IGT_ARGS_<binary> in the guest; "-"
	# leaves the binary out
	while read -r line; do
		line=${line%%#*}
		read -r b args <<<"$line" || true
		[ -n "$b" ] || continue
		[ -e "$OUT/bin/$b" ] || die "tests/igt/args.txt: no igt binary $b"
		if [ "$args" = - ]; then
			rm "$OUT/bin/$b"
			note "not run: $b (tests/igt/args.txt)"
			continue
		fi
		vmargs+=(--set "IGT_ARGS_$b='$args'")
	done < <(if [ -n "$fast" ]; then fast_args "$dir"; else
		cat "$LISTS/args.txt" 2>/dev/null || true; fi)
	# glibc dlopen()s libgcc_s for pthread_cancel and thread exit: ldd
	# does not name it, igt's threaded tests abort without it
	libgcc=$(ldconfig -p | sed -n 's/^[[:space:]]*libgcc_s.so.1 (libc6,x86-64) => //p' | head -n 1)
	[ -n "$libgcc" ] || die "no 64-bit libgcc_s.so.1 (package libgcc-s1)"
	vmargs+=(--extra "$libgcc:$libgcc")
	"$REPO/scripts/vm/run.sh" --tests "$OUT/bin" \
		--script "$REPO/scripts/igt/guest.sh" --kmod vgem --lane igt \
		--outdir "$OUT/vm" --timeout "$VM_TIMEOUT" \
		--set "IGT_TIMEOUT=$IGT_TIMEOUT" ${vmargs[@]+"${vmargs[@]}"} || rc=$?
	[ -f "$OUT/vm/igt.tar.gz" ] || die "the VM sent no igt results (exit $rc)"
	tar -C "$OUT/vm" -xzf "$OUT/vm/igt.tar.gz"
	echo "=== igt results (logs in $OUT/vm/igt) ==="
	set +e
	python3 "$REPO/scripts/igt/results.py" --logs "$OUT/vm/igt" --lists "$LISTS" \
		${UPDATE:+--update} ${fast:+--subset} | tee "$OUT/summary.txt"
	judged=${PIPESTATUS[0]}
	set -e
	[ "$judged" -le 1 ] || die "scripts/igt/results.py failed"
	# a VM-level failure (the VM died, a bench error) the lists cannot see
	if [ "$rc" != 0 ] && [ "$judged" = 0 ]; then
		echo "igt: the VM run failed (exit $rc; see its summary above)"
		tail -n 1 "$OUT/summary.txt" | sed -E 's/ 0 failed/ 1 failed/'
	fi
	[ "$rc" = 0 ] && [ "$judged" = 0 ]
}

main "$@"
