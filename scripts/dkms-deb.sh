#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/dkms-deb.sh - `make dkms-deb`: build the Debian package
# i915gem-dkms_<version>_all.deb into dkms-out/ (debian/ says what it
# holds and does).  <version> is PACKAGE_VERSION in dkms.conf, the one
# place the version is written.
#
# The package is built in a staged copy, dkms-out/i915gem-<version>/, of
# only what DKMS needs on the target: Kbuild, dkms.conf, i915/ and
# include/ (no tests, scripts, Makefile or model), plus debian/ and a
# debian/changelog made here from that version, so that the checkout
# itself gets no build products and no second copy of the version.
# Needs debhelper and dh-dkms (scripts/install-deps.sh installs them).
#
# Prints the path of the .deb as the last line of stdout.
# Env: DKMS_OUT (output directory instead of dkms-out/; the CI check,
# scripts/dkms-check.sh, builds into a directory of its own).
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=vm/lib.sh
. "$REPO/scripts/vm/lib.sh"

OUT=${DKMS_OUT:-$REPO/dkms-out}

# dkms.conf's PACKAGE_VERSION="x.y.z"
dkms_version() {
	local v
	v=$(sed -n 's/^PACKAGE_VERSION="\([^"]*\)"$/\1/p' "$REPO/dkms.conf")
	[[ $v =~ ^[0-9][0-9A-Za-z.+~]*$ ]] || die "dkms.conf: no usable PACKAGE_VERSION (got '$v')"
	echo "$v"
}

# stage DIR: copy what the package ships, and debian/, into DIR.
stage() {
	local dir=$1 d
	mkdir -p "$dir"
	cp -p "$REPO/Kbuild" "$REPO/dkms.conf" "$dir/"
	cp -pR "$REPO/debian" "$dir/"
	for d in i915 include; do
		mkdir -p "$dir/$d"
		find "$REPO/$d" -maxdepth 1 -name '*.[ch]' ! -name '*.mod.c' \
			-exec cp -p -t "$dir/$d" {} +
	done
}

# changelog DIR VERSION: the one entry dpkg needs, dated by the last commit
# (so that rebuilding one commit gives the same package).
changelog() {
	local when
	when=$(git -C "$REPO" log -1 --format=%cD 2>/dev/null || date -R)
	cat >"$1/debian/changelog" <<-EOF
	i915gem ($2) unstable; urgency=medium

	  * Built from $(git -C "$REPO" describe --always --dirty 2>/dev/null || echo "a source tree without git").

	 -- i915gem developers <i915gem@invalid>  $when
	EOF
}

main() {
	local ver dir deb
	ver=$(dkms_version)
	mkdir -p "$OUT"
	exec 9>"$OUT/.lock"
	flock 9
	dir=$OUT/i915gem-$ver
	deb=$OUT/i915gem-dkms_${ver}_all.deb
	rm -rf "$dir" "$deb"
	stage "$dir"
	changelog "$dir" "$ver"
	note "dpkg-buildpackage in $dir"
	(cd "$dir" && dpkg-buildpackage -b -us -uc) >"$OUT/build.log" 2>&1 ||
		{ tail -n 30 "$OUT/build.log" >&2; die "dpkg-buildpackage failed; log: $OUT/build.log"; }
	[ -f "$deb" ] || die "dpkg-buildpackage made no $deb; log: $OUT/build.log"
	echo "$deb"
}

main "$@"
