#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/check-docs.sh - keep Documentation/ true to the tree: every
# ".. kernel-doc:: FILE" directive of Documentation/*.rst must name a file
# that exists, and kernel-doc must find in it what the directive asks
# for (the DOC: section of ":doc: TITLE", or documented functions for
# ":internal:"), without a warning; and every path of the repository that
# README or Documentation/*.rst names (i915/..., sim/..., include/...,
# tests/..., scripts/..., Documentation/...) must exist, but for
# placeholders (<name>, patterns) and what the build makes (tests/build);
# and docutils must parse every Documentation/*.rst without a warning
# (scripts/check-rst.py: malformed tables, unbalanced inline markup).
# Prints one line per problem and exits non-zero if there is any.
#
# Usage: scripts/check-docs.sh
# Env: LINUX_SRC (default /usr/src/linux-source-6.1, for scripts/kernel-doc)
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
KDOC=${LINUX_SRC:-/usr/src/linux-source-6.1}/scripts/kernel-doc
BAD=0

# check RST FILE MODE [TITLE]: run kernel-doc as the directive would.
check() {
	local rst=$1 file=$2 mode=$3 title=${4:-} what=$3 out err
	local -a args=(-rst)

	if [ ! -f "$REPO/$file" ]; then
		echo "$rst: kernel-doc directive names $file, which does not exist"
		BAD=1
		return
	fi
	case $mode in
	doc) args+=(-function "$title") ;;
	internal) args+=(-internal) ;;
	esac
	err=$(mktemp)
	[ -n "$title" ] && what="$mode \"$title\""
	out=$(cd "$REPO" && "$KDOC" "${args[@]}" "$file" 2>"$err" </dev/null)
	if grep -v 'Sphinx version' "$err" | grep -q . || [ -z "${out//[[:space:]]/}" ]; then
		echo "$rst: $file $what: nothing found"
		grep -v 'Sphinx version' "$err" | sed 's/^/  /'
		BAD=1
	fi
	rm -f "$err"
}

# One directive: ".. kernel-doc:: FILE" and its option lines below.
scan() {
	local rst=$1 line file='' mode='' title=''

	while IFS= read -r line || [ -n "$line" ]; do
		case $line in
		'.. kernel-doc:: '*)
			[ -n "$file" ] && check "$rst" "$file" "${mode:-all}" "$title"
			file=${line#.. kernel-doc:: } mode='' title=''
			;;
		'   :doc: '*) mode=doc title=${line#   :doc: } ;;
		'   :internal:'*) mode=internal ;;
		'   :'*) mode=${mode:-all} ;;
		*)
			[ -n "$file" ] && check "$rst" "$file" "${mode:-all}" "$title"
			file=''
			;;
		esac
	done <"$REPO/$rst"
	[ -n "$file" ] && check "$rst" "$file" "${mode:-all}" "$title"
	return 0
}

# Repository paths named in the text.
paths() {
	local p

	cd "$REPO"
	grep -ohE '(^|[^A-Za-z0-9_./~-])(i915|sim|include|tests|scripts|Documentation|\.ci)/[A-Za-z0-9_.*/<>-]*' \
		README Documentation/*.rst |
		sed -E 's/^[^A-Za-z.]//; s/[.]+$//' | sort -u |
		while read -r p; do
			case $p in *'<'* | *'*'* | tests/build*) continue ;; esac
			[ -e "$p" ] || echo "README or Documentation/ names $p, which does not exist"
		done
}

for f in "$REPO"/Documentation/*.rst; do
	scan "Documentation/${f##*/}"
done
"$REPO"/scripts/check-rst.py "$REPO"/Documentation/*.rst || BAD=1
missing=$(paths)
if [ -n "$missing" ]; then
	echo "$missing"
	BAD=1
fi
[ "$BAD" = 0 ] && echo "Documentation: every kernel-doc directive resolves, every path exists, docutils parses every file"
exit "$BAD"
