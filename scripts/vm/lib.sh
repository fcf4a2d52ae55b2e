# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# scripts/vm/lib.sh - helpers shared by the host-side bench scripts
# (install-deps.sh, check.sh, demo.sh, vm/run.sh, vm/mkinitramfs.sh).
# Sourced, never executed.  Owns the cache layout:
#
#   $I915GEM_CACHE/                    default ~/.cache/i915gem
#     kimg/<kver>_<debver>/root/       dpkg -x of linux-image-<kver>-unsigned
#     kimg/<kver>_<debver>/vmlinux     uncompressed kernel for qboot
#     kimg/<kver>_<debver>/.complete   written last: the entry is usable
#     vmlinux/<sha256>                 vmlinux extracted from a given bzImage

REPO=${REPO:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
I915GEM_CACHE=${I915GEM_CACHE:-${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/i915gem}

die() {
	echo "ERROR: $*" >&2
	exit 1
}

note() {
	echo ">>> $*" >&2
}

# The Debian kernel ABI version whose headers are installed (6.1.0-56-amd64).
kver() {
	local v
	v=$("$REPO/scripts/kver.sh") || die "scripts/kver.sh failed"
	[ -n "$v" ] || die "no /usr/src/linux-headers-6.1.*-amd64: run scripts/install-deps.sh"
	echo "$v"
}

# Debian package version of the installed headers (6.1.192-2); the image
# must be exactly this version too.
kdebver() {
	dpkg-query -W -f='${Version}' "linux-headers-$1" 2>/dev/null ||
		die "package linux-headers-$1 is not installed"
}

# Directory holding the unpacked Debian image matching the headers.
kimg_dir() {
	local kv
	kv=$(kver)
	echo "$I915GEM_CACHE/kimg/${kv}_$(kdebver "$kv")"
}

# Print the uncompressed vmlinux inside a bzImage/vmlinuz ($1) on stdout,
# with the kernel's own scripts/extract-vmlinux (any compression).
extract_vmlinux() {
	local x=${LINUX_SRC:-/usr/src/linux-source-6.1}/scripts/extract-vmlinux
	[ -x "$x" ] || die "$x missing: run scripts/install-deps.sh"
	"$x" "$1"
}

# True if $1 is an ELF kernel QEMU can start directly (PVH note present).
is_pvh_vmlinux() {
	readelf -h "$1" >/dev/null 2>&1 && readelf -n "$1" 2>/dev/null | grep -q 'Xen.*0x00000012'
}
