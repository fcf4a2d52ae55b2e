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

# Machine-wide locks, the same for every checkout and user (/run/lock is
# world-writable on Debian):
#   DEPS_LOCK       held by scripts/install-deps.sh and
#                   scripts/debugkernel/install-deps.sh for their whole run:
#                   one installer at a time;
#   LINUX_SRC_LOCK  held exclusive while install-deps.sh swaps in a new
#                   /usr/src/linux-source-6.1, shared by a debug kernel
#                   build reading that tree (scripts/debugkernel/build.sh).
# shellcheck disable=SC2034	# used by the scripts that source this
DEPS_LOCK=/run/lock/i915gem-deps.lock
# shellcheck disable=SC2034
LINUX_SRC_LOCK=/run/lock/i915gem-linux-source.lock

# take_lock FILE [-s]: flock FILE, exclusive or with -s shared, on a new
# descriptor left in LOCK_FD; the lock lasts until the process exits or
# closes it (exec {LOCK_FD}<&-).  FILE is created world-writable so that
# every user can lock it.  Says so when it has to wait.
take_lock() {
	local f=$1
	shift
	[ -e "$f" ] || (umask 0 && : >>"$f") 2>/dev/null || true
	exec {LOCK_FD}<"$f" || die "cannot open the lock file $f"
	flock -n "$@" "$LOCK_FD" && return 0
	note "waiting for $f: another run holds it"
	flock "$@" "$LOCK_FD" || die "cannot lock $f"
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
