#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/install-deps.sh - install everything the build, lint, demo and
# test bench need on a bare Debian 12 machine (CI runs this as root).
# Idempotent: a second run with everything in place does no apt work.
#
#  1. apt packages (apt-get update at most once per run);
#  2. linux-source-6.1 unpacked to /usr/src/linux-source-6.1 (checkpatch,
#     kernel-doc, extract-vmlinux), re-unpacked if its version drifts;
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
	# the VM bench
	qemu-system-x86 qemu-utils busybox-static cpio xz-utils zstd util-linux
	# intel_error_decode: make check decodes the error states the tests leave
	intel-gpu-tools
)

SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo

APT_UPDATED=
apt_update_once() {
	[ -n "$APT_UPDATED" ] && return 0
	note "apt-get update"
	$SUDO apt-get update -q
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
		--no-install-recommends $missing
	missing=$(missing_packages)
	[ -z "$missing" ] || die "still missing after apt-get install: $missing"
}

# Unpack /usr/src/linux-source-6.1.tar.xz unless a tree of the same
# upstream release (Makefile SUBLEVEL) is already there.
unpack_linux_source() {
	local tarball=/usr/src/linux-source-6.1.tar.xz want have
	[ -f "$tarball" ] || die "$tarball missing (package linux-source-6.1)"
	want=$(dpkg-query -W -f='${Version}' linux-source-6.1 | sed -E 's/^6\.1\.([0-9]+).*/\1/')
	have=$(sed -n 's/^SUBLEVEL = //p' "$LINUX_SRC/Makefile" 2>/dev/null || true)
	if [ "$have" = "$want" ] && [ -x "$LINUX_SRC/scripts/checkpatch.pl" ]; then
		return 0
	fi
	note "unpacking $tarball into $(dirname "$LINUX_SRC") (6.1.$want)"
	$SUDO rm -rf "$LINUX_SRC"
	$SUDO mkdir -p "$(dirname "$LINUX_SRC")"
	$SUDO tar -C "$(dirname "$LINUX_SRC")" -xf "$tarball"
	[ -x "$LINUX_SRC/scripts/checkpatch.pl" ] || die "unpacking $tarball gave no $LINUX_SRC"
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
	install_packages
	unpack_linux_source
	fetch_kernel_image
	note "dependencies ready: kernel $(kver) in $(kimg_dir)"
}

main "$@"
