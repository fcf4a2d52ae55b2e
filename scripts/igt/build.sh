#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/igt/build.sh - build (or find in the cache) the igt-gpu-tools
# test binaries `make igt` runs: every test of igt's own test list
# (tests/test-list.txt, what igt's CI runs) whose name starts with gem_,
# prime_, syncobj_ or core_ (read from the tree, not written here).
#
#   $I915GEM_CACHE/igt-<version>-<hash>/  (default ~/.cache/i915gem)
#     src/        the tarball, unpacked
#     build/      meson's build tree (build/tests/<binary>, build/lib/)
#     tests.txt   the binaries built, one a line (build/tests/<name>)
#     fast.txt    with --fast: the binaries of igt's CI's first subset
#                 (tests/intel-ci/fast-feedback.testlist) among those
#     build.log, .done (written last: the entry is usable; .done-fast:
#     fast.txt's binaries are), .lock
#
# <hash> covers the tarball's sha256 and RECIPE below: another tarball or
# another recipe builds in its own directory; a finished one is reused at
# once, an interrupted one is resumed (ninja is incremental).  Locks, as
# scripts/debugkernel/build.sh: <dir>/.lock shared to use a finished build
# (scripts/igt/run.sh holds it so while the VM runs), exclusive to build
# one, so two checkouts never build into one tree at once and a build in
# use is never pruned.
#
# Usage: build.sh [--print] [--fast]
#   --print  only print the cache dir
#   --fast   build only the binaries named in igt's
#            tests/intel-ci/fast-feedback.testlist (make check's igt lane;
#            the same tree, so a later full build reuses them)
# Prints the cache dir as the last line of stdout; progress goes to stderr.
# Env: IGT_TARBALL (default ../shared/igt/igt-gpu-tools-1.27.1.tar.xz from
# the repo or from the main checkout of a git worktree), I915GEM_CACHE, JOBS (default nproc), NICE (default 10).
set -euo pipefail

# Bump when the configuration or the set of binaries changes.
RECIPE=1

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../vm/lib.sh
. "$here/../vm/lib.sh"
# The default is beside the repo, or beside the main checkout when this is
# a git worktree of it.
tarball=${IGT_TARBALL:-}
if [ -z "$tarball" ]; then
	tarball=$REPO/../shared/igt/igt-gpu-tools-1.27.1.tar.xz
	common=$(git -C "$REPO" rev-parse --path-format=absolute --git-common-dir 2>/dev/null || true)
	[ -f "$tarball" ] || [ -z "$common" ] ||
		tarball=$(dirname "$common")/../shared/igt/igt-gpu-tools-1.27.1.tar.xz
fi
jobs=${JOBS:-$(nproc)}
nice=${NICE:-10}
# The binaries we run: igt's own names for what they test.
WANT='^(gem|prime|syncobj|core)_'
# igt's own CI's first subset, in igt's tree (igt@BINARY[@SUBTEST[@DYN]])
FAST_LIST=src/tests/intel-ci/fast-feedback.testlist

log() { echo "igt: $*" >&2; }

# Remove the builds of other tarballs or recipes (about 300 MB each),
# unless a build or a run holds their lock.
prune_others() {
	local d
	for d in "$I915GEM_CACHE"/igt-*; do
		[ "$d" = "$out" ] || [ ! -d "$d" ] && continue
		(
			exec 8>>"$d/.lock"
			flock -n 8 || exit 0
			log "removing the old cache $d"
			rm -rf "$d"
		)
	done
}

# fast_binaries LISTFILE: the binaries of FAST_LIST that we want and
# LISTFILE (build/tests/NAME lines) holds, as build/tests/NAME lines.
fast_binaries() {
	[ -f "$out/$FAST_LIST" ] || die "no $FAST_LIST in igt's tree"
	sed -n 's/^igt@\([^@]*\).*/tests\/\1/p' "$out/$FAST_LIST" |
		grep -E "^tests/${WANT#^}" | sort -u | comm -12 - <(sort -u "$1")
}

