#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/install-deps.sh - install everything the build, lint, demo and
# test bench need on a bare Debian 12 machine (CI runs this as root).
# Idempotent: a second run with everything in place changes nothing (no
# apt work, no unpacking, no download) and takes about a second.
# Safe when several run at once on one machine (two checkouts, CI beside a
# user): each run holds DEPS_LOCK (scripts/vm/lib.sh) throughout, so the
# next one waits, then finds the work done.
#
#  1. apt packages (apt-get update at most once per run);
#  2. linux-source-6.1 unpacked to /usr/src/linux-source-6.1 (checkpatch,
#     kernel-doc, extract-vmlinux), re-unpacked if its version drifts:
#     into a directory beside it, then renamed into place (under
#     LINUX_SRC_LOCK), so that nobody sees a half-unpacked tree;
#  3. Debian's linux-image-<kver>-unsigned, exactly the version of the
#     installed linux-headers-<kver>, unpacked into the cache
#     (scripts/vm/lib.sh: kimg_dir) with an uncompressed vmlinux beside it.
#
# Environment: I915GEM_CACHE (cache root), LINUX_SRC (source tree dir).
set -euo pipefail

REPO=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=vm/lib.sh
. "$REPO/scripts/vm/lib.sh"

LINUX_SRC=${LINUX_SRC:-/usr/src/linux-source-6.1}

PACKAGES=(
	# building i915.ko and the tests (64- and 32-bit), lint
	ca-certificates make gcc libc6-dev binutils kmod pkg-config file perl
	linux-headers-amd64 linux-source-6.1 sparse libdrm-dev gcc-multilib
	# building a kernel from linux-source (the debug lane, issue 3)
	bc flex bison libelf-dev libssl-dev
	# the VM bench; perf for scripts/bench.sh --perf
	qemu-system-x86 qemu-utils busybox-static cpio xz-utils zstd util-linux
	linux-perf
	# the Mesa test (tests/mesa_gles.c): Debian's Mesa, its headers, and
	# mke2fs for the disk that carries it into the VM (vm/mkmesadisk.sh)
	libgl1-mesa-dri libegl-mesa0 libegl1 libgbm1 libgles2
	libgbm-dev libegl-dev libgles-dev e2fsprogs
	# intel_error_decode: make check decodes the error states the tests leave
	intel-gpu-tools
	# the DKMS package (make dkms-deb) and the dkms lane of make check
	dkms dpkg-dev debhelper dh-dkms
	# building igt-gpu-tools' tests (make igt, scripts/igt/build.sh); python3-docutils also
	# for make lint (scripts/check-rst.py)
	meson ninja-build python3 peg libkmod-dev libproc2-dev libpciaccess-dev
	libdw-dev libcairo2-dev libpixman-1-dev libudev-dev libglib2.0-dev
	libunwind-dev libxrandr-dev libxv-dev python3-docutils libjson-c-dev
	libgsl-dev libasound2-dev
)

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo

APT_UPDATED=
apt_update_once() {
	[ -n "$APT_UPDATED" ] && return 0
	note "apt-get update"
	$SUDO apt-get update -q -o DPkg::Lock::Timeout=600
	APT_UPDATED=1
}

missing_packages() {
	local p
	for p in "${PACKAGES[@]}"; do
		dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
			echo "$p"
	done
}

install_packages() {
	local missing
	missing=$(missing_packages)
	[ -z "$missing" ] && return 0
	note "installing: $(tr '\n' ' ' <<<"$missing")"
	apt_update_once
	# shellcheck disable=SC2086
	$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
		-o DPkg::Lock::Timeout=600 --no-install-recommends $missing
	missing=$(missing_packages)
	[ -z "$missing" ] || die "still missing after apt-get install: $missing"
}

