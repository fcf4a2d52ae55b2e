#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# scripts/vm/mkmesadisk.sh - the host's Mesa (Debian 12's 22.3: the DRI
# megadriver that is crocus for the GM45 and i915g for the 945G, EGL,
# GBM) as a read-only ext2 disk image for the bench VM, so that the Mesa
# test (tests/mesa_gles.c) runs on the very packages a user has.
#
# Usage: mkmesadisk.sh             prints the image's path, building it
#                                  first unless the cache has it
#
# Why a disk and not the initramfs: the megadriver links libLLVM, and
# with its libraries Mesa is about 200 MB.  In the initramfs that would be
# unpacked at every boot of every lane and held in the guest's RAM (tmpfs)
# for the whole suite, beside tests that size their work by RAM; on a
# virtio disk the guest reads only the pages Mesa touches, into page
# cache it can drop.  scripts/vm/run.sh attaches the image as the second
# virtio disk (/dev/vdb) and scripts/vm/init mounts it at /mesa.
#
# The image holds:
#   /dri/crocus_dri.so     the megadriver (i915_dri.so links to it)
#   /lib/*                 libEGL_mesa, libgbm, libglapi and every library
#                          they and the megadriver need (ldd), but the C
#                          library's own, which the initramfs has
#   /egl_vendor.d/50_mesa.json   glvnd's pointer to libEGL_mesa
# The guest finds them through LD_LIBRARY_PATH, LIBGL_DRIVERS_PATH and
# __EGL_VENDOR_LIBRARY_DIRS (scripts/vm/init sets them).
#
# Cached as $I915GEM_CACHE/mesa/<key>.img, the key a hash of the names,
# sizes and times of the files it is made of: a Mesa upgrade makes a new
# one.  Exit status 1 (and no path) if the host has no Mesa.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=lib.sh
. "$REPO/scripts/vm/lib.sh"

LIBDIR=/usr/lib/x86_64-linux-gnu
DRI=$LIBDIR/dri/crocus_dri.so
EGL_JSON=/usr/share/glvnd/egl_vendor.d/50_mesa.json
ROOTS=("$DRI" "$LIBDIR/libEGL_mesa.so.0" "$LIBDIR/libgbm.so.1" "$LIBDIR/libglapi.so.0")

# Every library the roots need, one path a line, the roots first.
closure() {
	local r out
	for r in "${ROOTS[@]}"; do
		readlink -f "$r"
		out=$(ldd "$r") || die "ldd $r failed"
		if grep -q 'not found' <<<"$out"; then
			die "$r: $(grep 'not found' <<<"$out")"
		fi
		sed -n 's/.*=> \(\/[^ ]*\) (.*/\1/p' <<<"$out" |
			grep -Ev '/(libc|libm|libpthread|libdl|librt|ld-linux-x86-64)\.so' || true
	done | awk '!seen[$0]++'
}

STAGE='' IMG=''

main() {
	local f files key size
	if [ ! -f "$DRI" ] || [ ! -f "$EGL_JSON" ]; then
		note "no Mesa on this machine (libgl1-mesa-dri, libegl-mesa0)"
		exit 1
	fi
	files=$(closure)
	# shellcheck disable=SC2086
	key=$( (stat -L -c '%n %s %Y' $files "$EGL_JSON"; cat "$0") | sha256sum | cut -c1-16)
	IMG=$I915GEM_CACHE/mesa/$key.img
	if [ -f "$IMG" ]; then
		echo "$IMG"
		return
	fi
	mkdir -p "$I915GEM_CACHE/mesa"
	STAGE=$(mktemp -d "$I915GEM_CACHE/mesa/stage.XXXXXX")
	trap 'rm -rf "$STAGE" "$IMG.tmp.$$"' EXIT
	mkdir -p "$STAGE/dri" "$STAGE/lib" "$STAGE/egl_vendor.d"
	cp -L "$DRI" "$STAGE/dri/crocus_dri.so"
	ln -s crocus_dri.so "$STAGE/dri/i915_dri.so"
	cp "$EGL_JSON" "$STAGE/egl_vendor.d/"
	while read -r f; do
		[ "$f" = "$(readlink -f "$DRI")" ] && continue
		# under every name a library is asked for: its soname
		cp -L "$f" "$STAGE/lib/$(objdump -p "$f" | awk '$1 == "SONAME" { print $2 }')"
	done <<<"$files"
	size=$(du -sm "$STAGE" | cut -f1)
	mke2fs -q -t ext2 -L mesa -d "$STAGE" "$IMG.tmp.$$" "$((size + size / 8 + 16))M" >&2 ||
		die "mke2fs failed"
	mv "$IMG.tmp.$$" "$IMG"
	note "Mesa disk $IMG: $(du -h "$IMG" | cut -f1) ($size MB of files)"
	echo "$IMG"
}

main "$@"