main() {
	local fast='' print='' list
	while [ $# -gt 0 ]; do
		case $1 in
		--print) print=1 ;;
		--fast) fast=1 ;;
		*) die "usage: build.sh [--print] [--fast]" ;;
		esac
		shift
	done
	# CI's clone has shared/ beside it; x.org's release tarball is no
	# stand-in: it predates igt's libproc2 change, which Debian 12 needs
	[ -f "$tarball" ] || die "no igt tarball at $tarball: set IGT_TARBALL to a copy of shared/igt's (Documentation/testing.rst, \"igt\")"
	tarball=$(readlink -f "$tarball")
	local sum name
	sum=$( { echo "recipe=$RECIPE"; sha256sum <"$tarball"; } | sha256sum | cut -c1-12)
	name=$(basename "$tarball" .tar.xz)
	out=$I915GEM_CACHE/igt-${name#igt-gpu-tools-}-$sum
	if [ -n "$print" ]; then
		echo "$out"
		return 0
	fi

	mkdir -p "$out"
	exec 9>>"$out/.lock"
	flock -s 9
	# to build: wait for other builds of it
	[ -f "$out/.done" ] || { [ -n "$fast" ] && [ -f "$out/.done-fast" ]; } || flock 9
	# a full build made before --fast existed: name its subset (written
	# aside and renamed, as a run may hold the lock shared for an hour)
	if [ -n "$fast" ] && [ -f "$out/.done" ] && [ ! -f "$out/.done-fast" ]; then
		fast_binaries "$out/tests.txt" >"$out/fast.txt.$$"
		mv "$out/fast.txt.$$" "$out/fast.txt"
		touch "$out/.done-fast"
	fi
	if [ -f "$out/.done" ] || { [ -n "$fast" ] && [ -f "$out/.done-fast" ]; }; then
		list=tests.txt
		[ -z "$fast" ] || list=fast.txt
		log "cached: $out ($(wc -l <"$out/$list") binaries)"
		echo "$out"
		return 0
	fi

	local start=$SECONDS tmp src targets
	if [ ! -f "$out/src/.unpacked" ]; then
		log "unpacking $tarball"
		rm -rf "$out/src" "$out/build" "$out"/.src.*
		tmp=$(mktemp -d "$out/.src.XXXXXX")
		tar -C "$tmp" -xJf "$tarball"
		src=$(echo "$tmp"/*/)
		[ -f "$src/meson.build" ] || die "$tarball holds no meson tree"
		touch "$src/.unpacked"
		mv -T "$src" "$out/src"
		rm -rf "$tmp"
	fi
	: >"$out/build.log"
	if [ ! -f "$out/build/build.ninja" ]; then
		rm -rf "$out/build"
		log "meson setup (log: $out/build.log)"
		# The options of ../shared/igt/README.md: only what the tests need.
		meson setup "$out/build" "$out/src" -Dtests=enabled \
			-Doverlay=disabled -Dchamelium=disabled -Dvalgrind=disabled \
			-Dman=disabled -Ddocs=disabled -Drunner=disabled \
			-Doping=disabled -Dlibunwind=enabled -Dlibdrm_drivers=intel \
			>>"$out/build.log" 2>&1 ||
			{ tail -n 30 "$out/build.log" >&2; die "meson setup failed"; }
	fi
	# The binaries igt's own CI runs (its tests/test-list.txt, made from
	# test_list in tests/meson.build) whose names we want.
	ninja -C "$out/build" tests/test-list.txt >>"$out/build.log" 2>&1 ||
		die "cannot make igt's test-list.txt; log: $out/build.log"
	tr ' ' '\n' <"$out/build/tests/test-list.txt" | grep -E "$WANT" |
		sed 's|^|tests/|' | sort -u >"$out/tests.tmp" || true
	[ -s "$out/tests.tmp" ] || die "igt's test-list.txt names no $WANT test"
	if [ -n "$fast" ]; then
		fast_binaries "$out/tests.tmp" >"$out/fast.txt"
		mapfile -t targets <"$out/fast.txt"
	else
		mapfile -t targets <"$out/tests.tmp"
	fi
	log "building ${#targets[@]} binaries with ninja -j$jobs (nice $nice)"
	nice -n "$nice" ninja -C "$out/build" -j"$jobs" "${targets[@]}" \
		>>"$out/build.log" 2>&1 ||
		{ grep -E 'error' "$out/build.log" | tail -n 20 >&2; die "igt build failed; log: $out/build.log"; }
	if [ -n "$fast" ]; then
		touch "$out/.done-fast"
	else
		mv "$out/tests.tmp" "$out/tests.txt"
		fast_binaries "$out/tests.txt" >"$out/fast.txt"
		touch "$out/.done" "$out/.done-fast"
	fi
	log "built ${#targets[@]} binaries in $((SECONDS - start)) s"
	flock -s 9
	prune_others
	echo "$out"
}

main "$@"