# Unpack /usr/src/linux-source-6.1.tar.xz unless a tree of the same
# upstream release (Makefile SUBLEVEL) is already there.  The new tree is
# unpacked beside the old one and renamed into place; the old one is
# removed after.  A run killed half-way leaves only a .linux-source-6.1.*
# directory, which the next run removes (under DEPS_LOCK, so that no
# other run is unpacking into it).
unpack_linux_source() {
	local tarball=/usr/src/linux-source-6.1.tar.xz want have parent tmp
	[ -f "$tarball" ] || die "$tarball missing (package linux-source-6.1)"
	want=$(dpkg-query -W -f='${Version}' linux-source-6.1 | sed -E 's/^6\.1\.([0-9]+).*/\1/')
	have=$(sed -n 's/^SUBLEVEL = //p' "$LINUX_SRC/Makefile" 2>/dev/null || true)
	if [ "$have" = "$want" ] && [ -x "$LINUX_SRC/scripts/checkpatch.pl" ]; then
		return 0
	fi
	parent=$(dirname "$LINUX_SRC")
	$SUDO mkdir -p "$parent"
	$SUDO rm -rf "$parent"/.linux-source-6.1.*
	tmp=$($SUDO mktemp -d "$parent/.linux-source-6.1.XXXXXX")
	note "unpacking $tarball into $tmp (6.1.$want)"
	$SUDO tar -C "$tmp" -xf "$tarball"
	[ -x "$tmp/linux-source-6.1/scripts/checkpatch.pl" ] || die "unpacking $tarball gave no linux-source-6.1"
	# not while a debug kernel build reads the old tree
	take_lock "$LINUX_SRC_LOCK"
	[ ! -e "$LINUX_SRC" ] || $SUDO mv -T "$LINUX_SRC" "$tmp/old"
	$SUDO mv -T "$tmp/linux-source-6.1" "$LINUX_SRC"
	exec {LOCK_FD}<&-
	$SUDO rm -rf "$tmp"
	note "$LINUX_SRC is 6.1.$want"
}

# apt-get download linux-image-<kver>-unsigned=<version> into $1.
download_image() {
	local kv=$2 dv=$3
	(cd "$1" && apt-get download -q "linux-image-$kv-unsigned=$dv")
}

# Download and unpack linux-image-<kver>-unsigned=<headers' version>.  If
# the archive no longer has that version (it moved to a new kernel ABI),
# upgrade the headers and follow them: headers and image stay one version.
fetch_kernel_image() {
	local kv dv dir tmp dl deb
	dir=$(kimg_dir)
	[ -f "$dir/.complete" ] && return 0
	# apt-get download drops privileges to _apt: give it the directory
	dl=$(mktemp -d)
	chmod 755 "$dl"
	[ "$(id -u)" -ne 0 ] || ! id _apt >/dev/null 2>&1 || chown _apt "$dl"
	kv=$(kver)
	dv=$(kdebver "$kv")
	note "fetching linux-image-$kv-unsigned=$dv"
	if ! download_image "$dl" "$kv" "$dv"; then
		apt_update_once
		if ! download_image "$dl" "$kv" "$dv"; then
			note "linux-image-$kv-unsigned=$dv is gone from the archive: upgrading the headers"
			$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
				--no-install-recommends linux-headers-amd64
			kv=$(kver)
			dv=$(kdebver "$kv")
			dir=$(kimg_dir)
			[ -f "$dir/.complete" ] && { rm -rf "$dl"; return 0; }
			download_image "$dl" "$kv" "$dv" ||
				die "cannot download linux-image-$kv-unsigned=$dv (must match linux-headers-$kv)"
		fi
	fi
	deb=$(ls "$dl"/linux-image-*.deb)
	mkdir -p "$I915GEM_CACHE/kimg"
	rm -rf "$I915GEM_CACHE"/kimg/.fetch.*	# a killed run's (DEPS_LOCK held)
	tmp=$(mktemp -d "$I915GEM_CACHE/kimg/.fetch.XXXXXX")
	dpkg-deb -x "$deb" "$tmp/root"
	rm -rf "$dl"
	[ -d "$tmp/root/lib/modules/$kv/kernel" ] || die "$deb holds no lib/modules/$kv"
	extract_vmlinux "$tmp/root/boot/vmlinuz-$kv" >"$tmp/vmlinux" ||
		die "cannot extract vmlinux from $deb"
	is_pvh_vmlinux "$tmp/vmlinux" || die "$deb: vmlinux has no PVH entry point (qboot needs it)"
	rm -rf "$dir"
	mv "$tmp" "$dir"
	touch "$dir/.complete"
	note "kernel image in $dir"
}

main() {
	take_lock "$DEPS_LOCK"
	install_packages
	unpack_linux_source
	fetch_kernel_image
	note "dependencies ready: kernel $(kver) in $(kimg_dir)"
}

main "$@"
